/* SPDX-License-Identifier: MIT */
/*
 * name_stats: the durations of one kind of node, one row per name, with
 * the figures of Nsight Systems' summary reports (cuda_api_sum, nvtx_sum):
 * calls, total, share, mean, median, extremes and standard deviation of
 * one call's duration, and its 90th and 99th percentiles (model/dist.h
 * defines the percentiles and the deviation).  The kinds:
 *
 *   NAME_STATS_API       runtime and driver API calls (cudaLaunchKernel,
 *                        hipMemcpyAsync...): runtime nodes, host time;
 *   NAME_STATS_HOST_ANNOTATIONS  record_function / NVTX ranges on a CPU
 *                        thread: annotation nodes, host time;
 *   NAME_STATS_GPU_ANNOTATIONS   their GPU-side copies on a stream
 *                        (Kineto's gpu_user_annotation): device time.
 *
 * A pre-aggregated row (a key_averages table's cudaLaunchKernel, calls
 * counted in the file) gives its calls, total and, where the file has them,
 * extremes, but not the single durations: its name's median and standard
 * deviation are then unknown, never guessed.  Nested ranges of one name
 * each count in full (no exclusive time), as the reports count them.
 */
#ifndef MODEL_NAME_STATS_H
#define MODEL_NAME_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum name_stats_kind {
	NAME_STATS_API,
	NAME_STATS_HOST_ANNOTATIONS,
	NAME_STATS_GPU_ANNOTATIONS,
};

struct name_row {
	const char *name;		/* the profile's string */
	uint64_t calls;
	int64_t total_ns;		/* capped at SUM_CAP (capped: true) */
	int64_t min_ns, max_ns;		/* -1: unknown */
	int64_t median_ns;		/* -1: unknown (not every duration known) */
	int64_t p90_ns, p99_ns;		/* the same; model/dist.h's percentiles */
	double stddev_ns;		/* sample (n - 1); NaN: unknown or one call */
	bool capped;			/* total_ns reached SUM_CAP */
	/* What a row of one node of a printed report (nsys stats) states:
	 * its Avg (the median and deviation above are then the file's too),
	 * its Time % of its own report, and the report's name. */
	int64_t mean_ns;		/* -1: not stated */
	double file_pct;		/* NaN: not stated */
	const char *report;		/* NULL: not stated */
};

struct name_stats {
	struct name_row *rows;		/* by total, longest first; ties by name */
	size_t nr;
	int64_t total_ns;		/* every call's, for the share */
	bool capped;
};

/*
 * Which nodes count, beyond their kind.  The panes count every node that
 * started in STEP (NULL: all).  HTA's conditions, for tests that compare
 * with it: BEFORE_NS keeps only nodes that started before it (HTA drops
 * the last profiler step; 0: no bound), and ROUND_LIKE_HTA takes a
 * node's duration as HTA's parser makes it from fractional microseconds
 * (model/hta_time.h), and compares its start with BEFORE_NS so too.
 */
struct name_stats_scope {
	const struct step *step;
	int64_t before_ns;
	bool round_like_hta;
	/* A range of time (the Timeline's, --range): a node counts when it
	 * starts in [range_start_ns, range_end_ns), with all its time, as
	 * a step counts it. */
	bool has_range;
	int64_t range_start_ns, range_end_ns;
};

/* The nodes of KIND in P within SCOPE (NULL: all), into OUT (released by
 * name_stats_release()).  O(n log n) in the nodes counted. */
void name_stats_make(const struct profile *p, enum name_stats_kind kind,
		     const struct name_stats_scope *scope, struct name_stats *out);
void name_stats_release(struct name_stats *s);
/* The durations of the nodes of KIND called NAME within SCOPE (NULL:
 * all), as name_stats_make() counts them, ascending into *OUT (heap, the
 * caller frees it); returns how many.  0 and NULL when there are none or
 * one is pre-aggregated (its calls' durations unknown). */
size_t name_stats_durations(const struct profile *p, enum name_stats_kind kind,
			    const struct name_stats_scope *scope, const char *name, int64_t **out);
/* How many nodes of KIND P has, and their total (capped), in one walk
 * without the rows: what the Overview says of them. */
void name_stats_count(const struct profile *p, enum name_stats_kind kind, uint64_t *calls,
		      int64_t *total_ns);
/* The nodes of KIND counted apart by the printed report each is a row of
 * (ATTR_FILE_REPORT: nsys stats' cuda_api_sum, osrt_sum; NULL: a node no
 * report names), in the order first met, into *OUT (heap, the caller
 * frees it); returns how many reports.  One walk; past
 * NAME_STATS_PARTS_MAX reports the rest count as one, of report "". */
#define NAME_STATS_PARTS_MAX 16
struct name_stats_part {
	const char *report;
	uint64_t calls;
	int64_t total_ns;
};
size_t name_stats_count_parts(const struct profile *p, enum name_stats_kind kind,
			      struct name_stats_part **out);

#endif
