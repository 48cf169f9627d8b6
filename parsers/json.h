/* SPDX-License-Identifier: MIT */
/*
 * json: a streaming pull tokenizer of our own, fit for multi-GB traces.
 *
 * Why not a library: DOM parsers (cJSON, jansson, json-c) need 6-12x the
 * file in memory and run 18-36x slower; yajl streams but is 1.8x slower
 * than a specialised scanner and rejects Kineto's quirks.  This one reads
 * through struct input, keeps no tree, and hands each token over as a
 * pointer and length into its buffer.
 *
 * Tolerated, counted and reported (doc/formats/kineto.md, 'Reading
 * the JSON'): raw control characters
 * inside strings, bare words (N/A, nan, inf, -nan, NaN, Infinity) as
 * values (token JSON_BARE), a trailing "{}" element, several top-level
 * documents one after another (json_next() returns each in turn).  Bounded:
 * nesting depth, string and number length; passing a bound is an error.
 *
 * Numbers stay text until a parser asks, with num.h: num_int(),
 * num_double(), and num_scaled(s, n, 3, &ns), which turns microseconds
 * ("1712195495519689.123") into int64 nanoseconds exactly -- doubles lose
 * those digits.
 */
#ifndef PARSERS_JSON_H
#define PARSERS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "input.h"
#include "num.h"

#define JSON_MAX_DEPTH 512
#define JSON_MAX_STRING (1024 * 1024)
#define JSON_MAX_NUMBER 64

enum json_tok {
	JSON_EOF,		/* input ended (see j->truncated) */
	JSON_ERROR,		/* reported through diag; stop */
	JSON_OBJ_BEGIN, JSON_OBJ_END,
	JSON_ARR_BEGIN, JSON_ARR_END,
	JSON_KEY,		/* a member name; the value comes next */
	JSON_STRING,
	JSON_NUMBER,		/* s/len: the number's text */
	JSON_TRUE, JSON_FALSE, JSON_NULL,
	JSON_BARE,		/* an unquoted word: N/A, nan, inf... */
};

struct json {
	struct input *in;
	struct diag *diag;
	const char *s;		/* token text; strings unescaped; valid until
				   the next json_next() */
	size_t len;
	const char *tok_start;	/* the token in the input buffer, for json_pos() */
	int depth;		/* open containers */
	bool truncated;		/* ended inside a value: the file was cut */
	bool allow_unescaped;	/* trtexec: take '"' not followed by , : } ]
				   as part of the string (names it never
				   escaped); counted in nr_unescaped */
	uint64_t nr_docs;	/* top-level values completed */

	/* quirks met, counted; the caller turns them into warnings */
	uint64_t nr_raw_control, nr_bare_words, nr_empty_trailing, nr_unescaped;
	/* Invalid UTF-8 and NUL bytes in strings are errors, not quirks. */

	/* Fail without a word: a tokenizer on a chunk read ahead
	 * (kineto_chunks.c), whose end may cut a token, leaves the telling
	 * to the reading in file order.  Only for inputs that cannot fail
	 * to read (input_open_view()). */
	bool quiet;

	/* private */
	uint8_t stack[JSON_MAX_DEPTH];	/* 'o' object, 'a' array */
	int state;
	char *scratch;		/* unescaped strings; heap, json_release() */
	size_t scratch_cap;
	size_t tok_off;		/* offset of tok_start from in->buf */
};

void json_init(struct json *j, struct input *in, struct diag *d);
void json_release(struct json *j);
enum json_tok json_next(struct json *j);
/* Having just read token T, skip the rest of its value (a whole container
 * when T opens one).  Returns JSON_ERROR/JSON_EOF if the input fails,
 * else the last token consumed. */
enum json_tok json_skip_container(struct json *j, enum json_tok t);
/* Inline: most values skipped this way are the scalar just read. */
static inline enum json_tok json_skip(struct json *j, enum json_tok t)
{
	if (t != JSON_OBJ_BEGIN && t != JSON_ARR_BEGIN)
		return t;
	return json_skip_container(j, t);
}
/* Inside an object (just after JSON_OBJ_BEGIN or after a member's value),
 * read the next member name and its ':' in one step: JSON_KEY, or
 * JSON_OBJ_END at the end of the object, or JSON_ERROR/JSON_EOF.  The
 * same tokens json_next() would give, with less work per member -- for
 * the hot loops of large files. */
enum json_tok json_next_key(struct json *j);
/* Inside an array (just after JSON_ARR_BEGIN or after an element), read
 * the first token of the next element, or JSON_ARR_END: what json_next()
 * returns, on a shorter path for plain strings and numbers and brackets. */
enum json_tok json_next_element(struct json *j);
/* Having just read a JSON_KEY, read the first token of its value: what
 * json_next() returns, on a shorter path for plain strings and numbers. */
enum json_tok json_next_value(struct json *j);
/* json_next() through whichever of the three above fits where J stands
 * (each goes to json_next() where it does not): for loops that read
 * tokens of any kind. */
enum json_tok json_next_fast(struct json *j);
/* Having just read a JSON_KEY, skip its value without tokenizing it: a
 * byte scan that only tracks quotes, escapes and bracket depth.  Several
 * times faster than json_next() per value, for the many members a parser
 * does not want; the cost is that a skipped value is checked for structure
 * only (balanced brackets, closed strings, bounded depth), not for every
 * rule of JSON.  Returns JSON_ERROR/JSON_EOF on failure, else JSON_NULL. */
enum json_tok json_skip_value(struct json *j);
/* The position of the current token. */
struct pos json_pos(const struct json *j);
/* A cheap mark of where the current token is (its offset in the file), to
 * turn into a position later with json_mark_pos() -- only if needed, since
 * positions cost a scan of the buffer. */
uint64_t json_mark(const struct json *j);
/* The position of MARK if its bytes are still buffered, else of the current
 * token. */
struct pos json_mark_pos(const struct json *j, uint64_t mark);
/*
 * Reading one array on several threads (kineto_chunks.c).  Make DST, a
 * fresh tokenizer on another input, go on inside the array SRC has just
 * opened: at the array's start (JSON_FORK_FIRST), after a ',' between two
 * elements (JSON_FORK_NEXT) or after an element (JSON_FORK_AFTER).
 */
enum json_fork { JSON_FORK_FIRST, JSON_FORK_NEXT, JSON_FORK_AFTER };
void json_fork(struct json *dst, const struct json *src, enum json_fork where);
/* Make J go on where FROM stopped (on another input, just after the same
 * token): its nesting and state.  The quirk counts are the caller's. */
void json_resume(struct json *j, const struct json *from);
/* Just after an element of an array: the file offset of the next element,
 * if a ',' comes next, looking at most LIMIT bytes ahead; with the input
 * ending after the ',', the offset of the end; else UINT64_MAX.  Consumes
 * nothing. */
uint64_t json_peek_element(struct json *j, size_t limit);
/* End J as cut at the end of its input: what json_next() returns there
 * inside a value. */
enum json_tok json_end_truncated(struct json *j);
/* Whether the current string/key token equals the C string LIT.  Inline:
 * with LIT a literal, its length is known, and most keys of a hot loop
 * differ from it in length alone. */
static inline bool json_is(const struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	return j->len == n && !memcmp(j->s, lit, n);
}

/*
 * What every JSON-reading parser needs around the tokenizer, once:
 *
 * json_failed(t): T ends the parse (an error already reported, or the
 * end of the input); the caller stops and returns it.
 */
static inline bool json_failed(enum json_tok t)
{
	return t == JSON_ERROR || t == JSON_EOF;
}
/*
 * Read the next value and say whether it opens a container of kind OPEN
 * (JSON_OBJ_BEGIN or JSON_ARR_BEGIN).  When it does not, *T is the token
 * read: a failure (json_failed), or the first token of some other value,
 * which the caller may warn about and then pass over with json_skip().
 */
bool json_expect_open(struct json *j, enum json_tok open, enum json_tok *t);
/* Why text stopped inside a value, for "unexpected end of file inside
 * X%s": the input's reason where it knows one (": truncated gzip data
 * ..."), else " (truncated?)".  BUF holds the text when needed. */
const char *json_cut_why(const struct json *j, char *buf, size_t size);
/*
 * After a parse loop stopped on T, report how the file ended: a cut file
 * ("unexpected end of file inside the WHAT (truncated?); kept KEPT", or
 * the input's reason for the end in place of "(truncated?)", KEPT
 * being the caller's words, "the 3 events read before it") or no value at
 * all ("no JSON value in the file").  Returns -1 when nothing usable is
 * left (T is an error, the file held no value, or it was cut with
 * NR_KEPT == 0), else 0.
 */
int json_report_end(struct json *j, enum json_tok t, const char *what, uint64_t nr_kept,
		    const char *kept);
/*
 * After the top-level value, the WHAT ("trace"), ended: read the input
 * to its end, as a gzip stream's check of every byte before lies in its
 * last ones -- a file whose data or trailer is damaged is an error, not a
 * silent load.  Text after the value is warned about and not read as
 * JSON.  Returns -1 when reading failed (reported: what came before is
 * kept), else 0.
 */
int json_check_end(struct json *j, const char *what);

#endif
