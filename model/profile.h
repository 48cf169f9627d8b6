/* SPDX-License-Identifier: MIT */
/*
 * profile: one loaded profile -- a call tree, its steps, metadata and the
 * parse's warnings.  The profile's node pool owns its nodes and their
 * attributes, its arena every name, string and step reachable from it;
 * profile_release() frees them all at once.  The later runs of one file
 * (profile_add_run()) share the first run's names and pool.
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

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "bounds.h"
#include "callstack.h"
#include "keyindex.h"
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

/* What a node's calls_state says (node_calls()). */
enum {
	NODE_NO_CALL,			/* structure: root, thread, group */
	NODE_ONE_CALL,			/* one call, extremes unknown */
	NODE_COUNTED,			/* calls and extremes in the node's
					   record (node_counts()) */
	NODE_CALLS_STATE = 3,		/* the bits of the three above */
	NODE_ROOM = 0x80,		/* the node was made with room for its
					   record right after it */
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

/* ATTR_STACK: a Python call stack (callstack.h), key "call_stack". */
enum attr_type { ATTR_INT, ATTR_DOUBLE, ATTR_STRING, ATTR_NS, ATTR_LAUNCH, ATTR_STACK };

struct launch;
struct rank_local;

/*
 * An extra attribute: input shapes, FLOPs, precision, tactic, grid...  A
 * trace has a million of them, so an attribute is 16 bytes: its key is the
 * key's number among the profile's names, it refers to the next of its
 * list as nodes do to theirs, and its type lies in its slab's head
 * (struct attr_slab).  A list is the reference of its first attribute, 0
 * when empty.  Read them with attr_first() or node_attrs(), attr_next(),
 * attr_key() and attr_type().
 */
struct attr {
	uint32_t key_number;	/* of an interned snake_case key: "input_shapes" */
	uint32_t next_ref;	/* 0: the last */
	union {
		int64_t i;	/* ATTR_INT, and ATTR_NS in nanoseconds */
		double d;
		const char *s;	/* arena string */
		const struct launch *launch;	/* ATTR_LAUNCH, key "launch" */
		const struct call_stack *stack;	/* ATTR_STACK */
	} v;
};

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

/* A node's four times, the index of each in node.time32[]. */
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

/*
 * A node refers to its parent, first child and next sibling, and to its
 * attributes, by a 32-bit reference (struct node_slab below), and to its
 * name by the name's number in the profile's names, not by pointers: a
 * node is 48 bytes, and a trace has millions.  Read them with
 * node_parent(), node_first_child(), node_next(), node_attrs() and
 * node_name(); the tree's builders in profile.c write them.  Its number
 * in the tree's order, node_id(), lies beside it in its slab.
 */
struct node {
	int64_t start_ns;		/* absolute start; NS_UNTIMED: none */
	/* Nanoseconds, by enum node_time: node_host_self() and the rest
	 * below (NODE_TIME_WIDE: the value is in the profile's table). */
	int32_t time32[NR_NODE_TIMES];
	uint32_t name_number;		/* strtab_string() of profile.names */
	uint32_t parent_ref, child_ref, next_ref;	/* 0: none */
	uint32_t attrs;			/* a list: node_attrs() */
	uint8_t kind;			/* enum node_kind */
	uint8_t flags;			/* NODE_* flags */
	/* NODE_NO_CALL, NODE_ONE_CALL or NODE_COUNTED, and NODE_ROOM: the
	 * calls and their extremes are node_calls() and the rest below. */
	uint8_t calls_state;
};

/*
 * Nodes and attributes live in slabs: aligned blocks of SLAB_BYTES whose
 * head holds what the accessors need to turn a reference into a node or
 * an attribute -- the pool of the profile that made it -- so that a node
 * alone leads to its parent, as a pointer did, with no profile to pass.
 * A reference is the slab's number shifted left past its places, plus
 * the place, counted from the first after the head, so 0 means none.
 * What a slab's places leave of its bytes is never touched until used,
 * so never in memory: there a node slab keeps its nodes' ids (numbered by
 * profile_finish(), after the load's peak) and an attribute slab their
 * types.  The pool's directories never move: a thread may follow links
 * while another makes nodes (the link's second thread).
 */
#define SLAB_BYTES ((size_t)64 << 10)
#define NODE_SLAB_SHIFT 10
#define NODE_SLAB_NODES (1u << NODE_SLAB_SHIFT)	/* places, the head's too */
#define ATTR_SLAB_SHIFT 12
#define ATTR_SLAB_PLACES (1u << ATTR_SLAB_SHIFT)
/* The places an attribute slab's head takes: the pool, the slab's number
 * and a type for each place after them. */
#define ATTR_HEAD_PLACES 242u

struct node_slab {
	const struct node_pool *pool;
	/* The calls of each node by its place (NODE_ROOM), where the
	 * profile's nodes all have some (profile.counts_follow_nodes);
	 * else NULL. */
	struct node_counts *counts;
	uint32_t number;
};

struct attr_slab {
	const struct node_pool *pool;
	uint32_t number;
	uint8_t types[];		/* enum attr_type, by place */
};

/* A directory of slabs: two levels of pointers, the second made as
 * needed, room for every 32-bit reference.  Nothing in it past the slabs
 * made is read, so none of it is zeroed: a small profile touches a page
 * of it. */
#define SLAB_DIR_SHIFT 10
#define SLAB_DIR_PAGES ((1u << (32 - NODE_SLAB_SHIFT)) >> SLAB_DIR_SHIFT)

/* Slabs are carved from mappings of their own, each twice as many slabs
 * as the last up to SLAB_GROUP_MAX: an aligned malloc() would touch a
 * page of its own beside each (its header), 8% more than the nodes. */
#define SLAB_GROUP_MAX 64

struct slab_group {
	void *base;
	size_t len;
};

struct slab_dir {
	uint32_t nr_slabs;
	struct slab_group *groups;
	size_t nr_groups, alloc_groups;
	char *spare, *spare_end;	/* the last group's slabs not yet used */
	void **pages[SLAB_DIR_PAGES];	/* last: never zeroed */
};

/* Slab number NR of DIR. */
static inline void *slab_dir_at(const struct slab_dir *dir, uint32_t nr)
{
	return dir->pages[nr >> SLAB_DIR_SHIFT][nr & ((1u << SLAB_DIR_SHIFT) - 1)];
}

struct node_pool {
	const struct strtab *names;	/* the profile's: names and keys */
	uint32_t next_ref;		/* the next node's; 0: a new slab */
	uint32_t next_attr;		/* the next attribute's; 0: a new slab */
	bool has_ids;			/* profile_finish() numbered the nodes */
	struct slab_dir attrs, nodes;
};

static inline struct node_slab *node_slab_of(const struct node *n)
{
	return (struct node_slab *)((uintptr_t)n & ~(uintptr_t)(SLAB_BYTES - 1));
}

/* N's place in its slab (1 to NODE_SLAB_NODES - 1). */
static inline uint32_t node_place(const struct node *n)
{
	return (uint32_t)(n - (const struct node *)node_slab_of(n));
}

/* The node REF refers to in POOL, NULL for 0. */
static inline struct node *node_at(const struct node_pool *pool, uint32_t ref)
{
	if (!ref)
		return NULL;
	return (struct node *)slab_dir_at(&pool->nodes, ref >> NODE_SLAB_SHIFT) +
	       (ref & (NODE_SLAB_NODES - 1));
}

/*
 * A walk's memory of the slab it was in last: most steps of a walk stay in
 * one slab (a node's children and next sibling were made soon after it),
 * and then a reference becomes a node with no look-up in the directory,
 * whose two loads would lengthen the chain of misses a walk waits on.
 */
struct node_cursor {
	const struct node_pool *pool;
	uint32_t slab;			/* the number of the slab BASE is */
	struct node *base;		/* that slab; NULL: none yet */
};

static inline struct node *node_cursor_at(struct node_cursor *c, uint32_t ref)
{
	if (!ref)
		return NULL;
	if (!c->base || ref >> NODE_SLAB_SHIFT != c->slab) {
		c->slab = ref >> NODE_SLAB_SHIFT;
		c->base = node_at(c->pool, ref) - (ref & (NODE_SLAB_NODES - 1));
	}
	return c->base + (ref & (NODE_SLAB_NODES - 1));
}

/* N's reference, 0 for NULL. */
static inline uint32_t node_ref(const struct node *n)
{
	if (!n)
		return 0;
	return node_slab_of(n)->number << NODE_SLAB_SHIFT | node_place(n);
}

/* Where a node slab keeps its nodes' ids: after its nodes. */
static inline uint32_t *node_slab_ids(const struct node_slab *slab)
{
	return (uint32_t *)((char *)slab + NODE_SLAB_NODES * sizeof(struct node));
}

/* N's id: its number in the tree's depth-first order, 0 (the root) to
 * profile.nr_nodes - 1, which panes key their state by.  Only once
 * profile_finish() has numbered the tree. */
static inline uint32_t node_id(const struct node *n)
{
	return node_slab_ids(node_slab_of(n))[node_place(n)];
}

/* The node REF refers to in the profile of N. */
static inline struct node *node_near(const struct node *n, uint32_t ref)
{
	return node_at(node_slab_of(n)->pool, ref);
}

static inline struct node *node_parent(const struct node *n)
{
	return node_near(n, n->parent_ref);
}

static inline struct node *node_first_child(const struct node *n)
{
	return node_near(n, n->child_ref);
}

/* Whether N has a place in time: every reader of start_ns asks. */
static inline bool node_is_timed(const struct node *n)
{
	return n->start_ns != NS_UNTIMED;
}

/* N's next sibling. */
static inline struct node *node_next(const struct node *n)
{
	return node_near(n, n->next_ref);
}

/* N's name, interned: equal names are equal pointers. */
static inline const char *node_name(const struct node *n)
{
	return strtab_string(node_slab_of(n)->pool->names, n->name_number);
}

static inline struct attr_slab *attr_slab_of(const struct attr *a)
{
	return (struct attr_slab *)((uintptr_t)a & ~(uintptr_t)(SLAB_BYTES - 1));
}

/* The first attribute of the list LIST in POOL, NULL when it is empty. */
static inline struct attr *attr_first(const struct node_pool *pool, uint32_t list)
{
	if (!list)
		return NULL;
	return (struct attr *)slab_dir_at(&pool->attrs, list >> ATTR_SLAB_SHIFT) +
	       (list & (ATTR_SLAB_PLACES - 1));
}

/* The attribute after A in its list, NULL after the last. */
static inline struct attr *attr_next(const struct attr *a)
{
	return attr_first(attr_slab_of(a)->pool, a->next_ref);
}

/* N's attributes: the first, or NULL. */
static inline struct attr *node_attrs(const struct node *n)
{
	return attr_first(node_slab_of(n)->pool, n->attrs);
}

/* A's key, interned. */
static inline const char *attr_key(const struct attr *a)
{
	return strtab_string(attr_slab_of(a)->pool->names, a->key_number);
}

static inline enum attr_type attr_type(const struct attr *a)
{
	const struct attr_slab *slab = attr_slab_of(a);

	return (enum attr_type)slab->types[a - (const struct attr *)slab - ATTR_HEAD_PLACES];
}

/* A step: a ProfilerStep, a training iteration, an inference. */
struct step {
	const char *name;		/* as the file names it: "5" */
	int64_t start_ns, end_ns;	/* 0, 0 when the format gives no interval */
	int64_t total_ns;
	int64_t *cat_ns;		/* profile->nr_step_cats values, -1 = none */
	uint32_t attrs;			/* extra per-step values (loss, lr, ips):
					   a list, attr_first() */
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

/* A node at the tree's second level (a top node of a thread), its
 * thread, and the earliest and latest start in its subtree, device work
 * included. */
struct node_span {
	struct node *thread, *top;
	int64_t min_start, max_start;
};

struct profile {
	struct arena arena;		/* this run's strings, steps, metadata */
	/* Names and nodes: the first run's, which the later runs of its file
	 * share (profile_add_run()), so that a run costs what it holds -- a
	 * table and slabs of its own made a log of 100,000 small tables cost
	 * gigabytes.  Heap; the names' strings lie in the first run's arena. */
	struct strtab *names;
	struct node_pool *pool;		/* every node (slabs point at it) */
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
	struct call_stacks stacks;	/* call_stack_intern()'s */
	/* A summary (parsers/summary/summary.c) holds aggregated tables only: no call
	 * tree, no timeline.  Its Distributed figures (model/distributed.h)
	 * are stored, in the arena; NULL: worked out from the tree. */
	bool is_summary;
	/* A summary whose op records carry their input shapes (version 3
	 * on): the Operators pane grouped by shape is the trace's. */
	bool summary_has_shapes;
	struct rank_local *rank_local;
	/* Each thread's top nodes, in the tree's order (profile_finish()):
	 * a walk over one step's time skips the subtrees that start nowhere
	 * in it (node_walk_starting()).  32 bytes per top node; a node made
	 * after the finish drops them (the tree changes only before it). */
	struct node_span *spans;
	size_t nr_spans, alloc_spans;
	/* The calls and extremes of the nodes that are not "no call" or "one
	 * call, extremes unknown" (NODE_COUNTED) and have no room for them
	 * after them.  Heap, found by the node's address. */
	struct node_counts *counts;
	size_t nr_counts, alloc_counts;
	struct key_index counts_index;
	/* The times that do not fit in a node's 32 bits (node_time()): one
	 * record of all four for each node with such a time, found by the
	 * node's address, under the lock (the link writes one profile's
	 * times on two threads; the common case never takes it). */
	struct node_wide_times *wide_times;
	size_t nr_wide_times, alloc_wide_times;
	struct key_index wide_index;
	pthread_mutex_t wide_lock;
	/* Nodes are made with room for their record beside them
	 * (NODE_ROOM): set by the parsers of pre-aggregated rows, whose
	 * every node has calls of its own (a 1,000-rank set of summaries
	 * holds millions). */
	bool counts_follow_nodes;
	/* Sums of times that passed SUM_CAP (model/bounds.h) and hold the
	 * cap: the loader warns of them (profile_note_capped()).  Atomic:
	 * the link sums on two threads. */
	uint64_t nr_capped_sums;
	/* --merge: every file given joins this profile, whatever it is (a
	 * parser that joins files by what they share refuses a file that
	 * shares nothing only when this is false). */
	bool sums_whole;
	/* node_append()'s memory of each parent's last child: a node has no
	 * field for it (8 bytes of every node, used only while building).
	 * A hint, checked where it is read; released by profile_finish(). */
	struct key_index tails;
	struct node *tail_parent, *tail;	/* the last append, asked first */

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
/* Unlink N from its parent (O(siblings)).  Whatever takes a node out of
 * its parent's list clears its parent too: node_append() relies on it. */
void node_unlink(struct node *n);
/* The nearest ancestor (not N itself) of KIND, or NULL. */
struct node *node_ancestor(const struct node *n, enum node_kind kind);

/*
 * How many calls a node stands for, and the shortest and longest of them
 * (-1: unknown).  A trace's event is one call and a structure node (root,
 * thread, group) none; only pre-aggregated rows (a key_averages table, a
 * summary, Paddle, MegEngine, trtexec, tb-json) say more.  So a node
 * carries a byte that says which (in what was padding), and a node with
 * other values a record: 24 bytes less for each of a trace's millions of
 * nodes.  The record lies in an array beside the node's slab where the
 * parser said its nodes all have one (NODE_ROOM, profile.counts_follow_
 * nodes: a table of pre-aggregated rows), else in its profile, found by
 * the node's address (a table by address costs twice what the record
 * does).
 *
 * The accessors take the profile rather than a node keeping a pointer to
 * its record: a pointer would cost a node the 8 bytes the record saves,
 * there is no field that is constant for every node in which to hide it,
 * and a read of the common case is that byte of the node and nothing
 * else (P is not even read).  P is the profile (the run) that made N.
 */
struct node_counts {
	uint64_t calls;
	int64_t min_ns, max_ns;
};

/* N's record in P's table; N has NODE_COUNTED and no NODE_ROOM. */
const struct node_counts *node_counts_in_table(const struct profile *p, const struct node *n);

/* N's record; N has NODE_COUNTED. */
static inline const struct node_counts *node_counts_record(const struct profile *p,
							   const struct node *n)
{
	if (n->calls_state & NODE_ROOM) {
		return &node_slab_of(n)->counts[node_place(n)];
	}
	return node_counts_in_table(p, n);
}

static inline uint64_t node_calls(const struct profile *p, const struct node *n)
{
	unsigned state = n->calls_state & NODE_CALLS_STATE;

	if (state == NODE_COUNTED)
		return node_counts_record(p, n)->calls;
	return state == NODE_ONE_CALL ? 1 : 0;
}

static inline int64_t node_min_ns(const struct profile *p, const struct node *n)
{
	if ((n->calls_state & NODE_CALLS_STATE) != NODE_COUNTED)
		return -1;
	return node_counts_record(p, n)->min_ns;
}

static inline int64_t node_max_ns(const struct profile *p, const struct node *n)
{
	if ((n->calls_state & NODE_CALLS_STATE) != NODE_COUNTED)
		return -1;
	return node_counts_record(p, n)->max_ns;
}

/* All three at once: one lookup for a node with a record. */
static inline struct node_counts node_counts(const struct profile *p, const struct node *n)
{
	unsigned state = n->calls_state & NODE_CALLS_STATE;

	if (state == NODE_COUNTED)
		return *node_counts_record(p, n);
	return (struct node_counts){ state == NODE_ONE_CALL ? 1 : 0, -1, -1 };
}

/* N's calls in its record, made if N has none (node_set_calls()). */
void node_set_counted_calls(struct profile *p, struct node *n, uint64_t calls);

/* Set N's calls / extremes (the other values are kept).  0 or 1 call with
 * unknown extremes takes no record: a trace's event costs a flag. */
static inline void node_set_calls(struct profile *p, struct node *n, uint64_t calls)
{
	if ((n->calls_state & NODE_CALLS_STATE) == NODE_COUNTED || calls > 1)
		node_set_counted_calls(p, n, calls);
	else
		n->calls_state = (uint8_t)((n->calls_state & NODE_ROOM) |
					   (calls ? NODE_ONE_CALL : NODE_NO_CALL));
}

void node_set_minmax(struct profile *p, struct node *n, int64_t min_ns, int64_t max_ns);

/*
 * A node's times, in nanoseconds: host self and total, device self and
 * total.  Nearly all of them are within +-2.147 s, so a node holds each
 * in 32 bits: 16 bytes less for each of a trace's millions of nodes.  The
 * rest (a thread's or step's total, a long op, a hostile file's 1e18)
 * are stored whole in the profile, and the field says NODE_TIME_WIDE:
 * as with node_calls(), the common read is the node's field and nothing
 * else (P is not even read), and P is the profile (the run) that made N.
 *
 * The rule: a time is in the table exactly when its field is
 * NODE_TIME_WIDE.  A value that fits is stored in the field, whatever the
 * field held before; a node's record, once made, stays, holding only the
 * times whose fields say so (a total that comes back into range after a
 * negative part is read from the field again).  INT32_MIN itself is
 * stored in the table, being the mark.
 */
#define NODE_TIME_WIDE INT32_MIN

struct node_wide_times {
	int64_t ns[NR_NODE_TIMES];
};

/* The accessors' rare path: time T of N in P's table, read, or set (and
 * N's field made NODE_TIME_WIDE).  Both take P's lock. */
int64_t node_time_wide(const struct profile *p, const struct node *n, enum node_time t);
void node_set_time_wide(struct profile *p, struct node *n, enum node_time t, int64_t ns);

static inline int64_t node_time(const struct profile *p, const struct node *n, enum node_time t)
{
	int32_t v = n->time32[t];

	if (v != NODE_TIME_WIDE)
		return v;
	return node_time_wide(p, n, t);
}

/*
 * PROFTUI_TIMES_ALL_WIDE (make wide) stores every time set in the table:
 * a read through a profile that did not make the node then dies at once
 * (node_time_wide()), where in a normal build it would read the right
 * number by luck unless the time were wide.
 */
static inline void node_set_time(struct profile *p, struct node *n, enum node_time t, int64_t ns)
{
#ifndef PROFTUI_TIMES_ALL_WIDE
	if (ns > INT32_MIN && ns <= INT32_MAX)
		n->time32[t] = (int32_t)ns;
	else
#endif
		node_set_time_wide(p, n, t, ns);
}

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

/* Attributes: KEY is a C string literal or interned; values are copied. */
struct attr *node_attr(const struct node *n, const char *key);
const struct attr *attr_find(const struct attr *list, const char *key);
void attr_set_int(struct profile *p, uint32_t *list, const char *key, int64_t v);
void attr_set_double(struct profile *p, uint32_t *list, const char *key, double v);
void attr_set_ns(struct profile *p, uint32_t *list, const char *key, int64_t ns);
void attr_set_str(struct profile *p, uint32_t *list, const char *key, const char *s, size_t n);

/* The kernel launch of node N (its "launch" attribute), or NULL. */
const struct launch *node_launch(const struct node *n);
/* The profile's one copy of the launch configuration L. */
const struct launch *profile_launch(struct profile *p, const struct launch *l);
/* A launch with every field unknown, to fill in. */
void launch_init(struct launch *l);
void attr_set_launch(struct profile *p, uint32_t *list, const struct launch *l);
/* The call stack S (callstack.h) as *LIST's "call_stack". */
void attr_set_stack(struct profile *p, uint32_t *list, const struct call_stack *s);
/* Set KEY to S, a string already interned in P (no copy: the many ops of
 * one input shape share it). */
void attr_set_interned(struct profile *p, uint32_t *list, const char *key, const char *s);

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

/* Metadata lines, copied, shown in insertion order. */
void profile_meta(struct profile *p, const char *section, const char *key, const char *value);
/* The value of SECTION/KEY, or NULL. */
const char *profile_meta_get(const struct profile *p, const char *section, const char *key);

/* Count one warning of kind TEXT (copied on first sight, matched by text). */
void profile_warn(struct profile *p, const char *text, uint64_t count);

/* Renumber node ids densely in depth-first order and set nr_nodes and
 * has_device_time.  Parsers call it once, when they are done. */
void profile_finish(struct profile *p);

/* Depth-first walk: calls FN on every node under (and including) FROM;
 * FN returns false to skip a node's children. */
void node_walk(struct node *from, bool (*fn)(struct node *n, void *ctx), void *ctx);
/* The walk of P's whole tree for FN that does nothing on nodes starting
 * outside [LO, HI): a thread's top subtrees with no start in it are
 * left out (after profile_finish(); before it, the whole walk). */
void node_walk_starting(const struct profile *p, int64_t lo, int64_t hi,
			bool (*fn)(struct node *n, void *ctx), void *ctx);

#endif
