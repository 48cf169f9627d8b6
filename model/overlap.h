/* SPDX-License-Identifier: MIT */
/*
 * overlap: how much of the GPU's communication ran while it computed --
 * Holistic Trace Analysis's comm/comp overlap (get_comm_comp_overlap),
 * from a temporal breakdown (temporal.h) of the same work, whose sweep
 * already splits the time into exclusive classes of kernel types:
 *
 *   communication  |union of the COMMUNICATION events| (every class with
 *                  that bit)
 *   computation    |union of the COMPUTATION events|
 *   both           the time both run at once (the classes with both bits)
 *   overlap %      100 * both / communication; none without communication
 *
 * All devices and streams together, as HTA's; unions merge touching
 * intervals.  O(1) over the breakdown.
 */
#ifndef MODEL_OVERLAP_H
#define MODEL_OVERLAP_H

#include <stdbool.h>
#include <stdint.h>

#include "temporal.h"

struct overlap {
	int64_t comm_ns, comp_ns, both_ns;
	bool capped;		/* a sum reached SUM_CAP: no percentage */
};

void overlap_of(const struct temporal *t, struct overlap *o);

/* 100 * both / communication; NaN without communication or when capped. */
double overlap_pct(const struct overlap *o);

#endif
