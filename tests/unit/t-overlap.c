// SPDX-License-Identifier: MIT
/*
 * The comm/comp overlap (model/overlap.c) on small traces written here: no
 * GPU work, a CPU-only trace, communication alone, communication inside
 * computation, partly over it, touching it, on two streams, with memory
 * work over both, and a capped sum.
 */
#include <math.h>

#include "model/overlap.h"
#include "model/strbuf.h"
#include "test.h"

static char msg[8192];

/* A GPU event: NAME at TS for DUR µs on STREAM. */
struct ev {
	const char *name;
	int ts, dur, stream;
};

static int load_events(struct profile *p, const struct ev *evs, size_t n)
{
	struct strbuf b = STRBUF_INIT;
	int rc;

	strbuf_addstr(&b, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	strbuf_addstr(&b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op\", \"pid\": 1, "
			  "\"tid\": 1, \"ts\": 0, \"dur\": 5}");
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
				"\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %zu, \"dur\": 1, "
				"\"args\": {\"correlation\": %zu}}", i + 10, i + 1);
		strbuf_addf(&b, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, "
				"\"tid\": %d, \"ts\": %d, \"dur\": %d, \"args\": {\"device\": 0, "
				"\"stream\": %d, \"correlation\": %zu}}",
			    evs[i].name, evs[i].stream, evs[i].ts, evs[i].dur, evs[i].stream, i + 1);
	}
	strbuf_addstr(&b, "\n]}\n");
	rc = test_load(p, test_write("t.json", b.s, b.len), "kineto", msg, sizeof(msg));
	strbuf_release(&b);
	return rc;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void compute(const struct ev *evs, size_t n, struct overlap *o)
{
	struct profile p;
	struct temporal t;

	CHECK_EQ(load_events(&p, evs, n), 0);
	temporal_compute(&p, &TEMPORAL_OPTS_ALL, &t);
	overlap_of(&t, o);
	profile_release(&p);
}

#define COMM "ncclKernel_AllReduce_RING_LL_Sum_float"
#define COMP "volta_sgemm_128x64_nn"
#define MEM "Memcpy DtoD (Device -> Device)"

static void test_no_gpu(void)
{
	struct overlap o;

	compute(NULL, 0, &o);
	CHECK_EQ(o.comm_ns, 0);
	CHECK_EQ(o.both_ns, 0);
	CHECK(isnan(overlap_pct(&o)));
}

static void test_cpu_only(void)
{
	struct profile p;
	struct temporal t;
	struct overlap o;
	static const char trace[] =
		"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 50}]}\n";

	CHECK_EQ(test_load(&p, test_write("c.json", trace, sizeof(trace) - 1), "kineto", msg,
			   sizeof(msg)), 0);
	temporal_compute(&p, &TEMPORAL_OPTS_ALL, &t);
	overlap_of(&t, &o);
	CHECK(isnan(overlap_pct(&o)));
	profile_release(&p);
}

static void test_comp_only(void)
{
	static const struct ev evs[] = { { COMP, 100, 40, 7 } };
	struct overlap o;

	compute(evs, NR(evs), &o);
	CHECK_EQ(o.comp_ns, 40000);
	CHECK_EQ(o.comm_ns, 0);
	CHECK(isnan(overlap_pct(&o)));	/* HTA: 0/0, null */
}

static void test_comm_alone(void)
{
	static const struct ev evs[] = { { COMM, 100, 40, 7 }, { COMP, 200, 10, 8 } };
	struct overlap o;

	compute(evs, NR(evs), &o);
	CHECK_EQ(o.comm_ns, 40000);
	CHECK_EQ(o.both_ns, 0);
	CHECK(overlap_pct(&o) == 0.0);
}

static void test_inside(void)
{
	/* The collective on its own stream, wholly under a GEMM. */
	static const struct ev evs[] = { { COMP, 100, 100, 7 }, { COMM, 120, 30, 20 } };
	struct overlap o;

	compute(evs, NR(evs), &o);
	CHECK_EQ(o.comm_ns, 30000);
	CHECK_EQ(o.both_ns, 30000);
	CHECK(overlap_pct(&o) == 100.0);
}

static void test_partly(void)
{
	/* Comm [100, 200) and [300, 340); comp [150, 320) across two
	 * kernels on two streams, [150, 250) and [240, 320): both 50 + 20
	 * of 140. */
	static const struct ev evs[] = {
		{ COMM, 100, 100, 20 }, { COMM, 300, 40, 20 },
		{ COMP, 150, 100, 7 },	{ COMP, 240, 80, 8 },
	};
	struct overlap o;

	compute(evs, NR(evs), &o);
	CHECK_EQ(o.comm_ns, 140000);
	CHECK_EQ(o.comp_ns, 170000);
	CHECK_EQ(o.both_ns, 70000);
	CHECK(fabs(overlap_pct(&o) - 50.0) < 1e-9);
}

static void test_touching(void)
{
	/* Touching intervals share no time. */
	static const struct ev evs[] = { { COMP, 100, 50, 7 }, { COMM, 150, 50, 20 },
					 { COMP, 200, 10, 7 } };
	struct overlap o;

	compute(evs, NR(evs), &o);
	CHECK_EQ(o.both_ns, 0);
	CHECK(overlap_pct(&o) == 0.0);
}

static void test_memory_over_both(void)
{
	/* A copy over both changes nothing: comm and comp at once is the
	 * classes with both bits, with or without memory. */
	static const struct ev evs[] = { { COMP, 100, 100, 7 }, { COMM, 150, 100, 20 },
					 { MEM, 0, 400, 21 } };
	struct overlap o;

	compute(evs, NR(evs), &o);
	CHECK_EQ(o.comm_ns, 100000);
	CHECK_EQ(o.both_ns, 50000);
	CHECK(fabs(overlap_pct(&o) - 50.0) < 1e-9);
}

static void test_capped(void)
{
	struct temporal t = { 0 };
	struct overlap o;

	t.class_ns[KTYPE_COMMUNICATION] = SUM_CAP - 5;
	t.class_ns[KTYPE_COMMUNICATION | KTYPE_MEMORY] = SUM_CAP - 5;
	t.class_ns[KTYPE_COMMUNICATION | KTYPE_COMPUTATION] = 10;
	overlap_of(&t, &o);
	CHECK(o.capped);
	CHECK(isnan(overlap_pct(&o)));
	t = (struct temporal){ 0 };
	t.class_ns[KTYPE_COMMUNICATION] = 10;
	t.nr_capped = 1;
	overlap_of(&t, &o);
	CHECK(isnan(overlap_pct(&o)));
}

const struct test tests[] = {
	{ "overlap: no GPU work", test_no_gpu },
	{ "overlap: CPU-only trace", test_cpu_only },
	{ "overlap: computation only (none)", test_comp_only },
	{ "overlap: communication alone (0%)", test_comm_alone },
	{ "overlap: communication inside computation (100%)", test_inside },
	{ "overlap: partly, over two streams", test_partly },
	{ "overlap: touching intervals", test_touching },
	{ "overlap: memory over both", test_memory_over_both },
	{ "overlap: a capped sum", test_capped },
	{ 0 },
};
