// SPDX-License-Identifier: MIT
/*
 * trtexec --exportLayerInfo (doc/formats/trtexec.md, 'Layer info'): the
 * engine's layers.  The simple form lists names; the detailed form
 * (--profilingVerbosity=detailed) gives each layer's type, tensors, tactic
 * and, from TensorRT 8.6, the ONNX layers it fused.  See trtexec.h for how
 * the layers join the other files of the engine.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/strbuf.h"
#include "../../model/util.h"
#include "../parser.h"
#include "../text.h"
#include "trtexec.h"

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

/* A layer's Inputs or Outputs, as its columns give them. */
struct tensors {
	bool is_present;
	struct strbuf shapes;		/* "1x3x224x224, 1x1000" */
	const char *precision;		/* of the first tensor that names one */
};

/* The string members of a layer object (a number is taken as its text). */
enum { LS_NAME, LS_TYPE, LS_TACTIC_NAME, LS_TACTIC_VALUE, LS_ORIGIN, NR_LS };

static const char *const layer_string_keys[NR_LS] = {
	[LS_NAME] = "Name",
	[LS_TYPE] = "LayerType",
	[LS_TACTIC_NAME] = "TacticName",
	[LS_TACTIC_VALUE] = "TacticValue",
	[LS_ORIGIN] = "Origin",
};

/* What one element of "Layers" says, gathered while it is read. */
struct layer_json {
	const char *str[NR_LS];		/* interned, or NULL */
	struct tensors in, out;
	char *metadata;			/* heap, or NULL */
	size_t metadata_len;
};

/* "Dimensions": [1, 3, 224, 224] joins SHAPES as "1x3x224x224" (tensors
 * separated by ", "). */
static enum json_tok read_dimensions(struct graph *g, struct strbuf *shapes)
{
	struct json *j = &g->j;
	enum json_tok t;
	size_t nr = 0;

	if (!json_expect_open(j, JSON_ARR_BEGIN, &t))
		return json_skip(j, t);
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
	return t;
}

/* One tensor object of Inputs/Outputs. */
static enum json_tok read_tensor(struct graph *g, struct tensors *ts)
{
	struct json *j = &g->j;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "Dimensions")) {
			t = read_dimensions(g, &ts->shapes);
		} else if (json_is(j, "Format/Datatype")) {
			t = json_next(j);
			if (t == JSON_STRING && !ts->precision)
				ts->precision = precision_of(j->s, j->len);
			t = json_skip(j, t);
		} else {
			t = json_skip_value(j);
		}
		if (json_failed(t))
			return t;
	}
	return t;
}

/* "Inputs": [tensor, ...] (or "Outputs"). */
static enum json_tok read_tensors(struct graph *g, struct tensors *ts)
{
	struct json *j = &g->j;
	enum json_tok t;

	if (!json_expect_open(j, JSON_ARR_BEGIN, &t))
		return json_skip(j, t);
	ts->is_present = true;
	while ((t = json_next(j)) != JSON_ARR_END) {
		if (t == JSON_OBJ_BEGIN)
			t = read_tensor(g, ts);
		else
			t = json_skip(j, t);
		if (json_failed(t))
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

/* The value of the member whose name was just read. */
static enum json_tok read_member(struct graph *g, struct layer_json *lj)
{
	struct json *j = &g->j;
	enum json_tok t;

	for (size_t i = 0; i < NR_LS; i++)
		if (json_is(j, layer_string_keys[i]))
			return read_str(g, &lj->str[i]);
	if (json_is(j, "Inputs"))
		return read_tensors(g, &lj->in);
	if (json_is(j, "Outputs"))
		return read_tensors(g, &lj->out);
	if (!json_is(j, "Metadata"))
		return json_skip_value(j);
	t = json_next(j);
	if (t == JSON_STRING) {
		free(lj->metadata);
		lj->metadata = xstrndup(j->s, j->len);
		lj->metadata_len = j->len;
	}
	return json_skip(j, t);
}

static void set_column(struct profile *p, struct layer_in *l, const char *key, const char *v)
{
	if (v)
		attr_set_str(p, &l->attrs, key, v, strlen(v));
}

/* The tactic is the layer's kernel.  A bare TacticValue means something
 * only for its layer type ("0x0" of a Reformat is not "0x0" of a NoOp),
 * so it is named with the type. */
static const char *kernel_of(struct profile *p, const struct layer_json *lj)
{
	const char *value = lj->str[LS_TACTIC_VALUE], *type = lj->str[LS_TYPE];
	struct strbuf k = STRBUF_INIT;
	const char *kernel;

	if (lj->str[LS_TACTIC_NAME])
		return lj->str[LS_TACTIC_NAME];
	if (!value || !type)
		return value;
	strbuf_addstr(&k, type);
	strbuf_addstr(&k, " ");
	strbuf_addstr(&k, value);
	kernel = profile_intern(p, k.s, k.len);
	strbuf_release(&k);
	return kernel;
}

/* A layer object read whole becomes a record. */
static void add_layer(struct graph *g, struct pos at, struct layer_json *lj)
{
	struct profile *p = g->p;
	struct layer_in *l;

	if (!lj->str[LS_NAME]) {
		diag_warn(g->d, &at, "layers without a name (skipped)",
			  "layer without a 'Name'; skipped");
		g->nr_skipped++;
		return;
	}
	l = layers_add(&g->ls, lj->str[LS_NAME], at);
	set_column(p, l, "layer_type", lj->str[LS_TYPE]);
	set_column(p, l, "precision", lj->out.precision ? lj->out.precision : lj->in.precision);
	set_column(p, l, "tactic",
		   lj->str[LS_TACTIC_NAME] ? lj->str[LS_TACTIC_NAME] : lj->str[LS_TACTIC_VALUE]);
	set_column(p, l, "origin", lj->str[LS_ORIGIN]);
	if (lj->in.is_present)
		attr_set_str(p, &l->attrs, "input_shapes", lj->in.shapes.s ? lj->in.shapes.s : "",
			     lj->in.shapes.len);
	if (lj->out.is_present)
		attr_set_str(p, &l->attrs, "output_shapes",
			     lj->out.shapes.s ? lj->out.shapes.s : "", lj->out.shapes.len);
	l->kernel = kernel_of(p, lj);
	if (lj->metadata && layer_sources_from_metadata(p, l, lj->metadata, lj->metadata_len))
		l->sources_final = true;
	else
		layer_sources_from_name(p, l);
}

/* One element of "Layers" in the detailed form. */
static enum json_tok read_layer(struct graph *g, struct pos at)
{
	struct layer_json lj = { .in.shapes = STRBUF_INIT, .out.shapes = STRBUF_INIT };
	enum json_tok t;

	while ((t = json_next_key(&g->j)) == JSON_KEY) {
		t = read_member(g, &lj);
		if (json_failed(t))
			break;
	}
	if (t == JSON_OBJ_END)
		add_layer(g, at, &lj);
	free(lj.metadata);
	strbuf_release(&lj.in.shapes);
	strbuf_release(&lj.out.shapes);
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

			layer_sources_from_name(g->p, l);
		} else if (t == JSON_OBJ_BEGIN) {
			t = read_layer(g, at);
			if (t != JSON_OBJ_END)
				return t;
		} else {
			if (json_failed(t))
				return t;
			diag_warn(g->d, &at, "layers that are neither a name nor an object (skipped)",
				  "element of 'Layers' is neither a name nor an object; skipped");
			t = json_skip(j, t);
			if (json_failed(t))
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
		if (json_failed(t))
			break;
	}
	if (t == JSON_ARR_END && b.len)
		trt_meta_once(g->p, "engine", "bindings", b.s);
	strbuf_release(&b);
	return t;
}

/* The members of the top-level object, up to its end. */
static enum json_tok read_top(struct graph *g, bool *saw_layers)
{
	struct json *j = &g->j;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		bool is_layers = json_is(j, "Layers");
		bool is_bindings = json_is(j, "Bindings");

		if (is_layers || is_bindings) {
			if (json_expect_open(j, JSON_ARR_BEGIN, &t)) {
				*saw_layers |= is_layers;
				t = is_layers ? read_layers(g) : read_bindings(g);
				if (t != JSON_ARR_END)
					break;
				continue;
			}
			t = json_skip(j, t);
		} else {
			t = json_skip_value(j);
		}
		if (json_failed(t))
			break;
	}
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
	if (json_expect_open(&g.j, JSON_OBJ_BEGIN, &t))
		t = read_top(&g, &saw_layers);
	if (t == JSON_OBJ_END) {
		if (!saw_layers) {
			struct pos at = json_pos(&g.j);

			diag_error(d, &at, "no 'Layers' array: not a trtexec --exportLayerInfo file");
			rc = -1;
		} else {
			json_check_end(&g.j, "JSON document");
		}
	} else if (json_failed(t)) {
		rc = trt_report_end(&g.j, t, "layer list", g.ls.nr);
	} else {
		struct pos at = json_pos(&g.j);

		diag_error(d, &at, "expected a JSON object with a 'Layers' array");
		rc = -1;
	}
	if (rc == 0) {
		char n[32];

		snprintf(n, sizeof(n), "%zu", g.ls.nr);
		if (layers_join(p, d, &g.ls, true))
			trt_meta_once(p, "engine", "layers", n);
		else
			rc = -1;
	}
	layers_release(&g.ls);
	json_release(&g.j);
	return rc;
}

/* `{"Layers": [` first, as trtexec writes it; or a re-indented or
 * re-ordered object that has the marks of one. */
static int graph_probe(const char *head, size_t len)
{
	size_t i = trt_skip_ws(head, len, 0);

	if (trt_opens_with(head, len, '{', 0, "Layers"))
		return 95;
	if (i < len && head[i] == '{' && text_find(head, len, "\"Layers\"") &&
	    (text_find(head, len, "\"LayerType\"") || text_find(head, len, "\"Bindings\"")) &&
	    !text_find(head, len, "\"traceEvents\""))
		return 80;
	return 0;
}

const struct parser trtexec_graph_parser = {
	.counts_per_node = true,
	.name = "trtexec-graph",
	.family = "tensorrt",
	.engine_suffixes = (const char *const[]){ ".graph.json", NULL },
	.summary = "TensorRT trtexec --exportLayerInfo JSON (engine layers, simple or detailed)",
	.probe = graph_probe,
	.parse = graph_parse,
};
