// SPDX-License-Identifier: MIT
/*
 * The API pane: the runtime and driver calls (cudaLaunchKernel,
 * cudaMemcpyAsync...), one row per name, with the figures of Nsight
 * Systems' cuda_api_sum report (model/name_stats.h).  Printable
 * (--print api); it follows the step shown.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../model/util.h"
#include "name_cells.h"

#define AROW(r) ((const struct name_row *)(r))

/* Of every call's time; none where a sum was capped. */
static struct cell get_share(const struct pane *pane, const void *row, const struct column *c)
{
	const struct name_stats *s = pane->priv;
	const struct name_row *r = AROW(row);

	(void)c;
	if (!isnan(r->file_pct))
		return cell_real(r->file_pct);	/* the file's, of its own report */
	if (r->capped || s->capped || s->total_ns <= 0)
		return cell_none();
	return cell_real(100.0 * (double)r->total_ns / (double)s->total_ns);
}

static const struct column cols[] = {
	{ .key = "name", .title = "Name", .kind = COL_NAME, .get = name_cell_name,
	  .help = "the runtime or driver API call (a runtime event of the trace)" },
	{ .key = "num_calls", .title = "Calls", .kind = COL_COUNT, .width = 8, .get = name_cell_calls,
	  .help = "how many calls of it started in the step shown (all steps: the whole trace)" },
	{ .key = "time_pct", .title = "Time %", .kind = COL_PCT, .width = 8, .get = get_share,
	  .help = "its total, of the total of every API call shown; a row of an nsys stats "
		  "report: the report's Time %, of that report's total" },
	{ .key = "total_time", .title = "Total", .kind = COL_TIME, .width = 11, .get = name_cell_total,
	  .help = "the sum of its calls' durations (host time)" },
	{ .key = "avg", .title = "Mean", .kind = COL_TIME, .width = 11, .get = name_cell_mean,
	  .help = "the total over the calls, rounded half away from zero to the ns" },
	{ .key = "med", .title = "Median", .kind = COL_TIME, .width = 11, .get = name_cell_stat, .arg = 0,
	  .help = "the middle call's duration (the mean of the middle two for an even count); "
		  "empty where the file gives only sums (a key_averages row)" },
	{ .key = "min", .title = "Min", .kind = COL_TIME, .width = 11, .get = name_cell_stat, .arg = 1,
	  .help = "the shortest call; empty where the file does not say" },
	{ .key = "max", .title = "Max", .kind = COL_TIME, .width = 11, .get = name_cell_stat, .arg = 2,
	  .help = "the longest call; empty where the file does not say" },
	{ .key = "stddev", .title = "StdDev", .kind = COL_TIME, .width = 11, .get = name_cell_stddev,
	  .help = "the sample standard deviation of the durations (n - 1), to the ns; "
		  "empty for one call or where the file gives only sums" },
};

static const struct column col_report = {
	.key = "report", .title = "Report", .kind = COL_TEXT, .width = 13, .get = name_cell_report,
	.help = "the nsys stats report that printed the row: cuda_api_sum for CUDA calls, "
		"osrt_sum for the OS runtime's",
};

static void api_load(struct pane *pane)
{
	struct name_stats *s = xcalloc(1, sizeof(*s));
	struct name_stats_scope scope = name_scope_of(pane);

	pane->priv = s;
	name_stats_make(pane->prof, NAME_STATS_API, &scope, s);
	pane->rows = xmalloc((s->nr ? s->nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < s->nr; i++)
		pane->rows[i] = &s->rows[i];
	pane->nr_rows = s->nr;
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		pane_add_column(pane, &cols[c]);
	if (name_stats_have_report(s))
		pane_add_column(pane, &col_report);
	pane->sort_col = -1;	/* the model's order: by total, longest first */
}

static void api_empty_text(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "no runtime or driver API call (cuda*, hip*, cu*) %s",
		 pane->scope.has_range ? "starts in the range" : "in this profile");
}

static void api_release(struct pane *pane)
{
	struct name_stats *s = pane->priv;

	if (!s)
		return;
	name_stats_release(s);
	free(s);
}

static const char *const api_aliases[] = { "api", "cuda-api", "api-calls", NULL };

const struct pane_ops api_pane_ops = {
	.id = PANE_API, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE, .aliases = api_aliases,
	.available = pane_one_profile, .load = api_load, .row_name = name_row_name,
	.empty_text = api_empty_text, .release = api_release,
};
