/* SPDX-License-Identifier: MIT */
/*
 * node_pool: how a profile's nodes and attributes lie in memory -- the
 * encoding behind the node API of profile.h, which is the only header
 * that includes this one (for the inline accessors a walk of millions of
 * nodes needs).  Private: outside this file and node_pool.c nothing names
 * what it defines (tests/lint.sh), so that a change of layout (a wider
 * reference, another slab size, ids or counts kept elsewhere) touches
 * these two files.  profile.h declares and documents each accessor that
 * is defined here.
 */
#ifndef MODEL_NODE_POOL_H
#define MODEL_NODE_POOL_H

#ifndef MODEL_PROFILE_H
#error "include model/profile.h: model/node_pool.h is its private part"
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keyindex.h"
#include "strtab.h"
#include "util.h"

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
 * A node's times are nearly all within +-2.147 s, so a node holds each in
 * 32 bits: 16 bytes less for each of a trace's millions of nodes.  The
 * rest (a thread's or step's total, a long op, a hostile file's 1e18) are
 * stored whole in the profile (struct pool_books), and the field says
 * NODE_TIME_WIDE: as with node_calls(), the common read is the node's
 * field and nothing else (P is not even read).
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

/* A list of attributes: its first one's reference (struct attr). */
struct attr_list {
	uint32_t first_ref;		/* 0: empty */
};

/*
 * A node refers to its parent, first child and next sibling, and to its
 * attributes, by a 32-bit reference (struct node_slab below), and to its
 * name by the name's number in the profile's names, not by pointers: a
 * node is 48 bytes, and a trace has millions.  Its number in the tree's
 * order, node_id(), lies beside it in its slab.  start_ns, kind and flags
 * are the API's (profile.h); the rest is read through the accessors.
 */
struct node {
	int64_t start_ns;		/* absolute start; NS_UNTIMED: none */
	/* Nanoseconds, by enum node_time (NODE_TIME_WIDE: the value is in
	 * the profile's table). */
	int32_t time32[NR_NODE_TIMES];
	uint32_t name_number;		/* strtab_string() of profile.names */
	uint32_t parent_ref, child_ref, next_ref;	/* 0: none */
	struct attr_list attr_head;	/* node_attrs() */
	uint8_t kind;			/* enum node_kind */
	uint8_t flags;			/* NODE_* flags */
	/* NODE_NO_CALL, NODE_ONE_CALL or NODE_COUNTED, and NODE_ROOM: the
	 * calls and their extremes are node_calls() and the rest. */
	uint8_t calls_state;
};

/*
 * An attribute is 16 bytes (a trace has a million): its key is the key's
 * number among the profile's names, it refers to the next of its list as
 * nodes do to theirs, and its type lies in its slab's head (struct
 * attr_slab).  The value, v, is the API's.
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
	 * profile's nodes all have some (profile_set_counts_per_node());
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

/* Every node and attribute of a file's runs (profile_add_run()). */
struct node_pool {
	const struct strtab *names;	/* the profile's: names and keys */
	uint32_t next_ref;		/* the next node's; 0: a new slab */
	uint32_t next_attr;		/* the next attribute's; 0: a new slab */
	bool has_ids;			/* profile_finish() numbered the nodes */
	struct slab_dir attrs, nodes;
};

/* A node at the tree's second level (a top node of a thread), its
 * thread, and the earliest and latest start in its subtree, device work
 * included. */
struct node_span {
	struct node *thread, *top;
	int64_t min_start, max_start;
};

/*
 * What the pool keeps for one run (struct profile.books): the records
 * that do not fit in a node, and hints that speed building and walking.
 */
struct pool_books {
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
	 * (NODE_ROOM): profile_set_counts_per_node(). */
	bool counts_per_node;
	/* node_append()'s memory of each parent's last child: a node has no
	 * field for it (8 bytes of every node, used only while building).
	 * A hint, checked where it is read; released by profile_finish(). */
	struct key_index tails;
	struct node *tail_parent, *tail;	/* the last append, asked first */
	/* Each thread's top nodes, in the tree's order (profile_finish()):
	 * a walk over one step's time skips the subtrees that start nowhere
	 * in it (node_walk_starting()).  32 bytes per top node; a node made
	 * after the finish drops them (the tree changes only before it). */
	struct node_span *spans;
	size_t nr_spans, alloc_spans;
};

/* What profile.c asks of the pool for a run: P's pool (FIRST's, or a new
 * one when FIRST is NULL) and empty books; their release (the pool too
 * when P made it); a later RUN's settings from the FIRST of its file,
 * once RUN's root is made; and the finish's walk, which numbers the
 * nodes, lists the top nodes and says whether any has device time or a
 * start. */
void pool_open_run(struct profile *p, const struct profile *first);
void pool_close_run(struct profile *p);
void pool_follow_first_run(struct profile *run, const struct profile *first);
void pool_number_tree(struct profile *p);

/* The accessors' rare paths (node_pool.c). */
const struct node_counts *node_counts_in_table(const struct profile *p, const struct node *n);
void node_set_counted_calls(struct profile *p, struct node *n, uint64_t calls);
int64_t node_time_wide(const struct profile *p, const struct node *n, enum node_time t);
void node_set_time_wide(struct profile *p, struct node *n, enum node_time t, int64_t ns);

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
static inline struct node *pool_node_at(const struct node_pool *pool, uint32_t ref)
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
		c->base = pool_node_at(c->pool, ref) - (ref & (NODE_SLAB_NODES - 1));
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

/* The node REF refers to in the profile of N. */
static inline struct node *node_near(const struct node *n, uint32_t ref)
{
	return pool_node_at(node_slab_of(n)->pool, ref);
}

static inline struct attr_slab *attr_slab_of(const struct attr *a)
{
	return (struct attr_slab *)((uintptr_t)a & ~(uintptr_t)(SLAB_BYTES - 1));
}

/* The attribute REF refers to in POOL, NULL for 0. */
static inline struct attr *pool_attr_at(const struct node_pool *pool, uint32_t ref)
{
	if (!ref)
		return NULL;
	return (struct attr *)slab_dir_at(&pool->attrs, ref >> ATTR_SLAB_SHIFT) +
	       (ref & (ATTR_SLAB_PLACES - 1));
}

/* ---------------------------------------------------------------------
 * The API's inline accessors, declared and documented in profile.h.
 */

/* node_by_handle()'s, for profile.h: a handle is a reference. */
static inline struct node *pool_node_by_handle(const struct node_pool *pool, uint32_t handle)
{
	return pool_node_at(pool, handle);
}

static inline uint32_t node_id(const struct node *n)
{
	return node_slab_ids(node_slab_of(n))[node_place(n)];
}

static inline uint32_t node_handle(const struct node *n)
{
	return node_ref(n);
}

static inline struct node *node_parent(const struct node *n)
{
	return node_near(n, n->parent_ref);
}

static inline struct node *node_first_child(const struct node *n)
{
	return node_near(n, n->child_ref);
}

static inline struct node *node_next(const struct node *n)
{
	return node_near(n, n->next_ref);
}

static inline bool node_has_parent(const struct node *n)
{
	return n->parent_ref != 0;
}

static inline bool node_has_children(const struct node *n)
{
	return n->child_ref != 0;
}

static inline bool node_has_next(const struct node *n)
{
	return n->next_ref != 0;
}

static inline void node_prefetch(const struct node *n)
{
	PREFETCH(n);
	PREFETCH((const char *)n + sizeof(*n) - 1);
}

static inline void node_prefetch_time(const struct node *n, enum node_time t)
{
	PREFETCH(&n->time32[t]);
}

static inline const char *node_name(const struct node *n)
{
	return strtab_string(node_slab_of(n)->pool->names, n->name_number);
}

static inline struct attr_list *node_attr_list(struct node *n)
{
	return &n->attr_head;
}

static inline bool attr_list_is_empty(const struct attr_list *list)
{
	return list->first_ref == 0;
}

static inline struct attr *attr_next(const struct attr *a)
{
	return pool_attr_at(attr_slab_of(a)->pool, a->next_ref);
}

static inline struct attr *node_attrs(const struct node *n)
{
	return pool_attr_at(node_slab_of(n)->pool, n->attr_head.first_ref);
}

static inline const char *attr_key(const struct attr *a)
{
	return strtab_string(attr_slab_of(a)->pool->names, a->key_number);
}

static inline enum attr_type attr_type(const struct attr *a)
{
	const struct attr_slab *slab = attr_slab_of(a);

	return (enum attr_type)slab->types[a - (const struct attr *)slab - ATTR_HEAD_PLACES];
}

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

static inline struct node_counts node_counts(const struct profile *p, const struct node *n)
{
	unsigned state = n->calls_state & NODE_CALLS_STATE;

	if (state == NODE_COUNTED)
		return *node_counts_record(p, n);
	return (struct node_counts){ state == NODE_ONE_CALL ? 1 : 0, -1, -1 };
}

static inline void node_set_calls(struct profile *p, struct node *n, uint64_t calls)
{
	if ((n->calls_state & NODE_CALLS_STATE) == NODE_COUNTED || calls > 1)
		node_set_counted_calls(p, n, calls);
	else
		n->calls_state = (uint8_t)((n->calls_state & NODE_ROOM) |
					   (calls ? NODE_ONE_CALL : NODE_NO_CALL));
}

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

#endif
