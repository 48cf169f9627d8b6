// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <string.h>

#include "text.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

const char *text_trim(const char *s, size_t *len)
{
	size_t n = *len;

	while (n && is_blank(*s))
		s++, n--;
	while (n && is_blank(s[n - 1]))
		n--;
	*len = n;
	return s;
}

bool text_starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

bool text_eq(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !memcmp(s, word, n);
}

bool text_ends(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

bool text_is_binary(const char *s, size_t n)
{
	size_t odd = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0)
			return true;
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' &&
		    c != 0x1b && c != 0x1e && c != 0x1f)
			odd++;
	}
	return odd * 20 > n;
}

const char *text_find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	if (!k)
		return s;
	for (size_t i = 0; i + k <= n; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, k))
			return s + i;
	return NULL;
}

/* Fields separated by runs of at least MIN_GAP blanks. */
static size_t split(const char *line, size_t len, struct field *out, size_t max, size_t min_gap)
{
	size_t i = 0, nr = 0;

	while (i < len && is_blank(line[i]))
		i++;
	while (i < len) {
		size_t start = i, end;

		/* A field ends at a run of MIN_GAP blanks (or the line's end). */
		for (;;) {
			while (i < len && !is_blank(line[i]))
				i++;
			end = i;
			while (i < len && is_blank(line[i]))
				i++;
			if (i == len || i - end >= min_gap)
				break;
		}
		if (nr < max) {
			out[nr].s = line + start;
			out[nr].len = end - start;
			out[nr].col = start;
		}
		nr++;
	}
	return nr;
}

size_t text_split2(const char *line, size_t len, struct field *out, size_t max)
{
	return split(line, len, out, max, 2);
}

size_t text_split1(const char *line, size_t len, struct field *out, size_t max)
{
	return split(line, len, out, max, 1);
}

size_t text_dash_spans(const char *line, size_t len, struct span *out, size_t max,
		       size_t min_dashes, bool allow_equals)
{
	size_t i = 0, nr = 0, longest = 0;

	while (i < len && is_blank(line[i]))
		i++;
	if (i == len)
		return 0;
	while (i < len) {
		size_t start = i;

		while (i < len && (line[i] == '-' || (allow_equals && line[i] == '=')))
			i++;
		if (i == start)
			return 0;	/* something other than a dash */
		if (nr < max) {
			out[nr].start = start;
			out[nr].end = i;
		}
		if (i - start > longest)
			longest = i - start;
		nr++;
		while (i < len && is_blank(line[i]))
			i++;
	}
	if (nr == 1 && longest < min_dashes)
		return 0;
	return nr;
}

struct field text_cell(const char *line, size_t len, struct span sp)
{
	struct field f;
	size_t start = sp.start < len ? sp.start : len;
	size_t end = sp.end < len ? sp.end : len;

	if (end < start)
		end = start;
	f.len = end - start;
	f.s = text_trim(line + start, &f.len);
	f.col = (size_t)(f.s - line);
	return f;
}

size_t text_bar_cells(const char *line, size_t len, size_t at, const char *bar,
		      struct field *out, size_t max, size_t *rest)
{
	size_t bar_len = strlen(bar), i = at + bar_len, nr = 0;

	while (i < len) {
		const char *next = text_find(line + i, len - i, bar);
		size_t n;

		if (!next)
			break;
		n = (size_t)(next - (line + i));
		if (nr < max) {
			out[nr].s = text_trim(line + i, &n);
			out[nr].len = n;
			out[nr].col = (size_t)(out[nr].s - line);
		}
		nr++;
		i = (size_t)(next - line) + bar_len;
	}
	*rest = i;
	return nr;
}

int text_title_kind(const struct text_title *titles, size_t nr, const char *s, size_t n, int none)
{
	for (size_t i = 0; i < nr; i++)
		if (text_eq(s, n, titles[i].title))
			return titles[i].kind;
	return none;
}

size_t text_byte_of_col(const char *line, size_t len, size_t col)
{
	size_t i = 0;

	while (col && i < len) {
		i++;
		/* Skip the continuation bytes of a multi-byte character. */
		while (i < len && ((unsigned char)line[i] & 0xc0) == 0x80)
			i++;
		col--;
	}
	return i;
}

size_t text_strip_ansi(char *line, size_t len)
{
	size_t r = 0, w = 0;

	while (r < len) {
		if (line[r] == 0x1b && r + 1 < len && line[r + 1] == '[') {
			r += 2;
			/* Parameters and intermediates, then one final byte. */
			while (r < len && ((unsigned char)line[r] < 0x40 || (unsigned char)line[r] > 0x7e))
				r++;
			if (r < len)
				r++;
			continue;
		}
		line[w++] = line[r++];
	}
	return w;
}

/* The length of "[...]" at S (up to 64 bytes inside), or 0. */
static size_t bracket(const char *s, size_t n)
{
	if (!n || s[0] != '[')
		return 0;
	for (size_t i = 1; i < n && i < 66; i++) {
		if (s[i] == ']')
			return i + 1;
		if (s[i] == '[')
			return 0;
	}
	return 0;
}

static bool is_severity(const char *s, size_t n)
{
	static const char *const words[] = { "[I]", "[W]", "[E]", "[V]", "[F]", "[D]" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (n == 3 && !memcmp(s, words[i], 3))
			return true;
	return false;
}

/* glog: "I0609 12:53:37.371167   670 file.cc:465] ". */
static size_t glog_prefix(const char *s, size_t n)
{
	size_t i;

	if (n < 8 || !strchr("IWEF", s[0]))
		return 0;
	for (i = 1; i < 5; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	if (s[5] != ' ' || !isdigit((unsigned char)s[6]))
		return 0;
	for (i = 6; i < n && i < 160; i++) {
		if (s[i] == ']')
			return i + 1 < n && s[i + 1] == ' ' ? i + 2 : i + 1;
		if (s[i] != ' ' && s[i] != ':' && s[i] != '.' && s[i] != '_' && s[i] != '-' &&
		    s[i] != '/' && !isalnum((unsigned char)s[i]))
			return 0;
	}
	return 0;
}

/* torchrun's per-rank prefix, "[rank3]: " or "[default0]:", or 0. */
static size_t rank_prefix(const char *line, size_t len)
{
	static const char *const words[] = { "[rank", "[default" };

	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		size_t n = strlen(words[w]), i = n;

		if (len < n || memcmp(line, words[w], n))
			continue;
		while (i < len && isdigit((unsigned char)line[i]))
			i++;
		if (i == n || i + 1 >= len || line[i] != ']' || line[i + 1] != ':')
			continue;
		for (i += 2; i < len && line[i] == ' '; i++)
			;
		return i;
	}
	return 0;
}

size_t text_log_prefix(const char *line, size_t len)
{
	size_t k, i = rank_prefix(line, len);

	/* torchrun's prefix first; a logger's may follow it. */
	if (i)
		return i + text_log_prefix(line + i, len - i);
	k = bracket(line, len);

	if (!k)
		return glog_prefix(line, len);
	/* "[I] " alone, or "[date-time] [I] ". */
	if (is_severity(line, k)) {
		i = k;
	} else {
		bool has_digit = false, has_colon = false;

		for (i = 1; i < k; i++) {
			has_digit |= isdigit((unsigned char)line[i]) != 0;
			has_colon |= line[i] == ':';
		}
		if (!has_digit || !has_colon)
			return 0;	/* "[0/10]" and such are not prefixes: a time is */
		i = k;
		/* MegEngine: "[15 12:16:26 @:19][WARN]". */
		if (i < len && line[i] == '[') {
			size_t k2 = bracket(line + i, len - i);

			if (k2)
				i += k2;
		} else {
			size_t j = i;

			while (j < len && line[j] == ' ')
				j++;
			k = bracket(line + j, len - j);
			if (k && is_severity(line + j, k))
				i = j + k;
		}
	}
	while (i < len && line[i] == ' ')
		i++;
	return i;
}
