/* SPDX-License-Identifier: MIT */
/*
 * Kernel launch statistics (model/launch_stats.c) on small profiles made
 * by hand: the three figures and the clipped delay, the classes at their
 * cutoffs, the distributions (linear interpolation), a call that launched
 * two pieces of work, work no call launched, a CPU-only profile, HTA's
 * launch set, rounding and window as options, the step window, a capped
 * sum, a Kineto trace launching with cuLaunchKernel and hipLaunchKernel,
 * and 300,000 launches in O(n log n).
 */
#include <math.h>

#include "model/launch_stats.h"
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

static struct node *work(struct profile *p, struct node *parent, enum node_kind kind,
			 int64_t start_ns, int64_t dur_ns)
{
	struct node *n = node_new(p, parent ? parent : p->root, kind, "k", 1);

	n->start_ns = start_ns;
	node_set_calls(p, n, 1);
	node_set_device_total(p, n, dur_ns);
	node_set_device_self(p, n, dur_ns);
	return n;
}

/* A call NAME at AT us for CPU us launching a kernel at START us for GPU us. */
static struct node *launch(struct profile *p, struct node *th, const char *name, int64_t at,
			   int64_t cpu, int64_t start, int64_t gpu)
{
	struct node *rt = host(p, th, NODE_RUNTIME, name, at * US, cpu * US);

	work(p, rt, NODE_KERNEL, start * US, gpu * US);
	return rt;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

/*
 * Five launches (us):      call        work        cpu gpu delay  class
 *   a  [0, 10)   -> [15, 20)        10   5    5   short
 *   b  [100, 160) -> [150, 400)     60 250    0   runtime outlier (clipped delay)
 *   c  [500, 550) -> [550, 600)     50  50    0   none (cpu == cutoff, gpu == cpu)
 *   d  [700, 750) -> [850, 890)     50  40  100   short (delay == cutoff)
 *   e  [1000, 1001) -> [1102, 1103)  1   1  101   delay outlier
 * plus a kernel no call launched (not a launch).
 */
static void t_figures_and_classes(void)
{
	struct profile p;
	struct launch_stats s;
	struct node *th;
	const struct launch_dist *d;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, "cudaLaunchKernel", 0, 10, 15, 5);
	launch(&p, th, "cudaLaunchKernel", 100, 60, 150, 250);
	launch(&p, th, "cudaLaunchKernel", 500, 50, 550, 50);
	launch(&p, th, "cudaLaunchKernel", 700, 50, 850, 40);
	launch(&p, th, "cudaLaunchKernel", 1000, 1, 1102, 1);
	work(&p, NULL, NODE_KERNEL, 2000 * US, 1 * US);
	profile_finish(&p);

	launch_stats_compute(&p, NULL, &s);
	CHECK_EQ(s.nr, 5);
	CHECK_EQ(s.rows[0].cpu_ns, 10 * US);
	CHECK_EQ(s.rows[0].gpu_ns, 5 * US);
	CHECK_EQ(s.rows[0].delay_ns, 5 * US);
	CHECK_EQ(s.rows[0].cls, LAUNCH_SHORT);
	CHECK_STR(launch_class_text(s.rows[0].cls), "short");
	CHECK_EQ(s.rows[1].delay_ns, 0);	/* started 10 us before the call ended */
	CHECK_EQ(s.rows[1].cls, LAUNCH_RUNTIME_OUTLIER);
	CHECK_EQ(s.rows[2].delay_ns, 0);	/* touching */
	CHECK_EQ(s.rows[2].cls, 0);
	CHECK_STR(launch_class_text(s.rows[2].cls), "");
	CHECK_EQ(s.rows[3].delay_ns, 100 * US);
	CHECK_EQ(s.rows[3].cls, LAUNCH_SHORT);
	CHECK_EQ(s.rows[4].delay_ns, 101 * US);
	CHECK_EQ(s.rows[4].cls, LAUNCH_DELAY_OUTLIER);
	CHECK(node_parent(s.rows[4].work)->start_ns == 1000 * US);
	CHECK_EQ(s.sum.nr_launches, 5);
	CHECK_EQ(s.sum.nr_short, 2);
	CHECK_EQ(s.sum.nr_runtime_outliers, 1);
	CHECK_EQ(s.sum.nr_delay_outliers, 1);

	/* Delays 0, 0, 5, 100, 101 us. */
	d = &s.sum.dist[LAUNCH_DELAY];
	CHECK_EQ(d->count, 5);
	CHECK_EQ(d->total_ns, 206 * US);
	CHECK(near(d->mean, 41.2 * US));
	CHECK(near(d->std, sqrt((2 * 41.2 * 41.2 + 36.2 * 36.2 + 58.8 * 58.8 + 59.8 * 59.8) / 4) * US));
	CHECK(near(d->min, 0));
	CHECK(near(d->p50, 5 * US));
	CHECK(near(d->p90, 100.6 * US));	/* 0.9 * 4 = 3.6: 100 + 0.6 * 1 */
	CHECK(near(d->p99, 100.96 * US));
	CHECK(near(d->max, 101 * US));
	/* CPU 1, 10, 50, 50, 60 us. */
	d = &s.sum.dist[LAUNCH_CPU];
	CHECK(near(d->p50, 50 * US));
	CHECK(near(d->p90, 56 * US));
	CHECK(near(d->min, 1 * US));
	CHECK_STR(launch_figure_name(LAUNCH_DELAY), "launch_delay");
	launch_stats_release(&s);
	profile_release(&p);
}

/* One launch: no spread; a call that launched a copy and a set: two. */
static void t_one_and_two(void)
{
	struct profile p;
	struct launch_stats s;
	struct launch_summary sum;
	struct node *th, *rt;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, "cudaLaunchKernel", 0, 4, 10, 2);
	profile_finish(&p);
	launch_stats_compute(&p, NULL, &s);
	CHECK_EQ(s.nr, 1);
	CHECK(isnan(s.sum.dist[LAUNCH_GPU].std));
	CHECK(near(s.sum.dist[LAUNCH_GPU].p99, 2 * US));
	CHECK(near(s.sum.dist[LAUNCH_GPU].mean, 2 * US));
	launch_stats_release(&s);
	profile_release(&p);

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	rt = host(&p, th, NODE_RUNTIME, "cudaGraphLaunch", 0, 5 * US);
	work(&p, rt, NODE_MEMSET, 20 * US, 1 * US);
	work(&p, rt, NODE_MEMCPY, 8 * US, 3 * US);
	profile_finish(&p);
	launch_summary_make(&p, NULL, &sum);
	CHECK_EQ(sum.nr_launches, 2);
	CHECK_EQ(sum.nr_short, 2);
	CHECK(near(sum.dist[LAUNCH_DELAY].min, 3 * US));
	CHECK(near(sum.dist[LAUNCH_DELAY].max, 15 * US));
	launch_stats_compute(&p, NULL, &s);
	CHECK_EQ(s.rows[0].work->kind, NODE_MEMCPY);	/* the earlier work first */
	launch_stats_release(&s);
	profile_release(&p);
}

/* No device work, or work no call launched: no launch, NaN figures. */
static void t_cpu_only(void)
{
	struct profile p;
	struct launch_stats s;
	struct node *th;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	host(&p, th, NODE_OP, "aten::add", 0, 10 * US);
	host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 1 * US, 2 * US);
	work(&p, NULL, NODE_KERNEL, 5 * US, 1 * US);
	profile_finish(&p);
	launch_stats_compute(&p, NULL, &s);
	CHECK_EQ(s.nr, 0);
	CHECK_EQ(s.sum.dist[LAUNCH_CPU].count, 0);
	CHECK(isnan(s.sum.dist[LAUNCH_CPU].mean));
	CHECK(isnan(s.sum.dist[LAUNCH_DELAY].p50));
	launch_stats_release(&s);
	profile_release(&p);
}

/* HTA's launch set, rounding and last-step window, as options; the
 * figures of the default are the trace's own. */
static void t_hta_conditions(void)
{
	struct profile p;
	struct launch_stats s;
	struct launch_options o;
	struct node *th, *rt;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	/* [1.2, 3.9) us -> [4.5, 5.4): HTA [2, 3) -> [5, 5). */
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 1200, 2700);
	work(&p, rt, NODE_KERNEL, 4500, 900);
	launch(&p, th, "cuLaunchKernel", 10, 2, 20, 1);
	launch(&p, th, "hipLaunchKernel", 30, 2, 40, 1);
	launch(&p, th, "cudaMemcpyAsync", 50, 2, 60, 1);
	launch(&p, th, "cudaLaunchKernel", 900, 2, 910, 1);	/* the last step */
	profile_finish(&p);

	launch_stats_compute(&p, NULL, &s);
	CHECK_EQ(s.nr, 5);
	CHECK_EQ(s.rows[0].cpu_ns, 2700);
	CHECK_EQ(s.rows[0].gpu_ns, 900);
	CHECK_EQ(s.rows[0].delay_ns, 600);
	CHECK_STR(node_name(node_parent(s.rows[1].work)), "cuLaunchKernel");
	CHECK_STR(node_name(node_parent(s.rows[2].work)), "hipLaunchKernel");
	launch_stats_release(&s);

	launch_options_default(&o);
	o.hta_launch_set = true;
	o.round_like_hta = true;
	o.launched_before_ns = 800 * US;
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 2);
	CHECK_EQ(s.rows[0].cpu_ns, 1 * US);
	CHECK_EQ(s.rows[0].gpu_ns, 0);
	CHECK_EQ(s.rows[0].delay_ns, 2 * US);	/* 5 - 3 */
	CHECK_STR(node_name(node_parent(s.rows[1].work)), "cudaMemcpyAsync");
	launch_stats_release(&s);
	CHECK(launch_is_hta_call("cudaLaunchKernelExC"));
	CHECK(launch_is_hta_call("runFunction - job_prep_and_submit_for_execution"));
	CHECK(!launch_is_hta_call("cudaLaunchKernel "));
	profile_release(&p);
}

/* Other cutoffs; the step window counts the launches whose call starts
 * in the step. */
static void t_cutoffs_and_step(void)
{
	struct profile p;
	struct launch_stats s;
	struct launch_options o;
	struct node *th;
	struct step *st;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	launch(&p, th, "cudaLaunchKernel", 0, 10, 15, 5);
	launch(&p, th, "cudaLaunchKernel", 98, 4, 200, 1);	/* call in step 2 */
	launch(&p, th, "cudaLaunchKernel", 150, 4, 160, 1);
	st = profile_add_step(&p, "1", 1);
	st->start_ns = 0;
	st->end_ns = 100 * US;
	st = profile_add_step(&p, "2", 1);
	st->start_ns = 100 * US;
	st->end_ns = 300 * US;
	profile_finish(&p);

	launch_options_default(&o);
	o.runtime_cutoff_ns = 5 * US;
	o.delay_cutoff_ns = 5 * US;
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.sum.nr_runtime_outliers, 1);
	CHECK_EQ(s.sum.nr_delay_outliers, 2);	/* 98 and 6: not 5 */
	CHECK_EQ(s.sum.nr_short, 2);
	launch_stats_release(&s);

	launch_options_for_step(&o, &p, &p.steps[1]);
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 1);
	CHECK_EQ(s.rows[0].delay_ns, 6 * US);
	launch_stats_release(&s);
	launch_options_for_step(&o, &p, &p.steps[0]);
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 2);
	launch_stats_release(&s);
	/* A range of time: the calls that start in it; with step 1, in
	 * both (the call at 98 us only); apart from the step, none. */
	launch_options_default(&o);
	launch_options_narrow(&o, 100 * US, 400 * US);
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 1);
	CHECK_EQ(s.rows[0].delay_ns, 6 * US);
	launch_stats_release(&s);
	launch_options_for_step(&o, &p, &p.steps[0]);
	launch_options_narrow(&o, 50 * US, 200 * US);
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 1);
	launch_stats_release(&s);
	launch_options_narrow(&o, 200 * US, 400 * US);
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 0);
	launch_stats_release(&s);
	profile_release(&p);
}

/* Delays whose sum passes SUM_CAP: the total holds the cap and says so;
 * the mean is still the launches'. */
static void t_capped(void)
{
	struct profile p;
	struct launch_stats s;
	struct node *th, *rt;
	const int64_t far = SUM_CAP / 2 + SUM_CAP / 4;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 0, 1);
	work(&p, rt, NODE_KERNEL, far, 1);
	rt = host(&p, th, NODE_RUNTIME, "cudaLaunchKernel", 2, 1);
	work(&p, rt, NODE_KERNEL, far + 3, 1);
	profile_finish(&p);
	launch_stats_compute(&p, NULL, &s);
	CHECK_EQ(s.nr, 2);
	CHECK_EQ(s.sum.dist[LAUNCH_DELAY].total_ns, SUM_CAP);
	CHECK(s.sum.dist[LAUNCH_DELAY].capped);
	CHECK(!s.sum.dist[LAUNCH_CPU].capped);
	CHECK(near(s.sum.dist[LAUNCH_DELAY].mean, (double)far - 0.5));
	launch_stats_release(&s);
	profile_release(&p);
}

/* The Kineto loader links a driver call (cuLaunchKernel, cat cuda_driver)
 * and a ROCm runtime call (hipLaunchKernel) to their kernels: proftui
 * counts both launches, HTA's set neither (proftui(1), DIFFERENCES FROM
 * HOLISTIC TRACE ANALYSIS). */
static void t_kineto_driver_and_hip(void)
{
	static const char trace[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_driver\", \"name\": \"cuLaunchKernel\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 4, \"args\": {\"correlation\": 5}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_k\", "
		"\"pid\": 0, \"tid\": 7, \"ts\": 20, \"dur\": 3, "
		"\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 5}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"hipLaunchKernel\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 30, \"dur\": 2, \"args\": {\"correlation\": 6}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"hip_k\", "
		"\"pid\": 0, \"tid\": 7, \"ts\": 200, \"dur\": 3, "
		"\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 6}}\n"
		"]}\n";
	const char *path = test_write("launch.json", trace, sizeof(trace) - 1);
	struct profile p;
	struct launch_stats s;
	struct launch_options o;
	char msg[256];

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	launch_stats_compute(&p, NULL, &s);
	CHECK_EQ(s.nr, 2);
	if (s.nr == 2) {
		CHECK_STR(node_name(s.rows[0].work), "triton_k");
		CHECK_EQ(s.rows[0].cpu_ns, 4 * US);
		CHECK_EQ(s.rows[0].delay_ns, 6 * US);
		CHECK_STR(node_name(s.rows[1].work), "hip_k");
		CHECK_EQ(s.rows[1].delay_ns, 168 * US);
		CHECK_EQ(s.rows[1].cls, LAUNCH_DELAY_OUTLIER);
	}
	launch_stats_release(&s);
	launch_options_default(&o);
	o.hta_launch_set = true;
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 0);
	launch_stats_release(&s);
	profile_release(&p);
}

/* 300,000 launches made in reverse time: one sort each. */
static void t_many(void)
{
	struct profile p;
	struct launch_stats s;
	struct node *th;
	const size_t n = 300000;
	double t0;

	profile_init(&p, "mem");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	for (size_t i = n; i-- > 0;)
		launch(&p, th, "cudaLaunchKernel", (int64_t)i * 10, 2, (int64_t)i * 10 + 2 + (int64_t)(i % 7),
		       1);
	profile_finish(&p);
	t0 = test_cpu_s();
	launch_stats_compute(&p, NULL, &s);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(s.nr, n);
	CHECK_EQ(node_parent(s.rows[0].work)->start_ns, 0);
	CHECK(near(s.sum.dist[LAUNCH_DELAY].max, 6 * US));
	CHECK(near(s.sum.dist[LAUNCH_DELAY].p50, 3 * US));
	launch_stats_release(&s);
	profile_release(&p);
}

const struct test tests[] = {
	{ "figures, classes at their cutoffs, distributions", t_figures_and_classes },
	{ "one launch, a call with two pieces of work", t_one_and_two },
	{ "cpu only, unlaunched kernel", t_cpu_only },
	{ "HTA's set, rounding and window as options", t_hta_conditions },
	{ "cutoffs and the step window", t_cutoffs_and_step },
	{ "capped sum", t_capped },
	{ "kineto: cuLaunchKernel and hipLaunchKernel", t_kineto_driver_and_hip },
	{ "300k launches", t_many },
	{ 0 },
};
