// SPDX-License-Identifier: MIT
/*
 * The Modules pane: torch-tb-profiler's Module view for traces recorded
 * with_modules -- the nn.Module hierarchy (model/modules.c), each module
 * with its occurrences, the ops called directly in it, and host and
 * device time, total and self -- folded and unfolded like the Tree pane,
 * siblings sorted by the active column.  Enter opens the ops called
 * under a module (pane_module_ops.c).
 *
 * Rows are module_view rows in their depth-first order; the view walks
 * the unfolded ones with each module's children sorted.  A filter shows
 * the modules that match and those above them.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/modules.h"
#include "../model/util.h"
#include "pane.h"

struct mod_priv {
	struct module_view mv;
	uint8_t *folded;		/* per row: the user's fold */
	uint8_t *keep;			/* per row: it or one below matches */
	int *depth;			/* per view row */
	uint8_t *fold;			/* per view row: 0 leaf, 1 open, 2 folded */
	size_t **kids;			/* per row: its children's row indices */
	size_t *nr_kids;
	size_t *roots, nr_roots;
};

#define MOD(r) ((const struct module_row *)(r))

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(MOD(row)->name);
}

static struct cell get_u64(const struct pane *pane, const void *row, const struct column *c)
{
	uint64_t v;

	(void)pane;
	memcpy(&v, (const char *)row + c->arg, sizeof(v));
	return cell_int((int64_t)v);
}

#define U64(f) .get = get_u64, .arg = offsetof(struct module_row, f)
#define I64(f) .get = pane_get_i64, .arg = offsetof(struct module_row, f)

static const struct column mod_cols[] = {
	{ .key = "name", .title = "Module", .kind = COL_NAME, .get = get_name,
	  .help = "an nn.Module (its name and index in the model); modules called the same way "
		  "make one tree, as in torch-tb-profiler's Module view" },
	{ .key = "occurrences", .title = "Calls", .kind = COL_COUNT, .width = 6, U64(occurrences),
	  .help = "how many times the module ran (every call of it, wherever in the tree)" },
	{ .key = "operators", .title = "Ops", .kind = COL_COUNT, .width = 5, U64(operators),
	  .help = "op calls made directly in the module, over its calls" },
	{ .key = "host_total", .title = "Host total", .kind = COL_TIME, .width = 10,
	  I64(host_total_ns),
	  .help = "host time of its calls, start to end" },
	{ .key = "host_self", .title = "Host self", .kind = COL_TIME, .width = 10,
	  I64(host_self_ns),
	  .help = "host time of its calls minus what ran under them" },
	{ .key = "device_total", .title = "Dev total", .kind = COL_TIME, .width = 10,
	  I64(device_total_ns),
	  .help = "device time of the work launched under its calls" },
	{ .key = "device_self", .title = "Dev self", .kind = COL_TIME, .width = 10,
	  I64(device_self_ns),
	  .help = "device time it launched outside its child modules: its ops and launches outside any op; self plus the child modules is the total" },
};

static const char *mod_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return MOD(row)->name;
}

static void mod_load(struct pane *pane)
{
	struct mod_priv *mp = xcalloc(1, sizeof(*mp));
	size_t n;

	pane->priv = mp;
	module_view(pane->prof, &mp->mv);
	pane->nr_capped += mp->mv.nr_capped;
	n = mp->mv.nr;
	mp->folded = xcalloc(n + 1, 1);
	mp->keep = xcalloc(n + 1, 1);
	mp->depth = xcalloc(n + 1, sizeof(*mp->depth));
	mp->fold = xcalloc(n + 1, 1);
	mp->kids = xcalloc(n + 1, sizeof(*mp->kids));
	mp->nr_kids = xcalloc(n + 1, sizeof(*mp->nr_kids));
	mp->roots = xmalloc((n + 1) * sizeof(*mp->roots));
	for (size_t i = 0; i < n; i++) {
		size_t parent = mp->mv.rows[i].parent;

		if (parent == SIZE_MAX) {
			mp->roots[mp->nr_roots++] = i;
			continue;
		}
		mp->kids[parent] = xrealloc(mp->kids[parent],
					    (mp->nr_kids[parent] + 1) * sizeof(**mp->kids));
		mp->kids[parent][mp->nr_kids[parent]++] = i;
	}
	pane->rows = xmalloc((n ? n : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < n; i++)
		pane->rows[i] = &mp->mv.rows[i];
	pane->nr_rows = n;
	for (size_t i = 0; i < ARRAY_SIZE(mod_cols); i++)
		pane_add_column(pane, &mod_cols[i]);
	pane->sort_col = pane_column(pane, "device_total");
	pane->sort_desc = true;
}

/* The view: depth first over what is open, siblings sorted. */
static void mod_rebuild(struct pane *pane)
{
	struct mod_priv *mp = pane->priv;
	size_t n = pane->nr_rows, nr = 0, depth_top = 0;
	size_t *stack = xmalloc((n + 1) * sizeof(*stack)), *order = xmalloc((n + 1) * sizeof(*order));

	for (size_t i = n; i-- > 0;) {
		const char *name = mp->mv.rows[i].name;

		mp->keep[i] |= !pane->filter || filter_match(pane->filter, name, strlen(name));
		if (!pane->filter)
			mp->keep[i] = 1;
		if (mp->keep[i] && mp->mv.rows[i].parent != SIZE_MAX)
			mp->keep[mp->mv.rows[i].parent] = 1;
	}
	pane->view = xrealloc(pane->view, (n ? n : 1) * sizeof(*pane->view));
	/* Roots, then each node's children, pushed in reverse sort order. */
	memcpy(order, mp->roots, mp->nr_roots * sizeof(*order));
	pane_sort_indices(pane, order, mp->nr_roots, pane->sort_col, pane->sort_desc);
	for (size_t k = mp->nr_roots; k-- > 0;)
		stack[depth_top++] = order[k];
	while (depth_top) {
		size_t i = stack[--depth_top];
		const struct module_row *r = &mp->mv.rows[i];
		bool open = !mp->folded[i] || pane->filter || pane->scope.expand_all;

		if (!mp->keep[i])
			continue;
		pane->view[nr] = i;
		mp->depth[nr] = r->depth;
		mp->fold[nr] = !mp->nr_kids[i] ? 0 : open ? 1 : 2;
		nr++;
		if (!open || !mp->nr_kids[i])
			continue;
		memcpy(order, mp->kids[i], mp->nr_kids[i] * sizeof(*order));
		pane_sort_indices(pane, order, mp->nr_kids[i], pane->sort_col, pane->sort_desc);
		for (size_t k = mp->nr_kids[i]; k-- > 0;)
			stack[depth_top++] = order[k];
	}
	pane->nr_view = nr;
	for (size_t i = 0; i < n; i++)
		mp->keep[i] = 0;
	free(stack);
	free(order);
}

static int mod_depth(const struct pane *pane, size_t i)
{
	const struct mod_priv *mp = pane->priv;

	return i < pane->nr_view ? mp->depth[i] : 0;
}

static int mod_fold(const struct pane *pane, size_t i)
{
	const struct mod_priv *mp = pane->priv;

	return i < pane->nr_view ? mp->fold[i] : 0;
}

/* The row index of view row I. */
static size_t row_of(const struct pane *pane, size_t i)
{
	return pane->view[i];
}

static bool mod_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct mod_priv *mp = pane->priv;
	size_t i;

	(void)req;
	if (!pane->nr_view)
		return false;
	i = row_of(pane, pane->cursor);
	switch (act) {
	case ACT_UNFOLD:
		mp->folded[i] = 0;
		break;
	case ACT_FOLD:
		if (!mp->folded[i] && mp->nr_kids[i]) {
			mp->folded[i] = 1;
			break;
		}
		/* Closed already (or a leaf): to its parent. */
		for (size_t v = 0; v < pane->nr_view; v++)
			if (row_of(pane, v) == mp->mv.rows[i].parent)
				pane->cursor = v;
		return true;
	case ACT_TOGGLE_FOLD:
		mp->folded[i] = !mp->folded[i];
		break;
	case ACT_UNFOLD_ALL:
		for (size_t k = i; k < pane->nr_rows && (k == i || mp->mv.rows[k].depth >
							       mp->mv.rows[i].depth); k++)
			mp->folded[k] = 0;
		break;
	default:
		return false;
	}
	pane_rebuild(pane);
	return true;
}

/* Enter: the ops called under the module (every call of it). */
static enum pane_id mod_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	scope->step = pane->scope.step;
	scope->drill_name = MOD(row)->name;
	scope->drill_node = MOD(row)->first;
	return PANE_MODULE_OPS;
}

static void mod_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "the Modules pane needs the trace: a summary holds no call tree");
	else
		snprintf(buf, size, "no nn.Module calls (record with with_modules=True or "
				    "with_stack=True)");
}

static void mod_release(struct pane *pane)
{
	struct mod_priv *mp = pane->priv;

	if (!mp)
		return;
	for (size_t i = 0; i < mp->mv.nr; i++)
		free(mp->kids[i]);
	free(mp->kids);
	free(mp->nr_kids);
	free(mp->roots);
	free(mp->folded);
	free(mp->keep);
	free(mp->depth);
	free(mp->fold);
	module_view_release(&mp->mv);
	free(mp);
}

static const enum action mod_hints[] = {
	ACT_HELP, ACT_TOGGLE_FOLD, ACT_DRILL, ACT_FILTER, ACT_SORT_DEVICE_TOTAL, ACT_EXPORT, ACT_BACK,
	ACT_NONE,
};

static const char *const mod_aliases[] = { "module", NULL };

/* The actions handle() takes. */
static const enum action mod_actions[] = {
	ACT_UNFOLD, ACT_FOLD, ACT_TOGGLE_FOLD, ACT_UNFOLD_ALL, ACT_NONE,
};

static const struct pane_tree_ops mod_tree = { .row_depth = mod_depth, .row_fold = mod_fold };
static const struct pane_text_ops mod_text = { .hints = mod_hints };

const struct pane_ops modules_pane_ops = {
	.id = PANE_MODULES, .aliases = mod_aliases, .available = pane_one_profile,
	.load = mod_load, .rebuild = mod_rebuild, .row_name = mod_name,
	.handle = mod_handle, .actions = mod_actions, .drill = mod_drill,
	.empty_text = mod_empty, .needs_trace = pane_empty_of_summary, .release = mod_release,
	.tree = &mod_tree, .text = &mod_text,
};
