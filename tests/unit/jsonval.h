/* SPDX-License-Identifier: MIT */
/*
 * A small JSON value tree for tests that read expected outputs (the
 * reference tool's JSON files), built on parsers/json.c.  Test-only: the
 * program itself never builds a DOM.
 */
#ifndef TESTS_UNIT_JSONVAL_H
#define TESTS_UNIT_JSONVAL_H

#include "parsers/json.h"

struct jv {
	enum { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ } type;
	double num;
	char *str;		/* JV_STR; also the text of JV_NUM */
	char **keys;		/* JV_OBJ */
	struct jv *items;	/* JV_ARR, JV_OBJ values */
	size_t nr;
};

static void jv_free(struct jv *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		if (v->keys)
			free(v->keys[i]);
		jv_free(&v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->str);
}

static int jv_read(struct json *j, enum json_tok t, struct jv *v)
{
	memset(v, 0, sizeof(*v));
	switch (t) {
	case JSON_NUMBER:
	case JSON_BARE:
		v->type = JV_NUM;
		v->str = xstrndup(j->s, j->len);
		num_double(j->s, j->len, &v->num);
		return 0;
	case JSON_STRING:
		v->type = JV_STR;
		v->str = xstrndup(j->s, j->len);
		return 0;
	case JSON_TRUE:
	case JSON_FALSE:
		v->type = JV_BOOL;
		v->num = t == JSON_TRUE;
		return 0;
	case JSON_NULL:
		return 0;
	case JSON_ARR_BEGIN:
	case JSON_OBJ_BEGIN: {
		size_t alloc = 0;

		v->type = t == JSON_ARR_BEGIN ? JV_ARR : JV_OBJ;
		for (;;) {
			char *key = NULL;

			t = json_next(j);
			if (t == JSON_ARR_END || t == JSON_OBJ_END)
				return 0;
			if (t == JSON_KEY) {
				key = xstrndup(j->s, j->len);
				t = json_next(j);
			}
			if (t == JSON_ERROR || t == JSON_EOF) {
				free(key);
				return -1;
			}
			GROW(v->items, alloc, v->nr + 1);
			if (v->type == JV_OBJ) {
				v->keys = xrealloc(v->keys, alloc * sizeof(*v->keys));
				v->keys[v->nr] = key;
			}
			if (jv_read(j, t, &v->items[v->nr++]))
				return -1;
		}
	}
	default:
		return -1;
	}
}

/* Read the first JSON document of PATH into V; -1 if it cannot. */
static int jv_load(const char *path, struct jv *v)
{
	struct input in;
	struct diag d;
	struct json j;
	int rc;

	diag_init(&d, path, stderr, NULL);
	if (input_open(&in, path, &d))
		return -1;
	json_init(&j, &in, &d);
	rc = jv_read(&j, json_next(&j), v);
	json_release(&j);
	input_close(&in);
	return rc;
}

static const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (v->type != JV_OBJ)
		return NULL;
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

#endif
