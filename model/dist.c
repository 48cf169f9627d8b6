// SPDX-License-Identifier: MIT
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "util.h"

/* ---------------------------------------------------------------------
 * One row's durations
 */

/* The order of int64 as unsigned keys: the sign bit flipped. */
static inline uint64_t key_of(int64_t x)
{
	return (uint64_t)x ^ (UINT64_C(1) << 63);
}

static void insertion_sort(int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int64_t x = v[i];
		size_t j = i;

		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Least significant byte first, eight passes at most: a pass whose byte
 * is the same in every value moves nothing and is skipped, so durations
 * that fit in a few bytes cost a few passes. */
void dist_sort(int64_t *v, size_t n, int64_t *tmp)
{
	int64_t *own = NULL, *from = v, *to;
	size_t count[256];

	if (n < 64) {
		insertion_sort(v, n);
		return;
	}
	to = tmp ? tmp : (own = xmalloc(n * sizeof(*v)));
	for (int shift = 0; shift < 64; shift += 8) {
		size_t sum = 0;
		int64_t *t;

		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(key_of(from[i]) >> shift) & 0xff]++;
		if (count[(key_of(from[0]) >> shift) & 0xff] == n)
			continue;
		for (int b = 0; b < 256; b++) {
			size_t c = count[b];

			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[(key_of(from[i]) >> shift) & 0xff]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	free(own);
}

int64_t dist_percentile(const int64_t *v, size_t n, unsigned pct)
{
	uint64_t h100, lo, rem;

	if (!n)
		return -1;
	if (pct > 100)
		pct = 100;
	/* The rank (n - 1) pct / 100 as a whole part and hundredths: exact,
	 * as is the interpolation in 128 bits. */
	h100 = (uint64_t)(n - 1) * pct;
	lo = h100 / 100;
	rem = h100 % 100;
	if (!rem)
		return v[lo];
	return div_round((__int128)v[lo] * 100 + ((__int128)v[lo + 1] - v[lo]) * (__int128)rem,
			 100);
}

double dist_stddev(const int64_t *v, size_t n)
{
	double mean = 0, m2 = 0;

	if (n < 2)
		return NAN;
	/* Welford: neither overflows nor loses the small spread of large
	 * values. */
	for (size_t i = 0; i < n; i++) {
		double d = (double)v[i] - mean;

		mean += d / (double)(i + 1);
		m2 += d * ((double)v[i] - mean);
	}
	return sqrt(m2 / (double)(n - 1));
}

void dist_of_sorted(const int64_t *v, size_t n, struct dist *d)
{
	__int128 sum = 0;

	memset(d, 0, sizeof(*d));
	d->stddev_ns = NAN;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += v[i];	/* n < 2^64 values of 2^63: within 2^127 */
	d->n = n;
	d->min_ns = v[0];
	d->max_ns = v[n - 1];
	d->mean_ns = div_round(sum, n);
	d->median_ns = dist_percentile(v, n, 50);
	d->p90_ns = dist_percentile(v, n, 90);
	d->p99_ns = dist_percentile(v, n, 99);
	d->stddev_ns = dist_stddev(v, n);
}

/* Edge K of the 1-2-5 series: 1, 2, 5, 10, 20 ... 5e18 ns (K < 57). */
static int64_t edge(int k)
{
	static const int64_t mant[3] = { 1, 2, 5 };
	int64_t e = mant[k % 3];

	for (int i = 0; i < k / 3; i++)
		e *= 10;
	return e;
}

#define NR_EDGES (DIST_MAX_BINS - 1)

/* The bin of X: 0 below 1 ns, K + 1 for [edge K, edge K + 1). */
static int bin_of(int64_t x)
{
	int b = 0;

	while (b < NR_EDGES && x >= edge(b))
		b++;
	return b;
}

size_t dist_histogram(const int64_t *v, size_t n, struct dist_bin *bins)
{
	int first, last;
	size_t i = 0;

	if (!n)
		return 0;
	first = bin_of(v[0]);
	last = bin_of(v[n - 1]);
	for (int b = first; b <= last; b++) {
		struct dist_bin *o = &bins[b - first];

		o->lo_ns = b == 0 ? (v[0] < 0 ? v[0] : 0) : edge(b - 1);
		o->hi_ns = b < NR_EDGES ? edge(b) : INT64_MAX;
		o->count = 0;
		/* Sorted: the bin's values are the next ones below its end. */
		while (i < n && (b == NR_EDGES || v[i] < o->hi_ns)) {
			o->count++;
			i++;
		}
	}
	return (size_t)(last - first + 1);
}

/* ---------------------------------------------------------------------
 * The rows of an aggregation, lazily
 */

struct dist_rows {
	const struct profile *p;
	dist_agg_fn *fill;
	struct agg_scope scope;
	enum dist_measure measure;
	size_t nr;			/* rows */
	uint64_t *nr_nodes;		/* per row: the nodes it counts */
	pthread_mutex_t lock;
	atomic_bool made;
	/* Made: */
	int64_t *v;			/* every row's durations, row after row */
	size_t *off;			/* row i's: v[off[i] .. off[i + 1]) */
	size_t *pos;			/* while filling: the next slot of each */
	bool *unknown;			/* a row whose durations are not all known */
	struct dist *d;			/* per row */
};

struct dist_rows *dist_rows_new(const struct profile *p, dist_agg_fn *fill,
				const struct agg_scope *s, const struct agg *rows,
				enum dist_measure measure)
{
	struct dist_rows *d = xcalloc(1, sizeof(*d));

	d->p = p;
	d->fill = fill;
	if (s)
		d->scope = *s;
	d->measure = measure;
	d->nr = rows->nr;
	d->nr_nodes = xmalloc((d->nr ? d->nr : 1) * sizeof(*d->nr_nodes));
	for (size_t i = 0; i < d->nr; i++)
		d->nr_nodes[i] = rows->rows[i].nr_nodes;
	pthread_mutex_init(&d->lock, NULL);
	atomic_init(&d->made, false);
	return d;
}

static void take(size_t row, const struct node *n, int64_t device_ns, void *ctx)
{
	struct dist_rows *d = ctx;

	/* The fill makes the rows in the order it made them for the pane;
	 * should it not (a row more, a node more), the row is unknown. */
	if (row >= d->nr)
		return;
	if (d->pos[row] == d->off[row + 1] || node_calls(d->p, n) != 1) {
		d->unknown[row] = true;
		return;
	}
	d->v[d->pos[row]++] = d->measure == DIST_HOST ? node_host_total(d->p, n) : device_ns;
}

static void make(struct dist_rows *d)
{
	struct agg scratch;
	struct agg_scope s = d->scope;
	size_t widest = 0;
	int64_t *tmp;

	d->off = xmalloc((d->nr + 1) * sizeof(*d->off));
	d->off[0] = 0;
	for (size_t i = 0; i < d->nr; i++) {
		d->off[i + 1] = d->off[i] + (size_t)d->nr_nodes[i];
		if (d->nr_nodes[i] > widest)
			widest = (size_t)d->nr_nodes[i];
	}
	d->v = xmalloc((d->off[d->nr] ? d->off[d->nr] : 1) * sizeof(*d->v));
	d->pos = xmalloc((d->nr + 1) * sizeof(*d->pos));
	memcpy(d->pos, d->off, d->nr * sizeof(*d->pos));
	d->unknown = xcalloc(d->nr ? d->nr : 1, sizeof(*d->unknown));
	d->d = xcalloc(d->nr ? d->nr : 1, sizeof(*d->d));
	s.each = take;
	s.each_ctx = d;
	d->fill(d->p, &s, &scratch);
	if (scratch.nr != d->nr)
		for (size_t i = 0; i < d->nr; i++)
			d->unknown[i] = true;
	agg_release(&scratch);
	tmp = xmalloc((widest ? widest : 1) * sizeof(*tmp));
	for (size_t i = 0; i < d->nr; i++) {
		size_t n = d->off[i + 1] - d->off[i];

		d->unknown[i] |= d->pos[i] != d->off[i + 1];
		if (d->unknown[i]) {
			dist_of_sorted(NULL, 0, &d->d[i]);
			continue;
		}
		dist_sort(d->v + d->off[i], n, tmp);
		dist_of_sorted(d->v + d->off[i], n, &d->d[i]);
	}
	free(tmp);
	free(d->pos);
	d->pos = NULL;
}

/* Made once, by whichever thread asks first (an export measures rows on
 * two threads). */
static void ensure(struct dist_rows *d)
{
	if (atomic_load_explicit(&d->made, memory_order_acquire))
		return;
	pthread_mutex_lock(&d->lock);
	if (!atomic_load_explicit(&d->made, memory_order_relaxed)) {
		make(d);
		atomic_store_explicit(&d->made, true, memory_order_release);
	}
	pthread_mutex_unlock(&d->lock);
}

bool dist_rows_get(struct dist_rows *d, size_t i, struct dist *out)
{
	memset(out, 0, sizeof(*out));
	out->stddev_ns = NAN;
	if (!d || i >= d->nr)
		return false;
	ensure(d);
	*out = d->d[i];
	return out->n > 0;
}

const int64_t *dist_rows_values(struct dist_rows *d, size_t i, size_t *n)
{
	*n = 0;
	if (!d || i >= d->nr)
		return NULL;
	ensure(d);
	if (d->unknown[i])
		return NULL;
	*n = d->off[i + 1] - d->off[i];
	return d->v + d->off[i];
}

size_t dist_rows_bytes(const struct dist_rows *d)
{
	if (!d || !atomic_load_explicit(&d->made, memory_order_acquire))
		return 0;
	return d->off[d->nr] * sizeof(*d->v) + (d->nr + 1) * sizeof(*d->off) +
	       d->nr * (sizeof(*d->unknown) + sizeof(*d->d) + sizeof(*d->nr_nodes));
}

void dist_rows_free(struct dist_rows *d)
{
	if (!d)
		return;
	pthread_mutex_destroy(&d->lock);
	free(d->nr_nodes);
	free(d->v);
	free(d->off);
	free(d->pos);
	free(d->unknown);
	free(d->d);
	free(d);
}
