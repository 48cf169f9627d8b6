// SPDX-License-Identifier: MIT
/*
 * The comm/comp overlap against Holistic Trace Analysis's own outputs
 * (../shared/corpus/hta-expected*, comm_comp_overlap), on every corpus
 * trace HTA analysed (all have a result).  proftui under HTA's conditions,
 * through temporal_compute()'s options: its rounding to whole µs and its
 * window (the GPU work launched before the last ProfilerStep when the
 * trace has two or more).  comp_comm_overlap_pctg within HTA's rounding to
 * 2 decimals (0.005 points); where HTA's is null (no communication), ours
 * is none too, and the trace indeed has no COMMUNICATION work.
 */
#include <math.h>

#include "model/overlap.h"
#include "test.h"
#include "jsonval.h"
#include "hta-step.h"

static char msg[8192];

struct trace {
	const char *path;	/* under the corpus */
	const char *expected;	/* HTA's file stem under the corpus */
};

static const struct trace traces[] = {
#define K "pytorch-kineto-trace/"
#define H "hta-expected/"
	{ K "hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	  H "hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto" },
	{ K "hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
	  H "hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace" },
	{ K "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz",
	  H "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace" },
	{ K "hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	  H "hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace" },
	{ K "hta_triton_example_triton_example.json.gz", H "hta_triton_example_triton_example" },
	{ K "tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  H "tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace" },
	{ K "tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  H "tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace" },
	{ K "tracelens_h100_bert-small-uncased__1016001.json.gz",
	  H "tracelens_h100_bert-small-uncased__1016001" },
#define M "pytorch-kineto-multi/"
#define HM "hta-expected-multi/"
	{ M "hta_trace_diff/control.json.gz", HM "hta_trace_diff/control" },
	{ M "hta_trace_diff/test.json.gz", HM "hta_trace_diff/test" },
	{ M "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  HM "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_0__worker0.1623143089861.pt.trace" },
	{ M "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  HM "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_4__worker0.1623212756351.pt.trace" },
};

/* HTA's comp_comm_overlap_pctg (row 0): *NUL when null; false when the
 * file has no such frame. */
static bool hta_pct(const struct trace *tr, double *pct, bool *null)
{
	char path[1024];
	struct jv v;
	const struct jv *res, *f, *cols, *data;
	bool ok = false;

	snprintf(path, sizeof(path), "%s/%s__hta_comm_comp_overlap.json", test_corpus_dir(),
		 tr->expected);
	if (jv_load(path, &v)) {
		fprintf(stderr, "cannot read %s\n", path);
		return false;
	}
	res = jv_get(&v, "result");
	f = res ? jv_get(res, "comm_comp_overlap") : NULL;
	cols = f ? jv_get(f, "columns") : NULL;
	data = f ? jv_get(f, "data") : NULL;
	for (size_t i = 0; cols && data && data->nr == 1 && i < cols->nr; i++) {
		const struct jv *c;

		if (!cols->items[i].str || strcmp(cols->items[i].str, "comp_comm_overlap_pctg") ||
		    i >= data->items[0].nr)
			continue;
		c = &data->items[0].items[i];
		*null = c->type != JV_NUM;
		*pct = c->type == JV_NUM ? c->num : NAN;
		ok = true;
	}
	jv_free(&v);
	return ok;
}

static void run(size_t i)
{
	const struct trace *tr = &traces[i];
	char path[1024];
	struct profile p;
	struct temporal t;
	struct temporal_opts o = TEMPORAL_OPTS_ALL;
	struct overlap ov;
	double hta = NAN, ours;
	bool null = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), tr->path);
	if (!(f = fopen(path, "rb")))
		SKIP("the corpus (../shared/corpus) is not there");
	fclose(f);
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	o.round_like_hta = true;
	hta_last_step(&p, &o.launched_before_ns);
	temporal_compute(&p, &o, &t);
	overlap_of(&t, &ov);
	ours = overlap_pct(&ov);
	CHECK(hta_pct(tr, &hta, &null));
	if (null) {
		/* No communication at all: no COMMUNICATION work taken. */
		CHECK_EQ(t.nr_by_type[KTYPE_COMMUNICATION], 0);
		CHECK_EQ(ov.comm_ns, 0);
		CHECK(isnan(ours));
	} else {
		if (!(fabs(ours - hta) <= 0.005 + 1e-9))
			fprintf(stderr, "  proftui %.4f, HTA %.4f\n", ours, hta);
		CHECK(fabs(ours - hta) <= 0.005 + 1e-9);
		CHECK(ov.comm_ns > 0);
	}
	profile_release(&p);
}

static void t0(void) { run(0); }
static void t1(void) { run(1); }
static void t2(void) { run(2); }
static void t3(void) { run(3); }
static void t4(void) { run(4); }
static void t5(void) { run(5); }
static void t6(void) { run(6); }
static void t7(void) { run(7); }
static void t8(void) { run(8); }
static void t9(void) { run(9); }
static void t10(void) { run(10); }
static void t11(void) { run(11); }

const struct test tests[] = {
	{ "HTA overlap: AMD ROCm trace (null)", t0 },
	{ "HTA overlap: CPU-only trace (null)", t1 },
	{ "HTA overlap: trace with cuda_sync events (null)", t2 },
	{ "HTA overlap: ns-resolution trace (null)", t3 },
	{ "HTA overlap: Triton trace (null)", t4 },
	{ "HTA overlap: tb_plugin resnet50 num_workers=0 (null)", t5 },
	{ "HTA overlap: tb_plugin resnet50 num_workers=4 (null)", t6 },
	{ "HTA overlap: TraceLens H100 BERT (null)", t7 },
	{ "HTA overlap: trace-diff control (rank 3)", t8 },
	{ "HTA overlap: trace-diff test (rank 1)", t9 },
	{ "HTA overlap: resnet50 workers 0 (set, null)", t10 },
	{ "HTA overlap: resnet50 workers 4 (set, null)", t11 },
	{ 0 },
};
