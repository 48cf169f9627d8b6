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
	fmt_time(-45800000, b, sizeof(b));
	CHECK_STR(b, "-45.800 ms");
	fmt_us(0, b, sizeof(b));
	CHECK_STR(b, "0");
	/* The extremes, and a buffer too small: cut, still terminated. */
	fmt_us(INT64_MIN, b, sizeof(b));
	CHECK_STR(b, "-9223372036854775.808");
	fmt_time(INT64_MAX, b, sizeof(b));
	CHECK_STR(b, "9223372036.855 s");
	CHECK_EQ(fmt_time(45800000, b, 4), 3);
	CHECK_STR(b, "45.");
	CHECK_EQ(fmt_cell(COL_COUNT, cell_int(INT64_MIN), FMT_HUMAN, b, sizeof(b)), 20);
	CHECK_STR(b, "-9223372036854775808");
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

/* The invisible class: bidi controls, zero-width characters, the BOM. */
static void test_invisible(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "rlo\xe2\x80\xae" "abc", "rlo\\u202eabc" },		/* U+202E RLO */
		{ "a\xe2\x80\x8b" "b", "a\\u200bb" },			/* U+200B ZWSP */
		{ "a\xe2\x80\x8d" "b", "a\\u200db" },			/* U+200D ZWJ */
		{ "\xef\xbb\xbf" "bom", "\\ufeffbom" },		/* U+FEFF BOM */
		{ "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
		  "\\u202a\\u202b\\u202c\\u202d" },			/* embeddings, PDF */
		{ "\xe2\x81\xa6" "x\xe2\x81\xa9", "\\u2066x\\u2069" },	/* isolates */
		{ "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c" }, /* LRM RLM ALM */
		{ "\xe2\x81\xa0", "\\u2060" },				/* word joiner */
		{ "\xe2\x80\xa8", "\\u2028" },				/* line separator */
		{ "\xc2\xad", "\\u00ad" },				/* soft hyphen (Cf) */
		{ "\xf3\xa0\x80\x81", "\\U000e0001" },		/* language tag */
		/* Neighbours that are not format characters stay. */
		{ "\xe2\x80\x90\xe2\x80\xaf\xe2\x81\x9f", "\xe2\x80\x90\xe2\x80\xaf\xe2\x81\x9f" },
	};
	char b[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].in);

		CHECK(fmt_needs_escape(cases[i].in, n));
		fmt_escape(cases[i].in, n, false, b, sizeof(b));
		CHECK_STR(b, cases[i].out);
		/* The same with an ASCII-only terminal: escaped, not '?'. */
		fmt_escape(cases[i].in, n, true, b, sizeof(b));
		if (strchr(cases[i].out, '\\'))
			CHECK_STR(b, cases[i].out);
	}
}

/* u8_width() counts what is drawn: an escape as its cells, so text
 * measured before escaping lines up with text measured after. */
static void test_width_as_drawn(void)
{
	static const char *const names[] = {
		"rlo\xe2\x80\xae" "abc", "zw\xe2\x80\x8b" "sp\xe2\x80\x8d" "zwj\xef\xbb\xbf" "bom",
		"evil\x1b[2J", "csi\xc2\x9b", "bad\xff", "\xe4\xb8\xad\xe6\x96\x87",
		"e\xcc\x81", "tag\xf3\xa0\x80\x81", "plain",
	};
	char b[256];
	size_t used;

	CHECK_EQ(u8_width("a\xe2\x80\xae" "b", 5), 8);		/* a \u202e b */
	CHECK_EQ(u8_width("\x1b", 1), 4);
	CHECK_EQ(u8_width("\xef\xbb\xbf", 3), 6);
	CHECK_EQ(u8_cp_width(0x202e), 0);
	CHECK_EQ(u8_cp_width(0xfeff), 0);
	CHECK_EQ(u8_cp_width(0x2060), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]), e = fmt_escape(names[i], n, false, b, sizeof(b));

		CHECK_EQ(u8_width(names[i], n), u8_width(b, e));
		/* u8_fit() measures the same way: all of it fits in its width. */
		CHECK_EQ(u8_fit(names[i], n, u8_width(names[i], n), &used), n);
		CHECK_EQ(used, u8_width(b, e));
	}
	/* An escape is never cut in two by a fit. */
	CHECK_EQ(u8_fit("a\xe2\x80\xae" "b", 5, 4, &used), 1);
	CHECK_EQ(used, 1);
}

const struct test tests[] = {
	{ "times print exactly from nanoseconds", test_times },
	{ "bytes, percentages, SI and missing cells", test_cells },
	{ "control characters and bad bytes are escaped", test_escape },
	{ "display width counts wide and combining characters", test_width },
	{ "bidi and zero-width characters are escaped", test_invisible },
	{ "display width is the width of what is drawn", test_width_as_drawn },
	{ 0 },
};
