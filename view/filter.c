// SPDX-License-Identifier: MIT
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../model/util.h"
#include "filter.h"

/*
 * What one match may cost.  A pattern that backtracks without end ((a+)+$
 * on a long run of a's) is stopped by PCRE2 and reported, never taken for
 * "no match".  A match stopped at MATCH_LIMIT takes about 0.2 ms with
 * the JIT and 1-2 ms without it (measured on names of 40 and 3,000
 * characters): typing stays live, and the costliest pattern that passes
 * decides 10,000 names in 2 s with the JIT.  The limit is far above what
 * a pattern that does not backtrack needs ("a.*b.*c" on 20,000
 * characters: under 300).
 * The depth (as deep as the match limit lets it go anyway) and heap
 * limits bound the interpreter's memory, which the JIT's stack bounds
 * instead: 1 MiB holds a repeated group over a 10,000-character name,
 * where PCRE2's default 32 KiB gave up at a few thousand.  A pattern's
 * own (*LIMIT_MATCH=n) can only lower these.
 */
#define MATCH_LIMIT 100000
#define DEPTH_LIMIT 100000
#define HEAP_LIMIT_KIB (16 * 1024)
#define JIT_STACK_START (32 * 1024)
#define JIT_STACK_MAX (1024 * 1024)
/* How often a pass asks whether to stop: every STOP_EVERY matches, once
 * STOP_CHECK_NS have gone by since it last asked. */
#define STOP_EVERY 16
#define STOP_CHECK_NS 10000000LL
/* How much of the name an error quotes. */
#define ERROR_NAME_MAX 40

/* The state of a pass over the rows: it changes as a const filter
 * matches, so it lives apart from the compiled pattern. */
struct pass {
	char error[256];		/* why a name was left undecided; "" */
	bool is_stopped;		/* should_stop() said so */
	bool (*should_stop)(void *ctx);
	void *stop_ctx;
	unsigned since_check;		/* matches since the clock was read */
	long long last_check_ns;
};

struct filter {
	char *pattern;
	bool is_inverted;
	bool has_jit;
	pcre2_code *code;
	pcre2_match_data *md;
	pcre2_match_context *mc;
	pcre2_jit_stack *jit_stack;
	struct pass *pass;
};

/* Smart case: a capital letter outside an escape makes the pattern case
 * sensitive ("\S" and "\D" are classes, not capitals). */
static bool has_capital(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			continue;
		}
		if (isupper((unsigned char)*s))
			return true;
	}
	return false;
}

struct filter *filter_new(const char *pattern, char *err, size_t err_size)
{
	const char *re = pattern;
	bool invert = false;
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	int code;
	PCRE2_SIZE offset;
	pcre2_code *c;
	struct filter *f;

	if (*re == '!') {
		invert = true;
		re++;
	}
	if (!*re) {
		if (err_size)
			err[0] = '\0';
		return NULL;
	}
	if (strlen(pattern) > FILTER_PATTERN_MAX) {
		snprintf(err, err_size, "pattern of %zu bytes; the most is %d", strlen(pattern),
			 FILTER_PATTERN_MAX);
		return NULL;
	}
	if (!has_capital(re))
		opts |= PCRE2_CASELESS;
	c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, opts, &code, &offset, NULL);
	if (!c) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof(msg));
		/* Offsets count from the pattern the user typed, '!' included. */
		snprintf(err, err_size, "%s at offset %zu", (const char *)msg,
			 (size_t)offset + (invert ? 1 : 0));
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->pattern = xstrdup(pattern);
	f->is_inverted = invert;
	f->code = c;
	/* JIT makes matching several times faster; without it (a build
	 * without JIT support, a W^X system) the interpreter still works. */
	f->has_jit = pcre2_jit_compile(c, PCRE2_JIT_COMPLETE) == 0;
	f->md = pcre2_match_data_create_from_pattern(c, NULL);
	f->mc = pcre2_match_context_create(NULL);
	if (!f->md || !f->mc)
		die("out of memory");
	pcre2_set_match_limit(f->mc, MATCH_LIMIT);
	pcre2_set_depth_limit(f->mc, DEPTH_LIMIT);
	pcre2_set_heap_limit(f->mc, HEAP_LIMIT_KIB);
	if (f->has_jit) {
		f->jit_stack = pcre2_jit_stack_create(JIT_STACK_START, JIT_STACK_MAX, NULL);
		if (!f->jit_stack)
			die("out of memory");
		pcre2_jit_stack_assign(f->mc, NULL, f->jit_stack);
	}
	f->pass = xcalloc(1, sizeof(*f->pass));
	return f;
}

void filter_free(struct filter *f)
{
	if (!f)
		return;
	pcre2_match_data_free(f->md);
	pcre2_match_context_free(f->mc);
	pcre2_jit_stack_free(f->jit_stack);
	pcre2_code_free(f->code);
	free(f->pass);
	free(f->pattern);
	free(f);
}

const char *filter_pattern(const struct filter *f)
{
	return f ? f->pattern : "";
}

bool filter_is_inverted(const struct filter *f)
{
	return f && f->is_inverted;
}

const char *filter_error(const struct filter *f)
{
	return f && f->pass->error[0] ? f->pass->error : NULL;
}

void filter_set_stop(struct filter *f, bool (*should_stop)(void *ctx), void *ctx)
{
	f->pass->should_stop = should_stop;
	f->pass->stop_ctx = ctx;
}

bool filter_stopped(const struct filter *f)
{
	return f && f->pass->is_stopped;
}

void filter_resume(struct filter *f)
{
	if (f)
		f->pass->is_stopped = false;
}

static int match_at(const struct filter *f, const char *s, size_t len, size_t start)
{
	if (f->has_jit)
		return pcre2_jit_match(f->code, (PCRE2_SPTR)s, len, start, 0, f->md, f->mc);
	return pcre2_match(f->code, (PCRE2_SPTR)s, len, start, 0, f->md, f->mc);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Whether the owner wants the pass to stop; asked at most every
 * STOP_CHECK_NS, so that asking (a read of the terminal) costs nothing. */
static bool stop_now(struct pass *p)
{
	long long t;

	if (!p->should_stop || ++p->since_check < STOP_EVERY)
		return false;
	p->since_check = 0;
	t = now_ns();
	if (p->last_check_ns && t - p->last_check_ns < STOP_CHECK_NS)
		return false;
	p->last_check_ns = t;
	return p->is_stopped = p->should_stop(p->stop_ctx);
}

/* "pattern too costly (match limit exceeded) on 'aaaa...'": the first
 * name left undecided, quoted short (the caller escapes it). */
static void set_error(struct pass *p, int rc, const char *name, size_t len)
{
	PCRE2_UCHAR msg[128];
	bool too_costly = rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
			  rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
			  rc == PCRE2_ERROR_NOMEMORY;
	size_t n = len;

	if (n > ERROR_NAME_MAX) {
		n = ERROR_NAME_MAX;
		while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
			n--;
	}
	pcre2_get_error_message(rc, msg, sizeof(msg));
	snprintf(p->error, sizeof(p->error), "%s (%s) on '%.*s%s'",
		 too_costly ? "pattern too costly" : "cannot match", (const char *)msg, (int)n,
		 name, n < len ? "..." : "");
}

bool filter_match(const struct filter *f, const char *name, size_t len)
{
	struct pass *p;
	int rc;

	if (!f)
		return true;
	p = f->pass;
	/* A pass that cannot end right shows nothing: cheap to finish. */
	if (p->error[0] || p->is_stopped || stop_now(p))
		return false;
	rc = match_at(f, name, len, 0);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		set_error(p, rc, name, len);
		return false;
	}
	return (rc >= 0) != f->is_inverted;
}

size_t filter_spans(const struct filter *f, const char *name, size_t len, size_t (*out)[2],
		    size_t max)
{
	size_t nr = 0, start = 0;

	if (!f || f->is_inverted)
		return 0;
	while (nr < max && start <= len && match_at(f, name, len, start) >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(f->md);

		if (ov[1] < ov[0])
			break;	/* \K tricks: nothing sensible to show */
		if (ov[1] > ov[0]) {
			out[nr][0] = ov[0];
			out[nr][1] = ov[1];
			nr++;
			start = ov[1];
		} else {
			/* An empty match: step over one character. */
			start = ov[0] + 1;
			while (start < len && ((unsigned char)name[start] & 0xc0) == 0x80)
				start++;
		}
	}
	return nr;
}
