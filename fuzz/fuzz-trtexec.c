// SPDX-License-Identifier: MIT
/* libFuzzer target: the trtexec parsers (graph, profile, times, log, trex
 * metadata and device properties) and the aggregations over what they
 * build must survive any input.  Every parser reads the whole input;
 * then, when the input holds a NUL byte, the part before it and the part
 * after it load one after the other into one profile, as the files of one
 * engine do, so the joining of layers is fuzzed too. */
#include <string.h>

#include "fuzz.h"

extern const struct parser trtexec_graph_parser, trtexec_profile_parser, trtexec_times_parser,
	trtexec_log_parser, trex_metadata_parser, trex_device_parser;
static const struct parser *const parsers[] = {
	&trtexec_graph_parser, &trtexec_profile_parser, &trtexec_times_parser,
	&trtexec_log_parser, &trex_metadata_parser, &trex_device_parser,
};

/* The trtexec parser whose probe claims HEAD most surely, or NULL.  Only
 * these parsers' probes: the target fuzzes their code. */
static const struct parser *detect(const uint8_t *head, size_t len)
{
	const struct parser *best = NULL;
	int best_score = 0;

	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++) {
		int score = parsers[i]->probe((const char *)head, len);

		if (score > best_score) {
			best = parsers[i];
			best_score = score;
		}
	}
	return best;
}

/* Parse DATA[0..SIZE) with PARSER into P; the parser's return code. */
static int parse(const struct parser *parser, struct profile *p, const uint8_t *data,
		 size_t size)
{
	struct input in;
	struct diag d;
	int rc;

	diag_init(&d, "fuzz", NULL, p);
	input_open_mem(&in, "fuzz", data, size);
	rc = parser->parse(p, &in, &d);
	diag_finish(&d);
	input_close(&in);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	struct profile p;

	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++)
		fuzz_parse(parsers[i], data, size);
	if (nul) {
		size_t n1 = (size_t)(nul - data), n2 = size - n1 - 1;
		const struct parser *a = detect(data, n1);
		const struct parser *b = detect(nul + 1, n2);

		profile_init(&p, "fuzz");
		if (a && b && parse(a, &p, data, n1) == 0 && parse(b, &p, nul + 1, n2) == 0)
			fuzz_exercise(&p);
		profile_release(&p);
	}
	return 0;
}
