/* SPDX-License-Identifier: MIT */
/*
 * kernel_breakdown: the GPU work by kernel (kernel_breakdown.h).  One
 * walk collects the events the temporal breakdown takes; a sort by type,
 * name (the profile's interned names: equal names are equal pointers,
 * strtab.h) and duration puts each row's durations together, ascending,
 * for model/dist.c's figures; a sort of the rows; HTA's folding on
 * request.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "kernel_breakdown.h"
#include "util.h"

struct kev {
	const char *name;
	int64_t dur;
	uint8_t rank;		/* kbreak_type_rank() */
};

struct collect {
	const struct profile *p;
	const struct temporal_opts *o;
	struct kev *v;
	size_t nr, alloc;
};

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
	c->v[c->nr++] = (struct kev){ node_name(n), end - start,
				      (uint8_t)kbreak_type_rank(kernel_type_of(node_name(n))) };
	return true;
}

static int cmp_kev(const void *a, const void *b)
{
	const struct kev *x = a, *y = b;
	uintptr_t xn = (uintptr_t)x->name, yn = (uintptr_t)y->name;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (xn != yn)
		return xn < yn ? -1 : 1;
	return (x->dur > y->dur) - (x->dur < y->dur);
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

static void row_of_sorted(struct kbreak_row *r, const int64_t *v, size_t n, uint64_t *nr_capped)
{
	struct dist d;

	dist_of_sorted(v, n, &d);
	r->nr_values = n;
	r->sum_ns = 0;
	for (size_t i = 0; i < n; i++)
		sum_add_counted(&r->sum_ns, v[i], nr_capped);
	r->max_ns = d.max_ns;
	r->min_ns = d.min_ns;
	r->mean_ns = d.mean_ns;
	r->stddev_ns = d.stddev_ns;
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
		qsort(folded, nf, sizeof(*folded), cmp_i64);
		row_of_sorted(&others, folded, nf, nr_capped);
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
	size_t nr = 0;

	*b = (struct kbreak){ 0 };
	node_walk(p->root, take, &c);
	b->nr_events = c.nr;
	if (!c.nr) {
		free(c.v);
		return;
	}
	qsort(c.v, c.nr, sizeof(*c.v), cmp_kev);
	durs = xmalloc(c.nr * sizeof(*durs));
	for (size_t i = 0; i < c.nr; i++)
		durs[i] = c.v[i].dur;
	b->rows = xmalloc(c.nr * sizeof(*b->rows));
	for (size_t i = 0, j; i < c.nr; i = j) {
		struct kbreak_row *r = &b->rows[nr++];

		for (j = i + 1; j < c.nr && c.v[j].rank == c.v[i].rank && c.v[j].name == c.v[i].name; j++)
			;
		r->type = kernel_type_of(c.v[i].name);
		r->name = c.v[i].name;
		r->calls = j - i;
		row_of_sorted(r, durs + i, j - i, &b->nr_capped);
	}
	free(durs);
	free(c.v);
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
}

void kbreak_release(struct kbreak *b)
{
	free(b->rows);
	*b = (struct kbreak){ 0 };
}
