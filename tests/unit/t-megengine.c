// SPDX-License-Identifier: MIT
/*
 * MegEngine: load_and_run output, profile_analyze tables and the --profile
 * JSON, checked through what the panes read (steps, meta, agg_ops()) on
 * the seed, the corpus documents and our own fixtures; detection; bad
 * input.
 */
#include <math.h>
#include <unistd.h>

#include "model/aggregate.h"
#include "parsers/parser.h"
#include "test.h"

#define FIX "tests/golden/megengine/"
#define SEED_004 "../shared/seeds/004_311414be4808ad5c.txt"

extern const struct parser megengine_text_parser;
extern const struct parser megengine_json_parser;

static char msg[16384];

/* Load PATH into P (initialised here; the caller releases it) with the
 * messages in msg; returns profile_load()'s code. */
static int load(struct profile *p, const char *path, const char *format)
{
	return test_load(p, path, format, msg, sizeof(msg));
}

static bool exists(const char *path)
{
	return access(path, R_OK) == 0;
}

static const char *corpus(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/megengine/%s", test_corpus_dir(), name);
	return path;
}

static uint64_t nr_warnings(const struct profile *p)
{
	uint64_t n = 0;

	for (const struct warning *w = p->warnings; w; w = w->next)
		n += w->count;
	return n;
}

static uint64_t warned(const struct profile *p, const char *text)
{
	for (const struct warning *w = p->warnings; w; w = w->next)
		if (strstr(w->text, text))
			return w->count;
	return 0;
}

static int64_t cat(const struct profile *run, size_t step, const char *name)
{
	int c = profile_step_cat(run, name);

	return c < 0 ? -2 : run->steps[step].cat_ns[c];
}

static const char *meta(const struct profile *run, const char *key)
{
	const char *v = profile_meta_get(run, "load_and_run", key);

	if (!v)
		v = profile_meta_get(run, "profile_analyze", key);
	if (!v)
		v = profile_meta_get(run, "profiler", key);
	return v;
}

static const struct attr *attr(const struct agg_row *r, const char *key)
{
	return attr_find(node_attrs(r->first), key);
}

static const char *attr_s(const struct agg_row *r, const char *key)
{
	const struct attr *a = attr(r, key);

	return a && attr_type(a) == ATTR_STRING ? a->v.s : NULL;
}

static int64_t attr_i(const struct agg_row *r, const char *key)
{
	const struct attr *a = attr(r, key);

	return a && (attr_type(a) == ATTR_INT || attr_type(a) == ATTR_NS) ? a->v.i : -1;
}

static double attr_d(const struct agg_row *r, const char *key)
{
	const struct attr *a = attr(r, key);

	return a && attr_type(a) == ATTR_DOUBLE ? a->v.d : -1;
}

#define CHECK_NEAR(a, b) CHECK(fabs((double)(a) - (double)(b)) <= 1e-6 * fabs((double)(b)) + 1e-9)

/* The acceptance lines of issue 5 for seed 004. */
static void t_seed_004(void)
{
	struct profile p, *run;
	struct agg a;

	if (!exists(SEED_004))
		SKIP("no seed 004 at ../shared/seeds");
	CHECK_EQ(load(&p, SEED_004, NULL), 0);
	CHECK_STR(p.format, "megengine");
	CHECK_EQ(nr_warnings(&p), 0);
	/* six load_and_run runs, then the profile_analyze output */
	CHECK_EQ(profile_nr_runs(&p), 7);
	run = &p;
	CHECK_EQ(run->nr_steps, 10);
	CHECK_STR(run->run_title, "test #0");
	CHECK_STR(run->steps[0].name, "0");
	CHECK_EQ(run->steps[0].total_ns, 245185000);
	CHECK_EQ(cat(run, 0, "Exec"), 10574000);
	CHECK_EQ(cat(run, 0, "Device"), 242226000);
	CHECK_EQ(run->steps[9].total_ns, 236964000);
	CHECK_STR(meta(run, "avg"), "237.634 ms");
	CHECK_STR(meta(run, "sd"), "2.668 ms");
	CHECK_STR(meta(run, "min"), "236.321 ms");
	CHECK_STR(meta(run, "max"), "245.185 ms");
	CHECK_STR(meta(run, "time"), "2376.339 ms");
	CHECK_STR(meta(run, "load model"), "198.030 ms");
	CHECK_STR(meta(run, "prepare"), "5.846 ms");
	CHECK_STR(meta(run, "warmup 0"), "581.284 ms");
	CHECK_STR(meta(run, "command"), "./load_and_run ./resnet50.mge --input cat.npy --iter 10");
	for (size_t r = 1; r < 6; r++) {
		run = profile_run(&p, r);
		CHECK_EQ(run->nr_steps, 10);
		CHECK(meta(run, "avg") != NULL);
	}
	/* the asserteq run: testcases and the total time */
	run = profile_run(&p, 5);
	CHECK_STR(meta(run, "testcases"), "1");
	CHECK_STR(meta(run, "total time"), "2416.913 ms");
	CHECK_EQ(run->steps[0].total_ns, 243277000);

	run = profile_run(&p, 6);
	CHECK_STR(run->run_title, "profile_analyze");
	CHECK_EQ(run->nr_steps, 0);
	CHECK_STR(meta(run, "total device time"), "11.8007 ms");
	CHECK_STR(meta(run, "total host time"), "12.106 ms");
	agg_ops(run, NULL, &a);
	CHECK_EQ(a.nr, 5);
	if (a.nr == 5) {
		CHECK_STR(a.rows[0].name, "conv(FUSE_ADD_RELU[351],multi_dv[0]:o89)[353]");
		CHECK_STR(attr_s(&a.rows[0], "type"), "ConvolutionForward");
		CHECK_STR(attr_s(&a.rows[0], "id"), "353");
		CHECK_EQ(a.rows[0].calls, 1);
		CHECK_EQ(a.rows[0].device_self_ns, 383000);
		CHECK_EQ(a.rows[0].device_total_ns, 383000);
		/* 231.21 MFLO: profile_analyze scales FLO by 1000 */
		CHECK_NEAR(attr_d(&a.rows[0], "flops"), 231.21e6);
		CHECK_NEAR(attr_d(&a.rows[0], "flops_per_s"), 604.00e9);
		/* 9.48 MiB, 24.18 GiB/s: memory by 1024 */
		CHECK_EQ(attr_i(&a.rows[0], "memory_bytes"), 9940500);
		CHECK_NEAR(attr_d(&a.rows[0], "bandwidth_bytes_per_s"), 25963077304.0);
		CHECK_STR(attr_s(&a.rows[0], "input_shapes"), "{1,512,14,14} {512,512,3,3}");
		CHECK_STR(attr_s(&a.rows[0], "output_shapes"), "{1,512,7,7}");
		CHECK_EQ(attr_i(&a.rows[0], "cumulative_ns"), 383000);
		CHECK_NEAR(attr_d(&a.rows[0], "cumulative_pct"), 3.2);
		CHECK_NEAR(attr_d(&a.rows[0], "time_pct"), 3.2);
		CHECK_STR(a.rows[1].name, "conv(FUSE_ADD_RELU[383],multi_dv[0]:o100)[385]");
		CHECK_EQ(a.rows[4].device_self_ns, 233000);
		CHECK_EQ(attr_i(&a.rows[4], "cumulative_ns"), 1430000);
		CHECK(a.rows[0].first->flags & NODE_DISTINCT);
	}
	agg_release(&a);
	profile_release(&p);
}

/* Every corpus page loads its runs, without warnings. */
static void t_corpus(void)
{
	static const struct {
		const char *name;
		size_t runs;
	} pages[] = {
		{ "MegEngine_Docs__how_to_use_load_and_run.rst", 7 },
		{ "MegEngine_Docs__profiling.rst", 1 },
		{ "MegEngine_Documentation__basic-usage.rst", 1 },
		{ "MegEngine_Documentation__profile-model.rst", 2 },
	};
	struct profile p;
	struct agg a;

	if (!exists(corpus(pages[0].name)))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	for (size_t i = 0; i < ARRAY_SIZE(pages); i++) {
		CHECK_EQ(load(&p, corpus(pages[i].name), NULL), 0);
		CHECK_STR(p.format, "megengine");
		CHECK_EQ(profile_nr_runs(&p), pages[i].runs);
		CHECK_EQ(nr_warnings(&p), 0);
		for (size_t r = 0; r < profile_nr_runs(&p); r++) {
			struct profile *run = profile_run(&p, r);

			agg_ops(run, NULL, &a);
			CHECK(run->nr_steps || a.nr);
			agg_release(&a);
		}
		profile_release(&p);
	}

	/* wrapped twice: "-  [var7:conv[6]],shared[2])[2660" "-  7]" */
	CHECK_EQ(load(&p, corpus("MegEngine_Docs__profiling.rst"), NULL), 0);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 5);
	if (a.nr == 5) {
		CHECK_STR(a.rows[1].name, "conv_bwd_filter(shared[0],grad[var7:conv[6]],shared[2])[26607]");
		CHECK_STR(attr_s(&a.rows[1], "type"), "ConvolutionBackwardFilter");
		CHECK_EQ(a.rows[1].device_self_ns, 3040000);
		CHECK_NEAR(attr_d(&a.rows[1], "flops"), 15.11e9);
		CHECK_NEAR(attr_d(&a.rows[1], "flops_per_s"), 4.96e12);
		CHECK_EQ(attr_i(&a.rows[1], "memory_bytes"), llround(232.79 * 1048576));
		CHECK_NEAR(attr_d(&a.rows[1], "bandwidth_bytes_per_s"), llround(74.66 * 1073741824.0));
		CHECK_STR(attr_s(&a.rows[1], "input_shapes"), "{64,3,224,224} {64,64,112,112} {64,3,7,7}");
		CHECK_EQ(a.rows[2].device_self_ns, 2670000);
		CHECK_STR(a.rows[2].name, "conv(RELU[13947],shared[649])[13949]");
	}
	agg_release(&a);
	profile_release(&p);

	/* the v1.7 tool: " ms" units, sexec=, log prefixes */
	CHECK_EQ(load(&p, corpus("MegEngine_Documentation__basic-usage.rst"), NULL), 0);
	CHECK_EQ(p.nr_steps, 10);
	CHECK_EQ(p.nr_step_cats, 1);
	CHECK_EQ(p.steps[0].total_ns, 141249000);
	CHECK_EQ(cat(&p, 0, "Exec"), 1066000);
	CHECK_EQ(cat(&p, 0, "Device"), -2);
	CHECK_STR(meta(&p, "sd"), "10.829 ms");
	CHECK_STR(meta(&p, "warmup 0"), "355.658 ms");
	CHECK_STR(meta(&p, "total time"), "1331.010 ms");
	CHECK_STR(p.run_title, "test #0");
	/* the command lines in the page precede prose, not this output */
	CHECK(meta(&p, "command") == NULL);
	profile_release(&p);

	/* two profile_analyze outputs, each its own run */
	CHECK_EQ(load(&p, corpus("MegEngine_Documentation__profile-model.rst"), NULL), 0);
	CHECK_STR(meta(profile_run(&p, 1), "total device time"), "130.127 ms");
	agg_ops(profile_run(&p, 1), NULL, &a);
	CHECK_EQ(a.nr, 3);
	if (a.nr == 3)
		CHECK_STR(a.rows[0].name, "conv(reshape[52],const{64,3,7,7}[54])[56]");
	agg_release(&a);
	profile_release(&p);
}

static void t_old_tool(void)
{
	struct profile p, *run;

	CHECK_EQ(load(&p, FIX "lar-old.txt", NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_EQ(profile_nr_runs(&p), 4);
	/* colour codes around a log line do not hide the run */
	CHECK_EQ(p.nr_steps, 3);
	CHECK_EQ(p.steps[2].total_ns, 9500000);
	CHECK_EQ(cat(&p, 2, "Exec"), 750000);
	CHECK_EQ(cat(&p, 2, "Device"), 8500000);
	CHECK_STR(meta(&p, "version"), "MegBrain 1.6.0(0) and MegDNN 9.3.0");
	CHECK_STR(meta(&p, "sd"), "0.500 ms");
	CHECK_STR(meta(&p, "warmup 0"), "20.125 ms");
	/* --iter 1: sd is 0/0, printed -nan and nan */
	run = profile_run(&p, 1);
	CHECK_STR(run->run_title, "test #0");
	CHECK_STR(run->run_where, FIX "lar-old.txt:14");
	CHECK_EQ(run->nr_steps, 1);
	CHECK_STR(meta(run, "sd"), "nan");
	CHECK_STR(meta(run, "testcases"), "2");
	CHECK_STR(meta(run, "output vars"), "softmax[42]{1,1000}");
	CHECK_STR(meta(run, "command"), "./load_and_run net.mdl --iter 1");
	run = profile_run(&p, 2);
	CHECK_STR(run->run_title, "test #1");
	CHECK_STR(meta(run, "sd"), "nan");
	CHECK_STR(meta(run, "total time"), "14.375 ms");
	CHECK(meta(run, "load model") == NULL);
	/* benchmark mode: "=== finished run #k" steps, "avg time" */
	run = profile_run(&p, 3);
	CHECK_EQ(run->nr_steps, 3);
	CHECK_EQ(run->nr_step_cats, 0);
	CHECK_EQ(run->steps[1].total_ns, 1500000);
	CHECK_STR(meta(run, "avg"), "1.500 ms");
	CHECK_STR(meta(run, "output vars"), "fc[7]{1,10}");
	profile_release(&p);
}

static void t_new_tools(void)
{
	struct profile p, *run;

	CHECK_EQ(load(&p, FIX "lar-v17.txt", NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_EQ(profile_nr_runs(&p), 1);
	CHECK_EQ(p.nr_steps, 4);
	CHECK_EQ(p.steps[1].total_ns, 11000000);
	CHECK_EQ(cat(&p, 1, "Exec"), 900000);
	CHECK_STR(meta(&p, "sd"), "0.816 ms");
	CHECK_STR(meta(&p, "min"), "10.000 ms");
	CHECK_STR(meta(&p, "max"), "12.000 ms");
	CHECK_STR(meta(&p, "warmup 0"), "40.000 ms");
	profile_release(&p);

	CHECK_EQ(load(&p, FIX "lar-lite.txt", NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_EQ(profile_nr_runs(&p), 2);
	CHECK_STR(p.run_title, "test #0");
	CHECK_STR(meta(&p, "version"), "MegBrain 1.13.0(0) and MegDNN 9.3.0");
	CHECK_EQ(p.steps[0].total_ns, 9000000);
	CHECK_EQ(cat(&p, 0, "Exec"), 600000);
	CHECK_STR(meta(&p, "sd"), "0.707 ms");
	run = profile_run(&p, 1);
	CHECK_STR(run->run_title, "test #1");
	CHECK_EQ(run->nr_steps, 2);
	CHECK_EQ(cat(run, 1, "Exec"), 450000);
	CHECK_STR(meta(run, "avg"), "7.250 ms");
	CHECK_STR(meta(run, "total time"), "31.500 ms");
	profile_release(&p);

	CHECK_EQ(load(&p, FIX "lar-fitting.txt", NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_EQ(profile_nr_runs(&p), 2);
	CHECK_EQ(p.nr_steps, 2);
	CHECK_EQ(p.steps[1].total_ns, 9000000);
	CHECK_STR(meta(&p, "avg"), "9.500 ms");
	CHECK_STR(meta(&p, "options"), "--cpu=true --enable_fuse_conv_bias_nonlinearity=true");
	CHECK_STR(meta(&p, "config model"), "1.500 ms");
	run = profile_run(&p, 1);
	CHECK_EQ(run->steps[0].total_ns, 8000000);
	CHECK_STR(meta(run, "avg"), "7.500 ms");
	CHECK_STR(meta(run, "warmup 0"), "18.000 ms");
	profile_release(&p);
}

static void t_analyze_fixtures(void)
{
	struct profile p;
	struct agg a;

	CHECK_EQ(load(&p, FIX "analyze-grid.txt", NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_EQ(profile_nr_runs(&p), 1);
	CHECK_STR(meta(&p, "copy time total"), "1.200 ms");
	CHECK_STR(meta(&p, "copy wait time avg"), "0.100 ms");
	CHECK_STR(meta(&p, "command"),
		  "python3 -m megengine.tools.profile_analyze profile.json -t 3 --show-host --copy-time");
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 4);
	if (a.nr == 4) {
		/* the host table joins the device table by id */
		CHECK_STR(a.rows[0].name, "conv(data[1],const{16,3,3,3}[2])[3]");
		CHECK_EQ(a.rows[0].device_self_ns, 4000000);
		CHECK_EQ(a.rows[0].host_self_ns, 8000000);
		CHECK_NEAR(attr_d(&a.rows[0], "flops"), 3.46e6);
		CHECK_EQ(attr_i(&a.rows[0], "memory_bytes"), llround(1.95 * 1048576));
		/* 1.23e-05 s; N/A computation; whole bytes */
		CHECK_EQ(a.rows[1].device_self_ns, 12300);
		CHECK(attr(&a.rows[1], "flops") == NULL);
		CHECK(attr(&a.rows[1], "flops_per_s") == NULL);
		CHECK_EQ(attr_i(&a.rows[1], "memory_bytes"), 960);
		CHECK_STR(attr_s(&a.rows[1], "input_shapes"), "{1,16,30,30}-[28800,900,30,1]");
		CHECK_STR(a.rows[2].name, "elemwise(FUSE_MUL_ADD3[10],broadcast[11],const<1>[12])[13]");
		CHECK_NEAR(attr_d(&a.rows[2], "flops"), 512e3);
		CHECK_EQ(attr_i(&a.rows[2], "memory_bytes"), 12288);
		CHECK_STR(attr_s(&a.rows[2], "input_shapes"), "{1,16,30,30} {1,16,1,1} {1,16,1,1}");
		/* only in the host table */
		CHECK_STR(a.rows[3].name, "h2d[0]");
		CHECK_EQ(a.rows[3].device_self_ns, 0);
		CHECK_EQ(a.rows[3].host_self_ns, 5000000);
		CHECK(attr(&a.rows[3], "time_pct") == NULL);
	}
	agg_release(&a);
	profile_release(&p);

	CHECK_EQ(load(&p, FIX "analyze-type.txt", NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 3);
	if (a.nr == 3) {
		CHECK_STR(a.rows[0].name, "ConvolutionForward");
		CHECK_STR(attr_s(&a.rows[0], "type"), "ConvolutionForward");
		CHECK_EQ(attr_i(&a.rows[0], "nr_oprs"), 3);
		CHECK(attr(&a.rows[0], "id") == NULL);
		CHECK(attr(&a.rows[0], "input_shapes") == NULL);
		CHECK_EQ(a.rows[0].device_self_ns, 6000000);
		CHECK_NEAR(attr_d(&a.rows[0], "flops_per_s"), 1.73e9);
		CHECK_EQ(attr_i(&a.rows[2], "nr_oprs"), 2);
	}
	agg_release(&a);
	profile_release(&p);

	CHECK_EQ(load(&p, FIX "analyze-org.txt", NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_STR(meta(&p, "total device time"), "10.000 ms");
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 3);
	if (a.nr == 3) {
		CHECK_EQ(a.rows[0].device_self_ns, 4000000);
		CHECK_NEAR(attr_d(&a.rows[0], "flops"), 3.5e6);
		CHECK_EQ(attr_i(&a.rows[0], "memory_bytes"), 2097152);
		CHECK_NEAR(attr_d(&a.rows[0], "cumulative_pct"), 40);
		CHECK_STR(attr_s(&a.rows[0], "input_shapes"), "{1,3,32,32} {16,3,3,3}");
		/* a continuation line carries the strides */
		CHECK_STR(attr_s(&a.rows[1], "input_shapes"), "{1,16,30,30}-[28800,900,30,1]");
		CHECK_EQ(a.rows[1].device_self_ns, 12300);
		CHECK_STR(a.rows[2].name, "elemwise(FUSE_MUL_ADD3[10],broadcast[11],const<1>[12])[13]");
		CHECK_STR(attr_s(&a.rows[2], "input_shapes"), "{1,16,30,30} {1,16,1,1} {1,16,1,1}");
	}
	agg_release(&a);
	profile_release(&p);
}

static void t_profile_json(void)
{
	struct profile p;
	struct agg a;
	const struct node *g;

	CHECK_EQ(load(&p, FIX "profile.json", NULL), 0);
	CHECK_STR(p.format, "megengine-json");
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_STR(meta(&p, "operators"), "4");
	CHECK_STR(meta(&p, "operators without times"), "1");
	CHECK_STR(meta(&p, "total device time"), "3.750 ms");
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 4);
	if (a.nr == 4) {
		/* comp_seq order */
		CHECK_STR(a.rows[0].name, "data");
		CHECK_STR(a.rows[1].name, "conv(data[5],w[1])[6]");
		/* the longer of two comp nodes: 3.5 - 1.0 ms */
		CHECK_EQ(a.rows[1].device_self_ns, 2500000);
		CHECK_EQ(a.rows[1].host_self_ns, 100000);
		CHECK_STR(attr_s(&a.rows[1], "id"), "6");
		CHECK_STR(attr_s(&a.rows[1], "type"), "ConvolutionForward");
		CHECK_NEAR(attr_d(&a.rows[1], "flops"), 231211008);
		CHECK_EQ(attr_i(&a.rows[1], "memory_bytes"), 9940500);
		CHECK_STR(attr_s(&a.rows[1], "input_shapes"), "{1,512,14,14} {512,512,3,3}-[4608,1,1536,512]");
		CHECK_STR(attr_s(&a.rows[1], "output_shapes"), "{1,512,7,7}");
		/* computation: null */
		CHECK(attr(&a.rows[0], "flops") == NULL);
		CHECK(attr(&a.rows[0], "input_shapes") == NULL);
		CHECK_STR(a.rows[3].name, "add(relu[9],const<1>[11])[12]");
		CHECK_EQ(a.rows[3].host_self_ns, 50000);
	}
	agg_release(&a);
	/* Tree: operators grouped by type, in execution order */
	g = node_first_child(p.root);
	CHECK(g && g->kind == NODE_GROUP && !strcmp(node_name(g), "Host2DeviceCopy"));
	g = g ? node_next(g) : NULL;
	CHECK(g && !strcmp(node_name(g), "ConvolutionForward"));
	g = g ? node_next(g) : NULL;
	CHECK(g && !strcmp(node_name(g), "Elemwise") && node_first_child(g) && node_next(node_first_child(g)) &&
	      !strcmp(node_name(node_first_child(g)), "relu(conv[7])[8]"));
	profile_release(&p);
}

/* Content decides: ours win on ours, and leave other tools' files alone. */
static void t_probe(void)
{
	static const char *const texts[] = {
		FIX "lar-old.txt", FIX "lar-v17.txt", FIX "lar-lite.txt", FIX "lar-fitting.txt",
		FIX "analyze-grid.txt", FIX "analyze-type.txt", FIX "analyze-org.txt",
	};
	static const char key_averages[] =
		"-------------------------------------------------------  ------------  ------------\n"
		"                                                   Name    Self CPU %      Self CPU\n"
		"-------------------------------------------------------  ------------  ------------\n"
		"                                            aten::addmm        45.12%       1.234ms\n"
		"-------------------------------------------------------  ------------  ------------\n"
		"Self CPU time total: 2.735ms\n";
	static const char trtexec_log[] =
		"&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n"
		"[11/18/2023-17:34:03] [I] === Performance summary ===\n"
		"[11/18/2023-17:34:03] [I] Throughput: 812.3 qps\n"
		"[11/18/2023-17:34:03] [I] Latency: min = 1.2 ms, max = 1.5 ms, mean = 1.3 ms\n"
		"[11/18/2023-17:34:03] [I]    Time (ms)     Avg. Time (ms)   Median Time (ms)  Time %   Layer\n"
		"&&&& PASSED TensorRT.trtexec [TensorRT v8601]\n";
	static const char kineto[] =
		"{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", "
		"\"name\": \"k\", \"ts\": 1, \"dur\": 2, \"args\": {\"kern\": 1}}]}";
	static const char trt_profile[] =
		"[{ \"count\" : 10 }, { \"name\" : \"conv1\", \"timeMs\" : 1.5, \"averageMs\" : 0.15, "
		"\"percentage\" : 50 }]";
	static const char trt_layers[] =
		"{\"Layers\": [{\"Name\": \"conv1\", \"LayerType\": \"CaskConvolution\"}], "
		"\"Bindings\": [\"input\", \"output\"]}";
	const char *const others[] = { key_averages, trtexec_log, kineto, trt_profile, trt_layers };
	char head[65536];

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		FILE *f = fopen(texts[i], "rb");
		size_t n = f ? fread(head, 1, sizeof(head), f) : 0;
		const struct parser *got;

		if (f)
			fclose(f);
		got = parser_detect(head, n);
		CHECK(got == &megengine_text_parser);
		CHECK_EQ(megengine_json_parser.probe(head, n), 0);
	}
	{
		FILE *f = fopen(FIX "profile.json", "rb");
		size_t n = f ? fread(head, 1, sizeof(head), f) : 0;

		if (f)
			fclose(f);
		CHECK(parser_detect(head, n) == &megengine_json_parser);
		CHECK_EQ(megengine_text_parser.probe(head, n), 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
		CHECK_EQ(megengine_text_parser.probe(others[i], strlen(others[i])), 0);
		CHECK_EQ(megengine_json_parser.probe(others[i], strlen(others[i])), 0);
	}
	/* seed 004 opens with 5 KB of Chinese prose; the probe sees 64 KB */
	if (exists(SEED_004)) {
		FILE *f = fopen(SEED_004, "rb");
		size_t n = f ? fread(head, 1, sizeof(head), f) : 0;

		if (f)
			fclose(f);
		CHECK(parser_detect(head, n) == &megengine_text_parser);
	}
}

/* Bad input, written to files so messages carry FILE:LINE. */
/* A table of two rows, the second cut after its first line. */
static const char grid_cut[] =
	"total device time  0.01\n"
	"\n"
	"\xe2\x95\x92\xe2\x95\x90\xe2\x95\xa4\xe2\x95\x90\xe2\x95\x95\n"
	"\xe2\x94\x82 device self time \xe2\x94\x82 operator info \xe2\x94\x82\n"
	"\xe2\x95\x9e\xe2\x95\x90\xe2\x95\xaa\xe2\x95\x90\xe2\x95\xa1\n"
	"\xe2\x94\x82 #0               \xe2\x94\x82 a[1]          \xe2\x94\x82\n"
	"\xe2\x94\x82 0.004            \xe2\x94\x82 T             \xe2\x94\x82\n"
	"\xe2\x94\x82 40.0%            \xe2\x94\x82 1             \xe2\x94\x82\n"
	"\xe2\x94\x9c\xe2\x94\x80\xe2\x94\xbc\xe2\x94\x80\xe2\x94\xa4\n"
	"\xe2\x94\x82 #1               \xe2\x94\x82 b[2]          \xe2\x94\x82\n";

static void t_bad_grid(void)
{
	struct profile p;
	struct agg a;
	const char *path = test_write("cut.txt", grid_cut, sizeof(grid_cut) - 1);
	char want[1200];
	char *text;

	/* cut at the end of the file: the complete row stays */
	CHECK_EQ(load(&p, path, NULL), 1);
	snprintf(want, sizeof(want), "%s:10:1: error: unexpected end of file inside a profile_analyze "
		 "table row; kept the 1 rows before it", path);
	CHECK(strstr(msg, want) != NULL);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 1);
	if (a.nr == 1) {
		CHECK_STR(a.rows[0].name, "a[1]");
		CHECK_EQ(a.rows[0].device_self_ns, 4000000);
	}
	agg_release(&a);
	profile_release(&p);

	/* cut, and prose after it */
	text = malloc(sizeof(grid_cut) + 64);
	snprintf(text, sizeof(grid_cut) + 64, "%sand then the log goes on\n", grid_cut);
	path = test_write("cut2.txt", text, strlen(text));
	CHECK_EQ(load(&p, path, NULL), 1);
	snprintf(want, sizeof(want), "%s:11:1: error: profile_analyze table ends inside a row", path);
	CHECK(strstr(msg, want) != NULL);
	profile_release(&p);

	/* a header and no rows */
	snprintf(text, sizeof(grid_cut) + 64, "%.*s\xe2\x95\x98\xe2\x95\x90\xe2\x95\xa7\xe2\x95\x90\n",
		 (int)(strstr(grid_cut, "\xe2\x94\x82 #0") - grid_cut), grid_cut);
	path = test_write("empty.txt", text, strlen(text));
	CHECK_EQ(load(&p, path, NULL), 0);
	CHECK_EQ(warned(&p, "tables without rows"), 1);
	snprintf(want, sizeof(want), "%s:3:1: warning: profile_analyze table has a header", path);
	CHECK(strstr(msg, want) != NULL);
	profile_release(&p);
	free(text);

	/* a row with a cell too many: skipped, the rest kept */
	{
		static const char misaligned[] =
			"\xe2\x95\x92\xe2\x95\x90\xe2\x95\xa4\xe2\x95\x90\xe2\x95\x95\n"
			"\xe2\x94\x82 device self time \xe2\x94\x82 operator info \xe2\x94\x82\n"
			"\xe2\x95\x9e\xe2\x95\x90\xe2\x95\xaa\xe2\x95\x90\xe2\x95\xa1\n"
			"\xe2\x94\x82 #0 \xe2\x94\x82 a[1] \xe2\x94\x82 oops \xe2\x94\x82\n"
			"\xe2\x94\x82 0.004 \xe2\x94\x82 T \xe2\x94\x82\n"
			"\xe2\x94\x9c\xe2\x94\x80\xe2\x94\xbc\xe2\x94\x80\xe2\x94\xa4\n"
			"\xe2\x94\x82 #1 \xe2\x94\x82 b[2] \xe2\x94\x82\n"
			"\xe2\x94\x82 0.002 \xe2\x94\x82 T \xe2\x94\x82\n"
			"\xe2\x94\x82 20.0% \xe2\x94\x82 2 \xe2\x94\x82\n"
			"\xe2\x95\x98\xe2\x95\x90\xe2\x95\xa7\xe2\x95\x90\xe2\x95\x9b\n";

		path = test_write("misaligned.txt", misaligned, sizeof(misaligned) - 1);
		CHECK_EQ(load(&p, path, NULL), 0);
		CHECK_EQ(warned(&p, "misaligned"), 1);
		snprintf(want, sizeof(want), "%s:4:1: warning: row does not fit", path);
		CHECK(strstr(msg, want) != NULL);
		agg_ops(&p, NULL, &a);
		CHECK_EQ(a.nr, 1);
		if (a.nr == 1) {
			CHECK_STR(a.rows[0].name, "b[2]");
			CHECK_EQ(a.rows[0].device_self_ns, 2000000);
		}
		agg_release(&a);
		profile_release(&p);
	}
	/* found by the fuzzer: a host table row without operator info */
	{
		static const char nameless[] =
			"\xe2\x94\x82 device self time \xe2\x94\x82 operator info \xe2\x94\x82\n"
			"\xe2\x95\x9e\xe2\x95\x90\xe2\x95\xaa\xe2\x95\x90\xe2\x95\xa1\n"
			"\xe2\x94\x82 #0 \xe2\x94\x82 a[1] \xe2\x94\x82\n"
			"\xe2\x94\x82 0.002 \xe2\x94\x82  \xe2\x94\x82\n"
			"\xe2\x95\x98\xe2\x95\x90\xe2\x95\xa7\xe2\x95\x90\xe2\x95\x9b\n"
			"\xe2\x94\x82 host self time \xe2\x94\x82 operator info \xe2\x94\x82\n"
			"\xe2\x95\x9e\xe2\x95\x90\xe2\x95\xaa\xe2\x95\x90\xe2\x95\xa1\n"
			"\xe2\x94\x82 #0 \xe2\x94\x82  \xe2\x94\x82\n"
			"\xe2\x94\x82 0.004 \xe2\x94\x82  \xe2\x94\x82\n"
			"\xe2\x95\x98\xe2\x95\x90\xe2\x95\xa7\xe2\x95\x90\xe2\x95\x9b\n";

		path = test_write("nameless.txt", nameless, sizeof(nameless) - 1);
		CHECK_EQ(load(&p, path, NULL), 0);
		CHECK_EQ(warned(&p, "unreadable profile_analyze rows"), 1);
		CHECK(strstr(msg, "row without an operator name") != NULL);
		agg_ops(&p, NULL, &a);
		CHECK_EQ(a.nr, 1);
		if (a.nr == 1)
			CHECK_EQ(a.rows[0].host_self_ns, 0);
		agg_release(&a);
		profile_release(&p);
	}
}

/* Issue 10 item 4: a load_and_run process that dies before its
 * iterations is a run of its own, not the start of the next one. */
static void t_aborted_runs(void)
{
	struct profile p, *r;
	char want[1200];
	const char *path;

	CHECK_EQ(load(&p, FIX "lar-aborted.txt", NULL), 0);
	CHECK_EQ(profile_nr_runs(&p), 3);
	CHECK_EQ(warned(&p, "did not finish"), 2);
	CHECK(strstr(msg, FIX "lar-aborted.txt:9:1: warning: load_and_run run ends at 'Trap' "
		      "before its iterations; it did not finish") != NULL);
	/* What the dead ones printed stays with them, once each. */
	CHECK_EQ(p.nr_steps, 0);
	CHECK_STR(meta(&p, "load model"), "64.512 ms");
	CHECK_STR(meta(&p, "ended by"), "Trap");
	CHECK_STR(meta(&p, "error"), "cuda error 2: out of memory (cudaMalloc)");
	r = profile_run(&p, 1);
	CHECK(r && r->nr_steps == 0);
	CHECK(r && !strcmp(meta(r, "load model"), "65.020 ms") && !meta(r, "prepare"));
	CHECK(r && !strcmp(meta(r, "error"), "weight preprocess is not supported by this model"));
	r = profile_run(&p, 2);
	CHECK(r && r->nr_steps == 3 && !strcmp(meta(r, "load model"), "63.118 ms"));
	CHECK(r && !meta(r, "error") && !meta(r, "ended by"));
	for (size_t i = 0; i < 3; i++) {
		size_t nr_load = 0;

		r = profile_run(&p, i);
		for (const struct meta *mt = r ? r->meta : NULL; mt; mt = mt->next)
			nr_load += !strcmp(mt->key, "load model");
		CHECK_EQ(nr_load, 1);
	}
	profile_release(&p);

	/* dead in the middle of its iterations; "Trap" in prose is prose */
	{
		static const char text[] =
			"Trap is what the shell prints for SIGTRAP.\n"
			"load model: 5.000ms\n"
			"=== going to run input for 3 times\n"
			"iter 0/3: 10.000ms (exec=1.000,device=9.000)\n"
			"Segmentation fault (core dumped)\n"
			"load model: 5.500ms\n"
			"=== prepare: 1.000ms; going to warmup\n";

		path = test_write("segv.log", text, sizeof(text) - 1);
		CHECK_EQ(load(&p, path, NULL), 0);
		CHECK_EQ(profile_nr_runs(&p), 2);
		CHECK_EQ(p.nr_steps, 1);
		CHECK_STR(meta(&p, "ended by"), "Segmentation fault (core dumped)");
		/* the file ends before the second printed its iterations */
		CHECK_EQ(warned(&p, "did not finish"), 2);
		CHECK_EQ(warned(&p, "cut short"), 0);
		snprintf(want, sizeof(want), "%s:5:1: warning: load_and_run run ends at 'Segmentation "
			 "fault (core dumped)' after 1 iteration;", path);
		CHECK(strstr(msg, want) != NULL);
		snprintf(want, sizeof(want), "warning: file ends before the load_and_run run above "
			 "printed its iterations");
		CHECK(strstr(msg, want) != NULL);
		profile_release(&p);
	}
}

static void t_bad_text(void)
{
	struct profile p;
	char want[1200];
	const char *path;

	/* a cut log: iterations missing, a line that does not read */
	{
		static const char text[] =
			"=== going to run input for 4 times\n"
			"iter 0/4: 10.000ms (exec=1.000,device=9.000)\n"
			"iter 1/4: ten ms (exec=1.000,device=9.000)\n"
			"iter 2/4: 10.000ms (exec=1.000,device=9.000)\n";

		path = test_write("cut.log", text, sizeof(text) - 1);
		CHECK_EQ(load(&p, path, NULL), 0);
		CHECK_EQ(p.nr_steps, 2);
		CHECK_EQ(warned(&p, "unreadable load_and_run"), 1);
		snprintf(want, sizeof(want), "%s:3:1: warning: cannot read iteration 'iter 1/4: ten ms", path);
		CHECK(strstr(msg, want) != NULL);
		CHECK_EQ(warned(&p, "out of order or missing"), 1);
		CHECK_EQ(warned(&p, "cut short"), 1);
		profile_release(&p);
	}
	/* a summary that is not the sum of the iterations shown */
	{
		static const char text[] =
			"iter 0/2: 10.000ms (exec=1.000,device=9.000)\n"
			"iter 1/2: 10.000ms (exec=1.000,device=9.000)\n"
			"=== finished test #0: time=30.000ms avg_time=15.000ms sd=7.071ms minmax=10.000,20.000\n";

		path = test_write("sum.log", text, sizeof(text) - 1);
		CHECK_EQ(load(&p, path, NULL), 0);
		CHECK_EQ(warned(&p, "differ from the sum"), 1);
		CHECK_STR(meta(&p, "time"), "30.000 ms");
		profile_release(&p);
	}
	/* binary garbage after a valid start: counted, the steps stay */
	{
		char text[600];
		size_t n = (size_t)snprintf(text, sizeof(text), "%s",
					    "iter 0/2: 10.000ms (exec=1.000,device=9.000)\n");

		for (int i = 0; i < 300; i++)
			text[n++] = (char)(i * 37 % 256);
		text[n++] = '\n';
		path = test_write("garbage.log", text, n);
		CHECK_EQ(load(&p, path, "megengine"), 0);
		CHECK_EQ(p.nr_steps, 1);
		CHECK(warned(&p, "binary data") >= 1);
		profile_release(&p);
	}
	/* the binary test is text_is_binary()'s: one stray control byte in
	 * a line of a log (a bell, a form feed) leaves it text; a line of
	 * them is binary */
	{
		static const char text[] =
			"iter 0/2: 10.000ms (exec=1.000,device=9.000)\n"
			"\fwarning: \a the model was dumped by an older MegBrain\n"
			"\x01\x02\x03\x04\n"
			"iter 1/2: 10.000ms (exec=1.000,device=9.000)\n";

		path = test_write("bell.log", text, sizeof(text) - 1);
		CHECK_EQ(load(&p, path, "megengine"), 0);
		CHECK_EQ(p.nr_steps, 2);
		CHECK_EQ(warned(&p, "binary data"), 1);
		snprintf(want, sizeof(want), "%s:3:1: warning: line holds binary data", path);
		CHECK(strstr(msg, want) != NULL);
		profile_release(&p);
	}
	/* a 6 MB line between two iterations */
	{
		size_t big = 6 * 1024 * 1024;
		char *text = malloc(big + 200);
		size_t n = (size_t)sprintf(text, "iter 0/2: 10.000ms (exec=1.000,device=9.000)\n");

		memset(text + n, 'x', big);
		n += big;
		n += (size_t)sprintf(text + n, "\niter 1/2: 12.000ms (exec=1.000,device=9.000)\n");
		path = test_write("huge.log", text, n);
		CHECK_EQ(load(&p, path, NULL), 0);
		CHECK_EQ(p.nr_steps, 2);
		if (p.nr_steps == 2)
			CHECK_EQ(p.steps[1].total_ns, 12000000);
		profile_release(&p);
		free(text);
	}
	/* forced on a file with nothing of ours */
	path = test_write("list.txt", "milk\neggs\n", 10);
	CHECK_EQ(load(&p, path, "megengine"), -1);
	snprintf(want, sizeof(want), "%s: error: no load_and_run output or profile_analyze table found",
		 path);
	CHECK(strstr(msg, want) != NULL);
	profile_release(&p);
	/* CRLF line ends */
	{
		static const char crlf[] =
			"iter 0/1: 10.000 ms (exec=1.000 ms)\r\n"
			"=== finished test #0: time=10.000 ms avg_time=10.000 ms sexec=nan ms "
			"min=10.000 ms max=10.000 ms\r\n";

		path = test_write("crlf.log", crlf, sizeof(crlf) - 1);
	}
	CHECK_EQ(load(&p, path, NULL), 0);
	CHECK_EQ(nr_warnings(&p), 0);
	CHECK_EQ(p.nr_steps, 1);
	CHECK_STR(meta(&p, "sd"), "nan");
	CHECK_STR(meta(&p, "max"), "10.000 ms");
	profile_release(&p);
}

static void t_bad_json(void)
{
	struct profile p;
	struct agg a;
	char want[1200];
	const char *path;

	{
		static const char text[] =
			"{\"profiler\": {\"device\": {\n"
			"\"1\": {\"gpu0:0\": {\"start\": 0.001, \"kern\": 0.001, \"end\": 0.002}},\n"
			"\"2\": {\"gpu0:0\": {\"start\": 0.002, \"kern\"";

		path = test_write("cut.json", text, sizeof(text) - 1);
		CHECK_EQ(load(&p, path, NULL), 1);
		snprintf(want, sizeof(want), "%s:3:", path);
		CHECK(strstr(msg, want) != NULL);
		CHECK(strstr(msg, "error: unexpected end of file inside the profile (truncated?); "
			      "kept the 1 operators timed before it") != NULL);
		agg_ops(&p, NULL, &a);
		CHECK_EQ(a.nr, 1);
		if (a.nr == 1) {
			/* not in graph_exec: named by its id */
			CHECK_STR(a.rows[0].name, "1");
			CHECK_EQ(a.rows[0].device_self_ns, 1000000);
		}
		agg_release(&a);
		profile_release(&p);
	}
	path = test_write("other.json", "{\"foo\": 1}", 10);
	CHECK_EQ(load(&p, path, "megengine-json"), -1);
	CHECK(strstr(msg, "error: no 'profiler' object: not a MegEngine --profile JSON") != NULL);
	profile_release(&p);

	path = test_write("array.json", "[1, 2]", 6);
	CHECK_EQ(load(&p, path, "megengine-json"), -1);
	CHECK(strstr(msg, ":1:1: error: expected a JSON object at the top level") != NULL);
	profile_release(&p);

	path = test_write("syntax.json", "{\"profiler\": {\"host\": {\"1\": {\"@\": {\"start\": 1,,}}}}}", 51);
	CHECK_EQ(load(&p, path, "megengine-json"), -1);
	snprintf(want, sizeof(want), "%s:1:", path);
	CHECK(strstr(msg, want) != NULL && strstr(msg, "error:") != NULL);
	profile_release(&p);

	{
		static const char text[] =
			"{\"profiler\": {\n"
			"\"device\": {\"1\": {\"gpu0:0\": {\"start\": 0.003, \"kern\": 0.001, \"end\": 0.002}},\n"
			"            \"2\": {\"gpu0:0\": {\"start\": 0.001, \"end\": 0.002}},\n"
			"            \"3\": [1, 2]},\n"
			"\"host\": \"none\",\n"
			"\"opr_footprint\": {\"2\": {\"computation\": \"lots\", \"memory\": -5, "
			"\"in_shapes\": [[1, \"x\"]]}}},\n"
			"\"graph_exec\": {\"operator\": {\"2\": {\"name\": \"b[2]\", \"type\": \"T\"}}}}\n";

		path = test_write("odd.json", text, sizeof(text) - 1);
		CHECK_EQ(load(&p, path, NULL), 0);
		CHECK_EQ(warned(&p, "without a valid start and end"), 1);
		CHECK_EQ(warned(&p, "unexpected values"), 5);
		snprintf(want, sizeof(want), "%s:4:", path);
		CHECK(strstr(msg, want) != NULL);
		agg_ops(&p, NULL, &a);
		CHECK_EQ(a.nr, 1);
		if (a.nr == 1) {
			CHECK_STR(a.rows[0].name, "b[2]");
			CHECK_EQ(a.rows[0].device_self_ns, 1000000);
			CHECK(attr(&a.rows[0], "flops") == NULL);
			CHECK(attr(&a.rows[0], "memory_bytes") == NULL);
			CHECK_STR(attr_s(&a.rows[0], "input_shapes"), "{1}");
		}
		agg_release(&a);
		profile_release(&p);
	}
}

const struct test tests[] = {
	{ "seed 004: load_and_run runs and the profile_analyze table", t_seed_004 },
	{ "every corpus page loads its runs", t_corpus },
	{ "old load_and_run: runs, nan sd, testcases, benchmark mode", t_old_tool },
	{ "v1.7 and lite load_and_run, fitting mode", t_new_tools },
	{ "profile_analyze: host join, aggregate-by type, confluence", t_analyze_fixtures },
	{ "--profile JSON: operators, comp nodes, tree by type", t_profile_json },
	{ "detection by content", t_probe },
	{ "bad profile_analyze tables", t_bad_grid },
	{ "bad load_and_run logs", t_bad_text },
	{ "a load_and_run that died is a run of its own", t_aborted_runs },
	{ "bad --profile JSON", t_bad_json },
	{ 0 },
};
