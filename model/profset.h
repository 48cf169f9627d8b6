/* SPDX-License-Identifier: MIT */
/*
 * profset: the profiles one command line opened and how they relate.
 *
 * Files that complete one profile (a trtexec graph, profile and times; a
 * log and its profile JSON) load into one struct profile, as they always
 * did.  Whole profiles given together are never summed behind the user's
 * back: two are a diff (the first is the base), the traces of one
 * distributed job are its ranks, and --merge asks for the sum (which is
 * then one profile again).  This module holds the result and makes the
 * decision; parsers/load_set.c loads the files and calls it.
 *
 * Ownership: the set owns its members' profiles (heap, each with its runs)
 * and every string in it; profset_release() frees them all.
 */
#ifndef MODEL_PROFSET_H
#define MODEL_PROFSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum profset_kind {
	PROFSET_ONE,		/* one profile (maybe of several files, or --merge) */
	PROFSET_DIFF,		/* members[0] is the base, members[1] the new run */
	PROFSET_RANKS,		/* the workers of one job, one member each */
};

struct profset_member {
	struct profile *prof;	/* heap; a worker's later spans follow as its runs */
	char *label;		/* the worker ("worker0"), else the file */
	char *files;		/* its files, joined by " + " */
	int32_t rank;		/* distributedInfo's rank, else -1 */
	size_t nr_spans;	/* files of this worker read as its runs */
};

/* Ranks first to last, both included. */
struct rank_range {
	int32_t lo, hi;
};

struct profset {
	enum profset_kind kind;
	struct profset_member *members;
	size_t nr;
	char *why;		/* how the files were related, for Info */
	char *label;		/* the files as titles name them */
	/* Ranks: the job's world size as its traces say it (-1: they do
	 * not agree or do not say), and the ranks of it no file gave, as
	 * ascending gaps (heap): what every cross-rank figure lacks. */
	int32_t world_size;
	struct rank_range *missing;
	size_t nr_missing_ranges;
	int64_t nr_missing;	/* ranks in those gaps */
	/* Ranks that several workers claim (each worker still a member of
	 * its own, under its name), and how many workers claim them. */
	size_t nr_shared_ranks, nr_sharing;
	bool some_rank_known;	/* some member's trace gives its rank */
};

void profset_release(struct profset *s);

/* The member whose first run is P, or NULL. */
const struct profset_member *profset_member_of(const struct profset *s, const struct profile *p);

/*
 * The worker of a trace file as torch-tb-profiler names it: its base name
 * matched against `<worker>[.<span>].pt.trace.json[.gz]`.  On a match,
 * WORKER_LEN gets the worker's length, SPAN and SPAN_LEN the span's digits
 * (length 0 when there is none), and it returns true.  A name that does
 * not match gives false, and WORKER_LEN the length of the name without ".json[.gz]" or
 * ".summary" (the plugin's reference scripts do the same).
 */
bool profset_worker_of(const char *base, size_t *worker_len, const char **span, size_t *span_len);

/*
 * "3 of 16 ranks missing (4, 7-8)" (the first few gaps, then "..."), or
 * "" when none is.  Returns BUF.
 */
const char *profset_missing_text(const struct profset *s, char *buf, size_t size);

/*
 * The rank member M of S is shown as: its trace's rank; where no member
 * has one, its place among the workers (numbered in their order, as
 * before any trace said a rank); else -1, unknown -- never a place that
 * could pass for another worker's rank.
 */
long profset_shown_rank(const struct profset *s, size_t m);

/*
 * "1000 workers claim rank 0 (w0.json, w1.json, w10.json and 997 more)",
 * or for several ranks "5 workers share 2 ranks: rank 0 (a, b, c), rank
 * 4 (d, e)" (the first few files of the first few ranks): a heap string,
 * NULL when no two workers claim one rank.
 */
char *profset_shared_text(const struct profset *s);

/* The file P stands for: a summary's trace (what it says it summarises),
 * else P's own path.  Workers are named after it. */
const char *profset_source_of(const struct profile *p);

/* What decides how whole profiles relate (filled by the loader). */
struct profset_hints {
	bool want_diff;		/* --diff */
	bool want_ranks;	/* --ranks */
	bool from_dir;		/* the files came from walking a directory */
};

/*
 * Decide how the members of S (loaded, one whole profile each, in the
 * order given; their labels set to the file names) relate, and set kind,
 * why and label.  Ranks: members of one worker become spans (runs) of
 * the first, and members are ordered by rank (by worker name when a rank
 * is missing).  Returns 0, or -1 with ERR (SIZE bytes) saying why the
 * files cannot be opened together (three unrelated profiles; --diff with
 * one).
 */
int profset_relate(struct profset *s, const struct profset_hints *h, char *err, size_t size);

/* Title every profile of S that has no title of its own NAME (the run
 * of a log dir they are). */
void profset_name_runs(struct profset *s, const char *name);

/*
 * The runs of a log dir, each loaded and related as a set of its own
 * (RUNS[0..NR), NAMES theirs), into S: the members of the first, each
 * followed by the same member of every later run as its later runs, so
 * that --run N and { } pick a run of the log dir as of a file.  RUNS are
 * emptied (their profiles move into S).  Returns 0, or -1 with ERR when
 * the runs do not line up (another kind, another number of members or
 * of runs each), RUNS left as they were.
 */
int profset_chain_runs(struct profset *s, struct profset *runs, const char *const *names,
		       size_t nr, char *err, size_t size);

#endif
