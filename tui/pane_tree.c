// SPDX-License-Identifier: MIT
/*
 * The Tree pane: the call tree folded and unfolded in place, as perf
 * report shows it.  Rows are the profile's nodes indexed by id; the view
 * is a depth-first walk over the unfolded nodes with each node's children
 * sorted by the active column.
 *
 * A filter shows every node that matches with its ancestors (unfolded, so
 * the match is on screen) and its whole subtree; a step shows the nodes
 * that started in it the same way.  Walks are iterative: a trace can nest
 * deeper than the C stack would like.
 *
 * A key must answer at once on a 2.5 M node tree, so each piece of work
 * is redone only when what it depends on changed: the children of every
 * node in the sort order (one sort of all nodes, then a counting pass)
 * when the sort changes; the filter and step marks when those change;
 * and the view, a walk of what is open, for a fold.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/diff.h"
#include "../model/util.h"
#include "pane.h"
#include "pane_multi.h"

struct tree_priv {
	uint8_t *state;		/* per node id: TREE_* bits */
	uint32_t *depth;	/* per view row */
	uint8_t *fold;		/* per view row: 0 leaf, 1 open, 2 folded */
	size_t *parent_row;	/* per view row */
	size_t view_cap;
	int64_t t0;		/* earliest start, for the Start column */

	/* The children of node N in the current sort order are
	 * kids[first[N] .. first[N + 1]); made for (kids_col, kids_desc). */
	uint32_t *first, *kids;
	int kids_col;
	bool kids_desc, has_kids;
	bool fold_only;		/* the next rebuild follows a fold: the marks
				   and the order still hold */
	const struct node *drilled[1];	/* what `o` opened the ops of */

	/* A diff (issue 12): torch-tb-profiler's diff tree, made a profile
	 * of its own (one node per diff node) that pane->prof points to
	 * while the pane lives, so folding, sorting and filtering are the
	 * Tree's own. */
	struct diff_tree *dt;
	struct profile *diff_prof;
	const struct diff_node **diff_of;	/* per node id of diff_prof */
};

enum {
	TREE_UNFOLDED = 1 << 0,	/* fold state, the user's */
	TREE_SEED = 1 << 1,	/* matches the filter and the step */
	TREE_UNDER_SEED = 1 << 2,	/* a seed is an ancestor */
	TREE_ABOVE_SEED = 1 << 3,	/* a seed is a descendant */
};

#define NODE(r) ((const struct node *)(r))

static const char *tree_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return NODE(row)->name;
}

static const struct attr *tree_attrs(const struct pane *pane, const void *row)
{
	(void)pane;
	return NODE(row)->attrs;
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(NODE(row)->name);
}

static struct cell get_kind(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(node_kind_name(NODE(row)->kind));
}

static struct cell get_calls(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)NODE(row)->calls);
}

static struct cell get_start(const struct pane *pane, const void *row, const struct column *c)
{
	const struct tree_priv *tp = pane->priv;

	(void)c;
	if (!NODE(row)->start_ns)
		return cell_none();
	return cell_int(NODE(row)->start_ns - tp->t0);
}

static const struct column tree_cols[] = {
	{ .key = "name", .title = "Name", .kind = COL_NAME, .get = get_name,
	  .help = "the call tree: ops, the runtime calls they made, the kernels those launched" },
	{ .key = "kind", .title = "Kind", .kind = COL_TEXT, .width = 8, .get = get_kind,
	  .help = "op, runtime, kernel, memcpy, step, thread, layer..." },
	{ .key = "calls", .title = "Calls", .kind = COL_COUNT, .width = 6, .get = get_calls,
	  .help = "calls merged into this node (1 for a trace event)" },
	{ .key = "device_self", .title = "Dev self", .kind = COL_TIME, .width = 10,
	  .get = pane_get_i64, .arg = offsetof(struct node, device_self_ns),
	  .help = "device time of the work this node launched itself" },
	{ .key = "device_total", .title = "Dev total", .kind = COL_TIME, .width = 10,
	  .get = pane_get_i64, .arg = offsetof(struct node, device_total_ns),
	  .help = "device time of everything under this node" },
	{ .key = "host_self", .title = "Host self", .kind = COL_TIME, .width = 10,
	  .get = pane_get_i64, .arg = offsetof(struct node, host_self_ns),
	  .help = "host time in this node minus its children" },
	{ .key = "host_total", .title = "Host total", .kind = COL_TIME, .width = 10,
	  .get = pane_get_i64, .arg = offsetof(struct node, host_total_ns),
	  .help = "host time from start to end" },
	{ .key = "start", .title = "Start", .kind = COL_TIME, .width = 11, .get = get_start,
	  .help = "when it started, after the profile's first event" },
};

static bool collect(struct node *n, void *ctx)
{
	struct pane *pane = ctx;
	struct tree_priv *tp = pane->priv;

	if (n->id < pane->nr_rows)
		pane->rows[n->id] = n;
	if (n->start_ns && n->start_ns < tp->t0)
		tp->t0 = n->start_ns;
	return true;
}

static void diff_load(struct pane *pane);

static void tree_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct tree_priv *tp;
	bool dev = p->has_device_time, host = false;

	if (p->is_summary || (pane_diff_base(&pane->scope) && pane_diff_base(&pane->scope)->is_summary)) {
		/* A summary has no tree: the pane says so (tree_empty_text). */
		pane->priv = xcalloc(1, sizeof(struct tree_priv));
		pane_add_column(pane, &tree_cols[0]);
		return;
	}
	if (pane_diff_base(&pane->scope)) {
		diff_load(pane);
		return;
	}
	tp = xcalloc(1, sizeof(*tp));

	pane->priv = tp;
	tp->t0 = INT64_MAX;
	pane->nr_rows = p->nr_nodes;
	pane->rows = xcalloc(p->nr_nodes ? p->nr_nodes : 1, sizeof(*pane->rows));
	tp->state = xcalloc(p->nr_nodes ? p->nr_nodes : 1, 1);
	node_walk(p->root, collect, pane);
	for (size_t i = 0; i < pane->nr_rows; i++) {
		const struct node *n = pane->rows[i];

		if (!n)
			continue;
		host |= n->host_total_ns != 0;
		/* Structure starts open, calls start folded (perf report);
		 * --print shows everything. */
		if (pane->scope.expand_all || n->kind == NODE_ROOT || n->kind == NODE_THREAD ||
		    n->kind == NODE_GROUP)
			tp->state[i] |= TREE_UNFOLDED;
	}
	pane_add_column(pane, &tree_cols[0]);
	pane_add_column(pane, &tree_cols[1]);
	pane_add_column(pane, &tree_cols[2]);
	if (dev) {
		pane_add_column(pane, &tree_cols[3]);
		pane_add_column(pane, &tree_cols[4]);
	}
	if (host) {
		pane_add_column(pane, &tree_cols[5]);
		pane_add_column(pane, &tree_cols[6]);
	}
	if (p->has_timeline)
		pane_add_column(pane, &tree_cols[7]);
	/* The nodes' own values (shapes, FLOPs, a kernel's occupancy, a
	 * layer's tactic): wherever a node has them. */
	pane_add_attr_columns(pane, NULL);
	pane->sort_col = pane_column(pane, dev ? "device_total" : host ? "host_total" : "calls");
	pane->sort_desc = true;
}

static void tree_release(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;

	if (!tp)
		return;
	if (tp->dt) {
		diff_tree_release(tp->dt);
		free(tp->dt);
		profile_release(tp->diff_prof);
		free(tp->diff_prof);
		free(tp->diff_of);
	}
	free(tp->state);
	free(tp->depth);
	free(tp->fold);
	free(tp->parent_row);
	free(tp->first);
	free(tp->kids);
	free(tp);
}

/* A node the step scope claims: it started inside the step.  Structure
 * (root, threads, groups) belongs to every step. */
static bool in_step(const struct pane *pane, const struct node *n)
{
	const struct step *s = pane->scope.step;

	if (!s || !pane->prof->has_timeline)
		return true;
	if (!n->start_ns)
		return false;
	return node_in_step(n, s);
}

/*
 * The filter's verdict per name.  A trace calls the same few thousand ops
 * millions of times and names are interned (equal names, equal pointers),
 * so each name goes through PCRE2 once per filter, not once per node.
 */
struct verdicts {
	const char **keys;
	bool *match;
	size_t cap, nr;
};

static bool verdict(struct verdicts *v, const struct filter *f, const char *name)
{
	size_t i;

	if (!f)
		return true;
	if (2 * (v->nr + 1) > v->cap) {
		struct verdicts old = *v;

		v->cap = v->cap ? 2 * v->cap : 1024;
		v->keys = xcalloc(v->cap, sizeof(*v->keys));
		v->match = xcalloc(v->cap, sizeof(*v->match));
		v->nr = 0;
		for (size_t k = 0; k < old.cap; k++) {
			if (!old.keys[k])
				continue;
			for (i = hash_ptr(old.keys[k]) & (v->cap - 1); v->keys[i]; i = (i + 1) & (v->cap - 1))
				;
			v->keys[i] = old.keys[k];
			v->match[i] = old.match[k];
			v->nr++;
		}
		free(old.keys);
		free(old.match);
	}
	for (i = hash_ptr(name) & (v->cap - 1); v->keys[i]; i = (i + 1) & (v->cap - 1))
		if (v->keys[i] == name)
			return v->match[i];
	v->keys[i] = name;
	v->match[i] = filter_match(f, name, strlen(name));
	v->nr++;
	return v->match[i];
}

/*
 * Mark seeds (nodes that match the filter and the step), the nodes under a
 * seed and the nodes above one, in one iterative pre/post-order walk.
 */
static void mark(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;
	const struct node *root = pane->prof->root;
	const struct node *n = root;
	bool scoped = pane->filter || (pane->scope.step && pane->prof->has_timeline);
	struct verdicts v = { 0 };

	for (size_t i = 0; i < pane->nr_rows; i++)
		tp->state[i] &= TREE_UNFOLDED;
	if (!scoped)
		return;
	/* Pre-order: seeds and what lies under them. */
	while (n) {
		uint8_t *st = &tp->state[n->id];

		if (n != root) {
			bool under = n->parent != root &&
				     (tp->state[n->parent->id] & (TREE_SEED | TREE_UNDER_SEED));

			if (under)
				*st |= TREE_UNDER_SEED;
			else if (in_step(pane, n) && verdict(&v, pane->filter, n->name))
				*st |= TREE_SEED;
		}
		if (n->child) {
			n = n->child;
			continue;
		}
		while (n != root && !n->next) {
			/* Post-order, on the way up: pass "a seed below" to
			 * the parent. */
			const struct node *up = n->parent;

			if (tp->state[n->id] & (TREE_SEED | TREE_ABOVE_SEED))
				tp->state[up->id] |= TREE_ABOVE_SEED;
			n = up;
		}
		if (n == root)
			break;
		if (tp->state[n->id] & (TREE_SEED | TREE_ABOVE_SEED))
			tp->state[n->parent->id] |= TREE_ABOVE_SEED;
		n = n->next;
	}
	free(v.keys);
	free(v.match);
}

static bool shown(const struct pane *pane, const struct node *n)
{
	const struct tree_priv *tp = pane->priv;
	bool scoped = pane->filter || (pane->scope.step && pane->prof->has_timeline);

	return !scoped || (tp->state[n->id] & (TREE_SEED | TREE_UNDER_SEED | TREE_ABOVE_SEED));
}

static bool is_open(const struct pane *pane, const struct node *n)
{
	const struct tree_priv *tp = pane->priv;

	/* The path down to a match is opened for the user. */
	if ((tp->state[n->id] & TREE_ABOVE_SEED) && !(tp->state[n->id] & TREE_SEED))
		return true;
	return tp->state[n->id] & TREE_UNFOLDED;
}

/*
 * Every node's children in the order of the sort column: one stable sort
 * of all nodes (ties keep the model's order), then each node goes to its
 * parent's list in that order.
 */
static void sort_kids(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;
	size_t n = pane->nr_rows, *order = xmalloc((n ? n : 1) * sizeof(*order));
	uint32_t *next;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	pane_sort_indices(pane, order, n, pane->sort_col, pane->sort_desc);
	free(tp->first);
	free(tp->kids);
	tp->first = xcalloc(n + 2, sizeof(*tp->first));
	tp->kids = xmalloc((n ? n : 1) * sizeof(*tp->kids));
	for (size_t i = 0; i < n; i++) {
		const struct node *c = pane->rows[i];

		if (c->parent)
			tp->first[c->parent->id + 1]++;
	}
	for (size_t i = 1; i <= n; i++)
		tp->first[i] += tp->first[i - 1];
	next = xmalloc((n ? n : 1) * sizeof(*next));
	memcpy(next, tp->first, n * sizeof(*next));
	for (size_t k = 0; k < n; k++) {
		const struct node *c = pane->rows[order[k]];

		if (c->parent)
			tp->kids[next[c->parent->id]++] = c->id;
	}
	free(next);
	free(order);
	tp->kids_col = pane->sort_col;
	tp->kids_desc = pane->sort_desc;
	tp->has_kids = true;
}

static void add_row(struct pane *pane, size_t *nr, const struct node *n, uint32_t depth,
		    size_t parent_row, uint8_t fold)
{
	struct tree_priv *tp = pane->priv;

	if (*nr == tp->view_cap) {
		tp->view_cap = tp->view_cap ? tp->view_cap * 2 : 1024;
		pane->view = xrealloc(pane->view, tp->view_cap * sizeof(*pane->view));
		tp->depth = xrealloc(tp->depth, tp->view_cap * sizeof(*tp->depth));
		tp->fold = xrealloc(tp->fold, tp->view_cap);
		tp->parent_row = xrealloc(tp->parent_row, tp->view_cap * sizeof(*tp->parent_row));
	}
	pane->view[*nr] = n->id;
	tp->depth[*nr] = depth;
	tp->parent_row[*nr] = parent_row;
	tp->fold[*nr] = fold;
	(*nr)++;
}

/* Whether N has a child the view shows. */
static bool has_shown_kid(const struct pane *pane, const struct node *n)
{
	const struct tree_priv *tp = pane->priv;

	for (uint32_t k = tp->first[n->id]; k < tp->first[n->id + 1]; k++)
		if (shown(pane, pane->rows[tp->kids[k]]))
			return true;
	return false;
}

struct frame {
	const struct node *n;	/* the open node whose children come next */
	uint32_t next;		/* index into kids */
	size_t row;		/* its view row, SIZE_MAX for the root */
	uint32_t depth;		/* its children's depth */
};

/* The view: a depth-first walk of the shown nodes, into open ones only. */
static void build_view(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;
	const struct node *root = pane->prof->root;
	struct frame *stack = NULL;
	size_t depth = 1, alloc = 0, nr = 0;

	GROW(stack, alloc, 1);
	stack[0] = (struct frame){ root, tp->first[root->id], SIZE_MAX, 0 };
	while (depth) {
		struct frame *f = &stack[depth - 1];
		const struct node *n;
		uint8_t fold;

		if (f->next == tp->first[f->n->id + 1]) {
			depth--;
			continue;
		}
		n = pane->rows[tp->kids[f->next++]];
		if (!shown(pane, n))
			continue;
		if (!n->child)
			fold = 0;
		else if (!is_open(pane, n))
			fold = 2;
		else
			fold = has_shown_kid(pane, n) ? 1 : 0;
		add_row(pane, &nr, n, f->depth, f->row, fold);
		if (fold != 1)
			continue;
		GROW(stack, alloc, depth + 1);
		f = &stack[depth - 1];
		stack[depth++] = (struct frame){ n, tp->first[n->id], nr - 1, f->depth + 1 };
	}
	free(stack);
	pane->nr_view = nr;
}

static void tree_rebuild(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;

	if (!pane->nr_rows) {
		pane->nr_view = 0;	/* a summary: no tree */
		return;
	}

	/* A fold changes neither the marks nor the order. */
	if (!tp->fold_only)
		mark(pane);
	tp->fold_only = false;
	if (!tp->has_kids || tp->kids_col != pane->sort_col || tp->kids_desc != pane->sort_desc)
		sort_kids(pane);
	build_view(pane);
}

static int tree_depth(const struct pane *pane, size_t i)
{
	const struct tree_priv *tp = pane->priv;

	return i < pane->nr_view ? (int)tp->depth[i] : 0;
}

static int tree_fold_state(const struct pane *pane, size_t i)
{
	const struct tree_priv *tp = pane->priv;

	return i < pane->nr_view ? tp->fold[i] : 0;
}

/* Fold or unfold view row I (UNFOLD < 0 toggles). */
static void tree_fold(struct pane *pane, size_t i, int unfold)
{
	struct tree_priv *tp = pane->priv;
	size_t id;

	if (i >= pane->nr_view)
		return;
	id = pane->view[i];
	if (unfold < 0)
		unfold = tp->fold[i] == 2;
	if (unfold)
		tp->state[id] |= TREE_UNFOLDED;
	else
		tp->state[id] &= (uint8_t)~TREE_UNFOLDED;
	/* A path opened for a filter match folds for real only when the
	 * user unfolds and folds it; say so by clearing the mark too. */
	if (!unfold)
		tp->state[id] &= (uint8_t)~TREE_ABOVE_SEED;
	tp->fold_only = true;
	pane_rebuild(pane);
}

static bool unfold_one(struct node *n, void *ctx)
{
	struct tree_priv *tp = ctx;

	tp->state[n->id] |= TREE_UNFOLDED;
	return true;
}

/* Unfold everything under view row I. */
static void tree_unfold_all(struct pane *pane, size_t i)
{
	struct tree_priv *tp = pane->priv;

	if (i >= pane->nr_view)
		return;
	/* The walk only sets bits in the pane's own state: the profile is
	 * not changed, whatever node_walk's signature says. */
	node_walk((struct node *)pane->rows[pane->view[i]], unfold_one, tp);
	tp->fold_only = true;
	pane_rebuild(pane);
}

/* The view row of I's parent, or I itself at the top. */
static size_t tree_parent_row(const struct pane *pane, size_t i)
{
	const struct tree_priv *tp = pane->priv;

	if (i >= pane->nr_view || tp->parent_row[i] == SIZE_MAX)
		return i;
	return tp->parent_row[i];
}

/* A step picked elsewhere: the marks change (the next rebuild makes
 * them), not the rows -- no reload of millions of nodes. */
static void tree_step_changed(struct pane *pane)
{
	(void)pane;
}

/* The Tree's own keys: perf report's folding. */
static bool tree_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	int fold;

	(void)req;
	if (!pane->nr_view)
		return false;	/* nothing to fold: open means drill, close goes back */
	fold = tree_fold_state(pane, pane->cursor);
	switch (act) {
	case ACT_UNFOLD:
		if (fold == 2)
			tree_fold(pane, pane->cursor, 1);
		else if (fold == 1 && pane->cursor + 1 < pane->nr_view)
			pane->cursor++;	/* open already: step into it */
		return true;
	case ACT_FOLD:
		if (fold == 1)
			tree_fold(pane, pane->cursor, 0);
		else
			pane->cursor = tree_parent_row(pane, pane->cursor);
		return true;
	case ACT_TOGGLE_FOLD:
		if (fold)
			tree_fold(pane, pane->cursor, -1);
		return true;
	case ACT_UNFOLD_ALL:
		tree_unfold_all(pane, pane->cursor);
		return true;
	default:
		return false;
	}
}

/* ---------------------------------------------------------------------
 * The diff Tree and `o`
 */

#define DNODE(pane, row) (((const struct tree_priv *)(pane)->priv)->diff_of[NODE(row)->id])

enum { DT_HOST, DT_DEVICE, DT_TOTAL };
enum { DP_BASE, DP_NEW, DP_DELTA, DP_DELTA_PCT };

static int64_t side_time(const struct diff_side *s, int which)
{
	int64_t host, device, total;

	diff_side_times(s, &host, &device, &total);
	return which == DT_HOST ? host : which == DT_DEVICE ? device : total;
}

/* c->arg: metric * 4 + part. */
static struct cell get_diff_time(const struct pane *pane, const void *row, const struct column *c)
{
	const struct diff_node *d = DNODE(pane, row);
	int which = c->arg / 4, part = c->arg % 4;
	int64_t b, n;

	if (!d)
		return cell_none();
	b = side_time(&d->side[0], which);
	n = side_time(&d->side[1], which);
	switch (part) {
	case DP_BASE:
		return d->side[0].nr ? cell_int(b) : cell_none();
	case DP_NEW:
		return d->side[1].nr ? cell_int(n) : cell_none();
	case DP_DELTA:
		return cell_int(n - b);
	default:
		return b && d->side[0].nr && d->side[1].nr ? cell_real(100.0 * (double)(n - b) / (double)b)
							   : cell_none();
	}
}

static struct cell get_diff_status(const struct pane *pane, const void *row, const struct column *c)
{
	const struct diff_node *d = DNODE(pane, row);

	(void)c;
	if (!d)
		return cell_none();
	if (!d->side[0].nr || !d->side[1].nr)
		return cell_text(diff_status_name(d->side[1].nr ? DIFF_ADDED : DIFF_REMOVED));
	return cell_text(diff_status_name(diff_status_of((double)side_time(&d->side[0], DT_TOTAL),
							 (double)side_time(&d->side[1], DT_TOTAL),
							 true)));
}

static struct cell get_side_name(const struct pane *pane, const void *row, const struct column *c)
{
	const struct diff_node *d = DNODE(pane, row);

	return d ? cell_text(diff_side_name(&d->side[c->arg])) : cell_none();
}

static const struct column diff_status_col = {
	.key = "status", .title = "Status", .kind = COL_TEXT, .width = 8, .get = get_diff_status,
	.help = "added, removed (one side has no node here), slower, faster or same by the total "
		"duration (within 2% or 1 us, as the other diff panes)",
};

/* The base/new/diff/diff% columns of one of the plugin's three numbers. */
static void add_diff_group(struct pane *pane, int which, const char *key, const char *json,
			   const char *title, const char *help)
{
	static const char *const part_key[] = { "_base", "_new", "", "_delta_pct" };
	static const char *const part_json[] = { "_base", "_new", "_delta", "_delta_pct" };

	for (int part = 0; part < 4; part++) {
		char buf[96];
		struct column c = { .kind = part == DP_DELTA_PCT ? COL_PCT : COL_TIME, .width = 10,
				    .get = get_diff_time, .arg = which * 4 + part,
				    .sort_by_magnitude = part == DP_DELTA };

		snprintf(buf, sizeof(buf), "%s%s", key, part_key[part]);
		c.owned = xstrdup(buf);
		c.key = c.owned;
		snprintf(buf, sizeof(buf), "%s%s", json, part_json[part]);
		c.owned_json_key = xstrdup(buf);
		c.json_key = c.owned_json_key;
		snprintf(buf, sizeof(buf), "%s", part == DP_BASE ? title : part == DP_NEW ? "new"
					   : part == DP_DELTA ? "diff" : "diff%");
		if (part == DP_DELTA)
			snprintf(buf, sizeof(buf), "%s diff", title);
		c.owned_title = xstrdup(buf);
		c.title = c.owned_title;
		if (c.width < (int)strlen(c.title))
			c.width = (int)strlen(c.title);
		c.help = part == DP_BASE ? help : part == DP_NEW ? "the same of the new run"
			 : part == DP_DELTA ? "new minus base" : "the change as a percentage of the base";
		pane_add_column(pane, &c);
	}
}

static void diff_load(struct pane *pane)
{
	const struct profile *base = pane_diff_base(&pane->scope);
	struct tree_priv *tp = xcalloc(1, sizeof(*tp));
	struct profile *dp = xmalloc(sizeof(*dp));
	struct node **made;
	struct dframe {
		const struct diff_node *d;
		struct node *parent;
	} *stack;
	size_t depth = 0, k = 0;

	pane->priv = tp;
	tp->t0 = INT64_MAX;
	tp->dt = xmalloc(sizeof(*tp->dt));
	diff_tree_build(tp->dt, base, pane->prof);
	profile_init(dp, pane->prof->path);
	tp->diff_prof = dp;
	/* One node per diff node, in its pre-order, under the root. */
	made = xmalloc(tp->dt->nr_nodes * sizeof(*made));
	stack = xmalloc(tp->dt->nr_nodes * sizeof(*stack));
	stack[depth].d = tp->dt->root;
	stack[depth++].parent = dp->root;
	while (depth) {
		const struct diff_node *d = stack[--depth].d;
		struct node *parent = stack[depth].parent, *n;
		const char *b = diff_side_name(&d->side[0]), *w = diff_side_name(&d->side[1]);
		const struct diff_side *one = d->side[1].nr == 1 && !d->side[1].is_list ? &d->side[1]
					    : d->side[0].nr == 1 && !d->side[0].is_list ? &d->side[0]
											  : NULL;
		char name[1024];
		size_t first = depth;

		if (!strcmp(b, w))
			snprintf(name, sizeof(name), "%s", b);
		else
			snprintf(name, sizeof(name), "%s | %s", b, w);
		n = node_new(dp, parent, one ? (enum node_kind)one->nodes[0]->kind : NODE_GROUP, name,
			     strlen(name));
		n->calls = 1;
		made[k++] = n;
		for (const struct diff_node *c = d->child; c; c = c->next) {
			stack[depth].d = c;
			stack[depth++].parent = n;
		}
		for (size_t a = first, z = depth; a + 1 < z; a++, z--) {
			struct dframe t = stack[a];

			stack[a] = stack[z - 1];
			stack[z - 1] = t;
		}
	}
	profile_finish(dp);
	tp->diff_of = xcalloc(dp->nr_nodes ? dp->nr_nodes : 1, sizeof(*tp->diff_of));
	for (size_t i = 0; i < k; i++)
		tp->diff_of[made[i]->id] = tp->dt->nodes[i];
	free(made);
	free(stack);

	pane->prof = dp;
	pane->nr_rows = dp->nr_nodes;
	pane->rows = xcalloc(dp->nr_nodes ? dp->nr_nodes : 1, sizeof(*pane->rows));
	tp->state = xcalloc(dp->nr_nodes ? dp->nr_nodes : 1, 1);
	node_walk(dp->root, collect, pane);
	for (size_t i = 0; i < pane->nr_rows; i++) {
		const struct node *n = pane->rows[i];

		/* The root and its children open; expanded whole for --print. */
		if (pane->scope.expand_all || n->kind == NODE_ROOT || (n->parent && n->parent->kind == NODE_ROOT))
			tp->state[i] |= TREE_UNFOLDED;
	}
	pane_add_column(pane, &tree_cols[0]);
	pane_add_column(pane, &diff_status_col);
	add_diff_group(pane, DT_TOTAL, "total", "total_us", "Total",
		       "torch-tb-profiler's total duration of the base's node(s): each node's "
		       "device time, else its host time, summed");
	add_diff_group(pane, DT_DEVICE, "device_total", "device_total_us", "Dev total",
		       "the device time of everything under the base's node(s) (the plugin's "
		       "device duration)");
	add_diff_group(pane, DT_HOST, "host_total", "host_total_us", "Host total",
		       "the host time of the base's node(s), start to end (the plugin's duration)");
	{
		static const struct column names[] = {
			{ .key = "base_name", .title = "Base", .kind = COL_TEXT, .width = 16,
			  .get = get_side_name, .arg = 0,
			  .help = "the base's node: its name, CompositeNodes for the run of nodes "
				  "between two matched ones, Blank for none" },
			{ .key = "new_name", .title = "New", .kind = COL_TEXT, .width = 16,
			  .get = get_side_name, .arg = 1, .help = "the same of the new run" },
		};

		pane_add_column(pane, &names[0]);
		pane_add_column(pane, &names[1]);
	}
	pane->sort_col = -1;	/* the plugin's order: matched in time */
	pane->sort_desc = false;
	if (!pane->title)
		pane->title = xstrdup("Tree diff");
}

/* `o`: the ops under the node (under both sides of a diff node). */
static const struct pane_ops *tree_drill(const struct pane *pane, const void *row,
					 struct pane_scope *scope)
{
	struct tree_priv *tp = pane->priv;

	if (tp->dt) {
		const struct diff_node *d = DNODE(pane, row);

		if (!d || (!d->side[0].nr && !d->side[1].nr))
			return NULL;
		scope->under = d->side[1].nodes;
		scope->nr_under = d->side[1].nr;
		scope->base_under = d->side[0].nodes;
		scope->nr_base_under = d->side[0].nr;
	} else {
		if (NODE(row)->kind == NODE_ROOT)
			return NULL;
		tp->drilled[0] = row;
		scope->under = tp->drilled;
		scope->nr_under = 1;
	}
	scope->step = pane->scope.step;
	return &under_pane_ops;
}

static void tree_empty_text(const struct pane *pane, char *buf, size_t size)
{
	const struct profile *base = pane_diff_base(&pane->scope);

	if (pane->prof->is_summary || (base && base->is_summary))
		snprintf(buf, size, "the Tree needs the trace: a summary holds its tables, not the "
				    "call tree");
	else
		snprintf(buf, size, "no calls");
}

static const enum action tree_hints[] = {
	ACT_HELP, ACT_FILTER, ACT_SORT_DEVICE_SELF, ACT_TOGGLE_FOLD, ACT_EXPORT, ACT_BACK, ACT_NONE,
};

const struct pane_ops tree_pane_ops = {
	.id = PANE_TREE, .follows_step = true,
	.load = tree_load, .rebuild = tree_rebuild, .row_name = tree_name,
	.row_attrs = tree_attrs, .row_depth = tree_depth, .row_fold = tree_fold_state,
	.handle = tree_handle, .step_changed = tree_step_changed, .hints = tree_hints,
	.release = tree_release, .drill = tree_drill, .align = ALIGN_SELF,
	.empty_text = tree_empty_text,
};
