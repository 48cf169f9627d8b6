/* SPDX-License-Identifier: MIT */
/*
 * escape: text from a profile made safe to show.  A profile is untrusted
 * input, and so is a file name: a name may hold escape sequences meant for
 * a terminal (OSC 0 sets its title, OSC 52 writes the clipboard), bidi
 * controls that reorder what a reader sees, zero-width characters that
 * hide in plain sight, or bytes that are not UTF-8.  Every channel that
 * writes such text for a person -- the panes, stderr, captions, the txt,
 * md, csv and tsv exports -- passes it through escape_text() or one of the
 * helpers built on it, which write
 *
 *	C0 controls, DEL and C1 controls	as "\x1b", "\x7f", "\x9b"
 *	bytes that are not UTF-8		as "\xff"
 *	invisible format characters		as "\u202e", "\U000e0001"
 *
 * and copy everything else.  The result is valid UTF-8 that shows exactly
 * as its bytes say.  The invisible class is escape_is_invisible(): bidi
 * controls, zero-width spaces and joiners, the BOM, line and paragraph
 * separators and the other characters of Unicode's category Cf.
 *
 * Nothing here allocates except escape_add() and escape_fprintf(), which
 * say so.  Lives in model/ so parsers/diag.c can use it (parsers may not
 * include tui/).
 */
#ifndef MODEL_ESCAPE_H
#define MODEL_ESCAPE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct strbuf;

/*
 * Whether S[0..LEN) may need escaping: false only for printable ASCII, so
 * the common case costs one pass and no decoding.  (True does not mean
 * the text changes: "café" needs a look but comes out the same.)
 */
bool escape_needed(const char *s, size_t len);
/*
 * Copy S[0..LEN) into BUF (SIZE bytes, NUL-terminated, cut at a character
 * or escape boundary when full), escaped as above.  With ASCII_ONLY (a
 * terminal whose locale is not UTF-8) other non-ASCII characters become
 * '?'.  Returns the length written.  At most ESCAPE_MAX_GROWTH * LEN + 1
 * bytes are ever needed.
 */
size_t escape_text(const char *s, size_t len, bool ascii_only, char *buf, size_t size);
#define ESCAPE_MAX_GROWTH 4	/* "\x1b" for one byte; longer characters grow less */
/* Append S[0..LEN) escaped to B (UTF-8 kept); B grows as needed. */
void escape_add(struct strbuf *b, const char *s, size_t len);
/*
 * Format FMT and its arguments, escape the whole result, and write it to
 * OUT: nothing the arguments carry reaches OUT raw, whichever argument
 * carried it.  FMT itself should not end in '\n' (it would come out as
 * "\x0a"): write the newline with fputc().  Uses a heap buffer.
 */
void escape_vfprintf(FILE *out, const char *fmt, va_list ap);
void escape_fprintf(FILE *out, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Whether CP is an invisible format character that escape_text() shows
 * as "\uXXXX": Unicode's category Cf plus U+2028 and U+2029. */
bool escape_is_invisible(uint32_t cp);

/*
 * The width in terminal cells of one character at S (at most LEN bytes) as
 * escape_text() writes it (UTF-8 kept): 4 for a control or a bad byte, 6 or
 * 10 for an invisible character, else WIDTH_OF(code point).  *N gets the
 * character's length in bytes.  For u8_width(), which keeps the layout in
 * step with what is drawn even for text not yet escaped.
 */
size_t escape_char_width(const char *s, size_t len, int (*width_of)(uint32_t cp), size_t *n);

/* Decode one UTF-8 character at S (at most LEN bytes, LEN >= 1): *CP gets
 * the code point (U+FFFD for a bad sequence, whose length is then 1);
 * returns its length (>= 1). */
size_t u8_decode(const char *s, size_t len, uint32_t *cp);
/* Encode the code point CP (below U+110000) as UTF-8 in OUT; returns the
 * length, 1 to 4. */
size_t u8_encode(uint32_t cp, char out[4]);

#endif
