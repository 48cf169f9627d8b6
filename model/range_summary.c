// SPDX-License-Identifier: MIT
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "range_summary.h"
#include "util.h"

/* The rows so far, by name pointer (names are interned: one pointer a
 * name, but for equal strings at two addresses, merged at the end). */
struct by_name {
	struct range_row *rows;
	size_t nr, alloc;
	size_t *slot;			/* index + 1 into rows; 0: empty */
	size_t cap;
};

static void grow_slots(struct by_name *t)
{
	size_t cap = t->cap ? 2 * t->cap : 256, *slot = xcalloc(cap, sizeof(*slot));

	for (size_t i = 0; i < t->nr; i++) {
		size_t h = hash_ptr(t->rows[i].name) & (cap - 1);

		while (slot[h])
			h = (h + 1) & (cap - 1);
		slot[h] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
}

static struct range_row *row_of(struct by_name *t, const struct node *n)
{
	const char *name = node_name(n);
	size_t h;

	if (!name)
		name = "";
	if (2 * (t->nr + 1) > t->cap)
		grow_slots(t);
	for (h = hash_ptr(name) & (t->cap - 1); t->slot[h]; h = (h + 1) & (t->cap - 1))
		if (t->rows[t->slot[h] - 1].name == name)
			return &t->rows[t->slot[h] - 1];
	GROW(t->rows, t->alloc, t->nr + 1);
	t->rows[t->nr] = (struct range_row){ .name = name, .first = n };
	t->slot[h] = ++t->nr;
	return &t->rows[t->nr - 1];
}

static int cmp_row(const void *a, const void *b)
{
	const struct range_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	/* Equal strings: the one seen first (its node) first, so that
	 * the row keeps the same node whatever the sort did. */
	return (node_id(x->first) > node_id(y->first)) - (node_id(x->first) < node_id(y->first));
}

void range_summarize(const struct timeline *tl, int64_t start_ns, int64_t end_ns, size_t lane,
		     struct range_summary *out)
{
	struct by_name t = { 0 };
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	out->start_ns = start_ns;
	out->end_ns = end_ns;
	for (size_t r = 0; end_ns > start_ns && r < tl->nr_rows; r++) {
		const struct tl_row *row = &tl->rows[r];

		if (lane != SIZE_MAX && row->lane != lane)
			continue;
		/* From the first block that ends after the range starts (or
		 * at its start: a block that lasts nothing) to the first that
		 * starts at its end. */
		for (size_t i = timeline_first_after(row, start_ns - 1); i < row->nr; i++) {
			const struct tl_block *b = tl_row_block(row, i);
			int64_t s = b->start_ns, e = tl_block_end(tl->prof, b);
			struct range_row *rr;

			if (s >= end_ns)
				break;
			if (e < start_ns || (e == start_ns && s != e))
				continue;	/* before it (ends out of order) */
			rr = row_of(&t, b->node);
			rr->count++;
			sum_add_counted(&rr->total_ns, (e < end_ns ? e : end_ns) - (s > start_ns ? s : start_ns),
					&out->nr_capped);
		}
	}
	free(t.slot);
	/* Equal names at two addresses make one row. */
	if (t.nr)
		qsort(t.rows, t.nr, sizeof(*t.rows), cmp_row);
	for (size_t i = 0; i < t.nr; i++) {
		if (k && !strcmp(t.rows[k - 1].name, t.rows[i].name)) {
			t.rows[k - 1].count += t.rows[i].count;
			sum_add_counted(&t.rows[k - 1].total_ns, t.rows[i].total_ns, &out->nr_capped);
			continue;
		}
		t.rows[k++] = t.rows[i];
	}
	out->rows = t.rows;
	out->nr = k;
}

void range_summary_release(struct range_summary *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

bool range_parse_time(const char *s, size_t len, int64_t *ns)
{
	static const struct {
		const char *unit;
		int64_t mul;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 }, { "", 1000 } };
	int64_t whole = 0, frac = 0, frac_div = 1;
	size_t i = 0, digits = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9') {
		if (whole > BOUND_DUR_NS)
			return false;	/* far past any bound: stop before a wrap */
		whole = whole * 10 + (s[i++] - '0');
		digits++;
	}
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			if (frac_div < 1000000000) {	/* below a ns: dropped */
				frac = frac * 10 + (s[i] - '0');
				frac_div *= 10;
			}
			i++;
			digits++;
		}
	}
	if (!digits)
		return false;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		if (len - i != strlen(units[u].unit) || memcmp(s + i, units[u].unit, len - i))
			continue;
		/* whole <= 10^15 + a digit and mul <= 10^9: checked before the
		 * product, which could pass INT64_MAX. */
		if (whole > BOUND_DUR_NS / units[u].mul)
			return false;
		*ns = whole * units[u].mul + frac * units[u].mul / frac_div;
		return *ns <= BOUND_DUR_NS;
	}
	return false;
}
