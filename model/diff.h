/* SPDX-License-Identifier: MIT */
/*
 * diff: comparing profiles, as pure functions.
 *
 *  - diff_status(): what a change is called (added, removed, slower,
 *    faster, same within a threshold).
 *  - diff_align(): rows of several tables lined up by name, the k-th row
 *    of a name with the k-th (pre-aggregated rows may share a name).
 *  - The diff tree: two call trees matched as torch-tb-profiler's Diff
 *    view matches them (its profiler/diffrun: the top-level ProfilerStep /
 *    module / DataLoader / backward / optimizer nodes matched in order by
 *    kind and name, the runs of other nodes between them compared as
 *    "CompositeNodes"), each node with its base and new host and device
 *    durations, and the ops under each side aggregated like the Operators
 *    pane (agg_ops()).
 *
 * Ownership: diff_align() returns heap memory the caller frees; a
 * diff_tree owns its nodes and arrays (diff_tree_release()) and borrows
 * the two profiles, which must outlive it.
 */
#ifndef MODEL_DIFF_H
#define MODEL_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "arena.h"
#include "profile.h"

/* A time within 2% of the base's, or within 1 us, is "same": run-to-run
 * noise of a GPU step is a few percent, and a microsecond is below what
 * a trace resolves. */
#define DIFF_SAME_PCT 2
#define DIFF_SAME_NS 1000

enum diff_status {
	DIFF_NONE,		/* nothing to say (no number to compare) */
	DIFF_ADDED,		/* only the new run has it */
	DIFF_REMOVED,		/* only the base has it */
	DIFF_SLOWER,		/* a time grew beyond the threshold */
	DIFF_FASTER,
	DIFF_SAME,		/* within the threshold */
	DIFF_MORE,		/* a count grew (any change of a count counts) */
	DIFF_FEWER,
};

/* "added", "slower"...; NULL for DIFF_NONE. */
const char *diff_status_name(enum diff_status s);
/* The status of a value that went from BASE to NEW: a time (IS_TIME, in
 * ns) by the thresholds above, a count by any change.  Two values at or
 * past SUM_CAP (capped sums, model/bounds.h) are bounds, not measures:
 * DIFF_NONE; one alone still says which way it went. */
enum diff_status diff_status_of(double base, double new_value, bool is_time);

/*
 * Line up NR_LISTS lists of names: LISTS[i] holds NR[i] names.  Returns
 * the number of rows and sets *OUT to a heap array of rows * NR_LISTS
 * indices (row r, list i: OUT[r * NR_LISTS + i], SIZE_MAX where list i
 * lacks the row).  Rows come in list PRIMARY's order, then the rows only
 * other lists have, list by list.  Names compare as strings; the k-th
 * occurrence of a name in one list matches the k-th in another.
 */
size_t diff_align(const char *const *const *lists, const size_t *nr, size_t nr_lists,
		  size_t primary, size_t **out);

/* ---------------------------------------------------------------------
 * The diff tree
 */

/* One side of a diff node: no node ("Blank"), one node, or a run of
 * sibling nodes ("CompositeNodes"). */
struct diff_side {
	const struct node *const *nodes;
	size_t nr;
	bool is_list;		/* several nodes (a run between matched ones) */
};

struct diff_node {
	struct diff_side side[2];	/* 0: base, 1: new */
	struct diff_node *parent, *child, *next;
	size_t nr_children;
};

struct diff_tree {
	struct diff_node *root;
	struct diff_node **nodes;	/* every node in pre-order (heap) */
	size_t nr_nodes;
	struct arena arena;		/* the nodes and the sides' lists */
};

/*
 * Match the call trees of BASE and NEW as torch-tb-profiler's compare_run
 * does: the first thread of each (the plugin's first tid tree), its
 * ProfilerStep children's children when it has steps, else its own
 * children.  Nodes of T are numbered in pre-order (t->nodes[0] is the
 * root; path "0-1-3" in the plugin's /diffnode is the 4th child of the
 * 2nd child of the root).
 */
void diff_tree_build(struct diff_tree *t, const struct profile *base, const struct profile *new_run);
void diff_tree_release(struct diff_tree *t);

/* A side's name as the plugin gives it: the node's, "CompositeNodes" for
 * a run of nodes, "Blank" for none. */
const char *diff_side_name(const struct diff_side *s);
/* A side's durations: host (end - start), device (the device time of
 * everything under it) and total (device, else host, per node); P is the
 * profile the side's nodes are of.  Sums capped at SUM_CAP; returns how
 * many reached it. */
unsigned diff_side_times(const struct profile *p, const struct diff_side *s, int64_t *host_ns,
			 int64_t *device_ns, int64_t *total_ns);
/* The ops under a side (its nodes and their subtrees), one row per name
 * as agg_ops() makes them, from P (the profile the side's nodes are
 * of).  Caller releases OUT with agg_release(). */
void diff_side_ops(const struct profile *p, const struct diff_side *s, struct agg *out);

#endif
