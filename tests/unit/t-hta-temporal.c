// SPDX-License-Identifier: MIT
/*
 * The temporal breakdown and the kernel-types table against Holistic
 * Trace Analysis's own outputs (../shared/corpus/hta-expected*), on every
 * corpus trace HTA analysed.  proftui is computed under HTA's conditions,
 * through temporal_compute()'s options: HTA's rounding to whole µs, and
 * its window -- the GPU work launched before the last ProfilerStep, when
 * the trace has two or more.  Each figure within 1 µs, each percentage
 * within HTA's rounding (2 decimals; the kernel-types table 1).
 *
 * Where proftui departs, by name and why, and what is checked instead:
 * - the trace with cuda_sync events: HTA counts those waits as GPU work;
 *   proftui keeps only the work a stream ran (proftui(1), DIFFERENCES
 *   FROM HOLISTIC TRACE ANALYSIS).  Compute time and the kernel-types
 *   table (sync events are of type OTHER) still equal HTA's; kernel time
 *   can only be shorter and the busy time smaller.
 * - the CPU-only trace: HTA raises (no GPU events); proftui has no GPU
 *   work to split, and HTA's kernel-types table is empty too.
 * - the Triton trace: its host op triton_poi_fused_add_cos_sin_0 (a
 *   cpu_op) carries "stream": 0 in its args, so HTA counts the op as GPU
 *   work (stream != -1), 94 µs of COMPUTATION, and the 1.76 µs kernel it
 *   launched lies inside it.  proftui counts the kernel only; the test
 *   checks that HTA's figure is that op's rounded span and proftui's the
 *   kernel's.
 */
#include <math.h>

#include "model/temporal.h"
#include "test.h"
#include "jsonval.h"
#include "hta-step.h"

static char msg[8192];

/* HTA's conditions for P: its rounding, and its window when P has two or
 * more ProfilerSteps (README §0, the last-step filter). */
static struct temporal_opts hta_opts(const struct profile *p)
{
	struct temporal_opts o = TEMPORAL_OPTS_ALL;

	o.round_like_hta = true;
	hta_last_step(p, &o.launched_before_ns);
	return o;
}

/* The value of column NAME in row ROW of frame F; NAN when absent. */
static double cell(const struct jv *f, size_t row, const char *name)
{
	const struct jv *cols = jv_get(f, "columns"), *data = jv_get(f, "data");

	if (!cols || !data || row >= data->nr)
		return NAN;
	for (size_t i = 0; i < cols->nr; i++)
		if (cols->items[i].str && !strcmp(cols->items[i].str, name) &&
		    i < data->items[row].nr && data->items[row].items[i].type == JV_NUM)
			return data->items[row].items[i].num;
	return NAN;
}

static bool near(double ours, double hta, double slack)
{
	if (!(fabs(ours - hta) <= slack)) {
		fprintf(stderr, "  proftui %.4f, HTA %.4f\n", ours, hta);
		return false;
	}
	return true;
}

#define US(ns) ((double)(ns) / 1000.0)

struct find_op {
	const char *name;
	const struct node *op;
};

static bool visit_op(struct node *n, void *ctx)
{
	struct find_op *f = ctx;

	if (n->kind == NODE_OP && !strcmp(node_name(n), f->name) && !f->op)
		f->op = n;
	return true;
}

/* The span in whole µs that HTA's rounding gives N (host times). */
static double hta_span_us(const struct profile *p, const struct node *n)
{
	double ts = (double)(n->start_ns / 1000) + (double)(n->start_ns % 1000) / 1000.0;
	int64_t d = node_host_total(p, n);
	double dur = (double)(d / 1000) + (double)(d % 1000) / 1000.0;

	return floor(ts + dur) - ceil(ts);
}
/* A percentage HTA rounded to D decimals, against ours exact. */
#define PCT_SLACK(d) (0.5 * pow(10, -(d)) + 1e-9)

enum depart { SAME, SYNC_EVENTS, CPU_ONLY, CPU_OP_STREAM };

struct trace {
	const char *path;	/* under the corpus */
	const char *expected;	/* HTA's file stem under the corpus */
	enum depart depart;
};

static const struct trace traces[] = {
#define K "pytorch-kineto-trace/"
#define H "hta-expected/"
	{ K "hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	  H "hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto", SAME },
	{ K "hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
	  H "hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace", CPU_ONLY },
	{ K "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz",
	  H "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace", SYNC_EVENTS },
	{ K "hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	  H "hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace", SAME },
	{ K "hta_triton_example_triton_example.json.gz", H "hta_triton_example_triton_example",
	  CPU_OP_STREAM },
	{ K "tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  H "tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace", SAME },
	{ K "tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  H "tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace", SAME },
	{ K "tracelens_h100_bert-small-uncased__1016001.json.gz",
	  H "tracelens_h100_bert-small-uncased__1016001", SAME },
#define M "pytorch-kineto-multi/"
#define HM "hta-expected-multi/"
	{ M "hta_trace_diff/control.json.gz", HM "hta_trace_diff/control", SAME },
	{ M "hta_trace_diff/test.json.gz", HM "hta_trace_diff/test", SAME },
	{ M "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  HM "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_0__worker0.1623143089861.pt.trace",
	  SAME },
	{ M "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  HM "tbplugin_resnet50_workers0_vs_4/resnet50_num_workers_4__worker0.1623212756351.pt.trace",
	  SAME },
};

static bool load_expected(const struct trace *tr, const char *analysis, struct jv *v)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s__hta_%s.json", test_corpus_dir(), tr->expected, analysis);
	if (jv_load(path, v)) {
		fprintf(stderr, "cannot read %s\n", path);
		return false;
	}
	return true;
}

/* The Triton trace: HTA's GPU work is the op that carries a stream (and
 * the kernel inside it); proftui's is the kernel alone. */
static void check_cpu_op_stream(const struct profile *p, const struct temporal *t,
				double hta_kernel, double hta_compute)
{
	struct find_op f = { "triton_poi_fused_add_cos_sin_0", NULL };

	node_walk(p->root, visit_op, &f);
	CHECK(f.op != NULL);
	if (f.op) {
		CHECK(near(hta_span_us(p, f.op), hta_kernel, 1e-9));
		CHECK(near(hta_span_us(p, f.op), hta_compute, 1e-9));
	}
	CHECK_EQ(t->nr_events, 1);
	CHECK_EQ(t->kernel_ns, 1000);	/* [ceil 444.592, floor 446.352) */
	CHECK_EQ(t->compute_ns, 1000);
	CHECK_EQ(t->idle_ns, 0);
}

static void check_temporal(const struct profile *p, const struct trace *tr,
			   const struct temporal *t)
{
	struct jv v;
	const struct jv *res, *f;

	if (!load_expected(tr, "temporal_breakdown", &v)) {
		CHECK(0);
		return;
	}
	res = jv_get(&v, "result");
	if (tr->depart == CPU_ONLY) {
		/* HTA raised: "IndexError: ..." (no GPU events). */
		CHECK(!res && jv_get(&v, "error"));
		CHECK_EQ(t->nr_events, 0);
		CHECK_EQ(t->kernel_ns, 0);
		jv_free(&v);
		return;
	}
	f = res ? jv_get(res, "temporal_breakdown") : NULL;
	CHECK(f != NULL);
	if (!f) {
		jv_free(&v);
		return;
	}
	if (tr->depart == CPU_OP_STREAM) {
		check_cpu_op_stream(p, t, cell(f, 0, "kernel_time(us)"), cell(f, 0, "compute_time(us)"));
		jv_free(&v);
		return;
	}
	CHECK(near(US(t->compute_ns), cell(f, 0, "compute_time(us)"), 1));
	if (tr->depart == SYNC_EVENTS) {
		/* HTA's GPU work adds the sync events: a longer span, a
		 * larger union (kernel - idle). */
		double hta_kernel = cell(f, 0, "kernel_time(us)");
		double hta_busy = hta_kernel - cell(f, 0, "idle_time(us)");

		CHECK(US(t->kernel_ns) <= hta_kernel + 1);
		CHECK(US(t->busy_ns) <= hta_busy + 1);
		CHECK(US(t->busy_ns) >= US(t->compute_ns));
		CHECK_EQ(t->kernel_ns, t->idle_ns + t->compute_ns + t->non_compute_ns);
		jv_free(&v);
		return;
	}
	CHECK(near(US(t->kernel_ns), cell(f, 0, "kernel_time(us)"), 1));
	CHECK(near(US(t->idle_ns), cell(f, 0, "idle_time(us)"), 1));
	CHECK(near(US(t->non_compute_ns), cell(f, 0, "non_compute_time(us)"), 1));
	CHECK(near(temporal_pct(t->idle_ns, t->kernel_ns), cell(f, 0, "idle_time_pctg"),
		   PCT_SLACK(2)));
	CHECK(near(temporal_pct(t->compute_ns, t->kernel_ns), cell(f, 0, "compute_time_pctg"),
		   PCT_SLACK(2)));
	CHECK(near(temporal_pct(t->non_compute_ns, t->kernel_ns), cell(f, 0, "non_compute_time_pctg"),
		   PCT_SLACK(2)));
	jv_free(&v);
}

/* HTA's kernel_type rows against proftui's classes, both ways: every
 * row of HTA's is ours, and every class with time is in HTA's. */
static void check_kernel_types(const struct trace *tr, const struct temporal *t)
{
	struct jv v;
	const struct jv *res, *f, *data;
	bool seen[NR_KTYPE_CLASSES] = { false };

	if (!load_expected(tr, "gpu_kernel_breakdown", &v)) {
		CHECK(0);
		return;
	}
	res = jv_get(&v, "result");
	f = res ? jv_get(res, "kernel_type") : NULL;
	data = f ? jv_get(f, "data") : NULL;
	CHECK(data != NULL);
	for (size_t r = 0; data && r < data->nr; r++) {
		const struct jv *row = &data->items[r];
		unsigned c;

		CHECK(row->nr == 3 && row->items[0].type == JV_STR);
		if (row->nr != 3 || row->items[0].type != JV_STR)
			continue;
		for (c = 1; c < NR_KTYPE_CLASSES; c++)
			if (!strcmp(temporal_class_name(c), row->items[0].str))
				break;
		CHECK(c < NR_KTYPE_CLASSES);
		if (c == NR_KTYPE_CLASSES)
			continue;
		seen[c] = true;
		CHECK(near(US(t->class_ns[c]), cell(f, r, "sum"), 1));
		CHECK(near(temporal_pct(t->class_ns[c], t->classes_total_ns), cell(f, r, "percentage"),
			   PCT_SLACK(1)));
	}
	for (unsigned c = 1; c < NR_KTYPE_CLASSES; c++)
		if (!seen[c] && t->class_ns[c]) {
			fprintf(stderr, "  class %s: %lld ns, not in HTA's table\n", temporal_class_name(c),
				(long long)t->class_ns[c]);
			CHECK(0);
		}
	jv_free(&v);
}

static void run(size_t i)
{
	const struct trace *tr = &traces[i];
	char path[1024];
	struct profile p;
	struct temporal t;
	struct temporal_opts o;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), tr->path);
	if (!(f = fopen(path, "rb")))
		SKIP("the corpus (../shared/corpus) is not there");
	fclose(f);
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	o = hta_opts(&p);
	temporal_compute(&p, &o, &t);
	CHECK_EQ(t.nr_capped, 0);
	check_temporal(&p, tr, &t);
	if (tr->depart != CPU_OP_STREAM)
		check_kernel_types(tr, &t);
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
	{ "HTA temporal, kernel types: AMD ROCm trace", t0 },
	{ "HTA temporal, kernel types: CPU-only trace (HTA raises; no GPU work here)", t1 },
	{ "HTA temporal, kernel types: trace with cuda_sync events (departure: compute only)", t2 },
	{ "HTA temporal, kernel types: ns-resolution trace", t3 },
	{ "HTA temporal, kernel types: Triton trace (departure: a cpu_op with a stream)", t4 },
	{ "HTA temporal, kernel types: tb_plugin resnet50 num_workers=0", t5 },
	{ "HTA temporal, kernel types: tb_plugin resnet50 num_workers=4", t6 },
	{ "HTA temporal, kernel types: TraceLens H100 BERT", t7 },
	{ "HTA temporal, kernel types: trace-diff control", t8 },
	{ "HTA temporal, kernel types: trace-diff test", t9 },
	{ "HTA temporal, kernel types: resnet50 workers 0 (set)", t10 },
	{ "HTA temporal, kernel types: resnet50 workers 4 (set)", t11 },
	{ 0 },
};
