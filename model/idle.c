/* SPDX-License-Identifier: MIT */
/*
 * idle: the idle-time breakdown per GPU stream (idle.h says what is
 * counted).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta_time.h"
#include "idle.h"
#include "util.h"

#define NO_LAUNCH INT64_MIN

static const char *const category_names[NR_IDLE_CATEGORIES] = {
	[IDLE_HOST_WAIT] = "host_wait",
	[IDLE_KERNEL_WAIT] = "kernel_wait",
	[IDLE_OTHER] = "other",
};

const char *idle_category_name(enum idle_category c)
{
	return c < NR_IDLE_CATEGORIES ? category_names[c] : "?";
}

void idle_options_default(struct idle_options *o)
{
	memset(o, 0, sizeof(*o));
	o->consecutive_kernel_delay_ns = 30000;
	o->lo_ns = INT64_MIN;
	o->hi_ns = INT64_MAX;
	o->launched_before_ns = INT64_MAX;
}

void idle_options_for_step(struct idle_options *o, const struct step *s)
{
	idle_options_default(o);
	if (s && s->end_ns > s->start_ns) {
		o->lo_ns = s->start_ns;
		o->hi_ns = s->end_ns;
	}
}

void idle_options_narrow(struct idle_options *o, int64_t start_ns, int64_t end_ns)
{
	window_narrow(&o->lo_ns, &o->hi_ns, start_ns, end_ns);
}

/* One piece of device work on a stream. */
struct work {
	int32_t device, stream;
	int64_t start, end;
	int64_t launch;			/* its runtime call's start; NO_LAUNCH */
	const struct node *n;
	uint32_t seen;			/* the order the load made nodes in */
};

struct collect {
	const struct profile *p;
	const struct idle_options *o;
	struct work *v;
	size_t nr, alloc;
};

static bool visit(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	const struct idle_options *o = c->o;
	const struct launch *l;
	const struct node *parent;
	struct work w;
	int64_t dur;

	if (n->kind != NODE_KERNEL && n->kind != NODE_MEMCPY && n->kind != NODE_MEMSET)
		return true;
	if (!node_is_timed(n))
		return true;
	if ((l = node_launch(n))) {
		w.device = l->device;
		w.stream = l->stream;
	} else if (!profile_copy_stream(c->p, n, &w.device, &w.stream)) {
		return true;
	}
	if (w.stream < 0)
		return true;
	dur = node_device_total(c->p, n);
	if (dur == NS_UNTIMED || dur < 0)
		dur = 0;
	w.start = n->start_ns;
	w.end = n->start_ns + dur;
	parent = node_parent(n);
	w.launch = parent && parent->kind == NODE_RUNTIME && node_is_timed(parent)
			   ? parent->start_ns
			   : NO_LAUNCH;
	w.n = n;
	w.seen = node_handle(n);
	if (w.start < o->lo_ns || w.start >= o->hi_ns)
		return true;
	if (o->round_like_hta) {
		w.end = hta_end_ns(w.start, dur);
		w.start = hta_start_ns(w.start);
		if (w.launch != NO_LAUNCH)
			w.launch = hta_start_ns(w.launch);
	}
	if (o->launched_before_ns != INT64_MAX) {
		int64_t bound = o->launched_before_ns;

		if (o->round_like_hta)
			bound = hta_start_ns(bound);
		if (w.launch == NO_LAUNCH || w.launch >= bound)
			return true;
	}
	GROW(c->v, c->alloc, c->nr + 1);
	c->v[c->nr++] = w;
	return true;
}

static int cmp_work(const void *a, const void *b)
{
	const struct work *x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return 0;
}

static int cmp_stream(const void *a, const void *b)
{
	const struct idle_stream *x = a, *y = b;

	if (x->first_seen != y->first_seen)
		return x->first_seen < y->first_seen ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return (x->stream > y->stream) - (x->stream < y->stream);
}

static bool is_host_range(const struct node *n)
{
	switch ((enum node_kind)n->kind) {
	case NODE_OP:
	case NODE_ANNOTATION:
	case NODE_MODULE:
	case NODE_STEP:
	case NODE_USER:
		return !(n->flags & NODE_DEVICE_RANGE);
	default:
		return false;
	}
}

/* The innermost host range under THREAD whose [start, start + host
 * total) holds T, or NULL. */
static const struct node *running_at(const struct profile *p, const struct node *thread,
				     int64_t t)
{
	const struct node *found = NULL, *in = thread;

	for (;;) {
		const struct node *hit = NULL;

		for (const struct node *c = node_first_child(in); c; c = node_next(c)) {
			int64_t total;

			if (!is_host_range(c) || !node_is_timed(c))
				continue;
			if (c->start_ns > t)
				break;
			total = node_host_total(p, c);
			if (total != NS_UNTIMED && t < c->start_ns + total) {
				hit = c;
				break;
			}
		}
		if (!hit)
			return found;
		found = in = hit;
	}
}

static const struct node *cpu_op_at(const struct profile *p, const struct node *next, int64_t t)
{
	const struct node *parent = node_parent(next), *thread;

	if (!parent || parent->kind != NODE_RUNTIME)
		return NULL;
	thread = node_ancestor(parent, NODE_THREAD);
	return thread ? running_at(p, thread, t) : NULL;
}

/* Keep the gap among S's longest (longest first; equal: the earlier). */
static void keep_top(struct idle_stream *s, const struct idle_gap *g)
{
	size_t i = s->nr_top < IDLE_TOP_GAPS ? s->nr_top : IDLE_TOP_GAPS - 1;

	if (s->nr_top == IDLE_TOP_GAPS && g->len_ns <= s->top[i].len_ns)
		return;
	while (i > 0 && s->top[i - 1].len_ns < g->len_ns) {
		s->top[i] = s->top[i - 1];
		i--;
	}
	s->top[i] = *g;
	if (s->nr_top < IDLE_TOP_GAPS)
		s->nr_top++;
}

/* Stream S from its sorted work W[0..N). */
static void one_stream(const struct profile *p, const struct idle_options *o, const struct work *w, size_t n,
		       struct idle_stream *s, double *scratch, uint64_t *capped)
{
	size_t nr[NR_IDLE_CATEGORIES] = { 0 };

	memset(s, 0, sizeof(*s));
	s->device = w[0].device;
	s->stream = w[0].stream;
	s->nr_work = n;
	s->first_ns = w[0].start;
	s->first_seen = w[0].seen;
	s->end_ns = w[0].end;
	for (size_t i = 1; i < n; i++) {
		if (w[i].seen < s->first_seen)
			s->first_seen = w[i].seen;
		if (w[i].end > s->end_ns)
			s->end_ns = w[i].end;
	}
	/* Each category's gaps in turn, in SCRATCH. */
	for (int c = 0; c < NR_IDLE_CATEGORIES; c++) {
		for (size_t i = 1; i < n; i++) {
			int64_t prev_end = w[i - 1].end, gap = w[i].start - prev_end;
			enum idle_category cat;

			if (w[i].launch != NO_LAUNCH && w[i].launch > prev_end)
				cat = IDLE_HOST_WAIT;
			else if (gap < o->consecutive_kernel_delay_ns)
				cat = IDLE_KERNEL_WAIT;
			else
				cat = IDLE_OTHER;
			if ((int)cat != c)
				continue;
			scratch[nr[c]++] = (double)gap;
			if (!sum_add(&s->idle_ns[c], gap))
				(*capped)++;
			keep_top(s, &(struct idle_gap){ .start_ns = prev_end, .len_ns = gap,
							.category = cat, .next = w[i].n });
		}
		describe_values(scratch, nr[c], &s->stats[c]);
	}
	for (int c = 0; c < NR_IDLE_CATEGORIES; c++)
		if (!sum_add(&s->total_ns, s->idle_ns[c]))
			(*capped)++;
	for (int c = 0; c < NR_IDLE_CATEGORIES; c++)
		s->ratio[c] = s->total_ns ? (double)s->idle_ns[c] / (double)s->total_ns : NAN;
	for (size_t i = 0; i < s->nr_top; i++)
		s->top[i].cpu_op = cpu_op_at(p, s->top[i].next, s->top[i].start_ns);
}

void idle_compute(const struct profile *p, const struct idle_options *o, struct idle_breakdown *b)
{
	struct idle_options def;
	struct collect c = { 0 };
	size_t alloc = 0;
	double *scratch;

	memset(b, 0, sizeof(*b));
	if (!o) {
		idle_options_default(&def);
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
	qsort(c.v, c.nr, sizeof(*c.v), cmp_work);
	scratch = xmalloc(c.nr * sizeof(*scratch));
	for (size_t i = 0; i < c.nr;) {
		size_t j = i + 1;

		while (j < c.nr && c.v[j].device == c.v[i].device && c.v[j].stream == c.v[i].stream)
			j++;
		GROW(b->streams, alloc, b->nr_streams + 1);
		one_stream(p, o, c.v + i, j - i, &b->streams[b->nr_streams++], scratch, &b->nr_capped);
		i = j;
	}
	qsort(b->streams, b->nr_streams, sizeof(*b->streams), cmp_stream);
	free(scratch);
	free(c.v);
}

double idle_stream_share(const struct idle_stream *s)
{
	int64_t span;

	if (sum_capped(s->total_ns) || __builtin_sub_overflow(s->end_ns, s->first_ns, &span) ||
	    span <= 0)
		return NAN;
	return (double)s->total_ns / (double)span;
}

void idle_release(struct idle_breakdown *b)
{
	free(b->streams);
	memset(b, 0, sizeof(*b));
}
