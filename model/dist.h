/* SPDX-License-Identifier: MIT */
/*
 * dist: the distribution of a row's durations -- count, mean, median,
 * p90, p99, extremes, standard deviation and a histogram -- with one
 * definition for every pane that shows them (Kernels, Operators,
 * Annotations, API calls):
 *
 *   percentile p   linear interpolation between the closest ranks (numpy's
 *                  default): at rank h = (n - 1) p / 100 of the sorted
 *                  durations, v[floor h] + (h - floor h) (v[floor h + 1] -
 *                  v[floor h]), computed exactly and rounded half away from
 *                  zero to the ns.  The median is p = 50: the middle
 *                  duration, or the mean of the middle two.
 *   stddev         the sample standard deviation (n - 1 in the divisor),
 *                  Welford's running form over the sorted durations; not
 *                  defined (NaN) for one duration or none.
 *   histogram      bins whose edges follow the 1-2-5 series of the ns
 *                  (1, 2, 5, 10, 20, 50 ns ... 1, 2, 5 s ...): log-spaced,
 *                  for durations that span decades, with edges that read
 *                  as round times; a bin holds [lo, hi), the first [0, 1
 *                  ns) (anything below 1 ns), the last [5e18 ns, INT64_MAX].
 *
 * The rows of an aggregation (model/aggregate.h) get theirs lazily
 * (struct dist_rows): nothing is kept until a pane first asks, then one
 * walk puts each row's durations into one array (8 bytes per instance),
 * sorted per row by a radix sort, O(n).  A row that counts a
 * pre-aggregated node (several calls in one, a summary's row) has no
 * known distribution: its figures are unknown, never guessed.
 */
#ifndef MODEL_DIST_H
#define MODEL_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"

struct dist {
	uint64_t n;			/* 0: unknown or empty, the rest unset */
	int64_t min_ns, max_ns;
	int64_t mean_ns;		/* the exact mean, rounded half away from 0 */
	int64_t median_ns, p90_ns, p99_ns;
	double stddev_ns;		/* NaN for n < 2 */
};

/* Sort V[0..N) ascending in O(N) (a radix sort; TMP: room for N, or
 * NULL to allocate it). */
void dist_sort(int64_t *v, size_t n, int64_t *tmp);
/* Percentile PCT (0..100) of the ascending V[0..N), as above; -1 when N
 * is 0. */
int64_t dist_percentile(const int64_t *v, size_t n, unsigned pct);
/* The sample standard deviation of V[0..N) (NaN for N < 2). */
double dist_stddev(const int64_t *v, size_t n);
/* Every figure of the ascending V[0..N) into D (N = 0: D->n = 0). */
void dist_of_sorted(const int64_t *v, size_t n, struct dist *d);

#define DIST_MAX_BINS 58

struct dist_bin {
	int64_t lo_ns, hi_ns;		/* [lo, hi); the last bin includes hi */
	uint64_t count;
};

/* The histogram of the ascending V[0..N) into BINS (room for
 * DIST_MAX_BINS): the bins from the first that holds a duration to the
 * last, empty ones between them included; returns how many (0 for N =
 * 0). */
size_t dist_histogram(const int64_t *v, size_t n, struct dist_bin *bins);

/* What a row's durations are: each node's device time as the row counts
 * it (a kernel's duration, an op's Dev total), or its host time (an op's
 * Host total). */
enum dist_measure {
	DIST_DEVICE,
	DIST_HOST,
};

/* How the rows were made: agg_kernels(), agg_ops()... */
typedef void dist_agg_fn(const struct profile *p, const struct agg_scope *s, struct agg *out);

struct dist_rows;

/*
 * The distributions of the rows of ROWS, which FILL made from P with the
 * scope S (copied; S's predicate context must outlive the result), the
 * durations by MEASURE.  Nothing is computed until dist_rows_get() or
 * dist_rows_values() first asks; then every row's at once (thread-safe).
 */
struct dist_rows *dist_rows_new(const struct profile *p, dist_agg_fn *fill,
				const struct agg_scope *s, const struct agg *rows,
				enum dist_measure measure);
/* Row I's distribution into OUT; false (OUT->n = 0) when unknown. */
bool dist_rows_get(struct dist_rows *d, size_t i, struct dist *out);
/* Row I's durations, ascending, and their count into *N; NULL when not
 * known. */
const int64_t *dist_rows_values(struct dist_rows *d, size_t i, size_t *n);
/* Whether the durations are held (dist_rows_get() has run), and the
 * bytes they take. */
size_t dist_rows_bytes(const struct dist_rows *d);
void dist_rows_free(struct dist_rows *d);

#endif
