/* SPDX-License-Identifier: MIT */
/*
 * A trace's decimal time (microseconds) in ns, worked out digit by digit
 * for tests, with no code of the parser's: the reference the Kineto
 * tests hold the parser's nanoseconds to.  Include after test.h.
 */
#ifndef TESTS_UNIT_DECIMAL_NS_H
#define TESTS_UNIT_DECIMAL_NS_H

#include <stdbool.h>
#include <stdint.h>

/* TEXT in ns, rounded half away from zero. */
static inline int64_t decimal_ns(const char *text)
{
	const char *s = text;
	bool neg = *s == '-';
	int64_t whole = 0, ns = 0;
	int decimals = 0;

	if (neg || *s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		whole = whole * 10 + (*s - '0');
	/* The first three decimals are the ns, the fourth rounds them:
	 * whole and fraction apart, as 16 digits and 4 more do not fit. */
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && decimals < 4; s++, decimals++)
			ns = ns * 10 + (*s - '0');
	for (; decimals < 3; decimals++)
		ns *= 10;
	if (decimals == 4)
		ns = ns / 10 + (ns % 10 >= 5);
	ns += whole * 1000;
	return neg ? -ns : ns;
}

#endif
