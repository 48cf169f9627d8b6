// SPDX-License-Identifier: MIT
/*
 * What every stage of a Kineto read does with records (kineto_int.h):
 * External ids kept in 32 bits where they fit, and the sort that skips
 * arrays already in order.  Reading, linking and the steps all use them,
 * so they live below the three.
 */
#include <stdlib.h>

#include "../../model/util.h"
#include "kineto_int.h"

void kineto_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	const char *p = base;
	size_t i;

	for (i = 1; i < n; i++)
		if (cmp(p + (i - 1) * size, p + i * size) > 0)
			break;
	if (i < n)
		qsort(base, n, size, cmp);
}

uint32_t kineto_ext_narrow(struct wide_ids *w, size_t index, int64_t ext)
{
	if (ext >= 0 && ext < EXT_NONE)
		return (uint32_t)ext;
	if (ext == NO_ID)
		return EXT_NONE;
	GROW(w->v, w->alloc, w->nr + 1);
	w->v[w->nr].index = (uint32_t)index;
	w->v[w->nr++].id = ext;
	return EXT_WIDE;
}

int64_t kineto_ext_id(const struct wide_ids *w, size_t index, uint32_t ext)
{
	size_t lo = 0, hi = w->nr;

	if (ext < EXT_NONE)
		return ext;
	if (ext == EXT_NONE)
		return NO_ID;
	while (lo < hi) {	/* it is there: the model put it */
		size_t mid = lo + (hi - lo) / 2;

		if (w->v[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return w->v[lo].id;
}
