// SPDX-License-Identifier: MIT
/* Values as text: exact times from integers, escaping, display width. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "model/bounds.h"
#include "model/strbuf.h"
#include "view/format.h"

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
	/* Two decimals in every row of a fixed column (Blk/SM 0.61 beside
	 * 0.007576 was two rules in one column); what would read 0.00 but
	 * is not 0 says so; the raw form is the value. */
	fmt_cell(COL_FIXED, cell_real(0.61), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "0.61");
	fmt_cell(COL_FIXED, cell_real(0.007576), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "0.01");
	fmt_cell(COL_FIXED, cell_real(0.0039), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "<0.01");
	fmt_cell(COL_FIXED, cell_real(-0.0039), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, ">-0.01");
	fmt_cell(COL_FIXED, cell_real(0), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "0.00");
	fmt_cell(COL_FIXED, cell_real(12345678.5), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "12345678.50");
	fmt_cell(COL_FIXED, cell_real(0.007576), FMT_RAW, b, sizeof(b));
	CHECK_STR(b, "0.007576");
	/* A plain real keeps its significant digits (a learning rate). */
	fmt_cell(COL_REAL, cell_real(2.778e-9), FMT_HUMAN, b, sizeof(b));
	CHECK_STR(b, "2.778e-09");
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

static const char *short_of(const char *name, struct strbuf *sb)
{
	return fmt_short_name(name, "...", sb) ? sb->s : name;
}

static void test_short_names(void)
{
	struct strbuf sb = STRBUF_INIT;

	/* A kernel: "void ", the namespaces, the template arguments and the
	 * parameters go. */
	CHECK_STR(short_of("void at::native::vectorized_elementwise_kernel<4, at::native::"
			   "FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::"
			   "FillFunctor<float>, at::detail::Array<char*, 1>)", &sb),
		  "vectorized_elementwise_kernel<...>");
	CHECK_STR(short_of("void cudnn::detail::wgrad_alg0_engine<float, 128, 6>(int, float "
			   "const*, kernel_grad_params, unsigned long long)", &sb),
		  "wgrad_alg0_engine<...>");
	CHECK_STR(short_of("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, "
			   "ncclWork*)", &sb),
		  "ncclKernel_AllReduce_RING_LL_Sum_float");
	CHECK_STR(short_of("void at::native::(anonymous namespace)::reduce_kernel<512, 1>(int)",
			   &sb),
		  "reduce_kernel<...>");
	/* Two namespaces are not a long chain; a template stays marked. */
	CHECK_STR(short_of("void at::foo<int>(int)", &sb), "at::foo<...>");
	/* Not C++ signatures: as they are. */
	CHECK_STR(short_of("aten::add", &sb), "aten::add");
	CHECK_STR(short_of("autograd::engine::evaluate_function: ConvolutionBackward0", &sb),
		  "autograd::engine::evaluate_function: ConvolutionBackward0");
	CHECK_STR(short_of("Memcpy HtoD (Pageable -> Device)", &sb),
		  "Memcpy HtoD (Pageable -> Device)");
	CHECK_STR(short_of("<built-in method __exit__ of torch._C.DisableTorchFunction>", &sb),
		  "<built-in method __exit__ of torch._C.DisableTorchFunction>");
	CHECK_STR(short_of("torch/nn/modules/module.py(1501): _call_impl", &sb),
		  "torch/nn/modules/module.py(1501): _call_impl");
	/* Unbalanced brackets: not C++, nothing cut. */
	CHECK_STR(short_of("void f<int(", &sb), "f<int(");
	strbuf_release(&sb);
}

static void test_wrap(void)
{
	size_t line[8][2];
	const char *s = "device time of the work this op launched";

	CHECK_EQ(fmt_wrap(s, 16, line, 8), 3);
	CHECK_EQ(line[0][0], 0);
	CHECK_EQ(line[0][1], 14);	/* "device time of" */
	CHECK_EQ(line[1][0], 15);
	CHECK_EQ(line[1][1], 31);	/* "the work this op" */
	CHECK_EQ(line[2][1], strlen(s));
	/* No blank: cut where it must. */
	CHECK_EQ(fmt_wrap("abcdefghij", 4, line, 8), 3);
	CHECK_EQ(line[1][0], 4);
	CHECK_EQ(line[1][1], 8);
	CHECK_EQ(fmt_wrap("", 4, line, 8), 1);
	/* Counts beyond MAX. */
	CHECK_EQ(fmt_wrap("a b c d e", 1, line, 2), 5);
	/* Wide characters by their cells. */
	CHECK_EQ(fmt_wrap("\xe5\x8d\xb7\xe7\xa7\xaf\xe5\x89\x8d", 4, line, 8), 2);
}

/* The reference for an integer time: the unit by the same thresholds,
 * rounded half away from zero, written by printf. */
static void time_by_printf(int64_t ns, char *b, size_t size)
{
	uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns, div = 1, v;
	const char *unit = " us";

	if (m == 0) {
		snprintf(b, size, "0");
		return;
	}
	if (m >= 1000000000) {
		div = 1000000;
		unit = " s";
	} else if (m >= 1000000) {
		div = 1000;
		unit = " ms";
	}
	v = m / div + (m % div >= (div + 1) / 2);
	snprintf(b, size, "%s%" PRIu64 ".%03" PRIu64 "%s", ns < 0 ? "-" : "", v / 1000, v % 1000,
		 unit);
}

/* Values around every power of ten and unit threshold, both signs, the
 * extremes, and a spread of random ones. */
static size_t sample_values(int64_t *v, size_t max)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	size_t n = 0;
	uint64_t p = 1;		/* unsigned: 10^19 after the last round wraps harmlessly */

	for (int e = 0; e < 19; e++, p *= 10)
		for (int64_t d = -2; d <= 2 && n + 2 <= max; d++) {
			v[n++] = (int64_t)p + d;
			v[n++] = -((int64_t)p + d);
		}
	v[n++] = INT64_MAX;
	v[n++] = INT64_MIN;
	v[n++] = INT64_MIN + 1;
	v[n++] = 999999500;
	v[n++] = 999999499;
	v[n++] = 999999999500;
	while (n < max) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[n++] = (int64_t)(x >> (x % 64));
	}
	return n;
}

static void test_lengths(void)
{
	static const enum col_kind kinds[] = { COL_COUNT, COL_TIME, COL_BYTES, COL_PCT, COL_REAL,
					       COL_SI, COL_FIXED };
	int64_t v[4096];
	size_t n = sample_values(v, 4096), bad_len = 0, bad_text = 0;
	char b[64], want[64];

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			for (int st = FMT_HUMAN; st <= FMT_RAW; st++) {
				struct cell ci = cell_int(v[i]), cr = cell_real((double)v[i] / 1e3);
				size_t li = fmt_cell(kinds[k], ci, st, b, sizeof(b));
				size_t lr = fmt_cell(kinds[k], cr, st, b, sizeof(b));

				bad_len += fmt_cell_length(kinds[k], ci, st) != li;
				bad_len += fmt_cell_length(kinds[k], cr, st) != lr;
			}
		fmt_time(v[i], b, sizeof(b));
		time_by_printf(v[i], want, sizeof(want));
		bad_text += strcmp(b, want) != 0;
		fmt_cell(COL_COUNT, cell_int(v[i]), FMT_HUMAN, b, sizeof(b));
		snprintf(want, sizeof(want), "%" PRId64, v[i]);
		bad_text += strcmp(b, want) != 0;
	}
	CHECK_EQ(bad_len, 0);
	CHECK_EQ(bad_text, 0);
	/* Cut to a short buffer, still terminated. */
	CHECK_EQ(fmt_cell(COL_COUNT, cell_int(-1234567), FMT_HUMAN, b, 5), 4);
	CHECK_STR(b, "-123");
	CHECK_EQ(fmt_time(-1234500, b, 7), 6);
	CHECK_STR(b, "-1.235");
}

/* The loading screen's figures: a plain file's rate is of its bytes, a
 * gzip file's of the text it unpacks to; a pipe has no size. */
static void test_progress(void)
{
	const uint64_t mb = 1 << 20;
	char b[200];

	fmt_progress(300 * mb, 1000 * mb, 300 * mb, 0.5, b, sizeof(b));
	CHECK_STR(b, " 30%  300 of 1000 MB  600 MB/s  about 1 s left");
	fmt_progress(30 * mb, 80 * mb, 360 * mb, 0.5, b, sizeof(b));
	CHECK_STR(b, " 37%  30 of 80 MB read, 360 MB unpacked at 720 MB/s  about 1 s left");
	fmt_progress(20 * mb, 80 * mb, 240 * mb, 2, b, sizeof(b));
	CHECK_STR(b, " 25%  20 of 80 MB read, 240 MB unpacked at 120 MB/s  about 6 s left");
	fmt_progress(70 * mb, 0, 70 * mb, 1, b, sizeof(b));
	CHECK_STR(b, "70 MB read  70 MB/s");
	fmt_progress(7 * mb, 0, 70 * mb, 1, b, sizeof(b));
	CHECK_STR(b, "7 MB read, 70 MB unpacked at 70 MB/s");
	/* Done: no time left; more read than the size said (the file grew). */
	fmt_progress(80 * mb, 80 * mb, 360 * mb, 1, b, sizeof(b));
	CHECK_STR(b, "100%  80 of 80 MB read, 360 MB unpacked at 360 MB/s");
	fmt_progress(90 * mb, 80 * mb, 90 * mb, 0, b, sizeof(b));
	CHECK_STR(b, "100%  80 of 80 MB  0 MB/s");
	CHECK_EQ(fmt_progress(300 * mb, 1000 * mb, 300 * mb, 0.5, b, 6), 5);
	CHECK_STR(b, " 30% ");
}

/* A capped sum of times or sizes (model/bounds.h), or anything past the
 * cap: ">=" the cap (a time's rounded down, to fit its column) in every
 * human form, the same length as measured; raw, the number.  Counts
 * print as they are. */
static void test_capped(void)
{
	static const struct { enum col_kind kind; int64_t v; const char *human; } cases[] = {
		{ COL_TIME, SUM_CAP, ">=2.3e9 s" },
		{ COL_TIME, INT64_MAX, ">=2.3e9 s" },
		{ COL_TIME, -SUM_CAP, "<=-2.3e9 s" },
		{ COL_TIME, SUM_CAP - 1, "2305843009.214 s" },
		{ COL_BYTES, SUM_CAP, ">=2048.00 PiB" },
		{ COL_COUNT, SUM_CAP, "2305843009213693951" },
	};
	char b[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cell c = cell_int(cases[i].v);

		fmt_cell(cases[i].kind, c, FMT_HUMAN, b, sizeof(b));
		CHECK_STR(b, cases[i].human);
		CHECK_EQ(fmt_cell_length(cases[i].kind, c, FMT_HUMAN), strlen(cases[i].human));
	}
	fmt_cell(COL_TIME, cell_int(SUM_CAP), FMT_RAW, b, sizeof(b));
	CHECK_STR(b, "2305843009213693.951");
	fmt_cell(COL_COUNT, cell_int(SUM_CAP), FMT_RAW, b, sizeof(b));
	CHECK_STR(b, "2305843009213693951");
}

const struct test tests[] = {
	{ "a load's progress in words", test_progress },
	{ "a capped sum shows as at least the cap", test_capped },
	{ "times print exactly from nanoseconds", test_times },
	{ "bytes, percentages, SI and missing cells", test_cells },
	{ "control characters and bad bytes are escaped", test_escape },
	{ "display width counts wide and combining characters", test_width },
	{ "bidi and zero-width characters are escaped", test_invisible },
	{ "display width is the width of what is drawn", test_width_as_drawn },
	{ "short names: templates, parameters, namespaces elided; others kept", test_short_names },
	{ "text wraps at blanks, and anywhere when it must", test_wrap },
	{ "a number's length is known without writing it; digits as printf's", test_lengths },
	{ 0 },
};
