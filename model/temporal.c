/* SPDX-License-Identifier: MIT */
/*
 * temporal: the GPU's time, split (temporal.h).  One walk collects the
 * device events as intervals; a sort by start; unions by HTA's merge (an
 * interval joins the group while its start is not after the group's
 * running end, so touching intervals merge); a sweep over the three
 * types' unions for the exclusive classes.
 */
#include <math.h>
#include <stdlib.h>

#include "hta_time.h"
#include "temporal.h"
#include "util.h"

struct ival {
	int64_t start, end;
	uint8_t type;		/* enum kernel_type */
};

struct collect {
	const struct profile *p;
	const struct temporal_opts *o;
	struct ival *v;
	size_t nr, alloc;
};

/* Whether N is device work the options take. */
static bool taken(const struct profile *p, const struct temporal_opts *o, const struct node *n)
{
	const struct node *up;

	(void)p;
	if (!node_kind_is_device(n->kind) || (n->flags & NODE_DEVICE_RANGE) ||
	    n->start_ns == NS_UNTIMED)
		return false;
	if (o->launched_before_ns == INT64_MAX)
		return true;
	up = node_has_parent(n) ? node_parent(n) : NULL;
	if (!up || up->kind != NODE_RUNTIME || up->start_ns == NS_UNTIMED)
		return false;
	if (o->round_like_hta)
		return hta_start_ns(up->start_ns) < hta_start_ns(o->launched_before_ns);
	return up->start_ns < o->launched_before_ns;
}

bool temporal_event(const struct profile *p, const struct temporal_opts *o, const struct node *n,
		    int64_t *startp, int64_t *endp)
{
	int64_t start, end, dur;

	if (!taken(p, o, n))
		return false;
	/* Times are bounded (bounds.h): start + duration cannot wrap. */
	start = n->start_ns;
	dur = node_device_total(p, n);
	end = start + dur;
	if (o->has_window) {
		int64_t ws = o->window_start_ns, we = o->window_end_ns;

		if (we <= ws || start >= we || end < ws || (end == ws && start < end))
			return false;
		start = start > ws ? start : ws;
		end = end < we ? end : we;
	}
	if (o->round_like_hta) {
		start = hta_start_ns(n->start_ns);
		end = hta_end_ns(n->start_ns, dur);
	}
	*startp = start;
	*endp = end;
	return true;
}

static bool take(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	int64_t start, end;

	if (!temporal_event(c->p, c->o, n, &start, &end))
		return true;
	GROW(c->v, c->alloc, c->nr + 1);
	c->v[c->nr++] = (struct ival){ start, end, (uint8_t)kernel_type_of(node_name(n)) };
	return true;
}

static int cmp_start(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

struct span {
	int64_t start, end;
};

/* *ACC += B - A, saturating (bounds.h): two bounded times may lie 2^63
 * ns apart. */
static void add_diff(int64_t *acc, int64_t a, int64_t b, uint64_t *nr_capped)
{
	int64_t d;

	if (__builtin_sub_overflow(b, a, &d))
		d = b > a ? SUM_CAP : -SUM_CAP;
	sum_add_counted(acc, d, nr_capped);
}

/*
 * HTA's merge_kernel_intervals over the events of V (sorted by start)
 * whose type is TYPE (-1: every event): the groups into OUT, their number
 * returned, and the sum of their lengths into *LEN.
 */
static size_t merge(const struct ival *v, size_t n, int type, struct span *out, int64_t *len,
		    uint64_t *nr_capped)
{
	size_t nr = 0;

	*len = 0;
	for (size_t i = 0; i < n; i++) {
		if (type >= 0 && v[i].type != type)
			continue;
		if (nr && v[i].start <= out[nr - 1].end) {
			if (v[i].end > out[nr - 1].end)
				out[nr - 1].end = v[i].end;
			continue;
		}
		if (nr)
			add_diff(len, out[nr - 1].start, out[nr - 1].end, nr_capped);
		out[nr++] = (struct span){ v[i].start, v[i].end };
	}
	if (nr)
		add_diff(len, out[nr - 1].start, out[nr - 1].end, nr_capped);
	return nr;
}

struct mark {
	int64_t t;
	int bit;		/* +bit at a start, -bit at an end */
};

static int cmp_mark(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->bit > y->bit) - (x->bit < y->bit);
}

/* The kernel-types sweep: each type's union, +bit at its starts and -bit
 * at its ends, in time order; the time between two marks goes to the
 * class of the bits then set. */
static void sweep_classes(const struct ival *v, size_t n, struct span *tmp, struct temporal *t)
{
	static const int bits[] = { KTYPE_COMPUTATION, KTYPE_COMMUNICATION, KTYPE_MEMORY };
	struct mark *m = xmalloc((2 * n + 1) * sizeof(*m));
	size_t nr = 0;
	int value = 0;
	int64_t len;

	for (size_t b = 0; b < 3; b++) {
		size_t g = merge(v, n, bits[b], tmp, &len, &t->nr_capped);

		for (size_t i = 0; i < g; i++) {
			m[nr++] = (struct mark){ tmp[i].start, bits[b] };
			m[nr++] = (struct mark){ tmp[i].end, -bits[b] };
		}
	}
	qsort(m, nr, sizeof(*m), cmp_mark);
	for (size_t i = 0; i < nr; i++) {
		if (i && value > 0 && value < NR_KTYPE_CLASSES && m[i].t > m[i - 1].t)
			add_diff(&t->class_ns[value], m[i - 1].t, m[i].t, &t->nr_capped);
		value += m[i].bit;
	}
	for (int c = 1; c < NR_KTYPE_CLASSES; c++)
		sum_add_counted(&t->classes_total_ns, t->class_ns[c], &t->nr_capped);
	free(m);
}

void temporal_compute(const struct profile *p, const struct temporal_opts *o, struct temporal *t)
{
	struct collect c = { .p = p, .o = o };
	struct span *groups;
	size_t g;

	*t = (struct temporal){ 0 };
	node_walk(p->root, take, &c);
	t->nr_events = c.nr;
	if (!c.nr) {
		free(c.v);
		return;
	}
	for (size_t i = 0; i < c.nr; i++)
		t->nr_by_type[c.v[i].type]++;
	qsort(c.v, c.nr, sizeof(*c.v), cmp_start);
	groups = xmalloc(c.nr * sizeof(*groups));
	g = merge(c.v, c.nr, -1, groups, &t->busy_ns, &t->nr_capped);
	t->first_start_ns = groups[0].start;
	t->last_end_ns = groups[g - 1].end;
	add_diff(&t->kernel_ns, t->first_start_ns, t->last_end_ns, &t->nr_capped);
	merge(c.v, c.nr, KTYPE_COMPUTATION, groups, &t->compute_ns, &t->nr_capped);
	if (sum_capped(t->kernel_ns) || sum_capped(t->busy_ns) || sum_capped(t->compute_ns)) {
		/* A difference of capped sums would be a wrong number. */
		t->idle_ns = t->non_compute_ns = SUM_CAP;
	} else {
		t->idle_ns = t->kernel_ns - t->busy_ns;
		t->non_compute_ns = t->kernel_ns - t->compute_ns - t->idle_ns;
	}
	sweep_classes(c.v, c.nr, groups, t);
	free(groups);
	free(c.v);
}

double temporal_pct(int64_t part, int64_t whole)
{
	if (whole <= 0 || sum_capped(part) || sum_capped(whole))
		return NAN;
	return 100.0 * (double)part / (double)whole;
}

const char *temporal_class_name(unsigned bits)
{
	static const char *const names[NR_KTYPE_CLASSES] = {
		[KTYPE_COMPUTATION] = "COMPUTATION",
		[KTYPE_COMMUNICATION] = "COMMUNICATION",
		[KTYPE_MEMORY] = "MEMORY",
		[KTYPE_COMPUTATION | KTYPE_COMMUNICATION] = "COMPUTATION overlapping COMMUNICATION",
		[KTYPE_COMPUTATION | KTYPE_MEMORY] = "COMPUTATION overlapping MEMORY",
		[KTYPE_COMMUNICATION | KTYPE_MEMORY] = "COMMUNICATION overlapping MEMORY",
		[KTYPE_COMPUTATION | KTYPE_COMMUNICATION | KTYPE_MEMORY] =
			"COMPUTATION overlapping COMMUNICATION overlapping MEMORY",
	};

	return bits < NR_KTYPE_CLASSES && names[bits] ? names[bits] : "";
}

void temporal_opts_narrow(struct temporal_opts *o, int64_t start_ns, int64_t end_ns)
{
	if (!o->has_window) {
		o->has_window = true;
		o->window_start_ns = start_ns;
		o->window_end_ns = end_ns;
		return;
	}
	window_narrow(&o->window_start_ns, &o->window_end_ns, start_ns, end_ns);
}

struct temporal_opts temporal_opts_for_step(const struct profile *p, const struct step *picked)
{
	struct temporal_opts o = TEMPORAL_OPTS_ALL;
	const struct step *s;

	if (!picked)
		return o;
	o.has_window = true;
	/* PICKED itself when it is one of P's (names may repeat; compared
	 * as addresses, as pointers into two arrays may not be), else P's
	 * step of its name. */
	if ((uintptr_t)picked - (uintptr_t)p->steps < p->nr_steps * sizeof(*p->steps))
		s = picked;
	else
		s = profile_step_named(p, picked->name);
	if (s && s->end_ns > s->start_ns) {
		o.window_start_ns = s->start_ns;
		o.window_end_ns = s->end_ns;
	}
	return o;
}
