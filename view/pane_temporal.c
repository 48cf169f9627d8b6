// SPDX-License-Identifier: MIT
/*
 * Temporal breakdown: how the GPU spent the trace's time -- Holistic
 * Trace Analysis's get_temporal_breakdown, computed by model/temporal.c
 * from the trace's own events in nanoseconds, over the whole trace.  One
 * row per rank, as HTA's table: the profile's (its rank when the trace
 * names it), or across the ranks of a job every rank's.  The Overview's
 * "GPU time" rows open it.  --print temporal; JSON keys are HTA's column
 * names in snake_case, times in µs.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/profset.h"
#include "../model/temporal.h"
#include "../model/util.h"
#include "pane.h"

struct tb_row {
	char rank[24];
	int64_t kernel_ns, idle_ns, compute_ns, non_compute_ns;
	bool capped;
};

#define ROW(r) ((const struct tb_row *)(r))

static struct cell get_rank(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->rank);
}

static struct cell get_pct(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t part;

	(void)pane;
	memcpy(&part, (const char *)row + c->arg, sizeof(part));
	return cell_real(temporal_pct(part, ROW(row)->kernel_ns));
}

#define TIME(field) .kind = COL_TIME, .width = 11, .get = pane_get_i64, \
	.arg = offsetof(struct tb_row, field)
#define PCT(field) .kind = COL_PCT, .width = 8, .get = get_pct, \
	.arg = offsetof(struct tb_row, field)

static const struct column tb_cols[] = {
	{ .key = "rank", .title = "Rank", .kind = COL_NAME, .get = get_rank,
	  .help = "the trace's rank (its distributedInfo; across ranks, as the Ranks pane "
		  "shows it), - when it names none" },
	{ .key = "kernel_time", .title = "Kernel time", TIME(kernel_ns),
	  .help = "end of the last GPU event - start of the first; GPU events: every kernel, "
		  "memcpy and memset on any stream of any device" },
	{ .key = "idle_time", .title = "Idle", TIME(idle_ns),
	  .help = "kernel time - the length of the union of all GPU events (touching ones merge)" },
	{ .key = "compute_time", .title = "Compute", TIME(compute_ns),
	  .help = "the length of the union of the GPU events of type COMPUTATION (Kernels' Type)" },
	{ .key = "non_compute_time", .title = "Non-compute", TIME(non_compute_ns),
	  .help = "kernel time - compute - idle: memory, communication and other GPU work "
		  "while no computation runs" },
	{ .key = "idle_time_pctg", .title = "Idle %", PCT(idle_ns),
	  .help = "idle time / kernel time" },
	{ .key = "compute_time_pctg", .title = "Compute %", PCT(compute_ns),
	  .help = "compute time / kernel time" },
	{ .key = "non_compute_time_pctg", .title = "Non-comp %", PCT(non_compute_ns),
	  .help = "non-compute time / kernel time" },
};

struct tb_priv {
	struct tb_row *rows;
	size_t nr;
};

/* P's row, with RANK (-1: none) at its head; false without GPU work. */
static bool fill(struct pane *pane, const struct profile *p, long rank, struct tb_row *r)
{
	struct temporal t;
	struct temporal_opts o = temporal_opts_for_step(p, pane->scope.step);

	if (pane->scope.has_range)
		temporal_opts_narrow(&o, pane->scope.range_start_ns, pane->scope.range_end_ns);
	temporal_compute(p, &o, &t);
	pane->nr_capped += t.nr_capped;
	if (!t.nr_events)
		return false;
	if (rank >= 0)
		snprintf(r->rank, sizeof(r->rank), "%ld", rank);
	else
		snprintf(r->rank, sizeof(r->rank), "-");
	r->kernel_ns = t.kernel_ns;
	r->idle_ns = t.idle_ns;
	r->compute_ns = t.compute_ns;
	r->non_compute_ns = t.non_compute_ns;
	return true;
}

static void tb_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	const struct profset *set = pane->scope.set;
	struct tb_priv *tp = xcalloc(1, sizeof(*tp));
	bool across = set && set->kind == PROFSET_RANKS && !pane->scope.per_rank;
	size_t n = across ? set->nr : 1;

	pane->priv = tp;
	pane->nr_capped = 0;	/* a step reloads the pane */
	tp->rows = xcalloc(n, sizeof(*tp->rows));
	pane->rows = xmalloc(n * sizeof(*pane->rows));
	for (size_t i = 0; i < ARRAY_SIZE(tb_cols); i++)
		pane_add_column(pane, &tb_cols[i]);
	pane->sort_col = -1;	/* the ranks' order */
	for (size_t i = 0; i < n; i++) {
		const struct profile *q = across ? profile_run(set->members[i].prof, pane->scope.run) : p;
		long rank = across ? profset_shown_rank(set, i)
			    : p->dist.present && p->dist.rank >= 0 ? (long)p->dist.rank : -1;

		if (q && fill(pane, q, rank, &tp->rows[tp->nr]))
			pane->rows[pane->nr_rows++] = &tp->rows[tp->nr++];
	}
}

static const char *tb_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->rank;
}

static void tb_empty(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "no timed GPU work (kernels, memcpy, memset) in this %s",
		 pane->scope.has_range ? "range" : "profile");
}

static void tb_release(struct pane *pane)
{
	struct tb_priv *tp = pane->priv;

	if (tp)
		free(tp->rows);
	free(tp);
	pane->priv = NULL;
}

static const char *const tb_aliases[] = { "temporal", "temporal-breakdown", NULL };

const struct pane_ops temporal_pane_ops = {
	.id = PANE_TEMPORAL, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE, .aliases = tb_aliases,
	.load = tb_load, .row_name = tb_name, .empty_text = tb_empty, .release = tb_release,
};
