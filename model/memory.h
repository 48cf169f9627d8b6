/* SPDX-License-Identifier: MIT */
/*
 * memory: torch-tb-profiler's Memory view as pure functions of a profile's
 * [memory] events (profile->mem_events) and its call tree -- the
 * statistics per operator (memory_parser.py get_memory_statistics), the
 * allocation/release events (run.py get_memory_events) and the curve of
 * allocated and reserved memory (get_memory_curve).
 *
 * Sizes are bytes and times nanoseconds here; the panes convert to the
 * plugin's KB and ms.  Each function fills heap arrays the caller frees
 * with the matching _release(); names point into the profile.
 *
 * A time range narrows all three as the plugin's zoom does: events at
 * START..END inclusive, and for the statistics only the ops that overlap
 * it.
 */
#ifndef MODEL_MEMORY_H
#define MODEL_MEMORY_H

#include "profile.h"

struct mem_range {
	bool is_set;			/* false: everything */
	int64_t start_ns, end_ns;	/* absolute times, inclusive */
};

/* "CPU", "GPU0": how the plugin names a device (DEVICE -1 is the CPU). */
const char *mem_device_name(int32_t device, char *buf, size_t size);

/* The devices the memory events are on, GPUs by index, then the CPU:
 * every one, in a new array (caller frees) of *NR. */
int32_t *mem_devices(const struct profile *p, size_t *nr);
/* DEVICE's place among the NR DEVICES mem_devices() gave, or NR. */
size_t mem_device_index(const int32_t *devices, size_t nr, int32_t device);

/* ---------------------------------------------------------------------
 * Statistics per operator and device
 */

struct mem_stat {
	const char *name;		/* the op */
	int32_t device;			/* -1: the CPU */
	uint64_t calls;			/* the op's calls the statistics reached
					   (see memory.c: not all its calls) */
	int64_t size_increase, self_size_increase;	/* bytes */
	int64_t alloc_count, self_alloc_count;
	int64_t alloc_size, self_alloc_size;		/* bytes */
};

struct mem_stats {
	struct mem_stat *rows;		/* by device (mem_devices' order), then name */
	size_t nr, alloc;
};

void mem_stats(const struct profile *p, const struct mem_range *r, struct mem_stats *out);
void mem_stats_release(struct mem_stats *s);

/* ---------------------------------------------------------------------
 * Allocations and their releases
 */

struct mem_event_row {
	const char *op;			/* the allocating op, or NULL: unknown */
	const char *parent;		/* for aten::empty*: the op that called
					   it (its tree parent), else NULL */
	int32_t device;
	int64_t size_bytes;
	int64_t alloc_ns, release_ns;	/* since the time origin; -1: none
					   in the range (never freed, or
					   allocated before it) */
};

struct mem_event_rows {
	struct mem_event_row *rows;	/* the plugin's order: allocations as
					   their memory is freed, then those
					   never freed, then frees of memory
					   allocated before the range */
	size_t nr, alloc;
};

void mem_event_rows(const struct profile *p, const struct mem_range *r,
		    struct mem_event_rows *out);
void mem_event_rows_release(struct mem_event_rows *e);

/* ---------------------------------------------------------------------
 * The curve
 */

struct mem_point {
	int64_t ts_ns;			/* absolute */
	int64_t allocated, reserved;	/* bytes after the event */
};

struct mem_curve {
	int32_t device;
	struct mem_point *points;	/* in time order; the events that have an
					   address and both totals */
	size_t nr, alloc;
	int64_t peak_allocated, peak_reserved;	/* the points' largest */
};

/* One curve per device that has points, in mem_devices()' order. */
struct mem_curves {
	struct mem_curve *curves;
	size_t nr;
};

void mem_curves(const struct profile *p, const struct mem_range *r, struct mem_curves *out);
void mem_curves_release(struct mem_curves *c);

/* The largest Total Allocated of any memory event on DEVICE (address or
 * not), as the plugin's memory recommendation reads it; -1: none. */
int64_t mem_peak_allocated(const struct profile *p, int32_t device);

#endif
