// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../model/bounds.h"
#include "../model/strbuf.h"
#include "format.h"

static size_t decimal_digits(uint64_t v)
{
	size_t n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* The length put_fixed() gives, without writing it. */
static size_t fixed_length(bool neg, uint64_t v, bool three, size_t suffix_len)
{
	size_t n = neg + suffix_len;

	if (three)
		return n + 4 + decimal_digits(v / 1000);	/* "d.ddd" */
	return n + decimal_digits(v);
}

/* V's LEN decimal digits, ending at END (exclusive), two at a time. */
static void put_digits(char *end, uint64_t v, size_t len)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";

	for (; len >= 2; len -= 2, v /= 100) {
		end -= 2;
		memcpy(end, pairs + 2 * (v % 100), 2);
	}
	if (len)
		end[-1] = (char)('0' + v % 10);
}

/* ".ddd" for F (0-999) at P; returns the end. */
static char *put_thousandths(char *p, unsigned f)
{
	p[0] = '.';
	p[1] = (char)('0' + f / 100);
	p[2] = (char)('0' + f / 10 % 10);
	p[3] = (char)('0' + f % 10);
	return p + 4;
}

/*
 * "-123.456 us" for NEG, V = 123456, SUFFIX " us" (SUFFIX_LEN bytes, at
 * most 8), into BUF (SIZE bytes, cut if it must): numbers are most of
 * what an export writes, and a tree of millions of rows wants this
 * without snprintf's parsing of a format.  With THREE false, just
 * "-123456" and the suffix.
 */
static size_t put_fixed(char *buf, size_t size, bool neg, uint64_t v, bool three, const char *suffix,
			size_t suffix_len)
{
	uint64_t whole = three ? v / 1000 : v;
	size_t digits = decimal_digits(whole);
	size_t len = neg + digits + (three ? 4 : 0) + suffix_len;
	char tmp[48], *out = len < size ? buf : tmp;
	char *p = out + neg + digits;

	if (neg)
		out[0] = '-';
	put_digits(p, whole, digits);
	if (three)
		p = put_thousandths(p, (unsigned)(v % 1000));
	for (size_t i = 0; i < suffix_len; i++)
		p[i] = suffix[i];
	if (out == buf) {
		buf[len] = '\0';
		return len;
	}
	/* Too long for BUF: cut, as a short buffer always has been. */
	len = len < size ? len : size - 1;
	memcpy(buf, tmp, len);
	buf[len] = '\0';
	return len;
}

/* |NS| rounded to DIGITS fewer decimal places, half away from zero. */
static uint64_t scaled(int64_t ns, uint64_t div)
{
	uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	return m / div + (m % div >= (div + 1) / 2);
}

/* BUF (N bytes from snprintf, fixed-point) without trailing zeros or a
 * bare point; returns the new length. */
static size_t trim_fraction(char *buf, int n, size_t size)
{
	if (n < 0)
		return 0;
	if ((size_t)n >= size)
		return size - 1;
	if (!strchr(buf, '.'))
		return (size_t)n;
	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[--n] = '\0';
	return (size_t)n;
}

size_t fmt_us(int64_t ns, char *buf, size_t size)
{
	uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	if (!size)
		return 0;
	/* No trailing zeros, no bare point: "62969", "110.88". */
	return trim_fraction(buf, (int)put_fixed(buf, size, ns < 0, m, true, "", 0), size);
}

/*
 * What fmt_time() writes for NS: the three-decimal value *V of the unit
 * that keeps the integer part below 1000, as PyTorch's tables print
 * (and with the same thresholds), and the unit.  NULL for zero, which
 * prints as a bare "0".
 */
static const char *time_parts(int64_t ns, uint64_t *v, size_t *unit_len)
{
	/* Four bytes each, so that a unit and its NUL copy as one word. */
	static const char units[3][4] = { " us", " ms", " s" };
	uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	*unit_len = 3;
	if (m == 0)
		return NULL;
	if (m < 1000000) {
		*v = m;	/* ns: us with three decimals is exact */
		return units[0];
	}
	if (m < 1000000000) {
		*v = scaled(ns, 1000);
		return units[1];
	}
	*v = scaled(ns, 1000000);
	*unit_len = 2;
	return units[2];
}

size_t fmt_time(int64_t ns, char *buf, size_t size)
{
	uint64_t v;
	size_t unit_len;
	const char *unit;

	if (!size)
		return 0;
	unit = time_parts(ns, &v, &unit_len);
	if (!unit && size >= 2) {
		memcpy(buf, "0", 2);
		return 1;
	}
	if (!unit)
		return put_fixed(buf, size, false, 0, false, "", 0);
	if (v < 1000000 && size >= 16) {
		/* The common case, a whole part below 1000 ("123.456 ms"):
		 * the digits in place, no counting or division loops. */
		unsigned whole = (unsigned)(v / 1000), frac = (unsigned)(v % 1000);
		char *p = buf;

		if (ns < 0)
			*p++ = '-';
		if (whole >= 100)
			*p++ = (char)('0' + whole / 100);
		if (whole >= 10)
			*p++ = (char)('0' + whole / 10 % 10);
		*p++ = (char)('0' + whole % 10);
		p = put_thousandths(p, frac);
		memcpy(p, unit, 4);	/* its NUL too: time_parts()'s units */
		return (size_t)(p - buf) + unit_len;
	}
	return put_fixed(buf, size, ns < 0, v, true, unit, unit_len);
}

size_t fmt_progress(uint64_t done, uint64_t total, uint64_t plain, double elapsed_s, char *buf,
		    size_t size)
{
	bool unpacked = plain > done;
	double mb, plain_mb = (double)plain / (1 << 20);
	double rate = elapsed_s > 0 ? plain_mb / elapsed_s : 0;
	struct strbuf b = STRBUF_INIT;
	size_t n;

	if (total && done > total)
		done = total;	/* the file grew while read */
	mb = (double)done / (1 << 20);
	if (total)
		strbuf_addf(&b, "%3d%%  %.0f of %.0f MB", (int)(done * 100 / total), mb,
			    (double)total / (1 << 20));
	else
		strbuf_addf(&b, "%.0f MB", mb);
	if (unpacked)
		strbuf_addf(&b, " read, %.0f MB unpacked at %.0f MB/s", plain_mb, rate);
	else
		strbuf_addf(&b, "%s  %.0f MB/s", total ? "" : " read", rate);
	if (total && rate > 0 && done < total && done > 0) {
		double left = elapsed_s * (double)(total - done) / (double)done;

		strbuf_addf(&b, "  about %.0f s left", left < 1 ? 1 : left);
	}
	n = b.len < size ? b.len : size ? size - 1 : 0;
	if (size) {
		memcpy(buf, b.s, n);
		buf[n] = '\0';
	}
	strbuf_release(&b);
	return n;
}

static size_t fmt_bytes(int64_t b, char *buf, size_t size)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	int u = -1, n;

	while ((v >= 1024 || v <= -1024) && u < 4) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		n = snprintf(buf, size, "%" PRId64 " B", b);
	else
		n = snprintf(buf, size, "%.2f %s", v, units[u]);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

static size_t fmt_si(double d, char *buf, size_t size)
{
	static const char prefixes[] = " KMGTPE";
	int p = 0, n;

	while ((d >= 1000 || d <= -1000) && p < 6) {
		d /= 1000;
		p++;
	}
	if (p == 0)
		n = snprintf(buf, size, "%.2f", d);
	else
		n = snprintf(buf, size, "%.2f %c", d, prefixes[p]);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* A double for machines: no exponent for ordinary values, no trailing
 * zeros, at most six decimals. */
static size_t fmt_raw_real(double d, char *buf, size_t size)
{
	size_t n;

	if (fabs(d) >= 1e15 || (d != 0 && fabs(d) < 1e-6)) {
		int k = snprintf(buf, size, "%.17g", d);

		return k < 0 ? 0 : (size_t)k < size ? (size_t)k : size - 1;
	}
	n = trim_fraction(buf, snprintf(buf, size, "%.6f", d), size);
	if (!strcmp(buf, "-0"))
		n = (size_t)snprintf(buf, size, "0");
	return n;
}

/*
 * A sum of times or sizes that reached SUM_CAP (model/bounds.h) holds the
 * cap, and anything at or past it is shown as ">=" the cap ("<=" its
 * negative): on screen and in txt and md.  A time as ">=2.3e9 s", the cap
 * rounded down, so that it fits a time column and stays true.  Raw
 * exports write the number itself, which a machine reads; the load's or
 * the pane's warning says which sums were capped.  Counts print as they
 * are (a file's integers).
 */
static bool shows_capped(enum col_kind kind, int64_t v, enum fmt_style style)
{
	return style == FMT_HUMAN && (kind == COL_TIME || kind == COL_BYTES) && sum_capped(v);
}

static size_t fmt_capped(enum col_kind kind, int64_t v, char *buf, size_t size)
{
	int64_t cap = v > 0 ? SUM_CAP : -SUM_CAP;
	char num[48];
	int n;

	if (kind == COL_TIME)
		snprintf(num, sizeof(num), "%s2.3e9 s", cap < 0 ? "-" : "");
	else
		fmt_bytes(cap, num, sizeof(num));
	n = snprintf(buf, size, "%s%s", v > 0 ? ">=" : "<=", num);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t fmt_cell(enum col_kind kind, struct cell v, enum fmt_style style, char *buf, size_t size)
{
	int n = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	switch (v.type) {
	case CELL_NONE:
		return 0;
	case CELL_TEXT: {
		size_t len = strlen(v.v.s);

		if (len >= size)
			len = size - 1;
		memcpy(buf, v.v.s, len);
		buf[len] = '\0';
		return len;
	}
	case CELL_INT:
		if (shows_capped(kind, v.v.i, style))
			return fmt_capped(kind, v.v.i, buf, size);
		if (kind == COL_TIME)
			return style == FMT_RAW ? fmt_us(v.v.i, buf, size) : fmt_time(v.v.i, buf, size);
		if (kind == COL_BYTES && style == FMT_HUMAN)
			return fmt_bytes(v.v.i, buf, size);
		return put_fixed(buf, size, v.v.i < 0,
				 v.v.i < 0 ? (uint64_t)0 - (uint64_t)v.v.i : (uint64_t)v.v.i, false, "", 0);
	case CELL_REAL:
		if (style == FMT_RAW)
			return fmt_raw_real(v.v.d, buf, size);
		if (v.capped) {
			size_t k;

			if (size < 3)
				return 0;
			memcpy(buf, v.v.d < 0 ? "<=" : ">=", 2);
			v.capped = false;
			k = fmt_cell(kind, v, style, buf + 2, size - 2);
			return k + 2;
		}
		if (kind == COL_PCT)
			n = snprintf(buf, size, "%.2f%%", v.v.d);
		else if (kind == COL_SI)
			return fmt_si(v.v.d, buf, size);
		else if (kind == COL_FIXED && v.v.d != 0 && fabs(v.v.d) < 0.005)
			/* What two decimals would show as 0.00 is not 0. */
			n = snprintf(buf, size, "%s", v.v.d > 0 ? "<0.01" : ">-0.01");
		else if (kind == COL_FIXED && fabs(v.v.d) < 1e15)
			n = snprintf(buf, size, "%.2f", v.v.d);
		else if (fabs(v.v.d) >= 1e7 || (v.v.d != 0 && fabs(v.v.d) < 0.01))
			n = snprintf(buf, size, "%.4g", v.v.d);
		else
			n = snprintf(buf, size, "%.2f", v.v.d);
		break;
	}
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t fmt_cell_length(enum col_kind kind, struct cell v, enum fmt_style style)
{
	char buf[64];
	uint64_t m;

	if (v.type == CELL_INT && (kind != COL_BYTES || style != FMT_HUMAN) &&
	    (kind != COL_TIME || style == FMT_HUMAN) && !shows_capped(kind, v.v.i, style)) {
		m = v.v.i < 0 ? (uint64_t)0 - (uint64_t)v.v.i : (uint64_t)v.v.i;
		if (kind != COL_TIME)
			return fixed_length(v.v.i < 0, m, false, 0);
		{
			size_t unit_len;
			const char *unit = time_parts(v.v.i, &m, &unit_len);

			return unit ? fixed_length(v.v.i < 0, m, true, unit_len) : 1;
		}
	}
	if (v.type == CELL_TEXT)
		return strlen(v.v.s);
	return fmt_cell(kind, v, style, buf, sizeof(buf));
}

bool fmt_needs_escape(const char *s, size_t len)
{
	return escape_needed(s, len);
}

size_t fmt_escape(const char *s, size_t len, bool ascii_only, char *buf, size_t size)
{
	return escape_text(s, len, ascii_only, buf, size);
}

/* Ranges of East Asian Wide and Fullwidth characters (Unicode's
 * EastAsianWidth W/F), coarsened to blocks; enough to keep columns
 * straight for CJK names and emoji. */
static const uint32_t wide[][2] = {
	{ 0x1100, 0x115f },   { 0x231a, 0x231b },   { 0x2329, 0x232a },   { 0x23e9, 0x23ec },
	{ 0x23f0, 0x23f0 },   { 0x23f3, 0x23f3 },   { 0x25fd, 0x25fe },   { 0x2614, 0x2615 },
	{ 0x2648, 0x2653 },   { 0x267f, 0x267f },   { 0x2693, 0x2693 },   { 0x26a1, 0x26a1 },
	{ 0x26aa, 0x26ab },   { 0x26bd, 0x26be },   { 0x26c4, 0x26c5 },   { 0x26ce, 0x26ce },
	{ 0x26d4, 0x26d4 },   { 0x26ea, 0x26ea },   { 0x26f2, 0x26f3 },   { 0x26f5, 0x26f5 },
	{ 0x26fa, 0x26fa },   { 0x26fd, 0x26fd },   { 0x2705, 0x2705 },   { 0x270a, 0x270b },
	{ 0x2728, 0x2728 },   { 0x274c, 0x274c },   { 0x274e, 0x274e },   { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 },   { 0x2795, 0x2797 },   { 0x27b0, 0x27b0 },   { 0x27bf, 0x27bf },
	{ 0x2b1b, 0x2b1c },   { 0x2b50, 0x2b50 },   { 0x2b55, 0x2b55 },   { 0x2e80, 0x303e },
	{ 0x3041, 0x33ff },   { 0x3400, 0x4dbf },   { 0x4e00, 0x9fff },   { 0xa000, 0xa4cf },
	{ 0xa960, 0xa97f },   { 0xac00, 0xd7a3 },   { 0xf900, 0xfaff },   { 0xfe10, 0xfe19 },
	{ 0xfe30, 0xfe6f },   { 0xff00, 0xff60 },   { 0xffe0, 0xffe6 },   { 0x16fe0, 0x16fe4 },
	{ 0x17000, 0x18cff }, { 0x1b000, 0x1b2ff }, { 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf },
	{ 0x1f18e, 0x1f18e }, { 0x1f191, 0x1f19a }, { 0x1f200, 0x1f251 }, { 0x1f300, 0x1f64f },
	{ 0x1f680, 0x1f6ff }, { 0x1f7e0, 0x1f7eb }, { 0x1f90c, 0x1f9ff }, { 0x1fa70, 0x1faff },
	{ 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
};

int u8_cp_width(uint32_t cp)
{
	size_t lo = 0, hi = sizeof(wide) / sizeof(wide[0]);

	if (cp < 0x300)
		return cp == 0xad ? 0 : 1;
	/* Combining marks, zero-width spaces and joiners, variation
	 * selectors and the other invisible format characters take no cell
	 * of their own (drawn, they are escaped: see u8_width()). */
	if (escape_is_invisible(cp) || (cp >= 0x300 && cp <= 0x36f) ||
	    (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x20d0 && cp <= 0x20ff) ||
	    (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x1dc0 && cp <= 0x1dff) ||
	    (cp >= 0xfe20 && cp <= 0xfe2f) || (cp >= 0xe0100 && cp <= 0xe01ef))
		return 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cp < wide[mid][0])
			hi = mid;
		else if (cp > wide[mid][1])
			lo = mid + 1;
		else
			return 2;
	}
	return 1;
}

size_t u8_width(const char *s, size_t len)
{
	size_t w = 0, i = 0;

	while (i < len) {
		size_t n;

		if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) {
			w++;
			i++;
			continue;
		}
		w += escape_char_width(s + i, len - i, u8_cp_width, &n);
		i += n;
	}
	return w;
}

size_t u8_fit(const char *s, size_t len, size_t width, size_t *used)
{
	size_t w = 0, i = 0;

	while (i < len) {
		size_t n, cw = escape_char_width(s + i, len - i, u8_cp_width, &n);

		if (w + cw > width)
			break;
		w += cw;
		i += n;
	}
	*used = w;
	return i;
}

/* ---------------------------------------------------------------------
 * Short names
 */

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '~';
}

/* The end of the bracket group opening at S[I] ('<' or '('): the index
 * just past its closing bracket, or LEN when it never closes.  Both kinds
 * nest inside each other; "->" is an arrow, not a closing '>'. */
static size_t group_end(const char *s, size_t len, size_t i)
{
	char stack[64];
	size_t depth = 0;

	for (; i < len; i++) {
		char c = s[i];

		if (c == '<' || c == '(') {
			if (depth == sizeof(stack))
				return len;
			stack[depth++] = c;
		} else if ((c == '>' && !(i && s[i - 1] == '-')) || c == ')') {
			if (!depth || stack[depth - 1] != (c == '>' ? '<' : '('))
				return len;	/* unbalanced: not C++ */
			if (!--depth)
				return i + 1;
		}
	}
	return len;
}

bool fmt_short_name(const char *name, const char *ellipsis, struct strbuf *out)
{
	size_t len = strlen(name), i = 0, start, last_sep = 0, nr_seps = 0;
	bool cpp = false;

	strbuf_reset(out);
	/* Only C++ signatures: a template argument list or a parameter
	 * list right after a name, or the "void " of a kernel. */
	for (size_t k = 1; k < len && !cpp; k++)
		cpp = (name[k] == '<' || name[k] == '(') && (is_ident(name[k - 1]) || name[k - 1] == '>');
	if (!strncmp(name, "void ", 5)) {
		cpp = true;
		i = 5;
	}
	if (!cpp)
		return false;
	start = i;
	strbuf_grow(out, len);
	while (i < len) {
		char c = name[i];

		if ((c == '<' || c == '(') && i > start &&
		    (is_ident(name[i - 1]) || name[i - 1] == '>' || name[i - 1] == ')')) {
			size_t end = group_end(name, len, i);
			bool is_last = end == len || !strncmp(name + end, " const", 6);

			if (end == len && (i == len - 1 || name[len - 1] != (c == '<' ? '>' : ')'))) {
				strbuf_add(out, name + i, len - i);	/* never closes: as is */
				break;
			}
			if (c == '<') {
				strbuf_addch(out, '<');
				strbuf_addstr(out, ellipsis);
				strbuf_addch(out, '>');
			} else if (!is_last) {
				strbuf_add(out, name + i, end - i);	/* "(anonymous namespace)" */
			}
			/* The parameter list of the signature goes, and so do
			 * the qualifiers after it. */
			i = is_last && c == '(' ? len : end;
			continue;
		}
		if (c == ':' && name[i + 1] == ':') {
			nr_seps++;
			strbuf_add(out, "::", 2);
			last_sep = out->len;
			i += 2;
			continue;
		}
		strbuf_addch(out, c);
		i++;
	}
	/* A long namespace chain keeps its last part. */
	if (nr_seps >= 2 && last_sep < out->len) {
		memmove(out->s, out->s + last_sep, out->len - last_sep);
		out->len -= last_sep;
		out->s[out->len] = '\0';
	}
	while (out->len && out->s[out->len - 1] == ' ')
		out->s[--out->len] = '\0';
	if (!out->len || (out->len == len && !memcmp(out->s, name, len))) {
		strbuf_reset(out);
		return false;
	}
	return true;
}

size_t fmt_wrap(const char *s, size_t width, size_t (*line)[2], size_t max)
{
	size_t len = strlen(s), at = 0, nr = 0;

	if (!width)
		width = 1;
	do {
		size_t used, fit = u8_fit(s + at, len - at, width, &used), end = at + fit, next;

		if (at + fit < len) {
			/* Break after the last blank that fits, if any. */
			size_t k = end;

			while (k > at && s[k] != ' ')
				k--;
			if (k > at && s[k] == ' ')
				end = k;
			if (!fit) {
				uint32_t cp;

				end = at + u8_decode(s + at, len - at, &cp);	/* wider than WIDTH */
			}
		}
		next = end;
		while (next < len && s[next] == ' ')
			next++;
		if (nr < max) {
			line[nr][0] = at;
			line[nr][1] = end;
		}
		nr++;
		at = next;
	} while (at < len);
	return nr;
}
