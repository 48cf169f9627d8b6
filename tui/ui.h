/* SPDX-License-Identifier: MIT */
/*
 * ui: the interactive terminal UI.  Five panes in tabs (Operators,
 * Kernels, Steps, Tree, Info), each with a stack of drill-downs, a title
 * line, a status line and a bar at the bottom that turns into the filter
 * and export prompts.
 *
 * ui.c reads keys and carries out actions; draw.c is the only code that
 * paints.  Both share struct ui through ui_int.h.
 */
#ifndef TUI_UI_H
#define TUI_UI_H

#include <stdbool.h>

#include "../model/profile.h"

struct ui_options {
	const char *label;		/* the profile as the title names it */
	const char *filter;		/* initial filter of the Operators pane */
	const char *step;		/* initial step */
	const char *sort;		/* initial sort column */
	const char *group;		/* --group: shape (Operators), op (Kernels) */
	bool reverse;
	const char *keymap;		/* --keymap vi|emacs|FILE */
	const char *keys;		/* --keys FILE */
	bool ascii;			/* no Unicode glyphs */
	bool no_color;
	bool load_failed;		/* the load stopped at an error: say so */
	size_t run;			/* the run shown of each profile (--run) */
	long rank;			/* ranks: the member shown alone, -1: all */
};

/*
 * Run the UI on SET (one profile, a diff, the ranks of a job) until the
 * user quits; the terminal is left as it was found, whatever happens.
 * Returns the exit status.
 */
struct profset;
int ui_run(const struct profset *set, const struct ui_options *opt);

#endif
