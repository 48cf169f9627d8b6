// SPDX-License-Identifier: MIT
/*
 * Counters (model/counters.h): the Kineto parser's reading of counter
 * events ("ph":"C") into the profile's side table, bad values dropped
 * with a warning; their series; the series derived from the trace's
 * events (torch-tb-profiler's GPU utilization buckets, queue length,
 * memory); and the utilization against the plugin's own counter series
 * on every corpus trace it made one for.
 */
#include <math.h>
#include <stdlib.h>

#include "model/counters.h"
#include "model/profile.h"
#include "parsers/load.h"
#include "jsonval.h"
#include "test.h"

static bool load_text(struct profile *p, const char *name, const char *text)
{
	const char *path = test_write(name, text, strlen(text));
	const char *paths[1] = { path };
	struct load_options lo = { 0 };

	profile_init(p, path);
	return profile_load(p, paths, 1, &lo) == 0;
}

static const struct counter_series *series_named(const struct counters *c, const char *name)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) > 1 ? fabs(a) : 1);
}

static const char recorded[] =
	"{\"traceEvents\": [\n"
	"{\"ph\": \"C\", \"name\": \"q\", \"pid\": 1, \"ts\": 30, \"args\": {\"a\": 4, \"b\": \"2.5\"}},\n"
	"{\"ph\": \"C\", \"name\": \"q\", \"pid\": 1, \"ts\": 10, \"args\": {\"a\": 1, \"b\": -1}},\n"
	"{\"ph\": \"C\", \"name\": \"q\", \"pid\": 1, \"ts\": 20, \"args\": {\"a\": 2}},\n"
	"{\"ph\": \"C\", \"name\": \"q\", \"pid\": 1, \"ts\": 20, \"args\": {\"a\": 3}},\n"
	"{\"ph\": \"C\", \"name\": \"solo\", \"pid\": 2, \"ts\": 5, \"args\": {\"v\": 7}},\n"
	"{\"ph\": \"C\", \"name\": \"solo\", \"pid\": 3, \"ts\": 5, \"args\": {\"v\": 8}},\n"
	"{\"ph\": \"C\", \"name\": \"bad\", \"pid\": 1, \"ts\": 40, \"args\": {\"nan\": NaN,"
	" \"inf\": 1e999, \"big\": 2e18, \"text\": \"abc\", \"obj\": {}, \"null\": null}},\n"
	"{\"ph\": \"C\", \"name\": \"nots\", \"pid\": 1, \"args\": {\"v\": 1}},\n"
	"{\"ph\": \"C\", \"name\": \"badts\", \"pid\": 1, \"ts\": \"x\", \"args\": {\"v\": 1}},\n"
	"{\"args\": {\"v\": 1}, \"ph\": \"C\", \"name\": \"late\", \"pid\": 1, \"ts\": 1},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": 0,"
	" \"dur\": 50}\n"
	"]}\n";

/* The samples, one per numeric arg, in the file's order; nothing else. */
static void t_parse(void)
{
	struct profile p;

	CHECK(load_text(&p, "counters.json", recorded));
	CHECK_EQ(p.nr_counter_recs, 8);
	if (p.nr_counter_recs == 8) {
		CHECK_STR(p.counter_recs[0].name, "q");
		CHECK_STR(p.counter_recs[0].key, "a");
		CHECK_EQ(p.counter_recs[0].pid, 1);
		CHECK_EQ(p.counter_recs[0].ts_ns, 30000);
		CHECK(p.counter_recs[0].value == 4);
		CHECK_STR(p.counter_recs[1].key, "b");
		CHECK(p.counter_recs[1].value == 2.5);	/* a quoted number */
		CHECK(p.counter_recs[3].value == -1);	/* negative: as written */
		CHECK_EQ(p.counter_recs[7].pid, 3);
	}
	profile_release(&p);
}

/* A load in chunks (parsed on more threads) keeps the same samples, in
 * the same order, and the same warnings. */
static void t_chunks(void)
{
	static const char *const chunks[] = { "64", "97", "211", "512" };
	struct profile plain, p;

	unsetenv("PROFTUI_PARSE_CHUNK");
	CHECK(load_text(&plain, "counters-plain.json", recorded));
	for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
		const struct warning *a, *b;

		setenv("PROFTUI_PARSE_CHUNK", chunks[i], 1);
		CHECK(load_text(&p, "counters-chunks.json", recorded));
		CHECK_EQ(p.nr_counter_recs, plain.nr_counter_recs);
		for (size_t k = 0; k < p.nr_counter_recs && k < plain.nr_counter_recs; k++) {
			CHECK_STR(p.counter_recs[k].name, plain.counter_recs[k].name);
			CHECK_STR(p.counter_recs[k].key, plain.counter_recs[k].key);
			CHECK_EQ(p.counter_recs[k].pid, plain.counter_recs[k].pid);
			CHECK_EQ(p.counter_recs[k].ts_ns, plain.counter_recs[k].ts_ns);
			CHECK(p.counter_recs[k].value == plain.counter_recs[k].value);
		}
		for (a = p.warnings, b = plain.warnings; a && b; a = a->next, b = b->next) {
			CHECK_STR(a->text, b->text);
			CHECK_EQ(a->count, b->count);
		}
		CHECK(!a && !b);
		profile_release(&p);
	}
	unsetenv("PROFTUI_PARSE_CHUNK");
	profile_release(&plain);
}

/* Each bad input has its warning kind. */
static void t_warnings(void)
{
	static const char *const kinds[] = {
		"counter values that are not finite numbers, skipped",
		"counter values out of range, skipped",
		"counter events without a name or timestamp, skipped",
		"counter events with a time that is not a number, skipped",
		"counter events without args after their ph, skipped",
	};
	struct profile p;

	CHECK(load_text(&p, "counters-warn.json", recorded));
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		bool found = false;

		for (const struct warning *w = p.warnings; w; w = w->next)
			found |= !strcmp(w->text, kinds[i]);
		if (!found)
			fprintf(stderr, "no warning '%s'\n", kinds[i]);
		CHECK(found);
	}
	profile_release(&p);
}

/* Series by (pid, name, key), in time order, the last at one time
 * last; named with the key when the name has several, the pid when
 * several processes write it; figures of the step function. */
static void t_series(void)
{
	struct profile p;
	struct counters c;
	const struct counter_series *s;

	CHECK(load_text(&p, "counters-series.json", recorded));
	counters_compute(&p, &c);
	s = series_named(&c, "q a");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->kind, COUNTER_RECORDED);
		CHECK_EQ(s->nr, 4);
		CHECK_EQ(s->points[0].ts_ns, 10000);
		CHECK(s->points[1].value == 2 && s->points[2].value == 3);
		CHECK(s->min == 1 && s->max == 4);
		/* 1 for 10 us, 2 for 0, 3 for 10 us, over 20 us */
		CHECK(near(s->mean, 2.0));
		CHECK_EQ(counter_at(s, 9999), SIZE_MAX);
		CHECK_EQ(counter_at(s, 10000), 0);
		CHECK_EQ(counter_at(s, 20000), 2);	/* the last at that time */
		CHECK_EQ(counter_at(s, 1000000), 3);
	}
	s = series_named(&c, "q b");
	CHECK(s != NULL);
	if (s)
		CHECK(s->nr == 2 && s->points[0].value == -1 && near(s->mean, -1));
	CHECK(series_named(&c, "solo (pid 2)") != NULL);
	CHECK(series_named(&c, "solo (pid 3)") != NULL);
	s = series_named(&c, "solo (pid 3)");
	if (s)
		CHECK(s->nr == 1 && isnan(s->mean));	/* no span */
	CHECK(c.nr >= 4 && !strcmp(c.v[0].name, "q a"));	/* the file's order */
	counters_release(&c);
	profile_release(&p);
}

/* torch-tb-profiler's bucket rule: 10^k us, the least that makes at most
 * 100 buckets; whole buckets only. */
static void t_bucket_rule(void)
{
	int64_t nr;

	CHECK_EQ(counter_bucket_ns(100000, &nr), 1000);
	CHECK_EQ(nr, 100);
	CHECK_EQ(counter_bucket_ns(100001, &nr), 10000);
	CHECK_EQ(nr, 10);
	CHECK_EQ(counter_bucket_ns(13896000, &nr), 1000000);
	CHECK_EQ(nr, 13);
	CHECK_EQ(counter_bucket_ns(999, &nr), 1000);
	CHECK_EQ(nr, 0);
	CHECK_EQ(counter_bucket_ns(INT64_MAX / 2, &nr) > 0, 1);
}

static const char kernels[] =
	"{\"traceEvents\": [\n"
	"{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (0)\", \"pid\": \"T\","
	" \"tid\": \"T\", \"ts\": 0, \"dur\": 250},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": 1,"
	" \"dur\": 100, \"args\": {\"External id\": 1}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1,"
	" \"tid\": 1, \"ts\": 2, \"dur\": 3, \"args\": {\"correlation\": 5, \"External id\": 1}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"pid\": 0, \"tid\": 7, \"ts\": 5,"
	" \"dur\": 20, \"args\": {\"correlation\": 5, \"device\": 0, \"stream\": 7}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"pid\": 0, \"tid\": 8, \"ts\": 15,"
	" \"dur\": 20, \"args\": {\"device\": 0, \"stream\": 8}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k3\", \"pid\": 0, \"tid\": 7, \"ts\": 225,"
	" \"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7}}\n"
	"]}\n";

/* The buckets over the profiler's span (250 us: 10 us buckets, 25 of
 * them): the union of the kernels' time in each, 0 at the end. */
static void t_utilization(void)
{
	struct profile p;
	struct counters c;
	const struct counter_series *s;

	CHECK(load_text(&p, "counters-util.json", kernels));
	CHECK(p.has_profiler_span);
	counters_compute(&p, &c);
	CHECK_EQ(c.util_bucket_ns, 10000);
	s = series_named(&c, "GPU 0 utilization");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->kind, COUNTER_DERIVED);
		CHECK_EQ(s->unit, COUNTER_FRACTION);
		CHECK_EQ(s->nr, 26);
		if (s->nr == 26) {
			CHECK(near(s->points[0].value, 0.5));	/* 5..10 */
			CHECK(near(s->points[1].value, 1.0));	/* k1 and k2 overlap */
			CHECK(near(s->points[2].value, 1.0));
			CHECK(near(s->points[3].value, 0.5));	/* to 35 */
			CHECK(near(s->points[4].value, 0));
			CHECK(near(s->points[22].value, 0.5));	/* k3 from 225 */
			CHECK(near(s->points[23].value, 0.5));	/* to 235 */
			CHECK_EQ(s->points[25].ts_ns, 250000);
			CHECK(s->points[25].value == 0);
			/* the mean is the share of the span: 40 of 250 us */
			CHECK(near(s->mean, 40.0 / 250.0));
		}
	}
	/* The queue of the launched kernel, on its stream. */
	s = series_named(&c, "queue GPU 0 stream 7");
	CHECK(s != NULL);
	if (s)
		CHECK(s->nr == 2 && s->max == 1 && s->points[0].ts_ns == 2000);
	counters_release(&c);
	profile_release(&p);
}

static const char memory[] =
	"{\"traceEvents\": [\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": 0,"
	" \"dur\": 100},\n"
	"{\"ph\": \"i\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"args\":"
	" {\"Device Type\": 1, \"Device Id\": 0, \"Addr\": 16, \"Bytes\": 512,"
	" \"Total Allocated\": 512, \"Total Reserved\": 2048}},\n"
	"{\"ph\": \"i\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 30, \"args\":"
	" {\"Device Type\": 1, \"Device Id\": 0, \"Addr\": 16, \"Bytes\": -512,"
	" \"Total Allocated\": 0, \"Total Reserved\": 2048}}\n"
	"]}\n";

static void t_memory(void)
{
	struct profile p;
	struct counters c;
	const struct counter_series *s;

	CHECK(load_text(&p, "counters-mem.json", memory));
	counters_compute(&p, &c);
	s = series_named(&c, "memory GPU0");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->unit, COUNTER_BYTES);
		CHECK(s->nr == 2 && s->max == 512 && s->min == 0 && near(s->mean, 512));
	}
	counters_release(&c);
	profile_release(&p);
}

/*
 * proftui's GPU utilization equals the plugin's "GPU N Utilization"
 * counters on every corpus trace it made them for (generated/
 * *__gpu_metrics.json, util_counters): the same buckets, the same
 * values.  The plugin's first two samples of each GPU (1, then 0, at the
 * start) only fix its chart's scale: not data, not compared.
 */
static int32_t pid_of(const struct jv *pid)
{
	return (int32_t)pid->num;
}

struct starts {
	int64_t *v;
	size_t nr, alloc;
	int32_t device;
};

static bool collect_start(struct node *n, void *ctx)
{
	struct starts *k = ctx;
	const struct launch *l;

	if (n->kind == NODE_KERNEL && node_is_timed(n) && (l = node_launch(n)) &&
	    l->device == k->device) {
		GROW(k->v, k->alloc, k->nr + 1);
		k->v[k->nr++] = n->start_ns;
	}
	return true;
}

/* DEVICE's kernels that start in [FROM, TO). */
static size_t kernels_in(const struct profile *p, int32_t device, int64_t from, int64_t to)
{
	struct starts k = { .device = device };
	size_t n = 0;

	node_walk(p->root, collect_start, &k);
	for (size_t i = 0; i < k.nr; i++)
		n += k.v[i] >= from && k.v[i] < to;
	free(k.v);
	return n;
}

static void compare_one(const char *gen, const char *trace, int *nr_checked)
{
	struct jv doc;
	const struct jv *util;
	struct profile p;
	struct counters c;
	const char *paths[1] = { trace };
	struct load_options lo = { 0 };
	char name[64];

	if (jv_load(gen, &doc))
		return;
	util = jv_get(&doc, "util_counters");
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	counters_compute(&p, &c);
	for (size_t i = 0; util && util->type == JV_ARR && i < util->nr;) {
		const struct jv *pid = jv_get(&util->items[i], "pid");
		const struct counter_series *s;
		size_t from = i, k = 0;
		bool ok = true;
		double worst = 0;

		while (i < util->nr && jv_get(&util->items[i], "pid")->num == pid->num)
			i++;
		snprintf(name, sizeof(name), "GPU %d utilization", (int)pid->num);
		s = series_named(&c, name);
		CHECK(s != NULL);
		if (!s)
			continue;
		CHECK_EQ(s->nr, i - from - 2);
		for (size_t j = from + 2; j < i && k < s->nr; j++, k++) {
			const struct jv *ev = &util->items[j];
			double ts = jv_get(ev, "ts")->num;
			double v = jv_get(jv_get(ev, "args"), "GPU Utilization")->num;

			/* an epoch time in us as a double is 0.25 us coarse */
			double bucket_us = (double)c.util_bucket_ns / 1e3;

			/* The plugin's times are doubles of microseconds: each
			 * end of a kernel's range is rounded to an ulp of its
			 * timestamp (0.25 us for an epoch time), ours are
			 * exact (proftui(1), DIFFERENCES).  A bucket's busy
			 * time may differ by an ulp for each end of a kernel
			 * in it (and the one reaching into it), no more. */
			double ulp = nextafter(fabs(ts), INFINITY) - fabs(ts);
			int64_t b0 = s->points[k].ts_ns;
			int64_t b1 = k + 1 < s->nr ? s->points[k + 1].ts_ns : b0;
			double tol = ulp * (double)(2 * kernels_in(&p, pid_of(pid), b0, b1) + 2);

			ok &= fabs(ts - (double)s->points[k].ts_ns / 1e3) <= ulp + 1e-3;
			ok &= fabs(v - s->points[k].value) * bucket_us <= tol;
			worst = fmax(worst, fabs(v - s->points[k].value) * bucket_us);
		}
		if (!ok)
			fprintf(stderr, "%s: %s differs by %g us\n", gen, name, worst);
		if (getenv("COUNTERS_VERBOSE"))
			fprintf(stderr, "%s: %s: %zu buckets, at most %g us apart\n", gen, name,
				s->nr, worst);
		CHECK(ok);
		++*nr_checked;
	}
	counters_release(&c);
	profile_release(&p);
	jv_free(&doc);
}

static void t_plugin_parity(void)
{
	static const char *const bases[] = {
		"hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto",
		"hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace",
		"hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace",
		"hta_triton_example_triton_example",
		"tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace",
		"tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace",
		"tracelens_h100_bert-small-uncased__1016001",
	};
	const char *dir = test_corpus_dir();
	int nr_checked = 0, nr_files = 0;

	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		char gen[1024], trace[1024];
		FILE *f;

		snprintf(gen, sizeof(gen), "%s/tb-plugin-expected/generated/%s__gpu_metrics.json",
			 dir, bases[i]);
		snprintf(trace, sizeof(trace), "%s/pytorch-kineto-trace/%s.json.gz", dir, bases[i]);
		if (!(f = fopen(gen, "r")))
			continue;
		fclose(f);
		nr_files++;
		compare_one(gen, trace, &nr_checked);
	}
	if (!nr_files)
		SKIP("no tb-plugin-expected/generated/*__gpu_metrics.json in the corpus");
	CHECK(nr_checked >= nr_files);
}

/* The plugin's own counter events appended to a trace: read as they are
 * (16 utilization samples, 62 SM efficiency ones). */
static void t_plugin_counters(void)
{
	char path[1024];
	const char *paths[1] = { path };
	struct load_options lo = { 0 };
	struct profile p;
	struct counters c;
	const struct counter_series *s, *d;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tb-plugin-expected/gpu_metrics_expected.json",
		 test_corpus_dir());
	if (!(f = fopen(path, "r")))
		SKIP("no tb-plugin-expected/gpu_metrics_expected.json in the corpus");
	fclose(f);
	profile_init(&p, path);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	counters_compute(&p, &c);
	s = series_named(&c, "GPU 0 Utilization");
	CHECK(s != NULL);
	if (s)
		CHECK(s->nr == 16 && s->max == 1 && s->kind == COUNTER_RECORDED);
	s = series_named(&c, "GPU 0 Est. SM Efficiency");
	CHECK(s != NULL);
	if (s)
		CHECK_EQ(s->nr, 62);
	/* Its utilization is in percent (an earlier plugin): proftui's
	 * buckets of the same trace, as fractions, are its values / 100. */
	s = series_named(&c, "GPU 0 Utilization");
	d = series_named(&c, "GPU 0 utilization");
	CHECK(s && d);
	if (s && d && s->nr == d->nr + 2) {
		for (size_t k = 0; k < d->nr; k++) {
			CHECK_EQ(s->points[k + 2].ts_ns, d->points[k].ts_ns);
			CHECK(fabs(s->points[k + 2].value - 100 * d->points[k].value) < 1e-9);
		}
	} else {
		CHECK(0);
	}
	counters_release(&c);
	profile_release(&p);
}

/* Many samples of many series stay well within the CPU bound. */
static void t_linear(void)
{
	size_t n = 200000, len = 0, cap = n * 90 + 64;
	char *text = xmalloc(cap);
	struct profile p;
	struct counters c;
	double t0;

	len += (size_t)snprintf(text + len, cap - len, "{\"traceEvents\": [\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"{\"ph\": \"C\", \"name\": \"c%zu\", \"pid\": 1, \"ts\": %zu,"
					" \"args\": {\"v\": %zu}},\n", i % 5000, n - i, i);
	len += (size_t)snprintf(text + len, cap - len,
				"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1,"
				" \"tid\": 1, \"ts\": 0, \"dur\": 1}]}\n");
	CHECK(load_text(&p, "counters-many.json", text));
	t0 = test_cpu_s();
	counters_compute(&p, &c);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(c.nr, 5000);
	counters_release(&c);
	profile_release(&p);
	free(text);
}

const struct test tests[] = {
	{ "counter events are read into the side table", t_parse },
	{ "bad counter events and values are warned about", t_warnings },
	{ "counter events read in chunks", t_chunks },
	{ "counter series and their figures", t_series },
	{ "the utilization bucket rule", t_bucket_rule },
	{ "GPU utilization, queue length derived", t_utilization },
	{ "memory allocated derived", t_memory },
	{ "GPU utilization equals the plugin's series", t_plugin_parity },
	{ "the plugin's counter events are read", t_plugin_counters },
	{ "counters are computed in n log n", t_linear },
	{ 0 },
};
