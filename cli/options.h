/* SPDX-License-Identifier: MIT */
/*
 * options: what the command line asked for (struct options), read from
 * argv by parse_args(), and the exit statuses every part of cli/ returns.
 */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/util.h"
#include "../view/export.h"

#include "../tui/ui.h"

#define EXIT_USAGE 1
#define EXIT_INPUT 2

/* --width's range: below 40 a line has no room for a name and numbers. */
#define WIDTH_MIN 40
#define WIDTH_MAX 100000

#ifndef PROFTUI_VERSION
#define PROFTUI_VERSION "0.1"
#endif

struct options {
	const char *print;		/* pane name, NULL: interactive */
	const char *sort;
	bool reverse;
	bool stats;			/* --stats: hidden columns too */
	const char *filter;
	const char *step;
	const char *range;		/* --range START:END, read into: */
	int64_t range_start_ns, range_end_ns;	/* after the trace's first event */
	size_t limit;
	size_t width;			/* --width N: txt/md lines in N cells */
	bool width_set;			/* (0: whole names) */
	enum export_format format;
	const char *input_format;
	const char *output;
	const char *drill, *drill_re;
	const char *group;		/* --group shape|op */
	size_t run;			/* 1-based, 0: the first */
	const char *run_name;		/* --run NAME: the run titled so */
	bool print_runs;		/* --print runs DIR: list a log dir's runs */
	const char *keymap;		/* --keymap vi|emacs|FILE */
	const char *keys;		/* --keys FILE: a user file */
	bool ascii, no_color;
	bool keep_going;		/* print what a failed load kept */
	bool merge;			/* sum whole profiles given together */
	/* Several profiles (issue 12) */
	bool diff, ranks;		/* --diff, --ranks: say how they relate */
	const char *rank;		/* --rank R: that rank's own panes */
	bool summary;			/* --summary: write a summary, not a pane */
	unsigned jobs;			/* --jobs N: threads that load files */
	/* Reading names, the mouse (issue 15) */
	bool short_names;		/* --short-names */
	bool no_mouse;			/* --no-mouse */
};

/* Read ARGV into O.  Returns -1 to go on, else an exit status (after
 * --help, --version, a --list-*, or a usage error it reported). */
int parse_args(int argc, char **argv, struct options *o);
/* Report a usage error (FMT's arguments escaped) with the hint to try
 * --help; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* A --print exits right after it prints: what it made goes back to the
 * OS at once, and freeing it piece by piece only delays the exit (0.4 s
 * for a 10 GB trace's profile; a 2.5 M-row Tree's pane is 115 MB more).
 * Sanitizer builds free, so that leak checks see everything accounted
 * for. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif
#ifndef FREE_AT_EXIT
#define FREE_AT_EXIT 0
#endif

#endif
