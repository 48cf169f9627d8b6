/* SPDX-License-Identifier: MIT */
/*
 * kernel_breakdown: the GPU work by kernel -- Holistic Trace Analysis's
 * per-kernel tables of get_gpu_kernel_breakdown (kernel_all, and kernel
 * on request) as a pure function of a profile, in nanoseconds from the
 * trace's own events.
 *
 * The events are those the temporal breakdown takes (temporal_event():
 * kernels, memcpy and memset on a device stream; CUDA sync events are no
 * work a stream ran and are not taken), each typed by its full name
 * (kernel_type.h).  One row per type and full name:
 *
 *   calls      the events
 *   sum        their durations added (saturating, bounds.h)
 *   max, min   the longest and shortest
 *   mean       sum / calls, rounded to the ns
 *   stddev     the sample standard deviation (n - 1, model/dist.h); not
 *              defined (NaN) for one event, where HTA writes 0
 *
 * every type, OTHER included (HTA leaves OTHER out), every kernel: no
 * folding.  The rows come by type (COMMUNICATION, COMPUTATION, MEMORY,
 * OTHER: HTA's order, alphabetical), then the largest sum first, equal
 * sums by name.
 *
 * The options fold as HTA's kernel table does (num_kernels,
 * duration_ratio): within a type with more than FOLD_KERNELS names, with
 * c_i the running sum of the sums in that order and q the FOLD_PCT
 * percentile of the c_i (linear interpolation, model/dist.h), the rows
 * at position >= FOLD_KERNELS or with c_i > q become one row "others"
 * (name NULL) whose figures are over the folded rows' sums; a kept row's
 * max, min and mean are then its sum (one value: stddev NaN).  Exact, in
 * integers.  O(n log n) in the events, one walk of the tree.
 */
#ifndef MODEL_KERNEL_BREAKDOWN_H
#define MODEL_KERNEL_BREAKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_type.h"
#include "profile.h"
#include "temporal.h"

struct kbreak_opts {
	struct temporal_opts t;	/* which events, their times (temporal.h) */
	size_t fold_kernels;	/* HTA's num_kernels; 0: no folding */
	unsigned fold_pct;	/* HTA's duration_ratio, in percent (0..100) */
};

#define KBREAK_OPTS_ALL ((struct kbreak_opts){ .t = TEMPORAL_OPTS_ALL })

struct kbreak_row {
	enum kernel_type type;
	const char *name;	/* the profile's; NULL: HTA's "others" */
	uint64_t calls;		/* events */
	uint64_t nr_values;	/* the values the figures are over: calls, or
				   when folded 1 (a kept row) or the rows
				   folded ("others") */
	int64_t sum_ns, max_ns, min_ns, mean_ns;
	double stddev_ns;	/* NaN for one value */
};

struct kbreak {
	struct kbreak_row *rows;
	size_t nr;
	size_t nr_events;
	uint64_t nr_capped;	/* sums that hit SUM_CAP (bounds.h) */
};

void kbreak_compute(const struct profile *p, const struct kbreak_opts *o, struct kbreak *b);
void kbreak_release(struct kbreak *b);

/* The order of the types in the table: COMMUNICATION 0, COMPUTATION 1,
 * MEMORY 2, OTHER 3. */
unsigned kbreak_type_rank(enum kernel_type t);

#endif
