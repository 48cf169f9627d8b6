/* SPDX-License-Identifier: MIT */
/*
 * The critical path (model/critical_path.c) on small profiles made by
 * hand: a CPU-bound step, a GPU-bound kernel chain, a launch delay, a
 * blocking synchronisation, two threads, an empty window, overlapping
 * and touching kernels, the kernel-kernel gap limit, the attribution of
 * nested ops, HTA's rounding and one-work-per-launch as options, a capped
 * sum, a long trace in O(n log n), and the sync edges of Kineto's
 * cuda_sync events (a stream sync, a context sync, none).
 */
#include <math.h>
#include <stdlib.h>

#include "model/critical_path.h"
#include "test.h"

#define US 1000

static struct node *host(struct profile *p, struct node *parent, enum node_kind kind,
			 const char *name, int64_t start_ns, int64_t dur_ns)
{
	struct node *n = node_new(p, parent, kind, name, strlen(name));

	n->start_ns = start_ns;
	node_set_calls(p, n, 1);
	node_set_host_total(p, n, dur_ns);
	node_set_host_self(p, n, dur_ns);
	return n;
}

static struct node *kernel(struct profile *p, struct node *parent, const char *name,
			   int32_t stream, int64_t start_ns, int64_t dur_ns)
{
	struct node *n = node_new(p, parent ? parent : p->root, NODE_KERNEL, name, strlen(name));
	struct launch l;

	n->start_ns = start_ns;
	node_set_calls(p, n, 1);
	node_set_device_total(p, n, dur_ns);
	node_set_device_self(p, n, dur_ns);
	launch_init(&l);
	l.device = 0;
	l.stream = stream;
	attr_set_launch(p, node_attr_list(n), profile_launch(p, &l));
	return n;
}

/* cudaLaunchKernel at AT us for 2 us under PARENT, launching a kernel on
 * STREAM that runs [START, END) us. */
static struct node *launch(struct profile *p, struct node *parent, int64_t at, int32_t stream,
			   int64_t start, int64_t end)
{
	struct node *rt = host(p, parent, NODE_RUNTIME, "cudaLaunchKernel", at * US, 2 * US);

	return kernel(p, rt, "k", stream, start * US, (end - start) * US);
}

static struct node *thread(struct profile *p, const char *name)
{
	return node_new(p, p->root, NODE_THREAD, name, strlen(name));
}

static void run(struct profile *p, const struct cpath_options *o, struct critical_path *c)
{
	struct cpath_options def;

	if (!o) {
		cpath_options_default(&def);
		def.keep_graph = true;
		o = &def;
	}
	profile_finish(p);
	cpath_compute(p, o, c);
}

/*
 * Thread 1: op A [0, 100) launches at 10 (for 2 us... here 10 us) a
 * kernel [25, 30); op B [120, 200).  The host chain, A then B through a
 * dependency, is 180 us; the device's, 10 + 15 + 5 = 30.
 */
static void t_cpu_bound(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th, *a, *rt;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	a = host(&p, th, NODE_OP, "A", 0, 100 * US);
	rt = host(&p, a, NODE_RUNTIME, "cudaLaunchKernel", 10 * US, 10 * US);
	kernel(&p, rt, "k", 7, 25 * US, 5 * US);
	host(&p, th, NODE_OP, "B", 120 * US, 80 * US);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 180 * US);
	CHECK_EQ(c.bound_ns[CPATH_CPU], 180 * US);
	CHECK(fabs(cpath_share(&c, c.bound_ns[CPATH_CPU]) - 100.0) < 1e-9);
	CHECK_EQ(c.nr_links, 5);
	/* A to the call, the call, the call to A's end, A to B, B. */
	CHECK_EQ(c.links[0].dur_ns, 10 * US);
	CHECK(c.links[0].event == a);
	CHECK(c.links[1].event == rt);
	CHECK_EQ(c.links[2].dur_ns, 80 * US);
	CHECK(c.links[2].event == a);
	CHECK_EQ(c.links[3].type, CPATH_EDGE_DEPENDENCY);
	CHECK_EQ(c.links[3].bound, CPATH_NONE);
	CHECK_EQ(c.links[3].dur_ns, 0);
	CHECK(!strcmp(node_name(c.links[4].event), "B"));
	CHECK(c.links[4].thread == th);
	CHECK_EQ(c.nr_events, 4);
	CHECK_EQ(c.nr_nodes, 8);
	cpath_release(&c);
	profile_release(&p);
}

/*
 * Op A [0, 30) launches at 1, 5 and 9 three kernels on stream 7:
 * [10, 110), [115, 215), [220, 320).  The first starts while two more
 * are queued: no launch edge; the others follow by kernel-kernel edges
 * of 5 us.  Path: 100 + 5 + 100 + 5 + 100.
 */
static void t_gpu_bound(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th, *a;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	a = host(&p, th, NODE_OP, "A", 0, 30 * US);
	launch(&p, a, 1, 7, 10, 110);
	launch(&p, a, 5, 7, 115, 215);
	launch(&p, a, 9, 7, 220, 320);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 310 * US);
	CHECK_EQ(c.bound_ns[CPATH_GPU_COMPUTE], 300 * US);
	CHECK_EQ(c.bound_ns[CPATH_KERNEL_KERNEL], 10 * US);
	CHECK_EQ(c.bound_ns[CPATH_CPU], 0);
	CHECK_EQ(c.nr_links, 5);
	CHECK_EQ(c.links[1].type, CPATH_EDGE_KERNEL_KERNEL);
	CHECK(c.links[1].on_device);
	CHECK_EQ(c.links[1].stream, 7);
	CHECK(fabs(cpath_share(&c, c.bound_ns[CPATH_KERNEL_KERNEL]) - 1000.0 / 310) < 1e-9);
	cpath_release(&c);
	profile_release(&p);
}

/* A lone launch at 1 of a kernel [50, 150): the queue was empty, the
 * launch delay (49 us from the call's start) is on the path. */
static void t_launch_delay(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th, *a;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	a = host(&p, th, NODE_OP, "A", 0, 10 * US);
	launch(&p, a, 1, 7, 50, 150);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 150 * US);
	CHECK_EQ(c.bound_ns[CPATH_CPU], 1 * US);
	CHECK_EQ(c.bound_ns[CPATH_LAUNCH], 49 * US);
	CHECK_EQ(c.bound_ns[CPATH_GPU_COMPUTE], 100 * US);
	CHECK_EQ(c.nr_links, 3);
	CHECK_EQ(c.links[1].type, CPATH_EDGE_LAUNCH);
	CHECK_EQ(c.links[1].start_ns, 1 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* A launch [0, 2) of a kernel [3, 103), then cudaStreamSynchronize
 * [2, 104): the wait counts 0, so the path is the device's (103 us), not
 * the host's 104. */
static void t_sync_wait(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	launch(&p, th, 0, 7, 3, 103);
	host(&p, th, NODE_RUNTIME, "cudaStreamSynchronize", 2 * US, 102 * US);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 103 * US);
	CHECK_EQ(c.bound_ns[CPATH_LAUNCH], 3 * US);
	CHECK_EQ(c.bound_ns[CPATH_GPU_COMPUTE], 100 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* Two threads: [0, 50) on one, [10, 100) on the other; no edge between
 * them, the path is the longer thread's. */
static void t_two_threads(void)
{
	struct profile p;
	struct critical_path c;
	struct node *t1, *t2;

	profile_init(&p, "mem");
	t1 = thread(&p, "thread 1");
	t2 = thread(&p, "thread 2");
	host(&p, t1, NODE_OP, "short", 0, 50 * US);
	host(&p, t2, NODE_OP, "long", 10 * US, 90 * US);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 90 * US);
	CHECK_EQ(c.nr_links, 1);
	CHECK(c.links[0].thread == t2);
	CHECK(!c.links[0].on_device);
	cpath_release(&c);
	profile_release(&p);
}

/* A window with nothing in it, and a profile with nothing: no path. */
static void t_empty(void)
{
	struct profile p;
	struct critical_path c;
	struct cpath_options o;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	host(&p, th, NODE_OP, "A", 0, 50 * US);
	cpath_options_default(&o);
	o.lo_ns = 100 * US;
	o.hi_ns = 200 * US;
	run(&p, &o, &c);
	CHECK_EQ(c.total_ns, 0);
	CHECK_EQ(c.nr_links, 0);
	CHECK(isnan(cpath_share(&c, 0)));
	cpath_release(&c);
	profile_release(&p);

	profile_init(&p, "mem");
	run(&p, NULL, &c);
	CHECK_EQ(c.nr_links, 0);
	CHECK_EQ(c.nr_nodes, 0);
	cpath_release(&c);
	profile_release(&p);
}

/* A range of time narrows the window to what starts in [a, b): an op
 * that starts at b is out; with a step's window, the part in both. */
static void t_range_window(void)
{
	struct profile p;
	struct critical_path c;
	struct cpath_options o;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	host(&p, th, NODE_OP, "A", 0, 50 * US);
	host(&p, th, NODE_OP, "B", 100 * US, 30 * US);
	host(&p, th, NODE_OP, "C", 200 * US, 10 * US);
	cpath_options_default(&o);
	cpath_options_narrow(&o, 60 * US, 200 * US);	/* B only */
	CHECK_EQ(o.lo_ns, 60 * US);
	CHECK_EQ(o.hi_ns, 200 * US - 1);
	run(&p, &o, &c);
	CHECK_EQ(c.total_ns, 30 * US);
	cpath_release(&c);
	cpath_options_default(&o);
	o.lo_ns = 0;					/* a step [0, 150] us */
	o.hi_ns = 150 * US;
	cpath_options_narrow(&o, 90 * US, 300 * US);	/* with it: B */
	CHECK_EQ(o.lo_ns, 90 * US);
	CHECK_EQ(o.hi_ns, 150 * US);
	run(&p, &o, &c);
	CHECK_EQ(c.total_ns, 30 * US);
	cpath_release(&c);
	cpath_options_narrow(&o, 160 * US, 300 * US);	/* apart: nothing */
	run(&p, &o, &c);
	CHECK_EQ(c.nr_links, 0);
	cpath_release(&c);
	profile_release(&p);
}

/* Kernels launched together: [0, 100) and [50, 120) overlap (a gap of
 * -50 counts 0), [120, 130) touches: 100 + 0 + 70 + 0 + 10. */
static void t_overlap_touch(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	launch(&p, th, 0, 7, 10, 110);
	launch(&p, th, 1, 7, 60, 130);
	launch(&p, th, 2, 7, 130, 140);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 180 * US);
	CHECK_EQ(c.bound_ns[CPATH_GPU_COMPUTE], 180 * US);
	CHECK_EQ(c.bound_ns[CPATH_KERNEL_KERNEL], 0);
	cpath_release(&c);
	profile_release(&p);
}

/* A gap of 1500 us or more is no kernel-kernel edge (HTA's limit). */
static void t_kk_limit(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	launch(&p, th, 0, 7, 10, 110);
	launch(&p, th, 1, 7, 1610, 1710);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 100 * US);
	CHECK_EQ(c.bound_ns[CPATH_KERNEL_KERNEL], 0);
	cpath_release(&c);
	profile_release(&p);

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	launch(&p, th, 0, 7, 10, 110);
	launch(&p, th, 1, 7, 1609, 1709);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 1699 * US);
	CHECK_EQ(c.bound_ns[CPATH_KERNEL_KERNEL], 1499 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* A [0, 100) holds B [10, 20) and C [30, 40): the time between B and C
 * is A's, the time after C too. */
static void t_nested(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th, *a, *b, *cc;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	a = host(&p, th, NODE_OP, "A", 0, 100 * US);
	b = host(&p, a, NODE_OP, "B", 10 * US, 10 * US);
	cc = host(&p, a, NODE_OP, "C", 30 * US, 10 * US);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 100 * US);
	CHECK_EQ(c.nr_links, 5);
	CHECK(c.links[0].event == a);
	CHECK(c.links[1].event == b);
	CHECK(c.links[2].event == a);
	CHECK(c.links[3].event == cc);
	CHECK(c.links[4].event == a);
	CHECK_EQ(c.links[4].dur_ns, 60 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* HTA's conditions: fractional times rounded (start up, end down), and
 * only the last kernel of a launch. */
static void t_hta_options(void)
{
	struct profile p;
	struct critical_path c;
	struct cpath_options o;
	struct node *th, *rt;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	host(&p, th, NODE_OP, "A", 500, 10200);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 10200);
	cpath_release(&c);
	cpath_options_default(&o);
	o.round_like_hta = true;
	cpath_compute(&p, &o, &c);
	CHECK_EQ(c.total_ns, 9 * US);	/* [1, 10] us */
	cpath_release(&c);
	profile_release(&p);

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	rt = host(&p, th, NODE_RUNTIME, "cudaGraphLaunch", 0, 2 * US);
	kernel(&p, rt, "k1", 7, 10 * US, 500 * US);
	kernel(&p, rt, "k2", 8, 10 * US, 50 * US);
	run(&p, NULL, &c);
	CHECK_EQ(c.nr_events, 3);
	CHECK_EQ(c.total_ns, 500 * US);
	cpath_release(&c);
	cpath_options_default(&o);
	o.last_work_only = true;
	cpath_compute(&p, &o, &c);
	CHECK_EQ(c.nr_events, 2);
	CHECK_EQ(c.total_ns, 50 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* cudaLaunchKernel [0, 10) holds the driver call it made, cuLaunchKernel
 * [1, 3), before the kernel [20, 70) it launched: the kernel is still
 * the outer call's, with its launch delay. */
static void t_call_in_call(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th, *rt;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 0, 10 * US);
	host(&p, rt, NODE_RUNTIME, "cuLaunchKernel", 1 * US, 2 * US);
	kernel(&p, rt, "k", 7, 20 * US, 50 * US);
	run(&p, NULL, &c);
	CHECK_EQ(c.nr_events, 3);
	CHECK_EQ(c.total_ns, 70 * US);
	CHECK_EQ(c.bound_ns[CPATH_LAUNCH], 20 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* Communication kernels are gpu_communication_bound. */
static void t_communication(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th, *rt;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 0, 2 * US);
	kernel(&p, rt, "ncclKernel_AllReduce", 7, 2 * US, 100 * US);
	run(&p, NULL, &c);
	CHECK_EQ(c.bound_ns[CPATH_GPU_COMMUNICATION], 100 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* A window [50, 300] us: kernel A, launched at 10 (before it), runs
 * [100, 200); B, launched at 60, runs [210, 300).  At B's launch A was
 * still queued, so B's start has no launch edge (and A, outside the
 * window, no kernel-kernel edge to it): the path is B alone. */
static void t_queue_before_window(void)
{
	struct profile p;
	struct critical_path c;
	struct cpath_options o;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	launch(&p, th, 10, 7, 100, 200);
	launch(&p, th, 60, 7, 210, 300);
	cpath_options_default(&o);
	o.lo_ns = 50 * US;
	o.hi_ns = 300 * US;
	run(&p, &o, &c);
	CHECK_EQ(c.nr_events, 2);
	CHECK_EQ(c.total_ns, 90 * US);
	CHECK_EQ(c.bound_ns[CPATH_LAUNCH], 0);
	cpath_release(&c);
	profile_release(&p);
}

/* The longest step is the default window. */
static void t_default_step(void)
{
	struct profile p;
	struct step *s;

	profile_init(&p, "mem");
	CHECK(cpath_default_step(&p) == NULL);
	s = profile_add_step(&p, "1", 1);
	s->start_ns = 0;
	s->end_ns = 10;
	s = profile_add_step(&p, "2", 1);
	s->start_ns = 10;
	s->end_ns = 30;
	s = profile_add_step(&p, "3", 1);
	s->start_ns = 30;
	s->end_ns = 50;
	CHECK(!strcmp(cpath_default_step(&p)->name, "2"));
	profile_release(&p);
}

/* Ops whose sum passes SUM_CAP: capped, no share. */
static void t_capped(void)
{
	struct profile p;
	struct critical_path c;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	host(&p, th, NODE_OP, "A", 0, SUM_CAP / 4 * 3);
	host(&p, th, NODE_OP, "B", SUM_CAP / 4 * 3, SUM_CAP / 4 * 3);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, SUM_CAP);
	CHECK(c.nr_capped >= 1);
	CHECK(isnan(cpath_share(&c, c.bound_ns[CPATH_CPU])));
	cpath_release(&c);
	profile_release(&p);
}

/* 200,000 launches under 1,000 ops, made in time order: two sorts. */
static void t_many(void)
{
	struct profile p;
	struct critical_path c;
	struct cpath_options o;
	struct node *th, *op = NULL;
	const size_t n = 200000;
	double t0;

	profile_init(&p, "mem");
	th = thread(&p, "thread 1");
	for (size_t i = 0; i < n; i++) {
		if (i % 200 == 0)
			op = host(&p, th, NODE_OP, "op", (int64_t)i * 10 * US, 2000 * US);
		launch(&p, op, (int64_t)i * 10 + 1, (int32_t)(i % 2), (int64_t)i * 10 + 5,
		       (int64_t)i * 10 + 8);
	}
	profile_finish(&p);
	cpath_options_default(&o);
	t0 = test_cpu_s();
	cpath_compute(&p, &o, &c);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(c.nr_events, n / 200 + 2 * n);
	/* The host chain, every op back to back: 1000 * 2000 us. */
	CHECK_EQ(c.total_ns, (int64_t)(n / 200) * 2000 * US);
	cpath_release(&c);
	profile_release(&p);
}

/* The longest path of C's graph by relaxing every edge until nothing
 * changes (from 0 everywhere). */
static int64_t brute_longest(const struct critical_path *c)
{
	int64_t *d = calloc(c->nr_nodes + 1, sizeof(*d)), best = 0;
	bool changed = true;

	for (size_t pass = 0; changed && pass <= c->nr_nodes; pass++) {
		changed = false;
		for (size_t k = 0; k < c->nr_edges; k++) {
			const struct cpath_edge_rec *e = &c->edges[k];

			if (d[e->from] + e->weight_ns > d[e->to]) {
				d[e->to] = d[e->from] + e->weight_ns;
				changed = true;
			}
		}
	}
	CHECK(!changed);
	for (size_t k = 0; k <= c->nr_nodes; k++)
		if (d[k] > best)
			best = d[k];
	free(d);
	return best;
}

static void add_sync(struct profile *p, enum cuda_sync_kind kind, int32_t stream,
		     const struct node *call)
{
	struct cuda_sync s = {
		.start_ns = call->start_ns + US, .dur_ns = US, .wait_corr = -1,
		.runtime = node_handle(call), .device = 0, .stream = stream, .wait_stream = -1,
		.kind = (uint8_t)kind,
	};

	profile_add_cuda_sync(p, &s);
}

/*
 * Op A [0, 400) holds a launch at 10 of a kernel [20, 300) on stream 7,
 * cudaStreamSynchronize [20, 310), and a launch at 320 of a kernel
 * [330, 340).  Without the sync event: the device's 10 + 10 + 280 = 300.
 * With it (Stream Sync on stream 7): the kernel's end leads to the sync's
 * end, 0, then A's end, 90: 390; from the kernel launched before the
 * sync only (the later one's would be 340 + 90, and a cycle).
 */
static void build_stream_sync(struct profile *p, bool with_sync)
{
	struct node *th, *a, *sync;

	profile_init(p, "mem");
	th = thread(p, "thread 1");
	a = host(p, th, NODE_OP, "A", 0, 400 * US);
	launch(p, a, 10, 7, 20, 300);
	sync = host(p, a, NODE_RUNTIME, "cudaStreamSynchronize", 20 * US, 290 * US);
	launch(p, a, 320, 7, 330, 340);
	if (with_sync)
		add_sync(p, CUDA_SYNC_STREAM, 7, sync);
}

static void t_sync_edge_stream(void)
{
	struct profile p;
	struct critical_path c;
	size_t nr_sync = 0;

	build_stream_sync(&p, false);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 300 * US);
	CHECK_EQ(c.nr_sync_edges, 0);
	cpath_release(&c);
	profile_release(&p);

	build_stream_sync(&p, true);
	run(&p, NULL, &c);
	CHECK_EQ(c.total_ns, 390 * US);
	CHECK_EQ(c.total_ns, brute_longest(&c));
	CHECK_EQ(c.nr_sync_edges, 1);
	CHECK(!c.sync_dropped);
	CHECK_EQ(c.bound_ns[CPATH_GPU_COMPUTE], 280 * US);
	CHECK_EQ(c.bound_ns[CPATH_LAUNCH], 10 * US);
	CHECK_EQ(c.bound_ns[CPATH_CPU], 100 * US);
	CHECK_EQ(c.bound_ns[CPATH_NONE], 0);
	for (size_t i = 0; i < c.nr_links; i++)
		if (c.links[i].type == CPATH_EDGE_SYNC) {
			nr_sync++;
			CHECK_EQ(c.links[i].start_ns, 300 * US);
			CHECK_EQ(c.links[i].dur_ns, 0);
			CHECK_EQ(c.links[i].bound, CPATH_NONE);
		}
	CHECK_EQ(nr_sync, 1);
	cpath_release(&c);
	profile_release(&p);
}

/*
 * A context sync waits for every stream of its device: op A [0, 400)
 * launches at 10 a kernel [20, 100) on stream 7 and at 30 one [40, 350)
 * on stream 8, then cudaDeviceSynchronize [50, 360).  Its edges come
 * from both kernels' ends; the path goes through stream 8's:
 * 30 + 10 + 310 + 0 + 40 = 390.  A stream sync on stream 7 alone gives
 * the sync's end 10 + 10 + 80 = 100, and A's end 140: the path is then
 * stream 8's, 30 + 10 + 310 = 350.
 */
static void build_context_sync(struct profile *p, enum cuda_sync_kind kind)
{
	struct node *th, *a, *sync;

	profile_init(p, "mem");
	th = thread(p, "thread 1");
	a = host(p, th, NODE_OP, "A", 0, 400 * US);
	launch(p, a, 10, 7, 20, 100);
	launch(p, a, 30, 8, 40, 350);
	sync = host(p, a, NODE_RUNTIME, "cudaDeviceSynchronize", 50 * US, 310 * US);
	add_sync(p, kind, kind == CUDA_SYNC_CONTEXT ? -1 : 7, sync);
}

static void t_sync_edge_context(void)
{
	struct profile p;
	struct critical_path c;

	build_context_sync(&p, CUDA_SYNC_CONTEXT);
	run(&p, NULL, &c);
	CHECK_EQ(c.nr_sync_edges, 2);
	CHECK_EQ(c.total_ns, 390 * US);
	CHECK_EQ(c.total_ns, brute_longest(&c));
	CHECK_EQ(c.bound_ns[CPATH_GPU_COMPUTE], 310 * US);
	cpath_release(&c);
	profile_release(&p);

	build_context_sync(&p, CUDA_SYNC_STREAM);
	run(&p, NULL, &c);
	CHECK_EQ(c.nr_sync_edges, 1);
	CHECK_EQ(c.total_ns, 350 * US);
	CHECK_EQ(c.total_ns, brute_longest(&c));
	cpath_release(&c);
	profile_release(&p);
}

/* A sync event whose runtime call is not in the window, or that has
 * none, or a wait-event, makes no edge. */
static void t_sync_edge_none(void)
{
	struct profile p;
	struct critical_path c;
	struct cuda_sync s = {
		.start_ns = 21 * US, .dur_ns = US, .wait_corr = -1, .runtime = 0, .device = 0,
		.stream = 7, .wait_stream = -1, .kind = CUDA_SYNC_STREAM,
	};

	build_stream_sync(&p, false);
	profile_add_cuda_sync(&p, &s);
	s.kind = CUDA_SYNC_WAIT_EVENT;
	s.stream = 8;
	s.wait_stream = 7;
	profile_add_cuda_sync(&p, &s);
	run(&p, NULL, &c);
	CHECK_EQ(c.nr_sync_edges, 0);
	CHECK_EQ(c.total_ns, 300 * US);
	cpath_release(&c);
	profile_release(&p);
}

const struct test tests[] = {
	{ "CPU-bound step", t_cpu_bound },
	{ "GPU-bound kernel chain", t_gpu_bound },
	{ "launch delay", t_launch_delay },
	{ "blocking sync counts 0", t_sync_wait },
	{ "two threads", t_two_threads },
	{ "empty window, empty profile", t_empty },
	{ "a range of time narrows the window", t_range_window },
	{ "overlapping and touching kernels", t_overlap_touch },
	{ "kernel-kernel gap limit", t_kk_limit },
	{ "nested ops' attribution", t_nested },
	{ "HTA's rounding, last work per launch", t_hta_options },
	{ "a call within the launching call", t_call_in_call },
	{ "communication kernel", t_communication },
	{ "a queue from before the window", t_queue_before_window },
	{ "the longest step by default", t_default_step },
	{ "capped sum", t_capped },
	{ "200k launches", t_many },
	{ "sync edge: stream sync", t_sync_edge_stream },
	{ "sync edge: context sync, every stream", t_sync_edge_context },
	{ "sync edge: none without a call", t_sync_edge_none },
	{ 0 },
};
