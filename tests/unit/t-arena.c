// SPDX-License-Identifier: MIT
/*
 * The arena holds memory in proportion to what it was asked for (issue
 * 29, item 7): a log of 100,000 tables is 100,000 runs, each with an
 * arena that holds a few hundred bytes, and a first chunk of a megabyte
 * each made it cost gigabytes.  The tests read the arena's own count of
 * its chunks' bytes, never the process's memory.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "model/arena.h"
#include "model/util.h"
#include "test.h"

/* Ask A for N allocations of SIZE bytes, each written to whole (the
 * bytes really are there); returns the bytes asked for. */
static size_t fill(struct arena *a, size_t n, size_t size)
{
	for (size_t i = 0; i < n; i++)
		memset(arena_alloc_unaligned(a, size), 'x', size);
	return n * size;
}

static void test_small_arena_holds_little(void)
{
	struct arena a;

	arena_init(&a);
	CHECK_EQ(a.total_bytes, 0);
	fill(&a, 10, 30);
	/* 300 bytes: one small chunk, not a megabyte. */
	CHECK(a.total_bytes > 0 && a.total_bytes <= 1024);
	arena_release(&a);
	CHECK_EQ(a.total_bytes, 0);
}

/* However much it grows, the arena holds at most twice what it was asked
 * for plus one chunk of the largest size (1 MiB), padding aside. */
static void test_growth_is_proportional(void)
{
	static const size_t sizes[] = { 7, 100, 1000, 5000, 300000 };

	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t asked = 0;
		struct arena a;

		arena_init(&a);
		for (int round = 0; round < 12; round++) {
			asked += fill(&a, (size_t)1 << round, sizes[k]);
			if (a.total_bytes > 2 * asked + (1u << 20)) {
				fprintf(stderr, "%zu-byte pieces: %zu bytes held for %zu asked\n",
					sizes[k], a.total_bytes, asked);
				CHECK(!"proportional");
				break;
			}
		}
		arena_release(&a);
	}
}

/* Aligned, zeroed and distinct however the chunks are cut. */
static void test_allocations_stay_sound(void)
{
	struct arena a;
	char *prev = NULL;

	arena_init(&a);
	for (size_t i = 1; i < 3000; i += 7) {
		char *p = arena_alloc(&a, i);

		CHECK(((uintptr_t)p & (alignof(max_align_t) - 1)) == 0);
		for (size_t j = 0; j < i; j++)
			if (p[j]) {
				CHECK(!"zeroed");
				break;
			}
		memset(p, 0xa5, i);
		CHECK(p != prev);
		prev = p;
	}
	CHECK(!strcmp(arena_strndup(&a, "abcdef", 3), "abc"));
	arena_release(&a);
}

const struct test tests[] = {
	{ "a small arena holds a small chunk", test_small_arena_holds_little },
	{ "an arena holds what it was asked for, at most doubled", test_growth_is_proportional },
	{ "allocations stay aligned, zeroed and apart", test_allocations_stay_sound },
	{ 0 },
};
