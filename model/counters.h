/* SPDX-License-Identifier: MIT */
/*
 * counters: series of values over time, as the Timeline draws them in
 * chart lanes and `--print counters` lists them (proftui(1), PANES,
 * counters).  Two kinds:
 *
 *   recorded  the trace's own counter events ("ph":"C"): each (pid,
 *             name, arg key) is a series, each event a sample of it;
 *   derived   computed from the trace's events --
 *             GPU N utilization: torch-tb-profiler's GPU utilization
 *               buckets (gpu_metrics_parser.py): the buckets are a
 *               power of ten of microseconds, the smallest that makes
 *               at most 100 of them over the range (the profiler's own
 *               span, "PyTorch Profiler (0)", else the first start to
 *               the last end of the trace's events), the last bucket
 *               running to the range's end; a bucket's value is the
 *               share of it in which a kernel of the device ran (the
 *               union of its kernels), and a last sample of 0 marks the
 *               range's end;
 *             queue GPU D stream S: model/queue_length.h's queue length;
 *             memory GPU0 (CPU...): Total Allocated after each memory
 *               event of model/memory.h's curve.
 *
 * A series is a step function: a sample's value holds from its time to
 * the next sample's (several at one time: the last in the file's order
 * counts).  Per series: the samples, their least and greatest value, and
 * the time-weighted mean over [first sample, last sample] (NaN when they
 * span no time).
 *
 * counters_compute() is O(n log n) in the samples, kernels, launches and
 * memory events.
 */
#ifndef MODEL_COUNTERS_H
#define MODEL_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum counter_kind { COUNTER_RECORDED, COUNTER_DERIVED };

/* How a value reads: as the file gives it, a fraction shown as a
 * percentage, bytes, or a count. */
enum counter_unit { COUNTER_PLAIN, COUNTER_FRACTION, COUNTER_BYTES, COUNTER_COUNT };

struct counter_point {
	int64_t ts_ns;			/* absolute */
	double value;
};

struct counter_series {
	char *name;			/* heap; from the file: escape it */
	uint8_t kind;			/* enum counter_kind */
	uint8_t unit;			/* enum counter_unit */
	struct counter_point *points;	/* in time order; heap */
	size_t nr;
	double min, max;		/* of the samples */
	double mean;			/* time-weighted; NaN: no span */
};

struct counters {
	struct counter_series *v;	/* recorded (in the order the file
					   first names them), then derived */
	size_t nr;
	int64_t util_bucket_ns;		/* the utilization buckets' size; 0:
					   none */
};

void counters_compute(const struct profile *p, struct counters *c);
void counters_release(struct counters *c);

/* The index of the sample of S in force at time T (the last at or
 * before it), or SIZE_MAX before the first.  O(log n). */
size_t counter_at(const struct counter_series *s, int64_t t);

/* A series over a range of time [A, B) (absolute). */
struct counter_window {
	size_t nr;			/* samples at A or after, before B */
	size_t first;			/* the first of them (SIZE_MAX: none) */
	double min, max;		/* of the values in force at some time
					   in [A, B): the one at A (the last
					   sample at or before it) and the
					   samples after A; NaN: none */
	double mean;			/* time-weighted over the part of the
					   first sample to the last inside
					   [A, B); NaN: no such part */
};

/* S over [A, B): O(log n + the samples in it). */
void counter_window(const struct counter_series *s, int64_t a, int64_t b,
		    struct counter_window *w);

/* torch-tb-profiler's bucket size for a range of RANGE_NS: 10^k us, the
 * least with RANGE_NS / size <= 100; its number of whole buckets in
 * *NR (0: the range is shorter than a microsecond). */
int64_t counter_bucket_ns(int64_t range_ns, int64_t *nr);

#endif
