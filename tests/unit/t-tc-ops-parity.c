// SPDX-License-Identifier: MIT
/*
 * The Operators pane's tensor-core columns (agg_row's tc_*) on the corpus,
 * two ways.  Against the trace's own events: each op row's tensor-core
 * self and total time equal what a plain recursive walk of every call's
 * subtree finds (kernels its runtime calls launched / kernels under it
 * that use tensor cores by proftui's rule), and so does eligibility.
 * Against torch-tb-profiler (operation_table_groupby_Operation: tc_eligible,
 * tc_self_ratio, tc_total_ratio): the same walk with the plugin's kernel
 * list (tc-plugin.h) gives its ratios within its rounding and its
 * eligibility -- so where proftui's rule departs (the kernels
 * t-tensor-cores.c lists), the plugin's numbers are its list's and ours
 * the rule's, and on every other kernel they are the same.  Grouped by
 * input shape, the rows split each op's sums.
 */
#include <math.h>

#include "model/aggregate.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"
#include "tc-plugin.h"

#include "parity.h"

typedef bool tc_rule(const char *name);

struct tc_of {
	int64_t self_ns, total_ns;
	bool eligible;
};

static bool is_host(const struct node *n)
{
	return n->kind == NODE_OP || n->kind == NODE_STEP || n->kind == NODE_ANNOTATION ||
	       n->kind == NODE_MODULE;
}

/* N's sums by RULE, recursively (the corpus's trees are shallow). */
static struct tc_of tc_walk(const struct profile *p, const struct node *n, tc_rule *rule)
{
	struct tc_of t = { 0 }, c;
	bool child_eligible = false;

	for (const struct node *ch = node_first_child(n); ch; ch = node_next(ch)) {
		if (ch->kind == NODE_RUNTIME) {
			for (const struct node *k = node_first_child(ch); k; k = node_next(k))
				if (k->kind == NODE_KERNEL && rule(node_name(k)))
					t.self_ns += node_device_total(p, k);
			continue;
		}
		if (ch->kind == NODE_KERNEL) {
			if (rule(node_name(ch)))
				t.self_ns += node_device_total(p, ch);
			continue;
		}
		c = tc_walk(p, ch, rule);
		t.total_ns += c.total_ns;
		child_eligible |= is_host(ch) && c.eligible;
	}
	t.total_ns += t.self_ns;
	t.eligible = is_host(n) && (op_tensor_core_eligible(node_name(n)) ||
				    (n->kind == NODE_OP && (child_eligible || t.self_ns > 0)));
	return t;
}

struct by_name {
	const char *name;
	struct tc_of sum;
	int64_t device_self_ns, device_total_ns;
};

struct collect {
	const struct profile *p;
	tc_rule *rule;
	const char *name;		/* the row's */
	struct by_name *row;
};

static bool visit(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	struct tc_of t;

	if (!node_is_op_row(n) || strcmp(node_name(n), c->name))
		return true;
	t = tc_walk(c->p, n, c->rule);
	c->row->sum.self_ns += t.self_ns;
	c->row->sum.total_ns += t.total_ns;
	c->row->sum.eligible |= t.eligible;
	c->row->device_self_ns += node_device_self(c->p, n);
	c->row->device_total_ns += node_device_total(c->p, n);
	return true;
}

/* Row NAME of P by RULE: every call summed. */
static struct by_name row_by(const struct profile *p, const char *name, tc_rule *rule)
{
	struct by_name r = { .name = name };
	struct collect c = { .p = p, .rule = rule, .name = name, .row = &r };

	node_walk(p->root, visit, &c);
	return r;
}

static void check_trace(size_t i)
{
	char path[1200];
	struct profile p;
	struct agg a;
	struct jv doc;
	const struct jv *data;
	int nr_bad = 0;

	if (parity_load(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	CHECK(agg_has_tc(&p) == (p.launches != NULL));
	agg_ops(&p, NULL, &a);
	/* Ours, against the trace's own kernels by proftui's rule. */
	for (size_t r = 0; r < a.nr && agg_has_tc(&p); r++) {
		struct by_name own = row_by(&p, a.rows[r].name, kernel_uses_tensor_cores);

		if (own.sum.self_ns != a.rows[r].tc_self_ns ||
		    own.sum.total_ns != a.rows[r].tc_total_ns ||
		    own.sum.eligible != a.rows[r].tc_eligible) {
			if (nr_bad++ < 10)
				fprintf(stderr, "  %s: ours %lld/%lld %d, the walk's %lld/%lld %d\n",
					a.rows[r].name, (long long)a.rows[r].tc_self_ns,
					(long long)a.rows[r].tc_total_ns, a.rows[r].tc_eligible,
					(long long)own.sum.self_ns, (long long)own.sum.total_ns,
					own.sum.eligible);
			test_failed = 1;
		}
	}
	/* By name and input shape, the same sums split by shape. */
	if (agg_has_tc(&p)) {
		struct agg by_shape;

		agg_ops_by_shape(&p, NULL, &by_shape);
		for (size_t r = 0; r < a.nr; r++) {
			int64_t self = 0, total = 0;
			bool eligible = false;

			for (size_t k = 0; k < by_shape.nr; k++) {
				if (by_shape.rows[k].name != a.rows[r].name)
					continue;
				self += by_shape.rows[k].tc_self_ns;
				total += by_shape.rows[k].tc_total_ns;
				eligible |= by_shape.rows[k].tc_eligible;
			}
			CHECK(self == a.rows[r].tc_self_ns && total == a.rows[r].tc_total_ns &&
			      eligible == a.rows[r].tc_eligible);
		}
		agg_release(&by_shape);
	}
	/* The plugin's, against the same walk with its list; not where the
	 * ops' kernels are not the plugin's (parity.h, DEPART_LAUNCHES):
	 * the walk above checks them against the tree. */
	if (!(parity_departs[i] & DEPART_LAUNCHES) &&
	    parity_path(i, "operation_table_groupby_Operation", path, sizeof(path)) &&
	    !jv_load(path, &doc)) {
		data = jv_get(&doc, "data");
		for (size_t r = 0; data && r < data->nr; r++) {
			const struct jv *row = &data->items[r];
			const struct jv *elig = jv_get(row, "tc_eligible");
			struct by_name ref = row_by(&p, jv_get(row, "name")->str, plugin_uses_tc);
			double self = ref.device_self_ns > 0
					      ? 100.0 * (double)ref.sum.self_ns / (double)ref.device_self_ns : 0;
			double total = ref.device_total_ns > 0
					       ? 100.0 * (double)ref.sum.total_ns / (double)ref.device_total_ns
					       : 0;

			if (!elig)
				continue;	/* no device time in the run */
			if (strcmp(elig->str, ref.sum.eligible ? "Yes" : "No") ||
			    fabs(self - jv_get(row, "tc_self_ratio")->num) > 0.006 ||
			    fabs(total - jv_get(row, "tc_total_ratio")->num) > 0.006) {
				if (nr_bad++ < 10)
					fprintf(stderr, "  %s: walk %s %.4f %.4f, plugin %s %.2f %.2f\n",
						ref.name, ref.sum.eligible ? "Yes" : "No", self, total,
						elig->str, jv_get(row, "tc_self_ratio")->num,
						jv_get(row, "tc_total_ratio")->num);
				test_failed = 1;
			}
		}
		jv_free(&doc);
	}
	agg_release(&a);
	profile_release(&p);
}

PARITY_TESTS(check_trace, "operators' tensor-core columns");
