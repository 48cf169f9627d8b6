/* SPDX-License-Identifier: MIT */
/*
 * profile: one loaded profile -- a call tree, its steps, metadata and the
 * parse's warnings.  The profile's node pool owns its nodes and their
 * attributes, its arena every name, string and step reachable from it;
 * profile_release() frees them all at once.  The later runs of one file
 * (profile_add_run()) share the first run's names and pool.
 *
 * This is the API every parser and pane uses.  How nodes and attributes
 * lie in memory is node_pool.h's and node_pool.c's alone: this header
 * includes node_pool.h for its inline accessors, and nothing outside
 * the pool names what it defines (tests/lint.sh).
 *
 * A node is one call of something at one place in the tree or, for formats
 * that arrive already aggregated (key_averages tables, Paddle summaries,
 * trtexec layers), many calls at that place.  Times are int64 nanoseconds
 * from parse to print; floats appear only when a number is formatted.
 *
 * Nothing here knows about files, curses or regular expressions: parsers/
 * fill a profile, tui/ derives panes from it with aggregate.h.
 */
#ifndef MODEL_PROFILE_H
#define MODEL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "bounds.h"
#include "callstack.h"
#include "strtab.h"

/* X(ENUM, "name"): the name appears in --print tree output and the Tree pane. */
#define NODE_KINDS(X) \
	X(ROOT, "root") \
	X(THREAD, "thread") \
	X(STEP, "step") \
	X(OP, "op") \
	X(ANNOTATION, "annotation") \
	X(MODULE, "module") \
	X(RUNTIME, "runtime") \
	X(KERNEL, "kernel") \
	X(MEMCPY, "memcpy") \
	X(MEMSET, "memset") \
	X(PHASE, "phase") \
	X(USER, "user") \
	X(LAYER, "layer") \
	X(TACTIC, "tactic") \
	X(SOURCE, "source") \
	X(GROUP, "group")

enum node_kind {
#define X(e, s) NODE_##e,
	NODE_KINDS(X)
#undef X
	NR_NODE_KINDS
};

const char *node_kind_name(enum node_kind kind);
/* Kernels, memcpy and memset: work that ran on a device. */
bool node_kind_is_device(enum node_kind kind);

/* Node flags. */
enum {
	NODE_NAME_TRUNCATED = 1 << 0,	/* the producer cut the name ("...") */
	NODE_DISTINCT = 1 << 1,		/* a pre-aggregated row: never merged
					   with other rows of the same name */
	NODE_NOT_A_ROW = 1 << 2,	/* shapes the tree, but is not a row
					   of the Operators or Kernels pane
					   (tb_plugin's rule for ops) */
	NODE_UNLINKED = 1 << 3,		/* device work no op claimed */
	NODE_COLLECTIVE = 1 << 4,	/* communication (nccl/gloo) */
	NODE_NEGATIVE = 1 << 5,		/* a time of this node came out below
					   zero (overlapping children, a clock
					   step): kept as the file implies it,
					   warned about and marked in panes */
	NODE_DEVICE_RANGE = 1 << 6,	/* a range on a device's stream (a
					   GPU-side annotation): its time is
					   device time, its lane the stream's
					   (its launch attribute) */
};


/*
 * Values the file itself states for a row, where it states them: a
 * key_averages "Self CUDA %" or "CUDA time avg", a Paddle "Ratio(%)".
 * Panes show these rather than recomputing them from rounded cells (a
 * row of one node only; a merged row computes its own).  Attributes with
 * these keys are not shown as extra columns.  Percentages are ATTR_DOUBLE
 * in 0..100; means are ATTR_NS.
 */
#define ATTR_FILE_PREFIX "file_"
#define ATTR_FILE_DEVICE_SELF_PCT "file_device_self_pct"	/* of all device self time */
#define ATTR_FILE_DEVICE_TOTAL_PCT "file_device_total_pct"	/* kernels: of all kernel time */
#define ATTR_FILE_HOST_SELF_PCT "file_host_self_pct"
#define ATTR_FILE_HOST_TOTAL_PCT "file_host_total_pct"
#define ATTR_FILE_DEVICE_MEAN "file_device_mean_ns"	/* device total per call */
#define ATTR_FILE_HOST_MEAN "file_host_mean_ns"	/* host total per call */
/* A row of an nsys stats report of host calls or ranges (cuda_api_sum,
 * osrt_sum, nvtx_sum): its Time % (of its report's total), Avg, Med and
 * StdDev as printed, to the ns, and the report's name (model/name_stats.h
 * shows them for a row of one node). */
#define ATTR_FILE_SHARE_PCT "file_share_pct"
#define ATTR_FILE_MEAN "file_mean_ns"
#define ATTR_FILE_MEDIAN "file_median_ns"
#define ATTR_FILE_STDDEV "file_stddev_ns"
#define ATTR_FILE_REPORT "file_report"
/* A copy or set that is a row of a printed report (nsys stats'
 * cuda_gpu_mem_size_sum): the least and greatest bytes of one copy, as
 * printed (model/mem_bw.h reads them). */
#define ATTR_COPY_MIN_BYTES "min_size_bytes"
#define ATTR_COPY_MAX_BYTES "max_size_bytes"

/* ATTR_STACK: a Python call stack (callstack.h), key "call_stack". */
enum attr_type { ATTR_INT, ATTR_DOUBLE, ATTR_STRING, ATTR_NS, ATTR_LAUNCH, ATTR_STACK };

struct launch;
struct rank_local;
struct rank_analysis;

/*
 * An extra attribute of a node or a step: input shapes, FLOPs,
 * precision, tactic, grid...  Its value is the member of a->v that
 * attr_type() says; the rest of struct attr is the pool's.  A node's or
 * step's attributes are a struct attr_list: read them from the first
 * (node_attrs(), attr_list_first()) with attr_next(), attr_key() and
 * attr_type(), or find one with attr_find(); write them with attr_set_*().
 */
struct attr;
struct attr_list;

/* ---------------------------------------------------------------------
 * What a trace holds beside the call tree.  Kineto fills all of it; the
 * other formats fill what they have (trex: devices).  Arrays are heap
 * memory profile_release() frees; strings belong to the profile.
 */

/* How a kernel was launched (Kineto's kernel args).  The many launches
 * of one configuration share one interned copy (profile_launch()); a
 * kernel node points at it through its "launch" attribute. */
struct launch {
	int32_t device, stream;		/* -1: unknown */
	int32_t grid[3], block[3];	/* 0: unknown */
	int32_t registers_per_thread;	/* -1: unknown */
	int64_t shared_memory_bytes;	/* -1: unknown */
	double blocks_per_sm;		/* NaN: unknown */
	double occupancy_pct;		/* est. achieved occupancy; NaN: unknown */
};

/* The kinds of device PyTorch puts memory on: c10's DeviceType, by the
 * numbers a [memory] event's "Device Type" gives (c10/core/DeviceType.h;
 * 8 was ORT and MSNPU before MAIA). */
enum mem_device_type {
	DEVICE_CPU, DEVICE_CUDA, DEVICE_MKLDNN, DEVICE_OPENGL, DEVICE_OPENCL, DEVICE_IDEEP,
	DEVICE_HIP, DEVICE_FPGA, DEVICE_MAIA, DEVICE_XLA, DEVICE_VULKAN, DEVICE_METAL, DEVICE_XPU,
	DEVICE_MPS, DEVICE_META, DEVICE_HPU, DEVICE_VE, DEVICE_LAZY, DEVICE_IPU, DEVICE_MTIA,
	DEVICE_PRIVATEUSE1,
	NR_DEVICE_TYPES
};

/* Where memory lives: a kind of device and which of them. */
struct mem_device {
	int32_t index;			/* -1 for the CPU (there is one), else >= 0 */
	uint8_t type;			/* enum mem_device_type */
};

/* A [memory] instant event (profile_memory=True): an allocation (bytes >
 * 0) or a free (bytes < 0) on a device. */
struct mem_event {
	int64_t ts_ns;
	int64_t bytes;
	int64_t total_allocated, total_reserved;	/* after it; -1: absent */
	uint64_t addr;			/* MEM_NO_ADDR: absent (PyTorch < 1.10) */
	struct mem_device device;
	int64_t tid;			/* the thread it happened on */
	const struct node *op;		/* the innermost host node (op, step,
					   module...) of its thread whose
					   interval [start, end) holds it --
					   torch-tb-profiler's rule -- or NULL */
};

#define MEM_NO_ADDR UINT64_MAX

/* One device of the machine (Kineto deviceProperties, trex metadata). */
struct device_info {
	int32_t id;
	const char *name;
	int64_t total_memory_bytes;	/* -1: unknown */
	int32_t cc_major, cc_minor;	/* compute capability; -1: unknown */
	int32_t num_sms;		/* -1: unknown, and the rest likewise */
	int32_t max_threads_per_sm, max_threads_per_block, regs_per_sm, warp_size;
	int64_t shared_mem_per_sm_bytes;
};

/* Which rank of a distributed job the trace is (Kineto distributedInfo). */
struct dist_info {
	bool present;
	const char *backend;		/* "nccl", "gloo" */
	int32_t rank, world_size;	/* -1: unknown */
};

/* A node's four times, by which node_time() reads them. */
enum node_time {
	NODE_HOST_SELF,
	NODE_HOST_TOTAL,
	NODE_DEVICE_SELF,
	NODE_DEVICE_TOTAL,
	NR_NODE_TIMES
};

/* A node's start when the file gives it none (a table's row, a thread):
 * below any time a file may hold (BOUND_ABS_TS_NS), so that 0 and
 * negative times are times like any other.  A node is made untimed. */
#define NS_UNTIMED INT64_MIN

/* How many calls a node stands for, and the shortest and longest of them
 * (-1: unknown): node_counts(). */
struct node_counts {
	uint64_t calls;
	int64_t min_ns, max_ns;
};

/* ---------------------------------------------------------------------
 * Nodes.  A node is one call of something at one place in the tree (or
 * many, for a pre-aggregated row).  Read its start_ns, kind and flags as
 * fields; everything else through the functions below, which hide how a
 * profile's pool of nodes lays them out (node_pool.h, private).  The
 * accessors are inline: a walk of a big trace visits millions of nodes.
 */
struct node;
struct profile;

/* N's parent, first child and next sibling; NULL: none. */
static inline struct node *node_parent(const struct node *n);
static inline struct node *node_first_child(const struct node *n);
static inline struct node *node_next(const struct node *n);
/* Whether N has a parent (is in a tree), children, a next sibling: the
 * same as the three above not being NULL, for less. */
static inline bool node_has_parent(const struct node *n);
static inline bool node_has_children(const struct node *n);
static inline bool node_has_next(const struct node *n);
/* N's name, interned: equal names are equal pointers. */
static inline const char *node_name(const struct node *n);
/* N's id: its number in the tree's depth-first order, 0 (the root) to
 * profile.nr_nodes - 1, which panes key their state by.  Only once
 * profile_finish() has numbered the tree. */
static inline uint32_t node_id(const struct node *n);
/* Whether N has a place in time: every reader of start_ns asks. */
static inline bool node_is_timed(const struct node *n);

/*
 * N's handle: a number that stands for N in its profile (node_by_handle())
 * in 4 bytes where a pointer takes 8 -- for a builder that keeps one for
 * each of millions of records.  0 for NULL; below node_handle_bound() of
 * its profile; a node made later has a greater handle than one made
 * before it, whatever its place in the tree.
 */
static inline uint32_t node_handle(const struct node *n);

/* Ask for N (both its cache lines) / N's time T to be read early: a pass
 * over nodes scattered in memory overlaps their misses. */
static inline void node_prefetch(const struct node *n);
static inline void node_prefetch_time(const struct node *n, enum node_time t);

/* N's attributes: the first, or NULL; and the list itself, to write with
 * attr_set_*(). */
static inline struct attr *node_attrs(const struct node *n);
static inline struct attr_list *node_attr_list(struct node *n);
/* The attribute after A in its list, NULL after the last; A's key,
 * interned; its type, which says which member of A->v holds its value. */
static inline struct attr *attr_next(const struct attr *a);
static inline const char *attr_key(const struct attr *a);
static inline enum attr_type attr_type(const struct attr *a);
static inline bool attr_list_is_empty(const struct attr_list *list);

/*
 * How many calls a node stands for, and the shortest and longest of them
 * (-1: unknown).  A trace's event is one call and a structure node (root,
 * thread, group) none; only pre-aggregated rows (a key_averages table, a
 * summary, Paddle, MegEngine, trtexec, tb-json) say more, and only those
 * cost a record (node_pool.c): a node says which in a byte.  The
 * accessors take the profile rather than a node keeping a pointer to its
 * record, which would cost every node 8 bytes; a read of the common case
 * is that byte and nothing else (P is not even read).  P is the profile
 * (the run) that made N.
 */
static inline uint64_t node_calls(const struct profile *p, const struct node *n);
static inline int64_t node_min_ns(const struct profile *p, const struct node *n);
static inline int64_t node_max_ns(const struct profile *p, const struct node *n);
/* All three at once: one lookup for a node with a record. */
static inline struct node_counts node_counts(const struct profile *p, const struct node *n);
/* Set N's calls (the extremes are kept).  0 or 1 call with unknown
 * extremes takes no record: a trace's event costs a flag. */
static inline void node_set_calls(struct profile *p, struct node *n, uint64_t calls);

/*
 * A node's times, in nanoseconds: host self and total, device self and
 * total.  A node holds each in 32 bits, and the few that do not fit (a
 * thread's total, a hostile file's 1e18) whole in its profile: as with
 * node_calls(), the common read is the node's field alone, and P is the
 * profile (the run) that made N.  node_set_time() stores any value.
 */
static inline int64_t node_time(const struct profile *p, const struct node *n, enum node_time t);
static inline void node_set_time(struct profile *p, struct node *n, enum node_time t, int64_t ns);

#include "node_pool.h"	/* the layout behind the accessors above: private */

static inline bool node_is_timed(const struct node *n)
{
	return n->start_ns != NS_UNTIMED;
}

/* A step: a ProfilerStep, a training iteration, an inference. */
struct step {
	const char *name;		/* as the file names it: "5" */
	int64_t start_ns, end_ns;	/* 0, 0 when the format gives no interval */
	int64_t total_ns;
	int64_t *cat_ns;		/* profile->nr_step_cats values, -1 = none */
	struct attr_list attrs;		/* extra per-step values (loss, lr, ips):
					   attr_list_first() */
};

/* A counted warning: one line per kind of problem, as the Info pane shows it. */
struct warning {
	const char *text;		/* "kernels not linked to any op" */
	uint64_t count;
	struct warning *next;
};

/* Metadata: ordered (section, key, value) lines for the Info pane. */
struct meta {
	const char *section;		/* "device", "trace", "recommendations" */
	const char *key;
	const char *value;
	struct meta *next;
};

struct profile {
	struct arena arena;		/* this run's strings, steps, metadata */
	/* Names and nodes: the first run's, which the later runs of its file
	 * share (profile_add_run()), so that a run costs what it holds -- a
	 * table and slabs of its own made a log of 100,000 small tables cost
	 * gigabytes.  Heap; the names' strings lie in the first run's arena. */
	struct strtab *names;
	bool owns_names_and_pool;	/* false in the later runs of a file */
	struct node *root;		/* synthetic "<all>" */
	const char *path;		/* as given on the command line */
	const char *format;		/* parser name that filled it */
	uint32_t nr_nodes;
	bool has_device_time;		/* some node has device time */
	bool has_timeline;		/* some node is timed (steps can filter) */
	bool has_time_origin;
	int64_t time_origin_ns;		/* when the recording starts (a trace's
					   earliest event): times "since the
					   profiler started" count from it */

	const char **step_cats;		/* category names, in order */
	size_t nr_step_cats;
	struct step *steps;		/* heap array, profile_release() frees */
	size_t nr_steps, alloc_steps;

	struct meta *meta, *meta_tail;
	struct warning *warnings, *warnings_tail;

	struct device_info *devices;	/* heap */
	size_t nr_devices, alloc_devices;
	struct mem_event *mem_events;	/* heap, in the file's order */
	size_t nr_mem_events, alloc_mem_events;
	struct dist_info dist;
	struct launch_index *launches;	/* profile_launch()'s interning */
	/* The device and stream of each copy and set that the file gives
	 * them for (a kernel's are its launch): profile_copy_stream(). */
	struct copy_stream *copy_streams;	/* heap, by node handle */
	size_t nr_copy_streams, alloc_copy_streams;
	bool copy_streams_unsorted;
	/* Kineto's cuda_sync events, kept beside the tree (no node: no pane
	 * but the critical path reads them): profile_add_cuda_sync(). */
	struct cuda_sync *cuda_syncs;	/* heap, in the file's order */
	size_t nr_cuda_syncs, alloc_cuda_syncs;
	/* Counter samples ("ph":"C"), one per numeric arg, beside the tree
	 * (no node): profile_add_counter().  model/counters.h makes series. */
	struct counter_rec *counter_recs;	/* heap, in the file's order */
	size_t nr_counter_recs, alloc_counter_recs;
	/* The profiler's own span ("PyTorch Profiler (0)", cat Trace) when
	 * the trace has one: the GPU utilization buckets' range. */
	bool has_profiler_span;
	int64_t profiler_start_ns, profiler_end_ns;
	struct call_stacks stacks;	/* call_stack_intern()'s */
	/* A summary (parsers/summary/summary.c) holds aggregated tables only: no call
	 * tree, no timeline.  Its Distributed figures (model/distributed.h)
	 * are stored, in the arena; NULL: worked out from the tree. */
	bool is_summary;
	/* A summary whose op records carry their input shapes (version 3
	 * on): the Operators pane grouped by shape is the trace's. */
	bool summary_has_shapes;
	struct rank_local *rank_local;
	/* A summary's per-rank analyses (model/rank_analysis.h), in the
	 * arena; NULL: worked out from the tree (or a summary before
	 * version 4, which has none). */
	struct rank_analysis *rank_analysis;
	/* Sums of times that passed SUM_CAP (model/bounds.h) and hold the
	 * cap: the loader warns of them (profile_note_capped()).  Atomic:
	 * the link sums on two threads. */
	uint64_t nr_capped_sums;
	/* --merge: every file given joins this profile, whatever it is (a
	 * parser that joins files by what they share refuses a file that
	 * shares nothing only when this is false). */
	bool sums_whole;
	/* Private to the pool (node_pool.h): P's pool of nodes (the first
	 * run's) and what it keeps for this run -- the records that do not
	 * fit in a node, and hints for building and walking the tree. */
	struct node_pool *pool;
	struct pool_books books;
	/* What a parser keeps between the files of one family that it
	 * joins after each (rocprof's correlation ids), freed with FREE by
	 * profile_finish() and profile_release(); NULL: nothing. */
	void *family_state;
	void (*family_state_free)(void *state);

	/* Several runs in one file (two tables, two tb_plugin runs): the
	 * first run is the profile the caller owns; later runs hang here,
	 * sharing its names and pool, and profile_release() frees them too.
	 * (Runs chained from other files, profset.h, own theirs.) */
	struct profile *next_run;
	struct profile *last_run;	/* in the first run: the last one */
	const char *run_where;		/* "FILE:LINE" where this run starts */
	const char *run_title;		/* optional: "sorted by CUDA total" */
};

void profile_init(struct profile *p, const char *path);
void profile_release(struct profile *p);
/* Append a new run after the last run of FIRST and return it; WHERE is
 * copied ("file:line").  The run interns into FIRST's names and makes its
 * nodes in FIRST's pool: it is of FIRST's file. */
struct profile *profile_add_run(struct profile *first, const char *where);
/* The Nth run (0-based), or NULL. */
struct profile *profile_run(struct profile *first, size_t n);
size_t profile_nr_runs(const struct profile *first);

const char *profile_intern(struct profile *p, const char *s, size_t n);
const char *profile_strdup(struct profile *p, const char *s);

/* A new node of KIND called NAME (interned by the caller or here), appended
 * as the last child of PARENT (NULL: detached; attach it later). */
struct node *node_new(struct profile *p, struct node *parent,
		      enum node_kind kind, const char *name, size_t name_len);
/* The same with NAME already interned in P (no second hash of the name). */
struct node *node_new_interned(struct profile *p, struct node *parent,
			       enum node_kind kind, const char *name);
/* Rename N to NAME, interned in P (as node_new_interned()'s). */
void node_set_name(struct profile *p, struct node *n, const char *name);
/* Append a detached node as PARENT's last child: constant time on the
 * whole (node_append's tails above), however the appends interleave. */
void node_append(struct profile *p, struct node *parent, struct node *child);
/* The same for a builder that knows PARENT's last child, PREV (NULL: it
 * has none): a Kineto trace's millions of nodes without a table look-up
 * each.  Returns CHILD, PARENT's new last child. */
struct node *node_append_after(struct node *parent, struct node *prev, struct node *child);
/* PARENT's last child (NULL: none), as node_append() finds it. */
struct node *node_last_child(struct profile *p, struct node *parent);
/* The child of PARENT called NAME with KIND, created if absent; NAME is an
 * interned pointer.  Linear in the number of children. */
struct node *node_child(struct profile *p, struct node *parent,
			enum node_kind kind, const char *name);
/* Make the detached CHILD PARENT's first child. */
void node_prepend(struct node *parent, struct node *child);
/* Unlink N from its parent (O(siblings)).  Whatever takes a node out of
 * its parent's list clears its parent too: node_append() relies on it. */
void node_unlink(struct node *n);
/* Detach all of PARENT's children (each then has no parent and no next
 * sibling), to append them again in another order. */
void node_detach_children(struct node *parent);
/* N's only child leaves the tree (no parent, no children) and its
 * children become N's: a node that absorbs a duplicate of itself. */
void node_fold_only_child(struct node *n);

/* The node of P whose handle is HANDLE (node_handle()); NULL for 0. */
static inline struct node *node_by_handle(const struct profile *p, uint32_t handle);
/* A bound above the handle of every node P's pool has made so far. */
uint64_t node_handle_bound(const struct profile *p);
/* The nearest ancestor (not N itself) of KIND, or NULL. */
struct node *node_ancestor(const struct node *n, enum node_kind kind);

/* Set N's shortest and longest call (the calls are kept); a pair that is
 * no pair (one of them unknown, or the least above the greatest) is kept
 * as unknown. */
void node_set_minmax(struct profile *p, struct node *n, int64_t min_ns, int64_t max_ns);

/* P's nodes are nearly all pre-aggregated rows with calls of their own (a
 * 1,000-rank set of summaries holds millions): each is made with room for
 * its record beside it.  Before the first node_new() of P's file; its
 * later runs inherit it. */
void profile_set_counts_per_node(struct profile *p);

/* One more of P's sums passed SUM_CAP: what every builder of a sum of a
 * profile's times calls when sum_add() says so. */
static inline void profile_note_capped(struct profile *p)
{
	__atomic_fetch_add(&p->nr_capped_sums, 1, __ATOMIC_RELAXED);
}

/* *ACC += D, a sum of P's times: capped at SUM_CAP, and counted. */
static inline void profile_sum(struct profile *p, int64_t *acc, int64_t d)
{
	if (!sum_add(acc, d))
		profile_note_capped(p);
}

/* Add D to time T of N (a sum of children, of a thread's top nodes),
 * capped as profile_sum(). */
static inline void node_add_time(struct profile *p, struct node *n, enum node_time t, int64_t d)
{
	int64_t v = node_time(p, n, t);

	profile_sum(p, &v, d);
	node_set_time(p, n, t, v);
}

static inline int64_t node_host_self(const struct profile *p, const struct node *n)
{
	return node_time(p, n, NODE_HOST_SELF);
}

static inline int64_t node_host_total(const struct profile *p, const struct node *n)
{
	return node_time(p, n, NODE_HOST_TOTAL);
}

static inline int64_t node_device_self(const struct profile *p, const struct node *n)
{
	return node_time(p, n, NODE_DEVICE_SELF);
}

static inline int64_t node_device_total(const struct profile *p, const struct node *n)
{
	return node_time(p, n, NODE_DEVICE_TOTAL);
}

static inline void node_set_host_self(struct profile *p, struct node *n, int64_t ns)
{
	node_set_time(p, n, NODE_HOST_SELF, ns);
}

static inline void node_set_host_total(struct profile *p, struct node *n, int64_t ns)
{
	node_set_time(p, n, NODE_HOST_TOTAL, ns);
}

static inline void node_set_device_self(struct profile *p, struct node *n, int64_t ns)
{
	node_set_time(p, n, NODE_DEVICE_SELF, ns);
}

static inline void node_set_device_total(struct profile *p, struct node *n, int64_t ns)
{
	node_set_time(p, n, NODE_DEVICE_TOTAL, ns);
}

static inline void node_add_host_self(struct profile *p, struct node *n, int64_t d)
{
	node_add_time(p, n, NODE_HOST_SELF, d);
}

static inline void node_add_host_total(struct profile *p, struct node *n, int64_t d)
{
	node_add_time(p, n, NODE_HOST_TOTAL, d);
}

static inline void node_add_device_self(struct profile *p, struct node *n, int64_t d)
{
	node_add_time(p, n, NODE_DEVICE_SELF, d);
}

static inline void node_add_device_total(struct profile *p, struct node *n, int64_t d)
{
	node_add_time(p, n, NODE_DEVICE_TOTAL, d);
}

/* Attributes: KEY is a C string literal or interned; values are copied.
 * LIST is a list of P's (a node's of P, a step's of P, or one a builder
 * of P keeps; zeroed: empty). */
struct attr *node_attr(const struct node *n, const char *key);
const struct attr *attr_find(const struct attr *list, const char *key);
/* The first attribute of LIST, a list of P's, or NULL. */
struct attr *attr_list_first(const struct profile *p, const struct attr_list *list);
/* Sort LIST, a list of P's, by CMP, keeping the order of equals. */
void attr_list_sort(const struct profile *p, struct attr_list *list,
		    int (*cmp)(const struct attr *a, const struct attr *b));
void attr_set_int(struct profile *p, struct attr_list *list, const char *key, int64_t v);
void attr_set_double(struct profile *p, struct attr_list *list, const char *key, double v);
void attr_set_ns(struct profile *p, struct attr_list *list, const char *key, int64_t ns);
void attr_set_str(struct profile *p, struct attr_list *list, const char *key, const char *s, size_t n);

/* The kernel launch of node N (its "launch" attribute), or NULL. */
const struct launch *node_launch(const struct node *n);
/* The profile's one copy of the launch configuration L. */
const struct launch *profile_launch(struct profile *p, const struct launch *l);
/* A launch with every field unknown, to fill in. */
void launch_init(struct launch *l);
void attr_set_launch(struct profile *p, struct attr_list *list, const struct launch *l);
/* The call stack S (callstack.h) as *LIST's "call_stack". */
void attr_set_stack(struct profile *p, struct attr_list *list, const struct call_stack *s);
/* Set KEY to S, a string already interned in P (no copy: the many ops of
 * one input shape share it). */
void attr_set_interned(struct profile *p, struct attr_list *list, const char *key, const char *s);

/* Copies and sets: where they ran, kept beside the tree (a launch
 * attribute would give them Timeline lanes and Tree columns of their
 * own).  The loader sets it; profile_finish() sorts the table. */
struct copy_stream {
	uint32_t handle;		/* node_handle() of the copy or set */
	int32_t device, stream;
	int64_t bytes;			/* its "bytes" arg; -1: not given */
	double gbps;			/* its "memory bandwidth (GB/s)"; NaN */
};

void profile_set_copy_stream(struct profile *p, const struct node *n, int32_t device,
			     int32_t stream);
/* The same with the bytes moved or set and the bandwidth the file gives
 * (-1, NaN: not given). */
void profile_set_copy(struct profile *p, const struct node *n, int32_t device, int32_t stream,
		      int64_t bytes, double gbps);
/* What finished P keeps of copy or set N, or NULL.  O(log copies). */
const struct copy_stream *profile_copy(const struct profile *p, const struct node *n);
/* Whether finished P knows copy or set N's stream: then *DEVICE (-1:
 * unknown) and *STREAM.  O(log copies). */
bool profile_copy_stream(const struct profile *p, const struct node *n, int32_t *device,
			 int32_t *stream);

/* A synchronisation Kineto recorded on the device side (cat cuda_sync):
 * which wait, where, when, and the runtime call that waited. */
enum cuda_sync_kind {
	CUDA_SYNC_STREAM,		/* "Stream Sync": cudaStreamSynchronize */
	CUDA_SYNC_CONTEXT,		/* "Context Sync": cudaDeviceSynchronize */
	CUDA_SYNC_EVENT,		/* "Event Sync": cudaEventSynchronize */
	CUDA_SYNC_WAIT_EVENT,		/* "Stream Wait Event": cudaStreamWaitEvent */
	CUDA_SYNC_OTHER,		/* another name */
};

struct cuda_sync {
	int64_t start_ns, dur_ns;
	int64_t wait_corr;		/* a wait-event's record correlation; -1 */
	uint32_t runtime;		/* node_handle() of its runtime call; 0 */
	int32_t device, stream;		/* -1: not given (a context sync's) */
	int32_t wait_stream;		/* a wait-event's stream waited on; -1 */
	uint8_t kind;			/* enum cuda_sync_kind */
};

/* Add a copy of S to P's cuda_syncs. */
void profile_add_cuda_sync(struct profile *p, const struct cuda_sync *s);

/* One sample of a counter event ("ph":"C"): the event's name and pid,
 * one of its args' keys and that arg's value, finite (the parser keeps
 * no other). */
struct counter_rec {
	const char *name, *key;		/* interned */
	int64_t pid;
	int64_t ts_ns;
	double value;
};

/* Add a copy of R to P's counter_recs. */
void profile_add_counter(struct profile *p, const struct counter_rec *r);

/* A new device (every field unknown but ID) / memory event (zeroed, sizes
 * -1, device -1, no address), appended. */
struct device_info *profile_add_device(struct profile *p, int32_t id);
struct mem_event *profile_add_mem_event(struct profile *p);
/* The device with ID, or NULL. */
const struct device_info *profile_device(const struct profile *p, int32_t id);

/* Steps.  profile_set_step_cats() copies NAMES; call it before adding steps. */
void profile_set_step_cats(struct profile *p, const char *const *names, size_t n);
/* A new step with every category -1 (absent); NAME is copied. */
struct step *profile_add_step(struct profile *p, const char *name, size_t name_len);
/* The index of the category called NAME, or -1. */
int profile_step_cat(const struct profile *p, const char *name);
/* P's step called NAME (as the file names it), or NULL. */
const struct step *profile_step_named(const struct profile *p, const char *name);

/* Metadata lines, copied, shown in insertion order. */
void profile_meta(struct profile *p, const char *section, const char *key, const char *value);
/* The value of SECTION/KEY, or NULL. */
const char *profile_meta_get(const struct profile *p, const char *section, const char *key);

/* Count one warning of kind TEXT (copied on first sight, matched by text). */
void profile_warn(struct profile *p, const char *text, uint64_t count);

/* Renumber node ids densely in depth-first order and set nr_nodes and
 * has_device_time.  Parsers call it once, when they are done. */
void profile_finish(struct profile *p);

/* The top nodes of finished P (each thread's children), in the tree's
 * order: how many, and the Ith.  Each heads the run of ids of its
 * subtree, so a walk of a big tree can split it among threads. */
size_t profile_nr_top_nodes(const struct profile *p);
struct node *profile_top_node(const struct profile *p, size_t i);

/* Depth-first walk: calls FN on every node under (and including) FROM;
 * FN returns false to skip a node's children. */
void node_walk(struct node *from, bool (*fn)(struct node *n, void *ctx), void *ctx);
/* The walk of P's whole tree for FN that does nothing on nodes starting
 * outside [LO, HI): a thread's top subtrees with no start in it are
 * left out (after profile_finish(); before it, the whole walk). */
void node_walk_starting(const struct profile *p, int64_t lo, int64_t hi,
			bool (*fn)(struct node *n, void *ctx), void *ctx);

/* Defined here, where struct profile is whole. */
static inline struct node *node_by_handle(const struct profile *p, uint32_t handle)
{
	return pool_node_by_handle(p->pool, handle);
}

#endif
