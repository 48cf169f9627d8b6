// SPDX-License-Identifier: MIT
/*
 * The per-kernel GPU breakdown against Holistic Trace Analysis's own
 * outputs (../shared/corpus/hta-expected*, gpu_kernel_breakdown's
 * kernel_all and kernel tables), on every corpus trace HTA analysed.
 * proftui is computed under HTA's conditions, through kbreak_compute()'s
 * options: HTA's rounding to whole µs, its window (the GPU work launched
 * before the last ProfilerStep, when the trace has two or more), and for
 * the kernel table its folding (num_kernels 10, duration_ratio 0.8).
 * Row by row, matched by type and name, both ways: the same rows (OTHER,
 * which HTA leaves out, aside); sum, max, min, mean and stddev within
 * 1 µs.
 *
 * Where proftui departs, by name and why, and what is checked instead:
 * - one value: HTA writes a standard deviation of 0, proftui none (the
 *   sample standard deviation of one value is not defined; proftui(1),
 *   DIFFERENCES FROM HOLISTIC TRACE ANALYSIS).
 * - the CPU-only trace: no GPU work; HTA's tables are empty, and so is
 *   proftui's.
 * - the Triton trace: its host op triton_poi_fused_add_cos_sin_0 (a
 *   cpu_op) carries "stream": 0 in its args, so HTA counts it as GPU work
 *   under the name of the kernel it launched: one row of two calls.
 *   proftui counts the kernel only; the test checks that HTA's sum is
 *   the op's rounded span plus proftui's, its max the op's and its min
 *   proftui's.
 */
#include <math.h>

#include "model/kernel_breakdown.h"
#include "test.h"
#include "jsonval.h"
#include "hta-step.h"

static char msg[8192];

static struct kbreak_opts hta_opts(const struct profile *p, bool folded)
{
	struct kbreak_opts o = KBREAK_OPTS_ALL;

	o.t.round_like_hta = true;
	hta_last_step(p, &o.t.launched_before_ns);
	if (folded) {
		o.fold_kernels = 10;
		o.fold_pct = 80;
	}
	return o;
}

/* Column NAME's index in frame F; -1 when absent. */
static int col(const struct jv *f, const char *name)
{
	const struct jv *cols = jv_get(f, "columns");

	for (size_t i = 0; cols && i < cols->nr; i++)
		if (cols->items[i].str && !strcmp(cols->items[i].str, name))
			return (int)i;
	return -1;
}

static double num(const struct jv *row, int c)
{
	if (c < 0 || (size_t)c >= row->nr || row->items[c].type != JV_NUM)
		return NAN;
	return row->items[c].num;
}

static const char *str(const struct jv *row, int c)
{
	if (c < 0 || (size_t)c >= row->nr || row->items[c].type != JV_STR)
		return NULL;
	return row->items[c].str;
}

static bool near(const char *what, const char *name, double ours, double hta)
{
	if (!(fabs(ours - hta) <= 1)) {
		fprintf(stderr, "  %s of %s: proftui %.4f, HTA %.4f\n", what, name, ours, hta);
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

enum depart { SAME, CPU_ONLY, CPU_OP_STREAM };

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
	  H "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace", SAME },
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

/* HTA's row of type TYPE and name NAME ("others" for NULL) in DATA; NULL
 * when none. */
static const struct jv *hta_row(const struct jv *f, const struct jv *data,
				 const struct kbreak_row *r)
{
	int cn = col(f, "name"), ct = col(f, "kernel_type");
	const char *name = r->name ? r->name : "others";

	for (size_t i = 0; i < data->nr; i++) {
		const char *n = str(&data->items[i], cn), *t = str(&data->items[i], ct);

		if (n && t && !strcmp(n, name) && !strcmp(t, kernel_type_name(r->type)))
			return &data->items[i];
	}
	return NULL;
}

/* Frame F (HTA's kernel_all or kernel) against B, row by row. */
static void check_table(const struct profile *p, const struct trace *tr, const struct jv *f,
			const struct kbreak *b)
{
	const struct jv *data = jv_get(f, "data");
	int csum = col(f, "sum (us)"), cmax = col(f, "max (us)"), cmin = col(f, "min (us)");
	int cmean = col(f, "mean (us)"), csd = col(f, "stddev");
	size_t ours = 0;

	CHECK(data != NULL);
	if (!data)
		return;
	for (size_t i = 0; i < b->nr; i++) {
		const struct kbreak_row *r = &b->rows[i];
		const char *name = r->name ? r->name : "others";
		const struct jv *h;

		if (r->type == KTYPE_OTHER)
			continue;	/* HTA leaves OTHER out */
		ours++;
		h = hta_row(f, data, r);
		if (!h) {
			fprintf(stderr, "  %s %s: not in HTA's table\n", kernel_type_name(r->type), name);
			CHECK(0);
			continue;
		}
		if (tr->depart == CPU_OP_STREAM) {
			struct find_op fo = { name, NULL };

			node_walk(p->root, visit_op, &fo);
			CHECK(fo.op != NULL);
			if (!fo.op)
				continue;
			CHECK(near("sum", name, hta_span_us(p, fo.op) + US(r->sum_ns), num(h, csum)));
			CHECK(near("max", name, hta_span_us(p, fo.op), num(h, cmax)));
			CHECK(near("min", name, US(r->min_ns), num(h, cmin)));
			continue;
		}
		CHECK(near("sum", name, US(r->sum_ns), num(h, csum)));
		CHECK(near("max", name, US(r->max_ns), num(h, cmax)));
		CHECK(near("min", name, US(r->min_ns), num(h, cmin)));
		CHECK(near("mean", name, US(r->mean_ns), num(h, cmean)));
		if (r->nr_values < 2) {
			/* Departure: HTA's 0, proftui's none. */
			CHECK(isnan(r->stddev_ns));
			CHECK_EQ(num(h, csd), 0);
		} else {
			CHECK(near("stddev", name, r->stddev_ns / 1000, num(h, csd)));
		}
	}
	CHECK_EQ(ours, data->nr);
}

static void run(size_t i)
{
	const struct trace *tr = &traces[i];
	char path[1024];
	struct profile p;
	struct kbreak all, folded;
	struct kbreak_opts o;
	struct jv v;
	const struct jv *res;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), tr->path);
	if (!(f = fopen(path, "rb")))
		SKIP("the corpus (../shared/corpus) is not there");
	fclose(f);
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	o = hta_opts(&p, false);
	kbreak_compute(&p, &o, &all);
	o = hta_opts(&p, true);
	kbreak_compute(&p, &o, &folded);
	CHECK_EQ(all.nr_capped, 0);
	snprintf(path, sizeof(path), "%s/%s__hta_gpu_kernel_breakdown.json", test_corpus_dir(),
		 tr->expected);
	CHECK_EQ(jv_load(path, &v), 0);
	res = jv_get(&v, "result");
	CHECK(res != NULL);
	if (res) {
		const struct jv *ka = jv_get(res, "kernel_all"), *k = jv_get(res, "kernel");

		CHECK(ka && k);
		if (tr->depart == CPU_ONLY)
			CHECK_EQ(all.nr_events, 0);
		if (ka)
			check_table(&p, tr, ka, &all);
		if (k)
			check_table(&p, tr, k, &folded);
	}
	jv_free(&v);
	kbreak_release(&folded);
	kbreak_release(&all);
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
	{ "HTA kernel breakdown: AMD ROCm trace", t0 },
	{ "HTA kernel breakdown: CPU-only trace (no GPU work, tables empty)", t1 },
	{ "HTA kernel breakdown: trace with cuda_sync events", t2 },
	{ "HTA kernel breakdown: ns-resolution trace", t3 },
	{ "HTA kernel breakdown: Triton trace (departure: a cpu_op with a stream)", t4 },
	{ "HTA kernel breakdown: tb_plugin resnet50 num_workers=0", t5 },
	{ "HTA kernel breakdown: tb_plugin resnet50 num_workers=4", t6 },
	{ "HTA kernel breakdown: TraceLens H100 BERT", t7 },
	{ "HTA kernel breakdown: trace-diff control", t8 },
	{ "HTA kernel breakdown: trace-diff test", t9 },
	{ "HTA kernel breakdown: resnet50 workers 0 (set)", t10 },
	{ "HTA kernel breakdown: resnet50 workers 4 (set)", t11 },
	{ 0 },
};
