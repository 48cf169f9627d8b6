// SPDX-License-Identifier: MIT
/*
 * The ops under some nodes of the call tree, aggregated like the
 * Operators pane: `o` on a Tree node opens it for that node's subtree,
 * and on a node of a diff Tree for both sides of it (pane_multi.c diffs
 * it: the ops under the base's nodes against the ops under the new
 * run's).  Enter on an op opens the device work it launched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane_agg.h"

struct under_priv {
	uint8_t *marked;	/* per node id of pane->prof: under scope.under */
};

static bool mark(struct node *n, void *ctx)
{
	uint8_t *marked = ctx;

	marked[node_id(n)] = 1;
	return true;
}

static bool is_under(const struct node *n, void *ctx)
{
	const uint8_t *marked = ctx;

	return marked[node_id(n)];
}

static void under_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct under_priv *up = xcalloc(1, sizeof(*up));
	struct agg_scope s = { .step = pane->scope.step, .want = is_under };

	pane->priv = up;
	up->marked = xcalloc(p->nr_nodes ? p->nr_nodes : 1, 1);
	/* The walk only sets bits in the pane's own array. */
	for (size_t i = 0; i < pane->scope.nr_under; i++)
		if (node_id(pane->scope.under[i]) < p->nr_nodes)
			node_walk((struct node *)pane->scope.under[i], mark, up->marked);
	s.ctx = up->marked;
	agg_ops(p, &s, &pane->agg);
	agg_pane_rows(pane);
	agg_op_columns(pane);
	if (!pane->title) {
		const char *what = pane->scope.nr_under == 1 ? node_name(pane->scope.under[0]) : "these nodes";
		size_t n = strlen(what) + 16;

		pane->title = xmalloc(n);
		snprintf(pane->title, n, "%s \xe2\x80\xba ops", what);
	}
}

static enum pane_id under_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	return agg_drill(pane, row, DRILL_TO_KERNELS, scope);
}

static void under_empty_text(const struct pane *pane, char *buf, size_t size)
{
	(void)pane;
	snprintf(buf, size, "no op under it");
}

static void under_export_name(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "%s-ops", pane->scope.nr_under == 1 ? node_name(pane->scope.under[0]) : "nodes");
}

static void under_release(struct pane *pane)
{
	struct under_priv *up = pane->priv;

	if (up)
		free(up->marked);
	free(up);
}

static const struct pane_print_ops under_print = { .export_name = under_export_name };

const struct pane_ops under_pane_ops = {
	.id = PANE_UNDER, .flags = PANE_FOLLOWS_STEP, .align = ALIGN_BY_NAME,
	.load = under_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.drill = under_drill, .empty_text = under_empty_text, .release = under_release,
	.print = &under_print,
};
