/* SPDX-License-Identifier: MIT */
/*
 * chart: a step curve of two series over time -- the memory allocated and
 * reserved -- drawn in text cells, without curses: the allocated memory
 * as an area of block characters (eighths of a cell, or '#' in ASCII),
 * the reserved memory as a line above it ('-' in ASCII), the highest
 * allocation marked, a cursor column, a y axis on the left and times
 * under it.  The result is painted on a struct canvas (canvas.h), which
 * draw.c copies to the screen and tests read.
 *
 * Each column is a slice of time; it shows the largest value of each
 * series in that slice (a series holds each point's value until the next
 * point), so a short spike is never lost between columns.
 */
#ifndef TUI_CHART_H
#define TUI_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "canvas.h"

struct chart_input {
	const char *title;		/* "GPU0" */
	const int64_t *t;		/* point times, ascending */
	const int64_t *y1, *y2;		/* allocated, reserved (y2 may be NULL) */
	size_t n;
	int64_t t0, t1;			/* the window shown, t0 < t1 */
	int64_t origin;			/* times are labelled since ORIGIN */
	int64_t cursor;			/* a time in the window: its column is marked */
	const char *y1_name, *y2_name;	/* "allocated", "reserved" */
	bool counts;			/* the values are counts, not bytes */
};

/* The values a column shows: the largest of each series in its slice,
 * and whether any point falls in it. */
struct chart_column {
	int64_t t_start, t_end;		/* the slice [start, end) */
	int64_t y1, y2;			/* -1: the series has no value yet */
};

/* The plot's width in columns for a chart WIDTH cells wide (the rest is
 * the y axis). */
int chart_plot_width(int width);
/* The column of time T in a plot PLOT_W columns wide over [T0, T1). */
int chart_column_of(int64_t t, int64_t t0, int64_t t1, int plot_w);
/* What column COL of PLOT_W shows. */
void chart_column_values(const struct chart_input *in, int plot_w, int col,
			 struct chart_column *out);
/*
 * Draw IN in WIDTH x HEIGHT cells (HEIGHT >= 4: a readout line, the plot,
 * the time axis) on OUT, which it sizes and clears (the caller releases
 * it with canvas_release()); UTF8 allows block and box characters.
 * Returns the lines made: HEIGHT, or 0 when it does not fit.
 */
size_t chart_render(const struct chart_input *in, int width, int height, bool utf8,
		    struct canvas *out);

/* Bytes as "96.61 MiB" into BUF. */
const char *chart_bytes(int64_t bytes, char *buf, size_t size);

#endif
