// SPDX-License-Identifier: MIT
/* The pane engine: stable sorts, missing values last, the filter, the
 * tree's view, the cursor kept on its row. */
#include "test.h"
#include "tui/pane.h"

/* Ops with ties: equal device self, in a known model order. */
static void build(struct profile *p)
{
	static const struct {
		const char *name;
		int64_t dev_self, host_self;
	} ops[] = {
		{ "mm", 10, 5 }, { "conv", 30, 1 }, { "add", 10, 7 }, { "relu", 10, 2 },
		{ "Copy", 0, 9 },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct node *n = node_new(p, p->root, NODE_OP, ops[i].name, strlen(ops[i].name));

		n->calls = i + 1;
		n->device_self_ns = n->device_total_ns = ops[i].dev_self;
		n->host_self_ns = n->host_total_ns = ops[i].host_self;
		if (i == 1)
			attr_set_str(p, &n->attrs, "input_shapes", "[[8, 3]]", 8);
	}
	profile_finish(p);
}

static void names(const struct pane *pane, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pane->nr_view && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "",
				      pane_row_name(pane, pane_row(pane, i)));
}

static void test_stable_sort(void)
{
	struct profile p;
	struct pane *pane;
	char got[256];

	profile_init(&p, "t");
	build(&p);
	pane = pane_new(&ops_pane_ops, &p, NULL);
	names(pane, got, sizeof(got));
	/* Device self descending; the three 10s keep model order. */
	CHECK_STR(got, "conv mm add relu Copy");
	pane_sort(pane, pane_column(pane, "device_self"), false);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "Copy mm add relu conv");
	pane_sort(pane, pane_column(pane, "name"), false);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "Copy add conv mm relu");
	CHECK_EQ(pane_column(pane, "Host self"), pane_column(pane, "host_self_us"));
	CHECK_EQ(pane_column(pane, "no such"), -1);
	/* The extra column from the attribute, missing values last. */
	CHECK(pane_column(pane, "input_shapes") >= 0);
	pane_sort(pane, pane_column(pane, "input_shapes"), false);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "conv mm add relu Copy");
	pane_sort(pane, pane_column(pane, "input_shapes"), true);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "conv mm add relu Copy");
	pane_free(pane);
	profile_release(&p);
}

static void test_filter_keeps_cursor(void)
{
	struct profile p;
	struct pane *pane;
	char got[256], err[128];

	profile_init(&p, "t");
	build(&p);
	pane = pane_new(&ops_pane_ops, &p, NULL);
	pane->cursor = 2;	/* add */
	pane_set_filter(pane, filter_new("^(a|c)", err, sizeof(err)));
	names(pane, got, sizeof(got));
	CHECK_STR(got, "conv add Copy");	/* smart case: caseless */
	CHECK_STR(pane_row_name(pane, pane_row(pane, pane->cursor)), "add");
	pane_set_filter(pane, filter_new("!^(a|C)", err, sizeof(err)));
	names(pane, got, sizeof(got));
	CHECK_STR(got, "conv mm relu");	/* a capital: case sensitive */
	CHECK(filter_new("a(", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "at offset 2") != NULL);
	CHECK(filter_new("!", err, sizeof(err)) == NULL && err[0] == '\0');
	pane_free(pane);
	profile_release(&p);
}

static void test_tree_filter_and_fold(void)
{
	struct profile p;
	struct pane *pane;
	struct node *t, *a, *b;
	char got[256], err[128];

	profile_init(&p, "t");
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	a = node_new(&p, t, NODE_OP, "outer", 5);
	b = node_new(&p, a, NODE_OP, "inner", 5);
	node_new(&p, b, NODE_KERNEL, "kern", 4);
	node_new(&p, t, NODE_OP, "other", 5);
	profile_finish(&p);
	pane = pane_new(&tree_pane_ops, &p, NULL);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 outer other");	/* threads open, calls folded */
	tree_fold(pane, 1, 1);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 outer inner other");
	CHECK_EQ(pane->cursor, 0);
	/* A match shows with its ancestors (opened) and its subtree. */
	pane_set_filter(pane, filter_new("inner", err, sizeof(err)));
	tree_unfold_all(pane, SIZE_MAX);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 outer inner kern");
	CHECK_EQ(pane->ops->row_depth(pane, 3), 3);
	CHECK_EQ(tree_parent_row(pane, 3), 2);
	pane_free(pane);
	profile_release(&p);
}

const struct test tests[] = {
	{ "sorts are stable, text sorts by name, missing values go last", test_stable_sort },
	{ "the filter: smart case, inversion, errors; the cursor stays", test_filter_keeps_cursor },
	{ "the tree folds, and a filter shows a match in its context", test_tree_filter_and_fold },
	{ 0 },
};
