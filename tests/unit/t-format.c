// SPDX-License-Identifier: MIT
/* Values as text: exact times from integers, escaping, display width. */
#include "test.h"
#include "tui/format.h"

static void test_times(void)
{
	char b[64];

	fmt_us(62969000, b, sizeof(b));
	CHECK_STR(b, "62969");
	fmt_us(110881, b, sizeof(b));
	CHECK_STR(b, "110.881");
	fmt_us(110880, b, sizeof(b));
	CHECK_STR(b, "110.88");
	fmt_us(-1500, b, sizeof(b));
	CHECK_STR(b, "-1.5");
	fmt_time(0, b, sizeof(b));
	CHECK_STR(b, "0");
	fmt_time(334019, b, sizeof(b));
	CHECK_STR(b, "334.019 us");
	fmt_time(45800000, b, sizeof(b));
	CHECK_STR(b, "45.800 ms");
	fmt_time(1760000000, b, sizeof(b));
	CHECK_STR(b, "1.760 s");
	/* Rounded half away from zero, in integers. */
	fmt_time(999999500, b, sizeof(b));
	CHECK_STR(b, "1000.000 ms");
	fmt_time(1234500, b, sizeof(b));
	CHECK_STR(b, "1.235 ms");
}

static void test_cells(void)
{
	char b[64];

	fmt_cell(COL_BYTES, cell_int(9940500), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "9.48 MiB");
	fmt_cell(COL_BYTES, cell_int(-2048), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "-2.00 KiB");
	fmt_cell(COL_BYTES, cell_int(9940500), FMT_RAW, b, sizeof(b));
	CHECK_STR(b, "9940500");
	fmt_cell(COL_PCT, cell_real(12.345), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "12.35%");
	fmt_cell(COL_PCT, cell_real(100.0 / 3), FMT_RAW, b, sizeof(b));
	CHECK_STR(b, "33.333333");
	fmt_cell(COL_SI, cell_real(231.21e6), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "231.21 M");
	CHECK_EQ(fmt_cell(COL_TIME, cell_none(), FMT_HUMAN, b, sizeof(b)), 0);
	CHECK(cell_real(0.0 / 0.0).type == CELL_NONE);
}

static void test_escape(void)
{
	char b[64];

	CHECK(!fmt_needs_escape("aten::mm", 8));
	CHECK(fmt_needs_escape("a\x1b[2J", 5));
	fmt_escape("a\x1b[2Jb", 6, false, b, sizeof(b));
	CHECK_STR(b, "a\\x1b[2Jb");
	/* A C1 control (U+009B, CSI) and a stray byte. */
	fmt_escape("x\xc2\x9by\xff", 5, false, b, sizeof(b));
	CHECK_STR(b, "x\\x9by\\xff");
	fmt_escape("caf\xc3\xa9", 5, false, b, sizeof(b));
	CHECK_STR(b, "caf\xc3\xa9");
	fmt_escape("caf\xc3\xa9", 5, true, b, sizeof(b));
	CHECK_STR(b, "caf?");
	/* Cut at a character boundary when full. */
	fmt_escape("\xe4\xb8\xad\xe6\x96\x87", 6, false, b, 5);
	CHECK_STR(b, "\xe4\xb8\xad");
}

static void test_width(void)
{
	size_t used;

	CHECK_EQ(u8_width("abc", 3), 3);
	CHECK_EQ(u8_width("\xe4\xb8\xad\xe6\x96\x87", 6), 4);	/* two CJK: 2 each */
	CHECK_EQ(u8_width("e\xcc\x81", 3), 1);			/* e + combining acute */
	CHECK_EQ(u8_fit("\xe4\xb8\xad\xe6\x96\x87", 6, 3, &used), 3);
	CHECK_EQ(used, 2);
}

const struct test tests[] = {
	{ "times print exactly from nanoseconds", test_times },
	{ "bytes, percentages, SI and missing cells", test_cells },
	{ "control characters and bad bytes are escaped", test_escape },
	{ "display width counts wide and combining characters", test_width },
	{ 0 },
};
