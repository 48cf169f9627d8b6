/* SPDX-License-Identifier: MIT */
/*
 * ui_int: the state ui.c and draw.c share.  Not for other modules.
 */
#ifndef TUI_UI_INT_H
#define TUI_UI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../view/canvas.h"
#include "../view/columns.h"
#include "config.h"
#include "keymap.h"
#include "lineedit.h"
#include "../view/pane.h"
#include "ui.h"

#define MAX_DRILL 32		/* drill-downs nest this deep at most */
#define MAX_COLS 256		/* columns a pane may show */
#define MAX_LINES 512		/* screen lines the mouse map covers */

enum ui_mode {
	MODE_NORMAL,
	MODE_FILTER,		/* the bar edits the filter, applied as typed */
	MODE_SEARCH,		/* the bar edits the search, the cursor follows */
	MODE_EXPORT,		/* the bar edits the export path */
	MODE_CONFIRM,		/* "overwrite PATH? (y/n)" */
};

struct ui {
	const struct profset *set;	/* every profile and how they relate */
	long member;			/* the member of SET the panes show */
	bool per_rank;			/* ranks: that member alone (Enter in Ranks) */
	const struct profile *first, *prof;	/* its runs, the one shown */
	char *label;			/* heap: what the title names: the files, or
					   the rank */
	size_t run;			/* index of prof among the runs */
	const struct ui_options *opt;
	struct keymap km;

	/* The tabs: the pane types with one, in panes.h's order. */
	const struct pane_ops *tab_ops[NR_PANES];
	int nr_tabs;
	char pane_key[NR_PANES][24];	/* find_pane_keys(): a tab's key */
	bool esc_left_view;		/* the last key was Esc and it left a view */
	char key_save[24];		/* and save-config's, for the bar */
	struct pane *stack[NR_PANES][MAX_DRILL];	/* each tab: its pane, then drill-downs */
	int depth[NR_PANES];
	int tab;
	struct pane *help;		/* the help screen over the current pane */
	ssize_t step;			/* index into prof->steps, -1: all */
	bool has_range;			/* the Timeline's range narrows the panes: */
	int64_t range_start_ns, range_end_ns, range_origin_ns;
	bool dragging;			/* the mouse button is down on a picture, */
	int drag_x;			/* where it went down */

	bool utf8;			/* the locale can show Unicode */
	bool color;
	bool is_drawing;		/* draw_screen() runs: no filter stops */
	int list_rows;			/* rows the list had at the last draw */
	bool reveal_sort;		/* scroll the sort column into view */
	bool more_left, more_right;	/* the last frame hid columns there */

	struct col_choice cols[NR_PANES];	/* the columns each pane type shows */
	struct shortnames *short_names;	/* names shown short; NULL: full */
	struct config cfg;		/* the config file as read (and saved) */
	bool mouse;			/* mouse events are asked for */
	struct canvas canvas;		/* a picture pane's screen */

	/* Where the last frame put things, for the mouse. */
	struct screen_map {
		int nr_tabs, tab_x[NR_PANES + 1];	/* tab T: [tab_x[T], tab_x[T+1]) */
		int header_y, list_y, nr_lines;	/* the list's first line, lines */
		int nr_cols, col_x[MAX_COLS], col_w[MAX_COLS], col[MAX_COLS];
		size_t row_at[MAX_LINES];	/* view row at each list line; SIZE_MAX */
		bool is_canvas;
	} map;

	char msg[1024];			/* until the next key (tig's report()) */
	bool msg_is_error;

	enum ui_mode mode;
	struct lineedit edit;		/* the bar's line editor */
	char *filter_before;		/* the pattern when the editor opened */
	char *filter_good;		/* the last one typed that filtered */
	bool filter_typed;		/* the text changed, not yet applied */
	/* Search: the pattern n and N go to, in every pane; while the bar
	 * edits it, SEARCH_EDIT is the one typed (NULL: none valid yet) and
	 * the cursor was at SEARCH_ORIGIN. */
	struct filter *search, *search_edit;
	size_t search_origin;
	bool search_typed;
	char edit_error[256];		/* PCRE2's complaint about the text */
	bool edit_full;			/* a key did not fit in the line */
	bool quit;
};

/* The pane on screen: the help, else the top of the tab's stack. */
struct pane *ui_pane(const struct ui *ui);
/* Tab T's own pane, opened now if it was not yet (ui.c says when tabs
 * open); whether every tab's is. */
struct pane *ui_tab_pane(struct ui *ui, int t);
bool ui_all_tabs_open(const struct ui *ui);
/* "Operators › aten::conv2d › kernels", whole, on the heap: free() it. */
char *ui_path(const struct ui *ui);
/* Glyphs that fall back to ASCII where the locale cannot show them. */
const char *ui_glyph(const struct ui *ui, const char *utf8, const char *ascii);

/* draw.c: paint the whole screen from UI. */
void draw_init_colors(struct ui *ui);
void draw_screen(struct ui *ui);
/* Redraw the bar line alone (the message said before slow work), now. */
void draw_bar_now(struct ui *ui);

#endif
