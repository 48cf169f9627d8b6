/* SPDX-License-Identifier: MIT */
/*
 * idle: the idle-time breakdown of each GPU stream, as Holistic Trace
 * Analysis's get_idle_time_breakdown() defines it (proftui(1), PANES,
 * idle).  On a stream, the device work (kernels, copies, sets; not
 * synchronisations) sorted by start; the gap before each one after the
 * first is its start less the end of the one before it in that order
 * (not the latest end so far: overlapping work gives a negative gap).  A
 * gap is
 *   host wait    when the runtime call that launched the work started
 *                after the previous work ended (the GPU waited for the
 *                host),
 *   kernel wait  else when it is shorter than the consecutive-kernel
 *                delay (30 us by default; negative gaps too),
 *   other        else (and work without a launching call that is not a
 *                short gap).
 * Per stream and category: the sum of the gaps, its share of the
 * stream's sum over all three, and the gaps' count, mean, standard
 * deviation (n - 1), minimum, quartiles (linear interpolation) and
 * maximum; and the stream's largest gaps, each with the host op that was
 * running on the launching thread when it began.
 *
 * idle_compute() is O(n log n) in the device work: one walk of the tree
 * and one sort.
 */
#ifndef MODEL_IDLE_H
#define MODEL_IDLE_H

#include "describe.h"
#include "profile.h"

enum idle_category { IDLE_HOST_WAIT, IDLE_KERNEL_WAIT, IDLE_OTHER, NR_IDLE_CATEGORIES };

/* "host_wait", "kernel_wait", "other": HTA's names. */
const char *idle_category_name(enum idle_category c);

struct idle_options {
	int64_t consecutive_kernel_delay_ns;	/* 30000 */
	/* Only the work that starts in [lo_ns, hi_ns) (the steps chosen);
	 * INT64_MIN, INT64_MAX: all. */
	int64_t lo_ns, hi_ns;
	/* HTA's conditions, for the comparison with HTA only (the pane never
	 * sets them): every start rounded up and every end down to a whole
	 * microsecond, as HTA's parser does to a trace with fractional
	 * timestamps; and only the work whose launching call starts before
	 * LAUNCHED_BEFORE_NS (rounded likewise), as HTA drops the last
	 * profiler step and what it launched (INT64_MAX: no such filter;
	 * else work without a launching call is dropped too). */
	bool round_like_hta;
	int64_t launched_before_ns;
};

void idle_options_default(struct idle_options *o);
/* The default, narrowed to the work that starts in step S's span (NULL,
 * or a step without one: all). */
void idle_options_for_step(struct idle_options *o, const struct step *s);
/* Narrow O to the work that starts in [START, END) too (a range of
 * time; with a step, the part in both). */
void idle_options_narrow(struct idle_options *o, int64_t start_ns, int64_t end_ns);

#define IDLE_TOP_GAPS 5

struct idle_gap {
	int64_t start_ns;		/* the end of the work before it */
	int64_t len_ns;
	enum idle_category category;
	const struct node *next;	/* the work after the gap */
	const struct node *cpu_op;	/* the innermost host node (op, module,
					   annotation, step) on the thread that
					   launched NEXT whose interval holds
					   START_NS; NULL: none */
};

struct idle_stream {
	int32_t device, stream;
	uint64_t nr_work;		/* kernels, copies and sets counted */
	int64_t first_ns;		/* the earliest start */
	int64_t end_ns;			/* the latest end */
	uint32_t first_seen;		/* the order of its first work in the
					   file (the load makes nodes in it) */
	int64_t idle_ns[NR_IDLE_CATEGORIES];	/* sums, capped (bounds.h) */
	int64_t total_ns;		/* their sum */
	double ratio[NR_IDLE_CATEGORIES];	/* idle_ns / total_ns; NaN when 0 */
	/* describe() of each category's gaps, in ns (describe.h: NaN
	 * where there are none; STD NaN for one). */
	struct describe stats[NR_IDLE_CATEGORIES];
	struct idle_gap top[IDLE_TOP_GAPS];	/* the longest, longest first */
	size_t nr_top;
};

struct idle_breakdown {
	struct idle_stream *streams;	/* in the order of their first work in
					   the file, as HTA's */
	size_t nr_streams;
	uint64_t nr_capped;		/* sums that reached SUM_CAP */
};

/* S's idle time over its span, from its first work's start to its last
 * work's end, 0 to 1 (negative gaps count against it); NaN without a
 * span or with a capped sum. */
double idle_stream_share(const struct idle_stream *s);

/* Fill B (release with idle_release()); O options: NULL for the default. */
void idle_compute(const struct profile *p, const struct idle_options *o, struct idle_breakdown *b);
void idle_release(struct idle_breakdown *b);

#endif
