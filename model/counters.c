// SPDX-License-Identifier: MIT
/*
 * counters: the trace's counter series and the ones derived from its
 * events (counters.h says which and how).  Pure: reads a finished
 * profile, fills heap arrays.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "memory.h"
#include "queue_length.h"
#include "util.h"

#define NS_PER_US 1000
#define MAX_BUCKETS 100

/* ---------------------------------------------------------------------
 * A series' figures
 */

static struct counter_series *add_series(struct counters *c, size_t *alloc, char *name,
					 enum counter_kind kind, enum counter_unit unit)
{
	struct counter_series *s;

	GROW(c->v, *alloc, c->nr + 1);
	s = &c->v[c->nr++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->kind = (uint8_t)kind;
	s->unit = (uint8_t)unit;
	return s;
}

static void add_point(struct counter_series *s, size_t *alloc, int64_t ts, double v)
{
	GROW(s->points, *alloc, s->nr + 1);
	s->points[s->nr++] = (struct counter_point){ ts, v };
}

/* Min, max and the time-weighted mean of S's points (in time order). */
static void finish_series(struct counter_series *s)
{
	long double area = 0;
	int64_t span;

	s->min = s->max = s->mean = NAN;
	if (!s->nr)
		return;
	s->min = s->max = s->points[0].value;
	for (size_t i = 0; i < s->nr; i++) {
		double v = s->points[i].value;

		if (v < s->min)
			s->min = v;
		if (v > s->max)
			s->max = v;
		if (i + 1 < s->nr)	/* both within the ts bound: no wrap */
			area += (long double)v * (long double)(s->points[i + 1].ts_ns - s->points[i].ts_ns);
	}
	span = s->points[s->nr - 1].ts_ns - s->points[0].ts_ns;
	if (span > 0)
		s->mean = (double)(area / (long double)span);
}

static char *fmt_name(const char *fmt, ...) PRINTF_LIKE(1, 2);

static char *fmt_name(const char *fmt, ...)
{
	va_list ap;
	char buf[256];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return xstrdup(buf);
}

/* ---------------------------------------------------------------------
 * Recorded: the file's counter samples grouped into series
 */

/* A sample's place in the sort: its series, time and place in the file
 * beside it, so that the comparisons need nothing else (no global: two
 * panes may compute at once). */
struct sample_key {
	const char *name, *key;		/* interned: compared as pointers */
	int64_t pid, ts_ns;
	size_t i;			/* in p->counter_recs */
};

/* By series, then in the file's order. */
static int cmp_by_series(const void *a, const void *b)
{
	const struct sample_key *x = a, *y = b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	if (x->key != y->key)
		return (uintptr_t)x->key < (uintptr_t)y->key ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Samples by time, then the file's order: the last at one time counts. */
static int cmp_by_time(const void *a, const void *b)
{
	const struct sample_key *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

struct group {
	size_t from, to;		/* in the sorted index */
	size_t first;			/* its first record in the file */
};

static int cmp_group_first(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

static bool same_series(const struct sample_key *a, const struct sample_key *b)
{
	return a->name == b->name && a->key == b->key && a->pid == b->pid;
}

/* Name the groups G[0..N) (sorted by series): the event's name, with its
 * key when the name has several keys, and its pid when several
 * processes write it. */
static void name_groups(const struct sample_key *keys, struct group *g, size_t n, char **names)
{
	for (size_t a = 0, b; a < n; a = b) {
		const struct sample_key *ra = &keys[g[a].from];
		bool multi_key = false, multi_pid = false;

		for (b = a + 1; b < n && keys[g[b].from].name == ra->name; b++) {
			const struct sample_key *rb = &keys[g[b].from];

			multi_key |= rb->key != ra->key;
			multi_pid |= rb->pid != ra->pid;
		}
		for (size_t i = a; i < b; i++) {
			const struct sample_key *r = &keys[g[i].from];
			char pid[40] = "";

			if (multi_pid)
				snprintf(pid, sizeof(pid), " (pid %lld)", (long long)r->pid);
			names[i] = fmt_name("%.120s%s%.60s%s", r->name, multi_key ? " " : "",
					    multi_key ? r->key : "", pid);
		}
	}
}

static void add_recorded(const struct profile *p, struct counters *c, size_t *alloc)
{
	size_t n = p->nr_counter_recs, nr_groups = 0;
	struct sample_key *keys;
	struct group *g;
	char **names;

	if (!n)
		return;
	keys = xmalloc(n * sizeof(*keys));
	for (size_t i = 0; i < n; i++) {
		const struct counter_rec *r = &p->counter_recs[i];

		keys[i] = (struct sample_key){ r->name, r->key, r->pid, r->ts_ns, i };
	}
	qsort(keys, n, sizeof(*keys), cmp_by_series);
	g = xmalloc(n * sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		if (i && same_series(&keys[i], &keys[i - 1])) {
			g[nr_groups - 1].to = i + 1;
			continue;
		}
		g[nr_groups++] = (struct group){ i, i + 1, keys[i].i };
	}
	names = xmalloc(nr_groups * sizeof(*names));
	name_groups(keys, g, nr_groups, names);
	{
		/* The names travel with their groups into file order. */
		struct named { struct group g; char *name; } *v = xmalloc(nr_groups * sizeof(*v));

		for (size_t i = 0; i < nr_groups; i++)
			v[i] = (struct named){ g[i], names[i] };
		qsort(v, nr_groups, sizeof(*v), cmp_group_first);
		for (size_t i = 0; i < nr_groups; i++) {
			struct counter_series *s = add_series(c, alloc, v[i].name, COUNTER_RECORDED,
							      COUNTER_PLAIN);
			size_t m = v[i].g.to - v[i].g.from;

			qsort(keys + v[i].g.from, m, sizeof(*keys), cmp_by_time);
			s->points = xmalloc(m * sizeof(*s->points));
			for (size_t k = v[i].g.from; k < v[i].g.to; k++)
				s->points[s->nr++] = (struct counter_point){
					keys[k].ts_ns, p->counter_recs[keys[k].i].value };
			finish_series(s);
		}
		free(v);
	}
	free(names);
	free(g);
	free(keys);
}

/* ---------------------------------------------------------------------
 * Derived: GPU utilization in torch-tb-profiler's buckets
 */

int64_t counter_bucket_ns(int64_t range_ns, int64_t *nr)
{
	int64_t size = NS_PER_US;

	/* range / size > 100, in whole nanoseconds: no rounding. */
	while (range_ns / MAX_BUCKETS > size ||
	       (range_ns / MAX_BUCKETS == size && range_ns % MAX_BUCKETS))
		size *= 10;
	*nr = range_ns / size;
	return size;
}

struct span {
	int64_t start, end;
	int32_t device;
};

struct walk {
	const struct profile *p;
	struct span *k;			/* kernels with a device */
	size_t nr, alloc;
	int64_t lo, hi;			/* every timed node's extent */
};

static int64_t node_end(const struct profile *p, const struct node *n)
{
	bool device = node_kind_is_device(n->kind) || (n->flags & NODE_DEVICE_RANGE);
	int64_t d = node_time(p, n, device ? NODE_DEVICE_TOTAL : NODE_HOST_TOTAL);

	return n->start_ns + (d > 0 ? d : 0);
}

static bool visit(struct node *n, void *ctx)
{
	struct walk *w = ctx;
	const struct launch *l;
	int64_t end;

	if (n == w->p->root || !node_is_timed(n))
		return true;
	end = node_end(w->p, n);
	if (n->start_ns < w->lo)
		w->lo = n->start_ns;
	if (end > w->hi)
		w->hi = end;
	if (n->kind == NODE_KERNEL && (l = node_launch(n)) && l->device >= 0) {
		GROW(w->k, w->alloc, w->nr + 1);
		w->k[w->nr++] = (struct span){ n->start_ns, end, l->device };
	}
	return true;
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/* The buckets of one device's kernels K[0..N) (sorted by start) over
 * [LO, HI): the union's share of each. */
static void util_buckets(struct counter_series *s, const struct span *k, size_t n, int64_t lo,
			 int64_t hi, int64_t size, int64_t nr)
{
	double *busy = xcalloc((size_t)nr, sizeof(*busy));
	size_t alloc = 0;
	int64_t cur_s = 0, cur_e = 0;
	bool open = false;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && open && k[i].start <= cur_e) {
			if (k[i].end > cur_e)
				cur_e = k[i].end;
			continue;
		}
		if (open) {
			/* The merged range [cur_s, cur_e) into the buckets it
			 * meets; the last bucket runs to HI. */
			int64_t a = cur_s > lo ? cur_s : lo, e = cur_e < hi ? cur_e : hi;

			while (a < e) {
				int64_t b = (a - lo) / size;
				int64_t bend;

				if (b >= nr)
					b = nr - 1;
				bend = b == nr - 1 ? hi : lo + (b + 1) * size;
				if (bend > e)
					bend = e;
				busy[b] += (double)(bend - a);
				a = bend;
			}
		}
		if (i < n) {
			cur_s = k[i].start;
			cur_e = k[i].end;
			open = true;
		}
	}
	for (int64_t b = 0; b < nr; b++) {
		int64_t from = lo + b * size, to = b == nr - 1 ? hi : from + size;

		add_point(s, &alloc, from, busy[b] / (double)(to - from));
	}
	add_point(s, &alloc, hi, 0);
	free(busy);
}

static void add_utilization(const struct profile *p, struct counters *c, size_t *alloc)
{
	struct walk w = { .p = p, .lo = INT64_MAX, .hi = INT64_MIN };
	int64_t lo, hi, nr, size;

	node_walk(p->root, visit, &w);
	lo = p->has_profiler_span ? p->profiler_start_ns : w.lo;
	hi = p->has_profiler_span ? p->profiler_end_ns : w.hi;
	if (!w.nr || hi <= lo) {
		free(w.k);
		return;
	}
	size = counter_bucket_ns(hi - lo, &nr);
	if (nr < 1) {
		free(w.k);
		return;
	}
	c->util_bucket_ns = size;
	qsort(w.k, w.nr, sizeof(*w.k), cmp_span);
	for (size_t from = 0, to; from < w.nr; from = to) {
		struct counter_series *s;

		for (to = from + 1; to < w.nr && w.k[to].device == w.k[from].device; to++)
			;
		s = add_series(c, alloc, fmt_name("GPU %d utilization", (int)w.k[from].device),
			       COUNTER_DERIVED, COUNTER_FRACTION);
		util_buckets(s, w.k + from, to - from, lo, hi, size, nr);
		finish_series(s);
	}
	free(w.k);
}

/* ---------------------------------------------------------------------
 * Derived: queue length per stream, memory allocated per device
 */

static void add_queues(const struct profile *p, struct counters *c, size_t *alloc)
{
	struct queue_lengths q;

	queue_compute(p, NULL, &q);
	for (size_t i = 0; i < q.nr_streams; i++) {
		const struct queue_stream *qs = &q.streams[i];
		struct counter_series *s;

		if (!qs->nr_points)
			continue;
		s = add_series(c, alloc, fmt_name("queue GPU %d stream %d", (int)qs->device,
						  (int)qs->stream), COUNTER_DERIVED, COUNTER_COUNT);
		s->points = xmalloc(qs->nr_points * sizeof(*s->points));
		for (size_t k = 0; k < qs->nr_points; k++)
			s->points[s->nr++] = (struct counter_point){ qs->points[k].t_ns,
								     (double)qs->points[k].length };
		finish_series(s);
	}
	queue_release(&q);
}

static void add_memory(const struct profile *p, struct counters *c, size_t *alloc)
{
	struct mem_curves mc;

	mem_curves(p, NULL, &mc);
	for (size_t i = 0; i < mc.nr; i++) {
		const struct mem_curve *m = &mc.curves[i];
		char dev[MEM_DEVICE_NAME_SIZE];
		struct counter_series *s;

		if (!m->nr)
			continue;
		s = add_series(c, alloc, fmt_name("memory %s", mem_device_name(m->device, dev,
									      sizeof(dev))),
			       COUNTER_DERIVED, COUNTER_BYTES);
		s->points = xmalloc(m->nr * sizeof(*s->points));
		for (size_t k = 0; k < m->nr; k++)
			s->points[s->nr++] = (struct counter_point){ m->points[k].ts_ns,
								     (double)m->points[k].allocated };
		finish_series(s);
	}
	mem_curves_release(&mc);
}

/* ---------------------------------------------------------------------
 * The whole
 */

void counters_compute(const struct profile *p, struct counters *c)
{
	size_t alloc = 0;

	memset(c, 0, sizeof(*c));
	add_recorded(p, c, &alloc);
	add_utilization(p, c, &alloc);
	add_queues(p, c, &alloc);
	add_memory(p, c, &alloc);
}

void counters_release(struct counters *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->v[i].name);
		free(c->v[i].points);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* The first sample of S at or after T (S->nr: none). */
static size_t first_from(const struct counter_series *s, int64_t t)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->points[mid].ts_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void counter_window(const struct counter_series *s, int64_t a, int64_t b,
		    struct counter_window *w)
{
	size_t i = first_from(s, a), e = b > a ? first_from(s, b) : i, from;
	int64_t lo, hi;
	long double area = 0;

	w->nr = e > i ? e - i : 0;
	w->first = w->nr ? i : SIZE_MAX;
	w->min = w->max = w->mean = NAN;
	if (!s->nr || b <= a)
		return;
	/* The sample in force at A: the one at A, else the one before. */
	from = i < s->nr && s->points[i].ts_ns == a ? i : i ? i - 1 : i;
	for (size_t k = from; k < e || k == from; k++) {
		double v;

		if (k >= s->nr || s->points[k].ts_ns >= b)
			break;
		v = s->points[k].value;
		if (isnan(w->min) || v < w->min)
			w->min = v;
		if (isnan(w->max) || v > w->max)
			w->max = v;
	}
	lo = a > s->points[0].ts_ns ? a : s->points[0].ts_ns;
	hi = b < s->points[s->nr - 1].ts_ns ? b : s->points[s->nr - 1].ts_ns;
	if (hi <= lo)
		return;
	/* Each value held until the next sample, clipped to [LO, HI):
	 * both within the ts bound, so no difference wraps. */
	for (size_t k = from; k + 1 < s->nr && s->points[k].ts_ns < hi; k++) {
		int64_t x = s->points[k].ts_ns > lo ? s->points[k].ts_ns : lo;
		int64_t y = s->points[k + 1].ts_ns < hi ? s->points[k + 1].ts_ns : hi;

		if (y > x)
			area += (long double)s->points[k].value * (long double)(y - x);
	}
	w->mean = (double)(area / (long double)(hi - lo));
}

size_t counter_at(const struct counter_series *s, int64_t t)
{
	size_t lo = 0, hi = s->nr;

	/* The first point after T; the one before it is in force. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->points[mid].ts_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : SIZE_MAX;
}
