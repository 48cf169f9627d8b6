// SPDX-License-Identifier: MIT
/*
 * The Kernels pane: one row per kernel name, every kernel of the profile
 * (linked to an op or not), as torch-tb-profiler's kernel table.  Enter
 * opens the ops that launched a kernel (pane_drill.c).
 */
#include "pane_agg.h"

static void kernels_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step };

	agg_kernels(pane->prof, &s, &pane->agg);
	agg_pane_rows(pane);
	agg_kernel_columns(pane, false);
	pane->share_base_ns = 0;
	for (size_t i = 0; i < pane->agg.nr; i++)
		pane->share_base_ns += pane->agg.rows[i].device_total_ns;
}

static const struct pane_ops *kernels_drill(const struct pane *pane, const void *row,
					    struct pane_scope *scope)
{
	return agg_drill(pane, row, DRILL_TO_OPS, scope);
}

static const char *const kernels_aliases[] = { "kernel", NULL };

const struct pane_ops kernels_pane_ops = {
	.id = PANE_KERNELS, .aliases = kernels_aliases, .follows_step = true, .align = ALIGN_BY_NAME,
	.print_drill = DRILL_TO_KERNELS,
	.load = kernels_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.detail = agg_detail,
	.drill = kernels_drill,
};
