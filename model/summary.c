// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "bounds.h"
#include "distributed.h"
#include "rank_analysis.h"
#include "summary.h"
#include "util.h"

void summary_escape(struct strbuf *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\') {
			strbuf_add(out, "\\\\", 2);
		} else if (c == '\t') {
			strbuf_add(out, "\\t", 2);
		} else if (c == '\n') {
			strbuf_add(out, "\\n", 2);
		} else if (c == '\r') {
			strbuf_add(out, "\\r", 2);
		} else if (c < 0x20 || c == 0x7f) {
			char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

			strbuf_add(out, e, 4);
		} else {
			strbuf_addch(out, (char)c);
		}
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long summary_unescape(char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\') {
			s[o++] = s[i];
			continue;
		}
		if (++i >= n)
			return -1;
		switch (s[i]) {
		case '\\':
			s[o++] = '\\';
			break;
		case 't':
			s[o++] = '\t';
			break;
		case 'n':
			s[o++] = '\n';
			break;
		case 'r':
			s[o++] = '\r';
			break;
		case 'x': {
			int hi = i + 1 < n ? hexval(s[i + 1]) : -1, lo = i + 2 < n ? hexval(s[i + 2]) : -1;

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return -1;	/* a NUL would cut the name */
			s[o++] = (char)(hi * 16 + lo);
			i += 2;
			break;
		}
		default:
			return -1;
		}
	}
	s[o] = '\0';
	return (long)o;
}

/* ---------------------------------------------------------------------
 * Writing
 */

/* A last text field and the end of the line. */
static void name_eol(struct strbuf *b, const char *name)
{
	strbuf_addch(b, '\t');
	summary_escape(b, name ? name : "");
	strbuf_addch(b, '\n');
}

static void write_attr(struct strbuf *b, const char *record, const struct attr *a)
{
	switch (attr_type(a)) {
	case ATTR_INT:
	case ATTR_NS:
		strbuf_addf(b, "%s\t", record);
		summary_escape(b, attr_key(a));
		strbuf_addf(b, "\t%c\t%" PRId64 "\n", attr_type(a) == ATTR_INT ? 'i' : 'n', a->v.i);
		break;
	case ATTR_DOUBLE:
		strbuf_addf(b, "%s\t", record);
		summary_escape(b, attr_key(a));
		strbuf_addf(b, "\td\t%.17g\n", a->v.d);
		break;
	case ATTR_STRING:
		strbuf_addf(b, "%s\t", record);
		summary_escape(b, attr_key(a));
		strbuf_add(b, "\ts", 2);
		name_eol(b, a->v.s);
		break;
	case ATTR_STACK:	/* as the text it stands for */
		strbuf_addf(b, "%s\t", record);
		summary_escape(b, attr_key(a));
		strbuf_add(b, "\ts", 2);
		name_eol(b, call_stack_text(a->v.stack));
		break;
	case ATTR_LAUNCH:
		break;	/* the blocks-per-SM and occupancy attributes carry it */
	}
}

static void write_attrs(struct strbuf *b, const char *record, const struct attr *a)
{
	for (; a; a = attr_next(a))
		write_attr(b, record, a);
}

/* One summary row: the sum of the trace's rows of one key in one bucket. */
struct group {
	const struct node *first;
	long bucket;
	uint8_t flags;
	uint64_t calls;
	int64_t host_self, host_total, dev_self, dev_total, min, max;
	double bpsm_wsum, occ_wsum;	/* kernels: Σ value × duration */
	bool has_bpsm, has_occ;
	bool launched;			/* kernels: the first had a launch (Kineto) */
	int64_t tc_self, tc_total;	/* ops: tensor-core kernel time (agg_op_tc()) */
	bool tc_eligible;
	size_t nr_nodes;		/* the trace rows summed: attributes only of one */
	size_t name;			/* its number in the name table */
	const char *shape;		/* ops: the input shapes (interned), NULL: none */
};

struct groups {
	struct group *v;
	size_t nr, alloc;
	size_t *slots;			/* open addressing: index + 1 */
	size_t nr_slots;
};

static const void *key_of(const struct node *n)
{
	return (n->flags & NODE_DISTINCT) ? (const void *)n : (const void *)node_name(n);
}

static uint64_t key_hash(const void *key, const char *shape, long bucket)
{
	return hash_u64((uint64_t)(uintptr_t)key ^ hash_u64((uint64_t)bucket) ^
			hash_u64((uint64_t)(uintptr_t)shape + 1));
}

/* An op row's input shapes as agg_ops_by_shape() keys them, NULL for
 * none ("[]"): a record holds the rows of one name and one shape, so
 * that the Operators pane grouped by shape is the trace's too. */
static const char *shape_of(const struct node *n)
{
	const struct attr *a;

	if (!node_is_op_row(n))
		return NULL;
	a = attr_find(node_attrs(n), "input_shapes");
	return a && attr_type(a) == ATTR_STRING && strcmp(a->v.s, "[]") ? a->v.s : NULL;
}

static struct group *group_for(struct groups *g, const struct node *n, long bucket)
{
	const void *key = key_of(n);
	const char *shape = shape_of(n);
	struct group *r;
	size_t i;

	if (2 * (g->nr + 1) > g->nr_slots) {
		free(g->slots);
		g->nr_slots = g->nr_slots ? 2 * g->nr_slots : 1024;
		g->slots = xcalloc(g->nr_slots, sizeof(*g->slots));
		for (size_t k = 0; k < g->nr; k++) {
			for (i = key_hash(key_of(g->v[k].first), g->v[k].shape, g->v[k].bucket) &
				 (g->nr_slots - 1);
			     g->slots[i]; i = (i + 1) & (g->nr_slots - 1))
				;
			g->slots[i] = k + 1;
		}
	}
	for (i = key_hash(key, shape, bucket) & (g->nr_slots - 1); g->slots[i];
	     i = (i + 1) & (g->nr_slots - 1)) {
		struct group *e = &g->v[g->slots[i] - 1];

		if (key_of(e->first) == key && e->shape == shape && e->bucket == bucket)
			return e;
	}
	GROW(g->v, g->alloc, g->nr + 1);
	r = &g->v[g->nr];
	memset(r, 0, sizeof(*r));
	r->first = n;
	r->shape = shape;
	r->bucket = bucket;
	r->min = r->max = -1;
	g->slots[i] = ++g->nr;
	return r;
}

static void minmax(struct group *r, int64_t lo, int64_t hi)
{
	if (lo >= 0 && (r->min < 0 || lo < r->min))
		r->min = lo;
	if (hi >= 0 && hi > r->max)
		r->max = hi;
}

/* A kernel's value as aggregate.c reads it -- its launch's (Kineto), else
 * its attribute KEY -- counted into *WSUM. */
static void weigh(const struct profile *p, const struct node *n, const char *key, double *wsum,
		  bool *has)
{
	const struct launch *l = node_launch(n);
	const struct attr *a;
	double v = !l ? NAN : !strcmp(key, "blocks_per_sm") ? l->blocks_per_sm : l->occupancy_pct;

	if (v == v) {
		*has = true;
		*wsum += v * (double)node_device_total(p, n);
		return;
	}
	if (!(a = attr_find(node_attrs(n), key)))
		return;
	*has = true;
	*wsum += (attr_type(a) == ATTR_DOUBLE ? a->v.d : (double)a->v.i) *
		 (double)node_device_total(p, n);
}

struct walk {
	const struct profile *p;
	bool by_node;			/* one row per trace row (no grouping) */
	bool tc;			/* ops carry tensor-core sums (agg_has_tc()) */
	struct groups ops, kernels;
	uint64_t nr_capped;		/* row sums stopped at SUM_CAP */
};

/* The step a node started in (node_in_step()'s rule), or -1. */
static long bucket_of(const struct profile *p, const struct node *n)
{
	size_t lo = 0, hi = p->nr_steps;

	/* Steps are in time order and do not overlap (checked by the
	 * caller): the last that starts at or before the node. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->steps[mid].start_ns <= n->start_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && node_in_step(n, &p->steps[lo - 1]))
		return (long)lo - 1;
	return -1;
}

static bool visit(struct node *n, void *ctx)
{
	struct walk *w = ctx;
	long b;
	struct group *r;

	if (node_is_op_row(n)) {
		b = w->by_node ? -2 - (long)node_id(n) : bucket_of(w->p, n);
		r = group_for(&w->ops, n, b);
		r->nr_nodes++;
		r->flags |= n->flags;
		sum_add_u_counted(&r->calls, node_calls(w->p, n), &w->nr_capped);
		sum_add_counted(&r->host_self, node_host_self(w->p, n), &w->nr_capped);
		sum_add_counted(&r->host_total, node_host_total(w->p, n), &w->nr_capped);
		sum_add_counted(&r->dev_self, node_device_self(w->p, n), &w->nr_capped);
		sum_add_counted(&r->dev_total, node_device_total(w->p, n), &w->nr_capped);
		minmax(r, node_min_ns(w->p, n), node_max_ns(w->p, n));
	} else if (n->kind == NODE_KERNEL && !(n->flags & NODE_NOT_A_ROW)) {
		uint64_t calls = node_calls(w->p, n);
		int64_t min_ns = node_min_ns(w->p, n), dur = node_device_total(w->p, n);

		b = w->by_node ? -2 - (long)node_id(n) : bucket_of(w->p, n);
		r = group_for(&w->kernels, n, b);
		r->nr_nodes++;
		r->launched |= r->first == n && node_launch(n);
		r->flags |= n->flags;
		sum_add_u_counted(&r->calls, calls, &w->nr_capped);
		sum_add_counted(&r->dev_self, node_device_self(w->p, n), &w->nr_capped);
		sum_add_counted(&r->dev_total, dur, &w->nr_capped);
		if (calls == 1 && min_ns < 0)
			minmax(r, dur, dur);
		else
			minmax(r, min_ns, node_max_ns(w->p, n));
		weigh(w->p, n, "blocks_per_sm", &r->bpsm_wsum, &r->has_bpsm);
		weigh(w->p, n, "occupancy_pct", &r->occ_wsum, &r->has_occ);
	}
	return true;
}

/* An op row's tensor-core sums, into its row. */
static void add_tc(const struct node *op, int64_t self_ns, int64_t total_ns, bool eligible,
		   void *ctx)
{
	struct walk *w = ctx;
	long b = w->by_node ? -2 - (long)node_id(op) : bucket_of(w->p, op);
	struct group *r = group_for(&w->ops, op, b);

	sum_add_counted(&r->tc_self, self_ns, &w->nr_capped);
	sum_add_counted(&r->tc_total, total_ns, &w->nr_capped);
	r->tc_eligible |= eligible;
}

/* Whether every node of a step can be given one bucket: steps with
 * intervals, in order, none overlapping. */
static bool steps_partition(const struct profile *p)
{
	for (size_t i = 0; i < p->nr_steps; i++) {
		if (p->steps[i].end_ns <= p->steps[i].start_ns)
			return false;
		if (i && p->steps[i].start_ns < p->steps[i - 1].end_ns)
			return false;
	}
	return true;
}

/* A row's start: the start of its step ("sN"), after the last step
 * ("-"), or, one row per trace row, its own.  Rows are untimed only in a
 * profile without a timeline, whose flags tell the reader: they write 0,
 * which every reader of the format takes. */
static void write_at(struct strbuf *b, const struct group *r, bool by_node)
{
	if (by_node)
		strbuf_addf(b, "\t%" PRId64, node_is_timed(r->first) ? r->first->start_ns : 0);
	else if (r->bucket >= 0)
		strbuf_addf(b, "\ts%ld", r->bucket);
	else
		strbuf_add(b, "\t-", 2);
}

/* A duration-weighted mean as the Kernels pane makes it (missing values
 * counted as 0), or "-" when no kernel of the row had the value. */
static void write_mean(struct strbuf *b, double wsum, bool has, int64_t dur)
{
	if (!has)
		strbuf_add(b, "\t-", 2);
	else
		strbuf_addf(b, "\t%.17g", dur > 0 ? wsum / (double)dur : 0.0);
}

static void write_group(struct strbuf *b, const struct group *r, bool kernel, bool by_node, bool tc)
{
	strbuf_addstr(b, kernel ? "kernel" : "op");
	write_at(b, r, by_node);
	if (kernel) {
		strbuf_addf(b, "\t%u\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64, r->flags,
		    r->calls, r->dev_self, r->dev_total, r->min, r->max);
		write_mean(b, r->bpsm_wsum, r->has_bpsm, r->dev_total);
		write_mean(b, r->occ_wsum, r->has_occ, r->dev_total);
	} else {
		strbuf_addf(b, "\t%s\t%u\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
		       "\t%" PRId64 "\t%" PRId64,
		    node_kind_name(r->first->kind), r->flags, r->calls, r->host_self, r->host_total,
		    r->dev_self, r->dev_total, r->min, r->max);
	}
	strbuf_addf(b, "\t%zu\n", r->name);
	/* A kernel with a launch: its means go to one (type l). */
	if (r->launched)
		strbuf_addstr(b, "attr\tlaunch\tl\t-\n");
	/* An op's tensor-core sums, which a summary has no tree to redo. */
	if (tc && !kernel)
		strbuf_addf(b, "attr\t" ATTR_FILE_TC_SELF "\tn\t%" PRId64 "\nattr\t" ATTR_FILE_TC_TOTAL
			       "\tn\t%" PRId64 "\nattr\t" ATTR_FILE_TC_ELIGIBLE "\ti\t%d\n",
			    r->tc_self, r->tc_total, (int)r->tc_eligible);
	/* A row of several shows no attributes (agg_row_attrs()): its
	 * shapes, which one shows as an attribute, go in one that is not
	 * shown. */
	if (r->nr_nodes != 1) {
		if (r->shape) {
			strbuf_addstr(b, "attr\t" ATTR_FILE_INPUT_SHAPES "\ts");
			name_eol(b, r->shape);
		}
		return;
	}
	for (const struct attr *a = node_attrs(r->first); a; a = attr_next(a))
		if (!kernel || (strcmp(attr_key(a), "blocks_per_sm") && strcmp(attr_key(a), "occupancy_pct")))
			write_attr(b, "attr", a);
}

/* The name table: each name once, numbered as first written. */
struct names {
	const char **v;
	size_t nr, alloc;
	size_t *slots;			/* index + 1, keyed by the interned pointer */
	size_t nr_slots;
};

static size_t name_id(struct names *t, const char *name)
{
	size_t i;

	if (2 * (t->nr + 1) > t->nr_slots) {
		free(t->slots);
		t->nr_slots = t->nr_slots ? 2 * t->nr_slots : 256;
		t->slots = xcalloc(t->nr_slots, sizeof(*t->slots));
		for (size_t k = 0; k < t->nr; k++) {
			for (i = hash_ptr(t->v[k]) & (t->nr_slots - 1); t->slots[i];
			     i = (i + 1) & (t->nr_slots - 1))
				;
			t->slots[i] = k + 1;
		}
	}
	for (i = hash_ptr(name) & (t->nr_slots - 1); t->slots[i]; i = (i + 1) & (t->nr_slots - 1))
		if (t->v[t->slots[i] - 1] == name)
			return t->slots[i] - 1;
	GROW(t->v, t->alloc, t->nr + 1);
	t->v[t->nr] = name;
	t->slots[i] = ++t->nr;
	return t->nr - 1;
}

/* A distribution's statistic: "%.17g" reads back bit-exact; NaN (none)
 * is "-". */
static void write_stat(struct strbuf *b, double v)
{
	if (isnan(v))
		strbuf_addstr(b, "\t-");
	else
		strbuf_addf(b, "\t%.17g", v);
}

/* The launch statistics: the counts, then each figure's distribution. */
static void write_launch(struct strbuf *b, const struct launch_summary *l)
{
	strbuf_addf(b, "launch\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
		    l->nr_launches, l->nr_short, l->nr_runtime_outliers, l->nr_delay_outliers);
	for (int f = 0; f < NR_LAUNCH_FIGURES; f++) {
		const struct launch_dist *d = &l->dist[f];

		strbuf_addf(b, "launchdist\t%s\t%" PRIu64 "\t%" PRId64 "\t%d",
			    launch_figure_name((enum launch_figure)f), d->count, d->total_ns, d->capped);
		write_stat(b, d->mean);
		write_stat(b, d->std);
		write_stat(b, d->min);
		write_stat(b, d->p50);
		write_stat(b, d->p90);
		write_stat(b, d->p99);
		write_stat(b, d->max);
		strbuf_addch(b, '\n');
	}
}

/* The Rank analyses pane's figures (rank_analysis.h): none for a
 * profile without them (a summary of an old summary). */
static void write_analysis(struct strbuf *b, const struct rank_analysis *a, struct names *names)
{
	if (!a->present)
		return;
	strbuf_addf(b, "temporal\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
		    "\t%d\n", a->nr_gpu_events, a->kernel_ns, a->idle_ns, a->compute_ns,
		    a->non_compute_ns, a->capped);
	strbuf_addstr(b, "ktypes");
	for (unsigned c = 1; c < NR_KTYPE_CLASSES; c++)
		strbuf_addf(b, "\t%" PRId64, a->class_ns[c]);
	strbuf_addch(b, '\n');
	strbuf_addf(b, "idle\t%" PRIu64, a->nr_idle_streams);
	for (int c = 0; c < NR_IDLE_CATEGORIES; c++)
		strbuf_addf(b, "\t%" PRId64, a->idle_by_cat_ns[c]);
	strbuf_addch(b, '\n');
	write_launch(b, &a->launch);
	for (size_t i = 0; i < a->strag.nr_iters; i++) {
		const struct strag_iter *it = &a->strag.iters[i];

		strbuf_addf(b, "iter\t%d\t%" PRId64 "\t%" PRId64 "\n", (int)it->iteration,
			    it->start_ns, it->end_ns);
	}
	for (size_t i = 0; i < a->strag.nr_kernels; i++) {
		const struct strag_kernel *k = &a->strag.kernels[i];

		strbuf_addf(b, "nccl\t%d\t%d\t%" PRId64 "\t%" PRId64 "\t%zu\n", (int)k->stream,
			    (int)k->iteration, k->start_ns, k->dur_ns, name_id(names, k->name));
	}
}

void summary_write(const struct profile *p, struct strbuf *b)
{
	struct walk w = { .p = p };
	struct names names = { 0 };
	struct rank_local rl;
	struct rank_analysis ra;

	const char *cut = profile_meta_get(p, "load", "stopped at");

	/* Rows per (name, step) when steps partition the timeline; else
	 * one per row of the trace, each with its own start.  Summed
	 * first, so that a sum that stopped at its cap is a warning. */
	w.by_node = !(p->has_timeline && steps_partition(p));
	node_walk(p->root, visit, &w);
	w.tc = agg_has_tc(p) && !p->is_summary;
	if (w.tc)
		agg_op_tc(p, add_tc, &w);

	/* Always the latest: the version tells a reader that the op
	 * records carry their input shapes (an older one refuses it). */
	strbuf_addf(b, "%s\t%d\n", SUMMARY_MAGIC, SUMMARY_VERSION);
	strbuf_addstr(b, "source");
	name_eol(b, p->path);
	strbuf_addstr(b, "format");
	name_eol(b, p->format ? p->format : "");
	if (cut) {
		strbuf_addstr(b, "cut");
		name_eol(b, cut);
	}
	strbuf_addf(b, "flags\t%d\t%d\n", p->has_device_time, p->has_timeline);
	strbuf_addf(b, "dist\t%d\t%d\t%d", p->dist.present, (int)p->dist.rank, (int)p->dist.world_size);
	name_eol(b, p->dist.backend);
	for (size_t i = 0; i < p->nr_devices; i++) {
		const struct device_info *d = &p->devices[i];

		strbuf_addf(b, "device\t%d\t%" PRId64 "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%" PRId64, (int)d->id,
		    d->total_memory_bytes, (int)d->cc_major, (int)d->cc_minor, (int)d->num_sms,
		    (int)d->max_threads_per_sm, (int)d->max_threads_per_block, (int)d->regs_per_sm,
		    (int)d->warp_size, d->shared_mem_per_sm_bytes);
		name_eol(b, d->name);
	}
	for (const struct meta *m = p->meta; m; m = m->next) {
		strbuf_addstr(b, "meta\t");
		summary_escape(b, m->section);
		strbuf_addch(b, '\t');
		summary_escape(b, m->key);
		name_eol(b, m->value);
	}
	for (const struct warning *x = p->warnings; x; x = x->next) {
		uint64_t count = x->count;

		/* A summary of a summary: its capped sums, once. */
		if (!strcmp(x->text, SUMMARY_CAPPED)) {
			sum_add_u(&count, w.nr_capped);
			w.nr_capped = 0;
		}
		strbuf_addf(b, "warning\t%" PRIu64, count);
		name_eol(b, x->text);
	}
	if (w.nr_capped)
		strbuf_addf(b, "warning\t%" PRIu64 "\t" SUMMARY_CAPPED "\n", w.nr_capped);
	strbuf_addf(b, "cats\t%zu", p->nr_step_cats);
	for (size_t k = 0; k < p->nr_step_cats; k++) {
		strbuf_addch(b, '\t');
		summary_escape(b, p->step_cats[k]);
	}
	strbuf_addch(b, '\n');
	for (size_t i = 0; i < p->nr_steps; i++) {
		const struct step *s = &p->steps[i];

		strbuf_addf(b, "step\t%" PRId64 "\t%" PRId64 "\t%" PRId64, s->start_ns, s->end_ns, s->total_ns);
		for (size_t k = 0; k < p->nr_step_cats; k++)
			strbuf_addf(b, "\t%" PRId64, s->cat_ns[k]);
		name_eol(b, s->name);
		write_attrs(b, "stepattr", attr_list_first(p, &s->attrs));
	}

	rank_local_of(p, &rl);
	rank_analysis_of(p, &ra);
	/* Every name once, then rows that number them (a kernel's name is
	 * often longer than all its numbers). */
	for (size_t i = 0; i < w.ops.nr; i++)
		w.ops.v[i].name = name_id(&names, node_name(w.ops.v[i].first));
	for (size_t i = 0; i < w.kernels.nr; i++)
		w.kernels.v[i].name = name_id(&names, node_name(w.kernels.v[i].first));
	for (size_t i = 0; i < rl.nr_calls; i++)
		name_id(&names, rl.calls[i].name);
	for (size_t i = 0; i < ra.strag.nr_kernels; i++)
		name_id(&names, ra.strag.kernels[i].name);
	for (size_t i = 0; i < names.nr; i++) {
		strbuf_addstr(b, "name");
		name_eol(b, names.v[i]);
	}
	for (size_t i = 0; i < w.ops.nr; i++)
		write_group(b, &w.ops.v[i], false, w.by_node, w.tc);
	for (size_t i = 0; i < w.kernels.nr; i++)
		write_group(b, &w.kernels.v[i], true, w.by_node, false);
	free(w.ops.v);
	free(w.ops.slots);
	free(w.kernels.v);
	free(w.kernels.slots);

	for (size_t i = 0; i < rl.nr_steps; i++)
		strbuf_addf(b, "overlap\t%zu\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", i,
		    rl.steps[i].computation, rl.steps[i].overlap, rl.steps[i].communication,
		    rl.steps[i].other);
	strbuf_addf(b, "comm\t%d\n", rl.has_communication);
	for (size_t i = 0; i < rl.nr_calls; i++) {
		const struct comm_call *c = &rl.calls[i];

		strbuf_addf(b, "call\t%d\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%zu", (int)c->step,
		    c->size_bytes, c->start_ns, c->end_ns, c->nr_ranges);
		for (size_t j = 0; j < c->nr_ranges; j++)
			strbuf_addf(b, "\t%" PRId64 "\t%" PRId64, c->ranges[j].start, c->ranges[j].end);
		strbuf_addf(b, "\t%zu\n", name_id(&names, c->name));
	}
	rank_local_release(&rl);
	write_analysis(b, &ra, &names);
	rank_analysis_release(&ra);
	free(names.v);
	free(names.slots);
	strbuf_addstr(b, "end\n");
}
