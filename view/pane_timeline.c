// SPDX-License-Identifier: MIT
/*
 * The Timeline pane: the trace view torch-tb-profiler had.  One lane per
 * CPU thread and per GPU stream, ops and kernels as blocks in time, the
 * nesting of ops shown by depth; for the step picked with [ and ] (or the
 * whole profile).  Its rows are the blocks in time order -- what the
 * cursor, the filter, --print timeline and exports see -- and its screen
 * is a picture of a window of time (tlview.c), zoomed and panned around
 * the selected block, which is the row under the cursor.
 *
 * The index (model/timeline.c) is made once, when the pane opens; every
 * key after that looks up only what the window shows.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/aggregate.h"
#include "../model/critical_path.h"
#include "../model/timeline.h"
#include "../model/util.h"
#include "canvas.h"
#include "detail.h"
#include "pane.h"
#include "tl_range.h"
#include "tl_counters.h"
#include "tlview.h"

#define BLOCK(r) ((const struct tl_block *)(r))

struct tl_priv {
	struct timeline tl;
	struct tlview view;
	const struct tl_block *shown_sel;	/* the block the window last went to */
	bool is_revealing;		/* the selection came from a jump: the
					   next picture zooms to it (reveal) */
	/* Flows: the host block whose device work o walks and the last
	 * block the walk went to; the partners of the selection as drawn
	 * (FLOW_SEL's: its call and op, or itself as the source). */
	const struct node *flow_host;
	const struct tl_block *flow_at;
	const struct tl_block *flow_sel;
	const struct node *flow_call, *flow_op, *flow_src;
	char flow_mark;
	/* Lanes pinned and hidden (p, d, D): TLV_* by lane, made at the
	 * first; the pane's own, not saved. */
	uint8_t *lane_flags;
	size_t nr_hidden;		/* lanes hidden */
	/* The critical path's events, marked <name> (c): sorted by address
	 * for a binary search per block drawn; NULL: not shown. */
	const struct node **path_nodes;
	size_t nr_path_nodes;
	/* The filter's verdict per name: names are interned, so each goes
	 * through PCRE2 once per filter, not once per block. */
	const char **names;
	bool *match;
	size_t cap, nr;
	/*
	 * What a rebuild reads instead of 2.5 M blocks' names: each row's
	 * name as its rank among the distinct names in strcmp() order
	 * (equal strings, one rank; no name: nr_ranks), made at the first
	 * sort by name or filter.  4 bytes a row, 10 MB for 2.5 M blocks.
	 * The rows and their names are fixed for the pane's life (a reload
	 * makes them anew with a new tl_priv), so nothing makes it stale.
	 */
	uint32_t *rank;			/* by index into pane->rows */
	const char **rank_name;		/* a name of each rank */
	size_t nr_ranks;
	int8_t *rank_kept;		/* the filter's verdict by rank: -1
					   not asked yet; reset per rebuild */
	size_t *spare_view;		/* a sort's output, as long as the
					   rows (20 MB for 2.5 M blocks), made
					   at the first sort that needs it;
					   it and the view swap */
	struct tl_counters counters;	/* the counter lanes (tl_counters.c) */
	uint64_t *sort_key[2];		/* a sort by duration's keys, two
					   arrays as long as the rows (40 MB
					   for 2.5 M blocks), kept from the
					   first */
	struct tl_range range;		/* a range being made (v), tl_range.c */
};

static const char *tl_row_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return node_name(BLOCK(row)->node);
}

static const struct attr *tl_row_attrs(const struct pane *pane, const void *row)
{
	(void)pane;
	return node_attrs(BLOCK(row)->node);
}

static struct cell get_lane(const struct pane *pane, const void *row, const struct column *c)
{
	const struct tl_priv *tp = pane->priv;

	(void)c;
	return cell_text(tp->tl.lanes[tp->tl.rows[BLOCK(row)->row].lane].name);
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(node_name(BLOCK(row)->node));
}

static struct cell get_start(const struct pane *pane, const void *row, const struct column *c)
{
	const struct tl_priv *tp = pane->priv;

	(void)c;
	return cell_int(BLOCK(row)->start_ns - tp->tl.start_ns);
}

static struct cell get_duration(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(tl_block_end(pane->prof, BLOCK(row)) - BLOCK(row)->start_ns);
}

static struct cell get_depth(const struct pane *pane, const void *row, const struct column *c)
{
	const struct tl_priv *tp = pane->priv;

	(void)c;
	return cell_int(tp->tl.rows[BLOCK(row)->row].depth);
}

static const struct column tl_cols[] = {
	{ .key = "lane", .title = "Lane", .kind = COL_TEXT, .width = 16, .get = get_lane,
	  .help = "the CPU thread or GPU stream it ran on (GPU: the device work of every "
		  "stream, when the trace does not say which)" },
	{ .key = "name", .title = "Name", .kind = COL_NAME, .get = get_name,
	  .help = "the op, runtime call or kernel" },
	{ .key = "start", .title = "Start", .kind = COL_TIME, .width = 11, .get = get_start,
	  .help = "when it started, after the profile's first event" },
	{ .key = "duration", .title = "Duration", .kind = COL_TIME, .width = 10,
	  .get = get_duration,
	  .help = "how long it ran: an op's host time, a kernel's device time" },
	{ .key = "depth", .title = "Depth", .kind = COL_COUNT, .width = 5, .get = get_depth,
	  .help = "how deep in its lane: 0 for the outermost op of a thread, and the row "
		  "of a stream's kernels that overlap" },
};

static void tl_load(struct pane *pane)
{
	struct tl_priv *tp = xcalloc(1, sizeof(*tp));
	const struct step *s = pane->scope.step;

	pane->priv = tp;
	timeline_build(pane->prof, &tp->tl);
	tl_counters_init(&tp->counters, pane->prof);
	pane->nr_rows = tp->tl.nr_blocks;
	pane->rows = timeline_by_start(&tp->tl);
	/* The view is as long as the rows at most: made here once (a
	 * reload keeps the one it has). */
	if (!pane->view)
		pane->view = xmalloc((pane->nr_rows ? pane->nr_rows : 1) * sizeof(*pane->view));
	for (size_t i = 0; i < ARRAY_SIZE(tl_cols); i++)
		pane_add_column(pane, &tl_cols[i]);
	pane->sort_col = -1;	/* time order */
	if (s && s->end_ns > s->start_ns)
		tlview_reset(&tp->view, &tp->tl, s->start_ns, s->end_ns);
	else
		tlview_reset(&tp->view, &tp->tl, tp->tl.start_ns, tp->tl.end_ns);
}

static void tl_release(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;

	if (!tp)
		return;
	tlview_release(&tp->view);
	tl_counters_release(&tp->counters);
	free(tp->lane_flags);
	free(tp->path_nodes);
	timeline_release(&tp->tl);
	free(tp->names);
	free(tp->match);
	free(tp->rank);
	free(tp->rank_name);
	free(tp->rank_kept);
	free(tp->spare_view);
	free(tp->sort_key[0]);
	free(tp->sort_key[1]);
	free(tp);
}

static bool verdict(struct tl_priv *tp, const struct filter *f, const char *name)
{
	size_t i;

	if (!f)
		return true;
	if (2 * (tp->nr + 1) > tp->cap) {
		const char **old_names = tp->names;
		bool *old_match = tp->match;
		size_t old_cap = tp->cap;

		tp->cap = tp->cap ? 2 * tp->cap : 1024;
		tp->names = xcalloc(tp->cap, sizeof(*tp->names));
		tp->match = xcalloc(tp->cap, sizeof(*tp->match));
		for (size_t k = 0; k < old_cap; k++) {
			if (!old_names[k])
				continue;
			for (i = hash_ptr(old_names[k]) & (tp->cap - 1); tp->names[i];
			     i = (i + 1) & (tp->cap - 1))
				;
			tp->names[i] = old_names[k];
			tp->match[i] = old_match[k];
		}
		free(old_names);
		free(old_match);
	}
	for (i = hash_ptr(name) & (tp->cap - 1); tp->names[i]; i = (i + 1) & (tp->cap - 1))
		if (tp->names[i] == name)
			return tp->match[i];
	tp->names[i] = name;
	tp->match[i] = filter_match(f, name, strlen(name));
	tp->nr++;
	return tp->match[i];
}

static bool in_step(const struct step *s, const struct tl_block *b)
{
	return !s || s->end_ns <= s->start_ns ||
	       (b->start_ns >= s->start_ns && b->start_ns < s->end_ns);
}

/* Whether the view holds B: it started in the step (node_in_step()'s
 * rule) and the filter keeps its name. */
static bool kept(struct pane *pane, const struct tl_block *b)
{
	return in_step(pane->scope.step, b) && verdict(pane->priv, pane->filter, node_name(b->node));
}

/* The first row (in time order) that starts at or after T. */
static size_t first_row_from(const struct pane *pane, int64_t t)
{
	size_t lo = 0, hi = pane->nr_rows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (BLOCK(pane->rows[mid])->start_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct name_id {
	const char *name;
	uint32_t id;
};

static int cmp_name_id(const void *a, const void *b)
{
	return strcmp(((const struct name_id *)a)->name, ((const struct name_id *)b)->name);
}

/* Fill tp->rank and tp->rank_name: the distinct name pointers, found
 * through a hash of pointers (names are interned), sorted once. */
static void make_ranks(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;
	size_t cap = 1024, nr = 0, alloc = 0, nr_ranks = 0;
	const char **slot = xcalloc(cap, sizeof(*slot));
	uint32_t *slot_id = xmalloc(cap * sizeof(*slot_id));
	struct name_id *uniq = NULL;
	uint32_t *rank_of, *rank = xmalloc((pane->nr_rows ? pane->nr_rows : 1) * sizeof(*rank));
	const char *last = NULL;
	uint32_t last_id = 0;

	/* Each row's name as an id, in order of first sight.  The name is
	 * the node's, two misses away (the block, then its node): both are
	 * asked for ahead, so that the misses of several rows overlap. */
	for (size_t i = 0; i < pane->nr_rows; i++) {
		const char *name = node_name(BLOCK(pane->rows[i])->node);
		size_t h;

		if (i + 32 < pane->nr_rows)
			PREFETCH(pane->rows[i + 32]);
		if (i + 16 < pane->nr_rows)
			PREFETCH(BLOCK(pane->rows[i + 16])->node);

		if (!name) {
			rank[i] = UINT32_MAX;
			continue;
		}
		if (name == last) {
			rank[i] = last_id;
			continue;
		}
		if (2 * (nr + 1) > cap) {
			const char **old = slot;
			uint32_t *old_id = slot_id;
			size_t old_cap = cap;

			cap *= 2;
			slot = xcalloc(cap, sizeof(*slot));
			slot_id = xmalloc(cap * sizeof(*slot_id));
			for (size_t k = 0; k < old_cap; k++) {
				if (!old[k])
					continue;
				for (h = hash_ptr(old[k]) & (cap - 1); slot[h]; h = (h + 1) & (cap - 1))
					;
				slot[h] = old[k];
				slot_id[h] = old_id[k];
			}
			free(old);
			free(old_id);
		}
		for (h = hash_ptr(name) & (cap - 1); slot[h] && slot[h] != name; h = (h + 1) & (cap - 1))
			;
		if (!slot[h]) {
			GROW(uniq, alloc, nr + 1);
			uniq[nr] = (struct name_id){ name, (uint32_t)nr };
			slot[h] = name;
			slot_id[h] = (uint32_t)nr++;
		}
		last = name;
		last_id = rank[i] = slot_id[h];
	}
	free(slot_id);
	free(slot);
	/* The ids by name give the ranks; equal strings (at two addresses)
	 * share one. */
	qsort(uniq, nr, sizeof(*uniq), cmp_name_id);
	rank_of = xmalloc((nr ? nr : 1) * sizeof(*rank_of));
	tp->rank_name = xmalloc((nr ? nr : 1) * sizeof(*tp->rank_name));
	for (size_t r = 0; r < nr; r++) {
		if (!r || strcmp(uniq[r - 1].name, uniq[r].name))
			tp->rank_name[nr_ranks++] = uniq[r].name;
		rank_of[uniq[r].id] = (uint32_t)(nr_ranks - 1);
	}
	for (size_t i = 0; i < pane->nr_rows; i++)
		rank[i] = rank[i] == UINT32_MAX ? (uint32_t)nr_ranks : rank_of[rank[i]];
	free(rank_of);
	free(uniq);
	tp->rank = rank;
	tp->nr_ranks = nr_ranks;
	tp->rank_kept = xmalloc(nr_ranks + 1);
}

/* Whether the filter keeps the names of rank R (one PCRE2 match a name,
 * not a block). */
static bool rank_kept(struct tl_priv *tp, const struct filter *f, uint32_t r)
{
	if (r == tp->nr_ranks)
		return false;	/* no name */
	if (tp->rank_kept[r] < 0)
		tp->rank_kept[r] = filter_match(f, tp->rank_name[r], strlen(tp->rank_name[r]));
	return tp->rank_kept[r];
}

/* Where a sort of the view writes: an array as long as the rows, made
 * at the first sort and kept; the sort swaps it with the view. */
static size_t *spare_view(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;

	if (!tp->spare_view)
		tp->spare_view = xmalloc((pane->nr_rows ? pane->nr_rows : 1) *
					 sizeof(*tp->spare_view));
	return tp->spare_view;
}

/*
 * The view by name: a counting sort by rank, stable, names missing last
 * either way -- what pane_sort_indices() gives (a stable sort by the
 * strings), without a trip to each block.
 */
static void sort_view_by_name(struct pane *pane, bool desc)
{
	struct tl_priv *tp = pane->priv;
	size_t k = tp->nr_ranks, *start = xcalloc(k + 2, sizeof(*start)), *out = spare_view(pane);

	for (size_t i = 0; i < pane->nr_view; i++) {
		uint32_t r = tp->rank[pane->view[i]];

		start[(desc && r < k ? k - 1 - r : r) + 1]++;
	}
	for (size_t r = 1; r <= k + 1; r++)
		start[r] += start[r - 1];
	for (size_t i = 0; i < pane->nr_view; i++) {
		uint32_t r = tp->rank[pane->view[i]];

		out[start[desc && r < k ? k - 1 - r : r]++] = pane->view[i];
	}
	tp->spare_view = pane->view;
	pane->view = out;
	free(start);
}

/* Ties of start, in the view's order, whichever way: by start is the
 * rows' own order, so ascending the view stays; descending, each group
 * of equal starts moves as one, its rows in their order (a stable sort's
 * result, without one). */
static void sort_view_by_start(struct pane *pane, bool desc)
{
	struct tl_priv *tp = pane->priv;
	size_t n = pane->nr_view, *out, k = 0;

	if (!desc || n < 2)
		return;
	out = spare_view(pane);
	for (size_t end = n; end > 0;) {
		size_t from = end - 1;
		int64_t t = BLOCK(pane->rows[pane->view[from]])->start_ns;

		while (from > 0 && BLOCK(pane->rows[pane->view[from - 1]])->start_ns == t)
			from--;
		for (size_t i = from; i < end; i++)
			out[k++] = pane->view[i];
		end = from;
	}
	tp->spare_view = pane->view;
	pane->view = out;
}

static int cmp_lane_name(const void *a, const void *b)
{
	const struct tl_lane *x = *(const struct tl_lane *const *)a;
	const struct tl_lane *y = *(const struct tl_lane *const *)b;

	return strcmp(x->name, y->name);
}

/* Each lane's rank among the lanes' names (equal names, one rank), as
 * a sort by the Lane column orders them; the caller frees it. */
static uint32_t *lane_ranks(const struct timeline *tl)
{
	const struct tl_lane **by_name = xmalloc((tl->nr_lanes + 1) * sizeof(*by_name));
	uint32_t *rank = xmalloc((tl->nr_lanes + 1) * sizeof(*rank));

	for (size_t i = 0; i < tl->nr_lanes; i++)
		by_name[i] = &tl->lanes[i];
	qsort(by_name, tl->nr_lanes, sizeof(*by_name), cmp_lane_name);
	for (size_t i = 0, r = 0; i < tl->nr_lanes; i++) {
		if (i && strcmp(by_name[i - 1]->name, by_name[i]->name))
			r = i;
		rank[by_name[i] - tl->lanes] = (uint32_t)r;
	}
	free(by_name);
	return rank;
}

/* The key of a sort by depth or lane: the row's depth, or its lane's
 * rank (LANE_RANK). */
static size_t small_key(const struct tl_priv *tp, const uint32_t *lane_rank,
			const struct tl_block *b)
{
	const struct tl_row *row = &tp->tl.rows[b->row];

	return lane_rank ? lane_rank[row->lane] : row->depth;
}

/*
 * The view by depth or lane: a counting sort (depths stop at 256, lanes
 * are few), stable -- ties keep the view's order, which is the rows'
 * own -- as the generic sort gives, without its trip through each cell
 * (85-110 ms on 2.5 M blocks).
 */
static void sort_view_by_small(struct pane *pane, bool by_lane, bool desc)
{
	struct tl_priv *tp = pane->priv;
	uint32_t *lane_rank = by_lane ? lane_ranks(&tp->tl) : NULL;
	size_t k = by_lane ? tp->tl.nr_lanes : 0, *start, *out;

	if (!by_lane)
		for (size_t r = 0; r < tp->tl.nr_rows; r++)
			if (tp->tl.rows[r].depth + 1 > k)
				k = tp->tl.rows[r].depth + 1;
	start = xcalloc(k + 1, sizeof(*start));
	out = spare_view(pane);
	for (size_t i = 0; i < pane->nr_view; i++) {
		size_t key = small_key(tp, lane_rank, BLOCK(pane->rows[pane->view[i]]));

		start[(desc ? k - 1 - key : key) + 1]++;
	}
	for (size_t r = 1; r <= k; r++)
		start[r] += start[r - 1];
	for (size_t i = 0; i < pane->nr_view; i++) {
		size_t key = small_key(tp, lane_rank, BLOCK(pane->rows[pane->view[i]]));

		out[start[desc ? k - 1 - key : key]++] = pane->view[i];
	}
	tp->spare_view = pane->view;
	pane->view = out;
	free(start);
	free(lane_rank);
}

/*
 * The view by duration, as the generic sort orders it (stable: ties
 * keep the view's order, which is the rows' own), but with each row's
 * duration and index in one 64-bit key, radix sorted eleven bits a pass:
 * the generic sort fetched each cell through its column and took 110-140
 * ms on 2.5 M blocks.  False when duration and index do not fit in 64
 * bits (then the generic sort does it).
 */
static bool sort_view_by_duration(struct pane *pane, bool desc)
{
	struct tl_priv *tp = pane->priv;
	size_t n = pane->nr_view, idx_bits = 1, count[2048];
	uint64_t *key, *tmp, max = 0, mask;

	if (n < 2)
		return true;
	while (idx_bits < 64 && ((size_t)1 << idx_bits) < pane->nr_rows)
		idx_bits++;
	for (size_t i = 0; i < n; i++) {
		const struct tl_block *b = BLOCK(pane->rows[pane->view[i]]);

		if ((uint64_t)(tl_block_end(pane->prof, b) - b->start_ns) > max)
			max = (uint64_t)(tl_block_end(pane->prof, b) - b->start_ns);
	}
	if (idx_bits >= 64 || (max >> (64 - idx_bits)))
		return false;
	for (int i = 0; i < 2; i++)
		if (!tp->sort_key[i])
			tp->sort_key[i] = xmalloc((pane->nr_rows ? pane->nr_rows : 1) *
							 sizeof(*tp->sort_key[i]));
	key = tp->sort_key[0];
	tmp = tp->sort_key[1];
	for (size_t i = 0; i < n; i++) {
		const struct tl_block *b = BLOCK(pane->rows[pane->view[i]]);
		uint64_t d = (uint64_t)(tl_block_end(pane->prof, b) - b->start_ns);

		key[i] = (desc ? max - d : d) << idx_bits | pane->view[i];
	}
	for (int shift = 0; shift < 64; shift += 11) {
		size_t sum = 0;
		uint64_t *t;

		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(key[i] >> shift) & 2047]++;
		if (count[(key[0] >> shift) & 2047] == n)
			continue;	/* one digit for all: nothing moves */
		for (size_t d = 0; d < 2048; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(key[i] >> shift) & 2047]++] = key[i];
		t = key;
		key = tmp;
		tmp = t;
	}
	mask = ((uint64_t)1 << idx_bits) - 1;
	for (size_t i = 0; i < n; i++)
		pane->view[i] = (size_t)(key[i] & mask);
	return true;
}

struct fill_job {
	size_t *view;		/* gets FROM..TO */
	size_t from, to;
};

static void *fill_main(void *arg)
{
	struct fill_job *job = arg;

	for (size_t i = job->from; i < job->to; i++)
		job->view[i - job->from] = i;
	return NULL;
}

/* VIEW[0..TO-FROM) = FROM..TO: on two threads for many rows, as the
 * view's 20 MB for 2.5 M blocks are written the first time at the
 * pane's open, at ~0.75 ms a MB. */
static void fill_view(size_t *view, size_t from, size_t to)
{
	size_t mid = from + (to - from) / 2;
	struct fill_job first = { view, from, mid }, second = { view + (mid - from), mid, to };
	pthread_t helper;

	if (timeline_two_threads(to - from) && !pthread_create(&helper, NULL, fill_main, &second)) {
		fill_main(&first);
		pthread_join(helper, NULL);
		return;
	}
	first.to = to;
	fill_main(&first);
}

/*
 * The view: the blocks of the step that the filter keeps, in time order
 * (or the sort's).  The rows are in time order, so a step is a range of
 * them, found by two binary searches; only the filter looks at each.
 */
static void tl_rebuild(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;
	const struct step *s = pane->scope.step;
	size_t n = 0, from = 0, to = pane->nr_rows;
	col_get *by = pane->sort_col >= 0 && pane->sort_col < (int)pane->nr_cols
			      ? pane->cols[pane->sort_col].get
			      : NULL;
	bool by_name = by == get_name;

	pane->view = xrealloc(pane->view, (pane->nr_rows ? pane->nr_rows : 1) * sizeof(*pane->view));
	/* The verdicts are the filter's: a new one (which may sit where a
	 * freed one did) starts them afresh. */
	if (tp->nr) {
		memset(tp->names, 0, tp->cap * sizeof(*tp->names));
		tp->nr = 0;
	}
	if ((pane->filter || by_name) && !tp->rank)
		make_ranks(pane);
	if (tp->rank_kept)
		memset(tp->rank_kept, -1, tp->nr_ranks + 1);
	if (s && s->end_ns > s->start_ns) {
		from = first_row_from(pane, s->start_ns);
		to = first_row_from(pane, s->end_ns);
	}
	if (!pane->filter) {
		fill_view(pane->view, from, to);
		n = to - from;
	} else {
		for (size_t i = from; i < to; i++)
			if (rank_kept(tp, pane->filter, tp->rank[i]))
				pane->view[n++] = i;
	}
	pane->nr_view = n;
	/* The pane's own columns sort here, as pane_sort_indices() would
	 * sort them, without a trip through each cell. */
	if (by_name)
		sort_view_by_name(pane, pane->sort_desc);
	else if (by == get_start)
		sort_view_by_start(pane, pane->sort_desc);
	else if (by == get_depth || by == get_lane)
		sort_view_by_small(pane, by == get_lane, pane->sort_desc);
	else if (by == get_duration && sort_view_by_duration(pane, pane->sort_desc))
		;
	else
		pane_sort_indices(pane, pane->view, n, pane->sort_col, pane->sort_desc);
}

static int cmp_node_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const struct node *const *)a;
	uintptr_t y = (uintptr_t) * (const struct node *const *)b;

	return (x > y) - (x < y);
}

/* The critical path (model/critical_path.h) of the step shown, else of
 * the longest step (the Critical path pane's default), as the events its
 * links are attributed to; NULL message when there is one. */
static const char *path_marks_make(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;
	const struct step *s = pane->scope.step ? pane->scope.step : cpath_default_step(pane->prof);
	struct cpath_options o;
	struct critical_path c;
	size_t n = 0;

	free(tp->path_nodes);
	tp->path_nodes = NULL;
	tp->nr_path_nodes = 0;
	cpath_options_for_step(&o, s);
	cpath_compute(pane->prof, &o, &c);
	if (!c.nr_links) {
		cpath_release(&c);
		return "no critical path here: no work in the step";
	}
	tp->path_nodes = xmalloc(c.nr_links * sizeof(*tp->path_nodes));
	for (size_t i = 0; i < c.nr_links; i++)
		if (c.links[i].event)
			tp->path_nodes[n++] = c.links[i].event;
	qsort(tp->path_nodes, n, sizeof(*tp->path_nodes), cmp_node_ptr);
	tp->nr_path_nodes = n;
	cpath_release(&c);
	return NULL;
}

static bool is_on_path_cb(const struct tl_block *b, void *ctx)
{
	const struct tl_priv *tp = ((struct pane *)ctx)->priv;

	return tp->path_nodes && bsearch(&b->node, tp->path_nodes, tp->nr_path_nodes,
					 sizeof(*tp->path_nodes), cmp_node_ptr);
}

static void tl_step_changed(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;
	const struct step *s = pane->scope.step;

	tlview_release(&tp->view);
	if (s && s->end_ns > s->start_ns)
		tlview_reset(&tp->view, &tp->tl, s->start_ns, s->end_ns);
	else
		tlview_reset(&tp->view, &tp->tl, tp->tl.start_ns, tp->tl.end_ns);
	if (tp->lane_flags)
		tlview_set_lanes(&tp->view, tp->lane_flags);	/* pins and hides stay */
	tp->shown_sel = NULL;
	if (tp->path_nodes)	/* the marks follow the step */
		path_marks_make(pane);
}

/* The view index of B, or SIZE_MAX when the view does not hold it.  In
 * time order, a binary search by start finds it. */
static size_t view_index(const struct pane *pane, const struct tl_block *b)
{
	size_t lo = 0, hi = pane->nr_view;

	if (pane->sort_col < 0) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (BLOCK(pane_row(pane, mid))->start_ns < b->start_ns)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < pane->nr_view && BLOCK(pane_row(pane, lo))->start_ns == b->start_ns; lo++)
			if (pane_row(pane, lo) == b)
				return lo;
		return SIZE_MAX;
	}
	for (size_t i = 0; i < pane->nr_view; i++)
		if (pane_row(pane, i) == b)
			return i;
	return SIZE_MAX;
}

static bool select_block(struct pane *pane, const struct tl_block *b)
{
	size_t i = b ? view_index(pane, b) : SIZE_MAX;

	if (i == SIZE_MAX)
		return false;
	pane->cursor = i;
	return true;
}

static const struct tl_block *selected(const struct pane *pane)
{
	return pane->nr_view ? pane_row(pane, pane->cursor) : NULL;
}

/* The block of row R nearest to time T that the view keeps, searching
 * outwards from the nearest one; NULL when the row has none in the
 * window. */
static const struct tl_block *nearest_kept(struct pane *pane, size_t r, int64_t t)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_row *row = &tp->tl.rows[r];
	size_t i = timeline_nearest(row, t), lo = i, hi = i + 1;

	if (!row->nr)
		return NULL;
	/* Outwards, within the window; a long way for a sparse filter. */
	while (lo < row->nr || hi < row->nr) {
		if (lo < row->nr) {
			const struct tl_block *b = tl_row_block(row, lo);
			bool in_window = tl_block_end(pane->prof, b) > tp->view.t0;

			if (in_window && kept(pane, b))
				return b;
			lo = lo && in_window ? lo - 1 : row->nr;
		}
		if (hi < row->nr) {
			const struct tl_block *b = tl_row_block(row, hi);

			if (b->start_ns < tp->view.t1 && kept(pane, b))
				return b;
			hi = b->start_ns < tp->view.t1 ? hi + 1 : row->nr;
		}
	}
	return NULL;
}

/* Up or down (DIR) to the nearest row that has a kept block near the
 * selected one's time. */
static void move_row(struct pane *pane, int dir, int times)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane);
	int64_t t = sel ? sel->start_ns + (tl_block_end(pane->prof, sel) - sel->start_ns) / 2
			: tp->view.t0 + (tp->view.t1 - tp->view.t0) / 2;
	/* Rows as drawn: pinned lanes first, hidden ones left out. */
	long r = sel && tlview_place(&tp->view, sel->row) != SIZE_MAX
			 ? (long)tlview_place(&tp->view, sel->row)
			 : (long)(tp->view.nr_pinned + tp->view.top) - dir;

	while (times-- > 0) {
		const struct tl_block *b = NULL;

		for (long k = r + dir; !b && k >= 0 && k < (long)tlview_nr_rows(&tp->view); k += dir) {
			b = nearest_kept(pane, tlview_row_at(&tp->view, (size_t)k), t);
			if (b)
				r = k;
		}
		if (!b)
			break;
		select_block(pane, b);
	}
}

/* The block before or after the selected one in its row (DIR), among
 * those the view keeps. */
static bool move_in_row(struct pane *pane, int dir)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane);
	const struct tl_row *row;
	long i;

	if (!sel)
		return false;
	row = &tp->tl.rows[sel->row];
	for (i = (long)timeline_index_in_row(&tp->tl, sel) + dir; i >= 0 && i < (long)row->nr;
	     i += dir) {
		if (kept(pane, tl_row_block(row, (size_t)i))) {
			select_block(pane, tl_row_block(row, (size_t)i));
			return true;
		}
	}
	return false;
}

/* The next or previous block (DIR) of the selected one's name, in time. */
static bool next_instance(struct pane *pane, int dir)
{
	const struct tl_block *sel = selected(pane);

	if (!sel)
		return false;
	for (long i = (long)pane->cursor + dir; i >= 0 && i < (long)pane->nr_view; i += dir) {
		if (node_name(BLOCK(pane_row(pane, (size_t)i))->node) == node_name(sel->node)) {
			pane->cursor = (size_t)i;
			return true;
		}
	}
	return false;
}

/* After the window moved: a selection it left behind follows, to the
 * block of its row nearest the middle. */
static void follow_window(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane), *b;

	if (!sel || (tl_block_end(pane->prof, sel) > tp->view.t0 && sel->start_ns < tp->view.t1))
		return;
	b = nearest_kept(pane, sel->row, tp->view.t0 + (tp->view.t1 - tp->view.t0) / 2);
	if (b && select_block(pane, b))
		tp->shown_sel = b;
}

/* Whether host node N is where flows start: an op (an Operators row) or
 * a runtime call; a step or an annotation is no launch. */
static bool is_flow_host(const struct node *n)
{
	return node_is_op_row(n) || n->kind == NODE_RUNTIME;
}

static bool is_kept_cb(const struct tl_block *b, void *ctx)
{
	return kept(ctx, b);
}

/* The kept block of the host that device block B came from: its op's,
 * else its call's; NULL: neither is in the view. */
static const struct tl_block *flow_source(struct pane *pane, const struct tl_block *b)
{
	struct tl_priv *tp = pane->priv;
	const struct node *from[2] = { timeline_flow_op(b->node), timeline_flow_call(b->node) };

	for (size_t i = 0; i < ARRAY_SIZE(from); i++) {
		const struct tl_block *src = from[i] ? timeline_block_of(&tp->tl, from[i]) : NULL;

		if (src && kept(pane, src) && view_index(pane, src) != SIZE_MAX)
			return src;
	}
	return NULL;
}

/* Go along a flow: DOWN (o) from an op or call to its first kernel, and
 * from a kernel to the next that the walk's op (else its own) launched;
 * up (O) from a kernel to the op that launched it.  Coming back down to
 * the op that a walk went up to resumes the walk where it was.  NULL, or
 * why it went nowhere. */
static const char *follow_flow(struct pane *pane, bool down)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane), *to, *after = NULL;
	const struct node *host;

	if (!sel)
		return "no block selected";
	if (!node_kind_is_device(sel->node->kind)) {
		if (!down)
			return "flows go down from an op to its kernels: o follows them";
		if (!is_flow_host(sel->node))
			return "only ops and runtime calls launch kernels";
		host = sel->node;
		if (tp->flow_host == host && tp->flow_at && kept(pane, tp->flow_at) &&
		    select_block(pane, tp->flow_at))
			return NULL;	/* back where the walk was */
	} else if (tp->flow_host && timeline_flow_from(tp->flow_host, sel->node)) {
		host = tp->flow_host;
		after = sel;
	} else {
		const struct tl_block *src = flow_source(pane, sel);

		if (!src)
			return "no op or call that launched it is in the view";
		host = src->node;
		after = sel;
	}
	if (!down) {
		to = timeline_block_of(&tp->tl, host);
		if (!to || !kept(pane, to) || !select_block(pane, to))
			return "no op or call that launched it is in the view";
		tp->flow_host = host;
		tp->flow_at = sel;
		return NULL;
	}
	to = timeline_flow_next(&tp->tl, host, after, is_kept_cb, pane);
	if (!to || !select_block(pane, to))
		return after ? "the last kernel its op launched (O goes up to the op)"
			     : "no kernel in the view came from it";
	tp->flow_host = host;
	tp->flow_at = to;
	return NULL;
}

/* The partners of the selection, for the picture: a kernel's call and op
 * ('^': above it), an op's or call's kernels ('v': below), made once per
 * selection (an op without kernels costs a walk of its subtree). */
static void find_flows(struct pane *pane, const struct tl_block *sel)
{
	struct tl_priv *tp = pane->priv;

	if (sel == tp->flow_sel)
		return;
	tp->flow_sel = sel;
	tp->flow_call = tp->flow_op = tp->flow_src = NULL;
	tp->flow_mark = 0;
	if (!sel)
		return;
	if (node_kind_is_device(sel->node->kind)) {
		tp->flow_call = timeline_flow_call(sel->node);
		tp->flow_op = timeline_flow_op(sel->node);
		if ((tp->flow_call && timeline_block_of(&tp->tl, tp->flow_call)) ||
		    (tp->flow_op && timeline_block_of(&tp->tl, tp->flow_op)))
			tp->flow_mark = '^';
	} else if (is_flow_host(sel->node) &&
		   timeline_flow_next(&tp->tl, sel->node, NULL, NULL, NULL)) {
		tp->flow_src = sel->node;
		tp->flow_mark = 'v';
	}
}

static bool is_flow_cb(const struct tl_block *b, void *ctx)
{
	const struct tl_priv *tp = ((struct pane *)ctx)->priv;

	if (tp->flow_src)
		return timeline_flow_from(tp->flow_src, b->node);
	return b->node == tp->flow_call || b->node == tp->flow_op;
}

/* The lanes' flags, made at the first pin or hide. */
static uint8_t *lane_flags(struct tl_priv *tp)
{
	if (!tp->lane_flags)
		tp->lane_flags = xcalloc(tp->tl.nr_lanes ? tp->tl.nr_lanes : 1, 1);
	return tp->lane_flags;
}

/* Set or clear FLAG of LANE (SIZE_MAX: of every lane) and draw the lanes
 * anew. */
static void set_lane_flag(struct tl_priv *tp, size_t lane, uint8_t flag, bool on)
{
	uint8_t *f = lane_flags(tp);

	for (size_t l = 0; l < tp->tl.nr_lanes; l++)
		if (lane == SIZE_MAX || l == lane)
			f[l] = on ? f[l] | flag : f[l] & ~flag;
	tp->nr_hidden = 0;
	for (size_t l = 0; l < tp->tl.nr_lanes; l++)
		tp->nr_hidden += !!(f[l] & TLV_HIDDEN);
	tlview_set_lanes(&tp->view, f);
	tp->shown_sel = NULL;	/* the selection's row is put on screen */
}

/* Pin or unpin the selected block's lane. */
static const char *pin_lane(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane);
	size_t lane;
	bool pinned;

	if (!sel)
		return "no block selected: no lane to pin";
	lane = tp->tl.rows[sel->row].lane;
	pinned = tp->lane_flags && (tp->lane_flags[lane] & TLV_PINNED);
	set_lane_flag(tp, lane, TLV_PINNED, !pinned);
	return pinned ? "lane unpinned" : "lane pinned at the top (p again unpins)";
}

/* Hide the selected block's lane; the selection goes to the nearest block
 * of the next lane shown (else the one before). */
static const char *hide_lane(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane), *to = NULL;
	int64_t t;
	size_t lane, k;

	if (!sel)
		return "no block selected: no lane to hide";
	lane = tp->tl.rows[sel->row].lane;
	k = tlview_place(&tp->view, sel->row);
	t = sel->start_ns + (tl_block_end(pane->prof, sel) - sel->start_ns) / 2;
	for (int dir = 1; !to && dir >= -1 && k != SIZE_MAX; dir -= 2)
		for (long i = (long)k + dir; !to && i >= 0 && i < (long)tlview_nr_rows(&tp->view);
		     i += dir) {
			size_t r = tlview_row_at(&tp->view, (size_t)i);

			if (tp->tl.rows[r].lane != lane)
				to = nearest_kept(pane, r, t);
		}
	if (!to)
		return "no other lane shown has a block in the window: z shows all of it";
	select_block(pane, to);
	set_lane_flag(tp, lane, TLV_HIDDEN, true);
	return "lane hidden (D shows every lane)";
}

static bool tl_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane);
	int64_t mid = sel ? sel->start_ns + (tl_block_end(pane->prof, sel) - sel->start_ns) / 2 : -1;
	int page = tp->view.rows_shown > 1 ? tp->view.rows_shown - 1 : 1;
	bool at_top = !sel || tlview_place(&tp->view, sel->row) == 0;

	/* Enter or i on a counter lane: its row of the Counters pane. */
	if ((act == ACT_DRILL || act == ACT_INSPECT) && tl_counters_has_cursor(&tp->counters)) {
		req->open = true;
		req->open_pane = PANE_COUNTERS;
		req->open_row = tl_counters_cursor_name(&tp->counters);
		return true;
	}
	if (tl_counters_handle(&tp->counters, act, at_top, tp->nr_hidden != 0, &req->message))
		return true;
	switch (act) {
	case ACT_MOVE_UP:
	case ACT_MOVE_DOWN:
	case ACT_PAGE_UP:
	case ACT_PAGE_DOWN:
	case ACT_HALF_UP:
	case ACT_HALF_DOWN:
		move_row(pane, act == ACT_MOVE_UP || act == ACT_PAGE_UP || act == ACT_HALF_UP ? -1 : 1,
			 act == ACT_MOVE_UP || act == ACT_MOVE_DOWN   ? 1
			 : act == ACT_PAGE_UP || act == ACT_PAGE_DOWN ? page
								      : (page + 1) / 2);
		return true;
	case ACT_PREV_BLOCK:
	case ACT_NEXT_BLOCK:
	case ACT_SCROLL_LEFT:
	case ACT_SCROLL_RIGHT:
		if (!move_in_row(pane, act == ACT_PREV_BLOCK || act == ACT_SCROLL_LEFT ? -1 : 1))
			req->message = "no more blocks that way in this lane";
		return true;
	case ACT_PATH_MARKS:
		if (tp->path_nodes) {
			free(tp->path_nodes);
			tp->path_nodes = NULL;
			req->message = "critical path marks off";
		} else {
			req->message = path_marks_make(pane);
			if (!req->message)
				req->message = "<name>: a block on the critical path of the step "
					       "(the longest when none is chosen); c again: off";
		}
		return true;
	case ACT_PREV_INSTANCE:
	case ACT_NEXT_INSTANCE:
		if (!next_instance(pane, act == ACT_PREV_INSTANCE ? -1 : 1))
			req->message = act == ACT_PREV_INSTANCE ? "no earlier block of this name"
								: "no later block of this name";
		return true;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT:
		tlview_zoom(&tp->view, mid, act == ACT_ZOOM_IN ? 0.5 : 2.0);
		follow_window(pane);
		return true;
	case ACT_ZOOM_ALL:
		tlview_zoom(&tp->view, mid, 1e18);
		return true;
	case ACT_PAN_LEFT:
	case ACT_PAN_RIGHT:
		tlview_pan(&tp->view, act == ACT_PAN_LEFT ? -0.5 : 0.5);
		follow_window(pane);
		return true;
	case ACT_FOLLOW_FLOW:
	case ACT_FLOW_BACK:
		req->message = follow_flow(pane, act == ACT_FOLLOW_FLOW);
		return true;
	case ACT_PIN_LANE:
		req->message = pin_lane(pane);
		return true;
	case ACT_HIDE_LANE:
		req->message = hide_lane(pane);
		return true;
	case ACT_RANGE_MARK:
	case ACT_RANGE_VISUAL:
	case ACT_RANGE_SUMMARY:
	case ACT_RANGE_CLEAR:
		return tl_range_act(&tp->range, &tp->tl, &pane->scope, sel, act, req);
	case ACT_SHOW_LANES:
		if (!tp->nr_hidden) {
			req->message = "no lane is hidden";
			return true;
		}
		set_lane_flag(tp, SIZE_MAX, TLV_HIDDEN, false);
		req->message = "every lane shown";
		return true;
	default:
		return false;
	}
}

static void tl_canvas(struct pane *pane, struct canvas *c)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane);
	struct tlview_style st = {
		.sel = sel, .has_filter = pane->filter != NULL, .is_kept = is_kept_cb, .ctx = pane,
		.name_of = c->name_of, .name_ctx = c->name_ctx, .is_flow = is_flow_cb,
		.is_on_path = is_on_path_cb,
	};

	tp->view.band = tl_counters_rows(&tp->counters, c->rows);
	tp->view.rows_shown = c->rows - 1 - tp->view.band;
	tp->view.cols_shown = c->cols;
	/* A selection in a hidden lane (a jump, a flow, a search) shows
	 * the lane again. */
	if (sel && tlview_place(&tp->view, sel->row) == SIZE_MAX)
		set_lane_flag(tp, tp->tl.rows[sel->row].lane, TLV_HIDDEN, false);
	if (tp->is_revealing) {
		tlview_focus(&tp->view, sel);
		tp->shown_sel = sel;
		tp->is_revealing = false;
	} else if (sel != tp->shown_sel) {
		tlview_show(&tp->view, sel);
		tp->shown_sel = sel;
	}
	find_flows(pane, sel);
	st.flow_mark = tp->flow_mark;
	tlview_paint(&tp->view, &st, c);
	tl_range_paint(&tp->range, &pane->scope, sel, &tp->view, c);
	tl_counters_paint(&tp->counters, &tp->view, c, tp->view.band_shown);
}

static const struct node *tl_row_node(const struct pane *pane, const void *row)
{
	(void)pane;
	return BLOCK(row)->node;
}

static void tl_reveal(struct pane *pane)
{
	struct tl_priv *tp = pane->priv;

	tp->is_revealing = true;
}

static bool tl_click(struct pane *pane, int y, int x, bool twice)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *b = tlview_hit(&tp->view, y, x);

	(void)twice;
	if (!b || !select_block(pane, b))
		return false;
	tp->shown_sel = b;	/* it is on screen: no jump */
	return true;
}

static bool tl_drag(struct pane *pane, int x0, int x1, struct pane_request *req)
{
	struct tl_priv *tp = pane->priv;

	tp->range.anchored = false;
	return tl_range_drag(&tp->view, tp->view.cols_shown, x0, x1, req);
}

/* On a counter lane, its value at the cursor's time (the selected
 * block's start, else the window's middle) after the window. */
static void counter_status(const struct pane *pane, char *buf, size_t size)
{
	struct tl_priv *tp = pane->priv;
	const struct tl_block *sel = selected(pane);
	int64_t t = sel ? sel->start_ns : tp->view.t0 + (tp->view.t1 - tp->view.t0) / 2;
	size_t len = strlen(buf);

	if (!tl_counters_has_cursor(&tp->counters) || len + 3 >= size)
		return;
	snprintf(buf + len, size - len, ",  ");
	tl_counters_status(&tp->counters, t, tp->view.lo, buf + len + 3, size - len - 3);
}

static void tl_status(const struct pane *pane, char *buf, size_t size)
{
	const struct tl_priv *tp = pane->priv;
	char a[32], b[32], all[32], range[128];
	size_t n;

	if (!tp->tl.nr_blocks) {
		buf[0] = '\0';
		return;
	}
	tlview_fmt_time(tp->view.t0 - tp->view.lo, a, sizeof(a));
	tlview_fmt_time(tp->view.t1 - tp->view.lo, b, sizeof(b));
	tlview_fmt_time(tp->view.hi - tp->view.lo, all, sizeof(all));
	if (tp->nr_hidden)
		snprintf(buf, size, " %s - %s of %s, %zu lane%s hidden", a, b, all, tp->nr_hidden,
			 tp->nr_hidden == 1 ? "" : "s");
	else
		snprintf(buf, size, " %s - %s of %s", a, b, all);
	tl_range_status(&tp->range, &pane->scope, selected(pane), &tp->view, range, sizeof(range));
	n = strlen(buf);
	if (range[0] && n < size)
		snprintf(buf + n, size - n, ", %s", range);
	counter_status(pane, buf, size);
}

static void tl_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (!pane->prof->has_timeline)
		snprintf(buf, size, "this profile's rows carry no times: no timeline to draw");
	else
		snprintf(buf, size, "nothing ran in this step");
}

static void tl_detail(const struct pane *pane, const void *row, struct detail *d)
{
	(void)pane;
	detail_node(d, BLOCK(row)->node);
}

/* A tab where there are times to draw, for one profile (a diff or the
 * ranks of a job together are not one timeline; one rank alone is). */
static bool tl_available(const struct profile *prof, const struct pane_scope *scope)
{
	return prof->has_timeline && (!scope->set || scope->per_rank);
}

static const enum action tl_hints[] = {
	ACT_HELP, ACT_FILTER, ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_NEXT_BLOCK, ACT_NEXT_INSTANCE,
	ACT_INSPECT, ACT_BACK, ACT_NONE,
};

/* The range's keys, where the bar has room (120 columns; not 80). */
static const enum action tl_more_hints[] = { ACT_RANGE_MARK, ACT_RANGE_SUMMARY, ACT_NONE };

/* The actions handle() takes. */
static const enum action tl_actions[] = {
	ACT_MOVE_UP, ACT_MOVE_DOWN, ACT_PAGE_UP, ACT_PAGE_DOWN, ACT_HALF_UP, ACT_HALF_DOWN,
	ACT_PREV_BLOCK, ACT_NEXT_BLOCK, ACT_SCROLL_LEFT, ACT_SCROLL_RIGHT, ACT_PREV_INSTANCE,
	ACT_NEXT_INSTANCE, ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_ZOOM_ALL, ACT_PAN_LEFT, ACT_PAN_RIGHT,
	ACT_FOLLOW_FLOW, ACT_FLOW_BACK, ACT_PIN_LANE, ACT_HIDE_LANE, ACT_SHOW_LANES, ACT_PATH_MARKS,
	ACT_RANGE_MARK, ACT_RANGE_VISUAL, ACT_RANGE_SUMMARY, ACT_RANGE_CLEAR, ACT_COUNTER_LANES,
	ACT_DRILL, ACT_INSPECT, ACT_NONE,
};

static const char *tl_busy(const struct pane *pane, enum action act)
{
	const struct tl_priv *tp = pane->priv;

	if (!tp || !tl_counters_is_slow(&tp->counters, act))
		return NULL;
	return "making the counter series (GPU utilization, queues, memory)...";
}

/* A counter series' name (from Counters' Enter or w): its lane. */
static bool tl_seek(struct pane *pane, const char *name)
{
	struct tl_priv *tp = pane->priv;

	return tp && tl_counters_seek(&tp->counters, name);
}

static const struct pane_picture_ops tl_picture = {
	.canvas = tl_canvas, .click = tl_click, .drag = tl_drag, .reveal = tl_reveal,
	.seek = tl_seek,
};
static const struct pane_text_ops tl_text = {
	.status = tl_status, .hints = tl_hints, .more_hints = tl_more_hints, .detail = tl_detail,
	.where = "on the Timeline",
	.busy = tl_busy,
};

const struct pane_ops timeline_pane_ops = {
	.id = PANE_TIMELINE, .flags = PANE_FOLLOWS_STEP | PANE_DRAWS_RANGE, .available = tl_available,
	.load = tl_load, .rebuild = tl_rebuild, .row_name = tl_row_name, .row_node = tl_row_node,
	.row_attrs = tl_row_attrs, .handle = tl_handle, .actions = tl_actions,
	.step_changed = tl_step_changed,
	.empty_text = tl_empty_text, .release = tl_release,
	.picture = &tl_picture, .text = &tl_text,
};
