// SPDX-License-Identifier: MIT
/*
 * Sort by (htop's F6): the columns of the pane it was opened from that a
 * sort can use, the current one marked with its direction; Enter sorts
 * that pane by the column under the cursor (again on the current one:
 * reversed) and closes the list.  The UI does the sorting (the request's
 * SORT), so that no pane changes another.
 */
#include <stdlib.h>

#include "../model/util.h"
#include "pane.h"

struct sort_item {
	int col;		/* index into of->cols */
};

struct sort_by {
	const struct pane *of;
	struct sort_item *items;
	size_t nr;
};

#define ITEM(r) ((const struct sort_item *)(r))

static const struct column *col_of(const struct pane *pane, const void *row)
{
	const struct sort_by *sb = pane->priv;

	return &sb->of->cols[ITEM(row)->col];
}

static const char *item_name(const struct pane *pane, const void *row)
{
	return col_of(pane, row)->title;
}

static struct cell get_mark(const struct pane *pane, const void *row, const struct column *c)
{
	const struct sort_by *sb = pane->priv;

	(void)c;
	if (ITEM(row)->col != sb->of->sort_col)
		return cell_text("");
	return cell_text(sb->of->sort_desc ? "desc" : "asc");
}

static struct cell get_title(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(col_of(pane, row)->title);
}

static struct cell get_key(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(col_of(pane, row)->key);
}

static struct cell get_help(const struct pane *pane, const void *row, const struct column *c)
{
	const char *h = col_of(pane, row)->help;

	(void)c;
	return cell_text(h ? h : "");
}

static const struct column sort_cols[] = {
	{ .key = "sort", .title = "Sort", .kind = COL_TEXT, .width = 4, .get = get_mark,
	  .help = "the pane's sort now: desc (largest first) or asc" },
	{ .key = "column", .title = "Column", .kind = COL_NAME, .get = get_title,
	  .help = "the column's title" },
	{ .key = "key", .title = "Key", .kind = COL_TEXT, .width = 16, .get = get_key,
	  .help = "its name for --sort" },
	{ .key = "meaning", .title = "Meaning", .kind = COL_TEXT, .get = get_help,
	  .help = "what the column holds" },
};

static void sort_by_load(struct pane *pane)
{
	const struct pane *of = pane->scope.arg;
	struct sort_by *sb = xcalloc(1, sizeof(*sb));

	pane->priv = sb;
	sb->of = of;
	sb->items = xcalloc(of->nr_cols ? of->nr_cols : 1, sizeof(*sb->items));
	pane->rows = xmalloc((of->nr_cols ? of->nr_cols : 1) * sizeof(*pane->rows));
	for (size_t c = 0; c < of->nr_cols; c++) {
		if (of->cols[c].kind == COL_BAR)
			continue;	/* a picture, not a value */
		sb->items[sb->nr].col = (int)c;
		pane->rows[sb->nr] = &sb->items[sb->nr];
		sb->nr++;
	}
	pane->nr_rows = sb->nr;
	for (size_t i = 0; i < ARRAY_SIZE(sort_cols); i++)
		pane_add_column(pane, &sort_cols[i]);
	pane->sort_col = -1;	/* the pane's own column order */
	pane->title = xstrdup("sort by");
}

static bool sort_by_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	const struct sort_item *row = pane_row(pane, pane->cursor);

	if (act != ACT_DRILL || !row)
		return false;
	req->sort = true;
	req->sort_col = row->col;
	return true;
}

static void sort_by_release(struct pane *pane)
{
	struct sort_by *sb = pane->priv;

	if (!sb)
		return;
	free(sb->items);
	free(sb);
}

static const enum action sort_by_hints[] = { ACT_DRILL, ACT_BACK, ACT_NONE };
static const enum action sort_by_actions[] = { ACT_DRILL, ACT_NONE };

static const struct pane_text_ops sort_by_text = {
	.hints = sort_by_hints, .where = "in Sort by (F6)",
};

const struct pane_ops sort_by_pane_ops = {
	.id = PANE_SORT_BY,
	.load = sort_by_load, .row_name = item_name, .handle = sort_by_handle,
	.actions = sort_by_actions, .release = sort_by_release, .text = &sort_by_text,
};
