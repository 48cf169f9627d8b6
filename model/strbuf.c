// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void strbuf_grow(struct strbuf *b, size_t extra)
{
	if (b->len + extra + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap < b->len + extra + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	strbuf_grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
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

void str_vaddline(char **s, const char *fmt, va_list ap)
{
	size_t old = *s ? strlen(*s) : 0;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return;
	*s = xrealloc(*s, old + (size_t)n + 2);
	vsnprintf(*s + old, (size_t)n + 1, fmt, ap);
	(*s)[old + (size_t)n] = '\n';
	(*s)[old + (size_t)n + 1] = '\0';
}
