// SPDX-License-Identifier: MIT
/*
 * One rank's analyses (model/rank_analysis.c) on small traces written
 * here: a CPU-only trace, work on two streams (the idle totals are the
 * streams' sums, the type shares are of the busy time, the overlap the
 * temporal classes', the launch statistics), a summary without
 * analyses, and the straggler inputs alone.
 */
#include <math.h>

#include "model/rank_analysis.h"
#include "model/strbuf.h"
#include "test.h"

static char msg[8192];

static int load(struct profile *p, const char *events)
{
	struct strbuf b = STRBUF_INIT;
	int rc;

	strbuf_addf(&b, "{\"traceEvents\": [\n"
			"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", "
			"\"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1000}%s\n]}\n", events);
	rc = test_load(p, test_write("t.json", b.s, b.len), "kineto", msg, sizeof(msg));
	strbuf_release(&b);
	return rc;
}

#define LAUNCH(ts, c) \
	",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, " \
	"\"tid\": 1, \"ts\": " #ts ", \"dur\": 1, \"args\": {\"correlation\": " #c "}}"
#define KERNEL(name, stream, ts, dur, c) \
	",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" name "\", \"pid\": 0, \"tid\": " \
	#stream ", \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"device\": 0, \"stream\": " \
	#stream ", \"correlation\": " #c "}}"

static void test_cpu_only(void)
{
	struct profile p;
	struct rank_analysis a;
	struct overlap o;

	CHECK_EQ(load(&p, ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
			  "\"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 50}"), 0);
	rank_analysis_of(&p, &a);
	CHECK(a.present);
	CHECK_EQ(a.nr_gpu_events, 0);
	CHECK_EQ(a.nr_idle_streams, 0);
	CHECK_EQ(a.strag.nr_iters, 1);
	rank_analysis_overlap(&a, &o);
	CHECK(isnan(overlap_pct(&o)));
	/* No launch: a count of 0, no distribution. */
	CHECK_EQ(a.launch.nr_launches, 0);
	CHECK_EQ(a.launch.dist[LAUNCH_DELAY].count, 0);
	CHECK(isnan(a.launch.dist[LAUNCH_DELAY].p50));
	rank_analysis_release(&a);
	profile_release(&p);
}

/*
 * Stream 7: a GEMM [100, 300) and a copy [400, 420), launched at 10 and
 * 20; stream 20: an all-reduce [250, 350) launched at 30.  Busy: [100,
 * 350) and [400, 420), 270 us; COMM 100 of it, MEM 20, COMP 200; comm
 * under comp [250, 300), 50 of 100.  Idle on stream 7: the gap [300,
 * 400), its launch at 20 before the GEMM ended: kernel wait would need
 * under 30 us, so other, 100 us; stream 20 has one kernel, no gap.
 */
static void test_two_streams(void)
{
	struct profile p;
	struct rank_analysis a;
	struct overlap o;

	CHECK_EQ(load(&p, LAUNCH(10, 1) KERNEL("volta_sgemm_128x64_nn", 7, 100, 200, 1)
			  LAUNCH(20, 2)
			  ",\n{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoD (Device -> "
			  "Device)\", \"pid\": 0, \"tid\": 7, \"ts\": 400, \"dur\": 20, \"args\": "
			  "{\"device\": 0, \"stream\": 7, \"correlation\": 2}}"
			  LAUNCH(30, 3) KERNEL("ncclKernel_AllReduce_RING_LL_Sum_float", 20, 250, 100, 3)),
		 0);
	rank_analysis_of(&p, &a);
	CHECK_EQ(a.nr_gpu_events, 3);
	CHECK_EQ(a.kernel_ns, 320000);
	CHECK_EQ(rank_analysis_busy(&a), 270000);
	CHECK_EQ(rank_analysis_type_ns(&a, KTYPE_COMMUNICATION), 100000);
	CHECK_EQ(rank_analysis_type_ns(&a, KTYPE_MEMORY), 20000);
	CHECK_EQ(rank_analysis_type_ns(&a, KTYPE_COMPUTATION), 200000);
	CHECK_EQ(a.nr_idle_streams, 2);
	CHECK_EQ(a.idle_by_cat_ns[IDLE_HOST_WAIT], 0);
	CHECK_EQ(a.idle_by_cat_ns[IDLE_KERNEL_WAIT], 0);
	CHECK_EQ(a.idle_by_cat_ns[IDLE_OTHER], 100000);
	rank_analysis_overlap(&a, &o);
	CHECK_EQ(o.both_ns, 50000);
	CHECK(fabs(overlap_pct(&o) - 50.0) < 1e-9);
	/* The straggler inputs: the all-reduce of step 1 on stream 20. */
	CHECK_EQ(a.strag.nr_kernels, 1);
	CHECK_EQ(a.strag.kernels[0].stream, 20);
	CHECK_EQ(a.strag.iters[0].end_ns, 1000000);
	/*
	 * The launches: three calls of 1 us, each of one piece of work.
	 * Delays 100 - 11, 400 - 21 and 250 - 31 us: 89, 379, 219; two over
	 * 100 us; none short (the work outlasts its call).  The delay's p99
	 * lies between the two largest: 219 + 0.98 * (379 - 219) = 375.8.
	 */
	CHECK_EQ(a.launch.nr_launches, 3);
	CHECK_EQ(a.launch.nr_short, 0);
	CHECK_EQ(a.launch.nr_runtime_outliers, 0);
	CHECK_EQ(a.launch.nr_delay_outliers, 2);
	CHECK_EQ(a.launch.dist[LAUNCH_DELAY].count, 3);
	CHECK_EQ(a.launch.dist[LAUNCH_DELAY].total_ns, 687000);
	CHECK(a.launch.dist[LAUNCH_DELAY].p50 == 219000.0);
	CHECK(fabs(a.launch.dist[LAUNCH_DELAY].p99 - 375800.0) < 1e-6);
	CHECK(a.launch.dist[LAUNCH_CPU].p50 == 1000.0);
	CHECK(a.launch.dist[LAUNCH_GPU].p50 == 100000.0);
	CHECK(a.launch.dist[LAUNCH_GPU].max == 200000.0);
	rank_analysis_release(&a);
	profile_release(&p);
}

/* A summary before version 4: nothing present, nothing to release. */
static void test_old_summary(void)
{
	static const char v3[] = "proftui-summary\t3\ncats\t0\nend\n";
	struct profile p;
	struct rank_analysis a;
	struct strag_rank r;
	bool owned = true;

	CHECK_EQ(test_load(&p, test_write("v3.summary", v3, strlen(v3)), NULL, msg, sizeof(msg)), 0);
	rank_analysis_of(&p, &a);
	CHECK(!a.present);
	CHECK(!a.owned);
	rank_analysis_release(&a);
	rank_analysis_strag(&p, &r, &owned);
	CHECK(!owned);
	CHECK_EQ(r.nr_iters, 0);
	profile_release(&p);
}

const struct test tests[] = {
	{ "rank analysis: CPU-only trace", test_cpu_only },
	{ "rank analysis: two streams, by hand", test_two_streams },
	{ "rank analysis: a summary before version 4", test_old_summary },
	{ 0 },
};
