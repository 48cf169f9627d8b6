// SPDX-License-Identifier: MIT
/*
 * Critical path: the longest chain of dependent host ops, runtime calls,
 * launch delays, kernels and gaps between kernels (model/critical_path.c,
 * which states the graph), over the step chosen, else the longest step, else the whole trace.
 * First one row per bound_by with the path's time in it and its share
 * (after a row for the whole path), then the path's links in order, each
 * with its start, weight, share, bound_by, event and lane, over the step
 * chosen, else the longest step, else the whole trace; Enter or w shows
 * a link's op or kernel on the Timeline (its first block of that name).  The Overview's "Critical path"
 * rows open it.  --print critical-path; JSON keys are HTA's names in
 * snake_case, times in µs.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/critical_path.h"
#include "../model/util.h"
#include "pane.h"

struct cp_row {
	const struct cpath_link *link;	/* NULL: a summary row */
	size_t nr;			/* the link's place, from 1 */
	int bound;			/* a summary row's bound; -1: the path */
	int64_t dur_ns;
	char lane[40];
};

struct cp_priv {
	struct critical_path c;
	struct cp_row *rows;
};

#define CR(r) ((const struct cp_row *)(r))

static const struct critical_path *path_of(const struct pane *pane)
{
	return &((const struct cp_priv *)pane->priv)->c;
}

static struct cell get_link(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return CR(row)->link ? cell_int((int64_t)CR(row)->nr) : cell_none();
}

static struct cell get_start(const struct pane *pane, const void *row, const struct column *c)
{
	const struct profile *p = pane->prof;
	int64_t t;

	(void)c;
	if (!CR(row)->link)
		return cell_none();
	t = CR(row)->link->start_ns;
	if (p->has_time_origin && __builtin_sub_overflow(t, p->time_origin_ns, &t))
		return cell_none();
	return cell_int(t);
}

static struct cell get_dur(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(CR(row)->dur_ns);
}

static struct cell get_share(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_real(cpath_share(path_of(pane), CR(row)->dur_ns));
}

static struct cell get_bound(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	if (CR(row)->link)
		return cell_text(cpath_bound_name(CR(row)->link->bound));
	return CR(row)->bound >= 0 ? cell_text(cpath_bound_name(CR(row)->bound)) : cell_none();
}

static const char *row_name(const struct cp_row *r)
{
	if (!r->link)
		return r->bound < 0 ? "(the whole path)" : "(the sum of its links)";
	return r->link->event ? node_name(r->link->event) : "";
}

static struct cell get_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(row_name(CR(row)));
}

static struct cell get_lane(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return CR(row)->lane[0] ? cell_text(CR(row)->lane) : cell_none();
}

static const struct column cp_cols[] = {
	{ .key = "link", .title = "#", .kind = COL_COUNT, .width = 5, .get = get_link,
	  .help = "the link's place on the path, from its first; empty on the summary rows "
		  "(the whole path, then each bound_by).  The path is the longest of the step "
		  "chosen ([ and ]), else of the longest step, else of the whole trace when "
		  "there is no step; with a range of time, of what starts in the range (and "
		  "in the step chosen) (proftui(1), PANES)" },
	{ .key = "start", .json_key = "start", .title = "Start", .kind = COL_TIME, .width = 11,
	  .get = get_start,
	  .help = "when the link begins (its first node: an event's start or end), since the "
		  "profile started" },
	{ .key = "duration", .json_key = "duration", .title = "Duration", .kind = COL_TIME,
	  .width = 11, .get = get_dur,
	  .help = "the link's weight: the time between its two nodes (0 for a dependency or a "
		  "sync edge, and into the end of a blocking synchronisation call; a negative gap counts 0); on a "
		  "summary row, the sum over the path's links of that bound" },
	{ .key = "share", .json_key = "share", .title = "Share", .kind = COL_PCT, .width = 7,
	  .get = get_share, .help = "the duration / the path's length (the sum of all its links)" },
	{ .key = "bound_by", .title = "Bound by", .kind = COL_TEXT, .width = 26, .get = get_bound,
	  .help = "HTA's bound_by: cpu_bound (a host op or runtime call's time), "
		  "gpu_compute_bound / gpu_communication_bound (a kernel, copy or set; "
		  "communication by the Kernels' Type), gpu_kernel_launch_overhead (a launch "
		  "delay), gpu_kernel_kernel_overhead (the gap after the kernel named), empty for "
		  "a dependency or a sync edge" },
	{ .key = "name", .title = "Event", .kind = COL_NAME, .get = get_name,
	  .help = "the event the link belongs to: an op's time between two of its children "
		  "is the op's; a launch delay's event is the kernel launched; a gap's, the kernel "
		  "before it; a dependency's, the op it leads to; a sync edge (the end of the device "
		  "work a synchronising call waited for, from Kineto's cuda_sync events, to that "
		  "call's end) has none" },
	{ .key = "lane", .title = "Lane", .kind = COL_TEXT, .width = 16, .get = get_lane,
	  .help = "the host thread of the event, or the GPU and stream of device work" },
};

static const struct step *step_of(const struct profile *p, const struct step *picked)
{
	if (!picked)
		return NULL;
	if ((uintptr_t)picked - (uintptr_t)p->steps < p->nr_steps * sizeof(*p->steps))
		return picked;
	return profile_step_named(p, picked->name);
}

static void cp_load(struct pane *pane)
{
	struct cp_priv *cp = xcalloc(1, sizeof(*cp));
	struct cpath_options o;
	/* The step chosen, else with a range of time none (the range is
	 * the window), else the longest step. */
	const struct step *s = pane->scope.step	      ? step_of(pane->prof, pane->scope.step)
			       : pane->scope.has_range ? NULL
						       : cpath_default_step(pane->prof);
	size_t n = 0, cap;

	pane->priv = cp;
	cpath_options_for_step(&o, s);
	if (pane->scope.step && (!s || s->end_ns <= s->start_ns)) {
		/* A step this profile lacks, or one without a span: empty. */
		o.lo_ns = 1;
		o.hi_ns = 0;
	}
	if (pane->scope.has_range)
		cpath_options_narrow(&o, pane->scope.range_start_ns, pane->scope.range_end_ns);
	if (!pane_empty_of_summary(pane))
		cpath_compute(pane->prof, &o, &cp->c);
	cap = cp->c.nr_links + NR_CPATH_BOUNDS + 1;
	cp->rows = xcalloc(cap, sizeof(*cp->rows));
	pane->rows = xmalloc(cap * sizeof(*pane->rows));
	if (cp->c.nr_links) {
		bool present[NR_CPATH_BOUNDS] = { false };

		for (size_t i = 0; i < cp->c.nr_links; i++)
			present[cp->c.links[i].bound] = true;
		cp->rows[n] = (struct cp_row){ .bound = -1, .dur_ns = cp->c.total_ns };
		pane->rows[n] = &cp->rows[n];
		n++;
		for (int b = 0; b < NR_CPATH_BOUNDS; b++) {
			if (!present[b])
				continue;
			cp->rows[n] = (struct cp_row){ .bound = b, .dur_ns = cp->c.bound_ns[b] };
			pane->rows[n] = &cp->rows[n];
			n++;
		}
	}
	for (size_t i = 0; i < cp->c.nr_links; i++) {
		const struct cpath_link *l = &cp->c.links[i];
		struct cp_row *r = &cp->rows[n];

		r->link = l;
		r->nr = i + 1;
		r->dur_ns = l->dur_ns;
		if (l->on_device && l->device >= 0)
			snprintf(r->lane, sizeof(r->lane), "GPU %d stream %d", (int)l->device,
				 (int)l->stream);
		else if (l->on_device)
			snprintf(r->lane, sizeof(r->lane), "stream %d", (int)l->stream);
		else if (l->thread)
			snprintf(r->lane, sizeof(r->lane), "%s", node_name(l->thread));
		pane->rows[n] = r;
		n++;
	}
	pane->nr_rows = n;
	for (size_t i = 0; i < ARRAY_SIZE(cp_cols); i++)
		pane_add_column(pane, &cp_cols[i]);
	pane->sort_col = -1;	/* the summary, then the path in order */
}

static const char *cp_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return row_name(CR(row));
}

static void cp_empty(const struct pane *pane, char *buf, size_t size)
{
	if (pane_empty_of_summary(pane))
		snprintf(buf, size, "the critical path needs the trace: a summary holds no events");
	else
		snprintf(buf, size, "no host op, runtime call or launched work%s%s: no path",
			 pane->scope.step ? " in this step" : "",
			 pane->scope.has_range ? " starting in the range" : "");
}

static void cp_release(struct pane *pane)
{
	struct cp_priv *cp = pane->priv;

	if (!cp)
		return;
	cpath_release(&cp->c);
	free(cp->rows);
	free(cp);
}

/* Enter on a link: its event on the Timeline (its first block of that
 * name), as w does. */
static bool cp_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	const struct cp_row *r = pane_row(pane, pane->cursor);

	if (act != ACT_DRILL || !r)
		return false;
	if (!r->link || !r->link->event) {
		req->message = "Enter on a link shows its op or kernel on the Timeline";
		return true;
	}
	req->jump = true;
	req->jump_to = PANE_TIMELINE;
	req->jump_node = r->link->event;
	return true;
}

/* w and Enter: the link's own event on the Timeline, not the first of
 * its name. */
static const struct node *cp_node(const struct pane *pane, const void *row)
{
	(void)pane;
	return CR(row)->link ? CR(row)->link->event : NULL;
}

static const enum action cp_actions[] = { ACT_DRILL, ACT_NONE };

static const char *const cp_aliases[] = { "critical-path", NULL };

const struct pane_ops critical_path_pane_ops = {
	.id = PANE_CRITICAL_PATH, .flags = PANE_FOLLOWS_STEP | PANE_PRINTABLE | PANE_FOLLOWS_RANGE,
	.aliases = cp_aliases, .load = cp_load, .row_name = cp_name, .row_node = cp_node, .empty_text = cp_empty,
	.handle = cp_handle, .actions = cp_actions,
	.needs_trace = pane_empty_of_summary, .release = cp_release,
};
