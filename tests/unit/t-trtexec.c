// SPDX-License-Identifier: MIT
/*
 * TensorRT trtexec: the parsers of parsers/trtexec/trtexec*.c and trex*.c, what
 * they put in the panes, and how the files of one engine join.  Reads the
 * fixtures under tests/golden/trtexec/, seed 002 (a GitHub issue page
 * holding two --exportLayerInfo documents, extracted at test time into
 * $O/tests/trtexec/) and the corpus mobilenet engine; skips what is absent.
 */
#include <sys/stat.h>

#include "model/aggregate.h"
#include "model/strbuf.h"
#include "parsers/parser.h"
#include "test.h"

#define FIX "tests/golden/trtexec/"
#define SEED002 "../shared/seeds/002_d67dc7fc6ef32707.txt"
#define KIND_ONE_FILE "layers found in only one of the files (kept)"
#define KIND_BY_ORDER "layers joined by position: names differ between files"

static char scratch[512];

/* $O/tests/trtexec/NAME, the directory made on first use.  The result
 * stays valid for the next three calls. */
static const char *scratch_path(const char *name)
{
	static char paths[4][1024];
	static unsigned next;
	char *path = paths[next++ % 4];
	const char *o = getenv("O");

	snprintf(scratch, sizeof(scratch), "%s/tests", o && *o ? o : "build");
	mkdir(scratch, 0777);
	strcat(scratch, "/trtexec");
	mkdir(scratch, 0777);
	snprintf(path, sizeof(paths[0]), "%s/%s", scratch, name);
	return path;
}

static const char *write_file(const char *name, const void *data, size_t len)
{
	const char *path = scratch_path(name);
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	return path;
}

static const char *write_str(const char *name, const char *text)
{
	return write_file(name, text, strlen(text));
}

static char msgs[16384];

/* Load PATHS into P (released by the caller); messages land in msgs[]. */
static int load_n(struct profile *p, const char *const *paths, size_t n, const char *format)
{
	struct load_options opt = { .format = format };
	FILE *err = tmpfile();
	size_t got;
	int rc;

	opt.err = err;
	profile_init(p, paths[0]);
	rc = profile_load(p, paths, n, &opt);
	rewind(err);
	got = fread(msgs, 1, sizeof(msgs) - 1, err);
	msgs[got] = '\0';
	fclose(err);
	return rc;
}

static int load1(struct profile *p, const char *path)
{
	return load_n(p, &path, 1, NULL);
}

static size_t nr_layers(const struct profile *p)
{
	size_t n = 0;

	for (const struct node *c = node_first_child(p->root); c; c = node_next(c))
		n += c->kind == NODE_LAYER;
	return n;
}

static const struct node *layer_at(const struct profile *p, size_t i)
{
	for (const struct node *c = node_first_child(p->root); c; c = node_next(c))
		if (c->kind == NODE_LAYER && !i--)
			return c;
	return NULL;
}

static const struct node *layer(const struct profile *p, const char *name)
{
	for (const struct node *c = node_first_child(p->root); c; c = node_next(c))
		if (c->kind == NODE_LAYER && !strcmp(node_name(c), name))
			return c;
	return NULL;
}

static const char *str_attr(const struct node *n, const char *key)
{
	const struct attr *a = n ? attr_find(node_attrs(n), key) : NULL;

	return a && attr_type(a) == ATTR_STRING ? a->v.s : NULL;
}

static int64_t ns_attr(const struct node *n, const char *key)
{
	const struct attr *a = n ? attr_find(node_attrs(n), key) : NULL;

	return a && attr_type(a) == ATTR_NS ? a->v.i : -1;
}

static double dbl_attr(const struct node *n, const char *key)
{
	const struct attr *a = n ? attr_find(node_attrs(n), key) : NULL;

	return a && attr_type(a) == ATTR_DOUBLE ? a->v.d : -1;
}

static uint64_t warnings(const struct profile *p, const char *text)
{
	for (const struct warning *w = p->warnings; w; w = w->next)
		if (!strcmp(w->text, text))
			return w->count;
	return 0;
}

static const struct node *child(const struct node *n, enum node_kind kind, size_t i)
{
	for (const struct node *c = n ? node_first_child(n) : NULL; c; c = node_next(c))
		if (c->kind == kind && !i--)
			return c;
	return NULL;
}

static size_t nr_children(const struct node *n, enum node_kind kind)
{
	size_t k = 0;

	for (const struct node *c = n ? node_first_child(n) : NULL; c; c = node_next(c))
		k += c->kind == kind;
	return k;
}

static bool name_is(const struct node *n, void *ctx)
{
	return !strcmp(node_name(n), ctx);
}

static const struct agg_row *row(const struct agg *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name))
			return &a->rows[i];
	return NULL;
}

/* The detected parser's name for PATH, or "" when none claims it. */
static const char *detect(const char *path)
{
	struct input in;
	struct diag d;
	const char *head, *name = "";
	const struct parser *pr;
	size_t len;

	diag_init(&d, path, NULL, NULL);
	if (input_open(&in, path, &d))
		return "(unreadable)";
	len = input_head(&in, &head);
	pr = parser_detect(head, len);
	if (pr)
		name = pr->name;
	input_close(&in);
	diag_finish(&d);
	return name;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* Messages must name the file and a line: "PATH:LINE:". */
static bool names_line(const char *path)
{
	char prefix[600];
	const char *m = strstr(msgs, path);

	snprintf(prefix, sizeof(prefix), "%s:", path);
	return m && !strncmp(m, prefix, strlen(prefix)) && m[strlen(prefix)] >= '1' &&
	       m[strlen(prefix)] <= '9';
}

/* ---------------------------------------------------------------------
 * Seed 002: the two --exportLayerInfo documents of a GitHub issue page
 */

/* The Nth JSON document starting with {"Layers" in the seed, written to
 * $O/tests/trtexec/NAME; NULL when the seed is absent. */
static const char *seed_doc(int nth, const char *name)
{
	static char text[65536];
	FILE *f = fopen(SEED002, "rb");
	size_t n;
	const char *s = text;

	if (!f)
		return NULL;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	for (int i = 0; i <= nth; i++) {
		s = strstr(i ? s + 1 : s, "{\"Layers\"");
		if (!s)
			return NULL;
	}
	/* To the brace that closes it, minding strings. */
	{
		int depth = 0;
		bool in_str = false;
		size_t i;

		for (i = 0; s[i]; i++) {
			if (in_str) {
				if (s[i] == '\\' && s[i + 1])
					i++;
				else if (s[i] == '"')
					in_str = false;
			} else if (s[i] == '"') {
				in_str = true;
			} else if (s[i] == '{' || s[i] == '[') {
				depth++;
			} else if ((s[i] == '}' || s[i] == ']') && --depth == 0) {
				break;
			}
		}
		if (!s[i])
			return NULL;
		return write_file(name, s, i + 1);
	}
}

#define CONV0 "resnetv15_conv0_fwd + resnetv15_batchnorm0_fwd + resnetv15_relu0_fwd + resnetv15_pool0_fwd"

static void t_seed_detailed(void)
{
	const char *path = seed_doc(1, "seed002-detailed.json");
	static const char *const sources[] = { "resnetv15_conv0_fwd", "resnetv15_batchnorm0_fwd",
					       "resnetv15_relu0_fwd", "resnetv15_pool0_fwd" };
	struct agg_scope scope = { .want = name_is, .ctx = (void *)CONV0 };
	struct profile p;
	struct agg ops, drill;
	const struct node *l;

	if (!path)
		SKIP("no seed 002 at ../shared/seeds");
	CHECK_STR(detect(path), "trtexec-graph");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(nr_layers(&p), 25);
	agg_ops(&p, NULL, &ops);
	CHECK_EQ(ops.nr, 25);
	l = layer(&p, CONV0);
	CHECK(l != NULL);
	CHECK_STR(str_attr(l, "layer_type"), "CaskConvActPool");
	CHECK_STR(str_attr(l, "precision"), "INT8");
	CHECK_STR(str_attr(l, "tactic"), "0xb71c75095873646c");
	CHECK_STR(str_attr(l, "input_shapes"), "1x3x224x224");
	CHECK_STR(str_attr(l, "output_shapes"), "1x64x56x56");
	/* Drill-down: the tactic, then the four fused ONNX layers. */
	agg_op_kernels(&p, &scope, &drill);
	CHECK_EQ(drill.nr, 5);
	if (drill.nr == 5) {
		CHECK_EQ(drill.rows[0].first->kind, NODE_KERNEL);
		CHECK_STR(drill.rows[0].name, "CaskConvActPool 0xb71c75095873646c");
		for (size_t i = 0; i < 4; i++) {
			CHECK_EQ(drill.rows[i + 1].first->kind, NODE_SOURCE);
			CHECK_STR(drill.rows[i + 1].name, sources[i]);
		}
	}
	/* A reformat layer with empty Metadata fused nothing. */
	l = layer_at(&p, 0);
	CHECK_STR(str_attr(l, "layer_type"), "Reformat");
	CHECK_EQ(nr_children(l, NODE_SOURCE), 0);
	CHECK_STR(profile_meta_get(&p, "engine", "bindings"), "data, resnetv15_dense0_fwd");
	CHECK_EQ(p.nr_steps, 0);
	agg_release(&ops);
	agg_release(&drill);
	profile_release(&p);
}

static void t_seed_simple(void)
{
	const char *simple = seed_doc(0, "seed002-simple.json");
	const char *detailed = seed_doc(1, "seed002-detailed.json");
	struct profile ps, pd;

	if (!simple || !detailed)
		SKIP("no seed 002 at ../shared/seeds");
	CHECK_STR(detect(simple), "trtexec-graph");
	CHECK_EQ(load1(&ps, simple), 0);
	CHECK_EQ(load1(&pd, detailed), 0);
	CHECK_EQ(nr_layers(&ps), 25);
	for (size_t i = 0; i < 25; i++) {
		const struct node *a = layer_at(&ps, i), *b = layer_at(&pd, i);

		CHECK(a && b && !strcmp(node_name(a), node_name(b)));
		CHECK(a && !str_attr(a, "layer_type") && !str_attr(a, "precision"));
		CHECK(a && !child(a, NODE_KERNEL, 0));
	}
	/* Without Metadata the sources come from the name. */
	CHECK_EQ(nr_children(layer(&ps, CONV0), NODE_SOURCE), 4);
	CHECK_STR(node_name(child(layer(&ps, CONV0), NODE_SOURCE, 3)), "resnetv15_pool0_fwd");
	profile_release(&ps);
	profile_release(&pd);
}

/* The whole page is prose: no trtexec parser may claim it. */
static void t_seed_pages_not_claimed(void)
{
	static const char *const seeds[] = {
		"../shared/seeds/000_23f082c7e8896fb5.txt", "../shared/seeds/001_1c776201c8b5b83e.txt",
		SEED002, "../shared/seeds/003_a601f03079a8f23b.txt",
		"../shared/seeds/004_311414be4808ad5c.txt",
	};
	size_t seen = 0;

	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		const char *name;

		if (!exists(seeds[i]))
			continue;
		seen++;
		name = detect(seeds[i]);
		if (!strncmp(name, "trtexec", 7) || !strncmp(name, "trex", 4)) {
			fprintf(stderr, "  %s claimed by %s\n", seeds[i], name);
			test_failed = 1;
		}
	}
	if (!seen)
		SKIP("no seeds at ../shared/seeds");
}

/* ---------------------------------------------------------------------
 * The corpus mobilenet engine: graph + profile + timing
 */

static char corpus_buf[3][512];

static bool corpus_paths(const char *out[3])
{
	static const char *const ext[] = { "graph.json", "profile.json", "timing.json" };

	for (int i = 0; i < 3; i++) {
		snprintf(corpus_buf[i], sizeof(corpus_buf[i]),
			 "%s/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.%s",
			 test_corpus_dir(), ext[i]);
		out[i] = corpus_buf[i];
		if (!exists(out[i]))
			return false;
	}
	return true;
}

static void t_corpus_merge(void)
{
	const char *paths[3];
	struct profile p;
	struct agg ops;
	const struct node *l;
	int64_t sum = 0;
	bool all_joined = true;

	if (!corpus_paths(paths))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	CHECK_STR(detect(paths[0]), "trtexec-graph");
	CHECK_STR(detect(paths[1]), "trtexec-profile");
	CHECK_STR(detect(paths[2]), "trtexec-times");
	CHECK_EQ(load_n(&p, paths, 3, NULL), 0);
	CHECK_EQ(warnings(&p, KIND_ONE_FILE), 0);
	CHECK_EQ(warnings(&p, KIND_BY_ORDER), 0);
	CHECK_EQ(nr_layers(&p), 73);
	/* Every profile layer found its graph layer: times and types on each. */
	for (size_t i = 0; i < 73; i++) {
		l = layer_at(&p, i);
		if (!l || node_calls(&p, l) != 6610 || !str_attr(l, "layer_type") ||
		    ns_attr(l, "mean_ns") < 0)
			all_joined = false;
		if (l)
			sum += node_device_total(&p, l);
	}
	CHECK(all_joined);
	CHECK_EQ(sum, 3109270400);	/* Σ timeMs = 3109.2704 ms */
	l = layer_at(&p, 0);
	CHECK_STR(node_name(l), "QuantizeLinear_2");
	CHECK_EQ(node_device_total(&p, l), 31387900);
	CHECK_EQ(node_device_self(&p, l), 31387900);
	CHECK_EQ(ns_attr(l, "mean_ns"), 4749);	/* 0.00474854 ms */
	CHECK_EQ(ns_attr(l, "median_ns"), 4544);
	CHECK(dbl_attr(l, "time_pct") == 1.00949);
	CHECK_STR(str_attr(l, "precision"), "INT8");
	CHECK_STR(str_attr(l, "origin"), "QDQ");
	/* The tactic carries the layer's time into the Kernels pane. */
	CHECK_EQ(node_device_total(&p, child(l, NODE_KERNEL, 0)), 31387900);
	CHECK_EQ(node_calls(&p, child(l, NODE_KERNEL, 0)), 6610);
	agg_ops(&p, NULL, &ops);
	CHECK_EQ(ops.nr, 73);
	agg_release(&ops);
	/* The last layer ran in no time and is still there. */
	l = layer_at(&p, 72);
	CHECK_STR(node_name(l), "copied_squeeze_after_(Unnamed Layer* 850) [ElementWise]");
	CHECK_EQ(node_device_total(&p, l), 0);

	/* Steps: one per inference. */
	CHECK_EQ(p.nr_steps, 8945);
	CHECK_EQ(p.nr_step_cats, 4);
	CHECK_STR(p.step_cats[0], "Enqueue");
	CHECK_STR(p.step_cats[2], "Compute");
	CHECK_STR(p.steps[0].name, "0");
	CHECK_EQ(p.steps[0].total_ns, 484512);
	CHECK_EQ(p.steps[0].cat_ns[0], 90360);	/* 4.28702 - 4.19666 ms */
	CHECK_EQ(p.steps[0].cat_ns[1], 0);
	CHECK_EQ(p.steps[0].cat_ns[2], 484512);
	CHECK_EQ(p.steps[0].cat_ns[3], 0);
	CHECK_EQ(p.steps[8944].total_ns, 350342);
	CHECK_STR(p.steps[8944].name, "8944");
	profile_release(&p);
}

/* The files join the same way whatever order they come in. */
static void t_corpus_any_order(void)
{
	const char *paths[3], *rev[3];
	struct profile a, b;
	bool same = true;

	if (!corpus_paths(paths))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	rev[0] = paths[2];
	rev[1] = paths[1];
	rev[2] = paths[0];
	CHECK_EQ(load_n(&a, paths, 3, NULL), 0);
	CHECK_EQ(load_n(&b, rev, 3, NULL), 0);
	CHECK_EQ(warnings(&b, KIND_ONE_FILE), 0);
	CHECK_EQ(nr_layers(&b), 73);
	for (size_t i = 0; i < 73; i++) {
		const struct node *x = layer_at(&a, i), *y = layer_at(&b, i);
		const struct attr *ax, *ay;

		if (!x || !y || strcmp(node_name(x), node_name(y)) ||
		    node_calls(&a, x) != node_calls(&b, y) ||
		    node_device_total(&a, x) != node_device_total(&b, y) ||
		    nr_children(x, NODE_SOURCE) != nr_children(y, NODE_SOURCE) ||
		    strcmp(node_name(child(x, NODE_KERNEL, 0)), node_name(child(y, NODE_KERNEL, 0)))) {
			same = false;
			continue;
		}
		/* The same columns in the same order. */
		for (ax = node_attrs(x), ay = node_attrs(y); ax && ay; ax = attr_next(ax), ay = attr_next(ay))
			if (strcmp(attr_key(ax), attr_key(ay)))
				same = false;
		if (ax || ay)
			same = false;
	}
	CHECK(same);
	CHECK_EQ(b.nr_steps, 8945);
	profile_release(&a);
	profile_release(&b);
}

static void t_corpus_trex_metadata(void)
{
	char path[600];
	struct profile p;

	snprintf(path, sizeof(path),
		 "%s/tensorrt/trex_tests_inputs__mobilenet.qat.onnx.engine.profile.metadata.json",
		 test_corpus_dir());
	if (!exists(path))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	CHECK_STR(detect(path), "trex-metadata");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_STR(profile_meta_get(&p, "performance summary", "Throughput"), "2829.15 qps");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Latency median"), "0.351196 ms");
	CHECK_STR(profile_meta_get(&p, "performance summary", "GPU Compute Time percentiles"),
		  "0.352234, 0.352295, 0.376038 ms");
	CHECK_STR(profile_meta_get(&p, "device", "Selected Device"), "NVIDIA TITAN RTX");
	CHECK_STR(profile_meta_get(&p, "inference options", "CUDA Graph"), "Enabled");
	profile_release(&p);
}

/* ---------------------------------------------------------------------
 * Fixtures: each variant
 */

static void t_detect_fixtures(void)
{
	static const struct {
		const char *file, *parser;
	} want[] = {
		{ "graph-simple.json", "trtexec-graph" },
		{ "graph-detailed.json", "trtexec-graph" },
		{ "graph-trt10.json", "trtexec-graph" },
		{ "profile.json", "trtexec-profile" },
		{ "profile-nomedian.json", "trtexec-profile" },
		{ "times.json", "trtexec-times" },
		{ "log-trt86.txt", "trtexec-log" },
		{ "log-trt85.txt", "trtexec-log" },
		{ "log-trt84-jetson.txt", "trtexec-log" },
		{ "log-two-runs.txt", "trtexec-log" },
		{ "tiny.profile.metadata.json", "trex-metadata" },
		{ "device.metadata.json", "trex-device" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		char path[256];

		snprintf(path, sizeof(path), FIX "%s", want[i].file);
		CHECK_STR(detect(path), want[i].parser);
	}
	/* Not ours: a Kineto trace, MegEngine's --profile JSON, trtexec's
	 * --exportOutput, an unrelated JSON array. */
	CHECK_STR(detect("tests/samples/sample.pt.trace.json.gz"), "kineto");
	CHECK(strncmp(detect(write_str("mge.json",
		"{\"graph_exec\": {\"operator\": {\"4\": {\"name\": \"conv\", \"type\": "
		"\"ConvolutionForward\"}}}, \"profiler\": {\"device\": {}, \"host\": {}}}\n")),
		      "trtexec", 7));
	CHECK_STR(detect(write_str("output.json",
		"[\n  { \"name\" : \"probs\"\n  , \"dimensions\" : \"1x10\"\n  , \"values\" : "
		"[ 0.1, 0.9 ]\n  }\n]\n")), "");
	CHECK_STR(detect(write_str("array.json", "[{\"count\": 3, \"fruit\": \"apple\"}]\n")), "");
	CHECK_STR(detect(write_str("layers.txt", "Layers of the cake: sponge, cream\n")), "");
}

static void t_graph_detailed(void)
{
	struct profile p;
	const struct node *l, *k;

	CHECK_EQ(load1(&p, FIX "graph-detailed.json"), 0);
	CHECK_EQ(nr_layers(&p), 6);
	l = layer(&p, "conv1 + bn1 + relu1");
	CHECK_STR(str_attr(l, "layer_type"), "CaskConvolution");
	CHECK_STR(str_attr(l, "precision"), "FP16");
	CHECK_STR(str_attr(l, "input_shapes"), "1x3x32x32");
	CHECK_STR(str_attr(l, "output_shapes"), "1x16x32x32");
	k = child(l, NODE_KERNEL, 0);
	CHECK(k && !strncmp(node_name(k), "sm86_xmma_fprop_implicit_gemm_f16f16", 36));
	CHECK_STR(str_attr(l, "tactic"), k ? node_name(k) : "");
	/* Metadata with "\u001e" escapes. */
	CHECK_EQ(nr_children(l, NODE_SOURCE), 3);
	CHECK_STR(node_name(child(l, NODE_SOURCE, 1)), "/bn1/BatchNormalization");
	/* A raw U+001E byte inside the string, and a name with escaped quotes. */
	l = layer(&p, "fc + bias \"add\"");
	CHECK_EQ(nr_children(l, NODE_SOURCE), 2);
	CHECK_STR(node_name(child(l, NODE_SOURCE, 0)), "/fc/Gemm");
	CHECK_STR(node_name(child(l, NODE_SOURCE, 1)), "/fc/Add");
	/* "\u001f"; no TacticName: the kernel is the type and the value. */
	l = layer(&p, "{ForeignNode[/head/MatMul.../head/Softmax]}");
	CHECK_STR(node_name(child(l, NODE_SOURCE, 1)), "/head/Softmax");
	CHECK_STR(node_name(child(l, NODE_KERNEL, 0)), "Myelin 0x0000000000000000");
	CHECK_STR(str_attr(l, "tactic"), "0x0000000000000000");
	l = layer_at(&p, 5);
	CHECK_STR(str_attr(l, "origin"), "REFORMAT");
	CHECK_STR(str_attr(l, "precision"), "FP32");
	CHECK_EQ(nr_children(l, NODE_SOURCE), 0);
	CHECK_STR(profile_meta_get(&p, "engine", "bindings"), "input, probs");
	CHECK_STR(profile_meta_get(&p, "engine", "layers"), "6");
	profile_release(&p);
}

static void t_graph_trt10(void)
{
	static const char *const prec[] = { "INT8", "FP16", "FP32", "BOOL", "BF16" };
	struct profile p;

	CHECK_EQ(load1(&p, FIX "graph-trt10.json"), 0);
	CHECK_EQ(nr_layers(&p), 5);
	for (size_t i = 0; i < 5; i++)
		CHECK_STR(str_attr(layer_at(&p, i), "precision"), prec[i]);
	CHECK_STR(str_attr(layer_at(&p, 4), "output_shapes"), "scalar");
	CHECK(!profile_meta_get(&p, "engine", "bindings"));
	CHECK_STR(node_name(child(layer_at(&p, 1), NODE_KERNEL, 0)), "gemm 0x0000000000000007");
	profile_release(&p);
}

static void t_graph_simple(void)
{
	struct profile p;
	const struct node *l;

	CHECK_EQ(load1(&p, FIX "graph-simple.json"), 0);
	CHECK_EQ(nr_layers(&p), 6);
	/* " + " inside brackets does not split a Myelin block; reformat
	 * layers fused nothing; a one-part name gives no source. */
	CHECK_EQ(nr_children(layer(&p, "{ForeignNode[/head/MatMul.../head/Softmax]}"), NODE_SOURCE),
		 0);
	CHECK_EQ(nr_children(layer_at(&p, 0), NODE_SOURCE), 0);
	CHECK_EQ(nr_children(layer(&p, "pool1"), NODE_SOURCE), 0);
	l = layer(&p, "fc + bias \"add\"");
	CHECK_EQ(nr_children(l, NODE_SOURCE), 2);
	CHECK_STR(node_name(child(l, NODE_SOURCE, 1)), "bias \"add\"");
	profile_release(&p);
}

static void t_profile_fixture(void)
{
	struct profile p;
	const struct node *l;

	CHECK_EQ(load1(&p, FIX "profile.json"), 0);
	CHECK_EQ(nr_layers(&p), 6);
	/* trtexec writes the quotes of a name unescaped: read as written. */
	CHECK_EQ(warnings(&p, "layer names with unescaped quotes (read as written)"), 1);
	l = layer(&p, "fc + bias \"add\"");
	CHECK(l != NULL);
	CHECK_EQ(node_calls(&p, l), 100);
	CHECK_EQ(node_device_total(&p, l), 1638400);
	CHECK_EQ(ns_attr(l, "mean_ns"), 16384);
	CHECK_EQ(ns_attr(l, "median_ns"), 16256);
	CHECK(dbl_attr(l, "time_pct") == 15.9981);
	/* C++ exponent form: 1.2e-05 ms is 12 ns. */
	l = layer_at(&p, 5);
	CHECK_EQ(ns_attr(l, "mean_ns"), 12);
	CHECK_EQ(ns_attr(l, "median_ns"), 11);
	CHECK_EQ(node_device_total(&p, l), 1200);
	CHECK_STR(profile_meta_get(&p, "layer profile", "iterations"), "100");
	profile_release(&p);

	CHECK_EQ(load1(&p, FIX "profile-nomedian.json"), 0);
	l = layer_at(&p, 1);
	CHECK_EQ(node_calls(&p, l), 250);
	CHECK_EQ(node_device_total(&p, l), 8190000);
	CHECK_EQ(ns_attr(l, "mean_ns"), 32760);
	CHECK_EQ(ns_attr(l, "median_ns"), -1);
	l = layer_at(&p, 5);
	CHECK_EQ(node_calls(&p, l), 250);
	CHECK_EQ(node_device_total(&p, l), 0);
	profile_release(&p);
}

static void t_times_fixture(void)
{
	struct profile p;

	CHECK_EQ(load1(&p, FIX "times.json"), 0);
	CHECK_EQ(p.nr_steps, 4);
	CHECK_EQ(nr_layers(&p), 0);
	CHECK_STR(p.steps[1].name, "1");
	CHECK_EQ(p.steps[1].total_ns, 113100);
	CHECK_EQ(p.steps[1].cat_ns[0], 13000);	/* 200.286 - 200.273 */
	CHECK_EQ(p.steps[1].cat_ns[1], 6100);
	CHECK_EQ(p.steps[1].cat_ns[2], 102700);
	CHECK_EQ(p.steps[1].cat_ns[3], 4300);
	CHECK_EQ(p.steps[1].start_ns, 0);	/* pre-aggregated: no filtering */
	CHECK_EQ(attr_find(attr_list_first(&p, &p.steps[1].attrs), "start_ns")->v.i, 200275000);
	CHECK_STR(profile_meta_get(&p, "inference times", "inferences"), "4");
	profile_release(&p);
}

/* graph + profile + times of the fixture engine, in two orders. */
static void t_fixture_merge(void)
{
	const char *paths[3] = { FIX "graph-detailed.json", FIX "profile.json", FIX "times.json" };
	const char *rev[2] = { FIX "profile.json", FIX "graph-detailed.json" };
	struct profile p, q;
	const struct node *l, *m;
	struct agg kernels;

	CHECK_EQ(load_n(&p, paths, 3, NULL), 0);
	CHECK_EQ(warnings(&p, KIND_ONE_FILE), 0);
	CHECK_EQ(nr_layers(&p), 6);
	CHECK_EQ(p.nr_steps, 4);
	l = layer(&p, "conv1 + bn1 + relu1");
	CHECK_EQ(node_calls(&p, l), 100);
	CHECK_EQ(node_device_total(&p, l), 3276800);
	CHECK_STR(str_attr(l, "layer_type"), "CaskConvolution");
	CHECK_EQ(ns_attr(l, "median_ns"), 32640);
	/* The Kernels pane lists tactics with their layers' time. */
	agg_kernels(&p, NULL, &kernels);
	CHECK_EQ(kernels.nr, 6);
	CHECK_EQ(row(&kernels, "Myelin 0x0000000000000000")->device_total_ns, 4096000);
	CHECK_EQ(row(&kernels, "Myelin 0x0000000000000000")->calls, 100);
	agg_release(&kernels);

	CHECK_EQ(load_n(&q, rev, 2, NULL), 0);
	CHECK_EQ(warnings(&q, KIND_ONE_FILE), 0);
	for (size_t i = 0; i < 6; i++) {
		l = layer_at(&p, i);
		m = layer_at(&q, i);
		CHECK(l && m && !strcmp(node_name(l), node_name(m)) &&
		      node_device_total(&p, l) == node_device_total(&q, m));
		/* Metadata's sources replace those split from the name. */
		CHECK_EQ(nr_children(l, NODE_SOURCE), nr_children(m, NODE_SOURCE));
	}
	CHECK_STR(node_name(child(layer(&q, "conv1 + bn1 + relu1"), NODE_SOURCE, 0)), "/conv1/Conv");
	profile_release(&p);
	profile_release(&q);
}

static void t_log_trt86(void)
{
	struct profile p;
	const struct node *l;

	CHECK_EQ(load1(&p, FIX "log-trt86.txt"), 0);
	CHECK_EQ(profile_nr_runs(&p), 1);
	/* >= 8.6 leaves zero-time layers out of the table. */
	CHECK_EQ(nr_layers(&p), 5);
	l = layer(&p, "conv1 + bn1 + relu1");
	CHECK_EQ(node_calls(&p, l), 2860);
	CHECK_EQ(node_device_total(&p, l), 93520000);
	CHECK_EQ(ns_attr(l, "mean_ns"), 32700);
	CHECK_EQ(ns_attr(l, "median_ns"), 32600);
	CHECK(dbl_attr(l, "time_pct") == 31.9);
	CHECK_EQ(nr_children(l, NODE_SOURCE), 3);
	CHECK_EQ(node_device_total(&p, layer(&p, "fc + bias \"add\"")), 46900000);
	CHECK_STR(profile_meta_get(&p, "tensorrt", "version"), "8.6.1");
	CHECK_STR(profile_meta_get(&p, "tensorrt", "result"), "PASSED");
	CHECK(strstr(profile_meta_get(&p, "tensorrt", "command"), "--dumpProfile") != NULL);
	CHECK_STR(profile_meta_get(&p, "device", "Selected Device"), "NVIDIA GeForce RTX 3060");
	CHECK_STR(profile_meta_get(&p, "device", "Memory Bus Width"), "192 bits (ECC disabled)");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Throughput"), "9568.98 qps");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Latency percentile(99%)"),
		  "0.13623 ms");
	CHECK_STR(profile_meta_get(&p, "performance summary", "GPU Compute Time mean"),
		  "0.10406 ms");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Total Host Walltime"), "3.00031 s");
	CHECK_STR(profile_meta_get(&p, "inference options", "Duration"), "3s (+ 200ms warm up)");
	CHECK_STR(profile_meta_get(&p, "reporting options", "Percentiles"), "90,95,99");
	/* No space after the colon, and the lines after it still read. */
	CHECK_STR(profile_meta_get(&p, "reporting options", "Dump refittable layers"), "Disabled");
	CHECK_STR(profile_meta_get(&p, "reporting options", "Profile"), "Enabled");
	CHECK_STR(profile_meta_get(&p, "model options", "Format"), "*");
	CHECK(!profile_meta_get(&p, "model options", "Output"));
	CHECK_STR(profile_meta_get(&p, "layer profile", "iterations"), "2860");
	CHECK(p.warnings == NULL);
	profile_release(&p);
}

static void t_log_trt85_trt84(void)
{
	struct profile p;
	const struct node *l;

	/* 8.5: name first (right-aligned), with Median. */
	CHECK_EQ(load1(&p, FIX "log-trt85.txt"), 0);
	CHECK_EQ(nr_layers(&p), 6);
	l = layer_at(&p, 5);
	CHECK_STR(node_name(l), "Reformatting CopyNode for Output Tensor 0 to "
		  "{ForeignNode[/head/MatMul.../head/Softmax]}");
	CHECK_EQ(node_calls(&p, l), 2791);
	CHECK_EQ(node_device_total(&p, l), 3350000);
	CHECK_EQ(ns_attr(l, "mean_ns"), 1200);
	CHECK_EQ(ns_attr(l, "median_ns"), 1200);
	CHECK(dbl_attr(l, "time_pct") == 1.1);
	CHECK_STR(profile_meta_get(&p, "tensorrt", "version"), "8.5.2");
	CHECK(p.warnings == NULL);
	profile_release(&p);

	/* <= 8.4 on a Jetson: "[I] " without the date, no Median. */
	CHECK_EQ(load1(&p, FIX "log-trt84-jetson.txt"), 0);
	CHECK_EQ(nr_layers(&p), 6);
	l = layer(&p, "{ForeignNode[/head/MatMul.../head/Softmax]}");
	CHECK_EQ(node_calls(&p, l), 6739);
	CHECK_EQ(node_device_total(&p, l), 1107220000);
	CHECK_EQ(ns_attr(l, "mean_ns"), 164300);
	CHECK_EQ(ns_attr(l, "median_ns"), -1);
	CHECK_STR(profile_meta_get(&p, "device", "Selected Device"), "Orin");
	CHECK_STR(profile_meta_get(&p, "tensorrt", "version"), "8.4.1");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Latency percentile(99%)"),
		  "0.5312 ms");
	CHECK(p.warnings == NULL);
	profile_release(&p);
}

/* TensorRT 7 to 8.2: the summary in groups, no "===" title; TensorRT 10's
 * version number. */
static void t_log_old_summary(void)
{
	struct profile p;
	const char *path = write_str("trt7.log",
		"&&&& RUNNING TensorRT.trtexec [TensorRT v7103] # trtexec --loadEngine=a.engine\n"
		"[05/21/2021-09:59:29] [I] Average on 10 runs - GPU latency: 6.4 ms - Host latency: "
		"6.5 ms (end to end 6.6 ms, enqueue 4.6 ms)\n"
		"[05/21/2021-09:59:29] [I] Host Latency\n"
		"[05/21/2021-09:59:29] [I] min: 6.38401 ms (end to end 6.38401 ms)\n"
		"[05/21/2021-09:59:29] [I] percentile: 6.46992 ms at 99% (end to end 6.46992 ms at 99%)\n"
		"[05/21/2021-09:59:29] [I] throughput: 155.2 qps\n"
		"[05/21/2021-09:59:29] [I] walltime: 3.00461 s\n"
		"[05/21/2021-09:59:29] [I] Enqueue Time\n"
		"[05/21/2021-09:59:29] [I] min: 1.9541 ms\n"
		"[05/21/2021-09:59:29] [I] GPU Compute\n"
		"[05/21/2021-09:59:29] [I] median: 6.41 ms\n"
		"[05/21/2021-09:59:29] [I] total compute time: 2.98 s\n"
		"&&&& PASSED TensorRT.trtexec # trtexec --loadEngine=a.engine\n");

	CHECK_EQ(load1(&p, path), 0);
	CHECK_STR(profile_meta_get(&p, "tensorrt", "version"), "7.1.3");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Host Latency min"),
		  "6.38401 ms (end to end 6.38401 ms)");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Host Latency percentile"),
		  "6.46992 ms at 99% (end to end 6.46992 ms at 99%)");
	CHECK_STR(profile_meta_get(&p, "performance summary", "throughput"), "155.2 qps");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Enqueue Time min"), "1.9541 ms");
	CHECK_STR(profile_meta_get(&p, "performance summary", "GPU Compute median"), "6.41 ms");
	CHECK_STR(profile_meta_get(&p, "performance summary", "total compute time"), "2.98 s");
	CHECK_STR(profile_meta_get(&p, "tensorrt", "result"), "PASSED");
	profile_release(&p);

	path = write_str("trt10.log", "&&&& PASSED TensorRT.trtexec [TensorRT v101300] # trtexec\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_STR(profile_meta_get(&p, "tensorrt", "version"), "10.13.0");
	profile_release(&p);
}

static void t_log_two_runs(void)
{
	struct profile p;
	const struct profile *r2;

	CHECK_EQ(load1(&p, FIX "log-two-runs.txt"), 0);
	CHECK_EQ(profile_nr_runs(&p), 2);
	r2 = profile_run(&p, 1);
	CHECK_EQ(nr_layers(&p), 6);
	CHECK_EQ(nr_layers(r2), 6);
	CHECK_EQ(node_calls(&p, layer_at(&p, 1)), 2860);
	CHECK_EQ(node_calls(r2, layer_at(r2, 1)), 4012);
	CHECK_EQ(node_device_total(r2, layer_at(r2, 1)), 75020000);
	CHECK_STR(r2->run_where, FIX "log-two-runs.txt:15");
	profile_release(&p);
}

/* A log's table joins the graph: the layer the table left out (zero time
 * in >= 8.6) is kept, in engine order, and counted. */
static void t_log_joins_graph(void)
{
	const char *paths[3] = { FIX "log-trt86.txt", FIX "graph-detailed.json",
				 FIX "tiny.profile.metadata.json" };
	struct profile p;

	CHECK_EQ(load_n(&p, paths, 3, NULL), 0);
	CHECK_EQ(nr_layers(&p), 6);
	CHECK_EQ(warnings(&p, KIND_ONE_FILE), 1);
	CHECK(strstr(msgs, "graph-detailed.json:") && strstr(msgs, "'Reformatting CopyNode for "
		      "Output Tensor 0 to {ForeignNode[/head/MatMul.../head/Softmax]}' is not in"));
	CHECK_STR(node_name(layer_at(&p, 5)), "Reformatting CopyNode for Output Tensor 0 to "
		  "{ForeignNode[/head/MatMul.../head/Softmax]}");
	CHECK_STR(str_attr(layer_at(&p, 1), "layer_type"), "CaskConvolution");
	CHECK_EQ(node_device_total(&p, layer_at(&p, 1)), 93520000);
	/* The log's summary stands; trex's adds what the log lacked. */
	CHECK_STR(profile_meta_get(&p, "performance summary", "Latency min"), "0.1173 ms");
	CHECK_STR(profile_meta_get(&p, "performance summary", "Latency percentiles"),
		  "0.121826, 0.122803, 0.13623 ms");
	CHECK_STR(profile_meta_get(&p, "device", "Compute Clock Rate"), "1.777 GHz");
	profile_release(&p);
}

/* ---------------------------------------------------------------------
 * Joining: by name with repeats, insertion order, by position
 */

static void t_join_rules(void)
{
	const char *paths[2];
	struct profile p;

	/* Repeated names join occurrence by occurrence. */
	paths[0] = write_str("dup-graph.json", "{\"Layers\": [\"a\", \"a\", \"b\"]}\n");
	paths[1] = write_str("dup-profile.json",
			     "[\n  { \"count\" : 2 }\n"
			     ", { \"name\" : \"a\", \"timeMs\" : 1, \"averageMs\" : 0.5, \"percentage\" : 10 }\n"
			     ", { \"name\" : \"a\", \"timeMs\" : 2, \"averageMs\" : 1, \"percentage\" : 20 }\n"
			     ", { \"name\" : \"b\", \"timeMs\" : 7, \"averageMs\" : 3.5, \"percentage\" : 70 }\n]\n");
	CHECK_EQ(load_n(&p, paths, 2, NULL), 0);
	CHECK_EQ(nr_layers(&p), 3);
	CHECK_EQ(node_device_total(&p, layer_at(&p, 0)), 1000000);
	CHECK_EQ(node_device_total(&p, layer_at(&p, 1)), 2000000);
	CHECK_EQ(node_device_total(&p, layer_at(&p, 2)), 7000000);
	CHECK(p.warnings == NULL);
	profile_release(&p);

	/* One layer only in the profile, two only in the graph: kept in
	 * engine order, three warnings of one kind. */
	paths[0] = write_str("gap-graph.json", "{\"Layers\": [\"a\", \"b\", \"c\", \"d\"]}\n");
	paths[1] = write_str("gap-profile.json",
			     "[\n  { \"count\" : 1 }\n"
			     ", { \"name\" : \"a\", \"timeMs\" : 1, \"averageMs\" : 1, \"percentage\" : 25 }\n"
			     ", { \"name\" : \"x\", \"timeMs\" : 2, \"averageMs\" : 2, \"percentage\" : 50 }\n"
			     ", { \"name\" : \"c\", \"timeMs\" : 1, \"averageMs\" : 1, \"percentage\" : 25 }\n]\n");
	CHECK_EQ(load_n(&p, paths, 2, NULL), 0);
	CHECK_EQ(nr_layers(&p), 5);
	CHECK_STR(node_name(layer_at(&p, 0)), "a");
	CHECK_STR(node_name(layer_at(&p, 1)), "x");
	CHECK_STR(node_name(layer_at(&p, 2)), "b");
	CHECK_STR(node_name(layer_at(&p, 3)), "c");
	CHECK_STR(node_name(layer_at(&p, 4)), "d");
	CHECK_EQ(node_device_total(&p, layer_at(&p, 1)), 2000000);
	CHECK_EQ(node_calls(&p, layer_at(&p, 2)), 0);
	CHECK_EQ(warnings(&p, KIND_ONE_FILE), 3);
	CHECK(strstr(msgs, "gap-profile.json:4:3: warning: layer 'x' is not in the files loaded "
			   "before this one") != NULL);
	profile_release(&p);

	/* As many layers, other names (older TensorRT): joined by position,
	 * the graph's names kept. */
	paths[0] = write_str("pos-graph.json", "{\"Layers\": [\"conv + relu\", \"pool\"]}\n");
	paths[1] = write_str("pos-profile.json",
			     "[\n  { \"count\" : 4 }\n"
			     ", { \"name\" : \"conv_relu\", \"timeMs\" : 3, \"averageMs\" : 0.75, \"percentage\" : 75 }\n"
			     ", { \"name\" : \"pool\", \"timeMs\" : 1, \"averageMs\" : 0.25, \"percentage\" : 25 }\n]\n");
	CHECK_EQ(load_n(&p, paths, 2, NULL), 0);
	CHECK_EQ(nr_layers(&p), 2);
	CHECK_STR(node_name(layer_at(&p, 0)), "conv + relu");
	CHECK_EQ(node_device_total(&p, layer_at(&p, 0)), 3000000);
	CHECK_EQ(node_calls(&p, layer_at(&p, 0)), 4);
	CHECK_EQ(warnings(&p, KIND_BY_ORDER), 1);
	CHECK_EQ(warnings(&p, KIND_ONE_FILE), 0);
	CHECK(strstr(msgs, "1 of 2 layer names differ") != NULL);
	profile_release(&p);
}

/* The names of the second file are looked up among the first file's, and
 * must not fill the table that holds those: 2 layers, then 40 others and
 * one of the two (the join looped for ever once the 16-slot table was
 * full). */
static void t_join_many_new_names(void)
{
	struct strbuf b = STRBUF_INIT;
	const char *paths[2];
	struct profile p;

	paths[0] = write_str("few-graph.json", "{\"Layers\": [\"a\", \"b\"]}\n");
	strbuf_addstr(&b, "[\n  { \"count\" : 1 }\n");
	for (int i = 0; i < 40; i++) {
		char rec[96];

		snprintf(rec, sizeof(rec), ", { \"name\" : \"other_%d\", \"timeMs\" : 1 }\n", i);
		strbuf_addstr(&b, rec);
	}
	strbuf_addstr(&b, ", { \"name\" : \"a\", \"timeMs\" : 1 }\n]\n");
	paths[1] = write_str("many-profile.json", b.s);
	strbuf_release(&b);
	CHECK_EQ(load_n(&p, paths, 2, NULL), 0);
	CHECK_EQ(nr_layers(&p), 42);
	CHECK_STR(node_name(layer_at(&p, 0)), "other_0");
	CHECK_STR(node_name(layer_at(&p, 41)), "b");
	CHECK_EQ(warnings(&p, KIND_ONE_FILE), 41);
	profile_release(&p);
}

/* A file none of whose layers is among those loaded before, and that
 * cannot join by position, is another engine's: an error that names the
 * files, and nothing of it joined -- unless --merge asks for the sum. */
static void t_join_other_engine(void)
{
	const char *paths[2];

	paths[0] = write_str("one-graph.json", "{\"Layers\": [\"a\", \"b\"]}\n");
	paths[1] = write_str("other-profile.json",
			     "[\n  { \"count\" : 1 }\n, { \"name\" : \"x\", \"timeMs\" : 1 }\n"
			     ", { \"name\" : \"y\", \"timeMs\" : 1 }\n, { \"name\" : \"z\", "
			     "\"timeMs\" : 1 }\n]\n");
	for (int merge = 0; merge < 2; merge++) {
		struct load_options opt = { .merge = merge };
		struct profile p;
		FILE *err = tmpfile();
		char both[2200];
		size_t got;

		/* The path a group's profile has: its files, joined. */
		snprintf(both, sizeof(both), "%s + %s", paths[0], paths[1]);
		opt.err = err;
		profile_init(&p, both);
		CHECK_EQ(profile_load(&p, paths, 2, &opt), merge ? 0 : 1);
		rewind(err);
		got = fread(msgs, 1, sizeof(msgs) - 1, err);
		msgs[got] = '\0';
		fclose(err);
		CHECK_EQ(nr_layers(&p), merge ? 5 : 2);
		CHECK((strstr(msgs, "other-profile.json: error: none of its 3 layers is one of "
				    "the 2 of '") != NULL) == !merge);
		CHECK((strstr(msgs, "one-graph.json': a file of another engine") != NULL) == !merge);
		profile_release(&p);
	}
}

/* ---------------------------------------------------------------------
 * The tolerant --exportProfile reader
 */

static void t_profile_tolerant(void)
{
	struct profile p;
	const char *path;

	/* Quotes followed by what looks like the next member, a backslash,
	 * a "}" in a name; multi-line records; a trailing comma. */
	path = write_str("tolerant.json",
			 "[\n  { \"count\" : 10 }\n"
			 ", { \"name\" : \"a\", \"b\" + c\\d}\", \"timeMs\" : 1.5e+01, \"averageMs\" : 1.5, "
			 "\"medianMs\" : 1.4, \"percentage\" : 60 }\n"
			 ", {\n    \"name\": \"e\",\n    \"timeMs\": 10,\n    \"averageMs\": 1,\n"
			 "    \"percentage\": 40\n  },\n]\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(nr_layers(&p), 2);
	CHECK_STR(node_name(layer_at(&p, 0)), "a\", \"b\" + c\\d}");
	CHECK_EQ(node_device_total(&p, layer_at(&p, 0)), 15000000);
	CHECK_EQ(node_calls(&p, layer_at(&p, 1)), 10);
	CHECK_EQ(node_device_total(&p, layer_at(&p, 1)), 10000000);
	profile_release(&p);

	/* nan and inf where numbers go: the layer stays, the value does not. */
	path = write_str("nan.json", "[\n  { \"count\" : 0 }\n"
				     ", { \"name\" : \"x\", \"timeMs\" : 0, \"averageMs\" : -nan, "
				     "\"percentage\" : nan }\n]\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK_EQ(ns_attr(layer_at(&p, 0), "mean_ns"), -1);
	CHECK(dbl_attr(layer_at(&p, 0), "time_pct") == -1);
	CHECK_EQ(warnings(&p, "profile values that are not numbers (left out)"), 2);
	CHECK(names_line(path));
	profile_release(&p);

	/* No count record. */
	path = write_str("nocount.json", "[\n{ \"name\" : \"x\", \"timeMs\" : 2 }\n]\n");
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-profile"), 0);
	CHECK_EQ(warnings(&p, "no iteration count in the profile"), 1);
	CHECK_EQ(node_calls(&p, layer_at(&p, 0)), 0);
	CHECK_EQ(node_device_total(&p, layer_at(&p, 0)), 2000000);
	profile_release(&p);
}

/* ---------------------------------------------------------------------
 * Bad input: an error naming FILE:LINE, or a counted warning; never a
 * crash, and what was read before a cut is kept.
 */

static void t_bad_graph(void)
{
	struct profile p;
	const char *path;
	char big[4096];

	/* Cut inside the third layer: the two complete ones stay. */
	path = write_str("cut-graph.json", "{\"Layers\": [{\n  \"Name\": \"a\",\n  \"LayerType\": \"x\"\n"
					   "},{\n  \"Name\": \"b\"\n},{\n  \"Name\": \"c\",\n  \"Inpu");
	CHECK_EQ(load1(&p, path), 1);
	CHECK(names_line(path) && strstr(msgs, "error: unexpected end of file inside the layer list"));
	CHECK_EQ(nr_layers(&p), 2);
	profile_release(&p);

	/* Binary garbage after a valid start. */
	memset(big, 0, sizeof(big));
	strcpy(big, "{\"Layers\": [\"a\",\n\"b\",\n");
	for (size_t i = strlen(big); i < sizeof(big); i++)
		big[i] = (char)(0x80 + i % 97);
	path = write_file("garbage-graph.json", big, sizeof(big));
	CHECK_EQ(load1(&p, path), 1);
	CHECK(names_line(path) && strstr(msgs, ": error: "));
	CHECK_EQ(nr_layers(&p), 2);
	profile_release(&p);

	/* Not a layer list at all. */
	path = write_str("nolayers.json", "{\"Bindings\": [\"x\"]}\n");
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-graph"), -1);
	CHECK(names_line(path) && strstr(msgs, "no 'Layers' array"));
	profile_release(&p);
	path = write_str("array-graph.json", "[1, 2]\n");
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-graph"), -1);
	CHECK(strstr(msgs, "expected a JSON object with a 'Layers' array") != NULL);
	profile_release(&p);

	/* A layer without a name, one that is a number: skipped, counted. */
	path = write_str("odd-graph.json", "{\"Layers\": [{\"LayerType\": \"x\"}, 7, \"ok\"]}\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK_EQ(warnings(&p, "layers without a name (skipped)"), 1);
	CHECK_EQ(warnings(&p, "layers that are neither a name nor an object (skipped)"), 1);
	profile_release(&p);
}

static void t_bad_profile(void)
{
	struct profile p;
	const char *path;

	/* Cut mid-record: the complete rows stay. */
	path = write_str("cut-profile.json",
			 "[\n  { \"count\" : 3 }\n"
			 ", { \"name\" : \"a\", \"timeMs\" : 1, \"averageMs\" : 0.3, \"percentage\" : 50 }\n"
			 ", { \"name\" : \"b\", \"timeMs\" : 1, \"aver");
	CHECK_EQ(load1(&p, path), 1);
	CHECK(names_line(path));
	CHECK(strstr(msgs, "cut-profile.json:4:38: error: unexpected end of file inside the "
			   "profile (truncated?); kept the 1 layers") != NULL);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK_EQ(node_calls(&p, layer_at(&p, 0)), 3);
	profile_release(&p);

	/* A name that never ends. */
	path = write_str("open-name.json", "[\n  { \"count\" : 3 }\n, { \"name\" : \"a, \"timeMs\n");
	CHECK_EQ(load1(&p, path), -1);
	CHECK(strstr(msgs, "open-name.json:3:14: error: string never ends") != NULL);
	profile_release(&p);

	/* The count record and nothing else, cut. */
	path = write_str("header-only.json", "[\n  { \"count\" : 3 }\n");
	CHECK_EQ(load1(&p, path), -1);
	CHECK(strstr(msgs, "header-only.json:2:18: error: unexpected end of file inside the "
			   "profile (truncated?); kept the 0 layers") != NULL);
	profile_release(&p);

	/* Garbage after a valid start. */
	{
		static const char garbage[] =
			"[\n  { \"count\" : 3 }\n, { \"name\" : \"a\", \"timeMs\" : 1 }\n\x01\x02\xff{{";

		path = write_file("garbage-profile.json", garbage, sizeof(garbage) - 1);
	}
	CHECK_EQ(load1(&p, path), 1);
	CHECK(strstr(msgs, "garbage-profile.json:4:1: error: expected ',' or ']' after a profile "
			   "record, found byte 0x01") != NULL);
	CHECK_EQ(nr_layers(&p), 1);
	profile_release(&p);

	/* A record that is neither a layer nor the count; text after it. */
	path = write_str("odd-profile.json", "[ { \"count\" : 1 }, { \"what\" : 3 }, {} ] trailing\n");
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-profile"), 0);
	CHECK_EQ(warnings(&p, "profile records with no layer name or count (skipped)"), 2);
	CHECK_EQ(warnings(&p, "text after the end of the JSON document (ignored)"), 1);
	profile_release(&p);

	path = write_str("not-profile.json", "{\"count\": 1}\n");
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-profile"), -1);
	CHECK(strstr(msgs, "not-profile.json:1:1: error: expected '[' opening") != NULL);
	profile_release(&p);
}

static void t_bad_times(void)
{
	struct profile p;
	const char *path;

	path = write_str("cut-times.json",
			 "[\n  { \"startEnqMs\" : 1, \"endEnqMs\" : 2, \"h2dMs\" : 0, \"computeMs\" : 1, "
			 "\"d2hMs\" : 0, \"latencyMs\" : 1 }\n, { \"startEnqMs\" : 3, \"endEnq");
	CHECK_EQ(load1(&p, path), 1);
	CHECK(names_line(path) && strstr(msgs, "inside the inference list"));
	CHECK_EQ(p.nr_steps, 1);
	CHECK_EQ(p.steps[0].cat_ns[0], 1000000);
	profile_release(&p);

	/* nan, an end before its start, a string: blanks, counted. */
	path = write_str("odd-times.json",
			 "[\n  { \"startEnqMs\" : 5, \"endEnqMs\" : 4, \"h2dMs\" : nan, \"computeMs\" : 1, "
			 "\"d2hMs\" : \"x\", \"latencyMs\" : 1 }\n]\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(p.nr_steps, 1);
	CHECK_EQ(p.steps[0].cat_ns[0], -1);
	CHECK_EQ(p.steps[0].cat_ns[1], -1);
	CHECK_EQ(p.steps[0].cat_ns[2], 1000000);
	CHECK_EQ(p.steps[0].total_ns, 1000000);
	CHECK_EQ(warnings(&p, "inference records with missing or bad times"), 1);
	CHECK(strstr(msgs, "odd-times.json:2:3: warning: inference 0") != NULL);
	profile_release(&p);

	path = write_str("obj-times.json", "{\"startEnqMs\": 1}\n");
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-times"), -1);
	CHECK(strstr(msgs, "obj-times.json:1:1: error: expected a JSON array") != NULL);
	profile_release(&p);
}

static void t_bad_log(void)
{
	struct profile p;
	const char *path;
	char *huge;
	size_t n, k;

	/* A table cut mid-row: an error at the last line, complete rows kept. */
	path = write_str("cut.log",
			 "[01/02/2024-10:00:00] [I] === Profile (10 iterations ) ===\n"
			 "[01/02/2024-10:00:00] [I]    Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer\n"
			 "[01/02/2024-10:00:00] [I]        1.00       0.1000       0.1000      50.0   a\n"
			 "[01/02/2024-10:00:00] [I]        1.00       0.10");
	CHECK_EQ(load1(&p, path), 1);
	CHECK(strstr(msgs, "cut.log:4:1: error: profile table ends without its 'Total' row") != NULL);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK_EQ(node_device_total(&p, layer_at(&p, 0)), 1000000);
	profile_release(&p);

	/* A header with no rows, then a blank line: warned, nothing kept. */
	path = write_str("norows.log", "=== Profile (10 iterations ) ===\n"
				       "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer\n\n"
				       "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(warnings(&p, "profile tables without a 'Total' row"), 1);
	CHECK_EQ(nr_layers(&p), 0);
	profile_release(&p);

	/* Misaligned columns, a Total that does not add up. */
	path = write_str("misaligned.log",
			 "=== Profile (10 iterations ) ===\n"
			 "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer\n"
			 "       1.00       0.1000      50.0   a\n"
			 "       2.00       0.2000       0.2000      50.0   b\n"
			 "       x.00       0.2000       0.2000      50.0   c\n"
			 "       9.00       0.9000       0.3000     100.0   Total\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK_EQ(warnings(&p, "unreadable rows in a profile table (skipped)"), 2);
	CHECK_EQ(warnings(&p, "profile table total differs from the sum of its rows"), 1);
	CHECK(strstr(msgs, "misaligned.log:3:8: warning: too few columns") != NULL);
	CHECK(strstr(msgs, "misaligned.log:5:8: warning: 'x.00'") != NULL);
	profile_release(&p);

	/* A header that is not one. */
	path = write_str("noheader.log", "=== Profile (10 iterations ) ===\nsomething else\n"
					 "=== Performance summary ===\nThroughput: 5 qps\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(warnings(&p, "profile tables without a header (skipped)"), 1);
	CHECK_STR(profile_meta_get(&p, "performance summary", "Throughput"), "5 qps");
	profile_release(&p);

	/* A huge line inside the table, then binary garbage. */
	n = 5u << 20;
	huge = malloc(n + 400);
	strcpy(huge, "=== Profile (10 iterations ) ===\n"
		     "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer\n"
		     "       1.00       0.1000       0.1000      50.0   ");
	k = strlen(huge);
	memset(huge + k, 'x', n);
	memcpy(huge + k + n, "\n\x01\x02\x03\xfe\xff\n", 8);
	path = write_file("huge.log", huge, k + n + 8);
	CHECK(load1(&p, path) >= 0);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK(names_line(path));
	free(huge);
	profile_release(&p);

	/* Forced on something that is no log. */
	path = write_str("empty.log", "hello\n");
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-log"), -1);
	CHECK(strstr(msgs, "no trtexec profile table, summary or options found") != NULL);
	profile_release(&p);
}

static void t_bad_trex(void)
{
	struct profile p;
	const char *path;

	path = write_str("cut.metadata.json", "{\"model_options\": {\"Format\": \"ONNX\"}, "
					      "\"build_options\": {\"Precision\": ");
	CHECK_EQ(load1(&p, path), 1);
	CHECK(names_line(path));
	CHECK_STR(profile_meta_get(&p, "model options", "Format"), "ONNX");
	profile_release(&p);
	path = write_str("arr.metadata.json", "[1]\n");
	CHECK_EQ(load_n(&p, &path, 1, "trex-metadata"), -1);
	profile_release(&p);
	/* A failed load always says why. */
	path = write_str("blank.metadata.json", "  \n\n");
	CHECK_EQ(load_n(&p, &path, 1, "trex-metadata"), -1);
	CHECK(strstr(msgs, "error: no JSON value in the file"));
	profile_release(&p);
}

/* A NUL byte would cut a name short in every message and pane that shows
 * it ("a\0b" shown as "a"): the profile's strings refuse it as JSON does,
 * the log skips a line of binary data. */
static void t_nul_in_names(void)
{
	static const char profile[] =
		"[\n  { \"count\" : 1 }\n, { \"name\" : \"ok\", \"timeMs\" : 1 }\n"
		", { \"name\" : \"a\0b\", \"timeMs\" : 1 }\n]\n";
	static const char log[] =
		"[I] === Profile (3 iterations ) ===\n"
		"[I]    Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer\n"
		"[I]        1.00       0.3333       0.3333      50.0   a\0b\n"
		"[I]        1.00       0.3333       0.3333      50.0   c\n"
		"[I]        2.00       0.6667       0.6667     100.0   Total\n";
	struct profile p;
	const char *path;

	path = write_file("nul-profile.json", profile, sizeof(profile) - 1);
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-profile"), 1);
	CHECK(strstr(msgs, "nul-profile.json:4:16: error: NUL byte inside a string") != NULL);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK(layer(&p, "a") == NULL);
	profile_release(&p);

	path = write_file("nul-log.txt", log, sizeof(log) - 1);
	CHECK_EQ(load_n(&p, &path, 1, "trtexec-log"), 0);
	CHECK(strstr(msgs, "nul-log.txt:3:1: warning: line holds binary data; skipped") != NULL);
	CHECK_EQ(nr_layers(&p), 1);
	CHECK(layer(&p, "a") == NULL);
	CHECK(layer(&p, "c") != NULL);
	profile_release(&p);
}

/* ---------------------------------------------------------------------
 * trex's device properties, <engine>.metadata.json
 */

/* The place of KEY among the Info lines of SECTION, or -1. */
static int meta_place(const struct profile *p, const char *section, const char *key)
{
	int i = 0;

	for (const struct meta *m = p->meta; m; m = m->next) {
		if (strcmp(m->section, section))
			continue;
		if (!strcmp(m->key, key))
			return i;
		i++;
	}
	return -1;
}

static void t_device_fixture(void)
{
	const char *paths[2] = { FIX "graph-detailed.json", FIX "device.metadata.json" };
	struct profile p;

	CHECK_EQ(load_n(&p, paths, 2, NULL), 0);
	CHECK_STR(profile_meta_get(&p, "device 0", "name"), "NVIDIA GeForce RTX 3060");
	CHECK_STR(profile_meta_get(&p, "device 0", "compute capability"), "8.6");
	CHECK_STR(profile_meta_get(&p, "device 0", "total memory"), "12629049344 bytes (11.8 GiB)");
	CHECK_STR(profile_meta_get(&p, "device 0", "CUDA_VERSION"), "12.2.0");
	CHECK_STR(profile_meta_get(&p, "device 0", "MULTIPROCESSOR_COUNT"), "28");
	CHECK_STR(profile_meta_get(&p, "device 0", "MAX_SHARED_MEMORY_PER_BLOCK"), "49152");
	/* The GPU is a device of the model, for a line in Overview and Info. */
	CHECK_EQ(p.nr_devices, 1);
	CHECK_EQ(p.devices[0].id, 0);
	CHECK_STR(p.devices[0].name, "NVIDIA GeForce RTX 3060");
	CHECK_EQ(p.devices[0].total_memory_bytes, INT64_C(12629049344));
	CHECK(p.devices[0].cc_major == 8 && p.devices[0].cc_minor == 6);
	CHECK_EQ(p.devices[0].num_sms, 28);
	CHECK_EQ(p.devices[0].max_threads_per_sm, 1536);
	CHECK_EQ(p.devices[0].max_threads_per_block, 1024);
	CHECK_EQ(p.devices[0].regs_per_sm, 65536);
	CHECK_EQ(p.devices[0].warp_size, 32);
	CHECK_EQ(p.devices[0].shared_mem_per_sm_bytes, 102400);
	CHECK_EQ(nr_layers(&p), 6);	/* the graph's layers stay */
	CHECK_STR(msgs, "");
	profile_release(&p);
}

/* Known by what it holds, whatever its name; the compute capability as
 * trex writes it ([8, 6]) or as a string or a number; several GPUs. */
static void t_device_forms(void)
{
	struct profile p;
	const char *path;

	path = write_str("gpus.json",
		"[{\"Name\": \"GPU A\", \"ComputeCapability\": \"8.9\", \"TotalMemory\": 1073741824, "
		"\"WARP_SIZE\": 32},\n {\"Name\": \"GPU B\", \"ComputeCapability\": 9.0, "
		"\"TotalMemory\": \"80 GB\", \"ECC_ENABLED\": true, \"NESTED\": {\"x\": 1}}]\n");
	CHECK_STR(detect(path), "trex-device");
	CHECK_EQ(load1(&p, path), 0);
	CHECK(profile_meta_get(&p, "device", "name") == NULL);
	CHECK_STR(profile_meta_get(&p, "device 0", "name"), "GPU A");
	CHECK_STR(profile_meta_get(&p, "device 0", "compute capability"), "8.9");
	CHECK_STR(profile_meta_get(&p, "device 0", "total memory"), "1073741824 bytes (1.0 GiB)");
	CHECK_STR(profile_meta_get(&p, "device 0", "WARP_SIZE"), "32");
	CHECK_STR(profile_meta_get(&p, "device 1", "name"), "GPU B");
	CHECK_STR(profile_meta_get(&p, "device 1", "compute capability"), "9.0");
	CHECK_STR(profile_meta_get(&p, "device 1", "total memory"), "80 GB");
	CHECK_STR(profile_meta_get(&p, "device 1", "ECC_ENABLED"), "true");
	CHECK(profile_meta_get(&p, "device 1", "NESTED") == NULL);
	/* The model's devices take values of the forms they know only: "80
	 * GB" is no byte count. */
	CHECK_EQ(p.nr_devices, 2);
	CHECK(p.devices[0].cc_major == 8 && p.devices[0].cc_minor == 9);
	CHECK_EQ(p.devices[0].total_memory_bytes, INT64_C(1073741824));
	CHECK_EQ(p.devices[0].warp_size, 32);
	CHECK_EQ(p.devices[0].num_sms, -1);
	CHECK_EQ(p.devices[1].id, 1);
	CHECK_STR(p.devices[1].name, "GPU B");
	CHECK(p.devices[1].cc_major == 9 && p.devices[1].cc_minor == 0);
	CHECK_EQ(p.devices[1].total_memory_bytes, -1);
	profile_release(&p);

	/* Members shown first whatever their place in the file. */
	path = write_str("sorted.json",
		"[{\"CLOCK_RATE\": 1410000, \"ComputeCapability\": [8, 0], \"Name\": \"A100\", "
		"\"TotalMemory\": 84929216512}]");
	CHECK_STR(detect(path), "trex-device");
	CHECK_EQ(load1(&p, path), 0);
	CHECK_EQ(meta_place(&p, "device 0", "name"), 0);
	CHECK_EQ(meta_place(&p, "device 0", "compute capability"), 1);
	CHECK_EQ(meta_place(&p, "device 0", "total memory"), 2);
	CHECK_EQ(meta_place(&p, "device 0", "CLOCK_RATE"), 3);
	profile_release(&p);
}

static void t_device_not_claimed(void)
{
	/* The keys must be members of the array's first object. */
	CHECK_STR(detect(write_str("dev-nested.json",
		"[{\"args\": {\"Name\": \"x\", \"ComputeCapability\": [8, 0], "
		"\"TotalMemory\": 1}}]\n")), "");
	CHECK_STR(detect(write_str("dev-partial.json",
		"[{\"Name\": \"x\", \"TotalMemory\": 1}]\n")), "");
	CHECK_STR(detect(write_str("dev-object.json",
		"{\"Name\": \"x\", \"ComputeCapability\": [8, 0], \"TotalMemory\": 1}\n")), "");
	CHECK_STR(detect(write_str("dev-values.json",
		"[{\"a\": \"Name\", \"b\": \"ComputeCapability\", \"c\": \"TotalMemory\"}]\n")),
		  "");
	CHECK_STR(detect(FIX "times.json"), "trtexec-times");
}

static void t_bad_device(void)
{
	struct profile p;
	const char *path;

	/* Cut inside the second GPU: the first is kept, the error says so. */
	path = write_str("cut-gpus.json",
		"[{\"Name\": \"GPU A\", \"ComputeCapability\": [8, 6], \"TotalMemory\": 1},\n"
		" {\"Name\": \"GPU B\", \"ComputeCapability\": [8, ");
	CHECK_EQ(load1(&p, path), 1);
	CHECK(strstr(msgs, "cut-gpus.json:2:") != NULL);
	CHECK(strstr(msgs, "error: unexpected end of file inside the device list (truncated?); "
			   "kept the 1 read before it") != NULL);
	CHECK_STR(profile_meta_get(&p, "device 0", "name"), "GPU A");
	CHECK(profile_meta_get(&p, "device 1", "name") == NULL);
	profile_release(&p);

	/* Cut inside the first: nothing to keep. */
	path = write_str("cut-gpu.json", "[{\"Name\": \"GPU A\", \"ComputeCapability\": [8, 6], "
					 "\"TotalMemory\": 1");
	CHECK_EQ(load1(&p, path), -1);
	profile_release(&p);

	/* Elements that are not devices: warned about, skipped. */
	path = write_str("odd-gpus.json",
		"[{\"Name\": \"GPU A\", \"ComputeCapability\": [8, 6], \"TotalMemory\": 1},\n"
		" 7,\n {\"WARP_SIZE\": 32}]\n");
	CHECK_EQ(load1(&p, path), 0);
	CHECK(strstr(msgs, "odd-gpus.json:2:2: warning: element of the device list is not an "
			   "object; skipped") != NULL);
	CHECK(strstr(msgs, "odd-gpus.json:3:2: warning: element of the device list has no 'Name'")
	      != NULL);
	CHECK_STR(profile_meta_get(&p, "device 0", "name"), "GPU A");
	CHECK(profile_meta_get(&p, "device 0", "WARP_SIZE") == NULL);
	CHECK_EQ(p.nr_devices, 1);
	profile_release(&p);

	path = write_str("obj-gpus.json", "{\"Name\": \"GPU A\"}\n");
	CHECK_EQ(load_n(&p, &path, 1, "trex-device"), -1);
	CHECK(strstr(msgs, "expected a JSON array of trex device properties") != NULL);
	profile_release(&p);
}

const struct test tests[] = {
	{ "seed 002 detailed layer info: 25 layers, CaskConvActPool INT8, 4 fused", t_seed_detailed },
	{ "seed 002 simple layer info: the same 25 names, no types", t_seed_simple },
	{ "seed pages are claimed by no trtexec parser", t_seed_pages_not_claimed },
	{ "corpus mobilenet graph + profile + timing join", t_corpus_merge },
	{ "corpus files join the same in any order", t_corpus_any_order },
	{ "corpus trex metadata goes to Info", t_corpus_trex_metadata },
	{ "fixtures are detected as their parser, others are not", t_detect_fixtures },
	{ "detailed layer info: types, shapes, tactics, Metadata", t_graph_detailed },
	{ "TensorRT 10 short formats", t_graph_trt10 },
	{ "simple layer info: sources from names", t_graph_simple },
	{ "exportProfile with and without medianMs", t_profile_fixture },
	{ "exportTimes: one step per inference", t_times_fixture },
	{ "fixture engine: graph + profile + times, either order", t_fixture_merge },
	{ "log >= 8.6: table, summary, device, options, version", t_log_trt86 },
	{ "logs 8.5 and 8.4 (Jetson, no date)", t_log_trt85_trt84 },
	{ "log of TensorRT 7 (summary in groups) and 10 (version)", t_log_old_summary },
	{ "log with two tables: two runs", t_log_two_runs },
	{ "a log joins the graph and trex metadata", t_log_joins_graph },
	{ "join by name with repeats, insertion, by position", t_join_rules },
	{ "join a file of many names the first file lacks", t_join_many_new_names },
	{ "a file of another engine is refused, unless --merge", t_join_other_engine },
	{ "exportProfile read tolerantly", t_profile_tolerant },
	{ "bad graph input", t_bad_graph },
	{ "bad profile input", t_bad_profile },
	{ "bad times input", t_bad_times },
	{ "bad log input", t_bad_log },
	{ "bad trex metadata", t_bad_trex },
	{ "a NUL byte in a name is refused or skipped", t_nul_in_names },
	{ "trex device properties beside a graph go to Info", t_device_fixture },
	{ "trex device properties: by content, value forms, several GPUs", t_device_forms },
	{ "trex device properties: what is not one", t_device_not_claimed },
	{ "bad trex device properties", t_bad_device },
	{ 0 },
};
