// SPDX-License-Identifier: MIT
/*
 * Parity of the Overview with torch-tb-profiler on the corpus: per GPU the
 * utilization, est. SM efficiency and est. achieved occupancy equal the
 * plugin's unrounded values (gpu_metrics per_gpu) within
 * 0.01 percentage points, null where the plugin has null; the share of
 * kernel time in tensor-core eligible ops and in tensor-core kernels
 * (tc_pie); the average step's split in percent (overview performance,
 * 2 decimals); and the plugin's recommendations: as many of ours are its
 * rules as it made, the same rules.  A trace the plugin made no GPU
 * summary for has no GPU here either.
 *
 * A GPU's tensor-core share is not the plugin's GPU summary's: that
 * counts only the kernels ops launched (23.19% on the H100 trace, where
 * its own tc_pie says 32.19% of the kernel time), proftui's every kernel
 * of the device; it is checked against the trace's own kernels.
 * Where proftui's tensor-core rule departs from the plugin's list (on the
 * kernels t-tensor-cores.c lists: tc-plugin.h), the plugin's tensor-core
 * figures and its mixed-precision advice are its list's; there the
 * figures are checked against the trace's own kernels instead: the share
 * of their time in kernels the rule takes for tensor cores.
 */
#include <math.h>

#include "model/overview.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"
#include "tc-plugin.h"

#include "parity.h"

static void same_pct(const char *what, int dev, double ours, const struct jv *ref, double scale)
{
	bool ref_null = !ref || ref->type == JV_NULL;

	if ((ours != ours) != ref_null) {
		fprintf(stderr, "  GPU %d %s: ours %s, reference %s\n", dev, what,
			ours != ours ? "null" : "a value", ref_null ? "null" : "a value");
		test_failed = 1;
		return;
	}
	if (ref_null)
		return;
	/* Within 0.01 percentage points. */
	if (fabs(ours * scale - ref->num * scale) > 0.01) {
		fprintf(stderr, "  GPU %d %s: ours %.6f, reference %.6f\n", dev, what, ours * scale,
			ref->num * scale);
		test_failed = 1;
	}
}

static void check_gpu_metrics(size_t i, const struct overview *o, bool departs)
{
	char path[1200];
	struct jv doc;
	const struct jv *per;

	if (!parity_path(i, "gpu_metrics", path, sizeof(path))) {
		CHECK_EQ(o->nr_gpus, 0);
		return;
	}
	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	per = jv_get(&doc, "per_gpu");
	CHECK(per && per->nr == o->nr_gpus);
	for (size_t g = 0; per && g < per->nr && g < o->nr_gpus; g++) {
		const struct jv *r = &per->items[g];
		const struct gpu_metrics *m = &o->gpus[g];

		CHECK_EQ(m->device, (int)jv_get(r, "gpu_id")->num);
		same_pct("utilization", m->device, m->utilization, jv_get(r, "gpu_utilization"), 100);
		same_pct("SM efficiency", m->device, m->sm_efficiency, jv_get(r, "est_sm_efficiency"), 100);
		same_pct("occupancy", m->device, m->occupancy_pct, jv_get(r, "est_achieved_occupancy"), 1);
		/* Not its tc_ratio: that counts the kernels ops launched,
		 * ours every kernel of the device (check_tc_own()). */
	}
	if (!departs)
		same_pct("tensor-core eligible ops' share", -1, o->tc_eligible_ops_kernel_ratio,
			 jv_get(&doc, "tc_eligible_ops_kernel_ratio"), 100);
	jv_free(&doc);
}

static void check_tc_pie(size_t i, const struct overview *o, bool departs)
{
	char path[1200];
	struct jv doc;
	const struct jv *rows;

	if (!parity_path(i, "tc_pie", path, sizeof(path)))
		return;
	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	rows = jv_get(jv_get(&doc, "total"), "rows");
	CHECK(rows && rows->nr == 2);
	if (rows && rows->nr == 2 && !departs)
		same_pct("kernel time using tensor cores", -1, o->tc_used_ratio, &rows->items[0].items[1],
			 100);
	jv_free(&doc);
}

/* The plugin's <li> items, and how many. */
static size_t count_items(const char *html)
{
	size_t n = 0;

	for (const char *s = html; (s = strstr(s, "<li>")); s += 4)
		n += strncmp(s, "<li>N/A</li>", 12) != 0;
	return n;
}

static void check_overview(size_t i, const struct profile *p, const struct overview *o,
			   bool departs)
{
	char path[1200];
	struct jv doc;
	const struct jv *perf, *children, *recs;
	size_t nr_plugin = 0, nr_theirs;
	double ns_slack_pct = 0;

	if (!parity_path(i, "overview", path, sizeof(path)) || jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	/* The plugin's rounding of the times, as a share of the average
	 * step (parity.h, DEPART_NS). */
	if (p->nr_steps && o->avg_step_ns > 0)
		ns_slack_pct = 100 * parity_ns_slack_span(parity_departs[i], p, p->steps[0].start_ns,
							  p->steps[p->nr_steps - 1].end_ns) /
			       (double)p->nr_steps * 1e3 / o->avg_step_ns;
	perf = jv_get(&doc, "performance");
	children = perf && perf->nr ? jv_get(&perf->items[0], "children") : NULL;
	for (size_t c = 0; children && c < children->nr; c++) {
		const char *name = jv_get(&children->items[c], "name")->str;
		double ref = jv_get(&children->items[c], "extra")->num;
		int ours = profile_step_cat(p, name);
		double pct;

		if (ours < 0) {
			fprintf(stderr, "  no category '%s'\n", name);
			test_failed = 1;
			continue;
		}
		pct = 100 * o->avg_cat_ns[ours] / o->avg_step_ns;
		/* Driver calls are runtime calls (parity.h). */
		if ((parity_departs[i] & DEPART_LAUNCHES) &&
		    (!strcmp(name, "Runtime") || !strcmp(name, "CPU Exec")))
			continue;
		if (fabs(pct - ref) > 0.005 + ns_slack_pct + 1e-9) {
			fprintf(stderr, "  %s: ours %.4f%%, reference %.2f%%\n", name, pct, ref);
			test_failed = 1;
		}
	}
	recs = jv_get(&doc, "recommendations");
	/* Where the rules depart, the mixed-precision advice is left out
	 * of both counts. */
	for (size_t r = 0; r < o->nr_recs; r++)
		nr_plugin += o->recs[r].is_plugin &&
			     !(departs && strstr(o->recs[r].text, "tensor-core eligible"));
	nr_theirs = recs ? count_items(recs->str) : 0;
	if (recs && departs && strstr(recs->str, "Tensor Cores eligible"))
		nr_theirs--;
	if (recs && nr_plugin != nr_theirs) {
		fprintf(stderr, "  %zu of the plugin's recommendations, it made %zu:\n", nr_plugin,
			nr_theirs);
		for (size_t r = 0; r < o->nr_recs; r++)
			fprintf(stderr, "    %s\n", o->recs[r].text);
		test_failed = 1;
	}
	/* Each of its rules that fired, by a phrase of its text and ours. */
	{
		static const char *const rules[][2] = {
			{ "in DataLoader", "in the DataLoader" },
			{ "low utilization", "low utilization" },
			{ "Tensor Cores eligible", "tensor-core eligible" },
			{ "on communication", "in communication" },
			{ "at the limit of device memory", "memory use peaks" },
		};

		for (size_t k = 0; recs && k < ARRAY_SIZE(rules); k++) {
			bool theirs = strstr(recs->str, rules[k][0]) != NULL, ours = false;

			for (size_t r = 0; r < o->nr_recs; r++)
				ours |= o->recs[r].is_plugin && strstr(o->recs[r].text, rules[k][1]);
			if (departs && k == 2)
				continue;	/* its list's advice */
			if (theirs != ours) {
				fprintf(stderr, "  rule '%s': the plugin %s, proftui %s\n", rules[k][0],
					theirs ? "fired" : "did not", ours ? "did" : "did not");
				test_failed = 1;
			}
		}
	}
	jv_free(&doc);
}

/* The trace's own kernels (every Kernels row with a launch): the share
 * of their time in kernels the rule takes for tensor cores, in all and
 * per device (the first 64). */
struct tc_sums {
	const struct profile *p;
	double tc, all;
	double dev_tc[64], dev_all[64];
};

static bool add_tc(struct node *n, void *ctx)
{
	struct tc_sums *s = ctx;
	int64_t dur = node_device_total(s->p, n);
	int32_t d;
	bool tc;

	if (n->kind != NODE_KERNEL || (n->flags & NODE_NOT_A_ROW) || !node_launch(n))
		return true;
	tc = kernel_uses_tensor_cores(node_name(n));
	s->all += (double)dur;
	s->tc += tc ? (double)dur : 0;
	d = node_launch(n)->device;
	if (d >= 0 && d < 64) {
		s->dev_all[d] += (double)dur;
		s->dev_tc[d] += tc ? (double)dur : 0;
	}
	return true;
}

static void check_tc_own(const struct profile *p, const struct overview *o)
{
	struct tc_sums s = { .p = p };

	node_walk(p->root, add_tc, &s);
	if (s.all > 0)
		CHECK(fabs(o->tc_used_ratio - s.tc / s.all) < 1e-12);
	else
		CHECK(o->tc_used_ratio != o->tc_used_ratio);
	for (size_t g = 0; g < o->nr_gpus; g++) {
		int32_t d = o->gpus[g].device;

		if (d >= 0 && d < 64 && s.dev_all[d] > 0)
			CHECK(fabs(o->gpus[g].tensor_core - s.dev_tc[d] / s.dev_all[d]) < 1e-12);
	}
}

static void check_trace(size_t i)
{
	struct profile p;
	struct overview o;
	bool departs;

	if (parity_load(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	overview_compute(&p, &o);
	departs = tc_rules_depart(&p);
	check_gpu_metrics(i, &o, departs);
	check_tc_pie(i, &o, departs);
	check_overview(i, &p, &o, departs);
	check_tc_own(&p, &o);
	overview_release(&o);
	profile_release(&p);
}

PARITY_TESTS(check_trace, "overview");
