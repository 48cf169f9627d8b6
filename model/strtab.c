// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "strtab.h"
#include "util.h"

/* Eight bytes at a time with a multiply-mix: kernel names run to hundreds
 * of bytes and are interned once per event, so a byte-at-a-time hash showed
 * in profiles.  Not keyed: a hostile profile can only slow its own load. */
static uint32_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (i < n) {
		uint64_t w = 0;

		memcpy(&w, s + i, n - i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t)(h ^ (h >> 32));
}

void strtab_init(struct strtab *t, struct arena *a)
{
	memset(t, 0, sizeof(*t));
	t->arena = a;
}

void strtab_release(struct strtab *t)
{
	free(t->slots);
	free(t->hashes);
	t->slots = NULL;
	t->hashes = NULL;
	t->nr = t->alloc = 0;
}

static size_t find_slot(const struct strtab *t, const char *s, size_t n, uint32_t h)
{
	size_t mask = t->alloc - 1;
	size_t i = h & mask;

	while (t->slots[i]) {
		if (t->hashes[i] == h && !memcmp(t->slots[i], s, n) && t->slots[i][n] == '\0')
			return i;
		i = (i + 1) & mask;
	}
	return i;
}

static void rehash(struct strtab *t)
{
	size_t old_alloc = t->alloc;
	const char **old_slots = t->slots;
	uint32_t *old_hashes = t->hashes;

	t->alloc = old_alloc ? old_alloc * 2 : 1024;
	t->slots = xcalloc(t->alloc, sizeof(*t->slots));
	t->hashes = xcalloc(t->alloc, sizeof(*t->hashes));
	for (size_t i = 0; i < old_alloc; i++) {
		size_t j;

		if (!old_slots[i])
			continue;
		j = old_hashes[i] & (t->alloc - 1);
		while (t->slots[j])
			j = (j + 1) & (t->alloc - 1);
		t->slots[j] = old_slots[i];
		t->hashes[j] = old_hashes[i];
	}
	free(old_slots);
	free(old_hashes);
}

const char *strtab_lookup(const struct strtab *t, const char *s, size_t n)
{
	size_t i;

	if (!t->alloc)
		return NULL;
	i = find_slot(t, s, n, hash_bytes(s, n));
	return t->slots[i];
}

const char *strtab_intern(struct strtab *t, const char *s, size_t n)
{
	uint32_t h = hash_bytes(s, n);
	size_t i;

	/* Keep the load under 1/2 so probe chains stay short. */
	if (2 * (t->nr + 1) > t->alloc)
		rehash(t);
	i = find_slot(t, s, n, h);
	if (!t->slots[i]) {
		t->slots[i] = arena_strndup(t->arena, s, n);
		t->hashes[i] = h;
		t->nr++;
	}
	return t->slots[i];
}
