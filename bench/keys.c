// SPDX-License-Identifier: MIT
/*
 * What a key costs on a loaded profile: for every pane with a tab, the
 * work behind each key that changes what a pane holds -- opening it, each
 * sort, a filter typed and cleared, a step picked, a drill-down, and in
 * the Tree unfolding everything (from the top and from the first thread)
 * -- timed through the same pane calls the UI makes.  Drawing is not in
 * it: a frame paints only the rows on screen.  Figures, not a test: the
 * median of RUNS runs, in ms.
 *
 *   build/bench/keys FILE [RUNS [PANE]]
 *
 * PANE (a pane's name, as in --print) times that pane alone, with a tab
 * or not (GPU idle).
 * BENCH_CLOCK=cpu times the keys in this thread's CPU time (user and
 * system, page faults included) rather than the wall clock: on a shared
 * machine, the cost of a key without the time other work held the core.
 * A key that puts work on a second thread (the Timeline's open on a big
 * trace) shows less than it costs that way: read its wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parsers/load.h"
#include "parsers/parser.h"
#include "view/canvas.h"
#include "view/pane.h"

#define MAX_RUNS 15

static clockid_t key_clock = CLOCK_MONOTONIC;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(key_clock, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double worst_median;

static void report(const char *pane, const char *key, double *v, int n)
{
	double m;

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	m = v[n / 2];
	if (m > worst_median)
		worst_median = m;
	printf("%-10s %-28s %9.1f ms  (min %.1f, max %.1f)\n", pane, key, m, v[0], v[n - 1]);
}

/* The keys of one pane type, RUNS times each. */
static void bench_pane(const struct profile *p, const struct pane_ops *ops, int runs)
{
	const char *name = pane_name(ops);
	static const char *const sort_keys[] = { "device_self", "device_total", "host_self",
						 "host_total", "calls", "name", "total" };
	double t[MAX_RUNS];
	struct pane *pane;
	struct pane_request req;
	struct pane_scope scope;
	char err[256];

	for (int r = 0; r < runs; r++) {
		double t0 = now_ms();

		pane = pane_new(ops, p, NULL);
		t[r] = now_ms() - t0;
		pane_free(pane);
	}
	report(name, "open (switch to it)", t, runs);
	pane = pane_new(ops, p, NULL);
	printf("%-10s %-28s %9zu\n", name, "rows", pane->nr_view);
	for (size_t k = 0; k < sizeof(sort_keys) / sizeof(sort_keys[0]); k++) {
		int col = pane_column(pane, sort_keys[k]);
		char what[64];

		if (col < 0)
			continue;
		for (int r = 0; r < runs; r++) {
			double t0 = now_ms();

			pane_sort(pane, col, r % 2 == 0);
			t[r] = now_ms() - t0;
		}
		snprintf(what, sizeof(what), "sort by %s", sort_keys[k]);
		report(name, what, t, runs);
	}
	for (int r = 0; r < runs; r++) {
		double t0 = now_ms();

		pane_set_filter(pane, filter_new("conv", err, sizeof(err)));
		pane_set_filter(pane, NULL);
		t[r] = now_ms() - t0;
	}
	report(name, "filter 'conv', then Esc", t, runs);
	if (p->nr_steps && (ops->flags & PANE_FOLLOWS_STEP)) {
		double t_all[MAX_RUNS];

		for (int r = 0; r < runs; r++) {
			double t0 = now_ms(), t1;

			pane_set_step(pane, &p->steps[p->nr_steps / 2]);
			t1 = now_ms();
			pane_set_step(pane, NULL);
			t[r] = t1 - t0;
			t_all[r] = now_ms() - t1;
		}
		report(name, "] (a step)", t, runs);
		report(name, "0 (all steps again)", t_all, runs);
	}
	pane->cursor = 0;
	if (pane_drill_target(pane, &scope) != PANE_NONE) {
		for (int r = 0; r < runs; r++) {
			enum pane_id to;
			struct pane *next;
			double t0 = now_ms();

			to = pane_drill_target(pane, &scope);
			next = pane_new(pane_types[to], p, &scope);
			t[r] = now_ms() - t0;
			pane_free(next);
		}
		report(name, "Enter (drill down)", t, runs);
	}
	if (pane_is_tree(pane)) {
		for (int r = 0; r < runs; r++) {
			struct pane *fresh = pane_new(ops, p, NULL);
			double t0 = now_ms();

			fresh->cursor = 0;
			pane_handle(fresh, ACT_UNFOLD_ALL, &req);
			t[r] = now_ms() - t0;
			if (r == 0)
				printf("%-10s %-28s %9zu\n", name, "rows after unfold-all", fresh->nr_view);
			pane_free(fresh);
		}
		report(name, "* (unfold all, first row)", t, runs);
		/* Every key after: a move is free, a sort rebuilds the view. */
		{
			struct pane *open = pane_new(ops, p, NULL);
			int col = pane_column(open, "name");

			pane_handle(open, ACT_UNFOLD_ALL, &req);
			for (int r = 0; r < runs; r++) {
				double t0 = now_ms();

				pane_sort(open, col, r % 2 == 0);
				t[r] = now_ms() - t0;
			}
			report(name, "sort by name, all unfolded", t, runs);
			for (int r = 0; r < runs; r++) {
				double t0 = now_ms();

				open->cursor = open->nr_view / 2;
				pane_handle(open, ACT_TOGGLE_FOLD, &req);
				pane_handle(open, ACT_TOGGLE_FOLD, &req);
				t[r] = now_ms() - t0;
			}
			report(name, "Enter twice (fold, unfold)", t, runs);
			pane_free(open);
		}
	}
	pane_free(pane);
}

/* A key on a picture pane (the Timeline): the pane's own work and the
 * frame it draws, at 200x50. */
static double key_and_frame(struct pane *pane, enum action act, struct canvas *c)
{
	struct pane_request req;
	double t0 = now_ms();

	if (act != ACT_NONE)
		pane_handle(pane, act, &req);
	canvas_reset(c, 46, 200);
	pane_paint(pane, c);
	return now_ms() - t0;
}

static void bench_picture(const struct profile *p, const struct pane_ops *ops, int runs)
{
	static const struct {
		enum action act;
		const char *what;
	} keys[] = {
		{ ACT_NONE, "a frame (all of it)" },
		{ ACT_ZOOM_IN, "+ (zoom in), and a frame" },
		{ ACT_MOVE_DOWN, "j (row below), and a frame" },
		{ ACT_NEXT_BLOCK, "l (next block), and a frame" },
		{ ACT_NEXT_INSTANCE, "n (same name), and a frame" },
		{ ACT_PAN_RIGHT, "L (pan), and a frame" },
		{ ACT_ZOOM_OUT, "- (zoom out), and a frame" },
		{ ACT_ZOOM_ALL, "z (all), and a frame" },
	};
	const char *name = pane_name(ops);
	struct canvas c = { 0 };
	struct pane *pane = pane_new(ops, p, NULL);
	double t[MAX_RUNS];

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		/* Zoomed in a few times first: the keys of someone reading. */
		if (k == 1)
			for (int z = 0; z < 8; z++)
				key_and_frame(pane, ACT_ZOOM_IN, &c);
		for (int r = 0; r < runs; r++)
			t[r] = key_and_frame(pane, keys[k].act, &c);
		report(name, keys[k].what, t, runs);
	}
	/* The counter lanes: u makes every series (GPU utilization, queues,
	 * memory) and the first frame each lane's tree; then a frame with
	 * all of them, zoomed in. */
	for (int r = 0; r < runs; r++) {
		struct pane *fresh = pane_new(ops, p, NULL);

		t[r] = key_and_frame(fresh, ACT_COUNTER_LANES, &c);
		pane_free(fresh);
	}
	report(name, "u (counter lanes made), and a frame", t, runs);
	key_and_frame(pane, ACT_COUNTER_LANES, &c);
	for (int r = 0; r < runs; r++)
		t[r] = key_and_frame(pane, ACT_NONE, &c);
	report(name, "a frame with every counter lane", t, runs);
	key_and_frame(pane, ACT_COUNTER_LANES, &c);	/* off again */
	for (int r = 0; r < runs; r++) {
		double t0 = now_ms();
		const char *op = pane_row_name(pane, pane_row(pane, pane->nr_view / 2));

		pane_seek(pane, op);
		key_and_frame(pane, ACT_NONE, &c);
		t[r] = now_ms() - t0;
	}
	report(name, "w (an op's first block)", t, runs);
	canvas_release(&c);
	pane_free(pane);
}

int main(int argc, char **argv)
{
	struct load_options lo = { .err = NULL };
	struct profile p;
	const char *path;
	int runs = argc > 2 ? atoi(argv[2]) : 3;
	const char *only = argc > 3 ? argv[3] : NULL;
	double t0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [RUNS [PANE]]\n", argv[0]);
		return 1;
	}
	if (runs < 1 || runs > MAX_RUNS)
		runs = 3;
	path = argv[1];
	profile_init(&p, path);
	t0 = now_ms();	/* wall: the load runs on several threads */
	if (profile_load(&p, &path, 1, &lo) < 0) {
		fprintf(stderr, "%s: cannot load\n", path);
		return 1;
	}
	printf("%-10s %-28s %9.1f ms  (%u nodes)\n", "load", path, now_ms() - t0, p.nr_nodes);
	if (getenv("BENCH_CLOCK") && !strcmp(getenv("BENCH_CLOCK"), "cpu")) {
		key_clock = CLOCK_THREAD_CPUTIME_ID;
		printf("(keys in CPU time of this thread)\n");
	}
	for (size_t i = 0; i < NR_PANES; i++)
		if (only ? !strcmp(only, pane_name(pane_types[i])) : pane_infos[i].has_tab) {
			bench_pane(&p, pane_types[i], runs);
			if (pane_type_is_picture(pane_types[i]))
				bench_picture(&p, pane_types[i], runs);
		}
	printf("slowest key (median): %.1f ms\n", worst_median);
	profile_release(&p);
	return 0;
}
