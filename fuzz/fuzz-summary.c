// SPDX-License-Identifier: MIT
/* libFuzzer target: the summary parser and everything the panes read from what it
 * builds must survive any input (fuzz/fuzz.h); so must the Distributed figures of
 * what it stored, and writing it back as a summary, which must read back: what
 * the reader takes, the writer must not turn into what it refuses. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "model/distributed.h"
#include "model/summary.h"

extern const struct parser summary_parser;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p;
	struct input in;
	struct diag d;

	fuzz_parse(&summary_parser, data, size);
	/* Again, for what fuzz_parse() does not read. */
	profile_init(&p, "fuzz");
	diag_init(&d, "fuzz", NULL, &p);
	input_open_mem(&in, "fuzz", data, size);
	if (summary_parser.parse(&p, &in, &d) == 0) {
		struct rank_local l;
		const struct rank_local *lp[2] = { &l, &l };
		struct rank_dist dist[2];
		struct strbuf b = STRBUF_INIT;
		const char *why;

		profile_finish(&p);
		rank_local_of(&p, &l);
		rank_dist_compute(lp, 2, dist, &why);
		rank_dist_release(&dist[0]);
		rank_dist_release(&dist[1]);
		rank_local_release(&l);
		summary_write(&p, &b);
		if (fuzz_parse(&summary_parser, (const uint8_t *)b.s, b.len)) {
			fprintf(stderr, "a summary written back does not read back:\n%s", b.s);
			abort();
		}
		strbuf_release(&b);
	}
	diag_finish(&d);
	input_close(&in);
	profile_release(&p);
	return 0;
}
