// SPDX-License-Identifier: MIT
/*
 * Painting: the only code that draws on the terminal.  Everything it shows
 * comes from the pane engine (the same cells --print writes) and the UI
 * state; it changes nothing but the pane's scroll position.
 *
 * Screen lines, top to bottom: the title, the pane tabs, the column
 * header, the rows, summary rows (the Steps average), the status line and
 * the bar.  Names from the profile pass through fmt_escape() before they
 * reach the terminal.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "ui_int.h"

#define MIN_COLS 40
#define MIN_LINES 10
#define MAX_COLS 256		/* columns a pane may show */

enum {
	PAIR_TITLE = 1, PAIR_TAB, PAIR_MATCH, PAIR_ERROR, PAIR_HEADER, PAIR_FOOT, PAIR_BAR0,
	NR_BAR_COLORS = 8,
};

static attr_t attr_title, attr_tab, attr_match, attr_error, attr_header, attr_foot;
/* A canvas's parts (enum canvas_attr): axes, two series, a mark. */
static attr_t attr_canvas[CANVAS_TITLE + 1];

#define PAIR_SERIES1 (PAIR_BAR0 + NR_BAR_COLORS)
#define PAIR_SERIES2 (PAIR_SERIES1 + 1)
#define PAIR_MARK (PAIR_SERIES1 + 2)

void draw_init_colors(struct ui *ui)
{
	static const short bar_bg[NR_BAR_COLORS] = {
		COLOR_GREEN, COLOR_BLUE, COLOR_CYAN, COLOR_MAGENTA,
		COLOR_RED, COLOR_YELLOW, COLOR_WHITE, COLOR_BLACK,
	};

	/* Monochrome (vt100, NO_COLOR): attributes every terminal has. */
	attr_title = A_REVERSE;
	attr_tab = A_REVERSE;
	attr_match = A_BOLD | A_UNDERLINE;
	attr_error = A_BOLD;
	attr_header = A_BOLD | A_UNDERLINE;
	attr_foot = A_BOLD;
	attr_canvas[CANVAS_PLAIN] = A_NORMAL;
	attr_canvas[CANVAS_AXIS] = A_DIM;
	attr_canvas[CANVAS_SERIES1] = A_BOLD;
	attr_canvas[CANVAS_SERIES2] = A_NORMAL;
	attr_canvas[CANVAS_MARK] = A_BOLD | A_UNDERLINE;
	attr_canvas[CANVAS_CURSOR] = A_REVERSE;
	attr_canvas[CANVAS_TITLE] = A_BOLD;
	if (!ui->color)
		return;
	start_color();
	use_default_colors();
	init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_TAB, COLOR_BLACK, COLOR_YELLOW);
	init_pair(PAIR_MATCH, COLOR_YELLOW, -1);
	init_pair(PAIR_ERROR, COLOR_RED, -1);
	init_pair(PAIR_HEADER, COLOR_CYAN, -1);
	init_pair(PAIR_FOOT, COLOR_GREEN, -1);
	for (int i = 0; i < NR_BAR_COLORS; i++)
		init_pair((short)(PAIR_BAR0 + i), COLOR_BLACK, bar_bg[i]);
	attr_title = COLOR_PAIR(PAIR_TITLE);
	attr_tab = COLOR_PAIR(PAIR_TAB) | A_BOLD;
	attr_match = COLOR_PAIR(PAIR_MATCH) | A_BOLD;
	attr_error = COLOR_PAIR(PAIR_ERROR) | A_BOLD;
	attr_header = COLOR_PAIR(PAIR_HEADER) | A_BOLD;
	attr_foot = COLOR_PAIR(PAIR_FOOT) | A_BOLD;
	init_pair(PAIR_SERIES1, COLOR_GREEN, -1);
	init_pair(PAIR_SERIES2, COLOR_CYAN, -1);
	init_pair(PAIR_MARK, COLOR_RED, -1);
	attr_canvas[CANVAS_SERIES1] = COLOR_PAIR(PAIR_SERIES1) | A_BOLD;
	attr_canvas[CANVAS_SERIES2] = COLOR_PAIR(PAIR_SERIES2);
	attr_canvas[CANVAS_MARK] = COLOR_PAIR(PAIR_MARK) | A_BOLD;
}

/* ---------------------------------------------------------------------
 * Text into a width
 */

/* Escaped text of S, for the screen.  Valid until the next call. */
static const char *screen_text(const struct ui *ui, const char *s)
{
	static struct strbuf buf;
	size_t len = strlen(s);

	if (!fmt_needs_escape(s, len))
		return s;
	strbuf_reset(&buf);
	strbuf_grow(&buf, 4 * len);
	buf.len = fmt_escape(s, len, !ui->utf8, buf.s, buf.cap);
	return buf.s;
}

/* Put S at (Y, X) in at most WIDTH cells, cut with an ellipsis when it
 * does not fit; pad to WIDTH when PAD.  Returns the cells used. */
static int put_cut(const struct ui *ui, int y, int x, const char *s, int width, bool pad)
{
	size_t len = strlen(s), used;
	size_t fit;

	if (width <= 0)
		return 0;
	if (u8_width(s, len) <= (size_t)width) {
		mvaddstr(y, x, s);
		used = u8_width(s, len);
	} else {
		const char *ell = ui_glyph(ui, "\xe2\x80\xa6", "~");

		fit = u8_fit(s, len, (size_t)width - 1, &used);
		mvaddnstr(y, x, s, (int)fit);
		addstr(ell);
		used++;
	}
	if (pad)
		for (int i = (int)used; i < width; i++)
			addch(' ');
	return pad ? width : (int)used;
}

static void put_right(int y, int x, const char *s, int width)
{
	int w = (int)u8_width(s, strlen(s));

	if (w > width) {
		/* A number never gets an ellipsis: show its end, which
		 * holds the unit. */
		mvaddstr(y, x, s + (w - width));
		return;
	}
	mvprintw(y, x, "%*s%s", width - w, "", s);
}

/* ---------------------------------------------------------------------
 * Columns across the screen
 */

#define MAX_CATS 64		/* step categories with a letter of their own */

struct layout {
	int nr;			/* columns shown, in screen order */
	int col[MAX_COLS];	/* pane column index */
	int x[MAX_COLS], w[MAX_COLS];
	bool more_right;	/* columns cut off at the right */
	int64_t bar_scale;	/* a bar column: the widest row, a full bar */
	const char *const *legend;	/* the bar's segment names */
	size_t nr_legend;
	char letters[MAX_CATS];	/* each segment's letter */
};

static int bar_width(int cols)
{
	return cols >= 120 ? 40 : cols >= 100 ? 30 : cols >= 80 ? 20 : 12;
}

static int name_col(const struct pane *pane)
{
	for (size_t c = 0; c < pane->nr_cols; c++)
		if (pane->cols[c].kind == COL_NAME)
			return (int)c;
	return -1;
}

static int fixed_width(const struct ui *ui, const struct column *c, int cols)
{
	int w = c->kind == COL_BAR ? bar_width(cols) : c->width;
	int tw = (int)u8_width(c->title, strlen(c->title)) + 1;	/* + the sort mark */

	(void)ui;
	if (w < tw)
		w = tw;
	/* Numbers get a blank of their own on the left, so that a full
	 * "376.499 us" never touches its neighbour. */
	return c->kind == COL_BAR || c->kind == COL_TEXT || c->kind == COL_NAME ? w : w + 1;
}

/* The widest name among the first rows and those on screen, with the
 * tree's indentation. */
static int natural_name_width(const struct ui *ui, const struct pane *pane, int nc)
{
	size_t n = pane->nr_view < 2000 ? pane->nr_view : 2000;
	int best = (int)u8_width(pane->cols[nc].title, strlen(pane->cols[nc].title)) + 1;

	for (size_t k = 0; k < n + (size_t)ui->list_rows; k++) {
		size_t i = k < n ? k : pane->top + (k - n);
		const char *s;
		int w;

		if (i >= pane->nr_view)
			break;
		s = screen_text(ui, pane_row_name(pane, pane_row(pane, i)));
		w = (int)u8_width(s, strlen(s));
		if (pane->ops->row_depth)
			w += 2 * pane->ops->row_depth(pane, i) + 2;
		if (w > best)
			best = w;
	}
	for (size_t f = 0; f < pane->nr_foot; f++) {
		int w = (int)u8_width(pane_row_name(pane, pane->foot[f]),
				      strlen(pane_row_name(pane, pane->foot[f])));

		if (w > best)
			best = w;
	}
	return best;
}

static void layout(const struct ui *ui, struct pane *pane, int cols, struct layout *L)
{
	int nc = name_col(pane), used = 0, flex = -1, name_w = 0, natural;
	size_t first;

	memset(L, 0, sizeof(*L));
	/* Columns up to the name stay put; the ones after it scroll. */
	for (int c = 0; c < nc && L->nr < MAX_COLS; c++) {
		L->col[L->nr++] = c;
		used += fixed_width(ui, &pane->cols[c], cols) + 1;
	}
	natural = nc >= 0 ? natural_name_width(ui, pane, nc) : 0;
	if (nc >= 0) {
		/* The name matters most: up to 40% of the width before
		 * numbers get theirs, 20 cells at least. */
		int want = cols * 2 / 5 > 20 ? cols * 2 / 5 : 20;

		name_w = natural < want ? natural : want;
		L->col[L->nr++] = nc;
		used += name_w + 1;
	}
	first = (size_t)(nc + 1) > pane->hscroll ? (size_t)(nc + 1) : pane->hscroll;
	for (size_t c = first; c < pane->nr_cols && L->nr < MAX_COLS; c++) {
		const struct column *col = &pane->cols[c];
		int w;

		if (col->kind == COL_TEXT && col->width == 0) {
			if (used + 10 > cols) {
				L->more_right = true;
				break;
			}
			flex = L->nr;
			L->col[L->nr++] = (int)c;
			used += 10 + 1;
			continue;
		}
		w = fixed_width(ui, col, cols);
		if (used + w > cols) {
			L->more_right = true;
			break;
		}
		L->col[L->nr++] = (int)c;
		used += w + 1;
	}
	/* What is left goes to the name (up to its natural width when a
	 * flexible text column wants the rest). */
	{
		int left = cols - used;

		if (nc >= 0) {
			/* Never wider than its widest name: the numbers then
			 * sit next to the names, the blank goes right. */
			int grow = natural - name_w < left ? natural - name_w : left;

			if (flex >= 0 && grow > left / 2)
				grow = left / 2;

			if (grow < 0)
				grow = 0;
			name_w += grow;
			left -= grow;
		}
		used = 0;
		for (int i = 0; i < L->nr; i++) {
			const struct column *col = &pane->cols[L->col[i]];

			L->x[i] = used;
			if (L->col[i] == nc)
				L->w[i] = name_w;
			else if (i == flex)
				L->w[i] = 10 + left;
			else
				L->w[i] = fixed_width(ui, col, cols);
			used += L->w[i] + 1;
		}
	}
}

/* ---------------------------------------------------------------------
 * Bars (the Steps pane's breakdown): each segment a colour (or a letter),
 * scaled to the widest row.  The pane gives the segments and their names.
 */

/* Each segment's letter: the first letter of its name that no earlier
 * segment took ('?' when none is left). */
static void seg_letters(const char *const *names, size_t nr, char *out, size_t max)
{
	bool taken[26] = { false };

	for (size_t k = 0; k < nr && k < max; k++) {
		out[k] = '?';
		for (const char *s = names[k]; *s; s++) {
			char c = (char)(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s);

			if (c >= 'A' && c <= 'Z' && !taken[c - 'A']) {
				out[k] = c;
				taken[c - 'A'] = true;
				break;
			}
		}
	}
}

/* A row's segments summed: its full length. */
static int64_t bar_length(const struct pane *pane, const void *row)
{
	int64_t seg[MAX_CATS], sum = 0;
	size_t n = pane->ops->bar(pane, row, seg, MAX_CATS);

	for (size_t k = 0; k < n; k++)
		if (seg[k] > 0)
			sum += seg[k];
	return sum;
}

/* What every bar of a frame shares: the scale and the letters, worked out
 * once per frame, not per cell. */
static void bar_init(const struct pane *pane, struct layout *L)
{
	L->bar_scale = 0;
	L->nr_legend = 0;
	if (!pane->ops->bar || !pane->ops->legend)
		return;
	for (size_t i = 0; i < pane->nr_rows; i++) {
		int64_t len = bar_length(pane, pane->rows[i]);

		if (len > L->bar_scale)
			L->bar_scale = len;
	}
	L->legend = pane->ops->legend(pane, &L->nr_legend);
	seg_letters(L->legend, L->nr_legend, L->letters, MAX_CATS);
}

static char letter_of(const struct layout *L, size_t k)
{
	return k < MAX_CATS ? L->letters[k] : '?';
}

static void draw_bar(const struct ui *ui, const struct pane *pane, const struct layout *L,
		     const void *row, int y, int x, int width)
{
	int64_t seg[MAX_CATS], cum = 0;
	size_t n;
	int pos = 0;

	if (L->bar_scale <= 0)
		return;
	n = pane->ops->bar(pane, row, seg, MAX_CATS);
	for (size_t k = 0; k < n; k++) {
		chtype ch = ui->color && ui->utf8 ? ' ' : (chtype)letter_of(L, k);
		int end;

		if (seg[k] <= 0)
			continue;
		cum += seg[k];
		/* Cumulative rounding: the segments add up to the total. */
		end = (int)((double)cum * width / (double)L->bar_scale + 0.5);
		if (end > width)
			end = width;
		move(y, x + pos);
		if (ui->color)
			attron(COLOR_PAIR(PAIR_BAR0 + (int)(k % NR_BAR_COLORS)));
		for (; pos < end; pos++)
			addch(ch);
		if (ui->color)
			attroff(COLOR_PAIR(PAIR_BAR0 + (int)(k % NR_BAR_COLORS)));
	}
}

/* ---------------------------------------------------------------------
 * Rows
 */

static void draw_name(const struct ui *ui, const struct pane *pane, size_t i, const char *name,
		      int y, int x, int width, bool selected)
{
	char prefix[512];
	int px = 0;

	if (pane->ops->row_depth && i != SIZE_MAX) {
		int depth = pane->ops->row_depth(pane, i), fold = pane->ops->row_fold(pane, i);
		const char *mark = fold == 2 ? ui_glyph(ui, "\xe2\x96\xb8 ", "+ ")
				 : fold == 1 ? ui_glyph(ui, "\xe2\x96\xbe ", "- ")
					     : "  ";
		int n = 0;

		for (int d = 0; d < depth && n + 4 < (int)sizeof(prefix) - 8; d++) {
			prefix[n++] = ' ';
			prefix[n++] = ' ';
		}
		prefix[n] = '\0';
		strcat(prefix, mark);
		px = put_cut(ui, y, x, prefix, width, false);
	}
	{
		const char *shown = screen_text(ui, name);
		size_t spans[8][2];
		size_t nr = 0;

		put_cut(ui, y, x + px, shown, width - px, true);
		/* Highlight the matches (when the name needed no escaping,
		 * so the byte offsets still hold). */
		if (pane->filter && shown == name)
			nr = filter_spans(pane->filter, name, strlen(name), spans, 8);
		for (size_t k = 0; k < nr; k++) {
			size_t pre_w = u8_width(name, spans[k][0]);
			size_t match_w = u8_width(name + spans[k][0], spans[k][1] - spans[k][0]);
			int room = width - px - (int)pre_w;

			if (room <= 1)
				break;
			if ((int)match_w >= room)
				match_w = (size_t)room - 1;
			attron(attr_match);
			if (selected)
				attron(A_REVERSE);
			{
				size_t used, fit = u8_fit(name + spans[k][0], spans[k][1] - spans[k][0],
							  match_w, &used);

				mvaddnstr(y, x + px + (int)pre_w, name + spans[k][0], (int)fit);
			}
			attroff(attr_match);
		}
	}
}

static void draw_row(const struct ui *ui, const struct pane *pane, const struct layout *L,
		     const void *row, size_t i, int y, bool selected, bool is_foot)
{
	char buf[256];

	if (selected)
		attron(A_REVERSE);
	if (is_foot)
		attron(attr_foot);
	move(y, 0);
	for (int x = 0; x < COLS; x++)
		addch(' ');
	for (int k = 0; k < L->nr; k++) {
		const struct column *col = &pane->cols[L->col[k]];
		struct cell v;

		if (col->kind == COL_BAR) {
			if (pane->ops->bar)
				draw_bar(ui, pane, L, row, y, L->x[k], L->w[k]);
			if (selected)
				attron(A_REVERSE);
			continue;
		}
		v = pane_cell(pane, row, (size_t)L->col[k]);
		if (col->kind == COL_NAME) {
			draw_name(ui, pane, is_foot ? SIZE_MAX : i, v.type == CELL_TEXT ? v.v.s : "",
				  y, L->x[k], L->w[k], selected);
			if (selected)
				attron(A_REVERSE);
			continue;
		}
		if (v.type == CELL_TEXT) {
			put_cut(ui, y, L->x[k], screen_text(ui, v.v.s), L->w[k], false);
			continue;
		}
		fmt_cell(col->kind, v, FMT_HUMAN, buf, sizeof(buf));
		put_right(y, L->x[k], buf, L->w[k]);
	}
	if (is_foot)
		attroff(attr_foot);
	if (selected)
		attroff(A_REVERSE);
}

static void draw_header(const struct ui *ui, const struct pane *pane, const struct layout *L, int y)
{
	attron(attr_header);
	move(y, 0);
	for (int x = 0; x < COLS; x++)
		addch(' ');
	for (int k = 0; k < L->nr; k++) {
		const struct column *col = &pane->cols[L->col[k]];
		char title[256];
		bool left = col->kind == COL_NAME || col->kind == COL_TEXT || col->kind == COL_BAR;

		/* A title can come from the file (a step category). */
		if (L->col[k] == pane->sort_col)
			snprintf(title, sizeof(title), "%s%s", screen_text(ui, col->title),
				 pane->sort_desc ? ui_glyph(ui, "\xe2\x96\xbc", " v")
						 : ui_glyph(ui, "\xe2\x96\xb2", " ^"));
		else
			snprintf(title, sizeof(title), "%s", screen_text(ui, col->title));
		if (left)
			put_cut(ui, y, L->x[k], title, L->w[k], false);
		else
			put_right(y, L->x[k], title, L->w[k]);
	}
	/* More columns to the right: say so where there is room. */
	if (L->more_right && L->nr && L->x[L->nr - 1] + L->w[L->nr - 1] < COLS - 1)
		mvaddstr(y, COLS - 1, ui_glyph(ui, "\xe2\x80\xba", ">"));
	attroff(attr_header);
}

/* ---------------------------------------------------------------------
 * Title, tabs, status and bar
 */

static void fill_line(int y, attr_t a)
{
	attron(a);
	move(y, 0);
	for (int x = 0; x < COLS; x++)
		addch(' ');
	attroff(a);
}

static void draw_title(const struct ui *ui, const struct pane *pane)
{
	char left[4096], right[512], raw[512], path[2048];
	size_t n = 0;
	int rw;

	ui_path(ui, raw, sizeof(raw));
	fmt_escape(raw, strlen(raw), !ui->utf8, path, sizeof(path));
	/* The pane's path first: when the line is short, the file name is
	 * what gets cut. */
	snprintf(left, sizeof(left), " proftui %s %s %s %s", ui_glyph(ui, "\xc2\xb7", "-"), path,
		 ui_glyph(ui, "\xc2\xb7", "-"), screen_text(ui, ui->label));
	right[0] = '\0';
	/* What was read before an error: never mistaken for the whole. */
	if (ui->opt->load_failed)
		n += (size_t)snprintf(right + n, sizeof(right) - n, "partial  ");
	if (pane->sort_col >= 0)
		n += (size_t)snprintf(right + n, sizeof(right) - n, "sort: %s %s  ",
				      pane->cols[pane->sort_col].title,
				      pane->sort_desc ? ui_glyph(ui, "\xe2\x96\xbc", "v")
						      : ui_glyph(ui, "\xe2\x96\xb2", "^"));
	if (pane->filter && n < sizeof(right))
		n += (size_t)snprintf(right + n, sizeof(right) - n, "filter: %s  ",
				      screen_text(ui, filter_pattern(pane->filter)));
	if (ui->step >= 0 && n < sizeof(right))
		n += (size_t)snprintf(right + n, sizeof(right) - n, "step %s  ",
				      screen_text(ui, ui->prof->steps[ui->step].name));
	if (ui->first->next_run && n < sizeof(right))
		snprintf(right + n, sizeof(right) - n, "run %zu/%zu  ", ui->run + 1,
			 profile_nr_runs(ui->first));
	fill_line(0, attr_title);
	attron(attr_title);
	rw = (int)u8_width(right, strlen(right));
	if (rw > COLS / 2) {
		put_cut(ui, 0, 0, right, COLS, false);
	} else {
		int avail = COLS - rw - 1, lw = (int)u8_width(left, strlen(left));
		int head = (int)u8_width(" proftui - ", 11);

		if (lw > avail && (int)u8_width(path, strlen(path)) + head > avail && avail > head + 8) {
			/* A deep drill path: its end says most, keep that. */
			const char *tail = path;
			size_t pw = u8_width(path, strlen(path));

			while (*tail && (int)pw > avail - head - 1) {
				uint32_t cp;
				size_t len = u8_decode(tail, strlen(tail), &cp);

				pw -= (size_t)u8_cp_width(cp);
				tail += len;
			}
			snprintf(left, sizeof(left), " proftui %s %s%s", ui_glyph(ui, "\xc2\xb7", "-"),
				 ui_glyph(ui, "\xe2\x80\xa6", "~"), tail);
		}
		put_cut(ui, 0, 0, left, avail, false);
		mvaddstr(0, COLS - rw, right);
	}
	attroff(attr_title);
}

/* Tab I's label in form FORM: 0 " 1 Title ", 1 " 1 Title", 2 " 1 Titl"
 * (the inactive ones, when the full labels do not fit). */
static void tab_label(const struct ui *ui, int t, int form, char *buf, size_t size)
{
	const char *title = pane_title(ui->tab_ops[t]);

	if (form == 2 && t != ui->tab)
		snprintf(buf, size, " %d %.4s", t + 1, title);
	else
		snprintf(buf, size, form ? " %d %s" : " %d %s ", t + 1, title);
}

static void draw_tabs(const struct ui *ui)
{
	int x = 0, form = 0;

	/* The shortest form the terminal needs. */
	for (; form < 2; form++) {
		int width = 0;

		for (int t = 0; t < ui->nr_tabs; t++) {
			char label[64];

			tab_label(ui, t, form, label, sizeof(label));
			width += (int)u8_width(label, strlen(label)) + !form;
		}
		if (width <= COLS)
			break;
	}
	move(1, 0);
	clrtoeol();
	for (int t = 0; t < ui->nr_tabs && x < COLS; t++) {
		char label[64];
		bool active = t == ui->tab;

		tab_label(ui, t, form, label, sizeof(label));
		if (active)
			attron(attr_tab);
		x += put_cut(ui, 1, x, label, COLS - x, false);
		if (active)
			attroff(attr_tab);
		if (x < COLS && !form)
			mvaddch(1, x++, ' ');
	}
}

/* The bar's legend on the status line, in the bar's colours: " K Kernel
 * M Memcpy ...". */
static void draw_legend(const struct ui *ui, const struct layout *L, int y, int x)
{
	for (size_t k = 0; k < L->nr_legend; k++) {
		char item[128];

		snprintf(item, sizeof(item), " %s", screen_text(ui, L->legend[k]));
		mvaddch(y, x++, ' ');
		if (ui->color)
			attron(COLOR_PAIR(PAIR_BAR0 + (int)(k % NR_BAR_COLORS)));
		mvaddch(y, x++, (chtype)letter_of(L, k));
		if (ui->color)
			attroff(COLOR_PAIR(PAIR_BAR0 + (int)(k % NR_BAR_COLORS)));
		mvaddstr(y, x, item);
		x += (int)strlen(item);
	}
}

static void draw_status(const struct ui *ui, const struct pane *pane, const struct layout *L,
			int y)
{
	char left[64], right[256];
	const void *row = pane_row(pane, pane->cursor);
	bool legend = false;
	int lw, rw = 0;

	move(y, 0);
	clrtoeol();
	right[0] = '\0';
	if (pane->filter) {
		snprintf(right, sizeof(right), " %zu/%zu matched", pane->nr_view, pane->nr_rows);
	} else if (pane->ops->status) {
		pane->ops->status(pane, right, sizeof(right));
	} else if (L->nr_legend) {
		size_t n = 0;

		for (size_t k = 0; k < L->nr_legend && n < sizeof(right) - 40; k++)
			n += (size_t)snprintf(right + n, sizeof(right) - n, " %c %s", letter_of(L, k),
					      screen_text(ui, L->legend[k]));
		legend = true;
	}
	snprintf(left, sizeof(left), " %zu/%zu ", pane->nr_view ? pane->cursor + 1 : 0, pane->nr_view);
	attron(A_BOLD);
	mvaddstr(y, 0, left);
	attroff(A_BOLD);
	lw = (int)strlen(left);
	if (right[0]) {
		rw = (int)u8_width(right, strlen(right));
		if (rw > COLS - lw - 10)
			rw = 0;
		else if (legend && ui->color)
			draw_legend(ui, L, y, COLS - rw);
		else
			mvaddstr(y, COLS - rw, screen_text(ui, right));
	}
	if (row) {
		put_cut(ui, y, lw, screen_text(ui, pane_row_name(pane, row)), COLS - lw - rw - 1, false);
	} else {
		char why[512] = "no rows";

		if (pane->filter)
			snprintf(why, sizeof(why), "no row matches the filter");
		else if (pane->ops->empty_text)
			pane->ops->empty_text(pane, why, sizeof(why));
		put_cut(ui, y, lw, screen_text(ui, why), COLS - lw - 1, false);
	}
}

/* The actions the bar's hint names on a pane that names none. */
static const enum action generic_hints[] = {
	ACT_HELP, ACT_FILTER, ACT_SORT_DEVICE_SELF, ACT_DRILL, ACT_EXPORT, ACT_BACK, ACT_NONE,
};

/* The words each action goes by in the hint. */
static const char *hint_word(enum action a)
{
	switch (a) {
	case ACT_SORT_DEVICE_SELF:
		return "sort";
	case ACT_TOGGLE_FOLD:
		return "fold";
	default:
		return action_name(a);
	}
}

/* The keys of a few actions, as the bar's hint: "? help  / filter ...",
 * for one pane type (its keymap section and its own hint list) into BUF. */
static void make_hint(const struct keymap *km, const struct pane_ops *ops, char *buf,
		      size_t size)
{
	const enum action *acts = ops->hints ? ops->hints : generic_hints;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; acts[i] != ACT_NONE && n < size; i++) {
		char keys[128], *best, *k;

		if (!keymap_keys_of(km, KS_PANE(ops->id), acts[i], keys, sizeof(keys)))
			continue;
		/* The shortest of its keys: "q" rather than "<BS>". */
		best = keys;
		for (k = strtok(keys, " "); k; k = strtok(NULL, " "))
			if (strlen(k) < strlen(best))
				best = k;
		n += (size_t)snprintf(buf + n, size - n, "%s%s %s", n ? "  " : " ", best,
				      hint_word(acts[i]));
	}
}

void draw_init_hints(struct ui *ui)
{
	for (size_t i = 0; i < NR_PANES; i++)
		make_hint(&ui->km, pane_types[i].ops, ui->hint[i], sizeof(ui->hint[i]));
}

static void draw_bar_line(struct ui *ui, const struct pane *pane, int y)
{
	move(y, 0);
	clrtoeol();
	if (ui->mode == MODE_FILTER || ui->mode == MODE_EXPORT) {
		const char *label = ui->mode == MODE_FILTER ? "filter: " : "export to: ";
		int lw = (int)strlen(label), cur;

		attron(A_BOLD);
		mvaddstr(y, 0, label);
		attroff(A_BOLD);
		put_cut(ui, y, lw, screen_text(ui, ui->edit.text), COLS - lw - 1, false);
		if (ui->mode == MODE_FILTER && ui->edit_error[0]) {
			int x = lw + (int)u8_width(ui->edit.text, ui->edit.len) + 2;

			if (x < COLS - 10) {
				attron(attr_error);
				put_cut(ui, y, x, ui->edit_error, COLS - x, false);
				attroff(attr_error);
			}
		}
		cur = lw + (int)u8_width(ui->edit.text, ui->edit.cur);
		if (cur >= COLS)
			cur = COLS - 1;
		move(y, cur);
		curs_set(1);
		return;
	}
	curs_set(0);
	if (ui->mode == MODE_CONFIRM) {
		char q[1200];

		snprintf(q, sizeof(q), "%s exists; overwrite it? (y/n)", ui->edit.text);
		attron(A_BOLD);
		put_cut(ui, y, 0, screen_text(ui, q), COLS - 1, false);
		attroff(A_BOLD);
		return;
	}
	if (ui->msg[0]) {
		if (ui->msg_is_error)
			attron(attr_error);
		put_cut(ui, y, 0, screen_text(ui, ui->msg), COLS - 1, false);
		if (ui->msg_is_error)
			attroff(attr_error);
		return;
	}
	attron(A_DIM);
	put_cut(ui, y, 0, ui->hint[pane->ops->id], COLS - 1, false);
	attroff(A_DIM);
}

/* A pane's drawing above its table (pane_ops.canvas): each line's
 * characters in the attributes its spans give (one cell a character). */
static void draw_canvas(const struct canvas *cv, int top)
{
	for (size_t l = 0; l < cv->nr; l++) {
		const struct canvas_line *line = &cv->lines[l];
		const char *s = line->text ? line->text : "";
		size_t len = strlen(s), at = 0;
		int cell = 0;

		move(top + (int)l, 0);
		clrtoeol();
		while (at < len && cell < COLS) {
			uint32_t cp;
			size_t n = u8_decode(s + at, len - at, &cp);
			attr_t a = A_NORMAL;

			for (size_t k = 0; k < line->nr_spans; k++)
				if (cell >= line->spans[k].start &&
				    cell < line->spans[k].start + line->spans[k].len)
					a |= attr_canvas[line->spans[k].attr];
			attron(a);
			mvaddnstr(top + (int)l, cell, s + at, (int)n);
			attroff(a);
			at += n;
			cell++;
		}
	}
}

void draw_screen(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	struct layout L;
	int list_top = 3, list_rows, foot_rows, canvas_rows = 0;
	struct canvas cv = { 0 };

	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		const char *msg = "terminal too small";

		mvaddstr(LINES / 2, COLS > 18 ? (COLS - 18) / 2 : 0, msg);
		if (LINES > 1 && COLS >= 14)
			mvprintw(LINES / 2 + 1, (COLS - 14) / 2, "(need %dx%d)", MIN_COLS, MIN_LINES);
		curs_set(0);
		refresh();
		return;
	}
	if (pane->ops->canvas) {
		/* The drawing takes up to half of what the table would have,
		 * and leaves the table 5 rows at least. */
		int room = LINES - list_top - 2 - 6, want = (LINES - list_top - 2) / 2;

		if (want > room)
			want = room;
		if (want >= 3)
			canvas_rows = (int)pane->ops->canvas(pane, COLS, want, ui->utf8, &cv);
		list_top += canvas_rows;
	}
	foot_rows = (int)pane->nr_foot;
	list_rows = LINES - list_top - 2 - foot_rows;
	if (list_rows < 1) {
		foot_rows = 0;
		list_rows = LINES - list_top - 2;
	}
	ui->list_rows = list_rows;
	/* Keep the cursor on screen. */
	if (pane->cursor >= pane->nr_view)
		pane->cursor = pane->nr_view ? pane->nr_view - 1 : 0;
	if (pane->cursor < pane->top)
		pane->top = pane->cursor;
	if (pane->cursor >= pane->top + (size_t)list_rows)
		pane->top = pane->cursor - (size_t)list_rows + 1;
	if (pane->top + (size_t)list_rows > pane->nr_view)
		pane->top = pane->nr_view > (size_t)list_rows ? pane->nr_view - (size_t)list_rows : 0;

	layout(ui, pane, COLS, &L);
	if (ui->reveal_sort && pane->sort_col >= 0) {
		/* Scroll right until the sort column shows (or give up). */
		for (int tries = 0; tries < (int)pane->nr_cols; tries++) {
			bool shown = false;

			for (int k = 0; k < L.nr; k++)
				shown |= L.col[k] == pane->sort_col;
			if (shown)
				break;
			pane->hscroll = pane->hscroll < (size_t)pane->sort_col ? pane->hscroll + 1 : 0;
			layout(ui, pane, COLS, &L);
		}
		ui->reveal_sort = false;
	}

	bar_init(pane, &L);
	draw_title(ui, pane);
	draw_tabs(ui);
	draw_canvas(&cv, 2);
	canvas_release(&cv);
	draw_header(ui, pane, &L, list_top - 1);
	for (int r = 0; r < list_rows; r++) {
		size_t i = pane->top + (size_t)r;

		if (i >= pane->nr_view)
			break;
		draw_row(ui, pane, &L, pane_row(pane, i), i, list_top + r, i == pane->cursor, false);
	}
	for (int f = 0; f < foot_rows; f++)
		draw_row(ui, pane, &L, pane->foot[f], SIZE_MAX, list_top + list_rows + f, false, true);
	draw_status(ui, pane, &L, LINES - 2);
	draw_bar_line(ui, pane, LINES - 1);
	refresh();
}
