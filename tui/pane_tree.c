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
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane.h"

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

static void tree_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct tree_priv *tp = xcalloc(1, sizeof(*tp));
	bool dev = p->has_device_time, host = false;

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

static const enum action tree_hints[] = {
	ACT_HELP, ACT_FILTER, ACT_SORT_DEVICE_SELF, ACT_TOGGLE_FOLD, ACT_EXPORT, ACT_BACK, ACT_NONE,
};

const struct pane_ops tree_pane_ops = {
	.id = PANE_TREE, .follows_step = true,
	.load = tree_load, .rebuild = tree_rebuild, .row_name = tree_name,
	.row_attrs = tree_attrs, .row_depth = tree_depth, .row_fold = tree_fold_state,
	.handle = tree_handle, .step_changed = tree_step_changed, .hints = tree_hints,
	.release = tree_release,
};
