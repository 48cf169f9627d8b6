// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

void (*die_hook)(void);

/* The load die() names, the calling thread's: a process loads several
 * files at once, one per thread.  Only *counter changes as it runs. */
struct load_named {
	const char *path;
	const uint64_t *counter;
	uint64_t read_bytes, size_bytes;
};

static _Thread_local struct load_named load;

void die_set_load(const char *path, const uint64_t *read_bytes, uint64_t size_bytes)
{
	load.path = path;
	load.counter = read_bytes;
	load.read_bytes = 0;
	load.size_bytes = size_bytes;
}

void die_load_done(uint64_t read_bytes)
{
	load.counter = NULL;
	load.read_bytes = read_bytes;
}

struct started {
	void *(*fn)(void *);
	void *arg;
	struct load_named load;
};

static void *started_main(void *p)
{
	struct started s = *(struct started *)p;

	free(p);
	load = s.load;
	return s.fn(s.arg);
}

int thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	struct started *s = malloc(sizeof(*s));
	int rc;

	if (!s)
		return -1;	/* the caller goes on without the thread */
	s->fn = fn;
	s->arg = arg;
	s->load = load;
	rc = pthread_create(thread, NULL, started_main, s);
	if (rc)
		free(s);
	return rc;
}

void run_pair(void *(*fn)(void *), void *here, void *there)
{
	pthread_t helper;
	bool started = !pthread_create(&helper, NULL, fn, there);

	fn(here);
	if (started)
		pthread_join(helper, NULL);
	else
		fn(there);
}

bool two_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
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
	if (load.path)
		fprintf(stderr, "%s: error: ", load.path);
	else
		fputs("proftui: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (load.path) {
		uint64_t done = load.counter ? __atomic_load_n(load.counter, __ATOMIC_RELAXED)
					     : load.read_bytes;

		if (load.size_bytes)
			fprintf(stderr, " after reading %llu of the file's %llu bytes",
				(unsigned long long)done, (unsigned long long)load.size_bytes);
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

/*
 * One call rather than a fault a page: a big trace fills hundreds of MB
 * at once, and a first touch costs a trap each (about 4% of a 1 GB load's
 * CPU time).  Only where the kernel can (Linux 5.14).
 */
void populate_pages(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(page - 1);

	if (to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}
