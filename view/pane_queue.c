// SPDX-License-Identifier: MIT
/*
 * Queue length: how many operations wait on each GPU stream
 * (model/queue_length.c, Holistic Trace Analysis's queue length), one
 * row per stream with HTA's describe() of the changes and proftui's
 * time-weighted figures, over the whole trace or the range of time (the
 * queue at its start carried in, its time clipped to it); above the table, the
 * cursor's stream's queue over time, drawn by the Memory curve's engine
 * (view/chart.c).  --print queue-length prints the table; times in the
 * JSON are microseconds, under HTA's names (p25, p50, p75 for its 25%,
 * 50%, 75%).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/queue_length.h"
#include "../model/util.h"
#include "chart.h"
#include "pane.h"

struct queue_priv {
	struct queue_lengths q;
};

#define QS(r) ((const struct queue_stream *)(r))

static struct cell get_device(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return QS(row)->device >= 0 ? cell_int(QS(row)->device) : cell_none();
}

static struct cell get_stream(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(QS(row)->stream);
}

static struct cell get_count(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)QS(row)->summary.count);
}

/* A statistic of the changes, by its offset in struct describe. */
static struct cell get_stat(const struct pane *pane, const void *row, const struct column *c)
{
	double v;

	(void)pane;
	memcpy(&v, (const char *)&QS(row)->summary + c->arg, sizeof(v));
	return cell_real(v);
}

static struct cell get_tw_mean(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_real(QS(row)->tw_mean);
}

static struct cell get_tw_max(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return QS(row)->tw_max == INT64_MIN ? cell_none() : cell_int(QS(row)->tw_max);
}

static struct cell get_blocked(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(QS(row)->blocked_ns);
}

static struct cell get_blocked_share(const struct pane *pane, const void *row,
				     const struct column *c)
{
	(void)pane, (void)c;
	return cell_real(QS(row)->blocked_share);
}

#define STAT(k, t, field, what)                                                            \
	{ .key = k, .title = t, .kind = COL_REAL, .width = 9, .get = get_stat,                \
	  .arg = (int)offsetof(struct describe, field),                                    \
	  .help = what " of the queue's lengths at its changes (HTA's describe(): not "    \
		      "weighted by time; over a range, the changes in it, counting what was "  \
		      "queued at its start)" }

static const struct column queue_cols[] = {
	{ .key = "device", .title = "GPU", .kind = COL_COUNT, .width = 3, .get = get_device,
	  .help = "the device the stream belongs to (empty: the trace does not say)" },
	{ .key = "stream", .title = "Stream", .kind = COL_COUNT, .width = 6, .get = get_stream,
	  .help = "the stream (args.stream); its queue is the kernels, copies and sets "
		  "launched on it and not yet started: +1 at the start of the runtime or "
		  "driver call that launched one (every call linked to its GPU work, one for "
		  "each operation it launched), -1 at the operation's start; at one time, "
		  "launches first" },
	{ .key = "count", .title = "Changes", .kind = COL_COUNT, .width = 8, .get = get_count,
	  .help = "the queue's changes: two per operation launched (over a range, "
		  "those in it)" },
	STAT("mean", "Mean", mean, "the mean"),
	STAT("std", "Std", std, "the standard deviation (n - 1)"),
	STAT("min", "Min", min, "the least"),
	STAT("p25", "P25", p25, "the 25th percentile (linear interpolation, as pandas)"),
	STAT("p50", "Median", p50, "the median"),
	STAT("p75", "P75", p75, "the 75th percentile"),
	STAT("max", "Max", max, "the greatest"),
	{ .key = "time_weighted_mean", .title = "TW mean", .kind = COL_REAL, .width = 9,
	  .get = get_tw_mean,
	  .help = "the mean length over time, from the stream's first change to its last, "
		  "each length weighted by how long it held (empty: no time between them); "
		  "over a range, over the range clipped to that span, what was queued at "
		  "its start carried in" },
	{ .key = "time_weighted_max", .title = "TW max", .kind = COL_COUNT, .width = 7,
	  .get = get_tw_max,
	  .help = "the greatest length held for more than 0 ns (Max may count one held for "
		  "none, between changes at one time)" },
	{ .key = "blocked_time", .json_key = "blocked_time", .title = "Blocked", .kind = COL_TIME,
	  .width = 11, .get = get_blocked,
	  .help = "the time the queue held 1024 or more (a full CUDA launch queue: the next "
		  "launch waits)" },
	{ .key = "blocked_share", .title = "Blk share", .kind = COL_REAL, .width = 9,
	  .get = get_blocked_share,
	  .help = "the blocked time over the span of every stream's changes (over a "
		  "range, clipped to it), 0 to 1" },
};

static void queue_load(struct pane *pane)
{
	struct queue_priv *qp = xcalloc(1, sizeof(*qp));
	struct queue_options o;

	pane->priv = qp;
	queue_options_default(&o);
	o.has_range = pane->scope.has_range;
	o.range_start_ns = pane->scope.range_start_ns;
	o.range_end_ns = pane->scope.range_end_ns;
	queue_compute(pane->prof, &o, &qp->q);
	pane->rows = xmalloc((qp->q.nr_streams + 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < qp->q.nr_streams; i++)
		pane->rows[i] = &qp->q.streams[i];
	pane->nr_rows = qp->q.nr_streams;
	for (size_t i = 0; i < ARRAY_SIZE(queue_cols); i++)
		pane_add_column(pane, &queue_cols[i]);
	pane->sort_col = -1;	/* by device and stream */
}

static const char *queue_name(const struct pane *pane, const void *row)
{
	(void)pane, (void)row;
	return "stream";
}

/* The cursor's stream's queue over its changes, above the table. */
static size_t queue_chart(const struct pane *pane, int width, int height, bool utf8,
			  struct canvas *out)
{
	const struct queue_stream *s = pane_row(pane, pane->cursor);
	struct chart_input in = { 0 };
	char title[48];
	int64_t *t, *y;
	size_t n, k = 0;

	if (!s || (!s->nr_points && !pane->scope.has_range))
		return 0;
	/* With a range, the length carried in starts the curve at its
	 * clipped start. */
	n = s->nr_points + (pane->scope.has_range ? 1 : 0);
	t = xmalloc(n * sizeof(*t));
	y = xmalloc(n * sizeof(*y));
	if (pane->scope.has_range) {
		t[k] = s->first_ns;
		y[k++] = s->carried > 0 ? s->carried : 0;
	}
	for (size_t i = 0; i < s->nr_points; i++, k++) {
		t[k] = s->points[i].t_ns;
		y[k] = s->points[i].length > 0 ? s->points[i].length : 0;
	}
	snprintf(title, sizeof(title), "stream %d", (int)s->stream);
	in.title = title;
	in.t = t;
	in.y1 = y;
	in.n = n;
	if (pane->scope.has_range) {
		in.t0 = pane->scope.range_start_ns;
		in.t1 = pane->scope.range_end_ns;
	} else {
		in.t0 = s->first_ns;
		in.t1 = s->last_ns > s->first_ns ? s->last_ns : s->first_ns + 1;
	}
	in.origin = pane->prof->has_time_origin ? pane->prof->time_origin_ns : s->first_ns;
	in.cursor = in.t0;
	in.y1_name = "queued";
	in.counts = true;
	n = chart_render(&in, width, height, utf8, out);
	free(t);
	free(y);
	return n;
}

static void queue_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "Queue length needs the trace: a summary holds no launches");
	else
		snprintf(buf, size, "no kernel, copy or set launched by a runtime call on a GPU "
				    "stream %s",
			 pane->scope.has_range ? "queued in the range" : "in this profile");
}

static void queue_release_pane(struct pane *pane)
{
	struct queue_priv *qp = pane->priv;

	if (!qp)
		return;
	queue_release(&qp->q);
	free(qp);
}

static const char *const queue_aliases[] = { "queue-length", NULL };

static const struct pane_picture_ops queue_picture = { .chart = queue_chart };

const struct pane_ops queue_length_pane_ops = {
	.id = PANE_QUEUE_LENGTH, .flags = PANE_PRINTABLE | PANE_FOLLOWS_RANGE, .aliases = queue_aliases,
	.load = queue_load, .row_name = queue_name, .empty_text = queue_empty,
	.picture = &queue_picture,
	.needs_trace = pane_empty_of_summary, .release = queue_release_pane,
};
