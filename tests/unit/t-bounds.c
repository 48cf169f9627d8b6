// SPDX-License-Identifier: MIT
/* The bounds on values from a file and the capped sums (model/bounds.h):
 * a sum stops at SUM_CAP and says so once, never wraps, and a capped sum
 * stays capped whatever is added after. */
#include "model/bounds.h"
#include "test.h"

/* The bounds leave room: 10,000 values at a bound add up past the cap,
 * but two capped sums and a bounded value do not reach int64's end. */
static void test_bounds_leave_room(void)
{
	CHECK(BOUND_DUR_NS < SUM_CAP / 1000);
	CHECK(BOUND_BYTES < SUM_CAP / 1000);
	CHECK(BOUND_COUNT < SUM_CAP / 1000);
	CHECK(BOUND_ABS_TS_NS + BOUND_DUR_NS > BOUND_ABS_TS_NS);
	CHECK(SUM_CAP <= (INT64_MAX - BOUND_ABS_TS_NS) / 2);
	CHECK(bound_dur_ok(0) && bound_dur_ok(BOUND_DUR_NS));
	CHECK(!bound_dur_ok(-1) && !bound_dur_ok(BOUND_DUR_NS + 1));
	CHECK(bound_bytes_ok(-BOUND_BYTES) && bound_bytes_ok(BOUND_BYTES));
	CHECK(!bound_bytes_ok(BOUND_BYTES + 1) && !bound_bytes_ok(-BOUND_BYTES - 1));
	CHECK(!bound_bytes_ok(INT64_MIN) && !bound_bytes_ok(INT64_MAX));
	CHECK(bound_count_ok(0) && bound_count_ok(BOUND_COUNT));
	CHECK(!bound_count_ok(-1) && !bound_count_ok(BOUND_COUNT + 1));
}

/* Below the cap a sum is exact; the first step past it says so and
 * holds the cap; later steps, either way, leave it there. */
static void test_sum_add(void)
{
	int64_t acc = 0;
	int nr_false = 0;

	CHECK(sum_add(&acc, 5) && acc == 5);
	CHECK(sum_add(&acc, -7) && acc == -2);
	acc = SUM_CAP - 2;
	CHECK(!sum_capped(acc));
	CHECK(sum_add(&acc, 1) && acc == SUM_CAP - 1);
	CHECK(!sum_add(&acc, 1) && acc == SUM_CAP);
	CHECK(sum_capped(acc));
	CHECK(sum_add(&acc, -BOUND_DUR_NS) && acc == SUM_CAP);
	CHECK(sum_add(&acc, INT64_MIN) && acc == SUM_CAP);

	acc = -SUM_CAP + 1;
	CHECK(!sum_add(&acc, -1) && acc == -SUM_CAP);
	CHECK(sum_add(&acc, INT64_MAX) && acc == -SUM_CAP);

	/* A step that would wrap int64 itself, each way. */
	acc = SUM_CAP - 1;
	CHECK(!sum_add(&acc, INT64_MAX) && acc == SUM_CAP);
	acc = -SUM_CAP + 1;
	CHECK(!sum_add(&acc, INT64_MIN) && acc == -SUM_CAP);
	acc = 0;
	CHECK(!sum_add(&acc, INT64_MIN) && acc == -SUM_CAP);

	/* 10,000 durations at the bound: capped once, at the cap. */
	acc = 0;
	for (int i = 0; i < 10000; i++)
		nr_false += !sum_add(&acc, BOUND_DUR_NS);
	CHECK_EQ(nr_false, 1);
	CHECK_EQ(acc, SUM_CAP);
}

static void test_sum_add_u(void)
{
	uint64_t acc = 0;
	int nr_false = 0;

	CHECK(sum_add_u(&acc, 3) && acc == 3);
	acc = (uint64_t)SUM_CAP - 1;
	CHECK(!sum_add_u(&acc, 1) && acc == (uint64_t)SUM_CAP);
	CHECK(sum_add_u(&acc, 1) && acc == (uint64_t)SUM_CAP);
	acc = 1;
	CHECK(!sum_add_u(&acc, UINT64_MAX) && acc == (uint64_t)SUM_CAP);
	acc = 0;
	for (int i = 0; i < 3000000; i++)
		nr_false += !sum_add_u(&acc, (uint64_t)BOUND_COUNT);
	CHECK_EQ(nr_false, 1);
	CHECK_EQ(acc, (uint64_t)SUM_CAP);
}

const struct test tests[] = {
	{ "the bounds leave room for sums", test_bounds_leave_room },
	{ "sum_add: exact, then capped once, then held", test_sum_add },
	{ "sum_add_u: the same for counts", test_sum_add_u },
	{ 0 },
};
