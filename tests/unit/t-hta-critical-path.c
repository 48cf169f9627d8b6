/* SPDX-License-Identifier: MIT */
/*
 * The critical path (model/critical_path.c) against Holistic Trace
 * Analysis's critical_path_analysis() on every corpus trace where HTA
 * produced one (corpus/hta-expected and hta-expected-multi,
 * <base>__hta_critical_path.json, README.md there, section 11): the same
 * window (the header's ProfilerStep instance, or the whole trace), HTA's
 * rounding of fractional timestamps; the path's length within 1 us and
 * each bound_by's share within 0.01 points.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/critical_path.h"
#include "parsers/load.h"
#include "test.h"
#include "jsonval.h"
#include "hta-json.h"
#include "hta-step.h"

struct hta_case {
	const char *trace;		/* under the corpus */
	const char *expected;		/* under the corpus, without the suffix */
	int step;			/* HTA's instance_id; -1: the whole trace */
	/* Why proftui's path is not HTA's here; NULL: it is. */
	const char *departs;
};

static const struct hta_case cases[] = {
	{ "pytorch-kineto-trace/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	  "hta-expected/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto", 1, NULL },
	{ "pytorch-kineto-trace/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace"
	  ".json.gz",
	  "hta-expected/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace", -1,
	  NULL },
	{ "pytorch-kineto-trace/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	  "hta-expected/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace", 1, NULL },
	{ "pytorch-kineto-trace/hta_triton_example_triton_example.json.gz",
	  "hta-expected/hta_triton_example_triton_example", 0, NULL },
	{ "pytorch-kineto-trace/tracelens_h100_bert-small-uncased__1016001.json.gz",
	  "hta-expected/tracelens_h100_bert-small-uncased__1016001", 1, NULL },
	{ "pytorch-kineto-multi/hta_trace_diff/control.json.gz",
	  "hta-expected-multi/hta_trace_diff/control", 1, NULL },
	{ "pytorch-kineto-multi/hta_trace_diff/test.json.gz", "hta-expected-multi/hta_trace_diff/test", 1, NULL },
};

/* HTA's window: the STEP-th event (by start) whose name holds
 * "ProfilerStep", host ranges and GPU-side annotations alike, of those
 * HTA keeps (before the last step's start, when it drops the last). */
struct step_scan {
	const struct profile *p;
	int64_t before;
	int64_t start[64], end[64];
	size_t nr;
};

static bool step_visit(struct node *n, void *ctx)
{
	struct step_scan *s = ctx;
	int64_t dur;
	size_t k;

	if (!node_is_timed(n) || !strstr(node_name(n), "ProfilerStep"))
		return true;
	if (n->kind == NODE_STEP || (n->kind == NODE_ANNOTATION && !(n->flags & NODE_DEVICE_RANGE)))
		dur = node_host_total(s->p, n);
	else if (n->flags & NODE_DEVICE_RANGE)
		dur = node_device_total(s->p, n);
	else
		return true;
	if (n->start_ns >= s->before || s->nr == 64)
		return true;
	for (k = s->nr; k > 0 && s->start[k - 1] > n->start_ns; k--) {
		s->start[k] = s->start[k - 1];
		s->end[k] = s->end[k - 1];
	}
	s->start[k] = n->start_ns;
	s->end[k] = n->start_ns + dur;
	s->nr++;
	return true;
}

static bool hta_window(const struct profile *p, int step, struct cpath_options *o)
{
	struct step_scan s = { .p = p, .before = INT64_MAX };

	hta_last_step(p, &s.before);
	node_walk(p->root, step_visit, &s);
	if ((size_t)step >= s.nr)
		return false;
	o->lo_ns = s.start[step];
	o->hi_ns = s.end[step];
	fprintf(stderr, "  window %zu of %zu: %lld + %lld\n", (size_t)step, s.nr,
		(long long)o->lo_ns, (long long)(o->hi_ns - o->lo_ns));
	return true;
}

static int bound_of(const char *name)
{
	for (int b = 0; b < NR_CPATH_BOUNDS; b++)
		if (!strcmp(cpath_bound_name(b), name))
			return b;
	return -1;
}

/* The longest path of C's graph by brute force: relax every edge until
 * nothing changes (at most one pass per node), from 0 everywhere. */
static int64_t brute_longest(const struct critical_path *c)
{
	size_t n = c->nr_nodes ? c->nr_nodes : 1;
	int64_t *d = calloc(2 * n + 2, sizeof(*d)), best = 0;
	bool changed = true;

	for (size_t pass = 0; changed && pass <= 2 * n; pass++) {
		changed = false;
		for (size_t k = 0; k < c->nr_edges; k++) {
			const struct cpath_edge_rec *e = &c->edges[k];

			if (d[e->from] + e->weight_ns > d[e->to]) {
				d[e->to] = d[e->from] + e->weight_ns;
				changed = true;
			}
		}
	}
	CHECK(!changed);
	for (size_t k = 0; k < 2 * n + 2; k++)
		if (d[k] > best)
			best = d[k];
	free(d);
	return best;
}

static void check_case(size_t i)
{
	char trace[1024], path[1200];
	const char *corpus = test_corpus_dir();
	const char *paths[1];
	struct load_options lo = { 0 };
	struct cpath_options o;
	struct critical_path c;
	struct profile p;
	struct jv doc;
	const struct jv *result, *summary, *index, *data, *graph;
	double hta_share[NR_CPATH_BOUNDS] = { 0 };
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/%s", corpus, cases[i].trace);
	snprintf(path, sizeof(path), "%s/%s__hta_critical_path.json", corpus, cases[i].expected);
	if (!(f = fopen(trace, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	paths[0] = trace;
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	cpath_options_default(&o);
	if (cases[i].step >= 0) {
		CHECK(hta_window(&p, cases[i].step, &o));
	}
	o.round_like_hta = true;
	o.last_work_only = true;
	o.keep_graph = true;
	cpath_compute(&p, &o, &c);
	/* proftui's own figure: the longest path of its graph. */
	CHECK_EQ(c.total_ns, brute_longest(&c));
	CHECK_EQ(jv_load(path, &doc), 0);
	result = jv_get(&doc, "result");
	CHECK(result != NULL);
	if (!result)
		goto out;
	graph = jv_get(result, "graph");
	fprintf(stderr, "  nodes %zu (HTA %g), edges %zu (HTA %g; sync %zu), links %zu\n",
		c.nr_nodes, jnum(jv_get(graph, "nodes")), c.nr_edges, jnum(jv_get(graph, "edges")),
		c.nr_sync_edges, c.nr_links);
	CHECK(!c.sync_dropped);
	fprintf(stderr, "  length %.3f us, HTA %.3f\n", c.total_ns / 1e3,
		jnum(jv_get(result, "critical_path_length")));
	if (cases[i].departs) {
		/* A subgraph of HTA's: its path is no longer than HTA's. */
		fprintf(stderr, "  not HTA's: %s\n", cases[i].departs);
		CHECK(c.total_ns / 1e3 <= jnum(jv_get(result, "critical_path_length")) + 1.0);
		goto out;
	}
	CHECK(fabs(c.total_ns / 1e3 - jnum(jv_get(result, "critical_path_length"))) <= 1.0);
	summary = jv_get(result, "summary");
	index = jv_get(summary, "index");
	data = jv_get(summary, "data");
	for (size_t k = 0; index && data && k < index->nr && k < data->nr; k++) {
		int b = index->items[k].type == JV_STR ? bound_of(index->items[k].str) : -1;

		CHECK(b >= 0);
		if (b >= 0)
			hta_share[b] = jnum(&data->items[k]);
	}
	for (int b = 0; b < NR_CPATH_BOUNDS; b++) {
		double ours = c.total_ns ? cpath_share(&c, c.bound_ns[b]) : 0;

		fprintf(stderr, "  %-28s %10.4f %10.4f\n", cpath_bound_name(b), ours, hta_share[b]);
		if (fabs(ours - hta_share[b]) > 0.01) {
			test_failed = 1;
		}
	}
out:
	jv_free(&doc);
	cpath_release(&c);
	profile_release(&p);
}

/* Where HTA raised (the CPU-only trace: no launch; the tb_plugin ResNet
 * traces: a Memcpy whose runtime call, of the old category "Runtime",
 * has no node in HTA's graph), proftui's path over the whole trace is
 * still the longest of its graph. */
static void check_own(const char *name, bool cpu_only)
{
	char trace[1024];
	const char *paths[1] = { trace };
	struct load_options lo = { 0 };
	struct cpath_options o;
	struct critical_path c;
	struct profile p;
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/pytorch-kineto-trace/%s", test_corpus_dir(), name);
	if (!(f = fopen(trace, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	cpath_options_default(&o);
	o.keep_graph = true;
	cpath_compute(&p, &o, &c);
	CHECK(c.total_ns > 0);
	CHECK_EQ(c.total_ns, brute_longest(&c));
	if (cpu_only)
		CHECK_EQ(c.bound_ns[CPATH_CPU], c.total_ns);
	cpath_release(&c);
	profile_release(&p);
}

static void t_cpu_only(void)
{
	check_own("hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", true);
}

static void t_resnet(void)
{
	check_own("tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz", false);
	check_own("tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz", false);
}

static void t_amd(void) { check_case(0); }
static void t_simple_add(void) { check_case(1); }
static void t_ns_resolution(void) { check_case(2); }
static void t_triton(void) { check_case(3); }
static void t_bert(void) { check_case(4); }
static void t_diff_control(void) { check_case(5); }
static void t_diff_test(void) { check_case(6); }

const struct test tests[] = {
	{ "amd mi250, step #1", t_amd },
	{ "simple add, whole trace", t_simple_add },
	{ "ns resolution, step #1", t_ns_resolution },
	{ "triton, step #0", t_triton },
	{ "bert h100, step #1", t_bert },
	{ "trace diff control, step #1", t_diff_control },
	{ "trace diff test, step #1", t_diff_test },
	{ "cpu only (HTA raised): the longest path", t_cpu_only },
	{ "resnet50 (HTA raised): the longest path", t_resnet },
	{ 0 },
};
