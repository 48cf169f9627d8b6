/* SPDX-License-Identifier: MIT */
/*
 * diag: how parsers report problems, in the compiler's format so editors
 * can jump there, worded by git's rules (lowercase, no full stop):
 *
 *	trace.json:412:17: error: expected ',' or '}' after member 'dur'
 *	trace.json:9051:3: warning: event 'cudaMemcpyAsync' ends before it starts; skipped
 *
 * Broken structure is an error and stops the parse; odd but readable data
 * is a warning, counted per kind into the profile (the Info pane lists the
 * counts).  Only the first DIAG_SHOW_PER_KIND warnings of a kind print;
 * diag_finish() adds "... and N more like this".
 *
 * Messages quote the file, and a file is untrusted: each line is written
 * through model/escape.h (controls as "\x1b"), the path and the
 * arguments included, so a message never carries a terminal escape
 * sequence and never needs a newline of its own.
 */
#ifndef PARSERS_DIAG_H
#define PARSERS_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../model/util.h"

#define DIAG_SHOW_PER_KIND 20

struct profile;

/* A place in the input; line and col are 1-based, 0 = unknown. */
struct pos {
	uint64_t line, col;
};

struct diag_kind;

struct diag {
	const char *path;		/* prefix of every message */
	FILE *out;			/* NULL: count but print nothing */
	struct profile *profile;	/* where warning counts go; may be NULL */
	unsigned nr_errors;
	uint64_t nr_warnings;
	bool is_held;			/* see diag_hold() */
	struct diag_kind *kinds;	/* heap list, freed by diag_finish() */
	/* The first error, escaped, as "LINE:COL: MSG" (no path, no level):
	 * what the Info pane says stopped a load.  Heap, freed by
	 * diag_finish(); NULL when there was none. */
	char *first_error;
};

void diag_init(struct diag *d, const char *path, FILE *out, struct profile *p);
/* "PATH:LINE:COL: error: MSG" (the position is left out when AT is NULL
 * or its line is 0). */
void diag_error(struct diag *d, const struct pos *at, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Count a warning of KIND (a short fixed text such as "kernels not linked
 * to any op"; it is what the Info pane shows) and print the message. */
void diag_warn(struct diag *d, const struct pos *at, const char *kind,
	       const char *fmt, ...) PRINTF_LIKE(4, 5);
/*
 * While held, warnings print and count here but reach the profile only at
 * diag_unhold(): a parser's reading thread may warn while another thread
 * allocates in the profile's arena.  Only one thread may use D at a time.
 */
void diag_hold(struct diag *d);
void diag_unhold(struct diag *d);
/* Whether the next warning of KIND would be printed; callers skip working
 * out a position (a scan of the buffer) for one that would not. */
bool diag_would_print(const struct diag *d, const char *kind);
/* Print the "... and N more like this" lines and free what D holds
 * (first_error too: take it before). */
void diag_finish(struct diag *d);

#endif
