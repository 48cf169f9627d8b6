// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "../model/aggregate.h"
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
