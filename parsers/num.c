// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The value of eight digits, X being their bytes less '0' each (the first
 * digit in the lowest byte): three multiplies rather than eight.  Each
 * step joins neighbouring lanes -- the lane times its width in decimal
 * plus the next lane -- and keeps every other lane: bytes into 2-digit
 * 16-bit lanes, those into 4-digit 32-bit lanes, those into the value.
 * No lane overflows (99, 9999, 99999999).
 */
static inline uint64_t eight_digits(uint64_t x)
{
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffULL;
	return (x * 10000 + (x >> 32)) & 0xffffffffULL;
}
#endif

/*
 * Past the digits at P (up to E), accumulated into *M.  Eight bytes at a
 * time while eight are there: with X the bytes less '0', a byte is a digit
 * when it and X + 0x76 both lack the top bit, and the lowest byte that is
 * no digit ends the run (a borrow only disturbs the bytes above it); the
 * K digits before it, shifted to the top with zeros below as leading
 * digits, convert as eight.
 */
static inline const char *add_digits(const char *p, const char *e, uint64_t *m)
{
	static const uint64_t pow10_below8[] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
						 10000000, 100000000 };

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (e - p >= 8) {
		uint64_t w, x, other;
		unsigned k;

		memcpy(&w, p, 8);
		x = w - 0x3030303030303030ULL;
		other = (x | (x + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
		if (!other) {
			*m = *m * 100000000 + eight_digits(x);
			p += 8;
			continue;
		}
		k = (unsigned)__builtin_ctzll(other) >> 3;
		if (k)
			*m = *m * pow10_below8[k] + eight_digits(x << (64 - 8 * k));
		return p + k;
	}
#endif
	(void)pow10_below8;
	while (p < e && (unsigned char)(*p - '0') < 10)
		*m = *m * 10 + (uint64_t)(*p++ - '0');
	return p;
}

bool num_int(const char *s, size_t n, int64_t *out)
{
	const char *p = s, *end = s + n;
	uint64_t v = 0;
	bool neg = false;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (p == end)
		return false;
	if (end - p <= 18) {
		/* Below 10^18: no test for overflow (ids, pids, sizes). */
		for (; p < end; p++) {
			if ((unsigned char)(*p - '0') > 9)
				return false;
			v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	for (; p < end; p++) {
		if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v > (uint64_t)INT64_MAX + neg)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static const double exact_pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
				      1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
				      1e20, 1e21, 1e22 };

/* The power of ten 10^K, K <= 19, as an integer. */
static uint64_t ipow10(int k)
{
	uint64_t v = 1;

	while (k--)
		v *= 10;
	return v;
}

/*
 * M / 10^K (M < 2^64, K <= 19) correctly rounded to a double, the value
 * strtod() gives: a candidate by two roundings (at most an ulp off), then
 * the neighbour whose exact distance to M / 10^K is least, ties to even.
 * Distances compare as integers: for c = C * 2^E, |c - M/10^K| scales to
 * |C * 10^K - M * 2^-E| (E < 0) or |C * 2^E * 10^K - M| (E >= 0), which
 * fit 128 bits for the values a 19-digit mantissa gives.  False when a
 * value is outside that range (the caller takes strtod()).
 */
static bool div_pow10(uint64_t m, int k, double *out)
{
	double d = (double)m / exact_pow10[k], best = 0;
	unsigned __int128 p10 = ipow10(k), best_dist = 0;
	bool have = false, best_odd = false;

	if (!(d > 0) || !isfinite(d))
		return false;
	for (int step = -1; step <= 1; step++) {
		double c = step < 0 ? nextafter(d, 0) : step > 0 ? nextafter(d, INFINITY) : d;
		int e;
		double f = frexp(c, &e);	/* c = f * 2^e, f in [0.5, 1) */
		uint64_t mant = (uint64_t)ldexp(f, 53);	/* c = mant * 2^(e - 53) */
		int e2 = e - 53;
		unsigned __int128 lhs, rhs, dist;

		if (e2 < -63 || e2 > 10)
			return false;
		if (e2 < 0) {
			lhs = (unsigned __int128)mant * p10;
			rhs = (unsigned __int128)m << -e2;
		} else {
			lhs = ((unsigned __int128)mant << e2) * p10;
			rhs = m;
		}
		dist = lhs > rhs ? lhs - rhs : rhs - lhs;
		if (!have || dist < best_dist || (dist == best_dist && best_odd && !(mant & 1))) {
			best = c;
			best_dist = dist;
			best_odd = mant & 1;
			have = true;
		}
	}
	*out = best;
	return true;
}

/* M / 10^FRAC, negated if NEG, correctly rounded; false when out of
 * div_pow10()'s range.  M has at most 19 digits, FRAC <= 19. */
static bool from_decimal(uint64_t m, int frac, bool neg, double *out)
{
	double v;

	if (m == 0) {
		*out = neg ? -0.0 : 0.0;
		return true;
	}
	if (m < (1ULL << 53)) {
		v = (double)m / exact_pow10[frac];
	} else if (!div_pow10(m, frac, &v)) {
		return false;
	}
	*out = neg ? -v : v;
	return true;
}

/*
 * S[0..N) when it is a plain decimal of at most 19 digits in all -- a
 * sign or not, digits, a point or not -- in one tight pass: a trace has
 * two per event, "ts" and "dur".  False for any other shape.  (Past 19
 * digits M wraps, unsigned, and the count says no.)
 */
static bool plain_decimal(const char *s, size_t n, double *out)
{
	const char *p = s, *e = s + n, *start;
	uint64_t m = 0;
	int digits, frac = 0;
	bool neg = false;

	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	start = p;
	p = add_digits(p, e, &m);
	digits = (int)(p - start);
	if (p < e && *p == '.') {
		const char *f = ++p;

		p = add_digits(p, e, &m);
		frac = (int)(p - f);
		digits += frac;
	}
	/* 19 digits: M cannot have overflowed. */
	return p == e && digits > 0 && digits <= 19 && from_decimal(m, frac, neg, out);
}

bool num_double(const char *s, size_t n, double *out)
{
	char buf[128], *end;
	const char *p = s, *e = s + n;
	uint64_t m = 0;
	int frac = -1, digits = 0;
	bool neg = false, any_digit = false;

	if (plain_decimal(s, n, out))
		return true;
	/*
	 * Decimals of up to 19 significant digits after leading zeros
	 * ("0.000000000000000000123") without strtod(), which was a fifth of
	 * the tokenizer's time: Clinger's fast path when the mantissa is
	 * below 2^53, else div_pow10().
	 */
	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < e; p++) {
		if (*p >= '0' && *p <= '9') {
			any_digit = true;
			if (m || *p != '0')
				digits++;
			if (digits > 19)
				break;
			m = m * 10 + (uint64_t)(*p - '0');
			if (frac >= 0)
				frac++;
		} else if (*p == '.' && frac < 0) {
			frac = 0;
		} else {
			break;
		}
	}
	/* A sign or a point alone ("+", "-.") is no number. */
	if (p == e && frac != 0 && frac <= 19 && any_digit &&
	    from_decimal(m, frac < 0 ? 0 : frac, neg, out))
		return true;
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!strcmp(buf, "-nan") || !strcmp(buf, "nan") || !strcmp(buf, "NaN")) {
		*out = NAN;
		return true;
	}
	errno = 0;
	*out = strtod(buf, &end);
	return end == buf + n && end != buf;
}

/*
 * Digits go into an unsigned accumulator as a decimal mantissa with its
 * exponent; the final scaling by 10^(exp+pow10) is done in integers, with
 * one rounding step at the end, so "1712195495519689.123" us is exact.
 */
bool num_scaled(const char *s, size_t n, int pow10, int64_t *out)
{
	const char *p = s, *end = s + n;
	bool neg = false, any = false;
	uint64_t mant = 0;
	int exp10 = pow10, dropped = 0;
	bool round_up = false;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, any = true) {
		if (mant <= (UINT64_MAX - 9) / 10)
			mant = mant * 10 + (uint64_t)(*p - '0');
		else
			dropped++;	/* too many digits: keep the magnitude */
	}
	exp10 += dropped;
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, any = true) {
			if (mant <= (UINT64_MAX - 9) / 10) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				exp10--;
			}
		}
	}
	if (!any)
		return false;
	if (p < end && (*p == 'e' || *p == 'E')) {
		bool eneg = false;
		int e = 0, edigits = 0;

		p++;
		if (p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (; p < end && *p >= '0' && *p <= '9'; p++, edigits++)
			if (e < 10000)
				e = e * 10 + (*p - '0');
		if (!edigits)
			return false;
		exp10 += eneg ? -e : e;
	}
	if (p != end)
		return false;
	/* Drop digits below the unit; the last one dropped is the most
	 * significant of them and decides the rounding (half away from 0). */
	for (; exp10 < 0; exp10++) {
		round_up = mant % 10 >= 5;
		mant /= 10;
	}
	if (round_up)
		mant++;
	for (; exp10 > 0; exp10--) {
		if (mant > UINT64_MAX / 10)
			return false;
		mant *= 10;
	}
	if (mant > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)mant : (int64_t)mant;
	return true;
}

bool num_time_ns(const char *s, size_t n, int default_pow10, int64_t *ns)
{
	size_t num_end = n, unit_start;
	int pow10;

	while (num_end > 0 && isalpha((unsigned char)s[num_end - 1]))
		num_end--;
	unit_start = num_end;
	while (num_end > 0 && s[num_end - 1] == ' ')
		num_end--;
	if (unit_start == n) {
		if (default_pow10 < 0)
			return false;
		pow10 = default_pow10;
	} else {
		const char *u = s + unit_start;
		size_t ulen = n - unit_start;

		if (ulen == 2 && !memcmp(u, "ns", 2))
			pow10 = 0;
		else if (ulen == 2 && !memcmp(u, "us", 2))
			pow10 = 3;
		else if (ulen == 2 && !memcmp(u, "ms", 2))
			pow10 = 6;
		else if (ulen == 1 && *u == 's')
			pow10 = 9;
		else
			return false;
	}
	return num_scaled(s, num_end, pow10, ns);
}

/* S[0..N) split into a number and the letters after it (blanks between
 * allowed); false when there is no number. */
static bool split_unit(const char *s, size_t n, size_t *num_len, const char **unit, size_t *unit_len)
{
	size_t end = n, ustart;

	while (end && s[end - 1] == ' ')
		end--;
	ustart = end;
	while (ustart && (isalpha((unsigned char)s[ustart - 1]) || s[ustart - 1] == '/'))
		ustart--;
	*unit = s + ustart;
	*unit_len = end - ustart;
	while (ustart && s[ustart - 1] == ' ')
		ustart--;
	*num_len = ustart;
	return ustart > 0;
}

bool num_bytes(const char *s, size_t n, int64_t *bytes)
{
	static const struct {
		const char *unit;
		int shift;
	} units[] = {
		{ "B", 0 }, { "b", 0 }, { "byte", 0 }, { "bytes", 0 },
		{ "KB", 10 }, { "Kb", 10 }, { "KiB", 10 }, { "kB", 10 },
		{ "MB", 20 }, { "Mb", 20 }, { "MiB", 20 },
		{ "GB", 30 }, { "Gb", 30 }, { "GiB", 30 },
		{ "TB", 40 }, { "Tb", 40 }, { "TiB", 40 },
	};
	const char *unit;
	size_t num_len, unit_len;
	double v;

	if (!split_unit(s, n, &num_len, &unit, &unit_len))
		return false;
	if (!unit_len && num_int(s, num_len, bytes))
		return true;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (unit_len && (strlen(units[i].unit) != unit_len ||
				 memcmp(units[i].unit, unit, unit_len)))
			continue;
		/* A whole number of bytes may still come with decimals:
		 * profile_analyze prints "12.00 byte". */
		if (units[i].shift == 0 && num_int(s, num_len, bytes))
			return true;
		if (!num_double(s, num_len, &v) || v != v)
			return false;
		v *= (double)(1ULL << units[i].shift);
		if (v >= 9.2e18 || v <= -9.2e18)
			return false;
		*bytes = (int64_t)llround(v);
		return true;
	}
	return false;
}

bool num_si(const char *s, size_t n, const char *unit, double *out)
{
	static const char prefixes[] = "KMGTPE";
	const char *u;
	size_t num_len, unit_len;
	double scale = 1;

	if (!split_unit(s, n, &num_len, &u, &unit_len))
		return false;
	if (unit_len && (!unit || strlen(unit) != unit_len || memcmp(u, unit, unit_len))) {
		const char *p = strchr(prefixes, u[0]);

		if (!p || !u[0])
			return false;
		if (unit && (strlen(unit) != unit_len - 1 || memcmp(u + 1, unit, unit_len - 1)))
			return false;
		for (long k = 0; k <= p - prefixes; k++)
			scale *= 1000;
	}
	if (!num_double(s, num_len, out))
		return false;
	*out *= scale;
	return true;
}

bool num_pct(const char *s, size_t n, double *out)
{
	while (n && s[n - 1] == ' ')
		n--;
	if (n && s[n - 1] == '%')
		n--;
	return num_double(s, n, out);
}
