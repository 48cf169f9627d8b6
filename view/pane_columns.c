// SPDX-License-Identifier: MIT
/*
 * The column chooser (htop's setup screen): one row per column of the
 * pane it was opened from, in screen order, each shown or hidden.  Space
 * shows or hides the column under the cursor, K and J move it up and
 * down the list (left and right on screen).  Every change goes at once
 * into the choice the UI keeps for that pane type (columns.h), for the
 * run; save-config (W) writes it to the config file.
 */
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "columns.h"
#include "pane.h"

struct col_item {
	int col;		/* index into of->cols */
	bool is_shown;
};

struct chooser {
	struct columns_arg arg;
	struct col_item *items;
	size_t nr;
};

#define ITEM(r) ((const struct col_item *)(r))

static const struct column *col_of(const struct pane *pane, const void *row)
{
	const struct chooser *ch = pane->priv;

	return &ch->arg.of->cols[ITEM(row)->col];
}

static const char *item_name(const struct pane *pane, const void *row)
{
	return col_of(pane, row)->title;
}

static struct cell get_shown(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ITEM(row)->is_shown ? "[x]" : "[ ]");
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

static const struct column chooser_cols[] = {
	{ .key = "shown", .title = "Show", .kind = COL_TEXT, .width = 4, .get = get_shown,
	  .help = "[x]: the pane shows the column" },
	{ .key = "column", .title = "Column", .kind = COL_NAME, .get = get_title,
	  .help = "the column's title" },
	{ .key = "key", .title = "Key", .kind = COL_TEXT, .width = 16, .get = get_key,
	  .help = "its name for --sort, exports and the config file" },
	{ .key = "meaning", .title = "Meaning", .kind = COL_TEXT, .get = get_help,
	  .help = "what the column holds" },
};

static void chooser_load(struct pane *pane)
{
	const struct columns_arg *ca = pane->scope.arg;
	struct chooser *ch = xcalloc(1, sizeof(*ch));
	size_t n = ca->of->nr_cols;
	int *order = xmalloc((n ? n : 1) * sizeof(*order));
	bool *shown = xmalloc((n ? n : 1) * sizeof(*shown));

	pane->priv = ch;
	ch->arg = *ca;
	ch->nr = columns_all(ca->choice, ca->of, order, shown, n);
	ch->items = xcalloc(ch->nr ? ch->nr : 1, sizeof(*ch->items));
	pane->rows = xmalloc((ch->nr ? ch->nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < ch->nr; i++) {
		ch->items[i].col = order[i];
		ch->items[i].is_shown = shown[i];
		pane->rows[i] = &ch->items[i];
	}
	pane->nr_rows = ch->nr;
	free(order);
	free(shown);
	for (size_t i = 0; i < ARRAY_SIZE(chooser_cols); i++)
		pane_add_column(pane, &chooser_cols[i]);
	pane->sort_col = -1;
	pane->title = xstrdup("columns");
}

/* The choice, from the items as they stand. */
static void save_choice(struct chooser *ch)
{
	int *order = xmalloc((ch->nr ? ch->nr : 1) * sizeof(*order));
	bool *shown = xmalloc((ch->nr ? ch->nr : 1) * sizeof(*shown));

	for (size_t i = 0; i < ch->nr; i++) {
		order[i] = ch->items[i].col;
		shown[i] = ch->items[i].is_shown;
	}
	columns_choose(ch->arg.choice, ch->arg.of, order, shown, ch->nr);
	free(order);
	free(shown);
}

static bool chooser_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct chooser *ch = pane->priv;
	const struct col_item *row = pane_row(pane, pane->cursor);
	size_t i, j;

	if (!row)
		return false;
	i = (size_t)(row - ch->items);
	switch (act) {
	case ACT_TOGGLE_COLUMN:
	case ACT_DRILL:
		if (ch->arg.of->cols[ch->items[i].col].kind == COL_NAME) {
			req->message = "the name column is always shown";
			req->is_error = true;
			return true;
		}
		ch->items[i].is_shown = !ch->items[i].is_shown;
		break;
	case ACT_COLUMN_UP:
	case ACT_COLUMN_DOWN:
		if (pane->filter) {
			req->message = "clear the filter to move columns";
			req->is_error = true;
			return true;
		}
		j = act == ACT_COLUMN_UP ? i - 1 : i + 1;
		if (i == 0 && act == ACT_COLUMN_UP)
			return true;
		if (j >= ch->nr)
			return true;
		{
			struct col_item t = ch->items[i];

			ch->items[i] = ch->items[j];
			ch->items[j] = t;
		}
		pane->cursor = j;	/* the view is the items' order */
		break;
	default:
		return false;
	}
	save_choice(ch);
	return true;
}

static void chooser_release(struct pane *pane)
{
	struct chooser *ch = pane->priv;

	if (!ch)
		return;
	free(ch->items);
	free(ch);
}

static const enum action chooser_hints[] = {
	ACT_TOGGLE_COLUMN, ACT_COLUMN_UP, ACT_COLUMN_DOWN, ACT_BACK, ACT_NONE,
};

/* The actions handle() takes. */
static const enum action chooser_actions[] = {
	ACT_TOGGLE_COLUMN, ACT_DRILL, ACT_COLUMN_UP, ACT_COLUMN_DOWN, ACT_NONE,
};

static const struct pane_text_ops chooser_text = {
	.hints = chooser_hints, .where = "in the column chooser (| or F2)",
};

const struct pane_ops columns_pane_ops = {
	.id = PANE_COLUMNS,
	.load = chooser_load, .row_name = item_name, .handle = chooser_handle, .actions = chooser_actions,
	.release = chooser_release, .text = &chooser_text,
};
