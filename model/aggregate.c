// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "tensor_cores.h"
#include "util.h"

bool node_in_step(const struct node *n, const struct step *step)
{
	/* A step with no interval (a pre-aggregated format's step, or its
	 * average) cannot narrow anything: everything is in it. */
	if (!step || step->end_ns <= step->start_ns)
		return true;
	return node_is_timed(n) && n->start_ns >= step->start_ns && n->start_ns < step->end_ns;
}

bool node_is_op_row(const struct node *n)
{
	return (n->kind == NODE_OP || n->kind == NODE_LAYER) && !(n->flags & NODE_NOT_A_ROW);
}

void agg_release(struct agg *a)
{
	free(a->rows);
	memset(a, 0, sizeof(*a));
}

/* Rows by key, where the key is the interned name (equal names are equal
 * pointers) or, for NODE_DISTINCT rows, the node itself. */
struct row_index {
	const void **keys;
	size_t *rows;
	size_t alloc;
};

static void index_grow(struct row_index *ix, const struct agg *a)
{
	free(ix->keys);
	free(ix->rows);
	ix->alloc = ix->alloc ? ix->alloc * 2 : 256;
	ix->keys = xcalloc(ix->alloc, sizeof(*ix->keys));
	ix->rows = xcalloc(ix->alloc, sizeof(*ix->rows));
	for (size_t r = 0; r < a->nr; r++) {
		const struct node *n = a->rows[r].first;
		const void *key = (n->flags & NODE_DISTINCT) ? (const void *)n : (const void *)node_name(n);
		size_t i = hash_ptr(key) & (ix->alloc - 1);

		while (ix->keys[i])
			i = (i + 1) & (ix->alloc - 1);
		ix->keys[i] = key;
		ix->rows[i] = r;
	}
}

static struct agg_row *row_for(struct agg *a, struct row_index *ix, const struct node *n)
{
	const void *key = (n->flags & NODE_DISTINCT) ? (const void *)n : (const void *)node_name(n);
	struct agg_row *row;
	size_t i;

	if (2 * (a->nr + 1) > ix->alloc)
		index_grow(ix, a);
	i = hash_ptr(key) & (ix->alloc - 1);
	while (ix->keys[i]) {
		if (ix->keys[i] == key)
			return &a->rows[ix->rows[i]];
		i = (i + 1) & (ix->alloc - 1);
	}
	GROW(a->rows, a->alloc, a->nr + 1);
	ix->keys[i] = key;
	ix->rows[i] = a->nr;
	row = &a->rows[a->nr++];
	memset(row, 0, sizeof(*row));
	row->name = node_name(n);
	row->first = n;
	row->min_ns = row->max_ns = -1;
	return row;
}

static void index_release(struct row_index *ix)
{
	free(ix->keys);
	free(ix->rows);
}

static void add_minmax(struct agg_row *row, int64_t lo, int64_t hi)
{
	if (lo >= 0 && (row->min_ns < 0 || lo < row->min_ns))
		row->min_ns = lo;
	if (hi >= 0 && hi > row->max_ns)
		row->max_ns = hi;
}

/* OUT emptied for a fill with scope S (NULL: none). */
static void agg_start(struct agg *out, const struct agg_scope *s)
{
	memset(out, 0, sizeof(*out));
	if (s) {
		out->each = s->each;
		out->each_ctx = s->each_ctx;
	}
}

static void add_op(const struct profile *p, struct agg *a, struct agg_row *row, const struct node *n)
{
	if (a->each)
		a->each((size_t)(row - a->rows), n, node_device_total(p, n), a->each_ctx);
	row->nr_nodes++;
	row->node_flags |= n->flags;
	sum_add_u_counted(&row->calls, node_calls(p, n), &a->nr_capped);
	sum_add_counted(&row->host_self_ns, node_host_self(p, n), &a->nr_capped);
	sum_add_counted(&row->host_total_ns, node_host_total(p, n), &a->nr_capped);
	sum_add_counted(&row->device_self_ns, node_device_self(p, n), &a->nr_capped);
	sum_add_counted(&row->device_total_ns, node_device_total(p, n), &a->nr_capped);
	add_minmax(row, node_min_ns(p, n), node_max_ns(p, n));
}

static void add_kernel_time(const struct profile *p, struct agg *a, struct agg_row *row,
			    const struct node *n, int64_t dur);

static void add_kernel(const struct profile *p, struct agg *a, struct agg_row *row, const struct node *n)
{
	add_kernel_time(p, a, row, n, node_device_total(p, n));
}

/* A kernel of time DUR: its 'dur' (the kernel table) or its end minus
 * its start (the tables made from the op tree). */
static void add_kernel_time(const struct profile *p, struct agg *a, struct agg_row *row,
			    const struct node *n, int64_t dur)
{
	const struct launch *l = node_launch(n);
	const struct attr *at;
	uint64_t calls = node_calls(p, n);
	int64_t min_ns = node_min_ns(p, n);

	if (a->each)
		a->each((size_t)(row - a->rows), n, dur, a->each_ctx);
	row->nr_nodes++;
	row->node_flags |= n->flags;
	sum_add_u_counted(&row->calls, calls, &a->nr_capped);
	sum_add_counted(&row->device_self_ns, dur, &a->nr_capped);
	sum_add_counted(&row->device_total_ns, dur, &a->nr_capped);
	if (calls == 1 && min_ns < 0)
		add_minmax(row, dur, dur);
	else
		add_minmax(row, min_ns, node_max_ns(p, n));
	/* A kernel's launch (Kineto) or the row's own values (a tb_plugin
	 * kernel table states its means as attributes). */
	if (l && l->blocks_per_sm == l->blocks_per_sm) {
		row->has_blocks_per_sm = true;
		row->blocks_per_sm_wsum += l->blocks_per_sm * (double)dur;
	} else if ((at = attr_find(node_attrs(n), "blocks_per_sm"))) {
		row->has_blocks_per_sm = true;
		row->blocks_per_sm_wsum += (attr_type(at) == ATTR_DOUBLE ? at->v.d : (double)at->v.i) * (double)dur;
	}
	if (l && l->occupancy_pct == l->occupancy_pct) {
		row->has_occupancy = true;
		row->occupancy_wsum += l->occupancy_pct * (double)dur;
	} else if ((at = attr_find(node_attrs(n), "occupancy_pct"))) {
		row->has_occupancy = true;
		row->occupancy_wsum += (attr_type(at) == ATTR_DOUBLE ? at->v.d : (double)at->v.i) * (double)dur;
	}
}

/* ---------------------------------------------------------------------
 * Tensor cores of op rows (torch-tb-profiler's node.py fill_stats)
 */

bool agg_has_tc(const struct profile *p)
{
	if (p->is_summary)	/* attribute keys are interned */
		return strtab_lookup(p->names, ATTR_FILE_TC_TOTAL, strlen(ATTR_FILE_TC_TOTAL));
	return p->launches;
}

/*
 * An op's tensor-core sums need its subtree, but the walks visit nodes in
 * pre-order: a node's frame stays on a stack until the walk reaches a node
 * that is not below it, and is finished then, bottom up.  Memory: one
 * frame per level of the tree.
 */
struct tc_frame {
	const struct node *n;
	int64_t self_ns, total_ns;	/* tensor-core kernels its runtime calls
					   launched / under it */
	bool child_eligible;		/* a host node under it is eligible */
	size_t row;			/* its op row + 1; 0: none */
};

struct tc_track {
	const struct profile *p;
	struct agg *out;		/* rows to add to, or NULL */
	agg_tc_fn *fn;			/* what agg_op_tc() calls, or NULL */
	void *ctx;
	struct tc_names names;
	struct tc_frame *v;
	size_t nr, alloc;
	uint64_t nr_capped;		/* its sums that reached the cap */
};

static bool is_host(const struct node *n)
{
	return n->kind == NODE_OP || n->kind == NODE_STEP || n->kind == NODE_ANNOTATION ||
	       n->kind == NODE_MODULE;
}

/*
 * The top frame, finished: a kernel's time goes to its runtime call (or,
 * launched by none, to its parent's own); a runtime call's to its
 * caller's own and total; any other node's total to its parent's.  A host
 * node is eligible when its name is on the list or (an op) a host node
 * under it is, or its runtime calls launched a tensor-core kernel.
 */
static void tc_finish(struct tc_track *t)
{
	struct tc_frame f = t->v[--t->nr];
	struct tc_frame *up = t->nr ? &t->v[t->nr - 1] : NULL;
	const struct node *n = f.n;
	bool eligible;

	if (n->kind == NODE_KERNEL) {
		if (up && (tc_name_flags(&t->names, node_name(n)) & TC_NAME_KERNEL)) {
			int64_t d = node_device_total(t->p, n);

			sum_add_counted(&up->total_ns, d, &t->nr_capped);
			if (up->n->kind != NODE_RUNTIME)
				sum_add_counted(&up->self_ns, d, &t->nr_capped);
		}
		return;
	}
	if (n->kind == NODE_RUNTIME) {
		if (up) {
			sum_add_counted(&up->self_ns, f.total_ns, &t->nr_capped);
			sum_add_counted(&up->total_ns, f.total_ns, &t->nr_capped);
		}
		return;
	}
	eligible = is_host(n) && ((tc_name_flags(&t->names, node_name(n)) & TC_NAME_ELIGIBLE) ||
				  (n->kind == NODE_OP && (f.child_eligible || f.self_ns > 0)));
	if (up) {
		sum_add_counted(&up->total_ns, f.total_ns, &t->nr_capped);
		up->child_eligible |= is_host(n) && eligible;
	}
	if (f.row) {
		struct agg_row *row = &t->out->rows[f.row - 1];

		sum_add_counted(&row->tc_self_ns, f.self_ns, &t->nr_capped);
		sum_add_counted(&row->tc_total_ns, f.total_ns, &t->nr_capped);
		row->tc_eligible |= eligible;
	}
	if (t->fn && node_is_op_row(n))
		t->fn(n, f.self_ns, f.total_ns, eligible, t->ctx);
}

/* N, reached in pre-order, and its op row ROW (NULL: none). */
static void tc_enter(struct tc_track *t, const struct node *n, const struct agg_row *row)
{
	const struct node *parent = node_parent(n);

	while (t->nr && t->v[t->nr - 1].n != parent)
		tc_finish(t);
	GROW(t->v, t->alloc, t->nr + 1);
	t->v[t->nr++] = (struct tc_frame){
		.n = n, .row = row ? (size_t)(row - t->out->rows) + 1 : 0,
	};
}

static void tc_done(struct tc_track *t)
{
	while (t->nr)
		tc_finish(t);
	if (t->out)
		t->out->nr_capped += t->nr_capped;
	free(t->v);
	tc_names_release(&t->names);
}

static bool visit_tc(struct node *n, void *ctx)
{
	tc_enter(ctx, n, NULL);
	return true;
}

void agg_op_tc(const struct profile *p, agg_tc_fn *fn, void *ctx)
{
	struct tc_track t = { .p = p, .fn = fn, .ctx = ctx };

	node_walk(p->root, visit_tc, &t);
	tc_done(&t);
}

/* A summary's op row N: what it states of tensor cores, into ROW. */
static void tc_from_attrs(struct agg *out, struct agg_row *row, const struct node *n)
{
	const struct attr *a = node_attrs(n);
	const struct attr *self = attr_find(a, ATTR_FILE_TC_SELF);
	const struct attr *total = attr_find(a, ATTR_FILE_TC_TOTAL);
	const struct attr *elig = attr_find(a, ATTR_FILE_TC_ELIGIBLE);

	if (self && attr_type(self) == ATTR_NS)
		sum_add_counted(&row->tc_self_ns, self->v.i, &out->nr_capped);
	if (total && attr_type(total) == ATTR_NS)
		sum_add_counted(&row->tc_total_ns, total->v.i, &out->nr_capped);
	if (elig && attr_type(elig) == ATTR_INT)
		row->tc_eligible |= elig->v.i != 0;
}

/* N, an op row of ROW (NULL: none), for the tensor-core sums: from the
 * tree, or from a summary's attributes. */
static void tc_visit(struct tc_track *t, const struct node *n, struct agg_row *row)
{
	if (t->p->is_summary) {
		if (row)
			tc_from_attrs(t->out, row, n);
		return;
	}
	tc_enter(t, n, row);
}

struct walk {
	const struct profile *p;	/* the nodes' calls */
	const struct agg_scope *scope;
	struct agg *out;
	struct row_index ix;
	uint8_t *marked;		/* agg_kernel_ops: op ids already counted */
	struct tc_track *tc;		/* agg_ops where agg_has_tc(), else NULL */
};

static bool wanted(const struct agg_scope *s, const struct node *n)
{
	if (!s)
		return true;
	if (!node_in_step(n, s->step))
		return false;
	if (s->has_range && !(node_is_timed(n) && n->start_ns >= s->range_start_ns &&
			      n->start_ns < s->range_end_ns))
		return false;
	return !s->want || s->want(n, s->ctx);
}

/*
 * The walk of the tree for scope S's visitor FN, which does nothing on
 * a node out of the step: only over the subtrees that start in the step
 * when it has an interval (node_walk_starting()), so that picking one
 * step of a long trace costs the step, not the trace.
 */
static void scope_walk(const struct profile *p, const struct agg_scope *s,
		       bool (*fn)(struct node *n, void *ctx), void *ctx)
{
	const struct step *st = s ? s->step : NULL;

	if (s && s->has_range) {
		int64_t a = s->range_start_ns, b = s->range_end_ns;

		if (st && st->end_ns > st->start_ns) {
			a = st->start_ns > a ? st->start_ns : a;
			b = st->end_ns < b ? st->end_ns : b;
		}
		if (b > a)
			node_walk_starting(p, a, b, fn, ctx);
	} else if (st && st->end_ns > st->start_ns)	/* as node_in_step() reads it */
		node_walk_starting(p, st->start_ns, st->end_ns, fn, ctx);
	else
		node_walk(p->root, fn, ctx);
}

static bool visit_op(struct node *n, void *ctx)
{
	struct walk *w = ctx;
	struct agg_row *row = NULL;

	if (node_is_op_row(n) && wanted(w->scope, n))
		add_op(w->p, w->out, row = row_for(w->out, &w->ix, n), n);
	if (w->tc)
		tc_visit(w->tc, n, row);
	return true;
}

void agg_ops(const struct profile *p, const struct agg_scope *s, struct agg *out)
{
	struct tc_track tc = { .p = p, .out = out };
	struct walk w = { .p = p, .scope = s, .out = out, .tc = agg_has_tc(p) ? &tc : NULL };

	agg_start(out, s);
	scope_walk(p, s, visit_op, &w);
	tc_done(&tc);
	index_release(&w.ix);
}

static bool visit_kernel(struct node *n, void *ctx)
{
	struct walk *w = ctx;

	if (n->kind == NODE_KERNEL && !(n->flags & NODE_NOT_A_ROW) && wanted(w->scope, n))
		add_kernel(w->p, w->out, row_for(w->out, &w->ix, n), n);
	return true;
}

void agg_kernels(const struct profile *p, const struct agg_scope *s, struct agg *out)
{
	struct walk w = { .p = p, .scope = s, .out = out };

	agg_start(out, s);
	scope_walk(p, s, visit_kernel, &w);
	index_release(&w.ix);
}

static bool visit_device_under_op(struct node *n, void *ctx)
{
	struct walk *w = ctx;

	if (node_kind_is_device(n->kind) || n->kind == NODE_SOURCE)
		add_kernel(w->p, w->out, row_for(w->out, &w->ix, n), n);
	return true;
}

static bool visit_drill_op(struct node *n, void *ctx)
{
	struct walk *w = ctx;

	if (!node_is_op_row(n) || !wanted(w->scope, n))
		return true;
	/* The op's whole subtree, once: a matching op nested inside is
	 * already counted, so do not descend again. */
	sum_add_counted(&w->out->scope_device_ns, node_device_total(w->p, n), &w->out->nr_capped);
	node_walk(n, visit_device_under_op, w);
	return false;
}

void agg_op_kernels(const struct profile *p, const struct agg_scope *s, struct agg *out)
{
	struct walk w = { .p = p, .scope = s, .out = out };

	agg_start(out, s);
	scope_walk(p, s, visit_drill_op, &w);
	index_release(&w.ix);
}

static bool visit_launching_op(struct node *n, void *ctx)
{
	struct walk *w = ctx;
	struct node *op;

	if (n->kind != NODE_KERNEL || !wanted(w->scope, n))
		return true;
	for (op = node_parent(n); op && !node_is_op_row(op); op = node_parent(op))
		;
	if (!op || w->marked[node_id(op)])
		return true;
	w->marked[node_id(op)] = 1;
	add_op(w->p, w->out, row_for(w->out, &w->ix, op), op);
	return true;
}

void agg_kernel_ops(const struct profile *p, const struct agg_scope *s, struct agg *out)
{
	struct walk w = { .p = p, .scope = s, .out = out };

	agg_start(out, s);
	w.marked = xcalloc(p->nr_nodes + 1, 1);
	scope_walk(p, s, visit_launching_op, &w);
	free(w.marked);
	index_release(&w.ix);
}

/* ---------------------------------------------------------------------
 * Grouped tables: rows keyed by more than the name
 */

/* A grouped row's key: the name, a second interned string, and (kernels
 * by op) the launch configuration the plugin keys on. */
struct group_key {
	const char *name, *group;
	const struct attr *stack;	/* agg_op_stacks(): by stack_key() */
	int32_t grid[3], block[3];
	int64_t regs, smem;
};

struct group_index {
	struct group_key *keys;		/* by row */
	size_t nr_keys, alloc_keys;
	size_t *slots;			/* row + 1; 0 free */
	size_t nr_slots;
};

/* What tells call stacks apart: both forms are interned, and a profile
 * holds one form only (a trace stacks, a summary texts). */
static const void *stack_key(const struct attr *a)
{
	if (!a)
		return NULL;
	return attr_type(a) == ATTR_STACK ? (const void *)a->v.stack : (const void *)a->v.s;
}

static uint64_t group_hash(const struct group_key *k)
{
	uint64_t h = hash_u64((uint64_t)(uintptr_t)k->name) ^ hash_u64((uint64_t)(uintptr_t)k->group + 1) ^
		     hash_u64((uint64_t)(uintptr_t)stack_key(k->stack) + 2);

	for (int i = 0; i < 3; i++)
		h = hash_u64(h + (uint64_t)(uint32_t)k->grid[i] * 31 + (uint64_t)(uint32_t)k->block[i]);
	return hash_u64(h + (uint64_t)k->regs * 131 + (uint64_t)k->smem);
}

static bool group_same(const struct group_key *a, const struct group_key *b)
{
	return a->name == b->name && a->group == b->group && stack_key(a->stack) == stack_key(b->stack) &&
	       !memcmp(a->grid, b->grid, sizeof(a->grid)) &&
	       !memcmp(a->block, b->block, sizeof(a->block)) && a->regs == b->regs && a->smem == b->smem;
}

static struct agg_row *group_row(struct agg *a, struct group_index *ix, const struct group_key *k,
				 const struct node *n)
{
	struct agg_row *row;
	size_t i;

	if (2 * (a->nr + 1) > ix->nr_slots) {
		free(ix->slots);
		ix->nr_slots = ix->nr_slots ? 2 * ix->nr_slots : 256;
		ix->slots = xcalloc(ix->nr_slots, sizeof(*ix->slots));
		for (size_t r = 0; r < a->nr; r++) {
			for (i = group_hash(&ix->keys[r]) & (ix->nr_slots - 1); ix->slots[i];
			     i = (i + 1) & (ix->nr_slots - 1))
				;
			ix->slots[i] = r + 1;
		}
	}
	for (i = group_hash(k) & (ix->nr_slots - 1); ix->slots[i]; i = (i + 1) & (ix->nr_slots - 1))
		if (group_same(&ix->keys[ix->slots[i] - 1], k))
			return &a->rows[ix->slots[i] - 1];
	GROW(a->rows, a->alloc, a->nr + 1);
	GROW(ix->keys, ix->alloc_keys, a->nr + 1);
	ix->keys[a->nr] = *k;
	ix->slots[i] = a->nr + 1;
	row = &a->rows[a->nr++];
	memset(row, 0, sizeof(*row));
	row->name = node_name(n);
	row->group = k->group;
	row->stack = k->stack;
	row->first = n;
	row->min_ns = row->max_ns = -1;
	return row;
}

static void group_release(struct group_index *ix)
{
	free(ix->keys);
	free(ix->slots);
}

struct group_walk {
	const struct profile *p;
	const struct agg_scope *scope;
	struct agg *out;
	struct group_index ix;
	bool has_steps;			/* a ProfilerStep thread: stale kernels count */
	struct tc_track *tc;		/* agg_ops_by_shape where agg_has_tc() */
};

static bool visit_op_shape(struct node *n, void *ctx)
{
	struct group_walk *w = ctx;
	struct group_key k = { .name = node_name(n) };
	const struct attr *a;
	struct agg_row *row = NULL;

	if (node_is_op_row(n) && wanted(w->scope, n)) {
		/* Ops without shapes, and those with none ("[]"), are one
		 * group, as str([]) is in the plugin. */
		a = attr_find(node_attrs(n), "input_shapes");
		if (!a)
			a = attr_find(node_attrs(n), ATTR_FILE_INPUT_SHAPES);
		k.group = a && attr_type(a) == ATTR_STRING && strcmp(a->v.s, "[]") ? a->v.s : "[]";
		add_op(w->p, w->out, row = group_row(w->out, &w->ix, &k, n), n);
	}
	if (w->tc)
		tc_visit(w->tc, n, row);
	return true;
}

void agg_ops_by_shape(const struct profile *p, const struct agg_scope *s, struct agg *out)
{
	struct tc_track tc = { .p = p, .out = out };
	struct group_walk w = { .p = p, .scope = s, .out = out, .tc = agg_has_tc(p) ? &tc : NULL };

	agg_start(out, s);
	scope_walk(p, s, visit_op_shape, &w);
	tc_done(&tc);
	group_release(&w.ix);
}

const struct attr *node_call_stack(const struct node *n)
{
	for (; n && (n->kind == NODE_OP || n->kind == NODE_LAYER); n = node_parent(n)) {
		const struct attr *a = attr_find(node_attrs(n), "call_stack");

		if (a && (attr_type(a) == ATTR_STACK || attr_type(a) == ATTR_STRING))
			return a;
	}
	return NULL;
}

static bool visit_op_stack(struct node *n, void *ctx)
{
	struct group_walk *w = ctx;
	struct group_key k = { .name = node_name(n) };

	if (!node_is_op_row(n) || !wanted(w->scope, n))
		return true;
	k.stack = node_call_stack(n);
	add_op(w->p, w->out, group_row(w->out, &w->ix, &k, n), n);
	return true;
}

void agg_op_stacks(const struct profile *p, const struct agg_scope *s, struct agg *out)
{
	struct group_walk w = { .p = p, .scope = s, .out = out };

	agg_start(out, s);
	scope_walk(p, s, visit_op_stack, &w);
	group_release(&w.ix);
}

static bool visit_step(struct node *n, void *ctx)
{
	bool *has = ctx;

	if (n->kind == NODE_STEP)
		*has = true;
	return !*has && n->kind != NODE_RUNTIME && !node_kind_is_device(n->kind);
}

/* The op the plugin names as a kernel's launcher, or NULL when its tree
 * does not hold the kernel. */
static const char *launcher(const struct node *k, bool has_steps)
{
	const struct node *rt = node_parent(k), *owner;

	if (!rt)
		return NULL;
	if (rt->kind != NODE_RUNTIME)
		/* No runtime call launched it: the plugin's dummy runtime,
		 * which the root of the thread with steps owns (so it is
		 * there only in a trace with steps). */
		return rt->kind == NODE_GROUP && has_steps ? "CallTreeRoot" : NULL;
	owner = node_parent(rt);
	if (!owner || owner->kind == NODE_GROUP)
		return NULL;	/* its runtime's External id is no op's */
	return owner->kind == NODE_THREAD ? "CallTreeRoot" : node_name(owner);
}

static bool visit_kernel_op(struct node *n, void *ctx)
{
	struct group_walk *w = ctx;
	struct group_key k = { .name = node_name(n) };
	const struct launch *l;

	if (n->kind != NODE_KERNEL || (n->flags & NODE_NOT_A_ROW) || !wanted(w->scope, n))
		return true;
	if (!(k.group = launcher(n, w->has_steps)))
		return true;
	if ((l = node_launch(n))) {
		memcpy(k.grid, l->grid, sizeof(k.grid));
		memcpy(k.block, l->block, sizeof(k.block));
		k.regs = l->registers_per_thread > 0 ? l->registers_per_thread : 0;
		k.smem = l->shared_memory_bytes > 0 ? l->shared_memory_bytes : 0;
	}
	add_kernel_time(w->p, w->out, group_row(w->out, &w->ix, &k, n), n, node_device_self(w->p, n));
	return true;
}

void agg_kernels_by_op(const struct profile *p, const struct agg_scope *s, struct agg *out)
{
	struct group_walk w = { .p = p, .scope = s, .out = out };

	agg_start(out, s);
	node_walk(p->root, visit_step, &w.has_steps);
	scope_walk(p, s, visit_kernel_op, &w);
	group_release(&w.ix);
}

const char *launch_dim_text(const int32_t dim[3], char *buf, size_t size)
{
	if (!dim[0])
		snprintf(buf, size, "None");
	else
		snprintf(buf, size, "[%d, %d, %d]", (int)dim[0], (int)dim[1], (int)dim[2]);
	return buf;
}
