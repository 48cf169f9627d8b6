/* SPDX-License-Identifier: MIT */
/*
 * rank_analysis: what the Rank analyses pane shows of each rank of a job,
 * from the rank's profile alone -- over the whole trace, in ns from its
 * own events:
 *  - the temporal breakdown (temporal.h): kernel, idle, compute and
 *    non-compute time;
 *  - the kernel-types classes (temporal.h's exclusive classes), from
 *    which each type's share of the GPU's busy time and the comm/comp
 *    overlap (overlap.h) follow;
 *  - the idle-time breakdown (idle.h) summed over the streams: host wait,
 *    kernel wait, other;
 *  - the straggler test's inputs (straggler.h);
 *  - the launch statistics (launch_stats.h): launch_summary_make() over
 *    the whole trace, proftui's own launch set, the default cutoffs.
 * A summary (model/summary.h, version 4 on) stores them; a profile from
 * an older summary has none.
 *
 * To carry one more per-rank figure: a member here, its line in
 * rank_analysis_of(), a record in summary_write() and its reader in
 * parsers/summary/summary.c (unknown records are refused, so a new
 * record means a new summary version).
 */
#ifndef MODEL_RANK_ANALYSIS_H
#define MODEL_RANK_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "idle.h"
#include "launch_stats.h"
#include "overlap.h"
#include "straggler.h"
#include "temporal.h"

struct rank_analysis {
	bool present;			/* false: a summary before version 4 */
	uint64_t nr_gpu_events;		/* GPU work taken (0: no figures) */
	int64_t kernel_ns, idle_ns, compute_ns, non_compute_ns;
	int64_t class_ns[NR_KTYPE_CLASSES];	/* [0] unused */
	int64_t idle_by_cat_ns[NR_IDLE_CATEGORIES];
	uint64_t nr_idle_streams;	/* streams the idle breakdown found (0: none) */
	bool capped;			/* a sum reached SUM_CAP */
	struct strag_rank strag;
	struct launch_summary launch;
	bool owned;			/* rank_analysis_release() frees */
};

/* P's figures: a summary's stored ones, or worked out from its tree.
 * Release with rank_analysis_release(). */
void rank_analysis_of(const struct profile *p, struct rank_analysis *out);
void rank_analysis_release(struct rank_analysis *a);

/* Only the straggler test's inputs of P (cheaper than rank_analysis_of()
 * for a trace): a summary's stored ones (none before version 4), or its
 * tree's.  *OWNED: release OUT with strag_rank_release(). */
void rank_analysis_strag(const struct profile *p, struct strag_rank *out, bool *owned);

/* The GPU's busy time: kernel time - idle time. */
int64_t rank_analysis_busy(const struct rank_analysis *a);
/* The time some work of kernel type TYPE (one bit) runs: the classes with
 * its bit. */
int64_t rank_analysis_type_ns(const struct rank_analysis *a, enum kernel_type type);
/* The comm/comp overlap of A. */
void rank_analysis_overlap(const struct rank_analysis *a, struct overlap *o);

#endif
