// SPDX-License-Identifier: MIT
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "strtab.h"
#include "util.h"

/*
 * A probe run this long means the hash is not spreading the names.  At the
 * load we keep (under 1/2), random hashes make runs of 40 about once per
 * million names (measured: 8 in 10 M, the longest 50) and runs of 100
 * practically never.  SipHash under a secret key should keep any file's
 * names random; this is the net under it (a key that leaked, a weakness
 * found later).
 */
#define LONG_PROBE_RUN 100

/* The index's first size: a file's names are often few (a small trace,
 * a table), and it doubles from there. */
#define FIRST_SLOTS 64
/* And the numbers' array's. */
#define FIRST_NUMBERS 16

/* The stored hash: the low 32 bits pick the slot, all 32 skip strcmp()s. */
static uint32_t hash_bytes(const struct strtab *t, const char *s, size_t n)
{
	return (uint32_t)siphash13(&t->key, s, n);
}

/* The slot in t->recent for the N bytes at S: their length and first
 * and last eight bytes, mixed.  Not keyed: it only picks what to compare. */
static struct strtab_recent *recent_slot(const struct strtab *t, const char *s, size_t n)
{
	uint64_t head = 0, tail = 0;

	if (n >= 8) {
		memcpy(&head, s, 8);
		memcpy(&tail, s + n - 8, 8);
	} else {
		memcpy(&head, s, n);
	}
	head ^= (tail << 29 | tail >> 35) ^ n;
	return &t->recent[(size_t)((head * 0x9e3779b97f4a7c15ULL) >> 32) & (t->nr_recent - 1)];
}

void strtab_init(struct strtab *t, struct arena *a)
{
	memset(t, 0, sizeof(*t));
	t->arena = a;
	t->key = hash_key;
}

void strtab_settle(struct strtab *t)
{
	for (size_t i = 0; i < t->nr_retired; i++)
		free(t->retired[i]);
	free(t->retired);
	t->retired = NULL;
	t->nr_retired = t->alloc_retired = 0;
}

void strtab_release(struct strtab *t)
{
	strtab_settle(t);
	free(atomic_load_explicit(&t->by_number, memory_order_relaxed));
	atomic_store_explicit(&t->by_number, NULL, memory_order_relaxed);
	t->alloc_numbers = 0;
	free(t->slots);
	free(t->hashes);
	free(t->recent);
	t->slots = NULL;
	t->hashes = NULL;
	t->recent = NULL;
	t->nr = t->alloc = t->nr_recent = 0;
}

/* The slot of S, or the empty slot where it goes; *PROBES gets the number
 * of slots looked at. */
static size_t find_slot(const struct strtab *t, const char *s, size_t n, uint32_t h,
			size_t *probes)
{
	size_t mask = t->alloc - 1;
	size_t i = h & mask;

	*probes = 1;
	while (t->slots[i]) {
		if (t->hashes[i] == h && !memcmp(t->slots[i], s, n) && t->slots[i][n] == '\0')
			return i;
		i = (i + 1) & mask;
		(*probes)++;
	}
	return i;
}

/* Move every name to a table of ALLOC slots, rehashing them with the
 * current key when REHASH (else their stored hashes still hold). */
static void rebuild(struct strtab *t, size_t alloc, bool rehash)
{
	size_t old_alloc = t->alloc;
	const char **old_slots = t->slots;
	uint32_t *old_hashes = t->hashes;

	t->alloc = alloc;
	t->slots = xcalloc(t->alloc, sizeof(*t->slots));
	t->hashes = xcalloc(t->alloc, sizeof(*t->hashes));
	for (size_t i = 0; i < old_alloc; i++) {
		uint32_t h;
		size_t j;

		if (!old_slots[i])
			continue;
		/* Interned strings hold no NUL: strlen() is their length. */
		h = rehash ? hash_bytes(t, old_slots[i], strlen(old_slots[i])) : old_hashes[i];
		j = h & (t->alloc - 1);
		while (t->slots[j])
			j = (j + 1) & (t->alloc - 1);
		t->slots[j] = old_slots[i];
		t->hashes[j] = h;
	}
	free(old_slots);
	free(old_hashes);
	/* The cache is a quarter of the index, up to its most: a new one
	 * starts empty (misses only cost the index). */
	if (t->nr_recent < STRTAB_RECENT && t->nr_recent < alloc / 4) {
		free(t->recent);
		t->nr_recent = alloc / 4 < STRTAB_RECENT ? alloc / 4 : STRTAB_RECENT;
		t->recent = xcalloc(t->nr_recent, sizeof(*t->recent));
	}
}

/* S's copy, numbered t->nr: its number in front of it, and in the
 * numbers' array (a new one, when full, the old one retired). */
static const char *new_string(struct strtab *t, const char *s, size_t n)
{
	uint32_t number = (uint32_t)t->nr;
	const char **v = atomic_load_explicit(&t->by_number, memory_order_relaxed);
	char *copy;

	if (t->nr >= UINT32_MAX)
		die("more than %u distinct names", (unsigned)UINT32_MAX);
	copy = arena_alloc_unaligned(t->arena, sizeof(number) + n + 1);
	memcpy(copy, &number, sizeof(number));
	copy += sizeof(number);
	memcpy(copy, s, n);
	copy[n] = '\0';
	if (t->nr == t->alloc_numbers) {
		size_t alloc = t->alloc_numbers ? 2 * t->alloc_numbers : FIRST_NUMBERS;
		const char **bigger = xmalloc(alloc * sizeof(*bigger));

		if (t->nr)
			memcpy(bigger, v, t->nr * sizeof(*v));
		if (v) {
			GROW(t->retired, t->alloc_retired, t->nr_retired + 1);
			t->retired[t->nr_retired++] = v;
		}
		v = bigger;
		t->alloc_numbers = alloc;
		bigger[number] = copy;
		atomic_store_explicit(&t->by_number, v, memory_order_release);
	} else {
		v[number] = copy;
	}
	return copy;
}

const char *strtab_lookup(const struct strtab *t, const char *s, size_t n)
{
	size_t probes;

	if (!t->alloc)
		return NULL;
	return t->slots[find_slot(t, s, n, hash_bytes(t, s, n), &probes)];
}

const char *strtab_intern(struct strtab *t, const char *s, size_t n)
{
	struct strtab_recent *r;
	uint32_t h;
	size_t i, probes;

	if (!t->alloc)
		rebuild(t, FIRST_SLOTS, false);
	r = recent_slot(t, s, n);
	if (r->s && r->n == n && !memcmp(r->s, s, n))
		return r->s;
	h = hash_bytes(t, s, n);

	/* Keep the load under 1/2 so probe runs stay short. */
	if (2 * (t->nr + 1) > t->alloc) {
		rebuild(t, t->alloc * 2, false);
		r = recent_slot(t, s, n);
	}
	i = find_slot(t, s, n, h, &probes);
	t->nr_probes += probes;
	if (t->slots[i]) {
		*r = (struct strtab_recent){ t->slots[i], n };
		return t->slots[i];
	}
	/*
	 * A long run: draw a key of this table's own and rehash.  At most
	 * once per t->nr / 2 new names, so the O(nr) rebuilds cost O(1) per
	 * name however often runs grow long; between them a run may stay
	 * long, but only until enough names come in to pay for the next.
	 */
	if (probes > LONG_PROBE_RUN && 2 * t->nr_since_rekey >= t->nr) {
		siphash_key_random(&t->key);
		t->nr_rekeys++;
		t->nr_since_rekey = 0;
		rebuild(t, t->alloc, true);
		h = hash_bytes(t, s, n);
		i = find_slot(t, s, n, h, &probes);
		t->nr_probes += probes;
	}
	t->slots[i] = new_string(t, s, n);
	t->hashes[i] = h;
	t->nr++;
	t->nr_since_rekey++;
	*r = (struct strtab_recent){ t->slots[i], n };
	return t->slots[i];
}
