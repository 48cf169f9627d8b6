// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

void (*die_hook)(void);

/* The load die() names.  Set before a load's threads start, and
 * read-only to them; only *load_counter changes as they run. */
static const char *load_path;
static const uint64_t *load_counter;
static uint64_t load_read_bytes, load_size_bytes;

void die_set_load(const char *path, const uint64_t *read_bytes, uint64_t size_bytes)
{
	load_path = path;
	load_counter = read_bytes;
	load_read_bytes = 0;
	load_size_bytes = size_bytes;
}

void die_load_done(uint64_t read_bytes)
{
	load_counter = NULL;
	load_read_bytes = read_bytes;
}

void die(const char *fmt, ...)
{
	static int is_dying;
	va_list ap;

	/* Two threads out of memory at once: one message, one exit(). */
	if (__atomic_exchange_n(&is_dying, 1, __ATOMIC_ACQ_REL))
		for (;;)
			pause();
	if (die_hook)
		die_hook();
	if (load_path)
		fprintf(stderr, "%s: error: ", load_path);
	else
		fputs("proftui: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (load_path) {
		uint64_t done = load_counter ? __atomic_load_n(load_counter, __ATOMIC_RELAXED)
					     : load_read_bytes;

		if (load_size_bytes)
			fprintf(stderr, " after reading %llu of the file's %llu bytes",
				(unsigned long long)done, (unsigned long long)load_size_bytes);
		else
			fprintf(stderr, " after reading %llu bytes of it", (unsigned long long)done);
	}
	fputc('\n', stderr);
	exit(2);
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
