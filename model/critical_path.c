/* SPDX-License-Identifier: MIT */
/*
 * critical_path: the longest path of a window's dependency graph
 * (critical_path.h says which graph).  One walk collects the events; a
 * sort of the host events' starts and ends per thread gives each thread's
 * call stack, and a depth-first pass over it makes the host edges; a sort
 * of the launches and starts per stream gives the queue lengths; a sort of
 * the device work per stream makes the device edges.  Each edge relaxes
 * its head's distance as it is made: edges are made in a topological
 * order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "critical_path.h"
#include "hta_time.h"
#include "kernel_type.h"
#include "util.h"

#define NO_QUEUE INT32_MIN

static const char *const bound_names[NR_CPATH_BOUNDS] = {
	[CPATH_NONE] = "",
	[CPATH_CPU] = "cpu_bound",
	[CPATH_GPU_COMPUTE] = "gpu_compute_bound",
	[CPATH_GPU_COMMUNICATION] = "gpu_communication_bound",
	[CPATH_LAUNCH] = "gpu_kernel_launch_overhead",
	[CPATH_KERNEL_KERNEL] = "gpu_kernel_kernel_overhead",
};

const char *cpath_bound_name(enum cpath_bound b)
{
	return b < NR_CPATH_BOUNDS ? bound_names[b] : "?";
}

void cpath_options_default(struct cpath_options *o)
{
	memset(o, 0, sizeof(*o));
	o->lo_ns = INT64_MIN;
	o->hi_ns = INT64_MAX;
	o->kk_max_gap_ns = 1500000;
}

void cpath_options_for_step(struct cpath_options *o, const struct step *s)
{
	cpath_options_default(o);
	if (s && s->end_ns > s->start_ns) {
		o->lo_ns = s->start_ns;
		o->hi_ns = s->end_ns;
	}
}

void cpath_options_narrow(struct cpath_options *o, int64_t start_ns, int64_t end_ns)
{
	if (end_ns <= start_ns) {	/* nothing starts in it */
		o->lo_ns = 1;
		o->hi_ns = 0;
		return;
	}
	if (start_ns > o->lo_ns)
		o->lo_ns = start_ns;
	if (end_ns - 1 < o->hi_ns)
		o->hi_ns = end_ns - 1;	/* the window's end is in it */
}

const struct step *cpath_default_step(const struct profile *p)
{
	const struct step *s = NULL;

	for (size_t i = 0; i < p->nr_steps; i++)
		if (p->steps[i].end_ns > p->steps[i].start_ns &&
		    (!s || p->steps[i].end_ns - p->steps[i].start_ns > s->end_ns - s->start_ns))
			s = &p->steps[i];
	return s;
}

double cpath_share(const struct critical_path *c, int64_t ns)
{
	if (c->total_ns <= 0 || c->nr_capped || sum_capped(ns))
		return NAN;
	return 100.0 * (double)ns / (double)c->total_ns;
}

/* Calls that wait for the device: HTA zeroes the time of their end. */
static const char *const blocking_calls[] = {
	"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery",
	"cudaEventSynchronize", "cudaMemcpy",
};

/* Calls that put work in a stream's queue (README of hta-expected, 7). */
static const char *const launch_calls[] = {
	"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
	"cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
	"hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
	"runFunction - job_prep_and_submit_for_execution",
};

static bool in_list(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

struct ev {
	const struct node *n;
	const struct node *thread;
	int64_t start, end;
	uint32_t seq;			/* node handle: the load's order */
	int32_t parent;			/* host: the stack's parent; -1 */
	int32_t rt;			/* device: its launching call's ev; -1 */
	int32_t device, stream;
	int32_t qr, qk;			/* queue at the launch, at the start */
	bool is_device, has_node, blocking;
};

/* A launch (+1) or a start of launched work (-1) on a stream. */
struct qev {
	int32_t device, stream;
	int64_t ts;
	int32_t delta;
	int32_t ev;			/* the work's ev, -1: outside the window */
	uint32_t seq;
};

/* A stream's queue before the window: the launches less the starts. */
struct qbase {
	int32_t device, stream;
	int64_t count;
};

#define MAX_QBASE 64
#define RT_RING 8

struct build {
	const struct profile *p;
	const struct cpath_options *o;
	struct ev *ev;
	size_t nr_ev, alloc_ev;
	struct qev *q;
	size_t nr_q, alloc_q;
	/* Launches and starts before Q_FROM (the window's start) only count:
	 * per stream, in QBASE (when the streams are few). */
	int64_t q_from;
	struct qbase qbase[MAX_QBASE];
	size_t nr_qbase;
	const struct node *thread;
	/* The last runtime calls walked (a call may hold another, a driver
	 * call, before the work it launched): a ring, searched for a piece
	 * of work's parent. */
	struct rt_seen {
		const struct node *n;
		int32_t ev;		/* -1: not taken */
		int64_t start;
		bool launches;
	} rt[RT_RING];
	unsigned nr_rt;
	/* The graph: per node, the longest distance to it and the edge that
	 * gives it. */
	int64_t *dist;
	struct pred {
		int32_t from;		/* -1: none */
		uint8_t type;
		int32_t attr;		/* the ev attributed, -1 */
		int64_t weight;
	} *pred;
	size_t nr_edges;
	struct cpath_edge_rec *edges;
	size_t alloc_edges;
	/* Every edge, in the order made: the longest path relaxes each
	 * node's edges in this order (longest()). */
	struct gedge {
		uint32_t from, to;
		int64_t weight;
		int32_t attr;
		uint8_t type;
	} *g;
	size_t nr_g, alloc_g;
	/* The device work by stream and start (device_edges()), and by
	 * stream and launch (sync_edges()). */
	struct dev_key *dkey, *lkey;
	size_t nr_dkey;
};

static int64_t round_start(const struct cpath_options *o, int64_t t)
{
	return o->round_like_hta ? hta_start_ns(t) : t;
}

static int64_t round_end(const struct cpath_options *o, int64_t t, int64_t dur)
{
	return o->round_like_hta ? hta_end_ns(t, dur) : t + dur;
}

static bool is_host_range(const struct node *n)
{
	switch ((enum node_kind)n->kind) {
	case NODE_OP:
	case NODE_RUNTIME:
	case NODE_ANNOTATION:
	case NODE_MODULE:
	case NODE_STEP:
	case NODE_USER:
		return !(n->flags & NODE_DEVICE_RANGE);
	default:
		return false;
	}
}

static bool in_window(const struct build *b, int64_t t)
{
	int64_t lo = b->o->lo_ns, hi = b->o->hi_ns;

	if (b->o->round_like_hta) {
		/* The window as HTA rounds its step: its start up, its end
		 * down. */
		if (lo != INT64_MIN)
			lo = hta_start_ns(lo);
		if (hi != INT64_MAX && b->o->lo_ns != INT64_MIN)
			hi = hta_end_ns(b->o->lo_ns, hi - b->o->lo_ns);
	}
	return t >= lo && t <= hi;
}

static void visit_host(struct build *b, const struct node *n)
{
	int64_t dur = node_host_total(b->p, n), start, end;
	struct ev *e;

	struct rt_seen *rt = NULL;

	if (dur == NS_UNTIMED || dur < 0)
		dur = 0;
	start = round_start(b->o, n->start_ns);
	end = round_end(b->o, n->start_ns, dur);
	if (n->kind == NODE_RUNTIME) {
		rt = &b->rt[b->nr_rt++ % RT_RING];
		*rt = (struct rt_seen){ n, -1, start,
					in_list(node_name(n), launch_calls, ARRAY_SIZE(launch_calls)) };
	}
	if (end - start <= 0 || !in_window(b, start))
		return;
	GROW(b->ev, b->alloc_ev, b->nr_ev + 1);
	e = &b->ev[b->nr_ev];
	memset(e, 0, sizeof(*e));
	e->n = n;
	e->thread = b->thread;
	e->start = start;
	e->end = end;
	e->seq = node_handle(n);
	e->parent = e->rt = -1;
	e->qr = e->qk = NO_QUEUE;
	e->has_node = n->kind == NODE_OP || n->kind == NODE_RUNTIME;
	e->blocking = n->kind == NODE_RUNTIME &&
		      in_list(node_name(n), blocking_calls, ARRAY_SIZE(blocking_calls));
	if (rt)
		rt->ev = (int32_t)b->nr_ev;
	b->nr_ev++;
}

static void add_q(struct build *b, int32_t device, int32_t stream, int64_t ts, int32_t delta,
		  int32_t ev, uint32_t seq)
{
	if (ev < 0 && ts < b->q_from) {
		size_t i;

		for (i = 0; i < b->nr_qbase; i++)
			if (b->qbase[i].device == device && b->qbase[i].stream == stream)
				break;
		if (i < MAX_QBASE) {
			if (i == b->nr_qbase)
				b->qbase[b->nr_qbase++] = (struct qbase){ device, stream, 0 };
			b->qbase[i].count += delta;
			return;
		}
	}
	GROW(b->q, b->alloc_q, b->nr_q + 1);
	b->q[b->nr_q++] = (struct qev){ device, stream, ts, delta, ev, seq };
}

static void visit_device(struct build *b, const struct node *n)
{
	const struct launch *l;
	const struct node *up = node_has_parent(n) ? node_parent(n) : NULL;
	int32_t device, stream, idx = -1;
	int64_t dur = node_device_total(b->p, n);
	const struct rt_seen *rt = NULL;

	for (unsigned k = 1; up && k <= RT_RING && k <= b->nr_rt; k++)
		if (b->rt[(b->nr_rt - k) % RT_RING].n == up) {
			rt = &b->rt[(b->nr_rt - k) % RT_RING];
			break;
		}
	if (!rt)
		return;
	if (b->o->last_work_only && node_has_next(n) && node_kind_is_device(node_next(n)->kind))
		return;
	if ((l = node_launch(n))) {
		device = l->device;
		stream = l->stream;
	} else if (!profile_copy_stream(b->p, n, &device, &stream)) {
		return;
	}
	if (stream < 0)
		return;
	if (dur == NS_UNTIMED || dur < 0)
		dur = 0;
	if (rt->ev >= 0) {
		struct ev *e;

		GROW(b->ev, b->alloc_ev, b->nr_ev + 1);
		e = &b->ev[b->nr_ev];
		memset(e, 0, sizeof(*e));
		e->n = n;
		e->thread = b->thread;
		e->start = round_start(b->o, n->start_ns);
		e->end = round_end(b->o, n->start_ns, dur);
		e->seq = node_handle(n);
		e->parent = -1;
		e->rt = rt->ev;
		e->device = device;
		e->stream = stream;
		e->qr = e->qk = NO_QUEUE;
		e->is_device = e->has_node = true;
		idx = (int32_t)b->nr_ev++;
	}
	if (rt->launches) {
		add_q(b, device, stream, rt->start, 1, idx, node_handle(up));
		add_q(b, device, stream, round_start(b->o, n->start_ns), -1, idx, node_handle(n));
	}
}

static bool visit(struct node *n, void *ctx)
{
	struct build *b = ctx;

	/* A thread, or a group the load made of what no thread holds (the
	 * runtime calls it could not place): each is a lane of its own. */
	if (node_has_parent(n) && node_parent(n) == b->p->root) {
		b->thread = n;
		if (n->kind == NODE_THREAD || n->kind == NODE_GROUP)
			return true;
	}
	if (!node_is_timed(n))
		return true;
	if (is_host_range(n))
		visit_host(b, n);
	else if (node_kind_is_device(n->kind) && !(n->flags & NODE_DEVICE_RANGE))
		visit_device(b, n);
	return true;
}

/* ---- the graph ---------------------------------------------------- */

static int64_t node_time_of(const struct build *b, uint32_t id)
{
	const struct ev *e = &b->ev[id / 2];

	return id & 1 ? e->end : e->start;
}

static void add_edge(struct build *b, uint32_t from, uint32_t to, enum cpath_edge type, bool zero,
		     int32_t attr)
{
	int64_t w = zero || type == CPATH_EDGE_DEPENDENCY || type == CPATH_EDGE_SYNC
			    ? 0 : node_time_of(b, to) - node_time_of(b, from);

	if (w < 0)
		w = 0;
	b->nr_edges++;
	if (b->o->keep_graph) {
		GROW(b->edges, b->alloc_edges, b->nr_edges);
		b->edges[b->nr_edges - 1] = (struct cpath_edge_rec){ from, to, w };
	}
	GROW(b->g, b->alloc_g, b->nr_g + 1);
	b->g[b->nr_g++] = (struct gedge){ from, to, w, attr, (uint8_t)type };
}

/*
 * The longest distance to each node and the edge that gives it: the
 * nodes in a topological order (Kahn's, O(V + E)), each taking the best
 * of its edges in the order they were made (ties: the first made).
 * False when the edges close a cycle.
 */
static bool longest(struct build *b)
{
	size_t n = 2 * b->nr_ev, head = 0, tail = 0, done = 0;
	uint32_t *in_at = xcalloc(n + 1, sizeof(*in_at)), *out_at = xcalloc(n + 1, sizeof(*out_at));
	uint32_t *in = xmalloc((b->nr_g ? b->nr_g : 1) * sizeof(*in));
	uint32_t *out = xmalloc((b->nr_g ? b->nr_g : 1) * sizeof(*out));
	uint32_t *left = xmalloc((n ? n : 1) * sizeof(*left)), *queue = xmalloc((n ? n : 1) * sizeof(*queue));

	for (size_t i = 0; i < b->nr_g; i++) {
		in_at[b->g[i].to + 1]++;
		out_at[b->g[i].from + 1]++;
	}
	for (size_t v = 0; v < n; v++) {
		left[v] = in_at[v + 1];
		in_at[v + 1] += in_at[v];
		out_at[v + 1] += out_at[v];
	}
	/* Stable: each node's edges in the order made. */
	{
		uint32_t *fi = xmalloc((n ? n : 1) * sizeof(*fi)), *fo = xmalloc((n ? n : 1) * sizeof(*fo));

		memcpy(fi, in_at, n * sizeof(*fi));
		memcpy(fo, out_at, n * sizeof(*fo));
		for (size_t i = 0; i < b->nr_g; i++) {
			in[fi[b->g[i].to]++] = (uint32_t)i;
			out[fo[b->g[i].from]++] = (uint32_t)i;
		}
		free(fi);
		free(fo);
	}
	for (size_t v = 0; v < n; v++) {
		b->dist[v] = 0;
		b->pred[v].from = -1;
		if (!left[v])
			queue[tail++] = (uint32_t)v;
	}
	while (head < tail) {
		uint32_t v = queue[head++];

		done++;
		for (uint32_t k = in_at[v]; k < in_at[v + 1]; k++) {
			const struct gedge *e = &b->g[in[k]];
			int64_t d = b->dist[e->from];

			sum_add(&d, e->weight);
			if (b->pred[v].from < 0 || d > b->dist[v]) {
				b->dist[v] = d;
				b->pred[v] = (struct pred){ (int32_t)e->from, e->type, e->attr,
							    e->weight };
			}
		}
		for (uint32_t k = out_at[v]; k < out_at[v + 1]; k++)
			if (!--left[b->g[out[k]].to])
				queue[tail++] = b->g[out[k]].to;
	}
	free(in_at);
	free(out_at);
	free(in);
	free(out);
	free(left);
	free(queue);
	return done == n;
}

/* The event HTA attributes an op edge FROM -> TO to; SRC_PARENT: the
 * parent of the event of FROM, for an edge between two siblings. */
static int32_t attribute(uint32_t from, uint32_t to, int32_t src_parent)
{
	if (!(from & 1))
		return (int32_t)(from / 2);
	if (to & 1)
		return (int32_t)(to / 2);
	return src_parent;
}

/* The starts and ends of host events, HTA's order per thread: each
 * carries its keys, so that the sort needs nothing else. */
struct tok {
	int64_t time, dur;
	uint32_t thread, seq, ev;
	bool end;
};

static int cmp_tok(const void *a, const void *b)
{
	const struct tok *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->end != y->end)
		return x->end ? -1 : 1;	/* ends first */
	if (x->dur != y->dur) {
		if (!x->end)
			return x->dur > y->dur ? -1 : 1;	/* the longer start first */
		return x->dur < y->dur ? -1 : 1;		/* the shorter end first */
	}
	if (x->seq != y->seq) {
		if (!x->end)
			return x->seq < y->seq ? -1 : 1;
		return x->seq > y->seq ? -1 : 1;
	}
	return 0;
}

/* The host edges: each thread's call stack, depth first. */
static void host_edges(struct build *b)
{
	size_t nr_host = 0, nr_tok = 0, nr_roots = 0, sp = 0;
	struct tok *tok;
	int32_t *first_child, *next_sib, *last_child, *roots, *stack;
	const struct node *thread = NULL;

	for (size_t i = 0; i < b->nr_ev; i++)
		nr_host += !b->ev[i].is_device;
	if (!nr_host)
		return;
	tok = xmalloc(2 * nr_host * sizeof(*tok));
	for (size_t i = 0; i < b->nr_ev; i++) {
		const struct ev *e = &b->ev[i];
		uint32_t th = e->thread ? node_handle(e->thread) : 0;

		if (e->is_device)
			continue;
		tok[nr_tok++] = (struct tok){ e->start, e->end - e->start, th, e->seq, (uint32_t)i,
					      false };
		tok[nr_tok++] = (struct tok){ e->end, e->end - e->start, th, e->seq, (uint32_t)i,
					      true };
	}
	qsort(tok, nr_tok, sizeof(*tok), cmp_tok);
	first_child = xmalloc(b->nr_ev * sizeof(*first_child));
	next_sib = xmalloc(b->nr_ev * sizeof(*next_sib));
	last_child = xmalloc(b->nr_ev * sizeof(*last_child));
	roots = xmalloc(nr_host * sizeof(*roots));
	stack = xmalloc(nr_host * sizeof(*stack));
	for (size_t i = 0; i < b->nr_ev; i++)
		first_child[i] = next_sib[i] = last_child[i] = -1;
	/* The stack: a start is a child of the innermost open event; an end
	 * closes the innermost open event, whichever it is (HTA's). */
	for (size_t i = 0; i < nr_tok; i++) {
		int32_t e = (int32_t)tok[i].ev;

		if (b->ev[e].thread != thread) {
			thread = b->ev[e].thread;
			sp = 0;
		}
		if (tok[i].end) {
			if (sp)
				sp--;
			continue;
		}
		if (sp) {
			int32_t up = stack[sp - 1];

			b->ev[e].parent = up;
			if (last_child[up] >= 0)
				next_sib[last_child[up]] = e;
			else
				first_child[up] = e;
			last_child[up] = e;
		} else {
			roots[nr_roots++] = e;
		}
		stack[sp++] = e;
	}
	free(tok);	/* the stack is made: what follows needs the tree only */
	/* Depth first over each thread's roots, in order. */
	thread = NULL;
	{
		int32_t last_node = -1, last_top = -1, last_parent = -1;
		int depth = 0;

		for (size_t r = 0; r < nr_roots; r++) {
			int32_t e = roots[r];

			if (b->ev[e].thread != thread || r == 0) {
				thread = b->ev[e].thread;
				last_node = last_top = last_parent = -1;
				depth = 0;
			}
			/* stack[] holds the path from the root; the walk enters
			 * E, then its first child, ..., exits, takes the next
			 * sibling. */
			sp = 0;
			stack[sp++] = e;
			while (sp) {
				int32_t x = stack[sp - 1];
				bool entering = x >= 0;

				if (entering) {
					const struct ev *ev = &b->ev[x];

					stack[sp - 1] = -x - 1;	/* entered */
					if (ev->has_node) {
						uint32_t s = 2 * (uint32_t)x;

						if (depth == 0 && last_top >= 0)
							add_edge(b, (uint32_t)last_top, s,
								 CPATH_EDGE_DEPENDENCY, true, x);
						depth++;
						if (last_node >= 0)
							add_edge(b, (uint32_t)last_node, s, CPATH_EDGE_OP,
								 false,
								 attribute((uint32_t)last_node, s,
									   last_parent));
						last_node = (int32_t)s;
						last_parent = ev->parent;
					}
					if (first_child[x] >= 0)
						stack[sp++] = first_child[x];
					continue;
				}
				x = -x - 1;
				sp--;
				if (b->ev[x].has_node) {
					uint32_t en = 2 * (uint32_t)x + 1;

					depth--;
					if (last_node >= 0)
						add_edge(b, (uint32_t)last_node, en, CPATH_EDGE_OP,
							 b->ev[x].blocking,
							 attribute((uint32_t)last_node, en, last_parent));
					if (depth == 0) {
						last_node = -1;
						last_top = (int32_t)en;
					} else {
						last_node = (int32_t)en;
						last_parent = b->ev[x].parent;
					}
				}
				if (sp && next_sib[x] >= 0)
					stack[sp++] = next_sib[x];
			}
		}
	}
	free(first_child);
	free(next_sib);
	free(last_child);
	free(roots);
	free(stack);
}

static int cmp_q(const void *a, const void *b)
{
	const struct qev *x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->delta != y->delta)
		return x->delta < y->delta ? -1 : 1;	/* starts first */
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Each stream's queue length at each launch and start: launches less
 * starts so far, over the whole trace. */
static void queue_lengths(struct build *b)
{
	int64_t q = 0, last = INT64_MIN;
	size_t n = 0;

	/* What comes after the window's last start changes nothing in it. */
	for (size_t i = 0; i < b->nr_q; i++)
		if (b->q[i].ev >= 0 && b->q[i].ts > last)
			last = b->q[i].ts;
	for (size_t i = 0; i < b->nr_q; i++)
		if (b->q[i].ts <= last)
			b->q[n++] = b->q[i];
	b->nr_q = n;
	if (!n)
		return;	/* (and no NULL to qsort(), for UBSan) */
	qsort(b->q, b->nr_q, sizeof(*b->q), cmp_q);
	for (size_t i = 0; i < b->nr_q; i++) {
		const struct qev *x = &b->q[i];

		if (i == 0 || x->device != b->q[i - 1].device || x->stream != b->q[i - 1].stream) {
			q = 0;
			for (size_t k = 0; k < b->nr_qbase; k++)
				if (b->qbase[k].device == x->device && b->qbase[k].stream == x->stream)
					q = b->qbase[k].count;
		}
		q += x->delta;
		if (x->ev < 0)
			continue;
		if (x->delta > 0)
			b->ev[x->ev].qr = (int32_t)(q > INT32_MAX ? INT32_MAX : q);
		else
			b->ev[x->ev].qk = (int32_t)(q < INT32_MIN + 1 ? INT32_MIN + 1 : q);
	}
}

/* Device work, by stream and start, with its keys. */
struct dev_key {
	int32_t device, stream;
	int64_t start;
	uint32_t seq, ev;
};

/* By device, stream, START (a kernel's own start, or its launching
 * call's), then SEQ: the one order both key arrays are sorted in. */
static int cmp_dev(const void *a, const void *b)
{
	const struct dev_key *x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The device edges: each stream's work by start. */
static void device_edges(struct build *b)
{
	size_t nr = 0;
	struct dev_key *key;
	int32_t last = -1;

	for (size_t i = 0; i < b->nr_ev; i++)
		nr += b->ev[i].is_device;
	if (!nr)
		return;
	key = xmalloc(nr * sizeof(*key));
	nr = 0;
	for (size_t i = 0; i < b->nr_ev; i++) {
		const struct ev *e = &b->ev[i];

		if (e->is_device)
			key[nr++] = (struct dev_key){ e->device, e->stream, e->start, e->seq,
						      (uint32_t)i };
	}
	qsort(key, nr, sizeof(*key), cmp_dev);
	for (size_t i = 0; i < nr; i++) {
		uint32_t k = key[i].ev;
		const struct ev *e = &b->ev[k], *rt = &b->ev[e->rt];

		if (i && (key[i].device != key[i - 1].device || key[i].stream != key[i - 1].stream))
			last = -1;
		if (e->qr == 1 && e->qk == 0 && (last < 0 || b->ev[last].end < rt->start))
			add_edge(b, 2 * (uint32_t)e->rt, 2 * k, CPATH_EDGE_LAUNCH, false, (int32_t)k);
		else if (last >= 0 && e->start - b->ev[last].end < b->o->kk_max_gap_ns)
			add_edge(b, 2 * (uint32_t)last + 1, 2 * k, CPATH_EDGE_KERNEL_KERNEL, false,
				 last);
		add_edge(b, 2 * k, 2 * k + 1, CPATH_EDGE_OP, false, (int32_t)k);
		last = (int32_t)k;
	}
	b->dkey = key;
	b->nr_dkey = nr;
}

/* The first of the N KEYS at or after (DEVICE, STREAM, START). */
static size_t key_lower(const struct dev_key *key, size_t n, int32_t device, int32_t stream,
			int64_t start)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct dev_key *k = &key[mid];

		if (k->device < device || (k->device == device && k->stream < stream) ||
		    (k->device == device && k->stream == stream && k->start < start))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The device work on (DEVICE, STREAM) launched last by a call that
 * started before T; -1: none. */
static int32_t launched_before(const struct build *b, int32_t device, int32_t stream, int64_t t)
{
	size_t i = key_lower(b->lkey, b->nr_dkey, device, stream, t);

	if (i == 0 || b->lkey[i - 1].device != device || b->lkey[i - 1].stream != stream)
		return -1;
	return (int32_t)b->lkey[i - 1].ev;
}

struct rt_key {
	uint32_t seq, ev;
};

static int cmp_rt_key(const void *a, const void *b)
{
	const struct rt_key *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The sync edges, from Kineto's cuda_sync events (the profile's side
 * table), each of weight 0, for a sync whose runtime call has nodes:
 * a stream (or event) sync: from the end of the work on its stream that
 * the last call before the sync call launched, to the sync call's end;
 * a context sync: the same from each stream of its device.  A
 * wait-event makes none: the work its event recorded is known only from
 * the cudaEventRecord call, which the side table does not link.
 */
static void sync_edges(struct build *b)
{
	const struct profile *p = b->p;
	struct rt_key *rk;
	size_t nr_rk = 0;

	if (!p->nr_cuda_syncs || !b->nr_dkey)
		return;
	b->lkey = xmalloc(b->nr_dkey * sizeof(*b->lkey));
	for (size_t i = 0; i < b->nr_dkey; i++) {
		b->lkey[i] = b->dkey[i];
		b->lkey[i].start = b->ev[b->ev[b->dkey[i].ev].rt].start;
	}
	qsort(b->lkey, b->nr_dkey, sizeof(*b->lkey), cmp_dev);
	rk = xmalloc(b->nr_ev * sizeof(*rk));
	for (size_t i = 0; i < b->nr_ev; i++)
		if (!b->ev[i].is_device && b->ev[i].has_node && b->ev[i].n->kind == NODE_RUNTIME)
			rk[nr_rk++] = (struct rt_key){ b->ev[i].seq, (uint32_t)i };
	if (nr_rk)
		qsort(rk, nr_rk, sizeof(*rk), cmp_rt_key);
	for (size_t i = 0; i < p->nr_cuda_syncs; i++) {
		const struct cuda_sync *s = &p->cuda_syncs[i];
		struct rt_key key = { s->runtime, 0 }, *r;
		const struct ev *call;
		int32_t w;

		if (!s->runtime || !nr_rk ||
		    !(r = bsearch(&key, rk, nr_rk, sizeof(*rk), cmp_rt_key)))
			continue;
		call = &b->ev[r->ev];
		switch ((enum cuda_sync_kind)s->kind) {
		case CUDA_SYNC_STREAM:
		case CUDA_SYNC_EVENT:
			if (s->stream < 0 || (w = launched_before(b, s->device, s->stream,
								  call->start)) < 0)
				break;
			add_edge(b, 2 * (uint32_t)w + 1, 2 * r->ev + 1, CPATH_EDGE_SYNC, true, -1);
			break;
		case CUDA_SYNC_CONTEXT:
			for (size_t k = 0; k < b->nr_dkey; k++) {
				const struct dev_key *d = &b->lkey[k];

				if (d->device != s->device ||
				    (k + 1 < b->nr_dkey && b->lkey[k + 1].device == d->device &&
				     b->lkey[k + 1].stream == d->stream))
					continue;	/* not the last of its stream */
				if ((w = launched_before(b, d->device, d->stream, call->start)) >= 0)
					add_edge(b, 2 * (uint32_t)w + 1, 2 * r->ev + 1,
						 CPATH_EDGE_SYNC, true, -1);
			}
			break;
		case CUDA_SYNC_WAIT_EVENT:
			/* Not made: which work the waited event recorded is the
			 * cudaEventRecord call's, which the model does not
			 * link (README: not done). */
		case CUDA_SYNC_OTHER:
			break;
		}
	}
	free(rk);
}

static enum cpath_bound bound_of(const struct build *b, enum cpath_edge type, int32_t attr)
{
	const struct ev *e;

	switch (type) {
	case CPATH_EDGE_DEPENDENCY:
	case CPATH_EDGE_SYNC:
		return CPATH_NONE;
	case CPATH_EDGE_LAUNCH:
		return CPATH_LAUNCH;
	case CPATH_EDGE_KERNEL_KERNEL:
		return CPATH_KERNEL_KERNEL;
	case CPATH_EDGE_OP:
		break;
	}
	if (attr < 0)
		return CPATH_CPU;
	e = &b->ev[attr];
	if (!e->is_device)
		return CPATH_CPU;
	return kernel_type_of(node_name(e->n)) == KTYPE_COMMUNICATION ? CPATH_GPU_COMMUNICATION
								  : CPATH_GPU_COMPUTE;
}

static void trace_back(struct build *b, struct critical_path *c)
{
	size_t nr_nodes = 2 * b->nr_ev, n = 0;
	int64_t best = -1;
	int32_t end = -1;

	for (size_t i = 0; i < nr_nodes; i++) {
		if (!b->ev[i / 2].has_node)
			continue;
		if (b->dist[i] > best) {
			best = b->dist[i];
			end = (int32_t)i;
		}
	}
	if (end < 0)
		return;
	c->total_ns = best;
	for (int32_t v = end; b->pred[v].from >= 0; v = b->pred[v].from)
		n++;
	if (!n)
		return;
	c->links = xcalloc(n, sizeof(*c->links));
	c->nr_links = n;
	for (int32_t v = end; b->pred[v].from >= 0; v = b->pred[v].from) {
		const struct pred *pr = &b->pred[v];
		struct cpath_link *l = &c->links[--n];
		int32_t shown = pr->attr;

		l->start_ns = node_time_of(b, (uint32_t)pr->from);
		l->dur_ns = pr->weight;
		l->type = pr->type;
		l->bound = bound_of(b, pr->type, pr->attr);
		if (shown >= 0) {
			const struct ev *e = &b->ev[shown];

			l->event = e->n;
			l->on_device = e->is_device;
			l->device = e->device;
			l->stream = e->stream;
			l->thread = e->thread;
		}
		if (!sum_add(&c->bound_ns[l->bound], l->dur_ns))
			c->nr_capped++;
	}
}

void cpath_compute(const struct profile *p, const struct cpath_options *o, struct critical_path *c)
{
	struct cpath_options def;
	struct build b = { .p = p };
	size_t nr_base;

	if (!o) {
		cpath_options_default(&def);
		o = &def;
	}
	b.o = o;
	b.q_from = o->lo_ns == INT64_MIN ? INT64_MIN : round_start(o, o->lo_ns);
	memset(c, 0, sizeof(*c));
	node_walk(p->root, visit, &b);
	if (b.nr_ev) {
		b.dist = xcalloc(2 * b.nr_ev, sizeof(*b.dist));
		b.pred = xmalloc(2 * b.nr_ev * sizeof(*b.pred));
		for (size_t i = 0; i < 2 * b.nr_ev; i++)
			b.pred[i].from = -1;
		for (size_t i = 0; i < b.nr_ev; i++)
			c->nr_events += b.ev[i].has_node;
		queue_lengths(&b);
		free(b.q);
		b.q = NULL;
		host_edges(&b);
		device_edges(&b);
		nr_base = b.nr_g;
		sync_edges(&b);
		c->nr_sync_edges = b.nr_g - nr_base;
		if (!longest(&b)) {
			/* The sync edges closed a cycle (a trace whose times
			 * disagree): the path is the graph's without them. */
			b.nr_edges -= b.nr_g - nr_base;
			b.nr_g = nr_base;
			c->nr_sync_edges = 0;
			c->sync_dropped = true;
			longest(&b);
		}
		trace_back(&b, c);
	}
	if (sum_capped(c->total_ns))
		c->nr_capped++;
	c->nr_nodes = 2 * c->nr_events;
	c->nr_edges = b.nr_edges;
	c->edges = b.edges;
	free(b.ev);
	free(b.q);
	free(b.dist);
	free(b.pred);
	free(b.g);
	free(b.dkey);
	free(b.lkey);
}

void cpath_release(struct critical_path *c)
{
	free(c->links);
	free(c->edges);
	memset(c, 0, sizeof(*c));
}
