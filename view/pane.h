/* SPDX-License-Identifier: MIT */
/*
 * pane: the one table engine behind every view.  A pane is a list of rows
 * and a list of columns {key, title, kind, width, get}; sorting, filtering,
 * the cursor and export are generic and do not know which pane they serve.
 * A pane type (struct pane_ops) says how to load its rows from the profile,
 * which columns it has, and whatever it does beyond the generic: where
 * Enter goes, the actions only it knows (the Tree's folds, the Steps
 * pane's picking a step), its status text, its bar.  Nothing outside a
 * pane's own file asks which pane it holds, and panes name each other by
 * id (enum pane_id), never by their hooks.
 *
 * The same pane renders on screen (ui.c, draw.c), in --print and in
 * exports (export.c), so what a user sees is what a script gets.
 *
 * Ownership: a pane borrows the profile (which outlives it; panes never
 * change it) and owns its rows, columns, view, filter and private state;
 * pane_free() frees them.
 *
 * To add a pane type (ARCHITECTURE.md, 'A pane'):
 *   1. Write view/pane_NAME.c ending in `const struct pane_ops
 *      NAME_pane_ops = { .id = PANE_ID, .load = ..., .row_name = ... }`,
 *      with the hooks below it needs (most need only load and row_name:
 *      the generic view filters and sorts) and the sub-tables it has.
 *      Its columns carry their help text; it is the help screen's and
 *      the man page's description.
 *   2. Add its line to PANES in view/panes.h.  That gives it its id, its
 *      keymap section, its --print name, and (with a tab) its place in
 *      the tab order and a pane-NAME action.
 *   3. Bind a key to pane-NAME in keymaps/default.keys if it has a tab,
 *      and describe it in man/proftui.1 (PANES section) -- the lint
 *      checks every pane and action is there.
 *   4. Tests: a golden --print case (tests/golden/) and a tmux test.
 */
#ifndef TUI_PANE_H
#define TUI_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../model/aggregate.h"
#include "../model/profile.h"
#include "actions.h"
#include "filter.h"
#include "format.h"
#include "panes.h"

struct pane;
struct column;
struct profset;
struct dist_rows;

typedef struct cell col_get(const struct pane *pane, const void *row, const struct column *col);

struct column {
	const char *key;	/* --sort name and JSON key stem: "device_self" */
	const char *title;	/* header: "Dev self" */
	const char *help;	/* one line for the help screen */
	enum col_kind kind;
	int width;		/* screen width; 0: flexible (takes what is left) */
	col_get *get;
	const char *attr;	/* extra columns: the attribute key */
	bool of_attrs;		/* its getter reads only the row's attributes:
				   empty for a row that has none, which an
				   export then spares the call */
	int arg;		/* a getter's parameter (a field's offset) */
	bool wrap;		/* text: on screen, wrapped onto more lines
				   rather than cut (the help's Meaning) */
	bool spill;		/* text: on screen, runs on over the empty
				   cells to its right, and wraps at blanks
				   where the row's other cells are text
				   (the Overview's advice and values) */
	bool hidden;		/* not shown unless asked: the screen shows
				   it once the column chooser does, --print
				   and exports with --stats (the scope's
				   all_columns); sorting and the detail view
				   have it always */
	char *owned;		/* heap key/title of a generated column, or NULL */
	char *owned_title;
	/* Several profiles (pane_multi.c): the JSON/CSV key when it is not
	 * the key with "_us" for times ("device_self_us_delta"), and whether
	 * sorting goes by the magnitude (a change either way: |delta|). */
	const char *json_key;
	bool sort_by_magnitude;
	char *owned_json_key;
};

/* No pane: where a row leads nowhere. */
#define PANE_NONE NR_PANES

/* Which way a drill-down goes. */
enum drill_to {
	DRILL_NONE,
	DRILL_TO_KERNELS,	/* the device work the named ops launched */
	DRILL_TO_OPS,		/* the ops that launched the named kernels */
};

/* What a pane shows beyond the whole profile. */
struct pane_scope {
	const struct step *step;	/* NULL: all steps */
	enum drill_to drill_to;		/* a drill-down: which way, and of what: */
	const char *drill_name;		/* rows of this op/kernel */
	const struct node *drill_node;	/* ...or exactly this node (a distinct row) */
	const struct filter *drill_re;	/* ...or the names this pattern matches */
	const struct profile *first_run;	/* Info lists every run from here */
	bool expand_all;		/* hierarchical panes: nothing folded (--print) */
	bool all_columns;		/* hidden columns too (--print --stats) */
	const void *arg;		/* a pane type's own argument (help) */
	const char *group;		/* --group: a pane's other grouping
					   (Operators: "shape", Kernels: "op") */
	bool has_range;			/* a time range narrows it (the Memory
					   chart's zoom; the Timeline's
					   selection, --range: [start, end)): */
	int64_t range_start_ns, range_end_ns;	/* absolute (the zoom: end in it) */
	int64_t range_origin_ns;	/* the Timeline's 0, for saying it */
	size_t range_lane;		/* the Range pane: lane + 1 of its
					   first view; 0: every lane */
	bool has_device;		/* one device's memory events only: */
	struct mem_device device;
	/* Several profiles (model/profset.h): a diff shows its base against
	 * pane->prof (the new one); across ranks, panes show every rank (the
	 * run RUN of each) unless PER_RANK asks for pane->prof alone (a rank
	 * opened from the Ranks pane).  NULL: one profile. */
	const struct profset *set;
	size_t run;
	bool per_rank;
	/* The ops under these nodes only (a diff Tree node's ops): of
	 * pane->prof, and in a diff the base's. */
	const struct node *const *under, *const *base_under;
	size_t nr_under, nr_base_under;
};

/* What a pane's handle() asks of the UI beyond changing itself. */
struct pane_request {
	bool pick_step;			/* narrow every pane to STEP (NULL: all) */
	const struct step *step;
	const char *message;		/* for the bar; static text */
	bool is_error;
	/* JUMP: show the tab of pane JUMP_TO with the cursor on the row
	 * called JUMP_ROW (a name the profile holds: it outlives the
	 * request).  Panes are named by id: the layer that opens them
	 * finds their hooks (pane_types[]), so no pane file calls another. */
	bool jump;
	enum pane_id jump_to;
	const char *jump_row;
	const struct node *jump_node;	/* rather than JUMP_ROW: the row of
					   this node (a block on the Timeline) */
	bool open;			/* open pane OPEN_PANE over this one, */
	enum pane_id open_pane;		/* as a drill-down does, in this scope, */
	struct pane_scope open_scope;
	const char *open_row;		/* with the cursor on the row so called
					   (NULL: the first) */
	/* Ranks: show this member of the set alone in every pane (-1: every
	 * rank again). */
	bool open_rank;
	long rank;
	/* Close this pane and sort the one under it by its column SORT_COL
	 * (the column's own direction; the current sort column: reversed). */
	bool sort;
	int sort_col;
	/* Show run RUN (0-based) of the profiles: Info's list of runs. */
	bool open_run;
	size_t run;
	/* Narrow every pane that follows a range to [RANGE_START_NS,
	 * RANGE_END_NS) (absolute; RANGE_ORIGIN_NS: the Timeline's 0), or
	 * to none (HAS_RANGE false): the Timeline's selection. */
	bool pick_range;
	bool has_range;
	int64_t range_start_ns, range_end_ns, range_origin_ns;
};

/* How a pane type's rows line up across several profiles (pane_multi.c
 * makes the diff and across-ranks forms of a pane from it). */
enum pane_align {
	ALIGN_NONE,		/* it shows pane->prof alone */
	ALIGN_BY_NAME,		/* rows of one name match (the k-th of a name the
				   k-th: distinct rows may share names) */
	ALIGN_BY_POSITION,	/* the i-th row matches the i-th (steps) */
	ALIGN_SELF,		/* it reads scope.set itself (the diff Tree) */
};

struct detail;
struct canvas;

/* Hierarchical panes (the Tree, Modules, Ranks, the Overview, Call
 * stacks): depth of view row I and its fold state (0 a leaf, 1 open, 2
 * folded). */
struct pane_tree_ops {
	int (*row_depth)(const struct pane *pane, size_t i);
	int (*row_fold)(const struct pane *pane, size_t i);
};

/* What a pane draws beyond cells of text. */
struct pane_picture_ops {
	/* A pane drawn as a picture rather than a table (the Timeline):
	 * paint C (its size set, cleared) from the pane's state; the pane
	 * may move its own view to keep the cursor in sight.  CLICK: a
	 * click at cell (Y, X) of the picture, TWICE for a double click;
	 * true when it selected something. */
	void (*canvas)(struct pane *pane, struct canvas *c);
	bool (*click)(struct pane *pane, int y, int x, bool twice);
	/* A drag with the button held from column X0 to X1 of the picture
	 * (the Timeline: a range of time); true when it took it, with what
	 * it asks of the UI in REQ. */
	bool (*drag)(struct pane *pane, int x0, int x1, struct pane_request *req);
	/* The cursor was put on a row from elsewhere (a jump, w): show it
	 * at a scale where it can be read, not only somewhere in view. */
	void (*reveal)(struct pane *pane);
	/* A NAME that no row has may be the picture's own (the Timeline's
	 * counter lanes, by series): put the cursor on it, shown; false:
	 * none. */
	bool (*seek)(struct pane *pane, const char *name);
	/* A drawing above the table (the Memory curve), HEIGHT lines of
	 * WIDTH cells at most (UTF8: may use Unicode), painted on OUT
	 * (canvas.h; sized here); returns the lines made (0: none, the
	 * table takes the screen). */
	size_t (*chart)(const struct pane *pane, int width, int height, bool utf8,
			struct canvas *out);
	/* COL_BAR columns: the row's segments into SEG (at most MAX; -1 or 0
	 * for none) and their names for the legend, in the same order. */
	size_t (*bar)(const struct pane *pane, const void *row, int64_t *seg, size_t max);
	const char *const *(*legend)(const struct pane *pane, size_t *nr);
};

/* --print and the exports, beyond the generic table. */
struct pane_print_ops {
	enum drill_to drill;	/* --print NAME --drill X: this way */
	/* The --group value that gives this pane its other grouping (scope
	 * .group holds it; toggle-view switches), or NULL. */
	const char *group_by;
	/* A few words for the default export file name ("aten::mm-kernels");
	 * NULL: the pane's name. */
	void (*export_name)(const struct pane *pane, char *buf, size_t size);
	/* --print/export as JSON when it is not one object per row (the
	 * Overview's contract): write the first LIMIT rows' worth (0: all)
	 * to OUT, return the rows written or -1.  NULL: the generic form. */
	long (*export_json)(const struct pane *pane, FILE *out, size_t limit);
};

/* What a pane says beyond its rows. */
struct pane_text_ops {
	/* The status line's text on the right (a legend, a count); "" for
	 * none.  NULL: the generic one. */
	void (*status)(const struct pane *pane, char *buf, size_t size);
	/* Why a column is blank, in the words of the status line, for
	 * --print to say too ("" for nothing).  NULL: never. */
	void (*why_blank)(const struct pane *pane, char *buf, size_t size);
	/* The actions the bar's hint names for this pane, ACT_NONE-ended;
	 * NULL: the generic hint. */
	const enum action *hints;
	/* Named after HINTS, each only where the bar has room for it whole
	 * (ACT_NONE-ended; NULL: none). */
	const enum action *more_hints;
	/* Where the pane is, for "NAME works WHERE" when a pane-only action
	 * is pressed elsewhere ("on the Timeline"); NULL: "in the TITLE
	 * pane". */
	const char *where;
	/* What the detail view (inspect) shows of ROW beyond its columns and
	 * attributes, which it lists itself: what launched a kernel, what an
	 * op launched, where a node sits in the tree (detail.h). */
	void (*detail)(const struct pane *pane, const void *row, struct detail *d);
	/* What the bar says while ACT does slow work the first time (the
	 * Timeline's u making every counter series), for the UI to show
	 * before it starts; NULL, or NULL returned: nothing slow. */
	const char *(*busy)(const struct pane *pane, enum action act);
};

/* What a pane type is, as bits of pane_ops.flags. */
enum pane_flag {
	PANE_FOLLOWS_STEP = 1u << 0,	/* [ and ] narrow it to a step */
	PANE_PRINTABLE = 1u << 1,	/* without a tab, --print reaches it by
					   name (memory-events, memory-curve) */
	PANE_DRILL_IS_SCOPE = 1u << 2,	/* --print NAME --drill X: this pane of
					   op X (scope.drill_name), not a
					   drill-down pane (the call stacks) */
	PANE_FOLLOWS_RANGE = 1u << 3,	/* the Timeline's range narrows it */
	PANE_DRAWS_RANGE = 1u << 4,	/* it shows that range (the Timeline) */
};

/*
 * A pane type: the core every pane has, and sub-tables for what only some
 * do (NULL: none of it).  Optional hooks are called through pane.c's
 * functions (pane_empty_text(), pane_row_depth(), ...), which hold each
 * one's default; nothing else reads them.
 */
struct pane_ops {
	enum pane_id id;	/* its line in panes.h: name, title, section, tab */
	unsigned flags;		/* enum pane_flag */
	const char *const *aliases;	/* more --print names, NULL-ended */
	enum pane_align align;	/* several profiles: see enum pane_align */
	/* Whether its tab is shown for SCOPE over PROF; NULL: always. */
	bool (*available)(const struct profile *prof, const struct pane_scope *scope);

	/* Fill pane->rows and pane->cols (and the default sort) from
	 * pane->prof and pane->scope. */
	void (*load)(struct pane *pane);
	/* Order pane->view from rows, filter and sort; NULL: the generic
	 * filter and stable sort (pane_view_flat). */
	void (*rebuild)(struct pane *pane);
	const char *(*row_name)(const struct pane *pane, const void *row);
	/* The node of the trace ROW stands for (a block, a launch's kernel,
	 * a gap's next kernel), so that w and jumps find that very one on
	 * the Timeline; NULL (or no hook): the first of its name. */
	const struct node *(*row_node)(const struct pane *pane, const void *row);
	/* The row's attributes (extra columns); NULL when rows have none. */
	const struct attr *(*row_attrs)(const struct pane *pane, const void *row);
	/* Where Enter on ROW goes: the pane to open, its scope filled in
	 * (zeroed by the caller), or PANE_NONE: nothing to drill into. */
	enum pane_id (*drill)(const struct pane *pane, const void *row, struct pane_scope *scope);
	/* The actions this pane carries out its own way (fold, unfold, pick
	 * a step): true when it took ACT; what it asks of the UI goes in
	 * REQ.  It is asked for the actions in ACTIONS only (ACT_NONE-ended),
	 * which also say where a pane-only action works (actions.h, P). */
	bool (*handle)(struct pane *pane, enum action act, struct pane_request *req);
	const enum action *actions;
	/* The step shown changed (scope.step holds it).  A pane that does
	 * not follow steps may still point at it; one that follows steps
	 * and has this hook narrows itself, and is rebuilt, not reloaded. */
	void (*step_changed)(struct pane *pane);
	/* What to say when the pane has no rows ("no op launched 'x'");
	 * NULL, or BUF left as it is: the caller's words. */
	void (*empty_text)(const struct pane *pane, char *buf, size_t size);
	/* Whether the view asked for needs the trace that the pane's
	 * summary was made from (a summary does not hold it): the pane is
	 * then empty, empty_text says why, and --print fails.  NULL: never. */
	bool (*needs_trace)(const struct pane *pane);
	/* Free what load() allocated in pane->priv. */
	void (*release)(struct pane *pane);

	const struct pane_tree_ops *tree;
	const struct pane_picture_ops *picture;
	const struct pane_print_ops *print;
	const struct pane_text_ops *text;
};

struct pane {
	const struct pane_ops *ops;
	const struct profile *prof;
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
	size_t hscroll;			/* columns after the name scrolled off the
					   screen at the left */

	struct agg agg;			/* the rows of aggregate panes */
	struct dist_rows *dist;		/* their distributions (model/dist.h),
					   made when first asked; NULL: none */
	int64_t share_base_ns;		/* 100% for the share column */
	/* The pane's sums that reached SUM_CAP (model/bounds.h) and hold
	 * it, its agg's and its own: --print warns, the status line says.
	 * Set by load(). */
	uint64_t nr_capped;
	void *priv;			/* the pane type's own state */
};

/* What names a pane type, indexed by enum pane_id (pane.c): plain data,
 * so that naming a pane calls no pane file. */
struct pane_info {
	const char *name;		/* "ops": --print, keymap section */
	const char *title;		/* "Operators" */
	bool has_tab;
};
extern const struct pane_info pane_infos[NR_PANES];
/* Every pane type's hooks, indexed by enum pane_id: the registry
 * (panes.c), which only what opens panes by id or name reads. */
extern const struct pane_ops *const pane_types[NR_PANES];

static inline const char *pane_name(const struct pane_ops *ops)
{
	return pane_infos[ops->id].name;
}

/* The name --print knows a pane by: its own, or for a printable pane
 * without a tab its first alias ("memory-events"). */
static inline const char *pane_print_name(const struct pane_ops *ops)
{
	if ((ops->flags & PANE_PRINTABLE) && ops->aliases && ops->aliases[0])
		return ops->aliases[0];
	return pane_infos[ops->id].name;
}

static inline const char *pane_title(const struct pane_ops *ops)
{
	return pane_infos[ops->id].title;
}

/* The pane type called NAME (its name or an alias, any case), or NULL. */
const struct pane_ops *pane_ops_find(const char *name);
/* "ops, kernels, steps, tree, info": what --print accepts, into BUF
 * (cut short when SIZE is too small: PANE_PRINT_NAMES_MAX holds all). */
#define PANE_PRINT_NAMES_MAX (NR_PANES * 32)
const char *pane_print_names(char *buf, size_t size);

/* What the help pane is made from (scope.arg): the keys bound to each
 * action in the pane it helps with, as text into BUF ("s, <F4>"; returns
 * its length, 0: none) -- the terminal layer's keymap answers, so the
 * view never sees it -- and that pane (for its columns). */
struct help_arg {
	size_t (*keys_of)(const void *ctx, enum action act, char *buf, size_t size);
	const void *ctx;
	const struct pane *of;
};

/*
 * A new pane of type OPS over PROF, loaded, filtered and sorted.  SCOPE may
 * be NULL; its pointers must outlive the pane (the filter is borrowed).
 * Caller frees with pane_free().
 */
struct pane *pane_new(const struct pane_ops *ops, const struct profile *prof,
		      const struct pane_scope *scope);
void pane_free(struct pane *pane);
/* Show STEP (NULL: all): a pane that follows steps loads its rows again
 * (or, with a step_changed hook, narrows itself), keeping sort, filter
 * and (where the selected row still exists) the cursor; one that does not
 * is told (step_changed). */
void pane_set_step(struct pane *pane, const struct step *step);
/* Narrow PANE to the time range [START, END) (absolute; ORIGIN: the
 * Timeline's 0), or to none (HAS false): a pane the range narrows
 * (PANE_FOLLOWS_RANGE) loads again, one that draws it
 * (PANE_DRAWS_RANGE) takes it; others keep their own range. */
void pane_set_range(struct pane *pane, bool has, int64_t start_ns, int64_t end_ns,
		    int64_t origin_ns);
/* Take F (may be NULL: no filter; the pane frees it) and rebuild. */
void pane_set_filter(struct pane *pane, struct filter *f);
/* Sort by column COL (-1: model order), descending or not, and rebuild. */
void pane_sort(struct pane *pane, int col, bool desc);
/* Rebuild the view (after a fold, say), keeping the cursor on its row. */
void pane_rebuild(struct pane *pane);
/* Load the rows again from the profile and pane->scope (a grouping or a
 * range changed), keeping the sort column (by key), the filter and the
 * cursor's row (by name) where they still exist. */
void pane_reload(struct pane *pane);

/* The column called NAME (key, JSON key or title, any case), or -1. */
int pane_column(const struct pane *pane, const char *name);
/* Whether a column is sorted descending when first chosen (numbers). */
bool column_default_desc(const struct column *c);
/* The JSON/CSV key of C: times get "_us" ("device_self_us"). */
const char *column_json_key(const struct column *c, char *buf, size_t size);

/* For pane types: a getter for any int64 field of a row struct, the
 * column's arg being the field's offsetof(). */
struct cell pane_get_i64(const struct pane *pane, const void *row, const struct column *c);
/* A getter for a time of a node of the pane's profile, the column's arg
 * being an enum node_time. */
struct cell pane_get_node_time(const struct pane *pane, const void *row, const struct column *c);

/* The row at view index I, its name, and one of its cells.  Inline: an
 * export of a tree asks for millions of each. */
static inline const void *pane_row(const struct pane *pane, size_t i)
{
	return i < pane->nr_view ? pane->rows[pane->view[i]] : NULL;
}

const char *pane_row_name(const struct pane *pane, const void *row);
/*
 * How many of the cells of the first NR rows of the view (0: all) hold
 * a sum that reached SUM_CAP (model/bounds.h): a time or size at the cap,
 * or a real made of one.  Whatever model function the pane's load() used,
 * so that an export warns of every capped figure it writes (">=" in txt
 * and md, the cap itself in csv and json), not only of the sums a pane
 * type counted into nr_capped.  O(rows x columns), as an export is.
 */
uint64_t pane_capped_cells(const struct pane *pane, size_t nr);
/*
 * Search (rows stay, the cursor moves; the filter narrows instead): the
 * view index of the first row from FROM on (DIR 1) or back (DIR -1)
 * whose name F matches, going round the view once; FROM itself counts
 * when IS_INCLUSIVE (a pattern being typed), else the search starts
 * beside it (n, N).  -1 when no row matches.  *WRAPPED: whether it passed
 * an end of the view.
 */
long pane_find(const struct pane *pane, const struct filter *f, size_t from, int dir,
	       bool is_inclusive, bool *wrapped);

static inline struct cell pane_cell(const struct pane *pane, const void *row, size_t col)
{
	const struct column *c = &pane->cols[col];

	if (c->get == pane_get_i64) {
		/* A field of the row: read here, not through a call (a
		 * Tree's times, 2.5 M rows twice in an export). */
		int64_t v;

		memcpy(&v, (const char *)row + c->arg, sizeof(v));
		return cell_int(v);
	}
	return c->get(pane, row, c);
}

/* Where Enter on the row under the cursor goes: the pane and its scope,
 * or PANE_NONE. */
enum pane_id pane_drill_target(const struct pane *pane, struct pane_scope *scope);
/* Put the cursor on the first row of the view called NAME; false when
 * none is.  A picture pane reveals it (pane_picture_ops.reveal). */
bool pane_seek(struct pane *pane, const char *name);
/* The node ROW stands for (pane_ops.row_node), or NULL. */
const struct node *pane_row_node(const struct pane *pane, const void *row);
/* The cursor on the row of node N (false: none in the view), revealed as
 * pane_seek() reveals a row. */
bool pane_seek_node(struct pane *pane, const struct node *n);
/* Let the pane carry out ACT if it is one of its own; see pane_ops.handle. */
bool pane_handle(struct pane *pane, enum action act, struct pane_request *req);
/* What the bar should say before PANE carries out ACT, which is slow
 * the first time (pane_text_ops.busy); NULL: nothing. */
const char *pane_busy_text(const struct pane *pane, enum action act);
/* Whether pane type OPS carries out ACT its own way (pane_ops.actions),
 * and where it is, for "NAME works WHERE" ("in the Memory pane"). */
bool pane_type_takes(const struct pane_ops *ops, enum action act);
void pane_type_where(const struct pane_ops *ops, char *buf, size_t size);
/* What to say of the pane-only action ACT (actions.h, P) pressed where no
 * pane took it: where it works, from the panes that list it ("zoom-in
 * works in the Memory and Timeline panes"), into BUF.  False for an
 * action the UI carries out itself.  In panes.c: it reads every type. */
bool pane_action_elsewhere(enum action act, char *buf, size_t size);

/*
 * What a pane type may or may not do, asked through these and never
 * through its hooks: each gives the answer for a pane type without the
 * hook, so that the default lives here once.
 */

/* Where Enter on ROW goes (SCOPE filled in, zeroed by the caller), or
 * PANE_NONE; pane_can_drill: whether rows of PANE may lead anywhere. */
enum pane_id pane_row_drill(const struct pane *pane, const void *row, struct pane_scope *scope);
bool pane_can_drill(const struct pane *pane);
/* Whether the pane type OPS has a tab for SCOPE over PROF. */
bool pane_available(const struct pane_ops *ops, const struct profile *prof,
		    const struct pane_scope *scope);
/* Why PANE has no rows: BUF holds the caller's words for it ("no rows
 * here"), which the pane's own replace when it has some; false when the
 * pane type has none (BUF as it was). */
bool pane_empty_text(const struct pane *pane, char *buf, size_t size);
/* Whether the view asked for needs the trace its summary was made from
 * (see pane_ops.needs_trace). */
bool pane_needs_trace(const struct pane *pane);
/* The status line's text on the right into BUF; false when the pane has
 * none of its own (the caller shows the generic one). */
bool pane_status(const struct pane *pane, char *buf, size_t size);
/* The pane's why_blank() text into BUF: false when it has none. */
bool pane_why_blank(const struct pane *pane, char *buf, size_t size);
/* A few words for the default export file name into BUF; false (BUF as
 * it was) when the pane's name says it all. */
bool pane_export_name(const struct pane *pane, char *buf, size_t size);
/* Write PANE as JSON its own way (the Overview's), its first LIMIT rows'
 * worth, setting *ROWS; false when it has no form of its own. */
bool pane_export_own_json(const struct pane *pane, FILE *out, size_t limit, long *rows);
/* What the detail view shows of ROW beyond its columns and attributes. */
void pane_detail(const struct pane *pane, const void *row, struct detail *d);
/* Bars (COL_BAR): whether PANE draws them, ROW's segments into SEG (at
 * most MAX) and their names, NR of them. */
bool pane_has_bars(const struct pane *pane);
size_t pane_bar(const struct pane *pane, const void *row, int64_t *seg, size_t max);
const char *const *pane_legend(const struct pane *pane, size_t *nr);
/* A picture pane (the Timeline): whether PANE is one, painting it on C,
 * and a click at (Y, X) of it (true when it selected something). */
bool pane_type_is_picture(const struct pane_ops *ops);
bool pane_is_picture(const struct pane *pane);
void pane_paint(struct pane *pane, struct canvas *c);
bool pane_click(struct pane *pane, int y, int x, bool twice);
/* A drag over a picture (picture->drag); false: the pane takes none. */
bool pane_drag(struct pane *pane, int x0, int x1, struct pane_request *req);
/* The drawing above the table, HEIGHT lines of WIDTH at most: the lines
 * made, 0 for none (see pane_picture_ops.chart). */
size_t pane_chart(const struct pane *pane, int width, int height, bool utf8, struct canvas *out);
/* The actions the bar's hint names for PANE, into ACTS (at most MAX):
 * its own list, or the generic one less what does nothing here. */
size_t pane_hint_actions(const struct pane *pane, enum action *acts, size_t max);
/* --print NAME --drill X: the way pane type OPS drills (DRILL_NONE: it
 * does not), and the --group value of its other grouping (NULL: none). */
enum drill_to pane_print_drill(const struct pane_ops *ops);
const char *pane_group_by(const struct pane_ops *ops);

/* A row's attributes (NULL: none), and whether the pane's rows have
 * attributes at all.  Inline, as the tree's below: an export asks for
 * millions. */
static inline bool pane_has_attrs(const struct pane *pane)
{
	return pane->ops->row_attrs != NULL;
}

static inline const struct attr *pane_row_attrs(const struct pane *pane, const void *row)
{
	return pane->ops->row_attrs ? pane->ops->row_attrs(pane, row) : NULL;
}

/* Hierarchical panes: whether PANE is one, and view row I's depth and
 * fold state (0 a leaf, 1 open, 2 folded); 0 and 0 in a flat pane. */
static inline bool pane_is_tree(const struct pane *pane)
{
	return pane->ops->tree != NULL;
}

static inline int pane_row_depth(const struct pane *pane, size_t i)
{
	return pane->ops->tree ? pane->ops->tree->row_depth(pane, i) : 0;
}

static inline int pane_row_fold(const struct pane *pane, size_t i)
{
	return pane->ops->tree ? pane->ops->tree->row_fold(pane, i) : 0;
}

/* For pane types: an available hook for the views of one profile (the
 * Overview, Memory, Modules): not over a diff or every rank of a job, but
 * for one rank opened from the Ranks pane. */
bool pane_one_profile(const struct profile *prof, const struct pane_scope *scope);
/* For pane types: a needs_trace hook for the views made of what a summary
 * does not keep (memory events, modules): a summary's pane without rows. */
bool pane_empty_of_summary(const struct pane *pane);
/* For pane types: add a column (copied); returns its index. */
size_t pane_add_column(struct pane *pane, const struct column *c);
/* Add one column per attribute key found on the rows (ops->row_attrs),
 * in first-seen order, skipping the keys in SKIP (NULL-terminated) and
 * the file-stated values (ATTR_FILE_*, which feed standard columns). */
void pane_add_attr_columns(struct pane *pane, const char *const *skip);
/* The same in two steps, for a pane that walks its rows anyway: scan
 * each row's attributes (zero the scan first), then add the columns. */
struct attr_scan {
	const struct attr *richest;	/* the row with the most attributes */
	size_t most;
	const struct attr *first[64];	/* each key's first attribute, in
					   the order first seen */
	size_t nr;
	bool overflow;			/* more keys than first[] holds */
};

void attr_scan_row(struct attr_scan *scan, const struct attr *list);
/* Add to SCAN what LATER found in rows that come after SCAN's: the keys
 * and richest row one scan of all of them would have.  The overflow may
 * be set where one scan's would not (LATER overflowed on a key SCAN
 * has): that costs a second pass, never a column. */
void attr_scan_merge(struct attr_scan *scan, const struct attr_scan *later);
void pane_add_scanned_attr_columns(struct pane *pane, const struct attr_scan *scan,
				   const char *const *skip);
/* The generic view: rows the filter keeps, stably sorted. */
void pane_view_flat(struct pane *pane);
/* Sort IDX[0..N) (indices into pane->rows) stably by column COL. */
void pane_sort_indices(const struct pane *pane, size_t *idx, size_t n, int col, bool desc);

/* Buffers a run of many small sorts reuses (the Tree's child lists):
 * zero it, pass it to every pane_sort_indices_with(), release it once. */
struct keyed {
	uint64_t key;
	size_t idx;
};

struct text_key {
	const char *s;
	size_t idx;
};

struct pane_sort_scratch {
	struct keyed *keyed;
	size_t keyed_cap;
	struct text_key *text;
	size_t text_cap;
	struct cell *cells;
	size_t cells_cap;
};

void pane_sort_indices_with(const struct pane *pane, size_t *idx, size_t n, int col, bool desc,
			    struct pane_sort_scratch *s);
void pane_sort_scratch_release(struct pane_sort_scratch *s);
/* KEYS[i], the sort key by column COL of row WHICH[i], for i < N, for
 * pane_sort_by_keys(); false where the column has none (its cells mix
 * text, integers and reals).  Keys of one call compare with each other. */
bool pane_row_keys(const struct pane *pane, int col, bool desc, const uint32_t *which, size_t n,
		   uint64_t *keys);
/* Sort IDX[0..N) stably by KEYS[0..N), IDX[i]'s key being KEYS[i]: what
 * pane_sort_indices_with() gives for the column the keys were made of. */
void pane_sort_by_keys(const uint64_t *keys, size_t *idx, size_t n, struct pane_sort_scratch *s);

#endif
