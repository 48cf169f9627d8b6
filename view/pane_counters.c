// SPDX-License-Identifier: MIT
/*
 * Counters: one row per counter series (model/counters.h) -- the trace's
 * own counter events ("ph":"C") and the series proftui derives from its
 * events (GPU utilization buckets, queue length per stream, memory
 * allocated per device) -- with its samples, least, greatest and
 * time-weighted mean.  The Timeline draws the same series as chart lanes
 * (view/tl_counters.c).  --print counters prints the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/counters.h"
#include "../model/util.h"
#include "pane.h"

struct counters_priv {
	struct counters c;
	struct counter_window *win;	/* by series, with a range; else NULL */
};

/* The series' figures over the pane's range, or NULL without one. */
static const struct counter_window *window_of(const struct pane *pane, const void *row)
{
	const struct counters_priv *cp = pane->priv;

	if (!cp->win)
		return NULL;
	return &cp->win[(const struct counter_series *)row - cp->c.v];
}

#define CS(r) ((const struct counter_series *)(r))

static const char *const kind_names[] = {
	[COUNTER_RECORDED] = "recorded", [COUNTER_DERIVED] = "derived",
};

static const char *const unit_names[] = {
	[COUNTER_PLAIN] = "as recorded", [COUNTER_FRACTION] = "fraction",
	[COUNTER_BYTES] = "bytes", [COUNTER_COUNT] = "count",
};

static struct cell get_kind(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(kind_names[CS(row)->kind]);
}

static struct cell get_unit(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(unit_names[CS(row)->unit]);
}

static struct cell get_samples(const struct pane *pane, const void *row, const struct column *c)
{
	const struct counter_window *w = window_of(pane, row);

	(void)c;
	return cell_int((int64_t)(w ? w->nr : CS(row)->nr));
}

/* A double of the series, by its offset in struct counter_series. */
static struct cell get_value(const struct pane *pane, const void *row, const struct column *c)
{
	const struct counter_window *w = window_of(pane, row);
	double v;

	if (w)
		v = c->arg == (int)offsetof(struct counter_series, min)   ? w->min
		    : c->arg == (int)offsetof(struct counter_series, max) ? w->max
									  : w->mean;
	else
		memcpy(&v, (const char *)row + c->arg, sizeof(v));
	return cell_real(v);
}

/* A time of the series' first or last sample (arg 0, 1), since the
 * recording started. */
static struct cell get_when(const struct pane *pane, const void *row, const struct column *c)
{
	const struct counter_series *s = CS(row);
	const struct counter_window *w = window_of(pane, row);
	size_t first = w ? w->first : 0, nr = w ? w->nr : s->nr;
	int64_t t, origin;

	if (!nr)
		return cell_none();
	t = c->arg ? s->points[first + nr - 1].ts_ns : s->points[first].ts_ns;
	origin = pane->prof->has_time_origin ? pane->prof->time_origin_ns : s->points[0].ts_ns;
	return cell_int(t - origin);
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(CS(row)->name);
}

#define VALUE(k, t, field, what)                                                        \
	{ .key = k, .title = t, .kind = COL_REAL, .width = 12, .get = get_value,           \
	  .arg = (int)offsetof(struct counter_series, field), .help = what }

static const struct column counters_cols[] = {
	{ .key = "name", .title = "Counter", .kind = COL_NAME, .width = 0, .get = get_name,
	  .help = "the series: a recorded counter's event name (with its arg's key when the "
		  "event has several, and its pid when several processes write it); derived: "
		  "GPU N utilization, queue GPU D stream S, memory DEVICE" },
	{ .key = "kind", .title = "Kind", .kind = COL_TEXT, .width = 8, .get = get_kind,
	  .help = "recorded: the trace's counter events (\"ph\":\"C\"), one sample per event; "
		  "derived: computed from the trace's events -- GPU N utilization is "
		  "torch-tb-profiler's buckets (a power of ten of microseconds, the least that "
		  "makes at most 100 over the profiler's span; each the share of it in which a "
		  "kernel of GPU N ran; 0 at the span's end), queue is the queue length of the "
		  "stream (as queue-length), memory the Total Allocated after each memory event "
		  "(as the Memory curve)" },
	{ .key = "unit", .title = "Unit", .kind = COL_TEXT, .width = 11, .get = get_unit,
	  .help = "how the values read: as recorded (the file's numbers), fraction (0 to 1), "
		  "bytes, count" },
	{ .key = "samples", .title = "Samples", .kind = COL_COUNT, .width = 8,
	  .get = get_samples, .help = "the series' samples (a derived series: its changes); with a "
				     "range of time, those at its start or after, before its end" },
	{ .key = "first", .title = "First", .kind = COL_TIME, .width = 11, .get = get_when,
	  .arg = 0, .help = "the time of the first sample (with a range: the first in it), "
			    "since the recording started" },
	{ .key = "last", .title = "Last", .kind = COL_TIME, .width = 11, .get = get_when,
	  .arg = 1, .help = "the time of the last sample (with a range: the last in it), "
			    "since the recording started" },
	VALUE("min", "Min", min,
	      "the least sample; with a range of time, the least value in force at some time "
	      "in it: the sample at or before its start, and those after it"),
	VALUE("max", "Max", max, "the greatest sample; with a range, as Min"),
	VALUE("mean", "TW mean", mean,
	      "the time-weighted mean: each sample's value held until the next sample, over "
	      "the first sample to the last (empty: they span no time); with a range of time, "
	      "over the part of that span inside the range, each value's time clipped to it"),
};

static void counters_load(struct pane *pane)
{
	struct counters_priv *cp = xcalloc(1, sizeof(*cp));

	pane->priv = cp;
	counters_compute(pane->prof, &cp->c);
	if (pane->scope.has_range) {
		cp->win = xcalloc(cp->c.nr ? cp->c.nr : 1, sizeof(*cp->win));
		for (size_t i = 0; i < cp->c.nr; i++)
			counter_window(&cp->c.v[i], pane->scope.range_start_ns,
				       pane->scope.range_end_ns, &cp->win[i]);
	}
	pane->rows = xmalloc((cp->c.nr + 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < cp->c.nr; i++)
		pane->rows[i] = &cp->c.v[i];
	pane->nr_rows = cp->c.nr;
	for (size_t i = 0; i < ARRAY_SIZE(counters_cols); i++)
		pane_add_column(pane, &counters_cols[i]);
	pane->sort_col = -1;	/* recorded in the file's order, then derived */
}

static const char *counters_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return CS(row)->name;
}

/* Enter or w on a row: its lane on the Timeline (shown, the cursor on
 * it). */
static bool counters_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	const void *row = pane_row(pane, pane->cursor);

	if (!row)
		return false;
	req->jump = true;
	req->jump_to = PANE_TIMELINE;
	req->jump_row = CS(row)->name;
	(void)act;
	return true;
}

static const enum action counters_actions[] = { ACT_DRILL, ACT_TIMELINE_JUMP, ACT_NONE };

static void counters_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "Counters need the trace: a summary holds no events");
	else
		snprintf(buf, size, "no counter events, kernels with a device, launches or memory "
				    "events in this profile");
}

static void counters_release_pane(struct pane *pane)
{
	struct counters_priv *cp = pane->priv;

	if (!cp)
		return;
	counters_release(&cp->c);
	free(cp->win);
	free(cp);
}

const struct pane_ops counters_pane_ops = {
	.id = PANE_COUNTERS, .flags = PANE_PRINTABLE | PANE_FOLLOWS_RANGE,
	.load = counters_load, .row_name = counters_name, .empty_text = counters_empty,
	.handle = counters_handle, .actions = counters_actions,
	.needs_trace = pane_empty_of_summary, .release = counters_release_pane,
};
