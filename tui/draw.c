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
#include <inttypes.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "../view/columns.h"
#include "../view/shortnames.h"
#include "../view/tlview.h"
#include "ui_int.h"

#define MIN_COLS 40
#define MIN_LINES 10

enum {
	PAIR_TITLE = 1, PAIR_TAB, PAIR_MATCH, PAIR_ERROR, PAIR_HEADER, PAIR_FOOT, PAIR_BAR0,
	NR_BAR_COLORS = 8,
};

static attr_t attr_title, attr_tab, attr_match, attr_error, attr_header, attr_foot;
/* A chart's parts (enum canvas_attr): two series and the peak. */
static attr_t attr_series1, attr_series2, attr_mark;

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
	attr_series1 = A_BOLD;
	attr_series2 = A_NORMAL;
	attr_mark = A_BOLD | A_UNDERLINE;
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
	attr_series1 = COLOR_PAIR(PAIR_SERIES1) | A_BOLD;
	attr_series2 = COLOR_PAIR(PAIR_SERIES2);
	attr_mark = COLOR_PAIR(PAIR_MARK) | A_BOLD;
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
		 * holds the unit; a capped sum's ">=" stays in front, or
		 * its end would pass for a measure. */
		bool mark = width > 2 && (!strncmp(s, ">=", 2) || !strncmp(s, "<=", 2));

		if (mark)
			mvaddnstr(y, x, s, 2);
		mvaddstr(y, x + 2 * mark, s + (w - width) + 2 * mark);
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
	int first_scrolled;	/* index in col[] of the first column that
				   scrolls (the ones up to the name stay) */
	const int *sc;		/* the columns that scroll, in screen order */
	size_t nr_sc;
	int order[MAX_COLS];	/* what sc points into */
	int flex[8], nr_flex;	/* flexible text columns: share what is left */
	bool more_left;		/* columns scrolled off at the left */
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

/* The name as the screen shows it: escaped, and short when asked. */
static const char *shown_name(const struct ui *ui, const char *name)
{
	if (ui->short_names)
		name = shortnames_get(ui->short_names, name);
	return name;
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
		s = screen_text(ui, shown_name(ui, pane_row_name(pane, pane_row(pane, i))));
		w = (int)u8_width(s, strlen(s));
		if (pane_is_tree(pane))
			w += 2 * pane_row_depth(pane, i) + 2;
		if (w > best)
			best = w;
	}
	for (size_t f = 0; f < pane->nr_foot; f++) {
		const char *s = pane_row_name(pane, pane->foot[f]);
		int w = (int)u8_width(s, strlen(s));

		if (w > best)
			best = w;
	}
	return best;
}

/*
 * Place the scrolled columns SC[FROM..NR) in at most ROOM cells: into L
 * from its column NR on.  A flexible text column (width 0) takes 10
 * cells here and a share of what is left later (L->flex).  Returns the
 * cells used; *ALL says whether every column fitted.  SQUEEZE: the last
 * number may do with one cell less (the marker wants it).
 */
static int place(const struct ui *ui, const struct pane *pane, const int *sc, size_t nr,
		 size_t from, int room, int cols, struct layout *L, bool *all, bool squeeze)
{
	int used = 0;

	*all = true;
	for (size_t i = from; i < nr && L->nr < MAX_COLS; i++) {
		const struct column *col = &pane->cols[sc[i]];
		bool is_flex = col->kind == COL_TEXT && col->width == 0;
		int w = is_flex ? 10 : fixed_width(ui, col, cols);

		if (used + w > room) {
			/* The last number may give up the blank it keeps on
			 * its left (fixed_width()) to the marker. */
			bool is_num = col->kind != COL_TEXT && col->kind != COL_BAR;

			*all = false;
			if (!squeeze || !is_num || used + w - 1 > room)
				break;
			w--;
			squeeze = false;
		}
		if (is_flex && L->nr_flex < (int)ARRAY_SIZE(L->flex))
			L->flex[L->nr_flex++] = L->nr;
		L->col[L->nr] = sc[i];
		L->w[L->nr++] = w;
		used += w + 1;
		if (!*all)
			break;
	}
	return used;
}

/*
 * Columns across the screen.  The columns up to the name stay put; the
 * others scroll (h and l: pane->hscroll of them are hidden at the left).
 * The name's width is settled on the unscrolled screen, so it stays as
 * it is while the others scroll: up to 40% of the width (20 cells at
 * least) before the numbers get theirs -- more on a wide screen, where
 * the numbers fit anyway -- then whatever the numbers leave, up to the
 * widest name.
 */
static void layout(const struct ui *ui, struct pane *pane, int cols, struct layout *L)
{
	int *order = L->order, nc = -1, name_w = 0, natural = 0, fixed = 0, nums = 0;
	size_t n, p = 0, nr_sc;
	const int *sc;
	bool all;

	memset(L, 0, sizeof(*L));
	n = columns_order(&ui->cols[pane->ops->id], pane, order, MAX_COLS);
	for (size_t i = 0; i < n && nc < 0; i++)
		if (pane->cols[order[i]].kind == COL_NAME)
			nc = order[i], p = i;
	/* Columns up to the name stay put; the ones after it scroll. */
	for (size_t i = 0; nc >= 0 && i < p; i++) {
		L->col[L->nr] = order[i];
		L->w[L->nr++] = fixed_width(ui, &pane->cols[order[i]], cols);
		fixed += L->w[L->nr - 1] + 1;
	}
	sc = nc >= 0 ? order + p + 1 : order;
	nr_sc = nc >= 0 ? n - p - 1 : n;
	L->sc = sc;
	L->nr_sc = nr_sc;
	if (pane->hscroll >= nr_sc)
		pane->hscroll = nr_sc ? nr_sc - 1 : 0;
	if (nc >= 0) {
		int avail = cols - fixed, want = avail * 2 / 5, left;
		struct layout probe = *L;

		/* Every other column at its least width comes first: a long
		 * name (the Overview's recommendations) must not push the
		 * values off an 80-column screen.  A flexible text column
		 * (Info's value, the help's meaning) counts half the width:
		 * its text matters more than the label beside it. */
		for (size_t i = 0; i < nr_sc; i++) {
			const struct column *c = &pane->cols[sc[i]];
			int least = fixed_width(ui, c, cols);

			if (c->kind == COL_TEXT && c->width == 0 && least < avail / 2)
				least = avail / 2;
			nums += least + 1;
		}
		if (want < avail - nums)
			want = avail - nums;
		if (want < 20)
			want = 20;
		natural = natural_name_width(ui, pane, nc);
		name_w = natural < want ? natural : want;
		/* What the unscrolled columns leave goes to the name, up to
		 * its widest (a third of it when a flexible column -- Info's
		 * value, the help's meaning -- wants it: that text matters
		 * more than its label). */
		left = avail - (name_w + 1) - place(ui, pane, sc, nr_sc, 0, avail - name_w - 1, cols,
						    &probe, &all, false);
		if (!all)
			left--;		/* the marker's cell */
		{
			int grow = natural - name_w < left ? natural - name_w : left;

			if (probe.nr_flex && grow > left / 3)
				grow = left / 3;
			if (grow > 0)
				name_w += grow;
		}
		L->col[L->nr] = nc;
		L->w[L->nr++] = name_w;
		fixed += name_w + 1;
	}
	L->first_scrolled = L->nr;
	L->more_left = pane->hscroll > 0;
	{
		int room = cols - fixed, used;

		used = place(ui, pane, sc, nr_sc, pane->hscroll, room, cols, L, &all, false);
		if (!all) {
			/* The last cell is the marker's: columns cut off at the
			 * right say so. */
			L->nr = L->first_scrolled;
			L->nr_flex = 0;
			used = place(ui, pane, sc, nr_sc, pane->hscroll, room - 1, cols, L, &all, true);
			L->more_right = true;
			room--;
		}
		/* The flexible columns share what is left, the first (the
		 * value, before its meaning) three fifths of it when there
		 * are several. */
		for (int k = 0; k < L->nr_flex && room - used > 0; k++) {
			int share = k == L->nr_flex - 1 ? room - used
				    : k == 0		 ? (room - used) * 3 / 5
							 : (room - used) / (L->nr_flex - k);

			L->w[L->flex[k]] += share;
			used += share;
		}
	}
	for (int i = 0, x = 0; i < L->nr; i++) {
		L->x[i] = x;
		x += L->w[i] + 1;
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
	size_t n = pane_bar(pane, row, seg, MAX_CATS);

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
	if (!pane_has_bars(pane))
		return;
	for (size_t i = 0; i < pane->nr_rows; i++) {
		int64_t len = bar_length(pane, pane->rows[i]);

		if (len > L->bar_scale)
			L->bar_scale = len;
	}
	L->legend = pane_legend(pane, &L->nr_legend);
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
	n = pane_bar(pane, row, seg, MAX_CATS);
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

	if (pane_is_tree(pane) && i != SIZE_MAX) {
		int depth = pane_row_depth(pane, i), fold = pane_row_fold(pane, i);
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
		const char *shown;
		size_t spans[8][2];
		size_t nr = 0;

		name = shown_name(ui, name);
		shown = screen_text(ui, name);
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

#define MAX_WRAP 64		/* lines a wrapped cell may take */
#define MAX_SPILL_LINES 6	/* lines a spilling cell may wrap onto */

/* The cells the tree's indentation and fold mark take before row I's
 * name (draw_name()). */
static int name_prefix_width(const struct pane *pane, size_t i)
{
	return pane_is_tree(pane) && i != SIZE_MAX ? 2 * pane_row_depth(pane, i) + 2 : 0;
}

static bool cell_is_empty(struct cell v)
{
	return v.type == CELL_NONE || (v.type == CELL_TEXT && !*v.v.s);
}

/*
 * A spilling column's cell (column.spill) at layout index K of ROW: the
 * cells it may take, its own and those of the empty cells right of it
 * (not a bar), in *WIDTH; *LAST the layout index of the last it takes;
 * *LINES the lines it needs: 1, or more when it does not fit and every
 * other cell right of it is text that spills too (a recommendation
 * beside whose rule it is), so it wraps at blanks rather than being cut
 * mid-word; a cell beside a number (a top kernel's name) is cut as any.
 * PREFIX: cells before the text in its column (a tree's indentation).
 */
static void spill_room(const struct ui *ui, const struct pane *pane, const struct layout *L,
		       const void *row, int k, int prefix, int *width, int *last, int *lines)
{
	const struct column *col = &pane->cols[L->col[k]];
	struct cell v = pane_cell(pane, row, (size_t)L->col[k]);
	bool may_wrap = true;
	size_t need, spans[1][2];
	const char *s;

	*width = L->w[k];
	*last = k;
	*lines = 1;
	if (!col->spill || v.type != CELL_TEXT)
		return;
	for (int j = k + 1; j < L->nr; j++) {
		const struct column *c = &pane->cols[L->col[j]];

		if (c->kind == COL_BAR || !cell_is_empty(pane_cell(pane, row, (size_t)L->col[j])))
			break;
		*width = L->x[j] + L->w[j] - L->x[k];
		*last = j;
	}
	for (int j = *last + 1; j < L->nr; j++) {
		const struct column *c = &pane->cols[L->col[j]];
		struct cell w = pane_cell(pane, row, (size_t)L->col[j]);

		if (c->kind != COL_BAR && !cell_is_empty(w) && !(c->spill && w.type == CELL_TEXT))
			may_wrap = false;
	}
	s = screen_text(ui, col->kind == COL_NAME ? shown_name(ui, v.v.s) : v.v.s);
	need = u8_width(s, strlen(s));
	if (!may_wrap || *width - prefix <= 0 || need <= (size_t)(*width - prefix))
		return;
	need = fmt_wrap(s, (size_t)(*width - prefix), spans, 0);
	*lines = need > MAX_SPILL_LINES ? MAX_SPILL_LINES : (int)need;
}

/* Text S wrapped at blanks onto LINES lines of WIDTH cells from (Y, X). */
static void put_lines(const struct ui *ui, const char *s, int y, int x, int width, int lines)
{
	size_t spans[MAX_SPILL_LINES][2], n;
	char *text = xstrdup(s);

	n = fmt_wrap(text, (size_t)width, spans, MAX_SPILL_LINES);
	for (size_t j = 0; j < n && j < (size_t)lines; j++) {
		/* The last line shown takes what is left, cut. */
		size_t end = j + 1 == (size_t)lines && n > (size_t)lines ? strlen(text)
									   : spans[j][1];
		char save = text[end];

		text[end] = '\0';
		put_cut(ui, y + (int)j, x, text + spans[j][0], width, false);
		text[end] = save;
	}
	free(text);
}

/* The lines ROW takes: 1, or more where a wrapping column needs them. */
static int row_height(const struct ui *ui, const struct pane *pane, const struct layout *L,
		      size_t i)
{
	const void *row = pane_row(pane, i);
	size_t spans[1][2];
	int h = 1;

	for (int k = 0; k < L->nr; k++) {
		const struct column *col = &pane->cols[L->col[k]];
		struct cell v;
		size_t n;

		if (col->spill) {
			int width, last, lines;

			spill_room(ui, pane, L, row, k,
				   col->kind == COL_NAME ? name_prefix_width(pane, i) : 0, &width,
				   &last, &lines);
			if (lines > h)
				h = lines;
			continue;
		}
		if (!col->wrap)
			continue;
		v = pane_cell(pane, row, (size_t)L->col[k]);
		if (v.type != CELL_TEXT)
			continue;
		n = fmt_wrap(screen_text(ui, v.v.s), (size_t)L->w[k], spans, 0);
		if ((int)n > h)
			h = n > MAX_WRAP ? MAX_WRAP : (int)n;
	}
	return h;
}

static bool has_wrap(const struct pane *pane, const struct layout *L)
{
	for (int k = 0; k < L->nr; k++)
		if (pane->cols[L->col[k]].wrap || pane->cols[L->col[k]].spill)
			return true;
	return false;
}

/* Draw ROW on LINES lines from Y (its wrapped cells on all of them, the
 * others on the first). */
static void draw_row(const struct ui *ui, const struct pane *pane, const struct layout *L,
		     const void *row, size_t i, int y, int lines, bool selected, bool is_foot)
{
	char buf[256];

	if (selected)
		attron(A_REVERSE);
	if (is_foot)
		attron(attr_foot);
	for (int j = 0; j < lines; j++) {
		move(y + j, 0);
		for (int x = 0; x < COLS; x++)
			addch(' ');
	}
	for (int k = 0; k < L->nr; k++) {
		const struct column *col = &pane->cols[L->col[k]];
		struct cell v;
		int room = L->w[k], last = k, need = 1;

		if (col->kind == COL_BAR) {
			if (pane_has_bars(pane))
				draw_bar(ui, pane, L, row, y, L->x[k], L->w[k]);
			if (selected)
				attron(A_REVERSE);
			continue;
		}
		v = pane_cell(pane, row, (size_t)L->col[k]);
		if (col->spill && !is_foot) {
			/* Over the empty cells right of it, which are not
			 * drawn (their blanks would cover it). */
			int pre = col->kind == COL_NAME ? name_prefix_width(pane, i) : 0;

			spill_room(ui, pane, L, row, k, pre, &room, &last, &need);
			if (need > lines)
				need = lines;
			if (need > 1) {
				if (col->kind == COL_NAME)
					draw_name(ui, pane, i, "", y, L->x[k], room, selected);
				if (selected)
					attron(A_REVERSE);
				put_lines(ui, screen_text(ui, col->kind == COL_NAME
								 ? shown_name(ui, v.v.s) : v.v.s),
					  y, L->x[k] + pre, room - pre, need);
				k = last;
				continue;
			}
		}
		if (col->kind == COL_NAME) {
			draw_name(ui, pane, is_foot ? SIZE_MAX : i, v.type == CELL_TEXT ? v.v.s : "",
				  y, L->x[k], room, selected);
			if (selected)
				attron(A_REVERSE);
			k = last;
			continue;
		}
		if (v.type == CELL_TEXT && col->wrap && lines > 1) {
			size_t spans[MAX_WRAP][2], n;
			char *text = xstrdup(screen_text(ui, v.v.s));

			n = fmt_wrap(text, (size_t)L->w[k], spans, MAX_WRAP);
			for (size_t j = 0; j < n && j < (size_t)lines; j++) {
				char save = text[spans[j][1]];

				text[spans[j][1]] = '\0';
				put_cut(ui, y + (int)j, L->x[k], text + spans[j][0], L->w[k], false);
				text[spans[j][1]] = save;
			}
			free(text);
			continue;
		}
		if (v.type == CELL_TEXT) {
			put_cut(ui, y, L->x[k], screen_text(ui, v.v.s), room, false);
			k = last;
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
	/* Columns hidden on either side: a marker where they are. */
	if (L->more_left && L->first_scrolled > 0)
		mvaddstr(y, L->x[L->first_scrolled] - 1, ui_glyph(ui, "\xe2\x80\xb9", "<"));
	if (L->more_right)
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

/* Whether PANE shows figures that the Timeline's range, when set, does
 * not narrow (the whole profile, or step): its title says so, so that
 * its numbers are never read as the range's.  Views of a row, menus,
 * the help and the file's Info have no such figures of their own. */
static bool ignores_range(const struct pane *pane)
{
	switch (pane->ops->id) {
	case PANE_DETAIL:
	case PANE_HELP:
	case PANE_COLUMNS:
	case PANE_SORT_BY:
	case PANE_INFO:
		return false;
	default:
		return !pane->scope.has_range;
	}
}

static void draw_title(const struct ui *ui, const struct pane *pane)
{
	char left[4096], right[512], path[2048], *raw = ui_path(ui);
	size_t n = 0;
	int rw;

	/* Cut to the screen's width below: never longer than a line. */
	fmt_escape(raw, strlen(raw), !ui->utf8, path, sizeof(path));
	free(raw);
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
	if (ui->has_range && n < sizeof(right)) {
		char a[32], b[32];

		tlview_fmt_time(ui->range_start_ns - ui->range_origin_ns, a, sizeof(a));
		tlview_fmt_time(ui->range_end_ns - ui->range_origin_ns, b, sizeof(b));
		n += (size_t)snprintf(right + n, sizeof(right) - n, "range %s%s%s%s  ", a,
				      ui_glyph(ui, "\xe2\x80\x93", "-"), b,
				      ignores_range(pane) ? " ignored here" : "");
	}
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

		if (lw > avail && (int)u8_width(path, strlen(path)) + head > avail) {
			/* A deep drill path: it keeps its start (the pane it
			 * began in) and its end (where it is), and loses the
			 * middle. */
			char first[512];
			const char *sep = ui_glyph(ui, " \xe2\x80\xba ", " > ");
			const char *title = ui->stack[ui->tab][0]->title, *tail;
			size_t fl = fmt_escape(title, strlen(title), !ui->utf8, first, sizeof(first));
			int budget, pw;

			if (strncmp(path, first, fl) || strncmp(path + fl, sep, strlen(sep)))
				fl = 0;		/* not the path of a stack: cut its end */
			tail = fl ? path + fl + strlen(sep) : path;
			budget = avail - head - 1;
			if (fl)
				budget -= (int)u8_width(first, fl) + (int)u8_width(sep, strlen(sep));
			pw = (int)u8_width(tail, strlen(tail));
			while (*tail && pw > budget) {
				uint32_t cp;
				size_t len = u8_decode(tail, strlen(tail), &cp);

				pw -= u8_cp_width(cp);
				tail += len;
			}
			if (budget >= 8)
				snprintf(left, sizeof(left), " proftui %s %.*s%s%s%s",
					 ui_glyph(ui, "\xc2\xb7", "-"), (int)fl, first, fl ? sep : "",
					 ui_glyph(ui, "\xe2\x80\xa6", "~"), tail);
		}
		put_cut(ui, 0, 0, left, avail, false);
		mvaddstr(0, COLS - rw, right);
	}
	attroff(attr_title);
}

/* The key that shows tab T (ui->pane_key: "" when none is bound). */
static const char *tab_key(const struct ui *ui, int t)
{
	return ui->pane_key[ui->tab_ops[t]->id];
}

/* Tab T's label in form FORM: 0 " 1 Title ", 1 " 1 Title", 2 " 1 Titl"
 * (the inactive ones, when the full labels do not fit); 1 is its key. */
static void tab_label(const struct ui *ui, int t, int form, char *buf, size_t size)
{
	const char *title = pane_title(ui->tab_ops[t]);
	const char *key = tab_key(ui, t);

	if (form == 2 && t != ui->tab)
		snprintf(buf, size, " %s%s%.4s", key, *key ? " " : "", title);
	else
		snprintf(buf, size, form ? " %s%s%s" : " %s%s%s ", key, *key ? " " : "", title);
}

static void draw_tabs(struct ui *ui)
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
	ui->map.nr_tabs = 0;
	for (int t = 0; t < ui->nr_tabs && x < COLS; t++) {
		char label[64];
		bool active = t == ui->tab;

		ui->map.tab_x[ui->map.nr_tabs++] = x;
		tab_label(ui, t, form, label, sizeof(label));
		if (active)
			attron(attr_tab);
		x += put_cut(ui, 1, x, label, COLS - x, false);
		if (active)
			attroff(attr_tab);
		if (x < COLS && !form)
			mvaddch(1, x++, ' ');
		ui->map.tab_x[ui->map.nr_tabs] = x;
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
	} else if (pane->nr_capped) {
		/* Before the pane's own words: a capped sum is not a measure. */
		snprintf(right, sizeof(right), " %" PRIu64 " sums capped at 73 years (>=) ",
			 pane->nr_capped);
	} else if (!pane_status(pane, right, sizeof(right)) && L && L->nr_legend) {
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
		else
			pane_empty_text(pane, why, sizeof(why));
		put_cut(ui, y, lw, screen_text(ui, why), COLS - lw - 1, false);
	}
}

/* The keys of a few actions, as the bar's hint: "? help  / filter ...",
 * for PANE (its keymap section, its own hint list or the generic one
 * where it applies) into BUF; then the pane's more_hints, each only
 * where it fits whole in WIDTH cells. */
static void make_hint(const struct keymap *km, const struct pane *pane, char *buf, size_t size,
		      int width)
{
	enum action acts[32];
	size_t nr = pane_hint_actions(pane, acts, ARRAY_SIZE(acts)), n = 0, nr_main = nr;
	const enum action *more = pane->ops->text ? pane->ops->text->more_hints : NULL;

	for (size_t i = 0; more && more[i] != ACT_NONE && nr < ARRAY_SIZE(acts); i++)
		acts[nr++] = more[i];
	buf[0] = '\0';
	for (size_t i = 0; i < nr && n < size; i++) {
		char keys[128], *best, *k;
		enum action a = acts[i];
		size_t m;

		if (!keymap_keys_of(km, KS_PANE(pane->ops->id), a, keys, sizeof(keys)))
			continue;
		/* The shortest of its keys: "q" rather than "<BS>". */
		best = keys;
		for (k = strtok(keys, " "); k; k = strtok(NULL, " "))
			if (strlen(k) < strlen(best))
				best = k;
		m = (size_t)snprintf(buf + n, size - n, "%s%s %s", n ? "  " : " ", best,
				     action_hint_word(a));
		if (i >= nr_main && (m >= size - n || (int)u8_width(buf, n + m) > width)) {
			buf[n] = '\0';	/* an extra that would be cut */
			break;
		}
		n += m;
	}
}

static void draw_bar_line(struct ui *ui, const struct pane *pane, int y)
{
	move(y, 0);
	clrtoeol();
	if (ui->mode == MODE_FILTER || ui->mode == MODE_SEARCH || ui->mode == MODE_EXPORT) {
		const char *label = ui->mode == MODE_FILTER   ? "filter: "
				    : ui->mode == MODE_SEARCH ? "search: "
							      : "export to: ";
		int lw = (int)strlen(label), cur;
		char note[300] = "";

		/* PCRE2's complaint (quoting a name from the file), else a key
		 * that did not fit. */
		if ((ui->mode == MODE_FILTER || ui->mode == MODE_SEARCH) && ui->edit_error[0])
			snprintf(note, sizeof(note), "%s", ui->edit_error);
		else if (ui->edit_full)
			snprintf(note, sizeof(note), "the line holds %d bytes at most",
				 LINEEDIT_MAX - 1);

		attron(A_BOLD);
		mvaddstr(y, 0, label);
		attroff(A_BOLD);
		put_cut(ui, y, lw, screen_text(ui, ui->edit.text), COLS - lw - 1, false);
		if (note[0]) {
			int x = lw + (int)u8_width(ui->edit.text, ui->edit.len) + 2;

			/* A long text: the note over its end, not off screen. */
			if (x >= COLS - 10)
				x = COLS / 2;
			attron(attr_error);
			put_cut(ui, y, x, screen_text(ui, note), COLS - x, false);
			attroff(attr_error);
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
	{
		char hint[512];

		make_hint(&ui->km, pane, hint, sizeof(hint), COLS - 1);
		attron(A_DIM);
		put_cut(ui, y, 0, hint, COLS - 1, false);
		attroff(A_DIM);
	}
}

/* The name the canvas writes for a profile's name: short when asked. */
static const char *canvas_name(const char *name, const void *ctx)
{
	return shown_name(ctx, name);
}

static attr_t canvas_attr(const struct ui *ui, uint8_t a)
{
	switch (a) {
	case CA_DIM:
	case CA_AXIS:
		return A_DIM;
	case CA_SERIES1:
		return attr_series1;
	case CA_SERIES2:
		return attr_series2;
	case CA_MARK:
		return attr_mark;
	case CA_CURSOR:
		return A_REVERSE;
	case CA_BOLD:
	case CA_LABEL:
	case CA_TITLE:
		return A_BOLD;
	case CA_HEADER:
		return attr_header;
	case CA_SELECTED:
		return A_REVERSE | A_BOLD;
	case CA_MATCH:
		return attr_match;
	case CA_PLAIN:
		return A_NORMAL;
	default:
		if (a >= CA_BLOCK && a < CA_BLOCK + CA_NR_BLOCKS && ui->color)
			return COLOR_PAIR(PAIR_BAR0 + (a - CA_BLOCK));
		return A_NORMAL;
	}
}

/* Copy canvas C to the screen from row Y0. */
static void paint_canvas(const struct ui *ui, const struct canvas *c, int y0)
{
	for (int y = 0; y < c->rows; y++) {
		move(y0 + y, 0);
		clrtoeol();
		for (int x = 0; x < c->cols; x++) {
			const struct canvas_cell *cell = canvas_at((struct canvas *)c, y, x);
			attr_t a = canvas_attr(ui, cell->attr);

			if (!cell->ch[0])
				continue;	/* the right half of a wide character */
			attron(a);
			mvaddstr(y0 + y, x, cell->ch);
			attroff(a);
		}
	}
}

/* A picture pane: the canvas between the tabs and the status line. */
static void draw_canvas(struct ui *ui, struct pane *pane, int y0, int rows)
{
	struct canvas *c = &ui->canvas;

	canvas_reset(c, rows, COLS);
	c->ascii = !ui->utf8;
	c->name_of = canvas_name;
	c->name_ctx = ui;
	pane_paint(pane, c);
	paint_canvas(ui, c, y0);
	ui->map.is_canvas = true;
	ui->map.header_y = -1;
	ui->map.list_y = y0;
	ui->map.nr_lines = rows;
}

/* S over at most MAX lines from (Y, X), WIDTH cells each, broken at
 * blanks; what the last line cannot hold is cut with the ellipsis.
 * Returns the lines used. */
static int put_wrapped(const struct ui *ui, int y, int x, const char *s, int width, int max)
{
	enum { NR_WRAPPED = 16 };
	size_t span[NR_WRAPPED][2], n;
	char buf[1024];

	if (width <= 0 || max <= 0)
		return 0;
	if (max > NR_WRAPPED)
		max = NR_WRAPPED;
	n = fmt_wrap(s, (size_t)width, span, (size_t)max);
	for (size_t i = 0; i < n && i < (size_t)max; i++) {
		/* The last line that fits takes the rest, cut. */
		size_t end = i + 1 == (size_t)max && n > (size_t)max ? strlen(s) : span[i][1];
		size_t len = end - span[i][0];

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, s + span[i][0], len);
		buf[len] = '\0';
		put_cut(ui, y + (int)i, x, buf, width, false);
	}
	return n < (size_t)max ? (int)n : max;
}

/* Where an empty pane says where the data is: the tabs that have rows. */
static void draw_empty(const struct ui *ui, const struct pane *pane, int y, int rows)
{
	char why[512] = "no rows here", where[512];
	size_t n = 0;
	int used;

	if (rows < 1)
		return;
	if (pane->filter)
		snprintf(why, sizeof(why), "no row matches the filter (Esc clears it)");
	else
		pane_empty_text(pane, why, sizeof(why));
	used = put_wrapped(ui, y, 2, screen_text(ui, why), COLS - 3, rows);
	if (pane->filter || rows < used + 2)
		return;
	where[0] = '\0';
	for (int t = 0; t < ui->nr_tabs && n < sizeof(where); t++) {
		const char *key = tab_key(ui, t);

		/* A tab not open yet is left out until it is: the UI
		 * opens them while idle, and draws again after each. */
		if (!ui->depth[t] || ui->stack[t][0] == pane || !ui->stack[t][0]->nr_rows)
			continue;
		n += (size_t)snprintf(where + n, sizeof(where) - n, "%s%s%s%s%s", n ? ", " : "",
				      pane_title(ui->tab_ops[t]), *key ? " (" : "", key,
				      *key ? ")" : "");
	}
	if (where[0]) {
		char line[640];

		snprintf(line, sizeof(line), "this profile's data is in: %s", where);
		put_wrapped(ui, y + used + 1, 2, line, COLS - 3, rows - used - 1);
	}
}

void draw_screen(struct ui *ui)
{
	struct pane *pane = ui_pane(ui);
	struct layout L;
	int list_top = 3, list_rows, foot_rows, y, chart_rows = 0, room, want;
	bool wrap;

	erase();
	memset(&ui->map, 0, sizeof(ui->map));
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		const char *msg = "terminal too small";

		mvaddstr(LINES / 2, COLS > 18 ? (COLS - 18) / 2 : 0, msg);
		if (LINES > 1 && COLS >= 14)
			mvprintw(LINES / 2 + 1, (COLS - 14) / 2, "(need %dx%d)", MIN_COLS, MIN_LINES);
		curs_set(0);
		refresh();
		return;
	}
	/* A drawing above the table takes up to half of what the table
	 * would have, and leaves the table 5 rows at least. */
	room = LINES - list_top - 2 - 6;
	want = (LINES - list_top - 2) / 2;
	if (want > room)
		want = room;
	if (want >= 3)
		chart_rows = (int)pane_chart(pane, COLS, want, ui->utf8, &ui->canvas);
	list_top += chart_rows;
	foot_rows = (int)pane->nr_foot;
	list_rows = LINES - list_top - 2 - foot_rows;
	if (list_rows < 1) {
		foot_rows = 0;
		list_rows = LINES - list_top - 2;
	}
	ui->list_rows = list_rows;
	if (pane->cursor >= pane->nr_view)
		pane->cursor = pane->nr_view ? pane->nr_view - 1 : 0;
	if (pane_is_picture(pane)) {
		draw_title(ui, pane);
		draw_tabs(ui);
		draw_canvas(ui, pane, 2, LINES - 4);
		ui->more_left = ui->more_right = false;
		draw_status(ui, pane, NULL, LINES - 2);
		draw_bar_line(ui, pane, LINES - 1);
		refresh();
		return;
	}

	layout(ui, pane, COLS, &L);
	if (ui->reveal_sort && pane->sort_col >= 0) {
		/* Scroll until the sort column shows (a hidden one cannot). */
		size_t k = 0;

		while (k < L.nr_sc && L.sc[k] != pane->sort_col)
			k++;
		for (int tries = 0; k < L.nr_sc && tries < (int)L.nr_sc; tries++) {
			bool shown = false;

			for (int i = 0; i < L.nr; i++)
				shown |= L.col[i] == pane->sort_col;
			if (shown)
				break;
			pane->hscroll = pane->hscroll > k ? k : pane->hscroll + 1;
			layout(ui, pane, COLS, &L);
		}
		ui->reveal_sort = false;
	}
	ui->more_left = L.more_left;
	ui->more_right = L.more_right;

	/* Keep the cursor's row on screen, all of its lines. */
	wrap = has_wrap(pane, &L);
	if (pane->cursor < pane->top)
		pane->top = pane->cursor;
	if (!wrap) {
		if (pane->cursor >= pane->top + (size_t)list_rows)
			pane->top = pane->cursor - (size_t)list_rows + 1;
		if (pane->top + (size_t)list_rows > pane->nr_view)
			pane->top = pane->nr_view > (size_t)list_rows ? pane->nr_view - (size_t)list_rows
								      : 0;
	} else if (pane->nr_view) {
		int used = 0;

		for (size_t i = pane->cursor + 1; i-- > pane->top;) {
			used += row_height(ui, pane, &L, i);
			if (used > list_rows) {
				pane->top = i + 1 <= pane->cursor ? i + 1 : pane->cursor;
				break;
			}
		}
	}

	bar_init(pane, &L);
	draw_title(ui, pane);
	draw_tabs(ui);
	if (chart_rows)
		paint_canvas(ui, &ui->canvas, 2);
	draw_header(ui, pane, &L, list_top - 1);
	ui->map.header_y = list_top - 1;
	ui->map.list_y = list_top;
	ui->map.nr_lines = list_rows;
	ui->map.nr_cols = L.nr;
	for (int k = 0; k < L.nr; k++) {
		ui->map.col[k] = L.col[k];
		ui->map.col_x[k] = L.x[k];
		ui->map.col_w[k] = L.w[k];
	}
	for (int k = 0; k < MAX_LINES; k++)
		ui->map.row_at[k] = SIZE_MAX;
	y = 0;
	for (size_t i = pane->top; i < pane->nr_view && y < list_rows; i++) {
		const void *row = pane_row(pane, i);
		int h = wrap ? row_height(ui, pane, &L, i) : 1;

		if (h > list_rows - y)
			h = list_rows - y;
		draw_row(ui, pane, &L, row, i, list_top + y, h, i == pane->cursor, false);
		for (int j = 0; j < h; j++)
			if (y + j < MAX_LINES)
				ui->map.row_at[y + j] = i;
		y += h;
	}
	if (!pane->nr_view)
		draw_empty(ui, pane, list_top + 1, list_rows - 1);
	for (int f = 0; f < foot_rows; f++)
		draw_row(ui, pane, &L, pane->foot[f], SIZE_MAX, list_top + list_rows + f, 1, false,
			 true);
	draw_status(ui, pane, &L, LINES - 2);
	draw_bar_line(ui, pane, LINES - 1);
	refresh();
}

void draw_bar_now(struct ui *ui)
{
	if (COLS < MIN_COLS || LINES < MIN_LINES)
		return;
	draw_bar_line(ui, ui_pane(ui), LINES - 1);
	refresh();
}

/* ---------------------------------------------------------------------
 * The loading screen
 */

void ui_draw_progress(const struct progress_view *pv)
{
	const char *codeset = nl_langinfo(CODESET);
	bool utf8 = codeset && (!strcasecmp(codeset, "UTF-8") || !strcasecmp(codeset, "utf8"));
	struct ui glyphs = { .utf8 = utf8 };
	int y = LINES / 2 - 2, w = COLS - 4 > 50 ? 50 : COLS - 4;
	char line[1200], label[1024];

	erase();
	if (y < 1)
		y = 1;
	fmt_escape(pv->label, strlen(pv->label), !utf8, label, sizeof(label));
	attron(A_REVERSE);
	move(0, 0);
	for (int x = 0; x < COLS; x++)
		addch(' ');
	snprintf(line, sizeof(line), " proftui %s loading %s", utf8 ? "\xc2\xb7" : "-", label);
	put_cut(&glyphs, 0, 0, line, COLS, false);
	attroff(A_REVERSE);
	if (pv->total && w > 2) {
		uint64_t done = pv->done < pv->total ? pv->done : pv->total;
		int fill = (int)((double)done * (w - 2) / (double)pv->total);

		move(y, 2);
		addch('[');
		for (int x = 0; x < w - 2; x++)
			addch(x < fill ? '#' : ' ');
		addch(']');
	}
	if (pv->total || pv->done) {
		fmt_progress(pv->done, pv->total, pv->plain, pv->elapsed_s, line, sizeof(line));
		put_cut(&glyphs, y + 1, 2, line, COLS - 3, false);
	}
	put_cut(&glyphs, y + 3, 2,
		pv->is_done ? "loaded; opening the panes" : "q: stop loading and quit", COLS - 3,
		false);
	if (pv->message) {
		fmt_escape(pv->message, strlen(pv->message), !utf8, label, sizeof(label));
		attron(A_BOLD);
		put_cut(&glyphs, y + 5, 2, label, COLS - 3, false);
		attroff(A_BOLD);
	}
	refresh();
}
