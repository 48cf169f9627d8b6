/* SPDX-License-Identifier: MIT */
/*
 * What every parser's fuzz target does: parse the input into a fresh
 * profile, then run over every run it made all that the panes read --
 * each aggregation, a drill-down both ways, one step's scope, every step
 * value.  None of it may crash, hang, leak or trip UBSan.  A header of
 * static functions: each target is one translation unit.
 */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/aggregate.h"
#include "model/memory.h"
#include "model/modules.h"
#include "model/overview.h"
#include "parsers/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t fuzz_sink;	/* keeps the reads of step values (unsigned: a
					   sum of hostile values may wrap) */

static bool fuzz_is_row(const struct node *n, void *ctx)
{
	(void)ctx;
	return node_is_op_row(n) || n->kind == NODE_KERNEL;
}

/* The Overview, Memory and Modules panes' model functions. */
static void fuzz_views(const struct profile *p)
{
	struct overview o;
	struct mem_stats ms;
	struct mem_event_rows me;
	struct mem_curves mc;
	struct module_view mv;
	size_t nr_dev;
	struct mem_device *dev;

	overview_compute(p, &o);
	overview_release(&o);
	mem_stats(p, NULL, &ms);
	mem_stats_release(&ms);
	mem_event_rows(p, NULL, &me);
	mem_event_rows_release(&me);
	mem_curves(p, NULL, &mc);
	mem_curves_release(&mc);
	dev = mem_devices(p, &nr_dev);
	for (size_t i = 0; i < nr_dev && i < 8; i++)
		fuzz_sink += (uint64_t)mem_peak_allocated(p, dev[i].index);
	free(dev);
	module_view(p, &mv);
	module_view_release(&mv);
}

static void fuzz_count_frame(const char *s, size_t n, void *ctx)
{
	(void)s;
	*(size_t *)ctx += n + 1;
}

/* The call stacks as the Call stacks pane and the Tree read them: frames,
 * order, text. */
static void fuzz_stacks(const struct agg *a)
{
	size_t bytes = 0;

	for (size_t i = 0; i < a->nr; i++) {
		const struct attr *s = a->rows[i].stack;

		if (!s)
			continue;
		stack_attr_frames(s, fuzz_count_frame, &bytes);
		if (i && a->rows[0].stack)
			fuzz_sink += (uint64_t)(stack_attr_cmp(s, a->rows[0].stack) + 1);
		if (attr_type(s) == ATTR_STACK)
			bytes += strlen(call_stack_text(s->v.stack));
	}
	fuzz_sink += bytes;
}

/* Finish every run of FIRST and read it as the panes do. */
static void fuzz_exercise(struct profile *first)
{
	for (struct profile *run = first; run; run = run->next_run) {
		struct agg_scope all = { .want = fuzz_is_row };
		struct agg a;

		profile_finish(run);
		agg_ops(run, NULL, &a);
		agg_release(&a);
		agg_kernels(run, NULL, &a);
		agg_release(&a);
		agg_op_kernels(run, &all, &a);
		agg_release(&a);
		agg_kernel_ops(run, &all, &a);
		agg_release(&a);
		agg_ops_by_shape(run, NULL, &a);
		agg_release(&a);
		agg_kernels_by_op(run, NULL, &a);
		agg_release(&a);
		agg_op_stacks(run, NULL, &a);
		fuzz_stacks(&a);
		agg_release(&a);
		fuzz_views(run);
		if (run->nr_steps) {
			struct agg_scope s = { .step = &run->steps[run->nr_steps - 1] };

			agg_ops(run, &s, &a);
			agg_release(&a);
			agg_kernels(run, &s, &a);
			agg_release(&a);
		}
		for (size_t i = 0; i < run->nr_steps; i++) {
			fuzz_sink += (uint64_t)run->steps[i].total_ns;
			for (size_t c = 0; c < run->nr_step_cats; c++)
				fuzz_sink += (uint64_t)run->steps[i].cat_ns[c];
		}
	}
}

/* Parse DATA[0..SIZE) with PARSER (its probe too) and exercise what it
 * made; the parser's return code. */
static int fuzz_parse(const struct parser *parser, const uint8_t *data, size_t size)
{
	struct profile p;
	struct input in;
	struct diag d;
	int rc;

	parser->probe((const char *)data, size);
	profile_init(&p, "fuzz");
	diag_init(&d, "fuzz", NULL, &p);
	input_open_mem(&in, "fuzz", data, size);
	rc = parser->parse(&p, &in, &d);
	if (rc == 0)
		fuzz_exercise(&p);
	diag_finish(&d);
	input_close(&in);
	profile_release(&p);
	return rc;
}

#endif
