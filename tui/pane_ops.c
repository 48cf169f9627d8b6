// SPDX-License-Identifier: MIT
/*
 * The Operators pane: one row per op (or TensorRT layer) name over the
 * whole profile or one step, as torch-tb-profiler's operator table.
 * Enter opens the device work an op launched (pane_drill.c).
 */
#include "pane_agg.h"

static void ops_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step };

	agg_ops(pane->prof, &s, &pane->agg);
	agg_pane_rows(pane);
	agg_op_columns(pane);
}

static const struct pane_ops *ops_drill(const struct pane *pane, const void *row,
					struct pane_scope *scope)
{
	return agg_drill(pane, row, DRILL_TO_KERNELS, scope);
}

static const char *const ops_aliases[] = { "operators", "op", NULL };

const struct pane_ops ops_pane_ops = {
	.id = PANE_OPS, .aliases = ops_aliases, .follows_step = true, .align = ALIGN_BY_NAME,
	.print_drill = DRILL_TO_OPS,
	.load = ops_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.detail = agg_detail,
	.drill = ops_drill,
};
