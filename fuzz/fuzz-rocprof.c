// SPDX-License-Identifier: MIT
/* libFuzzer target: the rocprof parsers (statistics, kernel, HIP API,
 * marker and memory copy traces) and everything the panes read from what
 * they build must survive any input (fuzz/fuzz.h).  Both read every
 * input: the CSV reader they share is fuzzed through each.  Then, when
 * the input holds NUL bytes, its parts load one after the other into one
 * profile as the traces of one run do, so the link of dispatches and
 * copies to their HIP calls by Correlation_Id is fuzzed too. */
#include <string.h>

#include "fuzz.h"

extern const struct parser rocprof_stats_parser, rocprof_trace_parser;

/* Parse DATA[0..SIZE) as a rocprof trace into P; the parser's code. */
static int parse_into(struct profile *p, const uint8_t *data, size_t size)
{
	struct input in;
	struct diag d;
	int rc;

	diag_init(&d, "fuzz", NULL, p);
	input_open_mem(&in, "fuzz", data, size);
	rc = rocprof_trace_parser.parse(p, &in, &d);
	diag_finish(&d);
	input_close(&in);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	struct profile p;
	int rc = 0;

	fuzz_parse(&rocprof_stats_parser, data, size);
	fuzz_parse(&rocprof_trace_parser, data, size);
	if (!nul)
		return 0;
	profile_init(&p, "fuzz");
	/* Up to three files: a kernel trace, a HIP API trace, a copy trace. */
	for (int part = 0; part < 3 && !rc && size; part++) {
		size_t n = nul ? (size_t)(nul - data) : size;

		rc = parse_into(&p, data, n);
		if (!nul)
			break;
		size -= n + 1;
		data = nul + 1;
		nul = memchr(data, 0, size);
	}
	if (!rc)
		fuzz_exercise(&p);
	profile_release(&p);
	return 0;
}
