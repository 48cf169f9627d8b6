// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "util.h"

static const char *const kind_names[] = {
#define X(e, s) s,
	NODE_KINDS(X)
#undef X
};

const char *node_kind_name(enum node_kind kind)
{
	return (size_t)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "?";
}

bool node_kind_is_device(enum node_kind kind)
{
	return kind == NODE_KERNEL || kind == NODE_MEMCPY || kind == NODE_MEMSET;
}

void profile_init(struct profile *p, const char *path)
{
	memset(p, 0, sizeof(*p));
	arena_init(&p->arena);
	strtab_init(&p->names, &p->arena);
	p->path = arena_strdup(&p->arena, path ? path : "");
	p->root = node_new(p, NULL, NODE_ROOT, "<all>", 5);
}

void profile_release(struct profile *p)
{
	struct profile *run = p->next_run;

	while (run) {
		struct profile *next = run->next_run;

		run->next_run = NULL;
		profile_release(run);
		free(run);
		run = next;
	}
	free(p->steps);
	strtab_release(&p->names);
	arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}

struct profile *profile_add_run(struct profile *first, const char *where)
{
	/* The last run is remembered: a log with thousands of tables adds
	 * its runs in constant time each. */
	struct profile *last = first->last_run ? first->last_run : first, *run;

	while (last->next_run)
		last = last->next_run;
	run = xmalloc(sizeof(*run));
	profile_init(run, first->path);
	run->format = first->format;
	run->run_where = where ? arena_strdup(&run->arena, where) : NULL;
	last->next_run = run;
	first->last_run = run;
	return run;
}

struct profile *profile_run(struct profile *first, size_t n)
{
	while (first && n--)
		first = first->next_run;
	return first;
}

size_t profile_nr_runs(const struct profile *first)
{
	size_t n = 0;

	for (; first; first = first->next_run)
		n++;
	return n;
}

const char *profile_intern(struct profile *p, const char *s, size_t n)
{
	return strtab_intern(&p->names, s, n);
}

const char *profile_strdup(struct profile *p, const char *s)
{
	return arena_strdup(&p->arena, s);
}

void node_append(struct node *parent, struct node *child)
{
	child->parent = parent;
	child->next = NULL;
	if (parent->last_child)
		parent->last_child->next = child;
	else
		parent->child = child;
	parent->last_child = child;
}

struct node *node_new(struct profile *p, struct node *parent,
		      enum node_kind kind, const char *name, size_t name_len)
{
	return node_new_interned(p, parent, kind, strtab_intern(&p->names, name, name_len));
}

struct node *node_new_interned(struct profile *p, struct node *parent,
			       enum node_kind kind, const char *name)
{
	struct node *n = arena_alloc(&p->arena, sizeof(*n));

	n->name = name;
	n->kind = kind;
	n->min_ns = n->max_ns = -1;
	n->id = p->nr_nodes++;
	if (parent)
		node_append(parent, n);
	return n;
}

struct node *node_child(struct profile *p, struct node *parent,
			enum node_kind kind, const char *name)
{
	for (struct node *c = parent->child; c; c = c->next)
		if (c->name == name && c->kind == kind)
			return c;
	return node_new(p, parent, kind, name, strlen(name));
}

void node_unlink(struct node *n)
{
	struct node *parent = n->parent, *prev = NULL;

	if (!parent)
		return;
	for (struct node *c = parent->child; c; prev = c, c = c->next) {
		if (c != n)
			continue;
		if (prev)
			prev->next = n->next;
		else
			parent->child = n->next;
		if (parent->last_child == n)
			parent->last_child = prev;
		break;
	}
	n->parent = n->next = NULL;
}

struct node *node_ancestor(const struct node *n, enum node_kind kind)
{
	for (struct node *a = n->parent; a; a = a->parent)
		if (a->kind == kind)
			return a;
	return NULL;
}

const struct attr *attr_find(const struct attr *list, const char *key)
{
	for (; list; list = list->next)
		if (list->key == key || !strcmp(list->key, key))
			return list;
	return NULL;
}

struct attr *node_attr(const struct node *n, const char *key)
{
	return (struct attr *)attr_find(n->attrs, key);
}

/* The attribute KEY of *LIST, appended if absent (keeps first-set order,
 * which is the column order panes show). */
static struct attr *attr_slot(struct profile *p, struct attr **list, const char *key)
{
	struct attr **link = list;

	for (; *link; link = &(*link)->next)
		if (!strcmp((*link)->key, key))
			return *link;
	*link = arena_alloc(&p->arena, sizeof(**link));
	(*link)->key = strtab_intern(&p->names, key, strlen(key));
	return *link;
}

void attr_set_int(struct profile *p, struct attr **list, const char *key, int64_t v)
{
	struct attr *a = attr_slot(p, list, key);

	a->type = ATTR_INT;
	a->v.i = v;
}

void attr_set_ns(struct profile *p, struct attr **list, const char *key, int64_t ns)
{
	struct attr *a = attr_slot(p, list, key);

	a->type = ATTR_NS;
	a->v.i = ns;
}

void attr_set_double(struct profile *p, struct attr **list, const char *key, double v)
{
	struct attr *a = attr_slot(p, list, key);

	a->type = ATTR_DOUBLE;
	a->v.d = v;
}

void attr_set_str(struct profile *p, struct attr **list, const char *key, const char *s, size_t n)
{
	struct attr *a = attr_slot(p, list, key);

	a->type = ATTR_STRING;
	a->v.s = arena_strndup(&p->arena, s, n);
}

void profile_set_step_cats(struct profile *p, const char *const *names, size_t n)
{
	const char **cats = arena_alloc(&p->arena, (n ? n : 1) * sizeof(*cats));

	for (size_t i = 0; i < n; i++)
		cats[i] = strtab_intern(&p->names, names[i], strlen(names[i]));
	p->step_cats = cats;
	p->nr_step_cats = n;
}

struct step *profile_add_step(struct profile *p, const char *name, size_t name_len)
{
	struct step *s;

	GROW(p->steps, p->alloc_steps, p->nr_steps + 1);
	s = &p->steps[p->nr_steps++];
	memset(s, 0, sizeof(*s));
	s->name = strtab_intern(&p->names, name, name_len);
	s->cat_ns = arena_alloc(&p->arena, (p->nr_step_cats ? p->nr_step_cats : 1) * sizeof(int64_t));
	for (size_t i = 0; i < p->nr_step_cats; i++)
		s->cat_ns[i] = -1;
	return s;
}

int profile_step_cat(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->nr_step_cats; i++)
		if (!strcmp(p->step_cats[i], name))
			return (int)i;
	return -1;
}

void profile_meta(struct profile *p, const char *section, const char *key, const char *value)
{
	struct meta *m = arena_alloc(&p->arena, sizeof(*m));

	m->section = strtab_intern(&p->names, section, strlen(section));
	m->key = arena_strdup(&p->arena, key);
	m->value = arena_strdup(&p->arena, value ? value : "");
	if (p->meta_tail)
		p->meta_tail->next = m;
	else
		p->meta = m;
	p->meta_tail = m;
}

const char *profile_meta_get(const struct profile *p, const char *section, const char *key)
{
	for (const struct meta *m = p->meta; m; m = m->next)
		if (!strcmp(m->section, section) && !strcmp(m->key, key))
			return m->value;
	return NULL;
}

void profile_warn(struct profile *p, const char *text, uint64_t count)
{
	struct warning *w;

	for (w = p->warnings; w; w = w->next) {
		if (!strcmp(w->text, text)) {
			w->count += count;
			return;
		}
	}
	w = arena_alloc(&p->arena, sizeof(*w));
	w->text = arena_strdup(&p->arena, text);
	w->count = count;
	if (p->warnings_tail)
		p->warnings_tail->next = w;
	else
		p->warnings = w;
	p->warnings_tail = w;
}

void node_walk(struct node *from, bool (*fn)(struct node *n, void *ctx), void *ctx)
{
	struct node *n = from;

	/* Iterative: traces nest deep enough to make recursion a risk. */
	while (n) {
		if (fn(n, ctx) && n->child) {
			n = n->child;
			continue;
		}
		while (n != from && !n->next)
			n = n->parent;
		if (n == from)
			break;
		n = n->next;
	}
}

struct finish_ctx {
	struct profile *p;
	uint32_t next_id;
};

static bool number_node(struct node *n, void *ctx)
{
	struct finish_ctx *f = ctx;

	n->id = f->next_id++;
	if (n->device_self_ns || n->device_total_ns)
		f->p->has_device_time = true;
	if (n->start_ns)
		f->p->has_timeline = true;
	return true;
}

void profile_finish(struct profile *p)
{
	struct finish_ctx f = { p, 0 };

	p->has_device_time = false;
	p->has_timeline = false;
	node_walk(p->root, number_node, &f);
	p->nr_nodes = f.next_id;
}
