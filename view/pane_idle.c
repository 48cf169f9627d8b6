// SPDX-License-Identifier: MIT
/*
 * GPU idle: the idle-time breakdown of each GPU stream (model/idle.c,
 * Holistic Trace Analysis's get_idle_time_breakdown()), one row per
 * stream and category -- host wait, kernel wait, other -- with the gaps'
 * sum, share and statistics, over the whole trace or the step chosen
 * (the work that starts in its span), and printed by
 * --print idle; Enter opens GPU idle gaps, where the biggest gaps are.
 * Times in the JSON are microseconds under HTA's column names (p25, p50,
 * p75 for its 25%, 50%, 75%).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/idle.h"
#include "../model/util.h"
#include "pane.h"

struct idle_row {
	const struct idle_stream *s;
	enum idle_category cat;
};

struct idle_priv {
	struct idle_breakdown b;
	struct idle_row *rows;
};

#define IR(r) ((const struct idle_row *)(r))

static struct cell get_device(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return IR(row)->s->device >= 0 ? cell_int(IR(row)->s->device) : cell_none();
}

static struct cell get_stream(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(IR(row)->s->stream);
}

static struct cell get_category(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(idle_category_name(IR(row)->cat));
}

static struct cell get_idle(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(IR(row)->s->idle_ns[IR(row)->cat]);
}

static struct cell get_ratio(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_real(IR(row)->s->ratio[IR(row)->cat]);
}

static struct cell get_count(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)IR(row)->s->stats[IR(row)->cat].count);
}

/* A statistic of the category's gaps, by its offset in struct describe:
 * nanoseconds, to the nearest. */
static struct cell get_stat(const struct pane *pane, const void *row, const struct column *c)
{
	const struct describe *st = &IR(row)->s->stats[IR(row)->cat];
	double v;

	(void)pane;
	memcpy(&v, (const char *)st + c->arg, sizeof(v));
	return isnan(v) ? cell_none() : cell_int(llround(v));
}

#define STAT(k, t, field, what)                                                           \
	{ .key = k, .json_key = k, .title = t, .kind = COL_TIME, .width = 11, .get = get_stat, \
	  .arg = (int)offsetof(struct describe, field),                                 \
	  .help = what " of the category's gaps (empty without a gap)" }

static const struct column idle_cols[] = {
	{ .key = "device", .title = "GPU", .kind = COL_COUNT, .width = 3, .get = get_device,
	  .help = "the device the stream belongs to (empty: the trace does not say)" },
	{ .key = "stream", .title = "Stream", .kind = COL_COUNT, .width = 6, .get = get_stream,
	  .help = "the CUDA stream (args.stream); streams in the order of their first kernel, "
		  "copy or set in the file, as HTA's" },
	{ .key = "idle_category", .title = "Category", .kind = COL_NAME, .get = get_category,
	  .help = "on a stream, the device work (kernels, copies, sets; not synchronisations) "
		  "in start order; the gap before each is its start less the end of the one "
		  "before it (negative when they overlap).  host_wait: the runtime call that "
		  "launched it started after the one before ended; else kernel_wait: the gap "
		  "is under 30 us; else other" },
	{ .key = "idle_time", .json_key = "idle_time", .title = "Idle time", .kind = COL_TIME,
	  .width = 11, .get = get_idle,
	  .help = "the sum of the category's gaps on the stream (negative gaps included)" },
	{ .key = "idle_time_ratio", .title = "Ratio", .kind = COL_REAL, .width = 6,
	  .get = get_ratio,
	  .help = "the category's idle time over the stream's idle time of all three, 0 to 1 "
		  "(empty when that is 0: a stream of one kernel)" },
	{ .key = "count", .title = "Count", .kind = COL_COUNT, .width = 7, .get = get_count,
	  .help = "the category's gaps" },
	STAT("mean", "Mean", mean, "the mean"),
	STAT("std", "Std", std, "the standard deviation (n - 1; empty for one gap)"),
	STAT("min", "Min", min, "the shortest"),
	STAT("p25", "P25", p25, "the 25th percentile (linear interpolation, as pandas)"),
	STAT("p50", "Median", p50, "the median (linear interpolation)"),
	STAT("p75", "P75", p75, "the 75th percentile (linear interpolation)"),
	STAT("max", "Max", max, "the longest"),
};

static void idle_load(struct pane *pane)
{
	struct idle_options o;
	struct idle_priv *ip = xcalloc(1, sizeof(*ip));
	size_t n = 0;

	pane->priv = ip;
	idle_options_for_step(&o, pane->scope.step);
	if (pane->scope.has_range)
		idle_options_narrow(&o, pane->scope.range_start_ns, pane->scope.range_end_ns);
	idle_compute(pane->prof, &o, &ip->b);
	ip->rows = xcalloc(ip->b.nr_streams * NR_IDLE_CATEGORIES + 1, sizeof(*ip->rows));
	pane->rows = xmalloc((ip->b.nr_streams * NR_IDLE_CATEGORIES + 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < ip->b.nr_streams; i++)
		for (int c = 0; c < NR_IDLE_CATEGORIES; c++) {
			ip->rows[n].s = &ip->b.streams[i];
			ip->rows[n].cat = (enum idle_category)c;
			pane->rows[n] = &ip->rows[n];
			n++;
		}
	pane->nr_rows = n;
	for (size_t i = 0; i < ARRAY_SIZE(idle_cols); i++)
		pane_add_column(pane, &idle_cols[i]);
	pane->sort_col = -1;	/* streams in the file's order */
}

static const char *idle_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return idle_category_name(IR(row)->cat);
}

/* Enter on a row: where the streams' biggest gaps are. */
static bool idle_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	if (act != ACT_DRILL || !pane_row(pane, pane->cursor))
		return false;
	req->open = true;
	req->open_pane = PANE_IDLE_GAPS;
	memset(&req->open_scope, 0, sizeof(req->open_scope));
	req->open_scope.step = pane->scope.step;
	return true;
}

static void idle_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "GPU idle needs the trace: a summary holds no kernel times");
	else
		snprintf(buf, size, "no kernel, copy or set on a GPU stream %s",
			 pane->scope.has_range ? "starts in the range" : "in this profile");
}

static void idle_release_pane(struct pane *pane)
{
	struct idle_priv *ip = pane->priv;

	if (!ip)
		return;
	idle_release(&ip->b);
	free(ip->rows);
	free(ip);
}

static const enum action idle_actions[] = { ACT_DRILL, ACT_NONE };

const struct pane_ops idle_pane_ops = {
	.id = PANE_IDLE, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE,
	.load = idle_load, .row_name = idle_name, .empty_text = idle_empty,
	.handle = idle_handle, .actions = idle_actions,
	.needs_trace = pane_empty_of_summary, .release = idle_release_pane,
};
