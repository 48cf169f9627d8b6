/* SPDX-License-Identifier: MIT */
/*
 * strtab: interned strings.  Each distinct byte string is stored once in
 * the owning arena, so equal names are equal pointers and compare with ==
 * (tig's get_path() cache), and numbered from 0 in the order first seen,
 * so that a node can name its name in 4 bytes (strtab_string()).  The
 * table itself (the hash index, the array by number) is heap memory freed
 * by strtab_release(); the strings live as long as the arena.
 *
 * Names come from the profile, so the index is keyed (SipHash-1-3 under
 * the process's random key, siphash.h): a file cannot choose names that
 * all land in one probe run.  Should a run grow long anyway, the table
 * draws a key of its own and rehashes (see strtab.c).
 */
#ifndef MODEL_STRTAB_H
#define MODEL_STRTAB_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "siphash.h"

struct arena;

#define STRTAB_RECENT 512	/* the most recent names kept; a power of two */

struct strtab {
	struct arena *arena;
	const char **slots;	/* open addressing; NULL = empty */
	uint32_t *hashes;	/* hash of each slot, to skip most strcmp()s */
	size_t nr, alloc;	/* alloc is a power of two */
	struct siphash_key key;
	size_t nr_since_rekey;	/* interned since the key last changed */
	/* The names interned last, by a cheap hash of their bytes: a load
	 * interns every event's name, nearly always one seen a moment ago,
	 * and SipHash over a 100-byte kernel name costs ~200 instructions
	 * where this costs a compare.  A miss (or a file that makes every
	 * lookup miss) only falls through to the keyed index.  Heap, grown
	 * with the index up to STRTAB_RECENT: a table of a few names (a
	 * small file) holds a few. */
	struct strtab_recent {
		const char *s;
		size_t n;
	} *recent;
	size_t nr_recent;	/* a power of two */
	/* Each string by its number, in the order first seen: a node holds
	 * its name's 4-byte number rather than an 8-byte pointer.  Grown by
	 * copying into a new array that replaces it atomically, the old ones
	 * kept (retired) until strtab_settle(): a thread may read a number
	 * another gave while this one interns more (the Kineto link). */
	_Atomic(const char **) by_number;
	size_t alloc_numbers;
	const char ***retired;
	size_t nr_retired, alloc_retired;
	/* Statistics, for the tests: what the hash is worth. */
	uint64_t nr_probes;	/* slots strtab_intern() looked at */
	uint32_t nr_rekeys;	/* new keys drawn after a long probe run */
};

/* An empty table whose strings go to A, keyed with hash_key. */
void strtab_init(struct strtab *t, struct arena *a);
void strtab_release(struct strtab *t);
/* The one copy of the N bytes at S (NUL-terminated, may hold no NUL).  S is
 * copied on first sight, so callers may reuse their buffers. */
const char *strtab_intern(struct strtab *t, const char *s, size_t n);
/* The interned copy of S if it was ever interned, else NULL. */
const char *strtab_lookup(const struct strtab *t, const char *s, size_t n);
/* Free the copies of the numbers' array that growth retired: when no
 * other thread reads the table. */
void strtab_settle(struct strtab *t);

/* The string of number I (< t->nr). */
static inline const char *strtab_string(const struct strtab *t, uint32_t i)
{
	return atomic_load_explicit((_Atomic(const char **) *)&t->by_number,
				    memory_order_acquire)[i];
}

/* The number of S, which a strtab_intern() returned: it lies in the four
 * bytes in front of the string (so S must be such a string). */
static inline uint32_t strtab_number(const char *s)
{
	uint32_t i;

	memcpy(&i, s - sizeof(i), sizeof(i));
	return i;
}

#endif
