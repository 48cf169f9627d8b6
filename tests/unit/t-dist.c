// SPDX-License-Identifier: MIT
/*
 * Distributions (model/dist.h): percentiles by linear interpolation
 * between the closest ranks, the sample standard deviation, the 1-2-5
 * histogram and the radix sort, on n = 0, 1, 2, ties, values near
 * INT64_MAX, sorted and reverse-sorted input and a million equal values;
 * then the lazy rows of an aggregation on small profiles made by hand:
 * a kernel row's P90 against its own events, a step, a pre-aggregated
 * node, ops by host time, a capped total.
 */
#include <math.h>

#include "model/dist.h"
#include "model/name_stats.h"
#include "test.h"

static void test_empty_and_one(void)
{
	int64_t one[1] = { 42 };
	struct dist d;
	struct dist_bin bins[DIST_MAX_BINS];

	CHECK_EQ(dist_percentile(NULL, 0, 50), -1);
	dist_of_sorted(NULL, 0, &d);
	CHECK_EQ(d.n, 0);
	CHECK(isnan(d.stddev_ns));
	CHECK_EQ(dist_histogram(NULL, 0, bins), 0);
	dist_of_sorted(one, 1, &d);
	CHECK_EQ(d.n, 1);
	CHECK_EQ(d.min_ns, 42);
	CHECK_EQ(d.max_ns, 42);
	CHECK_EQ(d.mean_ns, 42);
	CHECK_EQ(d.median_ns, 42);
	CHECK_EQ(d.p90_ns, 42);
	CHECK_EQ(d.p99_ns, 42);
	CHECK(isnan(d.stddev_ns));	/* one duration: no spread defined */
}

/* numpy.percentile([100, 200], [50, 90, 99]) = 150, 190, 199. */
static void test_two(void)
{
	int64_t v[2] = { 100, 200 };
	int64_t odd[2] = { 1, 2 };
	struct dist d;

	dist_of_sorted(v, 2, &d);
	CHECK_EQ(d.median_ns, 150);
	CHECK_EQ(d.p90_ns, 190);
	CHECK_EQ(d.p99_ns, 199);
	CHECK_EQ(d.mean_ns, 150);
	CHECK(fabs(d.stddev_ns - 70.71067811865476) < 1e-9);
	/* 1.5, 1.9, 1.99: half away from zero, and to the nearest. */
	CHECK_EQ(dist_percentile(odd, 2, 50), 2);
	CHECK_EQ(dist_percentile(odd, 2, 90), 2);
	CHECK_EQ(dist_percentile(odd, 2, 10), 1);
	CHECK_EQ(dist_percentile(odd, 2, 0), 1);
	CHECK_EQ(dist_percentile(odd, 2, 100), 2);
}

/* numpy.percentile(range(1, 11), [50, 90, 99]) = 5.5, 9.1, 9.91 on
 * values of 1000 ns each: 5500, 9100, 9910. */
static void test_ranks(void)
{
	int64_t v[10];

	for (int i = 0; i < 10; i++)
		v[i] = (i + 1) * 1000;
	CHECK_EQ(dist_percentile(v, 10, 50), 5500);
	CHECK_EQ(dist_percentile(v, 10, 90), 9100);
	CHECK_EQ(dist_percentile(v, 10, 99), 9910);
	CHECK_EQ(dist_percentile(v, 10, 0), 1000);
	CHECK_EQ(dist_percentile(v, 10, 100), 10000);
}

static void test_ties(void)
{
	int64_t v[] = { 5, 5, 5, 7, 7, 7, 7 };
	struct dist d;

	dist_of_sorted(v, 7, &d);
	CHECK_EQ(d.median_ns, 7);	/* rank 3 */
	CHECK_EQ(d.p90_ns, 7);
	CHECK_EQ(d.min_ns, 5);
	CHECK_EQ(d.mean_ns, 6);		/* 43 / 7 = 6.14 */
}

/* Values near INT64_MAX: the mean, the interpolation and the spread
 * neither wrap nor saturate, where an int64 sum would. */
static void test_huge(void)
{
	int64_t v[3] = { INT64_MAX - 2, INT64_MAX - 1, INT64_MAX };
	int64_t w[2] = { 0, INT64_MAX };
	int64_t sum = 0;
	struct dist d;

	dist_of_sorted(v, 3, &d);
	CHECK_EQ(d.mean_ns, INT64_MAX - 1);
	CHECK_EQ(d.median_ns, INT64_MAX - 1);
	CHECK_EQ(d.p99_ns, INT64_MAX);	/* INT64_MAX - 0.02 */
	CHECK(d.stddev_ns >= 0);
	/* The capped sum the rows keep would say SUM_CAP, not a mean. */
	for (int i = 0; i < 3; i++)
		sum_add(&sum, v[i]);
	CHECK(sum_capped(sum));
	dist_of_sorted(w, 2, &d);
	CHECK_EQ(d.median_ns, INT64_MAX / 2 + 1);	/* 4611686018427387903.5 */
	CHECK_EQ(d.p90_ns, div_round((__int128)INT64_MAX * 9, 10));
	CHECK_EQ(d.mean_ns, INT64_MAX / 2 + 1);
}

static bool ascending(const int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return false;
	return true;
}

/* The radix sort on sorted, reversed, negative, wide and random input,
 * against the values it was given. */
static void test_sort(void)
{
	size_t n = 5000;
	int64_t *v = xmalloc(n * sizeof(*v));
	uint64_t x = 88172645463325252ULL, sum = 0, sum2 = 0;

	for (size_t i = 0; i < n; i++)
		v[i] = (int64_t)i;
	dist_sort(v, n, NULL);
	CHECK(ascending(v, n) && v[0] == 0 && v[n - 1] == (int64_t)n - 1);
	for (size_t i = 0; i < n; i++)
		v[i] = (int64_t)(n - i);
	dist_sort(v, n, NULL);
	CHECK(ascending(v, n) && v[0] == 1 && v[n - 1] == (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = (int64_t)x;	/* negative ones too, the whole range */
	}
	v[7] = INT64_MIN;
	v[8] = INT64_MAX;
	for (size_t i = 0; i < n; i++)
		sum += (uint64_t)v[i];
	dist_sort(v, n, NULL);
	for (size_t i = 0; i < n; i++)
		sum2 += (uint64_t)v[i];
	CHECK(ascending(v, n));
	CHECK(v[0] == INT64_MIN && v[n - 1] == INT64_MAX);
	CHECK(sum == sum2);
	/* Short input goes by insertion. */
	{
		int64_t s[5] = { 3, -1, 2, 2, 0 };

		dist_sort(s, 5, NULL);
		CHECK(s[0] == -1 && s[1] == 0 && s[2] == 2 && s[3] == 2 && s[4] == 3);
	}
	free(v);
}

/* A million equal durations: every figure is that duration, no spread,
 * one bin; in linear time. */
static void test_million_equal(void)
{
	size_t n = 1000000;
	int64_t *v = xmalloc(n * sizeof(*v));
	struct dist d;
	struct dist_bin bins[DIST_MAX_BINS];
	double t0 = test_cpu_s();

	for (size_t i = 0; i < n; i++)
		v[i] = 1234567;
	dist_sort(v, n, NULL);
	dist_of_sorted(v, n, &d);
	CHECK_EQ(d.n, n);
	CHECK_EQ(d.median_ns, 1234567);
	CHECK_EQ(d.p99_ns, 1234567);
	CHECK_EQ(d.mean_ns, 1234567);
	CHECK(d.stddev_ns == 0);
	CHECK_EQ(dist_histogram(v, n, bins), 1);
	CHECK_EQ(bins[0].count, n);
	CHECK_EQ(bins[0].lo_ns, 1000000);
	CHECK_EQ(bins[0].hi_ns, 2000000);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	free(v);
}

/* A million distinct durations over seven decades sort in linear time
 * (a guard against a quadratic sort, not a speed test). */
static void test_million_spread(void)
{
	size_t n = 1000000;
	int64_t *v = xmalloc(n * sizeof(*v));
	uint64_t x = 2463534242ULL;
	double t0 = test_cpu_s();

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = (int64_t)(x % 10000000000ULL);
	}
	dist_sort(v, n, NULL);
	CHECK(ascending(v, n));
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	free(v);
}

/* The 1-2-5 bins: from the bin of the shortest to the bin of the longest,
 * empty ones between kept; below 1 ns in the first; the last bin open. */
static void test_histogram(void)
{
	int64_t v[] = { 0, 3, 4, 1000, 1999, 2000, 70000 };
	int64_t top[] = { 4000000000000000000LL, 6000000000000000000LL, INT64_MAX };
	struct dist_bin b[DIST_MAX_BINS];
	size_t n = dist_histogram(v, ARRAY_SIZE(v), b);
	uint64_t total = 0;

	/* [0,1) [1,2) [2,5) [5,10) ... [50us,100us): 1 + 3 * 5 bins. */
	CHECK_EQ(n, 16);
	CHECK_EQ(b[0].lo_ns, 0);
	CHECK_EQ(b[0].hi_ns, 1);
	CHECK_EQ(b[0].count, 1);
	CHECK_EQ(b[1].count, 0);	/* [1, 2) */
	CHECK_EQ(b[2].lo_ns, 2);
	CHECK_EQ(b[2].hi_ns, 5);
	CHECK_EQ(b[2].count, 2);
	CHECK_EQ(b[10].lo_ns, 1000);
	CHECK_EQ(b[10].hi_ns, 2000);
	CHECK_EQ(b[10].count, 2);	/* 1000 and 1999; 2000 is the next's */
	CHECK_EQ(b[11].count, 1);
	CHECK_EQ(b[14].count, 0);	/* [20us, 50us): kept between */
	CHECK_EQ(b[15].lo_ns, 50000);
	CHECK_EQ(b[15].hi_ns, 100000);
	CHECK_EQ(b[15].count, 1);
	for (size_t i = 0; i < n; i++)
		total += b[i].count;
	CHECK_EQ(total, ARRAY_SIZE(v));
	n = dist_histogram(top, 3, b);
	CHECK_EQ(n, 2);
	CHECK_EQ(b[0].lo_ns, 2000000000000000000LL);
	CHECK_EQ(b[0].count, 1);
	CHECK_EQ(b[1].lo_ns, 5000000000000000000LL);
	CHECK_EQ(b[1].hi_ns, INT64_MAX);
	CHECK_EQ(b[1].count, 2);
}

/* ---------------------------------------------------------------------
 * The rows of an aggregation
 */

static struct node *kernel(struct profile *p, const char *name, int64_t start, int64_t dur)
{
	struct node *n = node_new(p, p->root, NODE_KERNEL, name, strlen(name));

	n->start_ns = start;
	node_set_calls(p, n, 1);
	node_set_device_total(p, n, dur);
	node_set_device_self(p, n, dur);
	return n;
}

static size_t row_index(const struct agg *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name))
			return i;
	return (size_t)-1;
}

/*
 * Kernel "gemm" ran 11 times: 10, 20, ... 100 us and one of 1000 us, in
 * a shuffled order.  By hand: sorted, rank h = 10 * 0.9 = 9 is 100 us
 * exactly; P99 at rank 9.9 is 100 + 0.9 * 900 = 910 us; the median the
 * 6th, 60 us; the mean 1550 / 11 = 140.909 us.
 */
static void test_kernel_row(void)
{
	static const int order[11] = { 7, 2, 10, 0, 5, 9, 1, 4, 8, 3, 6 };
	struct profile p;
	struct agg a;
	struct dist_rows *dr;
	struct dist d;
	const int64_t *v;
	size_t n, i;

	profile_init(&p, "t");
	for (int k = 0; k < 11; k++) {
		int j = order[k];

		kernel(&p, "gemm", k * 10000000LL, j == 10 ? 1000000 : (j + 1) * 10000);
	}
	kernel(&p, "copy", 500, 7);
	profile_finish(&p);
	agg_kernels(&p, NULL, &a);
	dr = dist_rows_new(&p, agg_kernels, NULL, &a, DIST_DEVICE);
	CHECK_EQ(dist_rows_bytes(dr), 0);	/* nothing until asked */
	i = row_index(&a, "gemm");
	CHECK(dist_rows_get(dr, i, &d));
	CHECK_EQ(d.n, 11);
	CHECK_EQ(d.p90_ns, 100000);
	CHECK_EQ(d.p99_ns, 910000);
	CHECK_EQ(d.median_ns, 60000);
	CHECK_EQ(d.mean_ns, 140909);
	CHECK_EQ(d.min_ns, a.rows[i].min_ns);
	CHECK_EQ(d.max_ns, a.rows[i].max_ns);
	CHECK(dist_rows_bytes(dr) >= 12 * sizeof(int64_t));
	v = dist_rows_values(dr, i, &n);
	CHECK(v && n == 11 && ascending(v, n) && v[10] == 1000000);
	CHECK(dist_rows_get(dr, row_index(&a, "copy"), &d));
	CHECK_EQ(d.n, 1);
	CHECK_EQ(d.p99_ns, 7);
	CHECK(!dist_rows_get(dr, 99, &d));
	dist_rows_free(dr);
	agg_release(&a);
	profile_release(&p);
}

/* A step narrows the rows' durations as it narrows their totals. */
static void test_step(void)
{
	struct profile p;
	struct node *st;
	struct step *s;
	struct agg a;
	struct agg_scope sc;
	struct dist_rows *dr;
	struct dist d;

	profile_init(&p, "t");
	st = node_new(&p, p.root, NODE_STEP, "ProfilerStep#1", 14);
	st->flags = NODE_NOT_A_ROW;
	st->start_ns = 1000;
	node_set_host_total(&p, st, 1000);
	kernel(&p, "k", 0, 5);		/* before the step */
	kernel(&p, "k", 1100, 30);
	kernel(&p, "k", 1200, 10);
	kernel(&p, "k", 1300, 20);
	kernel(&p, "k", 5000, 900);	/* after */
	s = profile_add_step(&p, "1", 1);
	s->start_ns = 1000;
	s->end_ns = 2000;
	profile_finish(&p);
	sc = (struct agg_scope){ .step = &p.steps[0] };
	agg_kernels(&p, &sc, &a);
	CHECK_EQ(a.nr, 1);
	dr = dist_rows_new(&p, agg_kernels, &sc, &a, DIST_DEVICE);
	CHECK(dist_rows_get(dr, 0, &d));
	CHECK_EQ(d.n, 3);
	CHECK_EQ(d.median_ns, 20);
	CHECK_EQ(d.max_ns, 30);
	CHECK_EQ(d.p90_ns, 28);		/* 20 + 0.8 * 10 */
	dist_rows_free(dr);
	agg_release(&a);
	profile_release(&p);
}

/* A node that counts several calls (a summary's row) hides its calls'
 * durations: the row's distribution is unknown, the others' stay. */
static void test_counted(void)
{
	struct profile p;
	struct node *n;
	struct agg a;
	struct dist_rows *dr;
	struct dist d;
	size_t nv;

	profile_init(&p, "t");
	kernel(&p, "one", 0, 10);
	kernel(&p, "many", 10, 10);
	n = kernel(&p, "many", 20, 300);
	node_set_calls(&p, n, 3);
	profile_finish(&p);
	agg_kernels(&p, NULL, &a);
	dr = dist_rows_new(&p, agg_kernels, NULL, &a, DIST_DEVICE);
	CHECK(!dist_rows_get(dr, row_index(&a, "many"), &d));
	CHECK_EQ(d.n, 0);
	CHECK(dist_rows_values(dr, row_index(&a, "many"), &nv) == NULL && nv == 0);
	CHECK(dist_rows_get(dr, row_index(&a, "one"), &d));
	dist_rows_free(dr);
	agg_release(&a);
	profile_release(&p);
}

/* Ops: each call's host time (DIST_HOST) or device total (DIST_DEVICE),
 * nested calls of one name each counted, as the rows count them. */
static void test_ops(void)
{
	struct profile p;
	struct node *o1, *o2, *o3;
	struct agg a;
	struct dist_rows *host, *dev;
	struct dist d;

	profile_init(&p, "t");
	o1 = node_new(&p, p.root, NODE_OP, "aten::add", 9);
	o2 = node_new(&p, p.root, NODE_OP, "aten::add", 9);
	o3 = node_new(&p, o2, NODE_OP, "aten::add", 9);
	o1->start_ns = 0, o2->start_ns = 100, o3->start_ns = 110;
	node_set_calls(&p, o1, 1), node_set_calls(&p, o2, 1), node_set_calls(&p, o3, 1);
	node_set_host_total(&p, o1, 50);
	node_set_host_total(&p, o2, 90);
	node_set_host_total(&p, o3, 20);
	node_set_device_total(&p, o1, 5);
	node_set_device_total(&p, o2, 7);
	node_set_device_total(&p, o3, 7);
	profile_finish(&p);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 1);
	host = dist_rows_new(&p, agg_ops, NULL, &a, DIST_HOST);
	dev = dist_rows_new(&p, agg_ops, NULL, &a, DIST_DEVICE);
	CHECK(dist_rows_get(host, 0, &d));
	CHECK_EQ(d.n, 3);
	CHECK_EQ(d.median_ns, 50);
	CHECK_EQ(d.max_ns, 90);
	CHECK(dist_rows_get(dev, 0, &d));
	CHECK_EQ(d.median_ns, 7);
	CHECK_EQ(d.min_ns, 5);
	dist_rows_free(host);
	dist_rows_free(dev);
	agg_release(&a);
	profile_release(&p);
}

/* Kernels so long that their row's total saturates at SUM_CAP: the
 * distribution is still exact, its mean too. */
static void test_capped_total(void)
{
	struct profile p;
	struct agg a;
	struct dist_rows *dr;
	struct dist d;
	int64_t big = SUM_CAP / 2 + 1;

	profile_init(&p, "t");
	kernel(&p, "k", 0, big);
	kernel(&p, "k", 1, big + 2);
	kernel(&p, "k", 2, big + 4);
	profile_finish(&p);
	agg_kernels(&p, NULL, &a);
	CHECK(sum_capped(a.rows[0].device_total_ns));
	dr = dist_rows_new(&p, agg_kernels, NULL, &a, DIST_DEVICE);
	CHECK(dist_rows_get(dr, 0, &d));
	CHECK_EQ(d.mean_ns, big + 2);
	CHECK_EQ(d.median_ns, big + 2);
	CHECK(fabs(d.stddev_ns - 2) < 1e3);	/* doubles of 2^60: coarse */
	dist_rows_free(dr);
	agg_release(&a);
	profile_release(&p);
}

/* No kernel at all: no rows, nothing to ask. */
static void test_no_rows(void)
{
	struct profile p;
	struct agg a;
	struct dist_rows *dr;
	struct dist d;

	profile_init(&p, "t");
	node_set_host_total(&p, node_new(&p, p.root, NODE_OP, "cpu_only", 8), 10);
	profile_finish(&p);
	agg_kernels(&p, NULL, &a);
	CHECK_EQ(a.nr, 0);
	dr = dist_rows_new(&p, agg_kernels, NULL, &a, DIST_DEVICE);
	CHECK(!dist_rows_get(dr, 0, &d));
	dist_rows_free(dr);
	agg_release(&a);
	profile_release(&p);
}

/* An annotation row's durations (the Annotations pane's histogram): its
 * name's ranges on its side, ascending; P90 and P99 as the rows give
 * them; none when one range is pre-aggregated. */
static void test_annotation_durations(void)
{
	static const int64_t durs[4] = { 400, 100, 300, 200 };
	struct profile p;
	struct name_stats s;
	int64_t *v;
	size_t n;

	profile_init(&p, "t");
	for (int i = 0; i < 4; i++) {
		struct node *a = node_new(&p, p.root, NODE_ANNOTATION, "fwd", 3);

		a->start_ns = i * 1000;
		node_set_calls(&p, a, 1);
		node_set_host_total(&p, a, durs[i]);
	}
	node_set_calls(&p, node_new(&p, p.root, NODE_ANNOTATION, "bwd", 3), 5);
	profile_finish(&p);
	n = name_stats_durations(&p, NAME_STATS_HOST_ANNOTATIONS, NULL, "fwd", &v);
	CHECK_EQ(n, 4);
	CHECK(v && v[0] == 100 && v[3] == 400);
	free(v);
	CHECK_EQ(name_stats_durations(&p, NAME_STATS_GPU_ANNOTATIONS, NULL, "fwd", &v), 0);
	CHECK(v == NULL);
	CHECK_EQ(name_stats_durations(&p, NAME_STATS_HOST_ANNOTATIONS, NULL, "bwd", &v), 0);
	CHECK(v == NULL);
	name_stats_make(&p, NAME_STATS_HOST_ANNOTATIONS, NULL, &s);
	for (size_t i = 0; i < s.nr; i++) {
		if (strcmp(s.rows[i].name, "fwd"))
			continue;
		CHECK_EQ(s.rows[i].median_ns, 250);
		CHECK_EQ(s.rows[i].p90_ns, 370);	/* rank 2.7: 300 + 0.7 * 100 */
		CHECK_EQ(s.rows[i].p99_ns, 397);
	}
	name_stats_release(&s);
	profile_release(&p);
}

const struct test tests[] = {
	{ "no duration, one duration", test_empty_and_one },
	{ "two durations: numpy's linear interpolation", test_two },
	{ "ranks of ten values", test_ranks },
	{ "ties", test_ties },
	{ "values near INT64_MAX neither wrap nor cap", test_huge },
	{ "radix sort: sorted, reversed, negative, random", test_sort },
	{ "a million equal durations", test_million_equal },
	{ "a million spread durations sort in linear time", test_million_spread },
	{ "histogram: 1-2-5 bins, first and last", test_histogram },
	{ "a kernel row's P90 and P99 from its own events", test_kernel_row },
	{ "a step narrows a row's durations", test_step },
	{ "a pre-aggregated node leaves its row unknown", test_counted },
	{ "ops by host time and by device total", test_ops },
	{ "a capped total, an exact distribution", test_capped_total },
	{ "no kernels", test_no_rows },
	{ "an annotation's durations and percentiles", test_annotation_durations },
	{ 0 },
};
