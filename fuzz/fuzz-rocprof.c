// SPDX-License-Identifier: MIT
/* libFuzzer target: the rocprof parsers (statistics, kernel and HIP API
 * traces) and everything the panes read from what they build must survive
 * any input (fuzz/fuzz.h).  Both read every input: the CSV reader they
 * share is fuzzed through each. */
#include "fuzz.h"

extern const struct parser rocprof_stats_parser, rocprof_trace_parser;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(&rocprof_stats_parser, data, size);
	fuzz_parse(&rocprof_trace_parser, data, size);
	return 0;
}
