/* SPDX-License-Identifier: MIT */
/*
 * util: the few helpers every layer shares -- xmalloc() and friends that
 * die() instead of returning NULL, and the die() hook that tui/ sets so
 * curses is ended before a fatal message prints (tig's die_callback).
 */
#ifndef MODEL_UTIL_H
#define MODEL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

/* Print "proftui: fatal: MSG" to stderr and exit(3), after the hook. */
NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Called by die() before it prints; tui/ sets it to end curses. */
extern void (*die_hook)(void);

/* A well-mixed hash of an integer key, or of a pointer (interned names
 * compare by pointer), for the open-addressed tables of the model, the
 * parsers and the panes. */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static inline size_t hash_ptr(const void *p)
{
	return (size_t)hash_u64((uint64_t)(uintptr_t)p);
}

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
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
