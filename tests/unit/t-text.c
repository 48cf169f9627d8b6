// SPDX-License-Identifier: MIT
/* The line helpers and unit-bearing numbers the text formats share. */
#include <math.h>

#include "parsers/input.h"
#include "parsers/num.h"
#include "parsers/text.h"
#include "test.h"

static void test_split2_keeps_single_spaces(void)
{
	const char *line = "  aten::add_ x    Self CPU %   12.3us  ";
	struct field f[8];
	size_t n = text_split2(line, strlen(line), f, 8);

	CHECK_EQ(n, 3);
	CHECK(f[0].len == 12 && !memcmp(f[0].s, "aten::add_ x", 12));
	CHECK_EQ(f[0].col, 2);
	CHECK(f[1].len == 10 && !memcmp(f[1].s, "Self CPU %", 10));
	CHECK(f[2].len == 6 && !memcmp(f[2].s, "12.3us", 6));
	CHECK_EQ(text_split1(line, strlen(line), f, 2), 6);
	CHECK_EQ(text_split2("   ", 3, f, 8), 0);
}

static void test_dash_spans(void)
{
	const char *sep = "-------  ----  ---  ";
	const char *row = "   name    12   x";
	struct span sp[4];
	struct field c;

	CHECK_EQ(text_dash_spans(sep, strlen(sep), sp, 4, 3, false), 3);
	CHECK_EQ(sp[1].start, 9);
	CHECK_EQ(sp[1].end, 13);
	c = text_cell(row, strlen(row), sp[0]);
	CHECK(c.len == 4 && !memcmp(c.s, "name", 4));
	c = text_cell(row, strlen(row), sp[2]);
	CHECK(c.len == 1 && c.s[0] == 'x');
	CHECK_EQ(text_dash_spans("-- a --", 7, sp, 4, 3, false), 0);
	CHECK_EQ(text_dash_spans("--", 2, sp, 4, 3, false), 0);
	CHECK_EQ(text_dash_spans("=== ===", 7, sp, 4, 3, false), 0);
	CHECK_EQ(text_dash_spans("=== ===", 7, sp, 4, 3, true), 2);
}

static void test_bar_cells(void)
{
	const char *pipe = "  |  reader_cost | 0.5 |  | tail";
	const char *box = "\xe2\x94\x82 conv \xe2\x94\x82 1.2ms \xe2\x94\x82";
	struct field f[2];
	size_t rest;

	CHECK_EQ(text_bar_cells(pipe, strlen(pipe), 2, "|", f, 2, &rest), 3);
	CHECK(f[0].len == 11 && !memcmp(f[0].s, "reader_cost", 11));
	CHECK_EQ(f[0].col, 5);
	CHECK(f[1].len == 3 && !memcmp(f[1].s, "0.5", 3));
	CHECK_EQ(rest, 27);	/* " tail": after the last bar, no cell */
	CHECK_EQ(text_bar_cells(box, strlen(box), 0, "\xe2\x94\x82", f, 2, &rest), 2);
	CHECK(f[0].len == 4 && !memcmp(f[0].s, "conv", 4));
	CHECK_EQ(f[1].col, 13);	/* bytes, not characters */
	CHECK_EQ(rest, strlen(box));
	CHECK_EQ(text_bar_cells("|", 1, 0, "|", f, 2, &rest), 0);
}

static void test_title_kind(void)
{
	static const struct text_title titles[] = {
		{ "Time (ms)", 1 }, { "Time", 2 }, { "Time (ms)", 3 },
	};

	CHECK_EQ(text_title_kind(titles, 3, "Time (ms)", 9, -1), 1);	/* the first */
	CHECK_EQ(text_title_kind(titles, 3, "Time", 4, -1), 2);
	CHECK_EQ(text_title_kind(titles, 3, "Time (m", 7, -1), -1);	/* whole only */
	CHECK_EQ(text_title_kind(titles, 3, "time", 4, -1), -1);	/* case counts */
	CHECK_EQ(text_title_kind(titles, 0, "Time", 4, 7), 7);
}

static void test_byte_of_col_counts_characters(void)
{
	const char *s = "\xd0\x9f\xd1\x80x";	/* two Cyrillic letters, then x */

	CHECK_EQ(text_byte_of_col(s, strlen(s), 2), 4);
	CHECK_EQ(text_byte_of_col(s, strlen(s), 9), 5);
}

static void test_log_prefixes(void)
{
	static const struct {
		const char *line;
		size_t prefix;
	} cases[] = {
		{ "[11/18/2023-17:34:03] [I] === Profile", 26 },
		{ "[I] Throughput: 1 qps", 4 },
		{ "[15 12:16:26 @:19][WARN] run testcase: 0", 25 },
		{ "I0609 12:53:37.371167   670 device_context.cc:465] x", 51 },
		{ "[08/15 04:02:46] ppdet.engine INFO: Epoch", 17 },
		{ "[0/10] not a prefix", 0 },
		{ "[rank0]: ---------------  ------", 9 },
		{ "[rank12]:[I] Throughput", 13 },
		{ "[default3]:I0609 12:53:37.371167   670 x.cc:465] x", 49 },
		{ "[rank]: no number", 0 },
		{ "[ranking] 3", 0 },
		{ "plain line", 0 },
		{ "Iteration 3", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t got = text_log_prefix(cases[i].line, strlen(cases[i].line));

		if (got != cases[i].prefix) {
			fprintf(stderr, "  '%s': prefix %zu, want %zu\n", cases[i].line, got,
				cases[i].prefix);
			test_failed = 1;
		}
	}
}

static void test_strip_ansi(void)
{
	char s[] = "\x1b[32miter 0\x1b[0m: 1ms";

	CHECK_EQ(text_strip_ansi(s, strlen(s)), 11);
	CHECK(!memcmp(s, "iter 0: 1ms", 11));
}

static void test_bytes_and_si(void)
{
	int64_t b;
	double d;

	CHECK(num_bytes("2.00 KB", 7, &b) && b == 2048);
	CHECK(num_bytes("-2.46 Kb", 8, &b) && b == -2519);
	CHECK(num_bytes("-240.00 Mb", 10, &b) && b == -251658240);
	CHECK(num_bytes("0 B", 3, &b) && b == 0);
	CHECK(num_bytes("9.48 MiB", 8, &b) && b == 9940500);
	CHECK(num_bytes("512", 3, &b) && b == 512);
	CHECK(num_bytes("12.00 byte", 10, &b) && b == 12);
	CHECK(num_bytes("12.5", 4, &b) && b == 13);
	CHECK(!num_bytes("1e400 byte", 10, &b));
	CHECK(!num_bytes("12 parsecs", 10, &b));
	CHECK(!num_bytes("KB", 2, &b));
	CHECK(num_si("231.21 MFLO", 11, "FLO", &d) && fabs(d - 231.21e6) < 1);
	CHECK(num_si("1.5 TFLOPS", 10, "FLOPS", &d) && fabs(d - 1.5e12) < 1);
	CHECK(num_si("17 FLO", 6, "FLO", &d) && d == 17);
	CHECK(!num_si("3 MiB", 5, "FLO", &d));
	CHECK(num_pct("12.50%", 6, &d) && d == 12.5);
	CHECK(num_pct("NaN", 3, &d) && d != d);
}

static void test_long_line_is_cut_and_counted(void)
{
	size_t n = INPUT_MAX_SPAN + 1000000, len;
	char *text = malloc(n + 20);
	struct input in;
	char *line;

	memset(text, 'x', n);
	memcpy(text + n, "\nnext\r\nlast", 12);
	input_open_mem(&in, "long.txt", text, n + 12);
	line = input_line(&in, &len);
	CHECK(line && len == INPUT_MAX_SPAN && in.lineno == 1);
	line = input_line(&in, &len);
	CHECK(line && len == 4 && !strcmp(line, "next") && in.lineno == 2);
	line = input_line(&in, &len);
	CHECK(line && !strcmp(line, "last") && in.lineno == 3);
	CHECK(input_line(&in, &len) == NULL);
	CHECK_EQ(in.nr_cut_lines, 1);
	input_close(&in);
	free(text);
}

static void test_ends_and_binary(void)
{
	CHECK(text_ends("aten::mm_out", 12, "_out"));
	CHECK(!text_ends("out", 3, "_out"));
	CHECK(text_ends("x", 1, ""));
	CHECK(!text_is_binary("\x1b[32mok\x1b[0m\ttab\r\n", 17));
	CHECK(!text_is_binary("one \x01 stray byte in a long enough line of a log", 47));
	CHECK(text_is_binary("a\0b", 3));
	CHECK(text_is_binary("\x01\x02\x03\x04 gz?", 9));
}

const struct test tests[] = {
	{ "suffixes; binary data against text with colour codes", test_ends_and_binary },
	{ "a line past the bound is cut, the rest skipped, numbers kept", test_long_line_is_cut_and_counted },
	{ "fields split on runs of two blanks", test_split2_keeps_single_spaces },
	{ "dash separators give column spans", test_dash_spans },
	{ "bars split a row into trimmed cells", test_bar_cells },
	{ "a header cell's kind from a table of titles", test_title_kind },
	{ "character columns map to bytes in UTF-8", test_byte_of_col_counts_characters },
	{ "log prefixes of trtexec, MegEngine, glog, ppdet", test_log_prefixes },
	{ "ANSI colour codes are stripped", test_strip_ansi },
	{ "memory sizes, SI prefixes and percentages", test_bytes_and_si },
	{ 0 },
};
