/* SPDX-License-Identifier: MIT */
/*
 * kernel_breakdown: the GPU work by kernel (kernel_breakdown.h).  One
 * walk collects the events the temporal breakdown takes, each given its
 * row by a hash of its name (the profile's interned names: equal names
 * are equal pointers, strtab.h); a counting sort puts each row's
 * durations together for their figures (model/dist.c's standard
 * deviation); a sort of the rows; HTA's folding on request.  O(n) in the
 * events, O(r log r) in the rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "kernel_breakdown.h"
#include "util.h"

struct kev {
	uint32_t row;
	int64_t dur;
};

/* Rows by name: open addressing on the name's address. */
struct collect {
	const struct profile *p;
	const struct temporal_opts *o;
	struct kev *v;
	size_t nr, alloc;
	const char **names;	/* by row */
	size_t nr_rows, alloc_rows;
	uint32_t *slots;	/* row + 1; 0: empty */
	size_t nr_slots;	/* a power of two, > 2 nr_rows */
};

static size_t slot_of(const char *name, size_t nr_slots)
{
	uint64_t h = (uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15);

	return (size_t)(h >> 32) & (nr_slots - 1);
}

static void rehash(struct collect *c)
{
	size_t n = c->nr_slots ? 2 * c->nr_slots : 256;

	free(c->slots);
	c->slots = xcalloc(n, sizeof(*c->slots));
	c->nr_slots = n;
	for (size_t r = 0; r < c->nr_rows; r++) {
		size_t i = slot_of(c->names[r], n);

		while (c->slots[i])
			i = (i + 1) & (n - 1);
		c->slots[i] = (uint32_t)r + 1;
	}
}

/* NAME's row, a new one when first seen. */
static uint32_t row_of(struct collect *c, const char *name)
{
	size_t i;

	if (2 * (c->nr_rows + 1) >= c->nr_slots)
		rehash(c);
	for (i = slot_of(name, c->nr_slots); c->slots[i]; i = (i + 1) & (c->nr_slots - 1))
		if (c->names[c->slots[i] - 1] == name)
			return c->slots[i] - 1;
	GROW(c->names, c->alloc_rows, c->nr_rows + 1);
	c->names[c->nr_rows] = name;
	c->slots[i] = (uint32_t)++c->nr_rows;
	return (uint32_t)(c->nr_rows - 1);
}

unsigned kbreak_type_rank(enum kernel_type t)
{
	switch (t) {
	case KTYPE_COMMUNICATION:
		return 0;
	case KTYPE_COMPUTATION:
		return 1;
	case KTYPE_MEMORY:
		return 2;
	default:
		return 3;
	}
}

static bool take(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	int64_t start, end;

	if (!temporal_event(c->p, c->o, n, &start, &end))
		return true;
	GROW(c->v, c->alloc, c->nr + 1);
	/* Bounded times (bounds.h): the difference cannot wrap. */
	c->v[c->nr++] = (struct kev){ row_of(c, node_name(n)), end - start };
	return true;
}

/* By type, the largest sum first, equal sums by name ("others" last). */
static int cmp_row(const void *a, const void *b)
{
	const struct kbreak_row *x = a, *y = b;
	unsigned xr = kbreak_type_rank(x->type), yr = kbreak_type_rank(y->type);

	if (xr != yr)
		return xr < yr ? -1 : 1;
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	if (!x->name || !y->name)
		return !x->name - !y->name;
	return strcmp(x->name, y->name);
}

/* The figures of the N values V (in any order) into R. */
static void row_of_values(struct kbreak_row *r, const int64_t *v, size_t n, uint64_t *nr_capped)
{
	__int128 exact = 0;

	r->nr_values = n;
	r->sum_ns = 0;
	r->min_ns = r->max_ns = v[0];
	for (size_t i = 0; i < n; i++) {
		sum_add_counted(&r->sum_ns, v[i], nr_capped);
		exact += v[i];	/* n < 2^64 values of 2^63: within 2^127 */
		if (v[i] < r->min_ns)
			r->min_ns = v[i];
		if (v[i] > r->max_ns)
			r->max_ns = v[i];
	}
	r->mean_ns = div_round(exact, n);
	r->stddev_ns = dist_stddev(v, n);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * HTA's folding of the N rows R of one type (in the table's order) into
 * OUT: the first K rows whose running sum is at most the PCT percentile
 * of the running sums stay; the rest become one row "others".  Returns
 * the rows written.
 */
static size_t fold(const struct kbreak_row *r, size_t n, size_t k, unsigned pct,
		   struct kbreak_row *out, uint64_t *nr_capped)
{
	int64_t *cum, *sorted, *folded;
	uint64_t h100, lo, rem;
	struct kbreak_row others = { .type = r[0].type };
	size_t nr = 0, nf = 0;

	if (n <= k) {
		memcpy(out, r, n * sizeof(*r));
		return n;
	}
	cum = xmalloc(n * sizeof(*cum));
	sorted = xmalloc(n * sizeof(*sorted));
	folded = xmalloc(n * sizeof(*folded));
	for (size_t i = 0; i < n; i++) {
		cum[i] = i ? cum[i - 1] : 0;
		sum_add_counted(&cum[i], r[i].sum_ns, nr_capped);
	}
	/* pandas' quantile sorts the values (a negative sum, from HTA's
	 * rounding, makes the running sums fall). */
	memcpy(sorted, cum, n * sizeof(*cum));
	qsort(sorted, n, sizeof(*sorted), cmp_i64);
	if (pct > 100)
		pct = 100;
	h100 = (uint64_t)(n - 1) * pct;
	lo = h100 / 100;
	rem = h100 % 100;
	for (size_t i = 0; i < n; i++) {
		/* c > q, as 100 c > 100 v[lo] + rem (v[lo + 1] - v[lo]):
		 * exact in 128 bits. */
		__int128 q100 = (__int128)sorted[lo] * 100;
		bool over;

		if (rem)
			q100 += ((__int128)sorted[lo + 1] - sorted[lo]) * (__int128)rem;
		over = (__int128)cum[i] * 100 > q100;
		if (i < k && !over) {
			out[nr] = r[i];
			out[nr].nr_values = 1;
			out[nr].max_ns = out[nr].min_ns = out[nr].mean_ns = r[i].sum_ns;
			out[nr].stddev_ns = NAN;
			nr++;
			continue;
		}
		folded[nf++] = r[i].sum_ns;
		sum_add_u_counted(&others.calls, r[i].calls, nr_capped);
	}
	if (nf) {
		row_of_values(&others, folded, nf, nr_capped);
		out[nr++] = others;
	}
	free(folded);
	free(sorted);
	free(cum);
	return nr;
}

void kbreak_compute(const struct profile *p, const struct kbreak_opts *o, struct kbreak *b)
{
	struct collect c = { .p = p, .o = &o->t };
	int64_t *durs;
	size_t *at, nr;

	*b = (struct kbreak){ 0 };
	node_walk(p->root, take, &c);
	b->nr_events = c.nr;
	nr = c.nr_rows;
	if (!c.nr)
		goto out;
	/* A counting sort by row: each row's durations together. */
	at = xcalloc(nr + 1, sizeof(*at));
	for (size_t i = 0; i < c.nr; i++)
		at[c.v[i].row + 1]++;
	for (size_t r = 0; r < nr; r++)
		at[r + 1] += at[r];
	durs = xmalloc(c.nr * sizeof(*durs));
	b->rows = xcalloc(nr, sizeof(*b->rows));
	for (size_t r = 0; r < nr; r++)
		b->rows[r].calls = at[r + 1] - at[r];
	for (size_t i = 0; i < c.nr; i++)
		durs[at[c.v[i].row]++] = c.v[i].dur;
	for (size_t r = 0, from = 0; r < nr; r++) {
		struct kbreak_row *row = &b->rows[r];

		row->name = c.names[r];
		row->type = kernel_type_of(row->name);
		row_of_values(row, durs + from, row->calls, &b->nr_capped);
		from += row->calls;
	}
	free(durs);
	free(at);
	qsort(b->rows, nr, sizeof(*b->rows), cmp_row);
	if (o->fold_kernels) {
		struct kbreak_row *out = xmalloc(nr * sizeof(*out));
		size_t n = 0;

		for (size_t i = 0, j; i < nr; i = j) {
			for (j = i + 1; j < nr && b->rows[j].type == b->rows[i].type; j++)
				;
			n += fold(b->rows + i, j - i, o->fold_kernels, o->fold_pct, out + n, &b->nr_capped);
		}
		free(b->rows);
		b->rows = out;
		nr = n;
	}
	b->nr = nr;
out:
	free(c.slots);
	free(c.names);
	free(c.v);
}

void kbreak_release(struct kbreak *b)
{
	free(b->rows);
	*b = (struct kbreak){ 0 };
}
