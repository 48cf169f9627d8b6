// SPDX-License-Identifier: MIT
/*
 * The temporal breakdown and the kernel-types table (model/temporal.c) on
 * small traces written here: no GPU work, one kernel, overlapping and
 * touching kernels, every type at once, fractional timestamps (exact here,
 * rounded as HTA rounds them on request), HTA's window, a capped sum and
 * a big trace in bounded time.
 */
#include <math.h>

#include "model/strbuf.h"
#include "model/temporal.h"
#include "test.h"

static char msg[8192];

/* One GPU event of a trace: NAME of CAT at TS for DUR (µs, as the file
 * writes them), launched by a runtime call at LAUNCH (NULL: unlinked). */
struct ev {
	const char *name, *cat, *ts, *dur, *launch;
};

/* A Kineto trace of EVS (and STEPS ProfilerSteps of 1000 µs from 0),
 * loaded into P. */
static int load_events(struct profile *p, const struct ev *evs, size_t n, int steps)
{
	struct strbuf b = STRBUF_INIT;
	int rc;

	strbuf_addstr(&b, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	strbuf_addstr(&b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op\", \"pid\": 1, "
			  "\"tid\": 1, \"ts\": 0, \"dur\": 1}");
	for (int s = 0; s < steps; s++)
		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
				"\"ProfilerStep#%d\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1000}",
			    s + 1, s * 1000);
	for (size_t i = 0; i < n; i++) {
		if (evs[i].launch)
			strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
					"\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %s, \"dur\": 1, "
					"\"args\": {\"correlation\": %zu}}",
				    evs[i].launch, i + 1);
		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 0, "
				"\"tid\": 7, \"ts\": %s, \"dur\": %s, \"args\": {\"device\": 0, "
				"\"stream\": 7, \"correlation\": %zu}}",
			    evs[i].cat, evs[i].name, evs[i].ts, evs[i].dur, evs[i].launch ? i + 1 : 900000 + i);
	}
	strbuf_addstr(&b, "\n]}\n");
	rc = test_load(p, test_write("t.json", b.s, b.len), "kineto", msg, sizeof(msg));
	strbuf_release(&b);
	return rc;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void compute(const struct ev *evs, size_t n, int steps, const struct temporal_opts *o,
		    struct temporal *t)
{
	struct profile p;

	CHECK_EQ(load_events(&p, evs, n, steps), 0);
	temporal_compute(&p, o, t);
	profile_release(&p);
}

static void test_no_gpu(void)
{
	struct temporal t;

	compute(NULL, 0, 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.nr_events, 0);
	CHECK_EQ(t.kernel_ns, 0);
	CHECK_EQ(t.idle_ns, 0);
	CHECK_EQ(t.classes_total_ns, 0);
	CHECK(isnan(temporal_pct(t.idle_ns, t.kernel_ns)));
}

static void test_one_kernel(void)
{
	static const struct ev evs[] = { { "gemm", "kernel", "100", "40", "90" } };
	struct temporal t;

	compute(evs, NR(evs), 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.nr_events, 1);
	CHECK_EQ(t.kernel_ns, 40000);
	CHECK_EQ(t.idle_ns, 0);
	CHECK_EQ(t.compute_ns, 40000);
	CHECK_EQ(t.non_compute_ns, 0);
	CHECK_EQ(t.class_ns[KTYPE_COMPUTATION], 40000);
	CHECK_EQ(t.classes_total_ns, 40000);
	CHECK(temporal_pct(t.compute_ns, t.kernel_ns) == 100.0);
}

/* Two overlapping kernels, a gap, a copy under a collective, a sync-like
 * OTHER kernel alone at the end. */
static void test_mix(void)
{
	static const struct ev evs[] = {
		{ "gemm", "kernel", "0", "100", "0" },
		{ "relu", "kernel", "50", "100", "1" },
		{ "Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", "200", "60", "2" },
		{ "ncclKernel_AllReduce", "kernel", "240", "160", "3" },
		{ "fused_Memcpy_like", "kernel", "400", "30", "4" },
	};
	struct temporal t;

	compute(evs, NR(evs), 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.nr_events, 5);
	CHECK_EQ(t.nr_by_type[KTYPE_COMPUTATION], 2);
	CHECK_EQ(t.nr_by_type[KTYPE_OTHER], 1);
	CHECK_EQ(t.kernel_ns, 430000);
	/* Busy: [0, 150) and [200, 430), touching at 400. */
	CHECK_EQ(t.busy_ns, 380000);
	CHECK_EQ(t.idle_ns, 50000);
	CHECK_EQ(t.compute_ns, 150000);
	CHECK_EQ(t.non_compute_ns, 230000);
	CHECK_EQ(t.class_ns[KTYPE_COMPUTATION], 150000);
	CHECK_EQ(t.class_ns[KTYPE_MEMORY], 40000);
	CHECK_EQ(t.class_ns[KTYPE_COMMUNICATION | KTYPE_MEMORY], 20000);
	CHECK_EQ(t.class_ns[KTYPE_COMMUNICATION], 140000);
	CHECK_EQ(t.class_ns[KTYPE_COMPUTATION | KTYPE_MEMORY], 0);
	/* OTHER's 30 µs counts in no class. */
	CHECK_EQ(t.classes_total_ns, 350000);
	CHECK_STR(temporal_class_name(KTYPE_COMMUNICATION | KTYPE_MEMORY),
		  "COMMUNICATION overlapping MEMORY");
	CHECK_STR(temporal_class_name(7),
		  "COMPUTATION overlapping COMMUNICATION overlapping MEMORY");
}

/* Touching intervals merge into one; a kernel inside another adds
 * nothing; the three types at once make the class of all three. */
static void test_touching_and_all_three(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "0", "100", "0" },
		{ "b", "kernel", "100", "100", "1" },
		{ "c", "kernel", "20", "10", "2" },
		{ "nccl_x", "kernel", "150", "20", "3" },
		{ "Memset (Device)", "gpu_memset", "160", "5", "4" },
	};
	struct temporal t;

	compute(evs, NR(evs), 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.kernel_ns, 200000);
	CHECK_EQ(t.idle_ns, 0);
	CHECK_EQ(t.compute_ns, 200000);
	CHECK_EQ(t.non_compute_ns, 0);
	CHECK_EQ(t.class_ns[7], 5000);
	CHECK_EQ(t.class_ns[KTYPE_COMPUTATION | KTYPE_COMMUNICATION], 15000);
	CHECK_EQ(t.class_ns[KTYPE_COMPUTATION], 180000);
	CHECK_EQ(t.classes_total_ns, 200000);
}

/* Sub-µs events: exact in nanoseconds here; HTA's rounding (ceil the
 * start, floor the end) makes one empty and one of -1 µs. */
static void test_fractional_departure(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "10.5", "1.2", "1" },
		{ "b", "kernel", "20.25", "0.5", "2" },
	};
	struct temporal t;
	struct temporal_opts hta = TEMPORAL_OPTS_ALL;

	compute(evs, NR(evs), 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.kernel_ns, 10250);
	CHECK_EQ(t.compute_ns, 1700);
	CHECK_EQ(t.idle_ns, 8550);
	hta.round_like_hta = true;
	compute(evs, NR(evs), 0, &hta, &t);
	/* [11, 11) and [21, 20): kernel time 20 - 11, the union 0 + -1. */
	CHECK_EQ(t.kernel_ns, 9000);
	CHECK_EQ(t.compute_ns, -1000);
	CHECK_EQ(t.idle_ns, 10000);
	CHECK_EQ(t.non_compute_ns, 0);
}

/* At epoch times HTA's float64 µs are 0.25 µs coarse: this kernel's
 * exact floor(ts + dur) is 506186, HTA's (ts rounds down to ...185.0)
 * ceil 506185 and floor 506186, 1 µs where the exact rounding gives 0. */
static void test_hta_float(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "1712195495506185.032", "1.376", "1712195495506180" },
	};
	struct temporal t;
	struct temporal_opts hta = TEMPORAL_OPTS_ALL;

	compute(evs, NR(evs), 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.kernel_ns, 1376);
	hta.round_like_hta = true;
	compute(evs, NR(evs), 0, &hta, &t);
	CHECK_EQ(t.kernel_ns, 1000);
	CHECK_EQ(t.compute_ns, 1000);
}

/* What HTA counts as GPU work and proftui does not: a cuda_sync event (a
 * wait, with a stream) and a host op whose args carry a stream (Triton's
 * launcher).  Only the kernel counts here. */
static void test_not_gpu_work(void)
{
	static const struct ev evs[] = {
		{ "k", "kernel", "100", "10", "90" },
		{ "Context Sync", "cuda_sync", "100", "500", "95" },
		{ "triton_poi_fused_0", "cpu_op", "50", "200", NULL },
	};
	struct temporal t;

	compute(evs, NR(evs), 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.nr_events, 1);
	CHECK_EQ(t.kernel_ns, 10000);
	CHECK_EQ(t.idle_ns, 0);
	CHECK_EQ(t.compute_ns, 10000);
}

/* A step picked: the work that meets the window, clipped to it; a
 * zero-length event inside counts, one at the window's end does not. */
static void test_step_window(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "50", "100", "40" },	/* clipped to [100, 150) */
		{ "b", "kernel", "180", "40", "170" },	/* clipped to [180, 200) */
		{ "Memset (Device)", "gpu_memset", "120", "0", "110" },
		{ "c", "kernel", "200", "10", "190" },	/* starts at the end: out */
		{ "d", "kernel", "10", "90", "5" },	/* ends at the start: out */
	};
	struct temporal t;
	struct temporal_opts o = TEMPORAL_OPTS_ALL;

	o.has_window = true;
	o.window_start_ns = 100000;
	o.window_end_ns = 200000;
	compute(evs, NR(evs), 0, &o, &t);
	CHECK_EQ(t.nr_events, 3);
	CHECK_EQ(t.kernel_ns, 100000);
	CHECK_EQ(t.busy_ns, 70000);
	CHECK_EQ(t.idle_ns, 30000);
	CHECK_EQ(t.compute_ns, 70000);
	o.window_end_ns = o.window_start_ns;	/* an empty window: nothing */
	compute(evs, NR(evs), 0, &o, &t);
	CHECK_EQ(t.nr_events, 0);
}

/* A range of time narrows the window: alone, it is the window; with a
 * step's, the part in both; apart from it, an empty window. */
static void test_range_narrows(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "50", "100", "40" },	/* [50, 150) */
		{ "b", "kernel", "180", "40", "170" },	/* [180, 220) */
	};
	struct temporal t;
	struct temporal_opts o = TEMPORAL_OPTS_ALL;

	/* [120, 200): a's 30 us, then 30 us idle, b's 20 us. */
	temporal_opts_narrow(&o, 120000, 200000);
	CHECK(o.has_window);
	compute(evs, NR(evs), 0, &o, &t);
	CHECK_EQ(t.nr_events, 2);
	CHECK_EQ(t.kernel_ns, 80000);
	CHECK_EQ(t.idle_ns, 30000);
	CHECK_EQ(t.compute_ns, 50000);
	/* A step [100, 190) and the range [120, 200): [120, 190). */
	o = TEMPORAL_OPTS_ALL;
	o.has_window = true;
	o.window_start_ns = 100000;
	o.window_end_ns = 190000;
	temporal_opts_narrow(&o, 120000, 200000);
	CHECK_EQ(o.window_start_ns, 120000);
	CHECK_EQ(o.window_end_ns, 190000);
	compute(evs, NR(evs), 0, &o, &t);
	CHECK_EQ(t.kernel_ns, 70000);
	CHECK_EQ(t.compute_ns, 40000);
	/* A range apart from the step: nothing. */
	temporal_opts_narrow(&o, 300000, 400000);
	CHECK(o.window_end_ns <= o.window_start_ns);
	compute(evs, NR(evs), 0, &o, &t);
	CHECK_EQ(t.nr_events, 0);
}

/* HTA's window: only work launched before the last step's start, and
 * none that no runtime call launched. */
static void test_window(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "100", "50", "10" },
		{ "b", "kernel", "990", "50", "900" },	/* launched in step 1, runs in 2 */
		{ "c", "kernel", "1100", "50", "1010" },	/* launched in step 2 */
		{ "orphan", "kernel", "300", "10", NULL },
	};
	struct temporal t;
	struct temporal_opts o = TEMPORAL_OPTS_ALL;

	compute(evs, NR(evs), 2, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.nr_events, 4);
	CHECK_EQ(t.kernel_ns, 1050000);
	o.launched_before_ns = 1000 * 1000;	/* the profile's clock: ts in ns */
	compute(evs, NR(evs), 2, &o, &t);
	CHECK_EQ(t.nr_events, 2);
	CHECK_EQ(t.kernel_ns, 940000);
	CHECK_EQ(t.busy_ns, 100000);
}

/* Two kernels 9e18 ns apart: kernel time passes SUM_CAP and is capped,
 * counted, and gives no percentage. */
static void test_capped(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "-4500000000000000", "10", "-4500000000000000" },
		{ "b", "kernel", "4500000000000000", "10", "4500000000000000" },
	};
	struct temporal t;

	compute(evs, NR(evs), 0, &TEMPORAL_OPTS_ALL, &t);
	CHECK_EQ(t.nr_events, 2);
	CHECK(sum_capped(t.kernel_ns));
	CHECK(t.nr_capped > 0);
	CHECK(isnan(temporal_pct(t.idle_ns, t.kernel_ns)));
	CHECK_EQ(t.compute_ns, 20000);
}

/* 200,000 kernels in reverse order of start, each overlapping the next:
 * the sort and sweeps are O(n log n), well inside the bound. */
static void test_big(void)
{
	enum { N = 200000 };
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	struct temporal t;
	double t0;

	strbuf_addstr(&b, "{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
			  "\"op\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1}");
	for (int i = N - 1; i >= 0; i--)
		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": "
				"0, \"tid\": 7, \"ts\": %d, \"dur\": 3, \"args\": {\"stream\": 7, "
				"\"correlation\": %d}}",
			    i % 3 ? "k" : "Memcpy DtoD", 2 * i, i + 1);
	strbuf_addstr(&b, "\n]}\n");
	CHECK_EQ(test_load(&p, test_write("big.json", b.s, b.len), "kineto", msg, sizeof(msg)), 0);
	strbuf_release(&b);
	t0 = test_cpu_s();
	temporal_compute(&p, &TEMPORAL_OPTS_ALL, &t);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(t.nr_events, N);
	CHECK_EQ(t.kernel_ns, (2LL * (N - 1) + 3) * 1000);
	CHECK_EQ(t.idle_ns, 0);
	profile_release(&p);
}

const struct test tests[] = {
	{ "temporal: no GPU work", test_no_gpu },
	{ "temporal: one kernel", test_one_kernel },
	{ "temporal: overlapping kernels, gaps, every type", test_mix },
	{ "temporal: touching intervals merge, three types at once", test_touching_and_all_three },
	{ "temporal: fractional timestamps exact, HTA's rounding on request",
	  test_fractional_departure },
	{ "temporal: HTA's float64 rounding at epoch times", test_hta_float },
	{ "temporal: sync events and host ops with a stream are not GPU work", test_not_gpu_work },
	{ "temporal: a step's window clips the work", test_step_window },
	{ "temporal: a range of time narrows the window", test_range_narrows },
	{ "temporal: HTA's window of launches", test_window },
	{ "temporal: a capped kernel time", test_capped },
	{ "temporal: 200,000 kernels in bounded time", test_big },
	{ 0 },
};
