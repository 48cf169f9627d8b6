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
#include <stdint.h>

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
	bool short_names;		/* --short-names */
	bool no_mouse;			/* --no-mouse */
	bool load_failed;		/* the load stopped at an error: say so */
	const char *message;		/* for the bar at first (the load's first
					   warning), or NULL */
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

/* The loading screen (loading.c asks, draw.c paints): LABEL, bytes DONE
 * of TOTAL (0: unknown) after ELAPSED_S seconds, and MESSAGE (the load's
 * first warning) or NULL. */
struct progress_view {
	const char *label;
	uint64_t done, total;		/* bytes of the file read, of its size */
	uint64_t plain;			/* ...and of the text they held */
	double elapsed_s;
	const char *message;
	bool is_done;			/* loaded: the panes are being made */
};
void ui_draw_progress(const struct progress_view *pv);

/* Hand the terminal to curses (a no-op when it has it already: the
 * loading screen started it), and give it back.  ui_term_start()
 * returns -1 when curses cannot use the terminal. */
int ui_term_start(void);
void ui_term_end(void);

#endif
