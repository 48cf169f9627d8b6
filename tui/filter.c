// SPDX-License-Identifier: MIT
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "filter.h"

struct filter {
	char *pattern;
	bool is_inverted;
	bool has_jit;
	pcre2_code *code;
	pcre2_match_data *md;
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
	if (!f->md)
		die("out of memory");
	return f;
}

void filter_free(struct filter *f)
{
	if (!f)
		return;
	pcre2_match_data_free(f->md);
	pcre2_code_free(f->code);
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

static int match_at(const struct filter *f, const char *s, size_t len, size_t start)
{
	if (f->has_jit)
		return pcre2_jit_match(f->code, (PCRE2_SPTR)s, len, start, 0, f->md, NULL);
	return pcre2_match(f->code, (PCRE2_SPTR)s, len, start, 0, f->md, NULL);
}

bool filter_match(const struct filter *f, const char *name, size_t len)
{
	if (!f)
		return true;
	return (match_at(f, name, len, 0) >= 0) != f->is_inverted;
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
