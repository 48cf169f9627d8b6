/* SPDX-License-Identifier: MIT */
/*
 * parser: one input format.  Each format is one file in parsers/ that ends
 * in one designated-initialiser object, listed once in registry.c; content,
 * never the file name, decides which parser reads a file.
 */
#ifndef PARSERS_PARSER_H
#define PARSERS_PARSER_H

#include <stddef.h>
#include <stdio.h>

#include "../model/profile.h"
#include "diag.h"
#include "input.h"

struct parser {
	const char *name;		/* --format NAME */
	const char *summary;		/* one line for --list-formats */
	/* Files of one family complete one profile when opened together (a
	 * trtexec graph + profile + times, a MegEngine log + its --profile
	 * JSON).  NULL: each file is a whole profile of its own. */
	const char *family;
	/* A family file of one engine (TensorRT): how trex names it,
	 * <engine><suffix>, so that a file so named says its engine; and
	 * two of one kind (parser and suffix) never complete each other.
	 * NULL: the family's files of this parser may add up. */
	const char *const *engine_suffixes;
	/* Its text may begin anywhere in a file (a key_averages table at the
	 * end of a training log): when no parser claims a file's head,
	 * detection probes the later windows of a text file with the parsers
	 * that set this, and the parse starts at the window that matched. */
	bool anywhere;
	/* Its nodes are pre-aggregated rows, nearly every one with calls
	 * and extremes of its own: the profile makes each node with room
	 * for them beside it (profile_set_counts_per_node()). */
	bool counts_per_node;
	/* How sure (0..100) that a file starting with the LEN bytes at HEAD
	 * is this format.  HEAD is decompressed and may end mid-token. */
	int (*probe)(const char *head, size_t len);
	/* Fill P from IN, reporting problems through D.  P may already hold
	 * what other files of the same run gave (a trtexec graph before its
	 * profile): a parser that can join adds to it.  Returns 0, or -1 after
	 * an error was reported. */
	int (*parse)(struct profile *p, struct input *in, struct diag *d);
};

/* The parser that claims HEAD most surely, or NULL. */
const struct parser *parser_detect(const char *head, size_t len);
/* The same among the parsers whose text may begin anywhere in a file, for
 * a window past the head. */
const struct parser *parser_detect_anywhere(const char *window, size_t len);
/* The parser called NAME, or NULL. */
const struct parser *parser_find(const char *name);
/* Every parser, in registry order; *N gets how many. */
const struct parser *const *parser_list(size_t *n);

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
/* How far a load has got, for a progress bar. */
struct load_progress {
	uint64_t done, total;		/* bytes of the file read, of its size
					   (0: not known, a pipe) */
	uint64_t plain;			/* bytes of text they held: more than
					   DONE when the file is compressed */
};

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
