/* SPDX-License-Identifier: MIT */
/*
 * Loading profiles: files into one profile (load.c), and paths -- files,
 * log dirs, runs -- into a set of profiles loaded in parallel
 * (load_set.c).  The loader asks the registry (parser.h) which parser
 * reads a file and calls it; no parser calls the loader.
 */
#ifndef PARSERS_LOAD_H
#define PARSERS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input.h"

struct profile;

struct load_options {
	const char *format;		/* NULL: detect */
	bool merge;			/* sum whole profiles (--merge) */
	bool diff, ranks;		/* profset_load: --diff, --ranks */
	unsigned jobs;			/* profset_load's threads; 0: one per core */
	const char *run_name;		/* profset_load: --run NAME, the run of a
					   log dir to load; NULL: every run */
	FILE *err;			/* where messages go; NULL: nowhere */
	void (*progress)(void *ctx, const struct load_progress *lp);
	void *progress_ctx;
};
/*
 * Load PATHS into P (initialised by the caller): each file is detected (or
 * read as FORMAT when it is not NULL) and parsed into the same profile, so
 * the files of one run (one family: a trtexec graph, profile and times)
 * merge.  A second whole profile is an error naming it, unless MERGE asks
 * for the sum.  Messages go to ERR (NULL: quiet); warnings are counted
 * into P either way.  Returns 0 when every file loaded, -1 after errors
 * that left nothing usable, and 1 when an error was reported but P keeps
 * what was read (a truncated trace; one file of several that failed,
 * the others loaded).  A parser's parse() signals a kept partial read by
 * returning 0 after a diag_error().
 */
int profile_load(struct profile *p, const char *const *paths, size_t nr_paths,
		 const struct load_options *opt);

/*
 * Open PATHS as a set of profiles (model/profset.h): a directory is walked
 * as torch-tb-profiler walks a run's log dir (its trace and
 * *.summary files, one worker each); the files of one family make one
 * profile (unless MERGE makes one of everything); the profiles load in
 * parallel, one per thread (JOBS, else one per core), each with
 * profile_load(), their messages printed in the order of the files; then
 * profset_relate() decides what they are to each other (OPT's diff and
 * ranks ask).  A file that fails is named and left out; the others open.
 * Returns 0, 1 (an error reported, what loaded kept), -1 (nothing
 * usable), or -2 after a message that the files cannot go together as
 * given (a usage error: say --diff, --ranks or --merge).
 */
struct profset;
int profset_load(struct profset *set, const char *const *paths, size_t nr_paths,
		 const struct load_options *opt);

/*
 * The runs of the log dir DIR, as torch-tb-profiler's home lists them
 * and profset_load() opens them: each directory that holds worker files
 * (*.pt.trace.json[.gz], *.summary), named by its path under DIR (DIR's
 * own name when the files are right in it), in the order of their names.
 * A log dir of several runs opens with every run, as runs of the set
 * (--run N, { and }), or the one --run NAME names.  *RUNS (heap, each
 * string too) gets NR of them.  Returns 0, or -1 with ERR.
 */
struct profset_run {
	char *name;
	char *dir;
	size_t nr_files;
};
int profset_list_runs(const char *dir, struct profset_run **runs, size_t *nr, char *err,
		      size_t size);

#endif
