// SPDX-License-Identifier: MIT
/* The pane engine: stable sorts, missing values last, the filter, the
 * tree's view, the cursor kept on its row. */
#include "test.h"
#include "view/pane.h"

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

		node_set_calls(p, n, i + 1);
		node_set_device_total(p, n, ops[i].dev_self);
		node_set_device_self(p, n, ops[i].dev_self);
		node_set_host_total(p, n, ops[i].host_self);
		node_set_host_self(p, n, ops[i].host_self);
		if (i == 1)
			attr_set_str(p, node_attr_list(n), "input_shapes", "[[8, 3]]", 8);
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
	pane = pane_new(pane_types[PANE_OPS], &p, NULL);
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
	pane = pane_new(pane_types[PANE_OPS], &p, NULL);
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
	struct pane_request req;
	char got[256], err[128];

	profile_init(&p, "t");
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	a = node_new(&p, t, NODE_OP, "outer", 5);
	b = node_new(&p, a, NODE_OP, "inner", 5);
	node_new(&p, b, NODE_KERNEL, "kern", 4);
	node_new(&p, t, NODE_OP, "other", 5);
	profile_finish(&p);
	pane = pane_new(pane_types[PANE_TREE], &p, NULL);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 outer other");	/* threads open, calls folded */
	pane->cursor = 1;
	CHECK(pane_handle(pane, ACT_UNFOLD, &req));
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 outer inner other");
	CHECK_EQ(pane->cursor, 1);
	/* Not the Tree's: left to the UI. */
	CHECK(!pane_handle(pane, ACT_SORT_NAME, &req));
	/* A match shows with its ancestors (opened) and its subtree. */
	pane_set_filter(pane, filter_new("inner", err, sizeof(err)));
	pane->cursor = 0;
	CHECK(pane_handle(pane, ACT_UNFOLD_ALL, &req));
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 outer inner kern");
	CHECK_EQ(pane_row_depth(pane, 3), 3);
	/* Left on a leaf goes to its parent. */
	pane->cursor = 3;
	CHECK(pane_handle(pane, ACT_FOLD, &req));
	CHECK_EQ(pane->cursor, 2);
	pane_free(pane);
	/* --print's tree: everything open. */
	{
		struct pane_scope scope = { .expand_all = true };

		pane = pane_new(pane_types[PANE_TREE], &p, &scope);
		names(pane, got, sizeof(got));
		CHECK_STR(got, "thread 1 outer inner kern other");
		/* The parent of "other" is four rows up, past a deeper subtree. */
		pane->cursor = 4;
		CHECK(pane_handle(pane, ACT_FOLD, &req));
		CHECK_EQ(pane->cursor, 0);
		/* A row at the top has no parent row: left stays on it. */
		pane->cursor = 0;
		CHECK_EQ(pane_row_depth(pane, 0), 0);
		CHECK(pane_handle(pane, ACT_FOLD, &req));	/* folds thread 1 */
		CHECK(pane_handle(pane, ACT_FOLD, &req));	/* no parent */
		CHECK_EQ(pane->cursor, 0);
		pane_free(pane);
	}
	profile_release(&p);
}

/*
 * The Tree sorts a child list when it first shows it after a sort change:
 * a list shown before the change and one first opened after it both
 * follow the new sort, ties keep the model's order whatever the sort
 * before, and a text column missing on some rows puts those last.
 */
static void test_tree_sorts_each_list(void)
{
	struct profile p;
	struct pane *pane;
	struct node *t, *a, *b;
	char got[256];
	struct pane_request req;
	static const struct {
		const char *name;
		uint64_t calls;
	} kids[] = { { "x", 3 }, { "w", 1 }, { "z", 3 }, { "y", 2 } };

	profile_init(&p, "t");
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	a = node_new(&p, t, NODE_OP, "a", 1);
	b = node_new(&p, t, NODE_OP, "b", 1);
	node_set_calls(&p, a, 1);
	node_set_calls(&p, b, 1);
	for (size_t i = 0; i < 4; i++) {
		node_set_calls(&p, node_new(&p, a, NODE_OP, kids[i].name, 1), kids[i].calls);
		node_set_calls(&p, node_new(&p, b, NODE_OP, kids[i].name, 1), kids[i].calls);
	}
	attr_set_str(&p, node_attr_list(node_next(node_first_child(a))), "input_shapes", "[[2]]", 5);
	attr_set_str(&p, node_attr_list(node_first_child(a)), "input_shapes", "[[1]]", 5);
	profile_finish(&p);
	pane = pane_new(pane_types[PANE_TREE], &p, NULL);
	pane_sort(pane, pane_column(pane, "calls"), true);
	pane->cursor = 1;	/* a, shown before the sort changes */
	CHECK(pane_handle(pane, ACT_UNFOLD, &req));
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 a x z y w b");
	pane_sort(pane, pane_column(pane, "name"), false);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 a w x y z b");
	pane_sort(pane, pane_column(pane, "calls"), false);
	CHECK_EQ(pane->cursor, 1);
	pane->cursor = 6;	/* b, first opened under this sort */
	CHECK(pane_handle(pane, ACT_UNFOLD, &req));
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 a w y x z b w y x z");
	pane_sort(pane, pane_column(pane, "input_shapes"), false);
	names(pane, got, sizeof(got));
	CHECK_STR(got, "thread 1 a x w z y b x w z y");
	pane_free(pane);
	profile_release(&p);
}

/* The view a fully unfolded tree should have: each child list sorted on
 * its own by the generic sort, depth first (the root not shown). */
static size_t expected_view(const struct pane *pane, const struct node *n, int col, bool desc,
			    size_t *out, size_t nr)
{
	size_t *kids, k = 0;

	for (const struct node *c = node_first_child(n); c; c = node_next(c))
		k++;
	kids = xmalloc((k ? k : 1) * sizeof(*kids));
	k = 0;
	for (const struct node *c = node_first_child(n); c; c = node_next(c))
		kids[k++] = node_id(c);
	pane_sort_indices(pane, kids, k, col, desc);
	for (size_t i = 0; i < k; i++) {
		out[nr++] = kids[i];
		nr = expected_view(pane, pane->rows[kids[i]], col, desc, out, nr);
	}
	free(kids);
	return nr;
}

/*
 * Unfolding everything and sorting everything unfolded make every
 * node's sort key in one pass and sort the lists from them: the view
 * must be the one the generic sort of each list gives, for numbers with
 * ties, text, reals with missing values, and a column mixing text and
 * numbers (which has no such keys and sorts list by list).
 */
static void tree_keys_sort_as_lists_do(size_t nr)
{
	static const char *const cols[] = { "calls", "name", "device_total", "ratio", "mixed" };
	static const char *const names_[] = { "mm", "conv", "add", "relu", "Copy", "add_", "" };
	struct profile p;
	struct pane *pane;
	struct pane_request req;
	struct node **made, *t;
	size_t *want = xmalloc((nr + 1) * sizeof(*want));	/* and the thread */
	uint32_t x = 777;

	profile_init(&p, "t");
	made = xmalloc(nr * sizeof(*made));
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	for (size_t i = 0; i < nr; i++) {
		struct node *up;
		const char *nm;
		size_t nkids = 0;

		x = x * 1103515245 + 12345;
		up = i ? made[(x >> 8) % i] : t;
		for (const struct node *c = node_first_child(up); c; c = node_next(c))
			nkids++;
		if (nkids >= 60 || (x >> 28) == 0)
			up = t;		/* lists of at most 60 but the thread's:
					   many top nodes, which a big tree's
					   walk shares between two threads */
		nm = names_[(x >> 16) % 7];
		made[i] = node_new(&p, up, NODE_OP, nm, strlen(nm));
		node_set_calls(&p, made[i], 1 + (x >> 20) % 4);
		node_set_device_total(&p, made[i], (int64_t)((x >> 12) % 5) - 1);
		node_set_device_self(&p, made[i], (int64_t)((x >> 12) % 5) - 1);
		if ((x >> 24) % 3 == 0)
			attr_set_double(&p, node_attr_list(made[i]), "ratio", (double)((x >> 4) % 9) / 4);
		if ((x >> 26) % 4 == 1)
			attr_set_int(&p, node_attr_list(made[i]), "mixed", (x >> 5) % 3);
		else if ((x >> 26) % 4 == 2)
			attr_set_str(&p, node_attr_list(made[i]), "mixed", nm, strlen(nm));
	}
	profile_finish(&p);
	pane = pane_new(pane_types[PANE_TREE], &p, NULL);
	pane->cursor = 0;	/* thread 1: all but the root under it */
	CHECK(pane_handle(pane, ACT_UNFOLD_ALL, &req));
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++) {
		int col = pane_column(pane, cols[c]);

		CHECK(col >= 0);
		for (int desc = 1; desc >= 0; desc--) {
			size_t n;

			if (c || !desc)	/* the first: the default sort */
				pane_sort(pane, col, desc);
			n = expected_view(pane, p.root, pane->sort_col, pane->sort_desc, want, 0);
			CHECK_EQ(pane->nr_view, n);
			for (size_t i = 0; i < n && i < pane->nr_view; i++) {
				if (pane->view[i] != want[i]) {
					fprintf(stderr, "  %s %s: row %zu is node %zu, not %zu\n", cols[c],
						desc ? "desc" : "asc", i, pane->view[i], want[i]);
					test_failed = 1;
					break;
				}
			}
		}
	}
	pane_free(pane);
	profile_release(&p);
	free(made);
	free(want);
}

static void test_tree_keys_sort_as_lists_do(void)
{
	tree_keys_sort_as_lists_do(3000);
}

/* The same with more children than the Tree makes keys for and sorts
 * lists of on one thread (pane.c, pane_tree.c: 2^18): two threads, each
 * with half of them, where there are two CPUs. */
static void test_tree_keys_on_two_threads(void)
{
	tree_keys_sort_as_lists_do(300000);
}

/* Names sharing long prefixes, empty, short: the radix-and-merge text
 * sort must agree with strcmp() both ways. */
static void text_sort_matches_strcmp(int nr_names)
{
	struct profile p;
	struct pane *pane;
	uint32_t x = 12345;
	int col;

	profile_init(&p, "t");
	for (int i = 0; i < nr_names; i++) {
		char name[64];
		size_t len;

		x = x * 1103515245 + 12345;
		len = (x >> 8) % 40;
		for (size_t k = 0; k < len; k++) {
			x = x * 1103515245 + 12345;
			/* Few letters: many shared prefixes past 16 bytes. */
			name[k] = k < 18 && (x >> 20) % 4 ? "void cudnn::detail"[k] : (char)('a' + (x >> 16) % 3);
		}
		node_set_calls(&p, node_new(&p, p.root, NODE_OP, name, len), 1 + (x >> 24) % 7);
	}
	profile_finish(&p);
	pane = pane_new(pane_types[PANE_OPS], &p, NULL);
	/* Numbers: ordered, and equal ones keep the model's order (rows'
	 * addresses rise with it). */
	col = pane_column(pane, "calls");
	for (int desc = 0; desc < 2; desc++) {
		pane_sort(pane, col, desc);
		for (size_t i = 1; i < pane->nr_view; i++) {
			const struct agg_row *a = pane_row(pane, i - 1), *b = pane_row(pane, i);

			if (desc ? a->calls < b->calls : a->calls > b->calls) {
				fprintf(stderr, "  row %zu: calls out of order\n", i);
				test_failed = 1;
				break;
			}
			if (a->calls == b->calls && a > b) {
				fprintf(stderr, "  row %zu: equal calls not stable\n", i);
				test_failed = 1;
				break;
			}
		}
	}
	col = pane_column(pane, "name");
	for (int desc = 0; desc < 2; desc++) {
		pane_sort(pane, col, desc);
		for (size_t i = 1; i < pane->nr_view; i++) {
			int c = strcmp(pane_row_name(pane, pane_row(pane, i - 1)),
				       pane_row_name(pane, pane_row(pane, i)));

			if (desc ? c < 0 : c > 0) {
				fprintf(stderr, "  row %zu out of order (%s): [%s] [%s]\n", i, desc ? "desc" : "asc", pane_row_name(pane, pane_row(pane, i - 1)), pane_row_name(pane, pane_row(pane, i)));
				test_failed = 1;
				break;
			}
		}
	}
	pane_free(pane);
	profile_release(&p);
}

/* Both sorts: the radix sort of many rows, the merge sort of a few. */
static void test_text_sort_matches_strcmp(void)
{
	text_sort_matches_strcmp(3000);
	text_sort_matches_strcmp(300);
	text_sort_matches_strcmp(40);
	text_sort_matches_strcmp(5);
}

/* Every pane type has its core, and each sub-table it has is whole:
 * pane.c calls a tree's two hooks and a bar's legend without asking. */
static void test_pane_types_are_whole(void)
{
	for (size_t i = 0; i < NR_PANES; i++) {
		const struct pane_ops *ops = pane_types[i];
		const struct pane_picture_ops *pic = ops->picture;

		CHECK(ops && ops->id == (enum pane_id)i);
		if (!ops)
			continue;
		CHECK(ops->load && ops->row_name);
		CHECK(!ops->tree || (ops->tree->row_depth && ops->tree->row_fold));
		CHECK(!pic || pic->canvas || pic->chart || pic->bar);
		CHECK(!pic || !pic->bar == !pic->legend);
		CHECK(!pic || !pic->click || pic->canvas);
		CHECK(!ops->print || ops->print->drill || ops->print->group_by ||
		      ops->print->export_name || ops->print->export_json);
		CHECK(!ops->text || ops->text->status || ops->text->hints || ops->text->detail);
		CHECK(!(ops->flags & PANE_PRINTABLE) || !pane_infos[i].has_tab);
	}
}

/* The list --print's error gives names every printable pane, whole (it
 * was cut at 256 bytes, mid-name, once there were 26 panes). */
static void test_print_names_whole(void)
{
	char names[PANE_PRINT_NAMES_MAX];
	size_t nr = 0;

	pane_print_names(names, sizeof(names));
	CHECK(strlen(names) + 1 < sizeof(names));
	for (size_t i = 0; i < NR_PANES; i++) {
		const char *name;
		size_t len;
		const char *at;

		if (!pane_infos[i].has_tab && !(pane_types[i]->flags & PANE_PRINTABLE))
			continue;
		name = pane_print_name(pane_types[i]);
		len = strlen(name);
		CHECK(len < 32);
		/* A whole item: after the start or ", ", before "," or the end. */
		at = names;
		while ((at = strstr(at, name)) &&
		       !((at == names || at[-1] == ' ') && (at[len] == ',' || !at[len])))
			at++;
		CHECK(at != NULL);
		nr++;
	}
	CHECK(nr > 20);
}

const struct test tests[] = {
	{ "--print's list of panes is whole", test_print_names_whole },
	{ "every pane type has its core, and whole sub-tables", test_pane_types_are_whole },
	{ "text sorts agree with strcmp, both ways", test_text_sort_matches_strcmp },
	{ "sorts are stable, text sorts by name, missing values go last", test_stable_sort },
	{ "the filter: smart case, inversion, errors; the cursor stays", test_filter_keeps_cursor },
	{ "the tree folds, and a filter shows a match in its context", test_tree_filter_and_fold },
	{ "the tree sorts each list when shown, ties in the model's order",
	  test_tree_sorts_each_list },
	{ "the tree's keys for many lists sort each as the list's own sort",
	  test_tree_keys_sort_as_lists_do },
	{ "the tree's keys and lists made on two threads sort the same",
	  test_tree_keys_on_two_threads },
	{ 0 },
};
