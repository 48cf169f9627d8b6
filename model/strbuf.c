// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void strbuf_grow_slow(struct strbuf *b, size_t extra)
{
	size_t cap = b->cap ? b->cap : 64;

	while (cap < b->len + extra + 1)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void strbuf_addstr(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void strbuf_addch(struct strbuf *b, char c)
{
	strbuf_add(b, &c, 1);
}

void strbuf_reset(struct strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void strbuf_release(struct strbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

void strbuf_vaddf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list again;
	size_t room;
	int n;

	strbuf_grow(b, 64);
	room = b->cap - b->len;
	va_copy(again, ap);
	n = vsnprintf(b->s + b->len, room, fmt, again);
	va_end(again);
	if (n < 0) {
		b->s[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		strbuf_grow(b, (size_t)n);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *xstrvfmt(const char *fmt, va_list ap)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_vaddf(&b, fmt, ap);
	return b.s;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xstrvfmt(fmt, ap);
	va_end(ap);
	return s;
}

void str_vaddline(char **s, const char *fmt, va_list ap)
{
	size_t old = *s ? strlen(*s) : 0;
	char *line = xstrvfmt(fmt, ap);
	size_t n = strlen(line);

	*s = xrealloc(*s, old + n + 2);
	memcpy(*s + old, line, n);
	(*s)[old + n] = '\n';
	(*s)[old + n + 1] = '\0';
	free(line);
}
