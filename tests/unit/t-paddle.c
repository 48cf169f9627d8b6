// SPDX-License-Identifier: MIT
/*
 * The PaddlePaddle parser: summary tables and training-log lines.  The
 * numbers are the ones a user sees, read through agg_ops(), agg_kernels(),
 * agg_op_kernels(), the steps and the Info lines: seed 001 (a
 * PaddleDetection log with a profiler summary, ../shared/seeds), the
 * corpus documents (../shared/corpus/paddle-profiler), the fixtures under
 * tests/golden/paddle/, and bad input made here under $TMPDIR.
 */
#include <dirent.h>
#include <inttypes.h>
#include <unistd.h>

#include "model/aggregate.h"
#include "parsers/parser.h"
#include "test.h"

/* "../shared/seeds/001_*.txt", or NULL. */
static const char *seed(const char *prefix)
{
	static char path[600];
	const char *seeds = getenv("PROFTUI_SEEDS");
	DIR *d;
	struct dirent *e;

	if (!seeds || !*seeds)
		seeds = "../shared/seeds";
	d = opendir(seeds);
	if (!d)
		return NULL;
	path[0] = '\0';
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			snprintf(path, sizeof(path), "%s/%s", seeds, e->d_name);
	closedir(d);
	return path[0] ? path : NULL;
}

static const char *corpus(const char *sub)
{
	static char path[600];

	snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), sub);
	return access(path, R_OK) ? NULL : path;
}

static const struct agg_row *row_named(const struct agg *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name))
			return &a->rows[i];
	return NULL;
}

static const struct step *step_named(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->nr_steps; i++)
		if (!strcmp(p->steps[i].name, name))
			return &p->steps[i];
	return NULL;
}

#define CUT_KERNELS "cut kernel names no Kernel Summary row is certain to be, kept as printed"

static uint64_t warned(const struct profile *p, const char *kind)
{
	for (const struct warning *w = p->warnings; w; w = w->next)
		if (!strcmp(w->text, kind))
			return w->count;
	return 0;
}

static const struct node *last_of(const struct node *parent)
{
	const struct node *c = node_first_child(parent);

	while (c && node_next(c))
		c = node_next(c);
	return c;
}

static bool name_is(const struct node *n, void *ctx)
{
	return !strcmp(node_name(n), ctx);
}

static int64_t attr_i(const struct attr *list, const char *key)
{
	const struct attr *a = attr_find(list, key);

	return a && (attr_type(a) == ATTR_INT || attr_type(a) == ATTR_NS) ? a->v.i : INT64_MIN;
}

static double attr_d(const struct attr *list, const char *key)
{
	const struct attr *a = attr_find(list, key);

	return a && attr_type(a) == ATTR_DOUBLE ? a->v.d : -1e300;
}

/* ---- seed 001 and the corpus ------------------------------------------- */

static void t_seed001(void)
{
	const char *path = seed("001_");
	struct profile p;
	struct agg a;
	struct agg_scope drill = { .want = name_is, .ctx = "conv2d dygraph" };
	const struct agg_row *r;
	const struct step *s;
	char msg[4096];
	int64_t sum = 0;
	bool cudnn = false;

	if (!path)
		SKIP("no seeds at ../shared/seeds (set PROFTUI_SEEDS)");
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK_STR(p.format, "paddle");
	CHECK_EQ(profile_nr_runs(&p), 1);
	/* The one kind of warning: tree kernels whose cut names no Kernel
	 * Summary row is certain to complete. */
	CHECK(p.warnings && !p.warnings->next);
	CHECK_EQ(warned(&p, CUT_KERNELS), 52);
	CHECK(!strstr(msg, "error"));

	agg_ops(&p, NULL, &a);
	r = row_named(&a, "conv2d dygraph");
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(r->calls, 1140);
		CHECK_EQ(r->host_total_ns, 441720000);
		CHECK_EQ(r->device_total_ns, 566980000);
		/* Its phases take 1.67 + 204.66 + 2.40 ms of host time. */
		CHECK_EQ(r->host_self_ns, 441720000 - 1670000 - 204660000 - 2400000);
		CHECK_EQ(r->device_self_ns, 566980000);
		CHECK_EQ(r->max_ns, 2610000);
		CHECK_EQ(r->min_ns, 100000);
	}
	CHECK_EQ(a.nr, 87);
	agg_release(&a);

	/* Drill-down: the 18 rows under "conv2d compute", as printed. */
	agg_op_kernels(&p, &drill, &a);
	CHECK_EQ(a.nr, 18);
	for (size_t i = 0; i < a.nr; i++) {
		CHECK_STR(node_name(node_parent(a.rows[i].first)), "conv2d compute");
		CHECK(node_kind_is_device(a.rows[i].first->kind));
		sum += a.rows[i].device_total_ns;
		cudnn |= strstr(a.rows[i].name, "cudnn") != NULL;
	}
	CHECK(cudnn);
	CHECK_EQ(a.scope_device_ns, 566980000);
	/* The printed rows add up to 264.97 ms but for rounding. */
	CHECK(sum >= 264970000 - 18 * 5000 && sum <= 264970000 + 18 * 5000);
	/* Named as the Kernel Summary names it where only one of its rows
	 * fits the cut name ("volta_fp16_s884cudnn_fp16_256x64_ldg8_relu_f2..."
	 * in the Operator Summary)... */
	r = row_named(&a, "volta_fp16_s884cudnn_fp16_256x64_ldg8_relu_f2f_exp_small_nhwc_tn_v1");
	CHECK(r && r->calls == 46 && r->device_total_ns == 9070000);
	CHECK(r && !(r->first->flags & NODE_NAME_TRUNCATED));
	/* ... or where one has the same calls and total... */
	r = row_named(&a, "void xmma_cudnn::gemm::kernel<xmma_cudnn::implicit_gemm::fprop::"
			  "Kernel_traits<xmma_cudn...");
	CHECK(r && r->calls == 294 && r->device_total_ns == 139140000);
	/* ... or where only one fits every count: 570 calls, 4.09 ms, max
	 * 0.08 ms fit the 1490-call row (with the 920 calls elsewhere) and
	 * neither the 584- nor the 780-call one (3.54 and 2.52 ms)... */
	r = row_named(&a, "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::"
			  "TensorAssignOp<Eige...");
	CHECK(r && r->calls == 570 && r->device_total_ns == 4090000);
	r = row_named(&a, "MEMSET");
	CHECK(r && r->first->kind == NODE_MEMSET && r->calls == 42);
	agg_release(&a);

	/* Kernel -> ops: the op whose compute launched it. */
	agg_kernel_ops(&p, &(struct agg_scope){ .want = name_is,
						 .ctx = "void phi::GPURoiAlignBackward<float>" }, &a);
	CHECK(a.nr == 1 && !strcmp(a.rows[0].name, "RoiAlignGradNode") && a.rows[0].calls == 10);
	agg_release(&a);

	agg_kernels(&p, NULL, &a);
	CHECK_EQ(a.nr, 244);
	r = row_named(&a, "void phi::GPURoiAlignBackward<float>");
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(r->calls, 10);
		CHECK_EQ(r->device_total_ns, 239310000);
		/* Mean = total / calls reproduces the printed Avg 23.93. */
		CHECK_EQ((r->device_total_ns / (int64_t)r->calls + 5000) / 10000, 2393);
		CHECK_EQ(r->max_ns, 35010000);
		CHECK_EQ(r->min_ns, 19640000);
	}
	agg_release(&a);

	CHECK_EQ(p.nr_steps, 40);
	CHECK_EQ(p.nr_step_cats, 2);
	CHECK_STR(p.step_cats[0], "Data");
	CHECK_STR(p.step_cats[1], "Compute");
	s = step_named(&p, "19");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->total_ns, 9371400000);
		CHECK_EQ(s->cat_ns[0], 900000);
		CHECK_EQ(s->cat_ns[1], 9371400000 - 900000);
		CHECK(attr_d(attr_list_first(&p, &s->attrs), "loss") == 1.211226);
		CHECK(attr_d(attr_list_first(&p, &s->attrs), "loss_bbox_reg") == 0.293845);
		CHECK(attr_d(attr_list_first(&p, &s->attrs), "ips") == 0.2134);
		CHECK_EQ(attr_i(attr_list_first(&p, &s->attrs), "eta_ns"), (2 * 3600 + 49 * 60 + 6) * INT64_C(1000000000));
	}
	CHECK_STR(p.steps[0].name, "0");
	CHECK_STR(p.steps[39].name, "39");

	CHECK_STR(profile_meta_get(&p, "device", "GPU0"), "Utilization 69.54%");
	CHECK_STR(profile_meta_get(&p, "overview", "Kernel"),
		  "Calls 16525, GPU Time 1856.84 ms, Ratio 69.54%");
	CHECK_STR(profile_meta_get(&p, "model summary", "Others"),
		  "Calls -, CPU total 232.45 ms, 8.71%, GPU total 18.37 ms, 0.99%");
	CHECK_STR(profile_meta_get(&p, "perf summary", "batch_cost"),
		  "avg 0.69986 s, max 9.35223 s, min 0.22216 s");
	CHECK_STR(profile_meta_get(&p, "perf summary", "Reader Ratio"), "0.106%");
	profile_release(&p);
}

static void t_corpus_docs(void)
{
	const char *path = corpus("paddle-profiler/PaddlePaddle_docs__profiling_model.md");
	struct profile p, *run2;
	struct agg a;
	const struct agg_row *r;
	char msg[8192];

	if (!path)
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK(!strstr(msg, "error"));
	CHECK_STR(p.format, "paddle");
	/* Perf Summaries and a Model Summary, then a whole summary again. */
	CHECK_EQ(profile_nr_runs(&p), 2);
	CHECK_STR(profile_meta_get(&p, "perf summary", "Reader Ratio"), "53.514%");
	CHECK_EQ(p.nr_steps, 1);
	CHECK_STR(p.steps[0].name, "average");
	CHECK_EQ(p.nr_step_cats, 5);
	CHECK_STR(p.step_cats[3], "Optimization");
	/* 294.53 ms over 11 steps; Dataloader 141.49 ms over the same 11. */
	CHECK_EQ(p.steps[0].total_ns, 26775455);
	CHECK_EQ(p.steps[0].cat_ns[0], 12862727);
	run2 = profile_run(&p, 1);
	CHECK(run2 && strstr(run2->run_where, "profiling_model.md:356"));
	if (run2) {
		agg_ops(run2, NULL, &a);
		CHECK_EQ(a.nr, 2);
		r = row_named(&a, "conv2d_grad grad_node");
		CHECK(r && r->calls == 296 && r->device_total_ns == 679110000 &&
		      r->host_total_ns == 53700000);
		agg_release(&a);
		agg_kernels(run2, NULL, &a);
		r = row_named(&a, "ncclAllReduceRingLLKernel_sum_f32(ncclColl)");
		CHECK(r && r->calls == 784 && r->device_total_ns == 257230000);
		agg_release(&a);
		CHECK_STR(profile_meta_get(run2, "overview", "Communication"),
			  "Calls 784, GPU Time 257.23 ms, Ratio 5.20%");
		CHECK_STR(profile_meta_get(run2, "distribution", "Overlap"),
			  "Total Time 39.13 ms, Ratio 0.79%");
		CHECK_STR(profile_meta_get(run2, "device", "GPU2"), "Utilization 55.50%");
	}
	profile_release(&p);
}

static void t_corpus_fleetx(void)
{
	const char *path = corpus("paddle-profiler/PaddlePaddle_PaddleFleetX__projects_gpt_docs_hybrid_profiler.md");
	struct profile p;
	struct agg a;
	struct agg_scope drill = { .want = name_is, .ctx = "matmul dygraph" };
	const struct agg_row *r;
	char msg[8192];

	if (!path)
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK(!strstr(msg, "error"));
	CHECK_EQ(profile_nr_runs(&p), 1);
	/* Both tables stop at a "..." line of the document. */
	CHECK_EQ(warned(&p, "tables cut short with '...'"), 2);
	agg_ops(&p, NULL, &a);
	r = row_named(&a, "matmul dygraph");
	CHECK(r && r->calls == 2312 && r->device_total_ns == 1487760000);
	r = row_named(&a, "GradNodePyLayer_RecomputeFunction_backward");
	CHECK(r && r->calls == 96 && r->host_self_ns == 663370000 - 262680000 - 318620000);
	agg_release(&a);
	agg_op_kernels(&p, &drill, &a);
	CHECK_EQ(a.nr, 5);
	r = row_named(&a, "volta_h884gemm_64x128_ldg8_nn");
	CHECK(r && r->calls == 192 && r->device_total_ns == 141130000);
	agg_release(&a);
	agg_kernels(&p, NULL, &a);
	r = row_named(&a, "ncclKernel_AllReduce_RING_LL_Sum_half(ncclWorkElem)");
	CHECK(r && r->calls == 96 && r->device_total_ns == 2360570000 && r->max_ns == 2202540000);
	agg_release(&a);
	profile_release(&p);
}

/* Content decides: seed 001 starts with pages of warnings and log lines;
 * the other formats' files must not be claimed. */
static void t_probe(void)
{
	static const char *const ours[] = {
		"tests/golden/paddle/summary-2.3.txt", "tests/golden/paddle/summary-new.txt",
		"tests/golden/paddle/train-log.txt", "tests/golden/paddle/two-runs.txt",
		"tests/golden/paddle/fleetx-gpt.log",
	};
	static const char *const others[] = {
		"pytorch-key-averages/UnderOC_CS4302YOLO-Project__profile_results.txt",
		"pytorch-key-averages/chenwg2000_nanogpt-fp8-mxfp8__profile_output.txt",
		"pytorch-key-averages/jovsa_scalify__docs_tracking_flops.md",
		"megengine/MegEngine_Docs__profiling.rst",
		"megengine/MegEngine_Documentation__profile-model.rst",
		"tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.profile.json",
		"tb-plugin-expected/result_check_file.txt",
		"pytorch-kineto-trace/hta_triton_example_triton_example.json.gz",
	};
	static const char key_averages[] =
		"---------------------------------  ------------  ------------  ------------\n"
		"                             Name    Self CPU %      Self CPU     CPU total\n"
		"---------------------------------  ------------  ------------  ------------\n"
		"                  aten::conv2d        10.00%       1.000ms       5.000ms\n"
		"---------------------------------  ------------  ------------  ------------\n"
		"Self CPU time total: 10.000ms\n";
	struct input in;
	struct diag d;
	const char *head;
	size_t len;

	diag_init(&d, "probe", NULL, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(ours); i++) {
		CHECK_EQ(input_open(&in, ours[i], &d), 0);
		len = input_head(&in, &head);
		CHECK(parser_detect(head, len) == parser_find("paddle"));
		input_close(&in);
	}
	CHECK(parser_detect(key_averages, sizeof(key_averages) - 1) != parser_find("paddle"));
	for (size_t i = 0; i < 2; i++) {
		const char *path = i ? seed("000_") : seed("001_");

		if (!path || input_open(&in, path, &d))
			continue;
		len = input_head(&in, &head);
		CHECK((parser_detect(head, len) == parser_find("paddle")) == (i == 0));
		input_close(&in);
	}
	for (const char *const *s = (const char *const[]){ "002_", "003_", "004_", NULL }; *s; s++) {
		const char *path = seed(*s);

		if (!path || input_open(&in, path, &d))
			continue;
		len = input_head(&in, &head);
		CHECK(parser_find("paddle")->probe(head, len) == 0);
		input_close(&in);
	}
	for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
		const char *path = corpus(others[i]);

		if (!path || input_open(&in, path, &d))
			continue;
		len = input_head(&in, &head);
		CHECK(parser_find("paddle")->probe(head, len) == 0);
		input_close(&in);
	}
	diag_finish(&d);
}

/* ---- fixtures ---------------------------------------------------------- */

static void t_fixture_23(void)
{
	struct profile p;
	struct agg a;
	struct agg_scope drill = { .want = name_is, .ctx = "conv2d_grad grad_node" };
	const struct agg_row *r;
	char msg[4096];
	size_t nr_vbk = 0;

	CHECK_EQ(test_load(&p, "tests/golden/paddle/summary-2.3.txt", NULL, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	CHECK(p.warnings == NULL);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 2);
	r = row_named(&a, "conv2d_grad grad_node");
	/* Time unit: us. */
	CHECK(r && r->calls == 8 && r->host_total_ns == 1200000 && r->device_total_ns == 2400000);
	/* Host self: 1200 - 40 (infer_shape) - 900 (compute) - 60 (memcpy). */
	CHECK(r && r->host_self_ns == 200000 && r->device_self_ns == 2400000);
	CHECK(r && r->min_ns == 130000 && r->max_ns == 180000);
	agg_release(&a);

	/* Drill-down: the compute phase's kernels and memset, the memcpy under
	 * the runtime call, the kernel launched by the op itself -- and not
	 * the runtime call GpuMemcpyAsync itself (its copy is MEMCPY_HtoD). */
	agg_op_kernels(&p, &drill, &a);
	CHECK_EQ(a.nr, 5);
	CHECK(row_named(&a, "GpuMemcpyAsync:CPU->GPU") == NULL);
	r = row_named(&a, "MEMCPY_HtoD");
	CHECK(r && r->first->kind == NODE_MEMCPY && r->device_total_ns == 40000);
	r = row_named(&a, "ncclAllReduceRingLLKernel_sum_f32(ncclColl)");
	CHECK(r && node_parent(r->first)->kind == NODE_OP && r->calls == 4);
	r = row_named(&a, "maxwell_scudnn_128x128_stridedB_splitK_interior_nn");
	CHECK(r && r->first->kind == NODE_KERNEL && (r->first->flags & NODE_NOT_A_ROW));
	r = row_named(&a, "cudnn::maxwell::gemm::computeWgradOffsetsKernel(cudnn::maxwell::gemm::"
			  "ComputeOffsetsPar...");
	CHECK(r && r->calls == 8 && (r->first->flags & NODE_NAME_TRUNCATED));
	agg_release(&a);

	/* Kernels: the Kernel Summary only; two rows whose cut names are the
	 * same stay two rows. */
	agg_kernels(&p, NULL, &a);
	CHECK_EQ(a.nr, 6);
	for (size_t i = 0; i < a.nr; i++)
		if (strstr(a.rows[i].name, "VectorizedBroadcastKernel")) {
			nr_vbk++;
			CHECK(a.rows[i].first->flags & NODE_NAME_TRUNCATED);
			CHECK(strlen(a.rows[i].name) == 90);
		}
	CHECK_EQ(nr_vbk, 2);
	r = row_named(&a, "volta_sgemm_128x64_nn");
	CHECK(r && r->calls == 16 && r->device_total_ns == 640000 && r->min_ns == 35000);
	agg_release(&a);

	/* No iterations: the Model Summary is the average step. */
	CHECK_EQ(p.nr_steps, 1);
	CHECK_EQ(p.nr_step_cats, 5);
	CHECK_STR(p.step_cats[4], "Others");
	CHECK_STR(p.steps[0].name, "average");
	CHECK_EQ(p.steps[0].total_ns, 2000000);
	CHECK_EQ(p.steps[0].cat_ns[0], 200000);
	CHECK_EQ(p.steps[0].cat_ns[4], 125000);
	CHECK_STR(profile_meta_get(&p, "device", "CPU(Process)"), "Utilization 185.20%");
	CHECK_STR(profile_meta_get(&p, "overview", "Memset"),
		  "Calls 8, GPU Time 200.00 us, Ratio 2.50%");
	CHECK_STR(profile_meta_get(&p, "distribution", "Computation"),
		  "Total Time 3040.00 us, Ratio 38.00%");
	CHECK_STR(profile_meta_get(&p, "model summary", "Dataloader"),
		  "Calls 4, CPU total 800.00 us (avg 200.00, max 260.00, min 150.00), 10.00%, "
		  "GPU total 0.00 us (avg 0.00, max 0.00, min 0.00), 0.00%");
	profile_release(&p);
}

static void t_fixture_new(void)
{
	struct profile p;
	struct agg a;
	const struct agg_row *r;
	const struct node *n;
	char msg[4096];

	CHECK_EQ(test_load(&p, "tests/golden/paddle/summary-new.txt", NULL, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	agg_ops(&p, NULL, &a);
	/* A group per thread title; an op under two threads is two rows,
	 * each with its thread and its own FLOPs. */
	CHECK_EQ(a.nr, 3);
	r = row_named(&a, "matmul dygraph");
	CHECK(r && r->calls == 8 && r->host_total_ns == 4000000 && r->device_total_ns == 16000000);
	CHECK(r && attr_i(node_attrs(r->first), "flops") == 1048576);
	CHECK(r && !strcmp(node_name(node_parent(r->first)), "Thread: 1234"));
	CHECK(r && !strcmp(attr_find(node_attrs(r->first), "thread")->v.s, "1234"));
	r = &a.rows[2];
	CHECK(!strcmp(r->name, "matmul dygraph") && r->calls == 4 && r->device_total_ns == 8000000);
	CHECK(attr_i(node_attrs(r->first), "flops") == 524288);
	CHECK(!strcmp(attr_find(node_attrs(r->first), "thread")->v.s, "5678"));
	/* A top-level name longer than its column, whole. */
	r = row_named(&a, "GradNodePyLayer_RecomputeFunction_backward_of_TransformerDecoderLayer");
	CHECK(r && r->calls == 4 && r->host_self_ns == 10000000 && r->device_total_ns == 200000000);
	CHECK(r && !(r->first->flags & NODE_NAME_TRUNCATED));
	CHECK(r && node_first_child(r->first) && node_first_child(r->first)->kind == NODE_PHASE);
	agg_release(&a);

	/* Memory Summary: a group with a row per line, columns as attributes. */
	n = last_of(p.root);
	CHECK_STR(node_name(n), "Memory Summary - Place(gpu:0)");
	CHECK_EQ(n->kind, NODE_GROUP);
	n = last_of(n);
	CHECK_STR(node_name(n), "ReshapeGradNode");
	CHECK_EQ(attr_i(node_attrs(n), "increased_size_bytes"), -2048);
	CHECK_EQ(attr_i(node_attrs(n), "free_count"), 4);
	CHECK(attr_find(node_attrs(n), "type") && !strcmp(attr_find(node_attrs(n), "type")->v.s, "Reserved"));
	CHECK_STR(profile_meta_get(&p, "memory", "Peak Allocated Memory (Place(gpu:0))"),
		  "1073741824");
	/* Average step from a Model Summary without Optimization. */
	CHECK_EQ(p.nr_step_cats, 4);
	CHECK_EQ(p.steps[0].total_ns, 30000000);
	CHECK_EQ(p.steps[0].cat_ns[3], 3500000);
	profile_release(&p);
}

static void t_train_log(void)
{
	struct profile p;
	const struct step *s;
	char msg[4096];

	CHECK_EQ(test_load(&p, "tests/golden/paddle/train-log.txt", NULL, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	CHECK_EQ(p.nr_steps, 6);
	/* Two epochs: "epoch/index". */
	CHECK_STR(p.steps[0].name, "0/0");
	CHECK_STR(p.steps[5].name, "1/2");
	s = &p.steps[0];
	CHECK_EQ(s->total_ns, 2500000000);
	CHECK_EQ(s->cat_ns[0], 500000000);
	CHECK_EQ(s->cat_ns[1], 2000000000);
	CHECK_EQ(attr_i(attr_list_first(&p, &s->attrs), "eta_ns"), ((26 * 60 + 3) * 60 + 4) * INT64_C(1000000000));
	CHECK_EQ(attr_i(attr_list_first(&p, &s->attrs), "epoch"), 0);
	CHECK(attr_d(attr_list_first(&p, &s->attrs), "loss_cls") == 1.216707);
	CHECK(attr_d(attr_list_first(&p, &s->attrs), "learning_rate") == 0.0001);
	s = step_named(&p, "1/1");
	CHECK(s && s->cat_ns[0] == 1000000 && s->cat_ns[1] == 209000000);
	CHECK_STR(profile_meta_get(&p, "perf summary", "ips"),
		  "avg 1.66205 steps/s, max 5.00000 steps/s, min 0.40000 steps/s");
	CHECK_STR(profile_meta_get(&p, "perf summary", "IPS Unit"), "steps/s");
	profile_release(&p);
}

static void t_two_runs(void)
{
	struct profile p, *r2;
	struct agg a;
	char msg[4096];

	CHECK_EQ(test_load(&p, "tests/golden/paddle/two-runs.txt", NULL, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	CHECK_EQ(profile_nr_runs(&p), 2);
	r2 = profile_run(&p, 1);
	CHECK(p.run_where == NULL);
	CHECK(r2 && !strcmp(r2->run_where, "tests/golden/paddle/two-runs.txt:40"));
	/* The iterations printed before each summary are its run's. */
	CHECK_EQ(p.nr_steps, 3);
	CHECK(r2 && r2->nr_steps == 3);
	CHECK_EQ(attr_i(attr_list_first(&p, &p.steps[2].attrs), "epoch"), 0);
	CHECK(r2 && attr_i(attr_list_first(r2, &r2->steps[0].attrs), "epoch") == 1);
	CHECK(r2 && !strcmp(r2->steps[0].name, "0") && r2->steps[2].total_ns == 320000000);
	CHECK(r2 && r2->nr_step_cats == 2 && !strcmp(r2->step_cats[1], "Compute"));
	agg_ops(r2, NULL, &a);
	CHECK(a.nr == 1 && a.rows[0].device_total_ns == 24000000);
	agg_release(&a);
	agg_ops(&p, NULL, &a);
	CHECK(a.nr == 1 && a.rows[0].device_total_ns == 12000000);
	agg_release(&a);
	/* The model summary stays in Info when there are iterations. */
	CHECK(profile_meta_get(r2, "model summary", "Forward") != NULL);
	profile_release(&p);
}

/* Other training-log dialects: "key: value" pairs anywhere in the line. */
static void t_log_dialects(void)
{
	static const char text[] =
		"[2023/05/10 10:00:00] ppocr INFO: epoch: [1/500], global_step: 10, lr: 0.001000, "
		"loss: 32.100000, avg_reader_cost: 0.35522 s, avg_batch_cost: 0.68124 s, "
		"avg_samples: 12.8, ips: 18.79 samples/s, eta: 3 days, 1:14:38\n"
		"[Train][Epoch 2/120][Iter: 7/5005]lr(PiecewiseDecay): 0.10000, top1: 0.50000, "
		"CELoss: 7.04046, loss: 7.04046, batch_cost: 2.18455s, reader_cost: 1.56212, "
		"ips: 117.18843 samples/s, eta: 15 days, 3:01:55\n"
		"no index here: batch_cost: 0.5 data_cost: 0.1\n";
	struct profile p;
	char msg[4096];

	CHECK_EQ(test_load(&p, test_write("dialects.log", text, sizeof(text) - 1), "paddle", msg, sizeof(msg)),
		 0);
	CHECK_EQ(p.nr_steps, 3);
	/* Epochs 1 and 2: "epoch/index". */
	CHECK_STR(p.steps[0].name, "1/10");
	CHECK_EQ(p.steps[0].total_ns, 681240000);
	CHECK_EQ(p.steps[0].cat_ns[0], 355220000);
	CHECK(attr_d(attr_list_first(&p, &p.steps[0].attrs), "avg_samples") == 12.8);
	CHECK_EQ(attr_i(attr_list_first(&p, &p.steps[0].attrs), "eta_ns"),
		 (((3 * 24 + 1) * 60 + 14) * 60 + 38) * INT64_C(1000000000));
	CHECK_STR(p.steps[1].name, "2/7");
	CHECK_EQ(p.steps[1].total_ns, 2184550000);
	CHECK_EQ(p.steps[1].cat_ns[0], 1562120000);
	CHECK(attr_d(attr_list_first(&p, &p.steps[1].attrs), "celoss") == 7.04046);
	/* No index printed: numbered in the run. */
	CHECK_STR(p.steps[2].name, "2");
	CHECK_EQ(p.steps[2].cat_ns[1], 400000000);
	profile_release(&p);
}

/* ---- bad input --------------------------------------------------------- */

static const char op_head[] =
	"--------------------------------------Operator Summary--------------------------------------\n"
	"Time unit: ms\n"
	"--------------  ------  --------------------------------------  --------------------------------------  \n"
	"Name            Calls   CPU Total / Avg / Max / Min / Ratio(%)  GPU Total / Avg / Max / Min / Ratio(%)  \n"
	"--------------  ------  --------------------------------------  --------------------------------------  \n";
static const char op_row1[] =
	"matmul dygraph  4       2.00 / 0.50 / 0.60 / 0.40 / 50.00       8.00 / 2.00 / 2.10 / 1.90 / 80.00       \n"
	"  matmul compute  4     1.20 / 0.30 / 0.40 / 0.20 / 60.00       8.00 / 2.00 / 2.10 / 1.90 / 100.00      \n"
	"    volta_sgemm_128x64_nn  4  - / - / - / - / -                8.00 / 2.00 / 2.10 / 1.90 / 100.00      \n";
static const char op_row2[] =
	"relu dygraph    2       1.00 / 0.50 / 0.60 / 0.40 / 25.00       2.00 / 1.00 / 1.10 / 0.90 / 20.00       \n";
static const char op_sep[] =
	"--------------  ------  --------------------------------------  --------------------------------------  \n";

/* Concatenate the pieces into a file called NAME. */
static const char *build(const char *name, const char *const *parts)
{
	static char buf[16384];
	size_t used = 0;

	for (; *parts; parts++) {
		size_t n = strlen(*parts);

		if (used + n < sizeof(buf)) {
			memcpy(buf + used, *parts, n);
			used += n;
		}
	}
	return test_write(name, buf, used);
}

static void t_bad_cut_mid_row(void)
{
	static const char cut[] = "relu dygraph    2       1.00 / 0.50 / 0.6";
	const char *path = build("cut.txt", (const char *const[]){ op_head, op_row1, cut, NULL });
	struct profile p;
	struct agg a;
	char msg[4096], want[600];

	/* An error at the cut, and the rows above it kept (rc 1). */
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 1);
	snprintf(want, sizeof(want), "%s:9:", path);
	CHECK(strstr(msg, want) == msg);
	CHECK(strstr(msg, "error: table 'Operator Summary' cut mid-row") != NULL);
	agg_ops(&p, NULL, &a);
	CHECK(a.nr == 1 && !strcmp(a.rows[0].name, "matmul dygraph"));
	agg_release(&a);
	profile_release(&p);
}

static void t_bad_header_no_rows(void)
{
	const char *path = build("norows.txt", (const char *const[]){ op_head, op_sep, "\n", op_head, NULL });
	struct profile p;
	char msg[4096];

	/* Twice: closed at once, and at the end of the file. */
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(warned(&p, "tables with a header but no rows"), 2);
	CHECK(strstr(msg, ":6:1: warning: table 'Operator Summary' has a header but no rows") != NULL);
	profile_release(&p);
}

static void t_bad_columns(void)
{
	/* A row short of a cell, a row whose composite cell is not one, and a
	 * header that does not line up with its separator. */
	static const char short_row[] =
		"add dygraph     2       1.00 / 0.50 / 0.60 / 0.40 / 25.00\n";
	static const char bad_cell[] =
		"mul dygraph     2       1.00 / 0.50 / 0.60 / x / 25.00       2.00 / 1.00 / 1.10 / 0.90 / 20.00\n";
	static const char skewed[] =
		"-------------------Kernel Summary-------------------\n"
		"Time unit: ms\n"
		"----------  ------  ----------------------------------------\n"
		"Name   Calls       GPU Total / Avg / Max / Min / Ratio(%)\n"
		"----------  ------  ----------------------------------------\n"
		"k1          2       1.00 / 0.50 / 0.60 / 0.40 / 25.00\n"
		"----------  ------  ----------------------------------------\n";
	const char *path = build("columns.txt", (const char *const[]){
		op_head, op_row1, short_row, bad_cell, op_row2, op_sep, skewed, NULL });
	struct profile p;
	struct agg a;
	char msg[4096], want[600];

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(warned(&p, "table rows that do not match their header, skipped"), 2);
	CHECK_EQ(warned(&p, "table headers that do not parse"), 1);
	snprintf(want, sizeof(want), "%s:10:", path);
	CHECK(strstr(msg, want) != NULL);
	/* The column of the cell that is not a number. */
	snprintf(want, sizeof(want), "%s:10:46: warning:", path);
	CHECK(strstr(msg, want) != NULL);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 2);
	CHECK(row_named(&a, "relu dygraph") != NULL);
	agg_release(&a);
	agg_kernels(&p, NULL, &a);
	CHECK_EQ(a.nr, 0);
	agg_release(&a);
	profile_release(&p);
}

static void t_bad_binary_tail(void)
{
	char buf[4096];
	size_t used;
	const char *path;
	struct profile p;
	struct agg a;
	char msg[4096], want[600];

	used = (size_t)snprintf(buf, sizeof(buf), "%s%s", op_head, op_row1);
	for (size_t i = 0; i < 300 && used < sizeof(buf); i++)
		buf[used++] = (char)(i * 7919 % 251);
	path = test_write("binary.txt", buf, used);
	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 1);
	snprintf(want, sizeof(want), "%s:9:", path);
	CHECK(strstr(msg, want) != NULL);
	CHECK(strstr(msg, "error: binary data") != NULL);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 1);
	agg_release(&a);
	profile_release(&p);
}

static void t_bad_huge_line(void)
{
	size_t n = 5 << 20, used;
	char *buf = malloc(n + 4096);
	struct profile p;
	struct agg a;
	char msg[4096];

	if (!buf)
		SKIP("out of memory");
	used = (size_t)snprintf(buf, 4096, "%s%s", op_head, op_row1);
	memset(buf + used, 'x', n);
	used += n;
	buf[used++] = '\n';
	memcpy(buf + used, op_row2, sizeof(op_row2) - 1);
	used += sizeof(op_row2) - 1;
	CHECK_EQ(test_load(&p, test_write("huge.txt", buf, used), NULL, msg, sizeof(msg)), 0);
	/* input_line() cuts it at INPUT_MAX_SPAN and skips the rest: one row
	 * that does not parse, and the next row is still read. */
	CHECK_EQ(warned(&p, "table rows that do not match their header, skipped"), 1);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 2);
	agg_release(&a);
	profile_release(&p);
	free(buf);
}

static void t_bad_odd_values(void)
{
	/* An Avg that is not Total/Calls (cells shifted by hand), a row
	 * indented two levels down, a section we do not know, data time over
	 * batch time. */
	static const char odd_avg[] =
		"sum dygraph     4       2.00 / 9.50 / 0.60 / 0.40 / 50.00       8.00 / 2.00 / 2.10 / 1.90 / 80.00       \n"
		"      deep_kernel  4    - / - / - / - / -                       8.00 / 2.00 / 2.10 / 1.90 / 100.00      \n";
	static const char unknown[] =
		"-----------------Frobnication Summary-----------------\n"
		"[06/09 12:53:42] ppdet.engine INFO: Epoch: [0] [1/3] loss: 1.5 eta: 0:00:01 batch_cost: 0.1000 data_cost: 0.2000 ips: 1.0 images/s\n";
	const char *path = build("odd.txt", (const char *const[]){ op_head, odd_avg, op_sep, unknown, NULL });
	struct profile p;
	struct agg a;
	char msg[4096];

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(warned(&p, "rows whose average is not total/calls"), 1);
	CHECK_EQ(warned(&p, "rows indented more than one level below the row above"), 1);
	CHECK_EQ(warned(&p, "summary sections this parser does not know, skipped"), 1);
	CHECK_EQ(warned(&p, "iterations whose data time exceeds the batch time"), 1);
	CHECK(p.nr_steps == 1 && p.steps[0].cat_ns[1] == 0);
	agg_op_kernels(&p, &(struct agg_scope){ .want = name_is, .ctx = "sum dygraph" }, &a);
	CHECK(a.nr == 1 && !strcmp(a.rows[0].name, "deep_kernel"));
	agg_release(&a);
	profile_release(&p);
}

/* Found by the fuzzer: an eta whose nanoseconds overflow int64 (UBSan).
 * Such an eta is left out; the iteration is kept. */
static void t_bad_huge_eta(void)
{
	static const char text[] =
		"ppdet.engine INFO: Epoch: [0] [1/3] eta: 2322222222:59:56 batch_cost: 0.5 data_cost: 0.1\n"
		"ppdet.engine INFO: Epoch: [0] [2/3] eta: 99999 days, 1:00:00 batch_cost: 0.5 data_cost: 0.1\n"
		"ppdet.engine INFO: Epoch: [0] [3/3] eta: 10000 days, 999999:59:59 batch_cost: 0.5\n";
	struct profile p;
	char msg[4096];

	CHECK_EQ(test_load(&p, test_write("eta.log", text, sizeof(text) - 1), NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(p.nr_steps, 3);
	CHECK(attr_find(attr_list_first(&p, &p.steps[0].attrs), "eta_ns") == NULL);
	CHECK(attr_find(attr_list_first(&p, &p.steps[1].attrs), "eta_ns") == NULL);
	CHECK_EQ(attr_i(attr_list_first(&p, &p.steps[2].attrs), "eta_ns"),
		 ((INT64_C(10000) * 24 + 999999) * 3600 + 59 * 60 + 59) * INT64_C(1000000000));
	profile_release(&p);
}

static const char kernel_head[] =
	"-------------------Kernel Summary-------------------\n"
	"Time unit: ms\n"
	"----------  ------  ----------------------------------------\n"
	"Name        Calls   GPU Total / Avg / Max / Min / Ratio(%)\n"
	"----------  ------  ----------------------------------------\n";
static const char kernel_sep[] = "----------  ------  ----------------------------------------\n";

/* Issue 10 item 3: a cut kernel name takes a Kernel Summary row's only
 * when it is certain to be that kernel. */
static void t_link_certain(void)
{
	static const char tree[] =
		"matmul_v2_grad grad_node  120  30.00 / 0.25 / 1.10 / 0.08 / 6.10  130.65 / 1.09 / 7.90 / 0.66 / 40.00\n"
		"  compute  120  25.20 / 0.21 / 1.05 / 0.06 / 84.00  130.65 / 1.09 / 7.90 / 0.66 / 100.00\n"
		"    void cutlass::Kernel<cutlass_70_tensorop_f16_...  72  - / - / - / - / -  50.40 / 0.70 / 0.75 / 0.66 / 38.58\n"
		"    void cutlass::Kernel<cutlass_70_tensorop_f16_...  75  - / - / - / - / -  80.25 / 1.07 / 7.90 / 0.66 / 61.42\n"
		"matmul_v2  120  24.00 / 0.20 / 0.60 / 0.07 / 4.88  27.00 / 0.23 / 9.10 / 0.10 / 20.00\n"
		"  compute  120  20.40 / 0.17 / 0.55 / 0.05 / 85.00  27.00 / 0.23 / 9.10 / 0.10 / 100.00\n"
		"    void cutlass::Kernel<cutlass_70_tensorop_f16_...  3  - / - / - / - / -  27.00 / 9.00 / 9.10 / 8.90 / 100.00\n"
		"softmax dygraph  15  3.00 / 0.20 / 0.30 / 0.10 / 2.00  3.00 / 0.20 / 0.30 / 0.10 / 2.00\n"
		"  softmax compute  10  1.00 / 0.10 / 0.20 / 0.05 / 33.33  2.00 / 0.20 / 0.30 / 0.10 / 66.67\n"
		"    void phi::SoftmaxForwardCUDAKernel<float, flo...  10  - / - / - / - / -  2.00 / 0.20 / 0.30 / 0.10 / 100.00\n"
		"  softmax_grad compute  5  0.50 / 0.10 / 0.20 / 0.05 / 16.67  1.00 / 0.20 / 0.25 / 0.15 / 33.33\n"
		"    void phi::SoftmaxForwardCUDAKernel<float, flo...  5  - / - / - / - / -  1.00 / 0.20 / 0.25 / 0.15 / 100.00\n";
	static const char sums[] =
		"volta_h884gemm_64x128_ldg8_nn  10  5.00 / 0.50 / 0.60 / 0.40 / 4.35\n"
		"void cutlass::Kernel<cutlass_70_tensorop_f16_s884gemm_f16_256x128_nt_align8>  75  80.25 / 1.07 / 7.90 / 0.66 / 69.72\n"
		"void phi::SoftmaxForwardCUDAKernel<float, float, 4>  15  3.00 / 0.20 / 0.30 / 0.10 / 2.61\n"
		"void phi::SoftmaxForwardCUDAKernel<float, float, 8>  4  0.40 / 0.10 / 0.12 / 0.08 / 0.35\n";
	const char *path = build("link.txt", (const char *const[]){ op_head, tree, op_sep, kernel_head,
								     sums, kernel_sep, NULL });
	struct profile p;
	struct agg a;
	const struct agg_row *r;
	char msg[4096], want[600];

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	/* The 75-call kernel has the row's every number: linked.  The
	 * 72-call one fits the row too, but with the 75 calls it would make
	 * 147 of 75; the 3-call one's max, 9.10 ms, is over the row's. */
	agg_kernel_ops(&p, &(struct agg_scope){ .want = name_is, .ctx =
		"void cutlass::Kernel<cutlass_70_tensorop_f16_s884gemm_f16_256x128_nt_align8>" }, &a);
	CHECK_EQ(a.nr, 1);
	CHECK(a.nr && !strcmp(a.rows[0].name, "matmul_v2_grad grad_node"));
	agg_release(&a);
	agg_op_kernels(&p, &(struct agg_scope){ .want = name_is, .ctx = "matmul_v2" }, &a);
	CHECK(a.nr == 1 && !strcmp(a.rows[0].name, "void cutlass::Kernel<cutlass_70_tensorop_f16_...") &&
	      (a.rows[0].node_flags & NODE_NAME_TRUNCATED) && a.rows[0].calls == 3);
	agg_release(&a);
	CHECK_EQ(warned(&p, CUT_KERNELS), 2);
	snprintf(want, sizeof(want), "%s:8:5: warning: kernel 'void cutlass::Kernel<cutlass_70_tensorop_f16_...' "
		 "fits one Kernel Summary row, but other kernels of the tree take its calls or time", path);
	CHECK(strstr(msg, want) != NULL);
	snprintf(want, sizeof(want), "%s:12:5: warning: kernel 'void cutlass::Kernel<cutlass_70_tensorop_f16_...' "
		 "fits no Kernel Summary row", path);
	CHECK(strstr(msg, want) != NULL);
	/* Launched by two phases, 10 and 5 calls: the one row of 15 calls
	 * fits both, and together they make its calls and time. */
	agg_kernel_ops(&p, &(struct agg_scope){ .want = name_is, .ctx =
		"void phi::SoftmaxForwardCUDAKernel<float, float, 4>" }, &a);
	r = row_named(&a, "softmax dygraph");
	CHECK(a.nr == 1 && r && r->calls == 15);
	agg_release(&a);
	profile_release(&p);
}

/* A line inside a table that is no row ("# 此处有省略", "omitted here"):
 * rows are missing there, so nothing is added up across it. */
static void t_table_gap(void)
{
	static const char tree[] =
		"matmul dygraph  4  2.00 / 0.50 / 0.60 / 0.40 / 50.00  8.00 / 2.00 / 2.10 / 1.90 / 80.00\n"
		"  matmul infer_meta  4  0.20 / 0.05 / 0.06 / 0.04 / 10.00  0.00 / 0.00 / 0.00 / 0.00 / 0.00\n"
		"  matmul compute  4  1.20 / 0.30 / 0.40 / 0.20 / 60.00  8.00 / 2.00 / 2.10 / 1.90 / 100.00\n"
		"    # 此处有省略\n"
		"  matmul node_creation  4  0.10 / 0.03 / 0.04 / 0.02 / 5.00  0.00 / 0.00 / 0.00 / 0.00 / 0.00\n"
		"# 此处有省略\n"
		"    volta_sgemm_128x64_nn  4  - / - / - / - / -  8.00 / 2.00 / 2.10 / 1.90 / 100.00\n"
		"    volta_sgemm_64x64_nn  4  - / - / - / - / -  1.00 / 0.25 / 0.30 / 0.20 / 100.00\n"
		"relu dygraph  2  1.00 / 0.50 / 0.60 / 0.40 / 25.00  2.00 / 1.00 / 1.10 / 0.90 / 20.00\n";
	const char *path = build("gap.txt", (const char *const[]){ op_head, tree, op_sep, NULL });
	struct profile p;
	struct agg a;
	const struct agg_row *r;
	char msg[4096];

	CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(warned(&p, "table rows that do not match their header, skipped"), 2);
	agg_ops(&p, NULL, &a);
	/* The kernels after the second gap belong under a row left out, not
	 * under matmul, and are no ops: skipped. */
	CHECK_EQ(a.nr, 2);
	CHECK_EQ(warned(&p, "rows whose parent row was left out, skipped"), 2);
	/* Host self: 2.00 less its phases before the gap, not node_creation
	 * after it (the row above the gap may not be its parent). */
	r = row_named(&a, "matmul dygraph");
	CHECK(r && r->host_self_ns == 2000000 - 200000 - 1200000);
	agg_release(&a);
	agg_op_kernels(&p, &(struct agg_scope){ .want = name_is, .ctx = "matmul dygraph" }, &a);
	CHECK_EQ(a.nr, 0);
	agg_release(&a);
	profile_release(&p);
}

/* Issue 10 item 5: what the file states of a row -- a kernel's share, a
 * mean -- is kept for the panes to show, where the numbers it has would
 * give another (the Kernel Summary is quoted in part: the share of the
 * kernels shown is not the share of all kernel time). */
static void t_file_values(void)
{
	struct profile p;
	struct agg a;
	const struct agg_row *r;
	char msg[4096];

	CHECK_EQ(test_load(&p, "tests/golden/paddle/omitted.txt", NULL, msg, sizeof(msg)), 0);
	agg_kernels(&p, NULL, &a);
	r = row_named(&a, "void cutlass::Kernel<cutlass_70_tensorop_f16_s884gemm_f16_256x128_nt_align8>");
	CHECK(r && r->nr_nodes == 1);
	/* 6.35% as printed; of the two rows shown it would be 39.09% */
	CHECK(r && attr_d(node_attrs(r->first), ATTR_FILE_DEVICE_TOTAL_PCT) == 6.35);
	CHECK(r && attr_i(node_attrs(r->first), ATTR_FILE_DEVICE_MEAN) == 1050000);
	CHECK(r && !attr_find(node_attrs(r->first), ATTR_FILE_HOST_MEAN));
	agg_release(&a);
	agg_ops(&p, NULL, &a);
	r = row_named(&a, "matmul_v2_grad grad_node");
	/* Avg 0.98 ms as printed (117.20 ms over 120 calls is 0.977) */
	CHECK(r && attr_i(node_attrs(r->first), ATTR_FILE_DEVICE_MEAN) == 980000);
	CHECK(r && attr_i(node_attrs(r->first), ATTR_FILE_HOST_MEAN) == 250000);
	/* An op's Ratio(%) is of the ops in its thread, no share a pane has */
	CHECK(r && !attr_find(node_attrs(r->first), ATTR_FILE_DEVICE_SELF_PCT));
	CHECK(r && !attr_find(node_attrs(r->first), ATTR_FILE_DEVICE_TOTAL_PCT));
	CHECK(r && !attr_find(node_attrs(r->first), ATTR_FILE_HOST_TOTAL_PCT));
	agg_release(&a);
	profile_release(&p);
}

/* Issue 10 item 9: PaddleFleetX's training log, found by its content;
 * integers stay integers. */
static void t_fleetx_log(void)
{
	struct profile p;
	const struct step *s;
	const struct attr *a;
	char msg[4096];

	CHECK_EQ(test_load(&p, "tests/golden/paddle/fleetx-gpt.log", NULL, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	CHECK_STR(p.format, "paddle");
	/* "[eval]" lines have no batch cost: no steps */
	CHECK_EQ(p.nr_steps, 5);
	/* "batch: N" is the index in the epoch */
	CHECK_STR(p.steps[0].name, "0/0");
	CHECK_STR(p.steps[3].name, "1/0");
	s = &p.steps[1];
	CHECK_EQ(s->total_ns, 1185610000);
	/* no data cost printed: no split into data and compute either */
	CHECK_EQ(s->cat_ns[0], -1);
	CHECK_EQ(s->cat_ns[1], -1);
	a = attr_find(attr_list_first(&p, &s->attrs), "ips");
	CHECK(a && attr_type(a) == ATTR_INT && a->v.i == 3455);
	a = attr_find(attr_list_first(&p, &s->attrs), "ips_total");
	CHECK(a && attr_type(a) == ATTR_INT && a->v.i == 3455);
	CHECK(attr_d(attr_list_first(&p, &s->attrs), "loss") == 11.008216858);
	CHECK(attr_d(attr_list_first(&p, &s->attrs), "speed") == 0.84);
	CHECK(attr_d(attr_list_first(&p, &s->attrs), "learning_rate") == 5.55556e-09);
	CHECK_EQ(attr_i(attr_list_first(&p, &s->attrs), "epoch"), 0);
	CHECK(attr_find(attr_list_first(&p, &s->attrs), "batch") == NULL);
	CHECK(attr_find(attr_list_first(&p, &s->attrs), "rate") == NULL);
	profile_release(&p);
}

static void t_bad_not_paddle(void)
{
	static const char text[] = "just some words\nand a second line\n";
	struct profile p;
	char msg[4096];

	CHECK_EQ(test_load(&p, test_write("words.txt", text, sizeof(text) - 1), "paddle", msg, sizeof(msg)),
		 -1);
	CHECK(strstr(msg, "error: no PaddlePaddle profiler summary") != NULL);
	profile_release(&p);
}

const struct test tests[] = {
	{ "seed 001: ops, drill-down, kernels, steps, info", t_seed001 },
	{ "corpus: the profiling guide loads as two runs", t_corpus_docs },
	{ "corpus: FleetX's newer hierarchy", t_corpus_fleetx },
	{ "probe: ours claimed, the other formats not", t_probe },
	{ "fixture: 2.3-era summary in us", t_fixture_23 },
	{ "fixture: threads, FLOPs, overflowing names, memory", t_fixture_new },
	{ "fixture: training log over two epochs", t_train_log },
	{ "fixture: a summary per epoch is a run", t_two_runs },
	{ "training-log dialects", t_log_dialects },
	{ "bad input: table cut mid-row", t_bad_cut_mid_row },
	{ "bad input: header with no rows", t_bad_header_no_rows },
	{ "bad input: columns that do not line up", t_bad_columns },
	{ "bad input: binary garbage after a valid start", t_bad_binary_tail },
	{ "bad input: a 5 MB line inside a table", t_bad_huge_line },
	{ "bad input: odd values are counted warnings", t_bad_odd_values },
	{ "bad input: an eta too large for int64 ns", t_bad_huge_eta },
	{ "bad input: not Paddle at all", t_bad_not_paddle },
	{ "kernels: a cut name linked only when certain", t_link_certain },
	{ "a line that is no row: nothing added up across it", t_table_gap },
	{ "the file's own means and kernel shares are kept", t_file_values },
	{ "PaddleFleetX training log", t_fleetx_log },
	{ 0 }
};
