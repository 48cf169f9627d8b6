/* SPDX-License-Identifier: MIT */
/*
 * load-text: everything a Kineto load says, as one text, for tests that
 * load a trace two ways and require the same bytes (t-kineto-par.c:
 * chunked reading; t-kineto-link.c: the link on two threads;
 * fuzz/fuzz-kineto-ways.c: both, on any input).  Without test.h, whose
 * main() a fuzz target cannot have: the tests include it themselves.
 */
#ifndef TESTS_UNIT_LOAD_TEXT_H
#define TESTS_UNIT_LOAD_TEXT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/aggregate.h"
#include "model/strbuf.h"
#include "load-paths.h"
#include "parsers/load.h"
#include "parsers/parser.h"

static void add(struct strbuf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void add(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

static void add_attrs(struct strbuf *b, const struct attr *a)
{
	for (; a; a = attr_next(a)) {
		const struct launch *l;

		switch (attr_type(a)) {
		case ATTR_INT:
		case ATTR_NS:
			add(b, " %s=%lld", attr_key(a), (long long)a->v.i);
			break;
		case ATTR_DOUBLE:
			add(b, " %s=%.17g", attr_key(a), a->v.d);
			break;
		case ATTR_STRING:
			if (!strcmp(attr_key(a), "call_stack"))
				add(b, " stack %s", a->v.s);	/* t-kineto-link.c looks */
			else
				add(b, " %s=[%s]", attr_key(a), a->v.s);
			break;
		case ATTR_STACK:
			add(b, " stack ");
			call_stack_append_text(a->v.stack, b);
			break;
		case ATTR_LAUNCH:
			l = a->v.launch;
			add(b, " %s=%d/%d/%d,%d,%d/%d,%d,%d/%d/%lld/%.17g/%.17g", attr_key(a), l->device,
			    l->stream, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
			    l->block[2], l->registers_per_thread, (long long)l->shared_memory_bytes,
			    l->blocks_per_sm, l->occupancy_pct);
			break;
		}
	}
}

static void add_tree(struct strbuf *b, const struct profile *p, const struct node *n, int depth)
{
	for (; n; n = node_next(n)) {
		add(b, "%*s%s k%d f%d s%lld ht%lld hs%lld dt%lld ds%lld", depth, "", node_name(n),
		    n->kind, n->flags, (long long)n->start_ns, (long long)node_host_total(p, n),
		    (long long)node_host_self(p, n), (long long)node_device_total(p, n),
		    (long long)node_device_self(p, n));
		add_attrs(b, node_attrs(n));
		add(b, "\n");
		add_tree(b, p, node_first_child(n), depth + 1);
	}
}

static void add_agg(struct strbuf *b, const char *what, const struct agg *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		const struct agg_row *r = &a->rows[i];

		add(b, "%s %s calls %llu self %lld total %lld dev %lld/%lld\n", what, r->name,
		    (unsigned long long)r->calls, (long long)r->host_self_ns,
		    (long long)r->host_total_ns, (long long)r->device_self_ns,
		    (long long)r->device_total_ns);
	}
}

/* Load PATH as a Kineto trace into P, initialised here and left for the
 * caller to release, with the messages in MSG (CAP bytes): test_load(). */
static int load_kineto(struct profile *p, const char *path, char *msg, size_t cap)
{
	const char *paths[1] = { path };

	return test_load_paths(p, paths, 1, "kineto", msg, cap);
}

/* Everything a load of PATH says, as text, with the environment
 * variable ENV set to VALUE for it: its code and messages, the tree with
 * every node's times, flags and attributes, the tables, the steps and
 * their categories, the memory events, Info and the warnings in their
 * order.  Caller frees. */
static char *load_text(const char *path, const char *env, const char *value)
{
	struct strbuf b = STRBUF_INIT;
	static char msg[1 << 16];
	struct profile p;
	struct agg a;
	int rc;

	setenv(env, value, 1);
	rc = load_kineto(&p, path, msg, sizeof(msg));
	unsetenv(env);
	add(&b, "rc %d\n%s", rc, msg);
	if (rc == 0 || p.root) {
		add_tree(&b, &p, p.root, 0);
		agg_ops(&p, NULL, &a);
		add_agg(&b, "op", &a);
		agg_release(&a);
		agg_kernels(&p, NULL, &a);
		add_agg(&b, "kernel", &a);
		agg_release(&a);
		for (size_t i = 0; i < p.nr_step_cats; i++)
			add(&b, "step column %s\n", p.step_cats[i]);
		for (size_t i = 0; i < p.nr_steps; i++) {
			add(&b, "step %s %lld %lld", p.steps[i].name, (long long)p.steps[i].start_ns,
			    (long long)p.steps[i].end_ns);
			for (size_t c = 0; c < p.nr_step_cats; c++)
				add(&b, " %lld", (long long)p.steps[i].cat_ns[c]);
			add(&b, "\n");
		}
		for (size_t i = 0; i < p.nr_mem_events; i++) {
			const struct mem_event *m = &p.mem_events[i];

			add(&b, "memory %zu %lld %lld %lld %lld %llu %d:%d %lld op %s\n", i,
			    (long long)m->ts_ns, (long long)m->bytes, (long long)m->total_allocated,
			    (long long)m->total_reserved, (unsigned long long)m->addr,
			    (int)m->device.type, (int)m->device.index, (long long)m->tid,
			    m->op ? node_name(m->op) : "-");
		}
		for (const struct meta *m = p.meta; m; m = m->next)
			add(&b, "meta [%s] %s = %s\n", m->section, m->key, m->value);
		for (const struct warning *w = p.warnings; w; w = w->next)
			add(&b, "warning %s: %llu\n", w->text, (unsigned long long)w->count);
	}
	profile_release(&p);
	return b.s ? b.s : xstrdup("");
}

#endif
