/* SPDX-License-Identifier: MIT */
/*
 * canvas: a picture of the screen's list area as cells -- text and an
 * attribute per cell -- for panes drawn as pictures rather than tables
 * (the Timeline; pane_picture_ops.canvas), and for drawings above a
 * table (the Memory curve; pane_picture_ops.chart).  The pane paints it
 * without curses, so its drawing is unit-tested as text; draw.c copies
 * it to the terminal.
 *
 * Text put on a canvas is escaped first (fmt_escape()): nothing from a
 * profile reaches the terminal raw.  The canvas owns its cells;
 * canvas_release() frees them.
 */
#ifndef TUI_CANVAS_H
#define TUI_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a cell looks like; draw.c maps these to colours or, on a
 * monochrome terminal, to attributes. */
enum canvas_attr {
	CA_PLAIN,
	CA_DIM,			/* blocks the filter does not match */
	CA_BOLD,
	CA_HEADER,		/* the ruler */
	CA_LABEL,		/* a lane's name */
	CA_SELECTED,		/* the cursor's block */
	CA_MATCH,		/* blocks the filter matches */
	CA_AXIS,		/* a chart's axes and their labels */
	CA_SERIES1,		/* a chart's first series (memory allocated) */
	CA_SERIES2,		/* its second (memory reserved) */
	CA_MARK,		/* the peak */
	CA_CURSOR,		/* the cursor's column */
	CA_TITLE,		/* the readout line */
	CA_BLOCK,		/* + 0..CA_NR_BLOCKS-1: a block, coloured by name */
};
#define CA_NR_BLOCKS 6

struct canvas_cell {
	char ch[8];		/* one character, UTF-8; "" for the right half
				   of a wide one */
	uint8_t attr;		/* enum canvas_attr */
};

struct canvas {
	int rows, cols;
	bool ascii;		/* the terminal shows ASCII only */
	/* The name to write for a profile's NAME (short names), or NULL. */
	const char *(*name_of)(const char *name, const void *ctx);
	const void *name_ctx;
	struct canvas_cell *cells;
	size_t alloc;
};

/* Size C to ROWS x COLS and clear it (blanks, CA_PLAIN). */
void canvas_reset(struct canvas *c, int rows, int cols);
void canvas_release(struct canvas *c);
static inline struct canvas_cell *canvas_at(struct canvas *c, int y, int x)
{
	return &c->cells[(size_t)y * (size_t)c->cols + (size_t)x];
}

/* Put S (escaped here) at (Y, X) in at most WIDTH cells, cut with an
 * ellipsis when it does not fit; returns the cells used. */
int canvas_text(struct canvas *c, int y, int x, const char *s, int width, uint8_t attr);
/* Fill WIDTH cells from (Y, X) with the character CH (one, UTF-8, one
 * cell wide). */
void canvas_fill(struct canvas *c, int y, int x, int width, const char *ch, uint8_t attr);
/* Set the attribute of WIDTH cells from (Y, X). */
void canvas_paint(struct canvas *c, int y, int x, int width, uint8_t attr);
/* Line Y as text, its blanks at the end dropped, into BUF: for tests. */
size_t canvas_line(const struct canvas *c, int y, char *buf, size_t size);

#endif
