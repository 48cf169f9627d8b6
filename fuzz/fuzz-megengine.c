// SPDX-License-Identifier: MIT
/* libFuzzer target: both MegEngine parsers (load_and_run/profile_analyze
 * text and the --profile JSON) read every input, and the aggregations run
 * over every run they build; none may crash, hang or leak. */
#include <stdint.h>
#include <stdio.h>

#include "model/aggregate.h"
#include "parsers/parser.h"

extern const struct parser megengine_text_parser;
extern const struct parser megengine_json_parser;
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const struct parser *parser, const uint8_t *data, size_t size)
{
	struct profile p;
	struct input in;
	struct diag d;
	struct agg a;

	profile_init(&p, "fuzz.txt");
	diag_init(&d, "fuzz.txt", NULL, &p);
	input_open_mem(&in, "fuzz.txt", data, size);
	if (parser->parse(&p, &in, &d) == 0) {
		for (struct profile *run = &p; run; run = run->next_run) {
			profile_finish(run);
			agg_ops(run, NULL, &a);
			agg_release(&a);
			if (run->nr_steps) {
				struct agg_scope s = { .step = &run->steps[run->nr_steps - 1] };

				agg_ops(run, &s, &a);
				agg_release(&a);
			}
		}
	}
	diag_finish(&d);
	input_close(&in);
	profile_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(&megengine_text_parser, data, size);
	one(&megengine_json_parser, data, size);
	return 0;
}
