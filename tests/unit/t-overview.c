// SPDX-License-Identifier: MIT
/*
 * The Overview's model (model/overview.c) on a trace of our own,
 * tests/golden/overview/small.json, worked out by hand: two 1 ms steps;
 * kernels on GPU 0 at 400-600 us (blocks per SM 2, occupancy 50%, a
 * tensor-core kernel launched by aten::mm), 500-700 us (0.5, 20%, relu),
 * 1200-1500 us (0.25, 100%, another aten::mm) and 1500-1600 us (0.5, 20%,
 * relu); the first step spends 200 us in the DataLoader.
 * tests/golden/overview/unordered.json has two GPUs and kernels that
 * start in another order than the tree lists them.  t-overview-parity.c
 * checks the corpus.
 */
#include <math.h>

#include "model/aggregate.h"
#include "model/overview.h"
#include "parsers/parser.h"
#include "test.h"
#include "long-trace.h"

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

/*
 * unordered.json, worked out by hand.  GPU 0 runs [100, 400) with 0.5
 * blocks per SM and 20% occupancy, [100, 200) 0.25 and 80%, [350, 600)
 * 2 and 50% (a tensor-core kernel of aten::mm) and [500, 700) 1 and 40%,
 * listed in the tree in the order [500, 700), [100, 400), [100, 200),
 * [350, 600); GPU 1, listed first, runs [300, 900) 0.5 and 60%.  The
 * step is [0, 1000).  Taken in the tree's order the ranges would merge
 * wrong and the sweep run backwards.
 */
static void test_unordered_kernels(void)
{
	struct profile p;
	struct overview o;

	CHECK_EQ(test_load(&p, "tests/golden/overview/unordered.json", NULL, msg, sizeof(msg)), 0);
	overview_compute(&p, &o);
	CHECK_EQ(o.nr_gpus, 2);
	if (o.nr_gpus == 2) {
		CHECK(o.gpus[0].device == 0 && o.gpus[1].device == 1);
		CHECK(close_to(o.gpus[0].utilization, 600.0 / 1000));
		/* 100-350 0.75 then 0.5; 350-700 min(., 1) = 1 throughout. */
		CHECK(close_to(o.gpus[0].sm_efficiency, (0.75 * 100 + 0.5 * 150 + 350) / 1000.0));
		CHECK(close_to(o.gpus[0].occupancy_pct,
			       (20 * 300 + 80 * 100 + 50 * 250 + 40 * 200) / 850.0));
		CHECK(close_to(o.gpus[0].tensor_core, 250.0 / 850));
		CHECK(close_to(o.gpus[1].utilization, 600.0 / 1000));
		CHECK(close_to(o.gpus[1].sm_efficiency, 0.5 * 600 / 1000.0));
		CHECK(close_to(o.gpus[1].occupancy_pct, 60));
		CHECK(close_to(o.gpus[1].tensor_core, 0));
	}
	/* aten::mm is eligible: its 250 us of the ops' 1450. */
	CHECK(close_to(o.tc_eligible_ops_kernel_ratio, 250.0 / 1450));
	CHECK(close_to(o.tc_used_ratio, 250.0 / 1450));
	overview_release(&o);
	profile_release(&p);
}

/* The time a top row counts: device self time for kernels and, where the
 * profile has device time, ops; else host self time. */
static int64_t top_time(const struct agg_row *r, bool by_device)
{
	return by_device ? r->device_self_ns : r->host_self_ns;
}

/* TOP against the table the Operators or Kernels pane shows: its five
 * largest rows, picked here one by one (the first seen of equals). */
static void check_top(const char *path, const char *what, const struct agg *a, bool by_device,
		      const struct top_rows *top)
{
	bool *taken = calloc(a->nr + 1, sizeof(*taken));
	size_t n = a->nr < 5 ? a->nr : 5;
	int64_t total = 0;

	for (size_t i = 0; i < a->nr; i++)
		total += top_time(&a->rows[i], by_device);
	if (top->nr != n || top->total_ns != total) {
		fprintf(stderr, "  %s %s: %zu rows, total %lld; the table: %zu, %lld\n", path, what,
			top->nr, (long long)top->total_ns, n, (long long)total);
		test_failed = 1;
	}
	for (size_t j = 0; j < n && j < top->nr; j++) {
		size_t best = SIZE_MAX;

		for (size_t i = 0; i < a->nr; i++)
			if (!taken[i] && (best == SIZE_MAX || top_time(&a->rows[i], by_device) >
								      top_time(&a->rows[best], by_device)))
				best = i;
		taken[best] = true;
		if (top->v[j].name != a->rows[best].name ||
		    top->v[j].ns != top_time(&a->rows[best], by_device)) {
			fprintf(stderr, "  %s %s #%zu: %s %lld; the table: %s %lld\n", path, what, j + 1,
				top->v[j].name, (long long)top->v[j].ns, a->rows[best].name,
				(long long)top_time(&a->rows[best], by_device));
			test_failed = 1;
		}
	}
	free(taken);
}

/* The precisions of P's layers and their time, walked here for the test. */
struct precisions_seen {
	const struct profile *p;
	const char *name[16];
	int64_t ns[16];
	size_t nr;
};

static bool see_precision(struct node *n, void *ctx)
{
	struct precisions_seen *ps = ctx;
	const struct attr *a = attr_find(node_attrs(n), "precision");
	size_t k;

	if (!node_is_op_row(n) || !a || attr_type(a) != ATTR_STRING)
		return true;
	for (k = 0; k < ps->nr && strcmp(ps->name[k], a->v.s); k++)
		;
	if (k == ps->nr && ps->nr < 16)
		ps->name[ps->nr++] = a->v.s;
	if (k < ps->nr)
		ps->ns[k] += node_device_total(ps->p, n) ? node_device_total(ps->p, n)
							 : node_host_total(ps->p, n);
	return true;
}

static void check_rows(const char *const *paths, size_t nr_paths)
{
	struct profile p;
	struct overview o;
	struct agg a;
	struct precisions_seen ps = { .p = &p };

	if (test_load_paths(&p, paths, nr_paths, NULL, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "  %s: %s\n", paths[0], msg);
		test_failed = 1;
		return;
	}
	overview_compute(&p, &o);
	agg_ops(&p, NULL, &a);
	check_top(paths[0], "top ops", &a, p.has_device_time, &o.top_ops);
	agg_release(&a);
	agg_kernels(&p, NULL, &a);
	check_top(paths[0], "top kernels", &a, true, &o.top_kernels);
	agg_release(&a);
	node_walk(p.root, see_precision, &ps);
	CHECK_EQ(o.nr_precisions, ps.nr);
	for (size_t k = 0; k < ps.nr && k < o.nr_precisions; k++) {
		CHECK_STR(o.precisions[k].name, ps.name[k]);
		CHECK_EQ(o.precisions[k].ns, ps.ns[k]);
	}
	overview_release(&o);
	profile_release(&p);
}

/* The top rows and precisions are summed in the Overview's own walk: the
 * same as the tables' on files of each kind we make (kernels, host times
 * only, pre-aggregated rows, TensorRT layers with precisions). */
static void test_rows_as_tables(void)
{
	static const char *const one[] = {
		FIX,
		"tests/golden/overview/unordered.json",
		"tests/samples/sample.pt.trace.json.gz",
		"tests/golden/torch-table/modern.txt",
		"tests/golden/torch-table/old-1.7.txt",
		"tests/golden/paddle/summary-2.3.txt",
		"tests/golden/trtexec/log-trt86.txt",
	};
	static const char *const layers[] = {
		"tests/golden/trtexec/graph-detailed.json",
		"tests/golden/trtexec/profile.json",
	};

	for (size_t i = 0; i < ARRAY_SIZE(one); i++)
		check_rows(&one[i], 1);
	check_rows(layers, ARRAY_SIZE(layers));
}

/* The same on the corpus's Kineto traces and TensorRT engine. */
static void test_rows_as_tables_corpus(void)
{
	static const char *const traces[] = {
		"hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
		"hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
		"tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
		"tracelens_h100_bert-small-uncased__1016001.json.gz",
	};
	static const char *const engine[] = { "graph.json", "profile.json" };
	char path[512], engine_paths[2][512];
	const char *paths[2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/pytorch-kineto-trace/%s", test_corpus_dir(), traces[0]);
	if (!(f = fopen(path, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	for (size_t i = 0; i < ARRAY_SIZE(traces); i++) {
		snprintf(path, sizeof(path), "%s/pytorch-kineto-trace/%s", test_corpus_dir(), traces[i]);
		paths[0] = path;
		check_rows(paths, 1);
	}
	for (size_t i = 0; i < 2; i++) {
		snprintf(engine_paths[i], sizeof(engine_paths[i]),
			 "%s/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.%s", test_corpus_dir(),
			 engine[i]);
		paths[i] = engine_paths[i];
	}
	check_rows(paths, 2);
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

/*
 * A hostile trace: every kernel on a device of its own.  Each device's
 * metrics read its own kernels: 4 * 10^4 devices cost a sort, where a
 * scan of every kernel per device was 1.6 * 10^9 turns for each of four
 * loops (over a minute of CPU).
 */
static void test_many_devices(void)
{
	enum { N = 40000 };
	static const char *const cats[] = { "Kernel" };
	struct profile p;
	struct overview o;
	struct node *th, *op, *rt;
	struct step *st;
	double cpu_s;
	bool ok = true;

	profile_init(&p, "many-devices");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	op = node_new(&p, th, NODE_OP, "aten::mm", 8);
	rt = node_new(&p, op, NODE_RUNTIME, "cudaLaunchKernel", 16);
	op->start_ns = rt->start_ns = 1;
	for (int i = 0; i < N; i++) {
		/* Devices in the reverse of the kernels' order. */
		struct node *k = node_new(&p, rt, NODE_KERNEL, "gemm", 4);
		struct launch l;

		launch_init(&l);
		l.device = N - 1 - i;
		l.blocks_per_sm = 1.0;
		l.occupancy_pct = 50.0;
		k->start_ns = (int64_t)i * 1000;
		node_set_device_total(&p, k, 500);
		node_set_device_self(&p, k, 500);
		attr_set_launch(&p, node_attr_list(k), profile_launch(&p, &l));
	}
	profile_set_step_cats(&p, cats, 1);
	st = profile_add_step(&p, "1", 1);
	st->start_ns = 0;
	st->end_ns = (int64_t)N * 1000;
	st->total_ns = st->end_ns;
	p.has_device_time = p.has_timeline = true;
	profile_finish(&p);
	cpu_s = test_cpu_s();
	overview_compute(&p, &o);
	cpu_s = test_cpu_s() - cpu_s;
	CHECK(cpu_s < CPU_BOUND_S);
	CHECK_EQ(o.nr_gpus, N);
	for (size_t i = 0; i < o.nr_gpus && ok; i++) {
		/* Ascending; each busy 500 ns of the span, all of it full. */
		ok = o.gpus[i].device == (int32_t)i &&
		     close_to(o.gpus[i].utilization, 500.0 / (N * 1000.0)) &&
		     close_to(o.gpus[i].sm_efficiency, 500.0 / (N * 1000.0)) &&
		     close_to(o.gpus[i].occupancy_pct, 50.0) && close_to(o.gpus[i].tensor_core, 0.0);
		if (!ok)
			printf("# gpu %zu: device %d, utilization %g, SM %g, occupancy %g, TC %g\n", i,
			       (int)o.gpus[i].device, o.gpus[i].utilization, o.gpus[i].sm_efficiency,
			       o.gpus[i].occupancy_pct, o.gpus[i].tensor_core);
	}
	CHECK(ok);
	overview_release(&o);
	profile_release(&p);
}

/* A kernel of DUR ns at START on GPU 0 under PARENT. */
static void add_kernel(struct profile *p, struct node *parent, const char *name, int64_t start,
		       int64_t dur)
{
	struct node *k = node_new(p, parent, NODE_KERNEL, name, strlen(name));
	struct launch l;

	launch_init(&l);
	l.device = 0;
	k->start_ns = start;
	node_set_device_total(p, k, dur);
	node_set_device_self(p, k, dur);
	attr_set_launch(p, node_attr_list(k), profile_launch(p, &l));
}

/*
 * The GPU's tensor-core kernel time counts every kernel on it, as the
 * Kernels pane's does: an FP32 GEMM aten::mm launched (100 ns) and an
 * FP16 tensor-core GEMM no op launched (300 ns, a thread's own launch,
 * as a cuBLASLt call outside any op is).  The plugin's GPU summary
 * counted op-launched kernels only: 0%.
 */
static void test_tc_every_kernel(void)
{
	static const char *const cats[] = { "Kernel" };
	struct profile p;
	struct overview o;
	struct node *th, *op, *rt, *own;
	struct step *st;

	profile_init(&p, "tc-every-kernel");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	op = node_new(&p, th, NODE_OP, "aten::mm", 8);
	rt = node_new(&p, op, NODE_RUNTIME, "cudaLaunchKernel", 16);
	own = node_new(&p, th, NODE_RUNTIME, "cuLaunchKernel", 14);
	op->start_ns = rt->start_ns = 1;
	own->start_ns = 200;
	add_kernel(&p, rt, "ampere_sgemm_128x64_tn", 10, 100);
	add_kernel(&p, own, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_64x3_nt", 300, 300);
	profile_set_step_cats(&p, cats, 1);
	st = profile_add_step(&p, "1", 1);
	st->start_ns = 0;
	st->end_ns = st->total_ns = 1000;
	p.has_device_time = p.has_timeline = true;
	profile_finish(&p);
	overview_compute(&p, &o);
	CHECK_EQ(o.nr_gpus, 1);
	if (o.nr_gpus == 1)
		CHECK(close_to(o.gpus[0].tensor_core, 300.0 / 400));
	CHECK(close_to(o.tc_used_ratio, 300.0 / 400));
	overview_release(&o);
	profile_release(&p);
}

/*
 * The runtime-call advice in the terms of the trace's runtime: a step of
 * 1000 ns, 300 of them in runtime calls named RUNTIME, a kernel launched
 * (unless !KERNEL).  Returns the advice's text, or "" when none.
 */
static const char *runtime_advice(const char *runtime, bool kernel)
{
	static const char *const cats[] = { "Kernel", "Runtime" };
	static char text[512];
	struct profile p;
	struct overview o;
	struct node *th, *op, *rt;
	struct step *st;

	profile_init(&p, "advice");
	th = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	op = node_new(&p, th, NODE_OP, "aten::relu", 10);
	rt = node_new(&p, op, NODE_RUNTIME, runtime, strlen(runtime));
	op->start_ns = rt->start_ns = 1;
	if (kernel)
		add_kernel(&p, rt, "relu_kernel", 400, 50);
	profile_set_step_cats(&p, cats, 2);
	st = profile_add_step(&p, "1", 1);
	st->start_ns = 0;
	st->end_ns = st->total_ns = 1000;
	st->cat_ns[0] = kernel ? 50 : 0;
	st->cat_ns[1] = 300;
	p.has_device_time = kernel;
	p.has_timeline = true;
	profile_finish(&p);
	overview_compute(&p, &o);
	text[0] = '\0';
	for (size_t i = 0; i < o.nr_recs; i++)
		if (strstr(o.recs[i].text, "runtime calls"))
			snprintf(text, sizeof(text), "%s", o.recs[i].text);
	overview_release(&o);
	profile_release(&p);
	return text;
}

/* CUDA's and HIP's names for theirs; a runtime of another device (MTIA,
 * XPU) neither; no kernels, no advice about launching them. */
static void test_advice_terms(void)
{
	const char *t;

	t = runtime_advice("cudaLaunchKernel", true);
	CHECK(strstr(t, "30.0% of the step time is in CUDA runtime calls while the GPU is idle") &&
	      strstr(t, "or CUDA Graphs"));
	t = runtime_advice("cuLaunchKernel", true);
	CHECK(strstr(t, "in CUDA runtime calls") != NULL);
	t = runtime_advice("hipLaunchKernel", true);
	CHECK(strstr(t, "in HIP runtime calls while the GPU is idle") && strstr(t, "or HIP graphs") &&
	      !strstr(t, "CUDA"));
	t = runtime_advice("urEnqueueKernelLaunch", true);
	CHECK(strstr(t, "in runtime calls while the device is idle") && !strstr(t, "CUDA") &&
	      !strstr(t, "HIP") && !strstr(t, "Graphs"));
	CHECK_STR(runtime_advice("cudaLaunchKernel", false), "");
}

/* Sums past SUM_CAP (model/bounds.h): the top rows and their total hold
 * the cap, never a wrapped or negative time, and the overview counts
 * them; the utilization stays a ratio in [0, 1]. */
static void test_sums_capped(void)
{
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	struct overview o;

	long_trace(&b, 3000);
	CHECK_EQ(test_load(&p, test_write("long.json", b.s, b.len), "kineto", msg, sizeof(msg)), 0);
	overview_compute(&p, &o);
	CHECK(o.top_ops.nr == 2 && !strcmp(o.top_ops.v[0].name, "long"));
	CHECK_EQ(o.top_ops.v[0].ns, SUM_CAP);
	CHECK_EQ(o.top_ops.total_ns, SUM_CAP);
	CHECK(o.top_kernels.nr == 1 && o.top_kernels.v[0].ns == SUM_CAP);
	CHECK_EQ(o.top_kernels.total_ns, SUM_CAP);
	CHECK_EQ(o.nr_capped, 4);
	for (size_t i = 0; i < o.nr_gpus; i++)
		CHECK(!(o.gpus[i].utilization < 0) && !(o.gpus[i].utilization > 1));
	overview_release(&o);
	profile_release(&p);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "GPU utilization, SM efficiency, occupancy and tensor cores", test_gpu_metrics },
	{ "sums past the cap hold it, and are counted", test_sums_capped },
	{ "the plugin's rules fire at its thresholds", test_recommendations },
	{ "GPU metrics of kernels listed out of time order, on two GPUs", test_unordered_kernels },
	{ "top rows and precisions as the tables have them", test_rows_as_tables },
	{ "top rows and precisions as the tables have them, corpus", test_rows_as_tables_corpus },
	{ "tensor-core allowlists: kernels by substring, ops by name", test_allowlists },
	{ "a GPU's tensor-core kernel time counts every kernel on it", test_tc_every_kernel },
	{ "the runtime-call advice in the trace's own terms, only with kernels", test_advice_terms },
	{ "a trace with a device per kernel costs a sort, not a scan per device",
	  test_many_devices },
	{ 0 },
};
