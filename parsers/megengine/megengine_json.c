// SPDX-License-Identifier: MIT
/*
 * MegEngine --profile JSON (doc/formats/megengine.md, 'The --profile
 * JSON'), parser "megengine-json": what load_and_run --profile writes
 * (to_json_full) and profile_analyze.py reads.  The operators with their
 * device and host time (the longest comp node's or thread's end - start, as
 * profile_analyze computes it), FLOPs, memory and shapes, grouped by type
 * in the tree, in execution order.
 *
 * One streaming pass: graph_exec's operators (names, types, comp_seq) and
 * the profiler's times and footprints may come in any order, so each
 * operator id gets a record (struct opr) that every section fills in, and
 * the tree is built from the records at the end.
 *
 * The load_and_run log and profile_analyze text are megengine_text.c's;
 * megengine.h says what the two share.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/strbuf.h"
#include "../../model/util.h"
#include "../json.h"
#include "megengine.h"
#include "../num.h"
#include "../parser.h"
#include "../text.h"

struct opr {
	const char *id;			/* interned JSON key */
	const char *name, *type;	/* interned; NULL until read */
	int64_t device_ns, host_ns;	/* max over comp nodes / threads */
	double computation;
	int64_t memory;
	char *in_shapes, *out_shapes;	/* heap, "{1,3} {3}" */
	int64_t seq;			/* place in comp_seq, -1 = none */
	uint32_t order;			/* first seen */
	bool has_device, has_host, has_computation, has_memory, in_graph;
};

struct mjson {
	struct profile *p;
	struct diag *d;
	struct json j;
	struct opr *oprs;
	size_t nr, alloc;
	uint32_t *index;		/* open addressing on the id pointer */
	size_t index_cap;		/* a power of two, or 0 */
	const char *comp_nodes[16];	/* distinct comp node names seen */
	size_t nr_comp_nodes;
	bool more_comp_nodes;
	bool has_profiler;
	bool has_operators;		/* graph_exec's "operator" read whole */
	int64_t seq;
};

/* The record of operator ID (the key just read), created if new. */
static struct opr *opr_of(struct mjson *mj, const char *s, size_t n)
{
	const char *id = profile_intern(mj->p, s, n);
	size_t mask, i;

	if (mj->nr * 2 >= mj->index_cap) {
		size_t cap = mj->index_cap ? mj->index_cap * 2 : 64;
		uint32_t *idx = xmalloc(cap * sizeof(*idx));

		for (i = 0; i < cap; i++)
			idx[i] = UINT32_MAX;
		for (size_t k = 0; k < mj->nr; k++) {
			size_t h = hash_ptr(mj->oprs[k].id) & (cap - 1);

			while (idx[h] != UINT32_MAX)
				h = (h + 1) & (cap - 1);
			idx[h] = (uint32_t)k;
		}
		free(mj->index);
		mj->index = idx;
		mj->index_cap = cap;
	}
	mask = mj->index_cap - 1;
	for (i = hash_ptr(id) & mask; mj->index[i] != UINT32_MAX; i = (i + 1) & mask)
		if (mj->oprs[mj->index[i]].id == id)
			return &mj->oprs[mj->index[i]];
	GROW(mj->oprs, mj->alloc, mj->nr + 1);
	mj->index[i] = (uint32_t)mj->nr;
	memset(&mj->oprs[mj->nr], 0, sizeof(mj->oprs[mj->nr]));
	mj->oprs[mj->nr].id = id;
	mj->oprs[mj->nr].seq = -1;
	mj->oprs[mj->nr].order = (uint32_t)mj->nr;
	return &mj->oprs[mj->nr++];
}

#define ODD_VALUES "unexpected values in the profile JSON, skipped"

static void odd_value(struct mjson *mj, const char *what)
{
	struct pos at = json_pos(&mj->j);

	diag_warn(mj->d, &at, ODD_VALUES, "unexpected value for %s, skipped", what);
}

/* Read the next value, which should open a container (OPEN).  True when
 * it does; else *T is what the caller returns: the error, or the last
 * token of the odd value WHAT, warned about and skipped. */
static bool expect_open(struct mjson *mj, enum json_tok open, const char *what, enum json_tok *t)
{
	if (json_expect_open(&mj->j, open, t))
		return true;
	if (!json_failed(*t)) {
		odd_value(mj, what);
		*t = json_skip(&mj->j, *t);
	}
	return false;
}

/* {"start": s, "kern": k, "end": e} in seconds: E - S in ns, or -1. */
static enum json_tok read_interval(struct mjson *mj, int64_t *ns)
{
	struct json *j = &mj->j;
	enum json_tok t;
	int64_t start = 0, end = 0;
	bool has_start = false, has_end = false, bad = false;

	*ns = -1;
	while ((t = json_next_key(j)) == JSON_KEY) {
		bool is_start = json_is(j, "start"), is_end = json_is(j, "end");

		t = json_next(j);
		if (json_failed(t))
			return t;
		if ((is_start || is_end) && t == JSON_NUMBER) {
			int64_t v;

			/* A time from the epoch or from the profile's start;
			 * within the bound, END - START cannot wrap. */
			if (!num_scaled(j->s, j->len, 9, &v) || v < -BOUND_ABS_TS_NS ||
			    v > BOUND_ABS_TS_NS)
				bad = true;
			else if (is_start)
				start = v, has_start = true;
			else
				end = v, has_end = true;
		} else if (is_start || is_end) {
			bad = true;
		}
		t = json_skip(&mj->j, t);
		if (json_failed(t))
			return t;
	}
	if (t != JSON_OBJ_END)
		return t;
	if (bad || !has_start || !has_end || !bound_dur_ok(end - start)) {
		struct pos at = json_pos(j);

		diag_warn(mj->d, &at, "operator times without a valid start and end, skipped",
			  "operator time without a valid start and end (0 to 10^15 ns apart, "
			  "within 2^62 ns of 0)");
		return t;
	}
	*ns = end - start;
	return t;
}

static void note_comp_node(struct mjson *mj, const char *name)
{
	for (size_t i = 0; i < mj->nr_comp_nodes; i++)
		if (mj->comp_nodes[i] == name)
			return;
	if (mj->nr_comp_nodes < ARRAY_SIZE(mj->comp_nodes))
		mj->comp_nodes[mj->nr_comp_nodes++] = name;
	else
		mj->more_comp_nodes = true;
}

/* "device" / "host": {opr id: {comp node or thread: interval}}. */
static enum json_tok read_times(struct mjson *mj, bool is_device)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, is_device ? "'device'" : "'host'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		size_t idx = (size_t)(opr_of(mj, j->s, j->len) - mj->oprs);

		if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator's times", &t)) {
			if (json_failed(t))
				return t;
			continue;
		}
		while ((t = json_next_key(j)) == JSON_KEY) {
			const char *where = is_device ? profile_intern(mj->p, j->s, j->len) : NULL;
			int64_t ns;

			if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator's times", &t)) {
				if (json_failed(t))
					return t;
				continue;
			}
			t = read_interval(mj, &ns);
			if (t != JSON_OBJ_END)
				return t;
			if (ns < 0)
				continue;
			if (where)
				note_comp_node(mj, where);
			/* the operator's time is its longest comp node's */
			if (is_device && (!mj->oprs[idx].has_device || ns > mj->oprs[idx].device_ns)) {
				mj->oprs[idx].device_ns = ns;
				mj->oprs[idx].has_device = true;
			} else if (!is_device && (!mj->oprs[idx].has_host || ns > mj->oprs[idx].host_ns)) {
				mj->oprs[idx].host_ns = ns;
				mj->oprs[idx].has_host = true;
			}
		}
		if (t != JSON_OBJ_END)
			return t;
	}
	return t;
}

/* An array of shapes [[1,3,224,224], [64,3,7,7]] as text, one entry per
 * shape in *PARTS (heap strings, "{1,3,224,224}"); null entries (in_layouts
 * of contiguous inputs) are NULL. */
static enum json_tok read_shape_list(struct mjson *mj, char ***parts, size_t *nr, const char *what)
{
	struct json *j = &mj->j;
	enum json_tok t = json_next(j);
	size_t alloc = 0;

	*parts = NULL;
	*nr = 0;
	if (t != JSON_ARR_BEGIN) {
		if (json_failed(t))
			return t;
		if (t != JSON_NULL)
			odd_value(mj, what);
		return json_skip(&mj->j, t);
	}
	while ((t = json_next(j)) != JSON_ARR_END) {
		struct strbuf b;
		bool bad = false;

		if (json_failed(t))
			return t;
		GROW(*parts, alloc, *nr + 1);
		(*parts)[*nr] = NULL;
		if (t == JSON_NULL) {
			(*nr)++;
			continue;
		}
		if (t != JSON_ARR_BEGIN) {
			odd_value(mj, what);
			t = json_skip(&mj->j, t);
			if (json_failed(t))
				return t;
			continue;
		}
		memset(&b, 0, sizeof(b));
		strbuf_addch(&b, '{');
		while ((t = json_next(j)) != JSON_ARR_END) {
			if (json_failed(t)) {
				strbuf_release(&b);
				return t;
			}
			if (t != JSON_NUMBER) {
				bad = true;
				t = json_skip(&mj->j, t);
				if (json_failed(t)) {
					strbuf_release(&b);
					return t;
				}
				continue;
			}
			if (b.len > 1)
				strbuf_addch(&b, ',');
			strbuf_add(&b, j->s, j->len);
		}
		strbuf_addch(&b, '}');
		if (bad)
			odd_value(mj, what);
		(*parts)[(*nr)++] = b.s;
	}
	return t;
}

static void free_parts(char **parts, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(parts[i]);
	free(parts);
}

/* Join shapes (and the strides of non-contiguous ones, "-[...]"). */
static char *join_shapes(char **shapes, size_t nr, char **strides, size_t nr_strides)
{
	struct strbuf b;

	memset(&b, 0, sizeof(b));
	for (size_t i = 0; i < nr; i++) {
		if (!shapes[i])
			continue;
		if (b.len)
			strbuf_addch(&b, ' ');
		strbuf_add(&b, shapes[i], strlen(shapes[i]));
		if (i < nr_strides && strides[i]) {
			/* "{a,b}" -> "-[a,b]" as profile_analyze prints it */
			strbuf_add(&b, "-[", 2);
			strbuf_add(&b, strides[i] + 1, strlen(strides[i]) - 2);
			strbuf_addch(&b, ']');
		}
	}
	return b.s;
}

/* "opr_footprint": {opr id: {"computation", "memory", "in_shapes", ...}}. */
static enum json_tok read_footprints(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'opr_footprint'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		size_t idx = (size_t)(opr_of(mj, j->s, j->len) - mj->oprs);
		char **in = NULL, **out = NULL, **layouts = NULL;
		size_t nr_in = 0, nr_out = 0, nr_layouts = 0;
		struct opr *o;

		if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator's footprint", &t)) {
			if (json_failed(t))
				return t;
			continue;
		}
		while ((t = json_next_key(j)) == JSON_KEY) {
			o = &mj->oprs[idx];
			if (json_is(j, "computation") || json_is(j, "memory")) {
				bool is_comp = json_is(j, "computation");
				double v;

				t = json_next(j);
				if (json_failed(t))
					break;
				if (t == JSON_NUMBER && num_double(j->s, j->len, &v) && isfinite(v) &&
				    v >= 0 && (is_comp || v <= (double)BOUND_BYTES)) {
					if (is_comp) {
						o->computation = v;
						o->has_computation = true;
					} else {
						o->memory = llround(v);
						o->has_memory = true;
					}
				} else if (t != JSON_NULL) {
					odd_value(mj, is_comp ? "'computation'" : "'memory'");
				}
				t = json_skip(&mj->j, t);
			} else if (json_is(j, "in_shapes")) {
				free_parts(in, nr_in);
				t = read_shape_list(mj, &in, &nr_in, "'in_shapes'");
			} else if (json_is(j, "out_shapes")) {
				free_parts(out, nr_out);
				t = read_shape_list(mj, &out, &nr_out, "'out_shapes'");
			} else if (json_is(j, "in_layouts")) {
				free_parts(layouts, nr_layouts);
				t = read_shape_list(mj, &layouts, &nr_layouts, "'in_layouts'");
			} else {
				t = json_skip_value(j);
			}
			if (json_failed(t))
				break;
		}
		o = &mj->oprs[idx];
		if (t == JSON_OBJ_END) {
			free(o->in_shapes);
			free(o->out_shapes);
			o->in_shapes = join_shapes(in, nr_in, layouts, nr_layouts);
			o->out_shapes = join_shapes(out, nr_out, NULL, 0);
		}
		free_parts(in, nr_in);
		free_parts(out, nr_out);
		free_parts(layouts, nr_layouts);
		if (t != JSON_OBJ_END)
			return t;
	}
	return t;
}

static enum json_tok read_profiler(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'profiler'", &t))
		return t;
	mj->has_profiler = true;
	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "device"))
			t = read_times(mj, true);
		else if (json_is(j, "host"))
			t = read_times(mj, false);
		else if (json_is(j, "opr_footprint"))
			t = read_footprints(mj);
		else
			t = json_skip_value(j);
		if (json_failed(t))
			return t;
	}
	return t;
}

/* "operator": {opr id: {"name", "type", ...}}. */
static enum json_tok read_operators(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'operator'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		size_t idx = (size_t)(opr_of(mj, j->s, j->len) - mj->oprs);

		mj->oprs[idx].in_graph = true;
		if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator", &t)) {
			if (json_failed(t))
				return t;
			continue;
		}
		while ((t = json_next_key(j)) == JSON_KEY) {
			bool is_name = json_is(j, "name"), is_type = json_is(j, "type");

			if (!is_name && !is_type) {
				t = json_skip_value(j);
				if (json_failed(t))
					return t;
				continue;
			}
			t = json_next(j);
			if (json_failed(t))
				return t;
			if (t == JSON_STRING) {
				const char *s = profile_intern(mj->p, j->s, j->len);

				if (is_name)
					mj->oprs[idx].name = s;
				else
					mj->oprs[idx].type = s;
			} else {
				odd_value(mj, is_name ? "an operator's 'name'" : "an operator's 'type'");
				t = json_skip(&mj->j, t);
				if (json_failed(t))
					return t;
			}
		}
		if (t != JSON_OBJ_END)
			return t;
	}
	return t;
}

static enum json_tok read_comp_seq(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_ARR_BEGIN, "'comp_seq'", &t))
		return t;
	while ((t = json_next(j)) != JSON_ARR_END) {
		if (json_failed(t))
			return t;
		if (t == JSON_STRING || t == JSON_NUMBER) {
			struct opr *o = opr_of(mj, j->s, j->len);

			if (o->seq < 0)
				o->seq = mj->seq++;
			continue;
		}
		odd_value(mj, "'comp_seq'");
		t = json_skip(&mj->j, t);
		if (json_failed(t))
			return t;
	}
	return t;
}

static enum json_tok read_graph_exec(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'graph_exec'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "operator")) {
			t = read_operators(mj);
			mj->has_operators |= t == JSON_OBJ_END;
		}
		else if (json_is(j, "comp_seq"))
			t = read_comp_seq(mj);
		else
			t = json_skip_value(j);	/* var, mem_chunk: not shown */
		if (json_failed(t))
			return t;
	}
	return t;
}

static int cmp_exec_order(const void *a, const void *b)
{
	const struct opr *x = *(const struct opr *const *)a, *y = *(const struct opr *const *)b;

	/* comp_seq order first, then the rest as they came */
	if ((x->seq < 0) != (y->seq < 0))
		return x->seq < 0 ? 1 : -1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Operator O's node, under the group of its type; its times are added to
 * the group's and to *TOTALS (device, host). */
static void json_op_node(struct mjson *mj, const struct opr *o, int64_t totals[2])
{
	struct profile *p = mj->p;
	const char *type = o->type ? o->type : profile_intern(p, "(unknown type)", 14);
	struct node *g = node_child(p, p->root, NODE_GROUP, type);
	struct node *n = node_new_interned(p, g, NODE_OP, o->name ? o->name : o->id);

	n->flags |= NODE_DISTINCT;
	node_set_calls(p, n, 1);
	if (o->has_device) {
		node_set_device_total(p, n, o->device_ns);
		node_set_device_self(p, n, o->device_ns);
		node_set_minmax(p, n, o->device_ns, o->device_ns);
		node_add_device_total(p, g, o->device_ns);
		sum_add(&totals[0], o->device_ns);
	}
	if (o->has_host) {
		node_set_host_total(p, n, o->host_ns);
		node_set_host_self(p, n, o->host_ns);
		node_add_host_total(p, g, o->host_ns);
		sum_add(&totals[1], o->host_ns);
	}
	if (o->type)
		attr_set_str(p, node_attr_list(n), MGE_ATTR_TYPE, o->type, strlen(o->type));
	attr_set_str(p, node_attr_list(n), MGE_ATTR_ID, o->id, strlen(o->id));
	if (o->has_computation) {
		attr_set_double(p, node_attr_list(n), MGE_ATTR_FLOPS, o->computation);
		if (o->has_device && o->device_ns > 0)
			attr_set_double(p, node_attr_list(n), MGE_ATTR_FLOPS_PER_S,
					o->computation / ((double)o->device_ns / 1e9));
	}
	if (o->has_memory) {
		attr_set_int(p, node_attr_list(n), MGE_ATTR_MEMORY, o->memory);
		if (o->has_device && o->device_ns > 0)
			attr_set_double(p, node_attr_list(n), MGE_ATTR_BANDWIDTH,
					(double)o->memory / ((double)o->device_ns / 1e9));
	}
	if (o->in_shapes && *o->in_shapes)
		attr_set_str(p, node_attr_list(n), MGE_ATTR_IN_SHAPES, o->in_shapes, strlen(o->in_shapes));
	if (o->out_shapes && *o->out_shapes)
		attr_set_str(p, node_attr_list(n), MGE_ATTR_OUT_SHAPES, o->out_shapes, strlen(o->out_shapes));
}

/* The comp nodes seen, "gpu0:0, cpu0:0", for the Info pane. */
static void json_comp_nodes(struct mjson *mj)
{
	struct strbuf b;

	if (!mj->nr_comp_nodes)
		return;
	memset(&b, 0, sizeof(b));
	for (size_t i = 0; i < mj->nr_comp_nodes; i++) {
		if (i)
			strbuf_add(&b, ", ", 2);
		strbuf_add(&b, mj->comp_nodes[i], strlen(mj->comp_nodes[i]));
	}
	if (mj->more_comp_nodes)
		strbuf_add(&b, ", ...", 5);
	profile_meta(mj->p, "profiler", "comp nodes", b.s);
	strbuf_release(&b);
}

/* An Info line of a total of the operators' times, which saturated
 * (sum_add()) when it reached SUM_CAP: then it says "more than". */
static void total_meta(struct mjson *mj, const char *key, int64_t total)
{
	char num[64], line[80];

	megengine_fmt_ms(num, sizeof(num), total);
	snprintf(line, sizeof(line), "%s%s", sum_capped(total) ? "more than " : "", num);
	profile_meta(mj->p, "profiler", key, line);
	if (sum_capped(total)) {
		struct pos none = { 0, 0 };

		diag_warn(mj->d, &none, "sums past proftui's cap (2^61 ns)",
			  "the operators' %s passes proftui's cap of 2^61 ns; Info says 'more than'",
			  key);
	}
}

/* The tree from the operator records: the timed ones in execution order. */
static void build_json_model(struct mjson *mj)
{
	struct profile *p = mj->p;
	struct opr **v = xmalloc((mj->nr ? mj->nr : 1) * sizeof(*v));
	size_t nr = 0, untimed = 0, unnamed = 0;
	int64_t totals[2] = { 0, 0 };
	bool any_dev = false, any_host = false;
	char num[64];

	for (size_t i = 0; i < mj->nr; i++) {
		struct opr *o = &mj->oprs[i];

		if (!o->has_device && !o->has_host) {
			untimed += o->in_graph;
			continue;
		}
		v[nr++] = o;
		unnamed += !o->in_graph;
		any_dev |= o->has_device;
		any_host |= o->has_host;
	}
	if (nr > 1)
		qsort(v, nr, sizeof(*v), cmp_exec_order);
	for (size_t i = 0; i < nr; i++)
		json_op_node(mj, v[i], totals);
	free(v);
	snprintf(num, sizeof(num), "%zu", nr);
	profile_meta(p, "profiler", "operators", num);
	if (any_dev)
		total_meta(mj, "total device time", totals[0]);
	if (any_host)
		total_meta(mj, "total host time", totals[1]);
	json_comp_nodes(mj);
	if (untimed) {
		snprintf(num, sizeof(num), "%zu", untimed);
		profile_meta(p, "profiler", "operators without times", num);
	}
	/* without graph_exec's operators (a cut file) every operator is
	 * named by its id, and that is no news */
	if (unnamed && mj->has_operators) {
		struct pos none = { 0, 0 };

		diag_warn(mj->d, &none, "profiled operators missing from graph_exec, named by id",
			  "%zu profiled operators are not in graph_exec; named by their id", unnamed);
	}
	if (!nr) {
		struct pos none = { 0, 0 };

		diag_warn(mj->d, &none, "profiles without operator times",
			  "no operator has a device or host time");
	}
}

/* The top-level object: the members we read, the rest skipped.  Returns
 * the token the parse stopped on; *IS_OBJECT says whether there was one. */
static enum json_tok read_top(struct mjson *mj, bool *is_object)
{
	struct json *j = &mj->j;
	enum json_tok t;

	*is_object = json_expect_open(j, JSON_OBJ_BEGIN, &t);
	if (!*is_object)
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "profiler"))
			t = read_profiler(mj);
		else if (json_is(j, "graph_exec"))
			t = read_graph_exec(mj);
		else
			t = json_skip_value(j);
		if (json_failed(t))
			break;
	}
	return t;
}

static int megengine_json_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct mjson mj;
	enum json_tok t;
	bool is_object;
	size_t timed = 0;
	char kept[64];
	int rc = 0;

	memset(&mj, 0, sizeof(mj));
	mj.p = p;
	mj.d = d;
	json_init(&mj.j, in, d);
	t = read_top(&mj, &is_object);
	if (!is_object && !json_failed(t)) {
		struct pos at = json_pos(&mj.j);

		diag_error(d, &at, "expected a JSON object at the top level");
		rc = -1;
	}
	for (size_t i = 0; i < mj.nr; i++)
		timed += mj.oprs[i].has_device || mj.oprs[i].has_host;
	snprintf(kept, sizeof(kept), "the %zu operators timed before it", timed);
	if (json_report_end(&mj.j, t, "profile", timed, kept) < 0) {
		rc = -1;
	} else if (rc == 0 && !mj.has_profiler) {
		diag_error(d, NULL, "no 'profiler' object: not a MegEngine --profile JSON");
		rc = -1;
	} else if (rc == 0 && !json_failed(t)) {
		json_check_end(&mj.j, "profile");	/* its failure keeps the operators */
	}
	if (rc == 0)
		build_json_model(&mj);
	for (size_t i = 0; i < mj.nr; i++) {
		free(mj.oprs[i].in_shapes);
		free(mj.oprs[i].out_shapes);
	}
	free(mj.oprs);
	free(mj.index);
	json_release(&mj.j);
	return rc;
}

/* A JSON object with load_and_run's --profile members near the top. */
static int megengine_json_probe(const char *head, size_t len)
{
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= len || head[i] != '{')
		return 0;
	if (text_find(head, len, "\"traceEvents\""))
		return 0;
	if (text_find(head, len, "\"graph_exec\""))
		return 85;
	if (text_find(head, len, "\"profiler\"") &&
	    (text_find(head, len, "\"opr_footprint\"") || text_find(head, len, "\"opr_internal_pf\"") ||
	     text_find(head, len, "\"kern\"")))
		return 85;
	return 0;
}

const struct parser megengine_json_parser = {
	.counts_per_node = true,
	.name = "megengine-json",
	.family = "megengine",
	.summary = "MegEngine load_and_run --profile JSON",
	.probe = megengine_json_probe,
	.parse = megengine_json_parse,
};
