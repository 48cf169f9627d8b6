/* SPDX-License-Identifier: MIT */
/*
 * num: numbers from text, exactly.  Profilers print times as decimal text
 * (JSON microseconds "1712195495519689.123", "12.345ms" table cells);
 * going through a double loses nanoseconds of 16-digit epoch timestamps,
 * so times are scaled as decimals straight into int64 nanoseconds.
 */
#ifndef PARSERS_NUM_H
#define PARSERS_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A base-10 integer with optional sign, the whole of S[0..N). */
bool num_int(const char *s, size_t n, int64_t *out);
/* A floating-point number, the whole of S[0..N) (strtod syntax, plus
 * "nan", "-nan", "inf"). */
bool num_double(const char *s, size_t n, double *out);
/*
 * The decimal S[0..N) (sign, digits, fraction, exponent) times 10^POW10,
 * rounded half away from zero to an integer: num_scaled("63.8125", 6, 3, &x)
 * gives 63813 (microseconds to nanoseconds).  False on syntax errors and
 * overflow.
 */
bool num_scaled(const char *s, size_t n, int pow10, int64_t *out);
/*
 * A time with a unit suffix, possibly after spaces: "12.345ms", "3.1 us",
 * "1.2s", "45ns" -> nanoseconds.  DEFAULT_POW10 scales a bare number
 * (3 for microseconds, 6 for ms, 9 for seconds; -1: a unit is required).
 */
bool num_time_ns(const char *s, size_t n, int default_pow10, int64_t *ns);
/*
 * Memory sizes as profilers print them: "2.46 Kb", "-240.00 Mb", "0 B",
 * "1.50 GB", "9.48 MiB", "512 byte", "12 bytes" -> bytes (K = 1024, as both
 * PyTorch and MegEngine compute them).  A bare number is bytes; a byte
 * count with decimals ("12.00 byte") is rounded to whole bytes.
 */
bool num_bytes(const char *s, size_t n, int64_t *bytes);
/*
 * A number with an optional SI prefix on a unit: "231.21 MFLO", "1.2
 * TFLOPS", "3 GFLOP" -> value scaled by 10^3k (UNIT is the unit after the
 * prefix, "FLO" / "FLOPS"; NULL accepts any letters).  For FLOP counts.
 */
bool num_si(const char *s, size_t n, const char *unit, double *out);
/* A percentage "12.34%", "12.34", "NaN" (NaN when so). */
bool num_pct(const char *s, size_t n, double *out);

/* Nanoseconds -> microseconds as double, for formatting only. */
static inline double ns_to_us(int64_t ns) { return (double)ns / 1e3; }

#endif
