/* SPDX-License-Identifier: MIT */
/*
 * range_summary: what a span of time on the timeline holds, by name (the
 * Range pane, --print range): for each name of a block that overlaps the
 * span, how many such blocks and how much of their time lies inside it.
 *
 * A block [s, e) is in the range [a, b) when it overlaps it (s < b and
 * e > a), or, when it lasts nothing (s == e), when a <= s < b.  Its time
 * in the range is min(e, b) - max(s, a): a block that straddles an edge
 * counts only its part inside.  Each row of the timeline is searched by
 * time (timeline_first_after()), so a summary costs the blocks it finds,
 * not the trace; names are merged by a sort, O(k log k) for k found.
 */
#ifndef MODEL_RANGE_SUMMARY_H
#define MODEL_RANGE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "timeline.h"

struct range_row {
	const char *name;
	const struct node *first;	/* a block's node of that name */
	uint64_t count;			/* blocks of the name in the range */
	int64_t total_ns;		/* their time inside the range */
};

struct range_summary {
	struct range_row *rows;		/* by name (strcmp) */
	size_t nr;
	int64_t start_ns, end_ns;	/* the range, absolute */
	uint64_t nr_capped;		/* totals that hit SUM_CAP */
};

/* The blocks of TL in [START, END) (absolute ns) by name: of lane LANE
 * only, or of every lane (SIZE_MAX).  OUT is the caller's to release. */
void range_summarize(const struct timeline *tl, int64_t start_ns, int64_t end_ns, size_t lane,
		     struct range_summary *out);
void range_summary_release(struct range_summary *s);

/* Read a time of --range: a decimal number with a unit (ns, us, ms, s;
 * none: us), at most BOUND_DUR_NS; false when it is none, negative or
 * past the bound.  Never wraps. */
bool range_parse_time(const char *s, size_t len, int64_t *ns);

#endif
