// SPDX-License-Identifier: MIT
/* libFuzzer target: the Kineto parser and everything the panes read from what it
 * builds must survive any input (fuzz/fuzz.h). */
#include "fuzz.h"

extern const struct parser kineto_parser;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(&kineto_parser, data, size);
	return 0;
}
