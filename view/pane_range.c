// SPDX-License-Identifier: MIT
/*
 * The Range pane: what a range of time selected on the Timeline (or
 * given with --range) holds, by name, as Perfetto's area selection sums
 * it: how many blocks of each name overlap the range, their time inside
 * it (a block that straddles an edge counts only its part inside), the
 * mean, and the share of the range.  Of one lane (the Timeline cursor's)
 * or of every lane: v toggles.  The numbers are model/range_summary.c's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../model/range_summary.h"
#include "../model/timeline.h"
#include "../model/util.h"
#include "detail.h"
#include "pane.h"
#include "tlview.h"

#define RROW(r) ((const struct range_row *)(r))

struct range_priv {
	struct timeline tl;
	struct range_summary sum;
	size_t lane;			/* SIZE_MAX: every lane */
	size_t first_lane;		/* the lane it opened with; SIZE_MAX: none */
};

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(RROW(row)->name);
}

static struct cell get_count(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)RROW(row)->count);
}

static struct cell get_total(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(RROW(row)->total_ns);
}

static struct cell get_mean(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	if (!RROW(row)->count || sum_capped(RROW(row)->total_ns))
		return cell_none();
	return cell_int(div_round(RROW(row)->total_ns, RROW(row)->count));
}

static struct cell get_share(const struct pane *pane, const void *row, const struct column *c)
{
	const struct range_priv *rp = pane->priv;
	int64_t len = rp->sum.end_ns - rp->sum.start_ns;

	(void)c;
	if (len <= 0)
		return cell_none();
	return cell_real(100.0 * (double)RROW(row)->total_ns / (double)len);
}

static const struct column range_cols[] = {
	{ .key = "name", .title = "Name", .kind = COL_NAME, .get = get_name,
	  .help = "the op, runtime call, kernel or step: blocks of the Timeline of this name" },
	{ .key = "count", .title = "Count", .kind = COL_COUNT, .width = 8, .get = get_count,
	  .help = "how many blocks of the name overlap the range (one that lasts nothing: "
		  "when it lies in it), on the lane shown or on every lane" },
	{ .key = "total", .title = "Total", .kind = COL_TIME, .width = 11, .get = get_total,
	  .help = "their time inside the range: a block that straddles an edge counts only "
		  "its part inside; nested blocks each count their own" },
	{ .key = "mean", .title = "Mean", .kind = COL_TIME, .width = 11, .get = get_mean,
	  .help = "the total over the count, rounded half away from zero to the ns" },
	{ .key = "share", .title = "Share", .kind = COL_PCT, .width = 8, .get = get_share,
	  .help = "the total over the range's length; past 100% where blocks of the name "
		  "overlap (nested, or on several lanes)" },
};

static void range_title(struct pane *pane)
{
	const struct range_priv *rp = pane->priv;
	char a[32], b[32], buf[512];

	tlview_fmt_time(rp->sum.start_ns - pane->scope.range_origin_ns, a, sizeof(a));
	tlview_fmt_time(rp->sum.end_ns - pane->scope.range_origin_ns, b, sizeof(b));
	if (rp->lane == SIZE_MAX)
		snprintf(buf, sizeof(buf), "Range %s - %s, every lane", a, b);
	else
		snprintf(buf, sizeof(buf), "Range %s - %s, %s", a, b, rp->tl.lanes[rp->lane].name);
	free(pane->title);
	pane->title = xstrdup(buf);
}

static void summarize(struct pane *pane)
{
	struct range_priv *rp = pane->priv;

	range_summary_release(&rp->sum);
	range_summarize(&rp->tl, pane->scope.range_start_ns, pane->scope.range_end_ns, rp->lane,
			&rp->sum);
	free(pane->rows);
	pane->rows = xmalloc((rp->sum.nr ? rp->sum.nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < rp->sum.nr; i++)
		pane->rows[i] = &rp->sum.rows[i];
	pane->nr_rows = rp->sum.nr;
	pane->nr_capped = rp->sum.nr_capped;
	range_title(pane);
}

static void range_load(struct pane *pane)
{
	struct range_priv *rp = pane->priv;

	if (!rp) {
		rp = pane->priv = xcalloc(1, sizeof(*rp));
		timeline_build(pane->prof, &rp->tl);
		rp->first_lane = pane->scope.range_lane && pane->scope.range_lane <= rp->tl.nr_lanes
					 ? pane->scope.range_lane - 1
					 : SIZE_MAX;
		rp->lane = rp->first_lane;
	}
	if (!pane->scope.has_range) {
		pane->scope.range_start_ns = pane->scope.range_end_ns = 0;
		pane->scope.range_origin_ns = 0;
	}
	summarize(pane);
	for (size_t i = 0; i < ARRAY_SIZE(range_cols); i++)
		pane_add_column(pane, &range_cols[i]);
	pane->sort_col = pane_column(pane, "total");
	pane->sort_desc = true;
}

static bool range_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct range_priv *rp = pane->priv;

	if (act != ACT_TOGGLE_VIEW)
		return false;
	if (rp->first_lane == SIZE_MAX) {
		req->message = "every lane: opened without a lane to narrow it to";
		return true;
	}
	rp->lane = rp->lane == SIZE_MAX ? rp->first_lane : SIZE_MAX;
	summarize(pane);
	pane->cursor = 0;
	pane_rebuild(pane);
	req->message = rp->lane == SIZE_MAX ? "every lane (v: the cursor's lane)"
					    : "the cursor's lane (v: every lane)";
	return true;
}

static void range_status(const struct pane *pane, char *buf, size_t size)
{
	const struct range_priv *rp = pane->priv;
	char len[32];

	tlview_fmt_time(rp->sum.end_ns - rp->sum.start_ns, len, sizeof(len));
	snprintf(buf, size, "range of %s%s", len,
		 rp->first_lane == SIZE_MAX ? ""
		 : rp->lane == SIZE_MAX	    ? "  v: the cursor's lane"
					    : "  v: every lane");
}

static void range_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (!pane->prof->has_timeline)
		snprintf(buf, size, "this profile's rows carry no times: no range to sum");
	else if (!pane->scope.has_range)
		snprintf(buf, size, "no range selected: m or v on the Timeline selects one, "
				    "--range START:END with --print");
	else
		snprintf(buf, size, "nothing ran in the range");
}

static void range_detail(const struct pane *pane, const void *row, struct detail *d)
{
	(void)pane;
	detail_node(d, RROW(row)->first);
}

static const char *range_row_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return RROW(row)->name;
}

static const struct attr *range_row_attrs(const struct pane *pane, const void *row)
{
	(void)pane, (void)row;
	return NULL;
}

static void range_release(struct pane *pane)
{
	struct range_priv *rp = pane->priv;

	if (!rp)
		return;
	range_summary_release(&rp->sum);
	timeline_release(&rp->tl);
	free(rp);
}

static const enum action range_actions[] = { ACT_TOGGLE_VIEW, ACT_NONE };
static const enum action range_hints[] = { ACT_HELP, ACT_FILTER, ACT_TOGGLE_VIEW, ACT_INSPECT,
					   ACT_BACK, ACT_NONE };


static const struct pane_text_ops range_text = {
	.status = range_status, .hints = range_hints, .detail = range_detail,
};

const struct pane_ops range_pane_ops = {
	.id = PANE_RANGE, .flags = PANE_PRINTABLE | PANE_FOLLOWS_RANGE,
	.available = pane_one_profile, .load = range_load,
	.row_name = range_row_name, .row_attrs = range_row_attrs, .handle = range_handle,
	.actions = range_actions, .empty_text = range_empty_text, .release = range_release,
	.text = &range_text,
};
