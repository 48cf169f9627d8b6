// SPDX-License-Identifier: MIT
/*
 * GPU idle gaps: where the biggest gaps of each GPU stream are
 * (model/idle.c): a stream's five longest gaps between its kernels,
 * copies and sets, longest first, each with when it began, its category,
 * the work after it and the host op that was running, on the thread that
 * launched that work, when the gap began.  Enter on a row of GPU idle
 * opens it; --print idle-gaps prints it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/idle.h"
#include "../model/util.h"
#include "pane.h"

struct gap_row {
	const struct idle_stream *s;
	const struct idle_gap *g;
	int rank;			/* 1: the stream's longest */
};

struct gap_priv {
	struct idle_breakdown b;
	struct gap_row *rows;
};

#define GR(r) ((const struct gap_row *)(r))

/* w: the work after the gap, on the Timeline; the gap ends at its start. */
static const struct node *gap_node(const struct pane *pane, const void *row)
{
	(void)pane;
	return GR(row)->g->next;
}

static struct cell get_device(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return GR(row)->s->device >= 0 ? cell_int(GR(row)->s->device) : cell_none();
}

static struct cell get_stream(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(GR(row)->s->stream);
}

static struct cell get_rank(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(GR(row)->rank);
}

static struct cell get_len(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(GR(row)->g->len_ns);
}

static struct cell get_start(const struct pane *pane, const void *row, const struct column *c)
{
	const struct profile *p = pane->prof;
	int64_t t = GR(row)->g->start_ns;

	(void)c;
	if (p->has_time_origin && __builtin_sub_overflow(t, p->time_origin_ns, &t))
		return cell_none();
	return cell_int(t);
}

static struct cell get_category(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(idle_category_name(GR(row)->g->category));
}

static struct cell get_cpu_op(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return GR(row)->g->cpu_op ? cell_text(node_name(GR(row)->g->cpu_op)) : cell_none();
}

static struct cell get_next(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(node_name(GR(row)->g->next));
}

static const struct column gap_cols[] = {
	{ .key = "device", .title = "GPU", .kind = COL_COUNT, .width = 3, .get = get_device,
	  .help = "the device the stream belongs to (empty: the trace does not say)" },
	{ .key = "stream", .title = "Stream", .kind = COL_COUNT, .width = 6, .get = get_stream,
	  .help = "the CUDA stream, in GPU idle's order" },
	{ .key = "rank", .title = "#", .kind = COL_COUNT, .width = 2, .get = get_rank,
	  .help = "the gap's place among the stream's gaps, longest first (its five longest)" },
	{ .key = "idle_interval", .json_key = "idle_interval", .title = "Gap", .kind = COL_TIME,
	  .width = 11, .get = get_len,
	  .help = "the work's start less the end of the work before it on the stream, in start "
		  "order (GPU idle's gap)" },
	{ .key = "start", .json_key = "start", .title = "Start", .kind = COL_TIME, .width = 11,
	  .get = get_start,
	  .help = "when the gap began (the end of the work before it), since the profile "
		  "started" },
	{ .key = "idle_category", .title = "Category", .kind = COL_TEXT, .width = 11,
	  .get = get_category,
	  .help = "host_wait, kernel_wait or other, as GPU idle counts it" },
	{ .key = "cpu_op", .title = "CPU op", .kind = COL_TEXT, .width = 24, .get = get_cpu_op,
	  .help = "the innermost host op, module, annotation or step on the thread that "
		  "launched the work after the gap whose interval holds the gap's start; empty "
		  "when the work has no launching call or nothing runs then" },
	{ .key = "next", .title = "Next work", .kind = COL_NAME, .get = get_next,
	  .help = "the kernel, copy or set after the gap" },
};

static void gap_load(struct pane *pane)
{
	struct idle_options o;
	struct gap_priv *gp = xcalloc(1, sizeof(*gp));
	size_t n = 0, cap;

	pane->priv = gp;
	idle_options_for_step(&o, pane->scope.step);
	if (pane->scope.has_range)
		idle_options_narrow(&o, pane->scope.range_start_ns, pane->scope.range_end_ns);
	idle_compute(pane->prof, &o, &gp->b);
	cap = gp->b.nr_streams * IDLE_TOP_GAPS + 1;
	gp->rows = xcalloc(cap, sizeof(*gp->rows));
	pane->rows = xmalloc(cap * sizeof(*pane->rows));
	for (size_t i = 0; i < gp->b.nr_streams; i++) {
		const struct idle_stream *s = &gp->b.streams[i];

		for (size_t k = 0; k < s->nr_top; k++) {
			gp->rows[n] = (struct gap_row){ .s = s, .g = &s->top[k], .rank = (int)k + 1 };
			pane->rows[n] = &gp->rows[n];
			n++;
		}
	}
	pane->nr_rows = n;
	for (size_t i = 0; i < ARRAY_SIZE(gap_cols); i++)
		pane_add_column(pane, &gap_cols[i]);
	pane->sort_col = -1;	/* streams in GPU idle's order, longest first */
}

static const char *gap_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return node_name(GR(row)->g->next);
}

static void gap_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "GPU idle gaps need the trace: a summary holds no kernel times");
	else
		snprintf(buf, size, "no stream with two kernels, copies or sets%s: no gap",
			 pane->scope.has_range ? " starting in the range" : "");
}

static void gap_release(struct pane *pane)
{
	struct gap_priv *gp = pane->priv;

	if (!gp)
		return;
	idle_release(&gp->b);
	free(gp->rows);
	free(gp);
}

static const char *const gap_aliases[] = { "idle-gaps", NULL };

const struct pane_ops idle_gaps_pane_ops = {
	.id = PANE_IDLE_GAPS, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE, .aliases = gap_aliases,
	.load = gap_load, .row_name = gap_name, .row_node = gap_node, .empty_text = gap_empty,
	.needs_trace = pane_empty_of_summary, .release = gap_release,
};
