/* SPDX-License-Identifier: MIT */
/*
 * straggler: Holistic Trace Analysis's straggler test
 * (get_potential_stragglers), across the ranks of a job, from what each
 * rank holds alone (struct strag_rank, from its call tree or as a summary
 * stored it):
 *
 *  - an event's iteration is N of the ProfilerStep#N whose [start, end)
 *    holds its start (a GPU event: its launching runtime call's start);
 *  - mean iteration time = (the latest end - the earliest start of the
 *    events of any iteration, all ranks together) / the number of
 *    distinct iterations;
 *  - candidate kernels: GPU events on a stream > 0, of an iteration > 0,
 *    whose name starts with "ncclKernel" and that last at least 1% of the
 *    mean iteration time; of several with one (rank, stream, iteration,
 *    name), the one that starts last;
 *  - the kernel tested: the (stream, name) whose duration over the mean
 *    iteration time varies most across the ranks -- the mean over the
 *    iterations of its standard deviation (n - 1) across the ranks; the
 *    first by (stream, name) of equals;
 *  - its metric on a rank in an iteration: (its start - the earliest start
 *    of it on any rank in that iteration) / the mean iteration time;
 *  - per iteration, the ranks whose metric is at least the
 *    NUM_CANDIDATES-th largest are marked; the stragglers are the
 *    NUM_CANDIDATES ranks marked most often (the lower rank index first
 *    among equals).
 *
 * Times are ns, the trace's own (no rounding, every step: HTA drops the
 * last one).  O(k log k) in the ncclKernel events k.
 */
#ifndef MODEL_STRAGGLER_H
#define MODEL_STRAGGLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

#define STRAG_KERNEL_PREFIX "ncclKernel"
#define STRAG_NUM_CANDIDATES 2

/* One ncclKernel event of a rank, with an iteration. */
struct strag_kernel {
	const char *name;
	int64_t start_ns, dur_ns;
	int32_t stream, iteration;
};

/* The span of the events of one iteration of a rank. */
struct strag_iter {
	int32_t iteration;
	int64_t start_ns, end_ns;
};

struct strag_rank {
	struct strag_iter *iters;	/* by iteration */
	size_t nr_iters;
	struct strag_kernel *kernels;	/* in the order of the tree */
	size_t nr_kernels;
};

/* What the test needs of P (release with strag_rank_release()). */
void strag_rank_of(const struct profile *p, struct strag_rank *out);
void strag_rank_release(struct strag_rank *r);

struct stragglers {
	int64_t mean_iter_ns;		/* 0: no iteration */
	size_t nr_iters;		/* distinct iterations, all ranks */
	const char *kernel;		/* the kernel tested; NULL: none */
	int32_t stream;
	uint32_t *marked;		/* per rank: iterations it was marked in */
	bool *is_straggler;		/* per rank */
};

/* The test over N ranks (R[i] of rank i); release with
 * stragglers_release().  Returns false (no kernel tested) when no
 * candidate varies across two ranks or more. */
bool stragglers_compute(const struct strag_rank *const *r, size_t n, size_t num_candidates,
			struct stragglers *out);
void stragglers_release(struct stragglers *s);

#endif
