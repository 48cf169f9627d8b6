// SPDX-License-Identifier: MIT
/*
 * Rank analyses: per rank of a job, Holistic Trace Analysis's analyses
 * side by side -- the temporal breakdown's shares, each kernel type's share
 * of the GPU's busy time, the idle-time breakdown summed over the
 * streams, the comm/comp overlap, and HTA's straggler test across the
 * ranks (model/rank_analysis.h, model/straggler.h).  Over the whole trace
 * of each rank, in ns from its own events; opened from summaries, the
 * figures they stored (version 4 on).  A pane of its own beside Ranks:
 * the Ranks pane's rows are steps and their means, these are over the
 * whole trace, and its twelve columns already fill 80 columns (the launch
 * columns come last, to scroll to).
 * --print rank-analyses; JSON keys are HTA's column names in snake_case,
 * times in µs.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/profset.h"
#include "../model/rank_analysis.h"
#include "../model/util.h"
#include "pane.h"

struct ra_row {
	char rank[24];
	struct rank_analysis a;
	uint32_t marked;
	bool straggler, tested;
};

struct ra_priv {
	struct ra_row *rows;
	size_t nr;
	size_t nr_old;			/* summaries without analyses */
	struct stragglers s;
	bool tested;
};

#define ROW(r) ((const struct ra_row *)(r))

static struct cell get_rank(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->rank);
}

static bool has_gpu(const struct ra_row *r)
{
	return r->a.present && r->a.nr_gpu_events;
}

/* The temporal breakdown: arg 0 idle, 1 compute, 2 non-compute, of kernel
 * time. */
static struct cell get_temporal(const struct pane *pane, const void *row, const struct column *c)
{
	const struct ra_row *r = ROW(row);
	int64_t part = c->arg == 0 ? r->a.idle_ns : c->arg == 1 ? r->a.compute_ns : r->a.non_compute_ns;

	(void)pane;
	if (!has_gpu(r) || r->a.capped)
		return cell_none();
	return cell_real(temporal_pct(part, r->a.kernel_ns));
}

/* A kernel type's (arg) share of the busy time. */
static struct cell get_type(const struct pane *pane, const void *row, const struct column *c)
{
	const struct ra_row *r = ROW(row);

	(void)pane;
	if (!has_gpu(r) || r->a.capped)
		return cell_none();
	return cell_real(temporal_pct(rank_analysis_type_ns(&r->a, (enum kernel_type)c->arg),
				      rank_analysis_busy(&r->a)));
}

static struct cell get_idle(const struct pane *pane, const void *row, const struct column *c)
{
	const struct ra_row *r = ROW(row);

	(void)pane;
	if (!has_gpu(r) || !r->a.nr_idle_streams)
		return cell_none();
	return cell_int(r->a.idle_by_cat_ns[c->arg]);
}

static struct cell get_overlap(const struct pane *pane, const void *row, const struct column *c)
{
	const struct ra_row *r = ROW(row);
	struct overlap o;
	double v;

	(void)pane, (void)c;
	if (!has_gpu(r))
		return cell_none();
	rank_analysis_overlap(&r->a, &o);
	v = overlap_pct(&o);
	return isnan(v) ? cell_none() : cell_real(v);
}

static struct cell get_straggler(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->straggler ? "straggler" : NULL);
}

static struct cell get_marked(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return ROW(row)->tested ? cell_int(ROW(row)->marked) : cell_none();
}

/* The launch counts: arg 0 all, 1 short, 2 runtime outliers, 3 delay
 * outliers. */
static struct cell get_launches(const struct pane *pane, const void *row, const struct column *c)
{
	const struct launch_summary *l = &ROW(row)->a.launch;
	uint64_t v = c->arg == 0 ? l->nr_launches : c->arg == 1 ? l->nr_short
		     : c->arg == 2 ? l->nr_runtime_outliers : l->nr_delay_outliers;

	(void)pane;
	if (!ROW(row)->a.present)
		return cell_none();
	return cell_int((int64_t)v);
}

/* A launch figure's quantile: arg 0 the delay's median, 1 its p99, 2 the
 * CPU duration's median, 3 the GPU duration's; none without a launch. */
static struct cell get_launch_stat(const struct pane *pane, const void *row, const struct column *c)
{
	const struct launch_summary *l = &ROW(row)->a.launch;
	double v = c->arg == 0 ? l->dist[LAUNCH_DELAY].p50 : c->arg == 1 ? l->dist[LAUNCH_DELAY].p99
		   : c->arg == 2 ? l->dist[LAUNCH_CPU].p50 : l->dist[LAUNCH_GPU].p50;

	(void)pane;
	if (!ROW(row)->a.present || isnan(v))
		return cell_none();
	return cell_int(llround(v));
}

#define PCT(fn, a) .kind = COL_PCT, .width = 8, .get = fn, .arg = a
#define TIME(a) .kind = COL_TIME, .width = 10, .get = get_idle, .arg = a
#define LCOUNT(a) .kind = COL_COUNT, .width = 8, .get = get_launches, .arg = a
#define LSTAT(a) .kind = COL_TIME, .width = 10, .get = get_launch_stat, .arg = a

static const struct column ra_cols[] = {
	{ .key = "rank", .title = "Rank", .kind = COL_NAME, .get = get_rank,
	  .help = "the trace's rank (its distributedInfo; across ranks, as the Ranks pane "
		  "shows it), - when it names none" },
	{ .key = "comp_comm_overlap_pctg", .title = "Overlap %", PCT(get_overlap, 0),
	  .help = "HTA's comm/comp overlap: the time COMMUNICATION and COMPUTATION work run "
		  "at once / the time COMMUNICATION work runs (unions over all streams); none "
		  "without communication" },
	{ .key = "hta_straggler", .title = "HTA straggler", .kind = COL_TEXT, .width = 13,
	  .get = get_straggler,
	  .help = "HTA's straggler test: of the ncclKernel kernels (stream > 0, step "
		  "ProfilerStep#N with N > 0, at least 1% of the mean step), the one whose "
		  "duration over the mean step varies most across the ranks; per step, the two "
		  "ranks that start it latest are marked; straggler: the two marked most often" },
	{ .key = "hta_marked", .title = "Marked", .kind = COL_COUNT, .width = 6, .get = get_marked,
	  .help = "the steps in which HTA's straggler test marked the rank; none when no kernel "
		  "could be tested (no ncclKernel of 1% of the mean step on two ranks)" },
	{ .key = "idle_time_pctg", .title = "Idle %", PCT(get_temporal, 0),
	  .help = "the temporal breakdown's idle time / kernel time, over the whole trace "
		  "(the Temporal breakdown pane)" },
	{ .key = "compute_time_pctg", .title = "Compute %", PCT(get_temporal, 1),
	  .help = "the temporal breakdown's compute time (the union of the COMPUTATION "
		  "kernels) / kernel time" },
	{ .key = "non_compute_time_pctg", .title = "Non-comp %", PCT(get_temporal, 2),
	  .help = "kernel time - compute - idle, / kernel time" },
	{ .key = "communication_pctg", .title = "COMM %", PCT(get_type, KTYPE_COMMUNICATION),
	  .help = "the time some COMMUNICATION work runs (Kernels' Type), over or beside "
		  "other work, / the GPU's busy time (the union of all its work); the three "
		  "types may overlap, so their shares may sum past 100%" },
	{ .key = "memory_pctg", .title = "MEM %", PCT(get_type, KTYPE_MEMORY),
	  .help = "the time some MEMORY work (memcpy, memset) runs / the GPU's busy time" },
	{ .key = "computation_pctg", .title = "COMP %", PCT(get_type, KTYPE_COMPUTATION),
	  .help = "the time some COMPUTATION work runs / the GPU's busy time" },
	{ .key = "host_wait", .title = "Host wait", TIME(IDLE_HOST_WAIT),
	  .help = "the idle-time breakdown's host wait summed over the rank's streams "
		  "(the GPU idle pane); none when no work has a stream" },
	{ .key = "kernel_wait", .title = "Kern wait", TIME(IDLE_KERNEL_WAIT),
	  .help = "the idle-time breakdown's kernel wait summed over the streams" },
	{ .key = "other", .title = "Other idle", TIME(IDLE_OTHER),
	  .help = "the idle-time breakdown's other idle time summed over the streams" },
	{ .key = "launches", .title = "Launches", LCOUNT(0),
	  .help = "the launches over the whole trace (the Kernel launches pane): runtime or "
		  "driver calls linked to a kernel, copy or set, one per piece of work" },
	{ .key = "launch_delay_p50", .title = "Delay p50", LSTAT(0),
	  .help = "the median launch delay (the work's start less its call's end, 0 when it "
		  "started before), linearly interpolated between the two nearest; none "
		  "without a launch" },
	{ .key = "launch_delay_p99", .title = "Delay p99", LSTAT(1),
	  .help = "the 99th percentile of the launch delay: the value at rank 0.99 x "
		  "(launches - 1) from 0, linearly interpolated between the two nearest" },
	{ .key = "short_launches", .title = "Short", LCOUNT(1),
	  .help = "the short launches: the call takes at most 50 us and its work less time "
		  "than the call" },
	{ .key = "runtime_outliers", .title = "Runtime outl", .kind = COL_COUNT, .width = 12,
	  .get = get_launches, .arg = 2,
	  .help = "the runtime outliers: launches whose call takes over 50 us (HTA's cutoff)" },
	{ .key = "launch_delay_outliers", .title = "Delay outl", .kind = COL_COUNT, .width = 10,
	  .get = get_launches, .arg = 3,
	  .help = "the delay outliers: launches whose delay is over 100 us (HTA's cutoff)" },
	{ .key = "cpu_duration_p50", .title = "CPU p50", LSTAT(2),
	  .help = "the median duration of the launch calls" },
	{ .key = "gpu_duration_p50", .title = "GPU p50", LSTAT(3),
	  .help = "the median duration of the launched work (kernel, copy or set)" },
};

static void ra_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	const struct profset *set = pane->scope.set;
	struct ra_priv *rp = xcalloc(1, sizeof(*rp));
	/* Every rank of a job, even with one shown alone: the straggler test
	 * is across them. */
	bool across = set && set->kind == PROFSET_RANKS;
	size_t n = across ? set->nr : 1;
	const struct strag_rank **sr = xcalloc(n, sizeof(*sr));

	pane->priv = rp;
	rp->rows = xcalloc(n, sizeof(*rp->rows));
	pane->rows = xmalloc(n * sizeof(*pane->rows));
	for (size_t i = 0; i < ARRAY_SIZE(ra_cols); i++)
		pane_add_column(pane, &ra_cols[i]);
	pane->sort_col = -1;	/* the ranks' order */
	for (size_t i = 0; i < n; i++) {
		const struct profile *q = across ? profile_run(set->members[i].prof, pane->scope.run) : p;
		long rank = across ? profset_shown_rank(set, i)
			    : p->dist.present && p->dist.rank >= 0 ? (long)p->dist.rank : -1;
		struct ra_row *r = &rp->rows[rp->nr];

		if (!q)
			continue;
		if (rank >= 0)
			snprintf(r->rank, sizeof(r->rank), "%ld", rank);
		else
			snprintf(r->rank, sizeof(r->rank), "-");
		rank_analysis_of(q, &r->a);
		if (!r->a.present)
			rp->nr_old++;
		sr[rp->nr] = &r->a.strag;
		pane->rows[pane->nr_rows++] = r;
		rp->nr++;
	}
	rp->tested = stragglers_compute(sr, rp->nr, STRAG_NUM_CANDIDATES, &rp->s);
	for (size_t i = 0; i < rp->nr; i++) {
		rp->rows[i].tested = rp->tested && rp->rows[i].a.present;
		rp->rows[i].marked = rp->s.marked[i];
		rp->rows[i].straggler = rp->tested && rp->s.is_straggler[i];
	}
	free(sr);
}

static const char *ra_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->rank;
}

static void ra_empty(const struct pane *pane, char *buf, size_t size)
{
	(void)pane;
	snprintf(buf, size, "no rank");
}

/* Which summaries lack the analyses, then what the straggler test
 * measured. */
static void ra_status(const struct pane *pane, char *buf, size_t size)
{
	const struct ra_priv *rp = pane->priv;
	char mean[32] = "";
	int len = 0;

	if (rp->nr_old)
		len = snprintf(buf, size, "%zu summar%s before version 4: no analyses; ", rp->nr_old,
			       rp->nr_old == 1 ? "y" : "ies");
	if (len < 0 || (size_t)len >= size)
		return;
	if (rp->tested) {
		fmt_time(rp->s.mean_iter_ns, mean, sizeof(mean));
		snprintf(buf + len, size - (size_t)len, "straggler test: %zu steps, mean %s",
			 rp->s.nr_iters, mean);
	} else {
		snprintf(buf + len, size - (size_t)len, "straggler test: no ncclKernel to test");
	}
}

static void ra_release(struct pane *pane)
{
	struct ra_priv *rp = pane->priv;

	if (rp) {
		for (size_t i = 0; i < rp->nr; i++)
			rank_analysis_release(&rp->rows[i].a);
		stragglers_release(&rp->s);
		free(rp->rows);
	}
	free(rp);
	pane->priv = NULL;
}

static const char *const ra_aliases[] = { "rank-analyses", "rank-analysis", NULL };
static const struct pane_text_ops ra_text = { .status = ra_status };

const struct pane_ops rank_analyses_pane_ops = {
	.id = PANE_RANK_ANALYSES, .flags = PANE_PRINTABLE, .aliases = ra_aliases,
	.load = ra_load, .row_name = ra_name, .empty_text = ra_empty, .release = ra_release,
	.text = &ra_text,
};
