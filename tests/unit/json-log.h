/* SPDX-License-Identifier: MIT */
/*
 * json-log: a text through the tokenizer, every token logged with its
 * text and place, then how the reading ended -- for comparing the fast
 * calls with json_next() alone (t-json-fast.c, fuzz/fuzz-json-fast.c).
 */
#ifndef TESTS_UNIT_JSON_LOG_H
#define TESTS_UNIT_JSON_LOG_H

#include <inttypes.h>
#include <stdbool.h>

#include "model/strbuf.h"
#include "parsers/json.h"

enum mode {
	GENERIC,	/* json_next() only */
	FAST,		/* the fast calls wherever they apply */
	SKIPPING,	/* FAST, and json_skip_value() for keys starting 's' */
	ANY,		/* json_next_fast() for every token */
	ANY_SKIPPING,	/* ANY, and skipping as SKIPPING does */
};

struct feed_text {
	const char *text;
	size_t len;
	bool given;
};

static bool feed_all(void *ctx, struct input *in, const char **seg, size_t *len)
{
	struct feed_text *f = ctx;

	(void)in;
	if (f->given)
		return false;
	f->given = true;
	*seg = f->text;
	*len = f->len;
	return true;
}

/*
 * Read TEXT in MODE through a buffer of CAP bytes (0: the input's own),
 * logging every token, its text and place, then how it ended, into OUT.
 */
static void json_log(const char *text, size_t len, size_t cap, enum mode mode, struct strbuf *out)
{
	static const char letters[] = "$E{}[]ksntfzb";
	struct feed_text f = { text, len, false };
	struct pos at = { 1, 1 };
	struct input in;
	struct diag d;
	struct json j;
	char stack[JSON_MAX_DEPTH + 8];
	int depth = 0;
	enum json_tok t = JSON_NULL;
	bool after_key = false;

	strbuf_reset(out);
	diag_init(&d, "t.json", NULL, NULL);
	input_open_feed(&in, "t.json", feed_all, &f, 0, at);
	if (cap)
		in.cap = cap;
	json_init(&j, &in, &d);
	for (int n = 0; n < 100000; n++) {
		bool skipped = after_key && (mode == SKIPPING || mode == ANY_SKIPPING) && j.len &&
			       j.s[0] == 's';

		if (skipped) {
			t = json_skip_value(&j);
		} else if (mode == ANY || mode == ANY_SKIPPING) {
			t = json_next_fast(&j);
		} else if (mode == GENERIC || depth == 0) {
			t = json_next(&j);
		} else if (after_key) {
			t = json_next_value(&j);
		} else if (stack[depth - 1] == 'o') {
			t = json_next_key(&j);
		} else {
			t = json_next_element(&j);
		}
		if (json_failed(t))
			break;
		after_key = t == JSON_KEY;
		if (t == JSON_OBJ_BEGIN || t == JSON_ARR_BEGIN) {
			if (depth < (int)sizeof(stack))
				stack[depth] = t == JSON_OBJ_BEGIN ? 'o' : 'a';
			depth++;
		} else if (t == JSON_OBJ_END || t == JSON_ARR_END) {
			depth--;
		}
		{
			struct pos p = json_pos(&j);

			strbuf_addf(out, "%c@%" PRIu64 ":%" PRIu64, skipped ? '-' : letters[t],
				    p.line, p.col);
		}
		if (!skipped && (t == JSON_KEY || t == JSON_STRING || t == JSON_NUMBER ||
				 t == JSON_BARE)) {
			strbuf_addch(out, ' ');
			strbuf_add(out, j.s, j.len);
		}
		strbuf_addch(out, '\n');
	}
	{
		/* After an error the place that counts is the error's own. */
		struct pos p = t == JSON_ERROR ? (struct pos){ 0, 0 } : json_pos(&j);

		strbuf_addf(out, "end %c@%" PRIu64 ":%" PRIu64 " truncated=%d docs=%" PRIu64
			    " quirks=%" PRIu64 ",%" PRIu64 ",%" PRIu64 " error=%s\n",
			    letters[t], p.line, p.col, j.truncated, j.nr_docs, j.nr_raw_control,
			    j.nr_bare_words, j.nr_empty_trailing,
			    d.first_error ? d.first_error : "none");
	}
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
}

#endif
