/* SPDX-License-Identifier: MIT */
/*
 * Queue length per stream (model/queue_length.c) on small profiles made
 * by hand: the change points and their order at one time, describe() of
 * them, the time-weighted mean and maximum, the time blocked on a full
 * queue, several streams and copies, work no call launched, a CPU-only
 * profile, HTA's conditions as options, a capped sum, and a long stream
 * in O(n log n).
 */
#include <math.h>

#include "model/bounds.h"
#include "model/queue_length.h"
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

static struct node *kernel(struct profile *p, struct node *parent, int32_t stream, int64_t start_ns)
{
	struct node *n = node_new(p, parent ? parent : p->root, NODE_KERNEL, "k", 1);
	struct launch l;

	n->start_ns = start_ns;
	node_set_calls(p, n, 1);
	node_set_device_total(p, n, 5 * US);
	node_set_device_self(p, n, 5 * US);
	launch_init(&l);
	l.device = 0;
	l.stream = stream;
	attr_set_launch(p, node_attr_list(n), profile_launch(p, &l));
	return n;
}

/* A call NAME at AT ns launching a kernel on STREAM that starts at START
 * ns. */
static struct node *launch_named(struct profile *p, struct node *parent, const char *name,
				 int64_t at, int32_t stream, int64_t start)
{
	struct node *rt = host(p, parent, NODE_RUNTIME, name, at, 2 * US);

	kernel(p, rt, stream, start);
	return rt;
}

static void launch(struct profile *p, struct node *parent, int64_t at, int32_t stream,
		   int64_t start)
{
	launch_named(p, parent, "cudaLaunchKernel", at * US, stream, start * US);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (fabs(b) + 1);
}

/*
 * Stream 7: launches at 10, 20, 30 us of kernels that start at 100, 110,
 * 200: lengths 1 2 3 2 1 0 at 10 20 30 100 110 200.  Held: 1 for 10 us,
 * 2 for 10, 3 for 70, 2 for 10, 1 for 90: 350 / 190 on the time.
 */
static void t_series(void)
{
	static const int64_t at[] = { 10, 20, 30, 100, 110, 200 };
	static const int32_t len[] = { 1, 2, 3, 2, 1, 0 };
	struct profile p;
	struct queue_lengths q;
	const struct queue_stream *s;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, 30, 7, 200);
	launch(&p, th, 10, 7, 100);
	launch(&p, th, 20, 7, 110);
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	CHECK_EQ(q.nr_streams, 1);
	s = &q.streams[0];
	CHECK_EQ(s->device, 0);
	CHECK_EQ(s->stream, 7);
	CHECK_EQ(s->nr_points, 6);
	CHECK_EQ(s->nr_launches, 3);
	for (size_t i = 0; i < 6 && i < s->nr_points; i++) {
		CHECK_EQ(s->points[i].t_ns, at[i] * US);
		CHECK_EQ(s->points[i].length, len[i]);
	}
	CHECK_EQ(s->summary.count, 6);
	CHECK(near(s->summary.mean, 1.5));
	CHECK(near(s->summary.std, sqrt(5.5 / 5)));	/* n - 1 */
	CHECK(near(s->summary.min, 0));
	CHECK(near(s->summary.p25, 1));
	CHECK(near(s->summary.p50, 1.5));
	CHECK(near(s->summary.p75, 2));
	CHECK(near(s->summary.max, 3));
	CHECK(near(s->tw_mean, 350.0 / 190));
	CHECK_EQ(s->tw_max, 3);
	CHECK_EQ(s->first_ns, 10 * US);
	CHECK_EQ(s->last_ns, 200 * US);
	CHECK_EQ(s->blocked_ns, 0);
	CHECK(near(s->blocked_share, 0));
	queue_release(&q);
	profile_release(&p);
}

/*
 * At one time, launches come before starts: a launch at 100 of a kernel
 * that starts at 100, while another kernel starts at 100 too.  Launches
 * first: 1 (at 50), 2, 1, 0; starts first (the option): 1, 0, -1, 0.  A
 * length held for no time is not the time-weighted maximum.
 */
static void t_ties(void)
{
	struct profile p;
	struct queue_lengths q;
	struct queue_options o;
	const struct queue_stream *s;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, 50, 7, 100);
	launch(&p, th, 100, 7, 100);
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	s = &q.streams[0];
	CHECK_EQ(s->nr_points, 4);
	CHECK_EQ(s->points[1].length, 2);
	CHECK_EQ(s->points[2].length, 1);
	CHECK_EQ(s->points[3].length, 0);
	CHECK(near(s->summary.max, 2));
	CHECK_EQ(s->tw_max, 1);		/* 2 held for 0 ns */
	CHECK(near(s->tw_mean, 1));
	queue_release(&q);
	queue_options_default(&o);
	o.starts_first = true;
	queue_compute(&p, &o, &q);
	s = &q.streams[0];
	CHECK_EQ(s->points[1].length, 0);
	CHECK_EQ(s->points[2].length, -1);
	CHECK(near(s->summary.max, 1));
	queue_release(&q);
	profile_release(&p);
}

/* Two streams (in order of device, then stream), a copy on its stream,
 * a kernel with no launching call (not counted), a launch of a kernel
 * with no stream (not counted), a graph launch of two kernels. */
static void t_streams(void)
{
	struct profile p;
	struct queue_lengths q;
	struct node *th, *rt, *copy;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, 10, 20, 30);
	kernel(&p, NULL, 7, 5 * US);
	rt = host(&p, th, NODE_RUNTIME, "cudaMemcpyAsync", 12 * US, 1 * US);
	copy = node_new(&p, rt, NODE_MEMCPY, "Memcpy HtoD (Pinned -> Device)", 30);
	copy->start_ns = 40 * US;
	node_set_calls(&p, copy, 1);
	node_set_device_total(&p, copy, 1 * US);
	profile_set_copy_stream(&p, copy, 0, 7);
	rt = host(&p, th, NODE_RUNTIME, "cudaGraphLaunch", 50 * US, 1 * US);
	kernel(&p, rt, 7, 60 * US);
	kernel(&p, rt, 7, 70 * US);
	launch(&p, th, 80, -1, 90);
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	CHECK_EQ(q.nr_streams, 2);
	CHECK_EQ(q.streams[0].stream, 7);
	CHECK_EQ(q.streams[1].stream, 20);
	CHECK_EQ(q.streams[0].nr_launches, 3);	/* the copy, the graph's two */
	CHECK_EQ(q.streams[0].points[3].length, 2);	/* the graph launch: +2 */
	CHECK_EQ(q.streams[0].points[3].t_ns, 50 * US);
	CHECK_EQ(q.streams[0].points[2].t_ns, 50 * US);
	CHECK_EQ(q.streams[1].nr_launches, 1);
	CHECK_EQ(q.first_ns, 10 * US);
	CHECK_EQ(q.last_ns, 70 * US);
	queue_release(&q);
	profile_release(&p);
}

/* No GPU work, and a CPU-only profile: no stream. */
static void t_empty(void)
{
	struct profile p;
	struct queue_lengths q;

	profile_init(&p, "mem");
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	CHECK_EQ(q.nr_streams, 0);
	CHECK(q.streams == NULL);
	queue_release(&q);
	profile_release(&p);

	profile_init(&p, "mem");
	host(&p, node_new(&p, p.root, NODE_THREAD, "t", 1), NODE_OP, "aten::add", 0, 10 * US);
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	CHECK_EQ(q.nr_streams, 0);
	queue_release(&q);
	profile_release(&p);
}

/* One launch: two points, 1 then 0. */
static void t_one(void)
{
	struct profile p;
	struct queue_lengths q;

	profile_init(&p, "mem");
	launch(&p, node_new(&p, p.root, NODE_THREAD, "t", 1), 10, 7, 15);
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	CHECK_EQ(q.streams[0].nr_points, 2);
	CHECK(near(q.streams[0].summary.mean, 0.5));
	CHECK(near(q.streams[0].tw_mean, 1));
	CHECK_EQ(q.streams[0].tw_max, 1);
	queue_release(&q);
	profile_release(&p);
}

/* A full queue (FULL_LENGTH 2 here): the time at 2 or more, and its share
 * of the span of every stream's points. */
static void t_blocked(void)
{
	struct profile p;
	struct queue_lengths q;
	struct queue_options o;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "t", 1);
	launch(&p, th, 0, 7, 100);	/* 1 at 0 */
	launch(&p, th, 20, 7, 120);	/* 2 at 20, 1 at 100, 0 at 120 */
	launch(&p, th, 150, 8, 200);	/* stream 8 to 200 */
	profile_finish(&p);
	queue_options_default(&o);
	o.full_length = 2;
	queue_compute(&p, &o, &q);
	CHECK_EQ(q.streams[0].blocked_ns, 80 * US);
	CHECK(near(q.streams[0].blocked_share, 80.0 / 200));
	CHECK_EQ(q.streams[1].blocked_ns, 0);
	queue_release(&q);
	queue_compute(&p, NULL, &q);	/* 1024: never */
	CHECK_EQ(q.streams[0].blocked_ns, 0);
	queue_release(&q);
	profile_release(&p);
}

/* HTA's conditions: its launching calls only, times rounded up to whole
 * microseconds, launches before a time only. */
static void t_hta_options(void)
{
	struct profile p;
	struct queue_lengths q;
	struct queue_options o;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "t", 1);
	launch_named(&p, th, "cudaLaunchKernel", 10400, 7, 20100);
	launch_named(&p, th, "cudaLaunchCooperativeKernel", 11000, 7, 30000);
	launch_named(&p, th, "hipLaunchKernel", 50000, 7, 60000);
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	CHECK_EQ(q.streams[0].nr_launches, 3);
	CHECK_EQ(q.streams[0].points[0].t_ns, 10400);
	queue_release(&q);
	queue_options_default(&o);
	o.hta_launch_names = true;
	o.round_like_hta = true;
	o.launched_before_ns = 49500;	/* rounded: 50 us, hip's at 50 is out */
	queue_compute(&p, &o, &q);
	CHECK_EQ(q.streams[0].nr_launches, 1);
	CHECK_EQ(q.streams[0].points[0].t_ns, 11000);
	CHECK_EQ(q.streams[0].points[1].t_ns, 21000);
	queue_release(&q);
	CHECK(queue_is_hta_launch("cuLaunchKernelEx"));
	CHECK(queue_is_hta_launch("runFunction - job_prep_and_submit_for_execution"));
	CHECK(!queue_is_hta_launch("cudaMemcpy"));
	profile_release(&p);
}

/* A length times a time past SUM_CAP: the time-weighted mean is NaN, and
 * the cap is counted; the summary stands. */
static void t_capped(void)
{
	struct profile p;
	struct queue_lengths q;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "t", 1);
	launch_named(&p, th, "cudaLaunchKernel", 0, 7, SUM_CAP / 2);
	launch_named(&p, th, "cudaLaunchKernel", 1, 7, SUM_CAP / 2 + 1);
	launch_named(&p, th, "cudaLaunchKernel", 2, 7, SUM_CAP / 2 + 2);
	profile_finish(&p);
	queue_compute(&p, NULL, &q);
	CHECK(isnan(q.streams[0].tw_mean));
	CHECK(q.nr_capped >= 1);
	CHECK_EQ(q.streams[0].summary.count, 6);
	CHECK_EQ(q.streams[0].tw_max, 3);
	queue_release(&q);
	profile_release(&p);
}

/* 300,000 launches on two streams, made in reverse time: one sort. */
static void t_many(void)
{
	struct profile p;
	struct queue_lengths q;
	struct node *th;
	const size_t n = 300000;
	double t0;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "t", 1);
	for (size_t i = n; i-- > 0;)
		launch(&p, th, (int64_t)i * 3, (int32_t)(i % 2), (int64_t)i * 3 + 7);
	profile_finish(&p);
	t0 = test_cpu_s();
	queue_compute(&p, NULL, &q);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(q.nr_streams, 2);
	CHECK_EQ(q.streams[0].nr_launches + q.streams[1].nr_launches, n);
	/* Each stream launches every 6 us what starts 7 us later: 2 then 1. */
	CHECK(near(q.streams[0].summary.max, 2));
	queue_release(&q);
	profile_release(&p);
}

/*
 * A range of time on t_series's stream (lengths 1 2 3 2 1 0 at 10 20 30
 * 100 110 200 us).  [50, 150): the three kernels launched before it are
 * carried in (3), and the one that starts at 200 stays queued across its
 * end: 3 for 50 us, 2 for 10, 1 for 40: 210 / 100; describe() of the
 * changes in it, 2 and 1; at a full length of 2, 60 us blocked of 100.
 * [15, 105): 1 carried, then 2 3 2 at 20 30 100: 1 for 5 us, 2 for 10, 3
 * for 70, 2 for 5: 245 / 90, two launches in it.  [300, 400) is after
 * every change: no stream.  [0, 1000) gives the figures of no range.
 */
static void t_range(void)
{
	struct profile p;
	struct queue_lengths q, whole;
	struct queue_options o;
	const struct queue_stream *s;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, 10, 7, 100);
	launch(&p, th, 20, 7, 110);
	launch(&p, th, 30, 7, 200);
	profile_finish(&p);
	queue_options_default(&o);
	o.has_range = true;
	o.range_start_ns = 50 * US;
	o.range_end_ns = 150 * US;
	o.full_length = 2;
	queue_compute(&p, &o, &q);
	CHECK_EQ(q.nr_streams, 1);
	s = &q.streams[0];
	CHECK_EQ(s->carried, 3);
	CHECK_EQ(s->nr_points, 2);
	CHECK_EQ(s->nr_launches, 0);
	CHECK_EQ(s->first_ns, 50 * US);
	CHECK_EQ(s->last_ns, 150 * US);
	CHECK_EQ(s->summary.count, 2);
	CHECK(near(s->summary.mean, 1.5));
	CHECK(near(s->summary.min, 1));
	CHECK(near(s->summary.max, 2));
	CHECK(near(s->tw_mean, 2.1));
	CHECK_EQ(s->tw_max, 3);
	CHECK_EQ(s->blocked_ns, 60 * US);
	CHECK(near(s->blocked_share, 0.6));
	queue_release(&q);

	o.full_length = 1024;
	o.range_start_ns = 15 * US;
	o.range_end_ns = 105 * US;
	queue_compute(&p, &o, &q);
	CHECK_EQ(q.nr_streams, 1);
	s = &q.streams[0];
	CHECK_EQ(s->carried, 1);
	CHECK_EQ(s->nr_points, 3);
	CHECK_EQ(s->nr_launches, 2);
	CHECK(near(s->summary.mean, 7.0 / 3));
	CHECK(near(s->tw_mean, 245.0 / 90));
	CHECK_EQ(s->tw_max, 3);
	CHECK_EQ(s->first_ns, 15 * US);
	CHECK_EQ(s->last_ns, 105 * US);
	queue_release(&q);

	o.range_start_ns = 300 * US;
	o.range_end_ns = 400 * US;
	queue_compute(&p, &o, &q);
	CHECK_EQ(q.nr_streams, 0);
	queue_release(&q);

	o.range_start_ns = 0;
	o.range_end_ns = 1000 * US;
	queue_compute(&p, &o, &q);
	queue_compute(&p, NULL, &whole);
	CHECK_EQ(q.nr_streams, 1);
	CHECK_EQ(q.streams[0].nr_points, whole.streams[0].nr_points);
	CHECK_EQ(q.streams[0].nr_launches, 3);
	CHECK_EQ(q.streams[0].first_ns, whole.streams[0].first_ns);
	CHECK_EQ(q.streams[0].last_ns, whole.streams[0].last_ns);
	CHECK(near(q.streams[0].tw_mean, whole.streams[0].tw_mean));
	CHECK(near(q.streams[0].summary.std, whole.streams[0].summary.std));
	queue_release(&whole);
	queue_release(&q);
	profile_release(&p);
}

const struct test tests[] = {
	{ "series, describe, time-weighted", t_series },
	{ "ties: launches first; starts first as an option", t_ties },
	{ "streams, a copy, unlaunched work, a graph launch", t_streams },
	{ "no GPU work, CPU only", t_empty },
	{ "one launch", t_one },
	{ "blocked on a full queue", t_blocked },
	{ "HTA's launch names, rounding, last step", t_hta_options },
	{ "capped sum", t_capped },
	{ "300,000 launches in O(n log n)", t_many },
	{ "a range: carried in, clipped, empty", t_range },
	{ 0 },
};
