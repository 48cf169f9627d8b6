// SPDX-License-Identifier: MIT
/*
 * The Comm ops pane: torch-tb-profiler's Communication Operations Stats,
 * one row per collective name and rank: calls, bytes, latency (the union
 * of the calls' kernels and host events) and data transfer time (the part
 * not spent waiting for other ranks; model/distributed.h), each in total
 * and per call.  With one rank opened alone, that rank's rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/distributed.h"
#include "../model/profset.h"
#include "../model/util.h"
#include "pane_ranks.h"

struct comm_row {
	struct comm_op op;
	size_t member;
};

struct comm_priv {
	struct rank_set rs;
	struct comm_row *rows;
	size_t nr_rows;
	const char *why_no_wait;
};

#define CROW(r) ((const struct comm_row *)(r))

static const char *comm_row_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return CROW(row)->op.name;
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(comm_row_name(pane, row));
}

static struct cell get_worker(const struct pane *pane, const void *row, const struct column *c)
{
	const struct comm_priv *cp = pane->priv;

	(void)c;
	return cell_text(cp->rs.labels[CROW(row)->member]);
}

static struct cell get_rank(const struct pane *pane, const void *row, const struct column *c)
{
	const struct comm_priv *cp = pane->priv;

	(void)c;
	long rank = cp->rs.ranks[CROW(row)->member];

	return rank >= 0 ? cell_int(rank) : cell_none();
}

static struct cell get_calls(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)CROW(row)->op.calls);
}

/* c->arg: 0 size, 1 latency, 2 data transfer; c->attr non-NULL: per call. */
static struct cell get_value(const struct pane *pane, const void *row, const struct column *c)
{
	const struct comm_priv *cp = pane->priv;
	const struct comm_op *op = &CROW(row)->op;
	int64_t v = c->arg == 0 ? op->size_bytes : c->arg == 1 ? op->latency_ns : op->transfer_ns;

	if (v < 0 || (c->arg == 2 && cp->why_no_wait))
		return cell_none();
	if (c->attr && op->calls)
		v = div_round(v, op->calls);
	return cell_int(v);
}

static const struct column cols[] = {
	{ .key = "name", .title = "Name", .kind = COL_NAME, .get = get_name,
	  .help = "the collective (torch-tb-profiler's NCCL and Gloo ops)" },
	{ .key = "worker", .title = "Worker", .kind = COL_TEXT, .width = 16, .get = get_worker,
	  .help = "the rank's worker" },
	{ .key = "rank", .title = "Rank", .kind = COL_COUNT, .width = 5, .get = get_rank,
	  .help = "its rank" },
	{ .key = "calls", .title = "Calls", .kind = COL_COUNT, .width = 6, .get = get_calls,
	  .help = "how many times the rank called it" },
	{ .key = "total_size_bytes", .title = "Size", .kind = COL_BYTES, .width = 10,
	  .get = get_value, .arg = 0,
	  .help = "the bytes of its inputs (Input Dims x element size), summed over the calls; "
		  "none when the trace does not give them" },
	{ .key = "avg_size_bytes", .title = "Size/call", .kind = COL_BYTES, .width = 10,
	  .get = get_value, .arg = 0, .attr = "per call", .help = "the same per call" },
	{ .key = "total_latency", .title = "Latency", .kind = COL_TIME, .width = 10, .get = get_value,
	  .arg = 1,
	  .help = "the union of the calls' host events and the kernels they launched" },
	{ .key = "avg_latency", .title = "Lat/call", .kind = COL_TIME, .width = 10, .get = get_value,
	  .arg = 1, .attr = "per call", .help = "the same per call" },
	{ .key = "data_transfer", .title = "Transfer", .kind = COL_TIME, .width = 10,
	  .get = get_value, .arg = 2,
	  .help = "of the latency, the time moving data: per transfer, the shortest it took on "
		  "any rank; the rest is waiting" },
	{ .key = "avg_data_transfer", .title = "Xfer/call", .kind = COL_TIME, .width = 10,
	  .get = get_value, .arg = 2, .attr = "per call", .help = "the same per call" },
};

static void comm_load(struct pane *pane)
{
	struct comm_priv *cp = xcalloc(1, sizeof(*cp));
	size_t n, alloc = 0;
	struct rank_local *local;
	const struct rank_local **lp;
	struct rank_dist *dist;

	pane->priv = cp;
	n = rank_set_of(pane, &cp->rs);
	local = xcalloc(n, sizeof(*local));
	lp = xcalloc(n, sizeof(*lp));
	dist = xcalloc(n, sizeof(*dist));
	for (size_t m = 0; m < n; m++) {
		rank_local_of(cp->rs.profs[m], &local[m]);
		lp[m] = &local[m];
	}
	if (rank_dist_compute(lp, n, dist, &cp->why_no_wait) || n == 1)
		cp->why_no_wait = NULL;	/* one rank: what it did is what it did */
	for (size_t m = 0; m < n; m++) {
		/* One rank shown alone: its rows (the figures still are the
		 * job's). */
		if (pane->scope.per_rank && cp->rs.profs[m] != pane->prof)
			continue;
		for (size_t i = 0; i < dist[m].nr_ops; i++) {
			GROW(cp->rows, alloc, cp->nr_rows + 1);
			cp->rows[cp->nr_rows].op = dist[m].ops[i];
			cp->rows[cp->nr_rows].member = m;
			cp->nr_rows++;
		}
	}
	for (size_t m = 0; m < n; m++) {
		rank_dist_release(&dist[m]);
		rank_local_release(&local[m]);
	}
	free(dist);
	free(lp);
	free(local);
	pane->rows = xmalloc((cp->nr_rows ? cp->nr_rows : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < cp->nr_rows; i++)
		pane->rows[i] = &cp->rows[i];
	pane->nr_rows = cp->nr_rows;
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		if (n > 1 || (strcmp(cols[c].key, "worker") && strcmp(cols[c].key, "rank")))
			pane_add_column(pane, &cols[c]);
	pane->sort_col = -1;	/* by rank, then in call order */
}

static void comm_status(const struct pane *pane, char *buf, size_t size)
{
	const struct comm_priv *cp = pane->priv;

	if (cp->why_no_wait)
		snprintf(buf, size, "no transfer time: %s", cp->why_no_wait);
	else
		buf[0] = '\0';
}

static void comm_empty_text(const struct pane *pane, char *buf, size_t size)
{
	(void)pane;
	snprintf(buf, size, "no collective (nccl:/gloo: broadcast, reduce, all_reduce, all_gather, "
			    "reduce_scatter)");
}

/* A tab with the ranks of a job (one profile's collectives: --print comm). */
static bool comm_available(const struct profile *prof, const struct pane_scope *scope)
{
	(void)prof;
	return scope->set && scope->set->kind == PROFSET_RANKS;
}

static void comm_release(struct pane *pane)
{
	struct comm_priv *cp = pane->priv;

	if (!cp)
		return;
	rank_set_release(&cp->rs);
	free(cp->rows);
	free(cp);
}

static const char *const comm_aliases[] = { "comm-ops", "commops", "collectives", NULL };

static const struct pane_text_ops comm_text = { .status = comm_status };

const struct pane_ops comm_pane_ops = {
	.id = PANE_COMM, .aliases = comm_aliases, .available = comm_available,
	.load = comm_load, .row_name = comm_row_name, .empty_text = comm_empty_text,
	.release = comm_release, .text = &comm_text,
};
