/* SPDX-License-Identifier: MIT */
/* straggler: HTA's straggler test across ranks (straggler.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "straggler.h"
#include "util.h"

/* ---------------------------------------------------------------------
 * One rank
 */

struct pstep {
	int64_t start, end;
	int32_t iteration;
};

struct scan {
	const struct profile *p;
	struct pstep *steps;
	size_t nr_steps, alloc_steps;
	struct strag_rank *out;
	size_t alloc_kernels;
};

/* N of "ProfilerStep#N" (0 to INT32_MAX); -1 for any other name. */
static int32_t step_number(const char *name)
{
	static const char prefix[] = "ProfilerStep#";
	int64_t v = 0;
	const char *s;

	if (strncmp(name, prefix, sizeof(prefix) - 1))
		return -1;
	s = name + sizeof(prefix) - 1;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > INT32_MAX)
			return -1;
	}
	return (int32_t)v;
}

static bool find_steps(struct node *n, void *ctx)
{
	struct scan *c = ctx;
	int32_t it;

	if (n->kind != NODE_STEP || !node_is_timed(n) || (it = step_number(node_name(n))) < 0)
		return true;
	GROW(c->steps, c->alloc_steps, c->nr_steps + 1);
	c->steps[c->nr_steps++] =
		(struct pstep){ n->start_ns, n->start_ns + node_host_total(c->p, n), it };
	return true;
}

static int cmp_pstep(const void *a, const void *b)
{
	const struct pstep *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->iteration > y->iteration) - (x->iteration < y->iteration);
}

/* The iteration of time T: the last step starting at or before T, when
 * T lies before its end; -1 else. */
static int32_t iteration_at(const struct scan *c, int64_t t)
{
	size_t lo = 0, hi = c->nr_steps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->steps[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || t >= c->steps[lo - 1].end)
		return -1;
	return c->steps[lo - 1].iteration;
}

static struct strag_iter *iter_of(struct strag_rank *r, int32_t it)
{
	size_t lo = 0, hi = r->nr_iters;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->iters[mid].iteration < it)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nr_iters && r->iters[lo].iteration == it ? &r->iters[lo] : NULL;
}

static bool collect(struct node *n, void *ctx)
{
	struct scan *c = ctx;
	struct strag_rank *r = c->out;
	struct strag_iter *si;
	int64_t start, end;
	int32_t it;
	bool device;

	if (!node_is_timed(n) || n->kind == NODE_ROOT)
		return true;
	device = node_kind_is_device(n->kind) && !(n->flags & NODE_DEVICE_RANGE);
	start = n->start_ns;
	if (device) {
		const struct node *up = node_has_parent(n) ? node_parent(n) : NULL;
		int64_t dur = node_device_total(c->p, n);

		if (!up || up->kind != NODE_RUNTIME || !node_is_timed(up))
			return true;
		it = iteration_at(c, up->start_ns);
		end = start + (dur > 0 ? dur : 0);
	} else {
		int64_t dur = node_host_total(c->p, n);

		it = iteration_at(c, start);
		end = start + (dur > 0 ? dur : 0);
	}
	if (it < 0 || !(si = iter_of(r, it)))
		return true;
	if (start < si->start_ns)
		si->start_ns = start;
	if (end > si->end_ns)
		si->end_ns = end;
	if (device && n->kind == NODE_KERNEL && it > 0 &&
	    !strncmp(node_name(n), STRAG_KERNEL_PREFIX, sizeof(STRAG_KERNEL_PREFIX) - 1)) {
		const struct launch *l = node_launch(n);

		if (!l || l->stream <= 0)
			return true;
		GROW(r->kernels, c->alloc_kernels, r->nr_kernels + 1);
		r->kernels[r->nr_kernels++] = (struct strag_kernel){
			node_name(n), start, end - start, l->stream, it,
		};
	}
	return true;
}

static int cmp_int32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

void strag_rank_of(const struct profile *p, struct strag_rank *out)
{
	struct scan c = { .p = p, .out = out };
	int32_t *its;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	node_walk(p->root, find_steps, &c);
	if (!c.nr_steps) {
		free(c.steps);
		return;
	}
	qsort(c.steps, c.nr_steps, sizeof(*c.steps), cmp_pstep);
	its = xmalloc(c.nr_steps * sizeof(*its));
	for (size_t i = 0; i < c.nr_steps; i++)
		its[i] = c.steps[i].iteration;
	qsort(its, c.nr_steps, sizeof(*its), cmp_int32);
	out->iters = xmalloc(c.nr_steps * sizeof(*out->iters));
	for (size_t i = 0; i < c.nr_steps; i++)
		if (!n || its[i] != its[n - 1])
			its[n++] = its[i];
	for (size_t i = 0; i < n; i++)
		out->iters[i] = (struct strag_iter){ its[i], INT64_MAX, INT64_MIN };
	out->nr_iters = n;
	free(its);
	node_walk(p->root, collect, &c);
	/* A step's own event is in it: every iteration has a span. */
	for (size_t i = 0; i < out->nr_iters; i++)
		if (out->iters[i].start_ns > out->iters[i].end_ns)
			out->iters[i].start_ns = out->iters[i].end_ns = 0;
	free(c.steps);
}

void strag_rank_release(struct strag_rank *r)
{
	free(r->iters);
	free(r->kernels);
	memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------------
 * Across the ranks
 */

struct cand {
	const char *name;
	int64_t start, dur;
	int32_t stream, iteration;
	size_t rank, order;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->name != y->name && (c = strcmp(x->name, y->name)))
		return c;
	if (x->iteration != y->iteration)
		return x->iteration < y->iteration ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static bool same_kernel(const struct cand *x, const struct cand *y)
{
	return x->stream == y->stream && (x->name == y->name || !strcmp(x->name, y->name));
}

/* The standard deviation (n - 1) of V[0..N); NaN below two. */
static double stddev(const double *v, size_t n)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

static int cmp_double_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

bool stragglers_compute(const struct strag_rank *const *r, size_t n, size_t num_candidates,
			struct stragglers *out)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int32_t *its;
	size_t nr_its = 0, alloc = 0, nr = 0, best = SIZE_MAX, best_end = 0;
	struct cand *c = NULL;
	double mean, best_score = NAN, *v;

	memset(out, 0, sizeof(*out));
	out->marked = xcalloc(n ? n : 1, sizeof(*out->marked));
	out->is_straggler = xcalloc(n ? n : 1, sizeof(*out->is_straggler));
	if (!num_candidates)
		return false;
	for (size_t k = 0; k < n; k++)
		nr_its += r[k]->nr_iters;
	its = xmalloc((nr_its ? nr_its : 1) * sizeof(*its));
	nr_its = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < r[k]->nr_iters; i++) {
			const struct strag_iter *si = &r[k]->iters[i];

			its[nr_its++] = si->iteration;
			if (si->start_ns < lo)
				lo = si->start_ns;
			if (si->end_ns > hi)
				hi = si->end_ns;
		}
	qsort(its, nr_its, sizeof(*its), cmp_int32);
	for (size_t i = 0; i < nr_its; i++)
		if (!out->nr_iters || its[i] != its[out->nr_iters - 1])
			its[out->nr_iters++] = its[i];
	free(its);
	if (!out->nr_iters || hi <= lo)
		return false;
	/* Bounded times (bounds.h): hi - lo cannot wrap. */
	mean = (double)(hi - lo) / (double)out->nr_iters;
	out->mean_iter_ns = (hi - lo) / (int64_t)out->nr_iters;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < r[k]->nr_kernels; i++) {
			const struct strag_kernel *sk = &r[k]->kernels[i];

			if ((double)sk->dur_ns < 0.01 * mean)
				continue;
			GROW(c, alloc, nr + 1);
			c[nr++] = (struct cand){ sk->name, sk->start_ns, sk->dur_ns, sk->stream,
						 sk->iteration, k, i };
		}
	if (!nr) {
		free(c);
		return false;
	}
	qsort(c, nr, sizeof(*c), cmp_cand);
	/* The last of one (stream, name, iteration, rank): the latest start. */
	{
		size_t m = 0;

		for (size_t i = 0; i < nr; i++) {
			if (m && same_kernel(&c[m - 1], &c[i]) && c[m - 1].iteration == c[i].iteration &&
			    c[m - 1].rank == c[i].rank)
				c[m - 1] = c[i];
			else
				c[m++] = c[i];
		}
		nr = m;
	}
	v = xmalloc(nr * sizeof(*v));
	for (size_t i = 0, j; i < nr; i = j) {
		double sum = 0;
		size_t nr_std = 0;

		for (j = i; j < nr && same_kernel(&c[j], &c[i]); j++)
			;
		for (size_t a = i, b; a < j; a = b) {
			size_t m = 0;
			double sd;

			for (b = a; b < j && c[b].iteration == c[a].iteration; b++)
				v[m++] = (double)c[b].dur / mean;
			sd = stddev(v, m);
			if (!isnan(sd)) {
				sum += sd;
				nr_std++;
			}
		}
		if (nr_std && (isnan(best_score) || sum / (double)nr_std > best_score)) {
			best_score = sum / (double)nr_std;
			best = i;
			best_end = j;
		}
	}
	if (best == SIZE_MAX) {
		free(v);
		free(c);
		return false;
	}
	out->kernel = c[best].name;
	out->stream = c[best].stream;
	for (size_t a = best, b; a < best_end; a = b) {
		int64_t first = INT64_MAX;
		size_t m = 0;
		double threshold;

		for (b = a; b < best_end && c[b].iteration == c[a].iteration; b++)
			if (c[b].start < first)
				first = c[b].start;
		for (size_t i = a; i < b; i++)
			v[m++] = (double)(c[i].start - first) / mean;
		qsort(v, m, sizeof(*v), cmp_double_desc);
		threshold = v[(num_candidates < m ? num_candidates : m) - 1];
		for (size_t i = a; i < b; i++)
			if ((double)(c[i].start - first) / mean >= threshold)
				out->marked[c[i].rank]++;
	}
	for (size_t s = 0; s < num_candidates; s++) {
		size_t pick = SIZE_MAX;

		for (size_t k = 0; k < n; k++)
			if (out->marked[k] && !out->is_straggler[k] &&
			    (pick == SIZE_MAX || out->marked[k] > out->marked[pick]))
				pick = k;
		if (pick == SIZE_MAX)
			break;
		out->is_straggler[pick] = true;
	}
	free(v);
	free(c);
	return true;
}

void stragglers_release(struct stragglers *s)
{
	free(s->marked);
	free(s->is_straggler);
	memset(s, 0, sizeof(*s));
}
