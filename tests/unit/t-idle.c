/* SPDX-License-Identifier: MIT */
/*
 * The idle-time breakdown per stream (model/idle.c) on small profiles
 * made by hand: the three categories, negative gaps, the first kernel, a
 * kernel without a launching call, a one-kernel stream, several streams
 * in the order of the file, copies, HTA's rounding and last-step window
 * as options, a capped sum, and a long stream in O(n log n).
 */
#include <math.h>

#include "model/idle.h"
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

/* A kernel on STREAM of GPU 0, under PARENT (a runtime call, or NULL for
 * none), running [START, START + DUR) ns. */
static struct node *kernel(struct profile *p, struct node *parent, int32_t stream,
			   int64_t start_ns, int64_t dur_ns)
{
	struct node *n = node_new(p, parent ? parent : p->root, NODE_KERNEL, "k", 1);
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

/* A runtime call at AT us under PARENT launching a kernel on STREAM that
 * runs [START, END) us. */
static struct node *launch(struct profile *p, struct node *parent, int64_t at, int32_t stream,
			   int64_t start, int64_t end)
{
	struct node *rt = host(p, parent, NODE_RUNTIME, "cudaLaunchKernel", at * US, 2 * US);

	return kernel(p, rt, stream, start * US, (end - start) * US);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

/*
 * Stream 7, its kernels in time order (their launches under op fwd):
 *   k1 [100, 200)  launched at 10: the first, no gap
 *   k2 [210, 260)  launched at 20, before k1 ended: gap 10 < 30, kernel wait
 *   k3 [310, 400)  launched at 300, after k2 ended: gap 50, host wait
 *   k4 [500, 600)  launched at 30: gap 100 >= 30, other
 *   k5 [590, 650)  launched at 40: gap -10 (overlap), kernel wait
 * fwd [0, 1000) holds inner [390, 420), which holds the time k3 ends.
 */
static void t_categories(void)
{
	struct profile p;
	struct idle_breakdown b;
	struct node *th, *fwd, *k4;
	const struct idle_stream *s;
	const struct describe *kw;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	fwd = host(&p, th, NODE_OP, "fwd", 0, 1000 * US);
	launch(&p, fwd, 10, 7, 100, 200);
	launch(&p, fwd, 20, 7, 210, 260);
	launch(&p, fwd, 300, 7, 310, 400);
	k4 = launch(&p, fwd, 30, 7, 500, 600);
	launch(&p, fwd, 40, 7, 590, 650);
	host(&p, fwd, NODE_OP, "inner", 390 * US, 30 * US);
	profile_finish(&p);

	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_streams, 1);
	s = &b.streams[0];
	CHECK_EQ(s->stream, 7);
	CHECK_EQ(s->device, 0);
	CHECK_EQ(s->nr_work, 5);
	CHECK_EQ(s->idle_ns[IDLE_HOST_WAIT], 50 * US);
	CHECK_EQ(s->idle_ns[IDLE_KERNEL_WAIT], 0);
	CHECK_EQ(s->idle_ns[IDLE_OTHER], 100 * US);
	CHECK_EQ(s->total_ns, 150 * US);
	CHECK_EQ(s->first_ns, 100 * US);
	CHECK_EQ(s->end_ns, 650 * US);
	CHECK(near(idle_stream_share(s), 150.0 / 550));
	CHECK(near(s->ratio[IDLE_HOST_WAIT], 1.0 / 3));
	CHECK(near(s->ratio[IDLE_KERNEL_WAIT], 0));
	CHECK(near(s->ratio[IDLE_OTHER], 2.0 / 3));
	kw = &s->stats[IDLE_KERNEL_WAIT];
	CHECK_EQ(kw->count, 2);
	CHECK(near(kw->mean, 0));
	CHECK(near(kw->std, sqrt(2.0) * 10 * US));	/* n - 1 */
	CHECK(near(kw->min, -10 * US));
	CHECK(near(kw->p25, -5 * US));	/* linear interpolation */
	CHECK(near(kw->p50, 0));
	CHECK(near(kw->p75, 5 * US));
	CHECK(near(kw->max, 10 * US));
	CHECK_EQ(s->stats[IDLE_HOST_WAIT].count, 1);
	CHECK(isnan(s->stats[IDLE_HOST_WAIT].std));	/* one gap: no spread */
	CHECK(near(s->stats[IDLE_OTHER].p50, 100 * US));
	/* The longest gaps, longest first, each where it began and the op
	 * running then on the thread that launched the kernel after it. */
	CHECK_EQ(s->nr_top, 4);
	CHECK_EQ(s->top[0].len_ns, 100 * US);
	CHECK_EQ(s->top[0].start_ns, 400 * US);
	CHECK_EQ(s->top[0].category, IDLE_OTHER);
	CHECK(s->top[0].next == k4);
	CHECK(s->top[0].cpu_op && !strcmp(node_name(s->top[0].cpu_op), "inner"));
	CHECK_EQ(s->top[1].len_ns, 50 * US);
	CHECK(s->top[1].cpu_op && !strcmp(node_name(s->top[1].cpu_op), "fwd"));
	CHECK_EQ(s->top[3].len_ns, -10 * US);

	/* The delay is a parameter: at 5 us the gap of 10 is "other". */
	{
		struct idle_options o;
		struct idle_breakdown b5;

		idle_options_default(&o);
		o.consecutive_kernel_delay_ns = 5 * US;
		idle_compute(&p, &o, &b5);
		CHECK_EQ(b5.streams[0].idle_ns[IDLE_OTHER], 110 * US);
		CHECK_EQ(b5.streams[0].idle_ns[IDLE_KERNEL_WAIT], -10 * US);
		idle_release(&b5);
	}
	idle_release(&b);
	profile_release(&p);
}

/* A kernel no runtime call launched: never host wait; a short gap is
 * kernel wait, a long one other.  A one-kernel stream: no gap, a total of
 * 0 and no ratio. */
static void t_unlaunched_and_single(void)
{
	struct profile p;
	struct idle_breakdown b;
	struct node *th;
	const struct idle_stream *s;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, 0, 3, 10, 20);
	kernel(&p, NULL, 3, 25 * US, 5 * US);	/* gap 5: kernel wait */
	kernel(&p, NULL, 3, 100 * US, 5 * US);	/* gap 70: other */
	launch(&p, th, 0, 4, 50, 60);		/* stream 4: one kernel */
	profile_finish(&p);

	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_streams, 2);
	s = &b.streams[0];
	CHECK_EQ(s->stream, 3);
	CHECK_EQ(s->idle_ns[IDLE_HOST_WAIT], 0);
	CHECK_EQ(s->idle_ns[IDLE_KERNEL_WAIT], 5 * US);
	CHECK_EQ(s->idle_ns[IDLE_OTHER], 70 * US);
	CHECK(s->top[0].cpu_op == NULL);	/* no launching thread */
	s = &b.streams[1];
	CHECK_EQ(s->stream, 4);
	CHECK_EQ(s->nr_work, 1);
	CHECK_EQ(s->total_ns, 0);
	for (int c = 0; c < NR_IDLE_CATEGORIES; c++) {
		CHECK(isnan(s->ratio[c]));
		CHECK_EQ(s->stats[c].count, 0);
		CHECK(isnan(s->stats[c].mean) && isnan(s->stats[c].max));
	}
	CHECK_EQ(s->nr_top, 0);
	CHECK(near(idle_stream_share(s), 0));
	idle_release(&b);
	profile_release(&p);
}

/* Streams come in the order of their first work in the file (the order
 * the loader made the nodes), not in time; copies and sets count with a
 * stream the file gives them, and without one they do not. */
static void t_streams_and_copies(void)
{
	struct profile p;
	struct idle_breakdown b;
	struct node *th, *rt, *copy, *lost;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, 0, 9, 500, 510);		/* first in the file, late */
	launch(&p, th, 0, 7, 10, 20);
	rt = host(&p, th, NODE_RUNTIME, "cudaMemcpyAsync", 1 * US, 2 * US);
	copy = node_new(&p, rt, NODE_MEMCPY, "Memcpy HtoD", 11);
	copy->start_ns = 60 * US;
	node_set_device_total(&p, copy, 10 * US);
	profile_set_copy_stream(&p, copy, 0, 7);
	lost = node_new(&p, p.root, NODE_MEMSET, "Memset", 6);	/* no stream */
	lost->start_ns = 30 * US;
	node_set_device_total(&p, lost, 1 * US);
	launch(&p, th, 0, 9, 520, 530);
	profile_finish(&p);

	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_streams, 2);
	CHECK_EQ(b.streams[0].stream, 9);
	CHECK_EQ(b.streams[0].nr_work, 2);
	CHECK_EQ(b.streams[0].idle_ns[IDLE_KERNEL_WAIT], 10 * US);
	CHECK_EQ(b.streams[1].stream, 7);
	CHECK_EQ(b.streams[1].nr_work, 2);		/* the kernel and the copy */
	CHECK_EQ(b.streams[1].idle_ns[IDLE_OTHER], 40 * US);	/* launched before */
	idle_release(&b);
	profile_release(&p);
}

/* HTA's conditions, as options: its rounding of fractional timestamps
 * (start up, end down, to the microsecond) and its window (only what was
 * launched before the last step).  The exact figure is the trace's own. */
static void t_hta_conditions(void)
{
	struct profile p;
	struct idle_breakdown exact, hta;
	struct idle_options o;
	struct node *th, *rt;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 1 * US, 1 * US);
	kernel(&p, rt, 7, 5 * US, 5400);		/* [5, 10.4) us */
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 2 * US, 1 * US);
	kernel(&p, rt, 7, 10600, 1 * US);		/* [10.6, 11.6) us */
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 900 * US, 1 * US);
	kernel(&p, rt, 7, 1000 * US, 1 * US);		/* launched in the last step */
	profile_finish(&p);

	idle_compute(&p, NULL, &exact);
	CHECK_EQ(exact.streams[0].stats[IDLE_KERNEL_WAIT].count, 1);
	CHECK_EQ(exact.streams[0].idle_ns[IDLE_KERNEL_WAIT], 200);	/* 0.2 us */
	CHECK_EQ(exact.streams[0].idle_ns[IDLE_HOST_WAIT], 1000 * US - 11600);
	idle_options_default(&o);
	o.round_like_hta = true;
	o.launched_before_ns = 800 * US;
	idle_compute(&p, &o, &hta);
	CHECK_EQ(hta.streams[0].nr_work, 2);
	CHECK_EQ(hta.streams[0].idle_ns[IDLE_KERNEL_WAIT], 1 * US);	/* 11 - 10 */
	CHECK_EQ(hta.streams[0].idle_ns[IDLE_OTHER], 0);
	idle_release(&exact);
	idle_release(&hta);
	profile_release(&p);
}

/* A range of time keeps the work that starts in it, as a step does: the
 * gaps between those kernels only; with a step, what starts in both. */
static void t_range(void)
{
	struct profile p;
	struct idle_breakdown b;
	struct idle_options o;

	profile_init(&p, "mem");
	kernel(&p, NULL, 7, 0, 10 * US);		/* [0, 10) us */
	kernel(&p, NULL, 7, 30 * US, 10 * US);		/* [30, 40) */
	kernel(&p, NULL, 7, 45 * US, 5 * US);		/* [45, 50) */
	kernel(&p, NULL, 7, 80 * US, 5 * US);		/* [80, 85) */
	profile_finish(&p);
	idle_options_default(&o);
	idle_options_narrow(&o, 20 * US, 60 * US);	/* the ones at 30 and 45 */
	idle_compute(&p, &o, &b);
	CHECK_EQ(b.streams[0].nr_work, 2);
	CHECK_EQ(b.streams[0].idle_ns[IDLE_OTHER] + b.streams[0].idle_ns[IDLE_HOST_WAIT] +
			 b.streams[0].idle_ns[IDLE_KERNEL_WAIT],
		 5 * US);
	idle_release(&b);
	o.lo_ns = 0;					/* a step [0, 50) us */
	o.hi_ns = 50 * US;
	idle_options_narrow(&o, 40 * US, 100 * US);	/* with it: [40, 50) */
	CHECK_EQ(o.lo_ns, 40 * US);
	CHECK_EQ(o.hi_ns, 50 * US);
	idle_compute(&p, &o, &b);
	CHECK_EQ(b.streams[0].nr_work, 1);
	idle_release(&b);
	idle_options_narrow(&o, 60 * US, 100 * US);	/* apart: nothing */
	idle_compute(&p, &o, &b);
	CHECK_EQ(b.nr_streams, 0);
	idle_release(&b);
	profile_release(&p);
}

/* Stream 7 of GPU 0 and stream 7 of GPU 1 are two queues (HTA: one). */
static void t_two_gpus(void)
{
	struct profile p;
	struct idle_breakdown b;
	struct launch l;
	struct node *k;

	launch_init(&l);
	l.device = 1;
	l.stream = 7;
	profile_init(&p, "mem");
	kernel(&p, NULL, 7, 0, 10 * US);
	k = node_new(&p, p.root, NODE_KERNEL, "k", 1);
	k->start_ns = 5 * US;
	node_set_device_total(&p, k, 10 * US);
	attr_set_launch(&p, node_attr_list(k), profile_launch(&p, &l));
	kernel(&p, NULL, 7, 40 * US, 10 * US);
	profile_finish(&p);
	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_streams, 2);
	CHECK_EQ(b.streams[0].device, 0);
	CHECK_EQ(b.streams[0].nr_work, 2);
	CHECK_EQ(b.streams[0].idle_ns[IDLE_OTHER], 30 * US);	/* not -5 then 25 */
	CHECK_EQ(b.streams[1].device, 1);
	CHECK_EQ(b.streams[1].nr_work, 1);
	idle_release(&b);
	profile_release(&p);
}

/* No device work: no stream. */
static void t_cpu_only(void)
{
	struct profile p;
	struct idle_breakdown b;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	host(&p, th, NODE_OP, "aten::add", 0, 10 * US);
	profile_finish(&p);
	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_streams, 0);
	CHECK(b.streams == NULL);
	idle_release(&b);
	profile_release(&p);
}

/* Gaps whose sum passes SUM_CAP hold the cap, and say so. */
static void t_capped(void)
{
	struct profile p;
	struct idle_breakdown b;

	profile_init(&p, "mem");
	kernel(&p, NULL, 7, 0, 1);
	kernel(&p, NULL, 7, SUM_CAP / 2 + SUM_CAP / 4, 1);
	kernel(&p, NULL, 7, 2 * (SUM_CAP / 2 + SUM_CAP / 4), 1);
	profile_finish(&p);
	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.streams[0].idle_ns[IDLE_OTHER], SUM_CAP);
	CHECK(b.nr_capped >= 1);
	CHECK_EQ(b.streams[0].stats[IDLE_OTHER].count, 2);
	CHECK(isnan(idle_stream_share(&b.streams[0])));
	idle_release(&b);
	profile_release(&p);
}

/* 300,000 kernels on two streams, made in reverse time: one sort. */
static void t_many(void)
{
	struct profile p;
	struct idle_breakdown b;
	struct node *th;
	const size_t n = 300000;
	double t0;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	for (size_t i = n; i-- > 0;)
		launch(&p, th, (int64_t)i * 3, (int32_t)(i % 2), (int64_t)i * 10, (int64_t)i * 10 + 5);
	profile_finish(&p);
	t0 = test_cpu_s();
	idle_compute(&p, NULL, &b);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(b.nr_streams, 2);
	CHECK_EQ(b.streams[0].stream, 1);	/* its kernel came first */
	CHECK_EQ(b.streams[0].nr_work + b.streams[1].nr_work, n);
	/* Stream 1: gaps of 15 us, each kernel launched before the one
	 * before it ended: kernel wait. */
	CHECK_EQ(b.streams[0].idle_ns[IDLE_KERNEL_WAIT], (int64_t)(n / 2 - 1) * 15 * US);
	CHECK_EQ(b.streams[0].stats[IDLE_KERNEL_WAIT].count, n / 2 - 1);
	idle_release(&b);
	profile_release(&p);
}

/* The Kineto loader keeps a copy's and a set's stream (the trace's
 * args.stream) for the breakdown. */
static void t_kineto_copy_stream(void)
{
	static const char trace[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaMemcpyAsync\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 2, \"args\": {\"correlation\": 5}},\n"
		"{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", "
		"\"pid\": 0, \"tid\": 7, \"ts\": 20, \"dur\": 3, "
		"\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 5}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 12, \"dur\": 2, \"args\": {\"correlation\": 6}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
		"\"pid\": 0, \"tid\": 7, \"ts\": 30, \"dur\": 3, "
		"\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 6}}\n"
		"]}\n";
	const char *path = test_write("copy.json", trace, sizeof(trace) - 1);
	struct profile p;
	struct idle_breakdown b;
	char msg[256];

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_streams, 1);
	if (b.nr_streams) {
		CHECK_EQ(b.streams[0].stream, 7);
		CHECK_EQ(b.streams[0].nr_work, 2);
		CHECK_EQ(b.streams[0].idle_ns[IDLE_KERNEL_WAIT], 7 * US);
	}
	idle_release(&b);
	profile_release(&p);
}

const struct test tests[] = {
	{ "kineto: a copy's stream", t_kineto_copy_stream },
	{ "categories, negative gap, statistics, longest gaps", t_categories },
	{ "unlaunched kernel, one-kernel stream", t_unlaunched_and_single },
	{ "streams in file order, copies", t_streams_and_copies },
	{ "HTA's rounding and window as options", t_hta_conditions },
	{ "two GPUs' stream 7", t_two_gpus },
	{ "a range of time keeps the work that starts in it", t_range },
	{ "cpu only", t_cpu_only },
	{ "capped sum", t_capped },
	{ "300k kernels", t_many },
	{ 0 },
};
