// SPDX-License-Identifier: MIT
/* Pinned and hidden lanes in the Timeline's picture: pinned lanes drawn
 * first whatever the scroll, hidden ones not at all, and the clicks and
 * the scroll that follows the selection in the same order. */
#include "test.h"
#include "model/timeline.h"
#include "view/canvas.h"
#include "view/tlview.h"

/* Lanes "thread 1".."thread 6", one op each; a stream with a kernel. */
static void build(struct profile *p)
{
	char name[32];

	for (int i = 1; i <= 6; i++) {
		struct node *t, *op;

		snprintf(name, sizeof(name), "thread %d", i);
		t = node_new(p, p->root, NODE_THREAD, name, strlen(name));
		snprintf(name, sizeof(name), "op%d", i);
		op = node_new(p, t, NODE_OP, name, strlen(name));
		op->start_ns = 1000 * i;
		node_set_calls(p, op, 1);
		node_set_host_total(p, op, 500);
		if (i == 6) {
			struct node *k = node_new(p, op, NODE_KERNEL, "k", 1);

			k->start_ns = 7000;
			node_set_calls(p, k, 1);
			node_set_device_total(p, k, 500);
			node_set_device_self(p, k, 500);
		}
	}
	p->has_timeline = true;
	profile_finish(p);
}

static void test_pinned_and_hidden(void)
{
	struct profile p;
	struct timeline tl;
	struct tlview v = { 0 };
	struct tlview_style st = { 0 };
	struct canvas c = { 0 };
	uint8_t flags[7] = { 0 };
	char line[256];

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	CHECK_EQ(tl.nr_lanes, 7);
	tlview_reset(&v, &tl, tl.start_ns, tl.end_ns);
	canvas_reset(&c, 4, 60);	/* the ruler and 3 rows */
	c.ascii = true;
	tlview_paint(&v, &st, &c);
	canvas_line(&c, 1, line, sizeof(line));
	CHECK(!strncmp(line, "thread 1", 8));
	/* The stream pinned, thread 2 hidden. */
	flags[6] = TLV_PINNED;
	flags[1] = TLV_HIDDEN;
	tlview_set_lanes(&v, flags);
	CHECK_EQ(tlview_nr_rows(&v), 6);
	CHECK_EQ(tlview_row_at(&v, 0), 6);
	CHECK_EQ(tlview_place(&v, 1), SIZE_MAX);
	tlview_paint(&v, &st, &c);
	canvas_line(&c, 1, line, sizeof(line));
	CHECK(!strncmp(line, "=GPU", 4));
	canvas_line(&c, 2, line, sizeof(line));
	CHECK(!strncmp(line, "thread 1", 8));
	canvas_line(&c, 3, line, sizeof(line));
	CHECK(!strncmp(line, "thread 3", 8));
	/* Showing thread 6's op scrolls the rest; the pin stays. */
	tlview_show(&v, &tl.lanes[5].blocks[0]);
	tlview_paint(&v, &st, &c);
	canvas_line(&c, 1, line, sizeof(line));
	CHECK(!strncmp(line, "=GPU", 4));
	canvas_line(&c, 2, line, sizeof(line));
	CHECK(!strncmp(line, "thread 5", 8));
	canvas_line(&c, 3, line, sizeof(line));
	CHECK(!strncmp(line, "thread 6", 8));
	/* A click below the pin finds the scrolled row's block. */
	for (int x = 0; x < 60; x++)
		if (tlview_hit(&v, 3, x) == &tl.lanes[5].blocks[0])
			goto hit;
	CHECK(!"thread 6's op under a click on its row");
hit:
	for (int x = 0; x < 60; x++)
		CHECK(tlview_hit(&v, 1, x) == NULL || tlview_hit(&v, 1, x) == &tl.lanes[6].blocks[0]);
	/* No flags: every row again, in order. */
	tlview_set_lanes(&v, NULL);
	CHECK_EQ(tlview_nr_rows(&v), 7);
	CHECK_EQ(tlview_place(&v, 1), 1);
	tlview_release(&v);
	canvas_release(&c);
	timeline_release(&tl);
	profile_release(&p);
}

/* More pinned rows than the screen holds leave one row to the rest. */
static void test_pins_leave_a_row(void)
{
	struct profile p;
	struct timeline tl;
	struct tlview v = { 0 };
	struct tlview_style st = { 0 };
	struct canvas c = { 0 };
	uint8_t flags[7];
	char line[256];

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	tlview_reset(&v, &tl, tl.start_ns, tl.end_ns);
	memset(flags, TLV_PINNED, sizeof(flags));
	flags[3] = 0;
	tlview_set_lanes(&v, flags);
	canvas_reset(&c, 4, 60);
	c.ascii = true;
	tlview_paint(&v, &st, &c);
	CHECK_EQ(v.pinned_shown, 2);
	canvas_line(&c, 3, line, sizeof(line));
	CHECK(!strncmp(line, "thread 4", 8));
	tlview_release(&v);
	canvas_release(&c);
	timeline_release(&tl);
	profile_release(&p);
}

const struct test tests[] = {
	{ "pinned lanes first, hidden ones gone, the scroll below", test_pinned_and_hidden },
	{ "pins leave a row to the rest", test_pins_leave_a_row },
	{ 0 },
};
