/* SPDX-License-Identifier: MIT */
/*
 * hta_time: how Holistic Trace Analysis reads a trace's times, for the
 * model options (round_like_hta) that reproduce its figures in the tests
 * that compare with it; no pane uses them.  HTA reads times as float64
 * microseconds (Python's json) and, when any is fractional, takes
 * ceil(ts) and floor(ts + dur) of those floats.  At epoch times a float64
 * of microseconds is 0.25 us coarse, so its floor is not always the exact
 * one: the comparison needs the same arithmetic.
 */
#ifndef MODEL_HTA_TIME_H
#define MODEL_HTA_TIME_H

#include <math.h>
#include <stdint.h>

/* NS as the float64 nearest to NS / 1000 microseconds: the whole
 * microseconds are exact below 2^53, and the one rounding of their sum
 * with the fraction's nearest double is the correct one (a fraction of
 * thousandths lies far from any midpoint of the sum's grid but those it
 * hits exactly). */
static inline double hta_us(int64_t ns)
{
	int64_t q = ns / 1000, r = ns % 1000;

	return (double)q + (double)r / 1000.0;
}

/* A start (or any instant) as HTA rounds it: ceil, in whole us, as ns. */
static inline int64_t hta_start_ns(int64_t ns)
{
	return (int64_t)ceil(hta_us(ns)) * 1000;
}

/* The end of an event from START for DUR ns as HTA rounds it: floor of
 * the float sum, in whole us, as ns (it may come before the start). */
static inline int64_t hta_end_ns(int64_t start, int64_t dur)
{
	return (int64_t)floor(hta_us(start) + hta_us(dur)) * 1000;
}

#endif
