/* SPDX-License-Identifier: MIT */
/*
 * format: values and names as text, the same for the screen and for every
 * export.  Times arrive as int64 nanoseconds and are printed with integer
 * arithmetic, so "device self 62969 us" is the number the model holds,
 * not a double's approximation of it.
 *
 * A profile is untrusted input: names may hold escape sequences meant for
 * a terminal.  fmt_escape() (model/escape.h's escape_text()) turns control
 * characters, C1 controls and bytes that are not UTF-8 into visible "\x1b"
 * text and invisible format characters (bidi controls, zero-width spaces)
 * into "\u202e", so nothing a profile holds reaches a terminal raw -- on
 * screen or in an exported file someone cats.
 */
#ifndef TUI_FORMAT_H
#define TUI_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/escape.h"

/* What a column holds; decides alignment and formatting. */
enum col_kind {
	COL_NAME,		/* the row's name: filtered, highlighted, flexible */
	COL_TEXT,		/* other text */
	COL_COUNT,		/* an integer */
	COL_TIME,		/* int64 ns: "45.800 ms" on screen, 45800 (us) raw */
	COL_PCT,		/* a double 0..100: "12.34%" */
	COL_REAL,		/* a double: "0.85" */
	COL_FIXED,		/* a double, two decimals in every row: "0.61",
				   "<0.01" (not 0, but less) */
	COL_SI,			/* a double with an SI prefix on screen: "231.21 M" */
	COL_BYTES,		/* int64 bytes: "9.48 MiB" */
	COL_BAR,		/* a drawing (the Steps bar): screen only, never exported */
};

/* One cell's value; NONE prints as empty (null in JSON). */
struct cell {
	enum { CELL_NONE, CELL_INT, CELL_REAL, CELL_TEXT } type;
	bool capped;		/* a real made of a capped sum (model/bounds.h):
				   ">=" on screen, as a capped int is */
	union {
		int64_t i;
		double d;
		const char *s;
	} v;
};

static inline struct cell cell_int(int64_t i)
{
	struct cell c = { .type = CELL_INT, .v.i = i };
	return c;
}

static inline struct cell cell_real(double d)
{
	struct cell c = { .type = CELL_REAL, .v.d = d };
	if (d != d)
		c.type = CELL_NONE;	/* NaN: no value */
	return c;
}

/* A real made of a capped sum, SUM_CAP bytes in KB: ">=" it on screen. */
static inline struct cell cell_real_capped(double d)
{
	struct cell c = cell_real(d);

	c.capped = true;
	return c;
}

static inline struct cell cell_text(const char *s)
{
	struct cell c = { .type = s ? CELL_TEXT : CELL_NONE, .v.s = s };
	return c;
}

static inline struct cell cell_none(void)
{
	struct cell c = { .type = CELL_NONE };
	return c;
}

enum fmt_style {
	FMT_HUMAN,		/* screen, txt, md: units, separators */
	FMT_RAW,		/* csv, tsv, json: bare numbers, times in us */
};

/*
 * Format V (a cell of a KIND column) into BUF of SIZE bytes; returns the
 * length.  Text is copied unescaped: pass it through fmt_escape() before
 * it goes anywhere a person reads.
 */
size_t fmt_cell(enum col_kind kind, struct cell v, enum fmt_style style, char *buf, size_t size);
/* Nanoseconds as microseconds with up to three decimals: "62969", "110.881". */
size_t fmt_us(int64_t ns, char *buf, size_t size);
/* Nanoseconds in the unit that suits them: "334.019 us", "45.800 ms", "1.760 s". */
size_t fmt_time(int64_t ns, char *buf, size_t size);
/*
 * A load's progress, as the loading screen and the batch bar say it:
 * DONE of TOTAL bytes of the file read (TOTAL 0: not known, a pipe), which
 * held PLAIN bytes of the profile's text (more than DONE: the file is
 * compressed), ELAPSED_S seconds in.  The rate is of the text, the figure
 * that compares across files ("37%  30 of 83 MB read, 372 MB unpacked at
 * 690 MB/s  about 2 s left"); the time left is from the file's bytes.
 */
size_t fmt_progress(uint64_t done, uint64_t total, uint64_t plain, double elapsed_s, char *buf,
		    size_t size);

/*
 * Copy S[0..LEN) into BUF (SIZE bytes, NUL-terminated, cut at a character
 * boundary when full) with control characters, C1 controls, DEL and
 * invalid UTF-8 bytes written as "\xNN" and invisible format characters
 * as "\uNNNN" (escape_text()).  With ASCII_ONLY (a terminal whose locale
 * is not UTF-8), other non-ASCII characters become '?'.  Returns the
 * length written; 4 * LEN + 1 bytes are always enough.
 */
size_t fmt_escape(const char *s, size_t len, bool ascii_only, char *buf, size_t size);
/* The length fmt_cell() gives V, in bytes, without formatting it where
 * it need not (integers and times): a table of millions of rows is
 * measured before it is written.  Text's length is its unescaped one. */
size_t fmt_cell_length(enum col_kind kind, struct cell v, enum fmt_style style);

/* Whether S[0..LEN) needs fmt_escape() (most names do not). */
bool fmt_needs_escape(const char *s, size_t len);

/*
 * Display width of the text S[0..LEN) in terminal cells, as drawn: East
 * Asian wide characters count 2, combining marks 0, and what fmt_escape()
 * would rewrite counts as its escape ("\x1b" 4 cells, "\u202e" 6), so the
 * width of text not yet escaped is the width it will take once escaped.
 * Our own table rather than wcwidth(3), so alignment does not depend on
 * the locale the tests or a batch job run in.  (u8_decode() and
 * u8_encode() are in model/escape.h.)
 */
size_t u8_width(const char *s, size_t len);
/* Width of one code point drawn as itself: 0, 1 or 2 (invisible format
 * characters 0, though they are never drawn as themselves). */
int u8_cp_width(uint32_t cp);
/*
 * The longest prefix of S[0..LEN) that fits in WIDTH cells, measured as
 * u8_width() does: returns its length in bytes and puts its width in *USED.
 */
size_t u8_fit(const char *s, size_t len, size_t width, size_t *used);

/*
 * Wrap S into lines of at most WIDTH cells, breaking after blanks where it
 * can and anywhere where it must: the byte ranges [LINE[i][0], LINE[i][1])
 * of the first MAX lines; returns how many lines there are (which may be
 * more than MAX).  Blanks at a break are dropped.  "" is one empty line.
 */
size_t fmt_wrap(const char *s, size_t width, size_t (*line)[2], size_t max);

/*
 * The short form of a C++ name, as HTA's shorten_name() has it: a
 * kernel's "void " goes, template argument lists become "<ELLIPSIS>", the
 * parameter list of a signature goes, and a namespace chain of three or
 * more parts keeps its last ("void at::native::vectorized_elementwise_
 * kernel<4, ...>(int, ...)" -> "vectorized_elementwise_kernel<...>").
 * Names that are not C++ signatures ("aten::add", "ProfilerStep#3") are
 * left alone.  Into OUT (reset first); false, and OUT empty, when the
 * short form is the name itself.  Two names may share a short form:
 * shortnames.h numbers them apart.
 */
struct strbuf;
bool fmt_short_name(const char *name, const char *ellipsis, struct strbuf *out);

#endif
