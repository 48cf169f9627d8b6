// SPDX-License-Identifier: MIT
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "util.h"

/* Chunks start small and each is as large as all before it, up to the
 * largest: a run of a log with 100,000 tables holds a few hundred bytes,
 * and a fixed first chunk of a megabyte made such a log cost gigabytes.
 * The largest is big enough that a 1 GB trace needs a few hundred. */
#define FIRST_CHUNK_BYTES 512
#define MAX_CHUNK_BYTES (1024 * 1024)
#define ALIGN alignof(max_align_t)

struct arena_chunk {
	struct arena_chunk *older;
	size_t size;
	alignas(max_align_t) char data[];
};

void arena_init(struct arena *a)
{
	memset(a, 0, sizeof(*a));
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c = a->chunk;

	while (c) {
		struct arena_chunk *older = c->older;

		free(c);
		c = older;
	}
	arena_init(a);
}

/* An arena's first chunks are left to fill as they are used: a set of
 * 1,000 summaries would otherwise hold 1,000 chunk tails that are never
 * used (500 MB).  populate_pages() says why a big one's are not. */
#define POPULATE_AFTER (4 * MAX_CHUNK_BYTES)

static char *align_up(char *p, size_t align)
{
	return (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
}

/* The size of A's next chunk: the arena doubles, so that what it holds
 * beyond what it uses is at most what it uses, plus a chunk. */
static size_t next_chunk_bytes(const struct arena *a)
{
	if (a->total_bytes < FIRST_CHUNK_BYTES)
		return FIRST_CHUNK_BYTES;
	return a->total_bytes < MAX_CHUNK_BYTES ? a->total_bytes : MAX_CHUNK_BYTES;
}

void *arena_alloc(struct arena *a, size_t size)
{
	return arena_alloc_aligned(a, size, ALIGN);
}

void *arena_alloc_aligned(struct arena *a, size_t size, size_t align)
{
	char *p = a->next ? align_up(a->next, align) : NULL;

	if (size > SIZE_MAX / 2)
		die("out of memory");
	if (!p || p > a->end || (size_t)(a->end - p) < size) {
		/* A big request gets a chunk of its own, linked behind the
		 * current one so the current one keeps filling. */
		size_t chunk = next_chunk_bytes(a);
		size_t want = size > chunk / 4 ? size : chunk;
		struct arena_chunk *c = xmalloc(sizeof(*c) + want);

		c->size = want;
		if (a->total_bytes >= POPULATE_AFTER)
			populate_pages(c->data, want);
		a->total_bytes += want;
		if (want == size && a->chunk) {
			c->older = a->chunk->older;
			a->chunk->older = c;
			memset(c->data, 0, size);
			return c->data;
		}
		c->older = a->chunk;
		a->chunk = c;
		p = c->data;
		a->end = c->data + want;
	}
	a->next = p + size;
	memset(p, 0, size);
	return p;
}

/* Strings need no alignment: take bytes from the front directly when they
 * fit, so names do not waste up to 15 bytes each. */
void *arena_alloc_unaligned(struct arena *a, size_t size)
{
	char *p;

	if (a->next && (size_t)(a->end - a->next) >= size) {
		p = a->next;
		a->next += size;
		return p;
	}
	return arena_alloc(a, size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc_unaligned(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}
