// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "dist.h"
#include "hta_time.h"
#include "name_stats.h"
#include "bounds.h"
#include "util.h"

/* One runtime node as the walk finds it. */
struct name_call {
	const char *name;
	int64_t dur_ns;
	uint64_t calls;			/* > 1: a pre-aggregated row */
	int64_t min_ns, max_ns;		/* the row's, where counted */
	const struct node *node;
};

struct name_walk {
	const struct profile *p;
	enum name_stats_kind kind;
	struct name_stats_scope scope;
	struct name_call *v;
	size_t nr, alloc;
};

static bool wanted(const struct node *n, enum name_stats_kind kind)
{
	switch (kind) {
	case NAME_STATS_API:
		return n->kind == NODE_RUNTIME;
	case NAME_STATS_HOST_ANNOTATIONS:
		return n->kind == NODE_ANNOTATION && !(n->flags & NODE_DEVICE_RANGE);
	case NAME_STATS_GPU_ANNOTATIONS:
		return n->kind == NODE_ANNOTATION && (n->flags & NODE_DEVICE_RANGE);
	}
	return false;
}

/* Whether START is before the scope's bound, compared as HTA compares
 * them when rounding like it. */
static bool before(const struct name_stats_scope *s, int64_t start)
{
	if (s->round_like_hta)
		return hta_start_ns(start) < hta_start_ns(s->before_ns);
	return start < s->before_ns;
}

static bool collect(struct node *n, void *ctx)
{
	struct name_walk *w = ctx;
	struct name_call *c;

	if (!wanted(n, w->kind) || !node_in_step(n, w->scope.step))
		return true;
	if (w->scope.before_ns && !(node_is_timed(n) && before(&w->scope, n->start_ns)))
		return true;
	if (w->scope.has_range &&
	    !(node_is_timed(n) && n->start_ns >= w->scope.range_start_ns &&
	      n->start_ns < w->scope.range_end_ns))
		return true;
	GROW(w->v, w->alloc, w->nr + 1);
	c = &w->v[w->nr++];
	c->name = node_name(n);
	c->dur_ns = w->kind == NAME_STATS_GPU_ANNOTATIONS ? node_device_total(w->p, n) :
							     node_host_total(w->p, n);
	if (w->scope.round_like_hta && node_is_timed(n))
		c->dur_ns = hta_end_ns(n->start_ns, c->dur_ns) - hta_start_ns(n->start_ns);
	c->calls = node_calls(w->p, n);
	c->min_ns = c->calls == 1 ? c->dur_ns : node_min_ns(w->p, n);
	c->max_ns = c->calls == 1 ? c->dur_ns : node_max_ns(w->p, n);
	c->node = n;
	return true;
}

/* By name, then by duration within a name, so that each name's calls are
 * a sorted run whose median is at its middle. */
static int by_name_then_duration(const void *a, const void *b)
{
	const struct name_call *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->dur_ns > y->dur_ns) - (x->dur_ns < y->dur_ns);
}

static int by_total(const void *a, const void *b)
{
	const struct name_row *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* What a row of a printed report (nsys stats) states of itself, into R;
 * false when N states none of it (profile.h, ATTR_FILE_SHARE_PCT...). */
static bool take_file_figures(const struct node *n, struct name_row *r)
{
	const struct attr *list = node_attrs(n), *a;
	bool any = false;

	if ((a = attr_find(list, ATTR_FILE_MEDIAN)) && attr_type(a) == ATTR_NS)
		r->median_ns = a->v.i, any = true;
	if ((a = attr_find(list, ATTR_FILE_STDDEV)) && attr_type(a) == ATTR_NS)
		r->stddev_ns = (double)a->v.i, any = true;
	if ((a = attr_find(list, ATTR_FILE_MEAN)) && attr_type(a) == ATTR_NS)
		r->mean_ns = a->v.i, any = true;
	if ((a = attr_find(list, ATTR_FILE_SHARE_PCT)) && attr_type(a) == ATTR_DOUBLE)
		r->file_pct = a->v.d, any = true;
	if ((a = attr_find(list, ATTR_FILE_REPORT)) && attr_type(a) == ATTR_STRING)
		r->report = a->v.s, any = true;
	return any;
}

/* The row of calls V[0..N), sorted by duration; BUF: room for N. */
static void make_row(const struct name_call *v, size_t n, struct name_row *r, int64_t *buf)
{
	bool single = true;

	memset(r, 0, sizeof(*r));
	r->name = v[0].name;
	r->min_ns = r->max_ns = -1;
	for (size_t i = 0; i < n; i++) {
		sum_add_u(&r->calls, v[i].calls);
		sum_add(&r->total_ns, v[i].dur_ns);
		single &= v[i].calls == 1;
		if (v[i].min_ns >= 0 && (r->min_ns < 0 || v[i].min_ns < r->min_ns))
			r->min_ns = v[i].min_ns;
		if (v[i].max_ns > r->max_ns)
			r->max_ns = v[i].max_ns;
	}
	r->capped = sum_capped(r->total_ns);
	r->median_ns = r->p90_ns = r->p99_ns = -1;
	r->stddev_ns = NAN;
	r->mean_ns = -1;
	r->file_pct = NAN;
	if (n == 1 && take_file_figures(v[0].node, r))
		return;
	if (!single)
		return;
	/* Every duration known: the percentiles and the standard deviation
	 * of model/dist.h. */
	for (size_t i = 0; i < n; i++)
		buf[i] = v[i].dur_ns;
	r->median_ns = dist_percentile(buf, n, 50);
	r->p90_ns = dist_percentile(buf, n, 90);
	r->p99_ns = dist_percentile(buf, n, 99);
	r->stddev_ns = dist_stddev(buf, n);
}

void name_stats_make(const struct profile *p, enum name_stats_kind kind,
		     const struct name_stats_scope *scope, struct name_stats *out)
{
	struct name_walk w = { .p = p, .kind = kind };
	size_t alloc = 0;
	int64_t *buf;

	memset(out, 0, sizeof(*out));
	if (scope)
		w.scope = *scope;
	node_walk(p->root, collect, &w);
	/* qsort()'s array may not be NULL, even empty. */
	if (w.nr)
		qsort(w.v, w.nr, sizeof(*w.v), by_name_then_duration);
	buf = xmalloc((w.nr ? w.nr : 1) * sizeof(*buf));
	for (size_t i = 0, j; i < w.nr; i = j) {
		for (j = i + 1; j < w.nr && !strcmp(w.v[j].name, w.v[i].name); j++)
			;
		GROW(out->rows, alloc, out->nr + 1);
		make_row(&w.v[i], j - i, &out->rows[out->nr], buf);
		sum_add(&out->total_ns, out->rows[out->nr].total_ns);
		out->nr++;
	}
	out->capped = sum_capped(out->total_ns);
	if (out->nr)
		qsort(out->rows, out->nr, sizeof(*out->rows), by_total);
	free(buf);
	free(w.v);
}

struct name_durations {
	struct name_walk w;
	const char *name;
	bool unknown;
};

static bool collect_named(struct node *n, void *ctx)
{
	struct name_durations *nd = ctx;

	if (node_name(n) != nd->name && strcmp(node_name(n), nd->name))
		return true;
	if (!wanted(n, nd->w.kind))
		return true;
	collect(n, &nd->w);
	if (nd->w.nr && nd->w.v[nd->w.nr - 1].calls != 1)
		nd->unknown = true;
	return true;
}

size_t name_stats_durations(const struct profile *p, enum name_stats_kind kind,
			    const struct name_stats_scope *scope, const char *name, int64_t **out)
{
	struct name_durations nd = { .w = { .p = p, .kind = kind }, .name = name };
	size_t n = 0;

	*out = NULL;
	if (scope)
		nd.w.scope = *scope;
	node_walk(p->root, collect_named, &nd);
	if (nd.w.nr && !nd.unknown) {
		*out = xmalloc(nd.w.nr * sizeof(**out));
		for (size_t i = 0; i < nd.w.nr; i++)
			(*out)[i] = nd.w.v[i].dur_ns;
		n = nd.w.nr;
		dist_sort(*out, n, NULL);
	}
	free(nd.w.v);
	return n;
}

void name_stats_release(struct name_stats *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

struct count_walk {
	const struct profile *p;
	enum name_stats_kind kind;
	uint64_t calls;
	int64_t total_ns;
};

static bool count(struct node *n, void *ctx)
{
	struct count_walk *w = ctx;

	if (!wanted(n, w->kind))
		return true;
	sum_add_u(&w->calls, node_calls(w->p, n));
	sum_add(&w->total_ns, w->kind == NAME_STATS_GPU_ANNOTATIONS ? node_device_total(w->p, n) :
								       node_host_total(w->p, n));
	return true;
}

void name_stats_count(const struct profile *p, enum name_stats_kind kind, uint64_t *calls,
		      int64_t *total_ns)
{
	struct count_walk w = { .p = p, .kind = kind };

	node_walk(p->root, count, &w);
	*calls = w.calls;
	*total_ns = w.total_ns;
}

struct parts_walk {
	const struct profile *p;
	enum name_stats_kind kind;
	struct name_stats_part *v;
	size_t nr, alloc;
};

static bool count_part(struct node *n, void *ctx)
{
	struct parts_walk *w = ctx;
	const struct attr *a = attr_find(node_attrs(n), ATTR_FILE_REPORT);
	const char *report;
	size_t i;

	if (!wanted(n, w->kind))
		return true;
	report = a && attr_type(a) == ATTR_STRING ? a->v.s : NULL;
	for (i = 0; i < w->nr; i++)
		if (w->v[i].report == report ||
		    (report && w->v[i].report && !strcmp(w->v[i].report, report)))
			break;
	if (i == w->nr && w->nr == NAME_STATS_PARTS_MAX) {
		/* Past the cap, the rest are one part (report ""), so that
		 * a file naming a report per row costs no quadratic scan. */
		for (i = 0; i < w->nr && !(w->v[i].report && !w->v[i].report[0]); i++)
			;
		if (i == w->nr)
			i = w->nr - 1, w->v[i].report = "";
	}
	if (i == w->nr) {
		GROW(w->v, w->alloc, w->nr + 1);
		w->v[w->nr++] = (struct name_stats_part){ .report = report };
	}
	sum_add_u(&w->v[i].calls, node_calls(w->p, n));
	sum_add(&w->v[i].total_ns, w->kind == NAME_STATS_GPU_ANNOTATIONS ? node_device_total(w->p, n) :
									    node_host_total(w->p, n));
	return true;
}

size_t name_stats_count_parts(const struct profile *p, enum name_stats_kind kind,
			      struct name_stats_part **out)
{
	struct parts_walk w = { .p = p, .kind = kind };

	node_walk(p->root, count_part, &w);
	*out = w.v;
	return w.nr;
}
