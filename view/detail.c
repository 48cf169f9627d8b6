// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/aggregate.h"
#include "../model/dist.h"
#include "../model/strbuf.h"
#include "../model/util.h"
#include "detail.h"

void detail_release(struct detail *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		free(d->v[i].field);
		free(d->v[i].value);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static struct detail_line *add(struct detail *d, const char *field, const char *value,
			       const char *meaning)
{
	struct detail_line *l;

	GROW(d->v, d->alloc, d->nr + 1);
	l = &d->v[d->nr++];
	memset(l, 0, sizeof(*l));
	l->field = xstrdup(field ? field : "");
	l->value = xstrdup(value ? value : "");
	l->meaning = meaning ? meaning : "";
	return l;
}

void detail_heading(struct detail *d, const char *title)
{
	add(d, title, "", "")->is_heading = true;
}

void detail_add(struct detail *d, const char *field, const char *value, const char *meaning)
{
	add(d, field, value, meaning);
}

void detail_add_link(struct detail *d, const char *field, const char *value, const char *meaning,
		     enum pane_id go_to, const char *name)
{
	struct detail_line *l = add(d, field, value, meaning);

	l->is_link = true;
	l->go_to = go_to;
	l->go_name = name;
}

void detail_node(struct detail *d, const struct node *n)
{
	struct strbuf path = STRBUF_INIT;
	const struct node *chain[64];
	size_t nr = 0;

	detail_heading(d, "-- in the call tree --");
	detail_add(d, "Kind", node_kind_name(n->kind), "what the node is");
	for (const struct node *a = node_parent(n); a && a->kind != NODE_ROOT; a = node_parent(a)) {
		if (nr == ARRAY_SIZE(chain)) {
			memmove(chain, chain + 1, (nr - 1) * sizeof(*chain));
			nr--;
		}
		chain[nr++] = a;
	}
	for (size_t i = nr; i-- > 0;) {
		strbuf_addstr(&path, node_name(chain[i]));
		if (i)
			strbuf_addstr(&path, " > ");
	}
	if (nr)
		detail_add(d, "Called from", path.s, "the nodes above it, outermost first");
	if (node_kind_is_device(n->kind)) {
		const struct node *op = node_parent(n);

		while (op && !node_is_op_row(op))
			op = node_parent(op);
		if (op)
			detail_add_link(d, "Launched by", node_name(op),
					"the op that launched it (Enter: the op's row)", PANE_OPS,
					node_name(op));
	}
	strbuf_release(&path);
}

/* An edge of a bin: a round time ("20 us"), the last one's end "max". */
static void edge_text(int64_t ns, char *buf, size_t size)
{
	static const struct {
		int64_t per;
		const char *unit;
	} units[] = { { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" } };

	if (ns == INT64_MAX) {
		snprintf(buf, size, "max");
		return;
	}
	for (size_t u = 0; u < ARRAY_SIZE(units); u++) {
		if (ns >= units[u].per && ns % units[u].per == 0) {
			snprintf(buf, size, "%lld %s", (long long)(ns / units[u].per), units[u].unit);
			return;
		}
	}
	fmt_time(ns, buf, size);
}

#define BAR_WIDTH 20

void detail_histogram(struct detail *d, const int64_t *v, size_t n)
{
	/* Which of median, P90, P99 (bits 0, 1, 2) a bin holds. */
	static const char *const marks[8] = {
		"", "<- median", "<- P90", "<- median, P90", "<- P99", "<- median, P99",
		"<- P90, P99", "<- median, P90, P99",
	};
	struct dist_bin bins[DIST_MAX_BINS];
	struct dist st;
	size_t nb;
	uint64_t most = 0;
	char field[160], value[256], t[3][64];

	if (!v || !n)
		return;
	dist_of_sorted(v, n, &st);
	nb = dist_histogram(v, n, bins);
	detail_heading(d, "-- durations --");
	fmt_time(st.median_ns, t[0], sizeof(t[0]));
	fmt_time(st.p90_ns, t[1], sizeof(t[1]));
	fmt_time(st.p99_ns, t[2], sizeof(t[2]));
	snprintf(value, sizeof(value), "%s / %s / %s", t[0], t[1], t[2]);
	detail_add(d, "Median, P90, P99", value,
		   "percentiles of the calls' durations: linear interpolation between the closest "
		   "ranks (numpy's default)");
	for (size_t b = 0; b < nb; b++)
		if (bins[b].count > most)
			most = bins[b].count;
	for (size_t b = 0; b < nb; b++) {
		const struct dist_bin *o = &bins[b];
		bool last = b + 1 == nb && o->hi_ns == INT64_MAX;
		int bar = (int)((o->count * BAR_WIDTH + most - 1) / most), m = 0;
		int64_t pct[3] = { st.median_ns, st.p90_ns, st.p99_ns };

		for (int k = 0; k < 3; k++)
			if (pct[k] >= o->lo_ns && (pct[k] < o->hi_ns || last))
				m |= 1 << k;
		if (o->lo_ns <= 0 && o->hi_ns == 1) {
			snprintf(field, sizeof(field), "below 1 ns");
		} else {
			edge_text(o->lo_ns, t[0], sizeof(t[0]));
			edge_text(o->hi_ns, t[1], sizeof(t[1]));
			snprintf(field, sizeof(field), "%s - %s", t[0], t[1]);
		}
		snprintf(value, sizeof(value), "%8llu %.*s", (unsigned long long)o->count, bar,
			 "####################");
		detail_add(d, field, value, marks[m]);
	}
}
