// SPDX-License-Identifier: MIT
/* libFuzzer target: the tokenizer's fast paths (json_next_key(),
 * json_next_value(), json_next_element(), json_next_fast(),
 * json_skip_value()) give what json_next() alone gives -- tokens, texts,
 * places, errors, quirk counts -- whatever the bytes, through a buffer of
 * 1 to 64 bytes (the first byte of the input says which) and through one
 * large buffer.  A difference aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/json-log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		/* Through one large buffer: json_next() alone, or skipping;
		 * then cut by the small buffer: the fast calls, then
		 * json_next_fast(), then (not skipping) json_next() alone. */
		static const enum mode ways[2][3] = { { FAST, ANY, GENERIC },
						      { SKIPPING, ANY_SKIPPING } };

		json_log(text, size, 0, skip_s ? ANY_SKIPPING : GENERIC, &want);
		for (int way = 0; way < 3 - skip_s; way++) {
			json_log(text, size, cap, ways[skip_s][way], &got);
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
