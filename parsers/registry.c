// SPDX-License-Identifier: MIT
/*
 * The registry: every parser, and detection -- which parser claims a
 * file, from its head or, for text, from a later window.  Loading is
 * load.c's; it calls here, never the other way.
 */
#include <string.h>

#include "../model/util.h"
#include "parser.h"
#include "parsers.h"
#include "text.h"

#define DECLARE_PARSER(object, fuzz, golden) extern const struct parser object;
PARSERS(DECLARE_PARSER)

#define LIST_PARSER(object, fuzz, golden) &object,
static const struct parser *const parsers[] = {
	PARSERS(LIST_PARSER)
	NULL			/* end of the list */
};

#define NR_PARSERS (ARRAY_SIZE(parsers) - 1)

const struct parser *const *parser_list(size_t *n)
{
	*n = NR_PARSERS;
	return parsers;
}

static const struct parser *detect(const char *head, size_t len, bool anywhere)
{
	const struct parser *best = NULL;
	int best_score = 0;

	for (const struct parser *const *pp = parsers; *pp; pp++) {
		int score;

		if (anywhere && !(*pp)->anywhere)
			continue;
		score = (*pp)->probe(head, len);

		if (score > best_score) {
			best = *pp;
			best_score = score;
		}
	}
	return best;		/* NULL: nobody claimed it */
}

const struct parser *parser_detect(const char *head, size_t len)
{
	return detect(head, len, false);
}

const struct parser *parser_detect_anywhere(const char *window, size_t len)
{
	return detect(window, len, true);
}

const struct parser *parser_find(const char *name)
{
	for (const struct parser *const *pp = parsers; *pp; pp++)
		if (!strcmp((*pp)->name, name))
			return *pp;
	return NULL;
}

/*
 * No parser claimed the head of a text file: a table may sit at the end
 * of a long log.  Walk the file in windows (half a probe's worth of whole
 * lines at a time, read with input_line() so line numbers stay right) and
 * probe each with the parsers whose text may begin anywhere.  The parse
 * then starts at the window that matched, so nothing is read twice.
 */
const struct parser *parser_detect_past_head(struct input *in)
{
	for (;;) {
		const struct parser *parser;
		const char *head;
		size_t skipped = 0, len, n;

		while (skipped < INPUT_PROBE_BYTES / 2) {
			if (!input_line(in, &n))
				return NULL;
			skipped += n + 1;
		}
		input_need(in, INPUT_PROBE_BYTES);
		len = input_head(in, &head);
		if (!len || text_is_binary(head, len))
			return NULL;
		if ((parser = parser_detect_anywhere(head, len)))
			return parser;
	}
}
