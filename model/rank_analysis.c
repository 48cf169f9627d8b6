/* SPDX-License-Identifier: MIT */
/* rank_analysis: one rank's analyses, computed or stored (rank_analysis.h). */
#include <string.h>

#include "rank_analysis.h"
#include "util.h"

void rank_analysis_of(const struct profile *p, struct rank_analysis *out)
{
	struct temporal t;
	struct idle_breakdown b;

	memset(out, 0, sizeof(*out));
	if (p->rank_analysis) {
		*out = *p->rank_analysis;
		out->owned = false;
		return;
	}
	if (p->is_summary)
		return;		/* an old summary: not present */
	out->present = true;
	out->owned = true;
	temporal_compute(p, &TEMPORAL_OPTS_ALL, &t);
	out->nr_gpu_events = t.nr_events;
	out->kernel_ns = t.kernel_ns;
	out->idle_ns = t.idle_ns;
	out->compute_ns = t.compute_ns;
	out->non_compute_ns = t.non_compute_ns;
	memcpy(out->class_ns, t.class_ns, sizeof(out->class_ns));
	out->capped = t.nr_capped > 0;
	idle_compute(p, NULL, &b);
	out->nr_idle_streams = b.nr_streams;
	for (size_t s = 0; s < b.nr_streams; s++)
		for (int c = 0; c < NR_IDLE_CATEGORIES; c++)
			sum_add(&out->idle_by_cat_ns[c], b.streams[s].idle_ns[c]);
	for (int c = 0; c < NR_IDLE_CATEGORIES; c++)
		if (sum_capped(out->idle_by_cat_ns[c]))
			out->capped = true;
	if (b.nr_capped)
		out->capped = true;
	idle_release(&b);
	strag_rank_of(p, &out->strag);
	launch_summary_make(p, NULL, &out->launch);
}

void rank_analysis_strag(const struct profile *p, struct strag_rank *out, bool *owned)
{
	*owned = false;
	memset(out, 0, sizeof(*out));
	if (p->rank_analysis) {
		*out = p->rank_analysis->strag;
	} else if (!p->is_summary) {
		strag_rank_of(p, out);
		*owned = true;
	}
}

void rank_analysis_release(struct rank_analysis *a)
{
	if (a->owned)
		strag_rank_release(&a->strag);
	memset(a, 0, sizeof(*a));
}

int64_t rank_analysis_busy(const struct rank_analysis *a)
{
	return a->capped ? SUM_CAP : a->kernel_ns - a->idle_ns;
}

int64_t rank_analysis_type_ns(const struct rank_analysis *a, enum kernel_type type)
{
	int64_t sum = 0;

	for (unsigned c = 1; c < NR_KTYPE_CLASSES; c++)
		if (c & (unsigned)type)
			sum_add(&sum, a->class_ns[c]);
	return sum;
}

void rank_analysis_overlap(const struct rank_analysis *a, struct overlap *o)
{
	struct temporal t = { 0 };

	t.compute_ns = a->compute_ns;
	memcpy(t.class_ns, a->class_ns, sizeof(t.class_ns));
	t.nr_capped = a->capped;
	overlap_of(&t, o);
}
