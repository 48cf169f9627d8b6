/* SPDX-License-Identifier: MIT */
/* overlap: comm/comp overlap from the temporal sweep's classes (overlap.h). */
#include <math.h>

#include "overlap.h"
#include "util.h"

void overlap_of(const struct temporal *t, struct overlap *o)
{
	*o = (struct overlap){ 0 };
	o->capped = t->nr_capped > 0;
	o->comp_ns = t->compute_ns;
	for (unsigned c = 1; c < NR_KTYPE_CLASSES; c++) {
		if (!(c & KTYPE_COMMUNICATION))
			continue;
		sum_add(&o->comm_ns, t->class_ns[c]);
		if (c & KTYPE_COMPUTATION)
			sum_add(&o->both_ns, t->class_ns[c]);
	}
	if (sum_capped(o->comm_ns) || sum_capped(o->both_ns))
		o->capped = true;
}

double overlap_pct(const struct overlap *o)
{
	if (o->capped || o->comm_ns <= 0)
		return NAN;
	return 100.0 * (double)o->both_ns / (double)o->comm_ns;
}
