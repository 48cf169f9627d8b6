/* SPDX-License-Identifier: MIT */
/*
 * The idle-time breakdown (model/idle.c) against Holistic Trace
 * Analysis's get_idle_time_breakdown() on every corpus trace where HTA
 * produced one (corpus/hta-expected and hta-expected-multi, <base>__hta_idle_time_breakdown.json,
 * README.md there, section 3).  proftui is run under HTA's conditions,
 * through idle_options only: timestamps rounded to whole microseconds as
 * HTA's parser rounds a trace with fractional ones, and only the work
 * launched before the last ProfilerStep when the trace has two or more.
 * Every stream, in HTA's order; per category its idle time within 1 us,
 * its ratio within 0.01, and its gaps' count exactly and statistics
 * within 1 us (HTA rounds each figure to 2 decimals: 0.005 more).
 */
#include <math.h>

#include "model/idle.h"
#include "parsers/load.h"
#include "test.h"
#include "jsonval.h"
#include "hta-cases.h"
#include "hta-step.h"


static int nr_bad;

static void near(const char *what, const char *where, double ours, double ref, double tol)
{
	if (isnan(ours) && isnan(ref))
		return;
	if (isnan(ours) != isnan(ref) || fabs(ours - ref) > tol) {
		if (nr_bad++ < 20)
			fprintf(stderr, "  %s %s: proftui %.17g, HTA %.17g\n", where, what, ours, ref);
		test_failed = 1;
	}
}

static const struct idle_stream *find_stream(const struct idle_breakdown *b, double stream)
{
	for (size_t i = 0; i < b->nr_streams; i++)
		if (b->streams[i].stream == stream)
			return &b->streams[i];
	return NULL;
}

static int category_of(const char *name)
{
	for (int c = 0; c < NR_IDLE_CATEGORIES; c++)
		if (!strcmp(idle_category_name(c), name))
			return c;
	return -1;
}

static const struct jv *cell(const struct jv *row, int col)
{
	return col >= 0 && (size_t)col < row->nr ? &row->items[col] : NULL;
}

static void check_idle_time(const struct idle_breakdown *b, const struct jv *f)
{
	const struct jv *data = jv_get(f, "data");
	int c_stream = column(f, "stream"), c_cat = column(f, "idle_category");
	int c_time = column(f, "idle_time"), c_ratio = column(f, "idle_time_ratio");
	size_t nr_streams = 0;
	double last = NAN;

	for (size_t i = 0; data && i < data->nr; i++) {
		const struct jv *row = &data->items[i];
		double stream = jnum(cell(row, c_stream));
		const struct jv *cat = cell(row, c_cat);
		const struct idle_stream *s = find_stream(b, stream);
		int c = cat && cat->type == JV_STR ? category_of(cat->str) : -1;
		char where[64];

		if (stream != last) {
			/* HTA's order of streams is ours. */
			if (nr_streams >= b->nr_streams || b->streams[nr_streams].stream != stream) {
				fprintf(stderr, "  stream %g is not number %zu of ours\n", stream,
					nr_streams);
				test_failed = 1;
			}
			nr_streams++;
			last = stream;
		}
		snprintf(where, sizeof(where), "stream %g %s", stream, cat ? cat->str : "?");
		if (!s || c < 0) {
			fprintf(stderr, "  %s: not in proftui's\n", where);
			test_failed = 1;
			continue;
		}
		near("idle_time", where, s->idle_ns[c] / 1e3, jnum(cell(row, c_time)), 1.005);
		near("idle_time_ratio", where, s->ratio[c], jnum(cell(row, c_ratio)), 0.01 + 0.005);
	}
	CHECK_EQ(nr_streams, b->nr_streams);
}

static void check_stats(const struct idle_breakdown *b, const struct jv *f)
{
	static const char *const names[] = { "mean", "std", "min", "25%", "50%", "75%", "max" };
	const struct jv *data = jv_get(f, "data"), *index = jv_get(f, "index");
	int c_stream = column(f, "stream"), c_count = column(f, "count");
	int cols[7];

	for (int k = 0; k < 7; k++)
		cols[k] = column(f, names[k]);
	for (size_t i = 0; data && index && i < data->nr && i < index->nr; i++) {
		const struct jv *row = &data->items[i];
		double stream = jnum(cell(row, c_stream));
		const struct idle_stream *s = find_stream(b, stream);
		int c = index->items[i].type == JV_STR ? category_of(index->items[i].str) : -1;
		const struct describe *st;
		double ours[7];
		char where[64];

		snprintf(where, sizeof(where), "stream %g %s stats", stream,
			 c >= 0 ? idle_category_name(c) : "?");
		if (!s || c < 0) {
			fprintf(stderr, "  %s: not in proftui's\n", where);
			test_failed = 1;
			continue;
		}
		st = &s->stats[c];
		near("count", where, (double)st->count, jnum(cell(row, c_count)), 0);
		ours[0] = st->mean, ours[1] = st->std, ours[2] = st->min, ours[3] = st->p25;
		ours[4] = st->p50, ours[5] = st->p75, ours[6] = st->max;
		for (int k = 0; k < 7; k++)
			near(names[k], where, ours[k] / 1e3, jnum(cell(row, cols[k])), 1.005);
	}
}

static void check_case(size_t i)
{
	char trace[1024], path[1200];
	const char *corpus = test_corpus_dir();
	const char *paths[1];
	struct load_options lo = { 0 };
	struct idle_options o;
	struct idle_breakdown b;
	struct profile p;
	struct jv doc;
	const struct jv *result;
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/%s", corpus, hta_cases[i].trace);
	snprintf(path, sizeof(path), "%s/%s__hta_idle_time_breakdown.json", corpus, hta_cases[i].expected);
	if (!(f = fopen(trace, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	nr_bad = 0;
	paths[0] = trace;
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	idle_options_default(&o);
	o.round_like_hta = true;
	/* HTA drops the last ProfilerStep (the host range) and what was
	 * launched in it. */
	hta_last_step(&p, &o.launched_before_ns);
	idle_compute(&p, &o, &b);
	CHECK_EQ(jv_load(path, &doc), 0);
	result = jv_get(&doc, "result");
	CHECK(result != NULL);
	if (result) {
		check_idle_time(&b, jv_get(result, "idle_time"));
		check_stats(&b, jv_get(result, "interval_stats"));
	}
	jv_free(&doc);
	idle_release(&b);
	profile_release(&p);
}

/* The CPU-only trace: HTA raises (no GPU events); proftui has no stream. */
static void t_cpu_only(void)
{
	char trace[1024];
	const char *corpus = test_corpus_dir();
	const char *paths[1] = { trace };
	struct load_options lo = { 0 };
	struct idle_breakdown b;
	struct profile p;
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/pytorch-kineto-trace/%s", corpus,
		 "hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
	if (!(f = fopen(trace, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	idle_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_streams, 0);
	idle_release(&b);
	profile_release(&p);
}

static void t_amd(void) { check_case(0); }
static void t_simple_add(void) { check_case(1); }
static void t_ns_resolution(void) { check_case(2); }
static void t_triton(void) { check_case(3); }
static void t_resnet0(void) { check_case(4); }
static void t_resnet4(void) { check_case(5); }
static void t_bert(void) { check_case(6); }
static void t_diff_control(void) { check_case(7); }
static void t_diff_test(void) { check_case(8); }
static void t_multi_resnet0(void) { check_case(9); }
static void t_multi_resnet4(void) { check_case(10); }

const struct test tests[] = {
	{ "amd mi250", t_amd },
	{ "simple add", t_simple_add },
	{ "ns resolution", t_ns_resolution },
	{ "triton", t_triton },
	{ "resnet50 workers 0", t_resnet0 },
	{ "resnet50 workers 4", t_resnet4 },
	{ "bert h100", t_bert },
	{ "trace diff control", t_diff_control },
	{ "trace diff test", t_diff_test },
	{ "multi resnet50 workers 0", t_multi_resnet0 },
	{ "multi resnet50 workers 4", t_multi_resnet4 },
	{ "cpu only: no stream", t_cpu_only },
	{ 0 },
};
