/* SPDX-License-Identifier: MIT */
/*
 * strbuf: a growable, always NUL-terminated byte string on the heap
 * (git's strbuf, smaller), for names joined from pieces, shapes and
 * messages.  Zero-initialise it (STRBUF_INIT); strbuf_release() frees.
 * b->s is NULL until the first byte is added.
 */
#ifndef MODEL_STRBUF_H
#define MODEL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "util.h"

struct strbuf {
	char *s;
	size_t len, cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

/* The rare case of strbuf_grow(): a bigger block. */
void strbuf_grow_slow(struct strbuf *b, size_t extra);

/* Make room for EXTRA more bytes (and the NUL) without adding any: for
 * writing into b->s + b->len directly.  Inline, as strbuf_add(): --print
 * adds a few pieces to a line for each of millions of cells, and nearly
 * every time there is room already. */
static inline void strbuf_grow(struct strbuf *b, size_t extra)
{
	if (b->len + extra + 1 > b->cap)
		strbuf_grow_slow(b, extra);
}

/* Append N bytes of S (copied). */
static inline void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	strbuf_grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_addstr(struct strbuf *b, const char *s);
void strbuf_addch(struct strbuf *b, char c);
/* Empty it, keeping the memory. */
void strbuf_reset(struct strbuf *b);
void strbuf_release(struct strbuf *b);

/* Append printf-style text. */
void strbuf_vaddf(struct strbuf *b, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
void strbuf_addf(struct strbuf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* printf-style text in a new heap string, however long. */
char *xstrvfmt(const char *fmt, va_list ap) PRINTF_LIKE(1, 0);
char *xstrfmt(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Append FMT's text and a newline to the heap string *S (NULL: empty),
 * as a list of messages grows (the key file's and the config's
 * complaints). */
void str_vaddline(char **s, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);

#endif
