// SPDX-License-Identifier: MIT
/*
 * PyTorch key_averages().table() text: the numbers issue 4 names for seed
 * 003, every corpus file, the project's own fixtures of each variant
 * (tests/golden/torch-table/), bad input, and detection.  Seeds and corpus
 * are read in place from ../shared; those tests skip when it is absent.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "model/aggregate.h"
#include "parsers/parser.h"
#include "test.h"

#define FIX "tests/golden/torch-table/"
#define SEED003 "../shared/seeds/003_a601f03079a8f23b.txt"

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static char corpus_path[512];

static const char *corpus(const char *name)
{
	snprintf(corpus_path, sizeof(corpus_path), "%s/pytorch-key-averages/%s", test_corpus_dir(), name);
	return corpus_path;
}

/* Load PATH into P (left for the caller to release); messages into MSG. */
static int load(const char *path, const char *format, struct profile *p, char *msg, size_t cap)
{
	return test_load(p, path, format, msg, cap);
}

/* The Nth (0-based) Operators row called NAME, copied into *OUT. */
static bool op_row(const struct profile *run, const char *name, int nth, struct agg_row *out)
{
	struct agg a;
	bool found = false;

	agg_ops(run, NULL, &a);
	for (size_t i = 0; i < a.nr && !found; i++)
		if (!strcmp(a.rows[i].name, name) && nth-- == 0) {
			*out = a.rows[i];
			found = true;
		}
	agg_release(&a);
	return found;
}

static bool kernel_row(const struct profile *run, const char *name, struct agg_row *out)
{
	struct agg a;
	bool found = false;

	agg_kernels(run, NULL, &a);
	for (size_t i = 0; i < a.nr && !found; i++)
		if (!strcmp(a.rows[i].name, name)) {
			*out = a.rows[i];
			found = true;
		}
	agg_release(&a);
	return found;
}

static size_t nr_kernels(const struct profile *run)
{
	struct agg a;
	size_t n;

	agg_kernels(run, NULL, &a);
	n = a.nr;
	agg_release(&a);
	return n;
}

static size_t nr_ops(const struct profile *run)
{
	struct agg a;
	size_t n;

	agg_ops(run, NULL, &a);
	n = a.nr;
	agg_release(&a);
	return n;
}

/* The rows read: the root's children, whatever each turned out to be. */
static size_t nr_rows(const struct profile *run)
{
	size_t n = 0;

	for (const struct node *c = node_first_child(run->root); c; c = node_next(c))
		n++;
	return n;
}

static uint64_t warnings(const struct profile *run, const char *text)
{
	for (const struct warning *w = run->warnings; w; w = w->next)
		if (!strcmp(w->text, text))
			return w->count;
	return 0;
}

static const struct attr *row_attr(const struct agg_row *r, const char *key)
{
	return attr_find(node_attrs(r->first), key);
}

/* The Nth node called NAME of kind KIND anywhere in RUN's tree. */
struct find {
	const char *name;
	enum node_kind kind;
	int nth;
	const struct node *found;
};

static bool find_node(struct node *n, void *ctx)
{
	struct find *f = ctx;

	if (!f->found && n->kind == f->kind && !strcmp(node_name(n), f->name) && f->nth-- == 0)
		f->found = n;
	return !f->found;
}

static const struct node *node_named(const struct profile *run, const char *name, enum node_kind kind,
				     int nth)
{
	struct find f = { name, kind, nth, NULL };

	node_walk(run->root, find_node, &f);
	return f.found;
}

/* Whether node N states the percentage PCT under KEY (to the file's 2 decimals). */
static bool has_pct(const struct node *n, const char *key, double pct)
{
	const struct attr *a = n ? attr_find(node_attrs(n), key) : NULL;

	return a && attr_type(a) == ATTR_DOUBLE && a->v.d > pct - 0.0001 && a->v.d < pct + 0.0001;
}

static bool has_ns(const struct node *n, const char *key, int64_t ns)
{
	const struct attr *a = n ? attr_find(node_attrs(n), key) : NULL;

	return a && attr_type(a) == ATTR_NS && a->v.i == ns;
}

static bool lacks(const struct node *n, const char *key)
{
	return n && !attr_find(node_attrs(n), key);
}

static void test_seed003_acceptance(void)
{
	struct profile p;
	struct agg_row r;
	const struct profile *run2;
	const struct node *n;
	char msg[4096];

	if (!exists(SEED003))
		SKIP("no seed 003 at ../shared/seeds");
	CHECK_EQ(load(SEED003, NULL, &p, msg, sizeof(msg)), 0);
	CHECK_STR(p.format, "torch-table");
	CHECK_EQ(profile_nr_runs(&p), 2);
	/* Operators (run 1): aten::cudnn_convolution. */
	CHECK(op_row(&p, "aten::cudnn_convolution", 0, &r));
	CHECK_EQ(r.calls, 300);
	CHECK_EQ(r.device_self_ns, 1760000000LL);
	CHECK_EQ(r.host_self_ns, 45800000LL);
	CHECK(!op_row(&p, "aten::cudnn_convolution", 1, &r));
	/* 30 rows, 3 of them runtime calls (cudaStreamSynchronize,
	 * cudaLaunchKernel, cudaMemcpyAsync): not ops (issue 28 item 11). */
	CHECK_EQ(nr_rows(&p), 30);
	CHECK_EQ(nr_ops(&p), 27);
	/* Run 1 is sorted by CPU total and has no device-only rows. */
	CHECK_EQ(nr_kernels(&p), 0);
	CHECK_STR(p.run_title, "СТАТИСТИКА ПО CPU");
	CHECK_STR(profile_meta_get(&p, "table", "sorted by"), "CPU total");
	CHECK_STR(profile_meta_get(&p, "totals", "Self CUDA time total"), "4.405s");
	/* --run 2: the CUDA-sorted table; its Kernels pane. */
	run2 = profile_run(&p, 1);
	CHECK(run2 != NULL);
	if (run2) {
		char where[600];

		snprintf(where, sizeof(where), "%s:47", SEED003);
		CHECK_STR(run2->run_where, where);
		CHECK_STR(run2->run_title, "СТАТИСТИКА ПО CUDA");
		CHECK_STR(profile_meta_get(run2, "table", "sorted by"), "CUDA total");
		CHECK(kernel_row(run2, "volta_sgemm_128x64_nn", &r));
		CHECK_EQ(r.calls, 200);
		CHECK_EQ(r.device_total_ns, 818023000LL);
		/* The device twin of "forward" is an annotation, not a kernel;
		 * the memcpy row is a copy, not a kernel. */
		CHECK(!kernel_row(run2, "forward", &r));
		CHECK(!kernel_row(run2, "Memcpy HtoD (Pinned -> Device)", &r));
		CHECK_EQ(nr_kernels(run2), 9);
		CHECK(op_row(run2, "forward", 0, &r) && r.host_total_ns == 567981000LL);
		CHECK(!op_row(run2, "forward", 1, &r));
		n = node_named(run2, "forward", NODE_ANNOTATION, 0);
		CHECK(n && node_device_total(run2, n) == 4245000000LL);
		/* Truncated kernel names stay as printed, marked. */
		CHECK(kernel_row(run2, "void cudnn::bn_fw_inf_1C11_kernel_NCHW<float, float,...", &r));
		CHECK(r.first->flags & NODE_NAME_TRUNCATED);
	}
	profile_release(&p);
}

static void test_corpus_loads(void)
{
	static const struct {
		const char *file;
		size_t runs, rows0, ops0;	/* ops: host rows, not runtime calls */
	} files[] = {
		{ "UnderOC_CS4302YOLO-Project__profile_results.txt", 1, 20, 6 },
		{ "chenwg2000_nanogpt-fp8-mxfp8__profile_output.txt", 2, 30, 22 },
		{ "jovsa_scalify__docs_tracking_flops.md", 1, 10, 8 },
	};
	char msg[8192];

	if (!exists(corpus(files[0].file)))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct profile p;

		CHECK_EQ(load(corpus(files[i].file), NULL, &p, msg, sizeof(msg)), 0);
		CHECK_STR(p.format, "torch-table");
		CHECK(!strstr(msg, "error"));
		CHECK(p.warnings == NULL);
		CHECK_EQ(profile_nr_runs(&p), files[i].runs);
		CHECK_EQ(nr_rows(&p), files[i].rows0);
		CHECK_EQ(nr_ops(&p), files[i].ops0);
		profile_release(&p);
	}
}

static void test_corpus_numbers(void)
{
	struct profile p;
	struct agg_row r;
	const struct node *n;
	char msg[4096];
	const struct attr *a;

	if (!exists(corpus("UnderOC_CS4302YOLO-Project__profile_results.txt")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	/* Clean modern table: kernels, memcpy rows, truncation, footer. */
	load(corpus("UnderOC_CS4302YOLO-Project__profile_results.txt"), NULL, &p, msg, sizeof(msg));
	CHECK(kernel_row(&p, "ampere_sgemm_128x32_nn", &r));
	CHECK_EQ(r.calls, 2880);
	CHECK_EQ(r.device_total_ns, 80746000);
	CHECK(!kernel_row(&p, "Memcpy DtoH (Device -> Pageable)", &r));
	CHECK(!op_row(&p, "Memcpy DtoH (Device -> Pageable)", 0, &r));
	n = node_named(&p, "Memcpy DtoH (Device -> Pageable)", NODE_MEMCPY, 0);
	CHECK(n && node_device_self(&p, n) == 367211000 && node_calls(&p, n) == 6817);
	CHECK(!op_row(&p, "void at::native::im2col_kernel<float>(long, float co...", 0, &r));
	CHECK(kernel_row(&p, "void at::native::im2col_kernel<float>(long, float co...", &r));
	CHECK(r.first->flags & NODE_NAME_TRUNCATED);
	CHECK(op_row(&p, "aten::_slow_conv2d_forward", 0, &r));
	CHECK_EQ(r.host_total_ns, 759088000);
	CHECK_EQ(r.device_total_ns, 309142000);
	CHECK_EQ(nr_kernels(&p), 12);
	CHECK_STR(profile_meta_get(&p, "totals", "Self CUDA time total"), "842.085ms");
	CHECK_STR(p.run_title, "sorted by Self CUDA");
	profile_release(&p);

	/* Two tables in a training log: titles, duplicated names, twins. */
	load(corpus("chenwg2000_nanogpt-fp8-mxfp8__profile_output.txt"), NULL, &p, msg, sizeof(msg));
	CHECK_STR(p.run_title, "Top 30 CUDA Kernels by cuda_time_total");
	/* The host range is an op, its device-side copy an annotation. */
	CHECK(op_row(&p, "DistributedDataParallel.forward", 0, &r));
	CHECK_EQ(r.host_total_ns, 1893000000LL);
	CHECK_EQ(r.device_total_ns, 2024000000LL);
	CHECK(!op_row(&p, "DistributedDataParallel.forward", 1, &r));
	CHECK(!kernel_row(&p, "DistributedDataParallel.forward", &r));
	n = node_named(&p, "DistributedDataParallel.forward", NODE_ANNOTATION, 0);
	CHECK(n && node_device_total(&p, n) == 2549000000LL);
	/* Two different kernels cut to the same name stay two rows. */
	CHECK_EQ(nr_kernels(&p), 7);
	CHECK(profile_run(&p, 1) != NULL);
	if (profile_run(&p, 1)) {
		const struct profile *run2 = profile_run(&p, 1);

		CHECK_STR(run2->run_title, "Top 10 by self_cpu_time_total");
		/* Runtime calls, not ops; "Command Buffer Full" is no API's. */
		CHECK(!op_row(run2, "cudaStreamSynchronize", 0, &r));
		n = node_named(run2, "cudaStreamSynchronize", NODE_RUNTIME, 0);
		CHECK(n && node_host_self(run2, n) == 2672000000LL);
		CHECK(n && node_device_total(run2, n) == 2176 && node_calls(run2, n) == 127);
		CHECK(node_named(run2, "cudaLaunchKernel", NODE_RUNTIME, 0) != NULL);
		CHECK(op_row(run2, "Command Buffer Full", 0, &r));
		CHECK_EQ(nr_ops(run2), 8);
	}
	profile_release(&p);

	/* Markdown, old memory units. */
	load(corpus("jovsa_scalify__docs_tracking_flops.md"), NULL, &p, msg, sizeof(msg));
	CHECK(op_row(&p, "aten::ones", 0, &r));
	a = row_attr(&r, "device_mem_bytes");
	CHECK(a && attr_type(a) == ATTR_INT && a->v.i == 256LL * 1024 * 1024);
	CHECK(op_row(&p, "aten::sum", 0, &r));
	a = row_attr(&r, "self_device_mem_bytes");
	CHECK(a && a->v.i == 512);
	CHECK(op_row(&p, "aten::mm", 0, &r));
	CHECK_EQ(r.device_self_ns, 230208000);
	profile_release(&p);
}

static void test_fixture_modern(void)
{
	struct profile p;
	struct agg_row r;
	struct agg a;
	const struct node *n;
	char msg[4096];

	CHECK_EQ(load(FIX "modern.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK_STR(p.run_title, "Profile stats for: training_step rank: 0");
	CHECK_EQ(nr_rows(&p), 13);
	/* Host rows are ops but for cudaLaunchKernel, a runtime call;
	 * kernels, the copy, the set and the device copy of ProfilerStep*
	 * are no ops either. */
	CHECK_EQ(nr_ops(&p), 7);
	CHECK(node_named(&p, "cudaLaunchKernel", NODE_RUNTIME, 0) != NULL);
	/* A non-ASCII name: Python pads by characters, not bytes. */
	CHECK(op_row(&p, "обучение::шаг", 0, &r));
	CHECK_EQ(r.host_total_ns, 40100000);
	CHECK_EQ(r.device_total_ns, 30800000);
	CHECK(row_attr(&r, "self_device_mem_bytes") && row_attr(&r, "self_device_mem_bytes")->v.i == -96LL * 1024 * 1024);
	/* ProfilerStep* twice: the host op, and its device-side copy -- an
	 * annotation, neither an op nor a kernel. */
	CHECK(op_row(&p, "ProfilerStep*", 0, &r));
	CHECK_EQ(r.host_total_ns, 48200000);
	CHECK(!op_row(&p, "ProfilerStep*", 1, &r));
	CHECK(!kernel_row(&p, "ProfilerStep*", &r));
	n = node_named(&p, "ProfilerStep*", NODE_ANNOTATION, 0);
	CHECK(n && node_device_self(&p, n) == 32110000 && node_host_total(&p, n) == 0);
	/* Copies and sets are device work but not kernels, nor ops. */
	CHECK_EQ(nr_kernels(&p), 2);
	CHECK(!kernel_row(&p, "Memcpy HtoD (Pageable -> Device)", &r));
	CHECK(!op_row(&p, "Memcpy HtoD (Pageable -> Device)", 0, &r));
	n = node_named(&p, "Memset (Device)", NODE_MEMSET, 0);
	CHECK(n && node_device_total(&p, n) == 9250 && node_parent(n) == p.root);
	/* The table says of no kernel which op launched it. */
	agg_op_kernels(&p, NULL, &a);
	CHECK_EQ(a.nr, 0);
	agg_release(&a);
	CHECK(kernel_row(&p, "void cudnn::implicit_convolve_sgemm<float, float, 10...", &r));
	CHECK_EQ(r.calls, 4);
	CHECK_EQ(r.device_total_ns, 14200000);
	CHECK(r.first->flags & NODE_NAME_TRUNCATED);
	CHECK(op_row(&p, "aten::empty", 0, &r));
	CHECK(row_attr(&r, "cpu_mem_bytes") && row_attr(&r, "cpu_mem_bytes")->v.i == 2560);
	CHECK(row_attr(&r, "device_mem_bytes") && row_attr(&r, "device_mem_bytes")->v.i == 768LL << 20);
	CHECK_STR(profile_meta_get(&p, "totals", "Self CPU time total"), "3.683ms");
	profile_release(&p);
}

static void test_fixture_old(void)
{
	struct profile p;
	struct agg_row r;
	char msg[4096];

	/* PyTorch <= 1.7: left-aligned, "Self CPU total", "Number of Calls". */
	CHECK_EQ(load(FIX "old-1.7.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK_EQ(nr_ops(&p), 6);
	CHECK(op_row(&p, "addmm", 0, &r));
	CHECK_EQ(r.calls, 3);
	CHECK_EQ(r.host_self_ns, 1830000);
	CHECK_EQ(r.host_total_ns, 2108000);
	CHECK_EQ(r.device_total_ns, 1650000);
	CHECK(op_row(&p, "copy_", 0, &r));
	CHECK_EQ(r.host_self_ns, 5700000);
	CHECK_STR(profile_meta_get(&p, "totals", "CUDA time total"), "28.605ms");
	CHECK(p.warnings == NULL);
	profile_release(&p);
}

static void test_fixture_stack_flops(void)
{
	struct profile p;
	struct agg_row r;
	const struct attr *a;
	char msg[4096];

	CHECK_EQ(load(FIX "xpu-stack.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK_STR(profile_meta_get(&p, "table", "device"), "XPU");
	CHECK_STR(profile_meta_get(&p, "table", "rows"), "top-level ops only");
	CHECK_STR(p.run_title, "XPU profile of one training step (bench_xpu.py, batch 32)");
	CHECK_EQ(nr_ops(&p), 4);
	CHECK(op_row(&p, "aten::linear", 0, &r));
	CHECK_EQ(r.host_total_ns, 410000);
	CHECK_EQ(r.device_total_ns, 388000);
	/* FLOPs: "Total MFLOPs" values, scaled to FLOPs. */
	a = row_attr(&r, "flops");
	CHECK(a && attr_type(a) == ATTR_DOUBLE && a->v.d > 2147483999.0 && a->v.d < 2147484001.0);
	a = row_attr(&r, "source_location");
	CHECK(a && !strcmp(a->v.s, "train.py(41): forward; ...n/modules/module.py(1511): _call_impl; "
				   "train.py(77): step"));
	a = row_attr(&r, "input_shapes");
	CHECK(a && !strcmp(a->v.s, "[[32, 512], [1024, 512], [1024]]"));
	CHECK(op_row(&p, "aten::add", 0, &r));
	CHECK(row_attr(&r, "overload_name") && !strcmp(row_attr(&r, "overload_name")->v.s, "Tensor"));
	CHECK(row_attr(&r, "node_id") && row_attr(&r, "node_id")->v.i == 11);
	CHECK_EQ(r.device_self_ns, 6500);
	CHECK(op_row(&p, "aten::relu", 0, &r));
	CHECK(row_attr(&r, "flops") == NULL);	/* "--" */
	CHECK(p.warnings == NULL);
	profile_release(&p);
}

static void test_fixture_log_and_markdown(void)
{
	struct profile p;
	struct agg_row r;
	const struct node *n;
	const struct profile *run2;
	char msg[4096];

	/* A table per epoch: one run each, in file order. */
	CHECK_EQ(load(FIX "epochs.log", NULL, &p, msg, sizeof(msg)), 0);
	CHECK_EQ(profile_nr_runs(&p), 2);
	CHECK_STR(p.run_title, "sorted by MLU total");
	CHECK(kernel_row(&p, "MLUKernelGemm", &r));
	CHECK_EQ(r.device_total_ns, 5100000);
	CHECK(!kernel_row(&p, "Memcpy HtoD", &r));
	run2 = profile_run(&p, 1);
	CHECK(run2 != NULL);
	if (run2) {
		CHECK_STR(run2->run_where, FIX "epochs.log:19");
		CHECK(op_row(run2, "aten::mm", 0, &r));
		CHECK_EQ(r.host_self_ns, 590000);
		CHECK(kernel_row(run2, "MLUKernelGemm", &r));
		CHECK_EQ(r.device_total_ns, 5095000);
	}
	profile_release(&p);

	/* Indented Markdown copy without separators, one row misaligned. */
	CHECK_EQ(load(FIX "notes.md", NULL, &p, msg, sizeof(msg)), 0);
	CHECK_EQ(nr_rows(&p), 5);
	CHECK_EQ(nr_ops(&p), 3);
	CHECK_EQ(warnings(&p, "tables without separator lines (columns split on blanks)"), 1);
	CHECK(kernel_row(&p, "MLUKernelGemm", &r));
	CHECK_EQ(r.device_self_ns, 5100000);
	n = node_named(&p, "Memcpy HtoD", NODE_MEMCPY, 0);
	CHECK(n && node_calls(&p, n) == 4);
	CHECK_STR(profile_meta_get(&p, "totals", "Self CPU time total"), "855.000us");
	profile_release(&p);
}

/*
 * Issue 28 item 11: rows of one name are told apart by what the table says
 * of each.  A record_function range and its device-side copy (host time
 * vs device time only, the host row launching nothing itself), a Triton
 * launch and the kernel of its name (the host row's device self time
 * holds the kernel's): the op is an op, the copy an annotation, the
 * kernel a kernel -- in Kernels, not in Operators.
 */
static void test_same_name_rows(void)
{
	struct profile p;
	struct agg_row r;
	const struct node *n;
	char msg[4096];

	CHECK_EQ(load(FIX "same-name.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK(p.warnings == NULL);
	CHECK_EQ(nr_rows(&p), 10);
	CHECK(op_row(&p, "triton_poi_fused_add_mul_0", 0, &r) && r.host_self_ns == 45000);
	CHECK(!op_row(&p, "triton_poi_fused_add_mul_0", 1, &r));
	CHECK(kernel_row(&p, "triton_poi_fused_add_mul_0", &r));
	CHECK(r.device_total_ns == 640000 && r.calls == 4 && r.first->kind == NODE_KERNEL);
	CHECK(kernel_row(&p, "ampere_sgemm_128x64_nn", &r) && r.device_total_ns == 2220000);
	CHECK(!op_row(&p, "ampere_sgemm_128x64_nn", 0, &r));
	CHECK_EQ(nr_kernels(&p), 2);
	/* Driver and runtime launches are runtime calls. */
	CHECK(node_named(&p, "cuLaunchKernel", NODE_RUNTIME, 0) != NULL);
	CHECK(node_named(&p, "cudaLaunchKernel", NODE_RUNTIME, 0) != NULL);
	CHECK_EQ(nr_ops(&p), 4);
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "model_inference" : "ProfilerStep*";

		CHECK(op_row(&p, name, 0, &r) && r.host_total_ns > 0 && r.device_self_ns == 0);
		CHECK(!op_row(&p, name, 1, &r));
		CHECK(!kernel_row(&p, name, &r));
		n = node_named(&p, name, NODE_ANNOTATION, 0);
		CHECK(n && node_host_total(&p, n) == 0 && node_device_total(&p, n) == (i ? 2950000 : 2990000));
	}
	profile_release(&p);
}

/* Device work listed among the ops (ROCm kernels, a copy, a set) is not an
 * op, nor are runtime calls; the kernels are the Kernels pane's rows, with
 * no host columns. */
static void test_device_rows_among_ops(void)
{
	static const char *const ops[] = { "aten::conv2d", "aten::convolution", "aten::miopen_convolution",
					   "aten::copy_", "aten::relu_", "aten::clamp_min_", "aten::zero_",
					   "aten::fill_", "aten::empty" };
	struct profile p;
	struct agg_row r;
	const struct node *n;
	char msg[4096];

	CHECK_EQ(load(FIX "among-ops.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK(p.warnings == NULL);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		CHECK(op_row(&p, ops[i], 0, &r));
	CHECK(kernel_row(&p, "void MIOpenConvUni<float, float, float, 3, 3, 1, 1, ...", &r));
	CHECK(r.device_total_ns == 1800000 && (r.first->flags & NODE_NAME_TRUNCATED));
	CHECK(lacks(r.first, "cpu_mem_bytes") && lacks(r.first, ATTR_FILE_HOST_SELF_PCT));
	CHECK(has_pct(r.first, ATTR_FILE_DEVICE_SELF_PCT, 41.84));
	CHECK(!op_row(&p, "void MIOpenConvUni<float, float, float, 3, 3, 1, 1, ...", 0, &r));
	CHECK(kernel_row(&p, "void at::native::vectorized_elementwise_kernel<4, at...", &r));
	CHECK_EQ(nr_kernels(&p), 2);
	n = node_named(&p, "Memcpy HtoD (Host -> Device)", NODE_MEMCPY, 0);
	CHECK(n && node_device_total(&p, n) == 250000);
	n = node_named(&p, "Memset (Device)", NODE_MEMSET, 0);
	CHECK(n && node_device_total(&p, n) == 6000);
	CHECK(!op_row(&p, "Memcpy HtoD (Host -> Device)", 0, &r));
	CHECK(!op_row(&p, "Memset (Device)", 0, &r));
	/* HIP's launches and copies are runtime calls. */
	CHECK(node_named(&p, "hipLaunchKernel", NODE_RUNTIME, 0) != NULL);
	CHECK(node_named(&p, "hipMemcpyWithStream", NODE_RUNTIME, 0) != NULL);
	CHECK(node_named(&p, "hipExtModuleLaunchKernel", NODE_RUNTIME, 0) != NULL);
	CHECK_EQ(nr_ops(&p), ARRAY_SIZE(ops));
	profile_release(&p);
}

/* key_averages(group_by_input_shape=True) and (group_by_stack_n=2): the
 * rows of one op stay apart, each with its shapes or its stack; the
 * kernels' "[]" and empty stacks are not theirs. */
static void test_grouped_rows(void)
{
	struct profile p;
	struct agg_row r;
	const struct attr *a;
	char msg[4096];

	CHECK_EQ(load(FIX "by-shape.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK(p.warnings == NULL);
	CHECK(op_row(&p, "aten::addmm", 0, &r) && r.device_self_ns == 1150000);
	a = row_attr(&r, "input_shapes");
	CHECK(a && !strcmp(a->v.s, "[[1024], [32, 512], [512, 1024], [], []]"));
	CHECK(op_row(&p, "aten::addmm", 1, &r) && r.device_self_ns == 60000);
	a = row_attr(&r, "input_shapes");
	CHECK(a && !strcmp(a->v.s, "[[10], [32, 1024], [1024, 10], [], []]"));
	CHECK(!op_row(&p, "aten::addmm", 2, &r));
	CHECK(kernel_row(&p, "ampere_sgemm_32x128_tn", &r) && lacks(r.first, "input_shapes"));
	CHECK_EQ(nr_kernels(&p), 2);
	profile_release(&p);

	CHECK_EQ(load(FIX "by-stack.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK(p.warnings == NULL);
	CHECK(op_row(&p, "aten::add", 0, &r) && r.calls == 2);
	a = row_attr(&r, "source_location");
	CHECK(a && !strcmp(a->v.s, "train.py(41): forward; torch/nn/modules/module.py(1511): _call_impl"));
	CHECK(op_row(&p, "aten::add", 1, &r) && r.calls == 1);
	a = row_attr(&r, "source_location");
	CHECK(a && !strcmp(a->v.s, "train.py(77): step; train.py(102): main"));
	CHECK(kernel_row(&p, "void at::native::vectorized_elementwise_kernel<4, at...", &r));
	CHECK(lacks(r.first, "source_location"));
	profile_release(&p);
}

/*
 * Issue 10 item 5: the percentages and means a row states are kept as it
 * states them.  The fixture's footer counts device time the rows do not
 * show (and not the ProfilerStep* annotation they do), and its totals are
 * rounded: "Self CUDA %" 65.60 and "CUDA time avg" 49.054us are what only
 * the file knows (2.943ms / 60 gives 49.050us).
 */
static void test_file_values(void)
{
	struct profile p;
	const struct profile *run2;
	const struct node *n;
	char msg[4096];

	CHECK_EQ(load(FIX "file-values.txt", NULL, &p, msg, sizeof(msg)), 0);
	CHECK(p.warnings == NULL);
	n = node_named(&p, "aten::mm", NODE_OP, 0);
	CHECK(has_pct(n, ATTR_FILE_HOST_SELF_PCT, 10.18));
	CHECK(has_pct(n, ATTR_FILE_HOST_TOTAL_PCT, 40.35));
	CHECK(has_ns(n, ATTR_FILE_HOST_MEAN, 20178));
	CHECK(has_pct(n, ATTR_FILE_DEVICE_SELF_PCT, 65.60));
	CHECK(has_ns(n, ATTR_FILE_DEVICE_MEAN, 49054));
	CHECK(lacks(n, ATTR_FILE_DEVICE_TOTAL_PCT));
	/* Shares above 100 % are what the file says. */
	CHECK(has_pct(node_named(&p, "ProfilerStep*", NODE_OP, 0), ATTR_FILE_HOST_TOTAL_PCT, 170.67));
	CHECK(has_pct(node_named(&p, "ProfilerStep*", NODE_ANNOTATION, 0), ATTR_FILE_DEVICE_SELF_PCT,
		      21.18));
	/* An async event's "CPU total %" is a bare 0, not a share. */
	n = node_named(&p, "record_param_comms", NODE_OP, 0);
	CHECK(lacks(n, ATTR_FILE_HOST_TOTAL_PCT));
	CHECK(has_pct(n, ATTR_FILE_HOST_SELF_PCT, 0));
	CHECK(has_ns(n, ATTR_FILE_HOST_MEAN, 11000));
	/* The kernel and the copy: their device share and mean, no host
	 * shares, and no share of kernel time alone (the file has none). */
	n = node_named(&p, "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x12...", NODE_KERNEL, 0);
	CHECK(has_pct(n, ATTR_FILE_DEVICE_SELF_PCT, 65.60));
	CHECK(has_ns(n, ATTR_FILE_DEVICE_MEAN, 49054));
	CHECK(lacks(n, ATTR_FILE_DEVICE_TOTAL_PCT));
	CHECK(lacks(n, ATTR_FILE_HOST_SELF_PCT));
	n = node_named(&p, "Memcpy HtoD (Pageable -> Device)", NODE_MEMCPY, 0);
	CHECK(has_pct(n, ATTR_FILE_DEVICE_SELF_PCT, 34.40));
	CHECK(has_ns(n, ATTR_FILE_DEVICE_MEAN, 771550));
	CHECK_STR(profile_meta_get(&p, "totals", "Self CUDA time total"), "4.486ms");
	CHECK_STR(profile_meta_get(&p, "totals", "Self CPU time total"), "3.000ms");
	/* No host time at all: "NaN" shares are not numbers to keep, and a
	 * device row keeps none of the host columns (a 0.000us mean). */
	run2 = profile_run(&p, 1);
	CHECK(run2 != NULL);
	if (run2) {
		n = node_named(run2, "Memcpy HtoD (Pageable -> Device)", NODE_MEMCPY, 0);
		CHECK(lacks(n, ATTR_FILE_HOST_SELF_PCT));
		CHECK(lacks(n, ATTR_FILE_HOST_TOTAL_PCT));
		CHECK(lacks(n, ATTR_FILE_HOST_MEAN));
		CHECK(has_pct(n, ATTR_FILE_DEVICE_SELF_PCT, 34.40));
	}
	profile_release(&p);

	/* PyTorch <= 1.7: "CUDA total %" divides by the sum of inclusive
	 * totals, a base none of the keys has: not kept. */
	CHECK_EQ(load(FIX "old-1.7.txt", NULL, &p, msg, sizeof(msg)), 0);
	n = node_named(&p, "addmm", NODE_OP, 0);
	CHECK(has_pct(n, ATTR_FILE_HOST_SELF_PCT, 21.39));
	CHECK(has_pct(n, ATTR_FILE_HOST_TOTAL_PCT, 24.63));
	CHECK(has_ns(n, ATTR_FILE_HOST_MEAN, 702633));
	CHECK(has_ns(n, ATTR_FILE_DEVICE_MEAN, 550000));
	CHECK(lacks(n, ATTR_FILE_DEVICE_SELF_PCT));
	CHECK(lacks(n, ATTR_FILE_DEVICE_TOTAL_PCT));
	profile_release(&p);
}

/* ---- bad input --------------------------------------------------------- */

static const char sep[] = "-----------------------  ------------  ------------  ------------  ------------  "
			  "------------  ------------  ------------  ------------  ------------  "
			  "------------  \n";
static const char hdr[] = "                   Name    Self CPU %      Self CPU   CPU total %     CPU total  "
			  "CPU time avg     Self CUDA   Self CUDA %    CUDA total  CUDA time avg    # of Calls  \n";
static const char row1[] = "            aten::addmm        60.00%     600.000us        70.00%     700.000us  "
			   "   350.000us       1.200ms        80.00%       1.200ms     600.000us             2  \n";
static const char row2[] = "  volta_sgemm_128x64_nn         0.00%       0.000us         0.00%       0.000us  "
			   "     0.000us       1.100ms        20.00%       1.100ms     550.000us             2  \n";
static const char footer[] = "Self CPU time total: 1.000ms\nSelf CUDA time total: 1.500ms\n";

/* The little table above, with LINE in place of the second row. */
static char *table_with(const char *line, size_t len, size_t *out_len)
{
	size_t n = 0, cap = sizeof(sep) * 3 + sizeof(hdr) + sizeof(row1) + len + sizeof(footer) + 16;
	char *buf = xmalloc(cap);

#define ADD(s, l) (memcpy(buf + n, (s), (l)), n += (l))
	ADD(sep, strlen(sep));
	ADD(hdr, strlen(hdr));
	ADD(sep, strlen(sep));
	ADD(row1, strlen(row1));
	ADD(line, len);
	ADD(sep, strlen(sep));
	ADD(footer, strlen(footer));
#undef ADD
	*out_len = n;
	return buf;
}

/* A row of device time only under a host row's name is the host range's
 * copy unless the host row's own device time holds it. */
/* A row of the little table: Name, Self CPU %, Self CPU, CPU total %, CPU
 * total, CPU time avg, Self CUDA, Self CUDA %, CUDA total, CUDA time avg,
 * # of Calls. */
static const char cells[] = "%23s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n";

static void test_twin_rule(void)
{
	static const struct {
		const char *host_self;	/* the host row's Self CUDA (= its total) */
		enum node_kind twin;
	} cases[] = {
		{ "1.000ms", NODE_KERNEL },	/* launched it: all of it */
		{ "1.500ms", NODE_KERNEL },	/* and more */
		{ "999.000us", NODE_ANNOTATION },	/* not all of it */
		{ "0.000us", NODE_ANNOTATION },	/* nothing itself */
	};
	char msg[4096];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *dev = cases[i].host_self;
		struct profile p;
		char rows[1024], *text;
		size_t len, n;

		n = (size_t)snprintf(rows, sizeof(rows), cells, "kernel_op", "5.00%", "5.000us", "5.00%",
				     "5.000us", "2.500us", dev, "50.00%", dev, "500.000us", "2");
		snprintf(rows + n, sizeof(rows) - n, cells, "kernel_op", "0.00%", "0.000us", "0.00%",
			 "0.000us", "0.000us", "1.000ms", "50.00%", "1.000ms", "500.000us", "2");
		text = table_with(rows, strlen(rows), &len);
		CHECK_EQ(load(test_write("twin.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
		free(text);
		CHECK(p.warnings == NULL);
		CHECK(node_named(&p, "kernel_op", NODE_OP, 0) != NULL);
		CHECK(node_named(&p, "kernel_op", cases[i].twin, 0) != NULL);
		CHECK_EQ(nr_rows(&p), 3);
		if (test_failed)
			fprintf(stderr, "  host Self CUDA %s\n", dev);
		profile_release(&p);
	}
}

/* PyTorch's own ranges are ranges even when their host rows were cut
 * (row_limit): a device row of such a name is no kernel. */
static void test_pytorch_ranges(void)
{
	static const char *const names[] = { "DistributedDataParallel.forward", "Optimizer.step#AdamW.step",
					     "ProfilerStep#3" };
	char msg[4096];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct profile p;
		char row[512], *text;
		size_t len;

		snprintf(row, sizeof(row), cells, names[i], "0.00%", "0.000us", "0.00%", "0.000us",
			 "0.000us", "1.000ms", "50.00%", "1.000ms", "500.000us", "2");
		text = table_with(row, strlen(row), &len);
		CHECK_EQ(load(test_write("range.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
		free(text);
		CHECK(node_named(&p, names[i], NODE_ANNOTATION, 0) != NULL);
		CHECK_EQ(nr_kernels(&p), 0);
		if (test_failed)
			fprintf(stderr, "  row '%s'\n", names[i]);
		profile_release(&p);
	}
}

/* Host rows with a runtime API's name are runtime calls; others are ops. */
static void test_runtime_names(void)
{
	static const struct {
		const char *name;
		enum node_kind kind;
	} cases[] = {
		{ "cudaMemcpyAsync", NODE_RUNTIME },
		{ "cuLaunchKernel_v2", NODE_RUNTIME },
		{ "hipGraphLaunch", NODE_RUNTIME },
		{ "urEnqueueKernelLaunch", NODE_RUNTIME },
		{ "zeCommandListAppend", NODE_RUNTIME },
		{ "cudnn_convolution", NODE_OP },	/* PyTorch <= 1.7 */
		{ "cuda_graph_replay", NODE_OP },
		{ "cudaGraph replay", NODE_OP },
		{ "hip::fused_gemm", NODE_OP },
		{ "cu", NODE_OP },
		{ "Command Buffer Full", NODE_OP },
	};
	char msg[4096];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct profile p;
		char row[512], *text;
		size_t len;

		snprintf(row, sizeof(row), cells, cases[i].name, "5.00%", "5.000us", "5.00%", "5.000us",
			 "2.500us", "0.000us", "0.00%", "0.000us", "0.000us", "2");
		text = table_with(row, strlen(row), &len);
		CHECK_EQ(load(test_write("runtime.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
		free(text);
		CHECK(p.warnings == NULL);
		CHECK(node_named(&p, cases[i].name, cases[i].kind, 0) != NULL);
		if (test_failed)
			fprintf(stderr, "  row '%s'\n", cases[i].name);
		profile_release(&p);
	}
}

static void test_bad_cut_mid_row(void)
{
	struct profile p;
	char msg[4096], text[2048];
	const char *path;
	int n;

	n = snprintf(text, sizeof(text), "%s%s%s%s%.*s", sep, hdr, sep, row1, 70, row2);
	path = test_write("cut.txt", text, (size_t)n);
	CHECK_EQ(load(path, NULL, &p, msg, sizeof(msg)), 1);
	CHECK(strstr(msg, "cut.txt:5:") != NULL);
	CHECK(strstr(msg, "cut.txt:5:66: error: table row cut short before column 'CPU total'") != NULL);
	CHECK_EQ(nr_rows(&p), 1);	/* the complete row is kept */
	profile_release(&p);
}

static void test_bad_header_no_rows(void)
{
	struct profile p;
	char msg[4096], text[2048];
	const char *path;
	int n;

	n = snprintf(text, sizeof(text), "profile:\n%s%s%s%s%s", sep, hdr, sep, sep, footer);
	path = test_write("norows.txt", text, (size_t)n);
	CHECK_EQ(load(path, NULL, &p, msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "norows.txt:3:1: error: table header with no rows") != NULL);
	profile_release(&p);
}

static void test_bad_misaligned(void)
{
	struct profile p;
	struct agg_row r;
	char msg[4096], line[512];
	size_t len;
	char *text;

	/* Shifted three places right: read by splitting on blanks, counted. */
	snprintf(line, sizeof(line), "   %s", row2);
	text = table_with(line, strlen(line), &len);
	CHECK_EQ(load(test_write("shift.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	CHECK_EQ(warnings(&p, "rows not aligned with the header (read by splitting on blanks)"), 1);
	CHECK(kernel_row(&p, "volta_sgemm_128x64_nn", &r) && r.device_total_ns == 1100000);
	profile_release(&p);

	/* A cell that is not a time: the row is skipped, with a warning. */
	snprintf(line, sizeof(line), "%s", row2);
	memcpy(strstr(line, "1.100ms"), "1.1Xms ", 7);
	text = table_with(line, strlen(line), &len);
	CHECK_EQ(load(test_write("cell.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	CHECK_EQ(warnings(&p, "rows with unreadable cells, skipped"), 1);
	CHECK(strstr(msg, "cell.txt:5:") && strstr(msg, "'1.1Xms' is not a valid 'Self CUDA' value"));
	CHECK_EQ(nr_rows(&p), 1);
	profile_release(&p);

	/* An absurd time (31 years): not a number we sum; skipped. */
	snprintf(line, sizeof(line), "%s", row2);
	memcpy(strstr(line, "     1.100ms"), "  999999999s", 12);
	text = table_with(line, strlen(line), &len);
	CHECK_EQ(load(test_write("absurd.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	CHECK_EQ(warnings(&p, "rows with unreadable cells, skipped"), 1);
	CHECK_EQ(nr_rows(&p), 1);
	profile_release(&p);

	/* Columns that do not line up at all: skipped, counted. */
	snprintf(line, sizeof(line), "volta_sgemm  0.00%%  0.000us  0.000us  1.100ms  2\n");
	text = table_with(line, strlen(line), &len);
	CHECK_EQ(load(test_write("cols.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	CHECK_EQ(warnings(&p, "rows that do not line up with the header, skipped"), 1);
	CHECK_EQ(nr_rows(&p), 1);
	profile_release(&p);
}

/*
 * Issue 10 item 11: rows that do not line up are read from the right, with
 * one warning per table; a value glued to its name is split off only when
 * one split is possible.  (tests/golden/torch-table/loose-*: whole tables.)
 */
static void test_loose_rows(void)
{
	struct profile p;
	struct agg_row r;
	const struct node *n;
	char msg[4096], line[512];
	size_t len;
	char *text, *glued;

	/* The name glued to its "Self CPU %", and the row shifted. */
	snprintf(line, sizeof(line), "%s", row2 + 2);
	glued = strstr(line, "_nn");
	memmove(glued + 3, strstr(glued, "0.00%"), strlen(strstr(glued, "0.00%")) + 1);
	text = table_with(line, strlen(line), &len);
	CHECK_EQ(load(test_write("glued.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	CHECK_EQ(warnings(&p, "tables read loosely (rows read from the right)"), 1);
	CHECK(strstr(msg, "glued.txt:5:1: warning: table does not line up with its header") != NULL);
	CHECK(kernel_row(&p, "volta_sgemm_128x64_nn", &r) && r.device_total_ns == 1100000 && r.calls == 2);
	CHECK_EQ(nr_rows(&p), 2);
	profile_release(&p);

	/* "layer20.00%": "layer" and 20.00%, or "layer2" and 0.00%?  Not
	 * guessed: the row is skipped, counted. */
	snprintf(line, sizeof(line), "layer20.00%%  0.000us  0.00%%  0.000us  0.000us  1.100ms  20.00%%  "
				     "1.100ms  550.000us  2\n");
	text = table_with(line, strlen(line), &len);
	CHECK_EQ(load(test_write("ambiguous.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	CHECK_EQ(warnings(&p, "tables read loosely (rows read from the right)"), 0);
	CHECK_EQ(warnings(&p, "rows that do not line up with the header, skipped"), 1);
	CHECK_EQ(nr_rows(&p), 1);
	profile_release(&p);

	/* Every value there, in order, but one blank apart (a copy that
	 * squeezed blanks): read from the right. */
	snprintf(line, sizeof(line), "Memset (Device) 0.00%% 0.000us 0.00%% 0.000us 0.000us 9.250us 0.62%% "
				     "9.250us 4.625us 2\n");
	text = table_with(line, strlen(line), &len);
	CHECK_EQ(load(test_write("one-blank.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	n = node_named(&p, "Memset (Device)", NODE_MEMSET, 0);
	CHECK(n && node_device_self(&p, n) == 9250 && node_calls(&p, n) == 2);
	CHECK(has_pct(n, ATTR_FILE_DEVICE_SELF_PCT, 0.62));
	profile_release(&p);
}

static void test_bad_binary(void)
{
	struct profile p;
	char msg[4096], junk[600];
	size_t len;
	char *text, *both;

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 7919 % 251);
	/* Inside the table: an error there, the rows before it kept. */
	text = table_with(junk, sizeof(junk), &len);
	CHECK_EQ(load(test_write("junk-in.txt", text, len), NULL, &p, msg, sizeof(msg)), 1);
	free(text);
	CHECK(strstr(msg, "junk-in.txt:5:1: error: binary data inside the table") != NULL);
	CHECK_EQ(nr_rows(&p), 1);
	profile_release(&p);

	/* After a complete table: ignored, counted. */
	text = table_with(row2, strlen(row2), &len);
	both = xmalloc(len + sizeof(junk));
	memcpy(both, text, len);
	memcpy(both + len, junk, sizeof(junk));
	CHECK_EQ(load(test_write("junk-after.txt", both, len + sizeof(junk)), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	free(both);
	CHECK_EQ(nr_rows(&p), 2);
	CHECK(warnings(&p, "lines of binary data, ignored") >= 1);
	profile_release(&p);
}

static void test_bad_huge_line(void)
{
	struct profile p;
	char msg[4096];
	size_t n = 5u << 20, len;
	char *line = xmalloc(n + 1), *text;

	memset(line, 'x', n);
	line[n] = '\n';
	text = table_with(line, n + 1, &len);
	CHECK_EQ(load(test_write("huge.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
	free(text);
	free(line);
	/* The table ends at the line that is not a row, and says so. */
	CHECK_EQ(nr_rows(&p), 1);
	CHECK_EQ(warnings(&p, "tables without a closing separator line"), 1);
	profile_release(&p);
}

/* Every line of the little table with PREFIX in front. */
static char *prefixed(const char *prefix, bool top_sep, size_t *out_len)
{
	const char *lines[] = { sep, hdr, sep, row1, row2, sep };
	size_t n = 0, cap = 4096;
	char *buf = xmalloc(cap);

	for (size_t i = top_sep ? 0 : 1; i < ARRAY_SIZE(lines); i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", prefix, lines[i]);
	n += (size_t)snprintf(buf + n, cap - n, "%sSelf CPU time total: 1.000ms\n", prefix);
	*out_len = n;
	return buf;
}

static void test_layout_variants(void)
{
	static const char *const prefixes[] = { "", "I0609 12:53:37.371167   670 train.py:465] ",
						"[05/02/2024-10:12:00] [I] ", "- ", "> " };
	char msg[4096];

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		for (int top = 0; top < 2; top++) {
			struct profile p;
			struct agg_row r;
			size_t len;
			char *text = prefixed(prefixes[i], top, &len);

			CHECK_EQ(load(test_write("variant.txt", text, len), NULL, &p, msg, sizeof(msg)), 0);
			free(text);
			CHECK_STR(p.format, "torch-table");
			CHECK(p.warnings == NULL);
			CHECK_EQ(nr_rows(&p), 2);
			CHECK(kernel_row(&p, "volta_sgemm_128x64_nn", &r) && r.device_total_ns == 1100000);
			CHECK(op_row(&p, "aten::addmm", 0, &r) && r.host_total_ns == 700000 && r.calls == 2);
			CHECK_STR(profile_meta_get(&p, "totals", "Self CPU time total"), "1.000ms");
			if (test_failed) {
				fprintf(stderr, "  with prefix '%s', %s separator\n", prefixes[i],
					top ? "top" : "no top");
				profile_release(&p);
				return;
			}
			profile_release(&p);
		}
	}
}

static void test_not_a_table(void)
{
	struct profile p;
	char msg[4096];
	const char *text = "Name and Self CPU are words in this sentence, no table here\nat all\n";

	CHECK_EQ(load(test_write("prose.txt", text, strlen(text)), "torch-table", &p, msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "prose.txt: error: no key_averages() table found") != NULL);
	profile_release(&p);
}

/* ---- a table at the end of a long log ----------------------------------- */

extern const struct parser torch_table_parser;

static const char *const log_kinds[] = {
	"{'loss': %zu.25, 'learning_rate': 5e-05, 'epoch': 0.%zu}\n",
	"[rank0]: step %zu: loss=0.%zu grad_norm=1.2\n",
	"[2024-05-02 10:12:%02zu,%03zu] INFO trainer.py: saving checkpoint\n",
	"Epoch 3:  %zu%%|#####     | %zu/1000 [00:12<00:12, 40.1it/s]\n",
	"[%zu, %zu, 3] tensor shapes (not JSON: a log line)\n",
	"  Name of the run: bert-base, CPU threads: %zu, %zu GPUs\n",
	"------------------------------------------ %zu %zu\n",
};

/*
 * About 40,000 lines of a training log of the kinds that come before a
 * table (Python dicts, "[rank0]" and timestamped lines, progress bars,
 * JSON-looking lines), then the little table.  Caller frees; *LEN_OUT.
 */
static char *long_log(size_t nr_lines, size_t *len_out)
{
	size_t cap = nr_lines * 96 + 4096, n = 0;
	char *buf = xmalloc(cap);

	/* Each of log_kinds[] takes two size_t: the one format the compiler
	 * cannot see, so it is told to trust this call. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	for (size_t i = 0; i < nr_lines; i++)
		n += (size_t)snprintf(buf + n, cap - n, log_kinds[i % ARRAY_SIZE(log_kinds)], i % 60, i % 1000);
#pragma GCC diagnostic pop
	n += (size_t)snprintf(buf + n, cap - n, "%s%s%s%s%s%s%s", sep, hdr, sep, row1, row2, sep, footer);
	*len_out = n;
	return buf;
}

/* The probe's score for the window of TEXT[0..LEN) that starts at START
 * (at the next line's start when AT_LINE; else cut mid-line) and is 64 KB
 * at most. */
static int probe_window(const char *text, size_t len, size_t start, bool at_line)
{
	if (at_line)
		while (start < len && text[start - 1] != '\n')
			start++;
	return torch_table_parser.probe(text + start, len - start < 65536 ? len - start : 65536);
}

/*
 * Issue 10 item 8 (the parser's part): a table at line 40,001 of a log.
 * The parse finds it wherever it is; the probe, handed any 64 KB window of
 * the file (the registry's later windows), scores the windows that hold
 * the table as a table and the log before it as nothing.
 */
static void test_table_at_end_of_log(void)
{
	struct profile p;
	struct agg_row r;
	char msg[4096];
	size_t len, table_at;
	char *text = long_log(40000, &len);
	const char *path = test_write("train.log", text, len);

	/* Read whole with -F, and found by detection past the head. */
	for (int detect = 0; detect < 2; detect++) {
		CHECK_EQ(load(path, detect ? NULL : "torch-table", &p, msg, sizeof(msg)), 0);
		CHECK_STR(p.format, "torch-table");
		CHECK(p.warnings == NULL);
		CHECK_EQ(nr_rows(&p), 2);
		CHECK(op_row(&p, "aten::addmm", 0, &r) && r.host_total_ns == 700000 && r.calls == 2);
		CHECK(kernel_row(&p, "volta_sgemm_128x64_nn", &r) && r.device_total_ns == 1100000);
		CHECK(p.run_where && strstr(p.run_where, "train.log:40001") != NULL);
		CHECK_STR(profile_meta_get(&p, "totals", "Self CPU time total"), "1.000ms");
		profile_release(&p);
	}

	table_at = (size_t)(strstr(text, sep) - text);
	/* The last 64 KB, cut at a line, and cut anywhere. */
	for (size_t back = 65536; back > 65536 - 200; back -= 7) {
		CHECK_EQ(probe_window(text, len, len - back + 1, true), 85);
		CHECK(probe_window(text, len, len - back, false) >= 60);
	}
	/* Windows that start at each kind of log line before the table. */
	for (size_t start = table_at - 1, nr = 0; nr < 2 * ARRAY_SIZE(log_kinds); start--) {
		if (text[start - 1] != '\n')
			continue;
		nr++;
		if (probe_window(text, len, start, false) != 85) {
			fprintf(stderr, "  window starting at '%.30s'\n", text + start);
			test_failed = 1;
		}
	}
	/* A window that starts at the table, or in its top separator. */
	CHECK_EQ(probe_window(text, len, table_at, true), 85);
	CHECK_EQ(probe_window(text, len, table_at + 30, false), 85);
	/* Windows of the log alone: no table. */
	for (size_t start = 1; start + 65536 < table_at; start += 65536 / 3 + 1) {
		CHECK_EQ(probe_window(text, len, start, true), 0);
		CHECK_EQ(probe_window(text, len, start, false), 0);
	}
	free(text);
}

/* ---- detection --------------------------------------------------------- */

static const struct parser *detect(const char *path)
{
	struct input in;
	struct diag d;
	const char *head;
	const struct parser *parser = NULL;
	size_t len;

	diag_init(&d, path, NULL, NULL);
	if (input_open(&in, path, &d))
		return NULL;
	len = input_head(&in, &head);
	parser = parser_detect(head, len);
	input_close(&in);
	return parser;
}

static bool detected_as(const char *path, const char *name)
{
	const struct parser *parser = detect(path);

	return parser && !strcmp(parser->name, name);
}

static void test_probe(void)
{
	static const char *const mine[] = { FIX "modern.txt", FIX "old-1.7.txt", FIX "xpu-stack.txt",
					    FIX "epochs.log", FIX "notes.md" };
	static const char *const others[] = {
		"tests/samples/sample.pt.trace.json.gz",
		"tests/golden/tb-json/two-runs.json",
		"../shared/seeds/000_23f082c7e8896fb5.txt",
		"../shared/seeds/001_1c776201c8b5b83e.txt",
		"../shared/seeds/002_d67dc7fc6ef32707.txt",
		"../shared/seeds/004_311414be4808ad5c.txt",
	};

	for (size_t i = 0; i < ARRAY_SIZE(mine); i++)
		CHECK(detected_as(mine[i], "torch-table"));
	for (size_t i = 0; i < ARRAY_SIZE(others); i++)
		if (exists(others[i]) && detected_as(others[i], "torch-table")) {
			fprintf(stderr, "  %s claimed by torch-table\n", others[i]);
			test_failed = 1;
		}
	if (!exists(SEED003))
		SKIP("no seeds at ../shared/seeds");
	CHECK(detected_as(SEED003, "torch-table"));
	/* The seeds and the corpus come apart (PROFTUI_CORPUS). */
	if (!exists(corpus("UnderOC_CS4302YOLO-Project__profile_results.txt")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	CHECK(detected_as(corpus("UnderOC_CS4302YOLO-Project__profile_results.txt"), "torch-table"));
	CHECK(detected_as(corpus("chenwg2000_nanogpt-fp8-mxfp8__profile_output.txt"), "torch-table"));
	CHECK(detected_as(corpus("jovsa_scalify__docs_tracking_flops.md"), "torch-table"));
}

const struct test tests[] = {
	{ "seed 003: issue 4's numbers, two runs", test_seed003_acceptance },
	{ "every key_averages corpus file loads", test_corpus_loads },
	{ "corpus: kernels, memcpy, twins, truncation, old units", test_corpus_numbers },
	{ "fixture: modern table, non-ASCII name, memory", test_fixture_modern },
	{ "fixture: PyTorch <= 1.7 left-aligned", test_fixture_old },
	{ "fixture: overload, node id, shapes, stacks, FLOPs", test_fixture_stack_flops },
	{ "fixture: a table per epoch; Markdown without separators", test_fixture_log_and_markdown },
	{ "fixture: the shares and means the file states are kept", test_file_values },
	{ "same name: op and kernel, range and its device copy", test_same_name_rows },
	{ "same name: a device row is its host row's kernel or copy", test_twin_rule },
	{ "same name: PyTorch's ranges without their host rows", test_pytorch_ranges },
	{ "runtime API rows are runtime calls, not ops", test_runtime_names },
	{ "device rows among the ops: kernels, copy, set", test_device_rows_among_ops },
	{ "same name: grouped by input shape, by stack", test_grouped_rows },
	{ "bad: a table cut mid-row keeps its complete rows", test_bad_cut_mid_row },
	{ "bad: a header with no rows", test_bad_header_no_rows },
	{ "bad: columns that do not line up", test_bad_misaligned },
	{ "loose: glued names, ambiguous glue, one-blank rows", test_loose_rows },
	{ "bad: binary garbage inside and after a table", test_bad_binary },
	{ "bad: a 5 MB line inside a table", test_bad_huge_line },
	{ "bad: a file with no table", test_not_a_table },
	{ "layouts: log prefixes, list markers, no top separator", test_layout_variants },
	{ "detection: torch-table claims its files and no others", test_probe },
	{ "a table at line 40,001 of a log: parse and probe windows", test_table_at_end_of_log },
	{ 0 },
};
