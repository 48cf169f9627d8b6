// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "format.h"
#include "tlview.h"

#define MIN_SPAN_NS 1000	/* zooming in stops at a microsecond */

void tlview_reset(struct tlview *v, const struct timeline *tl, int64_t lo, int64_t hi)
{
	v->tl = tl;
	if (hi <= lo)
		hi = lo + MIN_SPAN_NS;
	v->lo = v->t0 = lo;
	v->hi = v->t1 = hi;
	v->top = 0;
	v->order = v->place = NULL;
	v->nr_order = v->nr_pinned = 0;
	v->pinned_shown = 0;
}

void tlview_release(struct tlview *v)
{
	free(v->order);
	free(v->place);
	v->order = v->place = NULL;
	v->nr_order = v->nr_pinned = 0;
}

void tlview_set_lanes(struct tlview *v, const uint8_t *flags)
{
	const struct timeline *tl = v->tl;
	size_t n = 0;

	tlview_release(v);
	if (!flags || !tl->nr_rows)
		return;
	v->order = xmalloc(tl->nr_rows * sizeof(*v->order));
	v->place = xmalloc(tl->nr_rows * sizeof(*v->place));
	for (size_t r = 0; r < tl->nr_rows; r++)
		v->place[r] = SIZE_MAX;
	/* The pinned lanes' rows, then the others'; each lane's in order. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t r = 0; r < tl->nr_rows; r++) {
			uint8_t f = flags[tl->rows[r].lane];

			if ((f & TLV_HIDDEN) || ((f & TLV_PINNED) != 0) != (pass == 0))
				continue;
			v->place[r] = n;
			v->order[n++] = r;
		}
		if (!pass)
			v->nr_pinned = n;
	}
	v->nr_order = n;
	v->top = 0;
}

int tlview_label_width(int cols)
{
	int w = cols / 5;

	return w < 8 ? 8 : w > 18 ? 18 : w;
}

size_t tlview_fmt_time(int64_t ns, char *buf, size_t size)
{
	static const struct {
		int64_t div;
		const char *unit;
	} units[] = { { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" } };
	uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	size_t u = 0;
	int n;

	if (!m)
		return (size_t)snprintf(buf, size, "0");
	while (u + 1 < ARRAY_SIZE(units) && m < (uint64_t)units[u].div)
		u++;
	if (m % (uint64_t)units[u].div == 0)
		n = snprintf(buf, size, "%s%llu %s", ns < 0 ? "-" : "",
			     (unsigned long long)(m / (uint64_t)units[u].div), units[u].unit);
	else
		n = snprintf(buf, size, "%s%.4g %s", ns < 0 ? "-" : "",
			     (double)m / (double)units[u].div, units[u].unit);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* A ruler step: 1, 2 or 5 times a power of ten, at least MIN. */
static int64_t nice_step(int64_t min)
{
	int64_t p = 1;

	for (;;) {
		if (p >= min)
			return p;
		if (2 * p >= min)
			return 2 * p;
		if (5 * p >= min)
			return 5 * p;
		if (p > INT64_MAX / 20)
			return p;
		p *= 10;
	}
}

/* The cell of time T in a time area of W cells (may be out of it). */
static int64_t cell_of(const struct tlview *v, int64_t t, int w)
{
	__int128 d = (__int128)(t - v->t0) * w;

	return (int64_t)(d / (v->t1 - v->t0) - (d < 0 && d % (v->t1 - v->t0) ? 1 : 0));
}

/* The first time of cell X: the least time whose cell is X, the
 * quotient rounded up (C's division rounds a negative one up already). */
static int64_t time_of(const struct tlview *v, int64_t x, int w)
{
	__int128 d = (__int128)x * (v->t1 - v->t0);

	return v->t0 + (int64_t)(d / w + (d % w > 0 ? 1 : 0));
}

static void paint_ruler(const struct tlview *v, struct canvas *c, int lw, int w)
{
	int64_t span = v->t1 - v->t0, step = nice_step(span * 12 / (w > 0 ? w : 1) + 1);
	int64_t first = v->t0 - v->lo, k = first / step;
	int next_free = 0;

	canvas_paint(c, 0, 0, c->cols, CA_HEADER);
	for (int64_t t = k * step; v->lo + t < v->t1; t += step) {
		char label[48];
		int64_t x = cell_of(v, v->lo + t, w);
		int n;

		if (x < 0)
			continue;
		label[0] = '|';
		n = (int)tlview_fmt_time(t, label + 1, sizeof(label) - 1) + 1;
		if (x < next_free || x + n > w)
			continue;
		canvas_text(c, 0, lw + (int)x, label, n, CA_HEADER);
		next_free = (int)x + n + 1;
	}
}

static uint8_t colour_of(const char *name)
{
	/* The same name, the same colour, in every lane. */
	return (uint8_t)(CA_BLOCK + hash_ptr(name) % CA_NR_BLOCKS);
}

static void paint_block(struct canvas *c, int y, int x, int width, const struct tl_block *b,
			const struct tlview_style *st)
{
	uint8_t attr = colour_of(node_name(b->node));
	const char *name = st->name_of ? st->name_of(node_name(b->node), st->name_ctx) : node_name(b->node);

	bool flow = b != st->sel && st->is_flow && st->is_flow(b, st->ctx);
	bool path = !flow && st->is_on_path && st->is_on_path(b, st->ctx);
	const char *open = flow ? "{" : path ? "<" : "[", *close = flow ? "}" : path ? ">" : "]";

	if (st->has_filter)
		attr = st->is_kept && st->is_kept(b, st->ctx) ? CA_MATCH : CA_DIM;
	if (flow)
		attr = CA_MARK;
	if (b == st->sel)
		attr = CA_SELECTED;
	if (width == 1) {
		canvas_fill(c, y, x, 1, flow ? "*" : path ? "!" : "|", attr);
		return;
	}
	canvas_fill(c, y, x, width, " ", attr);
	canvas_fill(c, y, x, 1, open, attr);
	canvas_fill(c, y, x + width - 1, 1, close, attr);
	if (width > 2)
		canvas_text(c, y, x + 1, name, width - 2, attr);
}

static void paint_row(const struct tlview *v, const struct tlview_style *st, struct canvas *c,
		      int y, const struct tl_row *row, int lw, int w)
{
	size_t i = timeline_first_after(row, v->t0);
	int64_t next_free = 0;

	while (i < row->nr && tl_row_block(row, i)->start_ns < v->t1) {
		const struct tl_block *b = tl_row_block(row, i);
		int64_t end = tl_block_end(row->prof, b);
		int64_t cs = cell_of(v, b->start_ns, w);
		/* A block ends with the cell that holds its last instant. */
		int64_t ce = end > b->start_ns ? cell_of(v, end - 1, w) + 1 : cs + 1;
		size_t j;

		if (cs < next_free)
			cs = next_free;
		if (ce <= cs)
			ce = cs + 1;
		if (cs >= w)
			break;
		if (ce > w)
			ce = w;
		paint_block(c, y, lw + (int)cs, (int)(ce - cs), b, st);
		next_free = ce;
		if (ce >= w)
			break;
		/* Blocks that start before the next free cell have no room
		 * of their own: the last cell says there are more, and the
		 * search goes on from the next cell's time. */
		j = timeline_first_from(row, time_of(v, ce, w));
		if (j > i + 1) {
			/* The last of them may reach past that cell: it is
			 * drawn next, from the next cell. */
			bool reaches = tl_block_end(row->prof, tl_row_block(row, j - 1)) >
				       time_of(v, ce, w);
			bool sel_inside = false;

			for (size_t k = i + 1; k < j && k < i + 64 && st->sel; k++)
				sel_inside |= tl_row_block(row, k) == st->sel && !(reaches && k == j - 1);
			if (reaches)
				j--;
			if (j > i + 1)
				canvas_fill(c, y, lw + (int)ce - 1, 1, "#",
					    sel_inside ? CA_SELECTED
						       : canvas_at(c, y, lw + (int)ce - 1)->attr);
		}
		i = j > i + 1 ? j : i + 1;
	}
}

void tlview_paint(struct tlview *v, const struct tlview_style *st, struct canvas *c)
{
	const struct timeline *tl = v->tl;
	int lw = tlview_label_width(c->cols), w = c->cols - lw;

	size_t nr_scroll;
	int pinned;
	/* The counter lanes' rows under the ruler (tl_counters.c) are the
	 * caller's: the lanes of blocks are drawn below them. */
	int band = v->band > 0 && v->band < c->rows - 1 ? v->band : 0;
	int rows = c->rows - band;

	v->band_shown = band;
	v->rows_shown = rows - 1;
	v->cols_shown = c->cols;
	if (c->rows < 1 || w < 4)
		return;
	/* Pinned rows leave one row at least to the rest. */
	pinned = v->nr_pinned < (size_t)(rows > 2 ? rows - 2 : 0) ? (int)v->nr_pinned
								 : (rows > 2 ? rows - 2 : 0);
	v->pinned_shown = pinned;
	nr_scroll = tlview_nr_rows(v) - v->nr_pinned;
	if (v->top >= nr_scroll)
		v->top = nr_scroll ? nr_scroll - 1 : 0;
	paint_ruler(v, c, lw, w);
	for (int y = 1; y < rows; y++) {
		size_t k = y - 1 < pinned ? (size_t)(y - 1)
					  : v->nr_pinned + v->top + (size_t)(y - 1 - pinned);
		size_t r;
		const struct tl_row *row;
		const struct tl_lane *lane;

		if (y - 1 >= pinned && k >= tlview_nr_rows(v))
			break;
		r = tlview_row_at(v, k);
		row = &tl->rows[r];
		lane = &tl->lanes[row->lane];
		if (y - 1 < pinned && row->depth == 0) {
			/* A pinned lane: its name after a '=' */
			canvas_fill(c, y + band, 0, 1, "=", CA_MARK);
			canvas_text(c, y + band, 1, lane->name, lw - 2, CA_LABEL);
		} else if (row->depth == 0 || y == 1 || y == pinned + 1) {
			canvas_text(c, y + band, 0, lane->name, lw - 1, CA_LABEL);
		}
		paint_row(v, st, c, y + band, row, lw, w);
		if (st->flow_mark && st->sel && st->sel->row == r)
			canvas_fill(c, y + band, lw - 1, 1, st->flow_mark == '^' ? "^" : "v", CA_MARK);
	}
}

void tlview_show(struct tlview *v, const struct tl_block *b)
{
	int64_t span = v->t1 - v->t0, end;
	int rows = v->rows_shown > 0 ? v->rows_shown : 1;

	if (!b)
		return;
	end = tl_block_end(v->tl->prof, b);
	if (tlview_place(v, b->row) != SIZE_MAX && tlview_place(v, b->row) >= v->nr_pinned) {
		size_t k = tlview_place(v, b->row) - v->nr_pinned;

		rows -= v->pinned_shown;
		if (rows < 1)
			rows = 1;
		if (k < v->top)
			v->top = k;
		else if (k >= v->top + (size_t)rows)
			v->top = k - (size_t)rows + 1;
	}
	if (b->start_ns >= v->t0 && b->start_ns < v->t1)
		return;
	if (end > v->t0 && b->start_ns < v->t0)
		return;		/* it reaches into the window */
	if (end - b->start_ns >= span)
		v->t0 = b->start_ns;
	else
		v->t0 = b->start_ns + (end - b->start_ns) / 2 - span / 2;
	v->t1 = v->t0 + span;
	tlview_pan(v, 0);
}

void tlview_focus(struct tlview *v, const struct tl_block *b)
{
	int64_t span = v->t1 - v->t0, full = v->hi - v->lo, len, want, mid;

	if (!b)
		return;
	len = tl_block_end(v->tl->prof, b) - b->start_ns;
	if (len < 1)
		len = 1;
	if (b->start_ns >= v->t0 && b->start_ns + len <= v->t1 && len * 10 >= span) {
		tlview_show(v, b);	/* already in view and readable */
		return;
	}
	/* 4 x LEN, saturating: a block near INT64_MAX long is the whole. */
	want = len > full / 4 ? full : len * 4;
	if (want < MIN_SPAN_NS)
		want = MIN_SPAN_NS;
	if (want > full)
		want = full;
	mid = b->start_ns + len / 2;
	v->t0 = mid - want / 2;
	v->t1 = v->t0 + want;
	tlview_pan(v, 0);	/* back within lo..hi */
	tlview_show(v, b);	/* its row on screen */
}

void tlview_zoom(struct tlview *v, int64_t at, double factor)
{
	int64_t span = v->t1 - v->t0, full = v->hi - v->lo;
	double s = (double)span * factor;
	int64_t ns = s < MIN_SPAN_NS ? MIN_SPAN_NS : s > (double)full ? full : (int64_t)s;

	if (at < v->t0 || at > v->t1)
		at = v->t0 + span / 2;
	/* AT stays where it was on the screen. */
	v->t0 = at - (int64_t)((double)(at - v->t0) * ((double)ns / (double)span));
	v->t1 = v->t0 + ns;
	tlview_pan(v, 0);
}

void tlview_pan(struct tlview *v, double fraction)
{
	int64_t span = v->t1 - v->t0;

	if (span > v->hi - v->lo)
		span = v->hi - v->lo;
	v->t0 += (int64_t)((double)span * fraction);
	if (v->t0 < v->lo)
		v->t0 = v->lo;
	if (v->t0 + span > v->hi)
		v->t0 = v->hi - span;
	v->t1 = v->t0 + span;
}

const struct tl_block *tlview_hit(const struct tlview *v, int y, int x)
{
	int lw = tlview_label_width(v->cols_shown), w = v->cols_shown - lw;
	size_t k;
	const struct tl_row *row;
	int64_t from, to;
	size_t i;

	y -= v->band_shown;	/* the counter lanes' rows are above */
	k = y - 1 < v->pinned_shown ? (size_t)(y - 1)
				    : v->nr_pinned + v->top + (size_t)(y - 1 - v->pinned_shown);
	if (y < 1 || x < lw || w < 4 || k >= tlview_nr_rows(v))
		return NULL;
	row = &v->tl->rows[tlview_row_at(v, k)];
	from = time_of(v, x - lw, w);
	to = time_of(v, x - lw + 1, w);
	i = timeline_first_after(row, from);
	if (i < row->nr && tl_row_block(row, i)->start_ns < (to > from ? to : from + 1))
		return tl_row_block(row, i);
	return NULL;
}

int64_t tlview_time_at(const struct tlview *v, int64_t x, int w)
{
	return time_of(v, x, w);
}

int64_t tlview_cell_at(const struct tlview *v, int64_t t, int w)
{
	return cell_of(v, t, w);
}
