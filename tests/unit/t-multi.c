// SPDX-License-Identifier: MIT
/*
 * Panes over several profiles (view/pane_multi.c): in a diff, every m_base
 * and m_new of the JSON equals what --print gives for that file alone (the
 * number m of the same row), and m_delta and m_delta_pct follow from them;
 * across ranks, a row's mean, least and greatest are those of the ranks'
 * own rows.  On the hand-made pair and job of tests/golden.
 */
#include <math.h>

#include "model/profset.h"
#include "parsers/parser.h"
#include "test.h"
#include "view/export.h"
#include "view/pane_multi.h"
#include "jsonval.h"

static void load_json(struct pane *pane, struct jv *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct input in;
	struct diag d;
	struct json j;

	export_pane(pane, f, EXPORT_JSON, 0, NULL);
	fclose(f);
	diag_init(&d, "json", stderr, NULL);
	input_open_mem(&in, "json", buf, len);
	json_init(&j, &in, &d);
	CHECK(jv_read(&j, json_next(&j), out) == 0);
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
	free(buf);
}

/* The row of ROWS whose KEY is NAME. */
static const struct jv *row_named(const struct jv *rows, const char *key, const char *name)
{
	for (size_t i = 0; i < rows->nr; i++) {
		const struct jv *v = jv_get(&rows->items[i], key);

		if (v && v->type == JV_STR && !strcmp(v->str, name))
			return &rows->items[i];
	}
	return NULL;
}

static bool same_value(const struct jv *a, const struct jv *b)
{
	if (!a || !b)
		return !a && !b;
	if (a->type != b->type)
		return false;
	return a->type != JV_NUM || fabs(a->num - b->num) <= 1e-9 * (fabs(a->num) + 1);
}

/* Every number m of SINGLE's rows is m_SIDE of DIFF's row of that name. */
static void check_side(const struct jv *single, const struct jv *diff, const char *key,
		       const char *side)
{
	for (size_t i = 0; i < single->nr; i++) {
		const struct jv *row = &single->items[i];
		const char *name = jv_get(row, key)->str;
		const struct jv *d = row_named(diff, key, name);

		CHECK(d != NULL);
		for (size_t k = 0; d && k < row->nr; k++) {
			char m[256];

			if (row->items[k].type != JV_NUM)
				continue;
			snprintf(m, sizeof(m), "%s_%s", row->keys[k], side);
			if (!same_value(&row->items[k], jv_get(d, m))) {
				fprintf(stderr, "  %s '%s': %s = %s, single %s\n", key, name, m,
					jv_get(d, m) ? jv_get(d, m)->str : "absent", row->items[k].str);
				test_failed = 1;
			}
		}
	}
}

/* m_delta = m_new - m_base (an absent side 0), m_delta_pct by the base. */
static void check_deltas(const struct jv *diff)
{
	for (size_t i = 0; i < diff->nr; i++) {
		const struct jv *row = &diff->items[i];

		for (size_t k = 0; k < row->nr; k++) {
			size_t n = strlen(row->keys[k]);
			char stem[256], key[300];
			const struct jv *b, *w, *d, *p;

			if (n < 6 || strcmp(row->keys[k] + n - 5, "_base") || n - 5 >= sizeof(stem))
				continue;
			memcpy(stem, row->keys[k], n - 5);
			stem[n - 5] = '\0';
			b = &row->items[k];
			snprintf(key, sizeof(key), "%s_new", stem);
			w = jv_get(row, key);
			snprintf(key, sizeof(key), "%s_delta", stem);
			d = jv_get(row, key);
			snprintf(key, sizeof(key), "%s_delta_pct", stem);
			p = jv_get(row, key);
			CHECK(w && d && p);
			if (!w || !d || !p || (b->type != JV_NUM && w->type != JV_NUM))
				continue;
			CHECK(d->type == JV_NUM);
			CHECK(fabs(d->num - ((w->type == JV_NUM ? w->num : 0) - (b->type == JV_NUM ? b->num : 0))) < 1e-5);
			if (b->type == JV_NUM && w->type == JV_NUM && b->num != 0)
				CHECK(fabs(p->num - 100 * (w->num - b->num) / fabs(b->num)) < 1e-4);
			else
				CHECK(p->type == JV_NULL);
		}
	}
}

static void test_diff_sides(void)
{
	const char *paths[2] = { "tests/golden/diff/base.json", "tests/golden/diff/new.json" };
	static const char *const panes[][2] = { { "ops", "name" }, { "kernels", "name" },
						{ "steps", "step" } };
	struct profile p[2];
	struct profset_member m[2] = { { 0 } };
	struct profset set = { .kind = PROFSET_DIFF, .members = m, .nr = 2 };
	struct pane_scope scope = { .set = &set };
	char msg[4096];

	for (int i = 0; i < 2; i++) {
		CHECK(test_load(&p[i], paths[i], NULL, msg, sizeof(msg)) == 0);
		m[i].prof = &p[i];
	}
	for (size_t k = 0; k < sizeof(panes) / sizeof(panes[0]); k++) {
		const struct pane_ops *ops = pane_ops_find(panes[k][0]);
		struct pane *d = pane_open(ops, &p[1], &scope);
		struct jv dj, sj[2];

		load_json(d, &dj);
		for (int i = 0; i < 2; i++) {
			struct pane *s = pane_new(ops, &p[i], NULL);

			load_json(s, &sj[i]);
			check_side(&sj[i], &dj, panes[k][1], i ? "new" : "base");
			pane_free(s);
			jv_free(&sj[i]);
		}
		check_deltas(&dj);
		jv_free(&dj);
		pane_free(d);
	}
	for (int i = 0; i < 2; i++)
		profile_release(&p[i]);
	(void)jv_load;	/* jsonval.h's file reader: not needed here */
}

static void test_across_ranks(void)
{
	const char *paths[3] = { "tests/golden/ranks/job/worker0.pt.trace.json",
				 "tests/golden/ranks/job/worker1.pt.trace.json",
				 "tests/golden/ranks/job/worker2.pt.trace.json" };
	struct profile p[3];
	struct profset_member m[3] = { { 0 } };
	struct profset set = { .kind = PROFSET_RANKS, .members = m, .nr = 3 };
	struct pane_scope scope = { .set = &set };
	struct jv across, one[3];
	const struct jv *row;
	char msg[4096];
	struct pane *pane;

	for (int i = 0; i < 3; i++) {
		CHECK(test_load(&p[i], paths[i], NULL, msg, sizeof(msg)) == 0);
		m[i].prof = &p[i];
		m[i].rank = i;
		pane = pane_new(pane_types[PANE_KERNELS], &p[i], NULL);
		load_json(pane, &one[i]);
		pane_free(pane);
	}
	pane = pane_open(pane_types[PANE_KERNELS], &p[0], &scope);
	load_json(pane, &across);
	row = row_named(&across, "name", "gemm_kernel");
	CHECK(row != NULL);
	if (row) {
		double v[3], sum = 0;

		for (int i = 0; i < 3; i++) {
			v[i] = jv_get(row_named(&one[i], "name", "gemm_kernel"), "total_us")->num;
			sum += v[i];
		}
		CHECK(fabs(jv_get(row, "total_us")->num - sum / 3) < 1e-3);
		CHECK(jv_get(row, "total_us_min")->num == v[0]);
		CHECK(jv_get(row, "total_us_max")->num == v[2]);
		CHECK(jv_get(row, "total_us_max_rank")->num == 2);
		CHECK(jv_get(row, "nr_ranks")->num == 3);
	}
	pane_free(pane);
	jv_free(&across);
	for (int i = 0; i < 3; i++) {
		jv_free(&one[i]);
		profile_release(&p[i]);
	}
}

const struct test tests[] = {
	{ "a diff's sides are what each file prints alone", test_diff_sides },
	{ "across ranks: mean, least and greatest of the ranks' rows", test_across_ranks },
	{ 0 },
};
