// SPDX-License-Identifier: MIT
/*
 * Parity with torch-tb-profiler's Diff view: for each corpus pair under
 * pytorch-kineto-multi/, the diff tree must have the plugin's shape (the
 * same nodes at the same paths) and every node the plugin's numbers: its
 * /diffnode answers (tb-plugin-expected/generated-multi/SET/diff__nodes.json,
 * base = the first run) give each side's name, duration, device duration,
 * total duration and the ops under it (calls, host and device durations,
 * self and total), all within 1 us.  Reads ../shared/corpus; skips when
 * it is absent.
 */
#include <math.h>
#include <unistd.h>

#include "model/diff.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"

static const struct set {
	const char *dir;	/* under pytorch-kineto-multi/ and generated-multi/ */
	const char *base, *new_run;
	/* Launches credited by place (parity.h's DEPART_LAUNCHES): these
	 * runtimes' External ids equal their correlations and name no op,
	 * so the plugin's tree has no device time at all; what each node
	 * launched is t-trace-truth's to check, the rest is compared. */
	bool departs;
} sets[] = {
	{ "tbplugin_resnet50_workers0_vs_4",
	  "resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  "resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz", false },
	{ "hta_trace_diff", "control.json.gz", "test.json.gz", true },
};

static int nr_bad;

static void near(const char *path, const char *what, const char *name, double ours_us,
		 double ref_us)
{
	if (fabs(ours_us - ref_us) <= 1.0 + 1e-9 * fabs(ref_us))
		return;
	if (nr_bad++ < 20)
		fprintf(stderr, "  node %s: %s of '%.50s': ours %.3f, reference %.3f\n", path, what,
			name, ours_us, ref_us);
	test_failed = 1;
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

/* One side of one node against the plugin's {name, duration, ..., aggs}. */
static void check_side(const char *path, const struct profile *p, const struct diff_side *s,
		       const struct jv *ref, bool departs)
{
	const struct jv *aggs = jv_get(ref, "aggs");
	int64_t host, dev, total;
	struct agg ops;

	if (strcmp(diff_side_name(s), jv_get(ref, "name")->str)) {
		if (nr_bad++ < 20)
			fprintf(stderr, "  node %s: named '%s', reference '%s'\n", path,
				diff_side_name(s), jv_get(ref, "name")->str);
		test_failed = 1;
	}
	diff_side_times(p, s, &host, &dev, &total);
	near(path, "duration", "node", host / 1e3, num(jv_get(ref, "duration")));
	if (!departs) {
		near(path, "device duration", "node", dev / 1e3, num(jv_get(ref, "device_duration")));
		near(path, "total duration", "node", total / 1e3, num(jv_get(ref, "total_duration")));
	}
	diff_side_ops(p, s, &ops);
	for (size_t i = 0; aggs && i < aggs->nr; i++) {
		const struct jv *a = &aggs->items[i];
		const char *name = jv_get(a, "name")->str;
		const struct agg_row *r = find_row(&ops, name);

		if (!r) {
			if (nr_bad++ < 20)
				fprintf(stderr, "  node %s: op '%s' missing\n", path, name);
			test_failed = 1;
			continue;
		}
		near(path, "calls", name, (double)r->calls, num(jv_get(a, "calls")));
		near(path, "host duration", name, r->host_total_ns / 1e3,
		     num(jv_get(a, "host_duration")));
		if (departs)
			continue;
		near(path, "device duration", name, r->device_total_ns / 1e3,
		     num(jv_get(a, "device_duration")));
		near(path, "self host duration", name, r->host_self_ns / 1e3,
		     num(jv_get(a, "self_host_duration")));
		near(path, "self device duration", name, r->device_self_ns / 1e3,
		     num(jv_get(a, "self_device_duration")));
	}
	if (aggs && ops.nr != aggs->nr) {
		if (nr_bad++ < 20)
			fprintf(stderr, "  node %s: %zu ops, reference %zu\n", path, ops.nr, aggs->nr);
		test_failed = 1;
	}
	agg_release(&ops);
}

/* The plugin's path of each node ("0", "0-3", "0-3-1"), in pre-order. */
static void path_of(const struct diff_node *n, char *buf, size_t size)
{
	size_t idx[64], depth = 0, len = 0;

	for (; n->parent && depth < 64; n = n->parent) {
		size_t i = 0;

		for (const struct diff_node *c = n->parent->child; c != n; c = c->next)
			i++;
		idx[depth++] = i;
	}
	len = (size_t)snprintf(buf, size, "0");
	while (depth-- && len < size)
		len += (size_t)snprintf(buf + len, size - len, "-%zu", idx[depth]);
}

static void test_sets(void)
{
	char dir[512], path[1024], msg[4096];
	int checked = 0;

	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		struct profile b, n;
		struct diff_tree t;
		struct jv nodes, inputs;

		snprintf(dir, sizeof(dir), "%s/pytorch-kineto-multi/%s", test_corpus_dir(), sets[k].dir);
		snprintf(path, sizeof(path), "%s/tb-plugin-expected/generated-multi/%s/diff__nodes.json",
			 test_corpus_dir(), sets[k].dir);
		if (access(path, R_OK))
			continue;
		if (jv_load(path, &nodes))
			continue;
		snprintf(path, sizeof(path), "%s/tb-plugin-expected/generated-multi/%s/diff__inputs.json",
			 test_corpus_dir(), sets[k].dir);
		CHECK(jv_load(path, &inputs) == 0);
		snprintf(path, sizeof(path), "%s/%s", dir, sets[k].base);
		CHECK(test_load(&b, path, NULL, msg, sizeof(msg)) == 0);
		snprintf(path, sizeof(path), "%s/%s", dir, sets[k].new_run);
		CHECK(test_load(&n, path, NULL, msg, sizeof(msg)) == 0);
		diff_tree_build(&t, &b, &n);
		nr_bad = 0;
		if ((double)t.nr_nodes != num(jv_get(&inputs, "node_count"))) {
			fprintf(stderr, "  %s: %zu nodes, the plugin's tree has %g\n", sets[k].dir,
				t.nr_nodes, num(jv_get(&inputs, "node_count")));
			test_failed = 1;
		}
		for (size_t i = 0; i < t.nr_nodes; i++) {
			const struct diff_node *d = t.nodes[i];
			const struct jv *ref;

			path_of(d, path, sizeof(path));
			ref = jv_get(&nodes, path);
			if (!ref) {
				fprintf(stderr, "  %s: node %s not in the plugin's tree\n", sets[k].dir, path);
				test_failed = 1;
				continue;
			}
			check_side(path, &b, &d->side[0], jv_get(ref, "left"), sets[k].departs);
			check_side(path, &n, &d->side[1], jv_get(ref, "right"), sets[k].departs);
			if ((double)d->nr_children != (double)jv_get(ref, "children")->nr) {
				fprintf(stderr, "  node %s: %zu children, reference %zu\n", path,
					d->nr_children, jv_get(ref, "children")->nr);
				test_failed = 1;
			}
		}
		if (test_failed)
			fprintf(stderr, "  (set %s)\n", sets[k].dir);
		checked++;
		diff_tree_release(&t);
		profile_release(&b);
		profile_release(&n);
		jv_free(&nodes);
		jv_free(&inputs);
	}
	if (!checked)
		SKIP("no corpus pairs under ../shared/corpus/pytorch-kineto-multi");
}

const struct test tests[] = {
	{ "the diff tree equals torch-tb-profiler's /diffnode on the corpus pairs", test_sets },
	{ 0 },
};
