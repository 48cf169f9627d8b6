// SPDX-License-Identifier: MIT
/* libFuzzer target: the torch-table parser and the aggregations over every run
 * it builds must survive any input. */
#include <stdint.h>
#include <stdio.h>

#include "model/aggregate.h"
#include "parsers/parser.h"

extern const struct parser torch_table_parser;
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile int64_t sink;	/* keeps the reads of step values */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p;
	struct input in;
	struct diag d;
	struct agg a;

	profile_init(&p, "fuzz");
	diag_init(&d, "fuzz", NULL, &p);
	input_open_mem(&in, "fuzz", data, size);
	if (torch_table_parser.parse(&p, &in, &d) == 0) {
		for (struct profile *run = &p; run; run = run->next_run) {
			struct agg_scope all = { 0 };

			profile_finish(run);
			agg_ops(run, NULL, &a);
			agg_release(&a);
			agg_kernels(run, NULL, &a);
			agg_release(&a);
			agg_op_kernels(run, &all, &a);
			agg_release(&a);
			agg_kernel_ops(run, &all, &a);
			agg_release(&a);
			/* What the Steps pane reads: every category of every step. */
			for (size_t i = 0; i < run->nr_steps; i++)
				for (size_t c = 0; c < run->nr_step_cats; c++)
					sink += run->steps[i].cat_ns[c];
		}
	}
	diag_finish(&d);
	input_close(&in);
	profile_release(&p);
	return 0;
}
