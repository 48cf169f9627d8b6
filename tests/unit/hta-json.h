/* SPDX-License-Identifier: MIT */
/*
 * Reading Holistic Trace Analysis's reference outputs (a DataFrame as
 * {"columns", "data", ...}, corpus/hta-expected/README.md) in the tests
 * that compare an analysis with HTA's: a number (NaN for HTA's null), an
 * item of an array, a frame's column by name.  Include after test.h.
 */
#ifndef TESTS_HTA_JSON_H
#define TESTS_HTA_JSON_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonval.h"

/* A JSON number, or NaN (HTA writes NaN as null). */
static inline double jnum(const struct jv *v)
{
	return v && v->type == JV_NUM ? v->num : NAN;
}

/* Item I of an array or object, or NULL. */
static inline const struct jv *item(const struct jv *v, size_t i)
{
	return v && (v->type == JV_ARR || v->type == JV_OBJ) && i < v->nr ? &v->items[i] : NULL;
}

/* The column called NAME of the frame F, or -1 (a failure: HTA's frame
 * lacks a column the test reads). */
static inline int column(const struct jv *f, const char *name)
{
	const struct jv *cols = jv_get(f, "columns");

	for (size_t i = 0; cols && i < cols->nr; i++)
		if (cols->items[i].type == JV_STR && !strcmp(cols->items[i].str, name))
			return (int)i;
	fprintf(stderr, "  no column %s\n", name);
	test_failed = 1;
	return -1;
}

#endif
