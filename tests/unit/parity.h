/* SPDX-License-Identifier: MIT */
/*
 * What the parity tests of the Overview, Memory, Modules and grouped
 * tables share: the corpus traces and torch-tb-profiler's outputs for each
 * (tb-plugin-expected/generated/<trace>__<output>.json, written by
 * shared/tools/tbplugin_reference.py), a loader, and one test per trace.
 * Include after test.h.
 */
#ifndef TESTS_UNIT_PARITY_H
#define TESTS_UNIT_PARITY_H

#include <stdio.h>

static const char *const parity_traces[] = {
	"tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace",
	"tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace",
	"hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto",
	"hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace",
	"hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace",
	"hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace",
	"hta_triton_example_triton_example",
	"tracelens_h100_bert-small-uncased__1016001",
};

/*
 * Where proftui departs from the plugin on each trace, by design
 * (proftui(1), DIFFERENCES).  The numbers a departure changes are checked
 * against the trace's own events by t-trace-truth instead; the rest must
 * still equal the plugin's.
 *   DEPART_LAUNCHES: a launch belongs to the op that encloses it, driver
 *     API too (the plugin: runtime API only, by External id): ops' and
 *     modules' self times and device totals, the kernels' launching ops,
 *     the share of tensor-core eligible ops, and the Runtime and CPU Exec
 *     step columns (driver calls are runtime calls).
 *   DEPART_NS: times are the trace's decimals to the ns (the plugin: ts +
 *     dur - ts in doubles, 0.25 us coarse at epoch magnitudes): a sum
 *     over N events may differ by 0.25 us each (parity_ns_slack()).
 */
enum { DEPART_LAUNCHES = 1, DEPART_NS = 2 };

static const unsigned parity_departs[] = {
	0,
	0,
	DEPART_NS,
	DEPART_NS,
	DEPART_LAUNCHES,
	DEPART_NS,
	DEPART_LAUNCHES | DEPART_NS,
	DEPART_LAUNCHES | DEPART_NS,
};

struct slack_walk {
	const char *name;		/* interned: the op nodes of the row */
	unsigned depth_in;		/* > 0: under one of them */
	uint64_t events;
};

static bool slack_visit(struct node *n, void *ctx)
{
	struct slack_walk *w = ctx;
	const struct node *a = n;

	/* Under (or at) a node of the row: its time sums this event. */
	for (; a; a = node_parent(a))
		if (a->kind == NODE_OP && node_name(a) == w->name) {
			w->events++;
			break;
		}
	return true;
}

/* What the plugin's rounding may make of the times of op row NAME of P
 * on a DEPART_NS trace: 0.25 us for each event they sum. */
static inline double parity_ns_slack(unsigned departs, const struct profile *p, const char *name)
{
	struct slack_walk w = { 0 };

	if (!(departs & DEPART_NS))
		return 0;
	w.name = strtab_lookup(p->names, name, strlen(name));
	if (!w.name)
		return 0;
	node_walk(p->root, slack_visit, &w);
	return 0.25 * (double)w.events;
}

struct span_walk {
	int64_t start, end;
	uint64_t events;
};

static bool span_visit(struct node *n, void *ctx)
{
	struct span_walk *w = ctx;

	if (n->start_ns >= w->start && n->start_ns < w->end)
		w->events++;
	return true;
}

/* The same for a sum over the events that start in [START, END): a
 * step's categories. */
static inline double parity_ns_slack_span(unsigned departs, const struct profile *p,
					  int64_t start, int64_t end)
{
	struct span_walk w = { start, end, 0 };

	if (!(departs & DEPART_NS))
		return 0;
	node_walk(p->root, span_visit, &w);
	return 0.25 * (double)w.events;
}

/* Load corpus trace I into P (released by the caller when this returns
 * 0); -1 when the corpus is not there. */
static inline int parity_load(size_t i, struct profile *p)
{
	char path[1024];
	const char *paths[1] = { path };
	struct load_options opt = { 0 };
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/pytorch-kineto-trace/%s.json.gz", test_corpus_dir(),
		 parity_traces[i]);
	if (!(f = fopen(path, "rb")))
		return -1;
	fclose(f);
	/* The corpus's own warnings are the Kineto tests' business. */
	opt.err = fopen("/dev/null", "w");
	profile_init(p, path);
	rc = profile_load(p, paths, 1, &opt);
	CHECK_EQ(rc, 0);
	if (opt.err)
		fclose(opt.err);
	return 0;
}

/* The plugin's output NAME for trace I into BUF; false when the plugin
 * wrote none (it had no such view for the trace). */
static inline bool parity_path(size_t i, const char *name, char *buf, size_t size)
{
	FILE *f;

	snprintf(buf, size, "%s/tb-plugin-expected/generated/%s__%s.json", test_corpus_dir(),
		 parity_traces[i], name);
	if (!(f = fopen(buf, "rb")))
		return false;
	fclose(f);
	return true;
}

/* One test per corpus trace, running FN(i). */
#define PARITY_TESTS(fn, what)                                                      \
	static void t0(void) { fn(0); }                                             \
	static void t1(void) { fn(1); }                                             \
	static void t2(void) { fn(2); }                                             \
	static void t3(void) { fn(3); }                                             \
	static void t4(void) { fn(4); }                                             \
	static void t5(void) { fn(5); }                                             \
	static void t6(void) { fn(6); }                                             \
	static void t7(void) { fn(7); }                                             \
	const struct test tests[] = {                                               \
		{ what ": tb_plugin resnet50 num_workers=0", t0 },                  \
		{ what ": tb_plugin resnet50 num_workers=4", t1 },                  \
		{ what ": HTA AMD ROCm trace", t2 },                                \
		{ what ": HTA CPU-only trace", t3 },                                \
		{ what ": HTA trace without steps", t4 },                           \
		{ what ": HTA ns-resolution NCCL trace", t5 },                      \
		{ what ": HTA Triton trace", t6 },                                  \
		{ what ": TraceLens H100 BERT trace", t7 },                         \
		{ 0 },                                                              \
	}

#endif
