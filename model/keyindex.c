// SPDX-License-Identifier: MIT
#include <stdlib.h>

#include "keyindex.h"
#include "util.h"

static size_t slot_of(const struct key_index *t, uint64_t key)
{
	size_t mask = t->cap - 1, i = hash_u64(key) & mask;

	while (t->vals[i] != KEY_INDEX_NONE && t->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

size_t key_index_get(const struct key_index *t, uint64_t key)
{
	return t->cap ? t->vals[slot_of(t, key)] : KEY_INDEX_NONE;
}

static void grow(struct key_index *t)
{
	struct key_index old = *t;

	t->cap = old.cap ? 2 * old.cap : 16;
	t->keys = xmalloc(t->cap * sizeof(*t->keys));
	t->vals = xmalloc(t->cap * sizeof(*t->vals));
	for (size_t i = 0; i < t->cap; i++)
		t->vals[i] = KEY_INDEX_NONE;
	for (size_t i = 0; i < old.cap; i++)
		if (old.vals[i] != KEY_INDEX_NONE) {
			size_t s = slot_of(t, old.keys[i]);

			t->keys[s] = old.keys[i];
			t->vals[s] = old.vals[i];
		}
	free(old.keys);
	free(old.vals);
}

void key_index_put(struct key_index *t, uint64_t key, size_t val)
{
	size_t s;

	if (2 * (t->nr + 1) > t->cap)	/* at most half full */
		grow(t);
	s = slot_of(t, key);
	if (t->vals[s] == KEY_INDEX_NONE)
		t->nr++;
	t->keys[s] = key;
	t->vals[s] = val;
}

void key_index_release(struct key_index *t)
{
	free(t->keys);
	free(t->vals);
	t->keys = NULL;
	t->vals = NULL;
	t->nr = t->cap = 0;
}
