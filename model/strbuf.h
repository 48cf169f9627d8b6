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

#include "util.h"

struct strbuf {
	char *s;
	size_t len, cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

/* Make room for EXTRA more bytes (and the NUL) without adding any: for
 * writing into b->s + b->len directly. */
void strbuf_grow(struct strbuf *b, size_t extra);
/* Append N bytes of S (copied). */
void strbuf_add(struct strbuf *b, const char *s, size_t n);
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
