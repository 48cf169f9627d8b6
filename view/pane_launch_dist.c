// SPDX-License-Identifier: MIT
/*
 * Launch distribution: the distribution of each figure of the Kernel
 * launches pane (model/launch_stats.c) -- CPU time, GPU time, launch
 * delay -- over every launch of the trace or of the step chosen: count,
 * mean, standard deviation, extremes, median, 90th and 99th percentiles,
 * and how many launches pass the figure's cutoff.  Printed by --print
 * launch-dist; Enter opens Kernel launches.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/launch_stats.h"
#include "../model/util.h"
#include "pane.h"

struct dist_row {
	enum launch_figure f;
	const struct launch_dist *d;
	uint64_t outliers;
};

struct dist_priv {
	struct launch_summary sum;
	struct dist_row rows[NR_LAUNCH_FIGURES];
};

#define DR(r) ((const struct dist_row *)(r))

static struct cell get_figure(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(launch_figure_name(DR(row)->f));
}

static struct cell get_count(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)DR(row)->d->count);
}

static struct cell get_outliers(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return DR(row)->f == LAUNCH_GPU ? cell_none() : cell_int((int64_t)DR(row)->outliers);
}

/* A statistic by its offset in struct launch_dist: ns, to the nearest. */
static struct cell get_stat(const struct pane *pane, const void *row, const struct column *c)
{
	double v;

	(void)pane;
	memcpy(&v, (const char *)DR(row)->d + c->arg, sizeof(v));
	return isnan(v) ? cell_none() : cell_int(llround(v));
}

#define STAT(k, t, field, what)                                                            \
	{ .key = k, .json_key = k, .title = t, .kind = COL_TIME, .width = 10, .get = get_stat, \
	  .arg = (int)offsetof(struct launch_dist, field),                                 \
	  .help = what " of the figure over the launches (empty without one)" }

static const struct column dist_cols[] = {
	{ .key = "figure", .title = "Figure", .kind = COL_NAME, .get = get_figure,
	  .help = "cpu_duration: the launch call's duration; gpu_duration: the kernel's, copy's "
		  "or set's; launch_delay: the work's start less the call's end, 0 when it "
		  "started before (Kernel launches' columns)" },
	{ .key = "count", .title = "Count", .kind = COL_COUNT, .width = 8, .get = get_count,
	  .help = "the launches: runtime or driver calls linked to a kernel, copy or set, one "
		  "per piece of work" },
	STAT("p50", "Median", p50, "the median (linear interpolation between the two nearest)"),
	STAT("p90", "P90", p90,
	     "the 90th percentile: the value at rank 0.9 x (count - 1) from 0, linearly "
	     "interpolated between the two nearest (numpy's and pandas' default)"),
	STAT("p99", "P99", p99, "the 99th percentile (as P90, at 0.99)"),
	STAT("max", "Max", max, "the greatest"),
	STAT("mean", "Mean", mean, "the mean"),
	STAT("std", "Std", std, "the standard deviation (n - 1; empty for one launch)"),
	STAT("min", "Min", min, "the least"),
	{ .key = "outliers", .title = "Outliers", .kind = COL_COUNT, .width = 8, .get = get_outliers,
	  .help = "cpu_duration: the runtime outliers (> 50 us); launch_delay: the delay "
		  "outliers (> 100 us); HTA's cutoffs" },
};

static void dist_load(struct pane *pane)
{
	struct launch_options o;
	struct dist_priv *dp = xcalloc(1, sizeof(*dp));

	pane->priv = dp;
	launch_options_for_step(&o, pane->prof, pane->scope.step);
	if (pane->scope.has_range)
		launch_options_narrow(&o, pane->scope.range_start_ns, pane->scope.range_end_ns);
	launch_summary_make(pane->prof, &o, &dp->sum);
	pane->rows = xmalloc(NR_LAUNCH_FIGURES * sizeof(*pane->rows));
	pane->nr_rows = 0;
	if (dp->sum.nr_launches)
		for (int f = 0; f < NR_LAUNCH_FIGURES; f++) {
			dp->rows[f].f = (enum launch_figure)f;
			dp->rows[f].d = &dp->sum.dist[f];
			dp->rows[f].outliers = f == LAUNCH_CPU	    ? dp->sum.nr_runtime_outliers
					       : f == LAUNCH_DELAY ? dp->sum.nr_delay_outliers
								   : 0;
			pane->rows[pane->nr_rows++] = &dp->rows[f];
		}
	for (size_t i = 0; i < ARRAY_SIZE(dist_cols); i++)
		pane_add_column(pane, &dist_cols[i]);
	pane->sort_col = -1;	/* the figures' order */
}

static const char *dist_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return launch_figure_name(DR(row)->f);
}

/* Enter on a row: the launches. */
static bool dist_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	if (act != ACT_DRILL || !pane_row(pane, pane->cursor))
		return false;
	req->open = true;
	req->open_pane = PANE_LAUNCHES;
	memset(&req->open_scope, 0, sizeof(req->open_scope));
	req->open_scope.step = pane->scope.step;
	return true;
}

static void dist_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "Launch distribution needs the trace: a summary holds no launch");
	else
		snprintf(buf, size, "no runtime call linked to a kernel, copy or set %s",
			 pane->scope.has_range ? "starts in the range" : "in this profile");
}

static void dist_release(struct pane *pane)
{
	free(pane->priv);
}

static const enum action dist_actions[] = { ACT_DRILL, ACT_NONE };
static const char *const dist_aliases[] = { "launch-dist", NULL };

const struct pane_ops launch_dist_pane_ops = {
	.id = PANE_LAUNCH_DIST, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE, .aliases = dist_aliases,
	.load = dist_load, .row_name = dist_name, .empty_text = dist_empty,
	.handle = dist_handle, .actions = dist_actions,
	.needs_trace = pane_empty_of_summary, .release = dist_release,
};
