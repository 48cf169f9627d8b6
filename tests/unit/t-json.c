// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>

#include "parsers/json.h"
#include "test.h"

/* Tokenize TEXT; write one letter per token into OUT ({}[]ksn tfz b E $). */
static void tokens(const char *text, char *out, size_t cap, struct json *keep)
{
	struct input in;
	struct diag d;
	struct json j;
	size_t n = 0;
	enum json_tok t;

	diag_init(&d, "t.json", NULL, NULL);
	input_open_mem(&in, "t.json", text, strlen(text));
	json_init(&j, &in, &d);
	do {
		static const char letters[] = "$E{}[]ksntfzb";

		t = json_next(&j);
		if (n + 1 < cap)
			out[n++] = letters[t];
	} while (t != JSON_EOF && t != JSON_ERROR);
	out[n] = '\0';
	if (keep)
		*keep = j;
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
}

static void test_structure(void)
{
	char buf[64];

	tokens("{\"a\": [1, 2.5e-3, \"x\"], \"b\": {}, \"c\": null}", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "{k[nns]k{}kz}$");
	tokens("[true, false]", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "[tf]$");
	tokens("{\"a\":1}\n{\"b\":2}\n", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "{kn}{kn}$");
}

static void test_errors(void)
{
	char buf[64];
	struct json j;

	tokens("{\"a\" 1}", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "{kE");
	tokens("[1 2]", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "[nE");
	tokens("[1, }", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "[nE");
	tokens("[\"a\xff\"]", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "[E");
	tokens("[1.2.3]", buf, sizeof(buf), NULL);
	CHECK_STR(buf, "[E");
	tokens("[{\"a\": [1, 2", buf, sizeof(buf), &j);
	CHECK_STR(buf, "[{k[nn$");
	CHECK(j.truncated);
}

static void test_quirks(void)
{
	char buf[64];
	struct json j;

	tokens("[N/A, nan, \"a\tb\", 1,]", buf, sizeof(buf), &j);
	CHECK_STR(buf, "[bbsn]$");
	CHECK_EQ(j.nr_bare_words, 2);
	CHECK_EQ(j.nr_raw_control, 1);
	CHECK_EQ(j.nr_empty_trailing, 1);
}

static void test_escapes(void)
{
	const char *text = "[\"a\\\"b\\u00e9\\ud83d\\ude00\\n\"]";
	struct input in;
	struct diag d;
	struct json j;

	diag_init(&d, "t.json", NULL, NULL);
	input_open_mem(&in, "t.json", text, strlen(text));
	json_init(&j, &in, &d);
	CHECK(json_next(&j) == JSON_ARR_BEGIN);
	CHECK(json_next(&j) == JSON_STRING);
	CHECK(j.len == 10 && !memcmp(j.s, "a\"b\xc3\xa9\xf0\x9f\x98\x80\n", 10));
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
}

static void test_deep_nesting_is_an_error(void)
{
	char *text = malloc(100001);
	struct input in;
	struct diag d;
	struct json j;
	enum json_tok t;

	memset(text, '[', 100000);
	text[100000] = '\0';
	diag_init(&d, "t.json", NULL, NULL);
	input_open_mem(&in, "t.json", text, 100000);
	json_init(&j, &in, &d);
	while ((t = json_next(&j)) == JSON_ARR_BEGIN)
		;
	CHECK(t == JSON_ERROR);
	CHECK_EQ(j.depth, JSON_MAX_DEPTH);
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
	free(text);
}

static void test_numbers_scale_exactly(void)
{
	int64_t ns;

	CHECK(num_scaled("1712195495519689.123", 20, 3, &ns));
	CHECK_EQ(ns, 1712195495519689123LL);
	CHECK(num_scaled("63.8125", 7, 3, &ns));
	CHECK_EQ(ns, 63813);
	CHECK(num_scaled("0.00006", 7, 3, &ns));
	CHECK_EQ(ns, 0);
	CHECK(num_scaled("1.5e3", 5, 3, &ns));
	CHECK_EQ(ns, 1500000);
	CHECK(num_scaled("-2.0004", 7, 3, &ns));
	CHECK_EQ(ns, -2000);
	CHECK(!num_scaled("1e", 2, 3, &ns));
	CHECK(!num_scaled("abc", 3, 3, &ns));
	CHECK(num_time_ns("12.345ms", 8, -1, &ns));
	CHECK_EQ(ns, 12345000);
	CHECK(num_time_ns("3.1 us", 6, -1, &ns));
	CHECK_EQ(ns, 3100);
	CHECK(num_time_ns("1.760s", 6, -1, &ns));
	CHECK_EQ(ns, 1760000000);
	CHECK(!num_time_ns("12", 2, -1, &ns));
}

/* json_report_end: an error, a cut file with and without something kept,
 * an empty file, a whole one. */
static int end_of(const char *text, uint64_t nr_kept, unsigned *nr_errors)
{
	struct input in;
	struct diag d;
	struct json j;
	enum json_tok t;
	int rc;

	diag_init(&d, "t.json", NULL, NULL);
	input_open_mem(&in, "t.json", text, strlen(text));
	json_init(&j, &in, &d);
	while (!json_failed(t = json_next(&j)))
		;
	rc = json_report_end(&j, t, "trace", nr_kept, "what came before");
	*nr_errors = d.nr_errors;
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
	return rc;
}

static void test_report_end(void)
{
	unsigned e;

	CHECK(end_of("[1, 2]", 0, &e) == 0 && e == 0);
	CHECK(end_of("[1, 2", 2, &e) == 0 && e == 1);
	CHECK(end_of("[1, 2", 0, &e) == -1 && e == 1);
	CHECK(end_of("   ", 0, &e) == -1 && e == 1);
	CHECK(end_of("[1 2]", 0, &e) == -1 && e == 1);
}

/* num_int() against strtoll(): every length of digits with a sign or
 * not, the bounds of int64, and what is no integer. */
static void test_num_int(void)
{
	static const struct {
		const char *s;
		bool ok;
		int64_t v;
	} cases[] = {
		{ "0", true, 0 }, { "-0", true, 0 }, { "+5", true, 5 },
		{ "123456789012345678", true, 123456789012345678LL },
		{ "9223372036854775807", true, INT64_MAX },
		{ "-9223372036854775808", true, INT64_MIN },
		{ "000000000000000000001", true, 1 },
		{ "9223372036854775808", false, 0 }, { "-9223372036854775809", false, 0 },
		{ "99999999999999999999", false, 0 }, { "", false, 0 }, { "-", false, 0 },
		{ "12a", false, 0 }, { "1.0", false, 0 }, { " 1", false, 0 }, { "1 ", false, 0 },
		{ "--1", false, 0 }, { "1-", false, 0 },
	};
	uint64_t x = 0x2545f4914f6cdd1dULL;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int64_t v = 42;
		bool ok = num_int(cases[i].s, strlen(cases[i].s), &v);

		CHECK(ok == cases[i].ok);
		if (ok && cases[i].ok)
			CHECK(v == cases[i].v);
	}
	for (int i = 0; i < 100000; i++) {
		char buf[32];
		int n = 0, len;
		int64_t v = 0;
		long long want;
		char *end;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (x & 1)
			buf[n++] = x & 2 ? '-' : '+';
		len = 1 + (int)((x >> 2) % 20);
		for (int k = 0; k < len; k++)
			buf[n++] = (char)('0' + (x >> (6 + k * 3 % 57)) % 10);
		buf[n] = '\0';
		errno = 0;
		want = strtoll(buf, &end, 10);
		if (errno == ERANGE) {
			CHECK(!num_int(buf, (size_t)n, &v));
		} else {
			CHECK(num_int(buf, (size_t)n, &v) && v == want);
		}
	}
}

static bool feed_once(void *ctx, struct input *in, const char **seg, size_t *len)
{
	const char **text = ctx;

	(void)in;
	if (!*text)
		return false;
	*seg = *text;
	*len = strlen(*text);
	*text = NULL;
	return true;
}

/* A token that the end of the buffer cuts is read on after the buffer
 * moves: its place must be where it starts in the file all the same. */
static void test_cut_tokens_keep_their_place(void)
{
	const char *text = "{\n  \"a long key\": \"a long string\", \"n\": 1234567890123}";
	struct input in;
	struct diag d;
	struct json j;
	struct pos at;

	diag_init(&d, "t.json", NULL, NULL);
	input_open_feed(&in, "t.json", feed_once, &text, 0, (struct pos){ 1, 1 });
	in.cap = 8;
	json_init(&j, &in, &d);
	CHECK(json_next(&j) == JSON_OBJ_BEGIN);
	CHECK(json_next(&j) == JSON_KEY);
	at = json_pos(&j);
	CHECK(at.line == 2 && at.col == 3);
	CHECK(json_next(&j) == JSON_STRING);
	at = json_pos(&j);
	CHECK(at.line == 2 && at.col == 17);
	CHECK(json_next(&j) == JSON_KEY);
	CHECK(json_next(&j) == JSON_NUMBER);
	at = json_pos(&j);
	CHECK(at.line == 2 && at.col == 39);
	CHECK(json_mark(&j) == 40);
	json_release(&j);
	input_close(&in);
	diag_finish(&d);
}

/* The fast paths of num_double() against strtod(): random decimals of 1
 * to 19 significant digits with the point anywhere, epoch timestamps with
 * three decimals, numbers right at halfway points between doubles, and
 * decimals of any shape and length. */
static void test_num_double_matches_strtod(void)
{
	uint64_t x = 88172645463325252ULL;
	int bad = 0;

	for (int i = 0; i < 300000 && bad < 5; i++) {
		char buf[64];
		int len, point;
		double a, b;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (i % 4 == 3) {
			/* Any shape: a sign or not, leading zeros, 1 to 24
			 * digits (past 19 the slow paths), the point anywhere
			 * or nowhere, "5." and ".5" included. */
			int o = 0;

			if (x & 1)
				buf[o++] = x & 2 ? '-' : '+';
			for (int z = (int)((x >> 2) % 4); z > 0; z--)
				buf[o++] = '0';
			len = 1 + (int)((x >> 4) % 24);
			point = (int)((x >> 9) % (unsigned)(len + 2));
			for (int k = 0; k < len; k++) {
				if (k == point)
					buf[o++] = '.';
				buf[o++] = (char)('0' + (x >> (14 + k * 2 % 48)) % 10);
			}
			if (point == len)
				buf[o++] = '.';
			buf[o] = '\0';
		} else if (i % 3 == 0) {
			/* 16 digits of epoch us, 3 decimals. */
			snprintf(buf, sizeof(buf), "%llu.%03llu",
				 1700000000000000ULL + (unsigned long long)(x % 100000000000000ULL),
				 (unsigned long long)((x >> 40) % 1000));
		} else if (i % 3 == 1) {
			/* An exact halfway point: a double's midpoint printed in full. */
			double d = (double)(x >> 11) * 0x1p-20;
			double next = nextafter(d, INFINITY);
			long double mid = ((long double)d + (long double)next) / 2;

			snprintf(buf, sizeof(buf), "%.6Lf", mid);
		} else {
			len = 1 + (int)(x % 19);
			point = (int)((x >> 8) % (unsigned)(len + 1));
			for (int k = 0, o = 0; k <= len; k++) {
				if (k == point && k != len && k != 0)
					buf[o++] = '.';
				if (k < len)
					buf[o++] = (char)('0' + (x >> (k * 3 % 60)) % 10);
				buf[o] = '\0';
			}
		}
		a = strtod(buf, NULL);
		if (!num_double(buf, strlen(buf), &b) || memcmp(&a, &b, sizeof(a))) {
			fprintf(stderr, "  num_double(\"%s\") = %.17g, strtod says %.17g\n", buf, b, a);
			bad++;
			test_failed = 1;
		}
	}
}

const struct test tests[] = {
	{ "num_double is strtod's double, fast", test_num_double_matches_strtod },
	{ "num_int reads every int64 and nothing else", test_num_int },
	{ "a token cut by the buffer's end keeps its place", test_cut_tokens_keep_their_place },
	{ "how a parse ended: cut, empty, broken, whole", test_report_end },
	{ "structure and several documents", test_structure },
	{ "syntax errors stop the tokenizer", test_errors },
	{ "Kineto quirks are tolerated and counted", test_quirks },
	{ "escapes and surrogate pairs decode to UTF-8", test_escapes },
	{ "100000-deep nesting is an error, not a crash", test_deep_nesting_is_an_error },
	{ "decimal text scales to nanoseconds exactly", test_numbers_scale_exactly },
	{ 0 },
};
