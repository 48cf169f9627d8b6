// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "tl_range.h"

/* The range from the anchor to block B: from the earlier start to the
 * later end, whichever side of the anchor B lies. */
static void span_to(const struct tl_range *r, const struct timeline *tl, const struct tl_block *b,
		    int64_t *a, int64_t *e)
{
	int64_t bs = b->start_ns, be = tl_block_end(tl->prof, b);

	*a = r->anchor_start_ns < bs ? r->anchor_start_ns : bs;
	*e = r->anchor_end_ns > be ? r->anchor_end_ns : be;
}

static void pick(struct pane_request *req, const struct timeline *tl, int64_t a, int64_t e)
{
	req->pick_range = true;
	req->has_range = true;
	req->range_start_ns = a;
	req->range_end_ns = e;
	req->range_origin_ns = tl->start_ns;
}

bool tl_range_act(struct tl_range *r, const struct timeline *tl, const struct pane_scope *scope,
		  const struct tl_block *sel, enum action act, struct pane_request *req)
{
	int64_t a, e;

	switch (act) {
	case ACT_RANGE_MARK:
		r->anchored = false;
		if (!sel) {
			req->message = "no block selected: nothing to mark";
			return true;
		}
		a = sel->start_ns;
		e = tl_block_end(tl->prof, sel);
		if (e <= a) {
			req->message = "the block lasts nothing: no range to mark";
			req->is_error = true;
			return true;
		}
		pick(req, tl, a, e);
		req->message = "range set to the block (s: its summary, Esc: clear)";
		return true;
	case ACT_RANGE_VISUAL:
		if (!sel) {
			req->message = "no block selected: no place to start a range";
			return true;
		}
		if (!r->anchored) {
			r->anchored = true;
			r->anchor_start_ns = sel->start_ns;
			r->anchor_end_ns = tl_block_end(tl->prof, sel);
			req->message = "range started: move to extend it, v sets it, Esc cancels";
			return true;
		}
		r->anchored = false;
		span_to(r, tl, sel, &a, &e);
		if (e <= a) {
			req->message = "the range lasts nothing: not set";
			req->is_error = true;
			return true;
		}
		pick(req, tl, a, e);
		req->message = "range set (s: its summary, Esc: clear)";
		return true;
	case ACT_RANGE_SUMMARY:
		if (r->anchored && sel) {
			r->anchored = false;
			span_to(r, tl, sel, &a, &e);
			if (e > a)
				pick(req, tl, a, e);
		} else if (scope->has_range) {
			a = scope->range_start_ns;
			e = scope->range_end_ns;
		} else {
			req->message = "no range: m marks the block's, v starts one, or drag over "
				       "the time";
			req->is_error = true;
			return true;
		}
		if (e <= a)
			return true;
		req->open = true;
		req->open_pane = PANE_RANGE;
		req->open_scope.has_range = true;
		req->open_scope.range_start_ns = a;
		req->open_scope.range_end_ns = e;
		req->open_scope.range_origin_ns = tl->start_ns;
		req->open_scope.range_lane = sel ? tl->rows[sel->row].lane + 1 : 0;
		return true;
	case ACT_RANGE_CLEAR:
		if (r->anchored) {
			r->anchored = false;
			req->message = "range cancelled";
			return true;
		}
		if (!scope->has_range)
			return false;
		req->pick_range = true;
		req->has_range = false;
		req->message = "range cleared";
		return true;
	default:
		return false;
	}
}

bool tl_range_drag(const struct tlview *v, int cols, int x0, int x1, struct pane_request *req)
{
	int lw = tlview_label_width(cols), w = cols - lw;
	int64_t a, e;

	if (w < 4 || v->t1 <= v->t0)
		return false;
	if (x0 > x1) {
		int t = x0;

		x0 = x1;
		x1 = t;
	}
	if (x1 < lw)
		return false;
	x0 = x0 < lw ? 0 : x0 - lw;
	x1 = (x1 - lw >= w ? w - 1 : x1 - lw) + 1;	/* the last cell, whole */
	a = tlview_time_at(v, x0, w);
	e = tlview_time_at(v, x1, w);
	a = a < v->lo ? v->lo : a;
	e = e > v->hi ? v->hi : e;
	if (e <= a)
		return false;
	pick(req, v->tl, a, e);
	req->message = "range set (s: its summary, Esc: clear)";
	return true;
}

/* The range to draw or say: the one being made, else the scope's. */
static bool shown(const struct tl_range *r, const struct pane_scope *scope,
		  const struct tl_block *sel, const struct tlview *v, int64_t *a, int64_t *e)
{
	if (r->anchored && sel) {
		span_to(r, v->tl, sel, a, e);
		return true;
	}
	*a = scope->range_start_ns;
	*e = scope->range_end_ns;
	return scope->has_range;
}

void tl_range_paint(const struct tl_range *r, const struct pane_scope *scope,
		    const struct tl_block *sel, const struct tlview *v, struct canvas *c)
{
	int lw = tlview_label_width(c->cols), w = c->cols - lw;
	int64_t a, e, xa, xe;

	if (c->rows < 1 || w < 4 || v->t1 <= v->t0 || !shown(r, scope, sel, v, &a, &e))
		return;
	if (e <= v->t0 || a >= v->t1)
		return;	/* out of the window */
	xa = tlview_cell_at(v, a, w);
	xe = e > a ? tlview_cell_at(v, e - 1, w) : xa;
	if (xa < 0)
		xa = -1;	/* starts before the window: no [ */
	if (xe >= w)
		xe = w;		/* ends after it: no ] */
	for (int64_t x = xa < 0 ? 0 : xa; x <= xe && x < w; x++)
		canvas_paint(c, 0, lw + (int)x, 1, CA_CURSOR);
	if (xa >= 0)
		canvas_fill(c, 0, lw + (int)xa, 1, "[", CA_CURSOR);
	if (xe < w)
		canvas_fill(c, 0, lw + (int)xe, 1, "]", CA_CURSOR);
}

void tl_range_status(const struct tl_range *r, const struct pane_scope *scope,
		     const struct tl_block *sel, const struct tlview *v, char *buf, size_t size)
{
	char a[32], e[32], len[32];
	int64_t ta, te;

	buf[0] = '\0';
	if (!shown(r, scope, sel, v, &ta, &te))
		return;
	tlview_fmt_time(ta - v->tl->start_ns, a, sizeof(a));
	tlview_fmt_time(te - v->tl->start_ns, e, sizeof(e));
	tlview_fmt_time(te - ta, len, sizeof(len));
	snprintf(buf, size, "%s %s - %s (%s)", r->anchored ? "range from" : "range", a, e, len);
}
