// SPDX-License-Identifier: MIT
/*
 * The Annotations pane: record_function / NVTX ranges by name, the CPU
 * thread's ranges (host time) and their GPU-side copies on the streams
 * (Kineto's gpu_user_annotation: device time), one row per side and name,
 * with the figures of nsys's nvtx_sum (model/name_stats.h).  HTA's
 * gpu_user_annotation_breakdown is the GPU side.  Printable
 * (--print annotations); it follows the step shown.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../model/util.h"
#include "detail.h"
#include "name_cells.h"

struct anno_priv {
	struct name_stats side[2];	/* host, GPU */
};

/* Whether ROW is one of the GPU side's (rows are the two sides' own). */
static bool is_gpu(const struct pane *pane, const void *row)
{
	const struct name_stats *gpu = &((const struct anno_priv *)pane->priv)->side[1];

	/* Addresses: pointers into two arrays may not be compared. */
	return (uintptr_t)row - (uintptr_t)gpu->rows < gpu->nr * sizeof(*gpu->rows);
}

static struct cell get_side(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(is_gpu(pane, row) ? "GPU" : "host");
}

static const struct column cols[] = {
	{ .key = "name", .title = "Name", .kind = COL_NAME, .get = name_cell_name,
	  .help = "the range's name (record_function, NVTX)" },
	{ .key = "side", .title = "Side", .kind = COL_TEXT, .width = 5, .get = get_side,
	  .help = "host: the ranges on CPU threads, their host time; GPU: their copies on the "
		  "streams (gpu_user_annotation), from the first to the last GPU work in them" },
	{ .key = "count", .title = "Count", .kind = COL_COUNT, .width = 7, .get = name_cell_calls,
	  .help = "how many ranges of the name started in the step shown; nested ones each count" },
	{ .key = "sum", .title = "Total", .kind = COL_TIME, .width = 11, .get = name_cell_total,
	  .help = "the sum of the ranges' durations, each in full (nested ranges overlap)" },
	{ .key = "mean", .title = "Mean", .kind = COL_TIME, .width = 11, .get = name_cell_mean,
	  .help = "the total over the count, rounded half away from zero to the ns" },
	{ .key = "median", .title = "Median", .kind = COL_TIME, .width = 11, .get = name_cell_stat,
	  .arg = 0, .help = "the middle range's duration (the mean of the middle two for an "
			    "even count)" },
	{ .key = "min", .title = "Min", .kind = COL_TIME, .width = 11, .get = name_cell_stat, .arg = 1,
	  .help = "the shortest range" },
	{ .key = "max", .title = "Max", .kind = COL_TIME, .width = 11, .get = name_cell_stat, .arg = 2,
	  .help = "the longest range" },
	{ .key = "stddev", .title = "StdDev", .kind = COL_TIME, .width = 11, .get = name_cell_stddev,
	  .help = "the sample standard deviation of the durations (n - 1), to the ns; empty for "
		  "one range" },
	{ .key = "p90", .title = "P90", .kind = COL_TIME, .width = 11, .get = name_cell_stat, .arg = 3,
	  .hidden = true,
	  .help = "the 90th percentile of the ranges' durations: linear interpolation between the "
		  "closest ranks (numpy's default), to the ns" },
	{ .key = "p99", .title = "P99", .kind = COL_TIME, .width = 11, .get = name_cell_stat, .arg = 4,
	  .hidden = true,
	  .help = "the 99th percentile of the ranges' durations, the same way" },
};

static const struct column col_file_pct = {
	.key = "time_pct", .title = "Time %", .kind = COL_PCT, .width = 8, .get = name_cell_file_pct,
	.help = "a row of an nsys stats report (nvtx_sum): its Time %, of that report's total",
};

static void anno_load(struct pane *pane)
{
	struct anno_priv *ap = xcalloc(1, sizeof(*ap));
	struct name_stats_scope scope = name_scope_of(pane);
	size_t n = 0;

	pane->priv = ap;
	name_stats_make(pane->prof, NAME_STATS_HOST_ANNOTATIONS, &scope, &ap->side[0]);
	name_stats_make(pane->prof, NAME_STATS_GPU_ANNOTATIONS, &scope, &ap->side[1]);
	pane->rows = xmalloc((ap->side[0].nr + ap->side[1].nr + 1) * sizeof(*pane->rows));
	/* The host's ranges, then the GPU's, each by total. */
	for (int g = 0; g < 2; g++)
		for (size_t i = 0; i < ap->side[g].nr; i++)
			pane->rows[n++] = &ap->side[g].rows[i];
	pane->nr_rows = n;
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		pane_add_column(pane, &cols[c]);
	if (name_stats_have_file_pct(&ap->side[0]))
		pane_add_column(pane, &col_file_pct);
	pane->sort_col = -1;
}

static void anno_empty_text(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "no annotation (record_function, NVTX) %s",
		 pane->scope.has_range ? "starts in the range" : "in this profile");
}

/* The detail view: the histogram of the row's ranges' durations. */
static void anno_detail(const struct pane *pane, const void *row, struct detail *d)
{
	struct name_stats_scope scope = name_scope_of(pane);
	int64_t *v;
	size_t n = name_stats_durations(pane->prof,
					is_gpu(pane, row) ? NAME_STATS_GPU_ANNOTATIONS
							  : NAME_STATS_HOST_ANNOTATIONS,
					&scope, name_row_name(pane, row), &v);

	detail_histogram(d, v, n);
	free(v);
}

static void anno_release(struct pane *pane)
{
	struct anno_priv *ap = pane->priv;

	if (!ap)
		return;
	name_stats_release(&ap->side[0]);
	name_stats_release(&ap->side[1]);
	free(ap);
}

static const char *const anno_aliases[] = { "annotations", "user-annotations", "nvtx", NULL };

static const struct pane_text_ops anno_text = { .detail = anno_detail };

const struct pane_ops annotations_pane_ops = {
	.id = PANE_ANNOTATIONS, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE,
	.aliases = anno_aliases, .available = pane_one_profile, .load = anno_load,
	.row_name = name_row_name, .empty_text = anno_empty_text, .release = anno_release,
	.text = &anno_text,
};
