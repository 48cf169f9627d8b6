/* SPDX-License-Identifier: MIT */
/*
 * Kernel launch statistics (model/launch_stats.c) against Holistic Trace
 * Analysis's get_cuda_kernel_launch_stats() on every corpus trace where
 * HTA produced them (corpus/hta-expected and hta-expected-multi,
 * <base>__hta_cuda_kernel_launch_stats.json, README.md there, section 6).
 * proftui is run under HTA's conditions, through launch_options only: its
 * launch calls (cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync,
 * cudaMemsetAsync, MTIA's runFunction), timestamps rounded to whole
 * microseconds as HTA's parser rounds a trace with fractional ones, and
 * only the launches made before the last ProfilerStep when the trace has
 * two or more.  The row count exactly; every row's cpu_duration,
 * gpu_duration and launch_delay within 1 us; the derived counts (short
 * kernels, runtime outliers, launch-delay outliers) exactly.
 *
 * The load keeps no correlation id: the test reads the trace's events
 * itself (an event at a time) for each correlation's host and GPU start,
 * gives each of our rows the correlation of its call's and work's starts,
 * and matches the rows by correlation (a correlation with several GPU
 * events, as cudaGraphLaunch makes, by their figures in order).
 *
 * Where HTA's frame is empty (the ROCm trace launches with hip* calls,
 * the Triton example with cuLaunchKernel, the CPU-only trace has no GPU),
 * proftui with HTA's set has no row either, and with its own set counts
 * what the trace links (the hip* launches on ROCm, Triton's
 * cuLaunchKernel).
 */
#include <math.h>

#include "model/launch_stats.h"
#include "parsers/input.h"
#include "parsers/load.h"
#include "test.h"
#include "jsonval.h"
#include "hta-json.h"
#include "hta-step.h"
#include "decimal-ns.h"

struct hta_case {
	const char *trace;		/* under the corpus */
	const char *expected;		/* under the corpus, without the suffix */
};

static const struct hta_case cases[] = {
	{ "pytorch-kineto-trace/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace"
	  ".json.gz",
	  "hta-expected/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace" },
	{ "pytorch-kineto-trace/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	  "hta-expected/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace" },
	{ "pytorch-kineto-trace/tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  "hta-expected/tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace" },
	{ "pytorch-kineto-trace/tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  "hta-expected/tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace" },
	{ "pytorch-kineto-trace/tracelens_h100_bert-small-uncased__1016001.json.gz",
	  "hta-expected/tracelens_h100_bert-small-uncased__1016001" },
	{ "pytorch-kineto-multi/hta_trace_diff/control.json.gz",
	  "hta-expected-multi/hta_trace_diff/control" },
	{ "pytorch-kineto-multi/hta_trace_diff/test.json.gz", "hta-expected-multi/hta_trace_diff/test" },
	{ "pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  "hta-expected-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_0__worker0.1623143089861.pt.trace" },
	{ "pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  "hta-expected-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_4__worker0.1623212756351.pt.trace" },
	/* HTA's frame is empty on these. */
	{ "pytorch-kineto-trace/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	  "hta-expected/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto" },
	{ "pytorch-kineto-trace/hta_triton_example_triton_example.json.gz",
	  "hta-expected/hta_triton_example_triton_example" },
	{ "pytorch-kineto-trace/hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
	  "hta-expected/hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace" },
};

/* A row: its correlation and three figures, in microseconds. */
struct fig {
	double corr;
	double v[3];			/* cpu_duration, gpu_duration, launch_delay */
};

static int cmp_fig(const void *a, const void *b)
{
	const struct fig *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	for (int k = 0; k < 3; k++)
		if (x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? -1 : 1;
	return 0;
}

/* A pair of the trace's events of one correlation: the host call's start
 * and the GPU event's (ns). */
struct pair {
	int64_t cpu_ns, gpu_ns;
	double corr;
};

struct side {
	double corr;
	int64_t ns;
};

static int cmp_side(const void *a, const void *b)
{
	const struct side *x = a, *y = b;

	return (x->corr > y->corr) - (x->corr < y->corr);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns < y->cpu_ns ? -1 : 1;
	return (x->gpu_ns > y->gpu_ns) - (x->gpu_ns < y->gpu_ns);
}

static const char *jstr(const struct jv *v)
{
	return v && (v->type == JV_STR || v->type == JV_NUM) ? v->str : NULL;
}

/* Whether category CAT is a host API's (cuda_runtime, cuda_driver, old
 * traces' Runtime...), in any case. */
static bool is_api_cat(const char *cat)
{
	char low[64];
	size_t n = strlen(cat);

	if (n >= sizeof(low))
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)(cat[i] >= 'A' && cat[i] <= 'Z' ? cat[i] - 'A' + 'a' : cat[i]);
	return !strcmp(low, "runtime") || (n > 8 && !strcmp(low + n - 8, "_runtime")) ||
	       (n > 7 && !strcmp(low + n - 7, "_driver"));
}

/* The trace PATH's pairs of a host API call and a GPU event (args.stream
 * set and not -1) sharing args.correlation, into *OUT sorted by starts. */
static size_t trace_pairs(const char *path, struct pair **out)
{
	struct side *cpu = NULL, *gpu = NULL;
	size_t nr_cpu = 0, nr_gpu = 0, a_cpu = 0, a_gpu = 0, n = 0, alloc = 0;
	struct input in;
	struct diag d;
	struct json j;
	enum json_tok t;

	*out = NULL;
	diag_init(&d, path, stderr, NULL);
	if (input_open(&in, path, &d))
		return 0;
	json_init(&j, &in, &d);
	t = json_next(&j);
	while (t != JSON_EOF && t != JSON_ERROR) {
		t = json_next(&j);
		if (t == JSON_KEY && json_is(&j, "traceEvents"))
			break;
		if (t == JSON_KEY)
			t = json_skip(&j, json_next(&j));
	}
	if (t == JSON_KEY && json_next(&j) == JSON_ARR_BEGIN)
		while ((t = json_next(&j)) != JSON_ARR_END && t != JSON_EOF && t != JSON_ERROR) {
			struct jv e;
			const struct jv *args;
			const char *cat, *ts, *stream;
			double corr;

			if (jv_read(&j, t, &e))
				break;
			args = jv_get(&e, "args");
			cat = jstr(jv_get(&e, "cat"));
			ts = jstr(jv_get(&e, "ts"));
			corr = args ? jnum(jv_get(args, "correlation")) : NAN;
			stream = args ? jstr(jv_get(args, "stream")) : NULL;
			if (cat && ts && jv_get(&e, "dur") && !isnan(corr)) {
				if (stream && strcmp(stream, "-1")) {
					GROW(gpu, a_gpu, nr_gpu + 1);
					gpu[nr_gpu++] = (struct side){ corr, decimal_ns(ts) };
				} else if (!stream && is_api_cat(cat)) {
					GROW(cpu, a_cpu, nr_cpu + 1);
					cpu[nr_cpu++] = (struct side){ corr, decimal_ns(ts) };
				}
			}
			jv_free(&e);
		}
	json_release(&j);
	input_close(&in);
	/* No array at all where there is nothing: qsort and bsearch take
	 * no NULL, even for 0 items (UBSan). */
	if (nr_cpu)
		qsort(cpu, nr_cpu, sizeof(*cpu), cmp_side);
	if (nr_gpu)
		qsort(gpu, nr_gpu, sizeof(*gpu), cmp_side);
	for (size_t c = 0, g = 0; c < nr_cpu && g < nr_gpu;) {
		if (cpu[c].corr < gpu[g].corr) {
			c++;
		} else if (gpu[g].corr < cpu[c].corr) {
			g++;
		} else {
			GROW(*out, alloc, n + 1);
			(*out)[n++] = (struct pair){ cpu[c].ns, gpu[g].ns, cpu[c].corr };
			g++;
		}
	}
	free(cpu);
	free(gpu);
	if (n)
		qsort(*out, n, sizeof(**out), cmp_pair);
	return n;
}

/* The correlation of the pair of PAIRS[0..N) with these starts; NaN. */
static double find_corr(const struct pair *pairs, size_t n, int64_t cpu_ns, int64_t gpu_ns)
{
	struct pair key = { cpu_ns, gpu_ns, 0 };
	const struct pair *hit = n ? bsearch(&key, pairs, n, sizeof(*pairs), cmp_pair) : NULL;

	return hit ? hit->corr : NAN;
}

/* The one rank's member of OBJ (an object keyed by rank), or NULL. */
static const struct jv *only_rank(const struct jv *obj)
{
	if (!obj || obj->type != JV_OBJ || obj->nr != 1)
		return NULL;
	return &obj->items[0];
}

/* HTA's rows of frame F against ours, S, of the trace at TRACE. */
static void check_rows(const struct launch_stats *s, const struct jv *f, const char *trace)
{
	static const char *const names[3] = { "cpu_duration", "gpu_duration", "launch_delay" };
	const struct jv *data = f ? jv_get(f, "data") : NULL;
	struct fig *ours, *ref;
	struct pair *pairs;
	size_t n = data ? data->nr : 0, nr_bad = 0, nr_pairs;
	int cols[3], c_corr;

	CHECK(data != NULL);
	CHECK_EQ(s->nr, n);
	if (!data || s->nr != n)
		return;
	for (int k = 0; k < 3; k++)
		cols[k] = column(f, names[k]);
	c_corr = column(f, "correlation");
	nr_pairs = trace_pairs(trace, &pairs);
	ours = xcalloc(n + 1, sizeof(*ours));
	ref = xcalloc(n + 1, sizeof(*ref));
	for (size_t i = 0; i < n; i++) {
		const struct jv *row = &data->items[i];

		ours[i].corr = find_corr(pairs, nr_pairs, node_parent(s->rows[i].work)->start_ns,
					 s->rows[i].work->start_ns);
		if (isnan(ours[i].corr) && nr_bad++ < 10) {
			fprintf(stderr, "  no correlation of the trace for launch %zu\n", i);
			test_failed = 1;
		}
		ref[i].corr = c_corr >= 0 && (size_t)c_corr < row->nr ? jnum(&row->items[c_corr]) : NAN;
		ours[i].v[0] = s->rows[i].cpu_ns / 1e3;
		ours[i].v[1] = s->rows[i].gpu_ns / 1e3;
		ours[i].v[2] = s->rows[i].delay_ns / 1e3;
		for (int k = 0; k < 3; k++)
			ref[i].v[k] = cols[k] >= 0 && (size_t)cols[k] < row->nr
					      ? jnum(&row->items[cols[k]])
					      : NAN;
	}
	qsort(ours, n, sizeof(*ours), cmp_fig);
	qsort(ref, n, sizeof(*ref), cmp_fig);
	for (size_t i = 0; i < n; i++) {
		if (ours[i].corr != ref[i].corr) {
			if (nr_bad++ < 10)
				fprintf(stderr, "  sorted row %zu: proftui's correlation %.17g, HTA's %.17g\n",
					i, ours[i].corr, ref[i].corr);
			test_failed = 1;
			continue;
		}
		for (int k = 0; k < 3; k++)
			if (!(fabs(ours[i].v[k] - ref[i].v[k]) <= 1.0)) {
				if (nr_bad++ < 10)
					fprintf(stderr, "  correlation %.17g %s: proftui %.17g, HTA %.17g\n",
						ours[i].corr, names[k], ours[i].v[k], ref[i].v[k]);
				test_failed = 1;
			}
	}
	free(pairs);
	free(ours);
	free(ref);
}

static void check_counts(const struct launch_stats *s, const struct jv *c)
{
	CHECK(c != NULL);
	if (!c)
		return;
	CHECK_EQ((double)s->sum.nr_launches, jnum(jv_get(c, "rows")));
	CHECK_EQ((double)s->sum.nr_short, jnum(jv_get(c, "short_kernels")));
	CHECK_EQ((double)s->sum.nr_runtime_outliers, jnum(jv_get(c, "runtime_outliers")));
	CHECK_EQ((double)s->sum.nr_delay_outliers, jnum(jv_get(c, "launch_delay_outliers")));
}

/* Load case I into P; false (skipped) without the corpus. */
static bool load_case(size_t i, struct profile *p)
{
	char trace[1024];
	const char *paths[1] = { trace };
	struct load_options lo = { 0 };
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/%s", test_corpus_dir(), cases[i].trace);
	if (!(f = fopen(trace, "rb")))
		return false;
	fclose(f);
	profile_init(p, cases[i].trace);
	CHECK(profile_load(p, paths, 1, &lo) == 0);
	return true;
}

static void hta_options(const struct profile *p, struct launch_options *o)
{
	launch_options_default(o);
	o->hta_launch_set = true;
	o->round_like_hta = true;
	/* HTA drops the last ProfilerStep (the host range) and what was
	 * launched in it. */
	hta_last_step(p, &o->launched_before_ns);
}

static void check_case(size_t i)
{
	char path[1200];
	struct launch_options o;
	struct launch_stats s;
	struct profile p;
	struct jv doc;
	const struct jv *result;

	if (!load_case(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	snprintf(path, sizeof(path), "%s/%s__hta_cuda_kernel_launch_stats.json", test_corpus_dir(),
		 cases[i].expected);
	hta_options(&p, &o);
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(jv_load(path, &doc), 0);
	result = jv_get(&doc, "result");
	CHECK(result != NULL);
	if (result) {
		char trace[1024];

		snprintf(trace, sizeof(trace), "%s/%s", test_corpus_dir(), cases[i].trace);
		check_rows(&s, only_rank(jv_get(result, "per_rank")), trace);
		check_counts(&s, only_rank(jv_get(result, "derived_counts")));
	}
	jv_free(&doc);
	launch_stats_release(&s);
	profile_release(&p);
}

/* Case I, where HTA's frame is empty: so is ours with HTA's set; with
 * proftui's own set, ALL_NAMED (a prefix: "hip") names every launching
 * call, and there are at least MIN of them. */
static void check_empty(size_t i, const char *all_named, size_t min)
{
	struct launch_stats s;
	struct launch_options o;
	struct profile p;

	if (!load_case(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	check_case(i);
	hta_options(&p, &o);
	launch_stats_compute(&p, &o, &s);
	CHECK_EQ(s.nr, 0);
	launch_stats_release(&s);
	launch_stats_compute(&p, NULL, &s);
	CHECK(s.nr >= min);
	for (size_t k = 0; k < s.nr; k++)
		if (strncmp(node_name(node_parent(s.rows[k].work)), all_named, strlen(all_named))) {
			fprintf(stderr, "  launch %zu by %s\n", k, node_name(node_parent(s.rows[k].work)));
			test_failed = 1;
			break;
		}
	fprintf(stderr, "  %s: HTA 0 launches, proftui %zu\n", cases[i].trace, s.nr);
	launch_stats_release(&s);
	profile_release(&p);
}

static void t_simple_add(void) { check_case(0); }
static void t_ns_resolution(void) { check_case(1); }
static void t_resnet0(void) { check_case(2); }
static void t_resnet4(void) { check_case(3); }
static void t_bert(void) { check_case(4); }
static void t_diff_control(void) { check_case(5); }
static void t_diff_test(void) { check_case(6); }
static void t_multi_resnet0(void) { check_case(7); }
static void t_multi_resnet4(void) { check_case(8); }
static void t_amd(void) { check_empty(9, "hip", 1); }
static void t_triton(void) { check_empty(10, "cuLaunchKernel", 1); }
static void t_cpu_only(void) { check_empty(11, "", 0); }

const struct test tests[] = {
	{ "simple add", t_simple_add },
	{ "ns resolution", t_ns_resolution },
	{ "resnet50 workers 0", t_resnet0 },
	{ "resnet50 workers 4", t_resnet4 },
	{ "bert h100", t_bert },
	{ "trace diff control", t_diff_control },
	{ "trace diff test", t_diff_test },
	{ "multi resnet50 workers 0", t_multi_resnet0 },
	{ "multi resnet50 workers 4", t_multi_resnet4 },
	{ "amd mi250: HTA none, proftui its hip launches", t_amd },
	{ "triton: HTA none, proftui its cuLaunchKernel", t_triton },
	{ "cpu only: none", t_cpu_only },
	{ 0 },
};
