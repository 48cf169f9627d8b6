// SPDX-License-Identifier: MIT
/*
 * The Operators pane: one row per op (or TensorRT layer) name over the
 * whole profile or one step, as torch-tb-profiler's operator table; with
 * --group shape (or toggle-view), one row per name and input shape, as
 * its table grouped by OperationAndInputShape.  Enter opens the device
 * work an op launched (pane_drill.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane_agg.h"

static bool by_shape(const struct pane *pane)
{
	return pane->scope.group && !strcmp(pane->scope.group, "shape");
}

static void ops_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step };

	if (by_shape(pane)) {
		agg_ops_by_shape(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_op_shape_columns(pane);
	} else {
		agg_ops(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_op_columns(pane);
	}
	free(pane->title);
	pane->title = xstrdup(by_shape(pane) ? "Operators by input shape" : "Operators");
}

static const struct pane_ops *ops_drill(const struct pane *pane, const void *row,
					struct pane_scope *scope)
{
	return agg_drill(pane, row, DRILL_TO_KERNELS, scope);
}

/* toggle-view: by name, or by name and input shape; call-stack: the
 * op's call stacks. */
static bool ops_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	if (act == ACT_CALL_STACK)
		return agg_open_stacks(pane, req);
	if (act != ACT_TOGGLE_VIEW)
		return false;
	pane->scope.group = by_shape(pane) ? NULL : "shape";
	pane_reload(pane);
	req->message = by_shape(pane) ? "operators by name and input shape" : "operators by name";
	return true;
}

static const char *const ops_aliases[] = { "operators", "op", NULL };

const struct pane_ops ops_pane_ops = {
	.id = PANE_OPS, .aliases = ops_aliases, .follows_step = true, .align = ALIGN_BY_NAME,
	.print_drill = DRILL_TO_OPS, .group_by = "shape",
	.load = ops_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.detail = agg_detail,
	.drill = ops_drill, .handle = ops_handle,
};
