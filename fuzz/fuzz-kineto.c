// SPDX-License-Identifier: MIT
/* libFuzzer target: the Kineto parser and the aggregations over what it
 * builds must survive any input. */
#include <stdint.h>
#include <stdio.h>

#include "model/aggregate.h"
#include "parsers/parser.h"

extern const struct parser kineto_parser;
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p;
	struct input in;
	struct diag d;
	struct agg a;

	profile_init(&p, "fuzz.json");
	diag_init(&d, "fuzz.json", NULL, &p);
	input_open_mem(&in, "fuzz.json", data, size);
	if (kineto_parser.parse(&p, &in, &d) == 0) {
		profile_finish(&p);
		agg_ops(&p, NULL, &a);
		agg_release(&a);
		agg_kernels(&p, NULL, &a);
		agg_release(&a);
		if (p.nr_steps) {
			struct agg_scope s = { .step = &p.steps[0] };

			agg_ops(&p, &s, &a);
			agg_release(&a);
		}
	}
	diag_finish(&d);
	input_close(&in);
	profile_release(&p);
	return 0;
}
