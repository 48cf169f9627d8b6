/* SPDX-License-Identifier: MIT */
/*
 * arena: a bump allocator that owns everything one profile holds.
 *
 * Nodes, interned names, steps and attributes are carved from large chunks
 * and never freed one by one; arena_release() returns every chunk at once
 * (the idea of git's mem-pool.h).  Allocation never fails: out of memory
 * calls die(), see util.h.
 */
#ifndef MODEL_ARENA_H
#define MODEL_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunk;	/* newest chunk; older ones follow */
	char *next, *end;		/* free space in the newest chunk */
	size_t total_bytes;		/* every chunk, for memory figures */
};

void arena_init(struct arena *a);
/* Free every chunk; the arena is empty and reusable afterwards. */
void arena_release(struct arena *a);
/* SIZE zeroed bytes aligned for any scalar; valid until arena_release(). */
void *arena_alloc(struct arena *a, size_t size);
/* A NUL-terminated copy of the N bytes at S. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);

#endif
