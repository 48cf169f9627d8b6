/* SPDX-License-Identifier: MIT */
/*
 * timeline: a profile's timed nodes as blocks in lanes, indexed by time,
 * for the Timeline pane.  A lane is one CPU thread (its ops, steps,
 * runtime calls, nested by depth) or one GPU stream (its kernels, copies
 * and sets; all device work in one lane when the trace does not say
 * which stream ran it).  Each lane is a few rows; each row holds blocks
 * that do not overlap one another, sorted by start, so the blocks in any
 * window of time are found by a binary search and drawing costs what is
 * on screen, not what is in the trace.
 *
 * Host blocks last their node's host total, device blocks its device total; a node
 * without a start (an aggregated format) is no block.  A lane's blocks
 * are one array, by start, and its rows arrays of 32-bit indices into
 * it (none for a lane of one row): a row of copies would be 100 MB more
 * to write on a 1 GB trace, and of pointers 10 MB more than indices --
 * memory written the first time costs most of the time the index takes
 * to make.  For the same reason a block is 24 bytes: its length is 32
 * bits, and one longer (4.3 s) is read from its node.  The timeline
 * borrows the profile's nodes and owns its arrays; timeline_release()
 * frees them.
 */
#ifndef MODEL_TIMELINE_H
#define MODEL_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct tl_block {
	const struct node *node;
	int64_t start_ns;		/* absolute, as the nodes' start_ns */
	uint32_t dur_ns;		/* TL_DUR_LONG: as long or longer;
					   tl_block_end() says */
	uint32_t row;			/* index into timeline.rows */
};

#define TL_DUR_LONG UINT32_MAX

/* Where B ends: its start and its node's host time (device time for
 * device work), 0 when negative.  P is the profile of B's node (the
 * timeline's, its row's): a long block reads it. */
static inline int64_t tl_block_end(const struct profile *p, const struct tl_block *b)
{
	int64_t dur;

	if (b->dur_ns != TL_DUR_LONG)
		return b->start_ns + b->dur_ns;
	dur = node_kind_is_device(b->node->kind) ? node_device_total(p, b->node)
						  : node_host_total(p, b->node);
	return b->start_ns + (dur > 0 ? dur : 0);
}

/* One lane's blocks at one depth, by start; they do not overlap, except
 * where the file's own times overlap (then max_end keeps the search
 * right). */
struct tl_row {
	uint32_t lane;
	uint32_t depth;			/* 0: the outermost */
	const struct tl_block *base;	/* its lane's blocks */
	uint32_t *idx;			/* its blocks, as indices into base;
					   NULL: all of base, in order */
	size_t nr;
	int64_t *max_end;		/* max end of blocks[0..i]; NULL when
					   the ends are in order already */
	const struct profile *prof;	/* the timeline's */
};

/* Block I of ROW. */
static inline const struct tl_block *tl_row_block(const struct tl_row *row, size_t i)
{
	return row->base + (row->idx ? row->idx[i] : i);
}

struct tl_lane {
	char *name;			/* "thread 1002", "GPU 0 stream 7"; heap */
	bool is_device;
	uint32_t first_row, nr_rows;	/* its rows, depth 0 first */
	struct tl_block *blocks;	/* all its blocks, by start: what the
					   rows point to */
	size_t nr_blocks;
	struct tl_block *mem;		/* the memory blocks lie in, when it
					   does not start there; NULL: blocks */
};

struct timeline {
	struct tl_lane *lanes;		/* threads in tree order, then streams */
	size_t nr_lanes;
	struct tl_row *rows;		/* lane by lane, depth by depth */
	size_t nr_rows;
	size_t nr_blocks;
	int64_t start_ns, end_ns;	/* the first start and the last end */
	const struct profile *prof;	/* whose nodes the blocks are */
};

/* Index the timed nodes of P into TL.  An untimed profile gives no lanes. */
void timeline_build(const struct profile *p, struct timeline *tl);
/* The same on two threads (PARALLEL) or one; timeline_build() takes two
 * for a big profile on a machine with two cores.  Either way the same
 * index. */
void timeline_build_on(const struct profile *p, struct timeline *tl, bool parallel);
void timeline_release(struct timeline *tl);
/* Whether work over N blocks is worth a second thread on this machine
 * (it has two cores, and N is in the hundred thousands). */
bool timeline_two_threads(size_t n);
/* Every block of TL by start (ties: row by row), as a new array of
 * nr_blocks pointers to them -- a pane's rows, hence void -- that the
 * caller frees. */
const void **timeline_by_start(const struct timeline *tl);
/* The same on two threads (PARALLEL) or one; the same array. */
const void **timeline_by_start_on(const struct timeline *tl, bool parallel);

/* The first block of ROW that ends after T (the first that a window
 * starting at T can show), or ROW->nr. */
size_t timeline_first_after(const struct tl_row *row, int64_t t);
/* The first block of ROW that starts at or after T, or ROW->nr. */
size_t timeline_first_from(const struct tl_row *row, int64_t t);
/* The block of ROW nearest to T: the one holding T, else the closest by
 * time; ROW->nr when the row is empty. */
size_t timeline_nearest(const struct tl_row *row, int64_t t);
/* Where B is in its row (TL's row B->row). */
size_t timeline_index_in_row(const struct timeline *tl, const struct tl_block *b);

/*
 * Flows, as Perfetto draws them: device work (a kernel, copy or set) came
 * from the runtime call that launched it, made inside an op -- the
 * tree's parent links, which the detail view's "Launched by" reads too.
 */
/* The runtime call that launched device node N (its parent, when that is
 * a runtime call); NULL: none. */
const struct node *timeline_flow_call(const struct node *n);
/* The op that made the call: device node N's nearest ancestor that is an
 * Operators row (node_is_op_row()); NULL: none. */
const struct node *timeline_flow_op(const struct node *n);
/* Whether device node N came from host node H: H is above it. */
bool timeline_flow_from(const struct node *h, const struct node *n);
/* The block of TL that draws N, or NULL (untimed, not in TL). */
const struct tl_block *timeline_block_of(const struct timeline *tl, const struct node *n);
/* The block of the device work that came from host node H next after
 * AFTER (NULL: the first), in time (ties: the tree's order), among those
 * KEEP (NULL: all) keeps; NULL when none.  A walk of H's subtree. */
const struct tl_block *timeline_flow_next(const struct timeline *tl, const struct node *h,
					  const struct tl_block *after,
					  bool (*keep)(const struct tl_block *b, void *ctx),
					  void *ctx);

#endif
