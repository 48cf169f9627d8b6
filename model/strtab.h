/* SPDX-License-Identifier: MIT */
/*
 * strtab: interned strings.  Each distinct byte string is stored once in
 * the owning arena, so equal names are equal pointers and compare with ==
 * (tig's get_path() cache).  The table itself (the hash index) is heap
 * memory freed by strtab_release(); the strings live as long as the arena.
 *
 * Names come from the profile, so the index is keyed (SipHash-1-3 under
 * the process's random key, siphash.h): a file cannot choose names that
 * all land in one probe run.  Should a run grow long anyway, the table
 * draws a key of its own and rehashes (see strtab.c).
 */
#ifndef MODEL_STRTAB_H
#define MODEL_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "siphash.h"

struct arena;

#define STRTAB_RECENT 512	/* a power of two */

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
	 * lookup miss) only falls through to the keyed index. */
	struct strtab_recent {
		const char *s;
		size_t n;
	} recent[STRTAB_RECENT];
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

#endif
