// SPDX-License-Identifier: MIT
/* A counter series over a range of time (counter_window()): the samples
 * that fall in it, the least and greatest value in force in it, and the
 * time-weighted mean over its part of the first sample to the last, on
 * a hand-made series with hand-computed figures. */
#include <math.h>

#include "model/counters.h"
#include "test.h"

/* 2 from 100, 6 from 200, 4 from 300, 0 at 500 (the end). */
static struct counter_point pts[] = { { 100, 2 }, { 200, 6 }, { 300, 4 }, { 500, 0 } };
static const struct counter_series s = { .points = pts, .nr = 4 };

#define NEAR(a, b) CHECK(fabs((a) - (b)) < 1e-12)

static void test_inside(void)
{
	struct counter_window w;

	/* [150, 350): 2 held 50, 6 held 100, 4 held 50: (100 + 600 + 200)
	 * / 200. */
	counter_window(&s, 150, 350, &w);
	CHECK_EQ(w.nr, 2);
	CHECK_EQ(w.first, 1);
	NEAR(w.min, 2);
	NEAR(w.max, 6);
	NEAR(w.mean, 4.5);
	/* [200, 300): the sample at 200 is in it and in force at its start;
	 * the one at 300 is not in it. */
	counter_window(&s, 200, 300, &w);
	CHECK_EQ(w.nr, 1);
	NEAR(w.min, 6);
	NEAR(w.max, 6);
	NEAR(w.mean, 6);
	/* [210, 290): no sample, 6 in force throughout. */
	counter_window(&s, 210, 290, &w);
	CHECK_EQ(w.nr, 0);
	CHECK_EQ(w.first, SIZE_MAX);
	NEAR(w.min, 6);
	NEAR(w.max, 6);
	NEAR(w.mean, 6);
}

static void test_edges(void)
{
	struct counter_window w;

	/* Wider than the series: the whole series' figures, the mean over
	 * 100..500: (2*100 + 6*100 + 4*200) / 400. */
	counter_window(&s, 0, 1000, &w);
	CHECK_EQ(w.nr, 4);
	CHECK_EQ(w.first, 0);
	NEAR(w.min, 0);
	NEAR(w.max, 6);
	NEAR(w.mean, 4);
	/* Before the first sample: nothing in force, no mean. */
	counter_window(&s, 0, 100, &w);
	CHECK_EQ(w.nr, 0);
	CHECK(isnan(w.min) && isnan(w.max) && isnan(w.mean));
	/* [50, 150): 2 from 100 on: the mean over 100..150 only. */
	counter_window(&s, 50, 150, &w);
	CHECK_EQ(w.nr, 1);
	NEAR(w.min, 2);
	NEAR(w.mean, 2);
	/* After the last sample: 0 in force, but past the series' span. */
	counter_window(&s, 600, 700, &w);
	CHECK_EQ(w.nr, 0);
	NEAR(w.min, 0);
	NEAR(w.max, 0);
	CHECK(isnan(w.mean));
	/* A range that lasts nothing, or ends before it starts. */
	counter_window(&s, 200, 200, &w);
	CHECK_EQ(w.nr, 0);
	CHECK(isnan(w.min) && isnan(w.mean));
	counter_window(&s, 300, 200, &w);
	CHECK_EQ(w.nr, 0);
	CHECK(isnan(w.max));
	/* No samples at all. */
	{
		struct counter_series none = { 0 };

		counter_window(&none, 0, 10, &w);
		CHECK_EQ(w.nr, 0);
		CHECK(isnan(w.min) && isnan(w.mean));
	}
	/* Extreme times: no difference wraps. */
	counter_window(&s, INT64_MIN, INT64_MAX, &w);
	CHECK_EQ(w.nr, 4);
	NEAR(w.mean, 4);
}

const struct test tests[] = {
	{ "a range inside the series", test_inside },
	{ "ranges at and past its edges", test_edges },
	{ 0 },
};
