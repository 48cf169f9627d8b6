// SPDX-License-Identifier: MIT
/*
 * num_double() and num_int() on the numbers a JSON token holds, against
 * the C library (strtod(), strtoll()) as the reference: every count of
 * integer and fraction digits around the eight-at-a-time conversion, a
 * stray byte at every place, and random decimals.  num_double() promises
 * the double strtod() gives; num_int() the value strtoll() gives where the
 * whole text is an integer that fits.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "parsers/num.h"
#include "test.h"

static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Whether num_double(S) agrees with strtod() on the whole of S: the same
 * bits when both take it, or both refuse it. */
static bool double_agrees(const char *s)
{
	size_t n = strlen(s);
	char *end;
	double want, got;
	bool want_ok, got_ok;

	errno = 0;
	want = strtod(s, &end);
	want_ok = n && end == s + n;
	got_ok = num_double(s, n, &got);
	if (want_ok && !(got_ok && memcmp(&want, &got, sizeof(got)) == 0)) {
		fprintf(stderr, "  num_double(\"%s\"): %s %.17g, strtod %.17g\n", s,
			got_ok ? "took" : "refused", got, want);
		return false;
	}
	/* Refusals: strtod() reads a prefix, or words num_double() takes. */
	if (!want_ok && got_ok && !isnan(got)) {
		fprintf(stderr, "  num_double(\"%s\") took %.17g, strtod refused\n", s, got);
		return false;
	}
	return true;
}

/* Whether num_int(S) agrees with strtoll() on the whole of S. */
static bool int_agrees(const char *s)
{
	size_t n = strlen(s);
	char *end;
	long long want;
	int64_t got;
	bool want_ok, got_ok;

	errno = 0;
	want = strtoll(s, &end, 10);
	want_ok = n && end == s + n && errno == 0 && s[0] != ' ';
	got_ok = num_int(s, n, &got);
	if (want_ok != got_ok || (want_ok && want != got)) {
		fprintf(stderr, "  num_int(\"%s\"): %s %" PRId64 ", strtoll %s %lld\n", s,
			got_ok ? "took" : "refused", got, want_ok ? "took" : "refused", want);
		return false;
	}
	return true;
}

/* A sign or not, INT digits, and a fraction of FRAC digits or none (-1),
 * the digits from X. */
static void make_decimal(char *buf, int sign, int int_digits, int frac, uint64_t *x)
{
	char *p = buf;

	if (sign)
		*p++ = sign > 0 ? '+' : '-';
	for (int i = 0; i < int_digits; i++)
		*p++ = (char)('0' + next_random(x) % 10);
	if (frac >= 0) {
		*p++ = '.';
		for (int i = 0; i < frac; i++)
			*p++ = (char)('0' + next_random(x) % 10);
	}
	*p = '\0';
}

static void test_every_digit_count(void)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	char buf[64];
	bool ok = true;

	for (int sign = -1; sign <= 1; sign++)
		for (int d = 0; d <= 24 && ok; d++)
			for (int f = -1; f <= 24 && ok; f++)
				for (int rep = 0; rep < 8 && ok; rep++) {
					make_decimal(buf, sign, d, f, &x);
					ok = double_agrees(buf) && (f >= 0 || int_agrees(buf));
				}
	CHECK(ok);
}

/* A byte of another kind at every place of a long decimal: the
 * conversion must see where the digits stop, in the eight-byte word or
 * after it. */
static void test_stray_byte_everywhere(void)
{
	static const char strays[] = "./-+eE x:\"0";
	const char *base = "1234567890123456.78901234";
	char buf[64];
	bool ok = true;

	for (size_t len = 1; len <= strlen(base) && ok; len++)
		for (size_t at = 0; at < len && ok; at++)
			for (size_t s = 0; s < sizeof(strays) - 1 && ok; s++) {
				memcpy(buf, base, len);
				buf[len] = '\0';
				buf[at] = strays[s];
				ok = double_agrees(buf) && int_agrees(buf);
			}
	CHECK(ok);
}

static void test_timestamps(void)
{
	CHECK(double_agrees("2721893671974.173"));
	CHECK(double_agrees("1712195495519689.123"));
	CHECK(double_agrees("1712195495519689"));
	CHECK(double_agrees("9007199254740993"));
	CHECK(double_agrees("9007199254740993.5"));
	CHECK(double_agrees("18446744073709551615"));
	CHECK(double_agrees("99999999.99999999"));
	CHECK(double_agrees("00000000000000000001"));
	CHECK(double_agrees("0.000000000000000000123"));
	CHECK(double_agrees("-0.0"));
	CHECK(int_agrees("999999999999999999"));
	CHECK(int_agrees("9223372036854775807"));
	CHECK(int_agrees("-9223372036854775808"));
	CHECK(int_agrees("9223372036854775808"));
	CHECK(int_agrees("12345678"));
	CHECK(int_agrees("1234567a"));
	CHECK(int_agrees("a2345678"));
}

static void test_random_decimals(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char buf[64];
	bool ok = true;

	for (int i = 0; i < 200000 && ok; i++) {
		int d = (int)(next_random(&x) % 21), f = (int)(next_random(&x) % 22) - 1;

		make_decimal(buf, (int)(next_random(&x) % 3) - 1, d, f, &x);
		ok = double_agrees(buf);
	}
	CHECK(ok);
}

const struct test tests[] = {
	{ "every count of integer and fraction digits", test_every_digit_count },
	{ "a stray byte at every place", test_stray_byte_everywhere },
	{ "timestamps and bounds", test_timestamps },
	{ "random decimals", test_random_decimals },
	{ 0 },
};
