// SPDX-License-Identifier: MIT
/*
 * The memory chart (view/chart.c) without a terminal: which values each
 * column shows, the area and the reserved line, the peak mark, the cursor
 * column, the axes and the readout; ASCII when the locale cannot do
 * better.
 */
#include "view/chart.h"
#include "test.h"

/* 0..1 ms: 100 B from 0, a 400 B spike at 500 us for 10 us, 200 B from
 * 600 us; reserved 512 B throughout. */
static const int64_t t[] = { 0, 500000, 510000, 600000 };
static const int64_t y1[] = { 100, 400, 100, 200 };
static const int64_t y2[] = { 512, 512, 512, 512 };

static struct chart_input input(void)
{
	struct chart_input in = {
		.title = "GPU0", .t = t, .y1 = y1, .y2 = y2, .n = 4, .t0 = 0, .t1 = 1000000,
		.origin = 0, .cursor = 505000, .y1_name = "allocated", .y2_name = "reserved",
	};

	return in;
}

static bool has_attr(struct canvas *c, int y, enum canvas_attr a)
{
	for (int x = 0; x < c->cols; x++)
		if (canvas_at(c, y, x)->attr == a)
			return true;
	return false;
}

/* Line Y of C as text. */
static const char *line(const struct canvas *c, int y)
{
	static char buf[1024];

	canvas_line(c, y, buf, sizeof(buf));
	return buf;
}

static void test_columns(void)
{
	struct chart_input in = input();
	struct chart_column c;
	int w = 20;

	/* The spike lasts 10 us but its column shows it. */
	chart_column_values(&in, w, chart_column_of(505000, 0, 1000000, w), &c);
	CHECK_EQ(c.y1, 400);
	CHECK_EQ(c.y2, 512);
	/* A column before the spike holds the value before it. */
	chart_column_values(&in, w, 2, &c);
	CHECK_EQ(c.y1, 100);
	chart_column_values(&in, w, w - 1, &c);
	CHECK_EQ(c.y1, 200);
	CHECK_EQ(chart_column_of(-5, 0, 1000000, w), 0);
	CHECK_EQ(chart_column_of(5000000, 0, 1000000, w), w - 1);
}

static void test_render(void)
{
	struct chart_input in = input();
	struct canvas cv = { 0 };
	bool area = false, reserved = false, peak = false, cursor = false;

	CHECK_EQ(chart_render(&in, 60, 8, true, &cv), 8);
	/* The readout: the cursor's values and the peak. */
	CHECK(strstr(line(&cv, 0), "GPU0 0.505 ms") != NULL);
	CHECK(strstr(line(&cv, 0), "allocated 400 B") != NULL);
	CHECK(strstr(line(&cv, 0), "reserved 512 B") != NULL);
	CHECK(strstr(line(&cv, 0), "peak 400 B") != NULL);
	CHECK(strstr(line(&cv, 1), "512 B") != NULL);
	CHECK(strstr(line(&cv, 7), "0.000 ms") && strstr(line(&cv, 7), "1.000 ms"));
	for (int l = 1; l < 7; l++) {
		area |= has_attr(&cv, l, CA_SERIES1);
		reserved |= has_attr(&cv, l, CA_SERIES2);
		peak |= has_attr(&cv, l, CA_MARK);
		cursor |= has_attr(&cv, l, CA_CURSOR);
	}
	CHECK(area && reserved && peak && cursor);
	CHECK(strstr(line(&cv, 1), "\xe2\x94\x80") != NULL);	/* the reserved line */
	canvas_release(&cv);

	/* ASCII: '#' area, '-' reserved, '^' peak, '|' axis. */
	CHECK_EQ(chart_render(&in, 60, 8, false, &cv), 8);
	for (int l = 0; l < cv.rows; l++)
		for (const char *s = line(&cv, l); *s; s++)
			CHECK((unsigned char)*s < 0x80);
	CHECK(strchr(line(&cv, 1), '-') && strchr(line(&cv, 6), '#'));
	canvas_release(&cv);

	/* Too small, or no time: nothing. */
	CHECK_EQ(chart_render(&in, 60, 3, true, &cv), 0);
	in.t1 = in.t0;
	CHECK_EQ(chart_render(&in, 60, 8, true, &cv), 0);
	canvas_release(&cv);
}

/* One series of counts (the queue-length chart): no second series in the
 * readout, and numbers without a unit. */
static void test_counts(void)
{
	struct chart_input in = input();
	struct canvas cv = { 0 };

	in.y2 = NULL;
	in.y1_name = "queued";
	in.counts = true;
	CHECK_EQ(chart_render(&in, 60, 8, true, &cv), 8);
	CHECK(strstr(line(&cv, 0), "GPU0 0.505 ms: queued 400; peak 400") != NULL);
	CHECK(strstr(line(&cv, 0), "reserved") == NULL);
	CHECK(strstr(line(&cv, 1), "400") != NULL);
	CHECK(strstr(line(&cv, 1), " B") == NULL);
	canvas_release(&cv);
}

const struct test tests[] = {
	{ "each column shows the largest value in its time", test_columns },
	{ "the area, the reserved line, the peak, the cursor, the axes", test_render },
	{ "one series of counts", test_counts },
	{ 0 },
};
