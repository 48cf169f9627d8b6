// SPDX-License-Identifier: MIT
/*
 * The Overview's model (model/overview.c) on a trace of our own,
 * tests/golden/overview/small.json, worked out by hand: two 1 ms steps;
 * kernels on GPU 0 at 400-600 us (blocks per SM 2, occupancy 50%, a
 * tensor-core kernel launched by aten::mm), 500-700 us (0.5, 20%, relu),
 * 1200-1500 us (0.25, 100%, another aten::mm) and 1500-1600 us (0.5, 20%,
 * relu); the first step spends 200 us in the DataLoader.
 * t-overview-parity.c checks the corpus.
 */
#include <math.h>

#include "model/overview.h"
#include "parsers/parser.h"
#include "test.h"

#define FIX "tests/golden/overview/small.json"

static char msg[4096];

static bool close_to(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void test_gpu_metrics(void)
{
	struct profile p;
	struct overview o;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	overview_compute(&p, &o);
	CHECK_EQ(o.nr_gpus, 1);
	CHECK(o.span_start_ns == 0 && o.span_end_ns == 2000000);
	if (o.nr_gpus == 1) {
		/* Busy 400-700 and 1200-1600 of 2000 us. */
		CHECK(close_to(o.gpus[0].utilization, 700.0 / 2000));
		/* 400-500 and 500-600 count min(2 (+ 0.5), 1) = 1, 600-700
		 * 0.5, 1200-1500 0.25, 1500-1600 0.5. */
		CHECK(close_to(o.gpus[0].sm_efficiency,
			       (100 + 100 + 0.5 * 100 + 0.25 * 300 + 0.5 * 100) / 2000.0));
		CHECK(close_to(o.gpus[0].occupancy_pct,
			       (50 * 200 + 20 * 200 + 100 * 300 + 20 * 100) / 800.0));
		CHECK(close_to(o.gpus[0].tensor_core, 200.0 / 800));
	}
	/* Both aten::mm are eligible and lowest: 500 of the ops' 800 us. */
	CHECK(close_to(o.tc_eligible_ops_kernel_ratio, 500.0 / 800));
	CHECK(close_to(o.tc_used_ratio, 200.0 / 800));
	CHECK(close_to(o.avg_step_ns, 1000000));
	overview_release(&o);
	profile_release(&p);
}

static void test_recommendations(void)
{
	struct profile p;
	struct overview o;
	bool data = false, low = false;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	overview_compute(&p, &o);
	for (size_t i = 0; i < o.nr_recs; i++) {
		CHECK(o.recs[i].is_plugin);
		data |= strstr(o.recs[i].text, "10.0% of the step time is in the DataLoader") != NULL;
		low |= strstr(o.recs[i].text, "GPU 0 has low utilization") != NULL;
	}
	/* Some kernel uses tensor cores: no advice to turn on AMP. */
	CHECK(data && low && o.nr_recs == 2);
	overview_release(&o);
	profile_release(&p);
}

static void test_allowlists(void)
{
	CHECK(kernel_uses_tensor_cores("volta_h884gemm_64x64_nn"));
	CHECK(kernel_uses_tensor_cores("sm80_xmma_gemm_f16f16"));
	CHECK(!kernel_uses_tensor_cores("sgemm_128x64"));
	CHECK(op_tensor_core_eligible("aten::mm"));
	CHECK(!op_tensor_core_eligible("aten::mm_"));
	CHECK(!op_tensor_core_eligible("aten::relu"));
}

const struct test tests[] = {
	{ "GPU utilization, SM efficiency, occupancy and tensor cores", test_gpu_metrics },
	{ "the plugin's rules fire at its thresholds", test_recommendations },
	{ "tensor-core allowlists: kernels by substring, ops by name", test_allowlists },
	{ 0 },
};
