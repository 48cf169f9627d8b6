/* SPDX-License-Identifier: MIT */
/*
 * tl_range: the Timeline's selection of a range of time, as Perfetto's
 * area selection: m takes the selected block's span, v anchors a range
 * at the block that the cursor then extends (v again sets it), a drag of
 * the mouse over the time area sets one, Esc clears it.  A range set
 * goes to the UI (a pane_request), which narrows every pane that follows
 * one (PANE_FOLLOWS_RANGE) and gives it back to the Timeline in its
 * scope, where it is drawn on the ruler.  pane_timeline.c calls this.
 */
#ifndef VIEW_TL_RANGE_H
#define VIEW_TL_RANGE_H

#include "pane.h"
#include "tlview.h"

/* The pane's own state: a range being made with v. */
struct tl_range {
	bool anchored;
	int64_t anchor_start_ns, anchor_end_ns;	/* the block v was pressed on */
};

/* Carry out ACT (range-mark, -visual, -summary, -clear) with SEL the
 * selected block (NULL: none) of TL, the pane's scope SCOPE; false when
 * the Timeline leaves it to the UI (range-clear with nothing to clear). */
bool tl_range_act(struct tl_range *r, const struct timeline *tl, const struct pane_scope *scope,
		  const struct tl_block *sel, enum action act, struct pane_request *req);
/* A drag from column X0 to X1 of the picture V drew, COLS wide: the
 * range of time between them into REQ; false over the lanes' names. */
bool tl_range_drag(const struct tlview *v, int cols, int x0, int x1, struct pane_request *req);
/* Draw the range on the ruler of C (V's picture): the one being made
 * (R anchored, to SEL), else SCOPE's; a band of CA_CURSOR between [ and ]
 * (ASCII either way). */
void tl_range_paint(const struct tl_range *r, const struct pane_scope *scope,
		    const struct tl_block *sel, const struct tlview *v, struct canvas *c);
/* The status line's words for the range ("range 1 ms - 3 ms (2 ms)"),
 * times after V's 0; "" when there is none. */
void tl_range_status(const struct tl_range *r, const struct pane_scope *scope,
		     const struct tl_block *sel, const struct tlview *v, char *buf, size_t size);

#endif
