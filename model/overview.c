// SPDX-License-Identifier: MIT
/*
 * The Overview's numbers (overview.h), following torch-tb-profiler's
 * gpu_metrics_parser.py, tensor_cores_parser.py, kernel_parser.py and the
 * rules of data.py's analyze(); t-overview-parity.c checks them against
 * the plugin's gpu_metrics and overview outputs on the corpus.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "keyindex.h"
#include "memory.h"
#include "overview.h"
#include "strbuf.h"
#include "tensor_cores.h"
#include "util.h"

/* ---------------------------------------------------------------------
 * Rows of the Operators and Kernels tables, for the top five of each
 */

/*
 * Time by row key, rows in the order first seen: the key is the interned
 * name or, for a pre-aggregated (NODE_DISTINCT) row, the node itself --
 * how aggregate.c's agg_ops() and agg_kernels() key their rows.  Summed
 * here in the Overview's one walk rather than by calling those, which
 * would walk the whole tree twice more (t-overview.c checks the tops
 * against them).  Memory: one slot per distinct row, not per node.  A row
 * keeps its name's flags too: the walk needs them for the same nodes, and
 * one hash lookup a node is cheaper than two.
 */
struct row_sum {
	const char *name;
	int64_t ns;
	const struct node *first;	/* its first node, and how many */
	uint32_t nr_nodes;
	uint8_t name_flags;		/* tc_name_flags() of name */
};

struct row_sums {
	const void **keys;
	uint32_t *slot_rows;		/* the row of each key */
	size_t cap;			/* a power of two, at most half full */
	struct row_sum *rows;
	size_t nr, alloc;
};

static struct row_sum *row_of(struct row_sums *t, struct tc_names *memo, const struct node *n)
{
	const void *key = (n->flags & NODE_DISTINCT) ? (const void *)n : (const void *)node_name(n);
	size_t i;

	if (2 * (t->nr + 1) > t->cap) {
		struct row_sums bigger = { .cap = t->cap ? 2 * t->cap : 1024 };

		bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
		bigger.slot_rows = xcalloc(bigger.cap, sizeof(*bigger.slot_rows));
		for (size_t k = 0; k < t->cap; k++) {
			if (!t->keys[k])
				continue;
			for (i = hash_ptr(t->keys[k]) & (bigger.cap - 1); bigger.keys[i];
			     i = (i + 1) & (bigger.cap - 1))
				;
			bigger.keys[i] = t->keys[k];
			bigger.slot_rows[i] = t->slot_rows[k];
		}
		free(t->keys);
		free(t->slot_rows);
		t->keys = bigger.keys;
		t->slot_rows = bigger.slot_rows;
		t->cap = bigger.cap;
	}
	for (i = hash_ptr(key) & (t->cap - 1); t->keys[i]; i = (i + 1) & (t->cap - 1)) {
		if (t->keys[i] == key) {
			struct row_sum *r = &t->rows[t->slot_rows[i]];

			r->nr_nodes++;
			return r;
		}
	}
	t->keys[i] = key;
	t->slot_rows[i] = (uint32_t)t->nr;
	GROW(t->rows, t->alloc, t->nr + 1);
	t->rows[t->nr] = (struct row_sum){
		.name = node_name(n), .first = n, .nr_nodes = 1,
		.name_flags = tc_name_flags(memo, node_name(n)),
	};
	return &t->rows[t->nr++];
}

/* The share the file states for ROW, under FILE_KEY (profile.h's
 * ATTR_FILE_*_PCT), by the rule the Operators and Kernels panes follow: a
 * row of one node that carries it.  NaN otherwise.  The file's whole can
 * differ from the sum of the rows read (a Paddle Kernel Summary that
 * omits rows): then only its value is the row's share. */
static double file_share(const struct row_sum *row, const char *file_key)
{
	const struct attr *a;

	if (row->nr_nodes != 1)
		return NAN;
	a = attr_find(node_attrs(row->first), file_key);
	return a && attr_type(a) == ATTR_DOUBLE ? a->v.d : NAN;
}

/* The five rows with the most time, most first; on equal times the row
 * seen first stays ahead.  FILE_KEY: where a row's stated share is. */
static void top_five(struct overview *o, const struct row_sums *t, const char *file_key,
		     struct top_rows *top)
{
	size_t idx[ARRAY_SIZE(top->v)], n = 0, max = ARRAY_SIZE(top->v);

	top->total_ns = 0;
	for (size_t i = 0; i < t->nr; i++) {
		int64_t v = t->rows[i].ns;
		size_t j = n < max ? n++ : max;

		sum_add_counted(&top->total_ns, v, &o->nr_capped);
		for (; j > 0 && t->rows[idx[j - 1]].ns < v; j--)
			if (j < max)
				idx[j] = idx[j - 1];
		if (j < max)
			idx[j] = i;
	}
	for (size_t j = 0; j < n; j++)
		top->v[j] = (struct top_row){ t->rows[idx[j]].name, t->rows[idx[j]].ns,
					      file_share(&t->rows[idx[j]], file_key) };
	top->nr = n;
}

static void row_sums_release(struct row_sums *t)
{
	free(t->keys);
	free(t->slot_rows);
	free(t->rows);
}

/* ---------------------------------------------------------------------
 * Kernels by device
 */

struct kernel {
	int64_t start, end;		/* ns: ts and ts + dur */
	double blocks_per_sm, occupancy;	/* NaN: not given */
	int32_t device;
};

struct kernels {
	struct kernel *v;		/* in the walk's order, then by start */
	size_t nr, alloc;
	double tc_ns, all_ns;		/* kernel_parser.py's tc_used_ratio */
};

/* A time and the index of what it belongs to: sorted by time, then index,
 * which is the order the plugin's stable sorts give. */
struct stamp {
	int64_t t;
	uint32_t i;
};

static bool stamp_before(const struct stamp *a, const struct stamp *b)
{
	return a->t < b->t || (a->t == b->t && a->i < b->i);
}

/*
 * Sort V: a bottom-up merge sort that leaves pairs of runs already in
 * order alone, so times as the tree lists them (in launch order, thread
 * by thread) cost about a pass, and any input O(n log n).
 */
static void sort_stamps(struct stamp *v, size_t n)
{
	struct stamp *tmp = NULL;

	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo + width < n; lo += 2 * width) {
			size_t mid = lo + width, hi = n - mid > width ? mid + width : n;
			size_t a = lo, b = mid, k = 0;

			if (!stamp_before(&v[mid], &v[mid - 1]))
				continue;
			if (!tmp)
				tmp = xmalloc(n * sizeof(*tmp));
			while (a < mid && b < hi)
				tmp[k++] = stamp_before(&v[b], &v[a]) ? v[b++] : v[a++];
			/* What is left of the right run is in place already. */
			while (a < mid)
				tmp[k++] = v[a++];
			memcpy(&v[lo], tmp, k * sizeof(*tmp));
		}
	}
	free(tmp);
}

/* KS's kernels by start, then the walk's order. */
static void sort_by_start(struct kernels *ks)
{
	struct stamp *order = xmalloc((ks->nr + 1) * sizeof(*order));
	struct kernel *sorted = xmalloc((ks->nr + 1) * sizeof(*sorted));

	for (size_t i = 0; i < ks->nr; i++)
		order[i] = (struct stamp){ ks->v[i].start, (uint32_t)i };
	sort_stamps(order, ks->nr);
	for (size_t i = 0; i < ks->nr; i++)
		sorted[i] = ks->v[order[i].i];
	free(order);
	free(ks->v);
	ks->v = sorted;
	ks->alloc = ks->nr + 1;
}

/* A kernel's place, for grouping by device: by device, then place. */
struct placed {
	int32_t device;
	uint32_t i;
};

static int cmp_device_then_place(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* KS, sorted by start, grouped by device in ascending order, each group
 * still by start: each device's metrics then read its own kernels, not
 * every kernel once per device (a hostile trace may name thousands). */
static void group_by_device(struct kernels *ks)
{
	struct placed *order;
	struct kernel *grouped;
	size_t i;

	for (i = 1; i < ks->nr && ks->v[i].device == ks->v[0].device; i++)
		;
	if (i >= ks->nr)
		return;		/* one device: grouped already */
	order = xmalloc(ks->nr * sizeof(*order));
	grouped = xmalloc((ks->nr + 1) * sizeof(*grouped));
	for (i = 0; i < ks->nr; i++)
		order[i] = (struct placed){ ks->v[i].device, (uint32_t)i };
	qsort(order, ks->nr, sizeof(*order), cmp_device_then_place);
	for (i = 0; i < ks->nr; i++)
		grouped[i] = ks->v[order[i].i];
	free(order);
	free(ks->v);
	ks->v = grouped;
	ks->alloc = ks->nr + 1;
}

/* HI - LO, exact where int64 holds it (an epoch time as a double is 256
 * ns coarse), else in doubles: bounded times may lie further apart. */
static double span_ns(int64_t lo, int64_t hi)
{
	int64_t d;

	return __builtin_sub_overflow(hi, lo, &d) ? (double)hi - (double)lo : (double)d;
}

/* |(merged kernel ranges of DEVICE) ∩ [lo, hi)| over KS sorted by start,
 * for a ratio: a double, as [LO, HI) may be longer than int64 holds. */
static double busy_within(const struct kernels *ks, int32_t device, int64_t lo, int64_t hi)
{
	double sum = 0;
	int64_t cur_s = 0, cur_e = 0;
	bool open = false;

	for (size_t i = 0; i <= ks->nr; i++) {
		const struct kernel *k = i < ks->nr ? &ks->v[i] : NULL;

		if (k && k->device != device)
			continue;
		if (k && open && k->start <= cur_e) {
			if (k->end > cur_e)
				cur_e = k->end;
			continue;
		}
		if (open) {
			int64_t s = cur_s > lo ? cur_s : lo, e = cur_e < hi ? cur_e : hi;

			if (s < e)
				sum += span_ns(s, e);
		}
		if (k) {
			cur_s = k->start;
			cur_e = k->end;
			open = true;
		}
	}
	return sum;
}

/* Only positive blocks per SM count (the plugin warns about the rest). */
static bool has_blocks(const struct kernel *k, int32_t device)
{
	return k->device == device && k->blocks_per_sm > 0;
}

/*
 * Est. SM efficiency (merge_ranges_with_value): sweep the kernels' ends
 * in time order summing blocks per SM of the kernels running, each slice
 * worth min(sum, 1); the slices inside the span, weighted by their time,
 * over the span.  NaN when no slice lies in the span.  The ends in time
 * order: the starts as KS is sorted, merged with the finishes sorted on
 * their own; at one time starts come first, then by kernel.
 */
static double sm_efficiency(const struct kernels *ks, int32_t device, int64_t lo, int64_t hi)
{
	struct stamp *fin = xmalloc((ks->nr + 1) * sizeof(*fin));
	size_t nr_fin = 0, s = 0, f = 0;
	double value = 0, weighted = 0;
	int64_t prev = 0;
	bool first = true, any = false;

	for (size_t i = 0; i < ks->nr; i++)
		if (has_blocks(&ks->v[i], device))
			fin[nr_fin++] = (struct stamp){ ks->v[i].end, (uint32_t)i };
	sort_stamps(fin, nr_fin);
	for (;;) {
		int64_t t;
		double step;

		while (s < ks->nr && !has_blocks(&ks->v[s], device))
			s++;
		if (s < ks->nr && (f == nr_fin || ks->v[s].start <= fin[f].t)) {
			t = ks->v[s].start;
			step = ks->v[s++].blocks_per_sm;
		} else if (f < nr_fin) {
			t = fin[f].t;
			step = -ks->v[fin[f++].i].blocks_per_sm;
		} else {
			break;
		}
		if (!first && t > prev && value > 0.0) {
			int64_t a = prev > lo ? prev : lo, b = t < hi ? t : hi;

			if (a < b) {
				weighted += (value < 1.0 ? value : 1.0) * span_ns(a, b);
				any = true;
			}
		}
		value += step;
		prev = t;
		first = false;
	}
	free(fin);
	return any ? weighted / span_ns(lo, hi) : NAN;
}

/* Est. achieved occupancy: the kernels' values weighted by their time in
 * the span; NaN when no kernel with a value runs in it. */
static double occupancy(const struct kernels *ks, int32_t device, int64_t lo, int64_t hi)
{
	double weighted = 0, time = 0;

	for (size_t i = 0; i < ks->nr; i++) {
		const struct kernel *k = &ks->v[i];
		int64_t s = k->start > lo ? k->start : lo, e = k->end < hi ? k->end : hi;

		if (k->device != device || !(k->occupancy >= 0.0) || s >= e)
			continue;
		weighted += k->occupancy * (double)(e - s);
		time += (double)(e - s);
	}
	return time > 0 ? weighted / time : NAN;
}

/* ---------------------------------------------------------------------
 * The walk: everything the Overview takes from the tree, in one pass
 */

/* The tensor-core share of one device: every kernel of its own (a
 * Kernels row whose launch names the device), as the plugin's tooltip
 * and tc_pie define it -- its GPU summary counted only kernels an op
 * launched (proftui(1), DIFFERENCES FROM TORCH-TB-PROFILER). */
struct device_sums {
	int32_t device;
	double tc_ns, all_ns;
};

/* A node on the walk's path, for the tensor-core rule, which needs a
 * node's children before the node: what it gathers from below it, and
 * what entering it found out. */
struct frame {
	int64_t own_ns;			/* kernels its own runtime calls launched */
	bool own_tc;			/* some of them used tensor cores */
	bool child_eligible, child_below;	/* see leave() */
	uint8_t name_flags;		/* a host node's tc_name_flags() */
	bool op_row;			/* node_is_op_row(), asked once */
};

/*
 * A kernel with a launch, for after the walk.  Its launch is one of the
 * profile's interned configurations, scattered in memory: reading it in
 * the walk put a cache miss in series with the walk's own on every kernel
 * (overview_compute() took 95 ms on a 1 GB trace, 73 without), while a
 * loop over these afterwards overlaps them.  32 bytes per kernel, for the
 * length of overview_compute().
 */
struct pending_kernel {
	const struct launch *l;
	int64_t start_ns, dur_ns;
	uint8_t what;			/* PENDING_* */
};

enum {
	PENDING_ROW = 1,		/* a Kernels row: the GPU metrics' */
	PENDING_TC = 2,			/* uses tensor cores */
};

struct walk {
	const struct profile *p;
	struct tc_names memo;
	struct frame *frames;		/* by depth: the path from the root */
	size_t alloc_frames;
	struct pending_kernel *pending;
	size_t nr_pending, alloc_pending, nr_rows_pending;

	struct kernels ks;
	struct row_sums ops, kernels;

	double bottom_ns, ops_ns;	/* tc_eligible_ops_kernel_ratio */
	struct device_sums *devs;	/* one per device */
	size_t nr_devs, alloc_devs;
	struct key_index dev_index;	/* devs by device */

	const char *dp_name, *ddp_name;	/* interned; NULL: not in the profile */
	bool dp, ddp, nccl;

	const char *precision_key;	/* interned; NULL: no node has one */
	size_t nr_cuda_calls, nr_hip_calls;	/* runtime calls by API (runtime_api()) */
	struct overview *o;
};

/* The sums of DEVICE, made on first use, found by a table: a trace names
 * a handful of devices, but a hostile one may name one per kernel, and a
 * search along devs per kernel was quadratic then. */
static struct device_sums *device_sums(struct walk *w, int32_t device)
{
	size_t k = key_index_get(&w->dev_index, (uint32_t)device);

	if (k != KEY_INDEX_NONE)
		return &w->devs[k];
	GROW(w->devs, w->alloc_devs, w->nr_devs + 1);
	w->devs[w->nr_devs] = (struct device_sums){ .device = device };
	key_index_put(&w->dev_index, (uint32_t)device, w->nr_devs);
	return &w->devs[w->nr_devs++];
}

static bool is_host(const struct node *n)
{
	return n->kind == NODE_OP || n->kind == NODE_STEP || n->kind == NODE_ANNOTATION ||
	       n->kind == NODE_MODULE;
}

/* A layer's precision (TensorRT): the share of layer time in each. */
static void add_precision(struct walk *w, const struct node *n)
{
	struct overview *o = w->o;
	const struct attr *a = attr_find(node_attrs(n), w->precision_key);
	int64_t device = node_device_total(w->p, n), t = device ? device : node_host_total(w->p, n);
	size_t k;

	if (!a || attr_type(a) != ATTR_STRING)
		return;
	for (k = 0; k < o->nr_precisions && strcmp(o->precisions[k].name, a->v.s); k++)
		;
	if (k == o->nr_precisions) {
		if (k == ARRAY_SIZE(o->precisions))
			return;
		o->precisions[o->nr_precisions++] = (struct precision_share){ a->v.s, 0 };
	}
	sum_add_counted(&o->precisions[k].ns, t, &o->nr_capped);
	sum_add_counted(&o->precision_total_ns, t, &o->nr_capped);
}

/*
 * A kernel N at DEPTH.  Unless the tree only shapes it (NODE_NOT_A_ROW), a
 * Kernels row.  Launched by a runtime call, its time is its grandparent's
 * "own" kernel time (the tensor-core rule).  What needs its launch waits
 * for take_launches().
 */
static void visit_kernel(struct walk *w, const struct node *n, size_t depth)
{
	const struct launch *l;
	int64_t dur = node_device_total(w->p, n);
	uint8_t what = 0;
	bool tc;

	if (!(n->flags & NODE_NOT_A_ROW)) {
		struct row_sum *row = row_of(&w->kernels, &w->memo, n);

		sum_add_counted(&row->ns, dur, &w->o->nr_capped);
		tc = row->name_flags & TC_NAME_KERNEL;
		w->ks.all_ns += (double)dur;
		if (tc)
			w->ks.tc_ns += (double)dur;
		what |= PENDING_ROW;
	} else {
		tc = tc_name_flags(&w->memo, node_name(n)) & TC_NAME_KERNEL;
	}
	if (tc)
		what |= PENDING_TC;
	if (depth >= 2 && node_parent(n)->kind == NODE_RUNTIME) {
		struct frame *f = &w->frames[depth - 2];

		sum_add_counted(&f->own_ns, dur, &w->o->nr_capped);
		if (dur > 0 && tc)
			f->own_tc = true;
	}
	if ((what & PENDING_ROW) && (l = node_launch(n))) {
		GROW(w->pending, w->alloc_pending, w->nr_pending + 1);
		w->pending[w->nr_pending++] = (struct pending_kernel){
			.l = l, .start_ns = n->start_ns, .dur_ns = dur, .what = what,
		};
		w->nr_rows_pending++;
	}
}

/*
 * The kernels the walk left, in its order: the GPU metrics take the rows
 * whose launch names their device, and so does the tensor-core share
 * by device.  (The sums are of whole nanoseconds, exact in a
 * double below 2^53 ns, 104 days: their order does not change them.)
 */
static void take_launches(struct walk *w)
{
	w->ks.v = xmalloc((w->nr_rows_pending + 1) * sizeof(*w->ks.v));
	w->ks.alloc = w->nr_rows_pending + 1;
	for (size_t i = 0; i < w->nr_pending; i++) {
		const struct pending_kernel *k = &w->pending[i];
		struct device_sums *d;

		if (k->l->device < 0)
			continue;
		/* An untimed kernel is an empty range before any span: it
		 * counts for its device, never for a time in a step. */
		w->ks.v[w->ks.nr++] = (struct kernel){
			.start = k->start_ns,
			.end = k->start_ns == NS_UNTIMED ? NS_UNTIMED : k->start_ns + k->dur_ns,
			.blocks_per_sm = k->l->blocks_per_sm, .occupancy = k->l->occupancy_pct,
			.device = k->l->device,
		};
		d = device_sums(w, k->l->device);
		d->all_ns += (double)k->dur_ns;
		if (k->what & PENDING_TC)
			d->tc_ns += (double)k->dur_ns;
	}
}

/* A runtime call NAME, by its API's prefix: CUDA's runtime and driver
 * (cudaLaunchKernel, cuLaunchKernel), HIP's (hipLaunchKernel). */
static void count_runtime_call(struct walk *w, const char *name)
{
	if (!strncmp(name, "hip", 3))
		w->nr_hip_calls++;
	else if (!strncmp(name, "cuda", 4) || (name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' &&
						 name[2] <= 'Z'))
		w->nr_cuda_calls++;
}

/* N at DEPTH, before its children. */
static void enter(struct walk *w, const struct node *n, size_t depth)
{
	struct frame *f;

	if (depth >= w->alloc_frames)
		GROW(w->frames, w->alloc_frames, depth + 1);
	f = &w->frames[depth];
	memset(f, 0, sizeof(*f));
	/* Names are interned: a pointer compare, not a strcmp per node. */
	if (node_name(n) == w->dp_name)
		w->dp = true;
	else if (node_name(n) == w->ddp_name)
		w->ddp = true;
	else if ((n->flags & NODE_COLLECTIVE) && !strncmp(node_name(n), "nccl:", 5))
		w->nccl = true;
	f->op_row = node_is_op_row(n);
	if (f->op_row) {
		struct row_sum *row = row_of(&w->ops, &w->memo, n);

		sum_add_counted(&row->ns, w->p->has_device_time ? node_device_self(w->p, n)
							     : node_host_self(w->p, n), &w->o->nr_capped);
		f->name_flags = row->name_flags;
		if (w->precision_key)
			add_precision(w, n);
	} else if (is_host(n)) {
		f->name_flags = tc_name_flags(&w->memo, node_name(n));
	}
	if (n->kind == NODE_KERNEL)
		visit_kernel(w, n, depth);
	else if (n->kind == NODE_RUNTIME)
		count_runtime_call(w, node_name(n));
}

/*
 * N at DEPTH, after its children.  An op is tensor-core eligible when its
 * name is on the list, or (ops only, node.py fill_stats) an op under it
 * is, or it launched a kernel that used tensor cores.  The eligible ops
 * lowest in the tree ("bottom") give the numerator of
 * tc_eligible_ops_kernel_ratio: their own kernels' time over all op rows'
 * own kernels' time.
 */
static void leave(struct walk *w, const struct node *n, size_t depth)
{
	const struct frame *f = &w->frames[depth];
	bool host = is_host(n), eligible, below;

	eligible = host && ((f->name_flags & TC_NAME_ELIGIBLE) ||
			    (n->kind == NODE_OP && (f->child_eligible || f->own_tc)));
	below = eligible || f->child_below;
	if (eligible && !f->child_below)
		w->bottom_ns += (double)f->own_ns;
	if (n->kind == NODE_OP && f->op_row)
		w->ops_ns += (double)f->own_ns;
	if (host && depth > 0) {
		w->frames[depth - 1].child_eligible |= eligible;
		w->frames[depth - 1].child_below |= below;
	}
}

/* Depth first from ROOT, without recursion (traces nest deep): each node
 * entered before its children and left after them. */
static void walk_tree(struct walk *w, const struct node *root)
{
	const struct node *n = root;
	size_t depth = 0;

	enter(w, n, depth);
	for (;;) {
		if (node_first_child(n)) {
			n = node_first_child(n);
			enter(w, n, ++depth);
			continue;
		}
		for (;;) {
			leave(w, n, depth);
			if (n == root)
				return;
			if (node_next(n)) {
				n = node_next(n);
				enter(w, n, depth);
				break;
			}
			n = node_parent(n);
			depth--;
		}
	}
}

static void walk_release(struct walk *w)
{
	tc_names_release(&w->memo);
	free(w->frames);
	free(w->pending);
	free(w->ks.v);
	row_sums_release(&w->ops);
	row_sums_release(&w->kernels);
	free(w->devs);
	key_index_release(&w->dev_index);
}

/* ---------------------------------------------------------------------
 * Recommendations
 */

static void recommend(struct overview *o, bool is_plugin, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void recommend(struct overview *o, bool is_plugin, const char *fmt, ...)
{
	va_list ap;

	GROW(o->recs, o->alloc_recs, o->nr_recs + 1);
	va_start(ap, fmt);
	o->recs[o->nr_recs].text = xstrvfmt(fmt, ap);
	va_end(ap);
	o->recs[o->nr_recs].is_plugin = is_plugin;
	o->nr_recs++;
}

/* A category's share of the average step, 0..1; 0 when it is absent. */
static double share_of(const struct profile *p, const struct overview *o, const char *cat)
{
	int c = profile_step_cat(p, cat);

	if (c < 0 || !(o->avg_step_ns > 0) || o->avg_cat_ns[c] != o->avg_cat_ns[c])
		return 0;
	return o->avg_cat_ns[c] / o->avg_step_ns;
}

enum runtime_api { API_OTHER, API_CUDA, API_HIP };

/* The API the trace's runtime calls are of: CUDA or HIP when all are,
 * else none named (MTIA, XPU, a PrivateUse1 backend, or a mix). */
static enum runtime_api runtime_api(const struct walk *w)
{
	if (w->nr_cuda_calls && !w->nr_hip_calls)
		return API_CUDA;
	if (w->nr_hip_calls && !w->nr_cuda_calls)
		return API_HIP;
	return API_OTHER;
}

/* data.py analyze()'s rules, then proftui's; W has walked the tree. */
static void recommendations(const struct profile *p, const struct walk *w, struct overview *o)
{
	const struct device_info *first = p->nr_devices ? &p->devices[0] : NULL;
	enum runtime_api api = runtime_api(w);
	double share;
	char list[256];
	size_t n = 0, nr_low = 0;

	/* data.py analyze(), its rules in its order, in our words. */
	share = share_of(p, o, "DataLoader");
	if (share > 0.05)
		recommend(o, true, "%.1f%% of the step time is in the DataLoader: set num_workers when "
			  "you construct the DataLoader, to load data in several processes.", share * 100);
	if (w->dp && o->nr_gpus > 1)
		recommend(o, true, "Use DistributedDataParallel instead of DataParallel to train on "
			  "several GPUs.");
	if (w->ddp && !w->nccl) {
		for (size_t i = 0; i < p->nr_devices; i++) {
			const struct device_info *d = &p->devices[i];

			if (d->cc_major >= 0 && d->cc_minor >= 0 &&
			    d->cc_major * 10 + (d->cc_minor < 10 ? d->cc_minor : 9) >= 35) {
				recommend(o, true, "NCCL is the fastest backend for DistributedDataParallel, "
					  "and this run does not use it.");
				break;
			}
		}
	}
	share = share_of(p, o, "Communication");
	if (share > 0.1)
		recommend(o, true, "%.1f%% of the step time is in communication: gradient compression "
			  "or gradient accumulation may help, or a larger batch (which changes the "
			  "effective batch size, and may change how the model converges).", share * 100);
	for (size_t i = 0; i < o->nr_gpus; i++) {
		if (!(o->gpus[i].utilization < 0.5))
			continue;
		n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%d",
				      !nr_low ? "" : ", ", (int)o->gpus[i].device);
		nr_low++;
	}
	if (nr_low)
		recommend(o, true, "GPU %s %s low utilization: a larger batch may help (it may also "
			  "change how fast and how stably the model converges).", list,
			  nr_low == 1 ? "has" : "have");
	/* The plugin reads the first device's compute capability: tensor
	 * cores came with 7.0.  On HIP they are matrix cores (MFMA). */
	if (first && first->cc_major >= 7 && o->tc_used_ratio == 0.0 &&
	    o->tc_eligible_ops_kernel_ratio > 0.0)
		recommend(o, true, "Kernels launched by tensor-core eligible operators take %.0f%% of "
			  "the kernel time, and no kernel uses %s: Automatic Mixed Precision "
			  "(torch.autocast) would run them in FP16/BF16.",
			  o->tc_eligible_ops_kernel_ratio * 100,
			  api == API_HIP ? "the matrix cores (MFMA)" : "tensor cores");
	for (size_t i = 0; i < p->nr_devices; i++) {
		const struct device_info *d = &p->devices[i];
		int64_t peak = mem_peak_allocated(p, d->id);

		/* GPUs only: the plugin means to skip the CPU and, through a
		 * slip, compares its peak with the last GPU's memory. */
		if (d->total_memory_bytes > 0 && peak > 0 &&
		    (double)peak > (double)d->total_memory_bytes * 0.9) {
			recommend(o, true, "GPU %d's memory use peaks at %.1f%% of its %.1f GB: gradient "
				  "checkpointing or Automatic Mixed Precision would make room (for a larger "
				  "batch, say).", (int)d->id,
				  (double)peak / (double)d->total_memory_bytes * 100,
				  (double)d->total_memory_bytes / 1024 / 1024 / 1024);
			break;
		}
	}

	/* proftui's own.  Launches that cost more than their kernels: only
	 * where the trace has kernels, in its API's terms. */
	share = share_of(p, o, "Runtime");
	if (share >= 0.1 && w->kernels.nr)
		recommend(o, false, "%.1f%% of the step time is in %sruntime calls while the %s is "
			  "idle: launching kernels costs more than running them.  Fewer, larger kernels "
			  "(torch.compile fuses ops)%s cut the launches.", share * 100,
			  api == API_CUDA ? "CUDA " : api == API_HIP ? "HIP " : "",
			  api == API_OTHER ? "device" : "GPU",
			  api == API_CUDA ? " or CUDA Graphs" : api == API_HIP ? " or HIP graphs" : "");
	share = share_of(p, o, "Memcpy");
	if (share >= 0.1)
		recommend(o, false, "%.1f%% of the step time is in memory copies: pinned host memory "
			  "(pin_memory=True) and non_blocking copies let them overlap with compute.",
			  share * 100);
}

/* ---------------------------------------------------------------------
 * The whole
 */

/* The average step less the categories' averages (overview.h); NaN when
 * no category has a value. */
static double rest_of_step(const struct profile *p, const struct overview *o)
{
	double parts = 0;
	bool any = false;

	for (size_t c = 0; c < p->nr_step_cats; c++) {
		if (o->avg_cat_ns[c] != o->avg_cat_ns[c])
			continue;
		parts += o->avg_cat_ns[c];
		any = true;
	}
	return any ? o->avg_step_ns - parts : NAN;
}

void overview_compute(const struct profile *p, struct overview *o)
{
	struct walk w = { .p = p, .o = o };

	memset(o, 0, sizeof(*o));
	o->tc_used_ratio = NAN;
	o->avg_rest_ns = NAN;
	o->nr_steps = p->nr_steps;
	o->avg_cat_ns = xcalloc(p->nr_step_cats ? p->nr_step_cats : 1, sizeof(*o->avg_cat_ns));
	if (p->nr_steps) {
		double total = 0;

		for (size_t i = 0; i < p->nr_steps; i++)
			total += (double)p->steps[i].total_ns;
		o->avg_step_ns = total / (double)p->nr_steps;
		for (size_t c = 0; c < p->nr_step_cats; c++) {
			double sum = 0;
			size_t n = 0;

			for (size_t i = 0; i < p->nr_steps; i++) {
				if (p->steps[i].cat_ns[c] < 0)
					continue;
				sum += (double)p->steps[i].cat_ns[c];
				n++;
			}
			o->avg_cat_ns[c] = n ? sum / (double)n : NAN;
		}
		o->avg_rest_ns = rest_of_step(p, o);
		if (p->steps[p->nr_steps - 1].end_ns > p->steps[0].start_ns) {
			o->span_start_ns = p->steps[0].start_ns;
			o->span_end_ns = p->steps[p->nr_steps - 1].end_ns;
		}
	}

	w.dp_name = strtab_lookup(p->names, "DataParallel.forward", 20);
	w.ddp_name = strtab_lookup(p->names, "DistributedDataParallel.forward", 31);
	/* Attribute keys are interned: a profile that never named one has
	 * no precisions to look for. */
	w.precision_key = strtab_lookup(p->names, "precision", 9);
	walk_tree(&w, p->root);
	take_launches(&w);
	if (w.ks.all_ns > 0)
		o->tc_used_ratio = w.ks.tc_ns / w.ks.all_ns;
	o->tc_eligible_ops_kernel_ratio = w.ops_ns > 0 ? w.bottom_ns / w.ops_ns : 0.0;
	top_five(o, &w.ops, p->has_device_time ? ATTR_FILE_DEVICE_SELF_PCT : ATTR_FILE_HOST_SELF_PCT,
		 &o->top_ops);
	top_five(o, &w.kernels, ATTR_FILE_DEVICE_TOTAL_PCT, &o->top_kernels);

	sort_by_start(&w.ks);
	group_by_device(&w.ks);
	o->gpus = xcalloc(w.ks.nr ? w.ks.nr : 1, sizeof(*o->gpus));
	for (size_t from = 0, to; from < w.ks.nr; from = to) {
		struct gpu_metrics *g = &o->gpus[o->nr_gpus++];
		int64_t lo = o->span_start_ns, hi = o->span_end_ns;
		struct kernels dev = { .v = w.ks.v + from };

		for (to = from + 1; to < w.ks.nr && w.ks.v[to].device == w.ks.v[from].device; to++)
			;
		dev.nr = to - from;
		g->device = w.ks.v[from].device;
		g->utilization = g->sm_efficiency = g->occupancy_pct = g->tensor_core = NAN;
		if (hi > lo) {
			g->utilization = busy_within(&dev, g->device, lo, hi) / span_ns(lo, hi);
			g->sm_efficiency = sm_efficiency(&dev, g->device, lo, hi);
			g->occupancy_pct = occupancy(&dev, g->device, lo, hi);
		}
		/* Every kernel of the device, not clipped to the span. */
		{
			const struct device_sums *d = device_sums(&w, g->device);

			g->tensor_core = d->all_ns > 0 ? d->tc_ns / d->all_ns : NAN;
		}
	}
	recommendations(p, &w, o);
	walk_release(&w);
}

void overview_release(struct overview *o)
{
	for (size_t i = 0; i < o->nr_recs; i++)
		free(o->recs[i].text);
	free(o->recs);
	free(o->gpus);
	free(o->avg_cat_ns);
	memset(o, 0, sizeof(*o));
}
