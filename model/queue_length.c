/* SPDX-License-Identifier: MIT */
/*
 * queue_length: each GPU stream's queue of launched, not yet started
 * operations over time (queue_length.h says what is counted).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "hta_time.h"
#include "keyindex.h"
#include "queue_length.h"
#include "util.h"

static const char *const hta_launches[] = {
	"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
	"cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
	"hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
};

bool queue_is_hta_launch(const char *name)
{
	for (size_t i = 0; i < sizeof(hta_launches) / sizeof(*hta_launches); i++)
		if (!strcmp(name, hta_launches[i]))
			return true;
	/* MTIA's "runFunction - job_prep_and_submit_for_execution" */
	return !strncmp(name, "runFunction", 11);
}

void queue_options_default(struct queue_options *o)
{
	memset(o, 0, sizeof(*o));
	o->full_length = 1024;
	o->launched_before_ns = INT64_MAX;
}

struct collect {
	const struct profile *p;
	const struct queue_options *o;
	struct key_index streams;	/* (device, stream) -> index */
	struct queue_stream *s;
	size_t nr_s, alloc_s;
	struct queue_point *v;
	size_t nr, alloc;
};

static uint32_t stream_index(struct collect *c, int32_t device, int32_t stream)
{
	uint64_t key = (uint64_t)(uint32_t)device << 32 | (uint32_t)stream;
	size_t i = key_index_get(&c->streams, key);

	if (i != KEY_INDEX_NONE)
		return (uint32_t)i;
	GROW(c->s, c->alloc_s, c->nr_s + 1);
	memset(&c->s[c->nr_s], 0, sizeof(c->s[c->nr_s]));
	c->s[c->nr_s].device = device;
	c->s[c->nr_s].stream = stream;
	key_index_put(&c->streams, key, c->nr_s);
	return (uint32_t)c->nr_s++;
}

static bool visit(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	const struct queue_options *o = c->o;
	const struct launch *l;
	const struct node *call;
	int32_t device, stream;
	int64_t launch, start;
	uint32_t ix;

	if (n->kind != NODE_KERNEL && n->kind != NODE_MEMCPY && n->kind != NODE_MEMSET)
		return true;
	call = node_parent(n);
	if (!node_is_timed(n) || !call || call->kind != NODE_RUNTIME || !node_is_timed(call))
		return true;
	if ((l = node_launch(n))) {
		device = l->device;
		stream = l->stream;
	} else if (!profile_copy_stream(c->p, n, &device, &stream)) {
		return true;
	}
	if (stream < 0)
		return true;
	if (o->hta_launch_names && !queue_is_hta_launch(node_name(call)))
		return true;
	launch = call->start_ns;
	start = n->start_ns;
	if (o->round_like_hta) {
		launch = hta_start_ns(launch);
		start = hta_start_ns(start);
	}
	if (o->launched_before_ns != INT64_MAX &&
	    launch >= (o->round_like_hta ? hta_start_ns(o->launched_before_ns) : o->launched_before_ns))
		return true;
	ix = stream_index(c, device, stream);
	GROW(c->v, c->alloc, c->nr + 2);
	c->v[c->nr++] = (struct queue_point){ .t_ns = launch, .length = 1, .stream = ix };
	c->v[c->nr++] = (struct queue_point){ .t_ns = start, .length = -1, .stream = ix };
	return true;
}

/* By stream (in the order of streams below), time, launches first. */
static int cmp_point(const void *a, const void *b)
{
	const struct queue_point *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return (x->length < y->length) - (x->length > y->length);
}

/* The same with starts before launches at one time. */
static int cmp_point_starts_first(const void *a, const void *b)
{
	const struct queue_point *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return (x->length > y->length) - (x->length < y->length);
}

struct stream_key {
	int32_t device, stream;
	uint32_t old;
};

static int cmp_key(const void *a, const void *b)
{
	const struct stream_key *x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return (x->stream > y->stream) - (x->stream < y->stream);
}

/*
 * The figures of S from its changes W[0..N) (lengths made), over the time
 * [T0, T1]: the length is CARRY from T0 to the first change (or to T1),
 * then each change's until the next one (or T1).  Without a range, CARRY
 * is 0 and T0, T1 are the first and last change.
 */
static void figures(const struct queue_options *o, const struct queue_point *w, size_t n,
		    int32_t carry, int64_t t0, int64_t t1, struct queue_stream *s, double *scratch,
		    uint64_t *capped)
{
	int64_t area = 0, timed = 0;
	bool area_ok = true;

	s->points = w;
	s->nr_points = n;
	s->carried = carry;
	s->first_ns = t0;
	s->last_ns = t1;
	s->tw_max = INT64_MIN;
	s->blocked_ns = 0;
	s->nr_launches = 0;
	for (size_t i = 0; i < n; i++) {
		scratch[i] = (double)w[i].length;
		if (w[i].length > (i ? w[i - 1].length : carry))
			s->nr_launches++;
	}
	for (size_t i = 0; i <= n; i++) {
		int64_t from = i ? w[i - 1].t_ns : t0, to = i < n ? w[i].t_ns : t1;
		int32_t len = i ? w[i - 1].length : carry;
		int64_t dt, a;

		if (__builtin_sub_overflow(to, from, &dt) || dt <= 0)
			continue;
		if (len > s->tw_max)
			s->tw_max = len;
		if (!sum_add(&timed, dt))
			(*capped)++;
		if (__builtin_mul_overflow((int64_t)len, dt, &a) || !sum_add(&area, a)) {
			if (area_ok)
				(*capped)++;
			area_ok = false;
		}
		if (len >= o->full_length && !sum_add(&s->blocked_ns, dt))
			(*capped)++;
	}
	s->tw_mean = area_ok && timed > 0 && !sum_capped(timed) ? (double)area / (double)timed : NAN;
	describe_values(scratch, n, &s->summary);
}

/* The first of W[0..N) at or after T. */
static size_t first_at(const struct queue_point *w, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w[mid].t_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Stream S from its sorted changes W[0..N), made into lengths here; with
 * a range, its figures over the range only.  Returns whether the stream
 * is kept: without a range always, with one when the range meets the
 * span of its changes.
 */
static bool one_stream(const struct queue_options *o, struct queue_point *w, size_t n,
		       struct queue_stream *s, double *scratch, uint64_t *capped)
{
	int64_t len = 0;
	size_t ia, ib;

	for (size_t i = 0; i < n; i++) {
		len += w[i].length;
		w[i].length = (int32_t)len;
	}
	if (!o->has_range) {
		figures(o, w, n, 0, w[0].t_ns, w[n - 1].t_ns, s, scratch, capped);
		return true;
	}
	if (w[0].t_ns >= o->range_end_ns || w[n - 1].t_ns < o->range_start_ns)
		return false;
	ia = first_at(w, n, o->range_start_ns);
	ib = first_at(w, n, o->range_end_ns);
	figures(o, w + ia, ib - ia, ia ? w[ia - 1].length : 0,
		w[0].t_ns > o->range_start_ns ? w[0].t_ns : o->range_start_ns,
		w[n - 1].t_ns < o->range_end_ns ? w[n - 1].t_ns : o->range_end_ns, s, scratch, capped);
	return true;
}

void queue_compute(const struct profile *p, const struct queue_options *o, struct queue_lengths *q)
{
	struct queue_options def;
	struct collect c = { 0 };
	struct stream_key *sorted;
	uint32_t *remap;
	double *scratch;
	int64_t span;

	memset(q, 0, sizeof(*q));
	if (!o) {
		queue_options_default(&def);
		o = &def;
	}
	c.p = p;
	c.o = o;
	if (p->root)
		node_walk(p->root, visit, &c);
	key_index_release(&c.streams);
	if (!c.nr) {
		free(c.v);
		free(c.s);
		return;
	}
	/* The streams in their order, and the points renumbered to it. */
	sorted = xmalloc(c.nr_s * sizeof(*sorted));
	remap = xmalloc(c.nr_s * sizeof(*remap));
	for (size_t i = 0; i < c.nr_s; i++)
		sorted[i] = (struct stream_key){ c.s[i].device, c.s[i].stream, (uint32_t)i };
	qsort(sorted, c.nr_s, sizeof(*sorted), cmp_key);
	for (size_t i = 0; i < c.nr_s; i++) {
		remap[sorted[i].old] = (uint32_t)i;
		c.s[i].device = sorted[i].device;
		c.s[i].stream = sorted[i].stream;
	}
	for (size_t i = 0; i < c.nr; i++)
		c.v[i].stream = remap[c.v[i].stream];
	free(sorted);
	free(remap);
	qsort(c.v, c.nr, sizeof(*c.v), o->starts_first ? cmp_point_starts_first : cmp_point);
	scratch = xmalloc(c.nr * sizeof(*scratch));
	q->streams = c.s;
	q->nr_streams = c.nr_s;
	q->points = c.v;
	q->nr_points = c.nr;
	q->nr_streams = 0;
	for (size_t i = 0, k = 0; i < c.nr; k++) {
		size_t j = i + 1;

		while (j < c.nr && c.v[j].stream == c.v[i].stream)
			j++;
		if (one_stream(o, c.v + i, j - i, &q->streams[k], scratch, &q->nr_capped))
			q->streams[q->nr_streams++] = q->streams[k];
		i = j;
	}
	free(scratch);
	if (!q->nr_streams)
		return;
	q->first_ns = q->streams[0].first_ns;
	q->last_ns = q->streams[0].last_ns;
	for (size_t i = 1; i < q->nr_streams; i++) {
		if (q->streams[i].first_ns < q->first_ns)
			q->first_ns = q->streams[i].first_ns;
		if (q->streams[i].last_ns > q->last_ns)
			q->last_ns = q->streams[i].last_ns;
	}
	for (size_t i = 0; i < q->nr_streams; i++) {
		struct queue_stream *s = &q->streams[i];

		s->blocked_share = !__builtin_sub_overflow(q->last_ns, q->first_ns, &span) && span > 0 &&
						   !sum_capped(s->blocked_ns)
					   ? (double)s->blocked_ns / (double)span
					   : NAN;
	}
}

void queue_release(struct queue_lengths *q)
{
	free(q->streams);
	free(q->points);
	memset(q, 0, sizeof(*q));
}
