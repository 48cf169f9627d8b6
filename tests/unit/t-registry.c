// SPDX-License-Identifier: MIT
/*
 * Detection by content: every seed and corpus file is claimed by the
 * parser of its format and by no other, and each loads without an error.
 * Reads ../shared (seeds/, corpus/); skips when it is absent.
 */
#include <dirent.h>

#include "model/aggregate.h"
#include "model/strbuf.h"
#include "parsers/parser.h"
#include "claimed-by.h"
#include "test.h"

static const struct expect {
	const char *path;	/* under ../shared, or a corpus folder ending in '/' */
	const char *format;
	bool loads;		/* the whole file loads without an error */
} expects[] = {
	{ "seeds/000_23f082c7e8896fb5.txt", "tb-json", true },
	{ "seeds/001_1c776201c8b5b83e.txt", "paddle", true },
	{ "seeds/003_a601f03079a8f23b.txt", "torch-table", true },
	{ "seeds/004_311414be4808ad5c.txt", "megengine", true },
	{ "corpus/pytorch-kineto-trace/", "kineto", true },
	{ "corpus/pytorch-kineto-multi/hta_trace_diff/", "kineto", true },
	{ "corpus/pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4/", "kineto", true },
	{ "corpus/pytorch-key-averages/", "torch-table", true },
	{ "corpus/paddle-profiler/", "paddle", true },
	{ "corpus/megengine/", "megengine", true },
	{ "corpus/tb-plugin-expected/result_check_file.txt", "tb-json", true },
	{ "corpus/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.graph.json", "trtexec-graph",
	  true },
	{ "corpus/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.profile.json",
	  "trtexec-profile", true },
	{ "corpus/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.timing.json", "trtexec-times",
	  true },
	{ "corpus/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.profile.metadata.json",
	  "trex-metadata", true },
	{ "corpus/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.build.metadata.json",
	  "trex-metadata", true },
};

static int nr_bad;

static void check_file(const char *path, const struct expect *e)
{
	const char *got = claimed_by(path);

	if (strcmp(got, e->format)) {
		if (nr_bad++ < 20)
			fprintf(stderr, "  %s: detected as %s, not %s\n", path, got, e->format);
		test_failed = 1;
		return;
	}
	if (e->loads) {
		struct profile p;
		struct load_options o = { .err = NULL };
		const char *paths[] = { path };
		int rc;

		profile_init(&p, path);
		rc = profile_load(&p, paths, 1, &o);
		if (rc != 0) {
			fprintf(stderr, "  %s: load returned %d\n", path, rc);
			test_failed = 1;
		}
		profile_release(&p);
	}
}

static void test_every_shared_file(void)
{
	char dir[4096], path[8192];
	size_t nr_files = 0;

	snprintf(dir, sizeof(dir), "%s/..", test_corpus_dir());
	{
		DIR *probe = opendir(test_corpus_dir());

		if (!probe)
			SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
		closedir(probe);
	}
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		const struct expect *e = &expects[i];
		size_t n = strlen(e->path);

		if (e->path[n - 1] != '/') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->path);
			check_file(path, e);
			nr_files++;
			continue;
		}
		{
			struct dirent *de;
			DIR *d;

			snprintf(path, sizeof(path), "%s/%s", dir, e->path);
			d = opendir(path);
			if (!d) {
				fprintf(stderr, "  %s: missing\n", path);
				test_failed = 1;
				continue;
			}
			while ((de = readdir(d))) {
				char file[8192 + 256];

				if (de->d_name[0] == '.')
					continue;
				snprintf(file, sizeof(file), "%s%s", path, de->d_name);
				check_file(file, e);
				nr_files++;
			}
			closedir(d);
		}
	}
	CHECK(nr_files >= 25);
}

/* The plugin outputs tb-json reads (its REST tables, pies and overview)
 * are claimed by it and load; the others in generated/ (gpu_metrics,
 * memory_*, module_view, views) are reference data for proftui's own
 * views, which no parser reads: they must be refused, never misread as
 * another format.  gpu_metrics_input.json is a Kineto trace. */
static const char *const tb_json_reads[] = {
	"__overview.json", "__operation_pie_groupby_Operation.json",
	"__operation_table_groupby_Operation.json",
	"__operation_table_groupby_OperationAndInputShape.json",
	"__kernel_table_groupby_Kernel.json", "__kernel_pie.json", "__kernel_op_table.json",
	"__tc_pie.json", NULL,
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void test_tb_plugin_outputs(void)
{
	char path[4096], file[8192];
	struct dirent *de;
	DIR *d;
	size_t nr_read = 0, nr_refused = 0;

	snprintf(path, sizeof(path), "%s/tb-plugin-expected/generated", test_corpus_dir());
	if (!(d = opendir(path)))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	while ((de = readdir(d))) {
		static const struct expect tb = { NULL, "tb-json", true };
		bool read = false;

		if (de->d_name[0] == '.')
			continue;
		for (const char *const *s = tb_json_reads; *s; s++)
			read |= ends_with(de->d_name, *s);
		snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
		if (read) {
			check_file(file, &tb);
			nr_read++;
		} else {
			const char *got = claimed_by(file);

			if (strcmp(got, "(none)")) {
				fprintf(stderr, "  %s: claimed by %s\n", file, got);
				test_failed = 1;
			}
			nr_refused++;
		}
	}
	closedir(d);
	CHECK(nr_read >= 40);
	CHECK(nr_refused >= 10);
	snprintf(file, sizeof(file), "%s/tb-plugin-expected/gpu_metrics_input.json",
		 test_corpus_dir());
	CHECK_STR(claimed_by(file), "kineto");
}

/*
 * A format that may begin anywhere in a file is found after 40,000 lines
 * of a training log, and reads the same as the file alone (same rows,
 * the same line numbers in its runs' "starts at"): FIXTURE under NOISE
 * lines.
 */
static void buried(const char *fixture, const char *format, size_t nr_noise)
{
	struct strbuf text = STRBUF_INIT;
	struct profile alone, deep;
	char msg[4096], *data;
	const char *path;
	size_t len;
	FILE *f = fopen(fixture, "rb");
	struct agg a, b;

	if (!f) {
		fprintf(stderr, "  cannot read %s\n", fixture);
		test_failed = 1;
		return;
	}
	data = xmalloc(1 << 20);
	len = fread(data, 1, 1 << 20, f);
	fclose(f);
	for (size_t i = 0; i < nr_noise; i++) {
		char line[160];

		snprintf(line, sizeof(line), "2025-01-01 12:00:%02zu train.py:88] epoch 3 batch %zu "
			 "loss=%zu.%03zu lr=0.0001 grad_norm=1.2 tokens/s=31337\n", i % 60, i,
			 i % 7, i % 1000);
		strbuf_addstr(&text, line);
	}
	strbuf_add(&text, data, len);
	path = test_write("buried.log", text.s, text.len);
	CHECK_EQ(test_load(&deep, path, NULL, msg, sizeof(msg)), 0);
	CHECK_STR(deep.format, format);
	CHECK_EQ(test_load(&alone, fixture, NULL, msg, sizeof(msg)), 0);
	agg_ops(&alone, NULL, &a);
	agg_ops(&deep, NULL, &b);
	CHECK(a.nr > 0);
	CHECK_EQ(a.nr, b.nr);
	for (size_t i = 0; i < a.nr && i < b.nr; i++) {
		CHECK_STR(a.rows[i].name, b.rows[i].name);
		CHECK_EQ(a.rows[i].host_self_ns, b.rows[i].host_self_ns);
		CHECK_EQ(a.rows[i].device_self_ns, b.rows[i].device_self_ns);
	}
	agg_release(&a);
	agg_release(&b);
	profile_release(&alone);
	profile_release(&deep);
	strbuf_release(&text);
	free(data);
}

static void test_found_anywhere(void)
{
	buried("tests/golden/paddle/summary-2.3.txt", "paddle", 40000);
	buried("tests/golden/megengine/analyze-grid.txt", "megengine", 40000);
	buried("tests/golden/trtexec/log-trt86.txt", "trtexec-log", 40000);
	buried("tests/golden/torch-table/modern.txt", "torch-table", 40000);
	/* Right after the head's window, and inside it. */
	buried("tests/golden/paddle/summary-2.3.txt", "paddle", 420);
	buried("tests/golden/paddle/summary-2.3.txt", "paddle", 3);
}

const struct test tests[] = {
	{ "a table after 40,000 lines of log is found and read the same", test_found_anywhere },
	{ "every seed and corpus file is claimed by its own parser and loads",
	  test_every_shared_file },
	{ "torch-tb-profiler outputs are tb-json, its trace inputs kineto", test_tb_plugin_outputs },
	{ 0 },
};
