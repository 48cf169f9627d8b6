// SPDX-License-Identifier: MIT
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"
#include "util.h"

/* Big enough that a 1 GB trace needs a few hundred chunks, small enough
 * that a tiny profile does not touch much memory (malloc of 1 MiB is an
 * mmap the kernel fills lazily). */
#define CHUNK_BYTES (1024 * 1024)
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

/*
 * Fault in a new chunk's pages with one call rather than a fault a page:
 * a big trace fills hundreds of chunks at once, and a first touch costs a
 * trap each (about 4% of a 1 GB load's CPU time).  Only where the kernel
 * can (Linux 5.14); the pages are used right away, so no RSS is wasted
 * but the last chunk's tail.
 */
static void fault_in(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(page - 1);

	if (to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

static char *align_up(char *p, size_t align)
{
	return (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
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
		size_t want = size > CHUNK_BYTES / 4 ? size : CHUNK_BYTES;
		struct arena_chunk *c = xmalloc(sizeof(*c) + want);

		c->size = want;
		a->total_bytes += want;
		fault_in(c->data, want);
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
