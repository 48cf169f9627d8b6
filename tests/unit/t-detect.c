// SPDX-License-Identifier: MIT
/*
 * Detection on samples every clone has: each format's own small files
 * (the golden fixtures under tests/golden/) are claimed by content, no
 * --format given, by the parser of their format.  t-registry checks the
 * same on the external corpus when it is there; this runs without it.
 */
#include <zlib.h>

#include "model/strbuf.h"
#include "parsers/parser.h"
#include "claimed-by.h"
#include "test.h"

static const struct sample {
	const char *path;	/* from the repository root */
	const char *format;	/* the parser that must claim it */
	bool loads;		/* a whole profile on its own */
} samples[] = {
	{ "tests/golden/kineto/two-steps.json", "kineto", true },
	{ "tests/golden/kineto/gpu-ranges.json", "kineto", true },
	{ "tests/golden/torch-table/modern.txt", "torch-table", true },
	{ "tests/golden/torch-table/old-1.7.txt", "torch-table", true },
	{ "tests/golden/torch-table/loose-stripped.md", "torch-table", true },
	{ "tests/golden/tb-json/two-runs.json", "tb-json", true },
	{ "tests/golden/trtexec/graph-simple.json", "trtexec-graph", true },
	{ "tests/golden/trtexec/graph-trt10.json", "trtexec-graph", true },
	{ "tests/golden/trtexec/profile.json", "trtexec-profile", true },
	{ "tests/golden/trtexec/times.json", "trtexec-times", true },
	{ "tests/golden/trtexec/log-trt86.txt", "trtexec-log", true },
	{ "tests/golden/trtexec/log-trt84-jetson.txt", "trtexec-log", true },
	{ "tests/golden/trtexec/tiny.profile.metadata.json", "trex-metadata", false },
	{ "tests/golden/trtexec/device.metadata.json", "trex-device", false },
	{ "tests/golden/megengine/lar-v17.txt", "megengine", true },
	{ "tests/golden/megengine/analyze-grid.txt", "megengine", true },
	{ "tests/golden/megengine/profile.json", "megengine-json", true },
	{ "tests/golden/paddle/summary-2.3.txt", "paddle", true },
	{ "tests/golden/paddle/summary-new.txt", "paddle", true },
	{ "tests/golden/paddle/train-log.txt", "paddle", true },
	{ "tests/golden/summary/shapes.summary", "summary", true },
	{ "tests/golden/rocprof/v1-stats.csv", "rocprof-stats", true },
	{ "tests/golden/rocprof/v3-kernel-stats.csv", "rocprof-stats", true },
	{ "tests/golden/rocprof/bom-crlf-stats.csv", "rocprof-stats", true },
	{ "tests/golden/rocprof/v1-trace.csv", "rocprof-trace", true },
	{ "tests/golden/rocprof/v3-kernel-trace.csv", "rocprof-trace", true },
	{ "tests/golden/rocprof/v3-hip-api-trace.csv", "rocprof-trace", true },
	{ "tests/golden/rocprof/run/app_memory_copy_trace.csv", "rocprof-trace", true },
	{ "tests/golden/rocprof/v3-marker-nested.csv", "rocprof-trace", true },
	{ "tests/golden/nsys/all-table.log", "nsys-stats", true },
	{ "tests/golden/nsys/kern.csv", "nsys-stats", true },
	{ "tests/golden/nsys/old-2021.md", "nsys-stats", true },
	{ "tests/golden/nsys/untitled.txt", "nsys-stats", true },
	{ "tests/golden/nsys/names-2021.txt", "nsys-stats", true },
	{ "tests/golden/nsys/kern.tsv", "nsys-stats", true },
	{ "tests/golden/nsys/issue.md", "nsys-stats", true },
	{ "tests/golden/nsys/boxed.txt", "nsys-stats", true },
	{ "tests/golden/nsys/nvprof-2020.log", "nsys-stats", true },
};

#define NR_SAMPLES (sizeof(samples) / sizeof(samples[0]))

/* A load of PATH without --format reads it with FORMAT and no error. */
static void check_loads_as(const char *path, const char *format)
{
	struct profile p;
	char msg[4096];
	int rc = test_load(&p, path, NULL, msg, sizeof(msg));

	if (rc != 0 || !p.format || strcmp(p.format, format)) {
		fprintf(stderr, "  %s: load returned %d as %s: %s\n", path, rc,
			p.format ? p.format : "(none)", msg);
		test_failed = 1;
	}
	profile_release(&p);
}

/* The head of PATH is claimed by FORMAT and, when LOADS, a load reads it
 * with that parser. */
static void check_sample(const char *path, const char *format, bool loads)
{
	const char *got = claimed_by(path);

	if (strcmp(got, format)) {
		fprintf(stderr, "  %s: claimed by %s, not %s\n", path, got, format);
		test_failed = 1;
		return;
	}
	if (loads)
		check_loads_as(path, format);
}

static void test_samples_detected(void)
{
	for (size_t i = 0; i < NR_SAMPLES; i++)
		check_sample(samples[i].path, samples[i].format, samples[i].loads);
}

/* Every parser in the registry has a sample above, so that a new format
 * comes with one. */
static void test_every_parser_has_a_sample(void)
{
	size_t n;
	const struct parser *const *list = parser_list(&n);

	CHECK(n > 0);
	for (size_t i = 0; i < n; i++) {
		bool found = false;

		for (size_t j = 0; j < NR_SAMPLES && !found; j++)
			found = !strcmp(samples[j].format, list[i]->name);
		if (!found) {
			fprintf(stderr, "  parser %s has no sample in t-detect\n", list[i]->name);
			test_failed = 1;
		}
	}
}

/* A gzip-compressed trace (what the profiler writes as .json.gz) is
 * detected from its decompressed head. */
static void test_gzip_detected(void)
{
	const char *src = "tests/golden/kineto/two-steps.json";
	char path[512], buf[8192];
	FILE *in = fopen(src, "rb");
	gzFile out;
	size_t n;

	CHECK(in != NULL);
	if (!in)
		return;
	snprintf(path, sizeof(path), "%s/two-steps.json.gz", test_dir());
	out = gzopen(path, "wb");
	CHECK(out != NULL);
	while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		CHECK_EQ(gzwrite(out, buf, (unsigned)n), (int)n);
	fclose(in);
	if (!out)
		return;
	CHECK_EQ(gzclose(out), Z_OK);
	check_sample(path, "kineto", true);
}

/* A format whose text may begin anywhere (a table printed at the end of a
 * run) is found by a load when its sample follows more than a probe's
 * window of log lines that no parser claims. */
static void test_buried_samples_detected(void)
{
	for (size_t i = 0; i < NR_SAMPLES; i++) {
		const struct parser *p = parser_find(samples[i].format);
		struct strbuf text = STRBUF_INIT;
		char name[64], *data;
		const char *path;
		size_t len;
		FILE *f;

		if (!p || !p->anywhere)
			continue;
		f = fopen(samples[i].path, "rb");
		CHECK(f != NULL);
		if (!f)
			continue;
		data = xmalloc(1 << 20);
		len = fread(data, 1, 1 << 20, f);
		fclose(f);
		for (size_t n = 0; text.len < 2 * INPUT_PROBE_BYTES; n++) {
			char line[128];

			snprintf(line, sizeof(line), "[rank0] downloading shard %zu of 4096, "
				 "cache hit, waiting for peers\n", n);
			strbuf_addstr(&text, line);
		}
		strbuf_add(&text, data, len);
		snprintf(name, sizeof(name), "buried-%zu.log", i);
		path = test_write(name, text.s, text.len);
		/* The head is noise: the load must look past it. */
		CHECK_STR(claimed_by(path), "(none)");
		check_loads_as(path, samples[i].format);
		strbuf_release(&text);
		free(data);
	}
}

const struct test tests[] = {
	{ "each format's own sample is claimed by its parser", test_samples_detected },
	{ "every parser has a sample of its own", test_every_parser_has_a_sample },
	{ "a gzip-compressed trace is detected as kineto", test_gzip_detected },
	{ "a text format is found after a window of log lines", test_buried_samples_detected },
	{ 0 },
};
