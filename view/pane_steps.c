// SPDX-License-Identifier: MIT
/*
 * The Steps pane: one row per step (a ProfilerStep, an iteration, an
 * inference) with its length and one column per category of the format,
 * a bar of the split, and an average row.  Enter on a step picks it: the
 * panes that follow steps narrow to it.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "pane.h"

#define STEP(r) ((const struct step *)(r))

struct steps_priv {
	struct step average;
	bool average_unknown;		/* a capped total among the steps */
};

static const char *step_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return STEP(row)->name;
}

static const struct attr *step_attrs(const struct pane *pane, const void *row)
{
	return attr_list_first(pane->prof, &STEP(row)->attrs);
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(STEP(row)->name);
}

static struct cell get_step_cat(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane;
	return STEP(row)->cat_ns[c->arg] >= 0 ? cell_int(STEP(row)->cat_ns[c->arg]) : cell_none();
}

static struct cell get_step_bar(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c, (void)row;
	return cell_none();	/* a drawing: steps_bar() gives its segments */
}

/* A step's length; the average's, unless a capped one (model/bounds.h)
 * makes it a bound rather than a mean. */
static struct cell get_step_total(const struct pane *pane, const void *row, const struct column *c)
{
	const struct steps_priv *sp = pane->priv;

	(void)c;
	if (row == &sp->average && sp->average_unknown)
		return cell_none();
	return cell_int(STEP(row)->total_ns);
}

static const struct column col_step = {
	.key = "step", .title = "Step", .kind = COL_NAME, .get = get_name,
	.help = "the step as the profile names it",
};
static const struct column col_step_total = {
	.key = "total", .title = "Total", .kind = COL_TIME, .width = 10, .get = get_step_total,
	.help = "the step's length",
};
static const struct column col_step_bar = {
	.key = "bar", .title = "Breakdown", .kind = COL_BAR, .get = get_step_bar,
	.help = "the categories of the step as a bar, scaled to the longest step",
};

/* "CPU Exec" -> "cpu_exec". */
static char *snake(const char *s)
{
	char *k = xstrdup(s);

	for (char *p = k; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
		else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			*p = '_';
	}
	return k;
}

static void steps_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct steps_priv *sp = xcalloc(1, sizeof(*sp));
	static const char *const skip[] = { NULL };

	pane->priv = sp;
	pane->rows = xmalloc((p->nr_steps ? p->nr_steps : 1) * sizeof(*pane->rows));
	/* A range of time (the Timeline's, --range) keeps the steps that
	 * start in it, as Operators keeps the ops; a step without an
	 * interval cannot be placed, and stays. */
	for (size_t i = 0; i < p->nr_steps; i++)
		if (!pane->scope.has_range || p->steps[i].end_ns <= p->steps[i].start_ns ||
		    (p->steps[i].start_ns >= pane->scope.range_start_ns &&
		     p->steps[i].start_ns < pane->scope.range_end_ns))
			pane->rows[pane->nr_rows++] = &p->steps[i];

	pane_add_column(pane, &col_step);
	pane_add_column(pane, &col_step_total);
	pane_add_column(pane, &col_step_bar);
	for (size_t k = 0; k < p->nr_step_cats; k++) {
		struct column c = { .kind = COL_TIME, .width = 10, .get = get_step_cat,
				    .arg = (int)k, .help = "time of the step in this category "
							   "(categories claim time in priority order)" };

		c.owned = snake(p->step_cats[k]);
		c.key = c.owned;
		c.owned_title = xstrdup(p->step_cats[k]);
		c.title = c.owned_title;
		pane_add_column(pane, &c);
	}
	pane_add_attr_columns(pane, skip);

	if (p->nr_steps > 1) {
		sp->average.name = "average";
		sp->average.cat_ns = xcalloc(p->nr_step_cats ? p->nr_step_cats : 1,
					     sizeof(*sp->average.cat_ns));
		pane->foot = xmalloc(sizeof(*pane->foot));
		pane->foot[0] = &sp->average;
		pane->nr_foot = 1;
	}
	pane->sort_col = -1;	/* step order */
}

/* The average row: over the steps shown (a filter narrows it) that have
 * each value, as torch-tb-profiler averages over its kept steps.  One step
 * is its own average (and a format may give only that), so it gets none. */
static void steps_rebuild(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct steps_priv *sp = pane->priv;
	struct step *avg = &sp->average;
	__int128 total = 0;

	pane_view_flat(pane);
	if (!pane->nr_foot)
		return;
	sp->average_unknown = false;
	for (size_t i = 0; i < pane->nr_view; i++) {
		total += STEP(pane_row(pane, i))->total_ns;
		sp->average_unknown |= sum_capped(STEP(pane_row(pane, i))->total_ns);
	}
	avg->total_ns = pane->nr_view ? div_round(total, pane->nr_view) : 0;
	for (size_t k = 0; k < p->nr_step_cats; k++) {
		__int128 sum = 0;
		uint64_t n = 0;
		bool capped = false;

		for (size_t i = 0; i < pane->nr_view; i++) {
			const struct step *s = pane_row(pane, i);

			if (s->cat_ns[k] >= 0) {
				sum += s->cat_ns[k];
				capped |= sum_capped(s->cat_ns[k]);
				n++;
			}
		}
		/* No mean of a bound: none, as for a category no step has. */
		avg->cat_ns[k] = n && !capped ? div_round(sum, n) : -1;
	}
}

/* Enter on a step picks it. */
static bool steps_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	const void *row = pane_row(pane, pane->cursor);

	if ((act != ACT_DRILL && act != ACT_UNFOLD) || !row)
		return false;
	req->pick_step = true;
	req->step = row;
	return true;
}

/* The step picked elsewhere ([ and ]): the cursor goes to it. */
static void steps_step_changed(struct pane *pane)
{
	for (size_t i = 0; pane->scope.step && i < pane->nr_view; i++)
		if (pane_row(pane, i) == pane->scope.step)
			pane->cursor = i;
}

static size_t steps_bar(const struct pane *pane, const void *row, int64_t *seg, size_t max)
{
	size_t n = pane->prof->nr_step_cats < max ? pane->prof->nr_step_cats : max;

	for (size_t k = 0; k < n; k++)
		seg[k] = STEP(row)->cat_ns[k];
	return n;
}

static const char *const *steps_legend(const struct pane *pane, size_t *nr)
{
	*nr = pane->prof->nr_step_cats;
	return pane->prof->step_cats;
}

static void steps_release(struct pane *pane)
{
	struct steps_priv *sp = pane->priv;

	if (sp)
		free(sp->average.cat_ns);
	free(sp);
}

static const char *const steps_aliases[] = { "step", NULL };

/* The actions handle() takes. */
static const enum action steps_actions[] = {
	ACT_DRILL, ACT_UNFOLD, ACT_NONE,
};

static const struct pane_picture_ops steps_picture = { .bar = steps_bar, .legend = steps_legend };

/* Only a range can empty a profile's steps: say so (otherwise the
 * default words stay). */
static void steps_empty_text(const struct pane *pane, char *buf, size_t size)
{
	if (pane->scope.has_range && pane->prof->nr_steps)
		snprintf(buf, size, "no step starts in the range");
}

const struct pane_ops steps_pane_ops = {
	.id = PANE_STEPS, .flags = PANE_FOLLOWS_RANGE, .aliases = steps_aliases,
	.align = ALIGN_BY_POSITION,
	.load = steps_load, .rebuild = steps_rebuild, .row_name = step_name,
	.row_attrs = step_attrs, .handle = steps_handle, .actions = steps_actions,
	.step_changed = steps_step_changed, .empty_text = steps_empty_text,
	.release = steps_release, .picture = &steps_picture,
};
