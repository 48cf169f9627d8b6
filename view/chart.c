// SPDX-License-Identifier: MIT
/*
 * The memory chart (chart.h), painted on a canvas: a character and an
 * attribute a cell.  Nothing here knows curses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "chart.h"
#include "format.h"

#define AXIS_W 11		/* "116.00 MiB" and the axis' tick */

static void put(struct canvas *c, int x, int y, uint32_t cp, uint8_t a)
{
	struct canvas_cell *cell;

	if (x < 0 || y < 0 || x >= c->cols || y >= c->rows)
		return;
	cell = canvas_at(c, y, x);
	cell->ch[u8_encode(cp, cell->ch)] = '\0';
	cell->attr = a;
}

/* Text at (X, Y), one cell a byte: ASCII only (our own labels). */
static void put_text(struct canvas *c, int x, int y, const char *s, uint8_t a)
{
	for (; *s; s++, x++)
		put(c, x, y, (unsigned char)*s, a);
}

const char *chart_bytes(int64_t bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t u = 0;

	while ((v >= 1024 || v <= -1024) && u + 1 < ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, size, "%lld B", (long long)bytes);
	else
		snprintf(buf, size, "%.2f %s", v, units[u]);
	return buf;
}

int chart_plot_width(int width)
{
	return width - AXIS_W > 1 ? width - AXIS_W : 1;
}

int chart_column_of(int64_t t, int64_t t0, int64_t t1, int plot_w)
{
	double f = (double)(t - t0) / (double)(t1 - t0);
	int col = (int)(f * plot_w);

	return col < 0 ? 0 : col >= plot_w ? plot_w - 1 : col;
}

/* The slice of column COL: [start, end). */
static void slice(const struct chart_input *in, int plot_w, int col, int64_t *start, int64_t *end)
{
	double span = (double)(in->t1 - in->t0);

	*start = in->t0 + (int64_t)(span * col / plot_w);
	*end = col + 1 == plot_w ? in->t1 + 1 : in->t0 + (int64_t)(span * (col + 1) / plot_w);
}

void chart_column_values(const struct chart_input *in, int plot_w, int col, struct chart_column *out)
{
	size_t lo = 0, hi = in->n;

	slice(in, plot_w, col, &out->t_start, &out->t_end);
	out->y1 = out->y2 = -1;
	/* The last point at or before the slice holds on into it... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->t[mid] <= out->t_start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		out->y1 = in->y1[lo - 1];
		out->y2 = in->y2 ? in->y2[lo - 1] : -1;
	}
	/* ...and every point inside it counts. */
	for (size_t i = lo; i < in->n && in->t[i] < out->t_end; i++) {
		if (in->y1[i] > out->y1)
			out->y1 = in->y1[i];
		if (in->y2 && in->y2[i] > out->y2)
			out->y2 = in->y2[i];
	}
}

static void time_label(int64_t ns, char *buf, size_t size)
{
	/* Milliseconds since the origin, as the plugin's axis. */
	snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
}

/* Value V as the chart labels it: bytes, or a count. */
static const char *value_label(const struct chart_input *in, int64_t v, char *buf, size_t size)
{
	if (!in->counts)
		return chart_bytes(v, buf, size);
	snprintf(buf, size, "%lld", (long long)v);
	return buf;
}

size_t chart_render(const struct chart_input *in, int width, int height, bool utf8,
		    struct canvas *out)
{
	static const uint32_t eighths[] = { ' ', 0x2581, 0x2582, 0x2583, 0x2584,
					    0x2585, 0x2586, 0x2587, 0x2588 };
	int plot_w = chart_plot_width(width), plot_h = height - 2, cursor_col, peak_col = -1;
	struct chart_column *cols;
	int64_t ymax = 1, ymin = -1, peak = -1;
	char a[64], b[64], line[512];

	if (height < 4 || width < AXIS_W + 10 || in->t1 <= in->t0)
		return 0;
	canvas_reset(out, height, width);
	out->ascii = !utf8;
	cols = xmalloc((size_t)plot_w * sizeof(*cols));
	for (int x = 0; x < plot_w; x++) {
		chart_column_values(in, plot_w, x, &cols[x]);
		if (cols[x].y1 > ymax)
			ymax = cols[x].y1;
		if (cols[x].y2 > ymax)
			ymax = cols[x].y2;
		if (cols[x].y1 > peak) {
			peak = cols[x].y1;
			peak_col = x;
		}
	}
	cursor_col = chart_column_of(in->cursor, in->t0, in->t1, plot_w);
	/* The axis starts at 0, or -- when the allocated memory stays well
	 * above it, as it does once a model is loaded -- a little under its
	 * lowest, so that its changes show; the labels say where. */
	for (int x = 0; x < plot_w; x++)
		if (cols[x].y1 >= 0 && (ymin < 0 || cols[x].y1 < ymin))
			ymin = cols[x].y1;
	if (ymin > ymax / 4 && ymin < ymax) {
		ymin -= (ymax - ymin) / 8;
		ymin = ymin / 1048576 * 1048576;	/* a whole MiB */
	} else {
		ymin = 0;
	}

	/* The plot: rows 1 .. plot_h, bottom up. */
	for (int x = 0; x < plot_w; x++) {
		int64_t fill = cols[x].y1 > ymin ? (cols[x].y1 - ymin) * plot_h * 8 / (ymax - ymin) : 0;
		int res_row = cols[x].y2 > ymin ? (int)((cols[x].y2 - ymin) * plot_h / (ymax - ymin)) : -1;

		if (cols[x].y1 > ymin && !fill)
			fill = 1;	/* not nothing: at least a sliver */
		for (int r = 0; r < plot_h; r++) {
			int64_t f = fill - 8 * r;
			int y = plot_h - r;

			if (f > 0) {
				put(out, AXIS_W + x, y, utf8 ? eighths[f > 8 ? 8 : f] : f >= 4 ? '#' : '.',
				    CA_SERIES1);
			} else if (r == (res_row < plot_h ? res_row : plot_h - 1) && res_row >= 0) {
				put(out, AXIS_W + x, y, utf8 ? 0x2500 : '-', CA_SERIES2);
			}
		}
		if (x == cursor_col)
			for (int y = 1; y <= plot_h; y++)
				canvas_at(out, y, AXIS_W + x)->attr = CA_CURSOR;
	}
	/* The peak: a mark above its column's area (on it, at the top). */
	if (peak_col >= 0 && peak > ymin) {
		int64_t fill = (peak - ymin) * plot_h * 8 / (ymax - ymin);
		int r = (int)((fill + 7) / 8);	/* the row above the area */

		if (r > plot_h - 1)
			r = plot_h - 1;
		put(out, AXIS_W + peak_col, plot_h - r, utf8 ? 0x25b2 : '^', CA_MARK);
	}
	/* The y axis: the top value, the middle, 0. */
	for (int y = 1; y <= plot_h; y++)
		put(out, AXIS_W - 1, y, utf8 ? 0x2502 : '|', CA_AXIS);
	snprintf(line, sizeof(line), "%10s", value_label(in, ymax, a, sizeof(a)));
	put_text(out, 0, 1, line, CA_AXIS);
	if (plot_h >= 4) {
		snprintf(line, sizeof(line), "%10s",
			 value_label(in, ymin + (ymax - ymin) / 2, a, sizeof(a)));
		put_text(out, 0, 1 + plot_h / 2, line, CA_AXIS);
	}
	snprintf(line, sizeof(line), "%10s", value_label(in, ymin, a, sizeof(a)));
	put_text(out, 0, plot_h, line, CA_AXIS);
	/* The time axis: the window's ends (and the middle, when it fits). */
	time_label(in->t0 - in->origin, a, sizeof(a));
	time_label(in->t1 - in->origin, b, sizeof(b));
	put_text(out, AXIS_W, height - 1, a, CA_AXIS);
	put_text(out, width - (int)strlen(b), height - 1, b, CA_AXIS);
	if (plot_w > 3 * (int)strlen(a) + 6) {
		time_label((in->t0 + in->t1) / 2 - in->origin, a, sizeof(a));
		put_text(out, AXIS_W + plot_w / 2 - (int)strlen(a) / 2, height - 1, a, CA_AXIS);
	}
	/* The readout: the cursor's time and its column's values, the peak. */
	{
		const struct chart_column *cc = &cols[cursor_col];
		char t[64], p[64], pt[64];

		time_label(in->cursor - in->origin, t, sizeof(t));
		value_label(in, peak > 0 ? peak : 0, p, sizeof(p));
		time_label((cols[peak_col >= 0 ? peak_col : 0].t_start +
			    cols[peak_col >= 0 ? peak_col : 0].t_end) / 2 - in->origin, pt, sizeof(pt));
		value_label(in, cc->y1 >= 0 ? cc->y1 : 0, a, sizeof(a));
		value_label(in, cc->y2 >= 0 ? cc->y2 : 0, b, sizeof(b));
		/* The longest that fits: the peak's time goes first. */
		snprintf(line, sizeof(line), "%s %s: %s %s, %s %s; peak %s at %s", in->title, t,
			 in->y1_name, cc->y1 >= 0 ? a : "-", in->y2_name, cc->y2 >= 0 ? b : "-", p, pt);
		if (!in->y2)	/* one series */
			snprintf(line, sizeof(line), "%s %s: %s %s; peak %s at %s", in->title, t,
				 in->y1_name, cc->y1 >= 0 ? a : "-", p, pt);
		if ((int)strlen(line) > width && !in->y2)
			snprintf(line, sizeof(line), "%s %s: %s %s; peak %s", in->title, t,
				 in->y1_name, cc->y1 >= 0 ? a : "-", p);
		else if ((int)strlen(line) > width)
			snprintf(line, sizeof(line), "%s %s: %s %s, %s %s; peak %s", in->title, t,
				 in->y1_name, cc->y1 >= 0 ? a : "-", in->y2_name,
				 cc->y2 >= 0 ? b : "-", p);
		line[width < (int)sizeof(line) ? width : (int)sizeof(line) - 1] = '\0';
		canvas_text(out, 0, 0, line, width, CA_TITLE);	/* escapes the title */
	}
	free(cols);
	return (size_t)height;
}
