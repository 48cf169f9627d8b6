/* SPDX-License-Identifier: MIT */
/*
 * keyindex: from 64-bit keys to indices into an array the caller keeps
 * (a device's sums, a stream's lane).  Open addressing with the keyed
 * hash_u64(), so neither a profile's few keys nor a hostile profile's
 * many cost a search along the caller's array.
 */
#ifndef MODEL_KEYINDEX_H
#define MODEL_KEYINDEX_H

#include <stddef.h>
#include <stdint.h>

#define KEY_INDEX_NONE SIZE_MAX

struct key_index {
	uint64_t *keys;
	size_t *vals;			/* KEY_INDEX_NONE: a free slot */
	size_t nr, cap;
};

/* The index stored for KEY, or KEY_INDEX_NONE.  T may be zeroed. */
size_t key_index_get(const struct key_index *t, uint64_t key);
/* Store VAL (not KEY_INDEX_NONE) for KEY, replacing what was there. */
void key_index_put(struct key_index *t, uint64_t key, size_t val);
void key_index_release(struct key_index *t);

#endif
