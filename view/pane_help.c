// SPDX-License-Identifier: MIT
/*
 * The help screen is a pane like the others (so it scrolls, filters and
 * exports): one row per action that works in the pane it helps with and
 * has keys bound there, then one row per column of that pane.  Generated
 * from the live keymap and ACTIONS, it cannot drift from what the keys do.
 */
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "actions.h"
#include "pane.h"

struct help_row {
	const char *what;	/* "key" or "column" */
	char *keys;		/* "s <F4>", or the column's key */
	char *name;		/* action name, or column title */
	char *text;		/* copies: the helped pane may go first */
};

struct help_priv {
	struct help_row *rows;
	size_t nr;
};

#define HELP(r) ((const struct help_row *)(r))

static const char *help_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return HELP(row)->name;
}

static struct cell get_keys(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(HELP(row)->keys);
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(HELP(row)->name);
}

static struct cell get_text(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(HELP(row)->text);
}

static const struct column help_cols[] = {
	{ .key = "keys", .title = "Keys", .kind = COL_TEXT, .width = 16, .get = get_keys,
	  .help = "the keys bound to the action here, or a column's key" },
	{ .key = "name", .title = "Action or column", .kind = COL_NAME, .get = get_name,
	  .help = "the action's name in key files, or the column's title" },
	{ .key = "meaning", .title = "Meaning", .kind = COL_TEXT, .get = get_text, .wrap = true,
	  .help = "what it does, or what the column holds" },
};

static void help_load(struct pane *pane)
{
	const struct help_arg *ha = pane->scope.arg;
	struct help_priv *hp = xcalloc(1, sizeof(*hp));
	size_t alloc = 0;

	pane->priv = hp;
	for (int a = 1; a < NR_ACTIONS; a++) {
		char keys[256];

		/* An action only some panes take is listed where it works:
		 * the same data that says "works in ..." elsewhere. */
		if (action_is_pane_only((enum action)a) && ha->of &&
		    !pane_type_takes(ha->of->ops, (enum action)a))
			continue;
		if (!ha->keys_of(ha->ctx, (enum action)a, keys, sizeof(keys)))
			continue;
		GROW(hp->rows, alloc, hp->nr + 1);
		hp->rows[hp->nr].what = "key";
		hp->rows[hp->nr].keys = xstrdup(keys);
		hp->rows[hp->nr].name = xstrdup(action_name((enum action)a));
		hp->rows[hp->nr].text = xstrdup(action_help((enum action)a));
		hp->nr++;
	}
	for (size_t c = 0; ha->of && c < ha->of->nr_cols; c++) {
		const struct column *col = &ha->of->cols[c];
		char key[128];

		GROW(hp->rows, alloc, hp->nr + 1);
		hp->rows[hp->nr].what = "column";
		hp->rows[hp->nr].keys = xstrdup(column_json_key(col, key, sizeof(key)));
		hp->rows[hp->nr].name = xstrdup(col->title);
		hp->rows[hp->nr].text = xstrdup(col->help ? col->help : "");
		hp->nr++;
	}
	pane->rows = xmalloc((hp->nr ? hp->nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < hp->nr; i++)
		pane->rows[i] = &hp->rows[i];
	pane->nr_rows = hp->nr;
	for (size_t i = 0; i < ARRAY_SIZE(help_cols); i++)
		pane_add_column(pane, &help_cols[i]);
	pane->sort_col = -1;
}

static void help_release(struct pane *pane)
{
	struct help_priv *hp = pane->priv;

	if (!hp)
		return;
	for (size_t i = 0; i < hp->nr; i++) {
		free(hp->rows[i].keys);
		free(hp->rows[i].name);
		free(hp->rows[i].text);
	}
	free(hp->rows);
	free(hp);
}

const struct pane_ops help_pane_ops = {
	.id = PANE_HELP,
	.load = help_load, .row_name = help_name, .release = help_release,
};
