// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void (*die_hook)(void);

void die(const char *fmt, ...)
{
	va_list ap;

	if (die_hook)
		die_hook();
	fputs("proftui: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(3);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void grow_array(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc;

	if (need <= n)
		return;
	n = n < 16 ? 16 : n;
	while (n < need)
		n += n / 2;
	if (n > SIZE_MAX / size)
		die("out of memory");
	*p = xrealloc(*p, n * size);
	*alloc = n;
}
