// SPDX-License-Identifier: MIT
/* Which pane carries out which action, as data: each pane type lists the
 * actions its handle hook takes, and a pane-only action pressed elsewhere
 * says where it works from those lists (view/panes.c). */
#include "test.h"
#include "view/pane.h"

static void check_elsewhere(enum action act, const char *want)
{
	char got[256] = "";

	CHECK(pane_action_elsewhere(act, got, sizeof(got)));
	CHECK_STR(got, want);
}

/* The words the UI has always said, now made from the panes' lists. */
static void test_elsewhere_words(void)
{
	check_elsewhere(ACT_DEVICE_PREV, "device-prev works in the Memory pane");
	check_elsewhere(ACT_CHART_RIGHT, "chart-right works in the Memory pane");
	check_elsewhere(ACT_ZOOM_IN, "zoom-in works in the Memory and Timeline panes");
	check_elsewhere(ACT_ZOOM_ALL, "zoom-all works in the Memory and Timeline panes");
	check_elsewhere(ACT_PAN_LEFT, "pan-left works on the Timeline");
	check_elsewhere(ACT_NEXT_INSTANCE, "next-instance works on the Timeline");
	check_elsewhere(ACT_COLUMN_UP, "column-up works in the column chooser (| or F2)");
	check_elsewhere(ACT_CALL_STACK, "call stacks are an op's: press it in Operators");
	check_elsewhere(ACT_TOGGLE_VIEW, "this pane has no other grouping");
}

/* An action the UI carries out itself has no "elsewhere". */
static void test_global_actions_are_not_elsewhere(void)
{
	char got[64] = "";

	CHECK(!pane_action_elsewhere(ACT_SORT_NAME, got, sizeof(got)));
	CHECK(!pane_action_elsewhere(ACT_UNFOLD, got, sizeof(got)));
	CHECK(!pane_action_elsewhere(ACT_TOGGLE_FOLD, got, sizeof(got)));
	CHECK_STR(got, "");
}

/* Every pane-only action works somewhere, and a pane lists actions if
 * and only if it has a handle hook to take them. */
static void test_lists_are_whole(void)
{
	for (int a = 0; a < NR_ACTIONS; a++) {
		bool somewhere = false;

		if (!action_is_pane_only((enum action)a))
			continue;
		for (size_t i = 0; i < NR_PANES; i++)
			somewhere |= pane_type_takes(pane_types[i], (enum action)a);
		if (!somewhere)
			fprintf(stderr, "no pane takes %s\n", action_name((enum action)a));
		CHECK(somewhere);
	}
	for (size_t i = 0; i < NR_PANES; i++)
		CHECK(!pane_types[i]->handle == !pane_types[i]->actions);
}

/* The hook is asked for its listed actions only. */
static void test_handle_takes_listed_only(void)
{
	struct profile p;
	struct pane *pane;
	struct pane_request req;

	profile_init(&p, "t");
	node_new(&p, p.root, NODE_OP, "aten::mm", 8);
	profile_finish(&p);
	pane = pane_new(pane_types[PANE_TREE], &p, NULL);
	CHECK(pane_type_takes(pane->ops, ACT_TOGGLE_FOLD));
	CHECK(!pane_type_takes(pane->ops, ACT_ZOOM_IN));
	CHECK(!pane_handle(pane, ACT_ZOOM_IN, &req));
	pane_free(pane);
	profile_release(&p);
}

/* Every action has a key here: the help then lists what works. */
static size_t any_key(const void *ctx, enum action act, char *buf, size_t size)
{
	(void)ctx, (void)act;
	return (size_t)snprintf(buf, size, "k");
}

/* Whether the help of a pane of type ID lists ACT. */
static bool help_lists(const struct profile *p, enum pane_id id, enum action act)
{
	struct pane *of = pane_new(pane_types[id], p, NULL);
	struct help_arg ha = { any_key, NULL, of };
	struct pane_scope scope = { .arg = &ha };
	struct pane *help = pane_new(pane_types[PANE_HELP], p, &scope);
	bool found = false;

	for (size_t i = 0; i < help->nr_rows; i++)
		found |= !strcmp(pane_row_name(help, help->rows[i]), action_name(act));
	pane_free(help);
	pane_free(of);
	return found;
}

/* The help lists a pane-only action in the panes that take it, and
 * actions the UI carries out everywhere. */
static void test_help_lists_what_works_here(void)
{
	struct profile p;

	profile_init(&p, "t");
	node_new(&p, p.root, NODE_OP, "aten::mm", 8);
	profile_finish(&p);
	CHECK(help_lists(&p, PANE_OPS, ACT_CALL_STACK));
	CHECK(!help_lists(&p, PANE_KERNELS, ACT_CALL_STACK));
	CHECK(help_lists(&p, PANE_TIMELINE, ACT_ZOOM_IN));
	CHECK(!help_lists(&p, PANE_OPS, ACT_ZOOM_IN));
	CHECK(help_lists(&p, PANE_KERNELS, ACT_SORT_NAME));
	profile_release(&p);
}

/* The bar's words: a short one where set, else the action's name. */
static void test_hint_words(void)
{
	CHECK_STR(action_hint_word(ACT_ZOOM_OUT), "out");
	CHECK_STR(action_hint_word(ACT_SORT_HOST_SELF), "sort");
	CHECK_STR(action_hint_word(ACT_FILTER), "filter");
	CHECK_STR(action_hint_word(ACT_RANGE_MARK), "range");
	CHECK_STR(action_hint_word(ACT_RANGE_SUMMARY), "summary");
}

const struct test tests[] = {
	{ "a pane-only action pressed elsewhere says where it works",
	  test_elsewhere_words },
	{ "actions the UI carries out have no elsewhere",
	  test_global_actions_are_not_elsewhere },
	{ "every pane-only action is some pane's, and lists go with handle",
	  test_lists_are_whole },
	{ "a pane's handle is asked for its listed actions only",
	  test_handle_takes_listed_only },
	{ "the help lists the actions that work in its pane", test_help_lists_what_works_here },
	{ "the status bar's word for an action", test_hint_words },
	{ 0 },
};
