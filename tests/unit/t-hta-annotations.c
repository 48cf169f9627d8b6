// SPDX-License-Identifier: MIT
/*
 * The GPU side of the Annotations pane against Holistic Trace Analysis's
 * gpu_user_annotation_breakdown on every corpus trace
 * (hta-expected/<trace>__hta_gpu_user_annotation_breakdown.json): per
 * name, sum, max, min, mean and stddev within 1 us, computed under HTA's
 * conditions (model/name_stats.h's scope): its last profiler step left
 * out, and fractional timestamps rounded as its parser rounds them.  Where
 * HTA found no GPU annotation, proftui must find none either.
 */
#include <math.h>

#include "test.h"
#include "parity.h"
#include "jsonval.h"
#include "model/name_stats.h"

/* What HTA's loading looks at: whether the file had fractional
 * microseconds (its parser rounds every event then: ts is a float
 * column), and its ProfilerStep ranges on the CPU -- not proftui's steps,
 * which follow torch-tb-profiler's (they reach to the step's last GPU
 * work). */
struct hta_look {
	bool frac;
	size_t nr_steps;
	int64_t last_step_ns;
};

static bool hta_visit(struct node *n, void *ctx)
{
	struct hta_look *h = ctx;

	if (node_is_timed(n) && n->start_ns % 1000)
		h->frac = true;
	if (n->kind == NODE_STEP && node_is_timed(n)) {
		h->nr_steps++;
		if (h->nr_steps == 1 || n->start_ns > h->last_step_ns)
			h->last_step_ns = n->start_ns;
	}
	return true;
}

/* HTA's scope for P: without its last ProfilerStep when it has two or
 * more, rounded when the file's times have fractions. */
static struct name_stats_scope hta_scope(const struct profile *p)
{
	struct name_stats_scope s = { 0 };
	struct hta_look h = { 0 };

	node_walk(p->root, hta_visit, &h);
	if (h.nr_steps >= 2)
		s.before_ns = h.last_step_ns;
	s.round_like_hta = h.frac;
	return s;
}

static const struct name_row *row_of(const struct name_stats *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->rows[i].name, name))
			return &s->rows[i];
	return NULL;
}

static void check_trace(size_t i)
{
	char path[1024];
	struct profile p;
	struct jv doc;
	const struct jv *res, *table, *data;
	struct name_stats s;
	struct name_stats_scope scope;

	snprintf(path, sizeof(path), "%s/hta-expected/%s__hta_gpu_user_annotation_breakdown.json",
		 test_corpus_dir(), parity_traces[i]);
	if (jv_load(path, &doc)) {
		SKIP("no HTA output at ../shared/corpus/hta-expected (set PROFTUI_CORPUS)");
		return;
	}
	if (parity_load(i, &p)) {
		jv_free(&doc);
		SKIP("no corpus trace");
		return;
	}
	scope = hta_scope(&p);
	name_stats_make(&p, NAME_STATS_GPU_ANNOTATIONS, &scope, &s);
	res = jv_get(&doc, "result");
	if (!res) {
		/* HTA: "the trace has no gpu_user_annotation events". */
		CHECK(jv_get(&doc, "error") != NULL);
		CHECK_EQ(s.nr, 0);
	} else {
		table = jv_get(res, "gpu_user_annotation_breakdown");
		data = table ? jv_get(table, "data") : NULL;
		CHECK(data && data->type == JV_ARR);
		CHECK_EQ(s.nr, data ? data->nr : 0);
		for (size_t k = 0; data && k < data->nr; k++) {
			/* name, sum, max, min, stddev, mean, rank (us) */
			const struct jv *r = &data->items[k];
			const struct name_row *mine = row_of(&s, r->items[0].str);
			double sd;

			CHECK(mine != NULL);
			if (!mine)
				continue;
			CHECK(fabs((double)mine->total_ns / 1e3 - r->items[1].num) <= 1);
			CHECK(fabs((double)mine->max_ns / 1e3 - r->items[2].num) <= 1);
			CHECK(fabs((double)mine->min_ns / 1e3 - r->items[3].num) <= 1);
			/* HTA's std of one range is 0; proftui leaves it empty. */
			sd = isnan(mine->stddev_ns) ? 0 : mine->stddev_ns / 1e3;
			CHECK(mine->calls > 1 || isnan(mine->stddev_ns));
			CHECK(fabs(sd - r->items[4].num) <= 1);
			CHECK(fabs((double)mine->total_ns / 1e3 / (double)mine->calls -
				   r->items[5].num) <= 1);
		}
	}
	name_stats_release(&s);
	profile_release(&p);
	jv_free(&doc);
}

PARITY_TESTS(check_trace, "GPU annotations as HTA's gpu_user_annotation_breakdown");
