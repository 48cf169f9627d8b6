// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "distributed.h"
#include "util.h"

/* ---------------------------------------------------------------------
 * Ranges
 */

struct spans {
	struct span_ns *v;
	size_t nr, alloc;
};

static void spans_add(struct spans *s, int64_t start, int64_t end)
{
	GROW(s->v, s->alloc, s->nr + 1);
	s->v[s->nr].start = start;
	s->v[s->nr].end = end;
	s->nr++;
}

static int cmp_span(const void *a, const void *b)
{
	const struct span_ns *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end < y->end) - (x->end > y->end);	/* longer first */
}

/* Below this many spans qsort() beats the radix sort's passes. */
#define RADIX_MIN 1024
#define RADIX_BITS 11

/*
 * Sort V by cmp_span(): a stable LSD radix sort by start (RADIX_BITS a
 * pass, as many passes as the spread of the starts needs), then each run
 * of one start by end, longest first.  Spans that compare equal are equal
 * in both fields, so the result is qsort()'s to the byte.  With qsort()
 * and cmp_span(), the 2.7e5 kernels of a 1 GB trace made rank_local_of()
 * 60 ms instead of 48.
 */
static void sort_spans(struct span_ns *v, size_t n)
{
	struct span_ns *tmp;
	size_t *count;
	int64_t min, max;
	uint64_t spread;

	if (n < RADIX_MIN) {
		qsort(v, n, sizeof(*v), cmp_span);
		return;
	}
	min = max = v[0].start;
	for (size_t i = 1; i < n; i++) {
		if (v[i].start < min)
			min = v[i].start;
		if (v[i].start > max)
			max = v[i].start;
	}
	/* Unsigned: the spread of any two int64 starts fits. */
	spread = (uint64_t)max - (uint64_t)min;
	tmp = xmalloc(n * sizeof(*tmp));
	count = xmalloc(((size_t)1 << RADIX_BITS) * sizeof(*count));
	for (unsigned shift = 0; shift < 64 && spread >> shift; shift += RADIX_BITS) {
		const uint64_t mask = ((uint64_t)1 << RADIX_BITS) - 1;
		size_t sum = 0;

		memset(count, 0, ((size_t)1 << RADIX_BITS) * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(((uint64_t)v[i].start - (uint64_t)min) >> shift) & mask]++;
		for (size_t d = 0; d <= mask; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(((uint64_t)v[i].start - (uint64_t)min) >> shift) & mask]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(count);
	free(tmp);
	/* Spans of one start: longest first (few each, but a hostile file
	 * may have many: qsort() beyond a handful). */
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].start == v[i].start; j++)
			;
		if (j - i > 8) {
			qsort(v + i, j - i, sizeof(*v), cmp_span);
			continue;
		}
		for (size_t k = i + 1; k < j; k++) {
			struct span_ns x = v[k];
			size_t m = k;

			for (; m > i && v[m - 1].end < x.end; m--)
				v[m] = v[m - 1];
			v[m] = x;
		}
	}
}

/* Sort and merge (range_utils.merge_ranges); returns the new count. */
static size_t merge(struct span_ns *v, size_t n)
{
	size_t out = 0;

	if (!n)
		return 0;
	sort_spans(v, n);
	for (size_t i = 1; i < n; i++) {
		if (v[i].start <= v[out].end) {
			if (v[i].end > v[out].end)
				v[out].end = v[i].end;
		} else {
			v[++out] = v[i];
		}
	}
	return out + 1;
}

int64_t span_union(struct span_ns *v, size_t n)
{
	int64_t sum = 0;

	/* Merged, the spans never overlap: their sum passes SUM_CAP only
	 * when bounded times near both ends of the bounds are in it. */
	n = merge(v, n);
	for (size_t i = 0; i < n; i++)
		sum_add(&sum, v[i].end - v[i].start);
	return sum;
}

/*
 * The length of merged A within [LO, HI).  Merged, each span starts after
 * the one before it ends (merge() starts a span only there), so every span
 * before the last one starting below LO ends below LO: the sum starts at
 * that one, found by bisection, and stops at the first span starting at or
 * after HI.  A step costs the spans it holds, not all of them: summing
 * every span for every step took 8 s for 10^5 steps over 10^5 kernels.
 */
static int64_t within(const struct spans *a, int64_t lo, int64_t hi)
{
	size_t first = 0, end = a->nr;
	int64_t sum = 0;

	while (first < end) {
		size_t mid = first + (end - first) / 2;

		if (a->v[mid].start < lo)
			first = mid + 1;
		else
			end = mid;
	}
	if (first)
		first--;
	for (size_t i = first; i < a->nr && a->v[i].start < hi; i++) {
		int64_t s = a->v[i].start > lo ? a->v[i].start : lo;
		int64_t e = a->v[i].end < hi ? a->v[i].end : hi;

		if (e > s)
			sum_add(&sum, e - s);
	}
	return sum;
}

/* The intersection of merged A and B, merged. */
static void intersect(const struct spans *a, const struct spans *b, struct spans *out)
{
	size_t i = 0, j = 0;

	while (i < a->nr && j < b->nr) {
		int64_t s = a->v[i].start > b->v[j].start ? a->v[i].start : b->v[j].start;
		int64_t e = a->v[i].end < b->v[j].end ? a->v[i].end : b->v[j].end;

		if (e > s)
			spans_add(out, s, e);
		if (a->v[i].end < b->v[j].end)
			i++;
		else
			j++;
	}
}

/* ---------------------------------------------------------------------
 * One rank, from its call tree
 */

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool is_dataloader(const char *name)
{
	size_t n = strlen(name);

	return (starts(name, "enumerate(DataLoader)#") && n >= 9 &&
		!strcmp(name + n - 9, ".__next__")) ||
	       starts(name, "enumerate(DataPipe)#");
}

/* The host event of a collective (NODE_COLLECTIVE on an op or an
 * annotation; the parser sets it on nothing else that is not under
 * one). */
static bool is_collective(const struct node *n)
{
	return (n->flags & NODE_COLLECTIVE) && (n->kind == NODE_OP || n->kind == NODE_ANNOTATION);
}

/* A kernel is Communication when the runtime call that launched it
 * belongs to a collective: the runtime joined the op of its External id,
 * which is the kernel's (trace.py's test: the kernel's External id is a
 * collective's). */
static bool is_comm_kernel(const struct node *k)
{
	const struct node *rt = node_parent(k);

	return rt && rt->kind == NODE_RUNTIME && node_parent(rt) && is_collective(node_parent(rt));
}

struct collect {
	const struct profile *p;
	struct spans kernel, comm, cpu;
	struct comm_call *calls;
	size_t nr_calls, alloc_calls;
	bool nccl, gloo;
};

/* A collective's input bytes, as the parser worked them out from its
 * Input Dims and Input type (the "comm_bytes" attribute, sized the way
 * communication.py sums them); -1 when the trace gave no shapes. */
static int64_t input_bytes(const struct node *n)
{
	const struct attr *a = attr_find(node_attrs(n), "comm_bytes");

	return a && attr_type(a) == ATTR_INT ? a->v.i : -1;
}

static bool visit(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	const struct profile *p = c->p;

	/* Everything here is laid out in time: a node without one (a row
	 * of a table) has no place in it. */
	if (!node_is_timed(n))
		return true;
	if (n->kind == NODE_KERNEL) {
		int64_t end = n->start_ns + node_device_total(p, n);

		spans_add(is_comm_kernel(n) ? &c->comm : &c->kernel, n->start_ns, end);
		return true;
	}
	if (is_collective(n)) {
		struct comm_call *call;

		spans_add(&c->comm, n->start_ns, n->start_ns + node_host_total(p, n));
		if (starts(node_name(n), "nccl:"))
			c->nccl = true;
		else
			c->gloo = true;
		GROW(c->calls, c->alloc_calls, c->nr_calls + 1);
		call = &c->calls[c->nr_calls++];
		memset(call, 0, sizeof(*call));
		call->name = node_name(n);
		call->start_ns = n->start_ns;
		call->end_ns = n->start_ns + node_host_total(p, n);
		call->size_bytes = input_bytes(n);
		call->step = -1;
		/* communication.py: the host event is the first range; with
		 * NCCL its kernels follow (added below, once the libraries
		 * are known). */
		call->nr_ranges = 1;
		for (const struct node *rt = node_first_child(n); rt; rt = node_next(rt))
			if (rt->kind == NODE_RUNTIME)
				for (const struct node *k = node_first_child(rt); k; k = node_next(k))
					call->nr_ranges += k->kind == NODE_KERNEL;
		call->ranges = xmalloc(call->nr_ranges * sizeof(*call->ranges));
		call->ranges[0].start = call->start_ns;
		call->ranges[0].end = call->end_ns;
		call->nr_ranges = 1;
		for (const struct node *rt = node_first_child(n); rt; rt = node_next(rt))
			if (rt->kind == NODE_RUNTIME)
				for (const struct node *k = node_first_child(rt); k; k = node_next(k))
					if (k->kind == NODE_KERNEL) {
						call->ranges[call->nr_ranges].start = k->start_ns;
						call->ranges[call->nr_ranges].end =
							k->start_ns + node_device_total(p, k);
						call->nr_ranges++;
					}
		return true;
	}
	/* Host ops are Computation only in a trace without kernels: once a
	 * kernel is seen they are not needed (on a 1 GB trace, 1.6 M of
	 * them to sort otherwise). */
	if (!c->kernel.nr && (n->kind == NODE_OP || n->kind == NODE_ANNOTATION) &&
	    !is_dataloader(node_name(n)))
		spans_add(&c->cpu, n->start_ns, n->start_ns + node_host_total(p, n));
	return true;
}

static int cmp_call(const void *a, const void *b)
{
	const struct comm_call *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->end_ns != y->end_ns)
		return x->end_ns > y->end_ns ? -1 : 1;
	return 0;
}

/* generate_communication_nodes(): each call's step, walking calls and
 * steps in order.  A call that fits no step keeps -1; the walk stops
 * where the plugin's does (a call past the last step ends it). */
static void assign_steps(const struct profile *p, struct comm_call *calls, size_t n)
{
	size_t s = 0;

	for (size_t i = 0; i < n; i++) {
		while (s < p->nr_steps) {
			if (calls[i].start_ns >= p->steps[s].start_ns &&
			    calls[i].end_ns <= p->steps[s].end_ns) {
				calls[i].step = (int32_t)s;
				break;
			} else if (calls[i].start_ns >= p->steps[s].end_ns) {
				s++;
			} else {
				break;
			}
		}
		if (s >= p->nr_steps)
			break;
	}
}

void rank_local_of(const struct profile *p, struct rank_local *out)
{
	struct collect c = { .p = p };
	struct spans kc = { 0 };
	const struct spans *comp;

	memset(out, 0, sizeof(*out));
	if (p->rank_local) {
		*out = *p->rank_local;
		out->owned = false;
		return;
	}
	out->owned = true;
	node_walk(p->root, visit, &c);
	c.kernel.nr = merge(c.kernel.v, c.kernel.nr);
	c.comm.nr = merge(c.comm.v, c.comm.nr);
	if (!c.kernel.nr)
		c.cpu.nr = merge(c.cpu.v, c.cpu.nr);
	comp = c.kernel.nr ? &c.kernel : &c.cpu;
	intersect(comp, &c.comm, &kc);
	out->has_communication = c.comm.nr > 0;
	out->nr_steps = p->nr_steps;
	out->steps = xcalloc(p->nr_steps ? p->nr_steps : 1, sizeof(*out->steps));
	for (size_t i = 0; i < p->nr_steps; i++) {
		const struct step *s = &p->steps[i];
		struct step_overlap *o = &out->steps[i];

		if (s->end_ns <= s->start_ns)
			continue;
		o->computation = within(comp, s->start_ns, s->end_ns);
		o->communication = within(&c.comm, s->start_ns, s->end_ns);
		o->overlap = within(&kc, s->start_ns, s->end_ns);
		o->other = (s->end_ns - s->start_ns) + o->overlap - o->computation - o->communication;
	}
	/* Two libraries at once: the plugin gives up on the collectives. */
	if (c.nccl && c.gloo) {
		for (size_t i = 0; i < c.nr_calls; i++)
			free(c.calls[i].ranges);
		c.nr_calls = 0;
	}
	for (size_t i = 0; i < c.nr_calls; i++) {
		struct comm_call *call = &c.calls[i];

		if (!c.nccl)
			call->nr_ranges = 1;	/* gloo: the host event alone */
		qsort(call->ranges, call->nr_ranges, sizeof(*call->ranges), cmp_span);
	}
	if (c.nr_calls)
		qsort(c.calls, c.nr_calls, sizeof(*c.calls), cmp_call);
	assign_steps(p, c.calls, c.nr_calls);
	out->calls = c.calls;
	out->nr_calls = c.nr_calls;
	if (!c.nr_calls) {
		free(c.calls);
		out->calls = NULL;
	}
	free(c.kernel.v);
	free(c.comm.v);
	free(c.cpu.v);
	free(kc.v);
}

void rank_local_release(struct rank_local *r)
{
	if (r->owned) {
		for (size_t i = 0; i < r->nr_calls; i++)
			free(r->calls[i].ranges);
		free(r->calls);
		free(r->steps);
	}
	memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------------
 * Across the ranks
 */

/* Names are interned in their profile: one pointer is one name, and
 * strcmp() is for names of two profiles (and what a summary stored). */
static bool same_name(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

static const char *line_up(const struct rank_local *const *local, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!local[k]->has_communication || !local[k]->nr_calls)
			return "a rank has no collective (torch-tb-profiler shows no Distributed view)";
	for (size_t k = 1; k < n; k++)
		if (local[k]->nr_calls != local[0]->nr_calls)
			return "the ranks made different numbers of collective calls";
	for (size_t i = 0; i < local[0]->nr_calls; i++)
		for (size_t k = 1; k < n; k++)
			if (local[k]->calls[i].nr_ranges != local[0]->calls[i].nr_ranges)
				return "a collective launched different numbers of kernels on two ranks";
	return NULL;
}

bool rank_dist_compute(const struct rank_local *const *local, size_t n, struct rank_dist *out,
		       const char **why)
{
	const char *bad = n ? line_up(local, n) : "no rank";
	/* Per rank, per call, per range: the shortest duration of that
	 * transfer on any rank (loader.py). */
	int64_t **shortest = NULL;

	*why = bad;
	if (!bad) {
		shortest = xcalloc(local[0]->nr_calls ? local[0]->nr_calls : 1, sizeof(*shortest));
		for (size_t i = 0; i < local[0]->nr_calls; i++) {
			size_t nr = local[0]->calls[i].nr_ranges;

			shortest[i] = xmalloc((nr ? nr : 1) * sizeof(**shortest));
			for (size_t j = 0; j < nr; j++) {
				int64_t m = INT64_MAX;

				for (size_t k = 0; k < n; k++) {
					const struct span_ns *r = &local[k]->calls[i].ranges[j];

					if (r->end - r->start < m)
						m = r->end - r->start;
				}
				shortest[i][j] = m;
			}
		}
	}
	for (size_t k = 0; k < n; k++) {
		const struct rank_local *l = local[k];
		struct rank_dist *d = &out[k];
		struct spans *comm, *real;
		struct spans op_lat = { 0 }, op_real = { 0 };

		memset(d, 0, sizeof(*d));
		d->nr_buckets = l->nr_steps + 1;
		d->comm_ns = xcalloc(d->nr_buckets, sizeof(*d->comm_ns));
		d->transfer_ns = xcalloc(d->nr_buckets, sizeof(*d->transfer_ns));
		d->has_calls = xcalloc(d->nr_buckets, sizeof(*d->has_calls));
		comm = xcalloc(d->nr_buckets, sizeof(*comm));
		real = xcalloc(d->nr_buckets, sizeof(*real));
		for (size_t i = 0; i < l->nr_calls; i++) {
			const struct comm_call *c = &l->calls[i];
			size_t b = c->step >= 0 && (size_t)c->step < l->nr_steps ? (size_t)c->step
										   : l->nr_steps;
			size_t op;

			d->has_calls[b] = true;
			for (op = 0; op < d->nr_ops && !same_name(d->ops[op].name, c->name); op++)
				;
			if (op == d->nr_ops) {
				d->ops = xrealloc(d->ops, (op + 1) * sizeof(*d->ops));
				d->ops[op] = (struct comm_op){ c->name, 0, 0, 0, 0 };
				d->nr_ops++;
			}
			d->ops[op].calls++;
			if (c->size_bytes < 0 || d->ops[op].size_bytes < 0)
				d->ops[op].size_bytes = -1;
			else
				sum_add(&d->ops[op].size_bytes, c->size_bytes);
			for (size_t j = 0; j < c->nr_ranges; j++) {
				int64_t len = shortest ? shortest[i][j] : c->ranges[j].end - c->ranges[j].start;

				spans_add(&comm[b], c->ranges[j].start, c->ranges[j].end);
				spans_add(&real[b], c->ranges[j].end - len, c->ranges[j].end);
			}
		}
		for (size_t b = 0; b < d->nr_buckets; b++) {
			d->comm_ns[b] = span_union(comm[b].v, comm[b].nr);
			d->transfer_ns[b] = span_union(real[b].v, real[b].nr);
			free(comm[b].v);
			free(real[b].v);
		}
		free(comm);
		free(real);
		/* The table: the union of each name's ranges. */
		for (size_t op = 0; op < d->nr_ops; op++) {
			op_lat.nr = op_real.nr = 0;
			for (size_t i = 0; i < l->nr_calls; i++) {
				const struct comm_call *c = &l->calls[i];

				if (!same_name(c->name, d->ops[op].name))
					continue;
				for (size_t j = 0; j < c->nr_ranges; j++) {
					int64_t len = shortest ? shortest[i][j]
							       : c->ranges[j].end - c->ranges[j].start;

					spans_add(&op_lat, c->ranges[j].start, c->ranges[j].end);
					spans_add(&op_real, c->ranges[j].end - len, c->ranges[j].end);
				}
			}
			d->ops[op].latency_ns = span_union(op_lat.v, op_lat.nr);
			d->ops[op].transfer_ns = span_union(op_real.v, op_real.nr);
		}
		free(op_lat.v);
		free(op_real.v);
	}
	if (shortest) {
		for (size_t i = 0; i < local[0]->nr_calls; i++)
			free(shortest[i]);
		free(shortest);
	}
	return !bad;
}

void rank_dist_release(struct rank_dist *d)
{
	free(d->comm_ns);
	free(d->transfer_ns);
	free(d->has_calls);
	free(d->ops);
	memset(d, 0, sizeof(*d));
}

/* ---------------------------------------------------------------------
 * Stragglers
 */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The median of the known (>= 0) values of V, or -1. */
static int64_t median(const int64_t *v, size_t n)
{
	int64_t *s = xmalloc((n ? n : 1) * sizeof(*s)), m = -1;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] >= 0)
			s[k++] = v[i];
	if (k) {
		qsort(s, k, sizeof(*s), cmp_i64);
		m = k % 2 ? s[k / 2] : s[k / 2 - 1] + (s[k / 2] - s[k / 2 - 1]) / 2;
	}
	free(s);
	return m;
}

static bool above(int64_t v, int64_t med)
{
	/* v >= med * 1.1, in integers */
	return v >= 0 && med > 0 && v * 100 >= med * (100 + STRAGGLER_PCT);
}

void rank_stragglers(const int64_t *step_ns, const int64_t *compute_ns, const int64_t *sync_ns,
		     size_t n, uint8_t *marks)
{
	int64_t ms = median(step_ns, n), mc = median(compute_ns, n), my = median(sync_ns, n);
	size_t least = SIZE_MAX;

	for (size_t i = 0; i < n; i++) {
		marks[i] = 0;
		if (above(step_ns[i], ms))
			marks[i] |= STRAGGLER_SLOW_STEP;
		if (above(compute_ns[i], mc))
			marks[i] |= STRAGGLER_SLOW_COMPUTE;
		if (sync_ns[i] >= 0 && (least == SIZE_MAX || sync_ns[i] < sync_ns[least]))
			least = i;
	}
	if (n > 1 && least != SIZE_MAX && my >= 2 * sync_ns[least] && my - sync_ns[least] >= 1000)
		marks[least] |= STRAGGLER_WAITED_FOR;
}
