/* SPDX-License-Identifier: MIT */
/*
 * api_summary: the runtime and driver API calls of a profile (cudaLaunchKernel,
 * cudaMemcpyAsync, hipLaunchKernel...), one row per name, with the figures
 * Nsight Systems' cuda_api_sum report gives: calls, total, share, mean,
 * median, extremes and standard deviation of one call's duration.
 *
 * A call is a runtime node (NODE_RUNTIME); its duration is its host time.
 * A pre-aggregated row (a key_averages table's cudaLaunchKernel, calls
 * counted in the file) gives its calls, total and, where the file has them,
 * extremes, but not the single durations: its name's median and standard
 * deviation are then unknown, never guessed.
 */
#ifndef MODEL_API_SUMMARY_H
#define MODEL_API_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct api_row {
	const char *name;		/* the profile's string */
	uint64_t calls;
	int64_t total_ns;		/* capped at SUM_CAP (capped: true) */
	int64_t min_ns, max_ns;		/* -1: unknown */
	int64_t median_ns;		/* -1: unknown (not every duration known) */
	double stddev_ns;		/* sample (n - 1); NaN: unknown or one call */
	bool capped;			/* total_ns reached SUM_CAP */
};

struct api_summary {
	struct api_row *rows;		/* by total, longest first; ties by name */
	size_t nr;
	int64_t total_ns;		/* every call's, for the share */
	bool capped;
};

/* The calls of P that started in STEP (NULL: all), into OUT (released by
 * api_summary_release()).  O(n log n) in the calls. */
void api_summary_make(const struct profile *p, const struct step *step, struct api_summary *out);
void api_summary_release(struct api_summary *s);

#endif
