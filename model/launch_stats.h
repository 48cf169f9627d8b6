/* SPDX-License-Identifier: MIT */
/*
 * launch_stats: kernel launch statistics, as Holistic Trace Analysis's
 * get_cuda_kernel_launch_stats() defines them (proftui(1), PANES,
 * launches).  A launch is a runtime or driver call on the host linked to
 * the device work it started (a kernel, copy or set: the work's parent
 * in the tree, as the loader joins them by correlation); a call that
 * started several pieces of work is one launch per piece.  Per launch:
 *   cpu      the call's duration,
 *   gpu      the work's duration,
 *   delay    the work's start less the call's end, 0 when the work
 *            started before the call ended;
 * and its classes (a launch may be in two):
 *   short            cpu <= the runtime cutoff (50 us) and gpu < cpu,
 *   runtime outlier  cpu > the runtime cutoff,
 *   delay outlier    delay > the launch-delay cutoff (100 us).
 * Over all launches, each figure's distribution: count, mean, standard
 * deviation (n - 1), minimum, median, 90th and 99th percentiles (linear
 * interpolation between the two nearest ranks, as numpy and pandas by
 * default) and maximum.
 *
 * proftui counts every call the trace links to device work (cuLaunchKernel,
 * hipLaunchKernel, cudaMemcpy...); HTA only cudaLaunchKernel,
 * cudaLaunchKernelExC, cudaMemcpyAsync, cudaMemsetAsync and MTIA's
 * runFunction: an option, for the comparison with HTA.
 *
 * launch_stats_compute() is O(n log n) in the launches: one walk of the
 * tree and a sort per figure.
 */
#ifndef MODEL_LAUNCH_STATS_H
#define MODEL_LAUNCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum {
	LAUNCH_SHORT = 1 << 0,
	LAUNCH_RUNTIME_OUTLIER = 1 << 1,
	LAUNCH_DELAY_OUTLIER = 1 << 2,
};

enum launch_figure { LAUNCH_CPU, LAUNCH_GPU, LAUNCH_DELAY, NR_LAUNCH_FIGURES };

/* "cpu_duration", "gpu_duration", "launch_delay": HTA's column names. */
const char *launch_figure_name(enum launch_figure f);

/* The classes CLS (LAUNCH_* bits) in words: "short", "runtime outlier",
 * "delay outlier", joined by " + "; "" for none.  Static text. */
const char *launch_class_text(unsigned cls);

struct launch_options {
	int64_t runtime_cutoff_ns;	/* 50000 */
	int64_t delay_cutoff_ns;	/* 100000 */
	/* Only the launches whose call starts in [lo_ns, hi_ns) (the step
	 * chosen); INT64_MIN, INT64_MAX: all. */
	int64_t lo_ns, hi_ns;
	/* HTA's conditions, for the comparison with HTA only (the pane never
	 * sets them): only HTA's launch calls, by name (hta_launch_set);
	 * every start rounded up and every end down to a whole microsecond
	 * (model/hta_time.h) as HTA's parser does to a trace with fractional
	 * timestamps (round_like_hta); only the launches whose call starts
	 * before LAUNCHED_BEFORE_NS (rounded likewise), as HTA drops the
	 * last profiler step (INT64_MAX: no such bound). */
	bool hta_launch_set;
	bool round_like_hta;
	int64_t launched_before_ns;
};

void launch_options_default(struct launch_options *o);
/* The default, narrowed to the launches whose call starts in P's step of
 * PICKED's name (temporal_opts_for_step()'s window; NULL: all). */
void launch_options_for_step(struct launch_options *o, const struct profile *p,
			     const struct step *picked);

/* Narrow O to the launches whose call starts in [START, END) too (a
 * range of time; with a step, the part in both). */
void launch_options_narrow(struct launch_options *o, int64_t start_ns, int64_t end_ns);

/* Whether NAME is one of HTA's launch calls. */
bool launch_is_hta_call(const char *name);

struct launch_row {
	const struct node *work;	/* the kernel, copy or set; its parent
					   is the call */
	int64_t cpu_ns, gpu_ns, delay_ns;
	unsigned cls;			/* LAUNCH_* bits */
};

/* A figure's distribution; every value NaN when COUNT is 0, STD NaN when
 * it is 1.  Nanoseconds. */
struct launch_dist {
	uint64_t count;
	int64_t total_ns;		/* capped at SUM_CAP (bounds.h) */
	bool capped;
	double mean, std, min, p50, p90, p99, max;
};

/* What a profile's launches come to, without the rows: what the Overview
 * and, per rank, the Ranks pane show. */
struct launch_summary {
	uint64_t nr_launches;
	uint64_t nr_short, nr_runtime_outliers, nr_delay_outliers;
	struct launch_dist dist[NR_LAUNCH_FIGURES];
};

struct launch_stats {
	struct launch_row *rows;	/* by the call's start, then the work's */
	size_t nr;
	struct launch_summary sum;
};

/* Fill S (release with launch_stats_release()); O: NULL for the default. */
void launch_stats_compute(const struct profile *p, const struct launch_options *o,
			  struct launch_stats *s);
void launch_stats_release(struct launch_stats *s);
/* Only the summary of P's launches (O: NULL for the default). */
void launch_summary_make(const struct profile *p, const struct launch_options *o,
			 struct launch_summary *out);

/* The value at quantile Q (0 to 1) of the N sorted values V, by linear
 * interpolation between the two nearest ranks; NaN when N is 0. */
double launch_quantile(const double *v, size_t n, double q);

#endif
