/* SPDX-License-Identifier: MIT */
/*
 * kineto_int: what the files of the Kineto parser share, and nobody else.
 *
 * A trace becomes a profile in three passes over one struct kineto, which
 * lives on kineto_parse()'s stack.  Each pass follows one part of torch-
 * tb-profiler's code (pytorch/kineto tb_plugin, profiler/;
 * doc/formats/kineto.md) where that agrees with the trace's own events,
 * and says so where it departs (proftui(1), DIFFERENCES): launches go where they were
 * made, every API's, and times keep their nanoseconds.
 *
 * kineto.c is the parser object: probe, and parse, which runs the passes
 * below in order, reports how the file ended and frees what they left
 * (kineto_release()).  It owns struct kineto and the tokenizer's life.
 *
 * kineto_read.c turns JSON into records, on two threads.  The reading
 * thread owns the tokenizer, the input, the diag (held, so warnings reach
 * the profile only at the join) and the counts of what it does not pass
 * on: it reads traceEvents, counts the events the model never uses by
 * category and phase, drops those it cannot use (times absurd or missing)
 * with a warning that gives the event's place, and packs the rest into
 * blocks of compact messages.  The model thread owns the profile: it
 * takes the messages in file order, types each event as trace.py does,
 * interns its name, makes its node and its record (host_rec, rt_rec,
 * dev_rec, raw_step) and adds its step role range (ranges_add_merging()).  The
 * top-level keys and deviceProperties go to the Info pane, and so do the
 * counts, once both threads are done (kineto_report_unused()).
 *
 * kineto_chunks.c reads a large traceEvents on two more threads: each
 * reads chunks of it ahead with a struct kineto of its own (only the
 * reading side of it), keeping its blocks and warnings (struct
 * reader_out), and the reading thread hands them on in file order as if
 * it had read them itself.
 *
 * kineto_link.c turns the records into the tree, once reading is done:
 * device work joins its runtime call by correlation, each thread's host
 * events nest by interval containment, runtime calls join the innermost
 * op that encloses their start on their thread (External id only where
 * none does), a lone child of the same name folds into its op parent,
 * and fill_stats works out self and total times (node.py); memory events
 * find their op, and ops the Python frames they ran under.  Device work
 * no thread holds hangs under one group beneath the root and is counted.
 * It owns the per-thread lists and id maps, and frees them before it
 * returns.  On a big trace a second thread does the parts that touch only
 * records: the device links, the runtimes' order by thread and start, the
 * frames' sort, the step plan.
 *
 * kineto_steps.c makes the step breakdown (overall_parser.py), planned
 * beside the rest of the link and given to the profile after it: kernels
 * sorted into Kernel and Communication by their External id, the host's
 * ProfilerStep intervals (or one step over the host ops when there are
 * none) widened to the device work their runtimes launched, then the role
 * ranges carved by priority into each step's categories.  It owns the
 * meaning of struct ranges and of the collective ids.
 *
 * Records refer to their nodes (a host record by its 32-bit handle,
 * host_node()); nodes live in the profile's pool (profile.h), records
 * in heap arrays of struct kineto that kineto_link() frees as soon as its
 * last pass over each is done (kineto_release(), what a failed load left).
 */
#ifndef PARSERS_KINETO_INT_H
#define PARSERS_KINETO_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "../../model/keyindex.h"
#include "../../model/strbuf.h"
#include "../json.h"
#include "../parser.h"

#define NO_ID INT64_MIN

/* Event types, as trace.py's EventTypes (only those that matter here). */
enum ev_type {
	EV_OPERATOR,		/* cpu_op, operator */
	EV_PYTHON,		/* python (old traces) */
	EV_ANNOTATION,		/* user_annotation, gpu_user_annotation */
	EV_STEP,		/* ProfilerStep#N, host side (cpu_op, user_annotation) */
	EV_MODULE,		/* python_function with a Python module id */
	EV_RUNTIME,
	EV_KERNEL,
	EV_MEMCPY,
	EV_MEMSET,
	EV_GPU_RANGE,		/* gpu_user_annotation: a range on a GPU stream */
};

/*
 * The records hold what the link needs of an event and nothing it can
 * find another way, and are packed: 4 M of them on a 1 GB trace, alive at
 * the load's peak.  Their place in their array is their file order (the
 * model thread makes them in it), so none keeps its ordinal; links
 * between them are 32-bit (index + 1, 0 for none: rec_ref()), a thread
 * is its number (struct tid_numbers), not its tid, and an External id is
 * 32-bit where it fits (struct wide_ids).  What only the link writes is
 * in its own arrays, made when it starts.
 */
static inline uint32_t rec_ref(size_t index)
{
	return (uint32_t)index + 1;
}

/* Bit I of the bit array BITS, for a flag by record. */
static inline bool bit_get(const uint64_t *bits, size_t i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

static inline void bit_set(uint64_t *bits, size_t i)
{
	bits[i / 64] |= (uint64_t)1 << (i % 64);
}

/*
 * An External id in 32 bits.  The profiler counts them from 1, so an id
 * from 0 to EXT_NONE - 1 is kept as it is; NO_ID is EXT_NONE; any other
 * (negative, or past 32 bits) is EXT_WIDE, and its value is in a table
 * of such ids by record index (kineto_ext_id()).
 */
#define EXT_NONE UINT32_C(0xfffffffe)
#define EXT_WIDE UINT32_C(0xffffffff)

struct wide_id {
	uint32_t index;			/* of the record */
	int64_t id;
};

struct wide_ids {
	struct wide_id *v;		/* in index order, as the records */
	size_t nr, alloc;
};

/*
 * A host event that is a tree node: an op, a step, a module...  Where it
 * ends (ts + dur as the reference adds them) is its node's start plus
 * host total, which nothing changes for an event's node (host_end()).
 */
struct host_rec {
	uint32_t node;			/* its node's handle: host_node() */
	/* Its External id, in 32 bits (EXT_NONE...): what the link reads
	 * where no op encloses a runtime call, and tells apart in Info. */
	uint32_t ext;
	/* Its tid's number until the link groups the records by thread;
	 * then the next of its thread's, in the order the link reads them
	 * (a ref to k->hosts; 0: the last). */
	union {
		uint32_t thread;
		uint32_t next_of_thread;
	} t;
};
_Static_assert(sizeof(struct host_rec) == 12, "a host record is 12 bytes");

/* H's node; P is the profile the records' nodes are of. */
static inline struct node *host_node(const struct profile *p, const struct host_rec *h)
{
	return node_by_handle(p, h->node);
}

/* A runtime call; its end as a host event's (rt_end()). */
struct rt_rec {
	struct node *node;
	/* Its correlation until link_devices() has read it, then the sum
	 * of its device work's durations. */
	union {
		int64_t corr;
		int64_t device_ns;
	} u;
	uint32_t ext;			/* External id, in 32 bits */
	uint32_t thread;
	uint32_t next_of_op;		/* ref to k->rts */
	uint32_t devices;		/* ref to k->devs: chain through next_of_rt */
};
_Static_assert(sizeof(struct rt_rec) == 32, "a runtime record is 32 bytes");

/* P: the profile the records' nodes are of (struct kineto's). */
static inline int64_t host_end(const struct profile *p, const struct host_rec *h)
{
	const struct node *n = host_node(p, h);

	return n->start_ns + node_host_total(p, n);
}

static inline int64_t rt_end(const struct profile *p, const struct rt_rec *r)
{
	return r->node->start_ns + node_host_total(p, r->node);
}

/* Device work: a kernel (a bit in k->kernel_bits), memcpy or memset.
 * Its end stays in the record: the step bounds read it for every kernel,
 * where a trip to the node would be a miss each. */
struct dev_rec {
	struct node *node;
	int64_t end_ns;			/* ts + dur as the reference adds them */
	int64_t corr;
	uint32_t ext;			/* External id, in 32 bits */
	uint32_t next_of_rt;		/* ref to k->devs */
};
_Static_assert(sizeof(struct dev_rec) == 32, "a device record is 32 bytes");

/* Intervals [start, end) in ns. */
struct range {
	int64_t start, end;
};

struct ranges {
	struct range *v;
	size_t nr, alloc;
	size_t nr_merged;		/* left by ranges_add_held()'s last merge */
};

/* Step categories in tb_plugin's priority order (event_parser.ProfileRole). */
enum role { ROLE_KERNEL, ROLE_MEMCPY, ROLE_MEMSET, ROLE_COMM, ROLE_RUNTIME, ROLE_DATALOADER,
	    ROLE_CPUOP, NR_ROLES };

struct raw_step {
	int64_t start, end;
	const char *name;
	uint32_t index;
};

/* A Python frame (python_function without a module id, with_stack in
 * PyTorch 2.x): not a node; it gives the ops under it their call stack
 * (kineto_link.c). */
struct py_frame {
	uint32_t thread;
	uint32_t index;			/* file order: frames are sorted */
	int64_t start, end;
	const char *name;		/* interned */
};
_Static_assert(sizeof(struct py_frame) == 32, "a frame record is 32 bytes");

/*
 * The numbers of the threads of host events, runtimes and frames, given
 * by the model thread in the order it first meets each tid: a record
 * holds 4 bytes rather than 8, and the link indexes its threads rather
 * than hashing tids.  A hash map, linear in the tids however many.
 */
struct tid_numbers {
	struct key_index map;		/* tid -> number; any tid, NO_ID too */
	int64_t *tids;			/* number -> tid */
	size_t nr, alloc_tids;
	int64_t last_tid;		/* the last tid looked up, and its number: */
	uint32_t last;			/* a thread's events come in runs */
};

struct pipe;
struct unused;

/* A block of compact event messages from a reader to the model thread
 * (kineto_read.c); ORDINAL_BASE is added to the ordinals in it. */
struct block {
	char *data;
	size_t used, cap;
	uint32_t ordinal_base;
	bool is_mapped;			/* data from mmap(), not malloc() */
	struct block *next;
};

/* A warning of a reader that reads ahead (kineto_chunks.c), kept to be
 * given in file order: its kind, where its event starts, its text. */
struct kept_warning {
	const char *kind;
	uint64_t mark;
	char *msg;
};

struct kept_kind {
	const char *kind;
	uint64_t nr_kept, nr_more;	/* with a text; counted only */
};

/* What a reader that reads ahead has made, to hand over in file order. */
struct reader_out {
	struct block *first, *last;	/* full blocks, in order */
	struct kept_warning *warnings;
	size_t nr_warnings, alloc_warnings;
	struct kept_kind *kinds;
	size_t nr_kinds, alloc_kinds;
};

struct kineto {
	struct profile *p;
	struct diag *d;
	struct json j;

	struct host_rec *hosts;
	size_t nr_hosts, alloc_hosts;
	struct rt_rec *rts;
	size_t nr_rts, alloc_rts;
	struct dev_rec *devs;
	size_t nr_devs, alloc_devs;
	/* The External ids of each kind of record that 32 bits do not
	 * hold: few, or none. */
	struct wide_ids wide_hosts, wide_rts, wide_devs;
	/* The correlation of each of the profile's cuda_syncs, until
	 * link_devices() finds their runtime calls. */
	int64_t *sync_corrs;
	size_t nr_sync_corrs, alloc_sync_corrs;
	uint64_t *kernel_bits;		/* a bit by device record: a kernel */
	size_t alloc_kernel_bits;
	/* A bit by device record: launched inside a collective (an nccl: or
	 * gloo: op or annotation), by the launch's place (kineto_link.c);
	 * NULL when none was.  The steps' Communication is these kernels
	 * and those of a collective's External id. */
	uint64_t *comm_bits;

	struct ranges roles[NR_ROLES];
	/* A bit by role that had a range: the step columns shown, told
	 * after kineto_plan_steps() has carved and freed the lists. */
	unsigned roles_seen;
	struct raw_step *steps;
	size_t nr_steps, alloc_steps;
	int64_t cpu_min, cpu_max;	/* host extent: the step of a trace without steps */
	/* The breakdown kineto_plan_steps() works out for kineto_build_steps()
	 * to give the profile: each step's time in each role (Other last),
	 * NULL when there is no step; how many trailing steps it left out. */
	int64_t (*step_cats)[NR_ROLES + 1];
	size_t nr_steps_dropped;
	struct py_frame *frames;
	size_t nr_frames, alloc_frames;
	struct tid_numbers threads;

	/* External ids of collectives (nccl:/gloo: ops): their kernels are
	 * Communication, not Kernel.  Sorted after the parse. */
	int64_t *comm_ext;
	size_t nr_comm_ext, alloc_comm_ext;

	uint32_t nr_events;		/* every element of traceEvents */
	int64_t origin_ns;		/* the earliest event's ts (the reader's);
					   INT64_MAX: none */
	/* What the reader did not pass on, counted for Info. */
	uint64_t nr_gpu_step_copies;	/* gpu_user_annotation ProfilerStep#N */
	/* The device-side ranges (gpu_user_annotation), detached until the
	 * link hangs them by stream (kineto_link.c). */
	struct node **gpu_ranges;
	size_t nr_gpu_ranges, alloc_gpu_ranges;
	struct unused *unused;		/* by category and phase (kineto_read.c) */
	char *name_buf;			/* the event name being read, copied */
	size_t name_cap;
	/* The reading thread's copies of an event's text args, valid until
	 * the next event (kineto_read.c). */
	struct strbuf dims_text;	/* "Input Dims" as Python's str() */
	struct strbuf coll_text, dtype_text;	/* record_param_comms' names */
	struct strbuf stack_text;	/* "Call stack" */
	/* A counter event's args (kineto_read.c, read_counter_args()):
	 * their keys one after another in ctr_keys, and the key being
	 * passed on in ctr_key. */
	struct ctr_arg *ctr;
	size_t nr_ctr, alloc_ctr;
	struct strbuf ctr_keys, ctr_key;
	int64_t in_elems[64];		/* each input's element count ("Input Dims") */
	uint8_t in_size[64];		/* each input's element size ("Input type") */
	struct pipe *pipe;		/* events from the reading to the model thread */
	struct block *blk;		/* the block this reader fills */
	/* A reader of a chunk read ahead (kineto_chunks.c): its blocks and
	 * warnings are kept here, not passed on; NULL for the reader in
	 * file order. */
	struct reader_out *out;
	/* Called after each element of traceEvents when set: true stops the
	 * reading there (kineto_read_list()). */
	bool (*at_boundary)(struct kineto *k);
	void *boundary_ctx;
};

/* The record REF refers to (rec_ref()), NULL for 0. */
static inline struct rt_rec *rt_at(const struct kineto *k, uint32_t ref)
{
	return ref ? &k->rts[ref - 1] : NULL;
}

static inline struct dev_rec *dev_at(const struct kineto *k, uint32_t ref)
{
	return ref ? &k->devs[ref - 1] : NULL;
}

/* kineto_read.c */

/* Get ready to read the events of the array just opened (traceEvents,
 * or a legacy bare array) into records: the model thread starts. */
void kineto_events_start(struct kineto *k);
/* Wait until the model thread has taken every event read, and end it. */
void kineto_events_finish(struct kineto *k);
/* A deviceProperties array just opened, into the profile's devices and
 * Info. */
enum json_tok kineto_read_device_props(struct kineto *k);
/* A distributedInfo object just opened, into the profile's rank. */
enum json_tok kineto_read_dist_info(struct kineto *k);
/* Read the elements of traceEvents up to its end (JSON_ARR_END), a
 * failure, or k->at_boundary() saying stop (JSON_OBJ_END). */
enum json_tok kineto_read_list(struct kineto *k);
/* Queue the blocks from FIRST on for the model thread, their ordinals
 * counted from BASE; waits while the model is far behind. */
void kineto_hand_blocks(struct kineto *k, struct block *first, uint32_t base);
/* Have N empty blocks ready, made by this thread: the memory of a thread
 * that ends is not used again (glibc keeps an arena per thread). */
void kineto_reserve_blocks(struct kineto *k, size_t n);
/* Give the blocks from FIRST on back unused. */
void kineto_drop_blocks(struct kineto *k, struct block *first);
/* Pass on the block this reader was filling (to k->out or the model). */
void kineto_flush_reader(struct kineto *k);
/* Free the texts of OUT (not its blocks). */
void kineto_out_release(struct reader_out *out);
/* Add the counts of FROM, read after INTO's, to INTO, as if one reader
 * had counted both. */
void kineto_unused_merge(struct unused *into, const struct unused *from);
struct unused *kineto_unused_new(void);
/* Whether U met more new categories than it has room for: then merging
 * it would not be exact (kineto_chunks.c reads that chunk again). */
bool kineto_unused_overflowed(const struct unused *u);
/* Tell Info about the events read but not used; after the read. */
void kineto_report_unused(struct kineto *k);
/* Set the profile's time origin (its earliest event); after the read. */
void kineto_set_origin(struct kineto *k);

/* kineto_chunks.c */

/* The size of the chunks traceEvents is read in on two threads, or 0 to
 * read it on one: a small file, one CPU, or PROFTUI_PARSE_CHUNK=0. */
size_t kineto_chunk_bytes(const struct kineto *k);
/* kineto_read_list() on chunks of CHUNK_BYTES, two threads reading ahead
 * while this one hands their work over in file order. */
enum json_tok kineto_read_chunked(struct kineto *k, size_t chunk_bytes);

/* kineto_link.c */

/* The number of TID, given it if it has none yet (the model thread). */
uint32_t kineto_thread_number(struct tid_numbers *t, int64_t tid);
/* The number of TID, UINT32_MAX when it has none. */
uint32_t kineto_find_thread(const struct tid_numbers *t, int64_t tid);
/* Free the records and what the model made for the link: after the
 * link, or instead of it. */
void kineto_records_release(struct kineto *k);

/* Build the call tree of the profile from the records, and plan the
 * steps (kineto_plan_steps()), on a second thread when the trace is big
 * enough to pay for it: PROFTUI_LINK_THREADS=1 or 2 forces one or two. */
void kineto_link(struct kineto *k);

/* kineto_records.c */

/* EXT as 32 bits for the record at INDEX, kept in W when it is wide
 * (the model thread). */
uint32_t kineto_ext_narrow(struct wide_ids *w, size_t index, int64_t ext);
/* The External id of the record at INDEX, whose 32 bits are EXT. */
int64_t kineto_ext_id(const struct wide_ids *w, size_t index, uint32_t ext);
/* qsort(), but a no-op on arrays already in order -- Kineto writes each
 * thread's events sorted by start, so the check usually saves the sort --
 * and safe on empty (NULL) arrays, which qsort() is not. */
void kineto_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* kineto_steps.c */

/* Work out the steps and their categories from the records, once device
 * work is linked to its runtimes, whose links the step bounds follow.  It
 * touches neither the profile nor the diag, nor what kineto_link() writes
 * from then on: it runs beside the rest of it. */
void kineto_plan_steps(struct kineto *k);
/* Give the profile the steps planned, and the warning about them; after
 * kineto_link(). */
void kineto_build_steps(struct kineto *k);
/* Sort V, N indices of runtime records, by start, ties in file order. */
void kineto_sort_runtimes(const struct kineto *k, uint32_t *v, size_t n);
/* Append [START, END) to R. */
void ranges_add(struct ranges *r, int64_t start, int64_t end);
/* The same, or joined to R's last range when it starts inside it: for
 * lists that are used only once merged. */
void ranges_add_merging(struct ranges *r, int64_t start, int64_t end);
/* The same, and R merged whenever it has doubled: for such lists held
 * while the trace is read. */
void ranges_add_held(struct ranges *r, int64_t start, int64_t end);
/* Sort R and merge its overlapping and touching ranges. */
void ranges_merge(struct ranges *r);

#endif
