/* SPDX-License-Identifier: MIT */
/*
 * The one place that says how large a number from a file may be, and how
 * a sum of such numbers stays honest.
 *
 * Two rules, applied everywhere:
 *  1. At read time every parser checks each time, size and count it takes
 *     from a file against the bounds below; a value beyond them is garbage
 *     (a `file:line:col` warning or error, the record skipped), never
 *     clamped.  The bounds are far above anything a real profile holds
 *     and far below int64's end, so the arithmetic on one value or a few
 *     (end = start + duration, a mean times calls) cannot wrap.
 *  2. A sum of many bounded values can still pass int64 (10,000 events of
 *     the longest duration do), so every sum that a file's size can make
 *     long is taken with sum_add(): it saturates at SUM_CAP instead of
 *     wrapping and says so, and its owner counts the saturations into a
 *     warning that the user sees.  No negative or wrapped number reaches
 *     a pane.
 * The man page's "LIMITS" section states these bounds; keep them in step.
 */
#ifndef MODEL_BOUNDS_H
#define MODEL_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

/* One duration, or one time measured from the trace's start: 10^15 ns,
   11.6 days. */
#define BOUND_DUR_NS 1000000000000000LL

/* One absolute timestamp: within 2^62 ns of the epoch (year 2116). */
#define BOUND_ABS_TS_NS (INT64_C(1) << 62)

/* One size in bytes (an allocation, a copy, a device's memory): 2^50,
   1 PiB. */
#define BOUND_BYTES (INT64_C(1) << 50)

/* One count (calls, occurrences, instances): 2^40, 1.1e12. */
#define BOUND_COUNT (INT64_C(1) << 40)

/* One counter value ("ph":"C"), either sign: 10^18, past any
   utilization, length or size a counter records. */
#define BOUND_COUNTER_ABS 1e18

/* Where a saturated sum stops: far from INT64_MAX, so that a difference
   or a small sum of two capped values still cannot wrap. */
#define SUM_CAP (INT64_MAX / 4)

static inline bool bound_dur_ok(int64_t ns)
{
	return ns >= 0 && ns <= BOUND_DUR_NS;
}

static inline bool bound_bytes_ok(int64_t b)
{
	return b >= -BOUND_BYTES && b <= BOUND_BYTES;
}

static inline bool bound_count_ok(int64_t c)
{
	return c >= 0 && c <= BOUND_COUNT;
}

static inline bool sum_capped(int64_t v)
{
	return v >= SUM_CAP || v <= -SUM_CAP;
}

/*
 * *ACC += D, saturating at +-SUM_CAP.  Returns false when the true sum
 * first lies beyond the cap (the caller counts it once); *ACC then holds
 * the cap of the sum's sign, and stays there whatever is added later.
 */
static inline bool sum_add(int64_t *acc, int64_t d)
{
	int64_t r;
	bool wrapped;

	if (sum_capped(*acc))
		return true;
	wrapped = __builtin_add_overflow(*acc, d, &r);
	if (wrapped || sum_capped(r)) {
		*acc = (wrapped ? d > 0 : r > 0) ? SUM_CAP : -SUM_CAP;
		return false;
	}
	*acc = r;
	return true;
}

/* The unsigned form, for counts: saturates at SUM_CAP too. */
static inline bool sum_add_u(uint64_t *acc, uint64_t d)
{
	uint64_t r;

	if (*acc >= (uint64_t)SUM_CAP)
		return true;
	if (__builtin_add_overflow(*acc, d, &r) || r >= (uint64_t)SUM_CAP) {
		*acc = (uint64_t)SUM_CAP;
		return false;
	}
	*acc = r;
	return true;
}

/* sum_add() and sum_add_u() for a sum whose owner counts its caps into
 * *NR_CAPPED (a view's warning): one count per sum that reached the cap. */
static inline void sum_add_counted(int64_t *acc, int64_t d, uint64_t *nr_capped)
{
	if (!sum_add(acc, d))
		++*nr_capped;
}

static inline void sum_add_u_counted(uint64_t *acc, uint64_t d, uint64_t *nr_capped)
{
	if (!sum_add_u(acc, d))
		++*nr_capped;
}

#endif
