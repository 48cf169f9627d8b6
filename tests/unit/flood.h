/* SPDX-License-Identifier: MIT */
/*
 * Input crafted against the hashes proftui used before they were keyed
 * (issue 9, item 2): the unit tests load it to show the keyed hashes do
 * not care, and bench/hashflood.sh times it.  The old functions are kept
 * here, as they were, because the attack is only as good as its model of
 * them.
 *
 * Names: the old hash_bytes() ran a 64-bit state through "xor a word in,
 * multiply by an odd constant, fold the top half down" per 8 bytes.  Each
 * step is invertible, so for any first word the second word that drives
 * the state to a chosen value can be solved for: every 16-byte name made
 * that way has the same 32-bit hash, and all of them pile up in one run
 * of linear probing.  The solved word is pseudo-random; names must be
 * free of NUL bytes (and, to travel in JSON as \u00XX escapes, of bytes
 * above 0x7f), so first words are tried until the solved one qualifies.
 *
 * Integers: the old hash_u64() was "xorshift 33, multiply, xorshift 33",
 * a bijection; its inverse maps chosen hashes, all alike in their low 32
 * bits, back to keys.
 */
#ifndef TESTS_UNIT_FLOOD_H
#define TESTS_UNIT_FLOOD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The old hash of names, model/strtab.c before the fix. */
static inline uint32_t flood_old_hash_bytes(const char *s, size_t n)
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

/* The old hash of integers and pointers, model/util.h before the fix. */
static inline uint64_t flood_old_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* The inverse of an odd A modulo 2^64 (Newton's iteration: each step
 * doubles the correct low bits, 3 -> 6 -> ... -> 96). */
static inline uint64_t flood_inverse(uint64_t a)
{
	uint64_t x = a;

	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

#define FLOOD_HIGH_BITS 0x8080808080808080ULL
#define FLOOD_LOW_BITS 0x0101010101010101ULL

/* Whether no byte of W is 0 (and, when ASCII, none is above 0x7f). */
static inline bool flood_word_ok(uint64_t w, bool ascii)
{
	if (ascii && (w & FLOOD_HIGH_BITS))
		return false;
	return !((w - FLOOD_LOW_BITS) & ~w & FLOOD_HIGH_BITS);
}

struct flood {
	uint64_t next;		/* the next first word to try, as a counter */
	uint64_t solve;		/* the second word is this ^ state after the first */
	bool ascii;		/* bytes 0x01..0x7f only */
};

static inline void flood_init(struct flood *f, bool ascii)
{
	const uint64_t state = 0x0123456789abcdefULL;	/* any will do */
	uint64_t before_fold = state ^ (state >> 32);	/* x ^= x >> 32 is its own inverse */

	f->next = 0;
	f->solve = before_fold * flood_inverse(0xff51afd7ed558ccdULL);
	f->ascii = ascii;
}

/* The next 16-byte name (NUL-terminated in OUT) with the one old hash
 * every name from F has.  Names from one F are distinct: their first
 * words are. */
static inline void flood_name(struct flood *f, char out[17])
{
	for (;;) {
		uint64_t c = f->next++, w1 = 0, h, w2;

		/* Six counter bits a byte, each byte 0x40..0x7f: never NUL. */
		for (int b = 0; b < 8; b++)
			w1 |= (((c >> (6 * b)) & 63) | 64) << (8 * b);
		h = (0x9e3779b97f4a7c15ULL ^ 16) ^ w1;
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		w2 = f->solve ^ h;
		if (!flood_word_ok(w2, f->ascii))
			continue;
		memcpy(out, &w1, 8);
		memcpy(out + 8, &w2, 8);
		out[16] = '\0';
		return;
	}
}

/* The next of a run of positive integers whose old hashes agree in their
 * low 32 bits, so that any table under 2^32 slots put them in one run;
 * *NEXT (start it at 0) counts the high bits tried. */
static inline int64_t flood_id(uint64_t *next)
{
	const uint64_t inverse = flood_inverse(0xff51afd7ed558ccdULL);

	for (;;) {
		uint64_t x = (++*next << 32) | 0x5eed;

		x ^= x >> 33;	/* its own inverse: 33 > 64 / 2 */
		x *= inverse;
		x ^= x >> 33;
		if (x && !(x >> 63))
			return (int64_t)x;
	}
}

#endif
