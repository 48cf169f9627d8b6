// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "distributed.h"
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

static void fmt(struct strbuf *b, const char *f, ...) PRINTF_LIKE(2, 3);

static void fmt(struct strbuf *b, const char *f, ...)
{
	va_list ap;
	char buf[512];
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		char *big = xmalloc((size_t)n + 1);

		va_start(ap, f);
		vsnprintf(big, (size_t)n + 1, f, ap);
		va_end(ap);
		strbuf_add(b, big, (size_t)n);
		free(big);
		return;
	}
	if (n > 0)
		strbuf_add(b, buf, (size_t)n);
}

/* A last text field and the end of the line. */
static void name_eol(struct strbuf *b, const char *name)
{
	strbuf_addch(b, '\t');
	summary_escape(b, name ? name : "");
	strbuf_addch(b, '\n');
}

static void write_attr(struct strbuf *b, const char *record, const struct attr *a)
{
	switch (a->type) {
	case ATTR_INT:
	case ATTR_NS:
		fmt(b, "%s\t", record);
		summary_escape(b, a->key);
		fmt(b, "\t%c\t%" PRId64 "\n", a->type == ATTR_INT ? 'i' : 'n', a->v.i);
		break;
	case ATTR_DOUBLE:
		fmt(b, "%s\t", record);
		summary_escape(b, a->key);
		fmt(b, "\td\t%.17g\n", a->v.d);
		break;
	case ATTR_STRING:
		fmt(b, "%s\t", record);
		summary_escape(b, a->key);
		strbuf_add(b, "\ts", 2);
		name_eol(b, a->v.s);
		break;
	case ATTR_LAUNCH:
		break;	/* the blocks-per-SM and occupancy attributes carry it */
	}
}

static void write_attrs(struct strbuf *b, const char *record, const struct attr *a)
{
	for (; a; a = a->next)
		write_attr(b, record, a);
}

/* One summary row: the sum of the trace's rows of one key in one bucket. */
struct group {
	const struct node *first;
	long bucket;
	uint8_t flags;
	uint64_t calls;
	int64_t host_self, host_total, dev_self, dev_total, min, max;
	double bpsm, occ;		/* the kernels' (key) */
	bool has_bpsm, has_occ;
};

struct groups {
	struct group *v;
	size_t nr, alloc;
	size_t *slots;			/* open addressing: index + 1 */
	size_t nr_slots;
};

static uint64_t key_hash(const void *key, long bucket, uint64_t bpsm, uint64_t occ)
{
	return hash_u64((uint64_t)(uintptr_t)key ^ hash_u64((uint64_t)bucket * 31 + bpsm * 7 + occ));
}

static const void *key_of(const struct node *n)
{
	return (n->flags & NODE_DISTINCT) ? (const void *)n : (const void *)n->name;
}

static uint64_t bits(double d, bool has)
{
	uint64_t u = 0;

	if (has)
		memcpy(&u, &d, sizeof(u));
	return u ^ has;
}

static double attr_real(const struct node *n, const char *key, bool *has)
{
	const struct attr *a = attr_find(n->attrs, key);

	*has = a && (a->type == ATTR_DOUBLE || a->type == ATTR_INT);
	return !*has ? 0 : a->type == ATTR_DOUBLE ? a->v.d : (double)a->v.i;
}

static struct group *group_for(struct groups *g, const struct node *n, long bucket, bool kernel)
{
	bool has_b = false, has_o = false;
	double b = kernel ? attr_real(n, "blocks_per_sm", &has_b) : 0;
	double o = kernel ? attr_real(n, "occupancy_pct", &has_o) : 0;
	uint64_t bb = bits(b, has_b), ob = bits(o, has_o);
	const void *key = key_of(n);
	size_t i;
	struct group *r;

	if (2 * (g->nr + 1) > g->nr_slots) {
		free(g->slots);
		g->nr_slots = g->nr_slots ? 2 * g->nr_slots : 1024;
		g->slots = xcalloc(g->nr_slots, sizeof(*g->slots));
		for (size_t k = 0; k < g->nr; k++) {
			const struct group *e = &g->v[k];

			for (i = key_hash(key_of(e->first), e->bucket, bits(e->bpsm, e->has_bpsm),
					  bits(e->occ, e->has_occ)) & (g->nr_slots - 1);
			     g->slots[i]; i = (i + 1) & (g->nr_slots - 1))
				;
			g->slots[i] = k + 1;
		}
	}
	for (i = key_hash(key, bucket, bb, ob) & (g->nr_slots - 1); g->slots[i];
	     i = (i + 1) & (g->nr_slots - 1)) {
		struct group *e = &g->v[g->slots[i] - 1];

		if (key_of(e->first) == key && e->bucket == bucket && bits(e->bpsm, e->has_bpsm) == bb &&
		    bits(e->occ, e->has_occ) == ob)
			return e;
	}
	GROW(g->v, g->alloc, g->nr + 1);
	r = &g->v[g->nr];
	memset(r, 0, sizeof(*r));
	r->first = n;
	r->bucket = bucket;
	r->min = r->max = -1;
	r->bpsm = b;
	r->occ = o;
	r->has_bpsm = has_b;
	r->has_occ = has_o;
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

struct walk {
	const struct profile *p;
	bool by_node;			/* one row per trace row (no grouping) */
	struct groups ops, kernels;
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
		b = w->by_node ? -2 - (long)n->id : bucket_of(w->p, n);
		r = group_for(&w->ops, n, b, false);
		r->flags |= n->flags;
		r->calls += n->calls;
		r->host_self += n->host_self_ns;
		r->host_total += n->host_total_ns;
		r->dev_self += n->device_self_ns;
		r->dev_total += n->device_total_ns;
		minmax(r, n->min_ns, n->max_ns);
	} else if (n->kind == NODE_KERNEL && !(n->flags & NODE_NOT_A_ROW)) {
		b = w->by_node ? -2 - (long)n->id : bucket_of(w->p, n);
		r = group_for(&w->kernels, n, b, true);
		r->flags |= n->flags;
		r->calls += n->calls;
		r->dev_self += n->device_self_ns;
		r->dev_total += n->device_total_ns;
		if (n->calls == 1 && n->min_ns < 0)
			minmax(r, n->device_total_ns, n->device_total_ns);
		else
			minmax(r, n->min_ns, n->max_ns);
	}
	return true;
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

static void write_group(struct strbuf *b, const struct group *r, bool kernel, int64_t start)
{
	if (kernel)
		fmt(b, "kernel\t%" PRId64 "\t%u\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
		       "\t%" PRId64,
		    start, r->flags, r->calls, r->dev_self, r->dev_total, r->min, r->max);
	else
		fmt(b, "op\t%" PRId64 "\t%s\t%u\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
		       "\t%" PRId64 "\t%" PRId64 "\t%" PRId64,
		    start, node_kind_name(r->first->kind), r->flags, r->calls, r->host_self,
		    r->host_total, r->dev_self, r->dev_total, r->min, r->max);
	name_eol(b, r->first->name);
	if (!kernel) {
		write_attrs(b, "attr", r->first->attrs);
		return;
	}
	/* The key's two first, then what else the first kernel had. */
	if (r->has_bpsm)
		fmt(b, "attr\tblocks_per_sm\td\t%.17g\n", r->bpsm);
	if (r->has_occ)
		fmt(b, "attr\toccupancy_pct\td\t%.17g\n", r->occ);
	for (const struct attr *a = r->first->attrs; a; a = a->next)
		if (strcmp(a->key, "blocks_per_sm") && strcmp(a->key, "occupancy_pct"))
			write_attr(b, "attr", a);
}

/* The start a row of bucket B gets: its step's start, or for no step a
 * time in none (after the last step's end; never 0, which means
 * "untimed"). */
static int64_t bucket_start(const struct profile *p, const struct group *r, bool by_node)
{
	int64_t after = 1;

	if (by_node)
		return r->first->start_ns;
	if (r->bucket >= 0)
		return p->steps[r->bucket].start_ns;
	for (size_t i = 0; i < p->nr_steps; i++)
		if (p->steps[i].end_ns > after)
			after = p->steps[i].end_ns;
	return after;
}

void summary_write(const struct profile *p, struct strbuf *b)
{
	struct walk w = { .p = p };
	struct rank_local rl;

	fmt(b, "%s\t%d\n", SUMMARY_MAGIC, SUMMARY_VERSION);
	strbuf_addstr(b, "source");
	name_eol(b, p->path);
	strbuf_addstr(b, "format");
	name_eol(b, p->format ? p->format : "");
	fmt(b, "flags\t%d\t%d\n", p->has_device_time, p->has_timeline);
	fmt(b, "dist\t%d\t%d\t%d", p->dist.present, (int)p->dist.rank, (int)p->dist.world_size);
	name_eol(b, p->dist.backend);
	for (size_t i = 0; i < p->nr_devices; i++) {
		const struct device_info *d = &p->devices[i];

		fmt(b, "device\t%d\t%" PRId64 "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%" PRId64, (int)d->id,
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
		fmt(b, "warning\t%" PRIu64, x->count);
		name_eol(b, x->text);
	}
	fmt(b, "cats\t%zu", p->nr_step_cats);
	for (size_t k = 0; k < p->nr_step_cats; k++) {
		strbuf_addch(b, '\t');
		summary_escape(b, p->step_cats[k]);
	}
	strbuf_addch(b, '\n');
	for (size_t i = 0; i < p->nr_steps; i++) {
		const struct step *s = &p->steps[i];

		fmt(b, "step\t%" PRId64 "\t%" PRId64 "\t%" PRId64, s->start_ns, s->end_ns, s->total_ns);
		for (size_t k = 0; k < p->nr_step_cats; k++)
			fmt(b, "\t%" PRId64, s->cat_ns[k]);
		name_eol(b, s->name);
		write_attrs(b, "stepattr", s->attrs);
	}

	/* Rows per (name, step) when steps partition the timeline; else
	 * one per row of the trace, each with its own start. */
	w.by_node = !(p->has_timeline && steps_partition(p));
	node_walk(p->root, visit, &w);
	for (size_t i = 0; i < w.ops.nr; i++)
		write_group(b, &w.ops.v[i], false, bucket_start(p, &w.ops.v[i], w.by_node));
	for (size_t i = 0; i < w.kernels.nr; i++)
		write_group(b, &w.kernels.v[i], true, bucket_start(p, &w.kernels.v[i], w.by_node));
	free(w.ops.v);
	free(w.ops.slots);
	free(w.kernels.v);
	free(w.kernels.slots);

	rank_local_of(p, &rl);
	for (size_t i = 0; i < rl.nr_steps; i++)
		fmt(b, "overlap\t%zu\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", i,
		    rl.steps[i].computation, rl.steps[i].overlap, rl.steps[i].communication,
		    rl.steps[i].other);
	fmt(b, "comm\t%d\n", rl.has_communication);
	for (size_t i = 0; i < rl.nr_calls; i++) {
		const struct comm_call *c = &rl.calls[i];

		fmt(b, "call\t%d\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%zu", (int)c->step,
		    c->size_bytes, c->start_ns, c->end_ns, c->nr_ranges);
		for (size_t j = 0; j < c->nr_ranges; j++)
			fmt(b, "\t%" PRId64 "\t%" PRId64, c->ranges[j].start, c->ranges[j].end);
		name_eol(b, c->name);
	}
	rank_local_release(&rl);
	strbuf_addstr(b, "end\n");
}
