// SPDX-License-Identifier: MIT
/*
 * The Kernels pane: one row per kernel name, every kernel of the profile
 * (linked to an op or not), as torch-tb-profiler's kernel table; with
 * --group op (or toggle-view), one row per kernel, launching op and
 * launch configuration, as its table grouped by KernelNameAndOpName.
 * Enter opens the ops that launched a kernel (pane_drill.c).  The status
 * line gives the tensor-core kernel time: the share of the kernel time
 * shown in kernels that use tensor cores (tensor_cores.h), the figure
 * the Overview gives per GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/kernel_type.h"
#include "../model/overview.h"
#include "../model/util.h"
#include "pane_agg.h"

static bool by_op(const struct pane *pane)
{
	return pane->scope.group && !strcmp(pane->scope.group, "op");
}

/* A summary holds kernels by name, not the ops that launched them. */
static bool kernels_need_trace(const struct pane *pane)
{
	return by_op(pane) && pane->prof->is_summary;
}

static void kernels_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (kernels_need_trace(pane))
		snprintf(buf, size, "kernels by launching op need the trace: a summary holds its "
				    "kernels by name, not which op launched each");
}

static struct cell get_kernel_type(const struct pane *pane, const void *row,
				   const struct column *c)
{
	const char *name = agg_row_name(pane, row);

	(void)c;
	return cell_text(name ? kernel_type_name(kernel_type_of(name)) : NULL);
}

/* Last, after every other column, so that exports only gain one. */
static const struct column col_kernel_type = {
	.key = "kernel_type", .title = "Type", .kind = COL_TEXT, .width = 13,
	.get = get_kernel_type,
	.help = "HTA's kernel type of the name: COMMUNICATION (starts with nccl, hip or hccl, "
		"or holds ncclKernel), MEMORY (starts with Memcpy, Memset or dma), COMPUTATION "
		"(holds none of Memcpy, Memset, dma, Sync, ...), else OTHER",
};

static void kernels_load(struct pane *pane)
{
	struct agg_scope s = agg_scope_of(pane);

	if (kernels_need_trace(pane)) {
		memset(&pane->agg, 0, sizeof(pane->agg));
		agg_pane_rows(pane);
		agg_kernel_op_columns(pane);
	} else if (by_op(pane)) {
		agg_kernels_by_op(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_kernel_op_columns(pane);
	} else {
		agg_kernels(pane->prof, &s, &pane->agg);
		agg_pane_rows(pane);
		agg_kernel_columns(pane, false);
	}
	pane_add_column(pane, &col_kernel_type);
	if (!kernels_need_trace(pane))
		agg_dist_columns(pane, by_op(pane) ? agg_kernels_by_op : agg_kernels, &s, false);
	pane->share_base_ns = 0;
	for (size_t i = 0; i < pane->agg.nr; i++)
		sum_add_counted(&pane->share_base_ns, pane->agg.rows[i].device_total_ns,
				&pane->nr_capped);
	free(pane->title);
	pane->title = xstrdup(by_op(pane) ? "Kernels by op" : "Kernels");
}

static enum pane_id kernels_drill(const struct pane *pane, const void *row,
				  struct pane_scope *scope)
{
	return agg_drill(pane, row, DRILL_TO_OPS, scope);
}

/* toggle-view: by name, or by name, launching op and launch. */
static bool kernels_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	if (act != ACT_TOGGLE_VIEW)
		return false;
	pane->scope.group = by_op(pane) ? NULL : "op";
	pane_reload(pane);
	req->message = by_op(pane) ? "kernels by name, launching op and launch" : "kernels by name";
	return true;
}

/* The tensor-core kernel time: the share of the kernel time shown in
 * tensor-core kernels (tb_plugin's tc_pie with proftui's rule; over the
 * step when one is picked). */
static void kernels_status(const struct pane *pane, char *buf, size_t size)
{
	double all = 0, tc = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pane->agg.nr; i++) {
		const struct agg_row *r = &pane->agg.rows[i];

		if (!r->first || !node_launch(r->first))
			continue;	/* no launches: no trace of tensor cores */
		all += (double)r->device_total_ns;
		if (kernel_uses_tensor_cores(r->name))
			tc += (double)r->device_total_ns;
	}
	if (all > 0)
		snprintf(buf, size, "tensor-core kernel time %.2f%% ", 100 * tc / all);
}

/* The grid and block texts of kernels by op (none by name); called when
 * the grouping already changed, so it does not ask which. */
static void kernels_release(struct pane *pane)
{
	agg_kernel_op_release(pane);
}

static const char *const kernels_aliases[] = { "kernel", NULL };

/* The actions handle() takes. */
static const enum action kernels_actions[] = {
	ACT_TOGGLE_VIEW, ACT_NONE,
};

static const struct pane_print_ops kernels_print = { .drill = DRILL_TO_KERNELS, .group_by = "op" };
static const struct pane_text_ops kernels_text = {
	.status = kernels_status, .detail = agg_detail,
};

const struct pane_ops kernels_pane_ops = {
	.id = PANE_KERNELS, .flags = PANE_FOLLOWS_STEP | PANE_FOLLOWS_RANGE, .aliases = kernels_aliases,
	.align = ALIGN_BY_NAME,
	.load = kernels_load, .row_name = agg_row_name, .row_attrs = agg_row_attrs,
	.drill = kernels_drill, .handle = kernels_handle, .actions = kernels_actions,
	.empty_text = kernels_empty_text, .needs_trace = kernels_need_trace,
	.release = kernels_release, .print = &kernels_print, .text = &kernels_text,
};
