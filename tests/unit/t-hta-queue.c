/* SPDX-License-Identifier: MIT */
/*
 * Queue length (model/queue_length.c) against Holistic Trace Analysis's
 * get_queue_length_summary() and get_queue_length_time_series() on every
 * corpus trace where HTA produced them (corpus/hta-expected and
 * hta-expected-multi, <base>__hta_queue_length.json, README.md there,
 * section 7).  proftui runs under HTA's conditions, through
 * queue_options only: times rounded up to whole microseconds, only the
 * launches before the last ProfilerStep, only HTA's launching calls.
 * Tie-insensitively: HTA sorts the changes with an unstable sort, so
 * changes at one time come in any order.  Per stream, the time series:
 * at each time, the number of changes and the length after them all
 * equal (times relative to the first change); and describe() of the
 * lengths within 1e-6 relative, count exactly, as check_summary() says.  The time
 * blocked on a full queue: HTA's rows, and none where it has none.
 */
#include <math.h>

#include "model/queue_length.h"
#include "parsers/load.h"
#include "test.h"
#include "jsonval.h"
#include "hta-cases.h"
#include "hta-step.h"


static int nr_bad;

static void near(const char *what, const char *where, double ours, double ref)
{
	double tol = 1e-6 * fabs(ref) + 1e-9;

	if (isnan(ours) && isnan(ref))
		return;
	if (isnan(ours) != isnan(ref) || fabs(ours - ref) > tol) {
		if (nr_bad++ < 20)
			fprintf(stderr, "  %s %s: proftui %.17g, HTA %.17g\n", where, what, ours, ref);
		test_failed = 1;
	}
}

static const struct queue_stream *find_stream(const struct queue_lengths *q, double stream)
{
	for (size_t i = 0; i < q->nr_streams; i++)
		if (q->streams[i].stream == stream)
			return &q->streams[i];
	return NULL;
}

/* Whether REF lies in [LO, HI] (either way round), within 1e-6. */
static void between(const char *what, const char *where, double lo, double hi, double ref)
{
	double tol = 1e-6 * fabs(ref) + 1e-9;

	if (lo > hi) {
		double t = lo;

		lo = hi;
		hi = t;
	}
	if (!(ref >= lo - tol && ref <= hi + tol)) {
		if (nr_bad++ < 20)
			fprintf(stderr, "  %s %s: HTA %.17g not in proftui's [%.17g, %.17g]\n", where,
				what, ref, lo, hi);
		test_failed = 1;
	}
}

/*
 * HTA's summary per stream.  At one time HTA's changes come in the order
 * of an unstable sort, which moves the lengths between them: each point's
 * length lies between its length with launches first (proftui's order,
 * Q) and with starts first (QS), and so do the mean, minimum, quartiles
 * and maximum of any order.  So: the count exactly; those six between
 * the two bounds; and every figure, the standard deviation too, equal to
 * describe() of HTA's own time series in its own order (SERIES), which
 * check_series() holds equal to ours but for the order of ties.
 */
static void check_summary(const struct queue_lengths *q, const struct queue_lengths *qs,
			  const struct jv *f, const struct jv *series)
{
	const struct jv *index = jv_get(f, "index"), *data = jv_get(f, "data");
	const struct jv *rows = jv_get(series, "data");
	size_t nr = 0;

	for (size_t i = 0; index && data && i < index->nr && i < data->nr; i++) {
		double stream = jnum(item(item(index, i), 1));
		const struct jv *row = item(data, i);
		const struct queue_stream *s = find_stream(q, stream), *b = find_stream(qs, stream);
		const struct describe *d, *e;
		struct describe h;
		double *v;
		size_t n = 0;
		char where[64];

		snprintf(where, sizeof(where), "stream %g", stream);
		if (!s || !b) {
			fprintf(stderr, "  %s: not in proftui's\n", where);
			test_failed = 1;
			continue;
		}
		nr++;
		d = &s->summary;
		e = &b->summary;
		CHECK_EQ((double)d->count, jnum(item(row, 0)));
		between("mean", where, d->mean, e->mean, jnum(item(row, 1)));
		between("min", where, d->min, e->min, jnum(item(row, 3)));
		between("25%", where, d->p25, e->p25, jnum(item(row, 4)));
		between("50%", where, d->p50, e->p50, jnum(item(row, 5)));
		between("75%", where, d->p75, e->p75, jnum(item(row, 6)));
		between("max", where, d->max, e->max, jnum(item(row, 7)));
		v = xmalloc((rows ? rows->nr : 0) * sizeof(*v) + 1);
		for (size_t k = 0; rows && k < rows->nr; k++)
			if (jnum(item(item(rows, k), 3)) == stream)
				v[n++] = jnum(item(item(rows, k), 4));
		describe_values(v, n, &h);
		free(v);
		CHECK_EQ((double)h.count, jnum(item(row, 0)));
		near("mean of HTA's series", where, h.mean, jnum(item(row, 1)));
		near("std of HTA's series", where, h.std, jnum(item(row, 2)));
		near("min of HTA's series", where, h.min, jnum(item(row, 3)));
		near("25% of HTA's series", where, h.p25, jnum(item(row, 4)));
		near("50% of HTA's series", where, h.p50, jnum(item(row, 5)));
		near("75% of HTA's series", where, h.p75, jnum(item(row, 6)));
		near("max of HTA's series", where, h.max, jnum(item(row, 7)));
	}
	CHECK_EQ(nr, q->nr_streams);
}

/* The time series of one rank's frame F: per stream, at each time, the
 * number of changes and the length after the last of them. */
static void check_series(const struct queue_lengths *q, const struct jv *f)
{
	const struct jv *data = jv_get(f, "data");

	for (size_t k = 0; k < q->nr_streams; k++) {
		const struct queue_stream *s = &q->streams[k];
		size_t i = 0, at = 0;
		double first = NAN;
		long len = 0;

		/* HTA's rows of this stream, in its order (time order with
		 * ties in any order). */
		while (at < s->nr_points) {
			size_t j = at, n_ours, n_hta = 0;
			int64_t t = s->points[at].t_ns;
			double t_hta = NAN;

			while (j < s->nr_points && s->points[j].t_ns == t)
				j++;
			n_ours = j - at;
			for (; data && i < data->nr; i++) {
				const struct jv *row = item(data, i);
				double ts = jnum(item(row, 0));

				if (jnum(item(row, 3)) != s->stream)
					continue;
				if (isnan(first))
					first = ts - (double)(t - s->points[0].t_ns) / 1e3;
				if (!isnan(t_hta) && ts != t_hta)
					break;
				t_hta = ts;
				n_hta++;
				len = (long)jnum(item(row, 4));
			}
			if (n_hta != n_ours || t_hta - first != (double)(t - s->points[0].t_ns) / 1e3 ||
			    len != s->points[j - 1].length) {
				if (nr_bad++ < 20)
					fprintf(stderr,
						"  stream %d at %.3f us: proftui %zu changes to %d, HTA %zu "
						"at %.3f to %ld\n",
						s->stream, (double)(t - s->points[0].t_ns) / 1e3, n_ours,
						s->points[j - 1].length, n_hta, t_hta - first, len);
				test_failed = 1;
				return;
			}
			at = j;
		}
	}
}

static void check_case(size_t i)
{
	char trace[1024], path[1200];
	const char *corpus = test_corpus_dir();
	const char *paths[1];
	struct load_options lo = { 0 };
	struct queue_options o;
	struct queue_lengths q, qs;
	struct profile p;
	struct jv doc;
	const struct jv *result, *series, *blocked;
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/%s", corpus, hta_cases[i].trace);
	snprintf(path, sizeof(path), "%s/%s__hta_queue_length.json", corpus, hta_cases[i].expected);
	if (!(f = fopen(trace, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	nr_bad = 0;
	paths[0] = trace;
	lo.err = fopen("/dev/null", "w");
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	if (lo.err)
		fclose(lo.err);
	queue_options_default(&o);
	o.round_like_hta = true;
	o.hta_launch_names = true;
	hta_last_step(&p, &o.launched_before_ns);
	queue_compute(&p, &o, &q);
	o.starts_first = true;
	queue_compute(&p, &o, &qs);
	CHECK_EQ(jv_load(path, &doc), 0);
	result = jv_get(&doc, "result");
	CHECK(result != NULL);
	if (result) {
		series = jv_get(result, "time_series");
		/* One frame per rank: the trace's one rank. */
		CHECK(series && series->nr == 1);
		if (series && series->nr == 1) {
			check_summary(&q, &qs, jv_get(result, "summary"), item(series, 0));
			check_series(&q, item(series, 0));
		}
		/* No stream of the corpus is ever blocked; nor is ours. */
		blocked = jv_get(jv_get(result, "blocked_on_full_queue"), "data");
		CHECK(blocked && blocked->nr == 0);
		for (size_t k = 0; k < q.nr_streams; k++)
			CHECK_EQ(q.streams[k].blocked_ns, 0);
	}
	jv_free(&doc);
	queue_release(&qs);
	queue_release(&q);
	profile_release(&p);
}

/* The CPU-only trace: HTA returns None (no launch with a GPU event);
 * proftui has no stream. */
static void t_cpu_only(void)
{
	char trace[1024];
	const char *corpus = test_corpus_dir();
	const char *paths[1] = { trace };
	struct load_options lo = { 0 };
	struct queue_lengths q;
	struct profile p;
	FILE *f;

	snprintf(trace, sizeof(trace), "%s/pytorch-kineto-trace/%s", corpus,
		 "hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
	if (!(f = fopen(trace, "rb")))
		SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
	fclose(f);
	lo.err = fopen("/dev/null", "w");
	profile_init(&p, trace);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	if (lo.err)
		fclose(lo.err);
	queue_compute(&p, NULL, &q);
	CHECK_EQ(q.nr_streams, 0);
	queue_release(&q);
	profile_release(&p);
}

static void t_amd(void) { check_case(0); }
static void t_simple_add(void) { check_case(1); }
static void t_ns_resolution(void) { check_case(2); }
static void t_triton(void) { check_case(3); }
static void t_resnet0(void) { check_case(4); }
static void t_resnet4(void) { check_case(5); }
static void t_bert(void) { check_case(6); }
static void t_diff_control(void) { check_case(7); }
static void t_diff_test(void) { check_case(8); }
static void t_multi_resnet0(void) { check_case(9); }
static void t_multi_resnet4(void) { check_case(10); }

const struct test tests[] = {
	{ "amd mi250", t_amd },
	{ "simple add", t_simple_add },
	{ "ns resolution", t_ns_resolution },
	{ "triton", t_triton },
	{ "resnet50 workers 0", t_resnet0 },
	{ "resnet50 workers 4", t_resnet4 },
	{ "bert h100", t_bert },
	{ "trace diff control", t_diff_control },
	{ "trace diff test", t_diff_test },
	{ "multi resnet50 workers 0", t_multi_resnet0 },
	{ "multi resnet50 workers 4", t_multi_resnet4 },
	{ "cpu only: no stream", t_cpu_only },
	{ 0 },
};
