/* SPDX-License-Identifier: MIT */
/*
 * arena: a bump allocator that owns most of what one profile holds.
 *
 * Interned names, strings and steps are carved from chunks, each as large
 * as all before it up to a megabyte, so that an arena holds in proportion
 * to what it was asked for; they are never freed one by one, and
 * arena_release() returns every chunk at once (the idea of git's
 * mem-pool.h).  Allocation never fails: out of memory
 * calls die(), see util.h.
 */
#ifndef MODEL_ARENA_H
#define MODEL_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunk;	/* newest chunk; older ones follow */
	char *next, *end;		/* free space in the newest chunk */
	size_t total_bytes;		/* every chunk, for memory figures and
					   the next chunk's size */
};

void arena_init(struct arena *a);
/* Free every chunk; the arena is empty and reusable afterwards. */
void arena_release(struct arena *a);
/* SIZE zeroed bytes aligned for any scalar; valid until arena_release(). */
void *arena_alloc(struct arena *a, size_t size);
/* The same, aligned to ALIGN (a power of two, at most that of any
 * scalar): a record of 8-byte fields needs 8, and padding it to 16 would
 * waste up to 8 bytes in each of many. */
void *arena_alloc_aligned(struct arena *a, size_t size, size_t align);
/* SIZE bytes at any alignment (not zeroed): for strings. */
void *arena_alloc_unaligned(struct arena *a, size_t size);
/* A NUL-terminated copy of the N bytes at S. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);

#endif
