/* SPDX-License-Identifier: MIT */
/*
 * name_cells: the cells of a model/name_stats.h row, for the panes whose
 * rows are struct name_row (API calls, Annotations): their column tables
 * name these getters.  c->arg of name_cell_stat(): 0 median, 1 min, 2 max,
 * 3 P90, 4 P99.
 */
#ifndef VIEW_NAME_CELLS_H
#define VIEW_NAME_CELLS_H

#include "../model/name_stats.h"
#include "pane.h"

const char *name_row_name(const struct pane *pane, const void *row);
struct cell name_cell_name(const struct pane *pane, const void *row, const struct column *c);
struct cell name_cell_calls(const struct pane *pane, const void *row, const struct column *c);
struct cell name_cell_total(const struct pane *pane, const void *row, const struct column *c);
/* The total over the calls, rounded half away from zero; none when a sum
 * was capped.  A row of a printed report (nsys stats): the file's Avg. */
struct cell name_cell_mean(const struct pane *pane, const void *row, const struct column *c);
struct cell name_cell_stat(const struct pane *pane, const void *row, const struct column *c);
/* To the ns; none for one call or where the file gives only sums. */
struct cell name_cell_stddev(const struct pane *pane, const void *row, const struct column *c);
/* What a row of a printed report states (model/name_stats.h): its Time %
 * of its own report, the report's name; none where it states none. */
struct cell name_cell_file_pct(const struct pane *pane, const void *row, const struct column *c);
struct cell name_cell_report(const struct pane *pane, const void *row, const struct column *c);
/* Whether some row of S states them: the columns are added only then. */
bool name_stats_have_file_pct(const struct name_stats *s);
bool name_stats_have_report(const struct name_stats *s);

/* What the model counts of PANE's names: its step, and its range of
 * time when it has one. */
static inline struct name_stats_scope name_scope_of(const struct pane *pane)
{
	return (struct name_stats_scope){ .step = pane->scope.step,
					  .has_range = pane->scope.has_range,
					  .range_start_ns = pane->scope.range_start_ns,
					  .range_end_ns = pane->scope.range_end_ns };
}

#endif
