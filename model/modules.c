// SPDX-License-Identifier: MIT
/*
 * The Module view (modules.h), following torch-tb-profiler's module_op.py:
 * statistics per module key (name, module id) over all its calls, and a
 * hierarchy of module calls in which calls of the same structure -- same
 * names, ids and children, in order -- are one.  The plugin builds the
 * hierarchy from the Python ids of every python_function event; modules
 * nest the same way in time on their thread, which is what the call tree
 * holds.  t-modules-parity.c checks the corpus.
 */
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "modules.h"
#include "util.h"

const char *module_short_name(const char *name)
{
	static const char prefix[] = "nn.Module: ";

	return strncmp(name, prefix, sizeof(prefix) - 1) ? name : name + sizeof(prefix) - 1;
}

static int64_t module_id_of(const struct node *n)
{
	const struct attr *a = attr_find(node_attrs(n), "module_id");

	return a && attr_type(a) == ATTR_INT ? a->v.i : -1;
}

/* ---------------------------------------------------------------------
 * Statistics per (name, module id)
 */

struct stats {
	const char *name;
	int64_t module_id;
	const struct node *first;
	uint64_t occurrences, operators;
	int64_t host_total_ns, host_self_ns, device_total_ns, device_self_ns;
};

struct stats_table {
	struct stats *v;
	size_t nr, alloc;
	size_t *slots;			/* index + 1; 0 free */
	size_t nr_slots;
	uint64_t nr_capped;		/* its sums that reached the cap */
};

static size_t key_hash(const char *name, int64_t id)
{
	return (size_t)hash_u64((uint64_t)(uintptr_t)name ^ hash_u64((uint64_t)id));
}

static struct stats *stats_of(struct stats_table *t, const char *name, int64_t id)
{
	size_t i;

	if (2 * (t->nr + 1) > t->nr_slots) {
		free(t->slots);
		t->nr_slots = t->nr_slots ? 2 * t->nr_slots : 64;
		t->slots = xcalloc(t->nr_slots, sizeof(*t->slots));
		for (size_t k = 0; k < t->nr; k++) {
			for (i = key_hash(t->v[k].name, t->v[k].module_id) & (t->nr_slots - 1); t->slots[i];
			     i = (i + 1) & (t->nr_slots - 1))
				;
			t->slots[i] = k + 1;
		}
	}
	for (i = key_hash(name, id) & (t->nr_slots - 1); t->slots[i]; i = (i + 1) & (t->nr_slots - 1)) {
		struct stats *s = &t->v[t->slots[i] - 1];

		if (s->name == name && s->module_id == id)
			return s;
	}
	GROW(t->v, t->alloc, t->nr + 1);
	memset(&t->v[t->nr], 0, sizeof(t->v[0]));
	t->v[t->nr].name = name;
	t->v[t->nr].module_id = id;
	t->slots[i] = ++t->nr;
	return &t->v[t->nr - 1];
}

/* The plugin's is_operator_node(). */
static bool is_op(const struct node *n)
{
	return n->kind == NODE_OP && node_is_op_row(n);
}

/* One call: _aggregate_modules and ModuleNode.fill_stats.  Its self device
 * time is what it launched outside its child modules: the ops directly in
 * it, as the plugin has it, and the launches in it outside every op
 * (kineto_link.c), so that self and children add up to the total. */
static void count_call(const struct profile *p, struct stats_table *t, const struct node *m)
{
	struct stats *s = stats_of(t, node_name(m), module_id_of(m));

	if (!s->first)
		s->first = m;
	s->occurrences++;
	sum_add_counted(&s->host_total_ns, node_host_total(p, m), &t->nr_capped);
	sum_add_counted(&s->host_self_ns, node_host_self(p, m), &t->nr_capped);
	sum_add_counted(&s->device_total_ns, node_device_total(p, m), &t->nr_capped);
	for (const struct node *c = node_first_child(m); c; c = node_next(c)) {
		if (c->kind != NODE_MODULE)
			sum_add_counted(&s->device_self_ns, node_device_total(p, c), &t->nr_capped);
		if (is_op(c))
			s->operators++;
	}
}

/* ---------------------------------------------------------------------
 * The hierarchy of calls
 */

/* A module call and the module calls directly inside it. */
struct call {
	const struct node *node;
	int64_t module_id;
	size_t *kids;			/* indices into the calls */
	size_t nr_kids, alloc_kids;
	uint64_t hash;			/* of its structure */
};

struct calls {
	struct call *v;
	size_t nr, alloc;
};

struct collect {
	const struct profile *p;
	struct calls *calls;
	struct stats_table *stats;
	size_t *stack;			/* open module calls: indices */
	const struct node **open;	/* ...and their nodes */
	size_t depth, alloc;
	size_t *roots;
	size_t nr_roots, alloc_roots;
};

/* Whether ANC is N or above it. */
static bool holds(const struct node *anc, const struct node *n)
{
	for (; n; n = node_parent(n))
		if (n == anc)
			return true;
	return false;
}

static bool visit_module(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	struct call *call;
	size_t idx;

	if (n->kind != NODE_MODULE)
		return n->kind != NODE_RUNTIME && !node_kind_is_device(n->kind);
	count_call(c->p, c->stats, n);
	/* The walk is depth first: close the calls N is not inside. */
	while (c->depth && !holds(c->open[c->depth - 1], n))
		c->depth--;
	GROW(c->calls->v, c->calls->alloc, c->calls->nr + 1);
	idx = c->calls->nr++;
	call = &c->calls->v[idx];
	memset(call, 0, sizeof(*call));
	call->node = n;
	call->module_id = module_id_of(n);
	if (c->depth) {
		struct call *parent = &c->calls->v[c->stack[c->depth - 1]];

		GROW(parent->kids, parent->alloc_kids, parent->nr_kids + 1);
		parent->kids[parent->nr_kids++] = idx;
	} else {
		GROW(c->roots, c->alloc_roots, c->nr_roots + 1);
		c->roots[c->nr_roots++] = idx;
	}
	if (c->depth + 1 > c->alloc) {
		c->alloc = 2 * c->alloc + 16;
		c->stack = xrealloc(c->stack, c->alloc * sizeof(*c->stack));
		c->open = xrealloc(c->open, c->alloc * sizeof(*c->open));
	}
	c->stack[c->depth] = idx;
	c->open[c->depth++] = n;
	return true;
}

/* Structure hashes, children before parents (calls are in walk order,
 * so a child always comes after its parent). */
static void hash_calls(struct calls *calls)
{
	for (size_t i = calls->nr; i-- > 0;) {
		struct call *c = &calls->v[i];
		uint64_t h = hash_u64((uint64_t)(uintptr_t)node_name(c->node)) ^ hash_u64((uint64_t)c->module_id + 1);

		for (size_t k = 0; k < c->nr_kids; k++)
			h = hash_u64(h * 31 + calls->v[c->kids[k]].hash);
		c->hash = h;
	}
}

/* Module.__eq__: same name, id and children, in order. */
static bool same_structure(const struct calls *calls, size_t a, size_t b)
{
	const struct call *x = &calls->v[a], *y = &calls->v[b];

	if (x->hash != y->hash || node_name(x->node) != node_name(y->node) || x->module_id != y->module_id ||
	    x->nr_kids != y->nr_kids)
		return false;
	for (size_t k = 0; k < x->nr_kids; k++)
		if (!same_structure(calls, x->kids[k], y->kids[k]))
			return false;
	return true;
}

static _Thread_local const struct calls *sort_calls;

/* Roots by name (the plugin sorts its hierarchy's roots so); ties in
 * the order first called. */
static int cmp_root(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(module_short_name(node_name(sort_calls->v[x].node)),
		       module_short_name(node_name(sort_calls->v[y].node)));

	return c ? c : (x > y) - (x < y);
}

static void add_rows(struct module_view *out, const struct calls *calls, struct stats_table *st,
		     size_t root)
{
	/* Depth first without recursion: a stack of (call, its parent row). */
	struct item {
		size_t call, parent;
		int depth;
	} *stack = NULL;
	size_t nr = 0, alloc = 0;

	GROW(stack, alloc, 1);
	stack[nr++] = (struct item){ root, SIZE_MAX, 0 };
	while (nr) {
		struct item it = stack[--nr];
		const struct call *c = &calls->v[it.call];
		const struct stats *s = stats_of(st, node_name(c->node), c->module_id);
		struct module_row *row;
		size_t at;

		GROW(out->rows, out->alloc, out->nr + 1);
		at = out->nr++;
		row = &out->rows[at];
		row->name = module_short_name(node_name(c->node));
		row->first = s->first;
		row->module_id = c->module_id;
		row->depth = it.depth;
		row->parent = it.parent;
		row->has_children = c->nr_kids > 0;
		row->occurrences = s->occurrences;
		row->operators = s->operators;
		row->host_total_ns = s->host_total_ns;
		row->host_self_ns = s->host_self_ns;
		row->device_total_ns = s->device_total_ns;
		row->device_self_ns = s->device_self_ns;
		for (size_t k = c->nr_kids; k-- > 0;) {
			GROW(stack, alloc, nr + 1);
			stack[nr++] = (struct item){ c->kids[k], at, it.depth + 1 };
		}
	}
	free(stack);
}

void module_view(const struct profile *p, struct module_view *out)
{
	struct calls calls = { 0 };
	struct stats_table st = { 0 };
	struct collect c = { .p = p, .calls = &calls, .stats = &st };
	size_t nr_unique = 0;

	memset(out, 0, sizeof(*out));
	node_walk(p->root, visit_module, &c);
	hash_calls(&calls);
	/* One root per structure (the plugin's set of Modules). */
	for (size_t i = 0; i < c.nr_roots; i++) {
		size_t k;

		for (k = 0; k < nr_unique && !same_structure(&calls, c.roots[k], c.roots[i]); k++)
			;
		if (k == nr_unique)
			c.roots[nr_unique++] = c.roots[i];
	}
	sort_calls = &calls;
	if (nr_unique > 1)	/* roots may be NULL */
		qsort(c.roots, nr_unique, sizeof(*c.roots), cmp_root);
	for (size_t i = 0; i < nr_unique; i++)
		add_rows(out, &calls, &st, c.roots[i]);
	out->nr_capped = st.nr_capped;
	for (size_t i = 0; i < calls.nr; i++)
		free(calls.v[i].kids);
	free(calls.v);
	free(c.roots);
	free(c.stack);
	free(c.open);
	free(st.v);
	free(st.slots);
}

void module_view_release(struct module_view *v)
{
	free(v->rows);
	memset(v, 0, sizeof(*v));
}
