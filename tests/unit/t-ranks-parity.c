// SPDX-License-Identifier: MIT
/*
 * Parity with torch-tb-profiler's Distributed view on the corpus set that
 * has one (pytorch-kineto-multi/hta_trace_diff: two NCCL traces read as
 * the workers "control" and "test"): per step and for "all" (the plugin's
 * per-step mean, truncated), Computation, Overlapping, Communication and
 * Other (distributed__steps_to_overlap.json), Data Transfer and
 * Synchronizing time (steps_to_wait), and each worker's comm-ops table
 * (comm_ops), all within 1 us, sizes to the byte.  Skips without the
 * corpus.
 */
#include <math.h>
#include <unistd.h>

#include "model/distributed.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"

static int nr_bad;

static void near(const char *where, const char *what, double ours_us, double ref_us)
{
	if (fabs(ours_us - ref_us) <= 1.0 + 1e-9)
		return;
	if (nr_bad++ < 20)
		fprintf(stderr, "  %s: %s: ours %.3f, reference %.3f\n", where, what, ours_us, ref_us);
	test_failed = 1;
}

static double num(const struct jv *v)
{
	return v && v->type == JV_NUM ? v->num : NAN;
}

static const char *const workers[] = { "control", "test" };

static void test_hta(void)
{
	char path[1024], msg[4096];
	struct profile p[2];
	struct rank_local local[2];
	const struct rank_local *lp[2] = { &local[0], &local[1] };
	struct rank_dist dist[2];
	struct jv overlap, wait, ops;
	const char *why;

	snprintf(path, sizeof(path), "%s/tb-plugin-expected/generated-multi/hta_trace_diff/"
		 "distributed__steps_to_overlap.json", test_corpus_dir());
	if (access(path, R_OK) || jv_load(path, &overlap))
		SKIP("no corpus set hta_trace_diff under ../shared/corpus");
	snprintf(path, sizeof(path), "%s/tb-plugin-expected/generated-multi/hta_trace_diff/"
		 "distributed__steps_to_wait.json", test_corpus_dir());
	CHECK(jv_load(path, &wait) == 0);
	snprintf(path, sizeof(path), "%s/tb-plugin-expected/generated-multi/hta_trace_diff/"
		 "distributed__comm_ops.json", test_corpus_dir());
	CHECK(jv_load(path, &ops) == 0);
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/pytorch-kineto-multi/hta_trace_diff/%s.json.gz",
			 test_corpus_dir(), workers[k]);
		CHECK(test_load(&p[k], path, NULL, msg, sizeof(msg)) == 0);
		rank_local_of(&p[k], &local[k]);
	}
	CHECK(rank_dist_compute(lp, 2, dist, &why));
	nr_bad = 0;
	for (int k = 0; k < 2; k++) {
		const struct jv *data = jv_get(&overlap, "data"), *wdata = jv_get(&wait, "data");
		int64_t sum[4] = { 0 }, wsum[2] = { 0 };
		size_t nr_wait = 0;
		char where[128];

		for (size_t s = 0; s < p[k].nr_steps; s++) {
			const struct step_overlap *o = &local[k].steps[s];
			const struct jv *ref = jv_get(jv_get(data, p[k].steps[s].name), workers[k]);
			int64_t v[4] = { o->computation - o->overlap, o->overlap,
					 o->communication - o->overlap, o->other };

			snprintf(where, sizeof(where), "%s step %s", workers[k], p[k].steps[s].name);
			CHECK(ref && ref->nr == 4);
			for (int i = 0; ref && i < 4; i++) {
				static const char *const what[] = { "computation", "overlapping",
								    "communication", "other" };

				near(where, what[i], v[i] / 1e3, num(&ref->items[i]));
				sum[i] += v[i];
			}
			ref = jv_get(jv_get(wdata, p[k].steps[s].name), workers[k]);
			if (dist[k].has_calls[s]) {
				CHECK(ref && ref->nr == 2);
				if (ref) {
					near(where, "data transfer", dist[k].transfer_ns[s] / 1e3,
					     num(&ref->items[0]));
					near(where, "synchronizing",
					     (dist[k].comm_ns[s] - dist[k].transfer_ns[s]) / 1e3,
					     num(&ref->items[1]));
				}
				wsum[0] += dist[k].transfer_ns[s];
				wsum[1] += dist[k].comm_ns[s] - dist[k].transfer_ns[s];
				nr_wait++;
			} else {
				CHECK(!ref);
			}
		}
		snprintf(where, sizeof(where), "%s all", workers[k]);
		for (int i = 0; i < 4; i++)
			near(where, "mean", (double)(sum[i] / (int64_t)p[k].nr_steps) / 1e3,
			     num(&jv_get(jv_get(data, "all"), workers[k])->items[i]));
		for (int i = 0; nr_wait && i < 2; i++)
			near(where, "wait mean", (double)(wsum[i] / (int64_t)nr_wait) / 1e3,
			     num(&jv_get(jv_get(wdata, "all"), workers[k])->items[i]));
		/* The comm-ops table: Name, Calls, Total Size, Avg Size, Total
		 * Latency, Avg Latency, Data Transfer, Avg Data Transfer. */
		{
			const struct jv *rows = jv_get(jv_get(jv_get(&ops, "data"), workers[k]), "rows");

			CHECK(rows && rows->nr == dist[k].nr_ops);
			for (size_t r = 0; rows && r < rows->nr && r < dist[k].nr_ops; r++) {
				const struct jv *row = &rows->items[r];
				const struct comm_op *op = &dist[k].ops[r];

				CHECK_STR(op->name, row->items[0].str);
				near(where, "calls", (double)op->calls, num(&row->items[1]));
				CHECK(fabs((double)op->size_bytes - num(&row->items[2])) < 0.5);
				CHECK(fabs(op->size_bytes / (double)op->calls -
					   num(&row->items[3])) < 1);
				near(where, "latency", op->latency_ns / 1e3, num(&row->items[4]));
				near(where, "avg latency", op->latency_ns / 1e3 / (double)op->calls,
				     num(&row->items[5]));
				near(where, "data transfer", op->transfer_ns / 1e3, num(&row->items[6]));
				near(where, "avg data transfer", op->transfer_ns / 1e3 / (double)op->calls,
				     num(&row->items[7]));
			}
		}
	}
	for (int k = 0; k < 2; k++) {
		rank_dist_release(&dist[k]);
		rank_local_release(&local[k]);
		profile_release(&p[k]);
	}
	jv_free(&overlap);
	jv_free(&wait);
	jv_free(&ops);
}

static void test_stragglers(void)
{
	int64_t step[] = { 100, 100, 115, 100 }, comp[] = { 50, 60, 50, 50 }, sync[] = { 9000, 8000, 9000, 500 };
	uint8_t marks[4];

	rank_stragglers(step, comp, sync, 4, marks);
	CHECK_EQ(marks[0], 0);
	CHECK_EQ(marks[1], STRAGGLER_SLOW_COMPUTE);	/* 60 >= 1.1 * 50 */
	CHECK_EQ(marks[2], STRAGGLER_SLOW_STEP);
	CHECK_EQ(marks[3], STRAGGLER_WAITED_FOR);	/* waits least, far below the median */
}

const struct test tests[] = {
	{ "the Distributed view equals torch-tb-profiler's on hta_trace_diff", test_hta },
	{ "stragglers: 10% above the median, and the rank the others wait for", test_stragglers },
	{ 0 },
};
