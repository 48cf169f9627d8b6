// SPDX-License-Identifier: MIT
/* libFuzzer target: the tokenizer's fast paths (json_next_key(),
 * json_next_value(), json_next_element(), json_next_fast(),
 * json_skip_value()) give what json_next() alone gives -- tokens, texts,
 * places, errors, quirk counts -- whatever the bytes, through a buffer of
 * 1 to 64 bytes (the first byte of the input says which) and through one
 * large buffer.  A difference aborts. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/strbuf.h"
#include "parsers/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

/* Read TEXT through a buffer of CAP bytes (0: the input's own), with the
 * fast calls or not (ANY: json_next_fast() for all), logging every token
 * into OUT.  SKIP_S: skip with json_skip_value() the values of keys
 * starting with 's' (both ways). */
static void run(const char *text, size_t len, size_t cap, bool fast, bool skip_s, bool any,
		struct strbuf *out)
{
	struct feed_text f = { text, len, false };
	struct input in;
	struct diag d;
	struct json j;
	char stack[JSON_MAX_DEPTH + 8];
	int depth = 0;
	enum json_tok t = JSON_NULL;
	bool after_key = false;

	strbuf_reset(out);
	diag_init(&d, "f.json", NULL, NULL);
	input_open_feed(&in, "f.json", feed_all, &f, 0, (struct pos){ 1, 1 });
	if (cap)
		in.cap = cap;
	json_init(&j, &in, &d);
	for (;;) {
		bool skipped = after_key && skip_s && j.len && j.s[0] == 's';
		struct pos p;

		if (skipped)
			t = json_skip_value(&j);
		else if (fast && any)
			t = json_next_fast(&j);
		else if (!fast || depth == 0)
			t = json_next(&j);
		else if (after_key)
			t = json_next_value(&j);
		else if (stack[depth - 1] == 'o')
			t = json_next_key(&j);
		else
			t = json_next_element(&j);
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
		p = json_pos(&j);
		strbuf_addf(out, "%d@%" PRIu64 ":%" PRIu64, skipped ? -1 : (int)t, p.line, p.col);
		if (!skipped && (t == JSON_KEY || t == JSON_STRING || t == JSON_NUMBER ||
				 t == JSON_BARE)) {
			strbuf_addch(out, ' ');
			strbuf_add(out, j.s, j.len);
		}
		strbuf_addch(out, '\n');
	}
	{
		struct pos p = t == JSON_ERROR ? (struct pos){ 0, 0 } : json_pos(&j);

		strbuf_addf(out, "end %d@%" PRIu64 ":%" PRIu64 " %d %" PRIu64 " %" PRIu64 " %" PRIu64
			    " %" PRIu64 " %s\n", (int)t, p.line, p.col, j.truncated, j.nr_docs,
			    j.nr_raw_control, j.nr_bare_words, j.nr_empty_trailing,
			    d.first_error ? d.first_error : "none");
	}
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	size_t cap;
	const char *text;

	if (size < 1 || size > 4096)
		return 0;
	cap = 1 + data[0] % 64;
	text = (const char *)data + 1;
	size--;
	for (int skip_s = 0; skip_s < 2; skip_s++) {
		run(text, size, 0, skip_s, skip_s, skip_s, &want);
		for (int way = 0; way < 3; way++) {
			/* The fast calls, then json_next_fast(), then (not
			 * skipping) json_next() alone, cut by the buffer. */
			if (way == 2 && skip_s)
				break;
			run(text, size, cap, way < 2, skip_s, way == 1, &got);
			if (got.len != want.len || memcmp(got.s, want.s, got.len)) {
				fprintf(stderr, "buffer %zu, skipping %d, way %d:\nwant:\n%sgot:\n%s",
					cap, skip_s, way, want.s, got.s);
				abort();
			}
		}
	}
	strbuf_release(&want);
	strbuf_release(&got);
	return 0;
}
