// SPDX-License-Identifier: MIT
/*
 * Kernels by type: the GPU work by type and kernel -- Holistic Trace
 * Analysis's per-kernel tables of get_gpu_kernel_breakdown (kernel_all:
 * every kernel, nothing folded), computed by model/kernel_breakdown.c
 * from the trace's own events in nanoseconds, over the whole trace or the
 * step chosen.  One row per type and full kernel name, by type, then the
 * largest total first; opened from a row of Kernel types, only the types
 * that row names.  --print kernel-breakdown prints every type; the JSON's
 * times are microseconds under HTA's column names.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/kernel_breakdown.h"
#include "../model/util.h"
#include "pane.h"

struct kb_priv {
	struct kbreak b;
	unsigned types;		/* the kernel_type bits shown; 0: every type */
};

#define KR(r) ((const struct kbreak_row *)(r))

static struct cell get_type(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(kernel_type_name(KR(row)->type));
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(KR(row)->name);
}

static struct cell get_calls(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)KR(row)->calls);
}

static struct cell get_stddev(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return isnan(KR(row)->stddev_ns) ? cell_none() : cell_int(llround(KR(row)->stddev_ns));
}

#define TIME(k, t, field, what)                                                          \
	{ .key = k, .json_key = k, .title = t, .kind = COL_TIME, .width = 11,            \
	  .get = pane_get_i64, .arg = (int)offsetof(struct kbreak_row, field), .help = what }

static const struct column kb_cols[] = {
	{ .key = "kernel_type", .title = "Type", .kind = COL_TEXT, .width = 13, .get = get_type,
	  .help = "the kernel's type by its full name (Kernels' Type): COMMUNICATION, "
		  "COMPUTATION, MEMORY or OTHER" },
	{ .key = "name", .title = "Kernel", .kind = COL_NAME, .get = get_name,
	  .help = "the full name of the kernel, copy or set: every event on a GPU stream of "
		  "that name is one call (synchronisations are not GPU work)" },
	{ .key = "calls", .title = "Calls", .kind = COL_COUNT, .width = 7, .get = get_calls,
	  .help = "its events" },
	TIME("sum", "Total", sum_ns, "the sum of its events' durations (not their union)"),
	TIME("max", "Max", max_ns, "the longest event"),
	TIME("min", "Min", min_ns, "the shortest event"),
	TIME("mean", "Mean", mean_ns, "Total / Calls"),
	{ .key = "stddev", .json_key = "stddev", .title = "StdDev", .kind = COL_TIME, .width = 11, .get = get_stddev,
	  .help = "the sample standard deviation of its durations (n - 1); empty for one call" },
};

static void kb_load(struct pane *pane)
{
	struct kb_priv *kp = xcalloc(1, sizeof(*kp));
	struct kbreak_opts o = KBREAK_OPTS_ALL;
	size_t n = 0;

	pane->priv = kp;
	if (pane->scope.arg)
		kp->types = *(const unsigned *)pane->scope.arg;
	o.t = temporal_opts_for_step(pane->prof, pane->scope.step);
	kbreak_compute(pane->prof, &o, &kp->b);
	pane->nr_capped = kp->b.nr_capped;
	pane->rows = xmalloc((kp->b.nr + 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < kp->b.nr; i++)
		if (!kp->types || (kp->b.rows[i].type & kp->types))
			pane->rows[n++] = &kp->b.rows[i];
	pane->nr_rows = n;
	for (size_t i = 0; i < ARRAY_SIZE(kb_cols); i++)
		pane_add_column(pane, &kb_cols[i]);
	pane->sort_col = -1;	/* by type, then the largest total */
}

static const char *kb_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return KR(row)->name;
}

static void kb_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "Kernels by type needs the trace: a summary holds no kernel times");
	else
		snprintf(buf, size, "no timed kernel, copy or set on a GPU stream%s",
			 pane->priv && ((const struct kb_priv *)pane->priv)->types ? " of these types"
										    : "");
}

static void kb_release(struct pane *pane)
{
	struct kb_priv *kp = pane->priv;

	if (!kp)
		return;
	kbreak_release(&kp->b);
	free(kp);
	pane->priv = NULL;
}

static const char *const kb_aliases[] = { "kernel-breakdown", NULL };

const struct pane_ops kernel_breakdown_pane_ops = {
	.id = PANE_KERNEL_BREAKDOWN, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE,
	.aliases = kb_aliases, .load = kb_load, .row_name = kb_name, .empty_text = kb_empty,
	.needs_trace = pane_empty_of_summary, .release = kb_release,
};
