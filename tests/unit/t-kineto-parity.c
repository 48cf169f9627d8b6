// SPDX-License-Identifier: MIT
/*
 * Parity with torch-tb-profiler: for the eight corpus traces, every op row
 * (calls and four durations), kernel row (calls, total, mean, max, min)
 * and step (each category and the total) must equal the plugin's own
 * output within 1 us after its rounding (Python round() of us sums; step
 * values are unrounded).  Reads ../shared/corpus; skips when it is absent.
 *
 * Where proftui departs from the plugin by design (parity.h's
 * DEPART_*: launches credited by place, driver API too; times to the ns)
 * the numbers a departure changes are t-trace-truth's to check against
 * the events, and the rest are compared here, within the plugin's
 * rounding.  One more departure: PyTorch 2.x writes a device-side copy of
 * each ProfilerStep (cat gpu_user_annotation), which the plugin makes a
 * step of its own and proftui does not (doc/formats/kineto.md,
 * 'Steps'; proftui(1)).  The
 * plugin's step rows are therefore compared with its duplicate steps (a
 * row whose step name an earlier row had) left out.  On the two traces
 * here that carry copies -- the AMD one and the H100 one, one copy each --
 * that leaves nothing out: the plugin's copy launched no device work, so
 * it was among the trailing steps the plugin drops from its breakdown,
 * and its numbers are ours.  The test says so by checking the count of
 * copies proftui reports for each trace.
 */
#include <math.h>

#include "model/aggregate.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"
#include "parity.h"

static const struct pair {
	const char *trace;	/* under pytorch-kineto-trace/ */
	const char *expected;	/* prefix under tb-plugin-expected/ */
	const char *gpu_step_copies;	/* what Info says proftui left out, or NULL */
} pairs[] = {
	{ "tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  "resnet50_num_workers_0__worker0_span1__", NULL },
	{ "tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  "resnet50_num_workers_4__worker0_span1__", NULL },
	{ "hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	  "generated/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto__", "1" },
	{ "hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
	  "generated/hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace__", NULL },
	{ "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz",
	  "generated/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace__", NULL },
	{ "hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	  "generated/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace__", NULL },
	{ "hta_triton_example_triton_example.json.gz",
	  "generated/hta_triton_example_triton_example__", NULL },
	{ "tracelens_h100_bert-small-uncased__1016001.json.gz",
	  "generated/tracelens_h100_bert-small-uncased__1016001__", "1" },
};

static int nr_bad;

/* Within 1 us (the plugin rounds), and SLACK more (parity_ns_slack()). */
static void near_slack(const char *what, const char *name, double ours_us, double ref_us,
		       double slack)
{
	if (fabs(ours_us - ref_us) <= 1.0 + slack + 1e-6)
		return;
	if (nr_bad++ < 15)
		fprintf(stderr, "  %s of '%.60s': ours %.3f, reference %.3f\n", what, name, ours_us,
			ref_us);
	test_failed = 1;
}

static void near(const char *what, const char *name, double ours_us, double ref_us)
{
	near_slack(what, name, ours_us, ref_us, 0);
}

static double num(const struct jv *v)
{
	return v && v->type == JV_NUM ? v->num : NAN;
}

static const struct agg_row *find_row(const struct agg *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name))
			return &a->rows[i];
	return NULL;
}

/* How many cpu_op / operator events of the trace EVENTS are called NAME. */
static uint64_t events_named(const struct jv *events, const char *name)
{
	uint64_t n = 0;

	for (size_t i = 0; events && i < events->nr; i++) {
		const struct jv *e = &events->items[i], *v = jv_get(e, "name");

		n += v && v->type == JV_STR && !strcmp(v->str, name);
	}
	return n;
}

/* The op rows; on a DEPART_LAUNCHES trace their calls and host totals
 * only: what they launched is t-trace-truth's to check.  EVENTS: the
 * trace's traceEvents, for DEPART_NS. */
static void check_ops(const struct profile *p, const char *path, unsigned departs,
		      const struct jv *events)
{
	struct jv doc;
	const struct jv *data;
	struct agg ops;
	size_t nr_ref = 0;

	if (jv_load(path, &doc)) {
		fprintf(stderr, "  cannot read %s\n", path);
		test_failed = 1;
		return;
	}
	agg_ops(p, NULL, &ops);
	data = jv_get(&doc, "data");
	for (size_t i = 0; data && i < data->nr; i++) {
		const struct jv *row = &data->items[i];
		const char *name = jv_get(row, "name")->str;
		const struct agg_row *r = find_row(&ops, name);
		const struct jv *dev;
		double slack;

		nr_ref++;
		if (!r) {
			if (nr_bad++ < 15)
				fprintf(stderr, "  op '%s' missing\n", name);
			test_failed = 1;
			continue;
		}
		slack = parity_ns_slack(departs, p, name);
		if (departs & DEPART_NS) {
			/* The plugin's rounding makes some ops end past their
			 * parent, and it drops them: ours has them back, up
			 * to the trace's own count. */
			double ref = num(jv_get(row, "calls"));

			if ((double)r->calls < ref || r->calls > events_named(events, name)) {
				if (nr_bad++ < 15)
					fprintf(stderr, "  calls of '%.60s': ours %llu, reference %.0f, "
						"events %llu\n", name, (unsigned long long)r->calls, ref,
						(unsigned long long)events_named(events, name));
				test_failed = 1;
			}
		} else {
			near("calls", name, (double)r->calls, num(jv_get(row, "calls")));
		}
		near_slack("host total", name, r->host_total_ns / 1e3,
			   num(jv_get(row, "host_total_duration")), slack);
		if (departs & DEPART_LAUNCHES)
			continue;
		near_slack("host self", name, r->host_self_ns / 1e3,
			   num(jv_get(row, "host_self_duration")), slack);
		if ((dev = jv_get(row, "device_self_duration")))
			near_slack("device self", name, r->device_self_ns / 1e3, num(dev), slack);
		if ((dev = jv_get(row, "device_total_duration")))
			near_slack("device total", name, r->device_total_ns / 1e3, num(dev), slack);
	}
	if (ops.nr != nr_ref) {
		fprintf(stderr, "  %zu op rows, reference has %zu\n", ops.nr, nr_ref);
		test_failed = 1;
	}
	agg_release(&ops);
	jv_free(&doc);
}

static int column(const struct jv *cols, const char *name)
{
	for (size_t i = 0; cols && i < cols->nr; i++) {
		const struct jv *c = &cols->items[i];
		const char *n = c->type == JV_STR ? c->str : jv_get(c, "name") ? jv_get(c, "name")->str : "";

		if (n && !strcmp(n, name))
			return (int)i;
	}
	return -1;
}

static void check_kernels(const struct profile *p, const char *path)
{
	struct jv doc;
	const struct jv *data, *cols, *rows;
	struct agg k;
	int c_name, c_calls, c_total, c_mean, c_max, c_min, c_bpsm, c_occ;

	FILE *f = fopen(path, "rb");

	agg_kernels(p, NULL, &k);
	if (!f) {
		/* CPU-only traces have no kernel table: we must find none. */
		CHECK_EQ(k.nr, 0);
		agg_release(&k);
		return;
	}
	fclose(f);
	if (jv_load(path, &doc)) {
		test_failed = 1;
		agg_release(&k);
		return;
	}
	data = jv_get(&doc, "data");
	cols = data ? jv_get(data, "columns") : NULL;
	rows = data ? jv_get(data, "rows") : NULL;
	c_name = column(cols, "Name");
	c_calls = column(cols, "Calls");
	c_total = column(cols, "Total Duration (us)");
	c_mean = column(cols, "Mean Duration (us)");
	c_max = column(cols, "Max Duration (us)");
	c_min = column(cols, "Min Duration (us)");
	c_bpsm = column(cols, "Mean Blocks Per SM");
	c_occ = column(cols, "Mean Est. Achieved Occupancy (%)");
	CHECK(c_name >= 0 && c_calls >= 0 && c_total >= 0);
	for (size_t i = 0; rows && i < rows->nr && c_name >= 0; i++) {
		const struct jv *row = &rows->items[i];
		const char *name = row->items[c_name].str;
		const struct agg_row *r = find_row(&k, name);
		double total;

		if (!r) {
			if (nr_bad++ < 15)
				fprintf(stderr, "  kernel '%.60s' missing\n", name);
			test_failed = 1;
			continue;
		}
		total = r->device_total_ns / 1e3;
		near("kernel calls", name, (double)r->calls, num(&row->items[c_calls]));
		near("kernel total", name, total, num(&row->items[c_total]));
		near("kernel mean", name, total / (double)r->calls, num(&row->items[c_mean]));
		near("kernel max", name, r->max_ns / 1e3, num(&row->items[c_max]));
		near("kernel min", name, r->min_ns / 1e3, num(&row->items[c_min]));
		if (c_bpsm >= 0 && r->device_total_ns)
			near("blocks per SM", name, r->blocks_per_sm_wsum / (double)r->device_total_ns,
			     num(&row->items[c_bpsm]));
		if (c_occ >= 0 && r->device_total_ns)
			near("occupancy", name, r->occupancy_wsum / (double)r->device_total_ns,
			     num(&row->items[c_occ]));
	}
	if (rows && k.nr != rows->nr) {
		fprintf(stderr, "  %zu kernel rows, reference has %zu\n", k.nr, rows->nr);
		test_failed = 1;
	}
	agg_release(&k);
	jv_free(&doc);
}

/* Whether reference row I repeats the step name of an earlier row: the
 * plugin's step made of a GPU-side copy (see the top of this file). */
static bool is_duplicate_step(const struct jv *rows, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(rows->items[j].items[0].str, rows->items[i].items[0].str))
			return true;
	return false;
}

/* The steps; on a DEPART_LAUNCHES trace but Runtime and CPU Exec, which
 * hold the driver calls (their sum, the step, is still checked). */
static void check_steps(const struct profile *p, const char *path, unsigned departs)
{
	struct jv doc;
	const struct jv *steps, *cols, *rows;
	size_t nr_ref = 0, next = 0;

	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	steps = jv_get(&doc, "steps");
	cols = steps ? jv_get(steps, "columns") : NULL;
	rows = steps ? jv_get(steps, "rows") : NULL;
	for (size_t i = 0; rows && i < rows->nr; i++)
		nr_ref += !is_duplicate_step(rows, i);
	if (!rows || nr_ref != p->nr_steps) {
		fprintf(stderr, "  %zu steps, reference has %zu\n", p->nr_steps, nr_ref);
		test_failed = 1;
		jv_free(&doc);
		return;
	}
	for (size_t i = 0; i < rows->nr; i++) {
		const struct jv *row = &rows->items[i];
		const struct step *s;
		double ref_total = 0, slack;

		if (is_duplicate_step(rows, i))
			continue;
		s = &p->steps[next++];
		slack = parity_ns_slack_span(departs, p, s->start_ns, s->end_ns);

		if (strcmp(row->items[0].str, s->name)) {
			fprintf(stderr, "  step %zu is '%s', reference '%s'\n", i, s->name,
				row->items[0].str);
			test_failed = 1;
		}
		for (size_t c = 1; c < cols->nr; c++) {
			const struct jv *name = jv_get(&cols->items[c], "name");
			int ours;

			if (!name)
				continue;	/* a tooltip column */
			ref_total += row->items[c].num;
			ours = profile_step_cat(p, name->str);
			if (ours < 0) {
				fprintf(stderr, "  no step category '%s'\n", name->str);
				test_failed = 1;
				continue;
			}
			if ((departs & DEPART_LAUNCHES) &&
			    (!strcmp(name->str, "Runtime") || !strcmp(name->str, "CPU Exec")))
				continue;
			near_slack(name->str, s->name, s->cat_ns[ours] / 1e3, row->items[c].num, slack);
		}
		near_slack("step total", s->name, s->total_ns / 1e3, ref_total, slack);
	}
	jv_free(&doc);
}

static void check_pair(size_t i)
{
	char trace[1024], prefix[1024], path[1200];
	const char *corpus = test_corpus_dir();
	const char *paths[1];
	struct load_options opt = { 0 };
	struct profile p;
	struct jv doc = { 0 };
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/pytorch-kineto-trace/%s", corpus, pairs[i].trace);
	snprintf(prefix, sizeof(prefix), "%s/tb-plugin-expected/%s", corpus, pairs[i].expected);
	if (!(f = fopen(trace, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	nr_bad = 0;
	paths[0] = trace;
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &opt) == 0);
	snprintf(path, sizeof(path), "%soperation_table_groupby_Operation.json", prefix);
	if (parity_departs[i] & DEPART_NS)
		CHECK_EQ(jv_load(trace, &doc), 0);
	check_ops(&p, path, parity_departs[i], jv_get(&doc, "traceEvents"));
	jv_free(&doc);
	snprintf(path, sizeof(path), "%skernel_table_groupby_Kernel.json", prefix);
	check_kernels(&p, path);
	snprintf(path, sizeof(path), "%soverview.json", prefix);
	check_steps(&p, path, parity_departs[i]);
	if (pairs[i].gpu_step_copies)
		CHECK_STR(profile_meta_get(&p, "events not used",
					   "GPU-side copies of ProfilerStep (not steps)"),
			  pairs[i].gpu_step_copies);
	else
		CHECK(!profile_meta_get(&p, "events not used",
					"GPU-side copies of ProfilerStep (not steps)"));
	profile_release(&p);
}

static void t_resnet0(void) { check_pair(0); }
static void t_resnet4(void) { check_pair(1); }
static void t_amd(void) { check_pair(2); }
static void t_cpu(void) { check_pair(3); }
static void t_critical(void) { check_pair(4); }
static void t_ns(void) { check_pair(5); }
static void t_triton(void) { check_pair(6); }
static void t_h100(void) { check_pair(7); }

const struct test tests[] = {
	{ "tb_plugin resnet50 num_workers=0 equals the reference", t_resnet0 },
	{ "tb_plugin resnet50 num_workers=4 equals the reference", t_resnet4 },
	{ "HTA AMD ROCm trace equals the reference", t_amd },
	{ "HTA CPU-only trace equals the reference", t_cpu },
	{ "HTA trace without steps equals the reference", t_critical },
	{ "HTA ns-resolution NCCL trace equals the reference", t_ns },
	{ "HTA Triton trace equals the reference", t_triton },
	{ "TraceLens H100 BERT trace (PyTorch 2.x) equals the reference", t_h100 },
	{ 0 },
};
