// SPDX-License-Identifier: MIT
/*
 * The JSON tokenizer.  One pass over the input buffer; a token is scanned
 * from in->cur without moving in->cur until it is complete, so when the
 * buffer runs dry mid-token, input_need() can slide the partial token to
 * the front and read more behind it.  Strings without escapes are handed
 * out in place; only escaped ones are copied (into j->scratch).
 */
#include <stdio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "json.h"

enum state {
	ST_VALUE,		/* a value: top level, after ':' */
	ST_ARRAY_FIRST,		/* after '[': a value or ']' */
	ST_ARRAY_NEXT,		/* after ',' in an array: a value (or ']' quirk) */
	ST_OBJECT_FIRST,	/* after '{': a key or '}' */
	ST_OBJECT_NEXT,		/* after ',' in an object: a key (or '}' quirk) */
	ST_COLON,		/* after a key: ':' then a value */
	ST_AFTER,		/* after a value: ',' or a closing bracket */
};

void json_init(struct json *j, struct input *in, struct diag *d)
{
	memset(j, 0, sizeof(*j));
	j->in = in;
	j->diag = d;
	j->state = ST_VALUE;
}

void json_release(struct json *j)
{
	free(j->scratch);
	j->scratch = NULL;
	j->scratch_cap = 0;
}

struct pos json_pos(const struct json *j)
{
	return input_pos(j->in, j->in->buf + j->tok_off);
}

uint64_t json_mark(const struct json *j)
{
	return j->in->buf_offset + j->tok_off;
}

struct pos json_mark_pos(const struct json *j, uint64_t mark)
{
	if (mark >= j->in->buf_offset && mark - j->in->buf_offset <= (uint64_t)(j->in->end - j->in->buf))
		return input_pos(j->in, j->in->buf + (mark - j->in->buf_offset));
	return json_pos(j);
}

bool json_expect_open(struct json *j, enum json_tok open, enum json_tok *t)
{
	*t = json_next(j);
	return *t == open;
}

const char *json_cut_why(const struct json *j, char *buf, size_t size)
{
	if (!j->in->error_msg)
		return " (truncated?)";
	snprintf(buf, size, ": %s", j->in->error_msg);
	return buf;
}

int json_report_end(struct json *j, enum json_tok t, const char *what, uint64_t nr_kept,
		    const char *kept)
{
	if (t == JSON_ERROR)
		return -1;
	if (t == JSON_EOF && j->truncated) {
		struct pos at = json_pos(j);
		char why[256];

		diag_error(j->diag, &at, "unexpected end of file inside the %s%s; kept %s", what,
			   json_cut_why(j, why, sizeof(why)), kept);
		return nr_kept ? 0 : -1;
	}
	if (t == JSON_EOF && !j->nr_docs) {
		diag_error(j->diag, NULL, "no JSON value in the file");
		return -1;
	}
	return 0;
}

static enum json_tok fail_at(struct json *j, const char *at, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

/* Report FMT at AT and stop the tokenizer. */
static enum json_tok fail_at(struct json *j, const char *at, const char *fmt, ...)
{
	struct pos pos;
	char msg[512];
	va_list ap;

	if (j->quiet) {
		j->state = -1;
		return JSON_ERROR;
	}
	pos = input_pos(j->in, at);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(j->diag, &pos, "%s", msg);
	j->state = -1;
	return JSON_ERROR;
}

/* C for a message, in BUF (16 bytes): the caller's, as readers on
 * several threads may fail at once. */
static const char *describe_in(char c, char *buf)
{
	if (c >= 0x21 && c < 0x7f) {
		buf[0] = '\'';
		buf[1] = c;
		buf[2] = '\'';
		buf[3] = '\0';
		return buf;
	}
	snprintf(buf, 16, "byte 0x%02x", (unsigned char)c);
	return buf;
}

#define describe(c) describe_in((c), (char[16]){ 0 })

/* Make N bytes from in->cur available; false at the end of the input. */
static bool have(struct json *j, size_t n)
{
	struct input *in = j->in;

	return (size_t)(in->end - in->cur) >= n || input_need(in, n) >= n;
}

static enum json_tok truncated(struct json *j)
{
	j->truncated = true;
	j->tok_off = (size_t)(j->in->end - j->in->buf);
	j->state = -1;
	return JSON_EOF;
}

static void scratch_reserve(struct json *j, size_t n)
{
	if (n > j->scratch_cap) {
		size_t cap = j->scratch_cap ? j->scratch_cap : 256;

		while (cap < n)
			cap *= 2;
		j->scratch = xrealloc(j->scratch, cap);
		j->scratch_cap = cap;
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Length of the valid UTF-8 sequence at P (P < END), or 0 if invalid;
 * -1 (as SIZE_MAX) when it may continue past END. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t n;
	uint32_t cp;

	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if ((size_t)(end - p) < n)
		return SIZE_MAX;
	cp = c & (0xff >> (n + 1));
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates, and past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A string starting at in->cur (the opening quote).  On success in->cur is
 * past the closing quote and j->s/len hold the contents.
 */
static enum json_tok scan_string(struct json *j, enum json_tok kind)
{
	struct input *in = j->in;
	size_t off = 1;		/* from in->cur; skip the quote */
	bool escaped = false;

	for (;;) {
		const unsigned char *p = (const unsigned char *)in->cur + off;
		const unsigned char *end = (const unsigned char *)in->end;

		/* The hot loop: plain ASCII runs, eight bytes at a time while
		 * no byte is a quote, a backslash, a control or a non-ASCII
		 * byte (the classic SWAR "has zero byte" tests). */
		while (end - p >= 8) {
			uint64_t w, quote, bslash, ctrl;

			memcpy(&w, p, 8);
			quote = w ^ 0x2222222222222222ULL;
			bslash = w ^ 0x5c5c5c5c5c5c5c5cULL;
			quote = (quote - 0x0101010101010101ULL) & ~quote;
			bslash = (bslash - 0x0101010101010101ULL) & ~bslash;
			ctrl = (w - 0x2020202020202020ULL) & ~w;
			if ((quote | bslash | ctrl | w) & 0x8080808080808080ULL)
				break;
			p += 8;
		}
		while (p < end && *p >= 0x20 && *p != '"' && *p != '\\' && *p < 0x80)
			p++;
		off = (size_t)((const char *)p - in->cur);
		if (off > JSON_MAX_STRING + 1)
			return fail_at(j, in->cur, "string longer than %d bytes", JSON_MAX_STRING);
		if (p == end) {
			if (!have(j, off + 1 + 4096 > INPUT_MAX_SPAN ? off + 1 : off + 4096) &&
			    (size_t)(in->end - in->cur) <= off)
				return truncated(j);
			continue;
		}
		if (*p == '"') {
			if (j->allow_unescaped) {
				/* trtexec writes names unescaped: a quote not
				 * followed by a delimiter is part of the name. */
				size_t q = off + 1;

				if (!have(j, q + 64) && (size_t)(in->end - in->cur) <= q)
					break;
				p = (const unsigned char *)in->cur + q;
				end = (const unsigned char *)in->end;
				while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
					p++;
				if (p < end && *p != ',' && *p != ':' && *p != '}' && *p != ']') {
					j->nr_unescaped++;
					off++;
					continue;
				}
			}
			break;
		}
		if (*p == '\\') {
			escaped = true;
			if (!have(j, off + 2))
				return truncated(j);
			off += 2;	/* the escape's letter; \u digits are plain */
			continue;
		}
		if (*p < 0x20) {
			if (*p == 0)
				return fail_at(j, (const char *)p, "NUL byte inside a string");
			j->nr_raw_control++;
			off++;
			continue;
		}
		/* Non-ASCII: validate one UTF-8 sequence. */
		{
			size_t n = utf8_len(p, end);

			if (n == SIZE_MAX) {
				if (!have(j, off + 4) && (size_t)(in->end - in->cur) < off + 4) {
					n = utf8_len((const unsigned char *)in->cur + off,
						     (const unsigned char *)in->end);
					if (n == SIZE_MAX)
						return truncated(j);
				}
				continue;
			}
			if (!n)
				return fail_at(j, (const char *)p, "invalid UTF-8 in a string");
			off += n;
		}
	}

	/* in->cur + off is the closing quote. */
	if (!escaped) {
		j->s = in->cur + 1;
		j->len = off - 1;
	} else {
		const char *src = in->cur + 1, *send = in->cur + off;
		char *out;

		scratch_reserve(j, off);
		out = j->scratch;
		while (src < send) {
			uint32_t cp;

			if (*src != '\\') {
				*out++ = *src++;
				continue;
			}
			src++;
			switch (*src++) {
			case '"': *out++ = '"'; break;
			case '\\': *out++ = '\\'; break;
			case '/': *out++ = '/'; break;
			case 'b': *out++ = '\b'; break;
			case 'f': *out++ = '\f'; break;
			case 'n': *out++ = '\n'; break;
			case 'r': *out++ = '\r'; break;
			case 't': *out++ = '\t'; break;
			case 'u':
				if (send - src < 4)
					return fail_at(j, src - 2, "bad \\u escape");
				cp = 0;
				for (int i = 0; i < 4; i++) {
					int h = hexval(src[i]);

					if (h < 0)
						return fail_at(j, src - 2, "bad \\u escape");
					cp = cp << 4 | (uint32_t)h;
				}
				src += 4;
				if (cp >= 0xd800 && cp <= 0xdbff && send - src >= 6 && src[0] == '\\' &&
				    src[1] == 'u') {
					uint32_t lo = 0;
					int ok = 1;

					for (int i = 2; i < 6; i++) {
						int h = hexval(src[i]);

						if (h < 0)
							ok = 0;
						lo = lo << 4 | (uint32_t)(h < 0 ? 0 : h);
					}
					if (ok && lo >= 0xdc00 && lo <= 0xdfff) {
						cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
						src += 6;
					}
				}
				if (cp >= 0xd800 && cp <= 0xdfff)
					cp = 0xfffd;	/* a lone surrogate */
				if (cp == 0)
					return fail_at(j, src - 6, "\\u0000 inside a string");
				out += put_utf8(out, cp);
				break;
			default:
				return fail_at(j, src - 2, "unknown escape '\\%s' in a string",
					       (char[]){ src[-1], 0 });
			}
		}
		j->s = j->scratch;
		j->len = (size_t)(out - j->scratch);
	}
	/* Here again: reading more may have moved the token in the buffer. */
	j->tok_off = (size_t)(in->cur - in->buf);
	j->tok_start = in->cur;
	in->cur += off + 1;
	return kind;
}

/*
 * Byte classes, one table lookup where the loops that run on every byte
 * of a trace would test a chain of characters:
 *   1  whitespace between tokens (space, \n, \r, \t)
 *   2  a byte of a number or a bare word (digits, - + . e E, letters, / _)
 *   4  a byte json_skip_value() passes over (anything but " { } [ ] ,)
 */
enum { CL_SPACE = 1, CL_SCALAR = 2, CL_PLAIN = 4 };
static const uint8_t byte_class[256] = {
	4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 5, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	5, 4, 0, 4, 4, 4, 4, 4, 4, 4, 4, 6, 0, 6, 6, 6,
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 4, 4,
	4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0, 4, 0, 4, 6,
	4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0, 4, 0, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 6, 6, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
};

/* JSON's number grammar, leniently: leading zeros and '+' pass. */
static bool valid_number(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (!digits)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = 0;

		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, e++;
		if (!e)
			return false;
	}
	return i == n;
}

/* A number or a bare word starting at in->cur. */
static enum json_tok scan_scalar(struct json *j)
{
	struct input *in = j->in;
	size_t off = 0;
	const char *s;

	for (;;) {
		while (in->cur + off < in->end && (byte_class[(unsigned char)in->cur[off]] & CL_SCALAR))
			if (++off > JSON_MAX_NUMBER)
				return fail_at(j, in->cur, "number or word longer than %d characters",
					       JSON_MAX_NUMBER);
		if (in->cur + off < in->end || !have(j, off + 1))
			break;
	}
	s = in->cur;
	j->s = s;
	j->len = off;
	/* Here again: reading more may have moved the token in the buffer. */
	j->tok_off = (size_t)(in->cur - in->buf);
	j->tok_start = in->cur;
	in->cur += off;
	if (valid_number(s, off))
		return JSON_NUMBER;
	if (off == 4 && !memcmp(s, "true", 4))
		return JSON_TRUE;
	if (off == 5 && !memcmp(s, "false", 5))
		return JSON_FALSE;
	if (off == 4 && !memcmp(s, "null", 4))
		return JSON_NULL;
	if ((off == 3 && (!memcmp(s, "N/A", 3) || !memcmp(s, "nan", 3) || !memcmp(s, "NaN", 3) ||
			  !memcmp(s, "inf", 3))) ||
	    (off == 4 && (!memcmp(s, "-nan", 4) || !memcmp(s, "-inf", 4))) ||
	    (off == 8 && !memcmp(s, "Infinity", 8)) || (off == 9 && !memcmp(s, "-Infinity", 9))) {
		j->nr_bare_words++;
		return JSON_BARE;
	}
	if (!off)
		return fail_at(j, s, "unexpected %s", describe(*s));
	{
		char word[JSON_MAX_NUMBER + 1];

		memcpy(word, s, off);
		word[off] = '\0';
		return fail_at(j, s, "unexpected '%s'", word);
	}
}

/*
 * The fast paths.  Kineto's traceEvents is millions of objects of a dozen
 * members, nearly all a short key and a plain string or number; the
 * helpers below read those straight from the buffer, without the state
 * machine.  Each either takes a whole token that lies in the buffer, or
 * nothing: then the caller goes to the generic code from the same place,
 * which says what is wrong (or reads more) as it always did.
 */

/* Past the whitespace at P, up to END. */
static inline const char *space_end(const char *p, const char *end)
{
	if (p < end && (unsigned char)*p > ' ')
		return p;
	/* One space, after most ':' and ',' of a line. */
	if (end - p >= 2 && *p == ' ' && (unsigned char)p[1] > ' ')
		return p + 1;
#ifdef __SSE2__
	/* Kineto's pretty-printing puts "\n" and 4 to 8 spaces before most
	 * members: sixteen bytes at a time. */
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		__m128i sp = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
						       _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
					  _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
						       _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
		unsigned other = ~(unsigned)_mm_movemask_epi8(sp) & 0xffff;

		if (other)
			return p + __builtin_ctz(other);
		p += 16;
	}
#endif
	while (p < end && (byte_class[(unsigned char)*p] & CL_SPACE))
		p++;
	return p;
}

/* The closing quote of the string whose text starts at P, when the text
 * is plain (no escape, control or non-ASCII byte) and the quote is before
 * END; else NULL: scan_string() validates and unescapes the rest. */
static inline const char *plain_string_end(const char *p, const char *end)
{
	const char *start = p;

#ifdef __SSE2__
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		/* Signed: bytes below 0x20 and from 0x80 on are both less. */
		__m128i odd = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
							_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
					   _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
		unsigned m = (unsigned)_mm_movemask_epi8(odd);

		if (m) {
			p += __builtin_ctz(m);
			goto found;
		}
		p += 16;
	}
#endif
	while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20 &&
	       (unsigned char)*p < 0x80)
		p++;
found:
	if (p == end || *p != '"' || p - start > JSON_MAX_STRING)
		return NULL;
	return p;
}

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* Past the digits at P, up to END.  Eight bytes at a time where they are
 * there (little-endian): with X = w - "00000000", a byte is a digit when
 * it and X + 0x76 both lack the top bit; a borrow or carry out of a byte
 * that is no digit only disturbs the bytes after it, so the lowest flag
 * is the first byte that is no digit. */
static inline const char *digits_end(const char *p, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		uint64_t w, x, other;

		memcpy(&w, p, 8);
		x = w - 0x3030303030303030ULL;
		other = (x | (x + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
		if (other)
			return p + (__builtin_ctzll(other) >> 3);
		p += 8;
	}
#endif
	while (p < end && is_digit(*p))
		p++;
	return p;
}

/* The end of the number at P when it is plain -- digits, with a sign and
 * a fraction or not -- and ends before END; else NULL: scan_scalar()
 * takes exponents, bare words and numbers cut by the buffer's end. */
static inline const char *plain_number_end(const char *p, const char *end)
{
	const char *start = p;

	if (p < end && *p == '-')
		p++;
	if (p == end || !is_digit(*p))
		return NULL;
	p = digits_end(p, end);
	if (p < end && *p == '.') {
		p++;
		if (p == end || !is_digit(*p))
			return NULL;
		p = digits_end(p, end);
	}
	if (p == end || (byte_class[(unsigned char)*p] & CL_SCALAR) || p - start > JSON_MAX_NUMBER)
		return NULL;
	return p;
}

/* Skip whitespace; false at the end of the input.  Inline: it runs before
 * every token, and most tokens follow no space or one. */
static inline bool skip_space(struct json *j)
{
	struct input *in = j->in;

	if (in->cur < in->end && *in->cur > ' ')
		return true;
	for (;;) {
		in->cur = (char *)space_end(in->cur, in->end);
		if (in->cur < in->end)
			return true;
		if (!have(j, 1))
			return false;
	}
}

int json_check_end(struct json *j, const char *what)
{
	struct input *in = j->in;
	bool text = false;
	struct pos at;

	/* Read to the end even past text, which is not tokenized: a gzip
	 * stream's check of all the bytes before is in its last ones. */
	while (skip_space(j)) {
		if (!text) {
			at = input_pos(in, in->cur);
			text = true;
		}
		in->cur = in->end;
	}
	if (text)
		diag_warn(j->diag, &at, "text after the end of the JSON document (ignored)",
			  "text after the end of the %s; ignored", what);
	if (in->error) {
		diag_error(j->diag, NULL, "read error after the end of the %s: %s; kept what came before",
			   what, strerror(in->error));
		return -1;
	}
	if (in->error_msg) {
		diag_error(j->diag, NULL,
			   "the file fails its gzip check after the end of the %s: %s; kept what came "
			   "before, unverified",
			   what, in->error_msg);
		return -1;
	}
	return 0;
}

static void after_value(struct json *j)
{
	j->state = j->depth ? ST_AFTER : ST_VALUE;
	if (!j->depth)
		j->nr_docs++;
}

enum json_tok json_next(struct json *j)
{
	struct input *in = j->in;
	enum json_tok t;
	char c;

	if (j->state < 0)
		return JSON_ERROR;
again:
	if (!skip_space(j)) {
		bool cut = j->depth || j->state == ST_COLON;

		/* Text that stops inside a value is cut, whether the file
		 * or its gzip stream ends there: what came before is kept,
		 * as the chunked reading of a big file keeps it.  A read
		 * error still ends the load with its own message. */
		if ((in->error || !cut) && !j->quiet && input_failed(in, j->diag)) {
			j->state = -1;
			return JSON_ERROR;
		}
		if (cut)
			return truncated(j);
		j->tok_off = (size_t)(in->cur - in->buf);
		return JSON_EOF;
	}
	c = *in->cur;
	j->tok_off = (size_t)(in->cur - in->buf);
	j->tok_start = in->cur;

	switch (j->state) {
	case ST_AFTER:
		if (c == ',') {
			in->cur++;
			j->state = j->stack[j->depth - 1] == 'o' ? ST_OBJECT_NEXT : ST_ARRAY_NEXT;
			goto again;
		}
		if (c == '}' || c == ']')
			goto close;
		if (j->stack[j->depth - 1] == 'o')
			return fail_at(j, in->cur, "expected ',' or '}' in an object, found %s",
				       describe(c));
		return fail_at(j, in->cur, "expected ',' or ']' in an array, found %s", describe(c));
	case ST_COLON:
		if (c != ':')
			return fail_at(j, in->cur, "expected ':' after a member name, found %s",
				       describe(c));
		in->cur++;
		j->state = ST_VALUE;
		goto again;
	case ST_OBJECT_FIRST:
	case ST_OBJECT_NEXT:
		if (c == '}') {
			if (j->state == ST_OBJECT_NEXT)
				j->nr_empty_trailing++;	/* trailing comma */
			goto close;
		}
		if (c != '"')
			return fail_at(j, in->cur, "expected a member name in quotes, found %s",
				       describe(c));
		t = scan_string(j, JSON_KEY);
		if (t == JSON_KEY)
			j->state = ST_COLON;
		return t;
	case ST_ARRAY_FIRST:
	case ST_ARRAY_NEXT:
		if (c == ']') {
			if (j->state == ST_ARRAY_NEXT)
				j->nr_empty_trailing++;	/* trailing comma */
			goto close;
		}
		break;
	default:
		break;
	}

	/* A value. */
	switch (c) {
	case '{':
	case '[':
		if (j->depth >= JSON_MAX_DEPTH)
			return fail_at(j, in->cur, "nesting deeper than %d levels", JSON_MAX_DEPTH);
		j->stack[j->depth++] = c == '{' ? 'o' : 'a';
		in->cur++;
		j->state = c == '{' ? ST_OBJECT_FIRST : ST_ARRAY_FIRST;
		return c == '{' ? JSON_OBJ_BEGIN : JSON_ARR_BEGIN;
	case '"':
		t = scan_string(j, JSON_STRING);
		if (t == JSON_STRING)
			after_value(j);
		return t;
	case '}':
	case ']':
		return fail_at(j, in->cur, "expected a value, found %s", describe(c));
	default:
		t = scan_scalar(j);
		if (t != JSON_ERROR)
			after_value(j);
		return t;
	}

close:
	if (!j->depth || (c == '}') != (j->stack[j->depth - 1] == 'o'))
		return fail_at(j, in->cur, "unbalanced %s", describe(c));
	j->depth--;
	in->cur++;
	after_value(j);
	return c == '}' ? JSON_OBJ_END : JSON_ARR_END;
}

/* For json_skip_value(): make more than N bytes from in->cur available;
 * false at the end of the input or past the bound (then reported). */
static bool more(struct json *j, size_t n)
{
	struct input *in = j->in;
	size_t want = n + 4096 > INPUT_MAX_SPAN ? n + 1 : n + 4096;

	if (n + 1 > INPUT_MAX_SPAN) {
		fail_at(j, in->cur, "value longer than %d bytes", INPUT_MAX_SPAN);
		return false;
	}
	input_need(in, want);
	return (size_t)(in->end - in->cur) > n;
}

enum json_tok json_next_key(struct json *j)
{
	struct input *in = j->in;
	const char *p, *q, *end = in->end;
	enum json_tok t;
	char c;

	/* Inside an object: after a value (ST_AFTER is only ever set inside
	 * a container), or past its '{' or a ',' (set only in objects). */
	if (j->state == ST_AFTER ? j->stack[j->depth - 1] != 'o'
	    : j->state != ST_OBJECT_FIRST && j->state != ST_OBJECT_NEXT)
		return json_next(j);

	/* The fast path: a plain key, all in the buffer. */
	p = space_end(in->cur, end);
	if (j->state == ST_AFTER && p < end && *p == ',')
		p = space_end(p + 1, end);
	else if (p < end && *p == '}' && j->state != ST_OBJECT_NEXT)
		goto close;
	else if (j->state == ST_AFTER)
		goto generic;
	if (p == end || *p != '"' || j->allow_unescaped || !(q = plain_string_end(p + 1, end)))
		goto generic;
	j->tok_off = (size_t)(p - in->buf);
	j->tok_start = p;
	j->s = p + 1;
	j->len = (size_t)(q - p - 1);
	if (q + 1 < end && q[1] == ':') {
		in->cur = (char *)q + 2;
		j->state = ST_VALUE;
	} else {
		in->cur = (char *)q + 1;
		j->state = ST_COLON;
	}
	return JSON_KEY;

close:
	j->tok_off = (size_t)(p - in->buf);
	j->tok_start = p;
	in->cur = (char *)p + 1;
	j->depth--;
	after_value(j);
	return JSON_OBJ_END;

generic:
	if (!skip_space(j))
		return truncated(j);
	c = *in->cur;
	if (j->state == ST_AFTER) {
		if (c != ',')
			return json_next(j);	/* '}' or an error, said there */
		in->cur++;
		j->state = ST_OBJECT_NEXT;
		if (!skip_space(j))
			return truncated(j);
		c = *in->cur;
	}
	if (c != '"')
		return json_next(j);
	j->tok_off = (size_t)(in->cur - in->buf);
	j->tok_start = in->cur;
	t = scan_string(j, JSON_KEY);
	if (t != JSON_KEY)
		return t;
	/* Take the colon too when it is right there; never refill here, so
	 * the key's text (pointing into the buffer) stays valid. */
	if (in->cur < in->end && *in->cur == ':') {
		in->cur++;
		j->state = ST_VALUE;
	} else {
		j->state = ST_COLON;
	}
	return JSON_KEY;
}

/* Open the object or array whose bracket is at P, in the buffer; the
 * caller has checked the depth. */
static enum json_tok open_container(struct json *j, const char *p)
{
	bool is_object = *p == '{';

	j->tok_off = (size_t)(p - j->in->buf);
	j->tok_start = p;
	j->stack[j->depth++] = is_object ? 'o' : 'a';
	j->in->cur = (char *)p + 1;
	j->state = is_object ? ST_OBJECT_FIRST : ST_ARRAY_FIRST;
	return is_object ? JSON_OBJ_BEGIN : JSON_ARR_BEGIN;
}

/* Take the value at P, past the whitespace before it, when it is a plain
 * string or number or opens a container, into *T; false, and nothing
 * taken, for anything else. */
static inline bool take_value(struct json *j, const char *p, enum json_tok *t)
{
	struct input *in = j->in;
	const char *q, *end = in->end;

	if (*p == '"' && !j->allow_unescaped && (q = plain_string_end(p + 1, end))) {
		j->s = p + 1;
		j->len = (size_t)(q - p - 1);
		in->cur = (char *)q + 1;
		*t = JSON_STRING;
	} else if ((*p == '-' || is_digit(*p)) && (q = plain_number_end(p, end))) {
		j->s = p;
		j->len = (size_t)(q - p);
		in->cur = (char *)q;
		*t = JSON_NUMBER;
	} else if ((*p == '{' || *p == '[') && j->depth < JSON_MAX_DEPTH) {
		*t = open_container(j, p);
		return true;
	} else {
		return false;
	}
	j->tok_off = (size_t)(p - in->buf);
	j->tok_start = p;
	j->state = ST_AFTER;
	return true;
}

enum json_tok json_next_element(struct json *j)
{
	struct input *in = j->in;
	const char *p, *end = in->end;
	enum json_tok t;

	if (j->depth == 0 || j->stack[j->depth - 1] != 'a' ||
	    (j->state != ST_AFTER && j->state != ST_ARRAY_FIRST))
		return json_next(j);
	p = space_end(in->cur, end);
	if (p == end)
		return json_next(j);
	if (*p == ']') {
		/* The end of the array (after a ',', a quirk json_next() counts). */
		j->tok_off = (size_t)(p - in->buf);
		j->tok_start = p;
		in->cur = (char *)p + 1;
		j->depth--;
		after_value(j);
		return JSON_ARR_END;
	}
	if (j->state == ST_AFTER) {
		if (*p != ',')
			return json_next(j);
		p = space_end(p + 1, end);
		if (p == end || *p == ']')
			return json_next(j);
	}
	if (take_value(j, p, &t))
		return t;
	return json_next(j);
}

enum json_tok json_next_value(struct json *j)
{
	struct input *in = j->in;
	const char *p;
	enum json_tok t;

	if (j->state != ST_VALUE || !j->depth)
		return json_next(j);
	p = space_end(in->cur, in->end);
	if (p < in->end && take_value(j, p, &t))
		return t;
	in->cur = (char *)p;	/* the whitespace json_next() would skip */
	return json_next(j);
}

enum json_tok json_skip_value(struct json *j)
{
	struct input *in = j->in;
	const char *num_end;
	size_t off;
	int depth = 0;

	if (j->state == ST_COLON) {
		if (!skip_space(j))
			return truncated(j);
		if (*in->cur != ':')
			return fail_at(j, in->cur, "expected ':' after a member name, found %s",
				       describe(*in->cur));
		in->cur++;
		j->state = ST_VALUE;
	}
	if (j->state != ST_VALUE || j->depth == 0)
		return json_skip(j, json_next(j));
	if (!skip_space(j))
		return truncated(j);
	j->tok_off = (size_t)(in->cur - in->buf);
	j->tok_start = in->cur;
	/*
	 * A plain number then the member's or the object's end, the common
	 * case, without the byte loop below: what it skips is the same, the
	 * number and the spaces after it.
	 */
	if ((*in->cur == '-' || is_digit(*in->cur)) &&
	    (num_end = plain_number_end(in->cur, in->end))) {
		num_end = space_end(num_end, in->end);
		if (num_end < in->end && (*num_end == ',' || *num_end == '}' || *num_end == ']')) {
			off = (size_t)(num_end - in->cur);
			goto done;
		}
	}
	off = 0;
	for (;;) {
		const char *p, *end;
		char c;

		if (in->cur + off >= in->end && !more(j, off))
			return j->state < 0 ? JSON_ERROR : truncated(j);
		p = in->cur + off;
		end = in->end;
		c = *p;
		if (c == '"') {
			/* To the closing quote, minding escapes. */
			const char *q = p + 1;

			for (;;) {
				q = memchr(q, '"', (size_t)(end - q));
				if (!q)
					break;
				{
					const char *b = q;

					while (b > p + 1 && b[-1] == '\\')
						b--;
					if (((q - b) & 1) == 0)
						break;
				}
				q++;
			}
			if (!q) {
				/* Read more and look again from the string's start. */
				if (!more(j, (size_t)(end - in->cur)))
					return j->state < 0 ? JSON_ERROR : truncated(j);
				continue;
			}
			off = (size_t)(q - in->cur) + 1;
		} else if (c == '{' || c == '[') {
			if (++depth > JSON_MAX_DEPTH - j->depth)
				return fail_at(j, p, "nesting deeper than %d levels", JSON_MAX_DEPTH);
			off++;
		} else if (c == '}' || c == ']') {
			if (depth == 0)
				break;	/* the enclosing container's end: done */
			depth--;
			off++;
		} else if (c == ',' && depth == 0) {
			break;
		} else {
			/* A run of plain bytes (digits, spaces, commas deeper
			 * in) at once. */
			const char *q = p + 1;

			while (q < end && ((byte_class[(unsigned char)*q] & CL_PLAIN) || (*q == ',' && depth)))
				q++;
			off = (size_t)(q - in->cur);
			continue;
		}
		if (depth == 0 && (c == '"' || c == '}' || c == ']'))
			break;
	}
	if (off == 0)
		return fail_at(j, in->cur, "expected a value, found %s", describe(*in->cur));
done:
	/* Here again: reading more may have moved the value in the buffer. */
	j->tok_off = (size_t)(in->cur - in->buf);
	j->tok_start = in->cur;
	j->s = in->cur;
	j->len = off;
	in->cur += off;
	after_value(j);
	return JSON_NULL;
}

void json_fork(struct json *dst, const struct json *src, enum json_fork where)
{
	dst->depth = src->depth;
	memcpy(dst->stack, src->stack, (size_t)src->depth);
	dst->allow_unescaped = src->allow_unescaped;
	dst->nr_docs = src->nr_docs;
	dst->state = where == JSON_FORK_FIRST ? ST_ARRAY_FIRST : where == JSON_FORK_NEXT
		     ? ST_ARRAY_NEXT : ST_AFTER;
}

void json_resume(struct json *j, const struct json *from)
{
	j->depth = from->depth;
	memcpy(j->stack, from->stack, (size_t)from->depth);
	j->state = from->state;
	j->nr_docs = from->nr_docs;
	j->tok_off = (size_t)(j->in->cur - j->in->buf);
}

uint64_t json_peek_element(struct json *j, size_t limit)
{
	struct input *in = j->in;
	bool comma = false;

	for (size_t off = 0; off <= limit; off++) {
		char c;

		if (in->cur + off >= in->end && input_need(in, off + 1) <= off)
			return comma ? in->buf_offset + (uint64_t)(in->end - in->buf) : UINT64_MAX;
		c = in->cur[off];
		if (byte_class[(unsigned char)c] & CL_SPACE)
			continue;
		if (c == ',' && !comma) {
			comma = true;
			continue;
		}
		return comma ? in->buf_offset + (uint64_t)(in->cur + off - in->buf) : UINT64_MAX;
	}
	return UINT64_MAX;
}

enum json_tok json_end_truncated(struct json *j)
{
	return truncated(j);
}

enum json_tok json_next_fast(struct json *j)
{
	if (j->depth == 0)
		return json_next(j);
	if (j->state == ST_VALUE)
		return json_next_value(j);
	if (j->stack[j->depth - 1] == 'a')
		return json_next_element(j);
	return json_next_key(j);
}

enum json_tok json_skip_container(struct json *j, enum json_tok t)
{
	int depth;

	depth = j->depth - 1;
	do {
		t = json_next_fast(j);
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	} while (j->depth > depth);
	return t;
}
