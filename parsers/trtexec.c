// SPDX-License-Identifier: MIT
/*
 * TensorRT trtexec (FORMATS.md d): the files a benchmark of one engine
 * leaves behind, one parser object each, all in this file because they
 * share one model of the engine and one way of joining into it:
 *
 *   trtexec-graph    --exportLayerInfo JSON: the layers, simple (names) or
 *                    detailed (type, tensors, tactic, fused ONNX layers)
 *   trtexec-profile  --exportProfile JSON: per-layer time over N iterations
 *   trtexec-times    --exportTimes JSON: one record per inference (Steps)
 *   trtexec-log      the log: --dumpProfile table, performance summary,
 *                    device and option blocks, the TensorRT version
 *   trex-metadata    trex's *.metadata.json: those log blocks as JSON
 *
 * The engine's layers are NODE_LAYER nodes under the root, in engine
 * order, each a row of its own (NODE_DISTINCT: names may repeat).  Under a
 * layer hang its tactic, as a kernel carrying the layer's time so the
 * Kernels pane lists tactics, and the source layers it fused (NODE_SOURCE),
 * so drill-down from a layer shows both.
 *
 * `proftui x.graph.json x.profile.json x.timing.json` parses the files one
 * after another into one profile, in any order: each file's layers join the
 * layers already there (join_layers()), by name, or by position when the
 * counts agree and the names do not (old TensorRT named layers differently
 * in the two files; trex joins the same way).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "json.h"
#include "num.h"
#include "parser.h"
#include "text.h"

#define KIND_ONE_FILE "layers found in only one of the files (kept)"
#define KIND_BY_ORDER "layers joined by position: names differ between files"

/* Meta lines are set once: when a log and trex's metadata of the same run
 * are both loaded, the first file's line stands.  For the few lines of the
 * JSON exports; the log and trex's files, which hold any number of lines,
 * use a struct meta_set. */
static void meta_once(struct profile *p, const char *section, const char *key, const char *value)
{
	if (!profile_meta_get(p, section, key))
		profile_meta(p, section, key, value);
}

/* The (section, key) pairs a profile's Info holds, as 64-bit hashes in an
 * open-addressed table, so that adding a line is not a scan of them all. */
struct meta_set {
	struct profile *p;
	uint64_t *v;			/* 0: an empty slot */
	size_t nr, cap;
};

static uint64_t meta_hash(const char *section, const char *key)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *c = section; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;	/* a byte no key holds */
	for (const char *c = key; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	return h ? h : 1;
}

/* Whether H was new (and is now in the set). */
static bool meta_set_add(struct meta_set *ms, uint64_t h)
{
	size_t i;

	if (2 * (ms->nr + 1) > ms->cap) {
		uint64_t *old = ms->v;
		size_t old_cap = ms->cap;

		ms->cap = ms->cap ? ms->cap * 2 : 64;
		ms->v = xcalloc(ms->cap, sizeof(*ms->v));
		ms->nr = 0;
		for (size_t k = 0; k < old_cap; k++)
			if (old[k])
				meta_set_add(ms, old[k]);
		free(old);
	}
	for (i = h & (ms->cap - 1); ms->v[i]; i = (i + 1) & (ms->cap - 1))
		if (ms->v[i] == h)
			return false;
	ms->v[i] = h;
	ms->nr++;
	return true;
}

static void meta_set_init(struct meta_set *ms, struct profile *p)
{
	memset(ms, 0, sizeof(*ms));
	ms->p = p;
	for (const struct meta *m = p->meta; m; m = m->next)
		meta_set_add(ms, meta_hash(m->section, m->key));
}

static void meta_set_release(struct meta_set *ms)
{
	free(ms->v);
	memset(ms, 0, sizeof(*ms));
}

static void meta_set(struct meta_set *ms, const char *section, const char *key, const char *value)
{
	if (meta_set_add(ms, meta_hash(section, key)))
		profile_meta(ms->p, section, key, value);
}

static void meta_set_n(struct meta_set *ms, const char *section, const char *key, const char *v,
		       size_t n)
{
	char *s = xstrndup(v, n);

	meta_set(ms, section, key, s);
	free(s);
}

/* ---------------------------------------------------------------------
 * Layers and how a file's layers join the profile
 */

/* One layer as one file describes it, before it joins the profile. */
struct layer_in {
	const char *name;		/* interned */
	struct pos at;			/* where this file gives it */
	bool has_time;			/* the file gives times (not the graph) */
	int64_t total_ns;		/* over every iteration */
	struct attr *attrs;		/* arena list: mean_ns, layer_type, ... */
	const char *kernel;		/* interned tactic name, or NULL */
	const char **sources;		/* heap array of interned names */
	size_t nr_sources, alloc_sources;
	bool sources_final;		/* from Metadata: replace any others */
};

struct layers {
	struct layer_in *v;
	size_t nr, alloc;
	uint64_t calls;			/* iterations; 0 when unknown */
};

static struct layer_in *layers_add(struct layers *ls, const char *name, struct pos at)
{
	struct layer_in *l;

	GROW(ls->v, ls->alloc, ls->nr + 1);
	l = &ls->v[ls->nr++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->at = at;
	return l;
}

static void layers_release(struct layers *ls)
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
 * The layers a fused layer's name lists: "a + b + PWN(c)" gives a, b and
 * PWN(c).  Split at " + " outside brackets only: "{ForeignNode[a + b...c]}"
 * is one Myelin block.  The reformat layers TensorRT inserts are named for
 * the layer they feed ("Reformatting CopyNode for Input Tensor 0 to a + b")
 * and fused nothing.  A name of one part gives no source: it would only
 * repeat the layer's own name.
 */
static void sources_from_name(struct profile *p, struct layer_in *l)
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
 * Metadata (TensorRT >= 8.6): "[ONNX Layer: a]\x1e[ONNX Layer: b]", the
 * fused layers separated by U+001E (U+001F also seen; the tokenizer has
 * turned a "\u001e" escape into the byte already).  "[ONNX Layer: a]"
 * gives a; a part in another form is kept as it is.  Returns whether any
 * source was found.
 */
static bool sources_from_metadata(struct profile *p, struct layer_in *l, const char *s, size_t n)
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

/* Stable insertion sort of an attribute list by attr_rank(). */
static void sort_attrs(struct attr **list)
{
	struct attr *sorted = NULL, *a = *list;

	while (a) {
		struct attr *next = a->next, **at = &sorted;
		size_t r = attr_rank(a->key);

		while (*at && attr_rank((*at)->key) <= r)
			at = &(*at)->next;
		a->next = *at;
		*at = a;
		a = next;
	}
	*list = sorted;
}

static void merge_attrs(struct profile *p, struct node *n, struct attr *from)
{
	if (!n->attrs) {
		n->attrs = from;	/* arena-owned, and the record is done with it */
	} else {
		for (struct attr *a = from; a; a = a->next) {
			switch (a->type) {
			case ATTR_INT:
				attr_set_int(p, &n->attrs, a->key, a->v.i);
				break;
			case ATTR_NS:
				attr_set_ns(p, &n->attrs, a->key, a->v.i);
				break;
			case ATTR_DOUBLE:
				attr_set_double(p, &n->attrs, a->key, a->v.d);
				break;
			case ATTR_LAUNCH:
				attr_set_launch(p, &n->attrs, a->v.launch);
				break;
			case ATTR_STRING:
				attr_set_str(p, &n->attrs, a->key, a->v.s, strlen(a->v.s));
				break;
			}
		}
	}
	sort_attrs(&n->attrs);
}

static struct node *child_of_kind(const struct node *n, enum node_kind kind)
{
	for (struct node *c = n->child; c; c = c->next)
		if (c->kind == kind)
			return c;
	return NULL;
}

/* Make C the first child of N. */
static void prepend_child(struct node *n, struct node *c)
{
	c->parent = n;
	c->next = n->child;
	n->child = c;
	if (!n->last_child)
		n->last_child = c;
}

/* What record L says about layer N: times, columns, tactic, sources. */
static void apply_layer(struct profile *p, struct node *n, const struct layer_in *l,
			uint64_t calls)
{
	struct node *k;

	if (l->has_time) {
		n->calls = calls;
		n->device_self_ns = n->device_total_ns = l->total_ns;
	}
	if (l->attrs)
		merge_attrs(p, n, l->attrs);
	if (l->kernel) {
		k = child_of_kind(n, NODE_KERNEL);
		if (k) {
			k->name = l->kernel;
		} else {
			k = node_new_interned(p, NULL, NODE_KERNEL, l->kernel);
			prepend_child(n, k);
		}
	}
	if (l->nr_sources && (l->sources_final || !child_of_kind(n, NODE_SOURCE))) {
		struct node *c, *next;

		for (c = n->child; c; c = next) {
			next = c->next;
			if (c->kind == NODE_SOURCE)
				node_unlink(c);
		}
		for (size_t i = 0; i < l->nr_sources; i++)
			node_new_interned(p, n, NODE_SOURCE, l->sources[i]);
	}
	/* The tactic ran as often and as long as its layer. */
	k = child_of_kind(n, NODE_KERNEL);
	if (k) {
		k->calls = n->calls;
		k->device_self_ns = k->device_total_ns = n->device_total_ns;
	}
}

/* Old layers by name: an open-addressed table of interned name pointers,
 * each slot the first old index of that name, chained through next[]. */
struct name_index {
	const char **keys;
	size_t *first;
	size_t mask;
};

static size_t *index_slot(struct name_index *ix, const char *name)
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
	struct node *others = NULL, *others_tail = NULL, *c, *next;

	for (size_t k = 0; k < nr; k++)
		if (match[k] == SIZE_MAX)
			start[anchor[k] + 1]++;
	for (size_t a = 1; a <= nr_old + 1; a++)
		start[a] += start[a - 1];
	for (size_t k = 0; k < nr; k++)
		if (match[k] == SIZE_MAX)
			order[start[anchor[k]] + fill[anchor[k]]++] = k;

	for (c = p->root->child; c; c = next) {
		next = c->next;
		if (c->kind == NODE_LAYER)
			continue;
		c->next = NULL;
		if (others_tail)
			others_tail->next = c;
		else
			others = c;
		others_tail = c;
	}
	p->root->child = p->root->last_child = NULL;
	for (size_t a = 0; a <= nr_old; a++) {
		if (a)
			node_append(p->root, old[a - 1]);
		for (size_t b = start[a]; b < start[a + 1]; b++)
			node_append(p->root, to[order[b]]);
	}
	for (c = others; c; c = next) {
		next = c->next;
		node_append(p->root, c);
	}
	free(start);
	free(fill);
	free(order);
}

/*
 * Join the layers LS of one file into P.  The k-th layer of a name joins
 * the k-th of that name already there; when some do not match and both
 * files have as many layers, they join by position instead (NAMES_WIN:
 * this file's names replace the others', as the engine's own layer list
 * does).  Layers found in one file only are kept, in engine order, and
 * counted.
 */
static void join_layers(struct profile *p, struct diag *d, struct layers *ls, bool names_win)
{
	struct node **old = NULL, **to;
	size_t nr_old = 0, alloc_old = 0, nr_matched = 0, nr_new = 0;
	size_t *match, *next_same, *anchor;
	struct name_index ix;
	bool *used;

	for (struct node *c = p->root->child; c; c = c->next) {
		if (c->kind != NODE_LAYER)
			continue;
		GROW(old, alloc_old, nr_old + 1);
		old[nr_old++] = c;
	}
	match = xmalloc((ls->nr + 1) * sizeof(*match));
	for (size_t k = 0; k < ls->nr; k++)
		match[k] = SIZE_MAX;
	used = xcalloc(nr_old + 1, sizeof(*used));
	next_same = xcalloc(nr_old + 1, sizeof(*next_same));
	ix.mask = 16;
	while (ix.mask < 2 * nr_old)
		ix.mask *= 2;
	ix.keys = xcalloc(ix.mask, sizeof(*ix.keys));
	ix.first = xcalloc(ix.mask, sizeof(*ix.first));
	ix.mask--;

	/* Chains in file order: build them back to front. */
	for (size_t i = nr_old; i-- > 0;) {
		size_t *first = index_slot(&ix, old[i]->name);

		next_same[i] = *first;
		*first = i;
	}
	for (size_t k = 0; k < ls->nr && nr_old; k++) {
		size_t *first = index_slot(&ix, ls->v[k].name);

		if (*first != SIZE_MAX) {
			match[k] = *first;
			used[*first] = true;
			*first = next_same[*first];
			nr_matched++;
		}
	}
	if (nr_old && nr_matched < ls->nr && ls->nr == nr_old) {
		size_t differ = 0;

		for (size_t k = 0; k < ls->nr; k++) {
			match[k] = k;
			if (old[k]->name != ls->v[k].name) {
				differ++;
				if (names_win)
					old[k]->name = ls->v[k].name;
			}
		}
		diag_warn(d, NULL, KIND_BY_ORDER,
			  "%zu of %zu layer names differ from those already loaded; "
			  "joined the layers by position", differ, ls->nr);
	} else if (nr_old) {
		for (size_t k = 0; k < ls->nr; k++) {
			if (match[k] == SIZE_MAX)
				diag_warn(d, &ls->v[k].at, KIND_ONE_FILE,
					  "layer '%s' is not in the files loaded before this one",
					  ls->v[k].name);
		}
		for (size_t i = 0; i < nr_old; i++)
			if (!used[i])
				diag_warn(d, NULL, KIND_ONE_FILE,
					  "layer '%s' of the files loaded before is not in this one",
					  old[i]->name);
	}

	/* New layers: appended when there were none; else each goes after
	 * the old layer that the one before it in this file joined. */
	to = xcalloc(ls->nr + 1, sizeof(*to));
	anchor = xcalloc(ls->nr + 1, sizeof(*anchor));
	for (size_t k = 0, a = 0; k < ls->nr; k++) {
		if (match[k] != SIZE_MAX) {
			to[k] = old[match[k]];
			a = match[k] + 1;
			continue;
		}
		to[k] = node_new_interned(p, nr_old ? NULL : p->root, NODE_LAYER, ls->v[k].name);
		to[k]->flags |= NODE_DISTINCT;
		anchor[k] = a;		/* 0: before the first old layer */
		nr_new++;
	}
	if (nr_old && nr_new)
		reorder(p, old, nr_old, to, match, anchor, ls->nr);

	for (size_t k = 0; k < ls->nr; k++)
		apply_layer(p, to[k], &ls->v[k], ls->calls);
	p->root->device_total_ns = 0;
	for (struct node *c = p->root->child; c; c = c->next)
		if (c->kind == NODE_LAYER)
			p->root->device_total_ns += c->device_total_ns;

	free(anchor);
	free(to);
	free(ix.keys);
	free(ix.first);
	free(next_same);
	free(used);
	free(match);
	free(old);
}

/* ---------------------------------------------------------------------
 * Shared bits of the JSON files
 */

static size_t skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	return i;
}

/* Whether HEAD opens with OPEN ('{' or '[') and then, after OPEN2 when it
 * is not 0, the member name KEY (quoted here; "" accepts any name). */
static bool opens_with(const char *head, size_t len, char open, char open2, const char *key)
{
	size_t i = skip_ws(head, len, 0);

	if (i >= len || head[i] != open)
		return false;
	i = skip_ws(head, len, i + 1);
	if (open2) {
		if (i >= len || head[i] != open2)
			return false;
		i = skip_ws(head, len, i + 1);
	}
	if (i >= len || head[i] != '"')
		return false;
	i++;
	if (!*key)
		return true;
	return text_starts(head + i, len - i, key) && i + strlen(key) < len &&
	       head[i + strlen(key)] == '"';
}

/* After a top-level value: anything but the end of the file is odd. */
static void check_trailing(struct json *j, struct diag *d)
{
	enum json_tok t = json_next(j);

	if (t != JSON_EOF && t != JSON_ERROR) {
		struct pos at = json_pos(j);

		diag_warn(d, &at, "text after the end of the JSON document (ignored)",
			  "text after the end of the JSON document; ignored");
	}
}

/* An error (already reported) or a cut file, after N records: report the
 * cut and say whether what was read can be kept. */
static bool ended_early(struct json *j, struct diag *d, enum json_tok t, size_t n,
			const char *what)
{
	if (t == JSON_EOF && j->truncated) {
		struct pos at = json_pos(j);

		diag_error(d, &at, "unexpected end of file inside the %s (truncated?); "
			   "kept the %zu read before it", what, n);
	}
	return n > 0;
}

/* ---------------------------------------------------------------------
 * --exportLayerInfo: the engine's layers
 */

/*
 * The precision a tensor format names: "Row major linear FP32", "Thirty-two
 * wide channel vectorized row major Int8 format", TensorRT 10's short
 * "Half", "Float", "Int8"...  The first word that names a type decides.
 */
static const char *precision_of(const char *s, size_t n)
{
	static const struct {
		const char *word, *precision;
	} words[] = {
		{ "int8", "INT8" }, { "uint8", "UINT8" }, { "int4", "INT4" },
		{ "int32", "INT32" }, { "int64", "INT64" },
		{ "fp32", "FP32" }, { "float", "FP32" }, { "float32", "FP32" },
		{ "fp16", "FP16" }, { "half", "FP16" }, { "float16", "FP16" },
		{ "bf16", "BF16" }, { "bfloat16", "BF16" },
		{ "fp8", "FP8" }, { "e4m3", "FP8" }, { "fp4", "FP4" }, { "e2m1", "FP4" },
		{ "fp64", "FP64" }, { "double", "FP64" },
		{ "bool", "BOOL" }, { "boolean", "BOOL" },
	};
	size_t i = 0;

	while (i < n) {
		size_t start;
		char word[16];

		while (i < n && !isalnum((unsigned char)s[i]))
			i++;
		start = i;
		while (i < n && isalnum((unsigned char)s[i]))
			i++;
		if (i - start == 0 || i - start >= sizeof(word))
			continue;
		for (size_t k = start; k < i; k++)
			word[k - start] = (char)tolower((unsigned char)s[k]);
		word[i - start] = '\0';
		for (size_t w = 0; w < ARRAY_SIZE(words); w++)
			if (!strcmp(word, words[w].word))
				return words[w].precision;
	}
	return NULL;
}

struct graph {
	struct profile *p;
	struct diag *d;
	struct json j;
	struct layers ls;
	uint64_t nr_skipped;
};

/* One tensor of Inputs/Outputs: its Dimensions join SHAPES as
 * "1x3x224x224" (tensors separated by ", "); *PREC gets the precision of
 * the first tensor whose format names one. */
static enum json_tok read_tensor(struct graph *g, struct strbuf *shapes, const char **prec)
{
	struct json *j = &g->j;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "Dimensions")) {
			size_t nr = 0;

			t = json_next(j);
			if (t != JSON_ARR_BEGIN) {
				t = json_skip(j, t);
			} else {
				if (shapes->len)
					strbuf_addstr(shapes, ", ");
				while ((t = json_next(j)) == JSON_NUMBER) {
					if (nr++)
						strbuf_addstr(shapes, "x");
					strbuf_add(shapes, j->s, j->len);
				}
				if (!nr)
					strbuf_addstr(shapes, "scalar");
				if (t != JSON_ARR_END)
					t = json_skip(j, t);
			}
		} else if (json_is(j, "Format/Datatype")) {
			t = json_next(j);
			if (t == JSON_STRING && !*prec)
				*prec = precision_of(j->s, j->len);
			t = json_skip(j, t);
		} else {
			t = json_skip_value(j);
		}
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	return t;
}

static enum json_tok read_tensors(struct graph *g, struct strbuf *shapes, const char **prec)
{
	struct json *j = &g->j;
	enum json_tok t;

	while ((t = json_next(j)) != JSON_ARR_END) {
		if (t == JSON_OBJ_BEGIN)
			t = read_tensor(g, shapes, prec);
		else
			t = json_skip(j, t);
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	return t;
}

/* A string member's value, interned, or NULL (other values are skipped). */
static enum json_tok read_str(struct graph *g, const char **out)
{
	enum json_tok t = json_next(&g->j);

	if (t == JSON_STRING || t == JSON_NUMBER)
		*out = profile_intern(g->p, g->j.s, g->j.len);
	return json_skip(&g->j, t);
}

/* One element of "Layers" in the detailed form. */
static enum json_tok read_layer(struct graph *g, struct pos at)
{
	struct json *j = &g->j;
	struct profile *p = g->p;
	const char *name = NULL, *type = NULL, *tactic_name = NULL, *tactic_value = NULL;
	const char *origin = NULL, *in_prec = NULL, *out_prec = NULL;
	struct strbuf in_shapes = STRBUF_INIT, out_shapes = STRBUF_INIT;
	char *metadata = NULL;
	size_t metadata_len = 0;
	bool has_inputs = false, has_outputs = false;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "Name")) {
			t = read_str(g, &name);
		} else if (json_is(j, "LayerType")) {
			t = read_str(g, &type);
		} else if (json_is(j, "TacticName")) {
			t = read_str(g, &tactic_name);
		} else if (json_is(j, "TacticValue")) {
			t = read_str(g, &tactic_value);
		} else if (json_is(j, "Origin")) {
			t = read_str(g, &origin);
		} else if (json_is(j, "Metadata")) {
			t = json_next(j);
			if (t == JSON_STRING) {
				free(metadata);
				metadata = xstrndup(j->s, j->len);
				metadata_len = j->len;
			}
			t = json_skip(j, t);
		} else if (json_is(j, "Inputs") || json_is(j, "Outputs")) {
			bool is_in = j->s[0] == 'I';

			t = json_next(j);
			if (t == JSON_ARR_BEGIN) {
				if (is_in)
					has_inputs = true;
				else
					has_outputs = true;
				t = read_tensors(g, is_in ? &in_shapes : &out_shapes,
						 is_in ? &in_prec : &out_prec);
			} else {
				t = json_skip(j, t);
			}
		} else {
			t = json_skip_value(j);
		}
		if (t == JSON_ERROR || t == JSON_EOF)
			goto out;
	}
	if (t != JSON_OBJ_END)
		goto out;
	if (!name) {
		diag_warn(g->d, &at, "layers without a name (skipped)",
			  "layer without a 'Name'; skipped");
		g->nr_skipped++;
	} else {
		struct layer_in *l = layers_add(&g->ls, name, at);
		const char *prec = out_prec ? out_prec : in_prec;
		const char *tactic = tactic_name ? tactic_name : tactic_value;

		if (type)
			attr_set_str(p, &l->attrs, "layer_type", type, strlen(type));
		if (prec)
			attr_set_str(p, &l->attrs, "precision", prec, strlen(prec));
		if (tactic)
			attr_set_str(p, &l->attrs, "tactic", tactic, strlen(tactic));
		if (origin)
			attr_set_str(p, &l->attrs, "origin", origin, strlen(origin));
		if (has_inputs)
			attr_set_str(p, &l->attrs, "input_shapes", in_shapes.s ? in_shapes.s : "",
				     in_shapes.len);
		if (has_outputs)
			attr_set_str(p, &l->attrs, "output_shapes", out_shapes.s ? out_shapes.s : "",
				     out_shapes.len);
		/* The tactic is the layer's kernel.  A bare TacticValue means
		 * something only for its layer type ("0x0" of a Reformat is not
		 * "0x0" of a NoOp), so it is named with the type. */
		if (tactic_name) {
			l->kernel = tactic_name;
		} else if (tactic_value && type) {
			struct strbuf k = STRBUF_INIT;

			strbuf_addstr(&k, type);
			strbuf_addstr(&k, " ");
			strbuf_addstr(&k, tactic_value);
			l->kernel = profile_intern(p, k.s, k.len);
			strbuf_release(&k);
		} else if (tactic_value) {
			l->kernel = tactic_value;
		}
		if (metadata && sources_from_metadata(p, l, metadata, metadata_len))
			l->sources_final = true;
		else
			sources_from_name(p, l);
	}
out:
	free(metadata);
	strbuf_release(&in_shapes);
	strbuf_release(&out_shapes);
	return t;
}

static enum json_tok read_layers(struct graph *g)
{
	struct json *j = &g->j;
	enum json_tok t;

	while ((t = json_next(j)) != JSON_ARR_END) {
		struct pos at = json_pos(j);

		if (t == JSON_STRING) {
			/* The simple form: names only. */
			struct layer_in *l = layers_add(&g->ls, profile_intern(g->p, j->s, j->len), at);

			sources_from_name(g->p, l);
		} else if (t == JSON_OBJ_BEGIN) {
			t = read_layer(g, at);
			if (t != JSON_OBJ_END)
				return t;
		} else {
			if (t == JSON_ERROR || t == JSON_EOF)
				return t;
			diag_warn(g->d, &at, "layers that are neither a name nor an object (skipped)",
				  "element of 'Layers' is neither a name nor an object; skipped");
			t = json_skip(j, t);
			if (t == JSON_ERROR || t == JSON_EOF)
				return t;
		}
	}
	return t;
}

static enum json_tok read_bindings(struct graph *g)
{
	struct json *j = &g->j;
	struct strbuf b = STRBUF_INIT;
	enum json_tok t;

	while ((t = json_next(j)) != JSON_ARR_END) {
		if (t == JSON_STRING) {
			if (b.len)
				strbuf_addstr(&b, ", ");
			strbuf_add(&b, j->s, j->len);
		}
		t = json_skip(j, t);
		if (t == JSON_ERROR || t == JSON_EOF)
			break;
	}
	if (t == JSON_ARR_END && b.len)
		meta_once(g->p, "engine", "bindings", b.s);
	strbuf_release(&b);
	return t;
}

static int graph_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct graph g = { .p = p, .d = d };
	bool saw_layers = false;
	enum json_tok t;
	int rc = 0;

	json_init(&g.j, in, d);
	g.j.allow_unescaped = true;
	t = json_next(&g.j);
	if (t == JSON_OBJ_BEGIN) {
		while ((t = json_next_key(&g.j)) == JSON_KEY) {
			bool is_layers = json_is(&g.j, "Layers");
			bool is_bindings = json_is(&g.j, "Bindings");

			if (is_layers || is_bindings) {
				t = json_next(&g.j);
				if (t == JSON_ARR_BEGIN) {
					saw_layers |= is_layers;
					t = is_layers ? read_layers(&g) : read_bindings(&g);
					if (t != JSON_ARR_END)
						break;
					continue;
				}
				t = json_skip(&g.j, t);
			} else {
				t = json_skip_value(&g.j);
			}
			if (t == JSON_ERROR || t == JSON_EOF)
				break;
		}
	}
	if (t == JSON_OBJ_END) {
		if (!saw_layers) {
			struct pos at = json_pos(&g.j);

			diag_error(d, &at, "no 'Layers' array: not a trtexec --exportLayerInfo file");
			rc = -1;
		} else {
			check_trailing(&g.j, d);
		}
	} else if (t == JSON_ERROR || t == JSON_EOF) {
		if (t == JSON_EOF && !g.j.truncated && !g.ls.nr)
			diag_error(d, NULL, "no JSON value in the file");
		if (!ended_early(&g.j, d, t, g.ls.nr, "layer list"))
			rc = -1;
	} else {
		struct pos at = json_pos(&g.j);

		diag_error(d, &at, "expected a JSON object with a 'Layers' array");
		rc = -1;
	}
	if (rc == 0) {
		char n[32];

		snprintf(n, sizeof(n), "%zu", g.ls.nr);
		meta_once(p, "engine", "layers", n);
		join_layers(p, d, &g.ls, true);
	}
	layers_release(&g.ls);
	json_release(&g.j);
	return rc;
}

/* `{"Layers": [` first, as trtexec writes it; or a re-indented or
 * re-ordered object that has the marks of one. */
static int graph_probe(const char *head, size_t len)
{
	size_t i = skip_ws(head, len, 0);

	if (opens_with(head, len, '{', 0, "Layers"))
		return 95;
	if (i < len && head[i] == '{' && text_find(head, len, "\"Layers\"") &&
	    (text_find(head, len, "\"LayerType\"") || text_find(head, len, "\"Bindings\"")) &&
	    !text_find(head, len, "\"traceEvents\""))
		return 80;
	return 0;
}

const struct parser trtexec_graph_parser = {
	.name = "trtexec-graph",
	.family = "tensorrt",
	.summary = "TensorRT trtexec --exportLayerInfo JSON (engine layers, simple or detailed)",
	.probe = graph_probe,
	.parse = graph_parse,
};

/* ---------------------------------------------------------------------
 * --exportProfile: per-layer times
 *
 * trtexec writes this file with plain stream output and never escapes a
 * name, so a '"' or '\' in a layer name makes it invalid JSON.  It is read
 * by a scanner of its own over the whole file (one short record per layer,
 * small): a string ends at the first '"' that is followed by what can only
 * be the next member (`, "key" :`) or the end of the record (`}`).  Names
 * are taken as written, backslashes included.
 */
#define PROFILE_MAX_BYTES (256u << 20)

struct scan {
	struct profile *p;
	struct diag *d;
	char *s;			/* the whole file, heap */
	const char *cur, *end;
	const char *mark;		/* positions: counted from here... */
	uint64_t mark_line;		/* ...on this line */
	const char *mark_bol;		/* start of that line */
	size_t nr_kept;			/* layers read, for messages */
};

static struct pos scan_pos(struct scan *sc, const char *at)
{
	struct pos pos;

	if (at < sc->mark) {
		sc->mark = sc->mark_bol = sc->s;
		sc->mark_line = 1;
	}
	for (const char *q = sc->mark; (q = memchr(q, '\n', (size_t)(at - q))); q++) {
		sc->mark_line++;
		sc->mark_bol = q + 1;
	}
	sc->mark = at;
	pos.line = sc->mark_line;
	pos.col = (uint64_t)(at - sc->mark_bol) + 1;
	return pos;
}

static void scan_ws(struct scan *sc)
{
	while (sc->cur < sc->end &&
	       (*sc->cur == ' ' || *sc->cur == '\n' || *sc->cur == '\r' || *sc->cur == '\t'))
		sc->cur++;
}

static const char *describe_at(const struct scan *sc, char *buf, size_t cap)
{
	unsigned char c;

	if (sc->cur >= sc->end)
		return "the end of the file";
	c = (unsigned char)*sc->cur;
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, cap, "'%c'", c);
	else
		snprintf(buf, cap, "byte 0x%02x", c);
	return buf;
}

/* Where the file ends: its last byte, not the newline slurp() added. */
static struct pos end_pos(struct scan *sc)
{
	const char *at = sc->end;

	if (at > sc->s && at[-1] == '\n')
		at--;
	return scan_pos(sc, at);
}

static void scan_error(struct scan *sc, const char *expected)
{
	struct pos at;
	char buf[16];

	if (sc->cur >= sc->end) {
		at = end_pos(sc);
		diag_error(sc->d, &at, "unexpected end of file inside the profile (truncated?); "
			   "kept the %zu layers read before it", sc->nr_kept);
		return;
	}
	at = scan_pos(sc, sc->cur);
	diag_error(sc->d, &at, "expected %s, found %s", expected, describe_at(sc, buf, sizeof(buf)));
}

/* Whether a string's closing quote can be at Q: what follows is the next
 * member's name and colon, or the end of the record. */
static bool closes_string(const struct scan *sc, const char *q)
{
	const char *r = q + 1, *end = sc->end;
	size_t n = 0;

	while (r < end && (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n'))
		r++;
	if (r == end || *r == '}')
		return true;
	if (*r != ',')
		return false;
	r++;
	while (r < end && (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n'))
		r++;
	if (r == end || *r != '"')
		return false;
	for (r++; r < end && n <= 64 && (isalnum((unsigned char)*r) || *r == '_'); r++)
		n++;
	if (!n || n > 64 || r == end || *r != '"')
		return false;
	r++;
	while (r < end && (*r == ' ' || *r == '\t'))
		r++;
	return r < end && *r == ':';
}

/* A string value at sc->cur (its opening quote), tolerantly. */
static bool scan_string(struct scan *sc, const char **s, size_t *n)
{
	const char *q = sc->cur + 1;

	while ((q = memchr(q, '"', (size_t)(sc->end - q))) && !closes_string(sc, q))
		q++;
	if (!q) {
		struct pos at = scan_pos(sc, sc->cur);

		diag_error(sc->d, &at, "string never ends (file cut?)");
		return false;
	}
	*s = sc->cur + 1;
	*n = (size_t)(q - *s);
	sc->cur = q + 1;
	return true;
}

/* A member name: plain letters, as trtexec writes them. */
static bool scan_key(struct scan *sc, const char **s, size_t *n)
{
	const char *q;

	if (sc->cur >= sc->end || *sc->cur != '"') {
		scan_error(sc, "a member name in quotes");
		return false;
	}
	q = memchr(sc->cur + 1, '"', (size_t)(sc->end - sc->cur - 1));
	if (!q) {
		sc->cur = sc->end;
		scan_error(sc, "a member name");
		return false;
	}
	*s = sc->cur + 1;
	*n = (size_t)(q - *s);
	sc->cur = q + 1;
	return true;
}

/* A number, or a word C++ prints for one (nan, inf, -nan). */
static bool scan_number(struct scan *sc, const char **s, size_t *n)
{
	const char *q = sc->cur;

	while (q < sc->end && q - sc->cur < 64 &&
	       (isalnum((unsigned char)*q) || *q == '.' || *q == '-' || *q == '+'))
		q++;
	if (q == sc->cur) {
		scan_error(sc, "a value");
		return false;
	}
	*s = sc->cur;
	*n = (size_t)(q - sc->cur);
	sc->cur = q;
	return true;
}

struct prof_record {
	const char *name;
	size_t name_len;
	const char *vals[5];		/* count, timeMs, averageMs, medianMs, percentage */
	size_t lens[5];
	const char *at[5];
};

enum { PV_COUNT, PV_TIME, PV_AVG, PV_MEDIAN, PV_PCT };

static const char *const prof_keys[] = { "count", "timeMs", "averageMs", "medianMs", "percentage" };

/* One `{ ... }` record at sc->cur; false after an error. */
static bool scan_record(struct scan *sc, struct prof_record *r)
{
	memset(r, 0, sizeof(*r));
	sc->cur++;
	scan_ws(sc);
	if (sc->cur < sc->end && *sc->cur == '}') {
		sc->cur++;
		return true;
	}
	for (;;) {
		const char *key, *v;
		size_t kn, vn;
		int which = -1;

		scan_ws(sc);
		if (!scan_key(sc, &key, &kn))
			return false;
		scan_ws(sc);
		if (sc->cur >= sc->end || *sc->cur != ':') {
			scan_error(sc, "':' after a member name");
			return false;
		}
		sc->cur++;
		scan_ws(sc);
		for (int i = 0; i < (int)ARRAY_SIZE(prof_keys); i++)
			if (text_eq(key, kn, prof_keys[i]))
				which = i;
		if (sc->cur < sc->end && *sc->cur == '"') {
			const char *at = sc->cur;

			if (!scan_string(sc, &v, &vn))
				return false;
			if (text_eq(key, kn, "name")) {
				r->name = v;
				r->name_len = vn;
			} else if (which >= 0) {
				r->vals[which] = v;	/* a quoted number: take it */
				r->lens[which] = vn;
				r->at[which] = at;
			}
		} else {
			const char *at = sc->cur;

			if (!scan_number(sc, &v, &vn))
				return false;
			if (which >= 0) {
				r->vals[which] = v;
				r->lens[which] = vn;
				r->at[which] = at;
			}
		}
		scan_ws(sc);
		if (sc->cur < sc->end && *sc->cur == ',') {
			sc->cur++;
			continue;
		}
		if (sc->cur < sc->end && *sc->cur == '}') {
			sc->cur++;
			return true;
		}
		scan_error(sc, "',' or '}' in a profile record");
		return false;
	}
}

#define KIND_BAD_NUMBER "profile values that are not numbers (left out)"

/* Milliseconds as written ("31.3879", "1.2e-05") -> ns; false (warned) if
 * the value is not a finite number. */
static bool prof_ms(struct scan *sc, const struct prof_record *r, int which, int64_t *ns)
{
	if (!r->vals[which])
		return false;
	if (num_scaled(r->vals[which], r->lens[which], 6, ns) && *ns >= 0)
		return true;
	if (diag_would_print(sc->d, KIND_BAD_NUMBER)) {
		struct pos at = scan_pos(sc, r->at[which]);

		diag_warn(sc->d, &at, KIND_BAD_NUMBER, "'%s' of layer '%.*s' is '%.*s', not a time",
			  prof_keys[which], (int)r->name_len, r->name, (int)r->lens[which],
			  r->vals[which]);
	} else {
		diag_warn(sc->d, NULL, KIND_BAD_NUMBER, "bad value");
	}
	return false;
}

static void take_record(struct scan *sc, struct layers *ls, const struct prof_record *r,
			const char *start, bool *has_count)
{
	struct profile *p = sc->p;
	struct pos at = scan_pos(sc, start);	/* first: positions only move on */
	struct layer_in *l;
	int64_t ns;
	double pct;

	if (!r->name) {
		int64_t count;

		if (r->vals[PV_COUNT] && num_int(r->vals[PV_COUNT], r->lens[PV_COUNT], &count) &&
		    count >= 0) {
			ls->calls = (uint64_t)count;
			*has_count = true;
		} else {
			diag_warn(sc->d, &at, "profile records with no layer name or count (skipped)",
				  "record has neither a 'name' nor a 'count'; skipped");
		}
		return;
	}
	if (memchr(r->name, '"', r->name_len) || memchr(r->name, '\\', r->name_len)) {
		struct pos name_at = scan_pos(sc, r->name);

		diag_warn(sc->d, &name_at, "layer names with unescaped quotes (read as written)",
			  "layer name '%.*s' has quotes or backslashes trtexec did not escape; "
			  "read as written", (int)r->name_len, r->name);
	}
	l = layers_add(ls, profile_intern(p, r->name, r->name_len), at);
	if (prof_ms(sc, r, PV_TIME, &ns)) {
		l->has_time = true;
		l->total_ns = ns;
	} else if (!r->vals[PV_TIME]) {
		diag_warn(sc->d, &at, "profile records without 'timeMs' (no time)",
			  "layer '%s' has no 'timeMs'", l->name);
	}
	if (prof_ms(sc, r, PV_AVG, &ns))
		attr_set_ns(p, &l->attrs, "mean_ns", ns);
	if (prof_ms(sc, r, PV_MEDIAN, &ns))
		attr_set_ns(p, &l->attrs, "median_ns", ns);
	if (r->vals[PV_PCT]) {
		if (num_double(r->vals[PV_PCT], r->lens[PV_PCT], &pct) && pct == pct)
			attr_set_double(p, &l->attrs, "time_pct", pct);
		else
			diag_warn(sc->d, NULL, KIND_BAD_NUMBER, "'percentage' of layer '%s' is '%.*s'",
				  l->name, (int)r->lens[PV_PCT], r->vals[PV_PCT]);
	}
	sources_from_name(p, l);
}

/* The whole input into one heap buffer (lines rejoined with '\n'). */
static char *slurp(struct input *in, struct diag *d, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	size_t n;
	char *line;

	while ((line = input_line(in, &n))) {
		if (b.len + n + 1 > PROFILE_MAX_BYTES) {
			diag_error(d, NULL, "file larger than %u MB: not a trtexec profile",
				   PROFILE_MAX_BYTES >> 20);
			strbuf_release(&b);
			return NULL;
		}
		strbuf_add(&b, line, n);
		strbuf_add(&b, "\n", 1);
	}
	if (input_failed(in, d)) {
		strbuf_release(&b);
		return NULL;
	}
	if (!b.s)
		strbuf_add(&b, "", 0);
	*len = b.len;
	return b.s;
}

static int profile_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct scan sc = { .p = p, .d = d };
	struct layers ls = { 0 };
	size_t len, nr_records = 0;
	bool has_count = false, ok = false;
	int rc = 0;

	sc.s = slurp(in, d, &len);
	if (!sc.s)
		return -1;
	sc.cur = sc.mark = sc.mark_bol = sc.s;
	sc.mark_line = 1;
	sc.end = sc.s + len;
	scan_ws(&sc);
	if (sc.cur >= sc.end || *sc.cur != '[') {
		scan_error(&sc, "'[' opening a trtexec --exportProfile array");
		free(sc.s);
		return -1;
	}
	sc.cur++;
	for (;;) {
		struct prof_record r;
		const char *start;

		scan_ws(&sc);
		if (sc.cur < sc.end && *sc.cur == ',' && nr_records) {
			sc.cur++;
			scan_ws(&sc);
		}
		if (sc.cur < sc.end && *sc.cur == ']') {
			sc.cur++;
			ok = true;
			break;
		}
		sc.nr_kept = ls.nr;
		if (sc.cur >= sc.end) {
			scan_error(&sc, "a profile record");
			break;
		}
		if (*sc.cur != '{') {
			scan_error(&sc, nr_records ? "',' or ']' after a profile record"
					       : "'{' opening a profile record");
			break;
		}
		start = sc.cur;
		if (!scan_record(&sc, &r))
			break;
		nr_records++;
		take_record(&sc, &ls, &r, start, &has_count);
	}
	if (ok) {
		scan_ws(&sc);
		if (sc.cur < sc.end) {
			struct pos at = scan_pos(&sc, sc.cur);

			diag_warn(d, &at, "text after the end of the JSON document (ignored)",
				  "text after the end of the profile; ignored");
		}
		if (!has_count)
			diag_warn(d, NULL, "no iteration count in the profile",
				  "no '{ \"count\" : N }' record: the number of iterations is unknown");
	}
	if (ok || ls.nr) {
		if (has_count) {
			char n[32];

			snprintf(n, sizeof(n), "%llu", (unsigned long long)ls.calls);
			meta_once(p, "layer profile", "iterations", n);
		}
		join_layers(p, d, &ls, false);
	} else {
		rc = -1;
	}
	layers_release(&ls);
	free(sc.s);
	return rc;
}

/* `[ { "count" : N }` first -- a record of its own -- then records with
 * "timeMs", or the end of the array (an engine without layers). */
static int profile_probe(const char *head, size_t len)
{
	const char *count;
	size_t i;

	if (!opens_with(head, len, '[', '{', "count"))
		return 0;
	count = text_find(head, len, "\"count\"");
	i = skip_ws(head, len, (size_t)(count - head) + 7);
	if (i >= len || head[i] != ':')
		return 0;
	i = skip_ws(head, len, i + 1);
	while (i < len && head[i] >= '0' && head[i] <= '9')
		i++;
	i = skip_ws(head, len, i);
	if (i >= len || head[i] != '}')
		return 0;
	i = skip_ws(head, len, i + 1);
	if (i >= len)
		return 60;	/* the file was cut there */
	if (head[i] == ']')
		return 70;	/* an engine without layers */
	if (head[i] != ',')
		return 0;
	i = skip_ws(head, len, i + 1);
	if (i >= len || head[i] != '{')
		return 0;
	i = skip_ws(head, len, i + 1);
	/* `{ "name" : "...", "timeMs"`, perhaps cut inside the first record. */
	if (text_starts(head + i, len - i, "\"name\"") &&
	    (text_find(head, len, "\"timeMs") || !memchr(head + i, '\n', len - i)))
		return 95;
	return 0;
}

const struct parser trtexec_profile_parser = {
	.name = "trtexec-profile",
	.family = "tensorrt",
	.summary = "TensorRT trtexec --exportProfile JSON (per-layer times)",
	.probe = profile_probe,
	.parse = profile_parse,
};

/* ---------------------------------------------------------------------
 * --exportTimes: one record per inference -> the Steps pane
 */

enum {
	T_START_ENQ, T_END_ENQ, T_START_H2D, T_END_H2D, T_START_COMPUTE, T_END_COMPUTE,
	T_START_D2H, T_END_D2H, T_H2D, T_COMPUTE, T_D2H, T_LATENCY, T_E2E, NR_T
};

/* Key names, with TensorRT 7's "In"/"Out" for H2D/D2H. */
static const struct {
	const char *key;
	int field;
} time_keys[] = {
	{ "startEnqMs", T_START_ENQ }, { "endEnqMs", T_END_ENQ },
	{ "startH2dMs", T_START_H2D }, { "endH2dMs", T_END_H2D },
	{ "startInMs", T_START_H2D }, { "endInMs", T_END_H2D },
	{ "startComputeMs", T_START_COMPUTE }, { "endComputeMs", T_END_COMPUTE },
	{ "startD2hMs", T_START_D2H }, { "endD2hMs", T_END_D2H },
	{ "startOutMs", T_START_D2H }, { "endOutMs", T_END_D2H },
	{ "h2dMs", T_H2D }, { "inMs", T_H2D }, { "computeMs", T_COMPUTE },
	{ "d2hMs", T_D2H }, { "outMs", T_D2H },
	{ "latencyMs", T_LATENCY }, { "endToEndMs", T_E2E },
};

static const char *const time_cats[] = { "Enqueue", "H2D", "Compute", "D2H" };

#define KIND_BAD_TIME "inference records with missing or bad times"

struct times {
	struct profile *p;
	struct diag *d;
	struct json j;
	uint64_t nr_bad;
};

/* A duration: the explicit field when the file has it, else end - start. */
static int64_t duration(const int64_t *v, const bool *has, int start, int end, int expl)
{
	if (expl >= 0 && has[expl])
		return v[expl];
	if (has[start] && has[end] && v[end] >= v[start])
		return v[end] - v[start];
	return -1;
}

static enum json_tok read_inference(struct times *tm, uint64_t index)
{
	struct json *j = &tm->j;
	int64_t v[NR_T];
	bool has[NR_T] = { false };
	bool bad = false;
	uint64_t mark = json_mark(j);
	enum json_tok t;
	struct step *s;
	char name[24];
	int64_t cat[4];

	while ((t = json_next_key(j)) == JSON_KEY) {
		int field = -1;

		for (size_t i = 0; i < ARRAY_SIZE(time_keys); i++)
			if (json_is(j, time_keys[i].key))
				field = time_keys[i].field;
		if (field < 0) {
			t = json_skip_value(j);
		} else {
			t = json_next(j);
			if (t == JSON_NUMBER && num_scaled(j->s, j->len, 6, &v[field]))
				has[field] = true;
			else
				bad = true;	/* nan, inf, a string */
			t = json_skip(j, t);
		}
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	if (t != JSON_OBJ_END)
		return t;
	cat[0] = duration(v, has, T_START_ENQ, T_END_ENQ, -1);
	cat[1] = duration(v, has, T_START_H2D, T_END_H2D, T_H2D);
	cat[2] = duration(v, has, T_START_COMPUTE, T_END_COMPUTE, T_COMPUTE);
	cat[3] = duration(v, has, T_START_D2H, T_END_D2H, T_D2H);
	for (int i = 0; i < 4; i++)
		if (cat[i] < 0)
			bad = true;
	snprintf(name, sizeof(name), "%llu", (unsigned long long)index);
	s = profile_add_step(tm->p, name, strlen(name));
	for (int i = 0; i < 4; i++)
		s->cat_ns[i] = cat[i];
	/* trtexec's latency is H2D + compute + D2H. */
	if (has[T_LATENCY] && v[T_LATENCY] >= 0)
		s->total_ns = v[T_LATENCY];
	else if (cat[1] >= 0 && cat[2] >= 0 && cat[3] >= 0)
		s->total_ns = cat[1] + cat[2] + cat[3];
	else
		bad = true;
	if (has[T_START_H2D])
		attr_set_ns(tm->p, &s->attrs, "start_ns", v[T_START_H2D]);
	if (has[T_E2E])
		attr_set_ns(tm->p, &s->attrs, "end_to_end_ns", v[T_E2E]);
	if (bad) {
		tm->nr_bad++;
		if (diag_would_print(tm->d, KIND_BAD_TIME)) {
			struct pos at = json_mark_pos(j, mark);

			diag_warn(tm->d, &at, KIND_BAD_TIME,
				  "inference %llu has missing, negative or non-numeric times; "
				  "those are left blank", (unsigned long long)index);
		} else {
			diag_warn(tm->d, NULL, KIND_BAD_TIME, "bad inference record");
		}
	}
	return t;
}

static int times_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct times tm = { .p = p, .d = d };
	uint64_t nr = 0, first;
	enum json_tok t;
	int rc = 0;

	json_init(&tm.j, in, d);
	t = json_next(&tm.j);
	if (t != JSON_ARR_BEGIN) {
		if (t != JSON_ERROR) {
			struct pos at = json_pos(&tm.j);

			if (t == JSON_EOF)
				diag_error(d, NULL, "no JSON value in the file");
			else
				diag_error(d, &at, "expected a JSON array of inference records");
		}
		json_release(&tm.j);
		return -1;
	}
	if (!p->nr_step_cats) {
		profile_set_step_cats(p, time_cats, ARRAY_SIZE(time_cats));
	} else if (p->nr_step_cats != ARRAY_SIZE(time_cats) ||
		   profile_step_cat(p, "Compute") != 2) {
		diag_error(d, NULL, "the files loaded before this one have steps of another kind");
		json_release(&tm.j);
		return -1;
	}
	/* Inferences are numbered on from those of an earlier times file. */
	first = nr = p->nr_steps;
	while ((t = json_next(&tm.j)) == JSON_OBJ_BEGIN) {
		t = read_inference(&tm, nr);
		if (t != JSON_OBJ_END)
			break;
		nr++;
	}
	if (t == JSON_ARR_END) {
		check_trailing(&tm.j, d);
	} else if (t == JSON_ERROR || t == JSON_EOF) {
		if (!ended_early(&tm.j, d, t, (size_t)(nr - first), "inference list"))
			rc = -1;
	} else {
		struct pos at = json_pos(&tm.j);

		diag_error(d, &at, "expected an inference record object");
		if (nr == first)
			rc = -1;
	}
	if (rc == 0) {
		char n[32];

		snprintf(n, sizeof(n), "%zu", p->nr_steps);
		profile_meta(p, "inference times", "inferences", n);
	}
	json_release(&tm.j);
	return rc;
}

static int times_probe(const char *head, size_t len)
{
	if (opens_with(head, len, '[', '{', "startEnqMs") ||
	    opens_with(head, len, '[', '{', "startInMs") ||
	    opens_with(head, len, '[', '{', "startH2dMs"))
		return 95;
	if (opens_with(head, len, '[', '{', "") && text_find(head, len, "\"latencyMs\"") &&
	    text_find(head, len, "\"computeMs\""))
		return 80;
	return 0;
}

const struct parser trtexec_times_parser = {
	.name = "trtexec-times",
	.family = "tensorrt",
	.summary = "TensorRT trtexec --exportTimes JSON (per-inference times)",
	.probe = times_probe,
	.parse = times_parse,
};

/* ---------------------------------------------------------------------
 * The trtexec log: blocks of "key: value" lines under "=== Title ===",
 * the --dumpProfile table, and the "&&&& PASSED" line.  Every line may
 * carry a "[MM/DD/YYYY-HH:MM:SS] [I] " prefix, or "[I] " alone.
 *
 * The table comes in three layouts (sampleReporting.cpp, Profiler::print):
 *   >= 8.6  "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer"
 *           numbers first, the name last (it may hold spaces);
 *   8.5     "<Layer right-aligned>   Time (ms)   Avg. Time (ms)   Median
 *           Time (ms)   Time %": the name first, numbers last;
 *   <= 8.4  the same without Median.
 * Either way the columns are read from the header and the numbers are
 * whitespace-separated tokens at one end of the row; what is left is the
 * name.  The last row is "Total".
 */
enum { COL_TIME, COL_AVG, COL_MEDIAN, COL_PCT, COL_OTHER };
#define MAX_COLS 8

enum block { B_NONE, B_KV, B_PERF, B_HEADER, B_TABLE };

#define KIND_BAD_ROW "unreadable rows in a profile table (skipped)"

struct log {
	struct profile *first, *cur;
	struct diag *d;
	const char *path;
	enum block block;
	char section[48];		/* B_KV, B_PERF: where meta lines go */
	char group[48];			/* B_PERF, TensorRT 7: "Host Latency" */
	struct meta_set meta;		/* cur's Info lines */
	bool cur_used;			/* this file gave cur something */
	bool cur_has_table;
	uint64_t nr_found;		/* meta lines and tables */
	/* the --dumpProfile table being read */
	struct layers ls;
	uint64_t table_line;
	bool name_first;
	int cols[MAX_COLS];
	size_t nr_cols;
	int64_t sum_ns;
};

static void new_run(struct log *lg, uint64_t lineno)
{
	char where[512];

	snprintf(where, sizeof(where), "%s:%llu", lg->path, (unsigned long long)lineno);
	lg->cur = profile_add_run(lg->first, where);
	meta_set_release(&lg->meta);
	meta_set_init(&lg->meta, lg->cur);
	lg->cur_used = lg->cur_has_table = false;
}

static void log_meta(struct log *lg, const char *section, const char *key, const char *v,
		     size_t n)
{
	meta_set_n(&lg->meta, section, key, v, n);
	lg->cur_used = true;
	lg->nr_found++;
}

/* End the table: TOTAL_NS is the Total row's time, or -1 without one. */
static void end_table(struct log *lg, int64_t total_ns, uint64_t lineno)
{
	char n[32];

	if (total_ns >= 0) {
		/* Each row is printed to 0.01 ms: allow that much per row. */
		int64_t slack = 5000 * (int64_t)(lg->ls.nr + 1);
		int64_t diff = lg->sum_ns - total_ns;

		if (diff > slack || diff < -slack) {
			struct pos at = { lineno, 1 };

			diag_warn(lg->d, &at, "profile table total differs from the sum of its rows",
				  "the layers of the profile table add up to %.2f ms, its Total row "
				  "says %.2f ms", (double)lg->sum_ns / 1e6, (double)total_ns / 1e6);
		}
	}
	snprintf(n, sizeof(n), "%llu", (unsigned long long)lg->ls.calls);
	meta_set(&lg->meta, "layer profile", "iterations", n);
	join_layers(lg->cur, lg->d, &lg->ls, false);
	layers_release(&lg->ls);
	lg->cur_used = lg->cur_has_table = true;
	lg->nr_found++;
	lg->block = B_NONE;
}

/* The block being read ends (a new block, the end of the run). */
static void end_block(struct log *lg, uint64_t lineno)
{
	if (lg->block == B_TABLE) {
		struct pos at = { lineno, 1 };

		diag_warn(lg->d, &at, "profile tables without a 'Total' row",
			  "profile table ends without its 'Total' row");
		end_table(lg, -1, lineno);
	} else if (lg->block == B_HEADER) {
		layers_release(&lg->ls);
	}
	lg->block = B_NONE;
}

static int col_kind(const char *s, size_t n)
{
	if (text_eq(s, n, "Time(ms)") || text_eq(s, n, "Time (ms)"))
		return COL_TIME;
	if (text_eq(s, n, "Avg.(ms)") || text_eq(s, n, "Avg. Time (ms)"))
		return COL_AVG;
	if (text_eq(s, n, "Median(ms)") || text_eq(s, n, "Median Time (ms)"))
		return COL_MEDIAN;
	if (text_eq(s, n, "Time(%)") || text_eq(s, n, "Time %"))
		return COL_PCT;
	return COL_OTHER;
}

static void header_line(struct log *lg, const char *s, size_t n, uint64_t lineno)
{
	struct field f[MAX_COLS + 2];
	size_t nf;
	bool has_time = false;

	if (!n)
		return;		/* not yet */
	lg->nr_cols = 0;
	if (text_starts(s, n, "Layer ")) {
		/* Name first: "Layer   Time (ms)   Avg. Time (ms)   Time %". */
		nf = text_split2(s, n, f, ARRAY_SIZE(f));
		lg->name_first = true;
		if (nf >= 2 && nf <= MAX_COLS + 1)
			for (size_t i = 1; i < nf; i++)
				lg->cols[lg->nr_cols++] = col_kind(f[i].s, f[i].len);
	} else {
		/* Name last: "Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer". */
		nf = text_split1(s, n, f, ARRAY_SIZE(f));
		lg->name_first = false;
		if (nf >= 2 && nf <= MAX_COLS + 1 && text_eq(f[nf - 1].s, f[nf - 1].len, "Layer"))
			for (size_t i = 0; i + 1 < nf; i++)
				lg->cols[lg->nr_cols++] = col_kind(f[i].s, f[i].len);
	}
	for (size_t i = 0; i < lg->nr_cols; i++)
		has_time |= lg->cols[i] == COL_TIME;
	if (!has_time) {
		struct pos at = { lineno, 1 };

		diag_warn(lg->d, &at, "profile tables without a header (skipped)",
			  "expected the header of the profile table after '=== Profile'; "
			  "table skipped");
		layers_release(&lg->ls);
		lg->block = B_NONE;
		return;
	}
	lg->block = B_TABLE;
	lg->table_line = lineno;
	lg->sum_ns = 0;
}

static void bad_row(struct log *lg, uint64_t lineno, size_t col, const char *why)
{
	struct pos at = { lineno, col + 1 };

	diag_warn(lg->d, &at, KIND_BAD_ROW, "%s; row skipped", why);
}

/* A row of the table: S is the line after its log prefix, trimmed. */
static void row_line(struct log *lg, const char *s, size_t n, size_t prefix, uint64_t lineno)
{
	struct field num[MAX_COLS];
	const char *name;
	size_t name_len;
	int64_t v_ns[MAX_COLS] = { 0 }, total_ns = -1;
	double pct = 0;
	bool has_pct = false, has_avg = false, has_median = false;
	struct layer_in *l;
	struct pos at;

	if (!n) {
		end_block(lg, lineno);
		return;
	}
	if (lg->name_first) {
		size_t end = n;

		for (size_t c = lg->nr_cols; c-- > 0;) {
			size_t st;

			while (end && (s[end - 1] == ' ' || s[end - 1] == '\t'))
				end--;
			st = end;
			while (st && s[st - 1] != ' ' && s[st - 1] != '\t')
				st--;
			if (st == end) {
				bad_row(lg, lineno, prefix, "too few columns in a profile table row");
				return;
			}
			num[c].s = s + st;
			num[c].len = end - st;
			num[c].col = prefix + st;
			end = st;
		}
		name = s;
		name_len = end;
		name = text_trim(name, &name_len);
	} else {
		struct field f[MAX_COLS + 1];
		size_t nf = text_split1(s, n, f, lg->nr_cols + 1);

		if (nf < lg->nr_cols + 1) {
			bad_row(lg, lineno, prefix, "too few columns in a profile table row");
			return;
		}
		for (size_t c = 0; c < lg->nr_cols; c++) {
			num[c] = f[c];
			num[c].col += prefix;
		}
		name = f[lg->nr_cols].s;
		name_len = (size_t)(s + n - name);
		name = text_trim(name, &name_len);
	}
	if (!name_len) {
		bad_row(lg, lineno, prefix, "profile table row without a layer name");
		return;
	}
	for (size_t c = 0; c < lg->nr_cols; c++) {
		bool ok = true;

		switch (lg->cols[c]) {
		case COL_TIME:
		case COL_AVG:
		case COL_MEDIAN:
			ok = num_scaled(num[c].s, num[c].len, 6, &v_ns[c]) && v_ns[c] >= 0;
			if (lg->cols[c] == COL_TIME)
				total_ns = v_ns[c];
			has_avg |= lg->cols[c] == COL_AVG;
			has_median |= lg->cols[c] == COL_MEDIAN;
			break;
		case COL_PCT:
			ok = num_double(num[c].s, num[c].len, &pct) && pct == pct;
			has_pct = true;
			break;
		default:
			break;
		}
		if (!ok) {
			char why[96];

			snprintf(why, sizeof(why), "'%.*s' in a profile table is not a number",
				 (int)(num[c].len < 40 ? num[c].len : 40), num[c].s);
			bad_row(lg, lineno, num[c].col, why);
			return;
		}
	}
	if (text_eq(name, name_len, "Total")) {
		end_table(lg, total_ns, lineno);
		return;
	}
	at.line = lineno;
	at.col = prefix + (size_t)(name - s) + 1;
	l = layers_add(&lg->ls, profile_intern(lg->cur, name, name_len), at);
	l->has_time = true;
	l->total_ns = total_ns;
	lg->sum_ns += total_ns;
	for (size_t c = 0; c < lg->nr_cols; c++) {
		if (lg->cols[c] == COL_AVG && has_avg)
			attr_set_ns(lg->cur, &l->attrs, "mean_ns", v_ns[c]);
		else if (lg->cols[c] == COL_MEDIAN && has_median)
			attr_set_ns(lg->cur, &l->attrs, "median_ns", v_ns[c]);
	}
	if (has_pct)
		attr_set_double(lg->cur, &l->attrs, "time_pct", pct);
	sources_from_name(lg->cur, l);
}

/* "min = 0.349854 ms, max = 0.586731 ms, ..." after "Latency: ". */
static void perf_stats(struct log *lg, const char *key, const char *v, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t start = i, end;
		const char *eq;

		while (i < n && !(v[i] == ',' && i + 1 < n && v[i + 1] == ' '))
			i++;
		end = i;
		i += 2;
		eq = text_find(v + start, end - start, " = ");
		if (eq) {
			char k[256];
			size_t kn = (size_t)(eq - (v + start));
			const char *val = eq + 3;
			size_t vn = (size_t)(v + end - val);

			snprintf(k, sizeof(k), "%s %.*s", key, (int)(kn < 64 ? kn : 64), v + start);
			val = text_trim(val, &vn);
			log_meta(lg, lg->section, k, val, vn);
		}
	}
}

/* The statistics TensorRT <= 8.2 lists under a group title. */
static bool is_stat(const char *s, size_t n)
{
	return text_eq(s, n, "min") || text_eq(s, n, "max") || text_eq(s, n, "mean") ||
	       text_eq(s, n, "median") || text_eq(s, n, "percentile");
}

/* A line of a "key: value" block; false when the block has ended. */
static bool kv_line(struct log *lg, const char *s, size_t n)
{
	const char *colon, *v;
	size_t kn, vn;
	char key[160];

	if (!n || s[0] == '[')
		return false;	/* a blank line, or a message of the library */
	/* "Key: value"; trtexec also prints "Dump refittable layers:Disabled". */
	colon = text_find(s, n, ": ");
	if (!colon)
		colon = memchr(s, ':', n);
	if (!colon) {
		/* TensorRT 7's summary: "Host Latency", then "min: 1.2 ms"... */
		bool title = lg->block == B_PERF && n < sizeof(lg->group);

		for (size_t i = 0; title && i < n; i++)
			title = isalpha((unsigned char)s[i]) || s[i] == ' ' || s[i] == '-';
		if (!title)
			return false;
		snprintf(lg->group, sizeof(lg->group), "%.*s", (int)n, s);
		return true;
	}
	kn = (size_t)(colon - s);
	v = colon + 1;
	vn = (size_t)(s + n - v);
	v = text_trim(v, &vn);
	if (!kn || !vn)
		return true;	/* "Output:" with nothing after it */
	if (lg->group[0] && lg->block == B_PERF && is_stat(s, kn))
		snprintf(key, sizeof(key), "%s %.*s", lg->group, (int)(kn < 96 ? kn : 96), s);
	else
		snprintf(key, sizeof(key), "%.*s", (int)(kn < 150 ? kn : 150), s);
	if (lg->block == B_PERF && text_find(v, vn, " = "))
		perf_stats(lg, key, v, vn);
	else
		log_meta(lg, lg->section, key, v, vn);
	return true;
}

/* "=== Title ===" opens a block. */
static void open_block(struct log *lg, const char *t, size_t n, uint64_t lineno)
{
	int64_t iterations;

	lg->group[0] = '\0';
	if (text_starts(t, n, "Profile (")) {
		const char *num = t + 9, *sp;
		size_t rest = n - 9;

		sp = memchr(num, ' ', rest);
		if (!sp || !num_int(num, (size_t)(sp - num), &iterations) || iterations < 0) {
			struct pos at = { lineno, 1 };

			diag_warn(lg->d, &at, "profile tables without a header (skipped)",
				  "cannot read the iteration count in '=== %.*s ==='; table skipped",
				  (int)(n < 60 ? n : 60), t);
			return;
		}
		if (lg->cur_has_table)
			new_run(lg, lineno);
		memset(&lg->ls, 0, sizeof(lg->ls));
		lg->ls.calls = (uint64_t)iterations;
		lg->block = B_HEADER;
	} else if (text_eq(t, n, "Performance summary")) {
		snprintf(lg->section, sizeof(lg->section), "performance summary");
		lg->block = B_PERF;
	} else if (text_eq(t, n, "Device Information")) {
		snprintf(lg->section, sizeof(lg->section), "device");
		lg->block = B_KV;
	} else if (n > 8 && text_eq(t + n - 8, 8, " Options") && n < sizeof(lg->section)) {
		for (size_t i = 0; i < n; i++)
			lg->section[i] = (char)tolower((unsigned char)t[i]);
		lg->section[n] = '\0';
		lg->block = B_KV;
	}
}

/* TensorRT's version as trtexec prints it: v8601 is 8.6.1, v100100 10.1.0. */
static void version_of(const char *digits, size_t n, char *out, size_t cap)
{
	int64_t v;

	if (!num_int(digits, n, &v) || v < 0) {
		snprintf(out, cap, "%.*s", (int)(n < 20 ? n : 20), digits);
		return;
	}
	if (v >= 100000)
		snprintf(out, cap, "%lld.%lld.%lld", (long long)(v / 10000),
			 (long long)(v / 100 % 100), (long long)(v % 100));
	else
		snprintf(out, cap, "%lld.%lld.%lld", (long long)(v / 1000),
			 (long long)(v / 100 % 10), (long long)(v % 100));
}

/* "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=...",
 * and the same with PASSED or FAILED at the end of the run. */
static void status_line(struct log *lg, const char *s, size_t n, uint64_t lineno)
{
	const char *word = s + 5, *sp, *ver, *cmd;
	size_t wn;

	sp = memchr(word, ' ', n - 5);
	wn = sp ? (size_t)(sp - word) : n - 5;
	if (text_eq(word, wn, "RUNNING") && lg->cur_used)
		new_run(lg, lineno);	/* a second run in one file */
	ver = text_find(s, n, "[TensorRT v");
	if (ver) {
		const char *d = ver + 11;
		size_t dn = 0;
		char version[32];

		while (d + dn < s + n && isdigit((unsigned char)d[dn]))
			dn++;
		if (dn) {
			version_of(d, dn, version, sizeof(version));
			log_meta(lg, "tensorrt", "version", version, strlen(version));
		}
	}
	cmd = text_find(s, n, " # ");
	if (text_eq(word, wn, "RUNNING")) {
		if (cmd)
			log_meta(lg, "tensorrt", "command", cmd + 3, (size_t)(s + n - cmd - 3));
	} else if (wn) {
		log_meta(lg, "tensorrt", "result", word, wn);
	}
}

static void log_line(struct log *lg, char *line, size_t len, uint64_t lineno)
{
	size_t prefix, n;
	const char *s;

	len = text_strip_ansi(line, len);
	prefix = text_log_prefix(line, len);
	n = len - prefix;
	s = text_trim(line + prefix, &n);
	prefix = (size_t)(s - line);
	if (text_starts(s, n, "&&&& ")) {
		end_block(lg, lineno);
		status_line(lg, s, n, lineno);
		return;
	}
	if (n >= 8 && text_starts(s, n, "=== ") && text_eq(s + n - 4, 4, " ===")) {
		end_block(lg, lineno);
		open_block(lg, s + 4, n - 8, lineno);
		return;
	}
	switch (lg->block) {
	case B_KV:
	case B_PERF:
		if (!kv_line(lg, s, n))
			lg->block = B_NONE;
		break;
	case B_HEADER:
		header_line(lg, s, n, lineno);
		break;
	case B_TABLE:
		row_line(lg, s, n, prefix, lineno);
		break;
	default:
		if (text_starts(s, n, "TensorRT version: ") && n > 18) {
			log_meta(lg, "tensorrt", "version", s + 18, n - 18);
		} else if (text_eq(s, n, "Host Latency")) {
			/* TensorRT <= 8.2: the summary without its "===" title,
			 * "Host Latency" then "min: 1.6 ms (end to end 1.7 ms)". */
			snprintf(lg->section, sizeof(lg->section), "performance summary");
			snprintf(lg->group, sizeof(lg->group), "Host Latency");
			lg->block = B_PERF;
		}
		break;
	}
}

static int log_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct log lg = { .first = p, .cur = p, .d = d, .path = in->path };
	char *line;
	size_t len;
	int rc = 0;

	meta_set_init(&lg.meta, p);
	while ((line = input_line(in, &len)))
		log_line(&lg, line, len, in->lineno);
	if (input_failed(in, d))
		rc = -1;
	if (lg.block == B_TABLE) {
		struct pos at = { in->lineno, 1 };

		/* A cut log: keep the rows read. */
		diag_error(d, &at, "profile table ends without its 'Total' row (file cut?); "
			   "kept the %zu rows read", lg.ls.nr);
		end_table(&lg, -1, in->lineno);
	} else {
		end_block(&lg, in->lineno);
	}
	if (!lg.nr_found && rc == 0) {
		diag_error(d, NULL, "no trtexec profile table, summary or options found");
		rc = -1;
	}
	layers_release(&lg.ls);
	meta_set_release(&lg.meta);
	return rc;
}

static int log_probe(const char *head, size_t len)
{
	if (text_find(head, len, "&&&& RUNNING TensorRT.trtexec") ||
	    text_find(head, len, "&&&& PASSED TensorRT.trtexec") ||
	    text_find(head, len, "&&&& FAILED TensorRT.trtexec"))
		return 90;
	if (text_find(head, len, "=== Profile (") && text_find(head, len, " iterations ) ==="))
		return 85;
	if (text_find(head, len, "=== Performance summary ===") &&
	    text_find(head, len, "GPU Compute Time"))
		return 80;
	if (text_find(head, len, "=== Model Options ===") &&
	    text_find(head, len, "=== Build Options ==="))
		return 60;
	return 0;
}

const struct parser trtexec_log_parser = {
	.name = "trtexec-log",
	.family = "tensorrt",
	.summary = "TensorRT trtexec log (--dumpProfile table, performance summary, options)",
	.probe = log_probe,
	.parse = log_parse,
};

/* ---------------------------------------------------------------------
 * trex's *.profile.metadata.json / *.build.metadata.json: the log blocks
 * above as JSON, made by trex's parse_trtexec_log.py (numbers without
 * their units, which the log always prints the same).
 */
static const struct {
	const char *json, *section;
} trex_sections[] = {
	{ "performance_summary", "performance summary" },
	{ "inference_options", "inference options" },
	{ "device_information", "device" },
	{ "model_options", "model options" },
	{ "build_options", "build options" },
};

static const struct {
	const char *key, *unit;
} trex_units[] = {
	{ "Throughput", " qps" }, { "Total Host Walltime", " s" }, { "Total GPU Compute Time", " s" },
	{ "Compute Clock Rate", " GHz" }, { "Memory Clock Rate", " GHz" },
	{ "Memory Bus Width", " bits" },
};

/* "Latency": [min, max, mean, median, percentiles...] in ms. */
static enum json_tok trex_stats(struct meta_set *ms, struct json *j, const char *section,
				const char *key)
{
	static const char *const names[] = { "min", "max", "mean", "median" };
	struct strbuf rest = STRBUF_INIT;
	enum json_tok t;
	size_t i = 0;

	while ((t = json_next(j)) == JSON_NUMBER) {
		char k[200], v[80];

		if (i < ARRAY_SIZE(names)) {
			snprintf(k, sizeof(k), "%s %s", key, names[i]);
			snprintf(v, sizeof(v), "%.*s ms", (int)(j->len < 64 ? j->len : 64), j->s);
			meta_set(ms, section, k, v);
		} else {
			if (rest.len)
				strbuf_addstr(&rest, ", ");
			strbuf_add(&rest, j->s, j->len);
		}
		i++;
	}
	if (rest.len) {
		char k[200];

		strbuf_addstr(&rest, " ms");
		snprintf(k, sizeof(k), "%s percentiles", key);
		meta_set(ms, section, k, rest.s);
	}
	strbuf_release(&rest);
	if (t != JSON_ARR_END)
		t = json_skip(j, t);
	return t;
}

static enum json_tok trex_section(struct meta_set *ms, struct json *j, const char *section)
{
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		char key[160];
		const char *unit = "";

		snprintf(key, sizeof(key), "%.*s", (int)(j->len < 150 ? j->len : 150), j->s);
		for (size_t i = 0; i < ARRAY_SIZE(trex_units); i++)
			if (!strcmp(key, trex_units[i].key))
				unit = trex_units[i].unit;
		t = json_next(j);
		if (t == JSON_STRING || t == JSON_NUMBER) {
			struct strbuf v = STRBUF_INIT;

			strbuf_add(&v, j->s, j->len);
			if (t == JSON_NUMBER)
				strbuf_addstr(&v, unit);
			if (v.len)
				meta_set(ms, section, key, v.s);
			strbuf_release(&v);
		} else if (t == JSON_TRUE || t == JSON_FALSE) {
			meta_set(ms, section, key, t == JSON_TRUE ? "true" : "false");
		} else if (t == JSON_ARR_BEGIN) {
			t = trex_stats(ms, j, section, key);
			if (t == JSON_ERROR || t == JSON_EOF)
				return t;
			continue;
		}
		t = json_skip(j, t);
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	return t;
}

static int trex_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct json j;
	struct meta_set ms;
	enum json_tok t;
	size_t nr = 0;
	int rc = 0;

	meta_set_init(&ms, p);
	json_init(&j, in, d);
	t = json_next(&j);
	if (t == JSON_OBJ_BEGIN) {
		while ((t = json_next_key(&j)) == JSON_KEY) {
			char section[64];

			snprintf(section, sizeof(section), "%.*s", (int)(j.len < 63 ? j.len : 63), j.s);
			for (size_t i = 0; i < ARRAY_SIZE(trex_sections); i++)
				if (!strcmp(section, trex_sections[i].json))
					snprintf(section, sizeof(section), "%s", trex_sections[i].section);
			for (char *c = section; *c; c++)
				if (*c == '_')
					*c = ' ';
			t = json_next(&j);
			if (t == JSON_OBJ_BEGIN) {
				t = trex_section(&ms, &j, section);
				if (t != JSON_OBJ_END)
					break;
				nr++;
				continue;
			}
			t = json_skip(&j, t);
			if (t == JSON_ERROR || t == JSON_EOF)
				break;
		}
	}
	if (t == JSON_OBJ_END) {
		check_trailing(&j, d);
	} else if (t == JSON_ERROR || t == JSON_EOF) {
		if (!ended_early(&j, d, t, nr, "metadata"))
			rc = -1;
	} else {
		struct pos at = json_pos(&j);

		diag_error(d, &at, "expected a JSON object of trex metadata sections");
		rc = -1;
	}
	meta_set_release(&ms);
	json_release(&j);
	return rc;
}

static int trex_probe(const char *head, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(trex_sections); i++)
		if (opens_with(head, len, '{', 0, trex_sections[i].json))
			return 85;
	return 0;
}

const struct parser trex_metadata_parser = {
	.name = "trex-metadata",
	.family = "tensorrt",
	.summary = "trex (TensorRT engine explorer) *.metadata.json: trtexec log blocks",
	.probe = trex_probe,
	.parse = trex_parse,
};
