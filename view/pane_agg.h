/* SPDX-License-Identifier: MIT */
/*
 * pane_agg: what the panes over aggregate rows (struct agg_row: Operators,
 * Kernels, the drill-down) share -- their columns, with the definition of
 * each number in its help text, and the hooks that read an agg_row.  Not
 * a pane of its own; pane_ops.c, pane_kernels.c and pane_drill.c use it.
 */
#ifndef TUI_PANE_AGG_H
#define TUI_PANE_AGG_H

#include "../model/dist.h"
#include "pane.h"

/* What the model counts for PANE: its step, and its range of time (the
 * Timeline's selection, --range) when it has one. */
static inline struct agg_scope agg_scope_of(const struct pane *pane)
{
	return (struct agg_scope){ .step = pane->scope.step, .has_range = pane->scope.has_range,
				   .range_start_ns = pane->scope.range_start_ns,
				   .range_end_ns = pane->scope.range_end_ns };
}

/* pane_ops hooks for agg_row rows. */
const char *agg_row_name(const struct pane *pane, const void *row);
const struct attr *agg_row_attrs(const struct pane *pane, const void *row);

/* The distribution columns (Median, P90, P99, StdDev; hidden until
 * asked) after the others, their figures from pane->dist, which this
 * makes: the rows as FILL made them with the scope S, of an op's calls
 * (OPS) or a kernel's. */
void agg_dist_columns(struct pane *pane, dist_agg_fn *fill, const struct agg_scope *s, bool ops);

/* pane->rows from pane->agg, in the model's order. */
void agg_pane_rows(struct pane *pane);
/* The Operators columns (also the kernel -> ops drill-down's), the
 * default sort and the share base; after agg_pane_rows(). */
void agg_op_columns(struct pane *pane);
/* The same with the input shapes after the name (ops by shape). */
void agg_op_shape_columns(struct pane *pane);
/* The Kernels columns; DRILL: under an op (a Kind column, shares of the
 * op's device time). */
void agg_kernel_columns(struct pane *pane, bool drill);
/* The columns of kernels by op (agg_kernels_by_op): the op, the launch,
 * tensor cores, then the times.  They keep per-row text in pane->priv:
 * the pane's release hook is agg_kernel_op_release(). */
struct kernel_op_text {
	char (*dims)[2][40];		/* per row: grid, block */
	size_t nr;
};
void agg_kernel_op_columns(struct pane *pane);
void agg_kernel_op_release(struct pane *pane);

/* Where Enter on an agg row goes: the Drill-down pane, its scope the
 * drill-down TO of the row's name (or node, for a distinct row), or
 * PANE_NONE when there is nothing to open. */
enum pane_id agg_drill(const struct pane *pane, const void *row, enum drill_to to,
		       struct pane_scope *scope);

/* The detail view's lines for an agg row: the top kernels an op
 * launched, or the top ops that launched a kernel, each leading to its
 * row. */
void agg_detail(const struct pane *pane, const void *row, struct detail *d);

/* call-stack on an agg row of ops: ask the UI to open the call stacks of
 * the cursor's op (of its input shapes, when PANE groups by them). */
bool agg_open_stacks(const struct pane *pane, struct pane_request *req);

#endif
