// SPDX-License-Identifier: MIT
/* The Timeline's one mapping between time and cells (tlview_time_at(),
 * tlview_cell_at()), which the picture, a click, a drag and the range's
 * band all use: each time lies in the cell whose first time is at or
 * before it and whose next cell's first time is after it, before and
 * after the window too, and a cell's first time is the least time in it
 * or past it. */
#include "test.h"
#include "view/tlview.h"

static void check_window(int64_t t0, int64_t t1, int w)
{
	struct tlview v = { .t0 = t0, .t1 = t1 };

	/* A cell's first time is the least time in it or past it (cells
	 * shorter than a nanosecond share one). */
	for (int64_t x = -3 * w; x <= 4 * w; x++) {
		int64_t t = tlview_time_at(&v, x, w);

		CHECK(tlview_cell_at(&v, t, w) >= x);
		CHECK(tlview_cell_at(&v, t - 1, w) < x);
	}
	for (int64_t t = t0 - 2 * (t1 - t0) - 7; t <= t1 + 2 * (t1 - t0) + 7; t++) {
		int64_t x = tlview_cell_at(&v, t, w);

		CHECK(tlview_time_at(&v, x, w) <= t);
		CHECK(tlview_time_at(&v, x + 1, w) > t);
	}
}

static void test_cells_and_times(void)
{
	check_window(1000, 1100, 10);	/* 10 ns a cell */
	check_window(0, 1000, 3);	/* 333.3 ns a cell */
	check_window(1000, 1007, 10);	/* cells shorter than a nanosecond */
	check_window(-50, 33, 7);	/* a cell of no whole number of ns */
	check_window(5, 6, 80);
}

static void test_huge_times(void)
{
	/* A window far from 0 and wide: no overflow in the products. */
	struct tlview v = { .t0 = INT64_MAX / 2, .t1 = INT64_MAX / 2 + 4000000000000LL };

	CHECK_EQ(tlview_cell_at(&v, v.t0, 200), 0);
	CHECK_EQ(tlview_cell_at(&v, v.t1, 200), 200);
	CHECK_EQ(tlview_cell_at(&v, v.t1 - 1, 200), 199);
	CHECK_EQ(tlview_time_at(&v, 100, 200), v.t0 + 2000000000000LL);
}

const struct test tests[] = {
	{ "a time lies in its cell, a cell's first time is its least", test_cells_and_times },
	{ "far and wide windows do not overflow", test_huge_times },
	{ 0 },
};
