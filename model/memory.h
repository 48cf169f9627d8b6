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

/* How a device is named: "CPU" and "GPU0" for CUDA's, as the plugin
 * names them; the others by their c10 type's name and index, "HIP0",
 * "XPU1", "MTIA0" ("PrivateUse1:0": a colon where the name ends in a
 * digit).  MEM_DEVICE_NAME_SIZE holds any. */
#define MEM_DEVICE_NAME_SIZE 32
const char *mem_device_name(struct mem_device device, char *buf, size_t size);
bool mem_device_eq(struct mem_device a, struct mem_device b);

/* The devices the memory events are on, by type (CUDA's first) and
 * index, the CPU last: every one, in a new array (caller frees) of *NR. */
struct mem_device *mem_devices(const struct profile *p, size_t *nr);
/* DEVICE's place among the NR DEVICES mem_devices() gave, or NR. */
size_t mem_device_index(const struct mem_device *devices, size_t nr, struct mem_device device);

/* ---------------------------------------------------------------------
 * Statistics per operator and device
 */

struct mem_stat {
	const char *name;		/* the op */
	struct mem_device device;
	uint64_t calls;			/* the op's calls the statistics reached
					   (see memory.c: not all its calls) */
	int64_t size_increase, self_size_increase;	/* bytes */
	int64_t alloc_count, self_alloc_count;
	int64_t alloc_size, self_alloc_size;		/* bytes */
};

struct mem_stats {
	struct mem_stat *rows;		/* by device (mem_devices' order), then name */
	size_t nr, alloc;
	uint64_t nr_capped;		/* sums that reached SUM_CAP and hold
					   it (model/bounds.h): the pane warns */
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
	struct mem_device device;
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
	struct mem_device device;
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

/* The largest Total Allocated of any memory event on accelerator INDEX
 * (of any type but the CPU: the devices a trace's deviceProperties list),
 * address or not, as the plugin's memory recommendation reads it; -1:
 * none. */
int64_t mem_peak_allocated(const struct profile *p, int32_t index);

#endif
