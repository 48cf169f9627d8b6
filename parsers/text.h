/* SPDX-License-Identifier: MIT */
/*
 * text: what the line-oriented formats share.  Profilers print tables into
 * logs (key_averages, Paddle summaries, trtexec --dumpProfile, MegEngine's
 * profile_analyze), padded with spaces, delimited by dash lines, behind log
 * prefixes and colour codes; these helpers cut such lines into cells and
 * read the unit-bearing numbers in them.
 *
 * Nothing here allocates: fields and spans point into the caller's line,
 * and are valid as long as it is.
 */
#ifndef PARSERS_TEXT_H
#define PARSERS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A piece of a line: S[0..LEN) starting at byte COL of the line. */
struct field {
	const char *s;
	size_t len;
	size_t col;
};

/* A column's extent in a table line, in bytes: [start, end). */
struct span {
	size_t start, end;
};

/* S[0..*LEN) without leading and trailing blanks (space, tab, \r);
 * returns the new start and updates *LEN. */
const char *text_trim(const char *s, size_t *len);
/* Whether S[0..N) starts with PREFIX / equals WORD. */
bool text_starts(const char *s, size_t n, const char *prefix);
bool text_eq(const char *s, size_t n, const char *word);
/* Whether S[0..N) ends with SUFFIX. */
bool text_ends(const char *s, size_t n, const char *suffix);
/*
 * Whether S[0..N) holds bytes no text of any format here has: a NUL, or
 * control characters other than tab, newline, CR, form feed, vertical
 * tab, ESC (colour codes in logs) and U+001E/U+001F (TensorRT's
 * separators) making up more than 1/20 of it.  One stray control byte in
 * a line of a log is text; a run of them is not.
 */
bool text_is_binary(const char *s, size_t n);
/* The first occurrence of NEEDLE in S[0..N), or NULL. */
const char *text_find(const char *s, size_t n, const char *needle);

/*
 * Split LINE into the fields that runs of two or more blanks separate (a
 * single space stays inside a field: "Self CPU %", "aten::add_ "), at most
 * MAX of them; returns how many there were (possibly more than MAX; only
 * MAX are stored).  Leading and trailing blanks are not fields.
 */
size_t text_split2(const char *line, size_t len, struct field *out, size_t max);
/* The same, split on every run of blanks. */
size_t text_split1(const char *line, size_t len, struct field *out, size_t max);

/*
 * If LINE is a separator made of dash runs ("-----  ------  ---", with
 * optional leading blanks and trailing blanks), store each run's span and
 * return how many there are (possibly more than MAX); else return 0.  A
 * single run of at least MIN_DASHES dashes counts as a one-column separator.
 * '=' runs count as dashes when ALLOW_EQUALS is set.
 */
size_t text_dash_spans(const char *line, size_t len, struct span *out, size_t max,
		       size_t min_dashes, bool allow_equals);
/* The trimmed text of LINE inside SP (clamped to LEN). */
struct field text_cell(const char *line, size_t len, struct span sp);

/*
 * The cells of a row drawn with BAR (a string: "|", or a box-drawing
 * "\u2502") before, between and after them, "| a | b |": LINE[AT..]
 * starts with BAR, and the text up to each next BAR is a cell, trimmed,
 * its col counted from LINE.  Returns how many (possibly more than MAX;
 * only MAX are stored); *REST gets where the text after the last BAR
 * starts, no cell: each format says what it may hold.
 */
size_t text_bar_cells(const char *line, size_t len, size_t at, const char *bar,
		      struct field *out, size_t max, size_t *rest);

/* A column title as a table prints it, and what its format makes of it
 * (the format's own enum, as an int). */
struct text_title {
	const char *title;
	int kind;
};
/* The kind of the header cell S[0..N) among the NR TITLES, matched whole
 * and case-sensitively, the first that matches; NONE when none does. */
int text_title_kind(const struct text_title *titles, size_t nr, const char *s, size_t n, int none);

/*
 * Byte offset of character column COL in the UTF-8 LINE: tables are padded
 * by characters (Python's len()), so a name with non-ASCII characters
 * shifts every later byte offset.  Returns LEN when the line is shorter.
 */
size_t text_byte_of_col(const char *line, size_t len, size_t col);

/*
 * Remove ANSI escape sequences (ESC [ ... final byte) from LINE in place;
 * returns the new length.
 */
size_t text_strip_ansi(char *line, size_t len);
/*
 * The length of a log prefix at the start of LINE, or 0:
 *   "[11/18/2023-17:34:03] [I] "   trtexec (also "[I] " alone)
 *   "[15 12:16:26 @:19][WARN] "    MegEngine mgb_log
 *   "[15 12:16:26 file.cpp:12@fn] " MegEngine, older
 *   "I0609 12:53:37.371167   670 file.cc:465] "  glog (Paddle)
 *   "[08/15 04:02:46] "            PaddleDetection (before "ppdet...")
 *   "[rank3]: ", "[default0]:"     torchrun, before any of the above
 */
size_t text_log_prefix(const char *line, size_t len);

#endif
