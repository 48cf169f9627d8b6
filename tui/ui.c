// SPDX-License-Identifier: MIT
/*
 * The interactive loop: read a key, look it up (the pane's section, then
 * global), carry out the action, redraw.  Painting is draw.c's; this file
 * only changes state.
 *
 * The terminal is restored whatever happens: term.c owns it (every fatal
 * signal, flow control), endwin() runs on the way out and in die()'s
 * hook, and ncurses' own handlers take SIGINT, SIGTERM and SIGTSTP, which
 * it also resumes from with a full redraw.
 */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/profset.h"
#include "../model/strbuf.h"
#include "../model/util.h"
#include "../view/detail.h"
#include "../view/export.h"
#include "../view/pane_multi.h"
#include "../view/shortnames.h"
#include "../view/tlview.h"
#include "term.h"
#include "ui_int.h"

/* The tab a pane-NAME action shows, or -1. */
static int tab_of_action(const struct ui *ui, enum action a)
{
	int id = -1;

	switch (a) {
#define X(pid, name, title, tab) PANE_IF_TAB(tab, case ACT_PANE_##pid: id = PANE_##pid; break;)
	PANES(X)
#undef X
	default:
		return -1;
	}
	for (int t = 0; t < ui->nr_tabs; t++)
		if ((int)ui->tab_ops[t]->id == id)
			return t;
	return -1;
}

static void say(struct ui *ui, bool is_error, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void say(struct ui *ui, bool is_error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_is_error = is_error;
}

static const struct step *current_step(const struct ui *ui)
{
	return ui->step >= 0 ? &ui->prof->steps[ui->step] : NULL;
}

static enum keymap_section section_of(const struct pane *pane)
{
	return KS_PANE(pane->ops->id);
}

static void close_help(struct ui *ui)
{
	pane_free(ui->help);
	ui->help = NULL;
}

static void free_panes(struct ui *ui)
{
	close_help(ui);
	for (int t = 0; t < ui->nr_tabs; t++) {
		for (int d = 0; d < ui->depth[t]; d++)
			pane_free(ui->stack[t][d]);
		ui->depth[t] = 0;
	}
}

static const struct profile *run_of(const struct profile *first, size_t n)
{
	while (first && n--)
		first = first->next_run;
	return first;
}

/* What every pane opened now is to know beyond its own scope: the other
 * profiles, the run, whether one rank is shown alone. */
static void base_scope(const struct ui *ui, struct pane_scope *scope)
{
	scope->first_run = ui->first;
	scope->set = ui->set->kind == PROFSET_ONE ? NULL : ui->set;
	scope->run = ui->run;
	scope->per_rank = ui->per_rank;
}

/* The tabs: every pane type with one that is available for what is open
 * (the Ranks tab with ranks, ...), in panes.h's order; the tab shown
 * stays where it is when it still exists. */
static void make_tabs(struct ui *ui)
{
	const struct pane_ops *was = ui->nr_tabs ? ui->tab_ops[ui->tab] : NULL;
	struct pane_scope scope = { 0 };

	base_scope(ui, &scope);
	ui->nr_tabs = 0;
	ui->tab = 0;
	for (size_t i = 0; i < NR_PANES; i++) {
		const struct pane_ops *ops = pane_types[i];

		if (!pane_infos[i].has_tab || !pane_available(ops, ui->prof, &scope))
			continue;
		if (ops == was)
			ui->tab = ui->nr_tabs;
		ui->tab_ops[ui->nr_tabs++] = ops;
	}
}

/* Each tabbed pane's key, for its tab's label: the first global binding
 * of its pane-NAME action, so that the label says what to press even when
 * tabs before it are hidden (no Timeline on an untimed profile).  Found
 * once, after the keymap is set: the keymap does not change after. */
static void find_pane_keys(struct ui *ui)
{
	for (size_t i = 0; i < NR_PANES; i++) {
		enum action a = ACT_NONE;
		char *key = ui->pane_key[i];

		switch (i) {
#define X(pid, name, title, tab) PANE_IF_TAB(tab, case PANE_##pid: a = ACT_PANE_##pid; break;)
		PANES(X)
#undef X
		default:
			break;
		}
		if (a == ACT_NONE ||
		    !keymap_keys_of(&ui->km, KS_GLOBAL, a, key, sizeof(ui->pane_key[i])))
			key[0] = '\0';
		key[strcspn(key, " ")] = '\0';
	}
	if (!keymap_keys_of(&ui->km, KS_GLOBAL, ACT_SAVE_CONFIG, ui->key_save, sizeof(ui->key_save)))
		ui->key_save[0] = '\0';
	ui->key_save[strcspn(ui->key_save, " ")] = '\0';
}

/* The sort the config file gives PANE's type, if it has that column. */
static void config_sort(const struct ui *ui, struct pane *pane)
{
	const struct config_sort *cs = &ui->cfg.sort[pane->ops->id];
	int col = cs->key ? pane_column(pane, cs->key) : -1;

	if (col >= 0)
		pane_sort(pane, col, cs->has_dir ? cs->is_desc : column_default_desc(&pane->cols[col]));
}

/* The Timeline's range into SCOPE, for a pane of type OPS that follows
 * or draws one. */
static void range_scope(const struct ui *ui, const struct pane_ops *ops, struct pane_scope *scope)
{
	if (!ui->has_range || !(ops->flags & (PANE_FOLLOWS_RANGE | PANE_DRAWS_RANGE)))
		return;
	scope->has_range = true;
	scope->range_start_ns = ui->range_start_ns;
	scope->range_end_ns = ui->range_end_ns;
	scope->range_origin_ns = ui->range_origin_ns;
}

/* Open tab T's own pane, with the step, run and ranks now shown. */
static void open_tab(struct ui *ui, int t)
{
	struct pane_scope scope = { .step = current_step(ui), .group = ui->opt->group };

	base_scope(ui, &scope);
	range_scope(ui, ui->tab_ops[t], &scope);
	ui->stack[t][0] = pane_open(ui->tab_ops[t], ui->prof, &scope);
	ui->depth[t] = 1;
	config_sort(ui, ui->stack[t][0]);
	if (!(ui->tab_ops[t]->flags & PANE_FOLLOWS_STEP))
		pane_set_step(ui->stack[t][0], current_step(ui));	/* its cursor */
}

/*
 * Tab T's own pane, opened now if it was not yet.  A tab opens when it is
 * first shown or asked about, else when no key waits (open_idle_tab()): the
 * first pane is drawn as soon as it alone is made, not after every tab's
 * (2 s of them after a 10 GB trace's load, on one core).  A tab's depth
 * is 0 until then, so loops over the open panes pass it by.
 */
struct pane *ui_tab_pane(struct ui *ui, int t)
{
	if (!ui->depth[t])
		open_tab(ui, t);
	return ui->stack[t][0];
}

/* After the tabs changed (a run, a rank): the one shown opens now, the
 * others as above. */
static void open_panes(struct ui *ui)
{
	ui_tab_pane(ui, ui->tab);
}

bool ui_all_tabs_open(const struct ui *ui)
{
	for (int t = 0; t < ui->nr_tabs; t++)
		if (!ui->depth[t])
			return false;
	return true;
}

/* Open the first tab not yet open; false when all are. */
static bool open_idle_tab(struct ui *ui)
{
	for (int t = 0; t < ui->nr_tabs; t++) {
		if (!ui->depth[t]) {
			open_tab(ui, t);
			return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------------
 * Moving
 */

static void move_cursor(struct ui *ui, long delta)
{
	struct pane *pane = ui_pane(ui);
	long c = (long)pane->cursor + delta;

	if (!pane->nr_view)
		return;
	if (c < 0)
		c = 0;
	if (c >= (long)pane->nr_view)
		c = (long)pane->nr_view - 1;
	pane->cursor = (size_t)c;
}

/*
 * PgDn, PgUp, ^D, ^U: the page moves with the cursor, as in less, vim and
 * htop, so the first PgDn shows new rows (moving the cursor alone only
 * took it to the page's last row).  Near an end the page stops and the
 * cursor goes on to the first or last row.
 */
static void page_by(struct ui *ui, long delta)
{
	struct pane *pane = ui_pane(ui);
	long n = (long)pane->nr_view, rows = ui->list_rows > 0 ? ui->list_rows : 1;
	long top_max = n > rows ? n - rows : 0;
	long top = (long)pane->top + delta;

	if (!n)
		return;
	if (top < 0)
		top = 0;
	if (top > top_max)
		top = top_max;
	pane->top = (size_t)top;
	move_cursor(ui, delta);
}

/* One column left or right, if the last frame hid one there. */
static void scroll_columns(struct ui *ui, int delta)
{
	struct pane *pane = ui_pane(ui);

	if (delta > 0 && !ui->more_right) {
		say(ui, false, "no more columns to the right");
		return;
	}
	if (delta < 0 && !pane->hscroll) {
		say(ui, false, "no more columns to the left");
		return;
	}
	pane->hscroll = delta > 0 ? pane->hscroll + 1 : pane->hscroll - 1;
}

/* ---------------------------------------------------------------------
 * Sorting
 */

/* Sort PANE by its column COL: the column's own direction, or the other
 * way when it is the sort already; the bar says which. */
static void sort_column(struct ui *ui, struct pane *pane, int col)
{
	if (col == pane->sort_col)
		pane_sort(pane, col, !pane->sort_desc);
	else
		pane_sort(pane, col, column_default_desc(&pane->cols[col]));
	ui->reveal_sort = true;
	say(ui, false, "sorted by %s %s", pane->cols[col].title,
	    pane->sort_desc ? "(descending)" : "(ascending)");
}

/* Sort by the first of NAMES the pane has; the active column again
 * reverses it. */
static void sort_by(struct ui *ui, const char *const *names, const char *what)
{
	struct pane *pane = ui_pane(ui);
	int col = -1;

	for (; *names && col < 0; names++)
		col = pane_column(pane, *names);
	if (col < 0) {
		say(ui, true, "no %s column in this pane", what);
		return;
	}
	sort_column(ui, pane, col);
}

static void sort_name(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);

	for (size_t c = 0; c < pane->nr_cols; c++) {
		if (pane->cols[c].kind == COL_NAME) {
			const char *names[] = { pane->cols[c].key, NULL };

			sort_by(ui, names, "name");
			return;
		}
	}
	say(ui, true, "no name column in this pane");
}

static void sort_step(struct ui *ui, int dir)
{
	struct pane *pane = ui_pane(ui);
	int col = pane->sort_col;

	do {
		col += dir;
		if (col < 0)
			col = (int)pane->nr_cols - 1;
		if (col >= (int)pane->nr_cols)
			col = 0;
	} while (pane->cols[col].kind == COL_BAR);
	pane_sort(pane, col, column_default_desc(&pane->cols[col]));
	ui->reveal_sort = true;
	say(ui, false, "sorted by %s", pane->cols[col].title);
}

/* ---------------------------------------------------------------------
 * Drill-down, steps, runs
 */

static void set_step(struct ui *ui, ssize_t step);
static void switch_tab(struct ui *ui, int tab);

/* Close the top pane of tab T's stack. */
static void pop(struct ui *ui, int t)
{
	pane_free(ui->stack[t][--ui->depth[t]]);
}

/* Open a pane over the current one; false (and a message) when the
 * stack is full. */
static bool push(struct ui *ui, struct pane *next)
{
	if (ui->depth[ui->tab] >= MAX_DRILL) {
		say(ui, true, "panes nest %d deep at most", MAX_DRILL);
		pane_free(next);
		return false;
	}
	ui->stack[ui->tab][ui->depth[ui->tab]++] = next;
	return true;
}

static void open_over(struct ui *ui, enum pane_id to, struct pane_scope scope);

static void drill(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	struct pane_scope scope;
	enum pane_id to;

	if (ui->help)
		return;
	to = pane_drill_target(pane, &scope);
	if (to == PANE_NONE) {
		say(ui, true, "nothing to drill into here");
		return;
	}
	open_over(ui, to, scope);
}

/* A pane of type TO in SCOPE over the one on screen, as a drill-down. */
static void open_over(struct ui *ui, enum pane_id to, struct pane_scope scope)
{
	struct pane *next;

	if (ui->depth[ui->tab] >= MAX_DRILL) {	/* before the work of opening it */
		say(ui, true, "panes nest %d deep at most", MAX_DRILL);
		return;
	}
	base_scope(ui, &scope);
	range_scope(ui, pane_types[to], &scope);
	next = pane_open(pane_types[to], ui->prof, &scope);
	config_sort(ui, next);
	if (!next->nr_rows) {
		char why[512] = "nothing there";

		pane_empty_text(next, why, sizeof(why));
		say(ui, true, "%s", why);
		pane_free(next);
		return;
	}
	push(ui, next);
}

/* i: the detail view of the row under the cursor. */
static void inspect(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	const void *row = pane_row(pane, pane->cursor);
	struct detail_arg da = { pane, row };
	struct pane_scope scope = { .arg = &da, .first_run = ui->first };

	if (ui->help) {
		say(ui, true, "the help has nothing to inspect");
		return;
	}
	if (!row) {
		say(ui, true, "no row to inspect");
		return;
	}
	scope.step = pane->scope.step;
	push(ui, pane_new(pane_types[PANE_DETAIL], ui->prof, &scope));
}

/* F6: the list of the pane's columns to sort by (htop's). */
static void open_sort_menu(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	struct pane_scope scope = { .arg = pane };

	if (ui->help) {
		say(ui, true, "the help keeps its order");
		return;
	}
	if (pane_is_picture(pane) || pane->ops->id == PANE_SORT_BY) {
		say(ui, true, "nothing to sort here");
		return;
	}
	if (!push(ui, pane_new(pane_types[PANE_SORT_BY], ui->prof, &scope)))
		return;
	if (pane->sort_col >= 0)	/* the cursor on the current sort */
		pane_seek(ui_pane(ui), pane->cols[pane->sort_col].title);
	say(ui, false, "<Enter> sorts by the column; again on the current one: reversed");
}

/* Sort by (F6) chose column COL of the pane under it: close the list and
 * sort, as the sort keys do. */
static void sort_from_menu(struct ui *ui, int col)
{
	struct pane *pane;

	pop(ui, ui->tab);
	pane = ui_pane(ui);
	if (col >= 0 && (size_t)col < pane->nr_cols)
		sort_column(ui, pane, col);
}

/* C: the column chooser for the pane on screen. */
static void choose_columns(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	struct columns_arg ca = { &ui->cols[pane->ops->id], pane };
	struct pane_scope scope = { .arg = &ca };

	if (ui->help) {
		say(ui, true, "the help's columns are fixed");
		return;
	}
	if (pane_is_picture(pane)) {
		say(ui, true, "this pane is a picture: no columns to choose");
		return;
	}
	if (push(ui, pane_new(pane_types[PANE_COLUMNS], ui->prof, &scope)))
		say(ui, false, "<Space> shows or hides, K and J move; %s saves the choice",
		    ui->key_save[0] ? ui->key_save : "save-config");
}

/*
 * save-config (W): what this session chose, written to the config file
 * only when asked -- every pane's columns, the sort of the pane on screen
 * and short names -- and where it went.  Nothing else writes the file, so
 * a toggle tried once never outlives the run.
 */
static void save_config(struct ui *ui)
{
	struct pane *of = ui_pane(ui);
	enum pane_id id = of->ops->id;
	char path[4096], err[4200];

	if (ui->help) {
		say(ui, true, "close the help first: the sort saved is the pane's");
		return;
	}
	for (size_t i = 0; i < NR_PANES; i++)
		col_choice_copy(&ui->cfg.cols[i], &ui->cols[i]);
	if (of->sort_col >= 0) {
		free(ui->cfg.sort[id].key);
		ui->cfg.sort[id].key = xstrdup(of->cols[of->sort_col].key);
		ui->cfg.sort[id].is_desc = of->sort_desc;
		ui->cfg.sort[id].has_dir = true;
	}
	ui->cfg.short_names = ui->short_names != NULL;
	if (!config_path(path, sizeof(path))) {
		say(ui, true, "not saved: neither XDG_CONFIG_HOME nor HOME is set");
		return;
	}
	if (config_save(&ui->cfg, path, err, sizeof(err)))
		say(ui, true, "cannot save the config: %s", err);
	else
		say(ui, false, "saved to %s: columns, the sort of %s, short names %s", path,
		    pane_infos[id].title, ui->short_names ? "on" : "off");
}

static void toggle_short_names(struct ui *ui)
{
	if (ui->short_names) {
		shortnames_free(ui->short_names);
		ui->short_names = NULL;
		say(ui, false, "full names");
		return;
	}
	ui->short_names = shortnames_new(ui->prof, !ui->utf8);
	say(ui, false, "short names (the status line and i show the full one)");
}

static int tab_of_pane(const struct ui *ui, enum pane_id id)
{
	for (int t = 0; t < ui->nr_tabs; t++)
		if (ui->tab_ops[t]->id == id)
			return t;
	return -1;
}

static bool finish_filtering(struct ui *ui, struct pane *pane);

/* Put PANE's cursor on the row of NODE if given and there, else on the
 * first row called NAME (a diff's base node is not on the new run's
 * Timeline; its name may be). */
static bool seek(struct pane *pane, const char *name, const struct node *node)
{
	return (node && pane_seek_node(pane, node)) || pane_seek(pane, name);
}

/* Show tab T's own pane (no drill-down) with the cursor on the row of
 * NODE, or else the first called NAME, clearing its filter if that hides
 * the row. */
static bool show_row(struct ui *ui, int t, const char *name, const struct node *node)
{
	struct pane *pane;

	if (t < 0)
		return false;
	pane = ui_tab_pane(ui, t);
	finish_filtering(ui, pane);
	if (!seek(pane, name, node)) {
		if (!pane->filter)
			return false;
		pane_set_filter(pane, NULL);
		if (!seek(pane, name, node))
			return false;
	}
	while (ui->depth[t] > 1)
		pop(ui, t);
	switch_tab(ui, t);
	return true;
}

/* w: the row's op or kernel on the Timeline, at its first instance. */
static void timeline_jump(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	const void *row = pane_row(pane, pane->cursor);
	const struct node *node;
	const char *name;

	if (!row || ui->help) {
		say(ui, true, "no row to find on the timeline");
		return;
	}
	name = pane_row_name(pane, row);
	node = pane_row_node(pane, row);
	if (!show_row(ui, tab_of_pane(ui, PANE_TIMELINE), name, node)) {
		say(ui, true, "no block of '%s' on the timeline%s", name,
		    ui->step >= 0 ? " in this step" : "");
		return;
	}
	pane = ui_pane(ui);
	say(ui, false, node && pane_row_node(pane, pane_row(pane, pane->cursor)) == node
			       ? "its block; * and #: the next and previous of the name"
			       : "its first block; * and #: the next and previous of the name");
}

static void back(struct ui *ui)
{
	if (ui->help) {
		close_help(ui);
		return;
	}
	if (ui->depth[ui->tab] > 1) {
		pop(ui, ui->tab);
		return;
	}
	/* Esc left a view and q came next: the user meant to go back once
	 * more, not to lose the place (it happened twice); a second q quits. */
	if (ui->esc_left_view) {
		say(ui, false, "at the top: q again quits");
		return;
	}
	ui->quit = true;
}

static void set_step(struct ui *ui, ssize_t step)
{
	const struct profile *p = ui->prof;

	if (!p->nr_steps) {
		say(ui, true, "this profile has no steps");
		return;
	}
	if (!p->has_timeline) {
		say(ui, true, "this profile's ops carry no times to split by step");
		return;
	}
	close_help(ui);
	ui->step = step;
	for (int t = 0; t < ui->nr_tabs; t++)
		for (int d = 0; d < ui->depth[t]; d++)
			pane_set_step(ui->stack[t][d], current_step(ui));
	if (step >= 0) {
		say(ui, false, "step %s of %zu", p->steps[step].name, p->nr_steps);
	} else {
		say(ui, false, "all steps");
	}
}

/* Narrow every pane that follows a range to [START, END) (HAS false:
 * none), as set_step() does with a step. */
static void set_range(struct ui *ui, bool has, int64_t start_ns, int64_t end_ns, int64_t origin_ns)
{
	char a[32], b[32];

	ui->has_range = has;
	ui->range_start_ns = start_ns;
	ui->range_end_ns = end_ns;
	ui->range_origin_ns = origin_ns;
	for (int t = 0; t < ui->nr_tabs; t++)
		for (int d = 0; d < ui->depth[t]; d++)
			pane_set_range(ui->stack[t][d], has, start_ns, end_ns, origin_ns);
	if (!has)
		return;
	tlview_fmt_time(start_ns - origin_ns, a, sizeof(a));
	tlview_fmt_time(end_ns - origin_ns, b, sizeof(b));
	say(ui, false, "range %s - %s: the panes that follow it count what falls in it; the "
		       "others' titles say \"ignored here\"", a, b);
}

static void step_by(struct ui *ui, int dir)
{
	ssize_t n = (ssize_t)ui->prof->nr_steps, s = ui->step;

	if (!n) {
		set_step(ui, -1);
		return;
	}
	if (s < 0)
		s = dir > 0 ? 0 : n - 1;
	else
		s += dir;
	if (s < 0 || s >= n) {
		say(ui, true, dir > 0 ? "no step after this one" : "no step before this one");
		return;
	}
	set_step(ui, s);
}

/* The runs every member has (a diff or ranks switch all of them). */
static size_t nr_runs(const struct ui *ui)
{
	size_t nr = profile_nr_runs(ui->first);

	for (size_t i = 0; ui->set->kind != PROFSET_ONE && i < ui->set->nr; i++) {
		size_t n = profile_nr_runs(ui->set->members[i].prof);

		if (n < nr)
			nr = n;
	}
	return nr;
}

/* Show run R (0-based) of NR. */
static void show_run(struct ui *ui, size_t r, size_t nr)
{
	free_panes(ui);
	ui->run = r;
	ui->prof = run_of(ui->first, ui->run);
	ui->step = -1;
	make_tabs(ui);
	open_panes(ui);
	say(ui, false, "run %zu of %zu%s%s", ui->run + 1, nr, ui->prof->run_title ? ": " : "",
	    ui->prof->run_title ? ui->prof->run_title : "");
}

static void set_run(struct ui *ui, int dir)
{
	size_t nr = nr_runs(ui);
	long r = (long)ui->run + dir;

	if (nr < 2) {
		say(ui, true, ui->set->kind == PROFSET_ONE ? "this file holds one run"
							    : "the profiles hold one run each");
		return;
	}
	if (r < 0 || r >= (long)nr) {
		say(ui, true, dir > 0 ? "this is the last run" : "this is the first run");
		return;
	}
	show_run(ui, (size_t)r, nr);
}

/* The title: the files, or the one rank shown alone. */
static void set_label(struct ui *ui)
{
	free(ui->label);
	if (ui->per_rank)
		ui->label = xstrfmt("%s (rank %ld of %zu)",
			 ui->set->members[ui->member].label,
			 ui->set->members[ui->member].rank >= 0 ? (long)ui->set->members[ui->member].rank
								 : ui->member,
			 ui->set->nr);
	else
		ui->label = xstrdup(ui->opt->label ? ui->opt->label : "");
}

/* Ranks: show member M alone in every pane (-1: every rank again), the
 * run and step kept where they exist. */
static void show_member(struct ui *ui, long m)
{
	const struct step *step = current_step(ui);
	const char *step_name = step ? step->name : NULL;

	/* The pane shown (the Ranks pane, where Enter and q bring one here)
	 * opens again as it was: its sort, its cursor and first row. */
	const struct pane *was = ui->help || ui->depth[ui->tab] != 1 ? NULL : ui_pane(ui);
	const struct pane_ops *was_ops = was ? was->ops : NULL;
	char *sort_key = was && was->sort_col >= 0 ? xstrdup(was->cols[was->sort_col].key) : NULL;
	bool sort_desc = was && was->sort_desc;
	size_t cursor = was ? was->cursor : 0, top = was ? was->top : 0;

	if (ui->set->kind != PROFSET_RANKS || m >= (long)ui->set->nr) {
		free(sort_key);
		return;
	}
	free_panes(ui);
	ui->per_rank = m >= 0;
	ui->member = m >= 0 ? m : 0;
	ui->first = ui->set->members[ui->member].prof;
	ui->prof = run_of(ui->first, ui->run);
	if (!ui->prof) {
		ui->run = 0;
		ui->prof = ui->first;
	}
	ui->step = -1;
	for (size_t i = 0; step_name && i < ui->prof->nr_steps; i++)
		if (!strcmp(ui->prof->steps[i].name, step_name))
			ui->step = (ssize_t)i;
	make_tabs(ui);
	open_panes(ui);
	if (was_ops && ui->tab_ops[ui->tab] == was_ops) {
		struct pane *now = ui->stack[ui->tab][0];
		int col = sort_key ? pane_column(now, sort_key) : -1;

		if (col != now->sort_col || (col >= 0 && sort_desc != now->sort_desc))
			pane_sort(now, col, sort_desc);
		if (now->nr_view) {
			now->cursor = cursor < now->nr_view ? cursor : now->nr_view - 1;
			now->top = top <= now->cursor ? top : now->cursor;
		}
	}
	free(sort_key);
	set_label(ui);
	if (m >= 0)
		say(ui, false, "rank %s alone (q in the Ranks pane: every rank)",
		    ui->set->members[m].label);
	else
		say(ui, false, "every rank");
}

static void switch_tab(struct ui *ui, int tab)
{
	close_help(ui);
	ui->tab = (tab + ui->nr_tabs) % ui->nr_tabs;
	ui_tab_pane(ui, ui->tab);
}

/* The help pane's question, answered from the keymap of the pane it
 * helps with. */
struct help_keys {
	const struct keymap *km;
	enum keymap_section section;
};

static size_t help_keys_of(const void *ctx, enum action act, char *buf, size_t size)
{
	const struct help_keys *hk = ctx;

	return keymap_keys_of(hk->km, hk->section, act, buf, size);
}

static void open_help(struct ui *ui)
{
	struct pane *of = ui_pane(ui);
	struct help_keys hk = { &ui->km, section_of(of) };
	struct help_arg ha = { help_keys_of, &hk, of };
	struct pane_scope scope = { .arg = &ha };

	if (ui->help) {
		close_help(ui);
		return;
	}
	ui->help = pane_new(pane_types[PANE_HELP], ui->prof, &scope);
}

/* ---------------------------------------------------------------------
 * The bar's prompts: the filter and the export path (lineedit.c edits)
 */

static void edit_start(struct ui *ui, enum ui_mode mode, const char *text)
{
	lineedit_start(&ui->edit, text);
	ui->edit_error[0] = '\0';
	ui->edit_full = false;
	ui->filter_typed = false;
	ui->mode = mode;
	ui->msg[0] = '\0';
}

/* Whether a key waits to be read (it stays there for read_key()). */
static bool key_waiting(void)
{
	wint_t ch;
	int r;

	if (!stdscr || isendwin())
		return false;	/* --filter, before the screen is ours */
	timeout(0);
	r = get_wch(&ch);
	if (r == ERR)
		return false;
	if (r == KEY_CODE_YES)
		ungetch((int)ch);
	else
		unget_wch((wchar_t)ch);
	return true;
}

/* The filter's question while it runs: stop for a key?  Not while a
 * frame is drawn (the Timeline matches the names it paints): a frame
 * half made of "not shown" would reach the screen. */
static bool stop_for_key(void *ui)
{
	return !((struct ui *)ui)->is_drawing && key_waiting();
}

/* PATTERN compiled for a pane: a key pressed while it filters stops it
 * (settle() finishes the pass once keys stop coming). */
static struct filter *new_filter(struct ui *ui, const char *pattern, char *err, size_t err_size)
{
	struct filter *f = filter_new(pattern, err, err_size);

	if (f)
		filter_set_stop(f, stop_for_key, ui);
	return f;
}

static void set_filter_text(struct ui *ui, const char *pattern)
{
	char err[256];

	pane_set_filter(ui_pane(ui), new_filter(ui, pattern, err, sizeof(err)));
}

/*
 * A filter pass over PANE ran to its end.  The pattern being typed becomes
 * the last good one, unless PCRE2 gave up on a name: then the bar says so
 * and the last good pattern filters again.  Any other filter that fails
 * (a new step brings new names) is removed, and the bar says why.
 */
static void pass_done(struct ui *ui, struct pane *pane)
{
	const char *why = filter_error(pane->filter);
	const char *pattern = filter_pattern(pane->filter);

	if (ui->mode == MODE_FILTER && pane == ui_pane(ui)) {
		if (!why) {
			if (strcmp(pattern, ui->filter_good)) {
				free(ui->filter_good);
				ui->filter_good = xstrdup(pattern);
			}
			/* Not when the good one comes back after an error. */
			if (!strcmp(pattern, ui->edit.text))
				ui->edit_error[0] = '\0';
			return;
		}
		if (strcmp(pattern, ui->filter_good)) {
			snprintf(ui->edit_error, sizeof(ui->edit_error), "%s", why);
			set_filter_text(ui, ui->filter_good);
			if (!filter_stopped(pane->filter))
				pass_done(ui, pane);
			return;
		}
	} else if (!why) {
		return;
	}
	say(ui, true, "filter '%s' removed: %s", pattern, why);
	pane_set_filter(pane, NULL);
}

/* Apply the pattern being typed: a valid one filters, a broken one leaves
 * the last good filter and says what PCRE2 thinks. */
static void filter_live(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	char err[256];
	struct filter *f = new_filter(ui, ui->edit.text, err, sizeof(err));

	ui->filter_typed = false;
	if (!f && *err) {
		snprintf(ui->edit_error, sizeof(ui->edit_error), "%s", err);
		return;
	}
	ui->edit_error[0] = '\0';
	pane_set_filter(pane, f);
	if (!filter_stopped(f))
		pass_done(ui, pane);
}

/* PANE's view made whole before it is used (exported, searched, acted
 * on), with no key to stop it: the limits bound what that costs.  False
 * when the filter failed and was removed (the bar says why). */
static bool finish_filtering(struct ui *ui, struct pane *pane)
{
	bool ok;

	if (!pane->filter || (!filter_stopped(pane->filter) && !filter_error(pane->filter)))
		return true;
	if (filter_stopped(pane->filter)) {
		filter_set_stop(pane->filter, NULL, NULL);
		filter_resume(pane->filter);
		pane_rebuild(pane);
		filter_set_stop(pane->filter, stop_for_key, ui);
	}
	ok = !filter_error(pane->filter);
	pass_done(ui, pane);
	return ok;
}

/* Whether action A needs the pane's whole view: not to leave it or to
 * drop its filter, which a stopped pass need not finish for. */
static bool needs_view(enum action a)
{
	return a != ACT_QUIT && a != ACT_BACK && a != ACT_CLEAR_FILTER && a != ACT_FILTER;
}

/* Finish PANE's stopped pass unless a key waits (false then), and deal
 * with a filter that failed. */
static bool refilter(struct ui *ui, struct pane *pane)
{
	if (filter_stopped(pane->filter)) {
		if (key_waiting())
			return false;
		filter_resume(pane->filter);
		pane_rebuild(pane);
		if (filter_stopped(pane->filter))
			return true;	/* a key came meanwhile: the loop reads it */
	}
	if (filter_error(pane->filter))
		pass_done(ui, pane);
	return true;
}

static void search_live(struct ui *ui);

/*
 * The work put off while keys came: the pattern typed in the bar, and the
 * filter passes a key stopped.  A waiting key stops them again, so a paste
 * is filtered once, at its end, and Q is read while a costly filter runs.
 */
static void settle(struct ui *ui)
{
	if (ui->filter_typed && !key_waiting())
		filter_live(ui);
	if (ui->search_typed && !key_waiting())
		search_live(ui);
	for (int t = 0; t < ui->nr_tabs; t++)
		for (int d = 0; d < ui->depth[t]; d++)
			if (!refilter(ui, ui->stack[t][d]))
				return;
	if (ui->help)
		refilter(ui, ui->help);
}

/* "ops-sample.txt": the pane (and what it drilled into) and the first
 * file's name up to its first dot, in the current directory. */
static void default_export_path(struct ui *ui, char *buf, size_t size)
{
	const char *path = ui->prof->path, *base = strrchr(path, '/');
	struct pane *pane = ui_pane(ui);
	char stem[128], what[160], more[128];
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ". +");
	if (n >= sizeof(stem))
		n = sizeof(stem) - 1;
	memcpy(stem, base, n);
	stem[n] = '\0';
	if (!n)
		strcpy(stem, "profile");
	if (ui->help) {
		snprintf(what, sizeof(what), "help");
	} else if (pane_export_name(pane, more, sizeof(more))) {
		snprintf(what, sizeof(what), "%s-%s", pane_name(ui->tab_ops[ui->tab]), more);
	} else {
		snprintf(what, sizeof(what), "%s", pane_name(pane->ops));
	}
	for (char *p = what; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
			*p = '_';
	snprintf(buf, size, "%.80s-%s.txt", what, stem);
}

static void do_export(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	char *caption, err[1024], *path_title, home[4200];
	const char *path = export_expand_home(ui->edit.text, home, sizeof(home));
	enum export_format fmt;
	long rows;

	if (!export_path_format(path, &fmt, err, sizeof(err))) {
		say(ui, true, "not exported: %s", err);
		return;
	}
	if (!finish_filtering(ui, pane))
		return;

	path_title = ui_path(ui);
	{
		/* The caption names the drill path, not only the pane. */
		char *saved = pane->title;

		pane->title = path_title;
		caption = export_caption(pane, ui->label, 0);
		pane->title = saved;
	}
	free(path_title);
	rows = export_to_path(pane, path, fmt, 0, caption, err, sizeof(err));
	free(caption);
	if (rows < 0)
		say(ui, true, "cannot write %s", err);
	else
		say(ui, false, "wrote %ld rows to %s (%s)", rows, path, export_format_name(fmt));
}

/* ---------------------------------------------------------------------
 * Search: rows stay, the cursor moves (less, vim, htop's F3); the filter
 * narrows rows instead.  One pattern for every pane, so n goes on in the
 * next pane as in the last.
 */

static void search_start(struct ui *ui)
{
	ui->search_origin = ui_pane(ui)->cursor;
	filter_free(ui->search_edit);
	ui->search_edit = NULL;
	ui->search_typed = false;
	edit_start(ui, MODE_SEARCH, ui->search ? filter_pattern(ui->search) : "");
}

/* The pattern being typed: the cursor goes to its first match from where
 * it was when the bar opened (back there when nothing matches). */
static void search_live(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	char err[256];
	struct filter *f = filter_new(ui->edit.text, err, sizeof(err));
	bool wrapped;
	long i;

	ui->search_typed = false;
	ui->edit_error[0] = '\0';
	filter_free(ui->search_edit);
	ui->search_edit = f;
	pane->cursor = ui->search_origin < pane->nr_view ? ui->search_origin : 0;
	if (!f) {
		snprintf(ui->edit_error, sizeof(ui->edit_error), "%s", err);
		return;
	}
	if (filter_is_inverted(f)) {
		snprintf(ui->edit_error, sizeof(ui->edit_error),
			 "a search finds rows: '!' is for the filter (/)");
		return;
	}
	i = pane_find(pane, f, pane->cursor, 1, true, &wrapped);
	if (i >= 0)
		pane->cursor = (size_t)i;
	else
		snprintf(ui->edit_error, sizeof(ui->edit_error), "%s",
			 filter_error(f) ? filter_error(f) : "no row matches");
}

static void search_done(struct ui *ui, bool accept)
{
	struct pane *pane = ui_pane(ui);

	if (!accept) {
		pane->cursor = ui->search_origin < pane->nr_view ? ui->search_origin : 0;
		filter_free(ui->search_edit);
		ui->search_edit = NULL;
		say(ui, false, "search cancelled");
		return;
	}
	if (ui->search_typed)
		search_live(ui);
	if (!ui->edit.len) {
		filter_free(ui->search);
		filter_free(ui->search_edit);
		ui->search = ui->search_edit = NULL;
		say(ui, false, "search cleared");
		return;
	}
	if (!ui->search_edit || filter_is_inverted(ui->search_edit)) {
		say(ui, true, "search not changed: %s", ui->edit_error);
		filter_free(ui->search_edit);
		ui->search_edit = NULL;
		return;
	}
	filter_free(ui->search);
	ui->search = ui->search_edit;
	ui->search_edit = NULL;
	if (ui->edit_error[0])
		say(ui, true, "%s: '%s'", ui->edit_error, filter_pattern(ui->search));
	else
		say(ui, false, "n and N: the next and previous match");
}

/* n, N: the next match of the search in the pane on screen, round its
 * rows; the Timeline without a search goes to the next block of the
 * selected block's name, as before there was a search. */
static bool pane_action(struct ui *ui, enum action a);

static void search_step(struct ui *ui, int dir)
{
	struct pane *pane = ui_pane(ui);
	bool wrapped;
	long i;

	if (!ui->search) {
		if (!pane_action(ui, dir > 0 ? ACT_NEXT_INSTANCE : ACT_PREV_INSTANCE))
			say(ui, true, "no search yet: f or F3 starts one");
		return;
	}
	i = pane_find(pane, ui->search, pane->cursor, dir, false, &wrapped);
	if (i < 0) {
		say(ui, true, "%s: '%s'",
		    filter_error(ui->search) ? filter_error(ui->search) : "no row matches",
		    filter_pattern(ui->search));
		return;
	}
	pane->cursor = (size_t)i;
	if (wrapped)
		say(ui, false, dir > 0 ? "search went on from the top" : "search went on from the bottom");
}

static void edit_done(struct ui *ui, bool accept)
{
	enum ui_mode mode = ui->mode;

	ui->mode = MODE_NORMAL;
	if (mode == MODE_SEARCH) {
		search_done(ui, accept);
		return;
	}
	if (mode == MODE_FILTER) {
		if (!accept) {
			set_filter_text(ui, ui->filter_before ? ui->filter_before : "");
			say(ui, false, "filter restored");
		} else if (ui->edit_error[0]) {
			/* Enter on a broken pattern keeps the last good one. */
			say(ui, true, "kept the last valid filter: %s", ui->edit_error);
		} else if (!ui->edit.len) {
			say(ui, false, "filter cleared");
		}
		free(ui->filter_before);
		free(ui->filter_good);
		ui->filter_before = ui->filter_good = NULL;
		return;
	}
	if (mode == MODE_EXPORT) {
		if (!accept || !ui->edit.len) {
			say(ui, false, "not exported");
			return;
		}
		{
			char home[4200], err[1100];
			const char *path = export_expand_home(ui->edit.text, home, sizeof(home));
			enum export_format fmt;
			struct stat st;

			/* What cannot be written is said before asking. */
			if (!export_path_format(path, &fmt, err, sizeof(err))) {
				say(ui, true, "not exported: %s", err);
				return;
			}
			if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
				say(ui, true, "not exported: %s is a directory", path);
				return;
			}
			if (access(path, F_OK) == 0) {
				ui->mode = MODE_CONFIRM;
				return;
			}
		}
		do_export(ui);
	}
}

/* A key while the bar edits or asks. */
static void edit_key(struct ui *ui, int key)
{
	if (ui->mode == MODE_CONFIRM) {
		ui->mode = MODE_NORMAL;
		if (key == 'y' || key == 'Y')
			do_export(ui);
		else
			say(ui, false, "not overwritten");
		return;
	}
	switch (lineedit_key(&ui->edit, key)) {
	case LINEEDIT_ACCEPT:
		/* Enter came before the text had been applied. */
		if (ui->filter_typed)
			filter_live(ui);
		if (ui->search_typed)
			search_live(ui);
		edit_done(ui, true);
		break;
	case LINEEDIT_CANCEL:
		edit_done(ui, false);
		break;
	case LINEEDIT_CHANGED:
		/* Applied once no key waits (settle()), not per key. */
		ui->filter_typed = ui->mode == MODE_FILTER;
		ui->search_typed = ui->mode == MODE_SEARCH;
		ui->edit_full = false;
		break;
	case LINEEDIT_FULL:
		ui->edit_full = true;
		break;
	case LINEEDIT_MOVED:
	case LINEEDIT_IGNORED:
		break;
	}
}

/* ---------------------------------------------------------------------
 * Dispatch
 */

/* Show the tab of pane TO (its own pane) with the cursor on the row
 * called ROW: the Overview's top ops and kernels, the detail view's
 * links.  A pane that asked from over another (the detail view) has done
 * its part: it closes behind the jump. */
static void jump(struct ui *ui, enum pane_id to, const char *row, const struct node *node)
{
	int from = ui->tab, t = tab_of_pane(ui, to);
	struct pane *asker = ui_pane(ui);

	if (node && !row)
		row = node_name(node);
	if (!row) {
		if (t >= 0)
			switch_tab(ui, t);
		return;
	}
	if (!show_row(ui, t, row, node))
		say(ui, true, "no row '%s' in the %s pane%s", row, pane_infos[to].title,
		    ui->step >= 0 ? " in this step" : "");
	else if (from != t && ui->depth[from] > 1 &&
		 ui->stack[from][ui->depth[from] - 1] == asker)
		pop(ui, from);
}

/* An action the pane on screen may know better than the UI (the Tree's
 * folds, Enter on a step); what it asks for in return. */
static bool pane_action(struct ui *ui, enum action a)
{
	struct pane_request req;
	const char *busy = ui->help ? NULL : pane_busy_text(ui_pane(ui), a);

	if (busy) {	/* slow work ahead: say so before it starts */
		say(ui, false, "%s", busy);
		draw_bar_now(ui);
	}
	if (ui->help || !pane_handle(ui_pane(ui), a, &req))
		return false;
	if (req.pick_step) {
		for (size_t i = 0; req.step && i < ui->prof->nr_steps; i++)
			if (req.step == &ui->prof->steps[i])
				set_step(ui, (ssize_t)i);
		if (!req.step)
			set_step(ui, -1);
	}
	if (req.pick_range)
		set_range(ui, req.has_range, req.range_start_ns, req.range_end_ns,
			  req.range_origin_ns);
	if (req.sort)
		sort_from_menu(ui, req.sort_col);
	if (req.jump)
		jump(ui, req.jump_to, req.jump_row, req.jump_node);
	if (req.open) {
		int depth = ui->depth[ui->tab];

		open_over(ui, req.open_pane, req.open_scope);
		if (req.open_row && ui->depth[ui->tab] > depth)
			pane_seek(ui_pane(ui), req.open_row);
	}
	if (req.open_rank)
		show_member(ui, req.rank);
	if (req.open_run && req.run < nr_runs(ui))
		show_run(ui, req.run, nr_runs(ui));
	if (req.message)
		say(ui, req.is_error, "%s", req.message);
	return true;
}

/* A pane-only action that no pane here took: where it works. */
static void say_elsewhere(struct ui *ui, enum action a)
{
	char words[256];

	if (pane_action_elsewhere(a, words, sizeof(words)))
		say(ui, true, "%s", words);
}

static void act(struct ui *ui, enum action a)
{
	struct pane *pane = ui_pane(ui);
	long page = ui->list_rows > 1 ? ui->list_rows - 1 : 1;
	static const char *const dev_self[] = { "device_self", "total", NULL };
	static const char *const dev_total[] = { "device_total", "total", NULL };
	static const char *const host_self[] = { "host_self", NULL };
	static const char *const host_total[] = { "host_total", NULL };
	static const char *const calls[] = { "calls", NULL };

	if (pane_action(ui, a))
		return;
	switch (a) {
	case ACT_NONE:
		break;
	case ACT_MOVE_UP:
		move_cursor(ui, -1);
		break;
	case ACT_MOVE_DOWN:
		move_cursor(ui, 1);
		break;
	case ACT_PAGE_UP:
		page_by(ui, -page);
		break;
	case ACT_PAGE_DOWN:
		page_by(ui, page);
		break;
	case ACT_HALF_UP:
		page_by(ui, -(page + 1) / 2);
		break;
	case ACT_HALF_DOWN:
		page_by(ui, (page + 1) / 2);
		break;
	case ACT_FIRST_ROW:
		pane->cursor = 0;
		break;
	case ACT_LAST_ROW:
		pane->cursor = pane->nr_view ? pane->nr_view - 1 : 0;
		break;
	case ACT_SCROLL_LEFT:
		scroll_columns(ui, -1);
		break;
	case ACT_SCROLL_RIGHT:
		scroll_columns(ui, 1);
		break;
	case ACT_NEXT_PANE:
		switch_tab(ui, ui->tab + 1);
		break;
	case ACT_PREV_PANE:
		switch_tab(ui, ui->tab - 1);
		break;
#define X(pid, name, title, tab) PANE_IF_TAB(tab, case ACT_PANE_##pid:)
	PANES(X)
#undef X
		if (tab_of_action(ui, a) < 0)
			say(ui, true, "no tab for that pane here (%s)",
			    action_help(a) + strlen("Show the "));
		else
			switch_tab(ui, tab_of_action(ui, a));
		break;
	case ACT_DRILL:
		drill(ui);
		break;
	case ACT_BACK:
		back(ui);
		break;
	case ACT_QUIT:
		ui->quit = true;
		break;
	case ACT_SORT_DEVICE_SELF:
		sort_by(ui, dev_self, "device self");
		break;
	case ACT_SORT_DEVICE_TOTAL:
		sort_by(ui, dev_total, "device total");
		break;
	case ACT_SORT_HOST_SELF:
		sort_by(ui, host_self, "host self");
		break;
	case ACT_SORT_HOST_TOTAL:
		sort_by(ui, host_total, "host total");
		break;
	case ACT_SORT_CALLS:
		sort_by(ui, calls, "calls");
		break;
	case ACT_SORT_NAME:
		sort_name(ui);
		break;
	case ACT_SORT_PREV:
		sort_step(ui, -1);
		break;
	case ACT_SORT_NEXT:
		sort_step(ui, 1);
		break;
	case ACT_SORT_REVERSE:
		pane_sort(pane, pane->sort_col, !pane->sort_desc);
		say(ui, false, "sort reversed");
		break;
	case ACT_FILTER:
		free(ui->filter_before);
		ui->filter_before = xstrdup(filter_pattern(pane->filter));
		free(ui->filter_good);
		ui->filter_good = xstrdup(ui->filter_before);
		edit_start(ui, MODE_FILTER, ui->filter_before);
		break;
	case ACT_SEARCH:
		search_start(ui);
		break;
	case ACT_SEARCH_NEXT:
		search_step(ui, 1);
		break;
	case ACT_SEARCH_PREV:
		search_step(ui, -1);
		break;
	case ACT_CLEAR_FILTER:
		if (pane->filter) {
			pane_set_filter(pane, NULL);
			say(ui, false, "filter cleared");
		} else if (ui->has_range) {
			set_range(ui, false, 0, 0, 0);
			say(ui, false, "range cleared");
		}
		break;
	case ACT_RANGE_CLEAR:
		/* The Timeline clears its own (pane_action()); elsewhere,
		 * or with none, the filter goes first. */
		if (!pane->filter && ui->has_range) {
			set_range(ui, false, 0, 0, 0);
			say(ui, false, "range cleared");
		} else {
			act(ui, ACT_CLEAR_FILTER);
		}
		break;
	case ACT_EXPORT: {
		char path[512];

		default_export_path(ui, path, sizeof(path));
		edit_start(ui, MODE_EXPORT, path);
		break;
	}
	case ACT_STEP_PREV:
		step_by(ui, -1);
		break;
	case ACT_STEP_NEXT:
		step_by(ui, 1);
		break;
	case ACT_STEP_ALL:
		if (ui->step >= 0)
			set_step(ui, -1);
		break;
	case ACT_RUN_PREV:
		set_run(ui, -1);
		break;
	case ACT_RUN_NEXT:
		set_run(ui, 1);
		break;
	case ACT_UNFOLD:
		drill(ui);	/* where no pane folds, "open" means drill */
		break;
	case ACT_FOLD:
		back(ui);
		break;
	case ACT_TOGGLE_FOLD:
	case ACT_UNFOLD_ALL:
		break;	/* where no pane folds, nothing to do */
	case ACT_HELP:
		open_help(ui);
		break;
	case ACT_INSPECT:
		inspect(ui);
		break;
	case ACT_SHORT_NAMES:
		toggle_short_names(ui);
		break;
	case ACT_COLUMNS:
		choose_columns(ui);
		break;
	case ACT_SAVE_CONFIG:
		save_config(ui);
		break;
	case ACT_SORT_MENU:
		open_sort_menu(ui);
		break;
	case ACT_TIMELINE_JUMP:
		timeline_jump(ui);
		break;
	/* The actions only some panes carry out: where they work. */
#define X(e, name, help)
#define P(e, name, help) case ACT_##e:
	ACTIONS_WITH(X, P)
#undef P
#undef X
		say_elsewhere(ui, a);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case NR_ACTIONS:
		break;
	}
}

/* The next key as one int: a code point, or KEY_FN(curses key). */
static int read_key(void)
{
	wint_t ch;
	int r = get_wch(&ch);

	if (r == ERR)
		return -1;
	if (r == KEY_CODE_YES) {
		if (ch == KEY_ENTER)
			return '\n';
		return KEY_FN((int)ch);
	}
	if (ch == '\r')
		return '\n';
	if (ch == 127 || ch == 8)
		return KEY_FN(KEY_BACKSPACE);
	return (int)ch;
}

static void ui_free(struct ui *ui)
{
	free_panes(ui);
	free(ui->label);
	free(ui->filter_before);
	free(ui->filter_good);
	filter_free(ui->search);
	filter_free(ui->search_edit);
	keymap_release(&ui->km);
	config_release(&ui->cfg);
	for (size_t i = 0; i < NR_PANES; i++)
		col_choice_release(&ui->cols[i]);
	shortnames_free(ui->short_names);
	canvas_release(&ui->canvas);
}

/* Apply the command line's initial sort, step and filter. */
static void apply_options(struct ui *ui)
{
	const struct ui_options *o = ui->opt;
	struct pane *ops;
	int ops_tab = 0;

	/* --sort and --filter are the Operators pane's (by name: the UI
	 * knows no pane type). */
	for (int t = 0; t < ui->nr_tabs; t++)
		if (ui->tab_ops[t] == pane_ops_find("ops"))
			ops_tab = t;

	if (o->step) {
		for (size_t i = 0; i < ui->prof->nr_steps; i++)
			if (!strcmp(ui->prof->steps[i].name, o->step))
				set_step(ui, (ssize_t)i);
		if (ui->step < 0)
			say(ui, true, "no step '%s' in this profile", o->step);
	}
	if (!o->sort && !o->filter && !o->reverse)
		return;
	ops = ui_tab_pane(ui, ops_tab);
	/* Those are the Operators pane's: show it. */
	if (o->sort || o->filter)
		ui->tab = ops_tab;
	if (o->sort) {
		int col = pane_column(ops, o->sort);

		if (col >= 0)
			pane_sort(ops, col, column_default_desc(&ops->cols[col]) != o->reverse);
		else
			say(ui, true, "no column '%s' in the %s pane", o->sort, pane_title(ops->ops));
	} else if (o->reverse) {
		pane_sort(ops, ops->sort_col, !ops->sort_desc);
	}
	if (o->filter) {
		char err[256];
		struct filter *f = new_filter(ui, o->filter, err, sizeof(err));

		if (f) {
			pane_set_filter(ops, f);
			if (filter_error(f))
				pass_done(ui, ops);
		} else if (*err)
			say(ui, true, "filter '%s': %s", o->filter, err);
	}
}

/* ---------------------------------------------------------------------
 * The mouse: a click on a tab shows it, on a column title sorts by it
 * (again: reverses), on a row selects it; a double click drills in (a
 * picture pane: inspects); the wheel scrolls.  Where things are comes
 * from the last frame (draw.c's screen map).
 */

static void click_header(struct ui *ui, int x)
{
	struct pane *pane = ui_pane(ui);

	for (int k = 0; k < ui->map.nr_cols; k++) {
		int col = ui->map.col[k];

		if (x < ui->map.col_x[k] || x >= ui->map.col_x[k] + ui->map.col_w[k] + 1)
			continue;
		if (pane->cols[col].kind == COL_BAR)
			return;
		if (col == pane->sort_col)
			pane_sort(pane, col, !pane->sort_desc);
		else
			pane_sort(pane, col, column_default_desc(&pane->cols[col]));
		say(ui, false, "sorted by %s %s", pane->cols[col].title,
		    pane->sort_desc ? "(descending)" : "(ascending)");
		return;
	}
}

static void mouse_one(struct ui *ui, MEVENT ev)
{
	struct pane *pane = ui_pane(ui);
	bool twice;
	int line;

	ui->msg[0] = '\0';
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		for (int i = 0; i < 3; i++)
			act(ui, ev.bstate & BUTTON4_PRESSED ? ACT_MOVE_UP : ACT_MOVE_DOWN);
		return;
	}
	/* A press and a release apart (curses makes a click of the two
	 * only in one place): a drag over a picture, the Timeline's range. */
	if (ev.bstate & BUTTON1_PRESSED) {
		ui->dragging = ui->map.is_canvas && ev.y - ui->map.list_y >= 0 &&
			       ev.y - ui->map.list_y < ui->map.nr_lines;
		ui->drag_x = ev.x;
		return;
	}
	if (ev.bstate & BUTTON1_RELEASED) {
		struct pane_request req;

		if (ui->dragging && ui->map.is_canvas && ev.x != ui->drag_x &&
		    pane_drag(pane, ui->drag_x, ev.x, &req)) {
			if (req.pick_range)
				set_range(ui, req.has_range, req.range_start_ns, req.range_end_ns,
					  req.range_origin_ns);
			if (req.message)
				say(ui, req.is_error, "%s", req.message);
		}
		ui->dragging = false;
		return;
	}
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED)))
		return;
	/* A click just before a double click makes curses say "triple". */
	twice = ev.bstate & (BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED);
	if (ev.y == 1) {
		for (int t = 0; t < ui->map.nr_tabs; t++)
			if (ev.x >= ui->map.tab_x[t] && ev.x < ui->map.tab_x[t + 1])
				switch_tab(ui, t);
		return;
	}
	if (ev.y == ui->map.header_y && !ui->map.is_canvas) {
		click_header(ui, ev.x);
		return;
	}
	line = ev.y - ui->map.list_y;
	if (line < 0 || line >= ui->map.nr_lines)
		return;
	if (ui->map.is_canvas) {
		if (pane_click(pane, line, ev.x, twice) && twice)
			inspect(ui);
		return;
	}
	if (line >= MAX_LINES || ui->map.row_at[line] == SIZE_MAX)
		return;
	pane->cursor = ui->map.row_at[line];
	if (twice)
		act(ui, ACT_DRILL);
}

/* The events curses has: it may hold several (a press and a release
 * apart, read together), the newest given first. */
static void mouse_event(struct ui *ui)
{
	MEVENT ev[8];
	int n = 0;

	while (n < 8 && getmouse(&ev[n]) == OK)
		n++;
	while (n-- > 0)
		mouse_one(ui, ev[n]);
}

/* Messages for stderr (key file, config file), a line at a time and
 * escaped: they quote files. */
static void print_messages(const char *m)
{
	while (m && *m) {
		size_t n = strcspn(m, "\n");

		escape_fprintf(stderr, "%.*s", (int)n, m);
		fputc('\n', stderr);
		m += n + (m[n] == '\n');
	}
}

/* The first tab whose pane has rows, where the one asked for has none
 * (a profile without op rows opens on what it has). */
static void land(struct ui *ui)
{
	if (ui_tab_pane(ui, ui->tab)->nr_rows)
		return;
	for (int t = 0; t < ui->nr_tabs; t++) {
		if (!pane_type_is_picture(ui->tab_ops[t]) && ui_tab_pane(ui, t)->nr_rows) {
			ui->tab = t;
			return;
		}
	}
}

int ui_term_start(void)
{
	/* The loading screen may have it already. */
	if (stdscr && !isendwin())
		return 0;
	return term_start();
}

void ui_term_end(void)
{
	term_end();
}

int ui_run(const struct profset *set, const struct ui_options *opt)
{
	struct ui ui;
	const char *codeset;
	char path[4096];

	memset(&ui, 0, sizeof(ui));
	ui.set = set;
	ui.per_rank = opt->rank >= 0;
	ui.member = set->kind == PROFSET_DIFF ? 1 : opt->rank >= 0 ? opt->rank : 0;
	ui.first = set->members[ui.member].prof;
	ui.run = opt->run;
	ui.prof = run_of(ui.first, ui.run);
	ui.opt = opt;
	ui.step = -1;
	make_tabs(&ui);
	set_label(&ui);
	/* The ranks of a job open on the Ranks pane (by name: the UI knows
	 * no pane type). */
	for (int t = 0; set->kind == PROFSET_RANKS && !ui.per_rank && t < ui.nr_tabs; t++)
		if (ui.tab_ops[t] == pane_ops_find("ranks"))
			ui.tab = t;
	codeset = nl_langinfo(CODESET);
	ui.utf8 = !opt->ascii && codeset &&
		  (!strcasecmp(codeset, "UTF-8") || !strcasecmp(codeset, "utf8"));

	/* The config file, then the command line over it. */
	config_init(&ui.cfg);
	if (config_path(path, sizeof(path)))
		config_load(&ui.cfg, path, true);
	for (size_t i = 0; i < NR_PANES; i++)
		col_choice_copy(&ui.cols[i], &ui.cfg.cols[i]);
	ui.mouse = !opt->no_mouse && ui.cfg.mouse != 0;
	keymap_init(&ui.km);
	keymap_setup(&ui.km, opt->keymap ? opt->keymap : ui.cfg.keymap, opt->keys);
	find_pane_keys(&ui);

	open_panes(&ui);
	/* A pane with nothing to show gives way to the first that has
	 * something (the Overview of a profile with neither steps nor
	 * device time, to Operators). */
	for (int t = 0; !ui_tab_pane(&ui, ui.tab)->nr_rows && t < ui.nr_tabs; t++) {
		if (ui_tab_pane(&ui, t)->nr_rows) {
			ui.tab = t;
			break;
		}
	}
	apply_options(&ui);
	land(&ui);
	if (opt->short_names || ui.cfg.short_names == 1)
		ui.short_names = shortnames_new(ui.prof, !ui.utf8);
	if (ui.km.messages || ui.cfg.messages) {
		const char *m = ui.cfg.messages ? ui.cfg.messages : ui.km.messages;
		size_t n = strcspn(m, "\n");

		say(&ui, true, "%.*s%s", (int)n, m,
		    ui.km.nr_messages + ui.cfg.nr_messages > 1 ? " (and more, on stderr at the end)"
							       : "");
	} else if (opt->load_failed && !ui.msg[0]) {
		say(&ui, true, "the load stopped at an error; showing what was read before it "
			       "(see Info)");
	} else if (!ui.msg[0]) {
		/* Dropped or clipped events: said once, then in Info; the
		 * first message of the load after the count. */
		uint64_t nr = 0;

		for (const struct warning *w = ui.prof->warnings; w; w = w->next)
			nr += w->count;
		if (nr)
			say(&ui, false, "%llu warning%s while loading (see Info)%s%s",
			    (unsigned long long)nr, nr == 1 ? "" : "s", opt->message ? ": " : "",
			    opt->message ? opt->message : "");
		else if (opt->message)
			say(&ui, false, "%s", opt->message);
	}
	/* A setting from the file says so once: else the user sees short
	 * names and does not know why. */
	if (!opt->short_names && ui.cfg.short_names == 1 && !ui.msg[0])
		say(&ui, false, "short names, as %s sets (~ shows full names)",
		    config_path(path, sizeof(path)) ? path : "the config file");

	if (ui_term_start()) {
		fprintf(stderr, "proftui: cannot use this terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		ui_free(&ui);
		return 1;
	}
	ui.color = !opt->no_color && has_colors();
	draw_init_colors(&ui);
	if (ui.mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED |
				  BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED |
				  BUTTON5_PRESSED,
			  NULL);

	while (!ui.quit) {
		int key;
		enum action a;

		ui_tab_pane(&ui, ui.tab);
		settle(&ui);
		/* No frame that a waiting key would change at once: a paste
		 * or a flood of keys costs one, at its end. */
		if (!key_waiting()) {
			ui.is_drawing = true;
			draw_screen(&ui);
			ui.is_drawing = false;
		}
		/* The other tabs open while no key waits. */
		timeout(ui_all_tabs_open(&ui) ? -1 : 0);
		key = read_key();
		if (key < 0) {
			open_idle_tab(&ui);
			continue;
		}
		if (key == KEY_FN(KEY_RESIZE))
			continue;	/* draw_screen() takes the new size */
		if (key == KEY_FN(KEY_MOUSE)) {
			if (ui.mode == MODE_NORMAL && finish_filtering(&ui, ui_pane(&ui)))
				mouse_event(&ui);
			continue;
		}
		if (ui.mode != MODE_NORMAL) {
			edit_key(&ui, key);
			continue;
		}
		ui.msg[0] = '\0';
		a = keymap_lookup(&ui.km, section_of(ui_pane(&ui)), key);
		if (a == ACT_NONE && key == 27 && ui.help)
			a = ACT_BACK;
		if (!needs_view(a) || finish_filtering(&ui, ui_pane(&ui))) {
			int depth = ui.depth[ui.tab] + (ui.help != NULL);

			act(&ui, a);
			ui.esc_left_view = key == 27 && ui.depth[ui.tab] + (ui.help != NULL) < depth;
		} else {
			ui.esc_left_view = false;
		}
	}
	ui_term_end();
	/* What the files said, now that the screen is the shell's again. */
	print_messages(ui.km.messages);
	print_messages(ui.cfg.messages);
	ui_free(&ui);
	return 0;
}
