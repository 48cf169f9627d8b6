// SPDX-License-Identifier: MIT
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aggregate.h"
#include "keyindex.h"
#include "timeline.h"
#include "util.h"

/* Rows deeper than this share the last one: a pathological trace must not
 * make a lane taller than any screen for nothing. */
#define MAX_DEPTH 256
/* Device work that overlaps itself (no stream known) packs into at most
 * this many rows of a lane. */
#define MAX_PACK 32

/*
 * A lane while building: its blocks in the order the walk met them (tree
 * order), each with the row it wants (its depth in the tree) in .row,
 * then sorted by start and spread over rows by pack().  The blocks are
 * cut into segments where the thread they hang under changes: a stream's
 * kernels come one launching thread after another, each thread's nearly
 * in time order, so each segment sorts cheaply on its own and a merge
 * joins them.
 */
struct build_lane {
	char *name;
	bool is_device;
	int32_t device, stream;		/* device lanes */
	const struct node *thread;	/* host lanes: its thread node, or NULL */
	size_t seen;			/* lanes met before it */
	struct tl_block *v;
	size_t nr, alloc;
	size_t *seg;			/* where each segment starts in v */
	size_t nr_seg, alloc_seg;
	const struct node *seg_thread;	/* the thread of the last segment */
	const struct node *first_thread;	/* and of the first */
	size_t hint;			/* how many blocks it may get, or 0 */
	struct tl_block *mem;		/* where v lies when not at its start
					   (the room of a split thread) */
	bool shared;			/* v lies in the thread's room that
					   two walks share (struct build) */
	size_t *row_nr;			/* pack(): the blocks of each row, */
	bool *ends_sorted;		/* whether their ends are in order, */
	int64_t end_ns;			/* and the last end of all */
	size_t nr_rows;
};

/* Device work met in the walk, for its lane to be found after it. */
struct device_node {
	const struct node *node;
	const struct node *thread;	/* the thread it hangs under */
};

struct build {
	const struct profile *p;
	struct build_lane *lanes;
	size_t nr_lanes, alloc_lanes;
	/* Lanes by what they are for (lane_key()): a trace has a few, but a
	 * hostile one may name a stream per kernel or hold a thread per op,
	 * and a search along the lanes for each was quadratic. */
	struct key_index lane_index;
	size_t nr_blocks;
	struct device_node *dev;
	size_t nr_dev, alloc_dev;
	/* Where two walks split a thread's subtree, its lane's room for
	 * both, made before them: this walk's part of it. */
	const struct node *shared_thread;
	struct tl_block *shared_v;
	size_t shared_alloc;
	size_t shared_nr;		/* its blocks there so far (atomic) */
};

static struct build_lane *new_lane(struct build *b, char *name, bool is_device)
{
	struct build_lane *l;

	GROW(b->lanes, b->alloc_lanes, b->nr_lanes + 1);
	l = &b->lanes[b->nr_lanes++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->is_device = is_device;
	l->device = l->stream = -1;
	l->seen = b->nr_lanes - 1;
	return l;
}

/* N, met under THREAD, goes to LANE wanting row DEPTH. */
static void add_block(struct build *b, size_t lane, size_t depth, const struct node *n,
		      int64_t dur, const struct node *thread)
{
	struct build_lane *l = &b->lanes[lane];
	struct tl_block *blk;

	if (!l->nr || thread != l->seg_thread) {
		GROW(l->seg, l->alloc_seg, l->nr_seg + 1);
		l->seg[l->nr_seg++] = l->nr;
		l->seg_thread = thread;
		if (l->nr_seg == 1)
			l->first_thread = thread;
	}
	if (l->nr == l->alloc) {
		/* As long as the hint says, then twice as long; copied, not
		 * realloc()ed, as a lane may start in a walk's shared room. */
		size_t alloc = l->alloc ? 2 * l->alloc : l->hint > 256 ? l->hint : 256;
		struct tl_block *v = xmalloc(alloc * sizeof(*v));

		if (l->nr)
			memcpy(v, l->v, l->nr * sizeof(*v));
		if (!l->shared)
			free(l->v);
		l->v = v;
		l->alloc = alloc;
		l->shared = false;
	}
	blk = &l->v[l->nr++];
	blk->node = n;
	blk->start_ns = n->start_ns;
	blk->dur_ns = dur <= 0 ? 0 : dur < TL_DUR_LONG ? (uint32_t)dur : TL_DUR_LONG;
	blk->row = (uint32_t)(depth < MAX_DEPTH ? depth : MAX_DEPTH - 1);
	b->nr_blocks++;
	if (l->shared)
		__atomic_store_n(&b->shared_nr, l->nr, __ATOMIC_RELAXED);
}

/* What a lane is for, as one key: (DEVICE, STREAM) of device work, odd;
 * THREAD's host work, even. */
static uint64_t lane_key(bool is_device, int32_t device, int32_t stream, const struct node *thread)
{
	return is_device ? ((uint64_t)(uint32_t)device << 32 | (uint32_t)stream) * 2 + 1
			 : (uint64_t)(uintptr_t)thread * 2;
}

/* The lane of device work launched on (DEVICE, STREAM); -1, -1: unknown. */
static size_t device_lane(struct build *b, int32_t device, int32_t stream)
{
	char name[64];

	size_t lane = key_index_get(&b->lane_index, lane_key(true, device, stream, NULL));

	if (lane != KEY_INDEX_NONE)
		return lane;
	if (device < 0 && stream < 0)
		snprintf(name, sizeof(name), "GPU");
	else if (stream < 0)
		snprintf(name, sizeof(name), "GPU %d", device);
	else if (device < 0)
		snprintf(name, sizeof(name), "GPU stream %d", stream);
	else
		snprintf(name, sizeof(name), "GPU %d stream %d", device, stream);
	new_lane(b, xstrdup(name), true);
	b->lanes[b->nr_lanes - 1].device = device;
	b->lanes[b->nr_lanes - 1].stream = stream;
	key_index_put(&b->lane_index, lane_key(true, device, stream, NULL), b->nr_lanes - 1);
	return b->nr_lanes - 1;
}

/*
 * How many nodes the subtree of N holds, itself aside: ids go in
 * depth-first order (profile_finish()), so the subtree ends where the
 * next node after it begins.  0 when the ids do not say (a tree changed
 * after them): only a hint, for a thread's lane to have room for its
 * blocks at once rather than grow and copy them again and again (90 MB
 * of the 1 GB trace's blocks are in its two threads).
 */
static size_t subtree_size(const struct profile *p, const struct node *n)
{
	uint32_t end = p->nr_nodes;

	for (const struct node *a = n; a; a = node_parent(a)) {
		if (node_next(a)) {
			end = node_id(node_next(a));
			break;
		}
	}
	return end > node_id(n) && end <= p->nr_nodes ? end - node_id(n) - 1 : 0;
}

static size_t host_lane(struct build *b, const struct profile *p, const struct node *thread)
{
	size_t lane = key_index_get(&b->lane_index, lane_key(false, -1, -1, thread));

	if (lane != KEY_INDEX_NONE)
		return lane;
	new_lane(b, xstrdup(thread ? node_name(thread) : "host"), false);
	b->lanes[b->nr_lanes - 1].thread = thread;
	b->lanes[b->nr_lanes - 1].hint = thread ? subtree_size(p, thread) : 0;
	if (thread && thread == b->shared_thread) {
		b->lanes[b->nr_lanes - 1].v = b->shared_v;
		b->lanes[b->nr_lanes - 1].alloc = b->shared_alloc;
		b->lanes[b->nr_lanes - 1].shared = true;
	}
	key_index_put(&b->lane_index, lane_key(false, -1, -1, thread), b->nr_lanes - 1);
	return b->nr_lanes - 1;
}

/* Up to this many ascending runs, blocks are merged rather than sorted
 * otherwise. */
#define MAX_RUNS 64

/* Stable bottom-up merge by start of the NR ascending runs of V[0..N),
 * [BOUND[r], BOUND[r + 1]) with BOUND[NR] == N; BOUND is used up. */
static void merge_bounded(struct tl_block *v, size_t n, size_t *bound, size_t nr)
{
	struct tl_block *tmp = xmalloc(n * sizeof(*tmp)), *from = v, *to = tmp;

	while (nr > 1) {
		size_t out = 0;

		for (size_t r = 0; r < nr; r += 2) {
			size_t a = bound[r], a_end = bound[r + 1];
			size_t b = a_end, b_end = r + 2 <= nr ? bound[r + 2] : a_end;
			size_t k = a;

			while (a < a_end && b < b_end)
				to[k++] = from[b].start_ns < from[a].start_ns ? from[b++] : from[a++];
			while (a < a_end)
				to[k++] = from[a++];
			while (b < b_end)
				to[k++] = from[b++];
			bound[out++] = bound[r];
		}
		bound[out] = n;
		nr = out;
		{
			struct tl_block *t = from;

			from = to;
			to = t;
		}
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	free(tmp);
}

/* Stable merge of the ascending runs of V[0..N) (at most MAX_RUNS). */
static void merge_runs(struct tl_block *v, size_t n)
{
	size_t *bound = xmalloc((MAX_RUNS + 1) * sizeof(*bound)), nr = 0;

	bound[nr++] = 0;
	for (size_t i = 1; i < n; i++)
		if (v[i].start_ns < v[i - 1].start_ns)
			bound[nr++] = i;
	bound[nr] = n;
	merge_bounded(v, n, bound, nr);
	free(bound);
}

/*
 * Stable insertion sort by start, for blocks out of order by a few
 * places only (a thread's runtime calls come after its ops' children in
 * the tree, and in reverse).  It gives up (false) after BUDGET moves, so
 * that no input makes it quadratic: the blocks are then a permutation in
 * which no block passed one of equal start, and a stable sort of it
 * gives what a stable sort of the original would.
 */
static bool insertion_sort(struct tl_block *v, size_t n, size_t budget)
{
	for (size_t i = 1; i < n; i++) {
		struct tl_block x;
		size_t j = i;

		if (v[i].start_ns >= v[i - 1].start_ns)
			continue;
		x = v[i];
		do {
			v[j] = v[j - 1];
			j--;
		} while (j > 0 && v[j - 1].start_ns > x.start_ns && --budget);
		v[j] = x;
		if (!budget)
			return false;
	}
	return true;
}

/*
 * Stable sort of blocks by start.  Blocks in tree order are in time
 * order or nearly (checked first): a few runs are merged, blocks a few
 * places out are inserted; anything else takes an LSD radix sort, 16 bits
 * a pass, skipping the passes in which every key has the same digit --
 * a million blocks must not cost a comparison sort.
 */
static void sort_by_start(struct tl_block *v, size_t n)
{
	struct tl_block *tmp;
	size_t *count, nr_runs = 1;
	int64_t min = INT64_MAX;

	for (size_t i = 0; i < n; i++) {
		if (v[i].start_ns < min)
			min = v[i].start_ns;
		if (i && v[i].start_ns < v[i - 1].start_ns)
			nr_runs++;
	}
	if (nr_runs == 1)
		return;
	if (nr_runs <= MAX_RUNS) {
		merge_runs(v, n);
		return;
	}
	if (insertion_sort(v, n, 4 * n))
		return;
	tmp = xmalloc(n * sizeof(*tmp));
	count = xmalloc(65536 * sizeof(*count));
	for (int shift = 0; shift < 64; shift += 16) {
		uint64_t first = (((uint64_t)v[0].start_ns - (uint64_t)min) >> shift) & 0xffff;
		bool same = true;
		size_t sum = 0;

		for (size_t i = 1; i < n && same; i++)
			same = ((((uint64_t)v[i].start_ns - (uint64_t)min) >> shift) & 0xffff) == first;
		if (same)
			continue;
		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(((uint64_t)v[i].start_ns - (uint64_t)min) >> shift) & 0xffff]++;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(((uint64_t)v[i].start_ns - (uint64_t)min) >> shift) & 0xffff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(count);
	free(tmp);
}

/* A lane's blocks by start, stably: segment by segment, then merged. */
static void sort_lane(struct build_lane *l)
{
	bool in_order = true;

	for (size_t s = 0; s < l->nr_seg; s++) {
		size_t from = l->seg[s], to = s + 1 < l->nr_seg ? l->seg[s + 1] : l->nr;

		sort_by_start(l->v + from, to - from);
		if (s && l->v[from].start_ns < l->v[from - 1].start_ns)
			in_order = false;
	}
	if (!in_order) {
		GROW(l->seg, l->alloc_seg, l->nr_seg + 1);
		l->seg[l->nr_seg] = l->nr;
		merge_bounded(l->v, l->nr, l->seg, l->nr_seg);
	}
}

/*
 * Spread a lane's blocks over rows in which none overlaps another, in
 * order of start: each goes to the first row at or below the one it
 * wants (its depth in the tree; 0 for device work) that is free when it
 * starts.  Ops nest as the tree nests them; what the tree puts side by
 * side but overlaps in time (a runtime call no op claimed, kernels of
 * streams the trace does not name) goes a row lower.  The sort is stable,
 * so a parent that starts with its child stays above it.  Each block's
 * .row becomes the lane's row it goes to; place() moves it there.
 */
static void pack(const struct profile *p, struct build_lane *l)
{
	size_t *row_nr = xcalloc(MAX_DEPTH, sizeof(*row_nr));
	bool *ends_sorted = xmalloc(MAX_DEPTH * sizeof(*ends_sorted));
	int64_t *last_end = xmalloc(MAX_DEPTH * sizeof(*last_end)), end = INT64_MIN;
	size_t nr = 0, max = l->is_device ? MAX_PACK : MAX_DEPTH;

	sort_lane(l);
	for (size_t i = 0; i < l->nr; i++) {
		struct tl_block *blk = &l->v[i];
		size_t r = blk->row < max ? blk->row : max - 1;
		int64_t blk_end = tl_block_end(p, blk);

		while (nr <= r) {
			ends_sorted[nr] = true;
			last_end[nr++] = INT64_MIN;
		}
		while (r < nr && last_end[r] > blk->start_ns)
			r++;
		if (r == nr) {
			if (nr < max) {
				ends_sorted[nr] = true;
				last_end[nr++] = INT64_MIN;
			} else {
				/* No row free: the one that frees first. */
				r = blk->row < max ? blk->row : max - 1;
				for (size_t k = r + 1; k < nr; k++)
					if (last_end[k] < last_end[r])
						r = k;
			}
		}
		blk->row = (uint32_t)r;
		row_nr[r]++;
		/* An end before the row's last: its ends are not in order. */
		if (blk_end < last_end[r])
			ends_sorted[r] = false;
		else
			last_end[r] = blk_end;
		if (blk_end > end)
			end = blk_end;
	}
	free(last_end);
	if (!nr)
		ends_sorted[0] = true;
	l->row_nr = row_nr;
	l->ends_sorted = ends_sorted;
	l->end_ns = end;
	l->nr_rows = nr ? nr : 1;
}

/* Point the rows of lane I (the first being FIRST_ROW of TL) at its
 * packed blocks, in order of start, which it takes.  A lane of one row
 * needs no indices: its row is all its blocks. */
static void place(struct timeline *tl, struct build_lane *l, size_t i, size_t first_row)
{
	bool one_row = l->nr_rows == 1;

	for (size_t d = 0; d < l->nr_rows; d++) {
		struct tl_row *row = &tl->rows[first_row + d];

		row->lane = (uint32_t)i;
		row->depth = (uint32_t)d;
		row->base = l->v;
		row->prof = tl->prof;
		row->idx = l->row_nr[d] && !one_row ? xmalloc(l->row_nr[d] * sizeof(*row->idx))
						    : NULL;
	}
	if (one_row) {
		for (size_t k = 0; k < l->nr; k++)
			l->v[k].row = (uint32_t)first_row;
		tl->rows[first_row].nr = l->nr;
	} else {
		for (size_t k = 0; k < l->nr; k++) {
			struct tl_block *blk = &l->v[k];
			struct tl_row *row = &tl->rows[first_row + blk->row];

			blk->row = (uint32_t)(first_row + blk->row);
			row->idx[row->nr++] = (uint32_t)k;
		}
	}
	for (size_t d = 0; d < l->nr_rows; d++) {
		struct tl_row *row = &tl->rows[first_row + d];

		if (l->ends_sorted[d])
			continue;
		row->max_end = xmalloc(row->nr * sizeof(*row->max_end));
		for (size_t k = 0; k < row->nr; k++) {
			int64_t end = tl_block_end(tl->prof, tl_row_block(row, k));

			row->max_end[k] = k && row->max_end[k - 1] > end ? row->max_end[k - 1] : end;
		}
	}
	tl->lanes[i].blocks = l->v;
	tl->lanes[i].mem = l->mem;
	tl->lanes[i].nr_blocks = l->nr;
	l->v = l->mem = NULL;
}

/*
 * Opening the pane on a big trace is the walk over every node, the
 * packing of every lane and the merge of all blocks by start, each
 * memory-bound (2.5 M nodes: 60, 25 and 25 ms), so they run on two
 * threads where there are two cores (timeline_build_on()).
 */
#define PARALLEL_MIN 100000
/* Beyond this many threads (or lanes) each is small, and the second
 * thread would cost more than it saves: its allocations come from a
 * malloc arena of its own, whose pages are new (a trace with 30 K
 * threads took a quarter more CPU). */
#define PARALLEL_MAX_PARTS 256

bool timeline_two_threads(size_t n)
{
	return n >= PARALLEL_MIN && sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

/*
 * Every block, by start (ties: row by row).  A lane's blocks are by
 * start already, so a merge of the lanes, through a tree of losers
 * (Knuth's): each inner node holds the lane that lost the match there,
 * the winner goes up, and after the winner's blocks are taken only the
 * matches on its path are played again, one comparison a level.  The
 * winner gives all its blocks of that start at once: ties go lane by
 * lane (a lane's rows come before the next lane's), and within a lane
 * row by row, which a lane's own order (the tree's) nearly always is.
 */
struct merge {
	int64_t *next;			/* the start of each leaf's next block;
					   INT64_MAX past the end, which */
	bool *done;			/* done tells from a real one */
	size_t k;			/* leaves: lanes, rounded up to a power of 2 */
};

static bool goes_before(const struct merge *m, size_t a, size_t b)
{
	if (m->next[a] != m->next[b])
		return m->next[a] < m->next[b];
	if (m->done[a] != m->done[b])
		return !m->done[a];
	return a < b;
}

/* The winner of the subtree at NODE, filling LOSER below it. */
static size_t play(const struct merge *m, size_t *loser, size_t node)
{
	size_t a, b;

	if (node >= m->k)
		return node - m->k;
	a = play(m, loser, 2 * node);
	b = play(m, loser, 2 * node + 1);
	if (goes_before(m, b, a)) {
		loser[node] = a;
		return b;
	}
	loser[node] = b;
	return a;
}

/* By row, then by place in it: in one row, blocks lie in their lane's
 * array in the row's order. */
static int cmp_row_at(const void *a, const void *b)
{
	const struct tl_block *x = *(const struct tl_block *const *)a;
	const struct tl_block *y = *(const struct tl_block *const *)b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return (x > y) - (x < y);
}

/* The blocks of every lane L from LO[L] up to HI[L], by start (ties lane
 * by lane, then row by row), into V. */
static void merge_lanes(const struct timeline *tl, const size_t *lo, const size_t *hi,
			const void **v)
{
	size_t n = 0, k = 1, win, i = 0;
	size_t *pos, *loser;
	struct merge m;

	for (size_t l = 0; l < tl->nr_lanes; l++)
		n += hi[l] - lo[l];
	while (k < tl->nr_lanes)
		k *= 2;
	m.k = k;
	m.next = xmalloc(k * sizeof(*m.next));
	m.done = xmalloc(k * sizeof(*m.done));
	pos = xcalloc(k, sizeof(*pos));
	loser = xmalloc(k * sizeof(*loser));
	for (size_t l = 0; l < k; l++) {
		m.done[l] = l >= tl->nr_lanes || lo[l] == hi[l];
		pos[l] = l < tl->nr_lanes ? lo[l] : 0;
		m.next[l] = m.done[l] ? INT64_MAX : tl->lanes[l].blocks[lo[l]].start_ns;
	}
	win = play(&m, loser, 1);
	while (i < n) {
		const struct tl_lane *lane = &tl->lanes[win];
		const struct tl_block *b = &lane->blocks[pos[win]];
		size_t from = i;
		bool by_row = true;

		do {
			if (i > from && b->row < ((const struct tl_block *)v[i - 1])->row)
				by_row = false;
			v[i++] = b++;
		} while (++pos[win] < hi[win] && b->start_ns == b[-1].start_ns);
		if (!by_row)
			qsort(v + from, i - from, sizeof(*v), cmp_row_at);
		if (pos[win] < hi[win]) {
			m.next[win] = b->start_ns;
		} else {
			m.next[win] = INT64_MAX;
			m.done[win] = true;
		}
		for (size_t node = (win + k) / 2; node; node /= 2) {
			if (goes_before(&m, loser[node], win)) {
				size_t t = loser[node];

				loser[node] = win;
				win = t;
			}
		}
	}
	free(loser);
	free(pos);
	free(m.done);
	free(m.next);
}

/* The first block of LANE that starts at or after T. */
static size_t lane_first_from(const struct tl_lane *lane, int64_t t)
{
	size_t lo = 0, hi = lane->nr_blocks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lane->blocks[mid].start_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct merge_job {
	const struct timeline *tl;
	const size_t *lo, *hi;
	const void **v;
};

static void *merge_main(void *arg)
{
	struct merge_job *mj = arg;

	merge_lanes(mj->tl, mj->lo, mj->hi, mj->v);
	return NULL;
}

/*
 * On two threads for many blocks: the blocks that start before T, the
 * start of the biggest lane's middle block, and the others, each merged
 * on its own into its part of the array.  Blocks of one start are all on
 * one side, so the ties come out as from one merge.
 */
const void **timeline_by_start_on(const struct timeline *tl, bool parallel)
{
	size_t n = tl->nr_blocks, big = 0, n1 = 0;
	const void **v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t *zero = xcalloc(tl->nr_lanes + 1, sizeof(*zero));
	size_t *mid = xmalloc((tl->nr_lanes + 1) * sizeof(*mid));
	size_t *end = xmalloc((tl->nr_lanes + 1) * sizeof(*end));
	struct merge_job first;
	pthread_t helper;
	int64_t t;

	for (size_t l = 0; l < tl->nr_lanes; l++) {
		end[l] = tl->lanes[l].nr_blocks;
		if (end[l] > end[big])
			big = l;
	}
	if (!parallel || !tl->nr_lanes || !end[big]) {
		merge_lanes(tl, zero, end, v);
		goto out;
	}
	t = tl->lanes[big].blocks[end[big] / 2].start_ns;
	for (size_t l = 0; l < tl->nr_lanes; l++) {
		mid[l] = lane_first_from(&tl->lanes[l], t);
		n1 += mid[l];
	}
	first = (struct merge_job){ tl, zero, mid, v };
	if (pthread_create(&helper, NULL, merge_main, &first)) {
		merge_lanes(tl, zero, end, v);
		goto out;
	}
	merge_lanes(tl, mid, end, v + n1);
	pthread_join(helper, NULL);
out:
	free(end);
	free(mid);
	free(zero);
	return v;
}

const void **timeline_by_start(const struct timeline *tl)
{
	return timeline_by_start_on(tl, timeline_two_threads(tl->nr_blocks));
}

struct walk {
	struct build *b;
	const struct profile *p;
	const struct node *thread;	/* the thread the walk is in */
	int thread_depth;
	/* The lane last used, so that a block does not look for its lane
	 * among all of them: the thread's (SIZE_MAX: not known yet). */
	size_t host;
};

/*
 * The device work's lanes, by the stream each was launched on, after the
 * walk: finding the launch goes down a node's attributes, a few cache
 * misses in a row, and here, one node after another with nothing else
 * in between, the misses of several nodes overlap (in the walk they
 * cost 40 ms on the 1 GB trace).  Each lane gets its blocks in tree
 * order still.
 */
static void add_device_blocks(struct build *b)
{
	size_t lane = SIZE_MAX;
	int32_t last_device = -1, last_stream = -1;

	for (size_t i = 0; i < b->nr_dev; i++) {
		const struct node *n = b->dev[i].node;

		/* The nodes a few ahead, then their attributes, then the
		 * launch (launches are interned, but there are many). */
		if (i + 16 < b->nr_dev)
			PREFETCH(b->dev[i + 16].node);
		if (i + 8 < b->nr_dev)
			PREFETCH(node_attrs(b->dev[i + 8].node));
		if (i + 4 < b->nr_dev) {
			const struct attr *a = node_attrs(b->dev[i + 4].node);

			if (a && attr_type(a) == ATTR_LAUNCH)
				PREFETCH(a->v.launch);
		}
		const struct launch *l = node_launch(n);
		int32_t device = l ? l->device : -1, stream = l ? l->stream : -1;

		if (lane == SIZE_MAX || device != last_device || stream != last_stream) {
			lane = device_lane(b, device, stream);
			last_device = device;
			last_stream = stream;
		}
		add_block(b, lane, 0, n, node_device_total(b->p, n), b->dev[i].thread);
	}
	free(b->dev);
}

static void visit(struct walk *w, const struct node *n, int depth)
{
	struct build *b = w->b;

	if (w->thread && depth <= w->thread_depth) {
		w->thread = NULL;	/* left the thread */
		w->host = SIZE_MAX;
	}
	if (n->kind == NODE_THREAD) {
		w->thread = n;
		w->thread_depth = depth;
		w->host = SIZE_MAX;
		return;
	}
	if (!node_is_timed(n) || n->kind == NODE_ROOT || n->kind == NODE_GROUP)
		return;
	if (node_kind_is_device(n->kind) || (n->flags & NODE_DEVICE_RANGE)) {
		GROW(b->dev, b->alloc_dev, b->nr_dev + 1);
		b->dev[b->nr_dev++] = (struct device_node){ n, w->thread };
		return;
	}
	if (w->host == SIZE_MAX)
		w->host = host_lane(b, w->p, w->thread);
	add_block(b, w->host, (size_t)(w->thread ? depth - w->thread_depth - 1 : depth - 1), n,
		  node_host_total(w->p, n), w->thread);
}

static int lane_order(const void *a, const void *b)
{
	const struct build_lane *x = a, *y = b;

	/* Threads first (in the tree's order), then the GPU lanes by device
	 * and stream. */
	if (x->is_device != y->is_device)
		return x->is_device ? 1 : -1;
	if (!x->is_device)
		return (x->seen > y->seen) - (x->seen < y->seen);
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return (x->stream > y->stream) - (x->stream < y->stream);
}

/*
 * On two threads, each walks a run of the tree in depth-first order into
 * a build of its own, the second's is joined to the first's in tree
 * order, and the lanes are packed by whichever thread is free.  The runs
 * split between two of the root's children, or inside a thread, between
 * two of its top nodes: then the thread's lane has one room, made before
 * the walks, the first walk's blocks at its start and the second's after
 * as many places as the first has nodes of that thread (ids say how
 * many), so that neither copies the other's blocks.
 */
/* A walk from node FROM (one of the root's children, or of a thread's)
 * up to node TO (NULL: to the end), in depth-first order, into B. */
struct walk_job {
	const struct profile *p;
	const struct node *from, *to;
	struct build b;
	bool done;		/* atomic */
};

static void walk_range(struct walk_job *job)
{
	struct walk w = { .b = &job->b, .p = job->p, .host = SIZE_MAX };
	const struct node *n = job->from;
	int depth = 1;

	if (n && node_parent(n) != job->p->root) {
		w.thread = node_parent(n);	/* it starts inside a thread */
		w.thread_depth = 1;
		depth = 2;
	}
	/* Iterative: traces nest deep. */
	while (n && n != job->to) {
		/* Nodes lie wherever the parser put them: the next sibling is
		 * read while the children are. */
		if (node_next(n)) {
			PREFETCH(node_next(n));
			PREFETCH((const char *)node_next(n) + 64);
		}
		visit(&w, n, depth);
		if (node_first_child(n)) {
			n = node_first_child(n);
			depth++;
			continue;
		}
		while (n && !node_next(n)) {
			n = node_parent(n);
			depth--;
		}
		if (n)
			n = node_next(n);
	}
	add_device_blocks(&job->b);
}

static void *walk_main(void *arg)
{
	struct walk_job *job = arg;

	walk_range(job);
	__atomic_store_n(&job->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * While the second walk JOB runs, the first, done, makes the pages of
 * the second's part of the room ahead of it present: memory written the
 * first time costs ~0.75 ms a MB here, and the second walk, which writes
 * the room, was the longer (37 ms of CPU against 20 on the 1 GB trace,
 * where the first walk's other lane lay in memory used before).  The
 * pages' contents do not change: the walk writes them as ever.
 */
static void fault_in_room(struct walk_job *job)
{
#ifdef MADV_POPULATE_WRITE
	const size_t page = (size_t)sysconf(_SC_PAGESIZE), chunk = 64 * page;
	const char *base = (const char *)job->b.shared_v;
	const char *end = (const char *)(job->b.shared_v + job->b.shared_alloc);
	uintptr_t at = 0;

	while (!__atomic_load_n(&job->done, __ATOMIC_ACQUIRE)) {
		size_t nr = __atomic_load_n(&job->b.shared_nr, __ATOMIC_RELAXED);
		/* A little ahead of the walk, where it will write next. */
		uintptr_t ahead = ((uintptr_t)(base + nr * sizeof(struct tl_block)) + 4 * page) &
				  ~(uintptr_t)(page - 1);

		if (ahead > at)
			at = ahead;
		if (at + chunk > (uintptr_t)end || madvise((void *)at, chunk, MADV_POPULATE_WRITE))
			break;
		at += chunk;
	}
#else
	(void)job;
#endif
}

/* Lane FROM's blocks after lane INTO's (the same lane, met by two walks,
 * the one of INTO first), FROM freed. */
static void append_lane(struct build_lane *into, struct build_lane *from)
{
	if (into->shared && from->shared) {
		/* Two parts of one room: the gap between them closes, the
		 * smaller part moving (the first, at the room's start, is a
		 * third of the 1 GB trace's big thread: 8 MB, not 23). */
		struct tl_block *end = from->v + from->alloc;

		if (into->nr <= from->nr) {
			memmove(from->v - into->nr, into->v, into->nr * sizeof(*into->v));
			into->mem = into->v;
			into->v = from->v - into->nr;
		} else {
			memmove(into->v + into->nr, from->v, from->nr * sizeof(*from->v));
		}
		into->alloc = (size_t)(end - into->v);
	} else {
		if (into->nr + from->nr > into->alloc) {
			into->alloc = into->nr + from->nr;
			into->v = xrealloc(into->v, into->alloc * sizeof(*into->v));
		}
		memcpy(into->v + into->nr, from->v, from->nr * sizeof(*from->v));
		if (!from->shared)
			free(from->v);
	}
	into->shared = false;	/* it owns the room, if it had a part */
	for (size_t s = 0; s < from->nr_seg; s++) {
		/* A thread's blocks on both sides of the split are one
		 * segment, as one walk makes them. */
		if (!s && into->nr && from->first_thread == into->seg_thread)
			continue;
		GROW(into->seg, into->alloc_seg, into->nr_seg + 1);
		into->seg[into->nr_seg++] = into->nr + from->seg[s];
	}
	into->nr += from->nr;
	if (from->nr_seg)
		into->seg_thread = from->seg_thread;
	free(from->seg);
	free(from->name);
}

/* After the join: the lane that has ROOM (the one a split thread's
 * blocks share) owns it, its blocks at its start; ROOM freed when none
 * has it. */
static void settle_room(struct build *b, struct tl_block *room)
{
	bool owned = false;

	for (size_t i = 0; i < b->nr_lanes; i++) {
		struct build_lane *l = &b->lanes[i];

		if (l->v == room || l->mem == room) {
			owned = true;
		} else if (l->shared) {
			/* Only the second walk met the thread. */
			memmove(room, l->v, l->nr * sizeof(*l->v));
			l->alloc += (size_t)(l->v - room);
			l->v = room;
			owned = true;
		}
		l->shared = false;
	}
	if (!owned)
		free(room);
}

static uint64_t key_of(const struct build_lane *l)
{
	return lane_key(l->is_device, l->device, l->stream, l->thread);
}

/* FROM, the build of the walk after INTO's, joined to INTO: as if one
 * walk had made both.  A lane met by both gets FROM's blocks after its
 * own (a stable sort by start follows, so where one run of blocks ends
 * and the next begins does not change the order); a lane new to INTO
 * comes after INTO's, as it was met later. */
static void join_builds(struct build *into, struct build *from)
{
	for (size_t i = 0; i < from->nr_lanes; i++) {
		struct build_lane *l = &from->lanes[i];
		size_t at = key_index_get(&into->lane_index, key_of(l));

		if (at != KEY_INDEX_NONE) {
			append_lane(&into->lanes[at], l);
			continue;
		}
		GROW(into->lanes, into->alloc_lanes, into->nr_lanes + 1);
		l->seen = into->nr_lanes;
		into->lanes[into->nr_lanes] = *l;
		key_index_put(&into->lane_index, key_of(l), into->nr_lanes++);
	}
	into->nr_blocks += from->nr_blocks;
	free(from->lanes);
	key_index_release(&from->lane_index);
}

/* Top nodes of a thread looked at for a split, at most: the search
 * stops there on a thread of millions. */
#define SPLIT_MAX_TOPS 65536

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * Where the depth-first order splits into two runs of about as many
 * nodes (ids are depth-first: the nodes before a node are the ids below
 * its own): before one of the root's children, or before one of the top
 * nodes of the thread that holds the middle -- a trace of one big thread
 * and a smaller one split between them walked 17 ms against 63 on the
 * 1 GB trace.  NULL when the tree does not split, has too many parts, or
 * the ids do not say.
 */
static const struct node *split_point(const struct profile *p)
{
	const struct node *best = NULL, *middle = NULL;
	uint64_t total = p->nr_nodes, half = total / 2, best_gap = UINT64_MAX, last = node_id(p->root);
	size_t nr = 0;

	if (!node_first_child(p->root))
		return NULL;
	for (const struct node *c = node_first_child(p->root); c; c = node_next(c)) {
		uint32_t id = node_id(c);

		if (++nr > PARALLEL_MAX_PARTS)
			return NULL;
		if (id <= last || id >= total)
			return NULL;	/* ids out of order: the tree changed */
		last = id;
		if (id <= half)
			middle = c;
		if (c != node_first_child(p->root) && distance(id, half) < best_gap) {
			best_gap = distance(id, half);
			best = c;
		}
	}
	if (middle && middle->kind == NODE_THREAD) {
		const struct node *next = node_next(middle);
		uint64_t end = next ? node_id(next) : total;

		last = node_id(middle);
		nr = 0;
		for (const struct node *c = node_first_child(middle); c && ++nr <= SPLIT_MAX_TOPS; c = node_next(c)) {
			uint32_t id = node_id(c);

			if (id <= last || id >= end)
				return best;
			last = id;
			if (distance(id, half) < best_gap) {
				best_gap = distance(id, half);
				best = c;
			}
			if (id > half)
				break;
		}
	}
	return best;
}

/* The lanes' packing, or their placing into a timeline, lane by lane
 * by whichever thread is free: each touches its own lane and rows. */
struct lane_jobs {
	const struct profile *p;
	struct build *b;
	struct timeline *tl;	/* NULL: pack; else place into it */
	size_t next;		/* the next lane */
};

static void *lane_main(void *arg)
{
	struct lane_jobs *lj = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&lj->next, 1, __ATOMIC_RELAXED)) < lj->b->nr_lanes) {
		if (lj->tl)
			place(lj->tl, &lj->b->lanes[i], i, lj->tl->lanes[i].first_row);
		else
			pack(lj->p, &lj->b->lanes[i]);
	}
	return NULL;
}

static void do_lane_jobs(struct lane_jobs *lj, bool parallel)
{
	pthread_t helper;

	if (parallel && lj->b->nr_lanes > 1 && lj->b->nr_lanes <= PARALLEL_MAX_PARTS &&
	    !pthread_create(&helper, NULL, lane_main, lj)) {
		lane_main(lj);
		pthread_join(helper, NULL);
	} else {
		lane_main(lj);
	}
}

void timeline_build(const struct profile *p, struct timeline *tl)
{
	timeline_build_on(p, tl, timeline_two_threads(p->nr_nodes));
}

void timeline_build_on(const struct profile *p, struct timeline *tl, bool parallel)
{
	struct walk_job job[2] = { { .p = p, .b.p = p }, { .p = p, .b.p = p } };
	struct build b;
	struct lane_jobs lj;
	pthread_t helper;
	const struct node *half = parallel && p->has_timeline ? split_point(p) : NULL;
	const struct node *thread = half && node_parent(half) != p->root ? node_parent(half) : NULL;
	struct tl_block *room = NULL;

	memset(tl, 0, sizeof(*tl));
	tl->prof = p;
	tl->start_ns = INT64_MAX;
	tl->end_ns = INT64_MIN;
	if (thread) {
		/* The split thread's lane: room for all its nodes, the
		 * second walk's part after the first's nodes. */
		size_t size = subtree_size(p, thread), before = node_id(half) - node_id(thread) - 1;

		room = xmalloc(size * sizeof(*room));
		for (int i = 0; i < 2; i++) {
			job[i].b.shared_thread = thread;
			job[i].b.shared_v = i ? room + before : room;
			job[i].b.shared_alloc = i ? size - before : before;
		}
	}
	if (p->has_timeline) {
		job[0].from = node_first_child(p->root);
		job[0].to = half;
		job[1].from = half;
		if (half && !pthread_create(&helper, NULL, walk_main, &job[1])) {
			walk_range(&job[0]);
			if (room)
				fault_in_room(&job[1]);
			pthread_join(helper, NULL);
			join_builds(&job[0].b, &job[1].b);
			if (room)
				settle_room(&job[0].b, room);
		} else {
			job[0].to = NULL;
			job[0].b.shared_thread = NULL;
			free(room);
			walk_range(&job[0]);
		}
	}
	b = job[0].b;
	if (b.nr_lanes)
		qsort(b.lanes, b.nr_lanes, sizeof(*b.lanes), lane_order);
	tl->lanes = xcalloc(b.nr_lanes ? b.nr_lanes : 1, sizeof(*tl->lanes));
	tl->nr_lanes = b.nr_lanes;
	lj = (struct lane_jobs){ .p = p, .b = &b };
	do_lane_jobs(&lj, parallel);
	for (size_t i = 0; i < b.nr_lanes; i++) {
		struct build_lane *l = &b.lanes[i];

		tl->lanes[i].name = l->name;
		tl->lanes[i].is_device = l->is_device;
		tl->lanes[i].first_row = (uint32_t)tl->nr_rows;
		tl->lanes[i].nr_rows = (uint32_t)l->nr_rows;
		tl->nr_rows += l->nr_rows;
	}
	tl->rows = xcalloc(tl->nr_rows ? tl->nr_rows : 1, sizeof(*tl->rows));
	tl->nr_blocks = b.nr_blocks;
	lj = (struct lane_jobs){ .p = p, .b = &b, .tl = tl };
	do_lane_jobs(&lj, parallel);
	for (size_t i = 0; i < b.nr_lanes; i++) {
		struct build_lane *l = &b.lanes[i];

		if (l->nr && tl->lanes[i].blocks[0].start_ns < tl->start_ns)
			tl->start_ns = tl->lanes[i].blocks[0].start_ns;
		if (l->nr && l->end_ns > tl->end_ns)
			tl->end_ns = l->end_ns;
		free(l->v);
		free(l->seg);
		free(l->row_nr);
		free(l->ends_sorted);
	}
	free(b.lanes);
	key_index_release(&b.lane_index);
	if (!tl->nr_blocks)
		tl->start_ns = tl->end_ns = 0;
}

void timeline_release(struct timeline *tl)
{
	for (size_t i = 0; i < tl->nr_lanes; i++) {
		free(tl->lanes[i].name);
		free(tl->lanes[i].mem ? tl->lanes[i].mem : tl->lanes[i].blocks);
	}
	for (size_t r = 0; r < tl->nr_rows; r++) {
		free(tl->rows[r].idx);
		free(tl->rows[r].max_end);
	}
	free(tl->lanes);
	free(tl->rows);
	memset(tl, 0, sizeof(*tl));
}

static int64_t end_upto(const struct tl_row *row, size_t i)
{
	return row->max_end ? row->max_end[i] : tl_block_end(row->prof, tl_row_block(row, i));
}

size_t timeline_first_after(const struct tl_row *row, int64_t t)
{
	size_t lo = 0, hi = row->nr;

	/* The ends up to each block only grow: the first above T. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (end_upto(row, mid) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

size_t timeline_first_from(const struct tl_row *row, int64_t t)
{
	size_t lo = 0, hi = row->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl_row_block(row, mid)->start_ns >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

size_t timeline_nearest(const struct tl_row *row, int64_t t)
{
	size_t i = timeline_first_from(row, t);
	int64_t before, after;

	if (!row->nr)
		return 0;
	if (i == 0)
		return 0;
	if (tl_block_end(row->prof, tl_row_block(row, i - 1)) > t || i == row->nr)
		return i - 1;
	before = t - tl_block_end(row->prof, tl_row_block(row, i - 1));
	after = tl_row_block(row, i)->start_ns - t;
	return before <= after ? i - 1 : i;
}

size_t timeline_index_in_row(const struct timeline *tl, const struct tl_block *b)
{
	const struct tl_row *row = &tl->rows[b->row];
	uint32_t k = (uint32_t)(b - row->base);

	if (!row->idx)
		return k;
	/* The indices only grow along the row. */
	return u32_lower_bound(row->idx, 0, row->nr, k);
}

const struct node *timeline_flow_call(const struct node *n)
{
	const struct node *up = node_kind_is_device(n->kind) ? node_parent(n) : NULL;

	return up && up->kind == NODE_RUNTIME ? up : NULL;
}

const struct node *timeline_flow_op(const struct node *n)
{
	const struct node *up = node_kind_is_device(n->kind) ? node_parent(n) : NULL;

	while (up && !node_is_op_row(up))
		up = node_parent(up);
	return up;
}

bool timeline_flow_from(const struct node *h, const struct node *n)
{
	if (!h || !node_kind_is_device(n->kind) || node_kind_is_device(h->kind))
		return false;
	for (const struct node *up = node_parent(n); up; up = node_parent(up))
		if (up == h)
			return true;
	return false;
}

const struct tl_block *timeline_block_of(const struct timeline *tl, const struct node *n)
{
	bool dev = node_kind_is_device(n->kind);

	if (!node_is_timed(n))
		return NULL;
	for (size_t l = 0; l < tl->nr_lanes; l++) {
		const struct tl_lane *lane = &tl->lanes[l];
		size_t lo = 0, hi = lane->nr_blocks;

		if (lane->is_device != dev)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (lane->blocks[mid].start_ns < n->start_ns)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < lane->nr_blocks && lane->blocks[lo].start_ns == n->start_ns; lo++)
			if (lane->blocks[lo].node == n)
				return &lane->blocks[lo];
	}
	return NULL;
}

/* Whether X comes before Y in a flow's order: by start, then the tree's. */
static bool flow_before(const struct node *x, const struct node *y)
{
	return x->start_ns < y->start_ns || (x->start_ns == y->start_ns && node_id(x) < node_id(y));
}

const struct tl_block *timeline_flow_next(const struct timeline *tl, const struct node *h,
					  const struct tl_block *after,
					  bool (*keep)(const struct tl_block *b, void *ctx),
					  void *ctx)
{
	const struct tl_block *best = NULL;
	const struct node *n;

	if (!h || node_kind_is_device(h->kind))
		return NULL;
	/* H's subtree, depth first, without a stack: down, else across,
	 * else up until across. */
	for (n = node_first_child(h); n;) {
		if (node_kind_is_device(n->kind) && node_is_timed(n) &&
		    (!after || flow_before(after->node, n)) && (!best || flow_before(n, best->node))) {
			const struct tl_block *b = timeline_block_of(tl, n);

			if (b && (!keep || keep(b, ctx)))
				best = b;
		}
		if (node_first_child(n)) {
			n = node_first_child(n);
			continue;
		}
		while (n != h && !node_next(n))
			n = node_parent(n);
		n = n == h ? NULL : node_next(n);
	}
	return best;
}
