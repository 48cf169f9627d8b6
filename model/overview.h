/* SPDX-License-Identifier: MIT */
/*
 * overview: what torch-tb-profiler's Overview page shows, as pure
 * functions of a profile -- per GPU its utilization, estimated SM
 * efficiency, estimated achieved occupancy (gpu_metrics_parser.py) and
 * tensor-core kernel time (tensor_cores.h), the average step split
 * into its categories, and the recommendations its rules make (data.py
 * analyze()), with proftui's own rules beside them, each saying whose it
 * is.  Includes tensor_cores.h, the rule the Kernels pane's columns use.
 *
 * overview_compute() fills a struct overview the caller releases with
 * overview_release(); its recommendations are heap copies, the names it
 * holds (top rows, precisions) the profile's.  It walks the tree once:
 * on a 1 GB trace (2.5 M nodes) each walk costs tens of milliseconds.
 */
#ifndef MODEL_OVERVIEW_H
#define MODEL_OVERVIEW_H

#include "profile.h"
#include "tensor_cores.h"

/* One GPU's metrics over the steps' span; NaN where the trace lacks what
 * a metric needs (no blocks per SM, no occupancy, no kernel time). */
struct gpu_metrics {
	int32_t device;
	double utilization;		/* 0..1: time some kernel runs / span */
	double sm_efficiency;		/* 0..1: Σ min(blocks per SM, 1) x time / span */
	double occupancy_pct;		/* duration-weighted est. achieved occupancy */
	double tensor_core;		/* 0..1: share of the device's kernel time (every
					   kernel, the whole trace) in TC kernels */
};

struct recommendation {
	char *text;			/* plain text, one paragraph */
	bool is_plugin;			/* torch-tb-profiler's rule (else proftui's) */
};

/* A row of the Operators or Kernels pane (one name, or one pre-aggregated
 * node) and its time; FILE_PCT: the row's share as the file states it
 * (profile.h's ATTR_FILE_*_PCT of a row of one node, as those panes show
 * it), NaN where the file does not. */
struct top_row {
	const char *name;		/* the profile's */
	int64_t ns;
	double file_pct;
};

/* The five rows of a table with the most time, most first (equal times:
 * the row first seen in the tree first), and the time of all its rows. */
struct top_rows {
	struct top_row v[5];
	size_t nr;			/* 0: the table has no rows */
	int64_t total_ns;
};

/* A TensorRT layer precision and its layers' time (device, else host). */
struct precision_share {
	const char *name;		/* the profile's */
	int64_t ns;
};

struct overview {
	struct gpu_metrics *gpus;	/* by device id */
	size_t nr_gpus;
	int64_t span_start_ns, span_end_ns;	/* the steps' span; 0, 0: none */
	/* Share of the ops' kernel time in the kernels of the tensor-core
	 * eligible ops lowest in the tree (tensor_cores_parser.py). */
	double tc_eligible_ops_kernel_ratio;
	/* Share of all kernels' time in kernels that use tensor cores
	 * (kernel_parser.py); NaN without kernels. */
	double tc_used_ratio;
	/* The average step: its length and each category's (NaN: the
	 * category is absent), over the profile's steps. */
	size_t nr_steps;
	double avg_step_ns;
	double *avg_cat_ns;		/* profile->nr_step_cats values */
	/* The average step less its categories' averages: time in none of
	 * them, or, negative, time two of them count (parts that overlap,
	 * as a host part beside the device parts it waits on); NaN without
	 * categories. */
	double avg_rest_ns;
	struct recommendation *recs;
	size_t nr_recs, alloc_recs;
	/* The rows agg_ops() and agg_kernels() give, summed here in the
	 * same walk: ops by device self time (host self time in a profile
	 * without device time), kernels by their time. */
	struct top_rows top_ops, top_kernels;
	/* The layers' precisions in the order the tree first names them
	 * (at most 16: more are not precisions but a format's odd values). */
	struct precision_share precisions[16];
	size_t nr_precisions;
	int64_t precision_total_ns;
	/* Its sums that reached SUM_CAP and hold it (model/bounds.h): the
	 * pane warns of them, and a share of a capped sum is not given. */
	uint64_t nr_capped;
};

void overview_compute(const struct profile *p, struct overview *o);
void overview_release(struct overview *o);

#endif
