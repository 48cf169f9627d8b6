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
#include "model/bounds.h"
#include "model/memory.h"
#include "model/modules.h"
#include "model/overview.h"
#include "parsers/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t fuzz_sink;	/* keeps reads the compiler could drop (unsigned:
					   a sum of hostile values may wrap) */

/*
 * What model/bounds.h promises the panes: no sum past its cap, so none
 * wrapped.  A value beyond is a bug in the model, not in the input:
 * abort, so that libFuzzer keeps the input.
 */
static void fuzz_in_bounds(int64_t v, const char *what)
{
	if (v > SUM_CAP || v < -SUM_CAP) {
		fprintf(stderr, "fuzz: %s is %lld, past the cap on sums\n", what, (long long)v);
		abort();
	}
}

static void fuzz_check_rows(const struct agg *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		const struct agg_row *r = &a->rows[i];

		if (r->calls > (uint64_t)SUM_CAP) {
			fprintf(stderr, "fuzz: a row's calls are %llu, past the cap on sums\n",
				(unsigned long long)r->calls);
			abort();
		}
		fuzz_in_bounds(r->host_self_ns, "a row's host self");
		fuzz_in_bounds(r->host_total_ns, "a row's host total");
		fuzz_in_bounds(r->device_self_ns, "a row's device self");
		fuzz_in_bounds(r->device_total_ns, "a row's device total");
		fuzz_in_bounds(r->tc_self_ns, "a row's tensor-core self");
		fuzz_in_bounds(r->tc_total_ns, "a row's tensor-core total");
	}
}

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
	fuzz_in_bounds(o.top_ops.total_ns, "the Overview's ops total");
	fuzz_in_bounds(o.top_kernels.total_ns, "the Overview's kernels total");
	fuzz_in_bounds(o.precision_total_ns, "the Overview's precisions total");
	overview_release(&o);
	mem_stats(p, NULL, &ms);
	mem_stats_release(&ms);
	mem_event_rows(p, NULL, &me);
	mem_event_rows_release(&me);
	mem_curves(p, NULL, &mc);
	mem_curves_release(&mc);
	dev = mem_devices(p, &nr_dev);
	for (size_t i = 0; i < nr_dev && i < 8; i++)
		fuzz_in_bounds(mem_peak_allocated(p, dev[i].index), "a device's memory peak");
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

/* agg_ops() and the like into A, checked, then released. */
#define FUZZ_AGG(call, a)                 \
	do {                              \
		call;                     \
		fuzz_check_rows(a);       \
		agg_release(a);           \
	} while (0)

/* Finish every run of FIRST and read it as the panes do. */
static void fuzz_exercise(struct profile *first)
{
	for (struct profile *run = first; run; run = run->next_run) {
		struct agg_scope all = { .want = fuzz_is_row };
		struct agg a;

		profile_finish(run);
		FUZZ_AGG(agg_ops(run, NULL, &a), &a);
		FUZZ_AGG(agg_kernels(run, NULL, &a), &a);
		FUZZ_AGG(agg_op_kernels(run, &all, &a), &a);
		FUZZ_AGG(agg_kernel_ops(run, &all, &a), &a);
		FUZZ_AGG(agg_ops_by_shape(run, NULL, &a), &a);
		FUZZ_AGG(agg_kernels_by_op(run, NULL, &a), &a);
		agg_op_stacks(run, NULL, &a);
		fuzz_stacks(&a);
		agg_release(&a);
		fuzz_views(run);
		if (run->nr_steps) {
			struct agg_scope s = { .step = &run->steps[run->nr_steps - 1] };

			FUZZ_AGG(agg_ops(run, &s, &a), &a);
			FUZZ_AGG(agg_kernels(run, &s, &a), &a);
		}
		for (size_t i = 0; i < run->nr_steps; i++) {
			fuzz_in_bounds(run->steps[i].total_ns, "a step's total");
			for (size_t c = 0; c < run->nr_step_cats; c++)
				fuzz_in_bounds(run->steps[i].cat_ns[c], "a step's part");
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
