/* SPDX-License-Identifier: MIT */
/*
 * distributed: torch-tb-profiler's Distributed view, as pure functions of
 * the ranks' profiles (its profiler/overall_parser.py, communication.py
 * and loader.py's _process_distributed_profiles; run_generator.py's
 * DistributedRunGenerator).
 *
 * Of each rank alone (struct rank_local, from its call tree or as a
 * summary stored it):
 *  - per step, Computation (the union of the non-collective kernels'
 *    intervals in the step; host ops' when the trace has no kernel),
 *    Communication (the union of the collectives' kernels and their host
 *    events), Overlapping (both at once) and Other (the step's length
 *    plus overlapping minus the two);
 *  - every collective call (nccl:/gloo: broadcast, reduce, all_reduce,
 *    all_gather, reduce_scatter): its host interval, the intervals of the
 *    kernels it launched (NCCL only), its bytes, its step.
 * Across the ranks (struct rank_dist): the k-th kernel range of the i-th
 * collective of every rank is one transfer, and its shortest duration on
 * any rank is the Data Transfer time; the rest of each rank's collective
 * time is Synchronizing (waiting for the others).  Per rank, the comm-ops
 * table: calls, bytes, latency (the union of the calls' ranges) and
 * data transfer time per collective name.
 *
 * Times are ns.  What the plugin does that these functions do not: it
 * counts the user_annotation events proftui's tree leaves out among the
 * host ops (which matters only for Computation of a trace without
 * kernels), and it keys collectives by External id (two with one id are
 * one there, two here).
 */
#ifndef MODEL_DISTRIBUTED_H
#define MODEL_DISTRIBUTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct span_ns {
	int64_t start, end;
};

/* One collective call (the plugin's CommunicationNode). */
struct comm_call {
	const char *name;		/* "nccl:all_reduce" */
	int64_t start_ns, end_ns;	/* its host event */
	int64_t size_bytes;		/* Σ input elements × element size; -1: unknown */
	int32_t step;			/* index into the profile's steps; -1: none */
	struct span_ns *ranges;		/* its host event, then its kernels, by (start, -end) */
	size_t nr_ranges;
};

/* One step's split (the plugin's StepCommunicationCosts). */
struct step_overlap {
	int64_t computation, overlap, communication, other;
};

/* What a rank's Distributed figures need of its profile alone. */
struct rank_local {
	struct step_overlap *steps;	/* one per step of the profile */
	size_t nr_steps;
	struct comm_call *calls;	/* by (start, -end) */
	size_t nr_calls;
	bool has_communication;		/* some collective (host event or kernel) */
	bool owned;			/* computed here: rank_local_release() frees */
};

/*
 * The figures of profile P: the ones a summary stored (p->rank_local),
 * or worked out from its call tree.  Release with rank_local_release().
 */
void rank_local_of(const struct profile *p, struct rank_local *out);
void rank_local_release(struct rank_local *r);

/* A row of the plugin's comm-ops table. */
struct comm_op {
	const char *name;
	uint64_t calls;
	int64_t size_bytes;		/* -1: unknown (a call's size is) */
	int64_t latency_ns;		/* the union of the calls' ranges */
	int64_t transfer_ns;		/* the union of their data transfer ranges */
};

/* One rank's figures across the ranks. */
struct rank_dist {
	/* Per step of the rank's profile, then one for the calls in no step
	 * (the plugin's step None): collective time and data transfer. */
	int64_t *comm_ns, *transfer_ns;
	bool *has_calls;		/* the bucket has a collective */
	size_t nr_buckets;		/* nr_steps + 1 */
	struct comm_op *ops;		/* by first call */
	size_t nr_ops;
};

/*
 * The cross-rank figures of N ranks (LOCAL[i] of rank i) into OUT[i]
 * (caller's array of N, released with rank_dist_release()).  Returns true
 * when every rank has collectives and they line up (as many calls, as
 * many kernels each); else false with WHY (a static string), and data
 * transfer falls back to each rank's own collective time (as if no rank
 * ever waited), which the caller must not show as the plugin's.
 */
bool rank_dist_compute(const struct rank_local *const *local, size_t n, struct rank_dist *out,
		       const char **why);
void rank_dist_release(struct rank_dist *d);

/* The union length of the sorted-or-not ranges V[0..N) (they are sorted
 * in place). */
int64_t span_union(struct span_ns *v, size_t n);

/*
 * Stragglers: marks for each of N ranks from their step times, computation
 * times and synchronizing times (-1: unknown): STRAGGLER_SLOW_STEP or
 * STRAGGLER_SLOW_COMPUTE when 10% or more above the median of the ranks;
 * STRAGGLER_WAITED_FOR for the rank the others wait for -- the one with
 * the least synchronizing time, when the median of the ranks' is at least
 * twice it and at least 1 us more.  MARKS gets the OR of the flags.
 */
enum {
	STRAGGLER_SLOW_STEP = 1 << 0,
	STRAGGLER_SLOW_COMPUTE = 1 << 1,
	STRAGGLER_WAITED_FOR = 1 << 2,
	/* Not rank_stragglers()'s: HTA's test across the ranks
	 * (straggler.h), on a rank's all row. */
	STRAGGLER_HTA = 1 << 3,
};
#define STRAGGLER_PCT 10
void rank_stragglers(const int64_t *step_ns, const int64_t *compute_ns, const int64_t *sync_ns,
		     size_t n, uint8_t *marks);

#endif
