// SPDX-License-Identifier: MIT
/*
 * The per-kernel GPU breakdown (model/kernel_breakdown.c) on small traces
 * written here: no GPU work, one kernel, the figures of several calls,
 * every type and their order, ties, HTA's folding at its edges (10 names,
 * 11, a running sum exactly at the quantile), HTA's rounding and window on
 * request, a capped sum and a big trace in bounded time.
 */
#include <math.h>

#include "model/kernel_breakdown.h"
#include "model/strbuf.h"
#include "test.h"

static char msg[8192];

/* One GPU event: NAME of CAT at TS for DUR (µs, as the file writes
 * them), launched by a runtime call at LAUNCH (NULL: unlinked). */
struct ev {
	const char *name, *cat, *ts, *dur, *launch;
};

/* A Kineto trace of EVS (and STEPS ProfilerSteps of 1000 µs from 0). */
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
			    evs[i].cat, evs[i].name, evs[i].ts, evs[i].dur,
			    evs[i].launch ? i + 1 : 900000 + i);
	}
	strbuf_addstr(&b, "\n]}\n");
	rc = test_load(p, test_write("t.json", b.s, b.len), "kineto", msg, sizeof(msg));
	strbuf_release(&b);
	return rc;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static struct profile prof;
static bool loaded;

/* The breakdown of EVS under O; the profile stays loaded (the rows name
 * its strings) until finish(). */
static void compute(const struct ev *evs, size_t n, int steps, const struct kbreak_opts *o,
		    struct kbreak *b)
{
	if (loaded)
		profile_release(&prof);
	loaded = load_events(&prof, evs, n, steps) == 0;
	CHECK(loaded);
	if (!loaded) {
		*b = (struct kbreak){ 0 };
		return;
	}
	kbreak_compute(&prof, o, b);
}

static void finish(struct kbreak *b)
{
	kbreak_release(b);
	if (loaded)
		profile_release(&prof);
	loaded = false;
}

static const char *rname(const struct kbreak_row *r)
{
	return r->name ? r->name : "others";
}

static void test_no_gpu(void)
{
	struct kbreak b;

	compute(NULL, 0, 0, &KBREAK_OPTS_ALL, &b);
	CHECK_EQ(b.nr_events, 0);
	CHECK_EQ(b.nr, 0);
	finish(&b);
}

/* One event: every figure its duration; no standard deviation. */
static void test_one_kernel(void)
{
	static const struct ev evs[] = { { "gemm", "kernel", "100", "40", "90" } };
	struct kbreak b;

	compute(evs, NR(evs), 0, &KBREAK_OPTS_ALL, &b);
	CHECK_EQ(b.nr, 1);
	if (b.nr == 1) {
		CHECK_STR(b.rows[0].name, "gemm");
		CHECK_EQ(b.rows[0].type, KTYPE_COMPUTATION);
		CHECK_EQ(b.rows[0].calls, 1);
		CHECK_EQ(b.rows[0].sum_ns, 40000);
		CHECK_EQ(b.rows[0].max_ns, 40000);
		CHECK_EQ(b.rows[0].min_ns, 40000);
		CHECK_EQ(b.rows[0].mean_ns, 40000);
		CHECK(isnan(b.rows[0].stddev_ns));
	}
	finish(&b);
}

/* Calls of one name, overlapping in time: their own durations count
 * (no union); the types in HTA's order, OTHER last; equal sums by
 * name. */
static void test_figures_and_order(void)
{
	static const struct ev evs[] = {
		{ "gemm", "kernel", "100", "10", NULL },
		{ "gemm", "kernel", "105", "20", NULL },	/* overlaps the first */
		{ "gemm", "kernel", "200", "90", NULL },
		{ "Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", "300", "7", NULL },
		{ "ncclKernel_AllReduce", "kernel", "400", "5", NULL },
		{ "relu", "kernel", "500", "90", NULL },
		{ "add", "kernel", "600", "90", NULL },	/* ties relu: by name */
		{ "fooMemcpyKernel", "kernel", "700", "3", NULL },	/* OTHER */
		{ "Memset (Device)", "gpu_memset", "800", "0", NULL },
	};
	static const char *const order[] = { "ncclKernel_AllReduce", "gemm", "add", "relu",
					     "Memcpy HtoD (Pageable -> Device)", "Memset (Device)",
					     "fooMemcpyKernel" };
	struct kbreak b;

	compute(evs, NR(evs), 0, &KBREAK_OPTS_ALL, &b);
	CHECK_EQ(b.nr_events, NR(evs));
	CHECK_EQ(b.nr, NR(order));
	for (size_t i = 0; i < b.nr && i < NR(order); i++)
		CHECK_STR(rname(&b.rows[i]), order[i]);
	if (b.nr == NR(order)) {
		const struct kbreak_row *g = &b.rows[1];

		CHECK_EQ(b.rows[0].type, KTYPE_COMMUNICATION);
		CHECK_EQ(g->calls, 3);
		CHECK_EQ(g->sum_ns, 120000);
		CHECK_EQ(g->max_ns, 90000);
		CHECK_EQ(g->min_ns, 10000);
		CHECK_EQ(g->mean_ns, 40000);
		/* (10, 20, 90): deviations -30, -20, 50; 3800 / 2 = 1900 µs². */
		CHECK(fabs(g->stddev_ns - sqrt(1900.0) * 1000) < 1e-6);
		CHECK_EQ(b.rows[4].type, KTYPE_MEMORY);
		CHECK_EQ(b.rows[5].sum_ns, 0);
		CHECK_EQ(b.rows[6].type, KTYPE_OTHER);
	}
	finish(&b);
}

/* N kernels k00, k01... of DUR[i] µs, folded with HTA's defaults. */
static void fold_case(const int *dur, size_t n, struct kbreak *b)
{
	static char names[32][24], durs[32][24], ts[32][24];
	struct ev evs[32];
	struct kbreak_opts o = KBREAK_OPTS_ALL;

	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "k%02zu", i);
		snprintf(durs[i], sizeof(durs[i]), "%d", dur[i]);
		snprintf(ts[i], sizeof(ts[i]), "%zu", 1000 * i);
		evs[i] = (struct ev){ names[i], "kernel", ts[i], durs[i], NULL };
	}
	o.fold_kernels = 10;
	o.fold_pct = 80;
	compute(evs, n, 0, &o, b);
}

/* Exactly 10 names: nothing is folded, whatever the running sums. */
static void test_fold_ten(void)
{
	static const int dur[10] = { 1000, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct kbreak b;

	fold_case(dur, NR(dur), &b);
	CHECK_EQ(b.nr, 10);
	for (size_t i = 0; i < b.nr; i++)
		CHECK(b.rows[i].name != NULL);
	finish(&b);
}

/* 11 names of equal sums 10: running sums 10..110, q = c[8] = 90; the
 * rows with c > 90 (the 10th and 11th) fold; a running sum equal to q
 * stays.  Kept rows' figures are their sums, others' over the sums. */
static void test_fold_eleven(void)
{
	static const int dur[11] = { 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10 };
	struct kbreak b;

	fold_case(dur, NR(dur), &b);
	CHECK_EQ(b.nr, 10);
	if (b.nr == 10) {
		CHECK_STR(rname(&b.rows[8]), "k08");	/* c = 90 = q: kept */
		CHECK_EQ(b.rows[8].nr_values, 1);
		CHECK_EQ(b.rows[8].max_ns, 10000);
		CHECK(isnan(b.rows[8].stddev_ns));
		CHECK_STR(rname(&b.rows[9]), "others");
		CHECK_EQ(b.rows[9].calls, 2);
		CHECK_EQ(b.rows[9].nr_values, 2);
		CHECK_EQ(b.rows[9].sum_ns, 20000);
		CHECK_EQ(b.rows[9].mean_ns, 10000);
		CHECK_EQ(b.rows[9].stddev_ns, 0);
	}
	finish(&b);
}

/* The quantile between two running sums: 12 names, sums 100, 50, 20,
 * 10 x 9; running sums 100 150 170 180 ... 260, h = 11 * 0.8 = 8.8:
 * q = 230 + 0.8 * 10 = 238.  Rows 0..8 (c <= 230) stay by the sum, row 9
 * (c = 240 > 238) folds, and so does row 11 by position. */
static void test_fold_interpolated(void)
{
	static const int dur[12] = { 100, 50, 20, 10, 10, 10, 10, 10, 10, 10, 10, 10 };
	struct kbreak b;

	fold_case(dur, NR(dur), &b);
	CHECK_EQ(b.nr, 10);
	if (b.nr == 10) {
		CHECK_STR(rname(&b.rows[0]), "k00");
		CHECK_STR(rname(&b.rows[8]), "k08");
		CHECK_STR(rname(&b.rows[9]), "others");
		CHECK_EQ(b.rows[9].calls, 3);
		CHECK_EQ(b.rows[9].sum_ns, 30000);
	}
	finish(&b);
}

/* Fractional timestamps: exact durations; HTA's rounding on request
 * (ceil the start, floor the end: a 0.4 µs kernel lasts -1 µs). */
static void test_rounding(void)
{
	static const struct ev evs[] = {
		{ "k", "kernel", "10.5", "2.25", NULL },
		{ "k", "kernel", "20.3", "0.4", NULL },
	};
	struct kbreak b;
	struct kbreak_opts o = KBREAK_OPTS_ALL;

	compute(evs, NR(evs), 0, &KBREAK_OPTS_ALL, &b);
	CHECK_EQ(b.nr, 1);
	if (b.nr == 1) {
		CHECK_EQ(b.rows[0].sum_ns, 2650);
		CHECK_EQ(b.rows[0].min_ns, 400);
	}
	finish(&b);
	o.t.round_like_hta = true;
	compute(evs, NR(evs), 0, &o, &b);
	CHECK_EQ(b.nr, 1);
	if (b.nr == 1) {
		CHECK_EQ(b.rows[0].max_ns, 1000);	/* [11, 12) */
		CHECK_EQ(b.rows[0].min_ns, -1000);	/* [21, 20) */
		CHECK_EQ(b.rows[0].sum_ns, 0);
	}
	finish(&b);
}

/* HTA's window: the work launched before the last step only. */
static void test_window(void)
{
	static const struct ev evs[] = {
		{ "a", "kernel", "100", "50", "10" },
		{ "a", "kernel", "1100", "50", "1010" },	/* launched in step 2 */
		{ "orphan", "kernel", "300", "10", NULL },
	};
	struct kbreak b;
	struct kbreak_opts o = KBREAK_OPTS_ALL;

	compute(evs, NR(evs), 2, &KBREAK_OPTS_ALL, &b);
	CHECK_EQ(b.nr_events, 3);
	finish(&b);
	o.t.launched_before_ns = 1000 * 1000;
	compute(evs, NR(evs), 2, &o, &b);
	CHECK_EQ(b.nr_events, 1);
	CHECK_EQ(b.nr, 1);
	if (b.nr == 1)
		CHECK_EQ(b.rows[0].calls, 1);
	finish(&b);
}

/* Sync events ran on no stream: not taken. */
static void test_sync_not_taken(void)
{
	static const struct ev evs[] = {
		{ "k", "kernel", "100", "5", NULL },
		{ "Stream Sync", "cuda_sync", "200", "50", NULL },
	};
	struct kbreak b;

	compute(evs, NR(evs), 0, &KBREAK_OPTS_ALL, &b);
	CHECK_EQ(b.nr, 1);
	if (b.nr == 1)
		CHECK_STR(b.rows[0].name, "k");
	finish(&b);
}

/* 2,400 calls of the longest duration a file may give (bounds.h,
 * 10^15 ns): their sum passes SUM_CAP and is capped and counted; the mean
 * stays exact. */
static void test_capped(void)
{
	enum { N = 2400 };
	struct strbuf s = STRBUF_INIT;
	struct profile p;
	struct kbreak b;

	strbuf_addstr(&s, "{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
			  "\"op\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1}");
	for (int i = 0; i < N; i++)
		strbuf_addf(&s, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\", \"pid\": "
				"0, \"tid\": 7, \"ts\": %d, \"dur\": 1000000000000, \"args\": "
				"{\"stream\": 7, \"correlation\": %d}}",
			    i, i + 1);
	strbuf_addstr(&s, "\n]}\n");
	CHECK_EQ(test_load(&p, test_write("cap.json", s.s, s.len), "kineto", msg, sizeof(msg)), 0);
	strbuf_release(&s);
	kbreak_compute(&p, &KBREAK_OPTS_ALL, &b);
	CHECK_EQ(b.nr, 1);
	CHECK(b.nr_capped > 0);
	if (b.nr == 1) {
		CHECK(sum_capped(b.rows[0].sum_ns));
		CHECK_EQ(b.rows[0].calls, N);
		CHECK_EQ(b.rows[0].mean_ns, 1000000000000000LL);
	}
	kbreak_release(&b);
	profile_release(&p);
}

/* 200,000 kernels of 1,000 names in bounded time. */
static void test_big(void)
{
	enum { N = 200000 };
	struct strbuf s = STRBUF_INIT;
	struct profile p;
	struct kbreak b;
	double t0;

	strbuf_addstr(&s, "{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
			  "\"op\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1}");
	for (int i = N - 1; i >= 0; i--)
		strbuf_addf(&s, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": "
				"0, \"tid\": 7, \"ts\": %d, \"dur\": %d, \"args\": {\"stream\": 7, "
				"\"correlation\": %d}}",
			    i % 1000, 2 * i, 1 + i % 7, i + 1);
	strbuf_addstr(&s, "\n]}\n");
	CHECK_EQ(test_load(&p, test_write("big.json", s.s, s.len), "kineto", msg, sizeof(msg)), 0);
	strbuf_release(&s);
	t0 = test_cpu_s();
	kbreak_compute(&p, &KBREAK_OPTS_ALL, &b);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(b.nr_events, N);
	CHECK_EQ(b.nr, 1000);
	for (size_t i = 0; i < b.nr; i++)
		CHECK_EQ(b.rows[i].calls, N / 1000);
	kbreak_release(&b);
	profile_release(&p);
}

const struct test tests[] = {
	{ "kernel breakdown: no GPU work", test_no_gpu },
	{ "kernel breakdown: one kernel (no stddev)", test_one_kernel },
	{ "kernel breakdown: figures, types in order, ties by name", test_figures_and_order },
	{ "kernel breakdown: HTA's folding, exactly 10 names", test_fold_ten },
	{ "kernel breakdown: HTA's folding, 11 names, a running sum at the quantile",
	  test_fold_eleven },
	{ "kernel breakdown: HTA's folding, an interpolated quantile", test_fold_interpolated },
	{ "kernel breakdown: exact durations, HTA's rounding on request", test_rounding },
	{ "kernel breakdown: HTA's window of launches", test_window },
	{ "kernel breakdown: sync events are not taken", test_sync_not_taken },
	{ "kernel breakdown: a capped sum", test_capped },
	{ "kernel breakdown: 200,000 kernels in bounded time", test_big },
	{ 0 },
};
