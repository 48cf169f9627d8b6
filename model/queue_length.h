/* SPDX-License-Identifier: MIT */
/*
 * queue_length: how many operations wait on each GPU stream over time
 * (proftui(1), PANES, queue-length), Holistic Trace Analysis's queue
 * length (get_queue_length_time_series / _summary) from the trace's own
 * events, in nanoseconds.
 *
 * The queue of a stream is the operations launched on it and not yet
 * started there.  Every kernel, copy or set that hangs under the runtime
 * (or driver) call that launched it is one operation: +1 at that call's
 * start, -1 at the operation's start, on the operation's device and
 * stream.  A call that launched several operations (a graph launch)
 * adds one for each.  Work no call launched is not counted.
 *
 * The change points of a stream are those +1 and -1 in time order;
 * at one time, launches come before starts (so a launch and the start
 * of what it launched at the same nanosecond never make the queue
 * negative), and equal changes at one time are interchangeable.  Each
 * point holds the length after it.  Per stream:
 *   describe()        of the points' lengths (count, mean, std n-1,
 *                     min, quartiles, max): HTA's summary, a statistic
 *                     of the changes, NOT of time;
 *   time-weighted     the mean length over [first point, last point]
 *                     weighted by how long each length held, and the
 *                     longest length held for more than 0 ns;
 *   blocked           the time the length was at least FULL_LENGTH
 *                     (1024, CUDA's default launch queue) and its share
 *                     of the span of all streams' points.
 *
 * queue_compute() is O(n log n) in the launches: one walk of the tree
 * and one sort; its points take 16 bytes per change.
 */
#ifndef MODEL_QUEUE_LENGTH_H
#define MODEL_QUEUE_LENGTH_H

#include <stdbool.h>
#include <stdint.h>

#include "describe.h"
#include "profile.h"

struct queue_options {
	int64_t full_length;		/* 1024 */
	/* HTA's conditions, for the comparison with HTA only (the pane
	 * never sets them): every time rounded up to a whole microsecond
	 * as HTA's parser rounds a trace with fractional timestamps; only
	 * the operations whose launching call starts before
	 * LAUNCHED_BEFORE_NS (INT64_MAX: all), as HTA drops the last
	 * profiler step; and only the launching calls HTA names
	 * (cudaLaunchKernel, cudaLaunchKernelExC, cuLaunchKernel,
	 * cuLaunchKernelEx, cudaMemcpyAsync, cudaMemsetAsync,
	 * hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyAsync,
	 * hipMemsetAsync, hipMemcpyWithStream, MTIA's runFunction). */
	bool round_like_hta;
	int64_t launched_before_ns;
	bool hta_launch_names;
	/* At one time, starts before launches: the other bound of what an
	 * order of ties can make of the summary (HTA's order is that of an
	 * unstable sort), for the comparison's tests only. */
	bool starts_first;
	/* A range of time (the Timeline's, --range): each stream's figures
	 * over [range_start_ns, range_end_ns) only, with the operations
	 * queued at its start carried in, and only the streams whose span
	 * (first change to last) the range meets. */
	bool has_range;
	int64_t range_start_ns, range_end_ns;
};

/* One change of a stream's queue: the length after it. */
struct queue_point {
	int64_t t_ns;
	int32_t length;
	uint32_t stream;		/* the index of its stream (private) */
};

struct queue_stream {
	int32_t device, stream;
	const struct queue_point *points;	/* in time order; with a range,
						   those in it */
	size_t nr_points;
	uint64_t nr_launches;		/* operations counted: nr_points / 2;
					   with a range, the launches in it */
	int32_t carried;		/* the length at first_ns before its
					   points: 0, or with a range, what was
					   queued before the range */
	struct describe summary;	/* of the points' lengths */
	int64_t first_ns, last_ns;	/* the first and last point; with a
					   range, the span clipped to it */
	double tw_mean;			/* NaN: no time between the points,
					   or a capped sum */
	int64_t tw_max;			/* the longest length held > 0 ns;
					   INT64_MIN: none */
	int64_t blocked_ns;		/* at >= full_length; capped */
	double blocked_share;		/* of the span of all streams; NaN
					   without one */
};

struct queue_lengths {
	struct queue_stream *streams;	/* by device, then stream */
	size_t nr_streams;
	struct queue_point *points;	/* every stream's, one after another */
	size_t nr_points;
	int64_t first_ns, last_ns;	/* the span of all points */
	uint64_t nr_capped;		/* sums that reached SUM_CAP */
};

void queue_options_default(struct queue_options *o);
/* Whether NAME is one of the launching calls HTA counts. */
bool queue_is_hta_launch(const char *name);

/* Fill Q (release with queue_release()); O: NULL for the default. */
void queue_compute(const struct profile *p, const struct queue_options *o, struct queue_lengths *q);
void queue_release(struct queue_lengths *q);

#endif
