/* SPDX-License-Identifier: MIT */
/*
 * tl_counters: the Timeline's counter lanes -- each counter series
 * (model/counters.h) drawn as a chart one row high under the ruler, on
 * the Timeline's window of time, scaled to the series' greatest value
 * over the trace (the label says the scale).  The lanes' own cursor, their
 * pinning and hiding, and the value at the cursor's time for the status
 * line.  No curses: pane_timeline.c keeps one and paints it on its
 * canvas.
 *
 * Shown at first: the trace's own counters (recorded); the derived ones
 * (GPU utilization, queue length, memory) wait for counter-lanes, as they
 * are proftui's computation, not the trace's, and would push the lanes of
 * blocks down on every trace with kernels.
 */
#ifndef VIEW_TL_COUNTERS_H
#define VIEW_TL_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/counters.h"
#include "actions.h"
#include "canvas.h"
#include "tlview.h"

struct tl_counters {
	const struct profile *prof;
	bool is_made;			/* counters computed (at the first need) */
	struct counters c;
	uint8_t *flags;			/* by series: TLV_PINNED, TLV_HIDDEN */
	bool *off;			/* by series: not shown (counter-lanes) */
	double **tree;			/* by series: a max segment tree, made
					   at its first paint */
	size_t cur;			/* the lanes' cursor: an index into the
					   order drawn; SIZE_MAX: on the blocks */
	size_t top;			/* the first unpinned lane drawn */
	size_t *order;			/* the lanes shown: pinned first */
	size_t nr_order, nr_pinned;
	int rows;			/* the band's rows in the last picture */
};

void tl_counters_init(struct tl_counters *tc, const struct profile *p);
void tl_counters_release(struct tl_counters *tc);
/* Whether ACT is slow here: counter-lanes the first time, which makes
 * every series (the derived ones from every kernel and memory event). */
bool tl_counters_is_slow(const struct tl_counters *tc, enum action act);
/* The rows the band takes on a canvas of ROWS rows (0: none shown). */
int tl_counters_rows(struct tl_counters *tc, int rows);
/* Paint the band's ROWS rows under the ruler of C, on V's window. */
void tl_counters_paint(struct tl_counters *tc, const struct tlview *v, struct canvas *c, int rows);
/* Take ACT when it is the lanes' (the cursor among them, their pinning,
 * hiding and showing; counter-lanes); AT_TOP: the blocks' cursor is on
 * the first row drawn (move-up goes up into the lanes); BLOCKS_HIDDEN:
 * lanes of blocks are hidden (show-lanes is theirs too).  *MSG: what to
 * say.  False: not the lanes' to take. */
bool tl_counters_handle(struct tl_counters *tc, enum action act, bool at_top, bool blocks_hidden,
			const char **msg);
/* The series of the cursor's lane, or NULL when it is on the blocks. */
const char *tl_counters_cursor_name(const struct tl_counters *tc);
/* Put the cursor on the lane of the series called NAME, showing it (the
 * lanes made first, that lane on and not hidden); false: no such series. */
bool tl_counters_seek(struct tl_counters *tc, const char *name);
/* Whether the cursor is on a counter lane. */
bool tl_counters_has_cursor(const struct tl_counters *tc);
/* The status line's part: the cursor's lane's value at time T ("" when
 * the cursor is on the blocks); ORIGIN: the time 0 of the ruler. */
void tl_counters_status(struct tl_counters *tc, int64_t t, int64_t origin, char *buf,
			size_t size);

#endif
