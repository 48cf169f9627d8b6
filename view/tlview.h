/* SPDX-License-Identifier: MIT */
/*
 * tlview: a window onto a timeline (model/timeline.h) and its picture on
 * a canvas -- a ruler, then one line per row of each lane (a CPU
 * thread's ops nested by depth, a GPU stream's kernels), each block drawn
 * as [name] where it has room, as '|' where it has one cell, and '#'
 * where several blocks share one.  Painting asks the index for what lies
 * in the window, row by row and cell by cell, so it costs the size of
 * the screen, not of the trace.  No curses here: pane_timeline.c keeps a
 * tlview, draw.c shows the canvas.
 */
#ifndef TUI_TLVIEW_H
#define TUI_TLVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/timeline.h"
#include "canvas.h"

struct tlview {
	const struct timeline *tl;
	int64_t lo, hi;			/* what may be shown: a step, or all */
	int64_t t0, t1;			/* the window, lo <= t0 < t1 <= hi */
	size_t top;			/* the first row on screen below the
					   pinned ones: an index into order
					   past them */
	int rows_shown;			/* rows the last picture had room for */
	int cols_shown;			/* its width */
	/* The rows as drawn (tlview_set_lanes()): the pinned lanes' first,
	 * then the rest, hidden lanes' left out; ORDER NULL: every row in
	 * its order, none pinned.  PLACE: each row's index in ORDER,
	 * SIZE_MAX when hidden. */
	size_t *order, *place;
	size_t nr_order, nr_pinned;	/* rows in order; pinned ones first */
	int pinned_shown;		/* pinned rows the last picture drew */
	int band;			/* rows under the ruler the caller draws
					   in (counter lanes); 0: none */
	int band_shown;			/* ...as the last picture had them */
};

/* A lane's state in the flags tlview_set_lanes() reads. */
enum {
	TLV_PINNED = 1 << 0,		/* drawn first, under the ruler */
	TLV_HIDDEN = 1 << 1,		/* not drawn */
};

/* How blocks look: which is selected, which the view keeps (a filter, a
 * step), and the name to write (short names). */
struct tlview_style {
	const struct tl_block *sel;
	bool has_filter;		/* blocks not kept are dimmed */
	bool (*is_kept)(const struct tl_block *b, void *ctx);
	void *ctx;
	const char *(*name_of)(const char *name, const void *ctx);
	const void *name_ctx;
	/* Flows: whether B is a partner of the selected block (drawn as
	 * {name}); NULL: none.  FLOW_MARK: the selected block has partners,
	 * below it ('v', an op's kernels) or above ('^', a kernel's call
	 * and op), marked before its row. */
	bool (*is_flow)(const struct tl_block *b, void *ctx);
	char flow_mark;
	/* Whether B is on the critical path shown (drawn as <name>); NULL:
	 * none.  A flow partner's braces win. */
	bool (*is_on_path)(const struct tl_block *b, void *ctx);
};

/* Draw the lanes as FLAGS (by lane, TLV_*; NULL: all plain) say: the
 * pinned ones first, whatever the scroll, the hidden ones not at all. */
void tlview_set_lanes(struct tlview *v, const uint8_t *flags);
/* Free what tlview_set_lanes() made. */
void tlview_release(struct tlview *v);
/* The rows as drawn: how many, the row at index I, and the index of row
 * R (SIZE_MAX: hidden). */
static inline size_t tlview_nr_rows(const struct tlview *v)
{
	return v->order ? v->nr_order : v->tl->nr_rows;
}
static inline size_t tlview_row_at(const struct tlview *v, size_t i)
{
	return v->order ? v->order[i] : i;
}
static inline size_t tlview_place(const struct tlview *v, size_t r)
{
	return v->place ? v->place[r] : r;
}
/* Show LO..HI of TL, all of it, every lane plain (tlview_release() first
 * a view that has lanes set). */
void tlview_reset(struct tlview *v, const struct timeline *tl, int64_t lo, int64_t hi);
/* The picture of the window on C (sized by the caller). */
void tlview_paint(struct tlview *v, const struct tlview_style *st, struct canvas *c);
/* Move the window so that B is on screen (the same span, centred on B
 * when it was off it). */
void tlview_show(struct tlview *v, const struct tl_block *b);
/* Move and zoom the window so that B is on screen and readable: when it
 * is out of the window, or narrower than a tenth of it, or wider than
 * the window, the window becomes four times B's length (within lo..hi,
 * a microsecond at least), centred on it. */
void tlview_focus(struct tlview *v, const struct tl_block *b);
/* Zoom by FACTOR (< 1: in) around time AT; the window stays in lo..hi
 * and at least a microsecond wide. */
void tlview_zoom(struct tlview *v, int64_t at, double factor);
/* Move the window by FRACTION of its span (negative: earlier). */
void tlview_pan(struct tlview *v, double fraction);
/* The block drawn at cell (Y, X) of the last picture, or NULL. */
const struct tl_block *tlview_hit(const struct tlview *v, int y, int x);
/* The width of the lane names' column for a canvas COLS wide. */
int tlview_label_width(int cols);
/* The first time of cell X of a time area W cells wide. */
int64_t tlview_time_at(const struct tlview *v, int64_t x, int w);
/* The cell of time T in a time area W cells wide (may be out of it:
 * negative before the window, W or more after it); the inverse of
 * tlview_time_at(): T lies in cell tlview_cell_at(T). */
int64_t tlview_cell_at(const struct tlview *v, int64_t t, int w);
/* "12.5 ms": a time on the ruler, compactly, into BUF. */
size_t tlview_fmt_time(int64_t ns, char *buf, size_t size);

#endif
