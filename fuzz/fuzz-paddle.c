// SPDX-License-Identifier: MIT
/* libFuzzer target: the PaddlePaddle parser and the aggregations over what
 * it builds (every run, drill-down included) must survive any input. */
#include <stdint.h>
#include <stdio.h>

#include "model/aggregate.h"
#include "parsers/parser.h"

extern const struct parser paddle_parser;
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool is_op(const struct node *n, void *ctx)
{
	(void)ctx;
	return n->kind == NODE_OP;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p;
	struct input in;
	struct diag d;
	struct agg a;

	profile_init(&p, "fuzz.txt");
	diag_init(&d, "fuzz.txt", NULL, &p);
	input_open_mem(&in, "fuzz.txt", data, size);
	paddle_parser.probe((const char *)data, size);
	if (paddle_parser.parse(&p, &in, &d) == 0) {
		for (struct profile *run = &p; run; run = run->next_run) {
			struct agg_scope drill = { .want = is_op };

			profile_finish(run);
			agg_ops(run, NULL, &a);
			agg_release(&a);
			agg_kernels(run, NULL, &a);
			agg_release(&a);
			agg_op_kernels(run, &drill, &a);
			agg_release(&a);
			agg_kernel_ops(run, NULL, &a);
			agg_release(&a);
		}
	}
	diag_finish(&d);
	input_close(&in);
	profile_release(&p);
	return 0;
}
