// SPDX-License-Identifier: MIT
/* libFuzzer target: the JSON tokenizer must never crash, hang or read out
 * of bounds, whatever the bytes.  Every token is pulled until the end. */
#include <stdint.h>
#include <stdio.h>

#include "parsers/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	struct diag d;
	struct json j;
	enum json_tok t;

	diag_init(&d, "fuzz.json", NULL, NULL);
	input_open_mem(&in, "fuzz.json", data, size);
	json_init(&j, &in, &d);
	/* Exercise the trtexec mode too, on half the inputs. */
	j.allow_unescaped = size && (data[0] & 1);
	do {
		t = json_next(&j);
		if (t == JSON_OBJ_BEGIN && size > 1 && (data[1] & 1))
			t = json_skip(&j, t);
	} while (t != JSON_EOF && t != JSON_ERROR);
	json_release(&j);
	input_close(&in);
	diag_finish(&d);	/* the first error's text */
	return 0;
}
