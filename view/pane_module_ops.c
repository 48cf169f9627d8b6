// SPDX-License-Identifier: MIT
/*
 * A module's ops: Enter in the Modules pane lists the ops called under a
 * module -- under every call of it (its name and module id), directly or
 * deeper -- aggregated by name like the Operators pane.  Enter on one of
 * them opens its kernels (pane_drill.c), over the whole profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane_agg.h"

static int64_t module_id_of(const struct node *n)
{
	const struct attr *a = attr_find(node_attrs(n), "module_id");

	return a && attr_type(a) == ATTR_INT ? a->v.i : -1;
}

/* Whether op N runs under a call of the module the scope names. */
static bool under_module(const struct node *n, void *ctx)
{
	const struct node *m = ((const struct pane_scope *)ctx)->drill_node;
	int64_t id = module_id_of(m);

	for (const struct node *a = node_parent(n); a; a = node_parent(a))
		if (a->kind == NODE_MODULE && node_name(a) == node_name(m) && module_id_of(a) == id)
			return true;
	return false;
}

static void mops_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step, .want = under_module, .ctx = &pane->scope };
	size_t n;

	if (pane->scope.drill_node)
		agg_ops(pane->prof, &s, &pane->agg);
	agg_pane_rows(pane);
	agg_op_columns(pane);
	n = strlen(pane->scope.drill_name ? pane->scope.drill_name : "?") + 16;
	free(pane->title);	/* a step reloads the pane */
	pane->title = xmalloc(n);
	snprintf(pane->title, n, "%s \xe2\x80\xba ops", pane->scope.drill_name ? pane->scope.drill_name
										: "?");
}

static enum pane_id mops_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	return agg_drill(pane, row, DRILL_TO_KERNELS, scope);
}

static bool mops_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	return act == ACT_CALL_STACK && agg_open_stacks(pane, req);
}

static void mops_empty(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "no op ran under '%s'", pane->scope.drill_name ? pane->scope.drill_name
									   : "?");
}

/* The actions handle() takes. */
static const enum action mops_actions[] = {
	ACT_CALL_STACK, ACT_NONE,
};

const struct pane_ops module_ops_pane_ops = {
	.id = PANE_MODULE_OPS, .flags = PANE_FOLLOWS_STEP,
	.load = mops_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.drill = mops_drill, .handle = mops_handle, .actions = mops_actions, .empty_text = mops_empty,
};
