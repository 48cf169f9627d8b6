// SPDX-License-Identifier: MIT
/*
 * model/diff.c alone: statuses and their thresholds, lining rows up by
 * name, and the diff tree on small trees built by hand, where what the
 * plugin's algorithm makes of them can be worked out on paper.
 */
#include "model/diff.h"
#include "test.h"

static void test_status(void)
{
	CHECK(diff_status_of(100000, 101000, true) == DIFF_SAME);	/* 1% */
	CHECK(diff_status_of(100000, 103000, true) == DIFF_SLOWER);	/* 3% */
	CHECK(diff_status_of(100000, 97000, true) == DIFF_FASTER);
	CHECK(diff_status_of(100, 900, true) == DIFF_SAME);		/* under 1 us */
	CHECK(diff_status_of(0, 1001, true) == DIFF_SLOWER);
	CHECK(diff_status_of(5, 6, false) == DIFF_MORE);
	CHECK(diff_status_of(5, 5, false) == DIFF_SAME);
	CHECK_STR(diff_status_name(DIFF_ADDED), "added");
	CHECK(diff_status_name(DIFF_NONE) == NULL);
}

static void test_align(void)
{
	const char *a[] = { "mm", "conv", "mm", "relu" };
	const char *b[] = { "conv", "add", "mm" };
	const char *const *lists[] = { a, b };
	size_t nr[] = { 4, 3 }, *v;
	size_t rows = diff_align(lists, nr, 2, 1, &v);

	/* b's order first (conv, add, mm), then what only a has: the
	 * second mm, then relu. */
	CHECK_EQ(rows, 5);
	CHECK_EQ(v[0 * 2 + 1], 0);
	CHECK_EQ(v[0 * 2 + 0], 1);	/* conv */
	CHECK_EQ(v[1 * 2 + 0], SIZE_MAX);	/* add: only in b */
	CHECK_EQ(v[2 * 2 + 0], 0);	/* the first mm with b's mm */
	CHECK_EQ(v[2 * 2 + 1], 2);
	CHECK_EQ(v[3 * 2 + 0], 2);	/* the second mm: only in a */
	CHECK_EQ(v[3 * 2 + 1], SIZE_MAX);
	CHECK_EQ(v[4 * 2 + 0], 3);
	free(v);
}

/* A node of P under PARENT with a host interval and device time. */
static struct node *add(struct profile *p, struct node *parent, enum node_kind kind, const char *name,
			int64_t host_us, int64_t dev_us)
{
	struct node *n = node_new(p, parent, kind, name, strlen(name));

	node_set_calls(p, n, 1);
	node_set_host_self(p, n, host_us * 1000);
	node_set_host_total(p, n, host_us * 1000);
	node_set_device_self(p, n, dev_us * 1000);
	node_set_device_total(p, n, dev_us * 1000);
	n->start_ns = 1;
	return n;
}

/* One step: a DataLoader, two ops, an optimizer step, one more op. */
static void build(struct profile *p, const char *loader, int64_t scale)
{
	struct node *t = node_new(p, p->root, NODE_THREAD, "thread 1", 8), *s;

	for (int i = 0; i < 2; i++) {
		s = add(p, t, NODE_STEP, i ? "ProfilerStep#2" : "ProfilerStep#1", 1000, 0);
		add(p, s, NODE_OP, loader, 10 * scale, 0)->flags |= NODE_NOT_A_ROW;
		add(p, s, NODE_OP, "aten::mm", 20 * scale, 5);
		add(p, s, NODE_OP, "aten::relu", 30, 7 * scale);
		add(p, s, NODE_ANNOTATION, "Optimizer.step#SGD.step", 40, 0);
		add(p, s, NODE_OP, "aten::zero_", 50, 0);
	}
	profile_finish(p);
}

static void test_tree(void)
{
	struct profile b, n;
	struct diff_tree t;
	int64_t host, dev, total;
	struct agg ops;

	profile_init(&b, "base");
	profile_init(&n, "new");
	build(&b, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1);
	build(&n, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 2);
	diff_tree_build(&t, &b, &n);
	/* Root: the ten top operators of both steps.  Matched in order:
	 * loader, optimizer, loader, optimizer, each a child, and the runs
	 * between them: (mm, relu) a composite, (zero_) a node of its own,
	 * as a list of one is -- 8 children. */
	CHECK_STR(diff_side_name(&t.root->side[0]), "CompositeNodes");
	CHECK_EQ(t.root->nr_children, 8);
	CHECK_STR(diff_side_name(&t.root->child->side[0]),
		  "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
	CHECK_STR(diff_side_name(&t.root->child->next->side[1]), "CompositeNodes");
	diff_side_times(&n, &t.root->child->next->side[1], &host, &dev, &total);
	CHECK_EQ(host, 70000);	/* mm 40 + relu 30 */
	CHECK_EQ(dev, 19000);	/* mm 5 + relu 14 */
	CHECK_EQ(total, 19000);
	CHECK_STR(diff_side_name(&t.root->child->next->next->next->side[0]), "aten::zero_");
	CHECK_EQ(t.nr_nodes, 9);
	CHECK(t.nodes[0] == t.root && t.nodes[1] == t.root->child);
	diff_side_ops(&n, &t.root->side[1], &ops);
	CHECK_EQ(ops.nr, 3);	/* mm, relu, zero_: the loader and optimizer are no rows */
	agg_release(&ops);
	diff_tree_release(&t);
	profile_release(&n);

	/* A DataLoader of another name matches nothing: only the optimizers
	 * do, and the runs around them are (loader, mm, relu), then (zero_,
	 * loader, mm, relu), then zero_. */
	profile_init(&n, "new");
	build(&n, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", 1);
	diff_tree_build(&t, &b, &n);
	CHECK_EQ(t.root->nr_children, 5);
	CHECK_EQ(t.root->child->next->next->side[1].nr, 4);
	CHECK_STR(diff_side_name(&t.root->child->next->side[0]), "Optimizer.step#SGD.step");
	diff_tree_release(&t);
	profile_release(&n);
	profile_release(&b);
}

/* Capped sums (model/bounds.h) are bounds: two of them compare to
 * nothing, one past a measure still says which way it went; a side's
 * times cap and say how many did. */
static void test_capped(void)
{
	struct profile p;
	const struct node *v[3000];
	struct diff_side side = { v, 3000, true };
	int64_t host, device, total;

	CHECK(diff_status_of((double)SUM_CAP, (double)SUM_CAP, true) == DIFF_NONE);
	CHECK(diff_status_of((double)-SUM_CAP, (double)SUM_CAP, true) == DIFF_NONE);
	CHECK(diff_status_of((double)SUM_CAP, (double)SUM_CAP, false) == DIFF_NONE);
	CHECK(diff_status_of((double)SUM_CAP, 1e15, true) == DIFF_FASTER);
	CHECK(diff_status_of(1e15, (double)SUM_CAP, true) == DIFF_SLOWER);
	profile_init(&p, "t");
	for (size_t i = 0; i < 3000; i++) {
		struct node *n = node_new(&p, p.root, NODE_OP, "long", 4);

		node_set_host_total(&p, n, BOUND_DUR_NS);
		v[i] = n;
	}
	profile_finish(&p);
	CHECK_EQ(diff_side_times(&p, &side, &host, &device, &total), 2);
	CHECK_EQ(host, SUM_CAP);
	CHECK_EQ(total, SUM_CAP);
	CHECK_EQ(device, 0);
	profile_release(&p);
}

const struct test tests[] = {
	{ "statuses and thresholds", test_status },
	{ "capped sums are bounds, not measures", test_capped },
	{ "rows line up by name, the k-th with the k-th", test_align },
	{ "the diff tree matches runs as the plugin does", test_tree },
	{ 0 },
};
