// SPDX-License-Identifier: MIT
/*
 * The engine model the TensorRT parsers share (trtexec.h): layer records,
 * the fused layers a record names, how a file's records join the layers
 * already loaded, Info lines, and what the JSON files have in common.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/util.h"
#include "../text.h"
#include "trtexec.h"

#define KIND_ONE_FILE "layers found in only one of the files (kept)"
#define KIND_BY_ORDER "layers joined by position: names differ between files"

/* ---------------------------------------------------------------------
 * Info lines
 */

void trt_meta_once(struct profile *p, const char *section, const char *key, const char *value)
{
	if (!profile_meta_get(p, section, key))
		profile_meta(p, section, key, value);
}

/* The pair as one interned string: U+001F cannot be in a key. */
static const char *pair_of(struct profile *p, const char *section, const char *key)
{
	size_t ns = strlen(section), nk = strlen(key);
	char *both = xmalloc(ns + nk + 2);
	const char *pair;

	memcpy(both, section, ns);
	both[ns] = '\x1f';
	memcpy(both + ns + 1, key, nk + 1);
	pair = profile_intern(p, both, ns + nk + 1);
	free(both);
	return pair;
}

/* Whether PAIR was new (and is now in the set). */
static bool set_add(struct meta_set *ms, const char *pair)
{
	size_t i;

	if (2 * (ms->nr + 1) > ms->cap) {
		const char **old = ms->v;
		size_t old_cap = ms->cap;

		ms->cap = ms->cap ? ms->cap * 2 : 64;
		ms->v = xcalloc(ms->cap, sizeof(*ms->v));
		ms->nr = 0;
		for (size_t k = 0; k < old_cap; k++)
			if (old[k])
				set_add(ms, old[k]);
		free(old);
	}
	for (i = hash_ptr(pair) & (ms->cap - 1); ms->v[i]; i = (i + 1) & (ms->cap - 1))
		if (ms->v[i] == pair)
			return false;
	ms->v[i] = pair;
	ms->nr++;
	return true;
}

void meta_set_init(struct meta_set *ms, struct profile *p)
{
	memset(ms, 0, sizeof(*ms));
	ms->p = p;
	for (const struct meta *m = p->meta; m; m = m->next)
		set_add(ms, pair_of(p, m->section, m->key));
}

void meta_set_release(struct meta_set *ms)
{
	free(ms->v);
	memset(ms, 0, sizeof(*ms));
}

void meta_set_put(struct meta_set *ms, const char *section, const char *key, const char *value)
{
	if (set_add(ms, pair_of(ms->p, section, key)))
		profile_meta(ms->p, section, key, value);
}

void meta_set_put_n(struct meta_set *ms, const char *section, const char *key, const char *v,
		    size_t n)
{
	char *s = xstrndup(v, n);

	meta_set_put(ms, section, key, s);
	free(s);
}

/* ---------------------------------------------------------------------
 * Layer records and their sources
 */

struct layer_in *layers_add(struct layers *ls, const char *name, struct pos at)
{
	struct layer_in *l;

	GROW(ls->v, ls->alloc, ls->nr + 1);
	l = &ls->v[ls->nr++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->at = at;
	return l;
}

void layers_release(struct layers *ls)
{
	for (size_t i = 0; i < ls->nr; i++)
		free(ls->v[i].sources);
	free(ls->v);
	memset(ls, 0, sizeof(*ls));
}

static void add_source(struct profile *p, struct layer_in *l, const char *s, size_t n)
{
	s = text_trim(s, &n);
	if (!n)
		return;
	GROW(l->sources, l->alloc_sources, l->nr_sources + 1);
	l->sources[l->nr_sources++] = profile_intern(p, s, n);
}

/*
 * "a + b + PWN(c)" gives a, b and PWN(c).  Split at " + " outside brackets
 * only: "{ForeignNode[a + b...c]}" is one Myelin block.  The reformat
 * layers TensorRT inserts are named for the layer they feed
 * ("Reformatting CopyNode for Input Tensor 0 to a + b") and fused nothing.
 * A name of one part gives no source: it would only repeat the layer's own
 * name.
 */
void layer_sources_from_name(struct profile *p, struct layer_in *l)
{
	const char *s = l->name;
	size_t n = strlen(s), start = 0, nr_parts = 1;
	int depth = 0;

	if (text_starts(s, n, "Reformatting CopyNode for "))
		return;
	for (size_t i = 0; i + 3 <= n; i++) {
		if (s[i] == '(' || s[i] == '[' || s[i] == '{')
			depth++;
		else if ((s[i] == ')' || s[i] == ']' || s[i] == '}') && depth > 0)
			depth--;
		else if (!depth && !memcmp(s + i, " + ", 3))
			nr_parts++;
	}
	if (nr_parts < 2)
		return;
	depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '(' || s[i] == '[' || s[i] == '{') {
			depth++;
		} else if ((s[i] == ')' || s[i] == ']' || s[i] == '}') && depth > 0) {
			depth--;
		} else if (!depth && i + 3 <= n && !memcmp(s + i, " + ", 3)) {
			add_source(p, l, s + start, i - start);
			start = i + 3;
			i += 2;
		}
	}
	add_source(p, l, s + start, n - start);
}

/*
 * The fused layers are separated by U+001E (U+001F also seen; the
 * tokenizer has turned a "\u001e" escape into the byte already).
 * "[ONNX Layer: a]" gives a; a part in another form is kept as it is.
 */
bool layer_sources_from_metadata(struct profile *p, struct layer_in *l, const char *s, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		const char *part;
		size_t len;

		if (i < n && s[i] != 0x1e && s[i] != 0x1f)
			continue;
		part = s + start;
		len = i - start;
		start = i + 1;
		part = text_trim(part, &len);
		if (len > 2 && part[0] == '[' && part[len - 1] == ']') {
			const char *colon = text_find(part, len, ": ");

			if (colon) {
				len = (size_t)(part + len - 1 - (colon + 2));
				part = colon + 2;
			}
		}
		add_source(p, l, part, len);
	}
	return l->nr_sources > 0;
}

/* ---------------------------------------------------------------------
 * What a record gives its layer's node
 */

/* Extra columns in this order, whatever order the files came in. */
static const char *const attr_order[] = {
	"mean_ns", "median_ns", "time_pct", "layer_type", "precision", "tactic", "origin",
	"input_shapes", "output_shapes",
};

static size_t attr_rank(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(attr_order); i++)
		if (!strcmp(key, attr_order[i]))
			return i;
	return ARRAY_SIZE(attr_order);
}

/* attr_list_sort()'s order: by attr_rank() of the keys. */
static int cmp_attr_rank(const struct attr *a, const struct attr *b)
{
	size_t ra = attr_rank(attr_key(a)), rb = attr_rank(attr_key(b));

	return (ra > rb) - (ra < rb);
}

/* FROM: a list of P's, as the layer records' are. */
static void merge_attrs(struct profile *p, struct node *n, const struct attr_list *from)
{
	if (attr_list_is_empty(node_attr_list(n))) {
		*node_attr_list(n) = *from;	/* the record is done with it */
	} else {
		for (struct attr *a = attr_list_first(p, from); a; a = attr_next(a)) {
			switch (attr_type(a)) {
			case ATTR_INT:
				attr_set_int(p, node_attr_list(n), attr_key(a), a->v.i);
				break;
			case ATTR_NS:
				attr_set_ns(p, node_attr_list(n), attr_key(a), a->v.i);
				break;
			case ATTR_DOUBLE:
				attr_set_double(p, node_attr_list(n), attr_key(a), a->v.d);
				break;
			case ATTR_LAUNCH:
				attr_set_launch(p, node_attr_list(n), a->v.launch);
				break;
			case ATTR_STRING:
				attr_set_str(p, node_attr_list(n), attr_key(a), a->v.s, strlen(a->v.s));
				break;
			case ATTR_STACK:
				attr_set_stack(p, node_attr_list(n), a->v.stack);
				break;
			}
		}
	}
	attr_list_sort(p, node_attr_list(n), cmp_attr_rank);
}

static struct node *child_of_kind(const struct node *n, enum node_kind kind)
{
	for (struct node *c = node_first_child(n); c; c = node_next(c))
		if (c->kind == kind)
			return c;
	return NULL;
}

/* What record L says about layer N: times, columns, tactic, sources. */
static void apply_layer(struct profile *p, struct node *n, const struct layer_in *l,
			uint64_t calls)
{
	struct node *k;

	if (l->has_time) {
		node_set_calls(p, n, calls);
		node_set_device_total(p, n, l->total_ns);
		node_set_device_self(p, n, l->total_ns);
	}
	if (!attr_list_is_empty(&l->attrs))
		merge_attrs(p, n, &l->attrs);
	if (l->kernel) {
		k = child_of_kind(n, NODE_KERNEL);
		if (k) {
			node_set_name(p, k, l->kernel);
		} else {
			k = node_new_interned(p, NULL, NODE_KERNEL, l->kernel);
			node_prepend(n, k);
		}
	}
	if (l->nr_sources && (l->sources_final || !child_of_kind(n, NODE_SOURCE))) {
		struct node *c, *next;

		for (c = node_first_child(n); c; c = next) {
			next = node_next(c);
			if (c->kind == NODE_SOURCE)
				node_unlink(c);
		}
		for (size_t i = 0; i < l->nr_sources; i++)
			node_new_interned(p, n, NODE_SOURCE, l->sources[i]);
	}
	/* The tactic ran as often and as long as its layer. */
	k = child_of_kind(n, NODE_KERNEL);
	if (k) {
		node_set_calls(p, k, node_calls(p, n));
		node_set_device_total(p, k, node_device_total(p, n));
		node_set_device_self(p, k, node_device_total(p, n));
	}
}

/* ---------------------------------------------------------------------
 * Joining a file's records to the layers already loaded
 */

/* One join: this file's records against the old layers. */
struct join {
	struct profile *p;
	struct diag *d;
	struct layers *ls;
	struct node **old;		/* the layers already there, in order */
	size_t nr_old, alloc_old;
	size_t *match;			/* per record: its old layer, or SIZE_MAX */
	bool *used;			/* per old layer: a record joined it */
	size_t nr_matched;
};

/* Old layers by name: an open-addressed table of interned name pointers,
 * each slot the first old index of that name, chained through next[].
 * It holds the old names only, at most half full, so a probe always
 * meets an empty slot. */
struct name_index {
	const char **keys;
	size_t *first;
	size_t mask;
};

/* The chain of NAME, made empty (SIZE_MAX) when NAME is new. */
static size_t *index_add(struct name_index *ix, const char *name)
{
	size_t i = hash_ptr(name) & ix->mask;

	while (ix->keys[i] && ix->keys[i] != name)
		i = (i + 1) & ix->mask;
	if (!ix->keys[i]) {
		ix->keys[i] = name;
		ix->first[i] = SIZE_MAX;
	}
	return &ix->first[i];
}

/* The chain of NAME, or NULL when no old layer has that name.  Never
 * adds: a file's new names could otherwise fill the table, and a full
 * table has no empty slot to end a probe. */
static size_t *index_find(struct name_index *ix, const char *name)
{
	for (size_t i = hash_ptr(name) & ix->mask; ix->keys[i]; i = (i + 1) & ix->mask)
		if (ix->keys[i] == name)
			return &ix->first[i];
	return NULL;
}

/* The k-th record of a name joins the k-th old layer of that name. */
static void match_by_name(struct join *jn)
{
	size_t *next_same = xcalloc(jn->nr_old + 1, sizeof(*next_same));
	struct name_index ix;

	ix.mask = 16;
	while (ix.mask < 2 * jn->nr_old)
		ix.mask *= 2;
	ix.keys = xcalloc(ix.mask, sizeof(*ix.keys));
	ix.first = xcalloc(ix.mask, sizeof(*ix.first));
	ix.mask--;

	/* Chains in file order: build them back to front. */
	for (size_t i = jn->nr_old; i-- > 0;) {
		size_t *first = index_add(&ix, node_name(jn->old[i]));

		next_same[i] = *first;
		*first = i;
	}
	for (size_t k = 0; k < jn->ls->nr && jn->nr_old; k++) {
		size_t *first = index_find(&ix, jn->ls->v[k].name);

		if (first && *first != SIZE_MAX) {
			jn->match[k] = *first;
			jn->used[*first] = true;
			*first = next_same[*first];
			jn->nr_matched++;
		}
	}
	free(ix.keys);
	free(ix.first);
	free(next_same);
}

/* As many records as old layers, the names not all matching: the k-th
 * joins the k-th. */
static void match_by_position(struct join *jn, bool names_win)
{
	struct layers *ls = jn->ls;
	size_t differ = 0;

	for (size_t k = 0; k < ls->nr; k++) {
		jn->match[k] = k;
		if (node_name(jn->old[k]) != ls->v[k].name) {
			differ++;
			if (names_win)
				node_set_name(jn->p, jn->old[k], ls->v[k].name);
		}
	}
	diag_warn(jn->d, NULL, KIND_BY_ORDER,
		  "%zu of %zu layer names differ from those already loaded; "
		  "joined the layers by position", differ, ls->nr);
}

static void warn_unmatched(struct join *jn)
{
	struct layers *ls = jn->ls;

	for (size_t k = 0; k < ls->nr; k++) {
		if (jn->match[k] == SIZE_MAX)
			diag_warn(jn->d, &ls->v[k].at, KIND_ONE_FILE,
				  "layer '%s' is not in the files loaded before this one",
				  ls->v[k].name);
	}
	for (size_t i = 0; i < jn->nr_old; i++)
		if (!jn->used[i])
			diag_warn(jn->d, NULL, KIND_ONE_FILE,
				  "layer '%s' of the files loaded before is not in this one",
				  node_name(jn->old[i]));
}

/*
 * Relink the root's children: the OLD layers in their order, each followed
 * by the new layers (TO[k] where MATCH[k] is none) anchored after it
 * (ANCHOR[k] = old index + 1; 0 = before the first), then whatever else
 * the root held.
 */
static void reorder(struct profile *p, struct node **old, size_t nr_old, struct node **to,
		    const size_t *match, const size_t *anchor, size_t nr)
{
	size_t *start = xcalloc(nr_old + 2, sizeof(*start));
	size_t *fill = xcalloc(nr_old + 2, sizeof(*fill));
	size_t *order = xcalloc(nr + 1, sizeof(*order));
	struct node **others = NULL, *c;
	size_t nr_others = 0, alloc_others = 0;

	for (size_t k = 0; k < nr; k++)
		if (match[k] == SIZE_MAX)
			start[anchor[k] + 1]++;
	for (size_t a = 1; a <= nr_old + 1; a++)
		start[a] += start[a - 1];
	for (size_t k = 0; k < nr; k++)
		if (match[k] == SIZE_MAX)
			order[start[anchor[k]] + fill[anchor[k]]++] = k;

	for (c = node_first_child(p->root); c; c = node_next(c)) {
		if (c->kind == NODE_LAYER)
			continue;
		GROW(others, alloc_others, nr_others + 1);
		others[nr_others++] = c;
	}
	node_detach_children(p->root);	/* each appended again below */
	for (size_t a = 0; a <= nr_old; a++) {
		if (a)
			node_append(p, p->root, old[a - 1]);
		for (size_t b = start[a]; b < start[a + 1]; b++)
			node_append(p, p->root, to[order[b]]);
	}
	for (size_t k = 0; k < nr_others; k++)
		node_append(p, p->root, others[k]);
	free(others);
	free(start);
	free(fill);
	free(order);
}

/* Each record's node (heap array, the caller frees): its old layer, or a
 * new one -- appended when there were none; else after the old layer
 * that the record before it in this file joined. */
static struct node **place_layers(struct join *jn)
{
	struct layers *ls = jn->ls;
	struct node **to = xcalloc(ls->nr + 1, sizeof(*to));
	size_t *anchor = xcalloc(ls->nr + 1, sizeof(*anchor));
	size_t nr_new = 0;

	for (size_t k = 0, a = 0; k < ls->nr; k++) {
		if (jn->match[k] != SIZE_MAX) {
			to[k] = jn->old[jn->match[k]];
			a = jn->match[k] + 1;
			continue;
		}
		to[k] = node_new_interned(jn->p, jn->nr_old ? NULL : jn->p->root, NODE_LAYER,
					  ls->v[k].name);
		to[k]->flags |= NODE_DISTINCT;
		anchor[k] = a;		/* 0: before the first old layer */
		nr_new++;
	}
	if (jn->nr_old && nr_new)
		reorder(jn->p, jn->old, jn->nr_old, to, jn->match, anchor, ls->nr);
	free(anchor);
	return to;
}

/*
 * The files of another engine: none of the file's layers has the name of
 * one loaded before, and they cannot join by position.  Says so, naming
 * the files loaded before (the profile's path is the group's files, this
 * one among them).
 */
static bool foreign_engine(const struct join *jn)
{
	const char *self;
	size_t before;

	if (!jn->nr_old || !jn->ls->nr || jn->nr_matched || jn->ls->nr == jn->nr_old ||
	    jn->p->sums_whole)
		return false;
	self = strstr(jn->p->path, jn->d->path);
	before = self && self - jn->p->path >= 3 ? (size_t)(self - jn->p->path) - 3
						  : strlen(jn->p->path);
	diag_error(jn->d, NULL, "none of its %zu layers is one of the %zu of '%.*s': a file of "
		   "another engine (open each engine's files alone; named as trex names them, "
		   "<engine>.graph.json, <engine>.profile.json..., two engines' files open as a "
		   "diff; --merge sums them)", jn->ls->nr, jn->nr_old, (int)before, jn->p->path);
	return true;
}

bool layers_join(struct profile *p, struct diag *d, struct layers *ls, bool names_win)
{
	struct join jn = { .p = p, .d = d, .ls = ls };
	struct node **to;

	for (struct node *c = node_first_child(p->root); c; c = node_next(c)) {
		if (c->kind != NODE_LAYER)
			continue;
		GROW(jn.old, jn.alloc_old, jn.nr_old + 1);
		jn.old[jn.nr_old++] = c;
	}
	jn.match = xmalloc((ls->nr + 1) * sizeof(*jn.match));
	for (size_t k = 0; k < ls->nr; k++)
		jn.match[k] = SIZE_MAX;
	jn.used = xcalloc(jn.nr_old + 1, sizeof(*jn.used));

	match_by_name(&jn);
	if (foreign_engine(&jn)) {
		free(jn.used);
		free(jn.match);
		free(jn.old);
		return false;
	}
	if (jn.nr_old && jn.nr_matched < ls->nr && ls->nr == jn.nr_old)
		match_by_position(&jn, names_win);
	else if (jn.nr_old)
		warn_unmatched(&jn);
	to = place_layers(&jn);

	for (size_t k = 0; k < ls->nr; k++)
		apply_layer(p, to[k], &ls->v[k], ls->calls);
	node_set_device_total(p, p->root, 0);
	for (struct node *c = node_first_child(p->root); c; c = node_next(c))
		if (c->kind == NODE_LAYER)
			node_add_device_total(p, p->root, node_device_total(p, c));

	free(to);
	free(jn.used);
	free(jn.match);
	free(jn.old);
	return true;
}

/* ---------------------------------------------------------------------
 * What the JSON files share
 */

size_t trt_skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	return i;
}

bool trt_opens_with(const char *head, size_t len, char open, char open2, const char *key)
{
	size_t i = trt_skip_ws(head, len, 0);

	if (i >= len || head[i] != open)
		return false;
	i = trt_skip_ws(head, len, i + 1);
	if (open2) {
		if (i >= len || head[i] != open2)
			return false;
		i = trt_skip_ws(head, len, i + 1);
	}
	if (i >= len || head[i] != '"')
		return false;
	i++;
	if (!*key)
		return true;
	return text_starts(head + i, len - i, key) && i + strlen(key) < len &&
	       head[i + strlen(key)] == '"';
}

int trt_report_end(struct json *j, enum json_tok t, const char *what, size_t nr)
{
	char kept[48];

	if (t == JSON_ERROR)
		return nr ? 0 : -1;
	snprintf(kept, sizeof(kept), "the %zu read before it", nr);
	return json_report_end(j, t, what, nr, kept);
}
