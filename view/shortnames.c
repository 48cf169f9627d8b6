// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "format.h"
#include "shortnames.h"

struct short_slot {
	const char *name;	/* interned: compared by pointer */
	char *short_name;	/* heap, or NULL: the name is its own */
};

struct shortnames {
	struct short_slot *slots;	/* open addressing */
	size_t cap, nr;
	const char *ellipsis;
	struct strbuf buf;
	/* While building: the names that have a short form, in the order
	 * first met. */
	const char **changed;
	size_t nr_changed, alloc_changed;
};

static struct short_slot *slot_of(struct shortnames *sn, const char *name)
{
	size_t i;

	if (2 * (sn->nr + 1) > sn->cap) {
		struct short_slot *old = sn->slots;
		size_t old_cap = sn->cap;

		sn->cap = sn->cap ? 2 * sn->cap : 4096;
		sn->slots = xcalloc(sn->cap, sizeof(*sn->slots));
		for (size_t k = 0; k < old_cap; k++) {
			if (!old[k].name)
				continue;
			for (i = hash_ptr(old[k].name) & (sn->cap - 1); sn->slots[i].name;
			     i = (i + 1) & (sn->cap - 1))
				;
			sn->slots[i] = old[k];
		}
		free(old);
	}
	for (i = hash_ptr(name) & (sn->cap - 1); sn->slots[i].name; i = (i + 1) & (sn->cap - 1))
		if (sn->slots[i].name == name)
			return &sn->slots[i];
	sn->slots[i].name = name;
	sn->nr++;
	if (fmt_short_name(name, sn->ellipsis, &sn->buf))
		sn->slots[i].short_name = xstrdup(sn->buf.s);
	return &sn->slots[i];
}

static bool add_node(struct node *n, void *ctx)
{
	struct shortnames *sn = ctx;
	size_t before = sn->nr;
	struct short_slot *s = slot_of(sn, node_name(n));

	/* Slots move as the table grows: names are what is kept. */
	if (sn->nr > before && s->short_name) {
		GROW(sn->changed, sn->alloc_changed, sn->nr_changed + 1);
		sn->changed[sn->nr_changed++] = node_name(n);
	}
	return true;
}

struct by_short {
	const char *name;
	const char *short_name;
	size_t seen;
};

static int cmp_by_short(const void *a, const void *b)
{
	const struct by_short *x = a, *y = b;
	int c = strcmp(x->short_name, y->short_name);

	if (c)
		return c;
	return (x->seen > y->seen) - (x->seen < y->seen);
}

struct shortnames *shortnames_new(const struct profile *p, bool ascii)
{
	struct shortnames *sn = xcalloc(1, sizeof(*sn));
	struct by_short *v;
	size_t n;

	sn->ellipsis = ascii ? "..." : "\xe2\x80\xa6";
	/* The walk only reads the nodes, whatever node_walk's type says. */
	node_walk((struct node *)p->root, add_node, sn);
	n = sn->nr_changed;
	v = xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		const char *name = sn->changed[i];

		v[i].name = name;
		v[i].short_name = slot_of(sn, name)->short_name;
		v[i].seen = i;
	}
	qsort(v, n, sizeof(*v), cmp_by_short);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && !strcmp(v[j].short_name, v[i].short_name))
			j++;
		/* Several names, one short form (or a short form that is
		 * the whole name of another): numbered apart, in the order
		 * the tree meets them. */
		if (j - i > 1 || strtab_lookup(p->names, v[i].short_name, strlen(v[i].short_name))) {
			for (size_t k = i; k < j; k++) {
				struct short_slot *s = slot_of(sn, v[k].name);
				size_t len = strlen(s->short_name) + 24;
				char *num = xmalloc(len);

				snprintf(num, len, "%s #%zu", s->short_name, k - i + 1);
				free(s->short_name);
				s->short_name = num;
			}
		}
		i = j;
	}
	free(v);
	free(sn->changed);
	sn->changed = NULL;
	strbuf_release(&sn->buf);
	return sn;
}

void shortnames_free(struct shortnames *sn)
{
	if (!sn)
		return;
	for (size_t i = 0; i < sn->cap; i++)
		free(sn->slots[i].short_name);
	free(sn->slots);
	free(sn);
}

const char *shortnames_get(const struct shortnames *sn, const char *name)
{
	size_t i;

	if (!sn || !sn->cap || !name)
		return name;
	for (i = hash_ptr(name) & (sn->cap - 1); sn->slots[i].name; i = (i + 1) & (sn->cap - 1))
		if (sn->slots[i].name == name)
			return sn->slots[i].short_name ? sn->slots[i].short_name : name;
	return name;
}
