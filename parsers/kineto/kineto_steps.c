// SPDX-License-Identifier: MIT
/*
 * The step breakdown of a Kineto trace (kineto_int.h), as torch-tb-
 * profiler's StepParser and OverallParser make it: ProfilerStep intervals
 * widened to the device work they launched, then carved into categories
 * by priority -- each role (Kernel, Memcpy, ..., CPU Exec) takes what is
 * left of the steps after the roles before it, and Other is the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "../../model/util.h"
#include "kineto_int.h"

/* Passes over records that each read their node, scattered in the arena:
 * the node AHEAD records on is asked for early (as kineto_link.c's). */
#define AHEAD 16

void ranges_add(struct ranges *r, int64_t start, int64_t end)
{
	GROW(r->v, r->alloc, r->nr + 1);
	r->v[r->nr].start = start;
	r->v[r->nr].end = end;
	r->nr++;
}

/*
 * A role's ranges are used only merged (ranges_merge()), and merging a
 * part first leaves the union, and so the merged result, as it was.  A
 * range that starts inside the last one kept -- a child op inside its
 * parent, the next op of a busy thread -- joins it at once.
 */
void ranges_add_merging(struct ranges *r, int64_t start, int64_t end)
{
	struct range *last = r->nr ? &r->v[r->nr - 1] : NULL;

	if (last && start >= last->start && start <= last->end) {
		if (end > last->end)
			last->end = end;
		return;
	}
	ranges_add(r, start, end);
}

/* Ranges added between two merges of a held list, at the least. */
#define MERGE_BATCH 4096

/*
 * The ops of threads that interleave do not start inside the last range
 * kept, so a list held while the trace is read is also merged whenever
 * it has doubled since its last merge: the 1 GB trace's 1.7 M op ranges
 * are held as a few thousand, not 190 K, and sorted a batch at a time, in
 * time n log n however they come.
 */
void ranges_add_held(struct ranges *r, int64_t start, int64_t end)
{
	ranges_add_merging(r, start, end);
	if (r->nr >= 2 * r->nr_merged + MERGE_BATCH) {
		ranges_merge(r);
		r->nr_merged = r->nr;
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static bool is_comm_ext(const struct kineto *k, int64_t ext)
{
	return ext != NO_ID && k->nr_comm_ext &&
	       bsearch(&ext, k->comm_ext, k->nr_comm_ext, sizeof(int64_t), cmp_i64) != NULL;
}

/* Kernels are Communication when their External id is a collective's
 * (StepParser._parse_step), or a collective encloses their launch (where
 * the ids name no op: proftui(1), DIFFERENCES), else Kernel. */
static void add_kernel_roles(struct kineto *k)
{
	size_t nr_kernels = 0;

	/* Room for all at once: grown a doubling at a time, a list copied
	 * in the heap leaves its old room behind, counted. */
	for (size_t w = 0; w < (k->nr_devs + 63) / 64; w++)
		nr_kernels += (size_t)__builtin_popcountll(k->kernel_bits[w]);
	GROW(k->roles[ROLE_KERNEL].v, k->roles[ROLE_KERNEL].alloc,
	     k->roles[ROLE_KERNEL].nr + nr_kernels);
	if (k->nr_comm_ext)
		kineto_sort(k->comm_ext, k->nr_comm_ext, sizeof(int64_t), cmp_i64);
	for (size_t i = 0; i < k->nr_devs; i++) {
		struct dev_rec *d = &k->devs[i];
		int64_t s, e;

		if (i + AHEAD < k->nr_devs)
			PREFETCH(&k->devs[i + AHEAD].node->start_ns);
		if (!bit_get(k->kernel_bits, i))
			continue;
		s = d->node->start_ns;
		e = d->end_ns;
		if ((k->comm_bits && bit_get(k->comm_bits, i)) ||
		    is_comm_ext(k, kineto_ext_id(&k->wide_devs, i, d->ext)))
			ranges_add_merging(&k->roles[ROLE_COMM], s, e);
		else
			ranges_add_merging(&k->roles[ROLE_KERNEL], s, e);
	}
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/* Sort and merge overlapping ranges (range_utils.merge_ranges). */
void ranges_merge(struct ranges *r)
{
	size_t out = 0;

	if (!r->nr)
		return;
	kineto_sort(r->v, r->nr, sizeof(*r->v), cmp_range);
	for (size_t i = 1; i < r->nr; i++) {
		if (r->v[i].start <= r->v[out].end) {
			if (r->v[i].end > r->v[out].end)
				r->v[out].end = r->v[i].end;
		} else {
			r->v[++out] = r->v[i];
		}
	}
	r->nr = out + 1;
}

/* Runtimes by start, ties in file order (their order in k->rts): by
 * index, 4 bytes each; the sorting thread's records, as qsort() passes
 * nothing else. */
static _Thread_local const struct rt_rec *sort_rts;

static int cmp_rt_start(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int64_t x = sort_rts[i].node->start_ns, y = sort_rts[j].node->start_ns;

	if (x != y)
		return x < y ? -1 : 1;
	return i < j ? -1 : i > j;
}

void kineto_sort_runtimes(const struct kineto *k, uint32_t *v, size_t n)
{
	sort_rts = k->rts;
	kineto_sort(v, n, sizeof(*v), cmp_rt_start);
}

/* The runtimes' indices in time order: the step bounds walk them, and
 * the carving reads them as the Runtime role. */
static uint32_t *runtimes_by_start(const struct kineto *k)
{
	uint32_t *order = xmalloc((k->nr_rts + 1) * sizeof(*order));

	for (size_t i = 0; i < k->nr_rts; i++)
		order[i] = (uint32_t)i;
	kineto_sort_runtimes(k, order, k->nr_rts);
	return order;
}

static int cmp_step(const void *a, const void *b)
{
	const struct raw_step *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The device work each host step launched (StepParser._find_device_steps). */
struct device_steps {
	int64_t *min, *max;		/* per step: first start, last end; INT64_MAX
					   / INT64_MIN when it launched nothing */
	uint64_t *nr_matched;		/* per step: device events launched */
	bool any_matched;
	uint64_t *matched;		/* a bit by device event: launched inside
					   a step */
};

/*
 * Walk the runtimes in time order (ORDER) beside the steps (a two-way
 * merge): a runtime that lies entirely inside a host step lends it its
 * device events; one that starts before the step or straddles its end is
 * skipped.
 */
static void find_device_steps(struct kineto *k, const uint32_t *order, struct device_steps *ds)
{
	size_t nr = k->nr_steps, i_step = 0, i_rt = 0;
	int64_t cur_min = INT64_MAX, cur_max = INT64_MIN;

	ds->min = xmalloc((nr + 1) * sizeof(int64_t));
	ds->max = xmalloc((nr + 1) * sizeof(int64_t));
	ds->nr_matched = xcalloc(nr + 1, sizeof(uint64_t));
	ds->any_matched = false;
	ds->matched = xcalloc(k->nr_devs / 64 + 1, sizeof(uint64_t));
	while (i_step < nr && i_rt < k->nr_rts) {
		struct rt_rec *r = &k->rts[order[i_rt]];
		int64_t hs = k->steps[i_step].start, he = k->steps[i_step].end;
		int64_t start = r->node->start_ns, end = rt_end(k->p, r);

		if (i_rt + AHEAD < k->nr_rts)
			PREFETCH(&k->rts[order[i_rt + AHEAD]].node->start_ns);
		if (start >= he && end > he) {
			/* Past the step: the next step takes it. */
			ds->min[i_step] = cur_min;
			ds->max[i_step] = cur_max;
			i_step++;
			cur_min = INT64_MAX;
			cur_max = INT64_MIN;
			continue;
		}
		/* Before the step or straddling its end: skipped. */
		i_rt++;
		if (start < hs || end > he)
			continue;
		for (struct dev_rec *d = dev_at(k, r->devices); d; d = dev_at(k, d->next_of_rt)) {
			int64_t dstart = d->node->start_ns, dend = d->end_ns;

			if (dstart < cur_min)
				cur_min = dstart;
			if (dend > cur_max)
				cur_max = dend;
			bit_set(ds->matched, (size_t)(d - k->devs));
			ds->any_matched = true;
			ds->nr_matched[i_step]++;
		}
	}
	for (; i_step < nr; i_step++) {
		ds->min[i_step] = cur_min;
		ds->max[i_step] = cur_max;
		cur_min = INT64_MAX;
		cur_max = INT64_MIN;
	}
}

/* Drop trailing steps that launched nothing, or less than 80 % of the
 * previous step's device events ("profiler may fail to capture all
 * kernels"); kineto_build_steps() says so. */
static void drop_tail_steps(struct kineto *k, const uint64_t *matched)
{
	size_t nr = k->nr_steps, last = nr, keep;

	while (last > 0 && !matched[last - 1])
		last--;
	if (!last)
		return;
	keep = last;
	if (last > 1 && (double)matched[last - 2] * 0.8 > (double)matched[last - 1])
		keep = last - 1;
	if (keep < nr) {
		k->nr_steps_dropped = nr - keep;
		k->nr_steps = keep;
	}
}

/*
 * Widen each host step to the device work its runtimes launched
 * (StepParser._update_steps_duration): a step starts no earlier than the
 * one before it ends (the first, than the last device work before it that
 * no step launched), and ends no earlier than its device work.
 */
static void adjust_steps(struct kineto *k, const uint32_t *order)
{
	size_t nr = k->nr_steps;
	struct device_steps ds;
	int64_t prev_end;

	find_device_steps(k, order, &ds);
	if (!ds.any_matched || !nr)
		goto out;

	prev_end = k->steps[0].start;
	if (ds.min[0] != INT64_MAX) {
		for (size_t i = 0; i < k->nr_devs; i++) {
			struct dev_rec *d = &k->devs[i];
			int64_t de = d->end_ns;

			if (!bit_get(ds.matched, i) && de < ds.min[0] && de > prev_end)
				prev_end = de;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		int64_t start = prev_end > k->steps[i].start ? prev_end : k->steps[i].start;
		int64_t end = k->steps[i].end;

		if (ds.min[i] != INT64_MAX && ds.max[i] > end)
			end = ds.max[i];
		if (end < start)
			end = start;
		k->steps[i].start = start;
		k->steps[i].end = end;
		prev_end = end;
	}
	if (nr > 1)
		drop_tail_steps(k, ds.nr_matched);
out:
	free(ds.min);
	free(ds.max);
	free(ds.nr_matched);
	free(ds.matched);
}

static const char *const role_names[NR_ROLES + 1] = {
	"Kernel", "Memcpy", "Memset", "Communication", "Runtime", "DataLoader", "CPU Exec", "Other",
};

/* The step columns as run_generator shows them: device ones only with
 * device activity, Communication only with collectives.  COL_OF[role]
 * gets the role's column, or -1. */
static void set_step_cats(struct kineto *k, int *col_of)
{
	const char *names[NR_ROLES + 1];
	size_t nr_cols = 0;
	unsigned seen = k->roles_seen;
	bool gpu = seen & (1u << ROLE_KERNEL | 1u << ROLE_MEMCPY | 1u << ROLE_MEMSET) || k->nr_rts;

	for (int r = 0; r <= NR_ROLES; r++) {
		bool show = true;

		if (r == ROLE_KERNEL || r == ROLE_MEMCPY || r == ROLE_MEMSET || r == ROLE_RUNTIME)
			show = gpu;
		else if (r == ROLE_COMM)
			show = seen & 1u << ROLE_COMM;
		col_of[r] = show ? (int)nr_cols : -1;
		if (show)
			names[nr_cols++] = role_names[r];
	}
	profile_set_step_cats(k->p, names, nr_cols);
}

/*
 * A role's ranges one at a time, in order, disjoint: a merged list's, or
 * the runtimes' in time order, merged as they come (the Runtime role is
 * every runtime: a list of it would be as long as the records).  Ranges
 * that hold no time are passed over.  [start, end) is the range at hand;
 * start is INT64_MAX when none is left.
 */
struct role_cursor {
	const struct range *v;		/* the list, or NULL: the runtimes */
	size_t nr, i;
	const struct kineto *k;
	const uint32_t *order;		/* the runtimes by start */
	int64_t start, end;
};

static void cursor_next(struct role_cursor *c)
{
	int64_t s, e;

	do {
		if (c->i >= c->nr) {
			c->start = c->end = INT64_MAX;
			return;
		}
		if (c->v) {
			s = c->v[c->i].start;
			e = c->v[c->i++].end;
		} else {
			const struct rt_rec *r = &c->k->rts[c->order[c->i++]];

			s = r->node->start_ns;
			e = rt_end(c->k->p, r);
		}
	} while (e <= s);
	if (!c->v) {
		for (; c->i < c->nr; c->i++) {
			const struct rt_rec *r = &c->k->rts[c->order[c->i]];

			if (c->i + AHEAD < c->nr)
				PREFETCH(&c->k->rts[c->order[c->i + AHEAD]].node->start_ns);
			if (r->node->start_ns > e)
				break;
			if (rt_end(c->k->p, r) > e)
				e = rt_end(c->k->p, r);
		}
	}
	c->start = s;
	c->end = e;
}

/* A step's start or end, where the sweep notes the time carved so far. */
struct step_mark {
	int64_t at;
	uint32_t step;
	bool is_end;
};

static int cmp_mark(const void *a, const void *b)
{
	const struct step_mark *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->step < y->step ? -1 : x->step > y->step;
}

/* A step's time V (a span, or a role's part of it), capped as a sum is
 * (model/bounds.h): two bounded times may lie more than int64 apart. */
static int64_t capped_time(struct kineto *k, __int128 v)
{
	if (v >= SUM_CAP || v <= -SUM_CAP) {
		profile_note_capped(k->p);
		return v > 0 ? SUM_CAP : -SUM_CAP;
	}
	return (int64_t)v;
}

/*
 * Priority carving: each role takes what is left of the steps after the
 * roles before it; Other is what no role took (OverallParser.Statistics).
 * One sweep over the roles' ranges (ORDER: the runtimes by start) adds
 * each piece of time inside some step to the first role that holds it,
 * or to Other; each step's time in each role is then the sum at its end
 * less the sum at its start -- the roles' ranges carved by the union of
 * the steps, then summed within each, without a carved list as long as
 * the roles' (steps may overlap, when none was widened).  Each step's
 * time in each role, the columns shown or not, goes to k->step_cats.
 */
static void carve_steps(struct kineto *k, const uint32_t *order)
{
	struct role_cursor cur[NR_ROLES];
	size_t nr_marks = 0, m = 0, open = 0;
	struct step_mark *marks = xmalloc((2 * k->nr_steps + 1) * sizeof(*marks));
	/* Running sums over every step: in __int128, where no trace's
	 * pieces add up to a wrap, so that each step's difference of two
	 * is exact however long the trace. */
	__int128 (*at_start)[NR_ROLES + 1] = xcalloc(k->nr_steps + 1, sizeof(*at_start));
	__int128 sum[NR_ROLES + 1] = { 0 };
	int64_t x;

	k->step_cats = xcalloc(k->nr_steps + 1, sizeof(*k->step_cats));
	for (size_t i = 0; i < k->nr_steps; i++) {
		if (k->steps[i].end <= k->steps[i].start)
			continue;	/* holds no time: 0 in each */
		marks[nr_marks++] = (struct step_mark){ k->steps[i].start, (uint32_t)i, false };
		marks[nr_marks++] = (struct step_mark){ k->steps[i].end, (uint32_t)i, true };
	}
	qsort(marks, nr_marks, sizeof(*marks), cmp_mark);
	for (int r = 0; r < NR_ROLES; r++) {
		if (r == ROLE_RUNTIME)
			cur[r] = (struct role_cursor){ .nr = k->nr_rts, .k = k, .order = order };
		else
			cur[r] = (struct role_cursor){ .v = k->roles[r].v, .nr = k->roles[r].nr };
		cursor_next(&cur[r]);
	}
	x = nr_marks ? marks[0].at : INT64_MAX;
	while (m < nr_marks) {
		int64_t next;
		int take = NR_ROLES;

		/* The steps' marks at X, the roles' ranges ended by it. */
		for (; m < nr_marks && marks[m].at == x; m++) {
			struct step_mark *s = &marks[m];

			if (s->is_end) {
				open--;
				for (int r = 0; r <= NR_ROLES; r++)
					k->step_cats[s->step][r] =
						capped_time(k, sum[r] - at_start[s->step][r]);
			} else {
				open++;
				memcpy(at_start[s->step], sum, sizeof(sum));
			}
		}
		if (m == nr_marks)
			break;
		next = marks[m].at;
		/* The next place anything changes, and who holds [X, NEXT). */
		for (int r = NR_ROLES - 1; r >= 0; r--) {
			while (cur[r].end <= x)
				cursor_next(&cur[r]);
			if (cur[r].start <= x) {
				take = r;
				if (cur[r].end < next)
					next = cur[r].end;
			} else if (cur[r].start < next) {
				next = cur[r].start;
			}
		}
		if (open)
			sum[take] += (__int128)next - x;
		x = next;
	}
	free(marks);
	free(at_start);
}

void kineto_plan_steps(struct kineto *k)
{
	uint32_t *order;

	add_kernel_roles(k);
	if (!k->nr_steps) {
		/* No ProfilerStep: one step "0" over the host ops, widened
		 * below like any other (StepParser.parse_steps makes it before
		 * _update_steps_duration runs); named when it is given. */
		if (k->cpu_min > k->cpu_max)
			return;	/* no host events at all: no step to speak of */
		GROW(k->steps, k->alloc_steps, 1);
		k->steps[0].start = k->cpu_min;
		k->steps[0].end = k->cpu_max;
		k->steps[0].name = NULL;
		k->steps[0].index = 0;
		k->nr_steps = 1;
	}
	kineto_sort(k->steps, k->nr_steps, sizeof(*k->steps), cmp_step);
	order = runtimes_by_start(k);
	adjust_steps(k, order);
	for (int r = 0; r < NR_ROLES; r++)
		ranges_merge(&k->roles[r]);
	carve_steps(k, order);
	free(order);
	/* Carved: only whether each role had a range is read again. */
	for (int r = 0; r < NR_ROLES; r++) {
		if (k->roles[r].nr)
			k->roles_seen |= 1u << r;
		free(k->roles[r].v);
		memset(&k->roles[r], 0, sizeof(k->roles[r]));
	}
}

void kineto_build_steps(struct kineto *k)
{
	int col_of[NR_ROLES + 1];

	if (!k->step_cats)
		return;	/* no step to speak of */
	if (!k->steps[0].name)
		k->steps[0].name = profile_intern(k->p, "0", 1);	/* the one made up */
	if (k->nr_steps_dropped) {
		struct pos none = { 0, 0 };

		diag_warn(k->d, &none, "trailing steps left out of the step breakdown",
			  "the last %zu step(s) left out of the breakdown: the profiler "
			  "may not have captured all their kernels (as torch-tb-profiler)",
			  k->nr_steps_dropped);
	}
	set_step_cats(k, col_of);
	for (size_t i = 0; i < k->nr_steps; i++) {
		struct step *s = profile_add_step(k->p, k->steps[i].name, strlen(k->steps[i].name));

		s->start_ns = k->steps[i].start;
		s->end_ns = k->steps[i].end;
		s->total_ns = capped_time(k, (__int128)s->end_ns - s->start_ns);
		for (int r = 0; r <= NR_ROLES; r++)
			if (col_of[r] >= 0)
				s->cat_ns[col_of[r]] = k->step_cats[i][r];
	}
}
