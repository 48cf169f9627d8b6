// SPDX-License-Identifier: MIT
/*
 * The Ranks pane: one row per rank (worker) of a distributed job, with
 * torch-tb-profiler's Distributed view figures (model/distributed.h):
 * step time, Computation, Overlapping, Communication, Other, Data
 * Transfer and Synchronizing time, a bar of the split and the stragglers
 * marked.  A rank's row is the mean over its steps (the plugin's "all");
 * + unfolds its steps, [ and ] show one step's rows.  Enter on a rank
 * opens that rank alone in every pane; back (q) in this pane, or Enter on
 * that rank again, shows every rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/distributed.h"
#include "../model/profset.h"
#include "../model/rank_analysis.h"
#include "../model/util.h"
#include "pane_ranks.h"

struct rank_row {
	size_t member;		/* index into the set */
	long step;		/* index into the rank's steps; -1: all */
	const char *step_name;	/* "all" or the step's */
	int64_t step_ns;
	int64_t computation, overlapping, communication, other;	/* the plugin's four */
	int64_t transfer, sync;	/* -1: none (no collective in the step) */
	uint8_t marks;		/* STRAGGLER_* */
	bool is_open;		/* an all row: its steps shown */
};

struct ranks_priv {
	struct rank_set rs;
	struct rank_row *rows;
	size_t nr_rows;
	size_t *first_of;	/* per member: its all row */
	const char *why_no_wait;	/* NULL: data transfer is the plugin's */
	int *depth;		/* per view row */
	size_t view_cap;
};

#define RROW(r) ((const struct rank_row *)(r))

static const char *ranks_row_name(const struct pane *pane, const void *row)
{
	const struct ranks_priv *rp = pane->priv;

	return rp->rs.labels[RROW(row)->member];
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(ranks_row_name(pane, row));
}

static struct cell get_rank(const struct pane *pane, const void *row, const struct column *c)
{
	const struct ranks_priv *rp = pane->priv;

	(void)c;
	long rank = rp->rs.ranks[RROW(row)->member];

	return rank >= 0 ? cell_int(rank) : cell_none();
}

static struct cell get_step(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(RROW(row)->step_name);
}

static struct cell get_wait(const struct pane *pane, const void *row, const struct column *c)
{
	int64_t v = c->arg ? RROW(row)->sync : RROW(row)->transfer;
	const struct ranks_priv *rp = pane->priv;

	return v >= 0 && !rp->why_no_wait ? cell_int(v) : cell_none();
}

static struct cell get_marks(const struct pane *pane, const void *row, const struct column *c)
{
	static const char *const text[] = {
		NULL,				"slow step",
		"slow compute",			"slow step, slow compute",
		"waited for",			"slow step, waited for",
		"slow compute, waited for",	"slow step, slow compute, waited for",
		"HTA",				"slow step, HTA",
		"slow compute, HTA",		"slow step, slow compute, HTA",
		"waited for, HTA",		"slow step, waited for, HTA",
		"slow compute, waited for, HTA", "slow step, slow compute, waited for, HTA",
	};

	(void)pane, (void)c;
	return cell_text(text[RROW(row)->marks & 15]);
}

static struct cell get_bar(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c, (void)row;
	return cell_none();
}

#define TIME(field) .kind = COL_TIME, .width = 10, .get = pane_get_i64, \
	.arg = offsetof(struct rank_row, field)

static const struct column cols[] = {
	{ .key = "worker", .title = "Worker", .kind = COL_NAME, .get = get_name,
	  .help = "the worker: its trace's name (torch-tb-profiler's worker), or the file" },
	{ .key = "rank", .title = "Rank", .kind = COL_COUNT, .width = 5, .get = get_rank,
	  .help = "its rank (distributedInfo), else its place among the workers" },
	{ .key = "step", .title = "Step", .kind = COL_TEXT, .width = 8, .get = get_step,
	  .help = "the step, or all: the mean over the rank's steps (truncated to the ns, as "
		  "torch-tb-profiler's all truncates to the us)" },
	{ .key = "step_time", .title = "Step", TIME(step_ns),
	  .help = "the step's length (its device-side bounds, as the Steps pane)" },
	{ .key = "computation", .title = "Compute", TIME(computation),
	  .help = "kernel time that no collective overlaps: the union of the non-collective "
		  "kernels in the step (host ops when the trace has no kernel) minus Overlapping "
		  "(torch-tb-profiler's Computation)" },
	{ .key = "overlapping", .title = "Overlap", TIME(overlapping),
	  .help = "time when computation and communication ran at once" },
	{ .key = "communication", .title = "Comm", TIME(communication),
	  .help = "collective time (the union of the collectives' kernels and their host "
		  "events) minus Overlapping" },
	{ .key = "other", .title = "Other", TIME(other),
	  .help = "the rest of the step: neither computation nor communication" },
	{ .key = "data_transfer", .title = "Transfer", .kind = COL_TIME, .width = 10,
	  .get = get_wait, .arg = 0,
	  .help = "of the collectives' time, the part spent moving data: per transfer, the "
		  "shortest it took on any rank (torch-tb-profiler's Data Transfer Time); none "
		  "for a step without collectives" },
	{ .key = "synchronizing", .title = "Sync", .kind = COL_TIME, .width = 10, .get = get_wait,
	  .arg = 1,
	  .help = "the rest of the collectives' time: waiting for the other ranks "
		  "(Synchronizing Time)" },
	{ .key = "straggler", .title = "Straggler", .kind = COL_TEXT, .width = 12, .get = get_marks,
	  .help = "slow step, slow compute: 10% or more above the median of the ranks; waited "
		  "for: the rank with the least synchronizing time, when the median is at least "
		  "twice it -- the one the others wait for; HTA (on a rank's all row): one of the "
		  "two stragglers of Holistic Trace Analysis's test across the ranks, the Rank "
		  "analyses pane's HTA straggler" },
	{ .key = "bar", .title = "Split", .kind = COL_BAR, .get = get_bar,
	  .help = "computation, overlapping, communication and other as a bar, scaled to the "
		  "longest" },
};

/* Stragglers among rows WHICH[0..N) of the rows (one step's, or the all
 * rows), across ranks, in the order of the rows. */
static void mark_stragglers(struct ranks_priv *rp, const size_t *which, size_t n)
{
	int64_t *steps = xmalloc((n ? n : 1) * sizeof(*steps)), *comp, *sync;
	uint8_t *marks;

	comp = xmalloc((n ? n : 1) * sizeof(*comp));
	sync = xmalloc((n ? n : 1) * sizeof(*sync));
	marks = xmalloc(n ? n : 1);
	for (size_t k = 0; k < n; k++) {
		const struct rank_row *r = &rp->rows[which[k]];

		steps[k] = r->step_ns;
		comp[k] = r->computation + r->overlapping;
		sync[k] = rp->why_no_wait ? -1 : r->sync;
	}
	rank_stragglers(steps, comp, sync, n, marks);
	for (size_t k = 0; k < n; k++)
		rp->rows[which[k]].marks = marks[k];
	free(steps);
	free(comp);
	free(sync);
	free(marks);
}

struct named_row {
	const char *name;
	size_t row;
};

static int cmp_named_row(const void *a, const void *b)
{
	const struct named_row *x = a, *y = b;
	int c = x->name == y->name ? 0 : strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->row > y->row) - (x->row < y->row);
}

/*
 * The marks of every row: the all rows across ranks, then the rows of
 * each step name.  The step rows are grouped by sorting them by name (then
 * row, which keeps each group in the order of the rows): a thousand ranks
 * of fifty steps each are 5e4 rows, which compared pairwise cost 10^9
 * strcmp()s.  A step named "all" gets no marks (its rows were taken for
 * the all rows' name, which picks the all rows alone).
 */
static void mark_all_stragglers(struct ranks_priv *rp)
{
	size_t *which = xmalloc((rp->nr_rows ? rp->nr_rows : 1) * sizeof(*which)), n = 0;
	struct named_row *by_name = xmalloc((rp->nr_rows ? rp->nr_rows : 1) * sizeof(*by_name));
	size_t nr_named = 0;

	for (size_t i = 0; i < rp->nr_rows; i++) {
		if (rp->rows[i].step < 0)
			which[n++] = i;
		else
			by_name[nr_named++] = (struct named_row){ rp->rows[i].step_name, i };
	}
	mark_stragglers(rp, which, n);
	qsort(by_name, nr_named, sizeof(*by_name), cmp_named_row);
	for (size_t i = 0, j; i < nr_named; i = j) {
		n = 0;
		for (j = i; j < nr_named && !strcmp(by_name[j].name, by_name[i].name); j++)
			which[n++] = by_name[j].row;
		if (strcmp(by_name[i].name, "all"))
			mark_stragglers(rp, which, n);
	}
	free(which);
	free(by_name);
}

/* HTA's straggler test across the ranks (model/straggler.h): its two
 * stragglers' all rows get STRAGGLER_HTA. */
static void mark_hta_stragglers(struct ranks_priv *rp)
{
	size_t n = rp->rs.nr;
	struct strag_rank *sr = xcalloc(n ? n : 1, sizeof(*sr));
	const struct strag_rank **p = xcalloc(n ? n : 1, sizeof(*p));
	bool *owned = xcalloc(n ? n : 1, sizeof(*owned));
	struct stragglers s;

	for (size_t m = 0; m < n; m++) {
		rank_analysis_strag(rp->rs.profs[m], &sr[m], &owned[m]);
		p[m] = &sr[m];
	}
	if (stragglers_compute(p, n, STRAG_NUM_CANDIDATES, &s))
		for (size_t m = 0; m < n; m++)
			if (s.is_straggler[m])
				rp->rows[rp->first_of[m]].marks |= STRAGGLER_HTA;
	stragglers_release(&s);
	for (size_t m = 0; m < n; m++)
		if (owned[m])
			strag_rank_release(&sr[m]);
	free(owned);
	free(p);
	free(sr);
}

static void fill(struct rank_row *r, const struct step_overlap *o, int64_t step_ns)
{
	r->step_ns = step_ns;
	r->computation = o->computation - o->overlap;
	r->overlapping = o->overlap;
	r->communication = o->communication - o->overlap;
	r->other = o->other;
}

static void ranks_load(struct pane *pane)
{
	struct ranks_priv *rp = xcalloc(1, sizeof(*rp));
	size_t n, alloc = 0;
	struct rank_local *local;
	const struct rank_local **lp;
	struct rank_dist *dist;

	pane->priv = rp;
	n = rank_set_of(pane, &rp->rs);
	local = xcalloc(n ? n : 1, sizeof(*local));
	lp = xcalloc(n ? n : 1, sizeof(*lp));
	dist = xcalloc(n ? n : 1, sizeof(*dist));
	rp->first_of = xcalloc(n ? n : 1, sizeof(*rp->first_of));
	for (size_t m = 0; m < n; m++) {
		rank_local_of(rp->rs.profs[m], &local[m]);
		lp[m] = &local[m];
	}
	if (rank_dist_compute(lp, n, dist, &rp->why_no_wait))
		rp->why_no_wait = NULL;
	for (size_t m = 0; m < n; m++) {
		const struct profile *p = rp->rs.profs[m];
		const struct rank_local *l = &local[m];
		struct step_overlap sum = { 0, 0, 0, 0 };
		int64_t step_sum = 0, transfer = 0, comm = 0;
		size_t nr_wait = 0, all;

		GROW(rp->rows, alloc, rp->nr_rows + 1 + p->nr_steps);
		all = rp->nr_rows++;
		rp->first_of[m] = all;
		for (size_t s = 0; s < p->nr_steps && s < l->nr_steps; s++) {
			struct rank_row *r = &rp->rows[rp->nr_rows++];
			const struct step_overlap *o = &l->steps[s];

			memset(r, 0, sizeof(*r));
			r->member = m;
			r->step = (long)s;
			r->step_name = p->steps[s].name;
			fill(r, o, p->steps[s].total_ns);
			r->transfer = r->sync = -1;
			if (dist[m].has_calls[s]) {
				r->transfer = dist[m].transfer_ns[s];
				r->sync = dist[m].comm_ns[s] - dist[m].transfer_ns[s];
			}
			sum.computation += o->computation;
			sum.overlap += o->overlap;
			sum.communication += o->communication;
			sum.other += o->other;
			step_sum += p->steps[s].total_ns;
		}
		/* The plugin's all: the mean of each figure over the steps; of
		 * the wait figures, over the steps with a collective (and the
		 * calls outside any step, its step None). */
		for (size_t b = 0; b < dist[m].nr_buckets; b++) {
			if (!dist[m].has_calls[b])
				continue;
			transfer += dist[m].transfer_ns[b];
			comm += dist[m].comm_ns[b] - dist[m].transfer_ns[b];
			nr_wait++;
		}
		{
			struct rank_row *r = &rp->rows[all];
			int64_t k = l->nr_steps ? (int64_t)l->nr_steps : 1;

			memset(r, 0, sizeof(*r));
			r->member = m;
			r->step = -1;
			r->step_name = "all";
			r->step_ns = step_sum / k;
			r->computation = (sum.computation - sum.overlap) / k;
			r->overlapping = sum.overlap / k;
			r->communication = (sum.communication - sum.overlap) / k;
			r->other = sum.other / k;
			r->transfer = nr_wait ? transfer / (int64_t)nr_wait : -1;
			r->sync = nr_wait ? comm / (int64_t)nr_wait : -1;
		}
	}
	mark_all_stragglers(rp);
	mark_hta_stragglers(rp);
	for (size_t m = 0; m < n; m++) {
		rank_dist_release(&dist[m]);
		rank_local_release(&local[m]);
	}
	free(dist);
	free(lp);
	free(local);

	pane->rows = xmalloc((rp->nr_rows ? rp->nr_rows : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < rp->nr_rows; i++)
		pane->rows[i] = &rp->rows[i];
	pane->nr_rows = rp->nr_rows;
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++)
		pane_add_column(pane, &cols[c]);
	pane->sort_col = pane_column(pane, "step_time");
	pane->sort_desc = true;
}

/* The view: the rows of the step shown, one per rank; with none, each
 * rank's all row sorted, followed by its steps when it is open (or for
 * --print, always). */
static void ranks_rebuild(struct pane *pane)
{
	struct ranks_priv *rp = pane->priv;
	const char *step = pane->scope.step ? pane->scope.step->name : NULL;
	size_t *top = xmalloc((rp->nr_rows ? rp->nr_rows : 1) * sizeof(*top)), nr_top = 0, n = 0;

	for (size_t i = 0; i < rp->nr_rows; i++) {
		const struct rank_row *r = &rp->rows[i];
		const char *name = ranks_row_name(pane, r);

		if (pane->filter && !filter_match(pane->filter, name, strlen(name)))
			continue;
		if (step ? (r->step >= 0 && !strcmp(r->step_name, step)) : r->step < 0)
			top[nr_top++] = i;
	}
	pane_sort_indices(pane, top, nr_top, pane->sort_col, pane->sort_desc);
	if (pane->sort_col < 0 && pane->sort_desc)
		for (size_t i = 0; i < nr_top / 2; i++) {
			size_t t = top[i];

			top[i] = top[nr_top - 1 - i];
			top[nr_top - 1 - i] = t;
		}
	if (rp->view_cap < rp->nr_rows + 1) {
		rp->view_cap = rp->nr_rows + 1;
		rp->depth = xrealloc(rp->depth, rp->view_cap * sizeof(*rp->depth));
	}
	pane->view = xrealloc(pane->view, rp->view_cap * sizeof(*pane->view));
	for (size_t k = 0; k < nr_top; k++) {
		const struct rank_row *r = &rp->rows[top[k]];

		rp->depth[n] = 0;
		pane->view[n++] = top[k];
		if (step || !(r->is_open || pane->scope.expand_all))
			continue;
		for (size_t i = top[k] + 1; i < rp->nr_rows && rp->rows[i].step >= 0 &&
					    rp->rows[i].member == r->member; i++) {
			rp->depth[n] = 1;
			pane->view[n++] = i;
		}
	}
	pane->nr_view = n;
	free(top);
}

static int ranks_depth(const struct pane *pane, size_t i)
{
	const struct ranks_priv *rp = pane->priv;

	return i < pane->nr_view ? rp->depth[i] : 0;
}

static int ranks_fold(const struct pane *pane, size_t i)
{
	const struct rank_row *r = pane_row(pane, i);

	if (!r || r->step >= 0 || pane->scope.step)
		return 0;
	return r->is_open || pane->scope.expand_all ? 1 : 2;
}

static void ranks_step_changed(struct pane *pane)
{
	(void)pane;	/* the next rebuild shows the step's rows */
}

static bool ranks_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct ranks_priv *rp = pane->priv;
	const struct rank_row *r = pane_row(pane, pane->cursor);
	struct rank_row *all;

	if (!r)
		return false;
	all = &rp->rows[rp->first_of[r->member]];
	switch (act) {
	case ACT_BACK:
		/* One rank shown alone: back is every rank (not quit). */
		if (!pane->scope.per_rank)
			return false;
		req->open_rank = true;
		req->rank = -1;
		return true;
	case ACT_DRILL:
		req->open_rank = true;
		/* Enter on the rank shown alone shows every rank again. */
		if (!pane->scope.set)
			return false;	/* one profile: it is shown already */
		req->rank = pane->scope.per_rank && rp->rs.profs[r->member] == pane->prof
				    ? -1
				    : (long)r->member;
		return true;
	case ACT_UNFOLD:
	case ACT_FOLD:
	case ACT_TOGGLE_FOLD:
	case ACT_UNFOLD_ALL:
		if (pane->scope.step)
			return false;
		if (act == ACT_UNFOLD_ALL) {
			for (size_t m = 0; m < rp->rs.nr; m++)
				rp->rows[rp->first_of[m]].is_open = true;
		} else {
			all->is_open = act == ACT_UNFOLD ? true : act == ACT_FOLD ? false : !all->is_open;
		}
		pane_rebuild(pane);
		for (size_t i = 0; i < pane->nr_view; i++)
			if (pane_row(pane, i) == all)
				pane->cursor = i;
		return true;
	default:
		return false;
	}
}

static size_t ranks_bar(const struct pane *pane, const void *row, int64_t *seg, size_t max)
{
	const struct rank_row *r = row;

	(void)pane;
	if (max < 4)
		return 0;
	seg[0] = r->computation;
	seg[1] = r->overlapping;
	seg[2] = r->communication;
	seg[3] = r->other;
	return 4;
}

static const char *const *ranks_legend(const struct pane *pane, size_t *nr)
{
	static const char *const names[] = { "Computation", "Overlapping", "Communication", "Other" };

	(void)pane;
	*nr = 4;
	return names;
}

/* Why Transfer and Sync are blank: the collectives of the ranks do not
 * line up.  One text for the status line and --print. */
static void ranks_why_blank(const struct pane *pane, char *buf, size_t size)
{
	const struct ranks_priv *rp = pane->priv;

	snprintf(buf, size, "%s%s", rp->why_no_wait ? "no transfer/sync: " : "",
		 rp->why_no_wait ? rp->why_no_wait : "");
}

/* What the figures lack (ranks the job has and no file gave), then why
 * Transfer and Sync are blank. */
static void ranks_status(const struct pane *pane, char *buf, size_t size)
{
	char missing[256], why[256];

	profset_missing_text(pane->scope.set, missing, sizeof(missing));
	ranks_why_blank(pane, why, sizeof(why));
	snprintf(buf, size, "%s%s%s", missing, *missing && *why ? "; " : "", why);
}

static void ranks_empty_text(const struct pane *pane, char *buf, size_t size)
{
	snprintf(buf, size, pane->scope.step ? "no rank has step %s" : "no ranks",
		 pane->scope.step ? pane->scope.step->name : "");
}

size_t rank_set_of(const struct pane *pane, struct rank_set *rs)
{
	const struct profset *set = pane->scope.set;
	size_t n = set ? set->nr : 1;

	rs->nr = n;
	rs->profs = xcalloc(n, sizeof(*rs->profs));
	rs->labels = xcalloc(n, sizeof(*rs->labels));
	rs->ranks = xcalloc(n, sizeof(*rs->ranks));
	if (!set) {
		const char *path = profset_source_of(pane->prof), *slash = strrchr(path, '/');

		rs->profs[0] = pane->prof;
		rs->labels[0] = slash && slash[1] ? slash + 1 : path;
		/* No distributedInfo: a job of one, rank 0; a rank the
		 * trace got wrong stays unknown. */
		rs->ranks[0] = pane->prof->dist.present ? pane->prof->dist.rank : 0;
		return 1;
	}
	for (size_t m = 0; m < n; m++) {
		const struct profile *p = set->members[m].prof;

		for (size_t r = 0; r < pane->scope.run && p->next_run; r++)
			p = p->next_run;
		rs->profs[m] = p;
		rs->labels[m] = set->members[m].label;
		rs->ranks[m] = profset_shown_rank(set, m);
	}
	return n;
}

void rank_set_release(struct rank_set *rs)
{
	free(rs->profs);
	free(rs->labels);
	free(rs->ranks);
	memset(rs, 0, sizeof(*rs));
}

static bool ranks_available(const struct profile *prof, const struct pane_scope *scope)
{
	(void)prof;
	return scope->set && scope->set->kind == PROFSET_RANKS;
}

static void ranks_release(struct pane *pane)
{
	struct ranks_priv *rp = pane->priv;

	if (!rp)
		return;
	free(rp->rows);
	free(rp->first_of);
	free(rp->depth);
	rank_set_release(&rp->rs);
	free(rp);
}

static const enum action ranks_hints[] = {
	ACT_HELP, ACT_DRILL, ACT_UNFOLD, ACT_STEP_NEXT, ACT_FILTER, ACT_EXPORT, ACT_BACK, ACT_NONE,
};

static const char *const ranks_aliases[] = { "rank", "distributed", NULL };

/* The actions handle() takes. */
static const enum action ranks_actions[] = {
	ACT_BACK, ACT_DRILL, ACT_UNFOLD, ACT_FOLD, ACT_TOGGLE_FOLD, ACT_UNFOLD_ALL, ACT_NONE,
};

static const struct pane_tree_ops ranks_tree = {
	.row_depth = ranks_depth, .row_fold = ranks_fold,
};
static const struct pane_picture_ops ranks_picture = { .bar = ranks_bar, .legend = ranks_legend };
static const struct pane_text_ops ranks_text = {
	.status = ranks_status, .why_blank = ranks_why_blank, .hints = ranks_hints,
};

const struct pane_ops ranks_pane_ops = {
	.id = PANE_RANKS, .flags = PANE_FOLLOWS_STEP, .aliases = ranks_aliases,
	.available = ranks_available,
	.load = ranks_load, .rebuild = ranks_rebuild, .row_name = ranks_row_name,
	.handle = ranks_handle, .actions = ranks_actions, .step_changed = ranks_step_changed,
	.empty_text = ranks_empty_text, .release = ranks_release,
	.tree = &ranks_tree, .picture = &ranks_picture, .text = &ranks_text,
};
