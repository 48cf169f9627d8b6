// SPDX-License-Identifier: MIT
/*
 * The generic half of every pane: columns, the filtered and sorted view,
 * the cursor kept on its row across rebuilds.  Pane types live in
 * pane_NAME.c, one file each, and panes.c lists them: this file names
 * none of them, so that each can call it and none is called back.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/dist.h"
#include "../model/util.h"
#include "pane.h"

const struct pane_info pane_infos[NR_PANES] = {
#define X(id, name, title, tab) [PANE_##id] = { #name, title, tab },
	PANES(X)
#undef X
};

uint64_t pane_capped_cells(const struct pane *pane, size_t nr)
{
	uint64_t n = 0;

	if (!nr || nr > pane->nr_view)
		nr = pane->nr_view;
	for (size_t i = 0; i < nr; i++) {
		const void *row = pane_row(pane, i);

		for (size_t c = 0; c < pane->nr_cols; c++) {
			enum col_kind kind = pane->cols[c].kind;
			struct cell v;

			if (kind == COL_NAME || kind == COL_TEXT || kind == COL_COUNT ||
			    kind == COL_BAR)
				continue;
			v = pane_cell(pane, row, c);
			if ((v.type == CELL_INT && (kind == COL_TIME || kind == COL_BYTES) &&
			     sum_capped(v.v.i)) ||
			    (v.type == CELL_REAL && v.capped))
				n++;
		}
	}
	return n;
}

/* The pane type's load(), and the count of the sums it capped. */
static void load(struct pane *pane)
{
	pane->nr_capped = 0;
	pane->ops->load(pane);
	pane->nr_capped += pane->agg.nr_capped;
}

struct pane *pane_new(const struct pane_ops *ops, const struct profile *prof,
		      const struct pane_scope *scope)
{
	struct pane *pane = xcalloc(1, sizeof(*pane));

	pane->ops = ops;
	pane->prof = prof;
	if (scope)
		pane->scope = *scope;
	pane->sort_col = -1;
	load(pane);
	if (!pane->title)
		pane->title = xstrdup(pane_title(ops));
	pane_rebuild(pane);
	return pane;
}

/* What load() made; the view, sort and filter stay. */
static void unload(struct pane *pane)
{
	if (pane->ops->release)
		pane->ops->release(pane);
	for (size_t i = 0; i < pane->nr_cols; i++) {
		free(pane->cols[i].owned);
		free(pane->cols[i].owned_title);
		free(pane->cols[i].owned_json_key);
	}
	free(pane->cols);
	free(pane->rows);
	free(pane->foot);
	agg_release(&pane->agg);
	dist_rows_free(pane->dist);
	pane->dist = NULL;
	pane->cols = NULL;
	pane->rows = pane->foot = NULL;
	pane->nr_cols = pane->nr_rows = pane->nr_foot = 0;
	pane->priv = NULL;
}

void pane_free(struct pane *pane)
{
	if (!pane)
		return;
	unload(pane);
	free(pane->view);
	free(pane->title);
	filter_free(pane->filter);
	free(pane);
}

void pane_set_step(struct pane *pane, const struct step *step)
{
	/* A pane that handles the step itself (the Tree marks nodes: no
	 * reload of 2.5 M rows), or one that does not follow steps. */
	if (!(pane->ops->flags & PANE_FOLLOWS_STEP) || pane->ops->step_changed) {
		pane->scope.step = step;
		if (pane->ops->step_changed)
			pane->ops->step_changed(pane);
		if (pane->ops->flags & PANE_FOLLOWS_STEP)
			pane_rebuild(pane);
		return;
	}
	pane->scope.step = step;
	pane_reload(pane);
}

void pane_set_range(struct pane *pane, bool has, int64_t start_ns, int64_t end_ns,
		    int64_t origin_ns)
{
	if (!(pane->ops->flags & (PANE_FOLLOWS_RANGE | PANE_DRAWS_RANGE)))
		return;
	pane->scope.has_range = has;
	pane->scope.range_start_ns = has ? start_ns : 0;
	pane->scope.range_end_ns = has ? end_ns : 0;
	pane->scope.range_origin_ns = has ? origin_ns : 0;
	if (pane->ops->flags & PANE_FOLLOWS_RANGE)
		pane_reload(pane);
}

void pane_reload(struct pane *pane)
{
	char *sel = NULL, *sort_key = NULL;
	bool desc = pane->sort_desc;

	if (pane->nr_view)
		sel = xstrdup(pane_row_name(pane, pane_row(pane, pane->cursor)));
	if (pane->sort_col >= 0)
		sort_key = xstrdup(pane->cols[pane->sort_col].key);
	unload(pane);
	load(pane);
	/* The same sort column by key: a step can change the columns. */
	if (sort_key) {
		int col = pane_column(pane, sort_key);

		if (col >= 0) {
			pane->sort_col = col;
			pane->sort_desc = desc;
		}
	}
	if (pane->hscroll >= pane->nr_cols)
		pane->hscroll = 0;
	pane->cursor = 0;
	pane_rebuild(pane);
	if (sel) {
		for (size_t i = 0; i < pane->nr_view; i++) {
			if (!strcmp(pane_row_name(pane, pane_row(pane, i)), sel)) {
				pane->cursor = i;
				break;
			}
		}
	}
	free(sel);
	free(sort_key);
}

void pane_set_filter(struct pane *pane, struct filter *f)
{
	filter_free(pane->filter);
	pane->filter = f;
	pane_rebuild(pane);
}

void pane_sort(struct pane *pane, int col, bool desc)
{
	pane->sort_col = col < (int)pane->nr_cols ? col : -1;
	pane->sort_desc = desc;
	pane_rebuild(pane);
}

void pane_rebuild(struct pane *pane)
{
	const void *sel = pane->nr_view && pane->cursor < pane->nr_view ? pane_row(pane, pane->cursor)
									  : NULL;
	size_t old_cursor = pane->cursor, sel_idx = sel ? pane->view[pane->cursor] : 0;

	if (pane->ops->rebuild)
		pane->ops->rebuild(pane);
	else
		pane_view_flat(pane);
	pane->cursor = 0;
	if (sel) {
		size_t i;

		if (sel_idx < pane->nr_rows && pane->rows[sel_idx] == sel) {
			/* The row kept its index (rows stay, the view changed):
			 * look for the index, a sequential scan of the view
			 * rather than a pointer load per view row. */
			for (i = 0; i < pane->nr_view && pane->view[i] != sel_idx; i++)
				;
		} else {
			for (i = 0; i < pane->nr_view && pane_row(pane, i) != sel; i++)
				;
		}
		if (i < pane->nr_view)
			pane->cursor = i;
		else if (pane->nr_view)
			pane->cursor = old_cursor < pane->nr_view ? old_cursor : pane->nr_view - 1;
	}
	if (pane->top > pane->cursor)
		pane->top = pane->cursor;
}

enum pane_id pane_drill_target(const struct pane *pane, struct pane_scope *scope)
{
	const void *row = pane_row(pane, pane->cursor);

	memset(scope, 0, sizeof(*scope));
	return row ? pane_row_drill(pane, row, scope) : PANE_NONE;
}

bool pane_seek(struct pane *pane, const char *name)
{
	for (size_t i = 0; i < pane->nr_view; i++) {
		const char *n = pane_row_name(pane, pane_row(pane, i));

		/* Names of the profile are interned: most compare by address. */
		if (n == name || !strcmp(n, name)) {
			pane->cursor = i;
			if (pane->ops->picture && pane->ops->picture->reveal)
				pane->ops->picture->reveal(pane);
			return true;
		}
	}
	return pane->ops->picture && pane->ops->picture->seek && pane->ops->picture->seek(pane, name);
}

const struct node *pane_row_node(const struct pane *pane, const void *row)
{
	return row && pane->ops->row_node ? pane->ops->row_node(pane, row) : NULL;
}

bool pane_seek_node(struct pane *pane, const struct node *n)
{
	if (!n || !pane->ops->row_node)
		return false;
	for (size_t i = 0; i < pane->nr_view; i++) {
		if (pane->ops->row_node(pane, pane_row(pane, i)) == n) {
			pane->cursor = i;
			if (pane->ops->picture && pane->ops->picture->reveal)
				pane->ops->picture->reveal(pane);
			return true;
		}
	}
	return false;
}

bool pane_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	memset(req, 0, sizeof(*req));
	return pane->ops->handle && pane_type_takes(pane->ops, act) &&
	       pane->ops->handle(pane, act, req);
}

const char *pane_busy_text(const struct pane *pane, enum action act)
{
	if (!pane->ops->text || !pane->ops->text->busy || !pane_type_takes(pane->ops, act))
		return NULL;
	return pane->ops->text->busy(pane, act);
}

bool pane_type_takes(const struct pane_ops *ops, enum action act)
{
	for (const enum action *a = ops->actions; a && *a != ACT_NONE; a++)
		if (*a == act)
			return true;
	return false;
}

void pane_type_where(const struct pane_ops *ops, char *buf, size_t size)
{
	if (ops->text && ops->text->where)
		snprintf(buf, size, "%s", ops->text->where);
	else
		snprintf(buf, size, "in the %s pane", pane_title(ops));
}

const char *pane_row_name(const struct pane *pane, const void *row)
{
	return row ? pane->ops->row_name(pane, row) : "";
}

long pane_find(const struct pane *pane, const struct filter *f, size_t from, int dir,
	       bool is_inclusive, bool *wrapped)
{
	size_t n = pane->nr_view;

	*wrapped = false;
	if (!n || !f || filter_is_inverted(f))
		return -1;
	if (from >= n)
		from = n - 1;
	for (size_t k = is_inclusive ? 0 : 1; k <= n; k++) {
		/* K steps from FROM, round the view (K = N: FROM again, once). */
		size_t i = dir > 0 ? (from + k) % n : (from + n - k % n) % n;
		const char *name = pane_row_name(pane, pane_row(pane, i));

		if (k == n && is_inclusive)
			break;
		if (filter_match(f, name, strlen(name))) {
			*wrapped = dir > 0 ? i < from || (k && i == from) : i > from || (k && i == from);
			return (long)i;
		}
		if (filter_error(f))
			return -1;
	}
	return -1;
}

/* Names compare with '-' and ' ' as '_', case ignored. */
static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' || *a == ' ' ? '_' : (char)tolower((unsigned char)*a);
		char y = *b == '-' || *b == ' ' ? '_' : (char)tolower((unsigned char)*b);

		if (x != y)
			return false;
	}
	return !*a && !*b;
}

int pane_column(const struct pane *pane, const char *name)
{
	/* Keys first: a diff's "total" is its change, though the base's
	 * column is titled "Total". */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < pane->nr_cols; i++) {
			const struct column *c = &pane->cols[i];
			char json[128];

			if (c->kind == COL_BAR)
				continue;
			if (same_name(c->key, name) ||
			    (pass && (same_name(c->title, name) ||
				      same_name(column_json_key(c, json, sizeof(json)), name))))
				return (int)i;
		}
	}
	return -1;
}

bool column_default_desc(const struct column *c)
{
	return c->kind != COL_NAME && c->kind != COL_TEXT;
}

const char *column_json_key(const struct column *c, char *buf, size_t size)
{
	if (c->json_key)
		return c->json_key;
	if (c->kind != COL_TIME)
		return c->key;
	snprintf(buf, size, "%s_us", c->key);
	return buf;
}

struct cell pane_get_i64(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t v;

	(void)pane;
	memcpy(&v, (const char *)row + c->arg, sizeof(v));
	return cell_int(v);
}

struct cell pane_get_node_time(const struct pane *pane, const void *row, const struct column *c)
{
	return cell_int(node_time(pane->prof, row, (enum node_time)c->arg));
}

size_t pane_add_column(struct pane *pane, const struct column *c)
{
	pane->cols = xrealloc(pane->cols, (pane->nr_cols + 1) * sizeof(*pane->cols));
	pane->cols[pane->nr_cols] = *c;
	if (pane->scope.all_columns)
		pane->cols[pane->nr_cols].hidden = false;
	return pane->nr_cols++;
}

/* ---------------------------------------------------------------------
 * Attribute columns: the format's extras, titled from their keys.
 */

static struct cell get_attr(const struct pane *pane, const void *row, const struct column *c)
{
	const struct attr *a = attr_find(pane->ops->row_attrs(pane, row), c->attr);

	if (!a)
		return cell_none();
	switch (attr_type(a)) {
	case ATTR_INT:
	case ATTR_NS:
		return cell_int(a->v.i);
	case ATTR_DOUBLE:
		return cell_real(a->v.d);
	case ATTR_STRING:
		return cell_text(a->v.s);
	case ATTR_STACK:	/* its text, made when first shown */
		return cell_text(call_stack_text(a->v.stack));
	case ATTR_LAUNCH:
		break;		/* the Kernels pane's own columns show it */
	}
	return cell_none();
}

/* A kernel's launch (ATTR_LAUNCH) shows as the two columns Kineto's
 * kernel args gave before launches were interned: blocks per SM and the
 * estimated achieved occupancy (the column's arg says which). */
static struct cell get_launch(const struct pane *pane, const void *row, const struct column *c)
{
	const struct attr *a = pane->ops->row_attrs(pane, row);

	for (; a; a = attr_next(a))
		if (attr_type(a) == ATTR_LAUNCH)
			return cell_real(c->arg ? a->v.launch->occupancy_pct : a->v.launch->blocks_per_sm);
	return cell_none();
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* "self_cpu_mem_bytes" -> "Self CPU mem": the unit suffix goes (the
 * cell shows it), known acronyms are capitalised. */
static char *title_of(const char *key)
{
	static const char *const acronyms[] = { "cpu", "gpu", "cuda", "tc", "id", "sm", "h2d",
						"d2h", "onnx", "flops", "mlu", "xpu", "npu" };
	/* Unit suffixes of keys and what the title says instead. */
	static const struct {
		const char *suffix, *title;
	} units[] = {
		{ "_bytes_per_s", " B/s" }, { "_per_s", "/s" }, { "_ns", "" },
		{ "_bytes", "" },	    { "_pct", " %" },
	};
	char *t = xstrdup(key), *w;
	size_t n = strlen(t);

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t k = strlen(units[i].suffix);

		if (ends_with(t, units[i].suffix) && n > k) {
			n -= k;
			t = xrealloc(t, n + strlen(units[i].title) + 1);
			strcpy(t + n, units[i].title);
			break;
		}
	}
	for (char *p = t; *p; p++)
		if (*p == '_')
			*p = ' ';
	for (w = t; *w;) {
		size_t len = strcspn(w, " /");

		for (size_t i = 0; i < ARRAY_SIZE(acronyms); i++) {
			if (strlen(acronyms[i]) == len && !strncmp(w, acronyms[i], len)) {
				for (size_t k = 0; k < len; k++)
					w[k] = (char)toupper((unsigned char)w[k]);
				if (!strcmp(acronyms[i], "flops"))
					memcpy(w, "FLOPs", 5);
			}
		}
		w += len;
		while (*w == ' ' || *w == '/')
			w++;
	}
	t[0] = (char)toupper((unsigned char)t[0]);
	return t;
}

static void add_launch_columns(struct pane *pane)
{
	static const char *const keys[] = { "blocks_per_sm", "occupancy_pct" };

	for (int k = 0; k < 2; k++) {
		struct column c = { .get = get_launch, .kind = k ? COL_PCT : COL_FIXED, .width = 10,
				    .arg = k, .attr = "launch", .of_attrs = true };

		for (size_t i = 0; i < pane->nr_cols; i++)
			if (!strcmp(pane->cols[i].key, keys[k]))
				return;
		c.owned = xstrdup(keys[k]);
		c.key = c.owned;
		c.owned_title = title_of(keys[k]);
		c.title = c.owned_title;
		c.help = k ? "the kernel's estimated achieved occupancy, as the trace gives it"
			   : "the kernel's blocks per SM, as the trace gives it";
		pane_add_column(pane, &c);
	}
}

/* Whether A is a launch whose columns have something to show: a GPU-side
 * range's launch, or a kernel's of a trace without kernel args, says only
 * where it ran. */
static bool launch_shows(const struct attr *a)
{
	const struct launch *l = a->v.launch;

	return l->blocks_per_sm == l->blocks_per_sm || l->occupancy_pct == l->occupancy_pct;
}

static void add_attr_column(struct pane *pane, const struct attr *a, const char *const *skip)
{
	struct column c = { .get = get_attr, .attr = attr_key(a), .width = 10, .of_attrs = true };
	size_t i;

	for (i = 0; skip && skip[i]; i++)
		if (!strcmp(skip[i], attr_key(a)))
			return;
	if (attr_type(a) == ATTR_LAUNCH) {
		if (launch_shows(a))
			add_launch_columns(pane);
		return;
	}
	/* What the file states of the standard columns feeds them, not
	 * columns of its own (profile.h, ATTR_FILE_*). */
	if (!strncmp(attr_key(a), ATTR_FILE_PREFIX, strlen(ATTR_FILE_PREFIX)))
		return;
	for (i = 0; i < pane->nr_cols; i++)
		if (pane->cols[i].attr && !strcmp(pane->cols[i].attr, attr_key(a)))
			return;
	switch (attr_type(a)) {
	case ATTR_NS:
		c.kind = COL_TIME;
		break;
	case ATTR_INT:
		c.kind = ends_with(attr_key(a), "_bytes") ? COL_BYTES : COL_COUNT;
		break;
	case ATTR_DOUBLE:
		c.kind = ends_with(attr_key(a), "_pct") ? COL_PCT
			 : (!strcmp(attr_key(a), "flops") || ends_with(attr_key(a), "_flops") ||
			    ends_with(attr_key(a), "_per_s"))
				 ? COL_SI
				 : COL_REAL;
		break;
	case ATTR_STRING:
	case ATTR_STACK:
		c.kind = COL_TEXT;
		c.width = 16;
		break;
	case ATTR_LAUNCH:
		return;		/* not reached: added above */
	}
	c.owned = xstrdup(attr_key(a));
	if (c.kind == COL_TIME && ends_with(c.owned, "_ns"))
		c.owned[strlen(c.owned) - 3] = '\0';
	c.key = c.owned;
	c.owned_title = title_of(attr_key(a));
	c.title = c.owned_title;
	c.help = "a value the input format gives for this row";
	pane_add_column(pane, &c);
}

void attr_scan_row(struct attr_scan *scan, const struct attr *list)
{
	size_t n = 0;

	/* Keys are interned, so a key met before is known by its pointer:
	 * a tree of millions of nodes is one cheap pass. */
	for (const struct attr *a = list; a; a = attr_next(a)) {
		size_t k = 0;

		n++;
		while (k < scan->nr && attr_key(scan->first[k]) != attr_key(a))
			k++;
		if (k == scan->nr && scan->nr < ARRAY_SIZE(scan->first))
			scan->first[scan->nr++] = a;
		else if (k == scan->nr)
			scan->overflow = true;
		else if (attr_type(a) == ATTR_LAUNCH && !launch_shows(scan->first[k]) && launch_shows(a))
			scan->first[k] = a;	/* the launch to decide by */
	}
	if (n > scan->most) {
		scan->most = n;
		scan->richest = list;
	}
}

void attr_scan_merge(struct attr_scan *scan, const struct attr_scan *later)
{
	for (size_t i = 0; i < later->nr; i++) {
		size_t k = 0;

		while (k < scan->nr && attr_key(scan->first[k]) != attr_key(later->first[i]))
			k++;
		if (k == scan->nr && scan->nr < ARRAY_SIZE(scan->first))
			scan->first[scan->nr++] = later->first[i];
		else if (k == scan->nr)
			scan->overflow = true;
		else if (attr_type(later->first[i]) == ATTR_LAUNCH && !launch_shows(scan->first[k]) &&
			 launch_shows(later->first[i]))
			scan->first[k] = later->first[i];
	}
	scan->overflow |= later->overflow;
	if (later->most > scan->most) {
		scan->most = later->most;
		scan->richest = later->richest;
	}
}

void pane_add_scanned_attr_columns(struct pane *pane, const struct attr_scan *scan,
				   const char *const *skip)
{
	/* The order of the row with the most attributes first (the format's
	 * own order, when one row lacks a value), then any key only other
	 * rows have, in the order they come (add_attr_column() skips a key
	 * it has). */
	for (const struct attr *a = scan->richest; a; a = attr_next(a))
		add_attr_column(pane, a, skip);
	for (size_t k = 0; k < scan->nr; k++)
		add_attr_column(pane, scan->first[k], skip);
	if (!scan->overflow || !pane->ops->row_attrs)
		return;
	/* More keys than the scan keeps: a second pass finds the rest. */
	for (size_t r = 0; r < pane->nr_rows; r++)
		for (const struct attr *a = pane->ops->row_attrs(pane, pane->rows[r]); a; a = attr_next(a))
			add_attr_column(pane, a, skip);
}

void pane_add_attr_columns(struct pane *pane, const char *const *skip)
{
	struct attr_scan scan = { 0 };

	if (!pane->ops->row_attrs)
		return;
	for (size_t r = 0; r < pane->nr_rows; r++)
		attr_scan_row(&scan, pane->ops->row_attrs(pane, pane->rows[r]));
	pane_add_scanned_attr_columns(pane, &scan, skip);
}

/* ---------------------------------------------------------------------
 * Sorting: stable, and fast enough for a million rows.  Numbers sort as
 * 64-bit keys by an LSD radix sort (stable by construction, four 16-bit
 * passes, skipping the passes where every key has the same digit); text
 * by a merge sort.  Rows without a value sort last either way.
 */


/* Below this many rows a merge sort beats the radix sort's 64K-entry
 * counting table: the Tree sorts every child list on its own, and most
 * have a handful of children (a table per list made unfolding a 2.5 M
 * node tree take 17 s). */
#define RADIX_MIN 2048
/* Below this many rows, a text sort compares whole strings at once. */
#define TEXT_FEW 64

static void merge_sort_keyed(struct keyed *a, struct keyed *tmp, size_t n)
{
	size_t half = n / 2, i = 0, j = half, k = 0;

	if (n < 2)
		return;
	if (n <= 8) {
		/* Insertion sort: stable, and cheapest for a few rows. */
		for (size_t x = 1; x < n; x++) {
			struct keyed v = a[x];
			size_t y = x;

			for (; y > 0 && a[y - 1].key > v.key; y--)
				a[y] = a[y - 1];
			a[y] = v;
		}
		return;
	}
	merge_sort_keyed(a, tmp, half);
	merge_sort_keyed(a + half, tmp, n - half);
	if (a[half - 1].key <= a[half].key)
		return;		/* already in order: children often are */
	while (i < half && j < n)
		tmp[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
	while (i < half)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

static void radix_sort(struct keyed *a, size_t n)
{
	struct keyed *tmp = xmalloc(n * sizeof(*tmp));
	size_t *count;

	if (n < RADIX_MIN) {
		merge_sort_keyed(a, tmp, n);
		free(tmp);
		return;
	}
	count = xmalloc(65536 * sizeof(*count));

	for (int shift = 0; shift < 64; shift += 16) {
		uint64_t first = (a[0].key >> shift) & 0xffff;
		bool same = true;
		size_t sum = 0;

		for (size_t i = 1; i < n && same; i++)
			same = ((a[i].key >> shift) & 0xffff) == first;
		if (same)
			continue;
		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xffff]++;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(a[i].key >> shift) & 0xffff]++] = a[i];
		memcpy(a, tmp, n * sizeof(*a));
	}
	free(count);
	free(tmp);
}

/* A double as an unsigned key with the same order. */
static uint64_t real_key(double d)
{
	uint64_t bits;

	if (d == 0)
		d = 0;	/* -0.0 and 0.0 are equal */
	memcpy(&bits, &d, sizeof(bits));
	return bits >> 63 ? ~bits : bits | (1ULL << 63);
}


static void merge_sort_text(struct text_key *a, struct text_key *tmp, size_t n, size_t from,
			    bool desc)
{
	size_t half = n / 2, i = 0, j = half, k = 0;

	if (n < 2)
		return;
	merge_sort_text(a, tmp, half, from, desc);
	merge_sort_text(a + half, tmp, n - half, from, desc);
	while (i < half && j < n) {
		/* Interned names: equal pointers, equal strings. */
		int c = a[i].s == a[j].s ? 0
			: desc ? strcmp(a[j].s + from, a[i].s + from) : strcmp(a[i].s + from, a[j].s + from);

		tmp[k++] = c <= 0 ? a[i++] : a[j++];
	}
	while (i < half)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

/* The first 16 bytes of S as two big-endian numbers: prefixes compare as
 * the strings do (a shorter string pads with NULs, which sort first). */
static void prefix16(const char *s, uint64_t *hi, uint64_t *lo)
{
	uint64_t k[2] = { 0, 0 };
	size_t i = 0;

	for (; i < 16 && s[i]; i++)
		k[i / 8] |= (uint64_t)(unsigned char)s[i] << (56 - 8 * (i % 8));
	*hi = k[0];
	*lo = k[1];
}

struct text16 {
	uint64_t hi, lo;	/* the first 16 bytes */
	size_t idx;		/* into the text_key array */
};

/* Stable LSD radix sort of A by (hi, lo), 16 bits a pass, skipping the
 * passes where every element has the same digit. */
static void radix_sort16(struct text16 *a, size_t n)
{
	struct text16 *tmp = xmalloc(n * sizeof(*tmp));
	size_t *count = xmalloc(65536 * sizeof(*count));

	for (int pass = 0; pass < 8; pass++) {
		int shift = (pass % 4) * 16;
		bool hi = pass >= 4;
		uint64_t first = ((hi ? a[0].hi : a[0].lo) >> shift) & 0xffff;
		bool same = true;
		size_t sum = 0;

		for (size_t i = 1; i < n && same; i++)
			same = (((hi ? a[i].hi : a[i].lo) >> shift) & 0xffff) == first;
		if (same)
			continue;
		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[((hi ? a[i].hi : a[i].lo) >> shift) & 0xffff]++;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[((hi ? a[i].hi : a[i].lo) >> shift) & 0xffff]++] = a[i];
		memcpy(a, tmp, n * sizeof(*a));
	}
	free(count);
	free(tmp);
}

/*
 * Text sorts stably: a radix sort on each string's first 16 bytes (one
 * cache miss per string, then sequential passes), then a merge sort of
 * the runs that share those 16 bytes by the rest.  A plain merge sort with
 * strcmp() took 270 ms on a million op names; this takes a fraction.
 * Missing values stay last whatever the direction.
 */
static void sort_text(struct text_key *a, size_t n, bool desc)
{
	struct text16 *k = xmalloc((n ? n : 1) * sizeof(*k));
	struct text_key *out = xmalloc((n ? n : 1) * sizeof(*out)), *tmp;
	size_t nr = 0, nr_missing = 0;

	for (size_t i = 0; i < n; i++) {
		if (!a[i].s)
			continue;
		prefix16(a[i].s, &k[nr].hi, &k[nr].lo);
		if (desc) {
			k[nr].hi = ~k[nr].hi;
			k[nr].lo = ~k[nr].lo;
		}
		k[nr].idx = i;
		nr++;
	}
	if (nr > 1 && nr < RADIX_MIN) {
		/* A few names: a merge sort by the whole string. */
		size_t m = 0;

		free(k);
		for (size_t i = 0; i < n; i++)
			if (a[i].s)
				out[m++] = a[i];
		tmp = xmalloc((nr ? nr : 1) * sizeof(*tmp));
		merge_sort_text(out, tmp, nr, 0, desc);
		free(tmp);
		for (size_t i = 0; i < n; i++)
			if (!a[i].s)
				out[nr + nr_missing++] = a[i];
		memcpy(a, out, n * sizeof(*a));
		free(out);
		return;
	}
	if (nr > 1)
		radix_sort16(k, nr);
	for (size_t i = 0; i < nr; i++)
		out[i] = a[k[i].idx];
	/* Runs equal in 16 bytes differ (if at all) further on. */
	tmp = xmalloc((nr ? nr : 1) * sizeof(*tmp));
	for (size_t i = 0; i < nr;) {
		size_t j = i + 1;

		while (j < nr && k[j].hi == k[i].hi && k[j].lo == k[i].lo)
			j++;
		/* A run whose 16th byte is NUL holds equal strings; one
		 * that reaches 16 bytes may differ after them. */
		if (j - i > 1 && ((desc ? ~k[i].lo : k[i].lo) & 0xff))
			merge_sort_text(out + i, tmp, j - i, 16, desc);
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		if (!a[i].s)
			out[nr + nr_missing++] = a[i];
	memcpy(a, out, n * sizeof(*a));
	free(tmp);
	free(out);
	free(k);
}

/*
 * Rows by a text column.  Many rows may share one string (a tree's nodes
 * hold interned names: equal names, equal pointers), so the distinct
 * strings are sorted once and rows then go by their string's rank, in a
 * stable radix sort: a 2.5 M node tree sorts by name as fast as it sorts
 * by a number.  Equal strings at different addresses get equal ranks.
 */
struct text_slot {
	const char *s;
	uint32_t uniq;
};

static uint32_t uniq_of(struct text_slot **tab, size_t *cap, size_t *nr,
			struct text_key **uniq, size_t *alloc, const char *s)
{
	size_t i;

	if (2 * (*nr + 1) > *cap) {
		struct text_slot *old = *tab;
		size_t old_cap = *cap;

		*cap = *cap ? 2 * *cap : 1024;
		*tab = xcalloc(*cap, sizeof(**tab));
		for (size_t k = 0; k < old_cap; k++) {
			if (!old[k].s)
				continue;
			for (i = hash_ptr(old[k].s) & (*cap - 1); (*tab)[i].s; i = (i + 1) & (*cap - 1))
				;
			(*tab)[i] = old[k];
		}
		free(old);
	}
	for (i = hash_ptr(s) & (*cap - 1); (*tab)[i].s; i = (i + 1) & (*cap - 1))
		if ((*tab)[i].s == s)
			return (*tab)[i].uniq;
	GROW(*uniq, *alloc, *nr + 1);
	(*uniq)[*nr].s = s;
	(*uniq)[*nr].idx = *nr;
	(*tab)[i].s = s;
	(*tab)[i].uniq = (uint32_t)*nr;
	return (uint32_t)(*nr)++;
}

/* Each of the NR distinct strings UNIQ[i].s (UNIQ[i].idx == i) ranked in
 * the sort's order, equal strings one rank: a new array, by i. */
static uint64_t *text_ranks(struct text_key *uniq, size_t nr, bool desc)
{
	uint64_t *rank = xmalloc((nr ? nr : 1) * sizeof(*rank));

	sort_text(uniq, nr, desc);
	for (size_t r = 0, k = 0; r < nr; r++) {
		if (r && strcmp(uniq[r - 1].s, uniq[r].s))
			k = r;
		rank[uniq[r].idx] = k;
	}
	return rank;
}

static void sort_by_text(const struct pane *pane, const struct column *c, size_t *idx, size_t n,
			 bool desc)
{
	struct keyed *a = xmalloc(n * sizeof(*a));
	struct text_slot *tab = NULL;
	struct text_key *uniq = NULL;
	uint64_t *rank;
	size_t cap = 0, nr = 0, alloc = 0;

	for (size_t i = 0; i < n; i++) {
		struct cell v = c->get(pane, pane->rows[idx[i]], c);

		a[i].idx = idx[i];
		a[i].key = v.type == CELL_TEXT ? uniq_of(&tab, &cap, &nr, &uniq, &alloc, v.v.s)
					       : UINT64_MAX;
	}
	free(tab);
	rank = text_ranks(uniq, nr, desc);
	for (size_t i = 0; i < n; i++)
		if (a[i].key != UINT64_MAX)
			a[i].key = rank[a[i].key];
	radix_sort(a, n);
	for (size_t i = 0; i < n; i++)
		idx[i] = a[i].idx;
	free(rank);
	free(uniq);
	free(a);
}

/* A few rows by text (their cells in CELLS): a stable merge sort by the
 * whole string, equal pointers (interned names) equal without a
 * strcmp(); missing values last, in their order. */
static void sort_few_by_text(const struct cell *cells, size_t *idx, size_t n, bool desc,
			     struct pane_sort_scratch *s)
{
	struct text_key *a, *tmp;
	size_t nr = 0, k = 0;

	GROW(s->text, s->text_cap, 2 * n);
	a = s->text;
	tmp = s->text + n;
	for (size_t i = 0; i < n; i++) {
		if (cells[i].type == CELL_TEXT)
			a[nr++] = (struct text_key){ cells[i].v.s, idx[i] };
		else
			tmp[k++] = (struct text_key){ NULL, idx[i] };
	}
	for (size_t i = 0; i < k; i++)
		idx[nr + i] = tmp[i].idx;
	merge_sort_text(a, tmp, nr, 0, desc);
	for (size_t i = 0; i < nr; i++)
		idx[i] = a[i].idx;
}

/* The radix key of cell V: ascending keys give the wanted order, and
 * rows without a value (UINT64_MAX) come last in either direction. */
static uint64_t cell_sort_key(const struct column *c, struct cell v, bool any_real, bool desc)
{
	uint64_t k;

	if (v.type == CELL_NONE)
		return UINT64_MAX;
	if (c->sort_by_magnitude && v.type == CELL_REAL)
		v.v.d = v.v.d < 0 ? -v.v.d : v.v.d;
	else if (c->sort_by_magnitude && v.v.i < 0)
		v.v.i = v.v.i == INT64_MIN ? INT64_MAX : -v.v.i;
	if (any_real)
		k = real_key(v.type == CELL_REAL ? v.v.d : (double)v.v.i);
	else
		k = (uint64_t)v.v.i ^ (1ULL << 63);
	/* Descending: the complement, kept below the missing values'
	 * UINT64_MAX. */
	if (desc)
		return ~k == UINT64_MAX ? UINT64_MAX - 1 : ~k;
	return k == UINT64_MAX ? UINT64_MAX - 1 : k;
}

/* Sort A[0..N) stably by key (A has room for N more after it: the merge
 * sort's) and put its indices in that order into IDX. */
static void sort_keyed_into(struct keyed *a, size_t n, size_t *idx)
{
	if (n < RADIX_MIN)
		merge_sort_keyed(a, a + n, n);
	else
		radix_sort(a, n);
	for (size_t i = 0; i < n; i++)
		idx[i] = a[i].idx;
}

void pane_sort_indices_with(const struct pane *pane, size_t *idx, size_t n, int col, bool desc,
			    struct pane_sort_scratch *s)
{
	const struct column *c;
	bool any_real = false, any_text = false;
	struct keyed *a;

	if (n < 2 || col < 0 || col >= (int)pane->nr_cols)
		return;
	c = &pane->cols[col];
	if (n >= TEXT_FEW) {
		for (size_t i = 0; i < n && !any_text; i++) {
			struct cell v = c->get(pane, pane->rows[idx[i]], c);

			any_real |= v.type == CELL_REAL;
			any_text |= v.type == CELL_TEXT;
		}
		if (any_text) {
			sort_by_text(pane, c, idx, n, desc);
			return;
		}
	} else {
		/* A short list (the Tree's): each cell fetched once. */
		GROW(s->cells, s->cells_cap, n);
		for (size_t i = 0; i < n; i++) {
			s->cells[i] = c->get(pane, pane->rows[idx[i]], c);
			any_real |= s->cells[i].type == CELL_REAL;
			any_text |= s->cells[i].type == CELL_TEXT;
		}
		if (any_text) {
			sort_few_by_text(s->cells, idx, n, desc, s);
			return;
		}
	}
	GROW(s->keyed, s->keyed_cap, 2 * n);
	a = s->keyed;
	for (size_t i = 0; i < n; i++) {
		struct cell v = n < TEXT_FEW ? s->cells[i] : c->get(pane, pane->rows[idx[i]], c);

		a[i].key = cell_sort_key(c, v, any_real, desc);
		a[i].idx = idx[i];
	}
	sort_keyed_into(a, n, idx);
}

/* The keys of N rows WHICH by a plain int64 field of theirs (C->arg), or
 * by a node's time (pane_get_node_time). */
struct field_keys {
	const struct pane *pane;
	const struct column *c;
	bool desc;
	const uint32_t *which;
	uint64_t *keys;
	size_t n;
};

#define FIELD_KEYS_PARALLEL (1u << 18)

static void *make_field_keys(void *arg)
{
	const struct field_keys *f = arg;
	const void *const *rows = (const void *const *)f->pane->rows;
	bool is_time = f->c->get == pane_get_node_time;
	enum node_time t = (enum node_time)f->c->arg;
	size_t at = (size_t)f->c->arg;

	for (size_t i = 0; i < f->n; i++) {
		const void *row = rows[f->which[i]];
		int64_t v;

		if (i + 16 < f->n && is_time)
			node_prefetch_time(rows[f->which[i + 16]], t);
		else if (i + 16 < f->n)
			PREFETCH((const char *)rows[f->which[i + 16]] + at);
		if (is_time)
			v = node_time(f->pane->prof, row, t);
		else
			memcpy(&v, (const char *)row + at, sizeof(v));
		f->keys[i] = cell_sort_key(f->c, cell_int(v), false, f->desc);
	}
	return NULL;
}

/*
 * Keys of many rows at once, for many small sorts of them by one column
 * (the Tree's child lists): one pass, whose reads of the rows overlap, in
 * place of a cache miss per row in each list.  A list sorted
 * by these keys, ties in its own order, comes out as
 * pane_sort_indices_with() sorts it, because the column's cells are of
 * one kind: all text, all integers or all reals (or none).  Where a
 * column mixes kinds, each list sorts by the kinds it holds, which no
 * one key per row can say: then false.
 */
bool pane_row_keys(const struct pane *pane, int col, bool desc, const uint32_t *which, size_t n,
		   uint64_t *keys)
{
	const struct column *c;
	struct text_slot *tab = NULL;
	struct text_key *uniq = NULL;
	uint64_t *rank;
	size_t cap = 0, nr = 0, alloc = 0;
	bool any_int = false, any_real = false, any_text = false;

	if (col < 0 || col >= (int)pane->nr_cols)
		return false;
	c = &pane->cols[col];
	if ((c->get == pane_get_i64 || c->get == pane_get_node_time) && !c->sort_by_magnitude) {
		/* A plain field of the row, or a node's time (in its 32 bits
		 * but for the few that are not): no call per row (the Tree's
		 * times, on 2.5 M nodes), in two halves at once when many. */
		size_t half = n >= FIELD_KEYS_PARALLEL && two_cpus() ? n / 2 : n;
		struct field_keys a = { pane, c, desc, which, keys, half };
		struct field_keys b = { pane, c, desc, which + half, keys + half, n - half };

		if (half < n)
			run_pair(make_field_keys, &a, &b);
		else
			make_field_keys(&a);
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		struct cell v;

		/* The rows a little ahead: their reads overlap this one's. */
		if (i + 16 < n)
			PREFETCH(pane->rows[which[i + 16]]);
		v = c->get(pane, pane->rows[which[i]], c);
		any_int |= v.type == CELL_INT;
		any_real |= v.type == CELL_REAL;
		any_text |= v.type == CELL_TEXT;
		if (any_text + any_int + any_real > 1)
			break;
		keys[i] = v.type == CELL_TEXT ? uniq_of(&tab, &cap, &nr, &uniq, &alloc, v.v.s)
					      : cell_sort_key(c, v, v.type == CELL_REAL, desc);
	}
	free(tab);
	if (any_text + any_int + any_real > 1) {
		free(uniq);
		return false;
	}
	if (!any_text)
		return true;
	rank = text_ranks(uniq, nr, desc);
	for (size_t i = 0; i < n; i++)
		if (keys[i] != UINT64_MAX)
			keys[i] = rank[keys[i]];
	free(rank);
	free(uniq);
	return true;
}

void pane_sort_by_keys(const uint64_t *keys, size_t *idx, size_t n, struct pane_sort_scratch *s)
{
	struct keyed *a;

	if (n < 2)
		return;
	GROW(s->keyed, s->keyed_cap, 2 * n);
	a = s->keyed;
	for (size_t i = 0; i < n; i++)
		a[i] = (struct keyed){ keys[i], idx[i] };
	sort_keyed_into(a, n, idx);
}

void pane_sort_indices(const struct pane *pane, size_t *idx, size_t n, int col, bool desc)
{
	struct pane_sort_scratch s = { 0 };

	pane_sort_indices_with(pane, idx, n, col, desc, &s);
	pane_sort_scratch_release(&s);
}

void pane_sort_scratch_release(struct pane_sort_scratch *s)
{
	free(s->keyed);
	free(s->text);
	free(s->cells);
	memset(s, 0, sizeof(*s));
}

void pane_view_flat(struct pane *pane)
{
	size_t n = 0;

	pane->view = xrealloc(pane->view, (pane->nr_rows ? pane->nr_rows : 1) * sizeof(*pane->view));
	for (size_t i = 0; i < pane->nr_rows; i++) {
		const char *name = pane->ops->row_name(pane, pane->rows[i]);

		if (!pane->filter || filter_match(pane->filter, name, strlen(name)))
			pane->view[n++] = i;
	}
	pane->nr_view = n;
	if (pane->sort_col < 0 && pane->sort_desc) {
		/* The model's order, reversed (r on the Steps pane). */
		for (size_t i = 0; i < n / 2; i++) {
			size_t t = pane->view[i];

			pane->view[i] = pane->view[n - 1 - i];
			pane->view[n - 1 - i] = t;
		}
		return;
	}
	pane_sort_indices(pane, pane->view, n, pane->sort_col, pane->sort_desc);
}

bool pane_empty_of_summary(const struct pane *pane)
{
	return pane->prof->is_summary && pane->nr_rows == 0;
}

bool pane_one_profile(const struct profile *prof, const struct pane_scope *scope)
{
	(void)prof;
	return !scope->set || scope->per_rank;
}

/* ---------------------------------------------------------------------
 * The optional hooks, each with its default
 */

enum pane_id pane_row_drill(const struct pane *pane, const void *row, struct pane_scope *scope)
{
	return pane->ops->drill ? pane->ops->drill(pane, row, scope) : PANE_NONE;
}

bool pane_can_drill(const struct pane *pane)
{
	return pane->ops->drill != NULL;
}

bool pane_available(const struct pane_ops *ops, const struct profile *prof,
		    const struct pane_scope *scope)
{
	return !ops->available || ops->available(prof, scope);
}

bool pane_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (!pane->ops->empty_text)
		return false;
	pane->ops->empty_text(pane, buf, size);
	return true;
}

bool pane_needs_trace(const struct pane *pane)
{
	return pane->ops->needs_trace && pane->ops->needs_trace(pane);
}

bool pane_status(const struct pane *pane, char *buf, size_t size)
{
	const struct pane_text_ops *t = pane->ops->text;

	if (!t || !t->status)
		return false;
	t->status(pane, buf, size);
	return true;
}

bool pane_why_blank(const struct pane *pane, char *buf, size_t size)
{
	const struct pane_text_ops *t = pane->ops->text;

	if (size)
		buf[0] = '\0';
	if (!t || !t->why_blank)
		return false;
	t->why_blank(pane, buf, size);
	return size && buf[0];
}

bool pane_export_name(const struct pane *pane, char *buf, size_t size)
{
	const struct pane_print_ops *p = pane->ops->print;

	if (!p || !p->export_name)
		return false;
	p->export_name(pane, buf, size);
	return true;
}

bool pane_export_own_json(const struct pane *pane, FILE *out, size_t limit, long *rows)
{
	const struct pane_print_ops *p = pane->ops->print;

	if (!p || !p->export_json)
		return false;
	*rows = p->export_json(pane, out, limit);
	return true;
}

void pane_detail(const struct pane *pane, const void *row, struct detail *d)
{
	const struct pane_text_ops *t = pane->ops->text;

	if (t && t->detail)
		t->detail(pane, row, d);
}

bool pane_has_bars(const struct pane *pane)
{
	const struct pane_picture_ops *p = pane->ops->picture;

	return p && p->bar && p->legend;
}

size_t pane_bar(const struct pane *pane, const void *row, int64_t *seg, size_t max)
{
	const struct pane_picture_ops *p = pane->ops->picture;

	return p && p->bar ? p->bar(pane, row, seg, max) : 0;
}

const char *const *pane_legend(const struct pane *pane, size_t *nr)
{
	const struct pane_picture_ops *p = pane->ops->picture;

	*nr = 0;
	return p && p->legend ? p->legend(pane, nr) : NULL;
}

bool pane_type_is_picture(const struct pane_ops *ops)
{
	return ops->picture && ops->picture->canvas;
}

bool pane_is_picture(const struct pane *pane)
{
	return pane_type_is_picture(pane->ops);
}

void pane_paint(struct pane *pane, struct canvas *c)
{
	if (pane_is_picture(pane))
		pane->ops->picture->canvas(pane, c);
}

bool pane_click(struct pane *pane, int y, int x, bool twice)
{
	const struct pane_picture_ops *p = pane->ops->picture;

	return p && p->click && p->click(pane, y, x, twice);
}

bool pane_drag(struct pane *pane, int x0, int x1, struct pane_request *req)
{
	const struct pane_picture_ops *p = pane->ops->picture;

	memset(req, 0, sizeof(*req));
	return p && p->drag && p->drag(pane, x0, x1, req);
}

size_t pane_chart(const struct pane *pane, int width, int height, bool utf8, struct canvas *out)
{
	const struct pane_picture_ops *p = pane->ops->picture;

	return p && p->chart ? p->chart(pane, width, height, utf8, out) : 0;
}

/* The actions the bar's hint names on a pane that names none, where
 * they apply (hint_applies()). */
static const enum action generic_hints[] = {
	ACT_HELP, ACT_FILTER, ACT_SORT_DEVICE_SELF, ACT_DRILL, ACT_INSPECT, ACT_EXPORT, ACT_BACK,
	ACT_NONE,
};

/* Whether the generic hint's action A does something on PANE: a sort key
 * needs its column, Enter a drill-down, i a row. */
static bool hint_applies(const struct pane *pane, enum action a)
{
	switch (a) {
	case ACT_SORT_DEVICE_SELF:
		return pane_column(pane, "device_self") >= 0 || pane_column(pane, "total") >= 0;
	case ACT_SORT_HOST_SELF:
		return pane_column(pane, "host_self") >= 0;
	case ACT_DRILL:
		return pane_can_drill(pane) && pane->nr_view > 0;
	case ACT_INSPECT:
		return pane->nr_rows > 0;
	default:
		return true;
	}
}

size_t pane_hint_actions(const struct pane *pane, enum action *acts, size_t max)
{
	const enum action *own = pane->ops->text ? pane->ops->text->hints : NULL;
	size_t n = 0;

	for (size_t i = 0; (own ? own : generic_hints)[i] != ACT_NONE && n < max; i++) {
		enum action a = (own ? own : generic_hints)[i];

		if (!own && a == ACT_SORT_DEVICE_SELF && !hint_applies(pane, a))
			a = ACT_SORT_HOST_SELF;
		if (!own && !hint_applies(pane, a))
			continue;
		acts[n++] = a;
	}
	return n;
}

enum drill_to pane_print_drill(const struct pane_ops *ops)
{
	return ops->print ? ops->print->drill : DRILL_NONE;
}

const char *pane_group_by(const struct pane_ops *ops)
{
	return ops->print ? ops->print->group_by : NULL;
}
