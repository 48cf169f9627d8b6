// SPDX-License-Identifier: MIT
/* libFuzzer target: the nsys stats parser and everything the panes read from what it
 * builds must survive any input (fuzz/fuzz.h). */
#include "fuzz.h"

extern const struct parser nsys_stats_parser;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(&nsys_stats_parser, data, size);
	return 0;
}
