/* SPDX-License-Identifier: MIT */
/*
 * describe: pandas' describe() of a set of numbers -- count, mean,
 * standard deviation (n - 1), minimum, quartiles by linear interpolation
 * between the two nearest ranks, maximum -- as Holistic Trace Analysis
 * summarises its series with it.  The idle-time, queue-length and
 * memory-bandwidth summaries share it.
 */
#ifndef MODEL_DESCRIBE_H
#define MODEL_DESCRIBE_H

#include <stddef.h>
#include <stdint.h>

/* Every figure NaN when COUNT is 0; STD NaN when it is 1. */
struct describe {
	uint64_t count;
	double mean, std, min, p25, p50, p75, max;
};

/* describe() of the N values V, which it sorts.  O(n log n). */
void describe_values(double *v, size_t n, struct describe *d);

/* The value at quantile Q (0..1) of the N sorted values V. */
double describe_quantile(const double *v, size_t n, double q);

#endif
