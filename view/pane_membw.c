// SPDX-License-Identifier: MIT
/*
 * Memory bandwidth: the GPU's memory copies and sets by kind
 * (model/mem_bw.c), with the bytes they moved, the time they took and
 * the GB/s that makes, as nsys stats gives copies; one row per kind,
 * over the whole trace.  --print memory-bandwidth prints it; times in
 * the JSON are microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/mem_bw.h"
#include "../model/util.h"
#include "pane.h"

struct membw_row {
	const struct mem_bw_kind *k;
	char *name;			/* heap: the kind, NUL-ended */
};

struct membw_priv {
	struct mem_bw b;
	struct membw_row *rows;
};

#define MR(r) ((const struct membw_row *)(r))

static struct cell get_kind(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(MR(row)->name);
}

static struct cell get_count(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane;
	return cell_int((int64_t)(c->arg ? MR(row)->k->nr_sized : MR(row)->k->count));
}

static struct cell get_bytes(const struct pane *pane, const void *row, const struct column *c)
{
	const struct mem_bw_kind *k = MR(row)->k;

	(void)pane;
	if (!k->nr_sized)
		return cell_none();
	switch (c->arg) {
	case 0:
		return cell_int(k->bytes);
	case 1:
		return cell_int(k->min_bytes);
	default:
		return cell_int(k->max_bytes);
	}
}

static struct cell get_mean_bytes(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_real(MR(row)->k->mean_bytes);
}

static struct cell get_time(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(MR(row)->k->time_ns);
}

static struct cell get_gbps(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_real(MR(row)->k->gbps);
}

static const struct column membw_cols[] = {
	{ .key = "kind", .title = "Kind", .kind = COL_NAME, .get = get_kind,
	  .help = "the copies' or sets' name before \" (\": Memcpy HtoD, DtoH, DtoD, PtoP..., "
		  "Memset (every memcpy and memset event of the trace, launched or not)" },
	{ .key = "count", .title = "Count", .kind = COL_COUNT, .width = 7, .get = get_count,
	  .help = "the events of the kind" },
	{ .key = "time", .json_key = "time", .title = "Time", .kind = COL_TIME, .width = 11,
	  .get = get_time, .help = "the sum of their durations" },
	{ .key = "bytes", .title = "Bytes", .kind = COL_BYTES, .width = 11, .get = get_bytes,
	  .arg = 0,
	  .help = "the sum of their \"bytes\" args (empty: no event of the kind gives one)" },
	{ .key = "gb_per_s", .title = "GB/s", .kind = COL_REAL, .width = 9, .get = get_gbps,
	  .help = "bytes over the time of the events that give their bytes: 10^9 bytes per "
		  "second (nsys stats' figure; HTA's summary describes the events' own "
		  "bandwidth args instead)" },
	{ .key = "sized", .title = "Sized", .kind = COL_COUNT, .width = 7, .get = get_count,
	  .arg = 1, .help = "the events that give their bytes" },
	{ .key = "min_bytes", .title = "Min", .kind = COL_BYTES, .width = 11, .get = get_bytes,
	  .arg = 1, .help = "the fewest bytes of one event" },
	{ .key = "max_bytes", .title = "Max", .kind = COL_BYTES, .width = 11, .get = get_bytes,
	  .arg = 2, .help = "the most bytes of one event" },
	{ .key = "mean_bytes", .title = "Mean bytes", .kind = COL_REAL, .width = 12,
	  .get = get_mean_bytes, .help = "the bytes per sized event" },
};

static void membw_load(struct pane *pane)
{
	struct membw_priv *mp = xcalloc(1, sizeof(*mp));
	struct mem_bw_options o;

	pane->priv = mp;
	mem_bw_options_default(&o);
	o.has_range = pane->scope.has_range;
	o.range_start_ns = pane->scope.range_start_ns;
	o.range_end_ns = pane->scope.range_end_ns;
	mem_bw_compute(pane->prof, &o, &mp->b);
	mp->rows = xcalloc(mp->b.nr_kinds + 1, sizeof(*mp->rows));
	pane->rows = xmalloc((mp->b.nr_kinds + 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < mp->b.nr_kinds; i++) {
		const struct mem_bw_kind *k = &mp->b.kinds[i];

		mp->rows[i].k = k;
		mp->rows[i].name = xstrndup(k->name, k->name_len);
		pane->rows[i] = &mp->rows[i];
	}
	pane->nr_rows = mp->b.nr_kinds;
	for (size_t i = 0; i < ARRAY_SIZE(membw_cols); i++)
		pane_add_column(pane, &membw_cols[i]);
	pane->sort_col = -1;	/* kinds by name */
}

static const char *membw_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return MR(row)->name;
}

static void membw_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "Memory bandwidth needs the trace: a summary holds no copies");
	else
		snprintf(buf, size, "no memory copy or set %s",
			 pane->scope.has_range ? "starts in the range" : "in this profile");
}

static void membw_release_pane(struct pane *pane)
{
	struct membw_priv *mp = pane->priv;

	if (!mp)
		return;
	for (size_t i = 0; i < mp->b.nr_kinds; i++)
		free(mp->rows[i].name);
	mem_bw_release(&mp->b);
	free(mp->rows);
	free(mp);
}

static const char *const membw_aliases[] = { "memory-bandwidth", NULL };

const struct pane_ops memory_bandwidth_pane_ops = {
	.id = PANE_MEMORY_BANDWIDTH, .flags = PANE_PRINTABLE | PANE_FOLLOWS_RANGE, .aliases = membw_aliases,
	.load = membw_load, .row_name = membw_name, .empty_text = membw_empty,
	.needs_trace = pane_empty_of_summary, .release = membw_release_pane,
};
