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
#include "hta-step.h"
#include "model/name_stats.h"

/* HTA's conditions for P: its rounding (nothing to round in a trace of
 * whole microseconds), and its last-step filter. */
static struct name_stats_scope hta_scope(const struct profile *p)
{
	struct name_stats_scope s = { .round_like_hta = true };

	hta_last_step(p, &s.before_ns);
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
