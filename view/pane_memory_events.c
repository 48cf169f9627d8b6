// SPDX-License-Identifier: MIT
/*
 * Memory events: each allocation with its release (torch-tb-profiler's
 * memory_events table, model/memory.c), over the Memory pane -- of one op
 * (Enter there) or all (v), on the device and in the time its chart
 * shows -- and printed by --print memory-events, every device's.  Sizes
 * in KB and times in ms since the profile started, as the plugin's table;
 * an allocation never released (or a release of memory allocated before
 * the time shown) has one time empty.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/memory.h"
#include "../model/util.h"
#include "pane.h"

struct ev_row {
	const struct mem_event_row *e;
	char name[512];		/* "aten::addmm (aten::empty)", as the plugin names it */
	char device[MEM_DEVICE_NAME_SIZE];
};

struct ev_priv {
	struct mem_event_rows events;
	struct ev_row *rows;
	size_t nr;
};

#define EV(r) ((const struct ev_row *)(r))

static struct cell get_device(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(EV(row)->device);
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(EV(row)->name);
}

static struct cell get_size(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_real((double)EV(row)->e->size_bytes / 1024);
}

static struct cell get_ms(const struct pane *pane, const void *row, const struct column *c)
{
	const struct mem_event_row *e = EV(row)->e;

	(void)pane;
	if (c->arg == 0)
		return e->alloc_ns >= 0 ? cell_real((double)e->alloc_ns / 1e6) : cell_none();
	if (c->arg == 1)
		return e->release_ns >= 0 ? cell_real((double)e->release_ns / 1e6) : cell_none();
	if (e->alloc_ns < 0 || e->release_ns < 0)
		return cell_none();
	return cell_real((double)(e->release_ns - e->alloc_ns) / 1e6);
}

static const struct column ev_cols[] = {
	{ .key = "device", .title = "Device", .kind = COL_TEXT, .width = 6, .get = get_device,
	  .help = "where the memory is: CPU, GPU0 (CUDA's), or c10's device type and index: "
		  "HIP0, XPU0, MTIA0..." },
	{ .key = "name", .title = "Operator", .kind = COL_NAME, .get = get_name,
	  .help = "the op that allocated it; for aten::empty*, the op that called it, then "
		  "aten::empty in brackets (torch-tb-profiler's naming); <unknown> outside any op" },
	{ .key = "size_kb", .title = "Size KB", .kind = COL_FIXED, .width = 11, .get = get_size,
	  .help = "the bytes released (or, never released, allocated), in KB" },
	{ .key = "allocation_ms", .title = "Alloc ms", .kind = COL_REAL, .width = 10,
	  .get = get_ms, .arg = 0,
	  .help = "when it was allocated, in ms since the profile started" },
	{ .key = "release_ms", .title = "Release ms", .kind = COL_REAL, .width = 10,
	  .get = get_ms, .arg = 1,
	  .help = "when it was released, in ms since the profile started" },
	{ .key = "duration_ms", .title = "Held ms", .kind = COL_REAL, .width = 10,
	  .get = get_ms, .arg = 2,
	  .help = "how long it was held: release minus allocation, in ms" },
};

/* " of GPU0" (WORD "of") for a pane of one device's events, else "". */
static const char *of_device(const struct pane *pane, const char *word, char *buf, size_t size)
{
	char dev[MEM_DEVICE_NAME_SIZE];

	if (!pane->scope.has_device)
		return "";
	snprintf(buf, size, " %s %s", word, mem_device_name(pane->scope.device, dev, sizeof(dev)));
	return buf;
}

static void ev_load(struct pane *pane)
{
	struct ev_priv *ep = xcalloc(1, sizeof(*ep));
	struct mem_range r = { pane->scope.has_range, pane->scope.range_start_ns,
			       pane->scope.range_end_ns };
	size_t n = 0;

	pane->priv = ep;
	mem_event_rows(pane->prof, &r, &ep->events);
	ep->rows = xcalloc(ep->events.nr ? ep->events.nr : 1, sizeof(*ep->rows));
	for (size_t i = 0; i < ep->events.nr; i++) {
		const struct mem_event_row *e = &ep->events.rows[i];
		struct ev_row *row = &ep->rows[n];

		row->e = e;
		if (e->parent)
			snprintf(row->name, sizeof(row->name), "%s (%s)", e->parent, e->op);
		else
			snprintf(row->name, sizeof(row->name), "%s", e->op ? e->op : "<unknown>");
		/* Enter on an op in the Memory pane: that op's events; Enter
		 * or v there: the device's. */
		if (pane->scope.drill_name && (!e->op || strcmp(e->op, pane->scope.drill_name)))
			continue;
		if (pane->scope.has_device && !mem_device_eq(e->device, pane->scope.device))
			continue;
		mem_device_name(e->device, row->device, sizeof(row->device));
		n++;
	}
	ep->nr = n;
	pane->rows = xmalloc((n ? n : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < n; i++)
		pane->rows[i] = &ep->rows[i];
	pane->nr_rows = n;
	for (size_t i = 0; i < ARRAY_SIZE(ev_cols); i++)
		pane_add_column(pane, &ev_cols[i]);
	pane->sort_col = -1;	/* the plugin's order */
	if (pane->scope.drill_name) {
		char of[MEM_DEVICE_NAME_SIZE + 8];
		size_t len = strlen(pane->scope.drill_name) + sizeof(of) + 32;

		pane->title = xmalloc(len);
		snprintf(pane->title, len, "%s \xe2\x80\xba memory events%s", pane->scope.drill_name,
			 of_device(pane, "of", of, sizeof(of)));
	}
}

static const char *ev_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return EV(row)->name;
}

static void ev_empty(const struct pane *pane, char *buf, size_t size)
{
	char on[MEM_DEVICE_NAME_SIZE + 8];

	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "the Memory events need the trace: a summary holds no memory "
				    "events");
	else if (pane->scope.drill_name)
		snprintf(buf, size, "'%s' allocated nothing with an address%s in this time",
			 pane->scope.drill_name, of_device(pane, "on", on, sizeof(on)));
	else
		snprintf(buf, size, "no memory events with an address%s (PyTorch 1.10 and later "
			 "record them)", of_device(pane, "on", on, sizeof(on)));
}

static void ev_release(struct pane *pane)
{
	struct ev_priv *ep = pane->priv;

	if (!ep)
		return;
	mem_event_rows_release(&ep->events);
	free(ep->rows);
	free(ep);
}

static const char *const ev_aliases[] = { "memory-events", NULL };

const struct pane_ops memory_events_pane_ops = {
	.id = PANE_MEMORY_EVENTS, .flags = PANE_PRINTABLE, .aliases = ev_aliases,
	.load = ev_load, .row_name = ev_name, .empty_text = ev_empty,
	.needs_trace = pane_empty_of_summary, .release = ev_release,
};
