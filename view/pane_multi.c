// SPDX-License-Identifier: MIT
/*
 * The diff and across-ranks forms of a pane type (see pane_multi.h).
 *
 * Each form is one struct pane_ops per pane type, made on first use from
 * the generic hooks below with the inner type's id (so its keymap
 * section, title and --print name stay the pane's own).  Its private
 * state holds the inner panes, one per profile, and the rows lined up
 * across them; its columns are made from the inner panes' columns, each
 * number of them becoming a group of columns (base, new, diff, diff% in
 * a diff; mean, min and its rank, max and its rank across ranks).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/diff.h"
#include "../model/profset.h"
#include "../model/strbuf.h"
#include "../model/util.h"
#include "pane_multi.h"

/* One row lined up across the inner panes. */
struct mrow {
	const char *name;
	const void **side;	/* per inner pane: its row, or NULL */
	uint8_t status;		/* a diff's enum diff_status */
};

/* One column of the inner panes, by key, and where each inner pane has it. */
struct mgroup {
	const char *key;
	const struct column *proto;	/* the first inner column of this key */
	int *col;			/* per inner pane: its index, or -1 */
};

/* What a group's column shows. */
enum mpart { P_TEXT, P_BASE, P_NEW, P_DELTA, P_DELTA_PCT, P_MEAN, P_MIN, P_MIN_RANK, P_MAX,
	     P_MAX_RANK, P_SPREAD };

struct multi_priv {
	bool is_diff;
	struct pane **inner;
	size_t nr_inner;
	size_t primary;		/* the inner pane over pane->prof */
	const struct profset *set;
	size_t *member;		/* ranks: the set member of each inner pane */
	struct mrow *rows, *foot;
	size_t nr_rows, nr_foot;
	const void **sides;	/* every row's side pointers, in one block */
	struct mgroup *groups;
	size_t nr_groups;
	int status_group;	/* -1: no status */
	uint8_t *part;		/* per pane column: enum mpart */
	size_t nr_part;
	char **labels;		/* rows' names made here ("1 -> 7") */
	size_t nr_labels;
};

#define ROW(r) ((const struct mrow *)(r))
/* The type each form wraps, by id: multi_load() opens its inner panes
 * with it, so that this file needs no registry of pane types. */
static const struct pane_ops *inner_of[NR_PANES];

#define PRIV(p) ((struct multi_priv *)(p)->priv)

const struct profile *pane_diff_base(const struct pane_scope *scope)
{
	if (!scope || !scope->set || scope->set->kind != PROFSET_DIFF)
		return NULL;
	return profile_run(scope->set->members[0].prof, scope->run);
}

/* ---------------------------------------------------------------------
 * Cells
 */

static struct cell side_cell(const struct pane *pane, const struct mrow *r, size_t i,
			     const struct mgroup *g)
{
	const struct multi_priv *mp = PRIV(pane);
	const struct pane *in = mp->inner[i];
	int c = g->col[i];

	if (c < 0 || !r->side[i])
		return cell_none();
	return in->cols[c].get(in, r->side[i], &in->cols[c]);
}

static bool is_number(struct cell v)
{
	return v.type == CELL_INT || v.type == CELL_REAL;
}

static double as_real(struct cell v)
{
	return v.type == CELL_REAL ? v.v.d : (double)v.v.i;
}

/* A value made of a sum that reached SUM_CAP (model/bounds.h): only a
 * bound, so no difference, ratio or mean of it is known. */
static bool is_capped(struct cell v)
{
	return v.capped || (v.type == CELL_INT && sum_capped(v.v.i));
}

/* NEW - BASE, an absent side counting as 0 (an op the base lacks
 * changed by all of it). */
static struct cell delta(const struct pane *pane, const struct mrow *r, const struct mgroup *g)
{
	struct cell b = side_cell(pane, r, 0, g), n = side_cell(pane, r, 1, g);

	if (is_capped(b) || is_capped(n))
		return cell_none();
	if (!r->side[0] && is_number(n))
		return n;
	if (!r->side[1] && is_number(b)) {
		if (b.type == CELL_INT)
			return cell_int(b.v.i == INT64_MIN ? INT64_MAX : -b.v.i);
		return cell_real(-b.v.d);
	}
	if (!is_number(b) || !is_number(n))
		return cell_none();
	if (b.type == CELL_INT && n.type == CELL_INT)
		return cell_int(n.v.i - b.v.i);
	return cell_real(as_real(n) - as_real(b));
}

static struct cell delta_pct(const struct pane *pane, const struct mrow *r, const struct mgroup *g)
{
	struct cell b = side_cell(pane, r, 0, g), n = side_cell(pane, r, 1, g);

	if (!is_number(b) || !is_number(n) || as_real(b) == 0 || is_capped(b) || is_capped(n))
		return cell_none();
	return cell_real(100.0 * (as_real(n) - as_real(b)) / fabs(as_real(b)));
}

/* Across ranks: the mean over the ranks that have a value, and the least
 * and greatest with the rank that has it. */
struct spread {
	struct cell mean, min, max;
	long min_rank, max_rank;
	size_t n;
};

/* -1 when unknown (profset_shown_rank()). */
static long rank_of(const struct multi_priv *mp, size_t i)
{
	return profset_shown_rank(mp->set, mp->member[i]);
}

static struct spread spread_of(const struct pane *pane, const struct mrow *r, const struct mgroup *g)
{
	const struct multi_priv *mp = PRIV(pane);
	struct spread s = { cell_none(), cell_none(), cell_none(), -1, -1, 0 };
	bool all_int = true;
	double sum = 0;
	__int128 isum = 0;
	bool capped = false;

	for (size_t i = 0; i < mp->nr_inner; i++) {
		struct cell v = side_cell(pane, r, i, g);

		if (!is_number(v))
			continue;
		all_int &= v.type == CELL_INT;
		capped |= is_capped(v);
		if (v.type == CELL_INT)
			isum += v.v.i;
		sum += as_real(v);
		if (!s.n || as_real(v) < as_real(s.min)) {
			s.min = v;
			s.min_rank = rank_of(mp, i);
		}
		if (!s.n || as_real(v) > as_real(s.max)) {
			s.max = v;
			s.max_rank = rank_of(mp, i);
		}
		s.n++;
	}
	if (!s.n || capped)
		return s;	/* no mean of a bound (min and max are shown) */
	if (all_int && g->proto->kind == COL_TIME) {
		/* Nanoseconds stay integers: the mean rounded half away. */
		__int128 q = isum / (__int128)s.n, rem = isum % (__int128)s.n;

		if (2 * (rem < 0 ? -rem : rem) >= (__int128)s.n)
			q += isum < 0 ? -1 : 1;
		s.mean = cell_int((int64_t)q);
	} else {
		s.mean = cell_real(sum / (double)s.n);
	}
	return s;
}

static struct cell get_multi(const struct pane *pane, const void *row, const struct column *c)
{
	const struct multi_priv *mp = PRIV(pane);
	const struct mrow *r = ROW(row);
	const struct mgroup *g = &mp->groups[c->arg];
	size_t col = (size_t)(c - pane->cols);
	struct spread s;

	switch ((enum mpart)mp->part[col]) {
	case P_TEXT: {
		struct cell v = side_cell(pane, r, mp->primary, g);

		for (size_t i = 0; v.type == CELL_NONE && i < mp->nr_inner; i++)
			v = side_cell(pane, r, i, g);
		return v;
	}
	case P_BASE:
		return side_cell(pane, r, 0, g);
	case P_NEW:
		return side_cell(pane, r, 1, g);
	case P_DELTA:
		return delta(pane, r, g);
	case P_DELTA_PCT:
		return delta_pct(pane, r, g);
	default:
		break;
	}
	s = spread_of(pane, r, g);
	switch ((enum mpart)mp->part[col]) {
	case P_MEAN:
		return s.mean;
	case P_MIN:
		return s.min;
	case P_MAX:
		return s.max;
	case P_MIN_RANK:
		return s.n && s.min_rank >= 0 ? cell_int(s.min_rank) : cell_none();
	case P_MAX_RANK:
		return s.n && s.max_rank >= 0 ? cell_int(s.max_rank) : cell_none();
	case P_SPREAD:
		if (!s.n || as_real(s.mean) == 0)
			return cell_none();
		return cell_real(100.0 * (as_real(s.max) - as_real(s.min)) / fabs(as_real(s.mean)));
	default:
		return cell_none();
	}
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->name);
}

static struct cell get_status(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(diff_status_name((enum diff_status)ROW(row)->status));
}

static struct cell get_nr_ranks(const struct pane *pane, const void *row, const struct column *c)
{
	const struct multi_priv *mp = PRIV(pane);
	int64_t n = 0;

	(void)c;
	for (size_t i = 0; i < mp->nr_inner; i++)
		n += ROW(row)->side[i] != NULL;
	return cell_int(n);
}

/* ---------------------------------------------------------------------
 * Lining up the rows
 */

/*
 * The rows of the inner panes lined up (model/diff.c's diff_align(): by
 * name, the primary pane's order first), or by position; foot rows (an
 * average) by position.  A row's name is its primary side's, else the
 * first side's.
 */
static void line_up(struct pane *pane, bool by_name, const void **rows_of[], size_t nr_of[],
		    const void **foot_of[], size_t nr_foot_of[])
{
	struct multi_priv *mp = PRIV(pane);
	size_t n = mp->nr_inner, *idx = NULL, longest = 0, longest_foot = 0;

	for (size_t i = 0; i < n; i++) {
		if (nr_of[i] > longest)
			longest = nr_of[i];
		if (nr_foot_of[i] > longest_foot)
			longest_foot = nr_foot_of[i];
	}
	if (by_name) {
		const char ***names = xcalloc(n, sizeof(*names));

		for (size_t i = 0; i < n; i++) {
			names[i] = xmalloc((nr_of[i] ? nr_of[i] : 1) * sizeof(**names));
			for (size_t j = 0; j < nr_of[i]; j++)
				names[i][j] = pane_row_name(mp->inner[i], rows_of[i][j]);
		}
		mp->nr_rows = diff_align((const char *const *const *)names, nr_of, n, mp->primary, &idx);
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
	} else {
		mp->nr_rows = longest;
		idx = xmalloc((longest ? longest : 1) * n * sizeof(*idx));
		for (size_t r = 0; r < longest; r++)
			for (size_t i = 0; i < n; i++)
				idx[r * n + i] = r < nr_of[i] ? r : SIZE_MAX;
	}
	mp->nr_foot = longest_foot;
	mp->rows = xcalloc(mp->nr_rows ? mp->nr_rows : 1, sizeof(*mp->rows));
	mp->foot = xcalloc(longest_foot ? longest_foot : 1, sizeof(*mp->foot));
	mp->sides = xcalloc((mp->nr_rows + longest_foot) * n + 1, sizeof(*mp->sides));
	for (size_t r = 0; r < mp->nr_rows + longest_foot; r++) {
		bool is_foot = r >= mp->nr_rows;
		struct mrow *m = is_foot ? &mp->foot[r - mp->nr_rows] : &mp->rows[r];

		m->side = &mp->sides[r * n];
		for (size_t i = 0; i < n; i++) {
			size_t j = is_foot ? r - mp->nr_rows : idx[r * n + i];

			if (is_foot ? j < nr_foot_of[i] : j != SIZE_MAX)
				m->side[i] = is_foot ? foot_of[i][j] : rows_of[i][j];
		}
		for (size_t o = 0; o < n && !m->name; o++) {
			size_t i = o == 0 ? mp->primary : o <= mp->primary ? o - 1 : o;

			if (m->side[i])
				m->name = pane_row_name(mp->inner[i], m->side[i]);
		}
		/* A diff's rows paired by position (steps) whose names
		 * differ name both: "1 -> 7", base first, not the new
		 * run's alone. */
		if (mp->is_diff && !by_name && !is_foot && n == 2 && m->side[0] && m->side[1]) {
			const char *base = pane_row_name(mp->inner[0], m->side[0]);
			const char *new = pane_row_name(mp->inner[1], m->side[1]);

			if (strcmp(base, new)) {
				mp->labels = xrealloc(mp->labels,
						      (mp->nr_labels + 1) * sizeof(*mp->labels));
				m->name = mp->labels[mp->nr_labels++] = xstrfmt("%s -> %s", base, new);
			}
		}
	}
	free(idx);
}

/* ---------------------------------------------------------------------
 * Columns
 */

static bool is_numeric_kind(enum col_kind k)
{
	return k == COL_COUNT || k == COL_TIME || k == COL_PCT || k == COL_REAL || k == COL_SI ||
	       k == COL_BYTES || k == COL_FIXED;
}

/* Every column of the inner panes by key: the primary's in its order,
 * then those only others have. */
static void make_groups(struct multi_priv *mp)
{
	size_t n = mp->nr_inner;

	for (size_t o = 0; o < n; o++) {
		size_t i = o == 0 ? mp->primary : o <= mp->primary ? o - 1 : o;
		const struct pane *in = mp->inner[i];

		for (size_t c = 0; c < in->nr_cols; c++) {
			const struct column *col = &in->cols[c];
			size_t g;

			/* Hidden columns (distributions) have no diff
			 * or across-ranks form. */
			if (col->kind == COL_BAR || col->hidden)
				continue;
			for (g = 0; g < mp->nr_groups && strcmp(mp->groups[g].key, col->key); g++)
				;
			if (g == mp->nr_groups) {
				mp->groups = xrealloc(mp->groups, (g + 1) * sizeof(*mp->groups));
				mp->groups[g].key = col->key;
				mp->groups[g].proto = col;
				mp->groups[g].col = xmalloc(n * sizeof(int));
				for (size_t k = 0; k < n; k++)
					mp->groups[g].col[k] = -1;
				mp->nr_groups++;
			}
			if (mp->groups[g].col[i] < 0)
				mp->groups[g].col[i] = (int)c;
		}
	}
}

static void add_part(struct pane *pane, const struct column *c, enum mpart part)
{
	struct multi_priv *mp = PRIV(pane);
	size_t i = pane_add_column(pane, c);

	if (i >= mp->nr_part) {
		mp->part = xrealloc(mp->part, i + 16);
		mp->nr_part = i + 16;
	}
	mp->part[i] = (uint8_t)part;
}

/* A generated column: KEY and JSON key made from the group's, copied. */
static void add_generated(struct pane *pane, size_t g, enum mpart part, enum col_kind kind,
			  const char *key_suffix, const char *json_suffix, const char *title,
			  const char *help)
{
	struct multi_priv *mp = PRIV(pane);
	const struct column *proto = mp->groups[g].proto;
	char json[160], buf[200];
	struct column c = {
		.kind = kind, .width = proto->width ? proto->width : 10, .get = get_multi,
		.arg = (int)g, .help = help,
	};

	snprintf(buf, sizeof(buf), "%s%s", proto->key, key_suffix);
	c.owned = xstrdup(buf);
	c.key = c.owned;
	if (json_suffix) {
		snprintf(buf, sizeof(buf), "%s%s", column_json_key(proto, json, sizeof(json)),
			 json_suffix);
		c.owned_json_key = xstrdup(buf);
		c.json_key = c.owned_json_key;
	}
	c.owned_title = xstrdup(title ? title : proto->title);
	c.title = c.owned_title;
	c.sort_by_magnitude = part == P_DELTA;
	if (kind == COL_PCT && c.width < 8)
		c.width = 8;
	if (c.width < (int)strlen(c.title))
		c.width = (int)strlen(c.title);
	add_part(pane, &c, part);
}

static void add_columns(struct pane *pane)
{
	struct multi_priv *mp = PRIV(pane);
	const struct pane *prim = mp->inner[mp->primary];
	const char *sort_key = prim->sort_col >= 0 ? prim->cols[prim->sort_col].key : NULL;
	static const struct column col_status = {
		.key = "status", .title = "Status", .kind = COL_TEXT, .width = 8, .get = get_status,
		.help = "added (only in the new run), removed (only in the base), slower or faster "
			"(the time the pane sorts by -- device self, or host self for an op with "
			"no device time in either run; a kernel's or step's total -- changed by "
			"more than 2% of the base and more than 1 us), same (within that)",
	};
	static const struct column col_ranks = {
		.key = "nr_ranks", .title = "Ranks", .kind = COL_COUNT, .width = 6,
		.get = get_nr_ranks, .help = "how many ranks have the row (means are over these)",
	};

	/* The name first, then the group the pane sorts by (what a diff is
	 * about: on an 80-column screen it is what shows), then the rest in
	 * the pane's own order. */
	size_t *order = xmalloc((mp->nr_groups ? mp->nr_groups : 1) * sizeof(*order)), n = 0;

	for (size_t g = 0; g < mp->nr_groups; g++)
		if (mp->groups[g].proto->kind == COL_NAME)
			order[n++] = g;
	for (size_t g = 0; g < mp->nr_groups; g++)
		if (sort_key && !strcmp(mp->groups[g].key, sort_key) &&
		    mp->groups[g].proto->kind != COL_NAME)
			order[n++] = g;
	for (size_t g = 0; g < mp->nr_groups; g++)
		if (mp->groups[g].proto->kind != COL_NAME &&
		    !(sort_key && !strcmp(mp->groups[g].key, sort_key)))
			order[n++] = g;
	for (size_t k = 0; k < n; k++) {
		size_t g = order[k];
		const struct column *proto = mp->groups[g].proto;
		struct column c = *proto;
		char diff_title[64];

		c.of_attrs = false;	/* its getter is this pane's own */

		snprintf(diff_title, sizeof(diff_title), "%s diff", proto->title);

		if (proto->kind == COL_NAME) {
			c.get = get_name;
			c.owned = c.owned_title = c.owned_json_key = NULL;
			c.arg = (int)g;
			add_part(pane, &c, P_TEXT);
			if (mp->is_diff)
				add_part(pane, &col_status, P_TEXT);
			else
				add_part(pane, &col_ranks, P_TEXT);
			continue;
		}
		if (!is_numeric_kind(proto->kind)) {
			c.get = get_multi;
			c.arg = (int)g;
			c.owned = c.owned_title = c.owned_json_key = NULL;
			add_part(pane, &c, P_TEXT);
			continue;
		}
		if (mp->is_diff) {
			add_generated(pane, g, P_BASE, proto->kind, "_base", "_base", NULL,
				      "the base run's value (the first profile)");
			add_generated(pane, g, P_NEW, proto->kind, "_new", "_new", "new",
				      "the new run's value (the second profile)");
			add_generated(pane, g, P_DELTA, proto->kind, "", "_delta", diff_title,
				      "new minus base (a row only one run has counts the other as "
				      "0); sorts by how much it changed, either way");
			add_generated(pane, g, P_DELTA_PCT, COL_PCT, "_delta_pct", "_delta_pct", "diff%",
				      "the change as a percentage of the base value (none where the "
				      "base is 0 or absent)");
		} else {
			enum col_kind mean_kind = proto->kind == COL_COUNT ? COL_REAL : proto->kind;

			add_generated(pane, g, P_MEAN, mean_kind, "", NULL, NULL,
				      "the mean over the ranks that have the row");
			add_generated(pane, g, P_MIN, proto->kind, "_min", "_min", "min",
				      "the least value of any rank");
			add_generated(pane, g, P_MIN_RANK, COL_COUNT, "_min_rank", "_min_rank", "rank",
				      "the rank with the least value");
			add_generated(pane, g, P_MAX, proto->kind, "_max", "_max", "max",
				      "the greatest value of any rank");
			add_generated(pane, g, P_MAX_RANK, COL_COUNT, "_max_rank", "_max_rank",
				      "rank", "the rank with the greatest value");
			if (sort_key && !strcmp(sort_key, proto->key))
				add_generated(pane, g, P_SPREAD, COL_PCT, "_spread_pct", NULL, "spread",
					      "(max - min) / mean: how unevenly the ranks spend it");
		}
	}
	free(order);
	/* The inner pane's sort, on its mean or its change. */
	pane->sort_col = sort_key ? pane_column(pane, sort_key) : -1;
	pane->sort_desc = prim->sort_desc;
}

/* The status of each row: by the change of the column the pane sorts by
 * (device self, else host self, for ops; the total for kernels and
 * steps). */
static void set_status(struct pane *pane)
{
	struct multi_priv *mp = PRIV(pane);
	const struct pane *prim = mp->inner[mp->primary];
	int g = -1, fallback = -1;

	if (prim->sort_col >= 0) {
		for (size_t k = 0; k < mp->nr_groups; k++)
			if (!strcmp(mp->groups[k].key, prim->cols[prim->sort_col].key))
				g = (int)k;
	}
	for (size_t k = 0; g < 0 && k < mp->nr_groups; k++)
		if (!strcmp(mp->groups[k].key, "total"))
			g = (int)k;
	/* An op without device time in either run is judged by its host
	 * self time. */
	for (size_t k = 0; g >= 0 && k < mp->nr_groups; k++)
		if (!strcmp(mp->groups[g].key, "device_self") && !strcmp(mp->groups[k].key, "host_self"))
			fallback = (int)k;
	mp->status_group = g;
	for (size_t i = 0; i < mp->nr_rows + mp->nr_foot; i++) {
		struct mrow *r = i < mp->nr_rows ? &mp->rows[i] : &mp->foot[i - mp->nr_rows];
		struct cell b, n;
		int by = g;

		if (!r->side[0] || !r->side[1]) {
			r->status = r->side[1] ? DIFF_ADDED : DIFF_REMOVED;
			continue;
		}
		if (by < 0)
			continue;
		b = side_cell(pane, r, 0, &mp->groups[by]);
		n = side_cell(pane, r, 1, &mp->groups[by]);
		if (fallback >= 0 && (!is_number(b) || as_real(b) == 0) &&
		    (!is_number(n) || as_real(n) == 0)) {
			by = fallback;
			b = side_cell(pane, r, 0, &mp->groups[by]);
			n = side_cell(pane, r, 1, &mp->groups[by]);
		}
		if (is_number(b) && is_number(n))
			r->status = (uint8_t)diff_status_of(as_real(b), as_real(n),
							    mp->groups[by].proto->kind == COL_TIME);
	}
}

/* ---------------------------------------------------------------------
 * The pane hooks
 */

/* The step of profile P that matches STEP of the primary profile: the
 * one at the same position (a diff lines steps up by position), or of
 * the same name (ranks name their steps alike).  NULL when P lacks it;
 * *MISSING says so. */
static const struct step *step_in(const struct profile *p, const struct profile *prim,
				  const struct step *step, bool by_position, bool *missing)
{
	*missing = false;
	if (!step)
		return NULL;
	if (p == prim)
		return step;
	if (by_position) {
		size_t i = (size_t)(step - prim->steps);

		if (i < p->nr_steps)
			return &p->steps[i];
	} else {
		for (size_t i = 0; i < p->nr_steps; i++)
			if (!strcmp(p->steps[i].name, step->name))
				return &p->steps[i];
	}
	*missing = true;
	return NULL;
}

static void multi_load(struct pane *pane)
{
	const struct pane_ops *inner_ops = inner_of[pane->ops->id];
	const struct profset *set = pane->scope.set;
	struct multi_priv *mp = xcalloc(1, sizeof(*mp));
	const void ***rows_of, ***foot_of;
	size_t *nr_of, *nr_foot_of;
	bool *skip;

	pane->priv = mp;
	mp->set = set;
	mp->is_diff = set->kind == PROFSET_DIFF;
	mp->nr_inner = mp->is_diff ? 2 : set->nr;
	mp->inner = xcalloc(mp->nr_inner, sizeof(*mp->inner));
	mp->member = xcalloc(mp->nr_inner, sizeof(*mp->member));
	rows_of = xcalloc(mp->nr_inner, sizeof(*rows_of));
	foot_of = xcalloc(mp->nr_inner, sizeof(*foot_of));
	nr_of = xcalloc(mp->nr_inner, sizeof(*nr_of));
	nr_foot_of = xcalloc(mp->nr_inner, sizeof(*nr_foot_of));
	skip = xcalloc(mp->nr_inner, sizeof(*skip));
	mp->primary = mp->is_diff ? 1 : 0;
	for (size_t i = 0; i < mp->nr_inner; i++) {
		const struct profile *p = profile_run(set->members[i].prof, pane->scope.run);
		struct pane_scope s = pane->scope;

		mp->member[i] = i;
		if (!p)
			p = set->members[i].prof;
		if (p == pane->prof)
			mp->primary = i;
		s.set = NULL;
		s.step = step_in(p, pane->prof, pane->scope.step,
				 inner_ops->align == ALIGN_BY_POSITION, &skip[i]);
		if (mp->is_diff && i == 0) {
			s.under = pane->scope.base_under;
			s.nr_under = pane->scope.nr_base_under;
		}
		s.base_under = NULL;
		s.nr_base_under = 0;
		mp->inner[i] = pane_new(inner_ops, p, &s);
		pane->nr_capped += mp->inner[i]->nr_capped;
	}
	for (size_t i = 0; i < mp->nr_inner; i++) {
		if (skip[i])
			continue;
		rows_of[i] = mp->inner[i]->rows;
		nr_of[i] = mp->inner[i]->nr_rows;
		foot_of[i] = mp->inner[i]->foot;
		nr_foot_of[i] = mp->inner[i]->nr_foot;
	}
	line_up(pane, inner_ops->align == ALIGN_BY_NAME, rows_of, nr_of, foot_of, nr_foot_of);
	free(rows_of);
	free(foot_of);
	free(nr_of);
	free(nr_foot_of);
	free(skip);

	make_groups(mp);
	add_columns(pane);
	if (mp->is_diff)
		set_status(pane);

	pane->rows = xmalloc((mp->nr_rows ? mp->nr_rows : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < mp->nr_rows; i++)
		pane->rows[i] = &mp->rows[i];
	pane->nr_rows = mp->nr_rows;
	if (mp->nr_foot) {
		pane->foot = xmalloc(mp->nr_foot * sizeof(*pane->foot));
		for (size_t i = 0; i < mp->nr_foot; i++)
			pane->foot[i] = &mp->foot[i];
		pane->nr_foot = mp->nr_foot;
	}
	/* Ties of the sort go by the change of host self time, biggest
	 * first: the model's order is made that order. */
	if (mp->is_diff && pane->sort_col >= 0) {
		int host = pane_column(pane, "host_self");

		if (host >= 0 && host != pane->sort_col && pane->nr_rows > 1) {
			size_t *idx = xmalloc(pane->nr_rows * sizeof(*idx));
			const void **sorted = xmalloc(pane->nr_rows * sizeof(*sorted));

			for (size_t i = 0; i < pane->nr_rows; i++)
				idx[i] = i;
			pane_sort_indices(pane, idx, pane->nr_rows, host, true);
			for (size_t i = 0; i < pane->nr_rows; i++)
				sorted[i] = pane->rows[idx[i]];
			memcpy(pane->rows, sorted, pane->nr_rows * sizeof(*sorted));
			free(sorted);
			free(idx);
		}
	}
	if (!pane->title) {
		const struct pane *prim = mp->inner[mp->primary];
		size_t n = strlen(prim->title) + 32;

		pane->title = xmalloc(n);
		snprintf(pane->title, n, "%s %s", prim->title, mp->is_diff ? "diff" : "across ranks");
	}
}

static const char *multi_row_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->name;
}

static void multi_release(struct pane *pane)
{
	struct multi_priv *mp = PRIV(pane);

	if (!mp)
		return;
	for (size_t i = 0; i < mp->nr_inner; i++)
		pane_free(mp->inner[i]);
	for (size_t g = 0; g < mp->nr_groups; g++)
		free(mp->groups[g].col);
	free(mp->groups);
	free(mp->inner);
	free(mp->member);
	free(mp->rows);
	free(mp->foot);
	free(mp->sides);
	free(mp->part);
	for (size_t i = 0; i < mp->nr_labels; i++)
		free(mp->labels[i]);
	free(mp->labels);
	free(mp);
}

/* The inner pane and its row that stand for ROW: the primary's when it
 * has one. */
static size_t side_for(const struct multi_priv *mp, const struct mrow *r)
{
	if (r->side[mp->primary])
		return mp->primary;
	for (size_t i = 0; i < mp->nr_inner; i++)
		if (r->side[i])
			return i;
	return mp->primary;
}

static enum pane_id multi_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	const struct multi_priv *mp = PRIV(pane);
	size_t i = side_for(mp, ROW(row));
	const struct pane *in = mp->inner[i];
	enum pane_id to;

	if (!ROW(row)->side[i])
		return PANE_NONE;
	to = pane_row_drill(in, ROW(row)->side[i], scope);
	/* The step is the primary profile's, whichever side drilled. */
	scope->step = pane->scope.step;
	return to;
}

/* An action of the inner pane type (Enter on a step picks it): the
 * primary inner pane does it, its cursor on the row's side. */
static bool multi_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct multi_priv *mp = PRIV(pane);
	struct pane *in = mp->inner[mp->primary];
	const struct mrow *r = pane_row(pane, pane->cursor);
	bool done;

	if (!r || !r->side[mp->primary])
		return false;
	for (size_t v = 0; v < in->nr_view; v++) {
		if (pane_row(in, v) != r->side[mp->primary])
			continue;
		in->cursor = v;
		done = pane_handle(in, act, req);
		/* toggle-view regrouped the inner pane and made its rows
		 * anew: every profile's pane, and the rows here that point
		 * into them, are made again with the new grouping. */
		if (done && in->scope.group != pane->scope.group) {
			pane->scope.group = in->scope.group;
			pane_reload(pane);
		}
		return done;
	}
	return false;
}

static void multi_step_changed(struct pane *pane)
{
	struct multi_priv *mp = PRIV(pane);

	for (size_t i = 0; pane->scope.step && i < pane->nr_view; i++)
		if (ROW(pane_row(pane, i))->side[mp->primary] == pane->scope.step)
			pane->cursor = i;
}

/* The first inner pane that needs its profile's trace, or NULL. */
static const struct pane *needing_trace(const struct pane *pane)
{
	const struct multi_priv *mp = PRIV(pane);

	for (size_t i = 0; i < mp->nr_inner; i++)
		if (pane_needs_trace(mp->inner[i]))
			return mp->inner[i];
	return NULL;
}

static bool multi_needs_trace(const struct pane *pane)
{
	return needing_trace(pane) != NULL;
}

static void multi_empty_text(const struct pane *pane, char *buf, size_t size)
{
	const struct multi_priv *mp = PRIV(pane);
	const struct pane *in = needing_trace(pane) ? needing_trace(pane) : mp->inner[mp->primary];

	if (!pane_empty_text(in, buf, size))
		snprintf(buf, size, "no rows in any profile");
}

static void multi_export_name(const struct pane *pane, char *buf, size_t size)
{
	const struct multi_priv *mp = PRIV(pane);
	const struct pane *in = mp->inner[mp->primary];
	char inner[128] = "";

	pane_export_name(in, inner, sizeof(inner));
	snprintf(buf, size, "%s%s%s", inner, *inner ? "-" : "", mp->is_diff ? "diff" : "ranks");
}

/* ---------------------------------------------------------------------
 * The forms, made once per pane type
 */

static struct pane_ops forms[2][NR_PANES];
static struct pane_print_ops form_print[2][NR_PANES];
static struct pane_text_ops form_text[2][NR_PANES];
static bool made[2][NR_PANES];

const struct pane_ops *pane_multi_ops(const struct pane_ops *ops, const struct pane_scope *scope)
{
	const struct profset *set = scope ? scope->set : NULL;
	int which;

	if (!set || ops->align == ALIGN_NONE || ops->align == ALIGN_SELF)
		return ops;
	/* Nodes of one rank's tree mean nothing in another's. */
	if (set->kind == PROFSET_RANKS && scope->nr_under)
		return ops;
	if (set->kind == PROFSET_DIFF)
		which = 0;
	else if (set->kind == PROFSET_RANKS && !scope->per_rank)
		which = 1;
	else
		return ops;
	if (!made[which][ops->id]) {
		struct pane_ops *f = &forms[which][ops->id];
		struct pane_print_ops *print = &form_print[which][ops->id];
		struct pane_text_ops *text = &form_text[which][ops->id];

		f->id = ops->id;
		f->flags = ops->flags & PANE_FOLLOWS_STEP;
		print->drill = pane_print_drill(ops);
		print->export_name = multi_export_name;
		f->print = print;
		text->hints = ops->text ? ops->text->hints : NULL;
		f->text = text;
		f->align = ALIGN_NONE;
		f->available = ops->available;
		f->load = multi_load;
		f->row_name = multi_row_name;
		f->drill = ops->drill ? multi_drill : NULL;
		f->handle = ops->handle ? multi_handle : NULL;
		f->actions = ops->actions;
		f->step_changed = ops->step_changed ? multi_step_changed : NULL;
		f->empty_text = multi_empty_text;
		f->needs_trace = ops->needs_trace ? multi_needs_trace : NULL;
		f->release = multi_release;
		inner_of[ops->id] = ops;
		made[which][ops->id] = true;
	}
	return &forms[which][ops->id];
}

struct pane *pane_open(const struct pane_ops *ops, const struct profile *prof,
		       const struct pane_scope *scope)
{
	return pane_new(pane_multi_ops(ops, scope), prof, scope);
}
