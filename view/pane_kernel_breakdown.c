// SPDX-License-Identifier: MIT
/*
 * Kernels by type: the GPU work by type and kernel -- Holistic Trace
 * Analysis's per-kernel tables of get_gpu_kernel_breakdown (kernel_all:
 * every kernel, nothing folded), computed by model/kernel_breakdown.c
 * from the trace's own events in nanoseconds, over the whole trace or the
 * step chosen.  One row per rank, type and full kernel name (the
 * profile's rank, or across the ranks of a job every rank's), by type,
 * then the largest total first; opened from a row of Kernel types, only
 * the types that row names.  --print kernel-breakdown prints every type; the JSON's
 * times are microseconds under HTA's column names.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/kernel_breakdown.h"
#include "../model/profset.h"
#include "../model/util.h"
#include "pane.h"

struct kb_row {
	const struct kbreak_row *r;
	char rank[24];
	size_t member;		/* its profile's place in the job */
};

struct kb_priv {
	struct kbreak *b;	/* per profile */
	size_t nr_b;
	struct kb_row *rows;
	unsigned types;		/* the kernel_type bits shown; 0: every type */
};

#define KR(row) (((const struct kb_row *)(row))->r)

static struct cell get_rank(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(((const struct kb_row *)row)->rank);
}

static struct cell get_time(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t v;

	(void)pane;
	memcpy(&v, (const char *)KR(row) + c->arg, sizeof(v));
	return cell_int(v);
}

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
	  .get = get_time, .arg = (int)offsetof(struct kbreak_row, field), .help = what }

static const struct column kb_cols[] = {
	{ .key = "rank", .title = "Rank", .kind = COL_TEXT, .width = 4, .get = get_rank,
	  .help = "the trace's rank (its distributedInfo; across ranks, as the Ranks pane "
		  "shows it), - when it names none" },
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

/* By type, the largest total first, equal totals by name, then rank. */
static int cmp_rows(const void *a, const void *b)
{
	const struct kb_row *x = a, *y = b;
	unsigned xt = kbreak_type_rank(x->r->type), yt = kbreak_type_rank(y->r->type);
	int c;

	if (xt != yt)
		return xt < yt ? -1 : 1;
	if (x->r->sum_ns != y->r->sum_ns)
		return x->r->sum_ns > y->r->sum_ns ? -1 : 1;
	if ((c = strcmp(x->r->name, y->r->name)))
		return c;
	return (x->member > y->member) - (x->member < y->member);
}

static void kb_load(struct pane *pane)
{
	struct kb_priv *kp = xcalloc(1, sizeof(*kp));
	const struct profset *set = pane->scope.set;
	bool across = set && set->kind == PROFSET_RANKS && !pane->scope.per_rank;
	size_t n = across ? set->nr : 1, nr = 0;

	pane->priv = kp;
	pane->nr_capped = 0;	/* a step reloads the pane */
	if (pane->scope.arg)
		kp->types = *(const unsigned *)pane->scope.arg;
	kp->b = xcalloc(n, sizeof(*kp->b));
	kp->nr_b = n;
	for (size_t i = 0; i < n; i++) {
		const struct profile *q = across ? profile_run(set->members[i].prof, pane->scope.run)
					  : pane->prof;
		struct kbreak_opts o = KBREAK_OPTS_ALL;

		if (!q)
			continue;
		o.t = temporal_opts_for_step(q, pane->scope.step);
		if (pane->scope.has_range)
			temporal_opts_narrow(&o.t, pane->scope.range_start_ns,
					     pane->scope.range_end_ns);
		kbreak_compute(q, &o, &kp->b[i]);
		pane->nr_capped += kp->b[i].nr_capped;
		nr += kp->b[i].nr;
	}
	kp->rows = xcalloc(nr + 1, sizeof(*kp->rows));
	nr = 0;
	for (size_t i = 0; i < n; i++) {
		const struct profile *p = pane->prof;
		long rank = across ? profset_shown_rank(set, i)
			    : p->dist.present && p->dist.rank >= 0 ? (long)p->dist.rank : -1;

		for (size_t k = 0; k < kp->b[i].nr; k++) {
			struct kb_row *r = &kp->rows[nr];

			if (kp->types && !(kp->b[i].rows[k].type & kp->types))
				continue;
			r->r = &kp->b[i].rows[k];
			r->member = i;
			if (rank >= 0)
				snprintf(r->rank, sizeof(r->rank), "%ld", rank);
			else
				snprintf(r->rank, sizeof(r->rank), "-");
			nr++;
		}
	}
	qsort(kp->rows, nr, sizeof(*kp->rows), cmp_rows);
	pane->rows = xmalloc((nr + 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < nr; i++)
		pane->rows[i] = &kp->rows[i];
	pane->nr_rows = nr;
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
		snprintf(buf, size, "no timed kernel, copy or set on a GPU stream%s%s",
			 pane->priv && ((const struct kb_priv *)pane->priv)->types ? " of these types"
										    : "",
			 pane->scope.has_range ? " in the range" : "");
}

static void kb_release(struct pane *pane)
{
	struct kb_priv *kp = pane->priv;

	if (!kp)
		return;
	for (size_t i = 0; i < kp->nr_b; i++)
		kbreak_release(&kp->b[i]);
	free(kp->b);
	free(kp->rows);
	free(kp);
	pane->priv = NULL;
}

static const char *const kb_aliases[] = { "kernel-breakdown", NULL };

const struct pane_ops kernel_breakdown_pane_ops = {
	.id = PANE_KERNEL_BREAKDOWN, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE,
	.aliases = kb_aliases, .load = kb_load, .row_name = kb_name, .empty_text = kb_empty,
	.needs_trace = pane_empty_of_summary, .release = kb_release,
};
