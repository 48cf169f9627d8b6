/* SPDX-License-Identifier: MIT */
/*
 * HTA's last-step filter, for the tests that compare with HTA's outputs
 * (../shared/corpus/hta-expected/README.md §0): with two or more distinct
 * ProfilerStep names, HTA leaves out the last step -- what starts at or
 * after its start.  Include after test.h.
 */
#ifndef TESTS_UNIT_HTA_STEP_H
#define TESTS_UNIT_HTA_STEP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct hta_step_scan {
	int64_t last_start;
	const char *first_name;
	bool two_names;
};

static bool hta_step_visit(struct node *n, void *ctx)
{
	struct hta_step_scan *s = ctx;

	if (n->kind != NODE_STEP || !node_is_timed(n))
		return true;
	if (!s->first_name)
		s->first_name = node_name(n);
	else if (strcmp(s->first_name, node_name(n)))
		s->two_names = true;
	if (n->start_ns > s->last_start)
		s->last_start = n->start_ns;
	return true;
}

/* Whether HTA filters P's last step, and then its start into *START. */
static inline bool hta_last_step(const struct profile *p, int64_t *start)
{
	struct hta_step_scan s = { INT64_MIN, NULL, false };

	node_walk(p->root, hta_step_visit, &s);
	if (s.two_names)
		*start = s.last_start;
	return s.two_names;
}

#endif
