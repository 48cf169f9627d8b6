/* SPDX-License-Identifier: MIT */
/*
 * describe: pandas' describe() of a set of numbers (describe.h).
 */
#include <math.h>
#include <stdlib.h>

#include "describe.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double describe_quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)floor(pos);

	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

void describe_values(double *v, size_t n, struct describe *d)
{
	double sum = 0, sq = 0;

	d->count = n;
	d->mean = d->std = d->min = d->p25 = d->p50 = d->p75 = d->max = NAN;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	d->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - d->mean) * (v[i] - d->mean);
	if (n > 1)
		d->std = sqrt(sq / (double)(n - 1));
	d->min = v[0];
	d->max = v[n - 1];
	d->p25 = describe_quantile(v, n, 0.25);
	d->p50 = describe_quantile(v, n, 0.50);
	d->p75 = describe_quantile(v, n, 0.75);
}
