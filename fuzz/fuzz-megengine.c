// SPDX-License-Identifier: MIT
/* libFuzzer target: both MegEngine parsers (load_and_run/profile_analyze
 * text and the --profile JSON) read every input, and everything the panes
 * read from what they build must survive it (fuzz/fuzz.h). */
#include "fuzz.h"

extern const struct parser megengine_text_parser;
extern const struct parser megengine_json_parser;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(&megengine_text_parser, data, size);
	fuzz_parse(&megengine_json_parser, data, size);
	return 0;
}
