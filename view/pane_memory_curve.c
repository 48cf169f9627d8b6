// SPDX-License-Identifier: MIT
/*
 * The memory curve as numbers, for --print memory-curve: one row per
 * memory event that has an address and both totals (the points the
 * Memory pane's chart and the plugin's curve draw), each device's in time
 * order -- time in ms since the profile started, allocated and reserved
 * in MB: a CSV a spreadsheet plots.  No tab: the chart is the Memory
 * pane's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../model/memory.h"
#include "../model/util.h"
#include "pane.h"

struct pt_row {
	const struct mem_point *pt;
	char device[MEM_DEVICE_NAME_SIZE];
};

struct pt_priv {
	struct mem_curves curves;
	struct pt_row *rows;
	size_t nr;
};

#define PT(r) ((const struct pt_row *)(r))

static struct cell get_device(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(PT(row)->device);
}

static struct cell get_time(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t origin = pane->prof->has_time_origin ? pane->prof->time_origin_ns : 0;

	(void)c;
	return cell_real((double)(PT(row)->pt->ts_ns - origin) / 1e6);
}

static struct cell get_mb(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane;
	return cell_real((double)(c->arg ? PT(row)->pt->reserved : PT(row)->pt->allocated) / 1048576);
}

static const struct column pt_cols[] = {
	{ .key = "device", .title = "Device", .kind = COL_NAME, .get = get_device,
	  .help = "where the memory is: CPU, GPU0 (CUDA's), or c10's device type and index: "
		  "HIP0, XPU0, MTIA0..." },
	{ .key = "time_ms", .title = "Time ms", .kind = COL_REAL, .width = 12, .get = get_time,
	  .help = "when, in ms since the profile started" },
	{ .key = "allocated_mb", .title = "Allocated MB", .kind = COL_REAL, .width = 13,
	  .get = get_mb, .arg = 0,
	  .help = "memory in use after the event (its Total Allocated), in MB" },
	{ .key = "reserved_mb", .title = "Reserved MB", .kind = COL_REAL, .width = 13,
	  .get = get_mb, .arg = 1,
	  .help = "memory the allocator holds after the event (Total Reserved), in MB" },
};

static void pt_load(struct pane *pane)
{
	struct pt_priv *pp = xcalloc(1, sizeof(*pp));
	struct mem_range r = { pane->scope.has_range, pane->scope.range_start_ns,
			       pane->scope.range_end_ns };
	size_t n = 0;

	pane->priv = pp;
	mem_curves(pane->prof, &r, &pp->curves);
	for (size_t c = 0; c < pp->curves.nr; c++)
		n += pp->curves.curves[c].nr;
	pp->rows = xcalloc(n ? n : 1, sizeof(*pp->rows));
	pane->rows = xmalloc((n ? n : 1) * sizeof(*pane->rows));
	for (size_t c = 0; c < pp->curves.nr; c++) {
		const struct mem_curve *cv = &pp->curves.curves[c];

		for (size_t i = 0; i < cv->nr; i++) {
			struct pt_row *row = &pp->rows[pp->nr];

			row->pt = &cv->points[i];
			mem_device_name(cv->device, row->device, sizeof(row->device));
			pane->rows[pp->nr++] = row;
		}
	}
	pane->nr_rows = pp->nr;
	for (size_t i = 0; i < ARRAY_SIZE(pt_cols); i++)
		pane_add_column(pane, &pt_cols[i]);
	pane->sort_col = -1;
}

static const char *pt_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return PT(row)->device;
}

static void pt_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "the Memory curve needs the trace: a summary holds no memory "
				    "events");
	else
		snprintf(buf, size, "no memory events with an address and both totals");
}

static void pt_release(struct pane *pane)
{
	struct pt_priv *pp = pane->priv;

	if (!pp)
		return;
	mem_curves_release(&pp->curves);
	free(pp->rows);
	free(pp);
}

static const char *const pt_aliases[] = { "memory-curve", NULL };

const struct pane_ops memory_curve_pane_ops = {
	.id = PANE_MEMORY_CURVE, .flags = PANE_PRINTABLE, .aliases = pt_aliases,
	.load = pt_load, .row_name = pt_name, .empty_text = pt_empty,
	.needs_trace = pane_empty_of_summary, .release = pt_release,
};
