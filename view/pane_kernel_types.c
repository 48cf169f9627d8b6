// SPDX-License-Identifier: MIT
/*
 * Kernel types: the GPU's time by which types of work run at once --
 * Holistic Trace Analysis's kernel_type table (get_gpu_kernel_breakdown),
 * computed by model/temporal.c from the trace's own events in
 * nanoseconds, over the whole trace.  One row per exclusive class
 * (COMPUTATION, MEMORY, "COMPUTATION overlapping MEMORY", ...) that has
 * time, the most first; across the ranks of a job, each class's time
 * summed over the ranks, as HTA sums it.  --print kernel-types.  Enter
 * on a row opens Kernels by type with the kernels of the types it names.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/profset.h"
#include "../model/temporal.h"
#include "../model/util.h"
#include "pane.h"

struct kt_row {
	const char *name;		/* static */
	unsigned bits;			/* its types (enum kernel_type) */
	int64_t sum_ns, total_ns;
};

struct kt_priv {
	struct kt_row rows[NR_KTYPE_CLASSES];
	size_t nr;
};

#define ROW(r) ((const struct kt_row *)(r))

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->name);
}

static struct cell get_pct(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_real(temporal_pct(ROW(row)->sum_ns, ROW(row)->total_ns));
}

static const struct column kt_cols[] = {
	{ .key = "kernel_type", .title = "Kernel type", .kind = COL_NAME, .get = get_name,
	  .help = "the types of GPU work running at once (Kernels' Type): COMPUTATION, "
		  "COMMUNICATION, MEMORY, or several joined by \"overlapping\"" },
	{ .key = "sum", .title = "Time", .kind = COL_TIME, .width = 11, .get = pane_get_i64,
	  .arg = offsetof(struct kt_row, sum_ns),
	  .help = "time when exactly these types run (each type's intervals merged); time with "
		  "only OTHER work counts in no row" },
	{ .key = "percentage", .title = "Share", .kind = COL_PCT, .width = 8, .get = get_pct,
	  .help = "its time / the time of all rows (across ranks: each summed over the ranks)" },
};

static void kt_load(struct pane *pane)
{
	struct kt_priv *kp = xcalloc(1, sizeof(*kp));
	const struct profset *set = pane->scope.set;
	bool across = set && set->kind == PROFSET_RANKS && !pane->scope.per_rank;
	int64_t sum[NR_KTYPE_CLASSES] = { 0 }, total = 0;

	pane->priv = kp;
	pane->nr_capped = 0;	/* a step reloads the pane */
	for (size_t i = 0; i < (across ? set->nr : 1); i++) {
		const struct profile *p = across ? profile_run(set->members[i].prof, pane->scope.run)
					  : pane->prof;
		struct temporal t;
		struct temporal_opts o;

		if (!p)
			continue;
		o = temporal_opts_for_step(p, pane->scope.step);
		if (pane->scope.has_range)
			temporal_opts_narrow(&o, pane->scope.range_start_ns,
					     pane->scope.range_end_ns);
		temporal_compute(p, &o, &t);
		pane->nr_capped += t.nr_capped;
		for (unsigned c = 1; c < NR_KTYPE_CLASSES; c++)
			sum_add_counted(&sum[c], t.class_ns[c], &pane->nr_capped);
		sum_add_counted(&total, t.classes_total_ns, &pane->nr_capped);
	}
	for (unsigned c = 1; c < NR_KTYPE_CLASSES; c++)
		if (sum[c] > 0)
			kp->rows[kp->nr++] = (struct kt_row){ temporal_class_name(c), c, sum[c], total };
	/* The most time first; equal times in the classes' order. */
	for (size_t i = 1; i < kp->nr; i++)
		for (size_t j = i; j > 0 && kp->rows[j].sum_ns > kp->rows[j - 1].sum_ns; j--) {
			struct kt_row tmp = kp->rows[j];

			kp->rows[j] = kp->rows[j - 1];
			kp->rows[j - 1] = tmp;
		}
	pane->rows = xmalloc(NR_KTYPE_CLASSES * sizeof(*pane->rows));
	for (size_t i = 0; i < kp->nr; i++)
		pane->rows[i] = &kp->rows[i];
	pane->nr_rows = kp->nr;
	for (size_t i = 0; i < ARRAY_SIZE(kt_cols); i++)
		pane_add_column(pane, &kt_cols[i]);
	pane->sort_col = -1;
}

static const char *kt_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->name;
}

/* Enter on a row: the kernels of the types it names. */
static bool kt_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	/* The pane's argument outlives the request: static. */
	static const unsigned bits[NR_KTYPE_CLASSES] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const struct kt_row *r = pane_row(pane, pane->cursor);

	if (act != ACT_DRILL || !r || r->bits >= NR_KTYPE_CLASSES)
		return false;
	req->open = true;
	req->open_pane = PANE_KERNEL_BREAKDOWN;
	memset(&req->open_scope, 0, sizeof(req->open_scope));
	req->open_scope.step = pane->scope.step;
	req->open_scope.arg = &bits[r->bits];
	return true;
}

static void kt_empty(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, "no timed GPU work of type COMPUTATION, COMMUNICATION or MEMORY%s",
		 pane->scope.has_range ? " in the range" : "");
}

static void kt_release(struct pane *pane)
{
	free(pane->priv);
	pane->priv = NULL;
}

static const char *const kt_aliases[] = { "kernel-types", "kernel-type", NULL };

static const enum action kt_actions[] = { ACT_DRILL, ACT_NONE };

const struct pane_ops kernel_types_pane_ops = {
	.id = PANE_KERNEL_TYPES, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE, .aliases = kt_aliases,
	.load = kt_load, .row_name = kt_name, .empty_text = kt_empty, .release = kt_release,
	.handle = kt_handle, .actions = kt_actions,
};
