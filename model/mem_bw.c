/* SPDX-License-Identifier: MIT */
/*
 * mem_bw: memory copies and sets by kind (mem_bw.h says what is
 * counted).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "hta_time.h"
#include "mem_bw.h"
#include "util.h"

void mem_bw_options_default(struct mem_bw_options *o)
{
	memset(o, 0, sizeof(*o));
	o->launched_before_ns = INT64_MAX;
}

/* One copy or set. */
struct ev {
	const char *kind;
	size_t kind_len;
	int64_t start, end;
	int64_t bytes;			/* -1: not given */
	double gbps;			/* NaN: not given */
	/* A pre-aggregated row (an nsys stats report's): how many copies it
	 * stands for, BYTES their sum, and the least and greatest of one. */
	uint64_t calls;
	int64_t min_bytes, max_bytes;
};

struct collect {
	const struct profile *p;
	const struct mem_bw_options *o;
	struct ev *v;
	size_t nr, alloc;
};

static size_t kind_len(const char *name, enum node_kind kind)
{
	const char *paren;

	if (kind == NODE_MEMSET && !strncmp(name, "Memset", 6))
		return 6;
	paren = strstr(name, " (");
	return paren ? (size_t)(paren - name) : strlen(name);
}

/* The size attribute KEY of N, or -1. */
static int64_t row_bytes(const struct node *n, const char *key)
{
	const struct attr *a = attr_find(node_attrs(n), key);

	return a && attr_type(a) == ATTR_INT ? a->v.i : -1;
}

/*
 * A copy or set that is a pre-aggregated row (untimed: an nsys stats
 * report's cuda_gpu_mem_*_sum): its calls, its total time and bytes, and
 * the extremes of one copy the file gives, when the file gives it a copy
 * record (profile_copy()).  Left out of HTA's comparison, which counts
 * events in time.
 */
static bool visit_row(struct collect *c, const struct node *n)
{
	const struct copy_stream *cs;
	struct ev e;
	int64_t dur;

	if (c->o->hta_summary || c->o->round_like_hta || c->o->launched_before_ns != INT64_MAX)
		return true;
	/* Only a row that says where it ran or what it moved: a
	 * key_averages table's Memcpy rows stay out, as they always have. */
	cs = profile_copy(c->p, n);
	if (!cs)
		return true;
	dur = node_device_total(c->p, n);
	e.kind = node_name(n);
	e.kind_len = kind_len(e.kind, n->kind);
	e.start = 0;
	e.end = dur > 0 ? dur : 0;
	e.bytes = cs->bytes;
	e.gbps = NAN;
	e.calls = node_calls(c->p, n);
	e.min_bytes = e.bytes < 0 ? -1 : row_bytes(n, ATTR_COPY_MIN_BYTES);
	e.max_bytes = e.bytes < 0 ? -1 : row_bytes(n, ATTR_COPY_MAX_BYTES);
	GROW(c->v, c->alloc, c->nr + 1);
	c->v[c->nr++] = e;
	return true;
}

static bool visit(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	const struct mem_bw_options *o = c->o;
	const struct copy_stream *cs;
	const struct node *call;
	struct ev e;
	int64_t dur;

	if (n->kind != NODE_MEMCPY && n->kind != NODE_MEMSET)
		return true;
	if (!node_is_timed(n))
		/* A printed row has no time: a range cannot hold it. */
		return o->has_range ? true : visit_row(c, n);
	if (o->has_range && (n->start_ns < o->range_start_ns || n->start_ns >= o->range_end_ns))
		return true;
	dur = node_device_total(c->p, n);
	if (dur == NS_UNTIMED || dur < 0)
		dur = 0;
	e.kind = node_name(n);
	e.kind_len = kind_len(e.kind, n->kind);
	e.start = n->start_ns;
	e.end = n->start_ns + dur;
	cs = profile_copy(c->p, n);
	e.bytes = cs ? cs->bytes : -1;
	e.gbps = cs ? cs->gbps : NAN;
	e.calls = 1;
	e.min_bytes = e.max_bytes = e.bytes;
	if (o->launched_before_ns != INT64_MAX) {
		call = node_parent(n);
		if (!call || call->kind != NODE_RUNTIME || !node_is_timed(call))
			return true;
		if (o->round_like_hta ? hta_start_ns(call->start_ns) >= hta_start_ns(o->launched_before_ns)
				      : call->start_ns >= o->launched_before_ns)
			return true;
	}
	if (o->round_like_hta) {
		e.end = hta_end_ns(e.start, dur);
		e.start = hta_start_ns(e.start);
	}
	GROW(c->v, c->alloc, c->nr + 1);
	c->v[c->nr++] = e;
	return true;
}

static int cmp_kind(const struct ev *x, const struct ev *y)
{
	size_t n = x->kind_len < y->kind_len ? x->kind_len : y->kind_len;
	int r = memcmp(x->kind, y->kind, n);

	if (r)
		return r;
	return (x->kind_len > y->kind_len) - (x->kind_len < y->kind_len);
}

static int cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	int r = cmp_kind(x, y);

	if (r)
		return r;
	return (x->start > y->start) - (x->start < y->start);
}

/* A change of HTA's sweep. */
struct change {
	int64_t t;
	double d;
};

static int cmp_change_starts_first(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->d < y->d) - (x->d > y->d);
}

static int cmp_change_ends_first(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->d > y->d) - (x->d < y->d);
}

/* HTA's summary of the N events W of one kind. */
static void hta_sweep(const struct mem_bw_options *o, const struct ev *w, size_t n,
		      struct describe *d)
{
	struct change *ch = xmalloc((2 * n + 1) * sizeof(*ch));
	double *pos = xmalloc((2 * n + 1) * sizeof(*pos)), sum = 0;
	size_t nr = 0, nr_pos = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t end = w[i].end;

		if (isnan(w[i].gbps))
			continue;
		if (end == w[i].start)
			end = w[i].start + 1000;	/* 0 us: 1 us */
		ch[nr++] = (struct change){ w[i].start, w[i].gbps };
		ch[nr++] = (struct change){ end, -w[i].gbps };
	}
	qsort(ch, nr, sizeof(*ch), o->ends_first ? cmp_change_ends_first : cmp_change_starts_first);
	for (size_t i = 0; i < nr; i++) {
		sum += ch[i].d;
		if (sum > 0)
			pos[nr_pos++] = sum;
	}
	describe_values(pos, nr_pos, d);
	free(pos);
	free(ch);
}

/* Kind K from its events W[0..N), sorted by start. */
static void one_kind(const struct mem_bw_options *o, const struct ev *w, size_t n,
		     struct mem_bw_kind *k, uint64_t *capped)
{
	memset(k, 0, sizeof(*k));
	k->name = w[0].kind;
	k->name_len = w[0].kind_len;
	k->min_bytes = k->max_bytes = -1;
	for (size_t i = 0; i < n; i++) {
		int64_t dur = w[i].end - w[i].start;

		if (dur < 0)
			dur = 0;
		sum_add_u(&k->count, w[i].calls);
		sum_add_counted(&k->time_ns, dur, capped);
		if (w[i].bytes < 0)
			continue;
		sum_add_u(&k->nr_sized, w[i].calls);
		sum_add_counted(&k->bytes, w[i].bytes, capped);
		sum_add_counted(&k->sized_ns, dur, capped);
		if (w[i].min_bytes >= 0 && (k->min_bytes < 0 || w[i].min_bytes < k->min_bytes))
			k->min_bytes = w[i].min_bytes;
		if (w[i].max_bytes > k->max_bytes)
			k->max_bytes = w[i].max_bytes;
	}
	k->mean_bytes = k->nr_sized && !sum_capped(k->bytes) ? (double)k->bytes / (double)k->nr_sized
							     : NAN;
	k->gbps = k->sized_ns > 0 && !sum_capped(k->sized_ns) && !sum_capped(k->bytes)
			  ? (double)k->bytes / (double)k->sized_ns
			  : NAN;
	if (o->hta_summary)
		hta_sweep(o, w, n, &k->hta);
	else
		describe_values(NULL, 0, &k->hta);
}

void mem_bw_compute(const struct profile *p, const struct mem_bw_options *o, struct mem_bw *b)
{
	struct mem_bw_options def;
	struct collect c = { 0 };
	size_t alloc = 0;

	memset(b, 0, sizeof(*b));
	if (!o) {
		mem_bw_options_default(&def);
		o = &def;
	}
	c.p = p;
	c.o = o;
	if (p->root)
		node_walk(p->root, visit, &c);
	if (!c.nr) {
		free(c.v);
		return;
	}
	qsort(c.v, c.nr, sizeof(*c.v), cmp_ev);
	for (size_t i = 0; i < c.nr;) {
		size_t j = i + 1;

		while (j < c.nr && !cmp_kind(&c.v[j], &c.v[i]))
			j++;
		GROW(b->kinds, alloc, b->nr_kinds + 1);
		one_kind(o, c.v + i, j - i, &b->kinds[b->nr_kinds++], &b->nr_capped);
		i = j;
	}
	free(c.v);
}

void mem_bw_release(struct mem_bw *b)
{
	free(b->kinds);
	memset(b, 0, sizeof(*b));
}
