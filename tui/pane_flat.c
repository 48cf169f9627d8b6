// SPDX-License-Identifier: MIT
/*
 * The flat panes: Operators, Kernels, the two drill-downs, Steps and Info.
 * Each says how to load its rows from the profile and which columns it
 * has; pane.c does the rest.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane.h"

/* ---------------------------------------------------------------------
 * Aggregate rows (Operators, Kernels, drill-downs): struct agg_row.
 */

#define ROW(r) ((const struct agg_row *)(r))

static const char *agg_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->name;
}

static const struct attr *agg_attrs(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->first ? ROW(row)->first->attrs : NULL;
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(pane->ops->row_name(pane, row));
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

/* Integer division rounded half away from zero. */
static int64_t div_round(int64_t a, uint64_t b)
{
	uint64_t m = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
	uint64_t q = m / b + (m % b >= (b + 1) / 2);

	return a < 0 ? -(int64_t)q : (int64_t)q;
}

static struct cell get_dev_mean(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	if (!ROW(row)->calls)
		return cell_none();
	return cell_int(div_round(ROW(row)->device_total_ns, ROW(row)->calls));
}

/* A field's share of pane->share_base_ns: the column's arg is the
 * field's offset in agg_row. */
static struct cell get_share(const struct pane *pane, const void *row, const struct column *c)
{
	struct cell v = pane_get_i64(pane, row, c);

	if (pane->share_base_ns <= 0)
		return cell_none();
	return cell_real(100.0 * (double)v.v.i / (double)pane->share_base_ns);
}

static struct cell get_k_max(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return ROW(row)->max_ns >= 0 ? cell_int(ROW(row)->max_ns) : cell_none();
}

static struct cell get_k_min(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return ROW(row)->min_ns >= 0 ? cell_int(ROW(row)->min_ns) : cell_none();
}

/* tb_plugin's means of blocks per SM and occupancy: weighted by duration,
 * with kernels that lack the value counted as 0. */
static struct cell get_bpsm(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	if (!ROW(row)->has_blocks_per_sm || ROW(row)->device_total_ns <= 0)
		return cell_none();
	return cell_real(ROW(row)->blocks_per_sm_wsum / (double)ROW(row)->device_total_ns);
}

static struct cell get_occupancy(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	if (!ROW(row)->has_occupancy || ROW(row)->device_total_ns <= 0)
		return cell_none();
	return cell_real(ROW(row)->occupancy_wsum / (double)ROW(row)->device_total_ns);
}

static const struct column col_name = {
	"name", "Name", "the operator, kernel or layer name as the profile gives it", COL_NAME, 0,
	get_name, NULL, 0, NULL, NULL
};
static const struct column col_kind = {
	"kind", "Kind", "what the row is: kernel, memcpy, memset, source layer", COL_TEXT, 7,
	get_kind, NULL, 0, NULL, NULL
};
static const struct column col_calls = {
	"calls", "Calls", "how many times it ran", COL_COUNT, 6, get_calls, NULL, 0, NULL, NULL
};
static const struct column col_dev_self = {
	"device_self", "Dev self", "device time of the work this op launched itself, "
	"not counting the ops it called (torch-tb-profiler's Device Self Duration)",
	COL_TIME, 10, pane_get_i64, NULL,
	offsetof(struct agg_row, device_self_ns), NULL, NULL
};
static const struct column col_dev_total = {
	"device_total", "Dev total", "device time of the work this op and every op it called "
	"launched (Device Total Duration)", COL_TIME, 10, pane_get_i64, NULL,
	offsetof(struct agg_row, device_total_ns), NULL, NULL
};
static const struct column col_host_self = {
	"host_self", "Host self", "host (CPU) time in the op itself, minus its child ops and "
	"runtime calls (Host Self Duration)", COL_TIME, 10, pane_get_i64, NULL,
	offsetof(struct agg_row, host_self_ns), NULL, NULL
};
static const struct column col_host_total = {
	"host_total", "Host total", "host (CPU) time from the op's start to its end (Host Total "
	"Duration)", COL_TIME, 10, pane_get_i64, NULL,
	offsetof(struct agg_row, host_total_ns), NULL, NULL
};
static const struct column col_dev_mean = {
	"device_mean", "Dev mean", "device total per call", COL_TIME, 10, get_dev_mean, NULL, 0,
	NULL, NULL
};
static const struct column col_dev_share = {
	"device_self_pct", "Dev %", "share of all ops' device self time", COL_PCT, 7,
	get_share, NULL, offsetof(struct agg_row, device_self_ns), NULL, NULL
};
static const struct column col_host_share = {
	"host_self_pct", "Host %", "share of all ops' host self time", COL_PCT, 7,
	get_share, NULL, offsetof(struct agg_row, host_self_ns), NULL, NULL
};
static const struct column col_k_total = {
	"total", "Total", "the kernel's device time summed over its calls", COL_TIME, 10,
	pane_get_i64, NULL, offsetof(struct agg_row, device_total_ns), NULL, NULL
};
static const struct column col_k_mean = {
	"mean", "Mean", "total per call", COL_TIME, 10, get_dev_mean, NULL, 0, NULL, NULL
};
static const struct column col_k_max = {
	"max", "Max", "the longest call", COL_TIME, 10, get_k_max, NULL, 0, NULL, NULL
};
static const struct column col_k_min = {
	"min", "Min", "the shortest call", COL_TIME, 10, get_k_min, NULL, 0, NULL, NULL
};
static const struct column col_k_share = {
	"total_pct", "%", "share of the total in this table", COL_PCT, 7, get_share,
	NULL, offsetof(struct agg_row, device_total_ns),
	NULL, NULL
};
static const struct column col_k_op_share = {
	"share_pct", "Share", "share of the drilled op's device total time", COL_PCT, 7,
	get_share, NULL, offsetof(struct agg_row, device_total_ns), NULL, NULL
};
static const struct column col_bpsm = {
	"blocks_per_sm", "Blk/SM", "mean blocks per SM, weighted by duration (kernels "
	"without the value count as 0, as torch-tb-profiler does)", COL_REAL, 7, get_bpsm, NULL, 0,
	NULL, NULL
};
static const struct column col_occupancy = {
	"occupancy_pct", "Occup %", "mean estimated achieved occupancy, weighted by duration",
	COL_PCT, 8, get_occupancy, NULL, 0, NULL, NULL
};

static void rows_from_agg(struct pane *pane)
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

/* The Operators columns; shared by the kernel -> ops drill-down. */
static void op_columns(struct pane *pane)
{
	bool dev = pane->prof->has_device_time, host = any_host_time(&pane->agg);
	static const char *const skip[] = { NULL };

	pane_add_column(pane, &col_name);
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
	pane_add_attr_columns(pane, skip);
	/* Device self time first, as torch-tb-profiler sorts; host self
	 * when there is no device time. */
	pane->sort_col = pane_column(pane, dev ? "device_self" : host ? "host_self" : "calls");
	pane->sort_desc = true;
	pane->share_base_ns = 0;
	for (size_t i = 0; i < pane->agg.nr; i++)
		pane->share_base_ns += dev ? pane->agg.rows[i].device_self_ns
					   : pane->agg.rows[i].host_self_ns;
}

static void ops_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step };

	agg_ops(pane->prof, &s, &pane->agg);
	rows_from_agg(pane);
	op_columns(pane);
}

static void kernel_columns(struct pane *pane, bool drill)
{
	static const char *const skip[] = { "blocks_per_sm", "occupancy_pct", NULL };
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
	pane_add_attr_columns(pane, skip);
	pane->sort_col = pane_column(pane, "total");
	pane->sort_desc = true;
}

static void kernels_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step };

	agg_kernels(pane->prof, &s, &pane->agg);
	rows_from_agg(pane);
	kernel_columns(pane, false);
	pane->share_base_ns = 0;
	for (size_t i = 0; i < pane->agg.nr; i++)
		pane->share_base_ns += pane->agg.rows[i].device_total_ns;
}

/* Drill-down: which nodes the drilled name (or node, or pattern) means. */
static bool drill_wants(const struct node *n, void *ctx)
{
	const struct pane_scope *s = ctx;

	if (s->drill_node)
		return n == s->drill_node;
	if (s->drill_re)
		return filter_match(s->drill_re, n->name, strlen(n->name));
	return s->drill_name && !strcmp(n->name, s->drill_name);
}

static char *drill_title(const struct pane *pane, const char *what)
{
	const char *name = pane->scope.drill_re ? filter_pattern(pane->scope.drill_re)
						: pane->scope.drill_name ? pane->scope.drill_name
									 : "?";
	size_t n = strlen(name) + strlen(what) + 16;
	char *t = xmalloc(n);

	snprintf(t, n, "%s \xe2\x80\xba %s", name, what);
	return t;
}

static void drill_kernels_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step, .want = drill_wants, .ctx = &pane->scope };

	agg_op_kernels(pane->prof, &s, &pane->agg);
	rows_from_agg(pane);
	kernel_columns(pane, true);
	pane->share_base_ns = pane->agg.scope_device_ns;
	if (!pane->title)
		pane->title = drill_title(pane, "kernels");
}

static void drill_ops_load(struct pane *pane)
{
	struct agg_scope s = { .step = pane->scope.step, .want = drill_wants, .ctx = &pane->scope };

	agg_kernel_ops(pane->prof, &s, &pane->agg);
	rows_from_agg(pane);
	op_columns(pane);
	if (!pane->title)
		pane->title = drill_title(pane, "ops");
}

const struct pane_ops ops_pane_ops = {
	.name = "ops", .title = "Operators",
	.load = ops_load, .row_name = agg_name, .row_attrs = agg_attrs,
};

const struct pane_ops kernels_pane_ops = {
	.name = "kernels", .title = "Kernels",
	.load = kernels_load, .row_name = agg_name, .row_attrs = agg_attrs,
};

const struct pane_ops drill_kernels_pane_ops = {
	.name = "drill", .title = "kernels",
	.load = drill_kernels_load, .row_name = agg_name, .row_attrs = agg_attrs,
};

const struct pane_ops drill_ops_pane_ops = {
	.name = "drill", .title = "ops",
	.load = drill_ops_load, .row_name = agg_name, .row_attrs = agg_attrs,
};

const struct pane_ops *pane_drill_target(const struct pane *pane, struct pane_scope *scope)
{
	const struct agg_row *row;
	const struct pane_ops *to;

	if (pane->ops == &ops_pane_ops || pane->ops == &drill_ops_pane_ops)
		to = &drill_kernels_pane_ops;
	else if (pane->ops == &kernels_pane_ops || pane->ops == &drill_kernels_pane_ops)
		to = &drill_ops_pane_ops;
	else
		return NULL;
	row = pane_row(pane, pane->cursor);
	if (!row)
		return NULL;
	/* A source layer launched nothing: nothing to drill into. */
	if (row->first && row->first->kind == NODE_SOURCE)
		return NULL;
	memset(scope, 0, sizeof(*scope));
	scope->step = pane->scope.step;
	scope->drill_name = row->name;
	if (row->first && (row->first->flags & NODE_DISTINCT))
		scope->drill_node = row->first;
	return to;
}

/* ---------------------------------------------------------------------
 * Steps: struct step rows, one column per category, and an average row.
 */

#define STEP(r) ((const struct step *)(r))

struct steps_priv {
	struct step average;
};

static const char *step_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return STEP(row)->name;
}

static const struct attr *step_attrs(const struct pane *pane, const void *row)
{
	(void)pane;
	return STEP(row)->attrs;
}

static struct cell get_step_cat(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane;
	return STEP(row)->cat_ns[c->arg] >= 0 ? cell_int(STEP(row)->cat_ns[c->arg]) : cell_none();
}

static struct cell get_step_bar(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c, (void)row;
	return cell_none();	/* drawn by the screen from the categories */
}

static const struct column col_step = {
	"step", "Step", "the step as the profile names it", COL_NAME, 0, get_name, NULL, 0, NULL,
	NULL
};
static const struct column col_step_total = {
	"total", "Total", "the step's length", COL_TIME, 10, pane_get_i64, NULL,
	offsetof(struct step, total_ns), NULL, NULL
};
static const struct column col_step_bar = {
	"bar", "Breakdown", "the categories of the step as a bar, scaled to the longest step",
	COL_BAR, 0, get_step_bar, NULL, 0, NULL, NULL
};

/* "CPU Exec" -> "cpu_exec". */
static char *snake(const char *s)
{
	char *k = xstrdup(s);

	for (char *p = k; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
		else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			*p = '_';
	}
	return k;
}

static void steps_load(struct pane *pane)
{
	struct profile *p = pane->prof;
	struct steps_priv *sp = xcalloc(1, sizeof(*sp));
	static const char *const skip[] = { NULL };

	pane->priv = sp;
	pane->rows = xmalloc((p->nr_steps ? p->nr_steps : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < p->nr_steps; i++)
		pane->rows[i] = &p->steps[i];
	pane->nr_rows = p->nr_steps;

	pane_add_column(pane, &col_step);
	pane_add_column(pane, &col_step_total);
	pane_add_column(pane, &col_step_bar);
	for (size_t k = 0; k < p->nr_step_cats; k++) {
		struct column c = { .kind = COL_TIME, .width = 10, .get = get_step_cat,
				    .arg = (int)k, .help = "time of the step in this category "
							   "(categories claim time in priority order)" };

		c.owned = snake(p->step_cats[k]);
		c.key = c.owned;
		c.owned_title = xstrdup(p->step_cats[k]);
		c.title = c.owned_title;
		pane_add_column(pane, &c);
	}
	pane_add_attr_columns(pane, skip);

	if (p->nr_steps > 1) {
		sp->average.name = "average";
		sp->average.cat_ns = xcalloc(p->nr_step_cats ? p->nr_step_cats : 1,
					     sizeof(*sp->average.cat_ns));
		pane->foot = xmalloc(sizeof(*pane->foot));
		pane->foot[0] = &sp->average;
		pane->nr_foot = 1;
	}
	pane->sort_col = -1;	/* step order */
}

/* The average row: over the steps shown (a filter narrows it) that have
 * each value, as torch-tb-profiler averages over its kept steps.  One step
 * is its own average (and a format may give only that), so it gets none. */
static void steps_rebuild(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct steps_priv *sp = pane->priv;
	struct step *avg = &sp->average;
	int64_t total = 0;

	pane_view_flat(pane);
	if (!pane->nr_foot)
		return;
	for (size_t i = 0; i < pane->nr_view; i++)
		total += ((const struct step *)pane_row(pane, i))->total_ns;
	avg->total_ns = pane->nr_view ? div_round(total, pane->nr_view) : 0;
	for (size_t k = 0; k < p->nr_step_cats; k++) {
		int64_t sum = 0;
		uint64_t n = 0;

		for (size_t i = 0; i < pane->nr_view; i++) {
			const struct step *s = pane_row(pane, i);

			if (s->cat_ns[k] >= 0) {
				sum += s->cat_ns[k];
				n++;
			}
		}
		avg->cat_ns[k] = n ? div_round(sum, n) : -1;
	}
}

static void steps_release(struct pane *pane)
{
	struct steps_priv *sp = pane->priv;

	if (sp)
		free(sp->average.cat_ns);
	free(sp);
}

const struct pane_ops steps_pane_ops = {
	.name = "steps", .title = "Steps",
	.load = steps_load, .rebuild = steps_rebuild, .row_name = step_name,
	.row_attrs = step_attrs, .release = steps_release,
};

/* ---------------------------------------------------------------------
 * Info: metadata, runs, warnings and what the profile holds.
 */

struct info_row {
	const char *section, *key, *value;
};

struct info_priv {
	struct info_row *rows;
	size_t nr, alloc;
	char **owned;		/* values formatted here */
	size_t nr_owned, alloc_owned;
};

#define INFO(r) ((const struct info_row *)(r))

static void info_add(struct info_priv *ip, const char *section, const char *key, const char *value)
{
	GROW(ip->rows, ip->alloc, ip->nr + 1);
	ip->rows[ip->nr].section = section;
	ip->rows[ip->nr].key = key;
	ip->rows[ip->nr].value = value;
	ip->nr++;
}

static const char *info_fmt(struct info_priv *ip, const char *fmt, ...) PRINTF_LIKE(2, 3);

static const char *info_fmt(struct info_priv *ip, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	GROW(ip->owned, ip->alloc_owned, ip->nr_owned + 1);
	ip->owned[ip->nr_owned] = xstrdup(buf);
	return ip->owned[ip->nr_owned++];
}

static const char *info_key(const struct pane *pane, const void *row)
{
	(void)pane;
	return INFO(row)->key;
}

static struct cell get_section(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(INFO(row)->section);
}

static struct cell get_value(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(INFO(row)->value);
}

static const struct column col_section = {
	"section", "Section", "where the line comes from", COL_TEXT, 14, get_section, NULL, 0,
	NULL, NULL
};
static const struct column col_key = {
	"key", "Key", "what the value is", COL_NAME, 0, get_name, NULL, 0, NULL, NULL
};
static const struct column col_value = {
	"value", "Value", "as the profile gives it, or as proftui counted it", COL_TEXT, 0,
	get_value, NULL, 0, NULL, NULL
};

static void info_load(struct pane *pane)
{
	struct profile *p = pane->prof;
	const struct profile *first = pane->scope.first_run ? pane->scope.first_run : p;
	struct info_priv *ip = xcalloc(1, sizeof(*ip));
	size_t nr_runs = profile_nr_runs(first), i = 1;

	pane->priv = ip;
	info_add(ip, "profile", "file", p->path);
	info_add(ip, "profile", "format", p->format ? p->format : "?");
	if (p->run_title)
		info_add(ip, "profile", "title", p->run_title);
	if (p->run_where)
		info_add(ip, "profile", "starts at", p->run_where);
	info_add(ip, "profile", "nodes", info_fmt(ip, "%u", p->nr_nodes));
	info_add(ip, "profile", "steps", info_fmt(ip, "%zu", p->nr_steps));
	info_add(ip, "profile", "device time",
		 p->has_device_time ? "yes" : "none (host-only profile)");
	if (nr_runs > 1) {
		for (const struct profile *r = first; r; r = r->next_run, i++)
			info_add(ip, "runs", info_fmt(ip, "run %zu%s", i, r == p ? " (shown)" : ""),
				 info_fmt(ip, "%s%s%s", r->run_where ? r->run_where : r->path,
					  r->run_title ? "  " : "", r->run_title ? r->run_title : ""));
	}
	for (const struct meta *m = p->meta; m; m = m->next)
		info_add(ip, m->section, m->key, m->value);
	for (const struct warning *w = p->warnings; w; w = w->next)
		info_add(ip, "warnings", w->text, info_fmt(ip, "%llu", (unsigned long long)w->count));

	pane->rows = xmalloc((ip->nr ? ip->nr : 1) * sizeof(*pane->rows));
	for (i = 0; i < ip->nr; i++)
		pane->rows[i] = &ip->rows[i];
	pane->nr_rows = ip->nr;
	pane_add_column(pane, &col_section);
	pane_add_column(pane, &col_key);
	pane_add_column(pane, &col_value);
	pane->sort_col = -1;
}

static void info_release(struct pane *pane)
{
	struct info_priv *ip = pane->priv;

	if (!ip)
		return;
	for (size_t i = 0; i < ip->nr_owned; i++)
		free(ip->owned[i]);
	free(ip->owned);
	free(ip->rows);
	free(ip);
}

const struct pane_ops info_pane_ops = {
	.name = "info", .title = "Info",
	.load = info_load, .row_name = info_key, .release = info_release,
};
