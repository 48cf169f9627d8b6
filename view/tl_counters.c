// SPDX-License-Identifier: MIT
/*
 * The Timeline's counter lanes (tl_counters.h).  A lane is a series drawn
 * cell by cell: a cell is the greatest value the series held during its
 * slice of the window (the value in force at its start and every sample
 * in it), found in a segment tree of the series' samples, so a picture
 * costs O(cells log samples) whatever the zoom.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "format.h"
#include "tl_counters.h"

/* Levels 1..8 of a cell: the eighth blocks, or an ASCII ramp. */
static const char *const eighths[] = {
	" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
	"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88",
};
static const char ascii_ramp[] = " _.,-=+*#";

static void make(struct tl_counters *tc)
{
	size_t n;

	if (tc->is_made)
		return;
	tc->is_made = true;
	counters_compute(tc->prof, &tc->c);
	n = tc->c.nr ? tc->c.nr : 1;
	tc->flags = xcalloc(n, sizeof(*tc->flags));
	tc->off = xcalloc(n, sizeof(*tc->off));
	tc->tree = xcalloc(n, sizeof(*tc->tree));
	tc->order = xmalloc(n * sizeof(*tc->order));
	for (size_t i = 0; i < tc->c.nr; i++)
		tc->off[i] = tc->c.v[i].kind != COUNTER_RECORDED;
}

/* The lanes drawn, pinned first, each group in the series' order. */
static void make_order(struct tl_counters *tc)
{
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < tc->c.nr; i++) {
			if (tc->off[i] || (tc->flags[i] & TLV_HIDDEN) ||
			    ((tc->flags[i] & TLV_PINNED) != 0) != (pass == 0))
				continue;
			tc->order[n++] = i;
		}
		if (!pass)
			tc->nr_pinned = n;
	}
	tc->nr_order = n;
	if (tc->cur != SIZE_MAX && tc->cur >= n)
		tc->cur = n ? n - 1 : SIZE_MAX;
	if (tc->top + tc->nr_pinned >= n)
		tc->top = 0;
}

void tl_counters_init(struct tl_counters *tc, const struct profile *p)
{
	memset(tc, 0, sizeof(*tc));
	tc->prof = p;
	tc->cur = SIZE_MAX;
	/* Recorded counters show at once; nothing to make without them. */
	if (p->nr_counter_recs) {
		make(tc);
		make_order(tc);
	}
}

bool tl_counters_is_slow(const struct tl_counters *tc, enum action act)
{
	return act == ACT_COUNTER_LANES && !tc->is_made;
}

void tl_counters_release(struct tl_counters *tc)
{
	for (size_t i = 0; tc->tree && i < tc->c.nr; i++)
		free(tc->tree[i]);
	free(tc->tree);
	free(tc->flags);
	free(tc->off);
	free(tc->order);
	counters_release(&tc->c);
	memset(tc, 0, sizeof(*tc));
}

int tl_counters_rows(struct tl_counters *tc, int rows)
{
	int most = (rows - 1) / 3;

	if (!tc->nr_order || most < 1)
		return 0;
	return tc->nr_order < (size_t)most ? (int)tc->nr_order : most;
}

/* ---------------------------------------------------------------------
 * Drawing
 */

/* Series I's tree: leaf k is sample k's value; each node the greater of
 * its two. */
static const double *tree_of(struct tl_counters *tc, size_t i)
{
	const struct counter_series *s = &tc->c.v[i];

	if (!tc->tree[i] && s->nr) {
		double *t = xmalloc(2 * s->nr * sizeof(*t));

		for (size_t k = 0; k < s->nr; k++)
			t[s->nr + k] = s->points[k].value;
		for (size_t k = s->nr - 1; k >= 1; k--)
			t[k] = fmax(t[2 * k], t[2 * k + 1]);
		tc->tree[i] = t;
	}
	return tc->tree[i];
}

/* The greatest of samples LO..HI (inclusive) of a tree of N leaves. */
static double tree_max(const double *t, size_t n, size_t lo, size_t hi)
{
	double m = -INFINITY;

	for (lo += n, hi += n + 1; lo < hi; lo /= 2, hi /= 2) {
		if (lo & 1)
			m = fmax(m, t[lo++]);
		if (hi & 1)
			m = fmax(m, t[--hi]);
	}
	return m;
}

/* The scale's ends: from 0 (or the least, when below), to the greatest
 * (a fraction: to 1 at least, 100%). */
static void scale_of(const struct counter_series *s, double *lo, double *hi)
{
	*lo = s->min < 0 ? s->min : 0;
	*hi = s->max > 0 ? s->max : 0;
	if (s->unit == COUNTER_FRACTION && *hi < 1)
		*hi = 1;
}

/* V as the series' unit says, compactly. */
static void fmt_value(const struct counter_series *s, double v, char *buf, size_t size)
{
	switch ((enum counter_unit)s->unit) {
	case COUNTER_FRACTION:
		snprintf(buf, size, "%.4g%%", v * 100);
		return;
	case COUNTER_BYTES:
		fmt_cell(COL_BYTES, cell_int((int64_t)v), FMT_HUMAN, buf, size);
		return;
	case COUNTER_COUNT:
	case COUNTER_PLAIN:
		snprintf(buf, size, "%.6g", v);
		return;
	}
}

/* "0-100%", "0-2", "-3-250": the scale, for the label. */
static void fmt_scale(const struct counter_series *s, bool ascii, char *buf, size_t size)
{
	char a[32], b[32];
	double lo, hi;

	scale_of(s, &lo, &hi);
	fmt_value(s, lo, a, sizeof(a));
	fmt_value(s, hi, b, sizeof(b));
	/* 0% and 0 B read as 0 */
	if (lo == 0)
		snprintf(a, sizeof(a), "0");
	snprintf(buf, size, "%s%s%s", a, ascii ? "-" : "\xe2\x80\x93", b);
}

static void paint_label(const struct counter_series *s, struct canvas *c, int y, int lw,
			bool is_pinned, bool is_cur)
{
	char scale[80];
	int at = is_pinned ? 1 : 0, sw, nw;
	uint8_t attr = is_cur ? CA_SELECTED : CA_LABEL;

	fmt_scale(s, c->ascii, scale, sizeof(scale));
	sw = (int)strlen(scale) - (c->ascii ? 0 : 2);	/* the dash is one cell */
	if (is_pinned)
		canvas_fill(c, y, 0, 1, "=", CA_MARK);
	nw = lw - 1 - at - sw - 1;
	if (nw < 3) {
		canvas_text(c, y, at, s->name, lw - 1 - at, attr);
		return;
	}
	canvas_paint(c, y, at, lw - 1 - at, attr);
	canvas_text(c, y, at, s->name, nw, attr);
	canvas_text(c, y, at + nw + 1, scale, sw, attr);
}

static void paint_lane(struct tl_counters *tc, size_t i, const struct tlview *v,
		       struct canvas *c, int y, int lw, int w)
{
	const struct counter_series *s = &tc->c.v[i];
	const double *t = tree_of(tc, i);
	double lo, hi;

	if (!s->nr)
		return;
	scale_of(s, &lo, &hi);
	for (int x = 0; x < w; x++) {
		int64_t from = tlview_time_at(v, x, w), to = tlview_time_at(v, x + 1, w);
		size_t a = counter_at(s, from), b = counter_at(s, to > from ? to - 1 : from);
		double m;
		int level;

		if (b == SIZE_MAX)
			continue;	/* before the first sample */
		if (a == SIZE_MAX)
			a = 0;
		m = tree_max(t, s->nr, a, b);
		/* 1..8: the least value shows, as the lowest bar */
		level = hi > lo ? 1 + (int)lround((m - lo) / (hi - lo) * 7) : 1;
		level = level < 1 ? 1 : level > 8 ? 8 : level;
		if (c->ascii) {
			char ch[2] = { ascii_ramp[level], 0 };

			canvas_fill(c, y, lw + x, 1, ch, CA_SERIES1);
		} else {
			canvas_fill(c, y, lw + x, 1, eighths[level], CA_SERIES1);
		}
	}
}

void tl_counters_paint(struct tl_counters *tc, const struct tlview *v, struct canvas *c, int rows)
{
	int lw = tlview_label_width(c->cols), w = c->cols - lw;
	int pinned = tc->nr_pinned < (size_t)rows ? (int)tc->nr_pinned : rows;
	size_t scroll = rows - pinned;

	tc->rows = rows;
	if (rows <= 0 || w < 4)
		return;
	/* The cursor's lane on screen. */
	if (tc->cur != SIZE_MAX && tc->cur >= tc->nr_pinned && scroll) {
		size_t k = tc->cur - tc->nr_pinned;

		if (k < tc->top)
			tc->top = k;
		else if (k >= tc->top + scroll)
			tc->top = k - scroll + 1;
	}
	for (int y = 0; y < rows; y++) {
		size_t k = y < pinned ? (size_t)y : tc->nr_pinned + tc->top + (size_t)(y - pinned);

		if (k >= tc->nr_order)
			break;
		paint_label(&tc->c.v[tc->order[k]], c, 1 + y, lw, k < tc->nr_pinned, k == tc->cur);
		paint_lane(tc, tc->order[k], v, c, 1 + y, lw, w);
	}
}

/* ---------------------------------------------------------------------
 * Keys and the status line
 */

static const char *toggle_all(struct tl_counters *tc)
{
	bool any_off = false;

	make(tc);
	if (!tc->c.nr)
		return "no counters in this profile: no counter events, kernels, launches or "
		       "memory events";
	for (size_t i = 0; i < tc->c.nr; i++)
		any_off |= tc->off[i] || (tc->flags[i] & TLV_HIDDEN);
	for (size_t i = 0; i < tc->c.nr; i++) {
		tc->off[i] = !any_off;
		tc->flags[i] &= (uint8_t)~TLV_HIDDEN;
	}
	tc->cur = SIZE_MAX;
	make_order(tc);
	return any_off ? "every counter lane shown (u again hides them)" : "counter lanes hidden";
}

static const char *pin(struct tl_counters *tc)
{
	size_t i = tc->order[tc->cur];
	bool pinned = tc->flags[i] & TLV_PINNED;

	tc->flags[i] ^= TLV_PINNED;
	make_order(tc);
	for (size_t k = 0; k < tc->nr_order; k++)
		if (tc->order[k] == i)
			tc->cur = k;
	return pinned ? "counter lane unpinned" : "counter lane pinned at the top (p again unpins)";
}

static const char *hide(struct tl_counters *tc)
{
	tc->flags[tc->order[tc->cur]] |= TLV_HIDDEN;
	make_order(tc);
	return "counter lane hidden (D shows every lane)";
}

bool tl_counters_handle(struct tl_counters *tc, enum action act, bool at_top, bool blocks_hidden,
			const char **msg)
{
	bool on = tc->cur != SIZE_MAX && tc->cur < tc->nr_order;

	switch (act) {
	case ACT_COUNTER_LANES:
		*msg = toggle_all(tc);
		return true;
	case ACT_SHOW_LANES: {
		bool any = false;

		for (size_t i = 0; tc->is_made && i < tc->c.nr; i++) {
			any |= (tc->flags[i] & TLV_HIDDEN) != 0;
			tc->flags[i] &= (uint8_t)~TLV_HIDDEN;
		}
		if (any)
			make_order(tc);
		if (any && !blocks_hidden)
			*msg = "every lane shown";
		return any && !blocks_hidden;	/* else the blocks' lanes too */
	}
	case ACT_MOVE_UP:
		if (on) {
			if (tc->cur > 0)
				tc->cur--;
			return true;
		}
		if (at_top && tc->nr_order) {
			tc->cur = tc->nr_order - 1;
			return true;
		}
		return false;
	case ACT_MOVE_DOWN:
		if (!on)
			return false;
		tc->cur = tc->cur + 1 < tc->nr_order ? tc->cur + 1 : SIZE_MAX;
		return true;
	case ACT_PIN_LANE:
		if (!on)
			return false;
		*msg = pin(tc);
		return true;
	case ACT_HIDE_LANE:
		if (!on)
			return false;
		*msg = hide(tc);
		return true;
	default:
		return false;
	}
}

const char *tl_counters_cursor_name(const struct tl_counters *tc)
{
	return tl_counters_has_cursor(tc) ? tc->c.v[tc->order[tc->cur]].name : NULL;
}

bool tl_counters_seek(struct tl_counters *tc, const char *name)
{
	make(tc);
	for (size_t i = 0; i < tc->c.nr; i++) {
		if (strcmp(tc->c.v[i].name, name))
			continue;
		tc->off[i] = false;
		tc->flags[i] &= (uint8_t)~TLV_HIDDEN;
		make_order(tc);
		for (size_t k = 0; k < tc->nr_order; k++)
			if (tc->order[k] == i)
				tc->cur = k;	/* the next paint scrolls to it */
		return true;
	}
	return false;
}

bool tl_counters_has_cursor(const struct tl_counters *tc)
{
	return tc->cur != SIZE_MAX && tc->cur < tc->nr_order;
}

void tl_counters_status(struct tl_counters *tc, int64_t t, int64_t origin, char *buf, size_t size)
{
	const struct counter_series *s;
	char when[32], value[48];
	size_t k;

	buf[0] = '\0';
	if (!tl_counters_has_cursor(tc))
		return;
	s = &tc->c.v[tc->order[tc->cur]];
	k = counter_at(s, t);
	tlview_fmt_time(t - origin, when, sizeof(when));
	if (k == SIZE_MAX)
		snprintf(value, sizeof(value), "no sample yet");
	else
		fmt_value(s, s->points[k].value, value, sizeof(value));
	snprintf(buf, size, "%s = %s at %s", s->name, value, when);
}
