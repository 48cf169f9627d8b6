// SPDX-License-Identifier: MIT
/*
 * Kernel launches: one row per launch -- a runtime or driver call linked
 * to the kernel, copy or set it started (model/launch_stats.c, Holistic
 * Trace Analysis's get_cuda_kernel_launch_stats()) -- with the call's
 * CPU time, the work's GPU time, the launch delay and the outlier
 * classes, worst delay first, over the whole trace or the step chosen
 * (the calls that start in its span); printed by --print launches.
 * Enter (or w) shows the kernel on the Timeline.  Times in the JSON are
 * microseconds under HTA's column names; the distribution of each figure
 * is the Launch distribution pane's.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/launch_stats.h"
#include "../model/util.h"
#include "pane.h"

#define LR(r) ((const struct launch_row *)(r))

static struct cell get_kernel(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(node_name(LR(row)->work));
}

static struct cell get_call(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(node_name(node_parent(LR(row)->work)));
}

/* A figure, by its offset in struct launch_row. */
static struct cell get_time(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t v;

	(void)pane;
	memcpy(&v, (const char *)row + c->arg, sizeof(v));
	return cell_int(v);
}

static struct cell get_class(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(launch_class_text(LR(row)->cls));
}

static struct cell get_start(const struct pane *pane, const void *row, const struct column *c)
{
	const struct profile *p = pane->prof;
	int64_t t = LR(row)->work->start_ns;

	(void)c;
	if (p->has_time_origin && __builtin_sub_overflow(t, p->time_origin_ns, &t))
		return cell_none();
	return cell_int(t);
}

#define FIG(k, t, field, what)                                                             \
	{ .key = k, .json_key = k, .title = t, .kind = COL_TIME, .width = 10, .get = get_time, \
	  .arg = (int)offsetof(struct launch_row, field), .help = what }

static const struct column launch_cols[] = {
	{ .key = "kernel", .json_key = "kernel", .title = "Kernel", .kind = COL_NAME,
	  .get = get_kernel,
	  .help = "the kernel, copy or set the call launched (linked by the trace's correlation "
		  "id); a call that launched several is a row for each" },
	FIG("launch_delay", "Delay", delay_ns,
	    "the work's start less the end of the call that launched it; 0 when the work "
	    "started before the call ended"),
	FIG("cpu_duration", "CPU time", cpu_ns, "the launch call's duration (host time)"),
	FIG("gpu_duration", "GPU time", gpu_ns, "the kernel's, copy's or set's duration"),
	{ .key = "class", .title = "Class", .kind = COL_TEXT, .width = 15, .get = get_class,
	  .help = "short: CPU time <= 50 us and GPU time < CPU time; runtime outlier: CPU "
		  "time > 50 us; delay outlier: delay > 100 us (HTA's cutoffs); a launch may "
		  "be in two; empty: none" },
	{ .key = "launch_call", .title = "Launch call", .kind = COL_TEXT, .width = 16,
	  .get = get_call,
	  .help = "the runtime or driver call that launched it: any the trace links "
		  "(cudaLaunchKernel, cuLaunchKernel, hipLaunchKernel, cudaMemcpyAsync...)" },
	{ .key = "start", .json_key = "start", .title = "Start", .kind = COL_TIME, .width = 11,
	  .get = get_start, .help = "when the kernel, copy or set started, since the profile started" },
};

static void launches_load(struct pane *pane)
{
	struct launch_options o;
	struct launch_stats *s = xcalloc(1, sizeof(*s));

	pane->priv = s;
	launch_options_for_step(&o, pane->prof, pane->scope.step);
	if (pane->scope.has_range)
		launch_options_narrow(&o, pane->scope.range_start_ns, pane->scope.range_end_ns);
	launch_stats_compute(pane->prof, &o, s);
	pane->rows = xmalloc((s->nr ? s->nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < s->nr; i++)
		pane->rows[i] = &s->rows[i];
	pane->nr_rows = s->nr;
	for (size_t i = 0; i < ARRAY_SIZE(launch_cols); i++)
		pane_add_column(pane, &launch_cols[i]);
	/* The worst delay first; ties in the order of the calls. */
	pane->sort_col = pane_column(pane, "launch_delay");
	pane->sort_desc = true;
}

static const char *launches_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return node_name(LR(row)->work);
}

/* Enter on a row: its kernel on the Timeline (this very launch's block,
 * as w). */
static bool launches_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	const void *row = pane_row(pane, pane->cursor);

	if (act != ACT_DRILL || !row)
		return false;
	req->jump = true;
	req->jump_to = PANE_TIMELINE;
	req->jump_node = LR(row)->work;
	return true;
}

static const struct node *launches_node(const struct pane *pane, const void *row)
{
	(void)pane;
	return LR(row)->work;
}

static void launches_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "Kernel launches need the trace: a summary holds no launch");
	else
		snprintf(buf, size, "no runtime call linked to a kernel, copy or set %s",
			 pane->scope.has_range ? "starts in the range" : "in this profile");
}

static void launches_release(struct pane *pane)
{
	struct launch_stats *s = pane->priv;

	if (!s)
		return;
	launch_stats_release(s);
	free(s);
}

static const enum action launches_actions[] = { ACT_DRILL, ACT_NONE };

const struct pane_ops launches_pane_ops = {
	.id = PANE_LAUNCHES, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE,
	.load = launches_load, .row_name = launches_name, .row_node = launches_node, .empty_text = launches_empty,
	.handle = launches_handle, .actions = launches_actions,
	.needs_trace = pane_empty_of_summary, .release = launches_release,
};
