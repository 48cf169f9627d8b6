// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "strbuf.h"

size_t u8_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c;
	size_t n;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		n = 2;
		c = u[0] & 0x1f;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		n = 3;
		c = u[0] & 0x0f;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		n = 4;
		c = u[0] & 0x07;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (len < n) {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = c << 6 | (u[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are invalid. */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = c;
	return n;
}

size_t u8_encode(uint32_t cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Unicode 15's general category Cf, and the line and paragraph separators
 * (which some terminals and editors take as line breaks).  Each one is
 * invisible or moves what follows it: a name that holds one does not look
 * like what it is.  Sorted, for the binary search. */
static const uint32_t invisible[][2] = {
	{ 0x00ad, 0x00ad },   { 0x0600, 0x0605 },   { 0x061c, 0x061c },   { 0x06dd, 0x06dd },
	{ 0x070f, 0x070f },   { 0x0890, 0x0891 },   { 0x08e2, 0x08e2 },   { 0x180e, 0x180e },
	{ 0x200b, 0x200f },   { 0x2028, 0x202e },   { 0x2060, 0x2064 },   { 0x2066, 0x206f },
	{ 0xfeff, 0xfeff },   { 0xfff9, 0xfffb },   { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
	{ 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a }, { 0xe0001, 0xe0001 },
	{ 0xe0020, 0xe007f },
};

bool escape_is_invisible(uint32_t cp)
{
	size_t lo = 0, hi = ARRAY_SIZE(invisible);

	if (cp < 0xad)
		return false;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cp < invisible[mid][0])
			hi = mid;
		else if (cp > invisible[mid][1])
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

bool escape_needed(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f)
			return true;	/* controls, DEL, and anything to decode */
	}
	return false;
}

/*
 * The escaped form of the character at S (LEN bytes left), when it has
 * one: written to TMP (at least 11 bytes), its length returned; 0 when the
 * character is shown as itself.  *N gets the character's length.
 */
static size_t escape_one(const char *s, size_t len, char *tmp, size_t *n, uint32_t *cp)
{
	unsigned char b = (unsigned char)s[0];

	if (b >= 0x20 && b < 0x7f) {
		*n = 1;
		*cp = b;
		return 0;
	}
	*n = u8_decode(s, len, cp);
	if (b < 0x20 || b == 0x7f || (*cp == 0xfffd && *n == 1))
		/* A control or a byte that is not UTF-8: its byte. */
		return (size_t)snprintf(tmp, 11, "\\x%02x", b);
	if (*cp >= 0x80 && *cp <= 0x9f)
		/* A C1 control (CSI is U+009B): by its code point, the
		 * byte an 8-bit terminal would have acted on. */
		return (size_t)snprintf(tmp, 11, "\\x%02x", (unsigned)*cp);
	if (escape_is_invisible(*cp))
		return (size_t)snprintf(tmp, 11, *cp < 0x10000 ? "\\u%04x" : "\\U%08x", (unsigned)*cp);
	return 0;
}

size_t escape_text(const char *s, size_t len, bool ascii_only, char *buf, size_t size)
{
	size_t w = 0, i = 0;

	if (!size)
		return 0;
	while (i < len) {
		char tmp[16];
		size_t n, tlen;
		uint32_t cp;
		const char *out = tmp;

		tlen = escape_one(s + i, len - i, tmp, &n, &cp);
		if (!tlen) {
			if (ascii_only && cp >= 0x80) {
				tmp[0] = '?';
				tlen = 1;
			} else {
				out = s + i;
				tlen = n;
			}
		}
		if (w + tlen >= size)
			break;
		memcpy(buf + w, out, tlen);
		w += tlen;
		i += n;
	}
	buf[w] = '\0';
	return w;
}

void escape_add(struct strbuf *b, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t start = i, n, tlen;
		char tmp[16];
		uint32_t cp;

		/* Runs that need nothing go in one copy. */
		while (i < len && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f)
			i++;
		if (i > start)
			strbuf_add(b, s + start, i - start);
		if (i == len)
			break;
		tlen = escape_one(s + i, len - i, tmp, &n, &cp);
		strbuf_add(b, tlen ? tmp : s + i, tlen ? tlen : n);
		i += n;
	}
	if (!b->s)
		strbuf_add(b, "", 0);	/* "" rather than NULL */
}

void escape_vfprintf(FILE *out, const char *fmt, va_list ap)
{
	struct strbuf raw = STRBUF_INIT, esc = STRBUF_INIT;
	char small[256];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		escape_add(&esc, small, (size_t)n);
	} else {
		strbuf_grow(&raw, (size_t)n);
		vsnprintf(raw.s, (size_t)n + 1, fmt, ap);
		escape_add(&esc, raw.s, (size_t)n);
	}
	fwrite(esc.s, 1, esc.len, out);
	strbuf_release(&raw);
	strbuf_release(&esc);
}

void escape_fprintf(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape_vfprintf(out, fmt, ap);
	va_end(ap);
}

size_t escape_char_width(const char *s, size_t len, int (*width_of)(uint32_t cp), size_t *n)
{
	char tmp[16];
	uint32_t cp;
	size_t tlen = escape_one(s, len, tmp, n, &cp);

	/* An escape is ASCII: one cell a byte. */
	return tlen ? tlen : (size_t)width_of(cp);
}
