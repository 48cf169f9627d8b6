// SPDX-License-Identifier: MIT
/*
 * The Timeline's counter lanes (view/tl_counters.c) on the Counters
 * golden fixture: which lanes show at first and after counter-lanes, a
 * cell's level (the greatest value in its slice, scaled to the series'
 * greatest), the ASCII ramp, the lanes' cursor with pin and hide, the
 * value at a time, and windows narrower than a sample or wider than the
 * trace, and canvases too small to draw on, which must neither divide
 * by zero nor write outside the canvas.
 */
#include <stdlib.h>

#include "model/profile.h"
#include "model/timeline.h"
#include "parsers/load.h"
#include "view/pane.h"
#include "view/tl_counters.h"
#include "test.h"

#define FIXTURE "tests/golden/kineto/counters.json"

struct fixture {
	struct profile p;
	struct timeline tl;
	struct tlview v;
	struct tl_counters tc;
	struct canvas c;
};

static bool open_fixture(struct fixture *f)
{
	const char *paths[1] = { FIXTURE };
	struct load_options lo = { 0 };

	memset(f, 0, sizeof(*f));
	profile_init(&f->p, FIXTURE);
	if (profile_load(&f->p, paths, 1, &lo))
		return false;
	timeline_build(&f->p, &f->tl);
	tlview_reset(&f->v, &f->tl, f->tl.start_ns, f->tl.end_ns);
	tl_counters_init(&f->tc, &f->p);
	return true;
}

static void close_fixture(struct fixture *f)
{
	canvas_release(&f->c);
	tl_counters_release(&f->tc);
	tlview_release(&f->v);
	timeline_release(&f->tl);
	profile_release(&f->p);
}

/* Paint on a canvas ROWS x COLS; the band's rows. */
static int paint(struct fixture *f, int rows, int cols, bool ascii)
{
	int band;

	canvas_reset(&f->c, rows, cols);
	f->c.ascii = ascii;
	band = tl_counters_rows(&f->tc, rows);
	tl_counters_paint(&f->tc, &f->v, &f->c, band);
	return band;
}

static const char *line(struct fixture *f, int y)
{
	static char buf[4096];

	canvas_line(&f->c, y, buf, sizeof(buf));
	return buf;
}

static void t_lanes(void)
{
	struct fixture f;
	const char *msg = NULL;

	CHECK(open_fixture(&f));
	/* The four recorded series at once, in the file's order. */
	CHECK_EQ(paint(&f, 30, 100, false), 4);
	CHECK(strstr(line(&f, 1), "GPU 0 Uti") && strstr(line(&f, 1), "0\xe2\x80\x93" "0.75"));
	CHECK(strstr(line(&f, 2), "power watts 0\xe2\x80\x93" "300"));
	/* watts: 250 of 300 over the window: level 1 + round(250/300*7) = 7 */
	CHECK(strstr(line(&f, 2), "\xe2\x96\x87\xe2\x96\x87\xe2\x96\x87"));
	/* counter-lanes: every series; again: none */
	CHECK(tl_counters_handle(&f.tc, ACT_COUNTER_LANES, false, false, &msg));
	CHECK_EQ(paint(&f, 30, 100, false), 7);
	CHECK(strstr(line(&f, 5), "0\xe2\x80\x93" "100%"));
	CHECK(tl_counters_handle(&f.tc, ACT_COUNTER_LANES, false, false, &msg));
	CHECK_STR(msg, "counter lanes hidden");
	CHECK_EQ(paint(&f, 30, 100, false), 0);
	CHECK(tl_counters_handle(&f.tc, ACT_COUNTER_LANES, false, false, &msg));
	/* A third of the rows at most. */
	CHECK_EQ(paint(&f, 10, 100, false), 3);
	/* The ASCII ramp: the full block is '#'. */
	paint(&f, 30, 100, true);
	CHECK(strstr(line(&f, 4), "0-1 ####"));
	close_fixture(&f);
}

static void t_cursor(void)
{
	struct fixture f;
	const char *msg = NULL;
	char buf[256];

	CHECK(open_fixture(&f));
	/* move-up enters only from the top row of blocks */
	CHECK(!tl_counters_handle(&f.tc, ACT_MOVE_UP, false, false, &msg));
	CHECK(!tl_counters_has_cursor(&f.tc));
	CHECK(tl_counters_handle(&f.tc, ACT_MOVE_UP, true, false, &msg));
	CHECK(tl_counters_has_cursor(&f.tc));
	CHECK(tl_counters_handle(&f.tc, ACT_MOVE_UP, true, false, &msg));
	CHECK(tl_counters_handle(&f.tc, ACT_MOVE_UP, true, false, &msg));
	CHECK(tl_counters_handle(&f.tc, ACT_MOVE_UP, true, false, &msg));
	CHECK(tl_counters_handle(&f.tc, ACT_MOVE_UP, true, false, &msg));	/* stays first */
	tl_counters_status(&f.tc, 1099000, 1000000, buf, sizeof(buf));
	CHECK_STR(buf, "GPU 0 Utilization = 0.25 at 99 us");
	tl_counters_status(&f.tc, 1100000, 1000000, buf, sizeof(buf));
	CHECK_STR(buf, "GPU 0 Utilization = 0.75 at 100 us");
	tl_counters_status(&f.tc, 999999, 1000000, buf, sizeof(buf));
	CHECK(strstr(buf, "no sample yet"));
	/* pin the second; hide it; show-lanes shows it */
	CHECK(tl_counters_handle(&f.tc, ACT_MOVE_DOWN, true, false, &msg));
	CHECK(tl_counters_handle(&f.tc, ACT_PIN_LANE, true, false, &msg));
	paint(&f, 30, 100, false);
	CHECK(!strncmp(line(&f, 1), "=power w", 8));
	CHECK(tl_counters_handle(&f.tc, ACT_HIDE_LANE, true, false, &msg));
	CHECK_EQ(paint(&f, 30, 100, false), 3);
	CHECK(tl_counters_handle(&f.tc, ACT_SHOW_LANES, true, false, &msg));
	CHECK_EQ(paint(&f, 30, 100, false), 4);
	/* with lanes of blocks hidden too, show-lanes is theirs as well */
	CHECK(tl_counters_handle(&f.tc, ACT_HIDE_LANE, true, false, &msg));
	CHECK_EQ(paint(&f, 30, 100, false), 3);
	CHECK(!tl_counters_handle(&f.tc, ACT_SHOW_LANES, true, true, &msg));
	CHECK_EQ(paint(&f, 30, 100, false), 4);
	/* move-down past the last lane: back on the blocks */
	for (int i = 0; i < 10; i++)
		tl_counters_handle(&f.tc, ACT_MOVE_DOWN, true, false, &msg);
	CHECK(!tl_counters_has_cursor(&f.tc));
	CHECK(!tl_counters_handle(&f.tc, ACT_PIN_LANE, true, false, &msg));
	close_fixture(&f);
}

/* Zoomed to a nanosecond, panned past the ends, and on canvases too
 * small: no division by zero, nothing outside the canvas. */
static void t_windows(void)
{
	struct fixture f;
	const char *msg = NULL;

	CHECK(open_fixture(&f));
	tl_counters_handle(&f.tc, ACT_COUNTER_LANES, false, false, &msg);
	f.v.t0 = f.v.lo + 12345;
	f.v.t1 = f.v.t0 + 1;		/* narrower than any sample's span */
	CHECK_EQ(paint(&f, 30, 300, false), 7);
	f.v.t0 = f.v.lo - 1000000000;	/* far wider than the trace */
	f.v.t1 = f.v.hi + 1000000000;
	paint(&f, 30, 300, false);
	CHECK(strstr(line(&f, 1), "\xe2\x96"));
	for (int rows = 0; rows < 5; rows++)
		for (int cols = 0; cols < 25; cols++)
			paint(&f, rows, cols, cols % 2);
	close_fixture(&f);
}

/* The first u on a trace without counter events makes every series,
 * which takes a while on a big one: the Timeline says so before (the
 * bar shows it while the work runs), and only then. */
static void t_busy(void)
{
	const char *paths[1] = { "tests/golden/kineto/range.json" };
	struct load_options lo = { 0 };
	struct pane_request req;
	struct profile p;
	struct pane *pane;
	struct fixture f;

	profile_init(&p, paths[0]);
	CHECK(!profile_load(&p, paths, 1, &lo));
	pane = pane_new(pane_types[PANE_TIMELINE], &p, NULL);
	CHECK(pane_busy_text(pane, ACT_COUNTER_LANES) != NULL);
	CHECK(strstr(pane_busy_text(pane, ACT_COUNTER_LANES), "counter series"));
	CHECK(!pane_busy_text(pane, ACT_ZOOM_IN));
	CHECK(pane_handle(pane, ACT_COUNTER_LANES, &req));
	CHECK(!pane_busy_text(pane, ACT_COUNTER_LANES));	/* made now */
	pane_free(pane);
	profile_release(&p);
	/* Counter events are made at once: nothing slow left for u. */
	CHECK(open_fixture(&f));
	CHECK(!tl_counters_is_slow(&f.tc, ACT_COUNTER_LANES));
	close_fixture(&f);
}

const struct test tests[] = {
	{ "counter lanes shown, scaled, toggled", t_lanes },
	{ "the lanes' cursor, pin, hide, value at a time", t_cursor },
	{ "windows and canvases of any size", t_windows },
	{ "the first u says it is making the series", t_busy },
	{ 0 },
};
