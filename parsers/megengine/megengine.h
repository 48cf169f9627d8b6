/* SPDX-License-Identifier: MIT */
/*
 * megengine: what the two MegEngine parsers share
 * (doc/formats/megengine.md).  Private to them; nothing outside
 * parsers/megengine/megengine_*.c includes it.
 *
 * The work splits by input, one file each:
 *
 *   megengine_text.c  "megengine": what load_and_run prints to stdout and
 *                     what profile_analyze.py prints, mixed in any order
 *                     inside logs and documents.  load_and_run runs become
 *                     runs with their iterations as steps; profile_analyze
 *                     tables become operators.
 *   megengine_json.c  "megengine-json": load_and_run --profile JSON, the
 *                     file profile_analyze.py reads.  Its operators, timed
 *                     and grouped by type.
 *
 * Both parsers are of the family "megengine": a log and the JSON it was
 * profiled into complete one profile when opened together.  So they make
 * their operators alike -- NODE_OP, NODE_DISTINCT (each is one operator of
 * the graph, never merged by name), one call -- with the attribute keys
 * below, and say times in the Info pane the same way (megengine_fmt_ms).
 */
#ifndef PARSERS_MEGENGINE_H
#define PARSERS_MEGENGINE_H

#include <stdint.h>
#include <stdio.h>

#define MGE_ATTR_TYPE "type"			/* "ConvolutionForward" */
#define MGE_ATTR_ID "id"			/* the graph's operator id, as text */
#define MGE_ATTR_FLOPS "flops"			/* FLO of one execution */
#define MGE_ATTR_FLOPS_PER_S "flops_per_s"	/* flops over device time */
#define MGE_ATTR_MEMORY "memory_bytes"
#define MGE_ATTR_BANDWIDTH "bandwidth_bytes_per_s"
#define MGE_ATTR_IN_SHAPES "input_shapes"	/* "{1,3,224,224} {64,3,7,7}" */
#define MGE_ATTR_OUT_SHAPES "output_shapes"

/* NS as milliseconds into OUT, "237.634 ms": at least three decimals,
 * more only when the value has them (profile_analyze prints seconds to six
 * digits, load_and_run milliseconds to three). */
static inline void megengine_fmt_ms(char *out, size_t size, int64_t ns)
{
	uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	char frac[8];
	int n = 6;

	snprintf(frac, sizeof(frac), "%06llu", (unsigned long long)(a % 1000000));
	while (n > 3 && frac[n - 1] == '0')
		n--;
	snprintf(out, size, "%s%llu.%.*s ms", ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000000), n, frac);
}

#endif
