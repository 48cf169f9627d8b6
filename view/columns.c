// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "columns.h"

void col_choice_release(struct col_choice *cc)
{
	for (size_t i = 0; i < cc->nr; i++)
		free(cc->v[i].key);
	free(cc->v);
	memset(cc, 0, sizeof(*cc));
}

void col_choice_add(struct col_choice *cc, const char *key, bool is_shown)
{
	GROW(cc->v, cc->alloc, cc->nr + 1);
	cc->v[cc->nr].key = xstrdup(key);
	cc->v[cc->nr].is_shown = is_shown;
	cc->nr++;
}

void col_choice_copy(struct col_choice *dst, const struct col_choice *src)
{
	if (dst == src)
		return;
	col_choice_release(dst);
	for (size_t i = 0; src && i < src->nr; i++)
		col_choice_add(dst, src->v[i].key, src->v[i].is_shown);
}

static int find_key(const struct pane *pane, const char *key)
{
	for (size_t c = 0; c < pane->nr_cols; c++)
		if (!strcmp(pane->cols[c].key, key))
			return (int)c;
	return -1;
}

size_t columns_all(const struct col_choice *cc, const struct pane *pane, int *out, bool *shown,
		   size_t max)
{
	bool *placed = xcalloc(pane->nr_cols ? pane->nr_cols : 1, sizeof(*placed));
	size_t n = 0;

	for (size_t i = 0; cc && i < cc->nr && n < max; i++) {
		int c = find_key(pane, cc->v[i].key);

		if (c < 0 || placed[c])
			continue;
		placed[c] = true;
		out[n] = c;
		if (shown)
			shown[n] = cc->v[i].is_shown || pane->cols[c].kind == COL_NAME;
		n++;
	}
	for (size_t c = 0; c < pane->nr_cols && n < max; c++) {
		if (placed[c])
			continue;
		out[n] = (int)c;
		if (shown)
			shown[n] = !pane->cols[c].hidden;
		n++;
	}
	free(placed);
	return n;
}

size_t columns_order(const struct col_choice *cc, const struct pane *pane, int *out, size_t max)
{
	bool *shown = xmalloc((max ? max : 1) * sizeof(*shown));
	size_t n = columns_all(cc, pane, out, shown, max), k = 0;

	for (size_t i = 0; i < n; i++)
		if (shown[i])
			out[k++] = out[i];
	free(shown);
	return k;
}

void columns_choose(struct col_choice *cc, const struct pane *pane, const int *order,
		    const bool *shown, size_t nr)
{
	col_choice_release(cc);
	for (size_t i = 0; i < nr; i++)
		col_choice_add(cc, pane->cols[order[i]].key, shown[i]);
}
