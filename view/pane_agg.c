// SPDX-License-Identifier: MIT
/*
 * The columns of aggregate rows (Operators, Kernels, drill-downs).  Every
 * number is the model's own or computed by the definition in its help
 * text; where the file itself states a row's percentage or mean (a
 * key_averages table, a Paddle summary: ATTR_FILE_* in profile.h), that
 * value is shown rather than one recomputed from rounded cells.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/dist.h"
#include "../model/overview.h"
#include "../model/strbuf.h"
#include "../model/util.h"
#include "detail.h"
#include "pane_agg.h"

#define ROW(r) ((const struct agg_row *)(r))

const char *agg_row_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->name;
}

/* A row's attributes are its node's: a row that merges several nodes
 * has none, since its first node's value (one call's input shapes, one
 * call's size) would pass for the row's. */
const struct attr *agg_row_attrs(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->first && ROW(row)->nr_nodes == 1 ? node_attrs(ROW(row)->first) : NULL;
}

/*
 * What the file states of ROW under KEY (a percentage or a mean), when it
 * applies: the row is one node (a merged row sums several, and the file's
 * value is of one), no step narrows it, and for a share (IS_SHARE) no
 * drill-down changes what it is a share of.
 */
static const struct attr *file_value(const struct pane *pane, const void *row, const char *key,
				     bool is_share)
{
	const struct attr *a;

	if (!key || ROW(row)->nr_nodes != 1 || pane->scope.step ||
	    (is_share && pane->scope.drill_to))
		return NULL;
	a = agg_row_attrs(pane, row);
	return attr_find(a, key);
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(pane_row_name(pane, row));
}

static struct cell get_kind(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->first ? node_kind_name(ROW(row)->first->kind) : NULL);
}

static struct cell get_calls(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)ROW(row)->calls);
}

/* What is odd about a row, in words: its time came out negative, or the
 * file cut its name. */
static struct cell get_note(const struct pane *pane, const void *row, const struct column *c)
{
	uint8_t f = ROW(row)->node_flags;

	(void)pane, (void)c;
	if ((f & NODE_NEGATIVE) && (f & NODE_NAME_TRUNCATED))
		return cell_text("negative time; name cut");
	if (f & NODE_NEGATIVE)
		return cell_text("negative time");
	if (f & NODE_NAME_TRUNCATED)
		return cell_text("name cut");
	return cell_none();
}

/* Device total per call; the column's attr is the file's own mean. */
static struct cell get_mean(const struct pane *pane, const void *row, const struct column *c)
{
	const struct attr *given = file_value(pane, row, c->attr, false);

	if (given && attr_type(given) == ATTR_NS)
		return cell_int(given->v.i);
	/* A capped total has no mean to speak of. */
	if (!ROW(row)->calls || sum_capped(ROW(row)->device_total_ns))
		return cell_none();
	return cell_int(div_round(ROW(row)->device_total_ns, ROW(row)->calls));
}

/* A field's share of pane->share_base_ns (the column's arg is the field's
 * offset in agg_row); the column's attr is the file's own percentage. */
static struct cell get_share(const struct pane *pane, const void *row, const struct column *c)
{
	const struct attr *given = file_value(pane, row, c->attr, true);
	struct cell v;

	if (given && attr_type(given) == ATTR_DOUBLE)
		return cell_real(given->v.d);
	v = pane_get_i64(pane, row, c);
	/* A share of or in a capped sum is not known. */
	if (pane->share_base_ns <= 0 || sum_capped(pane->share_base_ns) || sum_capped(v.v.i))
		return cell_none();
	return cell_real(100.0 * (double)v.v.i / (double)pane->share_base_ns);
}

static struct cell get_max(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return ROW(row)->max_ns >= 0 ? cell_int(ROW(row)->max_ns) : cell_none();
}

static struct cell get_min(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return ROW(row)->min_ns >= 0 ? cell_int(ROW(row)->min_ns) : cell_none();
}

/* tb_plugin's means of blocks per SM and occupancy: weighted by duration,
 * with kernels that lack the value counted as 0. */
static struct cell get_bpsm(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	if (!ROW(row)->has_blocks_per_sm || ROW(row)->device_total_ns <= 0 ||
	    sum_capped(ROW(row)->device_total_ns))
		return cell_none();
	return cell_real(ROW(row)->blocks_per_sm_wsum / (double)ROW(row)->device_total_ns);
}

static struct cell get_occupancy(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	if (!ROW(row)->has_occupancy || ROW(row)->device_total_ns <= 0 ||
	    sum_capped(ROW(row)->device_total_ns))
		return cell_none();
	return cell_real(ROW(row)->occupancy_wsum / (double)ROW(row)->device_total_ns);
}

/* A grouped row's second key: the input shapes, the launching op. */
static struct cell get_group(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->group);
}

/* The launch configuration of a kernels-by-op row (its key, so the same
 * for all its kernels), as the plugin's kernel_op_table prints it. */
static struct cell get_dim(const struct pane *pane, const void *row, const struct column *c)
{
	static const int32_t none[3] = { 0, 0, 0 };
	struct kernel_op_text *t = pane->priv;
	const struct launch *l = ROW(row)->first ? node_launch(ROW(row)->first) : NULL;
	size_t i = (size_t)(ROW(row) - ROW(pane->agg.rows));

	/* The text lives in the pane's buffers, one per row and column. */
	if (!t || i >= t->nr)
		return cell_none();
	launch_dim_text(l ? (c->arg ? l->block : l->grid) : none, t->dims[i][c->arg],
			sizeof(t->dims[i][c->arg]));
	return cell_text(t->dims[i][c->arg]);
}

static struct cell get_launch_num(const struct pane *pane, const void *row, const struct column *c)
{
	const struct launch *l = ROW(row)->first ? node_launch(ROW(row)->first) : NULL;

	(void)pane;
	/* The plugin prints a missing value as 0 (str(x or '0')). */
	if (c->arg)
		return cell_int(l && l->shared_memory_bytes > 0 ? l->shared_memory_bytes : 0);
	return cell_int(l && l->registers_per_thread > 0 ? l->registers_per_thread : 0);
}

static struct cell get_uses_tc(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(kernel_uses_tensor_cores(ROW(row)->name) ? "Yes" : "No");
}

static struct cell get_op_tc(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->group && op_tensor_core_eligible(ROW(row)->group) ? "Yes" : "No");
}

/* A figure of the row's distribution (model/dist.h; the column's arg: 0
 * median, 1 P90, 2 P99, 3 standard deviation), made when first asked. */
static struct cell get_dist(const struct pane *pane, const void *row, const struct column *c)
{
	struct dist d;

	if (!dist_rows_get(pane->dist, (size_t)(ROW(row) - pane->agg.rows), &d))
		return cell_none();
	switch (c->arg) {
	case 0:
		return cell_int(d.median_ns);
	case 1:
		return cell_int(d.p90_ns);
	case 2:
		return cell_int(d.p99_ns);
	}
	return isnan(d.stddev_ns) ? cell_none() : cell_int((int64_t)llround(d.stddev_ns));
}

#define I64(field) .get = pane_get_i64, .arg = offsetof(struct agg_row, field)

static const struct column col_name = {
	.key = "name", .title = "Name", .kind = COL_NAME, .get = get_name,
	.help = "the operator, kernel or layer name as the profile gives it",
};
static const struct column col_kind = {
	.key = "kind", .title = "Kind", .kind = COL_TEXT, .width = 7, .get = get_kind,
	.help = "what the row is: kernel, memcpy, memset, source layer",
};
static const struct column col_calls = {
	.key = "calls", .title = "Calls", .kind = COL_COUNT, .width = 6, .get = get_calls,
	.help = "how many times it ran",
};
static const struct column col_dev_self = {
	.key = "device_self", .title = "Dev self", .kind = COL_TIME, .width = 10,
	I64(device_self_ns),
	.help = "device time of the work this op launched itself, not counting the ops it "
		"called (torch-tb-profiler's Device Self Duration)",
};
static const struct column col_dev_total = {
	.key = "device_total", .title = "Dev total", .kind = COL_TIME, .width = 10,
	I64(device_total_ns),
	.help = "device time of the work this op and every op it called launched (Device "
		"Total Duration)",
};
static const struct column col_host_self = {
	.key = "host_self", .title = "Host self", .kind = COL_TIME, .width = 10,
	I64(host_self_ns),
	.help = "host (CPU) time in the op itself, minus its child ops and runtime calls "
		"(Host Self Duration)",
};
static const struct column col_host_total = {
	.key = "host_total", .title = "Host total", .kind = COL_TIME, .width = 10,
	I64(host_total_ns),
	.help = "host (CPU) time from the op's start to its end (Host Total Duration)",
};
static const struct column col_dev_mean = {
	.key = "device_mean", .title = "Dev total mean", .kind = COL_TIME, .width = 10,
	.get = get_mean, .attr = ATTR_FILE_DEVICE_MEAN,
	.help = "device total time per call (the mean of Dev total, not of Dev self); where "
		"the file states the mean (key_averages' CUDA time avg, a Paddle Avg), the "
		"file's value",
};
static const struct column col_dev_share = {
	.key = "device_self_pct", .title = "Dev self %", .kind = COL_PCT, .width = 7,
	.get = get_share, .arg = offsetof(struct agg_row, device_self_ns),
	.attr = ATTR_FILE_DEVICE_SELF_PCT,
	.help = "Dev self as a share of all ops' device self time (an op whose kernels are "
		"launched by the ops it calls has a large Dev total and a small Dev self %); "
		"where the file states the percentage (key_averages' Self CUDA %), the file's "
		"value",
};
static const struct column col_host_share = {
	.key = "host_self_pct", .title = "Host self %", .kind = COL_PCT, .width = 7,
	.get = get_share, .arg = offsetof(struct agg_row, host_self_ns),
	.attr = ATTR_FILE_HOST_SELF_PCT,
	.help = "Host self as a share of all ops' host self time; where the file states the "
		"percentage (key_averages' Self CPU %), the file's value",
};
static const struct column col_k_total = {
	.key = "total", .title = "Total", .kind = COL_TIME, .width = 10, I64(device_total_ns),
	.help = "the kernel's device time summed over its calls",
};
static const struct column col_k_mean = {
	.key = "mean", .title = "Mean", .kind = COL_TIME, .width = 10, .get = get_mean,
	.attr = ATTR_FILE_DEVICE_MEAN,
	.help = "Total per call; where the file states the mean, the file's value",
};
static const struct column col_k_max = {
	.key = "max", .title = "Max", .kind = COL_TIME, .width = 10, .get = get_max,
	.help = "the longest call",
};
static const struct column col_k_min = {
	.key = "min", .title = "Min", .kind = COL_TIME, .width = 10, .get = get_min,
	.help = "the shortest call",
};
static const struct column col_k_share = {
	.key = "total_pct", .title = "Total %", .kind = COL_PCT, .width = 7, .get = get_share,
	.arg = offsetof(struct agg_row, device_total_ns), .attr = ATTR_FILE_DEVICE_TOTAL_PCT,
	.help = "Total as a share of the total of every row of this table; where the file "
		"states the percentage (a Paddle Kernel Summary ratio), the file's value",
};
static const struct column col_k_op_share = {
	.key = "share_pct", .title = "Op total %", .kind = COL_PCT, .width = 7, .get = get_share,
	.arg = offsetof(struct agg_row, device_total_ns),
	.help = "Total as a share of the drilled op's device total time",
};
static const struct column col_bpsm = {
	.key = "blocks_per_sm", .title = "Blk/SM", .kind = COL_FIXED, .width = 7, .get = get_bpsm,
	.help = "mean blocks per SM, weighted by duration (kernels without the value count as "
		"0, as torch-tb-profiler does)",
};
static const struct column col_occupancy = {
	.key = "occupancy_pct", .title = "Occup %", .kind = COL_PCT, .width = 8,
	.get = get_occupancy,
	.help = "mean estimated achieved occupancy, weighted by duration",
};
static const struct column col_shapes = {
	.key = "input_shapes", .title = "Input shapes", .kind = COL_TEXT, .width = 24,
	.get = get_group,
	.help = "the op's input shapes as the trace records them (Input Dims, printed as "
		"torch-tb-profiler keys them; [] when the trace recorded none)",
};
static const struct column col_k_op = {
	.key = "op", .title = "Operator", .kind = COL_TEXT, .width = 20, .get = get_group,
	.help = "the op whose runtime call launched the kernel (torch-tb-profiler's: "
		"CallTreeRoot for a thread's own launches and for kernels no runtime call "
		"launched)",
};
static const struct column col_grid = {
	.key = "grid", .title = "Grid", .kind = COL_TEXT, .width = 14, .get = get_dim, .arg = 0,
	.help = "the kernel's grid, [x, y, z] (None: the trace does not give it)",
};
static const struct column col_block = {
	.key = "block", .title = "Block", .kind = COL_TEXT, .width = 14, .get = get_dim, .arg = 1,
	.help = "the kernel's block, [x, y, z]",
};
static const struct column col_regs = {
	.key = "registers_per_thread", .title = "Regs", .kind = COL_COUNT, .width = 5,
	.get = get_launch_num, .arg = 0,
	.help = "registers per thread (0 when the trace does not give it, as the plugin)",
};
static const struct column col_smem = {
	.key = "shared_memory", .title = "Shared mem", .kind = COL_COUNT, .width = 10,
	.get = get_launch_num, .arg = 1,
	.help = "static shared memory in bytes (0 when the trace does not give it)",
};
static const struct column col_uses_tc = {
	.key = "uses_tensor_cores", .title = "TC", .kind = COL_TEXT, .width = 3, .get = get_uses_tc,
	.help = "whether the kernel uses tensor (matrix) cores, by its name: proftui(1)'s "
		"TENSOR CORES rule (torch-tb-profiler's list and today's families); the status "
		"line gives the tensor-core kernel time",
};
static const struct column col_op_tc = {
	.key = "op_tensor_core_eligible", .title = "Op TC", .kind = COL_TEXT, .width = 5,
	.get = get_op_tc,
	.help = "whether the launching op is one torch-tb-profiler deems able to use tensor "
		"cores (its list of op names)",
};
static const struct column col_note = {
	.key = "note", .title = "Note", .kind = COL_TEXT, .width = 14, .get = get_note,
	.help = "what is odd about the row: a time that came out negative (overlapping calls in "
		"the trace; counted in Info's warnings), or a name the file cut short",
};

/* The distribution columns, hidden until asked (the column chooser,
 * --stats): of a kernel's calls' durations, of an op's calls' Dev total
 * (Host total without device time). */
#define DIST_RANKS "linear interpolation between the closest ranks (numpy's default), to the ns"
#define DIST_EMPTY "; empty where the file gives only sums"
#define DIST_COLUMNS(name, of)                                                               \
	static const struct column name[4] = {                                              \
		{ .key = "median", .title = "Median", .kind = COL_TIME, .width = 10,         \
		  .get = get_dist, .arg = 0, .hidden = true,                                 \
		  .help = "the median of " of ": the middle one, or the mean of the middle " \
			  "two rounded half away from zero" DIST_EMPTY },                    \
		{ .key = "p90", .title = "P90", .kind = COL_TIME, .width = 10,               \
		  .get = get_dist, .arg = 1, .hidden = true,                                 \
		  .help = "the 90th percentile of " of ": " DIST_RANKS DIST_EMPTY },         \
		{ .key = "p99", .title = "P99", .kind = COL_TIME, .width = 10,               \
		  .get = get_dist, .arg = 2, .hidden = true,                                 \
		  .help = "the 99th percentile of " of ": " DIST_RANKS DIST_EMPTY },         \
		{ .key = "stddev", .title = "StdDev", .kind = COL_TIME, .width = 10,         \
		  .get = get_dist, .arg = 3, .hidden = true,                                 \
		  .help = "the sample standard deviation (n - 1) of " of ", to the ns; "     \
			  "empty for one call" DIST_EMPTY },                                 \
	}
DIST_COLUMNS(col_k_dist, "the calls' durations");
DIST_COLUMNS(col_op_dist, "the calls' Dev total (Host total in a profile without device time)");

void agg_dist_columns(struct pane *pane, dist_agg_fn *fill, const struct agg_scope *s, bool ops)
{
	enum dist_measure m = ops && !pane->prof->has_device_time ? DIST_HOST : DIST_DEVICE;

	pane->dist = dist_rows_new(pane->prof, fill, s, &pane->agg, m);
	for (size_t i = 0; i < 4; i++)
		pane_add_column(pane, ops ? &col_op_dist[i] : &col_k_dist[i]);
}

void agg_pane_rows(struct pane *pane)
{
	pane->rows = xmalloc((pane->agg.nr ? pane->agg.nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < pane->agg.nr; i++)
		pane->rows[i] = &pane->agg.rows[i];
	pane->nr_rows = pane->agg.nr;
}

static bool any_host_time(const struct agg *a)
{
	for (size_t i = 0; i < a->nr; i++)
		if (a->rows[i].host_total_ns || a->rows[i].host_self_ns)
			return true;
	return false;
}

/* The Note column, where some row has something to say. */
static void add_note(struct pane *pane)
{
	for (size_t i = 0; i < pane->agg.nr; i++) {
		if (pane->agg.rows[i].node_flags & (NODE_NEGATIVE | NODE_NAME_TRUNCATED)) {
			pane_add_column(pane, &col_note);
			return;
		}
	}
}

/*
 * The attributes a pre-aggregated table keys its rows on besides the name
 * (key_averages' overload names, group_by_input_shape, group_by_stack_n).
 * Where two rows of one name differ in one, its column comes right after
 * Name: the rows are told apart at a glance, not by the last columns.
 */
static const char *const row_keys[] = { "overload_name", "input_shapes", "source_location" };

static const char *row_key_text(const struct agg_row *r, const char *key)
{
	const struct attr *a = r->nr_nodes == 1 ? attr_find(node_attrs(r->first), key) : NULL;

	return a && attr_type(a) == ATTR_STRING ? a->v.s : "";
}

/* Rows by name (names are interned: by pointer), then by position. */
static int cmp_row_name(const void *a, const void *b)
{
	const struct agg_row *x = *(const struct agg_row *const *)a;
	const struct agg_row *y = *(const struct agg_row *const *)b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The attribute of KEY of a row where two rows of one name (BY_NAME,
 * sorted) differ in it, or NULL. */
static const struct attr *key_telling_apart(const struct agg_row *const *by_name, size_t n,
					    const char *key)
{
	for (size_t i = 1; i < n; i++) {
		const struct agg_row *x = by_name[i - 1], *y = by_name[i];

		if (x->name == y->name && strcmp(row_key_text(x, key), row_key_text(y, key)))
			return attr_find(node_attrs(*row_key_text(x, key) ? x->first : y->first), key);
	}
	return NULL;
}

static void add_row_key_columns(struct pane *pane)
{
	const struct agg_row **by_name;
	size_t n = pane->agg.nr;

	if (n < 2)
		return;
	by_name = xmalloc(n * sizeof(*by_name));
	for (size_t i = 0; i < n; i++)
		by_name[i] = &pane->agg.rows[i];
	qsort(by_name, n, sizeof(*by_name), cmp_row_name);
	for (size_t k = 0; k < ARRAY_SIZE(row_keys); k++) {
		struct attr_scan one = { .nr = 1 };

		one.first[0] = key_telling_apart(by_name, n, row_keys[k]);
		if (one.first[0])
			pane_add_scanned_attr_columns(pane, &one, NULL);
	}
	free(by_name);
}

static void op_columns(struct pane *pane, bool by_shape)
{
	bool dev = pane->prof->has_device_time, host = any_host_time(&pane->agg);
	/* The call stack is K's pane (pane_stacks.c): too long for a
	 * column, and only the outermost op of a 2.x stack holds it. */
	static const char *const skip[] = { "input_shapes", "call_stack", NULL };

	pane_add_column(pane, &col_name);
	if (by_shape)
		pane_add_column(pane, &col_shapes);
	else
		add_row_key_columns(pane);
	pane_add_column(pane, &col_calls);
	if (dev) {
		pane_add_column(pane, &col_dev_self);
		pane_add_column(pane, &col_dev_total);
	}
	if (host) {
		pane_add_column(pane, &col_host_self);
		pane_add_column(pane, &col_host_total);
	}
	if (dev) {
		pane_add_column(pane, &col_dev_share);
		pane_add_column(pane, &col_dev_mean);
	} else if (host) {
		pane_add_column(pane, &col_host_share);
	}
	pane_add_attr_columns(pane, by_shape ? skip : skip + 1);
	add_note(pane);
	/* Device self time first, as torch-tb-profiler sorts; host self
	 * when there is no device time. */
	pane->sort_col = pane_column(pane, dev ? "device_self" : host ? "host_self" : "calls");
	pane->sort_desc = true;
	pane->share_base_ns = 0;
	for (size_t i = 0; i < pane->agg.nr; i++)
		sum_add_counted(&pane->share_base_ns, dev ? pane->agg.rows[i].device_self_ns
						  : pane->agg.rows[i].host_self_ns,
				&pane->nr_capped);
}

void agg_op_columns(struct pane *pane)
{
	op_columns(pane, false);
}

void agg_op_shape_columns(struct pane *pane)
{
	op_columns(pane, true);
}

/* Whether the rows' kernels come with their launches (a Kineto trace):
 * then the tensor-core column means something. */
static bool has_launches(const struct agg *a)
{
	for (size_t i = 0; i < a->nr; i++)
		if (a->rows[i].first && node_launch(a->rows[i].first))
			return true;
	return false;
}

void agg_kernel_op_columns(struct pane *pane)
{
	static const char *const skip[] = { "blocks_per_sm", "occupancy_pct", "launch", NULL };
	struct kernel_op_text *t = xcalloc(1, sizeof(*t));
	bool bpsm = false, occ = false;

	/* Grids and blocks are text made per row: buffers for them. */
	t->nr = pane->agg.nr;
	t->dims = xcalloc(t->nr ? t->nr : 1, sizeof(*t->dims));
	pane->priv = t;
	for (size_t i = 0; i < pane->agg.nr; i++) {
		bpsm |= pane->agg.rows[i].has_blocks_per_sm;
		occ |= pane->agg.rows[i].has_occupancy;
	}
	pane_add_column(pane, &col_name);
	pane_add_column(pane, &col_k_op);
	pane_add_column(pane, &col_grid);
	pane_add_column(pane, &col_block);
	pane_add_column(pane, &col_regs);
	pane_add_column(pane, &col_smem);
	pane_add_column(pane, &col_uses_tc);
	pane_add_column(pane, &col_op_tc);
	pane_add_column(pane, &col_calls);
	pane_add_column(pane, &col_k_total);
	pane_add_column(pane, &col_k_share);
	pane_add_column(pane, &col_k_mean);
	pane_add_column(pane, &col_k_max);
	pane_add_column(pane, &col_k_min);
	if (bpsm)
		pane_add_column(pane, &col_bpsm);
	if (occ)
		pane_add_column(pane, &col_occupancy);
	pane_add_attr_columns(pane, skip);
	pane->sort_col = pane_column(pane, "total");
	pane->sort_desc = true;
}

void agg_kernel_op_release(struct pane *pane)
{
	struct kernel_op_text *t = pane->priv;

	if (t)
		free(t->dims);
	free(t);
	pane->priv = NULL;
}

void agg_kernel_columns(struct pane *pane, bool drill)
{
	static const char *const skip[] = { "blocks_per_sm", "occupancy_pct", "launch", NULL };
	bool bpsm = false, occ = false;

	for (size_t i = 0; i < pane->agg.nr; i++) {
		bpsm |= pane->agg.rows[i].has_blocks_per_sm;
		occ |= pane->agg.rows[i].has_occupancy;
	}
	pane_add_column(pane, &col_name);
	if (drill)
		pane_add_column(pane, &col_kind);
	pane_add_column(pane, &col_calls);
	pane_add_column(pane, &col_k_total);
	pane_add_column(pane, drill ? &col_k_op_share : &col_k_share);
	pane_add_column(pane, &col_k_mean);
	pane_add_column(pane, &col_k_max);
	pane_add_column(pane, &col_k_min);
	if (bpsm)
		pane_add_column(pane, &col_bpsm);
	if (occ)
		pane_add_column(pane, &col_occupancy);
	if (!drill && has_launches(&pane->agg))
		pane_add_column(pane, &col_uses_tc);
	pane_add_attr_columns(pane, skip);
	add_note(pane);
	pane->sort_col = pane_column(pane, "total");
	pane->sort_desc = true;
}

enum pane_id agg_drill(const struct pane *pane, const void *row, enum drill_to to,
		       struct pane_scope *scope)
{
	const struct node *first = ROW(row)->first;

	/* A source layer launched nothing: nothing to drill into. */
	if (first && first->kind == NODE_SOURCE)
		return PANE_NONE;
	scope->step = pane->scope.step;
	scope->drill_to = to;
	scope->drill_name = ROW(row)->name;
	if (first && (first->flags & NODE_DISTINCT))
		scope->drill_node = first;
	return PANE_DRILL;
}

/* The rows of the detail's "launched" list: this name (or node). */
static bool detail_wants(const struct node *n, void *ctx)
{
	const struct agg_row *r = ctx;

	if (r->first && (r->first->flags & NODE_DISTINCT))
		return n == r->first;
	return node_name(n) == r->name || !strcmp(node_name(n), r->name);
}

/* Agg rows by device total, most first; ties keep the model's order. */
static int cmp_dev_total(const void *a, const void *b)
{
	const struct agg_row *x = *(const struct agg_row *const *)a;
	const struct agg_row *y = *(const struct agg_row *const *)b;

	if (x->device_total_ns != y->device_total_ns)
		return x->device_total_ns < y->device_total_ns ? 1 : -1;
	return x < y ? -1 : x > y;
}

#define DETAIL_TOP 5

void agg_detail(const struct pane *pane, const void *row, struct detail *d)
{
	const struct agg_row *r = row;
	bool is_device = r->first && node_kind_is_device(r->first->kind);
	struct agg_scope s = agg_scope_of(pane);
	struct agg a = { 0 };
	const struct agg_row **top;
	char value[128], t[64];

	s.want = detail_wants;
	s.ctx = (void *)r;
	if (!r->first || r->first->kind == NODE_SOURCE)
		return;
	if (pane->dist) {
		size_t n;
		const int64_t *v = dist_rows_values(pane->dist, (size_t)(r - pane->agg.rows), &n);

		detail_histogram(d, v, n);
	}
	if (is_device)
		agg_kernel_ops(pane->prof, &s, &a);
	else
		agg_op_kernels(pane->prof, &s, &a);
	if (!a.nr) {
		agg_release(&a);
		return;
	}
	top = xmalloc(a.nr * sizeof(*top));
	for (size_t i = 0; i < a.nr; i++)
		top[i] = &a.rows[i];
	qsort(top, a.nr, sizeof(*top), cmp_dev_total);
	detail_heading(d, is_device ? "-- launched by --" : "-- launched --");
	for (size_t i = 0; i < a.nr && i < DETAIL_TOP; i++) {
		struct strbuf v = STRBUF_INIT;

		fmt_time(top[i]->device_total_ns, t, sizeof(t));
		snprintf(value, sizeof(value), " (%s device total, %llu call%s)", t,
			 (unsigned long long)top[i]->calls, top[i]->calls == 1 ? "" : "s");
		strbuf_addstr(&v, top[i]->name);
		strbuf_addstr(&v, value);
		snprintf(t, sizeof(t), "%s %zu", is_device ? "op" : "kernel", i + 1);
		detail_add_link(d, t, v.s,
				is_device ? "an op that launched it (Enter: its row in Operators)"
					  : "device work it launched (Enter: its row in Kernels)",
				is_device ? PANE_OPS : PANE_KERNELS, top[i]->name);
		strbuf_release(&v);
	}
	if (a.nr > DETAIL_TOP) {
		snprintf(value, sizeof(value), "%zu more (Enter on the row: all of them)",
			 a.nr - DETAIL_TOP);
		detail_add(d, "...", value, "");
	}
	free(top);
	agg_release(&a);
}

bool agg_open_stacks(const struct pane *pane, struct pane_request *req)
{
	const struct agg_row *r = pane->nr_view ? pane_row(pane, pane->cursor) : NULL;

	if (!r)
		return false;
	req->open = true;
	req->open_pane = PANE_STACKS;
	memset(&req->open_scope, 0, sizeof(req->open_scope));
	req->open_scope.step = pane->scope.step;
	req->open_scope.drill_name = r->name;
	if (r->first && (r->first->flags & NODE_DISTINCT))
		req->open_scope.drill_node = r->first;
	/* Rows by name and input shape: that shape's calls. */
	if (pane->scope.group && !strcmp(pane->scope.group, "shape") && r->group)
		req->open_scope.arg = r->group;
	return true;
}
