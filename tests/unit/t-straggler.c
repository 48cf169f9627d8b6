// SPDX-License-Identifier: MIT
/*
 * HTA's straggler test (model/straggler.c) on a job of four ranks written
 * here, each of three ProfilerSteps of 1000 µs, where rank 2 starts its
 * all-reduce late; the expected marks worked out by hand below.  Also: the
 * 1% filter, a job without ncclKernel work, one rank alone, iteration 0.
 */
#include <math.h>

#include "model/straggler.h"
#include "model/strbuf.h"
#include "test.h"

static char msg[8192];

/* One kernel: NAME on STREAM in step IT (1-based) at OFF µs into it for
 * DUR µs, launched 10 µs into the step. */
struct k {
	const char *name;
	int stream, it, off, dur;
};

static int load_rank(struct profile *p, int rank, const struct k *ks, size_t n, int first_step)
{
	struct strbuf b = STRBUF_INIT;
	char file[32];
	int rc;

	strbuf_addf(&b, "{\"distributedInfo\": {\"rank\": %d, \"world_size\": 4}, "
			"\"traceEvents\": [\n", rank);
	strbuf_addstr(&b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op\", \"pid\": 1, "
			  "\"tid\": 1, \"ts\": 0, \"dur\": 5}");
	for (int s = first_step; s <= 3; s++)
		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
				"\"ProfilerStep#%d\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1000}",
			    s, (s - first_step) * 1000);
	for (size_t i = 0; i < n; i++) {
		int base = (ks[i].it - first_step) * 1000;

		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
				"\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1, "
				"\"args\": {\"correlation\": %zu}}", base + 10 + (int)i % 50, i + 1);
		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, "
				"\"tid\": %d, \"ts\": %d, \"dur\": %d, \"args\": {\"device\": 0, "
				"\"stream\": %d, \"correlation\": %zu}}",
			    ks[i].name, ks[i].stream, base + ks[i].off, ks[i].dur, ks[i].stream, i + 1);
	}
	strbuf_addstr(&b, "\n]}\n");
	snprintf(file, sizeof(file), "r%d.json", rank);
	rc = test_load(p, test_write(file, b.s, b.len), "kineto", msg, sizeof(msg));
	strbuf_release(&b);
	return rc;
}

#define AR "ncclKernel_AllReduce_RING_LL_Sum_float"
#define BC "ncclKernel_Broadcast_RING_LL_Sum_float"
#define NR(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The all-reduce on stream 20 starts, per iteration, at
 *            it 1  it 2  it 3
 *   rank 0    500   500   500
 *   rank 1    510   510   510
 *   rank 2    600   600   600    (the late one; the others wait: longer)
 *   rank 3    505   520   505    (it 2: a first all-reduce at 100, then this)
 * so the two latest (metric >= the 2nd largest) are ranks 2 and 1, then
 * 2 and 3, then 2 and 1: marked 0, 2, 3, 1 times; stragglers 2 and 1.
 * Every step counts, the last one too (the departure from HTA, which
 * leaves it out and would count 0, 1, 2, 1).
 * Durations 300, 290, 200, 295: their spread across ranks is the
 * largest.  The broadcast on stream 21 lasts 50 everywhere (no spread) but
 * starts late on rank 0: tested instead, it would mark rank 0.  The
 * compute kernel and a 5 µs ncclKernel (below 1% of the 1000 µs mean
 * iteration, spread 5 to 9) are not candidates.
 */
static void job(struct profile *p, bool dup)
{
	static const int start[4][3] = {
		{ 500, 500, 500 }, { 510, 510, 510 }, { 600, 600, 600 }, { 505, 520, 505 }
	};
	static const int dur[4] = { 300, 290, 200, 295 };

	for (int r = 0; r < 4; r++) {
		struct k ks[16];
		size_t n = 0;

		for (int it = 1; it <= 3; it++) {
			if (dup && r == 3 && it == 2)
				ks[n++] = (struct k){ AR, 20, it, 100, dur[r] };
			ks[n++] = (struct k){ AR, 20, it, start[r][it - 1], dur[r] };
			ks[n++] = (struct k){ BC, 21, it, r == 0 ? 900 : 850, 50 };
			ks[n++] = (struct k){ "ncclKernel_tiny", 22, it, 100, 5 + r };
		}
		ks[n++] = (struct k){ "volta_sgemm_128x64_nn", 7, 1, 20, 400 };
		CHECK_EQ(load_rank(&p[r], r, ks, n, 1), 0);
	}
}

static void run_job(bool dup, struct stragglers *s, struct profile *p)
{
	struct strag_rank r[4];
	const struct strag_rank *rp[4];

	job(p, dup);
	for (int k = 0; k < 4; k++) {
		strag_rank_of(&p[k], &r[k]);
		rp[k] = &r[k];
	}
	CHECK(stragglers_compute(rp, 4, STRAG_NUM_CANDIDATES, s));
	for (int k = 0; k < 4; k++)
		strag_rank_release(&r[k]);
}

static void test_late_rank(void)
{
	struct profile p[4];
	struct stragglers s;

	run_job(true, &s, p);
	CHECK_EQ(s.nr_iters, 3);
	CHECK_EQ(s.mean_iter_ns, 1000000);
	CHECK_STR(s.kernel ? s.kernel : "(none)", AR);
	CHECK_EQ(s.stream, 20);
	CHECK_EQ(s.marked[0], 0);
	CHECK_EQ(s.marked[1], 2);
	CHECK_EQ(s.marked[2], 3);
	CHECK_EQ(s.marked[3], 1);
	CHECK(!s.is_straggler[0] && s.is_straggler[1] && s.is_straggler[2] && !s.is_straggler[3]);
	stragglers_release(&s);
	for (int k = 0; k < 4; k++)
		profile_release(&p[k]);
}

/* Without rank 3's first all-reduce of iteration 2 the marks are the
 * same: the test keeps the last of a (rank, stream, iteration, name). */
static void test_last_of_duplicates(void)
{
	struct profile p[4];
	struct stragglers s;

	run_job(false, &s, p);
	CHECK_EQ(s.marked[1], 2);
	CHECK_EQ(s.marked[3], 1);
	stragglers_release(&s);
	for (int k = 0; k < 4; k++)
		profile_release(&p[k]);
}

static void test_rank_data(void)
{
	struct profile p;
	struct strag_rank r;
	static const struct k ks[] = {
		{ AR, 20, 1, 500, 300 }, { AR, 0, 1, 500, 300 },	/* stream 0: no */
		{ "volta_sgemm", 7, 2, 500, 900 },	/* ends at 2400 */
	};

	CHECK_EQ(load_rank(&p, 0, ks, NR(ks), 1), 0);
	strag_rank_of(&p, &r);
	CHECK_EQ(r.nr_iters, 3);
	CHECK_EQ(r.iters[0].iteration, 1);
	CHECK_EQ(r.iters[0].start_ns, 0);
	CHECK_EQ(r.iters[0].end_ns, 1000000);
	CHECK_EQ(r.iters[1].end_ns, 2400000);	/* a kernel launched in it */
	CHECK_EQ(r.nr_kernels, 1);
	CHECK_EQ(r.kernels[0].iteration, 1);
	CHECK_EQ(r.kernels[0].stream, 20);
	CHECK_EQ(r.kernels[0].start_ns, 500000);
	CHECK_EQ(r.kernels[0].dur_ns, 300000);
	strag_rank_release(&r);
	profile_release(&p);
}

/* Iteration 0 counts in the mean iteration time, not in the candidates. */
static void test_iteration_zero(void)
{
	struct profile p;
	struct strag_rank r;
	static const struct k ks[] = { { AR, 20, 0, 500, 300 }, { AR, 20, 1, 500, 300 } };

	CHECK_EQ(load_rank(&p, 0, ks, NR(ks), 0), 0);
	strag_rank_of(&p, &r);
	CHECK_EQ(r.nr_iters, 4);
	CHECK_EQ(r.nr_kernels, 1);
	CHECK_EQ(r.kernels[0].iteration, 1);
	strag_rank_release(&r);
	profile_release(&p);
}

static void test_none(void)
{
	struct profile p[2];
	struct strag_rank r[2];
	const struct strag_rank *rp[2] = { &r[0], &r[1] };
	struct stragglers s;
	/* Only kernels under 1% of the mean iteration, and a compute one. */
	static const struct k ks[] = { { "ncclKernel_tiny", 20, 1, 100, 5 },
				       { "volta_sgemm", 7, 1, 200, 500 } };

	for (int k = 0; k < 2; k++) {
		CHECK_EQ(load_rank(&p[k], k, ks, NR(ks), 1), 0);
		strag_rank_of(&p[k], &r[k]);
	}
	CHECK(!stragglers_compute(rp, 2, STRAG_NUM_CANDIDATES, &s));
	CHECK(s.kernel == NULL);
	CHECK(!s.is_straggler[0] && !s.is_straggler[1]);
	stragglers_release(&s);
	/* One rank: no spread across ranks, no kernel tested. */
	CHECK(!stragglers_compute(rp, 1, STRAG_NUM_CANDIDATES, &s));
	stragglers_release(&s);
	/* No rank at all. */
	CHECK(!stragglers_compute(rp, 0, STRAG_NUM_CANDIDATES, &s));
	stragglers_release(&s);
	for (int k = 0; k < 2; k++) {
		strag_rank_release(&r[k]);
		profile_release(&p[k]);
	}
}

const struct test tests[] = {
	{ "straggler: the late rank of four, by hand", test_late_rank },
	{ "straggler: the last of duplicate kernels", test_last_of_duplicates },
	{ "straggler: a rank's iterations and candidates", test_rank_data },
	{ "straggler: iteration 0", test_iteration_zero },
	{ "straggler: nothing to test", test_none },
	{ 0 },
};
