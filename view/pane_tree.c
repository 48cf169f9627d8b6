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
 * is redone only when what it depends on changed, and no key walks the
 * nodes themselves (120 bytes each, a cache miss apiece): the pane keeps
 * the tree's shape in arrays of node ids, which profile_finish() numbers
 * in pre-order -- a node's parent, its children (in the model's order and
 * in the sort order) -- and one state byte per node.  A child list is
 * sorted when the view first opens it after a sort change, so a sort
 * costs what is on screen, not the whole tree; the filter and step marks
 * are two sequential passes over the ids; the view is a walk of the open
 * nodes' lists.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/diff.h"
#include "../model/util.h"
#include "detail.h"
#include "pane.h"
#include "pane_multi.h"

/* What sorting one child list at a time needs: a thread's own. */
struct list_sorter {
	size_t *buf;		/* the list being sorted */
	size_t cap;
	struct pane_sort_scratch scratch;
};

struct tree_priv {
	uint8_t *state;		/* per node id: TREE_* bits */
	uint32_t *parent;	/* per node id; NO_PARENT for the root */
	uint32_t *depth;	/* per view row */
	uint8_t *fold;		/* per view row: 0 leaf, 1 open, 2 folded */
	size_t view_cap;
	int64_t t0;		/* earliest start, for the Start column */

	/* The children of node N are kids[first[N] .. first[N + 1]): in
	 * the sort order (kids_col, kids_desc) once N is TREE_SORTED, and
	 * in the model's order (ascending ids) in model_kids. */
	uint32_t *first, *kids, *model_kids;
	int kids_col;
	bool kids_desc;
	bool fold_only;		/* the next rebuild follows a fold: the marks
				   and the order still hold */
	struct list_sorter sorter;
	/* The sort key (keys_col, keys_desc) of each child in model_kids,
	 * made when a key is about to sort many lists at once (keys_state):
	 * then a list sorts from its run of keys, without a trip to each
	 * child's node. */
	uint64_t *keys;
	int keys_col;
	bool keys_desc;
	enum { KEYS_NONE, KEYS_MADE, KEYS_NO } keys_state;
	const struct node *drilled[1];	/* what `o` opened the ops of */

	/* A diff (issue 12): torch-tb-profiler's diff tree, made a profile
	 * of its own (one node per diff node) that pane->prof points to
	 * while the pane lives, so folding, sorting and filtering are the
	 * Tree's own. */
	struct diff_tree *dt;
	struct profile *diff_prof;
	const struct profile *diff_runs[2];	/* the sides' nodes': base, new */
	const struct diff_node **diff_of;	/* per node id of diff_prof */
};

enum {
	TREE_UNFOLDED = 1 << 0,	/* fold state, the user's */
	TREE_SEED = 1 << 1,	/* matches the filter and the step */
	TREE_UNDER_SEED = 1 << 2,	/* a seed is an ancestor */
	TREE_ABOVE_SEED = 1 << 3,	/* a seed is a descendant */
	TREE_SORTED = 1 << 4,	/* its child list is in the sort order */
	TREE_HAS_KIDS = 1 << 5,	/* a node with children (no look at its list) */
	/* What stays when the marks are made again. */
	TREE_KEPT = TREE_UNFOLDED | TREE_SORTED | TREE_HAS_KIDS,
};

#define NO_PARENT UINT32_MAX
#define PARALLEL_SORT_KIDS (1u << 18)	/* children to sort on two threads */

#define NODE(r) ((const struct node *)(r))

static const char *tree_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return node_name(NODE(row));
}

static const struct node *tree_node(const struct pane *pane, const void *row)
{
	(void)pane;
	return NODE(row);
}

static const struct attr *tree_attrs(const struct pane *pane, const void *row)
{
	(void)pane;
	return node_attrs(NODE(row));
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(node_name(NODE(row)));
}

static struct cell get_kind(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(node_kind_name(NODE(row)->kind));
}

static struct cell get_calls(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_int((int64_t)node_calls(pane->prof, NODE(row)));
}

static struct cell get_start(const struct pane *pane, const void *row, const struct column *c)
{
	const struct tree_priv *tp = pane->priv;

	(void)c;
	if (!node_is_timed(NODE(row)))
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
	  .get = pane_get_node_time, .arg = NODE_DEVICE_SELF,
	  .help = "device time of the work this node launched itself" },
	{ .key = "device_total", .title = "Dev total", .kind = COL_TIME, .width = 10,
	  .get = pane_get_node_time, .arg = NODE_DEVICE_TOTAL,
	  .help = "device time of everything under this node" },
	{ .key = "host_self", .title = "Host self", .kind = COL_TIME, .width = 10,
	  .get = pane_get_node_time, .arg = NODE_HOST_SELF,
	  .help = "host time in this node minus its children" },
	{ .key = "host_total", .title = "Host total", .kind = COL_TIME, .width = 10,
	  .get = pane_get_node_time, .arg = NODE_HOST_TOTAL,
	  .help = "host time from start to end" },
	{ .key = "start", .title = "Start", .kind = COL_TIME, .width = 11, .get = get_start,
	  .help = "when it started, after the profile's first event" },
};

/* The one walk over the nodes a load makes, or one of its two halves. */
struct load_walk {
	struct pane *pane;
	bool (*starts_open)(const struct pane *pane, const struct node *n);
	struct attr_scan *scan;		/* NULL: no attribute columns */
	bool has_host;			/* some node has host time */
	int64_t t0;			/* the earliest start, INT64_MAX: none */
	size_t from, to;		/* the top nodes a half walks */
};

static bool collect(struct node *n, void *ctx)
{
	struct load_walk *w = ctx;
	struct tree_priv *tp = w->pane->priv;
	const struct node *parent = node_parent(n);
	uint32_t id = node_id(n);

	w->pane->rows[id] = n;
	if (node_is_timed(n) && n->start_ns < w->t0)
		w->t0 = n->start_ns;
	tp->parent[id] = parent ? node_id(parent) : NO_PARENT;
	if (node_has_children(n))
		tp->state[id] |= TREE_HAS_KIDS;
	if (w->starts_open(w->pane, n))
		tp->state[id] |= TREE_UNFOLDED;
	w->has_host |= node_host_total(w->pane->prof, n) != 0;
	if (w->scan)
		attr_scan_row(w->scan, node_attrs(n));
	return true;
}

/* The subtrees of the top nodes [W->from, W->to). */
static void *collect_tops(void *arg)
{
	struct load_walk *w = arg;

	for (size_t i = w->from; i < w->to; i++)
		node_walk(profile_top_node(w->pane->prof, i), collect, w);
	return NULL;
}

#define PARALLEL_WALK (1u << 18)	/* nodes to walk on two threads */

/*
 * Every node into W's arrays.  A finished profile lists its top nodes
 * (the threads' children) in pre-order, each heading the run of ids of
 * its subtree: a big tree is walked in two halves at once, the root, the
 * threads and the tops before the middle id on this thread, the rest on
 * another.  Each half keeps its own earliest start, host flag and
 * attribute scan; the second's come after the first's, as one walk
 * would have met them.
 */
static void collect_all(struct load_walk *w)
{
	const struct profile *p = w->pane->prof;
	struct attr_scan second_scan = { 0 };
	struct load_walk second = *w;
	size_t nr_tops = profile_nr_top_nodes(p), mid;

	if (p->nr_nodes < PARALLEL_WALK || nr_tops < 2 || !two_cpus()) {
		node_walk(p->root, collect, w);
		return;
	}
	mid = 0;
	while (mid < nr_tops && node_id(profile_top_node(p, mid)) < p->nr_nodes / 2)
		mid++;
	collect(p->root, w);
	for (struct node *t = node_first_child(p->root); t; t = node_next(t))
		collect(t, w);
	w->from = 0;
	w->to = second.from = mid;
	second.to = nr_tops;
	second.scan = w->scan ? &second_scan : NULL;
	run_pair(collect_tops, w, &second);
	if (second.t0 < w->t0)
		w->t0 = second.t0;
	w->has_host |= second.has_host;
	if (w->scan)
		attr_scan_merge(w->scan, &second_scan);
}

/*
 * Rows by node id and the shape the keys work on -- each node's parent
 * and its children as one array of lists (ids are pre-order, so each list
 * comes out in the model's order) -- in one walk: touching 2.5 M nodes is
 * most of what opening the pane costs.
 */
static void load_shape(struct load_walk *w)
{
	struct pane *pane = w->pane;
	struct tree_priv *tp = pane->priv;
	size_t n = pane->prof->nr_nodes;

	pane->nr_rows = n;
	pane->rows = xcalloc(n ? n : 1, sizeof(*pane->rows));
	tp->state = xcalloc(n ? n : 1, 1);
	tp->parent = xmalloc((n ? n : 1) * sizeof(*tp->parent));
	tp->first = xcalloc(n + 2, sizeof(*tp->first));
	tp->model_kids = xmalloc((n ? n : 1) * sizeof(*tp->model_kids));
	tp->kids = xmalloc((n ? n : 1) * sizeof(*tp->kids));
	w->t0 = INT64_MAX;
	collect_all(w);
	tp->t0 = w->t0;
	/* first[P + 2] counts P's children; summed up, first[P + 1] counts
	 * up from the start of P's list as its children are placed, ending
	 * where P's list ends. */
	for (size_t i = 0; i < n; i++)
		if (tp->parent[i] != NO_PARENT)
			tp->first[tp->parent[i] + 2]++;
	for (size_t i = 2; i < n + 2; i++)
		tp->first[i] += tp->first[i - 1];
	for (size_t i = 0; i < n; i++)
		if (tp->parent[i] != NO_PARENT)
			tp->model_kids[tp->first[tp->parent[i] + 1]++] = (uint32_t)i;
	memcpy(tp->kids, tp->model_kids, n * sizeof(*tp->kids));
	tp->kids_col = pane->sort_col;
	tp->kids_desc = pane->sort_desc;
}

/* Structure starts open, calls start folded (perf report); --print shows
 * everything. */
static bool tree_starts_open(const struct pane *pane, const struct node *n)
{
	return pane->scope.expand_all || n->kind == NODE_ROOT || n->kind == NODE_THREAD ||
	       n->kind == NODE_GROUP;
}

static void diff_load(struct pane *pane);

static void tree_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct tree_priv *tp;
	struct attr_scan scan = { 0 };
	struct load_walk w = { .pane = pane, .starts_open = tree_starts_open, .scan = &scan };
	bool dev = p->has_device_time, host;

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
	load_shape(&w);
	host = w.has_host;
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
	pane_add_scanned_attr_columns(pane, &scan, NULL);
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
	free(tp->parent);
	free(tp->model_kids);
	free(tp->sorter.buf);
	free(tp->keys);
	pane_sort_scratch_release(&tp->sorter.scratch);
	free(tp->depth);
	free(tp->fold);
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
	if (!node_is_timed(n))
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
 * seed and the nodes above one.  Ids are pre-order, so a parent comes
 * before its children: one pass forward passes "under a seed" down, one
 * pass backward passes "a seed below" up.
 */
static void mark(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;
	size_t n = pane->nr_rows;
	bool scoped = pane->filter || (pane->scope.step && pane->prof->has_timeline);
	struct verdicts v = { 0 };

	for (size_t i = 0; i < n; i++)
		tp->state[i] &= TREE_KEPT;
	if (!scoped)
		return;
	for (size_t i = 0; i < n; i++) {
		uint32_t up = tp->parent[i];
		const struct node *node;

		if (up == NO_PARENT)
			continue;	/* the root */
		if (tp->parent[up] != NO_PARENT && (tp->state[up] & (TREE_SEED | TREE_UNDER_SEED))) {
			tp->state[i] |= TREE_UNDER_SEED;
			continue;
		}
		node = pane->rows[i];
		if (in_step(pane, node) && verdict(&v, pane->filter, node_name(node)))
			tp->state[i] |= TREE_SEED;
	}
	for (size_t i = n; i-- > 0;) {
		uint32_t up = tp->parent[i];

		if (up != NO_PARENT && (tp->state[i] & (TREE_SEED | TREE_ABOVE_SEED)))
			tp->state[up] |= TREE_ABOVE_SEED;
	}
	free(v.keys);
	free(v.match);
}

static bool is_scoped(const struct pane *pane)
{
	return pane->filter || (pane->scope.step && pane->prof->has_timeline);
}

static bool shown(const struct tree_priv *tp, bool scoped, uint32_t id)
{
	return !scoped || (tp->state[id] & (TREE_SEED | TREE_UNDER_SEED | TREE_ABOVE_SEED));
}

static bool is_open(const struct tree_priv *tp, uint32_t id)
{
	/* The path down to a match is opened for the user. */
	if ((tp->state[id] & TREE_ABOVE_SEED) && !(tp->state[id] & TREE_SEED))
		return true;
	return tp->state[id] & TREE_UNFOLDED;
}

static bool has_kids(const struct tree_priv *tp, uint32_t id)
{
	return tp->state[id] & TREE_HAS_KIDS;
}

static bool have_keys(const struct tree_priv *tp, const struct pane *pane)
{
	return tp->keys_state == KEYS_MADE && tp->keys_col == pane->sort_col &&
	       tp->keys_desc == pane->sort_desc;
}

/*
 * Before a key that sorts the child lists of at least N nodes: every
 * child's sort key, in the order of model_kids, when N is enough to pay
 * for a pass over all of them.  Sorting lists one by one costs a cache
 * miss per child, for the node and again for a key kept by id (the 1 GB
 * trace's unfold-all sorted 0.7 M children in 60 ms either way); the
 * pass reads the nodes with their misses overlapping (25-35 ms for
 * 2.5 M), and then each list's keys lie side by side.  8 bytes a node,
 * kept while the sort lasts.
 */
static void make_keys(struct pane *pane, size_t n)
{
	struct tree_priv *tp = pane->priv;

	if (n < pane->nr_rows / 8 || n < 1024)
		return;
	if (tp->keys_state != KEYS_NONE && tp->keys_col == pane->sort_col &&
	    tp->keys_desc == pane->sort_desc)
		return;		/* made, or known not to exist */
	if (!tp->keys)
		tp->keys = xmalloc(pane->nr_rows * sizeof(*tp->keys));
	tp->keys_col = pane->sort_col;
	tp->keys_desc = pane->sort_desc;
	tp->keys_state = pane_row_keys(pane, pane->sort_col, pane->sort_desc, tp->model_kids,
				       tp->first[pane->nr_rows], tp->keys)
				 ? KEYS_MADE
				 : KEYS_NO;
}

/*
 * Node ID's children in the order of the sort column: the model's order
 * stably sorted, so ties keep the model's order whatever the sort before.
 * S is the caller's thread's.
 */
static void sort_kids_with(struct pane *pane, uint32_t id, struct list_sorter *s)
{
	struct tree_priv *tp = pane->priv;
	uint32_t from = tp->first[id], n = tp->first[id + 1] - from;

	if (tp->state[id] & TREE_SORTED)
		return;
	tp->state[id] |= TREE_SORTED;
	if (n < 2)
		return;
	GROW(s->buf, s->cap, n);
	for (uint32_t k = 0; k < n; k++)
		s->buf[k] = tp->model_kids[from + k];
	if (have_keys(tp, pane))
		pane_sort_by_keys(tp->keys + from, s->buf, n, &s->scratch);
	else
		pane_sort_indices_with(pane, s->buf, n, pane->sort_col, pane->sort_desc,
				       &s->scratch);
	for (uint32_t k = 0; k < n; k++)
		tp->kids[from + k] = (uint32_t)s->buf[k];
}

static void sort_kids(struct pane *pane, uint32_t id)
{
	struct tree_priv *tp = pane->priv;

	sort_kids_with(pane, id, &tp->sorter);
}

/* The open lists of ids [FROM, TO), sorted by one thread. */
struct open_lists {
	struct pane *pane;
	size_t from, to;
	struct list_sorter *sorter;
};

static void *sort_lists(void *arg)
{
	const struct open_lists *l = arg;
	const struct tree_priv *tp = l->pane->priv;

	for (size_t id = l->from; id < l->to; id++)
		if ((tp->state[id] & (TREE_UNFOLDED | TREE_HAS_KIDS)) ==
		    (TREE_UNFOLDED | TREE_HAS_KIDS))
			sort_kids_with(l->pane, (uint32_t)id, l->sorter);
	return NULL;
}

/* The id in [FROM, TO) where the children of the ids before it are about
 * half of all theirs: first[] counts up. */
static size_t middle_by_kids(const struct tree_priv *tp, size_t from, size_t to)
{
	uint32_t half = tp->first[from] + (tp->first[to] - tp->first[from]) / 2;

	return u32_lower_bound(tp->first, from, to, half);
}

/*
 * Before a key that opens N nodes among ids [FROM, TO): when N is many,
 * the keys, and with them the lists of the open nodes there sorted now,
 * in id order.  The view would sort them in its own order, which jumps
 * about the arrays a list is read from and written to (three cache
 * misses a list, 45 ms for the 1 GB trace's 175 K lists); in id order,
 * those arrays are read and written front to back -- on two threads
 * when there are many children, each with its half of the ids
 * (lists, and their state bytes, are disjoint).
 */
static void sort_open_lists(struct pane *pane, size_t n, size_t from, size_t to)
{
	struct tree_priv *tp = pane->priv;
	struct list_sorter second = { 0 };
	struct open_lists a = { pane, from, to, &tp->sorter }, b = { pane, to, to, &second };

	make_keys(pane, n);
	if (!have_keys(tp, pane))
		return;
	if (tp->first[to] - tp->first[from] >= PARALLEL_SORT_KIDS && two_cpus()) {
		a.to = b.from = middle_by_kids(tp, from, to);
		run_pair(sort_lists, &a, &b);
	} else {
		sort_lists(&a);
	}
	free(second.buf);
	pane_sort_scratch_release(&second.scratch);
}

/* A new sort: every list is sorted again when the view next opens it. */
static void resort(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;
	size_t nr_open = 0;

	for (size_t i = 0; i < pane->nr_rows; i++) {
		tp->state[i] &= (uint8_t)~TREE_SORTED;
		nr_open += (tp->state[i] & TREE_UNFOLDED) != 0;
	}
	tp->kids_col = pane->sort_col;
	tp->kids_desc = pane->sort_desc;
	sort_open_lists(pane, nr_open, 0, pane->nr_rows);
}

static void add_row(struct pane *pane, size_t *nr, uint32_t id, uint32_t depth, uint8_t fold)
{
	struct tree_priv *tp = pane->priv;

	if (*nr == tp->view_cap) {
		tp->view_cap = tp->view_cap ? tp->view_cap * 2 : 1024;
		pane->view = xrealloc(pane->view, tp->view_cap * sizeof(*pane->view));
		tp->depth = xrealloc(tp->depth, tp->view_cap * sizeof(*tp->depth));
		tp->fold = xrealloc(tp->fold, tp->view_cap);
	}
	pane->view[*nr] = id;
	tp->depth[*nr] = depth;
	tp->fold[*nr] = fold;
	(*nr)++;
}

/* Whether node ID has a child the view shows. */
static bool has_shown_kid(const struct tree_priv *tp, bool scoped, uint32_t id)
{
	if (!scoped)
		return has_kids(tp, id);
	for (uint32_t k = tp->first[id]; k < tp->first[id + 1]; k++)
		if (shown(tp, scoped, tp->model_kids[k]))
			return true;
	return false;
}

struct frame {
	uint32_t id;		/* the open node whose children come next */
	uint32_t next;		/* index into kids */
	uint32_t depth;		/* its children's depth */
};

#define VIEW_AHEAD 8

/* The view: a depth-first walk of the shown nodes, into open ones only. */
static void build_view(struct pane *pane)
{
	struct tree_priv *tp = pane->priv;
	uint32_t root = node_id(pane->prof->root);
	bool scoped = is_scoped(pane);
	struct frame *stack = NULL;
	size_t depth = 1, alloc = 0, nr = 0;

	GROW(stack, alloc, 1);
	sort_kids(pane, root);
	stack[0] = (struct frame){ root, tp->first[root], 0 };
	while (depth) {
		struct frame *f = &stack[depth - 1];
		uint32_t id;
		uint8_t fold;

		if (f->next == tp->first[f->id + 1]) {
			depth--;
			continue;
		}
		/* A sorted list's ids jump about the per-id arrays: ask for
		 * a later sibling's state and list bounds now, so that their
		 * misses overlap this one's work. */
		if (f->next + VIEW_AHEAD < tp->first[f->id + 1]) {
			uint32_t later = tp->kids[f->next + VIEW_AHEAD];

			PREFETCH(&tp->state[later]);
			PREFETCH(&tp->first[later]);
		}
		id = tp->kids[f->next++];
		if (!shown(tp, scoped, id))
			continue;
		if (!has_kids(tp, id))
			fold = 0;
		else if (!is_open(tp, id))
			fold = 2;
		else
			fold = has_shown_kid(tp, scoped, id) ? 1 : 0;
		add_row(pane, &nr, id, f->depth, fold);
		if (fold != 1)
			continue;
		sort_kids(pane, id);
		GROW(stack, alloc, depth + 1);
		f = &stack[depth - 1];
		stack[depth++] = (struct frame){ id, tp->first[id], f->depth + 1 };
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
	if (tp->kids_col != pane->sort_col || tp->kids_desc != pane->sort_desc)
		resort(pane);
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

/* Unfold everything under view row I: its subtree is the run of ids from
 * its own to the first id after it that is not a descendant. */
static void tree_unfold_all(struct pane *pane, size_t i)
{
	struct tree_priv *tp = pane->priv;
	const struct node *n;
	size_t end;

	if (i >= pane->nr_view)
		return;
	n = pane->rows[pane->view[i]];
	while (n && !node_next(n))
		n = node_parent(n);
	end = n ? node_id(node_next(n)) : pane->nr_rows;
	for (size_t id = pane->view[i]; id < end; id++)
		tp->state[id] |= TREE_UNFOLDED;
	sort_open_lists(pane, end - pane->view[i], pane->view[i], end);
	tp->fold_only = true;
	pane_rebuild(pane);
}

/* The view row of I's parent, or I itself at the top: the nearest row
 * above one level up, as the view is a depth-first walk.  A scan (about
 * 1 ms over a million rows) on a key, rather than 8 bytes more per row
 * in every view made. */
static size_t tree_parent_row(const struct pane *pane, size_t i)
{
	const struct tree_priv *tp = pane->priv;

	if (i >= pane->nr_view || !tp->depth[i])
		return i;
	for (size_t k = i; k-- > 0;)
		if (tp->depth[k] < tp->depth[i])
			return k;
	return i;
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

#define DNODE(pane, row) (((const struct tree_priv *)(pane)->priv)->diff_of[node_id(NODE(row))])

enum { DT_HOST, DT_DEVICE, DT_TOTAL };
enum { DP_BASE, DP_NEW, DP_DELTA, DP_DELTA_PCT };

/* Time WHICH of side SIDE (0: base, 1: new) of D. */
static int64_t side_time(const struct pane *pane, const struct diff_node *d, int side, int which)
{
	const struct tree_priv *tp = pane->priv;
	int64_t host, device, total;

	diff_side_times(tp->diff_runs[side], &d->side[side], &host, &device, &total);
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
	b = side_time(pane, d, 0, which);
	n = side_time(pane, d, 1, which);
	switch (part) {
	case DP_BASE:
		return d->side[0].nr ? cell_int(b) : cell_none();
	case DP_NEW:
		return d->side[1].nr ? cell_int(n) : cell_none();
	}
	if (sum_capped(b) || sum_capped(n))
		return cell_none();	/* a bound has no difference */
	switch (part) {
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
	return cell_text(diff_status_name(diff_status_of((double)side_time(pane, d, 0, DT_TOTAL),
							 (double)side_time(pane, d, 1, DT_TOTAL),
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

/* The root and its children open; expanded whole for --print. */
static bool diff_starts_open(const struct pane *pane, const struct node *n)
{
	return pane->scope.expand_all || n->kind == NODE_ROOT ||
	       (node_parent(n) && node_parent(n)->kind == NODE_ROOT);
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
	struct load_walk walk = { .pane = pane, .starts_open = diff_starts_open };

	pane->priv = tp;
	tp->dt = xmalloc(sizeof(*tp->dt));
	diff_tree_build(tp->dt, base, pane->prof);
	tp->diff_runs[0] = base;
	tp->diff_runs[1] = pane->prof;
	for (size_t i = 0; i < tp->dt->nr_nodes; i++)
		for (int side = 0; side < 2; side++) {
			int64_t host, device, total;

			pane->nr_capped += diff_side_times(tp->diff_runs[side], &tp->dt->nodes[i]->side[side],
							   &host, &device, &total);
		}
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
		node_set_calls(dp, n, 1);
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
		tp->diff_of[node_id(made[i])] = tp->dt->nodes[i];
	free(made);
	free(stack);

	pane->prof = dp;
	load_shape(&walk);
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
static enum pane_id tree_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	struct tree_priv *tp = pane->priv;

	if (tp->dt) {
		const struct diff_node *d = DNODE(pane, row);

		if (!d || (!d->side[0].nr && !d->side[1].nr))
			return PANE_NONE;
		scope->under = d->side[1].nodes;
		scope->nr_under = d->side[1].nr;
		scope->base_under = d->side[0].nodes;
		scope->nr_base_under = d->side[0].nr;
	} else {
		if (NODE(row)->kind == NODE_ROOT)
			return PANE_NONE;
		tp->drilled[0] = row;
		scope->under = tp->drilled;
		scope->nr_under = 1;
	}
	scope->step = pane->scope.step;
	return PANE_UNDER;
}

/* A summary holds tables, not the tree: nor does a diff against one. */
static bool tree_needs_trace(const struct pane *pane)
{
	const struct profile *base = pane_diff_base(&pane->scope);

	return pane->prof->is_summary || (base && base->is_summary);
}

static void tree_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (tree_needs_trace(pane))
		snprintf(buf, size, "the Tree needs the trace: a summary holds its tables, not the "
				    "call tree");
	else
		snprintf(buf, size, "no calls");
}

static void tree_detail(const struct pane *pane, const void *row, struct detail *d)
{
	(void)pane;
	detail_node(d, NODE(row));
}

static const enum action tree_hints[] = {
	ACT_HELP, ACT_FILTER, ACT_SORT_DEVICE_SELF, ACT_TOGGLE_FOLD, ACT_EXPORT, ACT_BACK, ACT_NONE,
};

/* The actions handle() takes. */
static const enum action tree_actions[] = {
	ACT_UNFOLD, ACT_FOLD, ACT_TOGGLE_FOLD, ACT_UNFOLD_ALL, ACT_NONE,
};

static const struct pane_tree_ops tree_tree = {
	.row_depth = tree_depth, .row_fold = tree_fold_state,
};
static const struct pane_text_ops tree_text = { .hints = tree_hints, .detail = tree_detail };

const struct pane_ops tree_pane_ops = {
	.id = PANE_TREE, .flags = PANE_FOLLOWS_STEP, .align = ALIGN_SELF,
	.load = tree_load, .rebuild = tree_rebuild, .row_name = tree_name, .row_node = tree_node,
	.row_attrs = tree_attrs, .drill = tree_drill, .handle = tree_handle, .actions = tree_actions,
	.step_changed = tree_step_changed, .empty_text = tree_empty_text,
	.needs_trace = tree_needs_trace, .release = tree_release,
	.tree = &tree_tree, .text = &tree_text,
};
