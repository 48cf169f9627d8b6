/* SPDX-License-Identifier: MIT */
/*
 * loading: what the user sees while the files load.  Interactive, the
 * terminal is taken at once and a progress screen drawn (bytes, MB/s,
 * the time left) while the load runs on a thread of its own; q ends the
 * program at once, whatever the load is doing.  What the load writes
 * (warnings, errors) is kept while the screen is up and handed back, to
 * print once the terminal is the shell's again, the first of it shown in
 * the bar.
 *
 * In batch mode the progress bar is on stderr, and a message that comes
 * while it is up clears it first, so that the message starts a line of
 * its own.
 *
 * The load itself is the caller's (a callback), so that how files are
 * loaded -- one, or several in parallel -- is not this module's business;
 * it fills in the load options' progress callback and message stream.
 */
#ifndef TUI_LOADING_H
#define TUI_LOADING_H

#include <stdbool.h>
#include <stddef.h>

#include "../parsers/load.h"

/* A load: fill what CTX says from LO (its progress and err set here);
 * returns what profile_load() does. */
typedef int loading_fn(void *ctx, const struct load_options *lo);

/*
 * Run LOAD with a progress screen titled LABEL.  The terminal stays the
 * UI's when it returns (ui_run() goes on with it; ui_term_end() gives it
 * back).  *MESSAGES gets what the load wrote, heap (caller frees), or
 * NULL.  Returns LOAD's value, or -1 with nothing loaded when the
 * terminal cannot be used (*MESSAGES says so).  q, Q and Esc during the
 * load end the program at once, with status 0.
 */
int loading_run(loading_fn *load, void *ctx, const struct load_options *lo, const char *label,
		char **messages);

/*
 * The same without a screen: the progress bar on stderr once a load has
 * taken half a second (when stderr is a terminal), messages to stderr on
 * lines of their own.
 */
int loading_batch(loading_fn *load, void *ctx, const struct load_options *lo);

/* Whether the terminal (TERM) can show the panes: not "dumb", known to
 * terminfo, with cursor addressing.  Where it cannot, proftui prints the
 * pane, as when stdout is not a terminal; a TERM terminfo has no entry
 * for is named on stderr first. */
bool loading_term_usable(void);

#endif
