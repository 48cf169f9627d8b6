// SPDX-License-Identifier: MIT
/*
 * The Operators pane: one row per op (or TensorRT layer) name over the
 * whole profile or one step, as torch-tb-profiler's operator table; with
 * --group shape (or toggle-view), one row per name and input shape, as
 * its table grouped by OperationAndInputShape.  Enter opens the device
 * work an op launched (pane_drill.c).  In a trace whose kernels carry
 * their launches, the plugin's tensor-core columns follow.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/aggregate.h"
#include "../model/util.h"
#include "pane_agg.h"

#define ROW(r) ((const struct agg_row *)(r))

static struct cell get_tc_eligible(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->tc_eligible ? "Yes" : "No");
}

/* A tensor-core time (the column's arg: its offset in agg_row) as a share
 * of the op's device self or total time (none without device time). */
static struct cell get_tc_share(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t tc = pane_get_i64(pane, row, c).v.i;
	int64_t of = c->arg == offsetof(struct agg_row, tc_self_ns) ? ROW(row)->device_self_ns
								    : ROW(row)->device_total_ns;

	return of > 0 ? cell_real(100.0 * (double)tc / (double)of) : cell_none();
}

static const struct column col_tc_eligible = {
	.key = "tc_eligible", .title = "TC eligible", .kind = COL_TEXT, .width = 11,
	.get = get_tc_eligible,
	.help = "Yes when some call of the op is tensor-core eligible: its name is on "
		"torch-tb-profiler's list (convolutions, matrix products, RNN cells), an op it "
		"called is eligible, or it launched a kernel that uses tensor cores (proftui(1), "
		"TENSOR CORES)",
};
static const struct column col_tc_self = {
	.key = "tc_self_pct", .title = "TC self %", .kind = COL_PCT, .width = 9,
	.get = get_tc_share, .arg = offsetof(struct agg_row, tc_self_ns),
	.help = "the share of the op's Dev self time in kernels that use tensor cores "
		"(torch-tb-profiler's tc_self_ratio; empty without device time)",
};
static const struct column col_tc_total = {
	.key = "tc_total_pct", .title = "TC total %", .kind = COL_PCT, .width = 10,
	.get = get_tc_share, .arg = offsetof(struct agg_row, tc_total_ns),
	.help = "the share of the op's Dev total time in kernels that use tensor cores "
		"(torch-tb-profiler's tc_total_ratio; empty without device time)",
};

/* The tensor-core columns, where the model has them (agg_has_tc()). */
static void add_tc_columns(struct pane *pane)
{
	if (!agg_has_tc(pane->prof))
		return;
	pane_add_column(pane, &col_tc_eligible);
	pane_add_column(pane, &col_tc_self);
	pane_add_column(pane, &col_tc_total);
}

static bool by_shape(const struct pane *pane)
{
	return pane->scope.group && !strcmp(pane->scope.group, "shape");
}

/* A summary older than version 3 sums the shapes of a name. */
static bool ops_need_trace(const struct pane *pane)
{
	return by_shape(pane) && pane->prof->is_summary && !pane->prof->summary_has_shapes;
}

static void ops_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (ops_need_trace(pane))
		snprintf(buf, size, "operators by input shape need the trace, or its summary made "
				    "again: this one is older than version 3 and sums the shapes of a name");
}

static void ops_load(struct pane *pane)
{
	struct agg_scope s = agg_scope_of(pane);

	if (ops_need_trace(pane)) {
		memset(&pane->agg, 0, sizeof(pane->agg));
		agg_pane_rows(pane);
		agg_op_shape_columns(pane);
	} else if (by_shape(pane)) {
		agg_ops_by_shape(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_op_shape_columns(pane);
	} else {
		agg_ops(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_op_columns(pane);
	}
	add_tc_columns(pane);
	if (!ops_need_trace(pane))
		agg_dist_columns(pane, by_shape(pane) ? agg_ops_by_shape : agg_ops, &s, true);
	free(pane->title);
	pane->title = xstrdup(by_shape(pane) ? "Operators by input shape" : "Operators");
}

static enum pane_id ops_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	return agg_drill(pane, row, DRILL_TO_KERNELS, scope);
}

/* The row's op in Kernel sequences. */
static bool open_sequences(const struct pane *pane, struct pane_request *req)
{
	const struct agg_row *r = pane->nr_view ? pane_row(pane, pane->cursor) : NULL;

	if (!r)
		return false;
	req->open = true;
	req->open_pane = PANE_SEQUENCES;
	memset(&req->open_scope, 0, sizeof(req->open_scope));
	req->open_scope.step = pane->scope.step;
	req->open_scope.drill_name = r->name;
	return true;
}

/* toggle-view: by name, or by name and input shape; call-stack: the
 * op's call stacks; sequences: the kernel sequences it launched. */
static bool ops_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	if (act == ACT_CALL_STACK)
		return agg_open_stacks(pane, req);
	if (act == ACT_SEQUENCES)
		return open_sequences(pane, req);
	if (act != ACT_TOGGLE_VIEW)
		return false;
	pane->scope.group = by_shape(pane) ? NULL : "shape";
	pane_reload(pane);
	req->message = by_shape(pane) ? "operators by name and input shape" : "operators by name";
	return true;
}

static const char *const ops_aliases[] = { "operators", "op", NULL };

/* The actions handle() takes. */
static const enum action ops_actions[] = {
	ACT_CALL_STACK, ACT_SEQUENCES, ACT_TOGGLE_VIEW, ACT_NONE,
};

static const struct pane_print_ops ops_print = { .drill = DRILL_TO_OPS, .group_by = "shape" };
static const struct pane_text_ops ops_text = { .detail = agg_detail };

const struct pane_ops ops_pane_ops = {
	.id = PANE_OPS, .flags = PANE_FOLLOWS_STEP | PANE_FOLLOWS_RANGE, .aliases = ops_aliases, .align = ALIGN_BY_NAME,
	.load = ops_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.drill = ops_drill, .handle = ops_handle, .actions = ops_actions, .empty_text = ops_empty_text,
	.needs_trace = ops_need_trace, .print = &ops_print, .text = &ops_text,
};
