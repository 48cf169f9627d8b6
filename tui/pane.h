/* SPDX-License-Identifier: MIT */
/*
 * pane: the one table engine behind every view.  A pane is a list of rows
 * and a list of columns {key, title, kind, width, get}; sorting, filtering,
 * the cursor and export are generic and do not know which pane they serve.
 * A pane type (struct pane_ops) only says how to load its rows from the
 * profile and which columns it has; the Tree pane also orders its own rows
 * (siblings sorted under their parent, folds).
 *
 * The same pane renders on screen (ui.c), in --print and in exports
 * (export.c), so what a user sees is what a script gets.
 *
 * Ownership: a pane borrows the profile (which outlives it) and owns its
 * rows, columns, view, filter and private state; pane_free() frees them.
 */
#ifndef TUI_PANE_H
#define TUI_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/aggregate.h"
#include "../model/profile.h"
#include "filter.h"
#include "format.h"

struct pane;
struct column;

typedef struct cell col_get(const struct pane *pane, const void *row, const struct column *col);

struct column {
	const char *key;	/* --sort name and JSON key stem: "device_self" */
	const char *title;	/* header: "Dev self" */
	const char *help;	/* one line for the help screen */
	enum col_kind kind;
	int width;		/* screen width; 0: flexible (takes what is left) */
	col_get *get;
	const char *attr;	/* extra columns: the attribute key */
	int arg;		/* a getter's parameter (step category index) */
	char *owned;		/* heap key/title of a generated column, or NULL */
	char *owned_title;
};

/* What a pane shows beyond the whole profile. */
struct pane_scope {
	const struct step *step;	/* NULL: all steps */
	const char *drill_name;		/* drill-down: rows of this op/kernel */
	const struct node *drill_node;	/* ...or exactly this node (a distinct row) */
	const struct filter *drill_re;	/* ...or the names this pattern matches */
	const struct profile *first_run;	/* Info lists every run from here */
	const void *arg;		/* a pane type's own argument (help) */
};

struct pane_ops {
	const char *name;	/* keymap section and --print name: "ops" */
	const char *title;	/* "Operators" */
	/* Fill pane->rows and pane->cols (and the default sort) from
	 * pane->prof and pane->scope. */
	void (*load)(struct pane *pane);
	/* Order pane->view from rows, filter and sort; NULL: the generic
	 * filter and stable sort. */
	void (*rebuild)(struct pane *pane);
	const char *(*row_name)(const struct pane *pane, const void *row);
	/* The row's attributes (extra columns); NULL when rows have none. */
	const struct attr *(*row_attrs)(const struct pane *pane, const void *row);
	/* Tree rows: depth of view row I and whether it is folded with
	 * children hidden / has children; NULL for flat panes. */
	int (*row_depth)(const struct pane *pane, size_t i);
	int (*row_fold)(const struct pane *pane, size_t i);	/* 0 leaf, 1 open, 2 folded */
	/* Free what load() allocated in pane->priv. */
	void (*release)(struct pane *pane);
};

struct pane {
	const struct pane_ops *ops;
	struct profile *prof;
	struct pane_scope scope;
	char *title;			/* heap: "Operators", "aten::mm › kernels" */

	struct column *cols;
	size_t nr_cols;
	const void **rows;		/* every row, in the model's order */
	size_t nr_rows;
	const void **foot;		/* summary rows after the table (averages) */
	size_t nr_foot;
	size_t *view;			/* the rows shown: indices into rows */
	size_t nr_view;

	int sort_col;			/* -1: the model's order */
	bool sort_desc;
	struct filter *filter;		/* NULL: every row */

	size_t cursor, top;		/* view index of the selection, first shown */
	size_t hscroll;			/* first non-name column shown on screen */

	struct agg agg;			/* the rows of aggregate panes */
	int64_t share_base_ns;		/* 100% for the share column */
	void *priv;			/* the pane type's own state */
};

/* Pane types. */
extern const struct pane_ops ops_pane_ops, kernels_pane_ops, steps_pane_ops, tree_pane_ops,
	info_pane_ops, drill_kernels_pane_ops, drill_ops_pane_ops, help_pane_ops;

/* What the help pane is made from (scope.arg): the live keymap, the
 * section of the pane it helps with, and that pane (for its columns). */
struct keymap;
struct help_arg {
	const struct keymap *km;
	int section;			/* enum keymap_section */
	const struct pane *of;
};

/* The pane types reachable by name ("ops", "operators", "kernels", ...). */
const struct pane_ops *pane_ops_find(const char *name);

/*
 * A new pane of type OPS over PROF, loaded, filtered and sorted.  SCOPE may
 * be NULL; its pointers must outlive the pane (the filter is borrowed).
 * Caller frees with pane_free().
 */
struct pane *pane_new(const struct pane_ops *ops, struct profile *prof,
		      const struct pane_scope *scope);
void pane_free(struct pane *pane);
/* Load the rows again for another step, keeping sort, filter and (where
 * the selected row still exists) the cursor. */
void pane_set_step(struct pane *pane, const struct step *step);
/* Take F (may be NULL: no filter; the pane frees it) and rebuild. */
void pane_set_filter(struct pane *pane, struct filter *f);
/* Sort by column COL (-1: model order), descending or not, and rebuild. */
void pane_sort(struct pane *pane, int col, bool desc);
/* Rebuild the view (after a fold, say), keeping the cursor on its row. */
void pane_rebuild(struct pane *pane);

/* The column called NAME (key, JSON key or title, any case), or -1. */
int pane_column(const struct pane *pane, const char *name);
/* Whether a column is sorted descending when first chosen (numbers). */
bool column_default_desc(const struct column *c);
/* The JSON/CSV key of C: times get "_us" ("device_self_us"). */
const char *column_json_key(const struct column *c, char *buf, size_t size);

/* The row at view index I, its name, and one of its cells. */
const void *pane_row(const struct pane *pane, size_t i);
const char *pane_row_name(const struct pane *pane, const void *row);
struct cell pane_cell(const struct pane *pane, const void *row, size_t col);

/* Whether the row under the cursor can be drilled into; the pane type of
 * the drill-down and its scope. */
const struct pane_ops *pane_drill_target(const struct pane *pane, struct pane_scope *scope);

/* Tree panes: fold or unfold view row I (UNFOLD < 0 toggles); unfold
 * everything under it (or, for I == SIZE_MAX, the whole tree). */
void tree_fold(struct pane *pane, size_t i, int unfold);
void tree_unfold_all(struct pane *pane, size_t i);
/* The view row of I's parent, or I itself at the top. */
size_t tree_parent_row(const struct pane *pane, size_t i);

/* For pane types: a getter for any int64 field of a row struct, the
 * column's arg being the field's offsetof(). */
struct cell pane_get_i64(const struct pane *pane, const void *row, const struct column *c);
/* For pane types: add a column (copied); returns its index. */
size_t pane_add_column(struct pane *pane, const struct column *c);
/* Add one column per attribute key found on the rows (ops->row_attrs),
 * in first-seen order, skipping the keys in SKIP (NULL-terminated). */
void pane_add_attr_columns(struct pane *pane, const char *const *skip);
/* The generic view: rows the filter keeps, stably sorted. */
void pane_view_flat(struct pane *pane);
/* Sort IDX[0..N) (indices into pane->rows) stably by column COL. */
void pane_sort_indices(const struct pane *pane, size_t *idx, size_t n, int col, bool desc);

#endif
