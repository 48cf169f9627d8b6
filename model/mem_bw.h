/* SPDX-License-Identifier: MIT */
/*
 * mem_bw: the memory copies and sets of the GPU by kind, with the bytes
 * they moved, the time they took and the bandwidth that makes
 * (proftui(1), PANES, memory-bandwidth), as nsys stats' cuda_gpu_mem_*
 * tables give copies, from the trace's own events in nanoseconds.
 *
 * A copy or set is a NODE_MEMCPY or NODE_MEMSET event; its kind is its
 * name before " (" -- "Memcpy HtoD (Pinned -> Device)" is "Memcpy HtoD",
 * "Memset (Device)" "Memset" -- the groups Holistic Trace Analysis makes
 * of the standard names.  Per kind:
 *   count            the events;
 *   bytes            the sum of their "bytes" args (the events that give
 *                    one: sized), their minimum, maximum and mean;
 *   time             the sum of all their durations;
 *   GB/s             bytes / the sum of the sized events' durations (a
 *                    byte per nanosecond is a GB/s), NaN without time.
 *
 * With hta_summary, also HTA's get_memory_bw_summary() figure: per kind,
 * each event with a "memory bandwidth (GB/s)" arg adds it at its start
 * and takes it away at its end (an event of 0 us lasting 1 us), the
 * running sum in time order, and describe() of its positive values -- a
 * statistic of the changes, not of time.
 *
 * A copy or set that is a pre-aggregated row (an nsys stats report's
 * cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum, joined by operation)
 * with a copy record (profile_copy()) counts as its calls, with its total
 * time, its total bytes (the record's; -1 when only its time is known) and the least and greatest bytes of one copy the file gives
 * (ATTR_COPY_MIN_BYTES, ATTR_COPY_MAX_BYTES in profile.h).
 *
 * mem_bw_compute() is O(n log n) in the copies and sets.
 */
#ifndef MODEL_MEM_BW_H
#define MODEL_MEM_BW_H

#include <stdbool.h>
#include <stdint.h>

#include "describe.h"
#include "profile.h"

struct mem_bw_options {
	/* HTA's summary (the sweep above) into each kind's hta. */
	bool hta_summary;
	/* HTA's conditions, for the comparison with HTA only: times rounded
	 * as HTA's parser rounds a trace with fractional timestamps, and
	 * only the events launched by a call that starts before
	 * LAUNCHED_BEFORE_NS (INT64_MAX: all, launched or not). */
	bool round_like_hta;
	int64_t launched_before_ns;
	/* At one time in the sweep, ends before starts (else starts
	 * first): HTA's order there is that of an unstable sort. */
	bool ends_first;
	/* A range of time (the Timeline's, --range): only the events that
	 * start in [range_start_ns, range_end_ns), each with all its bytes
	 * and time, so that its bandwidth stays its own. */
	bool has_range;
	int64_t range_start_ns, range_end_ns;
};

struct mem_bw_kind {
	const char *name;		/* the kind: NAME_LEN bytes of an
					   interned name of the profile */
	size_t name_len;
	uint64_t count;
	uint64_t nr_sized;		/* events with a "bytes" arg */
	int64_t bytes;			/* their sum; capped */
	int64_t min_bytes, max_bytes;	/* -1 without sized events */
	double mean_bytes;		/* NaN without */
	int64_t time_ns;		/* every event's duration; capped */
	int64_t sized_ns;		/* the sized events' */
	double gbps;			/* bytes / sized_ns; NaN without time
					   or with a capped sum */
	struct describe hta;		/* with hta_summary */
};

struct mem_bw {
	struct mem_bw_kind *kinds;	/* by name */
	size_t nr_kinds;
	uint64_t nr_capped;		/* sums that reached SUM_CAP */
};

void mem_bw_options_default(struct mem_bw_options *o);
/* Fill B (release with mem_bw_release()); O: NULL for the default. */
void mem_bw_compute(const struct profile *p, const struct mem_bw_options *o, struct mem_bw *b);
void mem_bw_release(struct mem_bw *b);

#endif
