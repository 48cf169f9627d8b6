// SPDX-License-Identifier: MIT
/*
 * Parity of the Memory view with torch-tb-profiler on the corpus: for each
 * trace the plugin made a Memory view of, the statistics per operator and
 * device (memory_stats: calls, the six sizes and counts in KB), the
 * allocation/release events (memory_events, row by row in the plugin's
 * order) and the curve (memory_curve_summary: points, peaks, the first and
 * last point) equal the plugin's after its rounding; for each trace it
 * made none of, there are no memory events.  Reads ../shared/corpus;
 * skips when it is absent.
 */
#include <math.h>

#include "model/memory.h"
#include "parsers/parser.h"
#include "test.h"
#include "jsonval.h"

#include "parity.h"

static int nr_bad;

/* A value the plugin rounded for display (utils.DisplayRounder: 2
 * decimals, more below 0.01): ours must round to it. */
static void near_rounded(const char *what, const char *name, double ours, double ref)
{
	double tol = 0.005 + 1e-9;

	if (ref != 0 && fabs(ref) < 0.01)
		tol = 0.5 * pow(10, floor(log10(fabs(ref)))) + 1e-12;
	if (fabs(ours - ref) <= tol)
		return;
	if (nr_bad++ < 15)
		fprintf(stderr, "  %s of '%.60s': ours %.6f, reference %.6f\n", what, name, ours, ref);
	test_failed = 1;
}

static void same(const char *what, const char *name, double ours, double ref, double tol)
{
	if (fabs(ours - ref) <= tol)
		return;
	if (nr_bad++ < 15)
		fprintf(stderr, "  %s of '%.60s': ours %.6f, reference %.6f\n", what, name, ours, ref);
	test_failed = 1;
}

/* The plugin's device names: "CPU", "GPU0" (CUDA's; it has no others). */
static struct mem_device device_of(const char *name)
{
	if (!strcmp(name, "CPU"))
		return (struct mem_device){ -1, DEVICE_CPU };
	return (struct mem_device){ atoi(name + 3), DEVICE_CUDA };
}

static void check_stats(const struct profile *p, const char *path)
{
	struct jv doc;
	const struct jv *rows;
	struct mem_stats st;
	size_t nr_ref = 0;

	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	mem_stats(p, NULL, &st);
	rows = jv_get(&doc, "rows");
	for (size_t d = 0; rows && d < rows->nr; d++) {
		struct mem_device dev = device_of(rows->keys[d]);
		const struct jv *list = &rows->items[d];

		for (size_t i = 0; i < list->nr; i++) {
			const struct jv *r = &list->items[i];
			const char *name = r->items[0].str;
			const struct mem_stat *s = NULL;

			nr_ref++;
			for (size_t k = 0; k < st.nr && !s; k++)
				if (mem_device_eq(st.rows[k].device, dev) && !strcmp(st.rows[k].name, name))
					s = &st.rows[k];
			if (!s) {
				if (nr_bad++ < 15)
					fprintf(stderr, "  %s row '%s' missing\n", rows->keys[d], name);
				test_failed = 1;
				continue;
			}
			same("calls", name, (double)s->calls, r->items[1].num, 0);
			near_rounded("size increase", name, s->size_increase / 1024.0, r->items[2].num);
			near_rounded("self size increase", name, s->self_size_increase / 1024.0,
				     r->items[3].num);
			same("allocation count", name, (double)s->alloc_count, r->items[4].num, 0);
			same("self allocation count", name, (double)s->self_alloc_count, r->items[5].num, 0);
			near_rounded("allocation size", name, s->alloc_size / 1024.0, r->items[6].num);
			near_rounded("self allocation size", name, s->self_alloc_size / 1024.0,
				     r->items[7].num);
		}
	}
	if (st.nr != nr_ref) {
		fprintf(stderr, "  %zu statistics rows, reference has %zu\n", st.nr, nr_ref);
		test_failed = 1;
	}
	mem_stats_release(&st);
	jv_free(&doc);
}

static void check_events(const struct profile *p, const char *path)
{
	struct jv doc;
	const struct jv *rows;
	struct mem_event_rows ev;
	size_t nr_ref = 0;

	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	mem_event_rows(p, NULL, &ev);
	rows = jv_get(&doc, "rows");
	for (size_t d = 0; rows && d < rows->nr; d++) {
		struct mem_device dev = device_of(rows->keys[d]);
		const struct jv *list = &rows->items[d];
		size_t k = 0;

		for (size_t i = 0; i < list->nr; i++, k++) {
			const struct jv *r = &list->items[i];
			const struct mem_event_row *e;
			char name[1024];

			nr_ref++;
			while (k < ev.nr && !mem_device_eq(ev.rows[k].device, dev))
				k++;
			if (k >= ev.nr) {
				fprintf(stderr, "  %s: %zu event rows, reference has more\n",
					rows->keys[d], i);
				test_failed = 1;
				break;
			}
			e = &ev.rows[k];
			if (e->parent)
				snprintf(name, sizeof(name), "%s (%s)", e->parent, e->op);
			else
				snprintf(name, sizeof(name), "%s", e->op ? e->op : "<unknown>");
			if (strcmp(name, r->items[0].str)) {
				if (nr_bad++ < 15)
					fprintf(stderr, "  %s event %zu: ours '%s', reference '%s'\n",
						rows->keys[d], i, name, r->items[0].str);
				test_failed = 1;
			}
			near_rounded("size", name, e->size_bytes / 1024.0, r->items[1].num);
			if ((e->alloc_ns < 0) != (r->items[2].type == JV_NULL) ||
			    (e->release_ns < 0) != (r->items[3].type == JV_NULL)) {
				if (nr_bad++ < 15)
					fprintf(stderr, "  %s event %zu: a time missing on one side\n",
						rows->keys[d], i);
				test_failed = 1;
				continue;
			}
			if (e->alloc_ns >= 0)
				near_rounded("allocation time", name, e->alloc_ns / 1e6, r->items[2].num);
			if (e->release_ns >= 0)
				near_rounded("release time", name, e->release_ns / 1e6, r->items[3].num);
			if (e->alloc_ns >= 0 && e->release_ns >= 0)
				near_rounded("duration", name, (e->release_ns - e->alloc_ns) / 1e6,
					     r->items[4].num);
		}
	}
	if (ev.nr != nr_ref) {
		fprintf(stderr, "  %zu event rows, reference has %zu\n", ev.nr, nr_ref);
		test_failed = 1;
	}
	mem_event_rows_release(&ev);
	jv_free(&doc);
}

static void check_curve(const struct profile *p, const char *path)
{
	struct jv doc;
	const struct jv *sum, *first_ts;
	struct mem_curves cv;
	size_t nr_ref = 0;

	if (jv_load(path, &doc)) {
		test_failed = 1;
		return;
	}
	mem_curves(p, NULL, &cv);
	sum = jv_get(&doc, "summary");
	first_ts = jv_get(jv_get(&doc, "metadata"), "first_ts");
	/* Times since the profiler started: the same origin. */
	CHECK(p->has_time_origin);
	if (first_ts)
		same("time origin", "trace",
		     (double)(p->time_origin_ns / 1000) + (double)(p->time_origin_ns % 1000) / 1e3,
		     first_ts->num, 0.001);
	for (size_t d = 0; sum && d < sum->nr; d++) {
		struct mem_device dev = device_of(sum->keys[d]);
		const struct jv *s = &sum->items[d];
		const struct mem_curve *c = NULL;

		nr_ref++;
		for (size_t k = 0; k < cv.nr; k++)
			if (mem_device_eq(cv.curves[k].device, dev))
				c = &cv.curves[k];
		if (!c) {
			fprintf(stderr, "  no curve for %s\n", sum->keys[d]);
			test_failed = 1;
			continue;
		}
		/* The plugin doubles the points to draw steps: n -> 2n - 1. */
		same("points", sum->keys[d], (double)(2 * c->nr - 1), jv_get(s, "points")->num, 0);
		same("peak allocated", sum->keys[d], (double)c->peak_allocated,
		     jv_get(s, "peak_allocated_bytes")->num, 0);
		same("peak reserved", sum->keys[d], (double)c->peak_reserved,
		     jv_get(s, "peak_reserved_bytes")->num, 0);
		for (int end = 0; end < 2 && c->nr; end++) {
			const struct jv *pt = jv_get(s, end ? "last" : "first");
			const struct mem_point *m = &c->points[end ? c->nr - 1 : 0];

			same("time", sum->keys[d], (m->ts_ns - p->time_origin_ns) / 1e6, pt->items[0].num,
			     1e-6);
			same("allocated", sum->keys[d], m->allocated / 1048576.0, pt->items[1].num, 1e-9);
			same("reserved", sum->keys[d], m->reserved / 1048576.0, pt->items[2].num, 1e-9);
		}
	}
	if (cv.nr != nr_ref) {
		fprintf(stderr, "  %zu curves, reference has %zu\n", cv.nr, nr_ref);
		test_failed = 1;
	}
	mem_curves_release(&cv);
	jv_free(&doc);
}

static void check_trace(size_t i)
{
	struct profile p;
	char path[1200];

	if (parity_load(i, &p))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	nr_bad = 0;
	if (!parity_path(i, "memory_stats", path, sizeof(path))) {
		/* No Memory view there: no memory events here. */
		CHECK_EQ(p.nr_mem_events, 0);
		profile_release(&p);
		return;
	}
	check_stats(&p, path);
	if (parity_path(i, "memory_events", path, sizeof(path)))
		check_events(&p, path);
	if (parity_path(i, "memory_curve_summary", path, sizeof(path)))
		check_curve(&p, path);
	profile_release(&p);
}

PARITY_TESTS(check_trace, "memory view");
