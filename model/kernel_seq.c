/* SPDX-License-Identifier: MIT */
/*
 * kernel_seq: the frequent kernel sequences under an operator
 * (kernel_seq.h says what is counted).
 */
#include <stdlib.h>
#include <string.h>

#include "hta_time.h"
#include "kernel_seq.h"
#include "util.h"

void kseq_options_default(struct kseq_options *o)
{
	memset(o, 0, sizeof(*o));
	o->min_pattern_len = 3;
	o->lo_ns = INT64_MIN;
	o->hi_ns = INT64_MAX;
	o->launched_before_ns = INT64_MAX;
}

/* A node that stands for a host call: not the tree's structure, not
 * device work, not a range on a device's stream. */
static bool is_host(const struct node *n)
{
	switch (n->kind) {
	case NODE_ROOT:
	case NODE_THREAD:
	case NODE_GROUP:
		return false;
	default:
		return !node_kind_is_device(n->kind) && !(n->flags & NODE_DEVICE_RANGE);
	}
}

static int64_t start_of(const struct kseq_options *o, int64_t ns)
{
	return o->round_like_hta ? hta_start_ns(ns) : ns;
}

/* A duration of DUR ns from START, as O reads it. */
static int64_t dur_of(const struct kseq_options *o, int64_t start, int64_t dur)
{
	if (dur < 0)
		dur = 0;
	if (o->round_like_hta)
		return hta_end_ns(start, dur) - hta_start_ns(start);
	return dur;
}

/* Whether host node N passes O's filters: HTA's last step. */
static bool host_kept(const struct kseq_options *o, const struct node *n)
{
	if (!node_is_timed(n))
		return false;
	if (o->launched_before_ns != INT64_MAX &&
	    start_of(o, n->start_ns) >= start_of(o, o->launched_before_ns))
		return false;
	return true;
}

/* Whether N is a GPU event that O counts. */
static bool gpu_kept(const struct kseq_options *o, const struct node *n)
{
	const struct node *rt;

	if (!node_kind_is_device(n->kind) || !node_is_timed(n))
		return false;
	if (o->launched_before_ns == INT64_MAX)
		return true;
	rt = node_parent(n);
	return rt && rt->kind == NODE_RUNTIME && host_kept(o, rt);
}

/* A candidate whose subtree the scan is in. */
struct open {
	const struct node *n;
	unsigned depth;
	uint64_t gpu_at_entry;		/* scan.nr_gpu when it was entered */
	int64_t gpu_ns;			/* its GPU events' durations so far */
};

struct scan {
	const struct profile *p;
	const struct kseq_options *o;
	/* Which host nodes are candidates: called NAME (interned), or whose
	 * name holds SUB, or every op (ALL_OPS). */
	const char *name, *sub;
	bool all_ops;
	struct open *open;
	size_t nr_open, alloc_open;
	uint64_t nr_gpu;		/* kept GPU events walked so far */
	uint64_t nr_capped;
	/* Called as each candidate is left, with its GPU events' count. */
	void (*done)(struct scan *s, const struct open *c, uint64_t nr_gpu);
	void *ctx;
};

static bool is_candidate(const struct scan *s, const struct node *n)
{
	if (!is_host(n))
		return false;
	if (s->all_ops) {
		if (n->kind != NODE_OP)
			return false;
	} else if (s->sub) {
		if (!strstr(node_name(n), s->sub))
			return false;
	} else if (node_name(n) != s->name) {
		return false;
	}
	return host_kept(s->o, n) && n->start_ns >= s->o->lo_ns && n->start_ns < s->o->hi_ns;
}

static void enter(struct scan *s, const struct node *n, unsigned depth)
{
	if (node_kind_is_device(n->kind)) {
		if (!gpu_kept(s->o, n))
			return;
		s->nr_gpu++;
		if (s->nr_open)
			sum_add_counted(&s->open[s->nr_open - 1].gpu_ns,
					dur_of(s->o, n->start_ns, node_device_total(s->p, n)),
					&s->nr_capped);
		return;
	}
	if (!is_candidate(s, n))
		return;
	GROW(s->open, s->alloc_open, s->nr_open + 1);
	s->open[s->nr_open++] = (struct open){ n, depth, s->nr_gpu, 0 };
}

static void leave(struct scan *s, const struct node *n)
{
	struct open c;

	if (!s->nr_open || s->open[s->nr_open - 1].n != n)
		return;
	c = s->open[--s->nr_open];
	s->done(s, &c, s->nr_gpu - c.gpu_at_entry);
	if (s->nr_open)
		sum_add_counted(&s->open[s->nr_open - 1].gpu_ns, c.gpu_ns, &s->nr_capped);
}

/* Walk P's whole tree depth-first without recursion (a hostile file
 * nests deep), entering and leaving every node. */
static void scan_tree(struct scan *s)
{
	const struct node *root = s->p->root;
	struct node *n = node_first_child(root);
	unsigned depth = 0;		/* host nodes above N */

	while (n) {
		struct node *c = node_first_child(n);

		enter(s, n, depth);
		if (c) {
			depth += is_host(n);
			n = c;
			continue;
		}
		for (;;) {
			leave(s, n);
			if (node_has_next(n)) {
				n = node_next(n);
				break;
			}
			n = node_parent(n);
			if (!n || n == root) {
				n = NULL;
				break;
			}
			depth -= is_host(n);
		}
	}
	free(s->open);
	s->open = NULL;
	s->nr_open = s->alloc_open = 0;
}

/* ---------------------------------------------------------------------
 * The default operator. */

struct op_sum {
	const char *name;
	int64_t gpu_ns;
};

struct op_sums {
	struct op_sum *v;
	size_t nr, alloc;
};

static void op_done(struct scan *s, const struct open *c, uint64_t nr_gpu)
{
	struct op_sums *sums = s->ctx;

	if (nr_gpu < s->o->min_pattern_len)
		return;
	GROW(sums->v, sums->alloc, sums->nr + 1);
	sums->v[sums->nr++] = (struct op_sum){ node_name(c->n), c->gpu_ns };
}

static int cmp_op_sum(const void *a, const void *b)
{
	const struct op_sum *x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

const char *kseq_default_op(const struct profile *p, const struct kseq_options *o)
{
	struct kseq_options def;
	struct op_sums sums = { 0 };
	struct scan s = { 0 };
	const char *best = NULL;
	int64_t best_ns = 0;

	if (!o) {
		kseq_options_default(&def);
		o = &def;
	}
	s.p = p;
	s.o = o;
	s.all_ops = true;
	s.done = op_done;
	s.ctx = &sums;
	scan_tree(&s);
	if (sums.nr)
		qsort(sums.v, sums.nr, sizeof(*sums.v), cmp_op_sum);
	for (size_t i = 0, j; i < sums.nr; i = j) {
		int64_t sum = 0;

		for (j = i; j < sums.nr && sums.v[j].name == sums.v[i].name; j++)
			sum_add(&sum, sums.v[j].gpu_ns);
		if (!best || sum > best_ns || (sum == best_ns && strcmp(sums.v[i].name, best) < 0)) {
			best = sums.v[i].name;
			best_ns = sum;
		}
	}
	free(sums.v);
	return best;
}

static bool exists_visit(struct node *n, void *ctx)
{
	const char **name = ctx;

	if (*name && is_host(n) && node_name(n) == *name)
		*name = NULL;
	return *name != NULL;
}

bool kseq_op_exists(const struct profile *p, const char *op)
{
	const char *name = strtab_lookup(p->names, op, strlen(op));

	if (!name)
		return false;
	node_walk(p->root, exists_visit, &name);
	return name == NULL;
}

/* ---------------------------------------------------------------------
 * The patterns. */

struct cand {
	const struct node *n;
	unsigned depth;
	uint64_t nr_gpu;
	int64_t gpu_ns;
};

struct cands {
	struct cand *v;
	size_t nr, alloc;
};

static void cand_done(struct scan *s, const struct open *c, uint64_t nr_gpu)
{
	struct cands *cs = s->ctx;

	if (nr_gpu < s->o->min_pattern_len)
		return;
	GROW(cs->v, cs->alloc, cs->nr + 1);
	cs->v[cs->nr++] = (struct cand){ c->n, c->depth, nr_gpu, c->gpu_ns };
}

/* A GPU event of an instance, to sort by start. */
struct gpu_ev {
	int64_t start;
	uint32_t handle;
	const char *name;
};

struct collect {
	const struct kseq_options *o;
	struct gpu_ev *v;
	size_t nr, alloc;
};

static bool collect_visit(struct node *n, void *ctx)
{
	struct collect *c = ctx;

	if (!gpu_kept(c->o, n))
		return true;
	GROW(c->v, c->alloc, c->nr + 1);
	c->v[c->nr++] = (struct gpu_ev){ start_of(c->o, n->start_ns), node_handle(n), node_name(n) };
	return true;
}

static int cmp_gpu_ev(const void *a, const void *b)
{
	const struct gpu_ev *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->handle < y->handle ? -1 : x->handle > y->handle;
}

/* One instance: its pattern's names at OFF in the names array. */
struct inst {
	size_t off, len;
	int64_t gpu_ns, cpu_ns;
	const struct node *n;
};

/* For qsort's comparisons: the names of every instance. */
struct inst_sort {
	struct inst *v;
	const char **names;
};

static int cmp_inst(const struct inst_sort *is, size_t a, size_t b)
{
	const struct inst *x = &is->v[a], *y = &is->v[b];

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	for (size_t i = 0; i < x->len; i++) {
		const char *u = is->names[x->off + i], *w = is->names[y->off + i];

		if (u != w)
			return u < w ? -1 : 1;
	}
	return 0;
}

static bool same_pattern(const struct inst_sort *is, size_t a, size_t b)
{
	return cmp_inst(is, a, b) == 0;
}

/* A merge sort of instance numbers by pattern (qsort() has no context
 * argument in C11). */
static void sort_insts(const struct inst_sort *is, size_t *v, size_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	sort_insts(is, v, tmp, h);
	sort_insts(is, v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = cmp_inst(is, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

struct text_cursor {
	const char *const *names;
	size_t nr, i;
	const char *s;
};

/* The next byte of the names joined by '|', or -1 at the end. */
static int text_next(struct text_cursor *c)
{
	while (c->i < c->nr) {
		if (*c->s)
			return (unsigned char)*c->s++;
		if (++c->i < c->nr) {
			c->s = c->names[c->i];
			return '|';
		}
	}
	return -1;
}

int kseq_text_cmp(const struct kseq_pattern *a, const struct kseq_pattern *b)
{
	struct text_cursor x = { a->names, a->nr_names, 0, a->nr_names ? a->names[0] : "" };
	struct text_cursor y = { b->names, b->nr_names, 0, b->nr_names ? b->names[0] : "" };

	for (;;) {
		int u = text_next(&x), w = text_next(&y);

		if (u != w)
			return u < w ? -1 : 1;
		if (u < 0)
			return 0;
	}
}

static int cmp_pattern(const void *a, const void *b)
{
	const struct kseq_pattern *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return kseq_text_cmp(x, y);
}

void kseq_compute(const struct profile *p, const char *op, const struct kseq_options *o,
		  struct kseq_result *r)
{
	struct kseq_options def;
	struct cands cs = { 0 };
	struct scan s = { 0 };
	struct collect col = { 0 };
	struct inst *insts = NULL;
	const char **names = NULL;
	size_t nr_insts = 0, nr_names = 0, alloc_names = 0, *order, *tmp, *pat_off;
	unsigned depth = 0;
	struct inst_sort is;

	memset(r, 0, sizeof(*r));
	if (!o) {
		kseq_options_default(&def);
		o = &def;
	}
	if (!op)
		return;
	s.p = p;
	s.o = o;
	if (o->substring)
		s.sub = op;
	else if (!(s.name = strtab_lookup(p->names, op, strlen(op))))
		return;
	s.done = cand_done;
	s.ctx = &cs;
	scan_tree(&s);
	r->nr_capped = s.nr_capped;
	for (size_t i = 0; i < cs.nr; i++)
		if (i == 0 || cs.v[i].depth < depth)
			depth = cs.v[i].depth;
	r->depth = depth;

	/* Each instance's pattern: its name, its GPU events by start. */
	col.o = o;
	insts = xcalloc(cs.nr ? cs.nr : 1, sizeof(*insts));
	for (size_t i = 0; i < cs.nr; i++) {
		const struct node *n = cs.v[i].n;
		struct inst *in;

		if (cs.v[i].depth != depth)
			continue;
		col.nr = 0;
		node_walk((struct node *)n, collect_visit, &col);
		if (col.nr)
			qsort(col.v, col.nr, sizeof(*col.v), cmp_gpu_ev);
		GROW(names, alloc_names, nr_names + 1 + col.nr);
		in = &insts[nr_insts++];
		in->off = nr_names;
		in->len = 1 + col.nr;
		in->gpu_ns = cs.v[i].gpu_ns;
		in->cpu_ns = dur_of(o, n->start_ns, node_host_total(p, n));
		in->n = n;
		names[nr_names++] = node_name(n);
		for (size_t k = 0; k < col.nr; k++)
			names[nr_names++] = col.v[k].name;
	}
	free(col.v);
	free(cs.v);

	/* Group equal patterns. */
	order = xmalloc((nr_insts ? nr_insts : 1) * sizeof(*order));
	tmp = xmalloc((nr_insts ? nr_insts : 1) * sizeof(*tmp));
	for (size_t i = 0; i < nr_insts; i++)
		order[i] = i;
	is.v = insts;
	is.names = names;
	sort_insts(&is, order, tmp, nr_insts);
	r->patterns = xcalloc(nr_insts ? nr_insts : 1, sizeof(*r->patterns));
	pat_off = xmalloc((nr_insts ? nr_insts : 1) * sizeof(*pat_off));
	for (size_t i = 0, j; i < nr_insts; i = j) {
		struct kseq_pattern *pat = &r->patterns[r->nr_patterns++];
		const struct inst *first = &insts[order[i]];

		pat->nr_names = first->len;
		pat->first = first->n;
		for (j = i; j < nr_insts && same_pattern(&is, order[i], order[j]); j++) {
			const struct inst *in = &insts[order[j]];

			pat->count++;
			sum_add_counted(&pat->gpu_ns, in->gpu_ns, &r->nr_capped);
			sum_add_counted(&pat->cpu_ns, in->cpu_ns, &r->nr_capped);
			if (in->n->start_ns < pat->first->start_ns)
				pat->first = in->n;
		}
		r->nr_instances += pat->count;
		pat_off[r->nr_patterns - 1] = first->off;	/* copied below */
	}
	/* One copy of each pattern's names. */
	r->names = xmalloc((nr_insts ? nr_names : 1) * sizeof(*r->names));
	for (size_t i = 0; i < r->nr_patterns; i++) {
		struct kseq_pattern *pat = &r->patterns[i];
		memcpy(r->names + r->nr_names, names + pat_off[i], pat->nr_names * sizeof(*names));
		pat->names = r->names + r->nr_names;
		r->nr_names += pat->nr_names;
	}
	if (r->nr_patterns)
		qsort(r->patterns, r->nr_patterns, sizeof(*r->patterns), cmp_pattern);
	free(pat_off);
	free(order);
	free(tmp);
	free(insts);
	free(names);
}

void kseq_release(struct kseq_result *r)
{
	free(r->patterns);
	free(r->names);
	memset(r, 0, sizeof(*r));
}
