/* SPDX-License-Identifier: MIT */
/*
 * filter: a PCRE2 pattern on row names, the one place that knows PCRE2.
 *
 * Smart case (case-insensitive unless the pattern has a capital letter, as
 * in less, ripgrep and vim's smartcase); a leading '!' inverts the filter.
 * Patterns are compiled for UTF-8 and with PCRE2's JIT when the library
 * has it.  A filter is opaque: its owner compiles, matches and frees it.
 *
 * A match costs a few milliseconds at most: PCRE2's limits stop a pattern
 * that backtracks without end, and the name it could not decide is an
 * error (filter_error()), never "no match".  A pass over the rows can also
 * be stopped from outside (a key pressed while it runs).  Either way every
 * match after that answers "not shown" at once, so the pass ends quickly;
 * its result is not to be shown.
 */
#ifndef TUI_FILTER_H
#define TUI_FILTER_H

#include <stdbool.h>
#include <stddef.h>

struct filter;

/* The longest pattern compiled; a longer one is an error, not cut. */
#define FILTER_PATTERN_MAX (64 * 1024)

/*
 * Compile PATTERN.  Returns a filter (caller frees with filter_free()), or
 * NULL with ERR (of ERR_SIZE bytes) set to PCRE2's message and the offset
 * it names: "missing closing parenthesis at offset 5".  An empty pattern
 * (or a lone "!") is no filter at all: NULL with ERR set to "".
 */
struct filter *filter_new(const char *pattern, char *err, size_t err_size);
void filter_free(struct filter *f);
/* The pattern as given, '!' included. */
const char *filter_pattern(const struct filter *f);
bool filter_is_inverted(const struct filter *f);
/* Whether the row called NAME (LEN bytes) is shown; NULL F shows all. */
bool filter_match(const struct filter *f, const char *name, size_t len);
/*
 * Why a name could not be decided, "pattern too costly (match limit
 * exceeded) on 'NAME...'" (NAME from the file: escape it); NULL while
 * every match was decided.  It stays for the filter's life.
 */
const char *filter_error(const struct filter *f);
/*
 * Ask SHOULD_STOP(CTX) while matching, every 10 ms or so: when it answers
 * true the pass stops (filter_stopped()) until filter_resume() starts the
 * next one.
 */
void filter_set_stop(struct filter *f, bool (*should_stop)(void *ctx), void *ctx);
bool filter_stopped(const struct filter *f);
void filter_resume(struct filter *f);
/*
 * The matches in NAME, for highlighting: up to MAX [start, end) byte
 * ranges in OUT, returns how many.  None for an inverted filter (what it
 * shows matched nothing); the ones before a match PCRE2 gave up on.
 */
size_t filter_spans(const struct filter *f, const char *name, size_t len, size_t (*out)[2],
		    size_t max);

#endif
