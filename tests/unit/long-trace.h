/* SPDX-License-Identifier: MIT */
/*
 * A Kineto trace whose sums pass SUM_CAP (model/bounds.h): N threads,
 * each with a step-less op "long" of the longest duration a trace may
 * hold, launching a kernel "long_kernel" as long, and an allocation of
 * the largest size on GPU 0 inside it; one short op beside them.  N of
 * 3,000 passes the cap; 10,000 would pass int64 itself.
 */
#ifndef TESTS_UNIT_LONG_TRACE_H
#define TESTS_UNIT_LONG_TRACE_H

#include "model/strbuf.h"

static inline void long_trace(struct strbuf *b, int n)
{
	strbuf_addf(b, "{\"traceEvents\": [");
	for (int i = 1; i <= n; i++)
		strbuf_addf(b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"long\", \"tid\": %d, "
			    "\"ts\": 1, \"dur\": 1000000000000, \"args\": {\"External id\": %d}},\n"
			    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
			    "\"tid\": %d, \"ts\": 2, \"dur\": 1, \"args\": {\"External id\": %d, "
			    "\"correlation\": %d}},\n"
			    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"long_kernel\", \"pid\": 0, "
			    "\"tid\": 7, \"ts\": 3, \"dur\": 1000000000000, \"args\": {\"correlation\": %d}},\n"
			    "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", "
			    "\"tid\": %d, \"ts\": 4, \"s\": \"t\", \"args\": {\"Bytes\": 1125899906842624, "
			    "\"Device Type\": 1, \"Device Id\": 0, \"Addr\": %d}},\n",
			    i, i, i, i, i, i, i, i);
	strbuf_addf(b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"short\", \"tid\": 1, "
		    "\"ts\": 5, \"dur\": 1}]}");
}

#endif
