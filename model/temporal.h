/* SPDX-License-Identifier: MIT */
/*
 * temporal: how the GPU spent the trace's time -- Holistic Trace
 * Analysis's temporal breakdown and its kernel-type overlap table
 * (get_temporal_breakdown, get_gpu_kernel_breakdown's kernel_type), as a
 * pure function of a profile, in nanoseconds from the trace's own events.
 *
 * The GPU work is every event that ran on a device stream: kernels,
 * memcpy and memset (node_kind_is_device()), all devices and streams
 * together, GPU-side annotation ranges not included.  Over it:
 *
 *   kernel time      last end - first start of that work
 *   idle time        kernel time - |union of all of it|
 *   compute time     |union of the COMPUTATION events (kernel_type.h)|
 *   non-compute time kernel time - compute time - idle time
 *
 * and, for the kernel-types table, the unions of the COMPUTATION,
 * COMMUNICATION and MEMORY events swept together into exclusive classes
 * by which of them run at once.  An interval union merges touching
 * intervals; time when only OTHER work runs counts in no class.
 *
 * With a window (a step), the events are clipped to it first.
 *
 * struct temporal_opts also holds what a comparison with HTA needs and a
 * pane never uses: HTA's rounding to whole microseconds and its window (the
 * GPU work launched before the last ProfilerStep).  O(n log n) in the
 * device events, one walk of the tree.
 */
#ifndef MODEL_TEMPORAL_H
#define MODEL_TEMPORAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_type.h"
#include "profile.h"

struct temporal_opts {
	/* HTA's rounding of a trace with fractional timestamps: start' =
	 * ceil(start), end' = floor(start + dur), in whole microseconds, in
	 * HTA's float64 arithmetic (an event may come out with end' <
	 * start'); the window's times are compared rounded too. */
	bool round_like_hta;
	/* Only device work whose launching runtime call started before this
	 * time (ns, the profile's clock); work no runtime call launched is
	 * then left out.  INT64_MAX: all device work, linked or not. */
	int64_t launched_before_ns;
	/* A step picked: only the GPU work that meets [window_start_ns,
	 * window_end_ns), clipped to it (a zero-length event counts when it
	 * lies inside; an empty window takes nothing). */
	bool has_window;
	int64_t window_start_ns, window_end_ns;
};

#define TEMPORAL_OPTS_ALL ((struct temporal_opts){ .launched_before_ns = INT64_MAX })

/* The options of a pane over P with step PICKED (NULL: the whole trace):
 * P's GPU work clipped to P's step of PICKED's name (the ranks of a job
 * each have their own); a name P lacks, or a step without an interval,
 * is an empty window. */
struct temporal_opts temporal_opts_for_step(const struct profile *p, const struct step *picked);

/* Narrow O's window to [START, END) too (absolute; a range of time on
 * the Timeline): with a step's window, to the part in both (an empty
 * window when they do not meet). */
void temporal_opts_narrow(struct temporal_opts *o, int64_t start_ns, int64_t end_ns);

/* The classes of the kernel-types table: a set of enum kernel_type bits
 * (1..7), COMPUTATION | COMMUNICATION | MEMORY. */
#define NR_KTYPE_CLASSES 8

struct temporal {
	size_t nr_events;		/* device events taken */
	size_t nr_by_type[NR_KTYPE_CLASSES];	/* by enum kernel_type (0: OTHER) */
	int64_t first_start_ns, last_end_ns;	/* 0, 0 without events */
	int64_t kernel_ns, idle_ns, compute_ns, non_compute_ns;
	int64_t busy_ns;		/* |union of all|: kernel_ns - idle_ns */
	/* Time in each exclusive class, by its set of bits; [0] unused. */
	int64_t class_ns[NR_KTYPE_CLASSES];
	int64_t classes_total_ns;	/* their sum: the table's 100% */
	uint64_t nr_capped;		/* sums that hit SUM_CAP (bounds.h) */
};

void temporal_compute(const struct profile *p, const struct temporal_opts *o, struct temporal *t);

/* Whether the options O take node N of P as GPU work, and then its
 * interval as they count it (clipped to the window, rounded like HTA)
 * into *START, *END: the one rule of which events the analyses of the
 * GPU's work see. */
bool temporal_event(const struct profile *p, const struct temporal_opts *o, const struct node *n,
		    int64_t *start, int64_t *end);

/* 100 * PART / WHOLE; NaN when WHOLE <= 0 or either sum is capped. */
double temporal_pct(int64_t part, int64_t whole);

/* A class's name as HTA writes it: its types in the order COMPUTATION,
 * COMMUNICATION, MEMORY joined by " overlapping ".  Static strings. */
const char *temporal_class_name(unsigned bits);

#endif
