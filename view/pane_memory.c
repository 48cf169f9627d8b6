// SPDX-License-Identifier: MIT
/*
 * The Memory pane: torch-tb-profiler's Memory view for traces recorded
 * with profile_memory=True.  Above, the curve of one device's allocated
 * and reserved memory over time (view/chart.c), with its peak, a cursor
 * whose values the top line reads (h, l), and a zoom (+, -, z) that, as
 * the plugin's drag-to-zoom, narrows the table to the time shown; [ and ]
 * pick the device.  Below, the statistics per operator (model/memory.c):
 * calls, size increase and allocation count and size, with and without
 * the children.  Enter on an op shows its allocations and releases, v
 * all of them, on the device shown (pane_memory_events.c).  A step
 * picked with [ ] elsewhere zooms to it.
 *
 * For a key_averages table (no memory events, but memory columns), the
 * pane lists the ops with those four columns instead.
 *
 * --print memory lists every device's rows; the JSON keys are the
 * plugin's columns, sizes in KB.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/aggregate.h"
#include "../model/memory.h"
#include "../model/util.h"
#include "chart.h"
#include "pane.h"
#include "pane_agg.h"

struct mem_priv {
	struct mem_device *devices;	/* mem_devices()' */
	size_t nr_devices, device;	/* the device shown */
	struct mem_curves curves;	/* every device's, whole */
	int64_t t_first, t_last;	/* all events' span */
	int64_t t0, t1, cursor;		/* the window shown, the cursor's time */
	bool zoomed;
	struct mem_stats stats;
	char (*dev_names)[MEM_DEVICE_NAME_SIZE];	/* each device's, by its index */
	bool key_averages;		/* a table's memory columns instead */
};

#define STAT(r) ((const struct mem_stat *)(r))

static const char *dev_name(const struct mem_priv *mp, struct mem_device device)
{
	size_t i = mem_device_index(mp->devices, mp->nr_devices, device);

	return i < mp->nr_devices ? mp->dev_names[i] : "?";
}

/* ---------------------------------------------------------------------
 * Columns
 */

static struct cell get_device(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(dev_name(pane->priv, STAT(row)->device));
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(STAT(row)->name);
}

static struct cell get_calls(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)STAT(row)->calls);
}

/* A size field (the column's arg is its offset) in KB, as the plugin. */
static struct cell get_kb(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t v;

	(void)pane;
	memcpy(&v, (const char *)row + c->arg, sizeof(v));
	return sum_capped(v) ? cell_real_capped((double)v / 1024) : cell_real((double)v / 1024);
}

#define KB(field) .kind = COL_FIXED, .width = 11, .get = get_kb, .arg = offsetof(struct mem_stat, field)
#define COUNT(field) .kind = COL_COUNT, .width = 7, .get = pane_get_i64, \
	.arg = offsetof(struct mem_stat, field)

static const struct column stat_cols[] = {
	{ .key = "device", .title = "Device", .kind = COL_TEXT, .width = 6, .get = get_device,
	  .help = "where the memory is: CPU, GPU0 (CUDA's), or c10's device type and index: "
		  "HIP0, XPU0, MTIA0..." },
	{ .key = "name", .title = "Operator", .kind = COL_NAME, .get = get_name,
	  .help = "the op the memory events happened in (torch-tb-profiler's rule: the "
		  "innermost op of the thread whose time holds the event)" },
	{ .key = "calls", .title = "Calls", .kind = COL_COUNT, .width = 6, .get = get_calls,
	  .help = "calls of the op the plugin's walk reached: it goes into a node's children only "
		  "when the node holds a memory event, so calls elsewhere are not counted" },
	{ .key = "size_increase_kb", .title = "Size inc KB", KB(size_increase),
	  .help = "bytes allocated minus freed in the op and the ops it called, in KB" },
	{ .key = "self_size_increase_kb", .title = "Self inc KB", KB(self_size_increase),
	  .help = "bytes allocated minus freed in the op itself, in KB" },
	{ .key = "allocation_count", .title = "Allocs", COUNT(alloc_count),
	  .help = "allocations in the op and the ops it called" },
	{ .key = "self_allocation_count", .title = "Self allocs", COUNT(self_alloc_count),
	  .help = "allocations in the op itself" },
	{ .key = "allocation_size_kb", .title = "Alloc KB", KB(alloc_size),
	  .help = "bytes allocated in the op and the ops it called (frees not counted), in KB" },
	{ .key = "self_allocation_size_kb", .title = "Self alloc KB", KB(self_alloc_size),
	  .help = "bytes allocated in the op itself (frees not counted), in KB" },
};

/* ---------------------------------------------------------------------
 * Loading
 */

static const struct mem_curve *curve_of(const struct mem_priv *mp)
{
	for (size_t i = 0; i < mp->curves.nr; i++)
		if (mp->nr_devices && mem_device_eq(mp->curves.curves[i].device, mp->devices[mp->device]))
			return &mp->curves.curves[i];
	return NULL;
}

/* The cursor starts on the device's peak: the moment worth reading. */
static void cursor_to_peak(struct mem_priv *mp)
{
	const struct mem_curve *cv = curve_of(mp);
	int64_t best = -1;

	for (size_t i = 0; cv && i < cv->nr; i++) {
		if (cv->points[i].allocated > best && cv->points[i].ts_ns >= mp->t0 &&
		    cv->points[i].ts_ns <= mp->t1) {
			best = cv->points[i].allocated;
			mp->cursor = cv->points[i].ts_ns;
		}
	}
}

/* The rows: the statistics of the window, of the device shown (every
 * device when printing). */
static void stat_rows(struct pane *pane)
{
	struct mem_priv *mp = pane->priv;
	struct mem_range r = { mp->zoomed, mp->t0, mp->t1 };
	size_t n = 0;

	/* The pane's count of capped sums, with this window's for the last. */
	pane->nr_capped -= mp->stats.nr_capped;
	mem_stats_release(&mp->stats);
	mem_stats(pane->prof, &r, &mp->stats);
	pane->nr_capped += mp->stats.nr_capped;
	free(pane->rows);
	pane->rows = xmalloc((mp->stats.nr ? mp->stats.nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < mp->stats.nr; i++)
		if (pane->scope.expand_all || !mp->nr_devices ||
		    mem_device_eq(mp->stats.rows[i].device, mp->devices[mp->device]))
			pane->rows[n++] = &mp->stats.rows[i];
	pane->nr_rows = n;
}

static void title(struct pane *pane)
{
	struct mem_priv *mp = pane->priv;
	char buf[128];

	if (mp->key_averages || pane->scope.expand_all || !mp->nr_devices)
		snprintf(buf, sizeof(buf), "Memory");
	else if (mp->zoomed)
		snprintf(buf, sizeof(buf), "Memory of %s, %.3f-%.3f ms", mp->dev_names[mp->device],
			 (double)(mp->t0 - pane->prof->time_origin_ns) / 1e6,
			 (double)(mp->t1 - pane->prof->time_origin_ns) / 1e6);
	else
		snprintf(buf, sizeof(buf), "Memory of %s", mp->dev_names[mp->device]);
	free(pane->title);
	pane->title = xstrdup(buf);
}

/* A key_averages table: its ops' memory columns. */
static const char *const mem_keys[] = { "cpu_mem_bytes", "self_cpu_mem_bytes",
					"device_mem_bytes", "self_device_mem_bytes" };

static bool has_mem_columns(const struct agg *a)
{
	for (size_t i = 0; i < a->nr; i++)
		for (size_t k = 0; k < ARRAY_SIZE(mem_keys); k++)
			if (a->rows[i].nr_nodes == 1 && attr_find(node_attrs(a->rows[i].first), mem_keys[k]))
				return true;
	return false;
}

static struct cell get_mem_attr(const struct pane *pane, const void *row, const struct column *c)
{
	const struct agg_row *r = row;
	const struct attr *a = r->nr_nodes == 1 ? attr_find(node_attrs(r->first), c->attr) : NULL;

	(void)pane;
	return a && attr_type(a) == ATTR_INT ? cell_int(a->v.i) : cell_none();
}

static const struct column table_cols[] = {
	{ .key = "name", .title = "Name", .kind = COL_NAME, .get = NULL,
	  .help = "the op as the table names it" },
	{ .key = "cpu_mem_bytes", .title = "CPU Mem", .kind = COL_BYTES, .width = 10,
	  .get = get_mem_attr, .attr = "cpu_mem_bytes",
	  .help = "the table's CPU Mem: memory the op and its children allocated on the CPU" },
	{ .key = "self_cpu_mem_bytes", .title = "Self CPU Mem", .kind = COL_BYTES, .width = 12,
	  .get = get_mem_attr, .attr = "self_cpu_mem_bytes",
	  .help = "the table's Self CPU Mem: what the op itself allocated on the CPU" },
	{ .key = "device_mem_bytes", .title = "CUDA Mem", .kind = COL_BYTES, .width = 10,
	  .get = get_mem_attr, .attr = "device_mem_bytes",
	  .help = "the table's CUDA Mem: memory the op and its children allocated on the device" },
	{ .key = "self_device_mem_bytes", .title = "Self CUDA Mem", .kind = COL_BYTES, .width = 13,
	  .get = get_mem_attr, .attr = "self_device_mem_bytes",
	  .help = "the table's Self CUDA Mem: what the op itself allocated on the device" },
};

static struct cell get_agg_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(((const struct agg_row *)row)->name);
}

static void load_key_averages(struct pane *pane)
{
	struct mem_priv *mp = pane->priv;

	agg_ops(pane->prof, NULL, &pane->agg);
	if (!has_mem_columns(&pane->agg))
		return;
	mp->key_averages = true;
	agg_pane_rows(pane);
	for (size_t i = 0; i < ARRAY_SIZE(table_cols); i++) {
		struct column c = table_cols[i];

		if (!c.get)
			c.get = get_agg_name;
		pane_add_column(pane, &c);
	}
	pane->sort_col = pane_column(pane, "self_device_mem_bytes");
	pane->sort_desc = true;
}

static void mem_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct mem_priv *mp = xcalloc(1, sizeof(*mp));

	pane->priv = mp;
	if (!p->nr_mem_events) {
		load_key_averages(pane);
		if (!mp->key_averages) {
			pane->rows = xmalloc(sizeof(*pane->rows));
			for (size_t i = 0; i < ARRAY_SIZE(stat_cols); i++)
				pane_add_column(pane, &stat_cols[i]);
		}
		title(pane);
		return;
	}
	mp->devices = mem_devices(p, &mp->nr_devices);
	mp->dev_names = xmalloc((mp->nr_devices ? mp->nr_devices : 1) * sizeof(*mp->dev_names));
	for (size_t i = 0; i < mp->nr_devices; i++)
		mem_device_name(mp->devices[i], mp->dev_names[i], sizeof(mp->dev_names[i]));
	mem_curves(p, NULL, &mp->curves);
	mp->t_first = INT64_MAX;
	mp->t_last = INT64_MIN;
	for (size_t i = 0; i < p->nr_mem_events; i++) {
		if (p->mem_events[i].ts_ns < mp->t_first)
			mp->t_first = p->mem_events[i].ts_ns;
		if (p->mem_events[i].ts_ns > mp->t_last)
			mp->t_last = p->mem_events[i].ts_ns;
	}
	if (mp->t_last <= mp->t_first)
		mp->t_last = mp->t_first + 1;
	mp->t0 = mp->t_first;
	mp->t1 = mp->t_last;
	/* A range given from outside (--step, a drill) zooms. */
	if (pane->scope.has_range) {
		mp->t0 = pane->scope.range_start_ns;
		mp->t1 = pane->scope.range_end_ns;
		mp->zoomed = true;
	}
	mp->cursor = mp->t0;
	cursor_to_peak(mp);
	stat_rows(pane);
	for (size_t i = 0; i < ARRAY_SIZE(stat_cols); i++)
		pane_add_column(pane, &stat_cols[i]);
	pane->sort_col = pane_column(pane, "self_size_increase_kb");
	pane->sort_desc = true;
	title(pane);
}

/* ---------------------------------------------------------------------
 * Zoom, device, cursor
 */

static void refresh(struct pane *pane)
{
	struct mem_priv *mp = pane->priv;

	char *sel = pane->nr_view ? xstrdup(pane_row_name(pane, pane_row(pane, pane->cursor))) : NULL;

	if (mp->cursor < mp->t0 || mp->cursor > mp->t1)
		mp->cursor = mp->t0 + (mp->t1 - mp->t0) / 2;
	/* The rows are remade: the view indexes the old ones. */
	pane->nr_view = 0;
	stat_rows(pane);
	title(pane);
	pane_rebuild(pane);
	/* The cursor stays on its op when the new rows have it. */
	for (size_t i = 0; sel && i < pane->nr_view; i++)
		if (!strcmp(pane_row_name(pane, pane_row(pane, i)), sel)) {
			pane->cursor = i;
			break;
		}
	free(sel);
}

/* Show [T0, T1] (clipped to the events' span). */
static void zoom_to(struct pane *pane, int64_t t0, int64_t t1)
{
	struct mem_priv *mp = pane->priv;

	if (t0 < mp->t_first)
		t0 = mp->t_first;
	if (t1 > mp->t_last)
		t1 = mp->t_last;
	if (t1 <= t0)
		t1 = t0 + 1;
	mp->t0 = t0;
	mp->t1 = t1;
	mp->zoomed = t0 > mp->t_first || t1 < mp->t_last;
	refresh(pane);
}

static bool mem_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct mem_priv *mp = pane->priv;
	int64_t w, step;

	if (!mp->nr_devices)
		return false;
	w = mp->t1 - mp->t0;
	/* The cursor moves about a column of an 80-cell chart. */
	step = w / 64 > 0 ? w / 64 : 1;
	switch (act) {
	case ACT_DEVICE_PREV:
	case ACT_DEVICE_NEXT:
		if (mp->nr_devices < 2) {
			req->message = "the memory events are on one device";
			req->is_error = true;
			return true;
		}
		mp->device = (mp->device + mp->nr_devices + (act == ACT_DEVICE_NEXT ? 1 : -1)) %
			     mp->nr_devices;
		cursor_to_peak(mp);
		refresh(pane);
		return true;
	case ACT_CHART_LEFT:
	case ACT_CHART_RIGHT:
		mp->cursor += act == ACT_CHART_RIGHT ? step : -step;
		if (mp->cursor < mp->t0)
			mp->cursor = mp->t0;
		if (mp->cursor > mp->t1)
			mp->cursor = mp->t1;
		return true;
	case ACT_ZOOM_IN:
		if (w < 4) {
			req->message = "zoomed in as far as it goes";
			return true;
		}
		zoom_to(pane, mp->cursor - w / 4, mp->cursor + w / 4);
		return true;
	case ACT_ZOOM_OUT:
		zoom_to(pane, mp->t0 - w / 2, mp->t1 + w / 2);
		return true;
	case ACT_ZOOM_ALL:
		zoom_to(pane, mp->t_first, mp->t_last);
		return true;
	default:
		return false;
	}
}

/* A step picked: the window becomes its time (all of it again when
 * none is picked). */
static void mem_step_changed(struct pane *pane)
{
	struct mem_priv *mp = pane->priv;
	const struct step *s = pane->scope.step;

	if (!mp->nr_devices)
		return;
	if (s && s->end_ns > s->start_ns)
		zoom_to(pane, s->start_ns, s->end_ns);
	else
		zoom_to(pane, mp->t_first, mp->t_last);
}

static size_t mem_chart(const struct pane *pane, int width, int height, bool utf8,
			struct canvas *out)
{
	const struct mem_priv *mp = pane->priv;
	const struct mem_curve *cv = curve_of(mp);
	struct chart_input in = { 0 };
	int64_t *t, *y1, *y2;
	size_t n;

	if (!cv || !cv->nr)
		return 0;
	n = cv->nr;
	t = xmalloc(n * sizeof(*t));
	y1 = xmalloc(n * sizeof(*y1));
	y2 = xmalloc(n * sizeof(*y2));
	for (size_t i = 0; i < n; i++) {
		t[i] = cv->points[i].ts_ns;
		y1[i] = cv->points[i].allocated;
		y2[i] = cv->points[i].reserved;
	}
	in.title = mp->dev_names[mp->device];
	in.t = t;
	in.y1 = y1;
	in.y2 = y2;
	in.n = n;
	in.t0 = mp->t0;
	in.t1 = mp->t1;
	in.origin = pane->prof->has_time_origin ? pane->prof->time_origin_ns : mp->t_first;
	in.cursor = mp->cursor;
	in.y1_name = "allocated";
	in.y2_name = "reserved";
	n = chart_render(&in, width, height, utf8, out);
	free(t);
	free(y1);
	free(y2);
	return n;
}

/* Enter: the op's allocations and releases on the row's device, in the
 * time shown. */
static enum pane_id mem_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	const struct mem_priv *mp = pane->priv;

	if (mp->key_averages)
		return PANE_NONE;
	scope->drill_name = STAT(row)->name;
	scope->has_device = true;
	scope->device = STAT(row)->device;
	scope->has_range = mp->zoomed;
	scope->range_start_ns = mp->t0;
	scope->range_end_ns = mp->t1;
	return PANE_MEMORY_EVENTS;
}

static const char *mem_row_name(const struct pane *pane, const void *row)
{
	const struct mem_priv *mp = pane->priv;

	return mp->key_averages ? ((const struct agg_row *)row)->name : STAT(row)->name;
}

static const struct attr *mem_attrs(const struct pane *pane, const void *row)
{
	(void)pane, (void)row;
	return NULL;
}

static void mem_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "the Memory pane needs the trace: a summary holds no memory "
				    "events");
	else
		snprintf(buf, size, "no memory events (record with profile_memory=True) and no "
				    "memory columns");
}

static void mem_status(const struct pane *pane, char *buf, size_t size)
{
	const struct mem_priv *mp = pane->priv;

	buf[0] = '\0';
	if (mp->nr_devices > 1)
		snprintf(buf, size, "[ ] device %zu/%zu ", mp->device + 1, mp->nr_devices);
}

static void mem_release(struct pane *pane)
{
	struct mem_priv *mp = pane->priv;

	if (!mp)
		return;
	mem_stats_release(&mp->stats);
	mem_curves_release(&mp->curves);
	free(mp->devices);
	free(mp->dev_names);
	free(mp);
}

/* v: every allocation and release of the device shown, in the time
 * shown, over this pane. */
static bool mem_handle_all(struct pane *pane, enum action act, struct pane_request *req)
{
	const struct mem_priv *mp = pane->priv;

	if (act != ACT_TOGGLE_VIEW)
		return mem_handle(pane, act, req);
	if (!mp->nr_devices) {
		req->message = "no memory events";
		req->is_error = true;
		return true;
	}
	req->open = true;
	req->open_pane = PANE_MEMORY_EVENTS;
	req->open_scope.has_device = true;
	req->open_scope.device = mp->devices[mp->device];
	req->open_scope.has_range = mp->zoomed;
	req->open_scope.range_start_ns = mp->t0;
	req->open_scope.range_end_ns = mp->t1;
	return true;
}

static const enum action mem_hints[] = {
	ACT_HELP, ACT_CHART_RIGHT, ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_DEVICE_NEXT, ACT_DRILL,
	ACT_BACK, ACT_NONE,
};

static const char *const mem_aliases[] = { "memory-stats", NULL };

/* The actions handle() takes. */
static const enum action mem_actions[] = {
	ACT_DEVICE_PREV, ACT_DEVICE_NEXT, ACT_CHART_LEFT, ACT_CHART_RIGHT, ACT_ZOOM_IN,
	ACT_ZOOM_OUT, ACT_ZOOM_ALL, ACT_TOGGLE_VIEW, ACT_NONE,
};

static const struct pane_picture_ops mem_picture = { .chart = mem_chart };
static const struct pane_text_ops mem_text = { .status = mem_status, .hints = mem_hints };

const struct pane_ops memory_pane_ops = {
	.id = PANE_MEMORY, .flags = PANE_FOLLOWS_RANGE, .aliases = mem_aliases, .available = pane_one_profile,
	.load = mem_load, .row_name = mem_row_name, .row_attrs = mem_attrs,
	.drill = mem_drill, .handle = mem_handle_all, .actions = mem_actions,
	.step_changed = mem_step_changed,
	.empty_text = mem_empty, .needs_trace = pane_empty_of_summary,
	.release = mem_release, .picture = &mem_picture, .text = &mem_text,
};
