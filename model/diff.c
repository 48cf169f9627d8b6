// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "util.h"

static const char *const status_names[] = {
	[DIFF_NONE] = NULL,	    [DIFF_ADDED] = "added",   [DIFF_REMOVED] = "removed",
	[DIFF_SLOWER] = "slower",   [DIFF_FASTER] = "faster", [DIFF_SAME] = "same",
	[DIFF_MORE] = "more",	    [DIFF_FEWER] = "fewer",
};

const char *diff_status_name(enum diff_status s)
{
	return (size_t)s < ARRAY_SIZE(status_names) ? status_names[s] : NULL;
}

enum diff_status diff_status_of(double base, double new_value, bool is_time)
{
	double d = new_value - base, tol;

	if (fabs(base) >= (double)SUM_CAP && fabs(new_value) >= (double)SUM_CAP)
		return DIFF_NONE;
	if (!is_time)
		return d > 0 ? DIFF_MORE : d < 0 ? DIFF_FEWER : DIFF_SAME;
	tol = fabs(base) * DIFF_SAME_PCT / 100.0;
	if (tol < DIFF_SAME_NS)
		tol = DIFF_SAME_NS;
	if (fabs(d) <= tol)
		return DIFF_SAME;
	return d > 0 ? DIFF_SLOWER : DIFF_FASTER;
}

/* ---------------------------------------------------------------------
 * Lining up rows by name
 */

struct slot {
	const char *name;	/* NULL: empty */
	size_t nth;		/* the nth occurrence of the name */
	size_t row;
};

struct name_index {
	struct slot *slots;
	size_t alloc, nr;
};

static uint64_t hash_name(const char *s, size_t nth)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ nth;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return hash_u64(h);
}

/* The slot of (NAME, NTH): found, or the empty one to fill. */
static struct slot *find(struct name_index *ix, const char *name, size_t nth)
{
	size_t i;

	if (2 * (ix->nr + 1) > ix->alloc) {
		struct slot *old = ix->slots;
		size_t old_alloc = ix->alloc;

		ix->alloc = ix->alloc ? 2 * ix->alloc : 256;
		ix->slots = xcalloc(ix->alloc, sizeof(*ix->slots));
		for (size_t k = 0; k < old_alloc; k++) {
			if (!old[k].name)
				continue;
			for (i = hash_name(old[k].name, old[k].nth) & (ix->alloc - 1); ix->slots[i].name;
			     i = (i + 1) & (ix->alloc - 1))
				;
			ix->slots[i] = old[k];
		}
		free(old);
	}
	for (i = hash_name(name, nth) & (ix->alloc - 1); ix->slots[i].name; i = (i + 1) & (ix->alloc - 1))
		if (ix->slots[i].nth == nth && !strcmp(ix->slots[i].name, name))
			return &ix->slots[i];
	return &ix->slots[i];
}

size_t diff_align(const char *const *const *lists, const size_t *nr, size_t nr_lists,
		  size_t primary, size_t **out)
{
	struct name_index rows = { 0 };
	size_t *v = NULL, alloc = 0, nr_rows = 0;

	for (size_t o = 0; o < nr_lists; o++) {
		/* The primary list first, then the others in order. */
		size_t i = o == 0 ? primary : o <= primary ? o - 1 : o;
		struct name_index seen = { 0 };

		for (size_t j = 0; j < nr[i]; j++) {
			const char *name = lists[i][j];
			struct slot *c = find(&seen, name, 0), *s;
			size_t nth;

			if (!c->name) {
				c->name = name;
				c->row = 0;
				seen.nr++;
			}
			nth = c->row++;
			s = find(&rows, name, nth);
			if (!s->name) {
				s->name = name;
				s->nth = nth;
				s->row = nr_rows++;
				rows.nr++;
				GROW(v, alloc, nr_rows * nr_lists);
				for (size_t k = 0; k < nr_lists; k++)
					v[s->row * nr_lists + k] = SIZE_MAX;
			}
			v[s->row * nr_lists + i] = j;
		}
		free(seen.slots);
	}
	free(rows.slots);
	*out = v;
	return nr_rows;
}

/* ---------------------------------------------------------------------
 * The diff tree (torch-tb-profiler's profiler/diffrun, its tree.py and
 * operator.py)
 */

/* The node classes the plugin matches by (node.py); plain operators are
 * never matched, only compared as runs between matched nodes. */
enum run_kind { RK_OPERATOR, RK_STEP, RK_DATALOADER, RK_OPTIMIZER, RK_MODULE };

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static enum run_kind run_kind(const struct node *n)
{
	if (n->kind == NODE_STEP)
		return RK_STEP;
	if (n->kind == NODE_MODULE)
		return RK_MODULE;
	/* create_operator_node(): DataLoader first, then the optimizer. */
	if ((starts(node_name(n), "enumerate(DataLoader)#") && ends(node_name(n), ".__next__")) ||
	    starts(node_name(n), "enumerate(DataPipe)#"))
		return RK_DATALOADER;
	if (starts(node_name(n), "Optimizer.step"))
		return RK_OPTIMIZER;
	return RK_OPERATOR;
}

/* A child the plugin's trees have: host nodes, not runtime calls or
 * device work (those hang beside the tree there, in runtimes). */
static bool is_host(const struct node *n)
{
	switch (n->kind) {
	case NODE_STEP:
	case NODE_OP:
	case NODE_ANNOTATION:
	case NODE_MODULE:
	case NODE_LAYER:
	case NODE_PHASE:
	case NODE_USER:
		return true;
	default:
		return false;
	}
}

/* FROM's host children, copied into T's arena; *NR gets how many. */
static const struct node **host_children(struct diff_tree *t, const struct node *from, size_t *nr)
{
	const struct node **v;
	size_t n = 0;

	for (const struct node *c = node_first_child(from); c; c = node_next(c))
		n += is_host(c);
	v = arena_alloc(&t->arena, (n ? n : 1) * sizeof(*v));
	n = 0;
	for (const struct node *c = node_first_child(from); c; c = node_next(c))
		if (is_host(c))
			v[n++] = c;
	*nr = n;
	return v;
}

/* get_tree_operators(): the first thread's step children's children, or
 * its children when it has no step. */
static const struct node **top_operators(struct diff_tree *t, const struct profile *p, size_t *nr)
{
	const struct node *thread = NULL, **v;
	size_t n = 0;
	bool has_steps = false;

	*nr = 0;
	for (const struct node *c = node_first_child(p->root); c && !thread; c = node_next(c))
		if (c->kind == NODE_THREAD)
			thread = c;
	if (!thread)
		return NULL;
	for (const struct node *c = node_first_child(thread); c; c = node_next(c))
		has_steps |= c->kind == NODE_STEP;
	if (!has_steps)
		return host_children(t, thread, nr);
	for (const struct node *s = node_first_child(thread); s; s = node_next(s))
		if (s->kind == NODE_STEP)
			for (const struct node *c = node_first_child(s); c; c = node_next(c))
				n += is_host(c);
	v = arena_alloc(&t->arena, (n ? n : 1) * sizeof(*v));
	for (const struct node *s = node_first_child(thread); s; s = node_next(s))
		if (s->kind == NODE_STEP)
			for (const struct node *c = node_first_child(s); c; c = node_next(c))
				if (is_host(c))
					v[(*nr)++] = c;
	return v;
}

/* create_node(): a list of one is that node; none is Blank. */
static struct diff_side side_of(const struct node *const *nodes, size_t nr)
{
	struct diff_side s = { nodes, nr, nr > 1 };

	return s;
}

static struct diff_node *new_node(struct diff_tree *t, struct diff_node *parent,
				  struct diff_side base, struct diff_side new_side)
{
	struct diff_node *n = arena_alloc(&t->arena, sizeof(*n));

	n->side[0] = base;
	n->side[1] = new_side;
	n->parent = parent;
	if (parent) {
		struct diff_node **link = &parent->child;

		while (*link)
			link = &(*link)->next;
		*link = n;
		parent->nr_children++;
	}
	t->nr_nodes++;
	return n;
}

static bool same_key(const struct node *a, const struct node *b)
{
	return run_kind(a) == run_kind(b) && (node_name(a) == node_name(b) || !strcmp(node_name(a), node_name(b)));
}

/*
 * compare_operator_nodes(): the run-kind nodes of L matched in order with
 * the first node of R after the last match that has the same kind and
 * name; each matched pair becomes a child, and so does each run of nodes
 * between matches (and after the last), unless both runs are empty.  No
 * match at all: no children.  LAST is PARENT's last child so far, for
 * appending in O(1).
 */
static void compare_lists(struct diff_tree *t, struct diff_node *parent, const struct node *const *l,
			  size_t nl, const struct node *const *r, size_t nr)
{
	size_t li = 0, ri = 0, key = 0;
	bool any = false;

	for (size_t i = 0; i < nl; i++) {
		if (run_kind(l[i]) == RK_OPERATOR)
			continue;
		for (size_t j = key; j < nr; j++) {
			if (!same_key(l[i], r[j]))
				continue;
			any = true;
			if (i > li || j > ri)
				new_node(t, parent, side_of(l + li, i - li), side_of(r + ri, j - ri));
			new_node(t, parent, side_of(l + i, 1), side_of(r + j, 1));
			li = i + 1;
			ri = key = j + 1;
			break;
		}
	}
	if (any && (li < nl || ri < nr))
		new_node(t, parent, side_of(l + li, nl - li), side_of(r + ri, nr - ri));
}

/* build_tree(): two single nodes compare their children; two runs
 * compare themselves; a node against a run (or a Blank) stops. */
static void build_children(struct diff_tree *t, struct diff_node *n)
{
	const struct diff_side *b = &n->side[0], *w = &n->side[1];

	if (!b->nr || !w->nr || b->is_list != w->is_list)
		return;
	if (!b->is_list) {
		size_t nl, nr;
		const struct node **l = host_children(t, b->nodes[0], &nl);
		const struct node **r = host_children(t, w->nodes[0], &nr);

		compare_lists(t, n, l, nl, r, nr);
	} else {
		compare_lists(t, n, b->nodes, b->nr, w->nodes, w->nr);
	}
}

void diff_tree_build(struct diff_tree *t, const struct profile *base, const struct profile *new_run)
{
	struct diff_node **stack;
	size_t depth = 0, alloc = 64, nb, nn, k = 0;
	const struct node **lb, **ln;

	memset(t, 0, sizeof(*t));
	arena_init(&t->arena);
	lb = top_operators(t, base, &nb);
	ln = top_operators(t, new_run, &nn);
	t->root = new_node(t, NULL, side_of(lb, nb), side_of(ln, nn));
	/* Breadth of work, not recursion: matched modules may nest as deep
	 * as a file cares to make them. */
	stack = xmalloc(alloc * sizeof(*stack));
	stack[depth++] = t->root;
	while (depth) {
		struct diff_node *n = stack[--depth];

		build_children(t, n);
		for (struct diff_node *c = n->child; c; c = c->next) {
			GROW(stack, alloc, depth + 1);
			stack[depth++] = c;
		}
	}
	/* Pre-order, as the plugin's paths number them. */
	t->nodes = xmalloc(t->nr_nodes * sizeof(*t->nodes));
	depth = 0;
	stack[depth++] = t->root;
	while (depth) {
		struct diff_node *n = stack[--depth];
		size_t first = depth;

		t->nodes[k++] = n;
		for (struct diff_node *c = n->child; c; c = c->next) {
			GROW(stack, alloc, depth + 1);
			stack[depth++] = c;
		}
		/* Children were pushed in order: reverse them so the first
		 * pops first. */
		for (size_t a = first, z = depth; a + 1 < z; a++, z--) {
			struct diff_node *tmp = stack[a];

			stack[a] = stack[z - 1];
			stack[z - 1] = tmp;
		}
	}
	free(stack);
}

void diff_tree_release(struct diff_tree *t)
{
	free(t->nodes);
	arena_release(&t->arena);
	memset(t, 0, sizeof(*t));
}

const char *diff_side_name(const struct diff_side *s)
{
	if (!s->nr)
		return "Blank";
	return s->is_list ? "CompositeNodes" : node_name(s->nodes[0]);
}

unsigned diff_side_times(const struct profile *p, const struct diff_side *s, int64_t *host_ns,
			 int64_t *device_ns, int64_t *total_ns)
{
	unsigned capped = 0;

	*host_ns = *device_ns = *total_ns = 0;
	for (size_t i = 0; i < s->nr; i++) {
		const struct node *n = s->nodes[i];

		int64_t host = node_host_total(p, n), device = node_device_total(p, n);

		capped += !sum_add(host_ns, host);
		capped += !sum_add(device_ns, device);
		capped += !sum_add(total_ns, device ? device : host);
	}
	return capped;
}

struct marks {
	uint8_t *under;
};

static bool mark_under(struct node *n, void *ctx)
{
	struct marks *m = ctx;

	m->under[node_id(n)] = 1;
	return true;
}

static bool is_under(const struct node *n, void *ctx)
{
	const struct marks *m = ctx;

	return m->under[node_id(n)];
}

void diff_side_ops(const struct profile *p, const struct diff_side *s, struct agg *out)
{
	struct marks m = { xcalloc(p->nr_nodes ? p->nr_nodes : 1, 1) };
	struct agg_scope scope = { .want = is_under, .ctx = &m };

	for (size_t i = 0; i < s->nr; i++)
		if (node_id(s->nodes[i]) < p->nr_nodes)
			node_walk((struct node *)s->nodes[i], mark_under, &m);
	agg_ops(p, &scope, out);
	free(m.under);
}
