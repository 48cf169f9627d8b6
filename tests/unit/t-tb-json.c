// SPDX-License-Identifier: MIT
/*
 * torch-tb-profiler JSON outputs: the numbers issue 4 names for seed 000,
 * result_check_file.txt against the split files of the same runs, every
 * corpus file of the format, the project's own fixtures
 * (tests/golden/tb-json/), bad input, and detection.  Seeds and corpus are
 * read in place from ../shared; those tests skip when it is absent.
 */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/aggregate.h"
#include "parsers/parser.h"
#include "test.h"

#define FIX "tests/golden/tb-json/"
#define SEED000 "../shared/seeds/000_23f082c7e8896fb5.txt"
#define MLU_BN_BACKWARD                                                                     \
	"MLUUnionXKernelBatchNormBackward(void*, void*, void*, void*, void*, void*, void*, " \
	"void*, void*, void*, void*, float, unsigned long, int, int, int, cnnlDataType_t, "  \
	"cnnlActivationMode_t)"

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static char expected_dir[512];

static const char *tbx(const char *name)
{
	static char path[1024];

	snprintf(expected_dir, sizeof(expected_dir), "%s/tb-plugin-expected", test_corpus_dir());
	snprintf(path, sizeof(path), "%s/%s", expected_dir, name);
	return path;
}

static int load_paths(const char *const *paths, size_t n, const char *format, struct profile *p, char *msg,
		      size_t cap)
{
	return test_load_paths(p, paths, n, format, msg, cap);
}

static int load(const char *path, const char *format, struct profile *p, char *msg, size_t cap)
{
	const char *paths[1] = { path };

	return load_paths(paths, 1, format, p, msg, cap);
}

static bool find(const struct agg *a, const char *name, struct agg_row *out)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name)) {
			*out = a->rows[i];
			return true;
		}
	return false;
}

static bool op_row(const struct profile *run, const char *name, struct agg_row *out)
{
	struct agg a;
	bool found;

	agg_ops(run, NULL, &a);
	found = find(&a, name, out);
	agg_release(&a);
	return found;
}

static bool kernel_row(const struct profile *run, const char *name, struct agg_row *out)
{
	struct agg a;
	bool found;

	agg_kernels(run, NULL, &a);
	found = find(&a, name, out);
	agg_release(&a);
	return found;
}

static const struct step *step_named(const struct profile *run, const char *name)
{
	for (size_t i = 0; i < run->nr_steps; i++)
		if (!strcmp(run->steps[i].name, name))
			return &run->steps[i];
	return NULL;
}

static int64_t cat(const struct profile *run, const struct step *s, const char *name)
{
	int c = profile_step_cat(run, name);

	return c < 0 || !s ? -2 : s->cat_ns[c];
}

static uint64_t warnings(const struct profile *run, const char *text)
{
	for (const struct warning *w = run->warnings; w; w = w->next)
		if (!strcmp(w->text, text))
			return w->count;
	return 0;
}

static uint64_t all_warnings(const struct profile *run)
{
	uint64_t n = 0;

	for (const struct warning *w = run->warnings; w; w = w->next)
		n += w->count;
	return n;
}

static void test_seed000_acceptance(void)
{
	struct profile p;
	struct agg_row r;
	const struct step *s;
	const struct profile *run2;
	char msg[4096];

	if (!exists(SEED000))
		SKIP("no seed 000 at ../shared/seeds");
	CHECK_EQ(load(SEED000, NULL, &p, msg, sizeof(msg)), 0);
	CHECK_STR(p.format, "tb-json");
	CHECK_EQ(profile_nr_runs(&p), 2);
	CHECK_EQ(all_warnings(&p), 0);
	CHECK(op_row(&p, "aten::convolution_backward", &r));
	CHECK_EQ(r.calls, 265);
	CHECK_EQ(r.device_self_ns, 62969000);
	CHECK_EQ(r.host_total_ns, 40967000);
	CHECK(kernel_row(&p, MLU_BN_BACKWARD, &r));
	CHECK_EQ(r.calls, 265);
	CHECK_EQ(r.device_total_ns, 18431000);
	CHECK_EQ(r.min_ns, 22000);
	CHECK_EQ(r.max_ns, 210000);
	/* Steps: the categories the file names (the MLU fork's wording). */
	CHECK_EQ(p.nr_steps, 1);
	s = step_named(&p, "0");
	CHECK(s != NULL);
	CHECK_EQ(cat(&p, s, "Kernel"), 171725000);
	CHECK(s && s->total_ns == 327085000);
	CHECK_STR(profile_meta_get(&p, "environment", "Device Type"), "MLU");
	CHECK_STR(profile_meta_get(&p, "MLU Summary", "MLU Utilization"), "52.5 %");
	CHECK_STR(profile_meta_get(&p, "performance", "Average Step Time"), "327085 us");
	run2 = profile_run(&p, 1);
	CHECK(run2 != NULL);
	if (run2) {
		char where[600];

		snprintf(where, sizeof(where), "%s:6", SEED000);
		CHECK_STR(run2->run_where, where);
		CHECK(op_row(run2, "aten::convolution_backward", &r));
		CHECK_EQ(r.device_self_ns, 62881000);
		CHECK(kernel_row(run2, MLU_BN_BACKWARD, &r));
		CHECK_EQ(r.device_total_ns, 18413000);
		CHECK(run2->nr_steps == 1 && run2->steps[0].total_ns == 358816000);
	}
	profile_release(&p);
}

/* Every op, kernel, step and Info line of A equals B's. */
static void same_run(const struct profile *a, const struct profile *b, const char *what)
{
	struct agg x, y;
	const struct meta *ma, *mb;

	agg_ops(a, NULL, &x);
	agg_ops(b, NULL, &y);
	CHECK_EQ(x.nr, y.nr);
	for (size_t i = 0; i < x.nr && i < y.nr; i++) {
		const struct agg_row *u = &x.rows[i], *v = &y.rows[i];

		if (strcmp(u->name, v->name) || u->calls != v->calls || u->host_self_ns != v->host_self_ns ||
		    u->host_total_ns != v->host_total_ns || u->device_self_ns != v->device_self_ns ||
		    u->device_total_ns != v->device_total_ns) {
			fprintf(stderr, "  %s: op row %zu differs ('%s', '%s')\n", what, i, u->name, v->name);
			test_failed = 1;
		}
	}
	agg_release(&x);
	agg_release(&y);
	agg_kernels(a, NULL, &x);
	agg_kernels(b, NULL, &y);
	CHECK_EQ(x.nr, y.nr);
	for (size_t i = 0; i < x.nr && i < y.nr; i++) {
		const struct agg_row *u = &x.rows[i], *v = &y.rows[i];

		if (strcmp(u->name, v->name) || u->calls != v->calls || u->device_total_ns != v->device_total_ns ||
		    u->min_ns != v->min_ns || u->max_ns != v->max_ns ||
		    u->blocks_per_sm_wsum != v->blocks_per_sm_wsum || u->occupancy_wsum != v->occupancy_wsum) {
			fprintf(stderr, "  %s: kernel row %zu differs ('%.40s')\n", what, i, u->name);
			test_failed = 1;
		}
	}
	agg_release(&x);
	agg_release(&y);
	CHECK_EQ(a->nr_step_cats, b->nr_step_cats);
	CHECK_EQ(a->nr_steps, b->nr_steps);
	for (size_t i = 0; i < a->nr_steps && i < b->nr_steps && a->nr_step_cats == b->nr_step_cats; i++) {
		CHECK_STR(a->steps[i].name, b->steps[i].name);
		CHECK_EQ(a->steps[i].total_ns, b->steps[i].total_ns);
		for (size_t c = 0; c < a->nr_step_cats; c++)
			CHECK_EQ(a->steps[i].cat_ns[c], b->steps[i].cat_ns[c]);
	}
	for (ma = a->meta, mb = b->meta; ma && mb; ma = ma->next, mb = mb->next) {
		CHECK_STR(ma->section, mb->section);
		CHECK_STR(ma->key, mb->key);
		CHECK_STR(ma->value, mb->value);
	}
	CHECK(!ma && !mb);
}

static void test_result_check_equals_split_files(void)
{
	static const char *const prefixes[] = { "resnet50_num_workers_0__worker0_span1__",
						"resnet50_num_workers_4__worker0_span1__" };
	static const char *const ends[] = { "overview.json", "operation_pie_groupby_Operation.json",
					    "operation_table_groupby_Operation.json",
					    "kernel_table_groupby_Kernel.json", "kernel_pie.json" };
	struct profile all;
	char msg[8192];

	if (!exists(tbx("result_check_file.txt")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	CHECK_EQ(load(tbx("result_check_file.txt"), NULL, &all, msg, sizeof(msg)), 0);
	CHECK_EQ(profile_nr_runs(&all), 2);
	/* The pies agree with the tables to within their rounding. */
	CHECK_EQ(all_warnings(&all), 0);
	CHECK(all.next_run && all_warnings(all.next_run) == 0);
	for (size_t r = 0; r < 2; r++) {
		const char *paths[5];
		char bufs[5][1024];
		struct profile split;

		for (size_t i = 0; i < 5; i++) {
			snprintf(bufs[i], sizeof(bufs[i]), "%s%s", prefixes[r], ends[i]);
			snprintf(bufs[i], sizeof(bufs[i]), "%s", tbx(bufs[i]));
			paths[i] = bufs[i];
		}
		/* The five endpoint files of a run, given together, join into
		 * one run equal to that run of the combined file. */
		CHECK_EQ(load_paths(paths, 5, NULL, &split, msg, sizeof(msg)), 0);
		CHECK_EQ(profile_nr_runs(&split), 1);
		CHECK_EQ(all_warnings(&split), 0);
		if (profile_run(&all, r))
			same_run(profile_run(&all, r), &split, prefixes[r]);
		profile_release(&split);
	}
	/* A spot check against the plugin's own numbers (lines 3 and 4). */
	{
		struct agg_row row;

		CHECK(op_row(&all, "aten::cudnn_convolution_backward_weight", &row));
		CHECK_EQ(row.calls, 318);
		CHECK_EQ(row.device_self_ns, 142461000);
		CHECK_EQ(row.host_total_ns, 40246000);
		CHECK(kernel_row(&all, "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int, "
				       "int, float const*, int, float const*, int, float*, kernel_grad_params, "
				       "unsigned long long, int, unsigned long long, int, float, int, int, int)",
				 &row));
		CHECK_EQ(row.calls, 162);
		CHECK_EQ(row.device_total_ns, 80756000);
		CHECK(fabs(row.blocks_per_sm_wsum / (double)row.device_total_ns - 42.25) < 1e-9);
		CHECK(fabs(row.occupancy_wsum / (double)row.device_total_ns - 29.97) < 1e-9);
		CHECK_STR(profile_meta_get(&all, "GPU Summary", "Name"), "Tesla V100-DGXS-32GB");
		CHECK_STR(profile_meta_get(&all, "recommendations", "2"),
			  "Kernels with 68% time are launched by Tensor Cores eligible operators. You could "
			  "enable Automatic Mixed Precision (https://pytorch.org/docs/stable/amp.html) to "
			  "speedup by using FP16.");
	}
	profile_release(&all);
}

static void test_corpus_loads(void)
{
	static const char *const generated[] = {
		"hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto__",
		"hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace__",
		"hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace__",
		"hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace__",
		"hta_triton_example_triton_example__",
	};
	static const char *const ends[] = { "overview.json", "operation_pie_groupby_Operation.json",
					    "operation_table_groupby_Operation.json",
					    "kernel_table_groupby_Kernel.json", "kernel_pie.json" };
	size_t nr = 0;

	if (!exists(tbx("result_check_file.txt")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	for (size_t g = 0; g < ARRAY_SIZE(generated); g++) {
		for (size_t e = 0; e < ARRAY_SIZE(ends); e++) {
			char name[512], msg[8192];
			struct profile p;

			snprintf(name, sizeof(name), "generated/%s%s", generated[g], ends[e]);
			if (!exists(tbx(name)))
				continue;	/* CPU-only traces have no kernel outputs */
			nr++;
			if (load(tbx(name), NULL, &p, msg, sizeof(msg)) != 0 || strcmp(p.format, "tb-json") ||
			    strstr(msg, "error")) {
				fprintf(stderr, "  %s did not load: %s\n", name, msg);
				test_failed = 1;
			}
			profile_release(&p);
		}
	}
	CHECK_EQ(nr, 23);
	/* The CPU-only overview names its own categories. */
	{
		struct profile p;
		char msg[4096];

		load(tbx("generated/hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace__overview.json"), NULL,
		     &p, msg, sizeof(msg));
		CHECK_EQ(p.nr_step_cats, 4);
		CHECK(p.nr_step_cats == 4 && !strcmp(p.step_cats[0], "Communication"));
		profile_release(&p);
	}
}

static void test_fixture_two_runs(void)
{
	struct profile p;
	struct agg_row r;
	const struct step *s;
	const struct profile *run2;
	char msg[4096];

	CHECK_EQ(load(FIX "two-runs.json", NULL, &p, msg, sizeof(msg)), 0);
	CHECK_EQ(profile_nr_runs(&p), 2);
	CHECK_EQ(all_warnings(&p), 0);
	CHECK_EQ(p.nr_steps, 2);
	s = step_named(&p, "4");
	CHECK(s && s->total_ns == 60621000);
	CHECK_EQ(cat(&p, s, "DataLoader"), 11800000);
	CHECK(op_row(&p, "aten::cudnn_convolution", &r));
	CHECK_EQ(r.device_self_ns, 50210000);
	CHECK(attr_find(node_attrs(r.first), "tc_eligible") && !strcmp(attr_find(node_attrs(r.first), "tc_eligible")->v.s, "Yes"));
	CHECK(attr_find(node_attrs(r.first), "tc_self_pct") && attr_find(node_attrs(r.first), "tc_self_pct")->v.d == 21.3);
	/* Blocks per SM and occupancy come back as the plugin gave them. */
	CHECK(kernel_row(&p, "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>("
			     "cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float "
			     "const*, float, float, float*, float*, float*, float*, float, float)",
			 &r));
	CHECK(r.has_blocks_per_sm && fabs(r.blocks_per_sm_wsum / (double)r.device_total_ns - 2.04) < 1e-9);
	CHECK(r.has_occupancy && fabs(r.occupancy_wsum / (double)r.device_total_ns - 75.01) < 1e-9);
	/* A kernel whose rounded total is 0 keeps no weighted means (0/0). */
	CHECK(kernel_row(&p, "void at::native::zero_tiny_kernel(int)", &r));
	CHECK(r.calls == 3 && r.device_total_ns == 0 && !r.has_blocks_per_sm);
	CHECK_STR(profile_meta_get(&p, "recommendations", "2"),
		  "Kernels with 61% time are launched by Tensor Cores eligible operators & could use AMP.");
	run2 = profile_run(&p, 1);
	CHECK(run2 != NULL);
	if (run2) {
		CHECK_EQ(run2->nr_step_cats, 4);
		CHECK(op_row(run2, "gloo:all_reduce", &r));
		CHECK_EQ(r.host_self_ns, 7980000);
		CHECK_EQ(r.device_self_ns, 0);
		CHECK(!run2->has_device_time);
		CHECK(run2->nr_steps == 1 && run2->steps[0].total_ns == 9815000);
	}
	profile_release(&p);
}

static bool is_op(const struct node *n, void *ctx)
{
	return !strcmp(node_name(n), (const char *)ctx);
}

/* Whether drilling into OP lists KERNEL. */
static bool drill_has(const struct profile *p, const char *op, const char *kernel)
{
	struct agg_scope s = { .want = is_op, .ctx = (void *)op };
	struct agg a;
	struct agg_row r;
	bool found;

	agg_op_kernels(p, &s, &a);
	found = find(&a, kernel, &r);
	agg_release(&a);
	return found;
}

static void test_fixture_grouped(void)
{
	struct profile p;
	struct agg_row r;
	struct agg a;
	struct agg_scope s = { .want = is_op, .ctx = (void *)"aten::relu" };
	char msg[4096];

	CHECK_EQ(load(FIX "grouped.json", NULL, &p, msg, sizeof(msg)), 0);
	/* Grouped by input shape: one name, two rows. */
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 3);
	CHECK(a.nr == 3 && !strcmp(a.rows[0].name, "aten::addmm") && !strcmp(a.rows[1].name, "aten::addmm"));
	agg_release(&a);
	/* Grouped by kernel and op: a kernel hangs under its op when the op is
	 * one row, and the Kernels pane sums a kernel over its ops. */
	agg_op_kernels(&p, &s, &a);
	CHECK_EQ(a.nr, 1);
	CHECK(a.nr == 1 && a.rows[0].device_total_ns == 44000);
	agg_release(&a);
	CHECK(!drill_has(&p, "aten::relu", "ampere_sgemm_64x32_sliced1x4_tn"));
	/* aten::addmm has two rows (two shapes): its kernels stay in the
	 * Kernels group, with the op's name as an attribute. */
	CHECK(!drill_has(&p, "aten::addmm", "ampere_sgemm_64x32_sliced1x4_tn"));
	/* Rows of a table grouped by kernel and op stay rows, each with its
	 * own op, grid and block. */
	agg_kernels(&p, NULL, &a);
	CHECK_EQ(a.nr, 3);
	agg_release(&a);
	CHECK(kernel_row(&p, "ampere_sgemm_64x32_sliced1x4_tn", &r));
	CHECK_EQ(r.calls, 6);
	CHECK_EQ(r.device_total_ns, 1210000);
	CHECK_EQ(r.min_ns, 96000);
	CHECK_EQ(r.max_ns, 410000);
	CHECK(fabs(r.blocks_per_sm_wsum / (double)r.device_total_ns - 0.59) < 1e-9);
	CHECK(attr_find(node_attrs(r.first), "op") && !strcmp(attr_find(node_attrs(r.first), "op")->v.s, "aten::addmm"));
	CHECK(attr_find(node_attrs(r.first), "grid") && !strcmp(attr_find(node_attrs(r.first), "grid")->v.s, "[16, 4, 1]"));
	CHECK(attr_find(node_attrs(r.first), "shared_memory_bytes") &&
	      attr_find(node_attrs(r.first), "shared_memory_bytes")->v.i == 12288);
	profile_release(&p);
}

static void test_fixture_float_steps(void)
{
	struct profile p;
	const struct step *s;
	char msg[4096];

	CHECK_EQ(load(FIX "mlu-float.json", NULL, &p, msg, sizeof(msg)), 0);
	s = step_named(&p, "7");
	CHECK(s && s->total_ns == 2000250);
	CHECK_EQ(cat(&p, s, "Runtime"), 310125);
	CHECK_STR(profile_meta_get(&p, "MLU Summary", "Name"), "MLU370");
	CHECK_STR(profile_meta_get(&p, "recommendations", "1"), "N/A");
	profile_release(&p);
}

/* ---- bad input --------------------------------------------------------- */

static const char op_doc[] =
	"{\"metadata\": {\"sort\": \"device_self_duration\"}, \"data\": ["
	"{\"name\": \"aten::mm\", \"calls\": 4, \"device_self_duration\": 120, \"device_total_duration\": 120, "
	"\"host_self_duration\": 30, \"host_total_duration\": 44, \"tc_eligible\": \"Yes\", \"tc_self_ratio\": 0.0, "
	"\"tc_total_ratio\": 0.0, \"has_call_stack\": false}, "
	"{\"name\": \"aten::add\", \"calls\": 2, \"device_self_duration\": 10, \"device_total_duration\": 10, "
	"\"host_self_duration\": 8, \"host_total_duration\": 9, \"tc_eligible\": \"No\", \"tc_self_ratio\": 0.0, "
	"\"tc_total_ratio\": 0.0, \"has_call_stack\": false}]}\n";

static void test_bad_truncated(void)
{
	struct profile p;
	char msg[4096];
	const char *path;
	size_t cut = strlen(op_doc) - 60;

	/* Cut inside the second row: the first row is kept. */
	path = test_write("cut.json", op_doc, cut);
	CHECK_EQ(load(path, NULL, &p, msg, sizeof(msg)), 1);
	CHECK(strstr(msg, "cut.json:1:") != NULL);
	CHECK(strstr(msg, "error: unexpected end of file inside a document (truncated?)") != NULL);
	{
		struct agg_row r;

		CHECK(op_row(&p, "aten::mm", &r) && r.device_self_ns == 120000);
		CHECK(!op_row(&p, "aten::add", &r));
	}
	profile_release(&p);

	if (!exists(tbx("result_check_file.txt")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	{
		/* Three documents and half of the fourth of the real file. */
		FILE *f = fopen(tbx("result_check_file.txt"), "rb");
		char *buf = xmalloc(200000);
		size_t n = f ? fread(buf, 1, 200000, f) : 0, lines = 0, i;

		if (f)
			fclose(f);
		for (i = 0; i < n && lines < 3; i++)
			lines += buf[i] == '\n';
		path = test_write("cut4.txt", buf, i + 5000);
		free(buf);
		CHECK_EQ(load(path, NULL, &p, msg, sizeof(msg)), 1);
		CHECK(strstr(msg, "cut4.txt:4:") && strstr(msg, "error: unexpected end of file"));
		{
			struct agg a;

			agg_ops(&p, NULL, &a);
			CHECK_EQ(a.nr, 76);
			agg_release(&a);
			agg_kernels(&p, NULL, &a);
			CHECK(a.nr > 0 && a.nr < 67);	/* the complete rows of the cut table */
			agg_release(&a);
		}
		CHECK_EQ(p.nr_steps, 6);
		profile_release(&p);
	}
}

static void test_bad_structure(void)
{
	struct profile p;
	char msg[4096], junk[400], *text;
	size_t len = strlen(op_doc);

	/* Not an object at the top level. */
	CHECK_EQ(load(test_write("array.json", "[1, 2]\n", 7), "tb-json", &p, msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "array.json:1:1: error: expected a JSON object") != NULL);
	profile_release(&p);

	/* A document of a kind we do not know: skipped, counted. */
	text = xmalloc(len + 64);
	memcpy(text, op_doc, len);
	memcpy(text + len, "{\"memory\": {\"rows\": []}}\n", 25);
	CHECK_EQ(load(test_write("unknown.json", text, len + 25), NULL, &p, msg, sizeof(msg)), 0);
	CHECK_EQ(warnings(&p, "documents of an unknown kind, skipped"), 1);
	CHECK(strstr(msg, "unknown.json:2:1: warning:") != NULL);
	profile_release(&p);
	free(text);

	/* Binary garbage after a valid document: an error, the document kept. */
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 7919 % 251);
	text = xmalloc(len + sizeof(junk));
	memcpy(text, op_doc, len);
	memcpy(text + len, junk, sizeof(junk));
	CHECK_EQ(load(test_write("junk.json", text, len + sizeof(junk)), NULL, &p, msg, sizeof(msg)), 1);
	CHECK(strstr(msg, "junk.json:2:") && strstr(msg, ": error: "));
	{
		struct agg_row r;

		CHECK(op_row(&p, "aten::add", &r) && r.calls == 2);
	}
	profile_release(&p);
	free(text);
}

static void test_bad_values(void)
{
	struct profile p;
	char msg[4096];
	const char *text =
		"{\"device_total_time\": null, \"device_self_time\": {\"title\": \"Device Self Time (us)\", "
		"\"columns\": [], \"rows\": [[\"aten::mm\", 500.2], [\"aten::add\", 10.4]]}, "
		"\"host_total_time\": null, \"host_self_time\": null}\n"
		"{\"metadata\": {}, \"data\": [{\"name\": \"aten::mm\", \"calls\": 4, \"device_self_duration\": 120, "
		"\"device_total_duration\": 120, \"host_self_duration\": 30, \"host_total_duration\": 44}, "
		"{\"name\": \"aten::add\", \"calls\": \"two\", \"device_self_duration\": 10}, 7, "
		"{\"calls\": 1}, {\"name\": \"aten::neg\", \"calls\": 1, \"host_self_duration\": -5, "
		"\"host_total_duration\": 3}, {\"name\": \"aten::huge\", \"calls\": 1, "
		"\"host_self_duration\": 9.2e15, \"host_total_duration\": 9.2e15}]}\n";

	CHECK_EQ(load(test_write("values.json", text, strlen(text)), NULL, &p, msg, sizeof(msg)), 0);
	/* The pie says 500.2 us for aten::mm, the table 120 us: counted. */
	CHECK_EQ(warnings(&p, "pie chart values that differ from their table"), 2);
	/* "two" calls, and 9.2e15 us (292 years): not numbers we sum. */
	CHECK_EQ(warnings(&p, "operator rows with values that are not numbers, skipped"), 2);
	CHECK_EQ(warnings(&p, "table rows of the wrong JSON type, skipped"), 1);
	CHECK_EQ(warnings(&p, "operator rows without a name, skipped"), 1);
	CHECK_EQ(warnings(&p, "negative operator durations (as the plugin computed them)"), 1);
	{
		struct agg a;

		agg_ops(&p, NULL, &a);
		CHECK_EQ(a.nr, 2);
		agg_release(&a);
	}
	profile_release(&p);
}

static void test_bad_repeated_columns(void)
{
	struct profile p;
	char msg[4096];
	const char *text =
		"{\"steps\": {\"columns\": [{\"type\": \"string\", \"name\": \"Step\"}, {\"type\": \"number\", "
		"\"name\": \"Kernel\"}], \"rows\": [[\"1\", 10]], \"columns\": [{\"type\": \"string\", \"name\": "
		"\"Step\"}, {\"type\": \"number\", \"name\": \"A\"}, {\"type\": \"number\", \"name\": \"B\"}], "
		"\"rows\": [[\"2\", 1, 2]]}, \"recommendations\": \"\"}\n";

	CHECK_EQ(load(test_write("cols.json", text, strlen(text)), "tb-json", &p, msg, sizeof(msg)), 0);
	CHECK_EQ(warnings(&p, "step columns repeated after steps, ignored"), 1);
	CHECK_EQ(p.nr_step_cats, 1);
	CHECK(p.nr_steps == 1 && p.steps[0].total_ns == 10000);
	profile_release(&p);
}

static void test_bad_huge(void)
{
	struct profile p;
	char msg[4096];
	size_t n = 5u << 20;
	char *text = xmalloc(n + 128);
	int k = snprintf(text, 128, "{\"metadata\": {\"sort\": \"device_self_duration\"}, \"data\": [{\"name\": \"");

	memset(text + k, 'a', n);
	strcpy(text + k + n, "\"}]}\n");
	CHECK_EQ(load(test_write("huge.json", text, strlen(text)), NULL, &p, msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "huge.json:1:") && strstr(msg, "string longer than"));
	profile_release(&p);
	free(text);
}

/* ---- detection --------------------------------------------------------- */

static bool detected_as(const char *path, const char *name)
{
	struct input in;
	struct diag d;
	const char *head;
	const struct parser *parser;
	size_t len;

	diag_init(&d, path, NULL, NULL);
	if (input_open(&in, path, &d))
		return false;
	len = input_head(&in, &head);
	parser = parser_detect(head, len);
	input_close(&in);
	return parser && !strcmp(parser->name, name);
}

static void test_probe(void)
{
	static const char *const mine[] = { FIX "two-runs.json", FIX "grouped.json", FIX "mlu-float.json" };
	static const char *const others[] = {
		"tests/samples/sample.pt.trace.json.gz",
		"tests/golden/torch-table/modern.txt",
		"../shared/seeds/001_1c776201c8b5b83e.txt",
		"../shared/seeds/002_d67dc7fc6ef32707.txt",
		"../shared/seeds/003_a601f03079a8f23b.txt",
		"../shared/seeds/004_311414be4808ad5c.txt",
	};
	static const char *const kind[] = { "overview.json", "operation_pie_groupby_Operation.json",
					    "operation_table_groupby_Operation.json",
					    "kernel_table_groupby_Kernel.json", "kernel_pie.json" };

	for (size_t i = 0; i < ARRAY_SIZE(mine); i++)
		CHECK(detected_as(mine[i], "tb-json"));
	for (size_t i = 0; i < ARRAY_SIZE(others); i++)
		if (exists(others[i]) && detected_as(others[i], "tb-json")) {
			fprintf(stderr, "  %s claimed by tb-json\n", others[i]);
			test_failed = 1;
		}
	if (!exists(SEED000) || !exists(tbx("result_check_file.txt")))
		SKIP("no seeds or corpus under ../shared (set PROFTUI_CORPUS)");
	CHECK(detected_as(SEED000, "tb-json"));
	CHECK(detected_as(tbx("result_check_file.txt"), "tb-json"));
	for (size_t i = 0; i < ARRAY_SIZE(kind); i++) {
		char name[256];

		snprintf(name, sizeof(name), "resnet50_num_workers_4__worker0_span1__%s", kind[i]);
		CHECK(detected_as(tbx(name), "tb-json"));
	}
	/* Kineto traces stay Kineto's. */
	CHECK(detected_as(tbx("gpu_metrics_input.json"), "kineto"));
	CHECK(detected_as(tbx("gpu_metrics_expected.json"), "kineto"));
}

const struct test tests[] = {
	{ "seed 000: issue 4's numbers, two runs", test_seed000_acceptance },
	{ "result_check_file.txt equals its split files", test_result_check_equals_split_files },
	{ "every generated plugin output loads", test_corpus_loads },
	{ "fixture: two runs, GPU then CPU-only", test_fixture_two_runs },
	{ "fixture: tables grouped by shape and by kernel and op", test_fixture_grouped },
	{ "fixture: float step values, MLU summary", test_fixture_float_steps },
	{ "bad: a document cut short keeps its complete rows", test_bad_truncated },
	{ "bad: wrong top level, unknown document, garbage", test_bad_structure },
	{ "bad: values of the wrong type, pies that disagree", test_bad_values },
	{ "bad: step columns again after rows", test_bad_repeated_columns },
	{ "bad: a 5 MB name", test_bad_huge },
	{ "detection: tb-json claims its files and no others", test_probe },
	{ 0 },
};
