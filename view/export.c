// SPDX-License-Identifier: MIT
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "export.h"
#include "outfile.h"
#include "shortnames.h"
#include "tlview.h"

/* --print --short-names: the names written short. */
static const struct shortnames *short_names;

void export_set_short_names(const struct shortnames *sn)
{
	short_names = sn;
}

/* --width: the cells a txt or md line may take (0: no limit), and the
 * mark that ends a name cut to fit. */
static size_t line_width;
static const char *cut_mark = "\xe2\x80\xa6";

void export_set_width(size_t width, bool ascii)
{
	line_width = width;
	cut_mark = ascii ? "..." : "\xe2\x80\xa6";
}

/* Cell COL of ROW, with a name short when asked. */
static struct cell cell_of(const struct pane *pane, const void *row, size_t col)
{
	struct cell v = pane_cell(pane, row, col);

	if (short_names && v.type == CELL_TEXT && pane->cols[col].kind == COL_NAME)
		v.v.s = shortnames_get(short_names, v.v.s);
	return v;
}

static const char *const format_names[] = { "txt", "csv", "tsv", "json", "md" };

bool export_format_parse(const char *name, enum export_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (!strcasecmp(name, format_names[i])) {
			*out = (enum export_format)i;
			return true;
		}
	}
	if (!strcasecmp(name, "text")) {
		*out = EXPORT_TXT;
		return true;
	}
	if (!strcasecmp(name, "markdown")) {
		*out = EXPORT_MD;
		return true;
	}
	return false;
}

enum export_format export_format_of_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash : path, '.');
	enum export_format f;

	if (dot && export_format_parse(dot + 1, &f))
		return f;
	return EXPORT_TXT;
}

bool export_path_format(const char *path, enum export_format *fmt, char *err, size_t err_size)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');

	*fmt = EXPORT_TXT;
	/* No extension (or a dot file's name): plain text. */
	if (!dot || dot == base || !dot[1])
		return true;
	if (export_format_parse(dot + 1, fmt))
		return true;
	snprintf(err, err_size, "unknown extension '%s' (known: .txt .csv .tsv .json .md)", dot);
	return false;
}

const char *export_expand_home(const char *path, char *buf, size_t size)
{
	const char *home = getenv("HOME");

	if (path[0] != '~' || (path[1] && path[1] != '/') || !home || !*home)
		return path;
	snprintf(buf, size, "%s%s", home, path + 1);
	return buf;
}

const char *export_format_name(enum export_format f)
{
	return format_names[f];
}

char *export_caption(const struct pane *pane, const char *label, size_t limit)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;

	strbuf_addf(&raw, "%s of %s", pane->title, label);
	if (pane->sort_col >= 0)
		strbuf_addf(&raw, ", sorted by %s (%s)", pane->cols[pane->sort_col].title,
			    pane->sort_desc ? "descending" : "ascending");
	if (pane->filter)
		strbuf_addf(&raw, ", filter '%s'", filter_pattern(pane->filter));
	if (pane->scope.step)
		strbuf_addf(&raw, ", step %s", pane->scope.step->name);
	/* The Range pane says its range in its title. */
	if (pane->scope.has_range && (pane->ops->flags & PANE_FOLLOWS_RANGE) &&
	    pane->ops->id != PANE_RANGE) {
		char a[32], b[32];

		tlview_fmt_time(pane->scope.range_start_ns - pane->scope.range_origin_ns, a, sizeof(a));
		tlview_fmt_time(pane->scope.range_end_ns - pane->scope.range_origin_ns, b, sizeof(b));
		strbuf_addf(&raw, ", range %s - %s", a, b);
	}
	if (limit && limit < pane->nr_view)
		strbuf_addf(&raw, ": the first %zu of %zu rows (of %zu)", limit, pane->nr_view,
			    pane->nr_rows);
	else
		strbuf_addf(&raw, ": %zu of %zu rows", pane->nr_view, pane->nr_rows);
	/* File names, the drill name, the step's name and the pattern all
	 * come from outside: the caption is shown escaped as a whole, and
	 * whole, however long the names. */
	escape_add(&out, raw.s, raw.len);
	strbuf_release(&raw);
	return out.s;
}

/* S escaped for a reader (controls as \xNN): S itself when nothing needs
 * it, else ESC's buffer.  *WIDTH (unless NULL) gets its width in cells:
 * text that needs no escape is printable ASCII, a cell a byte, so a
 * tree of millions of names is not measured twice over. */
static const char *shown_wl(const char *s, struct strbuf *esc, size_t *width, size_t *len_out)
{
	size_t len = strlen(s);

	if (!escape_needed(s, len)) {
		if (width)
			*width = len;
		*len_out = len;
		return s;
	}
	strbuf_reset(esc);
	escape_add(esc, s, len);
	if (width)
		*width = u8_width(esc->s, esc->len);
	*len_out = esc->len;
	return esc->s;
}

static const char *shown(const char *s, struct strbuf *esc)
{
	size_t len;

	return shown_wl(s, esc, NULL, &len);
}

/*
 * Texts already measured, by address: a tree of millions of rows names a
 * few hundred ops and kernels, and a name is scanned once, not per row.
 * Only texts that need no escape are kept (their width is their length).
 * An address stands for its text for one export: the panes' cell getters
 * only read, and nothing is freed while a table is written.
 *
 * Reals already formatted, by value: a kernel's blocks per SM and
 * occupancy take a dozen values over a million rows, and snprintf() of
 * a double is the dearest call in a line.  A value's text depends only
 * on it, the column's kind and the style, which the slot keeps.
 */
#define TEXT_MEMO_SLOTS 1024
#define REAL_MEMO_SLOTS 256

struct text_memo {
	const char *s;
	size_t len;
};

struct real_memo {
	uint64_t bits;
	uint8_t kind, style, len;	/* len 0: a free slot */
	char s[32];
};

struct cell_memo {
	struct text_memo text[TEXT_MEMO_SLOTS];
	struct real_memo real[REAL_MEMO_SLOTS];
};

static struct text_memo *memo_slot(struct cell_memo *memo, const char *s)
{
	return &memo->text[hash_ptr(s) & (TEXT_MEMO_SLOTS - 1)];
}

/* Real D of a KIND column formatted in style ST, into RAW; through MEMO
 * when not NULL. */
static void real_text(struct cell_memo *memo, enum col_kind kind, struct cell v, enum fmt_style st,
		      struct strbuf *raw)
{
	struct real_memo *m = NULL;
	uint64_t bits;

	strbuf_reset(raw);
	strbuf_grow(raw, 64);
	if (memo) {
		memcpy(&bits, &v.v.d, sizeof(bits));
		m = &memo->real[((bits * 0x9e3779b97f4a7c15u) >> 56 ^ kind) & (REAL_MEMO_SLOTS - 1)];
		if (m->len && m->bits == bits && m->kind == kind && m->style == st) {
			memcpy(raw->s, m->s, m->len + 1);
			raw->len = m->len;
			return;
		}
	}
	raw->len = fmt_cell(kind, v, st, raw->s, raw->cap);
	if (m && raw->len && raw->len < sizeof(m->s)) {
		*m = (struct real_memo){ .bits = bits, .kind = (uint8_t)kind, .style = (uint8_t)st,
					 .len = (uint8_t)raw->len };
		memcpy(m->s, raw->s, raw->len + 1);
	}
}

/* Text S escaped for a reader, its width in cells and length in bytes
 * (shown_wl()); MEMO, when not NULL, remembers plain texts. */
static const char *text_shown(const char *s, struct strbuf *esc, struct cell_memo *memo,
			      size_t *width, size_t *len)
{
	struct text_memo *m = memo ? memo_slot(memo, s) : NULL;
	const char *t;

	if (m && m->s == s) {
		if (width)
			*width = m->len;
		*len = m->len;
		return m->s;
	}
	t = shown_wl(s, esc, width, len);
	if (m && t == s)
		*m = (struct text_memo){ t, *len };
	return t;
}

/* The cell's text, escaped for a reader (controls as \xNN); *WIDTH
 * (unless NULL) its width in cells, *LEN its length in bytes.  MEMO, when
 * not NULL, remembers plain texts. */
static const char *cell_str_wl(const struct pane *pane, const void *row, size_t col,
			       enum fmt_style st, struct strbuf *raw, struct strbuf *esc,
			       struct cell_memo *memo, size_t *width, size_t *len)
{
	struct cell v = cell_of(pane, row, col);

	if (v.type == CELL_NONE) {
		if (width)
			*width = 0;
		*len = 0;
		return "";	/* as fmt_cell() writes it */
	}
	/* Names can be megabytes long: the buffers grow to them. */
	if (v.type == CELL_TEXT)
		return text_shown(v.v.s, esc, memo, width, len);
	if (v.type == CELL_REAL) {
		real_text(memo, pane->cols[col].kind, v, st, raw);
	} else {
		strbuf_reset(raw);
		strbuf_grow(raw, 64);
		raw->len = fmt_cell(pane->cols[col].kind, v, st, raw->s, raw->cap);
	}
	if (width)
		*width = raw->len;	/* a number: ASCII, one column a byte */
	*len = raw->len;
	return raw->s;
}

/* The cell's width in cells, as cell_str_wl() would make it in FMT_HUMAN,
 * but a number is measured, not written: the widths pass of a tree of
 * millions of rows formats nothing. */
static size_t cell_width(const struct pane *pane, const void *row, size_t col, struct strbuf *raw,
			 struct strbuf *esc, struct cell_memo *memo)
{
	struct cell v = cell_of(pane, row, col);
	size_t width, len;

	if (v.type == CELL_NONE)
		return 0;
	if (v.type == CELL_TEXT) {
		text_shown(v.v.s, esc, memo, &width, &len);
		return width;
	}
	if (v.type == CELL_REAL) {
		real_text(memo, pane->cols[col].kind, v, FMT_HUMAN, raw);
		return raw->len;
	}
	return fmt_cell_length(pane->cols[col].kind, v, FMT_HUMAN);
}

static const char *cell_str(const struct pane *pane, const void *row, size_t col, enum fmt_style st,
			    struct strbuf *raw, struct strbuf *esc)
{
	size_t len;

	return cell_str_wl(pane, row, col, st, raw, esc, NULL, NULL, &len);
}

/* A hidden column is in an export only when the pane was opened with
 * every column (pane_add_column() then clears the flag). */
static bool exported(const struct column *c)
{
	return c->kind != COL_BAR && !c->hidden;
}

static bool left_aligned(const struct column *c)
{
	return c->kind == COL_NAME || c->kind == COL_TEXT;
}

/* The tree's indentation and fold mark before a name, for text forms. */
static size_t tree_prefix(const struct pane *pane, size_t i, char *buf, size_t size)
{
	int depth = pane_row_depth(pane, i), fold = pane_row_fold(pane, i);
	size_t n = 0;

	if (!pane_is_tree(pane))
		return 0;
	for (int d = 0; d < depth && n + 3 < size; d++) {
		buf[n++] = ' ';
		buf[n++] = ' ';
	}
	if (n + 3 < size) {
		buf[n++] = fold == 2 ? '+' : fold == 1 ? '-' : ' ';
		buf[n++] = ' ';
	}
	buf[n] = '\0';
	return n;
}

/* Text in a Markdown table cell: a '|' would end the cell. */
static void md_text(struct strbuf *line, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			strbuf_addch(line, '\\');
		strbuf_addch(line, *s);
	}
}

static void add_blanks(struct strbuf *line, size_t n)
{
	if (!n)
		return;
	strbuf_grow(line, n);
	memset(line->s + line->len, ' ', n);
	line->len += n;
	line->s[line->len] = '\0';
}

/* S (LEN bytes, W cells wide) in WIDTH cells, right- or left-aligned. */
static void add_padded(struct strbuf *line, const char *s, size_t len, size_t w, size_t width,
		       bool left)
{
	if (!left && w < width)
		add_blanks(line, width - w);
	strbuf_add(line, s, len);
	if (left && w < width)
		add_blanks(line, width - w);
}

/*
 * Lines gather in one buffer, written when it holds OUT_CHUNK bytes: a
 * tree of millions of rows goes out in large writes that stdio passes
 * straight to the file, not copied through its buffer a line at a time.
 */
#define OUT_CHUNK (256 * 1024)

struct txt_out {
	struct strbuf buf;
	size_t line_start;	/* where the line being made starts in buf */
	FILE *out;
};

/* The lines gathered so far, to OUT. */
static void write_lines(struct txt_out *o, FILE *out)
{
	if (o->buf.len)		/* an empty buffer may not be allocated yet */
		fwrite(o->buf.s, 1, o->buf.len, out);
	strbuf_reset(&o->buf);
	o->line_start = 0;
}

/* End the line: no blanks at its end (an empty last cell leaves none). */
static void end_line(struct txt_out *o)
{
	struct strbuf *line = &o->buf;

	while (line->len > o->line_start && line->s[line->len - 1] == ' ')
		line->len--;
	strbuf_addch(line, '\n');
	o->line_start = line->len;
	if (o->out && line->len >= OUT_CHUNK)
		write_lines(o, o->out);
}

/* Whether ROW has no attributes, so that its attribute columns
 * (column.of_attrs) are empty without asking their getters: most rows of
 * a trace's tree have none, and each getter is a call and a list walk. */
static bool has_no_attrs(const struct pane *pane, const void *row)
{
	return pane_has_attrs(pane) && !pane_row_attrs(pane, row);
}

/* Rows to write: view rows 0..nr-1, then (FOOT) the summary rows. */
static const void *nth_row(const struct pane *pane, size_t i, size_t nr)
{
	return i < nr ? pane_row(pane, i) : pane->foot[i - nr];
}

/* A rule of dashes under the header (and above the summary rows). */
static void add_rule(struct strbuf *line, const struct pane *pane, const size_t *width, bool md)
{
	bool first = true;

	for (size_t c = 0; c < pane->nr_cols; c++) {
		if (!exported(&pane->cols[c]))
			continue;
		if (md) {
			strbuf_addstr(line, left_aligned(&pane->cols[c]) ? "|---" : "|--:");
			continue;
		}
		if (!first)
			strbuf_addstr(line, "  ");
		first = false;
		strbuf_grow(line, width[c]);
		memset(line->s + line->len, '-', width[c]);
		line->len += width[c];
		line->s[line->len] = '\0';
	}
	if (md)
		strbuf_addch(line, '|');
}

/*
 * A table of many rows is made on two threads.  The cell getters and the
 * formatters only read the pane, so two threads can format rows at once:
 * each measures half the rows for the widths, then they make the lines
 * in batches, the main thread the even batches and a helper the odd
 * ones, and the main thread writes each batch in turn, so the output is
 * the same bytes as from one thread.  The helper hands its batches over
 * through two slots, so that it makes the next while the main thread
 * writes the last (make_batches()).
 */
#define BATCH_ROWS 4096

/* Rows of one batch for this table, 0 for one thread: the table is small
 * or there is one CPU.  PROFTUI_EXPORT_BATCH=N forces batches of N rows
 * (tests; 0 for one thread). */
static size_t batch_rows(size_t total)
{
	const char *env = getenv("PROFTUI_EXPORT_BATCH");

	if (env && *env) {
		long v = atol(env);

		return v > 0 ? (size_t)v : 0;
	}
	if (total < 4 * BATCH_ROWS || !two_cpus())
		return 0;
	return BATCH_ROWS;
}

/* One thread's share of the rows: what it reads and its own buffers. */
struct rows_job {
	const struct pane *pane;
	size_t nr;		/* view rows; the summary rows come after */
	bool md;
	size_t from, to;	/* its rows, of nr + the summary rows */
	const size_t *width;	/* the columns' widths (txt) */
	size_t *widest;		/* what the job measured */
	size_t name_max;	/* md: the name's cells, prefix and all (0: any) */
	struct strbuf raw, esc, cut;
	struct cell_memo *memo;
	struct txt_out o;	/* o.out is NULL: the lines stay in o.buf */
};

/*
 * Rows ahead of the one being formatted are fetched early: a sorted view
 * of a tree visits nodes in no memory order, and each row's slot in
 * pane->rows, its node and its attribute list would otherwise be a cache
 * miss in turn.  Each is asked for when the one before it has had time
 * to arrive: the slot SLOT_AHEAD rows early, the node ROW_AHEAD, its
 * attributes ATTRS_AHEAD, and a kernel's launch (its first attribute,
 * read by two columns) LAUNCH_AHEAD.
 */
#define SLOT_AHEAD 24
#define ROW_AHEAD 12
#define ATTRS_AHEAD 4
#define LAUNCH_AHEAD 2

static void fetch_ahead(const struct pane *pane, size_t i, size_t to, size_t nr)
{
	const void *row;

	if (i + SLOT_AHEAD < to && i + SLOT_AHEAD < nr)
		PREFETCH(&pane->rows[pane->view[i + SLOT_AHEAD]]);
	if (i + ROW_AHEAD < to && i + ROW_AHEAD < nr) {
		row = pane_row(pane, i + ROW_AHEAD);
		PREFETCH(row);
		PREFETCH((const char *)row + 64);
	}
	if (!pane_has_attrs(pane))
		return;
	if (i + ATTRS_AHEAD < to && i + ATTRS_AHEAD < nr)
		PREFETCH(pane_row_attrs(pane, pane_row(pane, i + ATTRS_AHEAD)));
	if (i + LAUNCH_AHEAD < to && i + LAUNCH_AHEAD < nr) {
		const struct attr *a = pane_row_attrs(pane, pane_row(pane, i + LAUNCH_AHEAD));

		if (a && attr_type(a) == ATTR_LAUNCH)
			PREFETCH(a->v.launch);
	}
}

/* Each column's widest cell in the job's rows (the tree's indentation
 * counted in the name). */
static void *measure_rows(void *arg)
{
	struct rows_job *j = arg;
	const struct pane *pane = j->pane;
	char prefix[512];

	for (size_t i = j->from; i < j->to; i++) {
		const void *row = nth_row(pane, i, j->nr);
		size_t pre = i < j->nr ? tree_prefix(pane, i, prefix, sizeof(prefix)) : 0;

		bool bare = has_no_attrs(pane, row);

		fetch_ahead(pane, i, j->to, j->nr);
		for (size_t c = 0; c < pane->nr_cols; c++) {
			size_t w;

			if (!exported(&pane->cols[c]) || (bare && pane->cols[c].of_attrs))
				continue;
			w = cell_width(pane, row, c, &j->raw, &j->esc, j->memo);
			w += pane->cols[c].kind == COL_NAME ? pre : 0;
			if (w > j->widest[c])
				j->widest[c] = w;
		}
	}
	return NULL;
}

/* A name that does not fit in the line (--width): its longest
 * start that leaves room for the cut mark, and the mark, in CUT, at most
 * WIDTH cells (but never shorter than the mark and a character: a name
 * deep in a tree keeps that much).  *W and *LEN become the result's
 * width and length.  S (LEN bytes, *W cells) is escaped text already:
 * an escape counts as the cells it takes. */
static const char *cut_name(const char *s, size_t len, size_t *w, size_t *len_out,
			    size_t width, struct strbuf *cut)
{
	size_t mark = u8_width(cut_mark, strlen(cut_mark)), used, keep;

	if (*w <= width)
		return s;
	if (width < mark + 1)
		width = mark + 1;
	if (*w <= width)
		return s;
	keep = u8_fit(s, len, width - mark, &used);
	strbuf_reset(cut);
	strbuf_add(cut, s, keep);
	strbuf_addstr(cut, cut_mark);
	*w = used + mark;
	*len_out = cut->len;
	return cut->s;
}

/* One row of the table into the job's lines: txt cells padded to the
 * widths (md: none), the name after the tree's indentation PREFIX.  The
 * blanks of txt padding are written only when text follows them: a line
 * ends without blanks, and empty cells at its end cost nothing. */
static void add_row(struct rows_job *j, const void *row, const char *prefix)
{
	const struct pane *pane = j->pane;
	struct strbuf *line = &j->o.buf;
	size_t blanks = 0;	/* owed before the next text */
	bool first = true, bare = has_no_attrs(pane, row);

	for (size_t c = 0; c < pane->nr_cols; c++) {
		const struct column *col = &pane->cols[c];
		const char *s = "";
		size_t w = 0, len = 0, width;

		if (!exported(col))
			continue;
		if (!bare || !col->of_attrs)
			s = cell_str_wl(pane, row, c, FMT_HUMAN, &j->raw, &j->esc, j->memo, &w,
					&len);
		if (j->md) {
			strbuf_addstr(line, "| ");
			if (col->kind == COL_NAME) {
				size_t pre = strlen(prefix);

				strbuf_addstr(line, prefix);
				if (j->name_max)
					s = cut_name(s, len, &w, &len,
						     j->name_max > pre ? j->name_max - pre : 0,
						     &j->cut);
			}
			md_text(line, s);
			strbuf_addch(line, ' ');
			continue;
		}
		if (!first)
			blanks += 2;
		first = false;
		width = j->width[c];
		if (col->kind == COL_NAME && *prefix) {
			size_t pre = strlen(prefix);	/* blanks and a fold mark: ASCII */

			add_blanks(line, blanks);
			blanks = 0;
			strbuf_add(line, prefix, pre);
			width = width > pre ? width - pre : 0;
		}
		if (col->kind == COL_NAME && line_width && w > width)
			s = cut_name(s, len, &w, &len, width, &j->cut);
		if (!left_aligned(col) && w < width)
			blanks += width - w;
		if (len) {
			add_blanks(line, blanks);
			blanks = 0;
			strbuf_add(line, s, len);
		}
		if (left_aligned(col) && w < width)
			blanks += width - w;
	}
	if (j->md)
		strbuf_addch(line, '|');
}

/* The lines of the job's rows, into its buffer. */
static void *make_lines(void *arg)
{
	struct rows_job *j = arg;
	const struct pane *pane = j->pane;
	char prefix[512];

	for (size_t i = j->from; i < j->to; i++) {
		if (i == j->nr && !j->md) {
			/* The summary rows under a rule of their own. */
			add_rule(&j->o.buf, pane, j->width, false);
			end_line(&j->o);
		}
		if (i >= j->nr || !tree_prefix(pane, i, prefix, sizeof(prefix)))
			prefix[0] = '\0';
		fetch_ahead(pane, i, j->to, j->nr);
		add_row(j, nth_row(pane, i, j->nr), prefix);
		end_line(&j->o);
	}
	return NULL;
}

/*
 * The odd batches, from the helper to the main thread: two slots, each
 * free (the main thread has written it) or ready (the helper has filled
 * it), used in turn.
 */
struct batch_slots {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct strbuf buf[2];
	bool ready[2];
	struct rows_job *job;	/* the helper's */
	size_t batch, total;	/* rows a batch; rows in all */
};

/* The rows of batch B. */
static void batch_range(const struct batch_slots *bs, size_t b, size_t *from, size_t *to)
{
	*from = b * bs->batch;
	*to = bs->total - *from > bs->batch ? *from + bs->batch : bs->total;
}

static void *make_odd_batches(void *arg)
{
	struct batch_slots *bs = arg;
	struct rows_job *j = bs->job;
	int k = 0;

	for (size_t b = 1; b * bs->batch < bs->total; b += 2, k ^= 1) {
		pthread_mutex_lock(&bs->lock);
		while (bs->ready[k])
			pthread_cond_wait(&bs->changed, &bs->lock);
		pthread_mutex_unlock(&bs->lock);
		batch_range(bs, b, &j->from, &j->to);
		make_lines(j);
		pthread_mutex_lock(&bs->lock);
		{
			struct strbuf made = j->o.buf;

			j->o.buf = bs->buf[k];	/* written out: empty */
			j->o.line_start = 0;
			bs->buf[k] = made;
		}
		bs->ready[k] = true;
		pthread_cond_broadcast(&bs->changed);
		pthread_mutex_unlock(&bs->lock);
	}
	return NULL;
}

/*
 * Every batch of TOTAL rows, written to OUT in order: the main thread
 * makes and writes the even ones and writes the odd ones the helper
 * made (each job's o.line_start is 0 between batches: its buffer ends
 * with a whole line).  One thread makes all when no helper starts.
 */
static void make_batches(struct rows_job job[2], size_t batch, size_t total, FILE *out)
{
	struct batch_slots bs = { .job = &job[1], .batch = batch, .total = total,
				  .buf = { STRBUF_INIT, STRBUF_INIT } };
	pthread_t helper;
	bool started;
	int k = 0;

	pthread_mutex_init(&bs.lock, NULL);
	pthread_cond_init(&bs.changed, NULL);
	/* This thread's batches go out as their lines fill OUT_CHUNK, since
	 * all before them is written by then: its buffer stays in cache
	 * rather than megabytes of lines going to memory and back. */
	job[0].o.out = out;
	started = batch < total && !pthread_create(&helper, NULL, make_odd_batches, &bs);
	for (size_t b = 0; b * batch < total; b++) {
		struct txt_out o = { .out = out };

		if (b % 2 == 0 || !started) {
			batch_range(&bs, b, &job[0].from, &job[0].to);
			make_lines(&job[0]);
			write_lines(&job[0].o, out);
			continue;
		}
		pthread_mutex_lock(&bs.lock);
		while (!bs.ready[k])
			pthread_cond_wait(&bs.changed, &bs.lock);
		pthread_mutex_unlock(&bs.lock);
		o.buf = bs.buf[k];
		write_lines(&o, out);
		pthread_mutex_lock(&bs.lock);
		bs.buf[k] = o.buf;
		bs.ready[k] = false;
		pthread_cond_broadcast(&bs.changed);
		pthread_mutex_unlock(&bs.lock);
		k ^= 1;
	}
	if (started)
		pthread_join(helper, NULL);
	pthread_cond_destroy(&bs.changed);
	pthread_mutex_destroy(&bs.lock);
	strbuf_release(&bs.buf[0]);
	strbuf_release(&bs.buf[1]);
}

static void job_release(struct rows_job *j)
{
	free(j->memo);
	free(j->widest);
	strbuf_release(&j->raw);
	strbuf_release(&j->esc);
	strbuf_release(&j->cut);
	strbuf_release(&j->o.buf);
}

/* Each column's width in txt: its widest cell, at least its title. */
static size_t *txt_widths(struct rows_job *job, size_t total, bool two, struct strbuf *esc)
{
	const struct pane *pane = job[0].pane;
	size_t *width = xcalloc(pane->nr_cols ? pane->nr_cols : 1, sizeof(*width));

	for (size_t c = 0; c < pane->nr_cols; c++) {
		const char *t = shown(pane->cols[c].title, esc);

		width[c] = u8_width(t, strlen(t));
	}
	for (int k = 0; k < 2; k++)
		job[k].widest = xcalloc(pane->nr_cols ? pane->nr_cols : 1, sizeof(size_t));
	job[0].from = 0;
	job[0].to = job[1].from = two ? total / 2 : total;
	job[1].to = total;
	if (two)
		run_pair(measure_rows, &job[0], &job[1]);
	else
		measure_rows(&job[0]);
	for (size_t c = 0; c < pane->nr_cols; c++)
		for (int k = 0; k < 2; k++)
			if (job[k].widest[c] > width[c])
				width[c] = job[k].widest[c];
	return width;
}

/* The exported name column (COL_NAME), or -1 when the pane has none. */
static int name_column(const struct pane *pane)
{
	for (size_t c = 0; c < pane->nr_cols; c++)
		if (exported(&pane->cols[c]) && pane->cols[c].kind == COL_NAME)
			return (int)c;
	return -1;
}

/*
 * --width: the name column narrowed so that a line takes at most
 * line_width cells, txt (WIDTH the columns' widths, two blanks between)
 * or md ("| cell " each, "|" at the end; returns the cells a name may
 * take there, tree prefix and all).  The name keeps NAME_MIN cells at
 * least: a table whose numbers alone pass the width is wider than it.
 * Numbers are never cut.  Returns 0 when nothing is cut.
 */
#define NAME_MIN 16
static size_t fit_name(const struct pane *pane, size_t *width, bool md)
{
	int name = name_column(pane);
	size_t others = md ? 1 : 0, cols = 0, room;

	if (!line_width || name < 0)
		return 0;
	for (size_t c = 0; c < pane->nr_cols; c++) {
		if (!exported(&pane->cols[c]))
			continue;
		cols++;
		if ((int)c != name)
			others += width[c] + (md ? 3 : 0);
	}
	others += md ? 3 : 2 * (cols - 1);
	room = line_width > others + NAME_MIN ? line_width - others : NAME_MIN;
	if (width[name] <= room)
		return 0;
	width[name] = room;
	return room;
}

static long export_txt(const struct pane *pane, FILE *out, size_t nr, const char *caption, bool md)
{
	struct strbuf esc = STRBUF_INIT;
	struct txt_out o = { .buf = STRBUF_INIT, .out = out };
	struct strbuf *line = &o.buf;
	size_t total = nr + pane->nr_foot, batch = batch_rows(total);
	struct rows_job job[2];
	size_t *width = NULL;
	bool first = true;

	for (int k = 0; k < 2; k++)
		job[k] = (struct rows_job){ .pane = pane, .nr = nr, .md = md, .raw = STRBUF_INIT,
					    .esc = STRBUF_INIT, .cut = STRBUF_INIT,
					    .o.buf = STRBUF_INIT,
					    .memo = xcalloc(1, sizeof(struct cell_memo)) };
	if (!md || line_width)
		width = txt_widths(job, total, batch != 0, &esc);
	if (width)
		job[0].name_max = job[1].name_max = fit_name(pane, width, md);
	if (caption)
		fprintf(out, md ? "%s\n\n" : "# %s\n", shown(caption, &esc));
	/* Header and rule. */
	for (size_t c = 0; c < pane->nr_cols; c++) {
		const struct column *col = &pane->cols[c];

		if (!exported(col))
			continue;
		if (md) {
			strbuf_addstr(line, "| ");
			md_text(line, shown(col->title, &esc));
			strbuf_addch(line, ' ');
		} else {
			size_t w, len;
			const char *t = shown_wl(col->title, &esc, &w, &len);

			if (!first)
				strbuf_addstr(line, "  ");
			if (col->kind == COL_NAME && w > width[c])
				t = cut_name(t, len, &w, &len, width[c], &job[0].cut);
			add_padded(line, t, len, w, width[c], left_aligned(col));
		}
		first = false;
	}
	if (md)
		strbuf_addch(line, '|');
	end_line(&o);
	add_rule(line, pane, width, md);
	end_line(&o);
	write_lines(&o, out);

	job[0].width = job[1].width = width;
	if (!batch) {
		job[0].o.out = out;	/* one thread: lines go out as they fill */
		job[0].from = 0;
		job[0].to = total;
		make_lines(&job[0]);
		write_lines(&job[0].o, out);
	}
	if (batch)
		make_batches(job, batch, total, out);
	free(width);
	for (int k = 0; k < 2; k++)
		job_release(&job[k]);
	strbuf_release(&esc);
	strbuf_release(line);
	return (long)nr;
}

/* Whether S is a plain decimal number ("-3.5", "1e-3", "+7"): a
 * spreadsheet reads it as that number, and it must stay as it is. */
static bool is_number(const char *s)
{
	bool digits = false;

	if (*s == '-' || *s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits = true;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits = true;
	if (digits && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return digits && !*s;
}

/*
 * One CSV or TSV field.  Text a spreadsheet would run as a formula -- a
 * cell starting with '=', '+', '-', '@', a tab or a CR (OWASP's list for
 * CSV injection) -- gets a "'" in front, which spreadsheets take as "this
 * is text" and do not show; a number such as "-3.5" stays a number.
 * IS_TEXT is false for the numbers we format ourselves.
 */
static void csv_field(FILE *out, const char *s, bool tsv, bool is_text)
{
	bool defuse = is_text && strchr("=+-@\t\r", *s) && *s && !is_number(s);

	if (tsv) {
		/* Tabs and newlines arrive escaped already (\x09). */
		if (defuse)
			fputc('\'', out);
		fputs(s, out);
		return;
	}
	if (!strpbrk(s, ",\"\r\n")) {
		if (defuse)
			fputc('\'', out);
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (defuse)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* One CSV/TSV line: the header (ROW is NULL) or view row I. */
static void csv_line(const struct pane *pane, FILE *out, const void *row, size_t i, bool tsv,
		     struct strbuf *raw, struct strbuf *esc)
{
	char key[128];
	bool first = true;

	if (pane_is_tree(pane)) {
		if (row)
			fprintf(out, "%d", pane_row_depth(pane, i));
		else
			fputs("depth", out);
		first = false;
	}
	for (size_t c = 0; c < pane->nr_cols; c++) {
		if (!exported(&pane->cols[c]))
			continue;
		if (!first)
			fputc(tsv ? '\t' : ',', out);
		first = false;
		if (row)
			csv_field(out, cell_str(pane, row, c, FMT_RAW, raw, esc), tsv,
				  cell_of(pane, row, c).type == CELL_TEXT);
		else
			csv_field(out, shown(column_json_key(&pane->cols[c], key, sizeof(key)), esc),
				  tsv, true);
	}
	fputc('\n', out);
}

static long export_csv(const struct pane *pane, FILE *out, size_t nr, bool tsv)
{
	struct strbuf raw = STRBUF_INIT, esc = STRBUF_INIT;

	csv_line(pane, out, NULL, 0, tsv, &raw, &esc);
	for (size_t i = 0; i < nr; i++)
		csv_line(pane, out, pane_row(pane, i), i, tsv, &raw, &esc);
	strbuf_release(&raw);
	strbuf_release(&esc);
	return (long)nr;
}

/* CP as "\\uXXXX", a surrogate pair past the BMP. */
static void json_u_escape(FILE *out, uint32_t cp)
{
	if (cp >= 0x10000) {
		cp -= 0x10000;
		fprintf(out, "\\u%04x\\u%04x", (unsigned)(0xd800 + (cp >> 10)),
			(unsigned)(0xdc00 + (cp & 0x3ff)));
		return;
	}
	fprintf(out, "\\u%04x", (unsigned)cp);
}

/*
 * S as a JSON string: the original text, not the \xNN display form, with
 * everything a terminal could act on or hide written as a JSON escape
 * (controls, DEL, C1 controls, the invisible format characters), so a
 * parser gets the name back exactly and `cat` shows nothing raw.  Bytes
 * that are not UTF-8 cannot be carried by JSON: each becomes U+FFFD.
 */
void export_json_string(FILE *out, const char *s)
{
	size_t len = strlen(s), i = 0;

	fputc('"', out);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp;
		size_t n;

		if (c >= 0x20 && c < 0x7f) {
			if (c == '"' || c == '\\')
				fputc('\\', out);
			fputc(c, out);
			i++;
			continue;
		}
		n = u8_decode(s + i, len - i, &cp);
		if (cp == 0xfffd && n == 1)
			fputs("\\ufffd", out);
		else if (cp < 0xa0 || escape_is_invisible(cp))
			json_u_escape(out, cp);
		else
			fwrite(s + i, 1, n, out);
		i += n;
	}
	fputc('"', out);
}

static long export_json(const struct pane *pane, FILE *out, size_t nr)
{
	struct strbuf raw = STRBUF_INIT, esc = STRBUF_INIT;
	char key[128];

	fputs("[", out);
	for (size_t i = 0; i < nr; i++) {
		const void *row = pane_row(pane, i);
		bool first = true;

		fputs(i ? ",\n  {" : "\n  {", out);
		if (pane_is_tree(pane)) {
			fprintf(out, "\"depth\": %d", pane_row_depth(pane, i));
			first = false;
		}
		for (size_t c = 0; c < pane->nr_cols; c++) {
			const struct column *col = &pane->cols[c];
			struct cell v;

			if (!exported(col))
				continue;
			if (!first)
				fputs(", ", out);
			first = false;
			export_json_string(out, column_json_key(col, key, sizeof(key)));
			fputs(": ", out);
			v = cell_of(pane, row, c);
			if (v.type == CELL_NONE || (v.type == CELL_REAL && !isfinite(v.v.d)))
				fputs("null", out);	/* JSON has no inf */
			else if (v.type == CELL_TEXT)
				export_json_string(out, v.v.s);
			else
				fputs(cell_str(pane, row, c, FMT_RAW, &raw, &esc), out);
		}
		fputs("}", out);
	}
	fputs(nr ? "\n]\n" : "]\n", out);
	strbuf_release(&raw);
	strbuf_release(&esc);
	return (long)nr;
}

long export_pane(const struct pane *pane, FILE *out, enum export_format fmt, size_t limit,
		 const char *caption)
{
	size_t nr = limit && limit < pane->nr_view ? limit : pane->nr_view;
	long rows = -1;

	switch (fmt) {
	case EXPORT_TXT:
		rows = export_txt(pane, out, nr, caption, false);
		break;
	case EXPORT_MD:
		rows = export_txt(pane, out, nr, caption, true);
		break;
	case EXPORT_CSV:
		rows = export_csv(pane, out, nr, false);
		break;
	case EXPORT_TSV:
		rows = export_csv(pane, out, nr, true);
		break;
	case EXPORT_JSON:
		if (!pane_export_own_json(pane, out, nr, &rows))
			rows = export_json(pane, out, nr);
		break;
	}
	if (fflush(out) || ferror(out))
		return -1;
	return rows;
}

/* What export_to_path() hands outfile_write(). */
struct pane_output {
	const struct pane *pane;
	enum export_format fmt;
	size_t limit;
	const char *caption;
};

static long fill_pane(FILE *out, void *ctx)
{
	const struct pane_output *o = ctx;

	return export_pane(o->pane, out, o->fmt, o->limit, o->caption);
}

long export_to_path(const struct pane *pane, const char *path, enum export_format fmt,
		    size_t limit, const char *caption, char *err, size_t err_size)
{
	struct pane_output o = { pane, fmt, limit, caption };

	return outfile_write(path, fill_pane, &o, err, err_size);
}
