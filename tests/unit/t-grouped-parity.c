// SPDX-License-Identifier: MIT
/*
 * Parity of the grouped tables with torch-tb-profiler on the corpus: the
 * operator table grouped by name and input shape
 * (operation_table_groupby_OperationAndInputShape: calls and the four
 * durations, within 1 us after its rounding) and the kernel table grouped
 * by kernel, op and launch (kernel_op_table: calls, total, mean, max, min,
 * blocks per SM and occupancy, whether the kernel uses tensor cores and
 * the op is eligible), row for row; no extra rows on our side.
 *
 * One departure is by design, as in t-kineto-parity.c: the plugin makes
 * a thread of its own of the device-side copies of ProfilerStep that
 * PyTorch 2.x writes, and since that "thread" has steps, it too gets the
 * kernels no runtime call launched -- which the plugin then counts twice.
 * proftui counts them once; on a trace with such copies (Info says so)
 * the plugin's rows of those kernels are compared with ours doubled.
 * And a second: whether a kernel uses tensor cores is the plugin's list's
 * answer here, which proftui's rule departs from on the kernels
 * t-tensor-cores.c lists (tc-plugin.h).
 */
#include <math.h>

#include "model/aggregate.h"
#include "model/overview.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"
#include "tc-plugin.h"

#include "parity.h"

static int nr_bad;

static void near(const char *what, const char *name, double ours, double ref, double tol)
{
	if (fabs(ours - ref) <= tol + 1e-6)
		return;
	if (nr_bad++ < 15)
		fprintf(stderr, "  %s of '%.60s': ours %.3f, reference %.3f\n", what, name, ours, ref);
	test_failed = 1;
}

static double num(const struct jv *v)
{
	return v && v->type == JV_NUM ? v->num : NAN;
}

/* On a DEPART_LAUNCHES trace, calls and host totals only; on a DEPART_NS
 * one within the plugin's rounding, with the ops its rounding dropped
 * back (t-kineto-parity bounds them by the trace's own count). */
static void check_shapes(const struct profile *p, const char *path, unsigned departs)
{
	struct jv doc;
	const struct jv *data;
	struct agg a;
	bool *used;

	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	agg_ops_by_shape(p, NULL, &a);
	used = xcalloc(a.nr + 1, 1);
	data = jv_get(&doc, "data");
	for (size_t i = 0; i < data->nr; i++) {
		const struct jv *row = &data->items[i];
		const char *name = jv_get(row, "name")->str, *shape = jv_get(row, "input_shape")->str;
		const struct agg_row *r = NULL;
		const struct jv *dev;
		double slack;

		for (size_t k = 0; k < a.nr && !r; k++)
			if (!used[k] && !strcmp(a.rows[k].name, name) && !strcmp(a.rows[k].group, shape))
				r = &a.rows[k], used[k] = true;
		if (!r) {
			if (nr_bad++ < 15)
				fprintf(stderr, "  op '%s' %.60s missing\n", name, shape);
			test_failed = 1;
			continue;
		}
		slack = parity_ns_slack(departs, p, name);
		if (!(departs & DEPART_NS) || (double)r->calls < num(jv_get(row, "calls")))
			near("calls", name, (double)r->calls, num(jv_get(row, "calls")), 0);
		near("host total", name, r->host_total_ns / 1e3, num(jv_get(row, "host_total_duration")),
		     1 + slack);
		if (departs & DEPART_LAUNCHES)
			continue;
		near("host self", name, r->host_self_ns / 1e3, num(jv_get(row, "host_self_duration")),
		     1 + slack);
		if ((dev = jv_get(row, "device_self_duration")))
			near("device self", name, r->device_self_ns / 1e3, num(dev), 1 + slack);
		if ((dev = jv_get(row, "device_total_duration")))
			near("device total", name, r->device_total_ns / 1e3, num(dev), 1 + slack);
	}
	if (a.nr != data->nr && !(departs & DEPART_NS)) {
		fprintf(stderr, "  %zu rows by shape, reference has %zu\n", a.nr, data->nr);
		test_failed = 1;
	}
	free(used);
	agg_release(&a);
	jv_free(&doc);
}

static int column(const struct jv *cols, const char *name)
{
	for (size_t i = 0; i < cols->nr; i++)
		if (!strcmp(jv_get(&cols->items[i], "name")->str, name))
			return (int)i;
	return -1;
}

/* On a DEPART_NS trace each kernel's time within 0.25 us of the plugin's
 * (ts + dur) - ts. */
static void check_kernel_ops(const struct profile *p, const char *path, unsigned departs)
{
	double ns = departs & DEPART_NS ? 0.25 : 0;
	struct jv doc;
	const struct jv *cols, *rows;
	struct agg a;
	bool *used;
	int c_bpsm, c_occ;
	/* The plugin's count of each kernel no runtime call launched. */
	int copies = 1 + (profile_meta_get(p, "events not used",
					   "GPU-side copies of ProfilerStep (not steps)") != NULL);
	int times;

	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	agg_kernels_by_op(p, NULL, &a);
	used = xcalloc(a.nr + 1, 1);
	cols = jv_get(jv_get(&doc, "data"), "columns");
	rows = jv_get(jv_get(&doc, "data"), "rows");
	c_bpsm = column(cols, "Mean Blocks Per SM");
	c_occ = column(cols, "Mean Est. Achieved Occupancy (%)");
	for (size_t i = 0; i < rows->nr; i++) {
		const struct jv *row = &rows->items[i];
		const char *name = row->items[0].str;
		const struct agg_row *r = NULL;

		for (size_t k = 0; k < a.nr && !r; k++) {
			const struct launch *l = node_launch(a.rows[k].first);
			char grid[64], block[64], regs[32], smem[32];
			int32_t none[3] = { 0, 0, 0 };

			if (used[k] || strcmp(a.rows[k].name, name) || strcmp(a.rows[k].group, row->items[1].str))
				continue;
			launch_dim_text(l ? l->grid : none, grid, sizeof(grid));
			launch_dim_text(l ? l->block : none, block, sizeof(block));
			snprintf(regs, sizeof(regs), "%d", l && l->registers_per_thread > 0
								   ? (int)l->registers_per_thread : 0);
			snprintf(smem, sizeof(smem), "%lld", l && l->shared_memory_bytes > 0
								     ? (long long)l->shared_memory_bytes : 0);
			if (strcmp(grid, row->items[2].str) || strcmp(block, row->items[3].str) ||
			    strcmp(regs, row->items[4].str) || strcmp(smem, row->items[5].str))
				continue;
			r = &a.rows[k];
			used[k] = true;
		}
		if (!r) {
			if (nr_bad++ < 15)
				fprintf(stderr, "  kernel '%.50s' of '%s' %s %s missing\n", name,
					row->items[1].str, row->items[2].str, row->items[3].str);
			test_failed = 1;
			continue;
		}
		times = node_parent(r->first) && node_parent(r->first)->kind == NODE_GROUP ? copies : 1;
		/* The plugin's list (ours but where it departs, on the
		 * kernels t-tensor-cores.c names). */
		CHECK_STR(plugin_uses_tc(name) ? "Yes" : "No", row->items[6].str);
		CHECK_STR(op_tensor_core_eligible(r->group) ? "Yes" : "No", row->items[7].str);
		near("calls", name, (double)(times * r->calls), num(&row->items[8]), 0);
		near("total", name, times * r->device_total_ns / 1e3, num(&row->items[9]),
		     0.01 + ns * (double)(times * r->calls));
		near("mean", name, r->device_total_ns / 1e3 / (double)r->calls, num(&row->items[10]),
		     0.5 + ns);
		near("max", name, r->max_ns / 1e3, num(&row->items[11]), 0.01 + ns);
		near("min", name, r->min_ns / 1e3, num(&row->items[12]), 0.01 + ns);
		if (c_bpsm >= 0)
			near("blocks per SM", name, r->device_total_ns ? r->blocks_per_sm_wsum /
						  (double)r->device_total_ns : 0,
			     num(&row->items[c_bpsm]), 0.005);
		if (c_occ >= 0)
			near("occupancy", name, r->device_total_ns ? r->occupancy_wsum /
						(double)r->device_total_ns : 0,
			     num(&row->items[c_occ]), 0.005);
	}
	if (a.nr != rows->nr) {
		fprintf(stderr, "  %zu kernel-op rows, reference has %zu\n", a.nr, rows->nr);
		test_failed = 1;
	}
	free(used);
	agg_release(&a);
	jv_free(&doc);
}

static void check_trace(size_t i)
{
	struct profile p;
	char path[1200];

	if (parity_load(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	nr_bad = 0;
	if (parity_path(i, "operation_table_groupby_OperationAndInputShape", path, sizeof(path)))
		check_shapes(&p, path, parity_departs[i]);
	else
		test_failed = 1;	/* the plugin always writes one */
	if (parity_departs[i] & (DEPART_LAUNCHES | DEPART_NS)) {
		/* Kernels by the op that launched them: the op is where the
		 * launch was made (and on a DEPART_NS trace ops the plugin's
		 * rounding dropped take theirs back), which t-trace-truth
		 * checks against the events. */
	} else if (parity_path(i, "kernel_op_table", path, sizeof(path))) {
		check_kernel_ops(&p, path, parity_departs[i]);
	} else {
		struct agg a;

		agg_kernels_by_op(&p, NULL, &a);
		CHECK_EQ(a.nr, 0);
		agg_release(&a);
	}
	profile_release(&p);
}

PARITY_TESTS(check_trace, "grouped tables");
