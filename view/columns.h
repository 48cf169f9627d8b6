/* SPDX-License-Identifier: MIT */
/*
 * columns: which of a pane's columns the screen shows, and in which order
 * -- the user's choice, made in the column chooser (pane_columns.c) or
 * written in the config file (config.h), kept per pane type by column key.
 * The pane itself keeps every column: sorting, --print and exports do not
 * depend on what the screen hides.
 *
 * A choice is a list of column keys in screen order, each shown or
 * hidden.  A column it does not name (an attribute only another file has)
 * is shown after the named ones; a key no column has is ignored.  The
 * name column is always shown.
 */
#ifndef TUI_COLUMNS_H
#define TUI_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "pane.h"

struct col_pick {
	char *key;			/* heap */
	bool is_shown;
};

struct col_choice {
	struct col_pick *v;		/* empty: every column, in the pane's order */
	size_t nr, alloc;
};

void col_choice_release(struct col_choice *cc);
void col_choice_copy(struct col_choice *dst, const struct col_choice *src);
/* Append KEY (copied), shown or not. */
void col_choice_add(struct col_choice *cc, const char *key, bool is_shown);

/*
 * Every column of PANE in the order CC gives (NULL: the pane's order), as
 * indices into pane->cols into OUT (at most MAX), with whether each is
 * shown into SHOWN (may be NULL); returns how many.
 */
size_t columns_all(const struct col_choice *cc, const struct pane *pane, int *out, bool *shown,
		   size_t max);
/* The same, only the columns shown. */
size_t columns_order(const struct col_choice *cc, const struct pane *pane, int *out, size_t max);

/* The choice ORDER[0..NR) (indices into PANE's columns, every one of
 * them) with SHOWN[i] for each, into CC (released first). */
void columns_choose(struct col_choice *cc, const struct pane *pane, const int *order,
		    const bool *shown, size_t nr);

/* What the column chooser (pane_columns.c) edits, its scope.arg: the
 * choice for the pane type of OF, changed as the user goes. */
struct columns_arg {
	struct col_choice *choice;
	const struct pane *of;
};

#endif
