// SPDX-License-Identifier: MIT
/*
 * The drill-down: the device work some ops launched (DRILL_TO_KERNELS:
 * kernels, memcpy, memset, and a TensorRT layer's source layers), or the
 * ops that launched some kernels (DRILL_TO_OPS).  Which ops or kernels:
 * one name, one distinct row's node, or every name a pattern matches
 * (--drill-re).  Enter on a row drills on, the other way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane_agg.h"

/* Which nodes the drilled name (or node, or pattern) means. */
static bool drill_wants(const struct node *n, void *ctx)
{
	const struct pane_scope *s = ctx;

	if (s->drill_node)
		return n == s->drill_node;
	if (s->drill_re)
		return filter_match(s->drill_re, node_name(n), strlen(node_name(n)));
	return s->drill_name && !strcmp(node_name(n), s->drill_name);
}

static const char *what_of(const struct pane *pane)
{
	return pane->scope.drill_to == DRILL_TO_KERNELS ? "kernels" : "ops";
}

static const char *drilled(const struct pane *pane)
{
	return pane->scope.drill_re ? filter_pattern(pane->scope.drill_re)
	       : pane->scope.drill_name ? pane->scope.drill_name
					: "?";
}

static void drill_load(struct pane *pane)
{
	struct agg_scope s = agg_scope_of(pane);

	s.want = drill_wants;
	s.ctx = (void *)&pane->scope;
	if (pane->prof->is_summary) {
		/* Which op launched which kernel is in the tree a summary
		 * leaves out: no rows (drill_empty_text says why). */
		agg_pane_rows(pane);
		agg_op_columns(pane);
	} else if (pane->scope.drill_to == DRILL_TO_KERNELS) {
		agg_op_kernels(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_kernel_columns(pane, true);
		pane->share_base_ns = pane->agg.scope_device_ns;
	} else {
		agg_kernel_ops(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_op_columns(pane);
	}
	if (!pane->title) {
		size_t n = strlen(drilled(pane)) + 16;

		pane->title = xmalloc(n);
		snprintf(pane->title, n, "%s \xe2\x80\xba %s", drilled(pane), what_of(pane));
	}
}

static enum pane_id drill_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	return agg_drill(pane, row,
			 pane->scope.drill_to == DRILL_TO_KERNELS ? DRILL_TO_OPS : DRILL_TO_KERNELS,
			 scope);
}

static void drill_export_name(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%s", pane->scope.drill_name ? pane->scope.drill_name : "drill",
		 what_of(pane));
}

static void drill_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (pane->prof->is_summary)
		snprintf(buf, size, "drill-downs need the trace: a summary holds its tables, not which "
				    "op launched what");
	else if (pane->scope.drill_to == DRILL_TO_KERNELS)
		snprintf(buf, size, "'%s' launched no device work", drilled(pane));
	else
		snprintf(buf, size, "no op launched '%s'", drilled(pane));
}

static const struct pane_print_ops drill_print = { .export_name = drill_export_name };
static const struct pane_text_ops drill_text = { .detail = agg_detail };

const struct pane_ops drill_pane_ops = {
	.id = PANE_DRILL, .flags = PANE_FOLLOWS_STEP | PANE_FOLLOWS_RANGE, .align = ALIGN_BY_NAME,
	.load = drill_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.drill = drill_drill, .empty_text = drill_empty_text,
	.print = &drill_print, .text = &drill_text,
};
