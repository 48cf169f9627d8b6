/* SPDX-License-Identifier: MIT */
/*
 * util: the few helpers every layer shares -- xmalloc() and friends that
 * die() instead of returning NULL, and the die() hook that tui/ sets so
 * curses is ended before a fatal message prints (tig's die_callback).
 */
#ifndef MODEL_UTIL_H
#define MODEL_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "siphash.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

/*
 * A fatal error, which in practice is running out of memory: after the
 * hook, print "FILE: error: MSG after reading N of the file's M bytes"
 * (the load die_set_load() names; without one "proftui: fatal: MSG") and
 * exit(2).  Exit 2, the status of bad input, because the only fatal
 * error is a profile too large for the memory there is, and the message
 * says which and how far its load got.  Safe to reach from any thread:
 * the first one prints and exits, any other waits for that.
 */
NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Called by die() before it prints; tui/ sets it to end curses. */
extern void (*die_hook)(void);
/*
 * The load die() names: the file PATH (kept, not copied) and the count of
 * its bytes read so far, *READ_BYTES (NULL: none read yet), which the
 * loader updates with __atomic_store_n() since die() may read it from
 * another thread; SIZE_BYTES is the file's size, 0 if unknown.
 * input_open() sets it; die_load_done() says the reading is over.  Each
 * thread has its own: several files load at once, one per thread, and a
 * load's own threads get their starter's from thread_start().
 */
void die_set_load(const char *path, const uint64_t *read_bytes, uint64_t size_bytes);
/* The file is read, all READ_BYTES of it: die() keeps naming it (the
 * model may yet be built from it) with that count. */
void die_load_done(uint64_t read_bytes);
/* pthread_create() with default attributes, the new thread naming in its
 * die() messages the load the caller names: for the threads a load starts. */
int thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);
/* FN(THERE) on a thread of its own while FN(HERE) runs on this one, for
 * work cut in two halves; both on this one when no thread starts. */
void run_pair(void *(*fn)(void *), void *here, void *there);
/* Whether work of a few million items is worth cutting in two halves:
 * there are two CPUs to run them. */
bool two_cpus(void);

/*
 * A well-mixed hash of an integer key, or of a pointer (interned names
 * compare by pointer), for the open-addressed tables of the model, the
 * parsers and the panes.  Keyed with the process's random hash_key: the
 * unkeyed mix it replaces was a bijection anyone could invert, so a
 * profile could list a million correlation ids that all fell in one probe
 * run (issue 9).  The key goes in at both ends of the first multiply, so
 * which keys share low bits cannot be worked out without it.  Not a
 * cryptographic PRF (SipHash is; names use it), but two multiplies where
 * SipHash would take five rounds, on a path taken per event.
 */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= hash_key.k0;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x += hash_key.k1;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	return x;
}

static inline size_t hash_ptr(const void *p)
{
	return (size_t)hash_u64((uint64_t)(uintptr_t)p);
}

/*
 * A / B rounded half away from zero (B > 0): the means of the panes and
 * the parsers.  A is wide, so that a sum of int64 values cannot wrap on
 * its way here, and the mean of B of them fits int64.  For A >= 0 it is
 * half up, the rule Paddle's step averages used on their own.
 */
static inline int64_t div_round(__int128 a, uint64_t b)
{
	unsigned __int128 m = a < 0 ? -(unsigned __int128)a : (unsigned __int128)a;
	unsigned __int128 q = m / b + (m % b >= (b + 1) / 2);

	return a < 0 ? -(int64_t)q : (int64_t)q;
}

/* Narrow the window [*LO, *HI] to its overlap with [START, END] (a range
 * of time on top of a step); apart, it becomes empty at *LO. */
static inline void window_narrow(int64_t *lo, int64_t *hi, int64_t start, int64_t end)
{
	if (start > *lo)
		*lo = start;
	if (end < *hi)
		*hi = end;
	if (*hi < *lo)
		*hi = *lo;
}

/* The first index in [LO, HI) of the ascending V whose value is at least
 * KEY, or HI. */
static inline size_t u32_lower_bound(const uint32_t *v, size_t lo, size_t hi, uint32_t key)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A hint that what P points to will be read soon, so that the misses of
 * a pass over scattered records overlap; nothing where the compiler has
 * no way to say it. */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Map in the pages of [P, P + N) now: memory about to be filled. */
void populate_pages(void *p, size_t n);
/* Grow *P (an array of *ALLOC elements of SIZE bytes) to hold NEED. */
void grow_array(void **p, size_t *alloc, size_t need, size_t size);
/* Grow the array P (of ALLOC elements, a size_t) to hold NEED.  The array
 * passes through a void * and is assigned back, so the compiler checks
 * that P is a pointer and nothing writes a T * through a void **. */
#define GROW(p, alloc, need)                                               \
	do {                                                               \
		void *grow_p_ = (p);                                       \
		grow_array(&grow_p_, &(alloc), (need), sizeof(*(p)));      \
		(p) = grow_p_;                                             \
	} while (0)

#endif
