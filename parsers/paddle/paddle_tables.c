// SPDX-License-Identifier: MIT
/*
 * PaddlePaddle (paddle.c): the profiler's summary tables -- section
 * titles, column headers, rows cut into cells from the right -- into
 * the runs' call trees, kernels and Info.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../num.h"
#include "../text.h"
#include "paddle_int.h"

/* Info pane section of the summaries that are metadata only. */
static const char *const meta_section[NR_SECTIONS] = {
	[SEC_DEVICE] = "device",
	[SEC_OVERVIEW] = "overview",
	[SEC_MODEL] = "model summary",
	[SEC_DISTRIBUTION] = "distribution",
};

bool paddle_title_of(const char *s, size_t n, char fill, struct field *text)
{
	size_t i = leading_blanks(s, n), start, end = n;

	start = i;
	while (i < n && s[i] == fill)
		i++;
	if (i - start < 3)
		return false;
	while (end > i && is_blank(s[end - 1]))
		end--;
	start = end;
	while (start > i && s[start - 1] == fill)
		start--;
	if (end - start < 3)
		return false;
	text->len = start - i;
	text->s = text_trim(s + i, &text->len);
	text->col = (size_t)(text->s - s);
	return text->len && text->s[0] != fill && text->s[text->len - 1] != fill;
}

int paddle_section_of(const struct field *f)
{
	static const struct {
		const char *title;
		int sec;
	} titles[] = {
		{ "Device Summary", SEC_DEVICE },
		{ "Overview Summary", SEC_OVERVIEW },
		{ "Model Summary", SEC_MODEL },
		{ "Distribution Summary", SEC_DISTRIBUTION },
		{ "Distributed Summary", SEC_DISTRIBUTION },
		{ "Operator Summary", SEC_OPERATOR },
		{ "Kernel Summary", SEC_KERNEL },
		{ "Memory Manipulation Summary", SEC_MEMCPY },
		{ "UserDefined Summary", SEC_USER },
	};

	for (size_t i = 0; i < ARRAY_SIZE(titles); i++)
		if (text_eq(f->s, f->len, titles[i].title))
			return titles[i].sec;
	/* "Memory Summary - GPU0": one per place. */
	if (text_starts(f->s, f->len, "Memory Summary"))
		return SEC_MEMORY;
	return -1;
}


/* How a column title is matched: whole, by its end, or anywhere in it. */
enum title_match { TITLE_IS, TITLE_ENDS, TITLE_HAS };

/*
 * Column titles as _build_table prints them, in the order they are tried
 * (a composite title also ends in "(%)"); lnav keeps a format's fields as
 * data the same way.  The first column is the name ("" in Overview's
 * second header).
 */
static const struct column_title {
	enum title_match match;
	const char *text;
	enum col_kind kind;
} column_titles[] = {
	{ TITLE_IS, "Calls", COL_CALLS },
	{ TITLE_HAS, " Total / Avg / Max / Min / Ratio", COL_COMPOSITE },	/* "CPU Total / ..." */
	{ TITLE_ENDS, " Time", COL_TIME },		/* "CPU Time", "Total Time" */
	{ TITLE_ENDS, "(%)", COL_PCT },			/* "Ratio (%)", "Utilization (%)" */
	{ TITLE_IS, "FLOPs", COL_FLOPS },
	{ TITLE_ENDS, " Count", COL_COUNT },		/* "Allocation Count" */
	{ TITLE_ENDS, " Size", COL_BYTES },		/* "Increased Size" */
	{ TITLE_IS, "Type", COL_TEXT },
};
static const char *const name_titles[] = { "", "Name", "Event Type", "Device" };

static bool title_matches(const struct column_title *ct, const char *s, size_t n)
{
	switch (ct->match) {
	case TITLE_IS:
		return text_eq(s, n, ct->text);
	case TITLE_ENDS:
		return text_ends(s, n, ct->text);
	default:
		return text_find(s, n, ct->text) != NULL;
	}
}

/* Column C from its title S[0..N) (FIRST: the table's first column);
 * false for a title we do not know, which is read as text. */
static bool classify(const char *s, size_t n, bool first, struct column *c)
{
	copy_field(c->title, sizeof(c->title), s, n);
	c->is_host = text_starts(s, n, "CPU");
	c->kind = COL_TEXT;
	for (size_t i = 0; first && i < ARRAY_SIZE(name_titles); i++) {
		if (text_eq(s, n, name_titles[i])) {
			c->kind = COL_NAME;
			return true;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(column_titles); i++) {
		if (title_matches(&column_titles[i], s, n)) {
			c->kind = column_titles[i].kind;
			return true;
		}
	}
	return false;
}

/*
 * The header row: its cells (runs of text two blanks apart) matched to the
 * separator's spans -- a cell belongs to the span it starts in, or to the
 * span that starts at most two columns after it (hand-indented Markdown
 * copies are off by one).  Returns false when it is not a header we can
 * read: text in no span, two cells in one span, a first column that is not
 * a name (for Overview's second header, which we only guess at, that means
 * "prose").  QUIET: say nothing about unknown columns.
 */
static bool parse_header(struct paddle *pd, const char *s, size_t n, uint64_t lineno, bool quiet)
{
	struct table *t = &pd->t;
	struct field fields[MAX_COLS + 1], cells[MAX_COLS];
	size_t nr = text_split2(s, n, fields, MAX_COLS + 1);
	bool unknown = false;

	if (!nr || nr > t->nr_spans || !t->nr_spans || t->nr_spans > MAX_COLS)
		return false;
	for (size_t c = 0; c < t->nr_spans; c++) {
		cells[c].s = s;
		cells[c].len = 0;
	}
	for (size_t i = 0; i < nr; i++) {
		size_t c, at = fields[i].col;

		for (c = 0; c < t->nr_spans; c++)
			if (at + 2 >= t->spans[c].start && at < t->spans[c].end)
				break;
		if (c == t->nr_spans || cells[c].len)
			return false;
		cells[c] = fields[i];
	}
	t->nr_cols = t->nr_spans;
	t->nr_tokens = 0;
	for (size_t c = 0; c < t->nr_cols; c++) {
		if (!classify(cells[c].s, cells[c].len, c == 0, &t->cols[c]))
			unknown = true;
		if (c == 0 && t->cols[c].kind != COL_NAME)
			return false;
		if (c > 0 && (t->cols[c].kind == COL_NAME || !cells[c].len))
			return false;
		t->nr_tokens += t->cols[c].kind == COL_COMPOSITE ? 9 : c ? 1 : 0;
	}
	if (unknown) {
		struct pos at = { lineno, 1 };

		if (quiet)
			return false;
		diag_warn(pd->d, &at, "columns this parser does not know, read as text",
			  "table '%s' has columns this parser does not know; read as text", t->title);
	}
	return true;
}

static bool has_time_columns(const struct table *t)
{
	for (size_t c = 0; c < t->nr_cols; c++)
		if (t->cols[c].kind == COL_COMPOSITE || t->cols[c].kind == COL_TIME)
			return true;
	return false;
}

static int find_col(const struct table *t, int kind, int host)
{
	for (size_t c = 0; c < t->nr_cols; c++)
		if (t->cols[c].kind == kind && (host < 0 || t->cols[c].is_host == (host != 0)))
			return (int)c;
	return -1;
}

/* Up to WANT blank-separated tokens from the right end of S, stored left
 * to right; *REST gets where the text left of them ends. */
static size_t rtokens(const char *s, size_t n, struct field *out, size_t want, size_t *rest)
{
	size_t end = n, nr = 0;

	while (nr < want) {
		size_t start;

		while (end && is_blank(s[end - 1]))
			end--;
		if (!end)
			break;
		start = end;
		while (start && !is_blank(s[start - 1]))
			start--;
		nr++;
		out[want - nr].s = s + start;
		out[want - nr].len = end - start;
		out[want - nr].col = start;
		end = start;
	}
	while (end && is_blank(s[end - 1]))
		end--;
	*rest = end;
	if (nr < want)
		memmove(out, out + want - nr, nr * sizeof(*out));
	return nr;
}

static bool is_dash(const struct field *f)
{
	return f->len == 1 && f->s[0] == '-';
}

/* A time cell: "-" (absent, -1) or a decimal in the table's unit. */
static bool time_tok(const struct table *t, const struct field *f, int64_t *ns)
{
	if (is_dash(f)) {
		*ns = -1;
		return true;
	}
	return num_scaled(f->s, f->len, t->pow10, ns) && *ns >= 0;
}

/* Parse the cell of column C from TOK (its tokens); the column of the
 * first bad token goes to *BAD. */
static bool parse_cell(const struct table *t, size_t c, const struct field *tok, struct cell *cell,
		       size_t *bad)
{
	const struct column *col = &t->cols[c];
	size_t ntok = col->kind == COL_COMPOSITE ? 9 : 1;

	memset(cell, 0, sizeof(*cell));
	cell->s = tok[0].s;
	cell->col = tok[0].col;
	cell->len = (size_t)(tok[ntok - 1].s + tok[ntok - 1].len - tok[0].s);
	cell->total_ns = cell->avg_ns = cell->max_ns = cell->min_ns = -1;
	*bad = tok[0].col;
	switch (col->kind) {
	case COL_CALLS:
	case COL_COUNT:
	case COL_BYTES:
		if (is_dash(tok))
			return true;
		cell->present = num_int(tok->s, tok->len, &cell->i) &&
				(col->kind == COL_BYTES || cell->i >= 0);
		return cell->present;
	case COL_TIME:
		if (!time_tok(t, tok, &cell->i))
			return false;
		cell->present = cell->i >= 0;
		return true;
	case COL_PCT:
		if (is_dash(tok))
			return true;
		cell->present = num_double(tok->s, tok->len, &cell->d) && cell->d == cell->d;
		return cell->present;
	case COL_FLOPS:
		if (is_dash(tok))
			return true;
		if (num_int(tok->s, tok->len, &cell->i)) {
			cell->is_int = true;
			cell->d = (double)cell->i;
		} else if (!num_double(tok->s, tok->len, &cell->d) &&
			   !num_si(tok->s, tok->len, NULL, &cell->d)) {
			return false;
		}
		cell->present = cell->d == cell->d;
		return cell->present;
	case COL_COMPOSITE: {
		int64_t *v[4] = { &cell->total_ns, &cell->avg_ns, &cell->max_ns, &cell->min_ns };

		for (size_t k = 1; k < 9; k += 2) {
			if (tok[k].len != 1 || tok[k].s[0] != '/') {
				*bad = tok[k].col;
				return false;
			}
		}
		for (size_t k = 0; k < 4; k++) {
			if (!time_tok(t, &tok[2 * k], v[k])) {
				*bad = tok[2 * k].col;
				return false;
			}
		}
		if (!is_dash(&tok[8]) && !num_double(tok[8].s, tok[8].len, &cell->ratio)) {
			*bad = tok[8].col;
			return false;
		}
		cell->has_ratio = !is_dash(&tok[8]) && cell->ratio == cell->ratio;
		cell->present = cell->total_ns >= 0;
		return true;
	}
	default:
		return true;
	}
}

/* Cut LINE into a row; false with *BAD set (a 0-based column) when it does
 * not match the header. */
static bool parse_row(const struct table *t, const char *s, size_t n, struct row *r, size_t *bad)
{
	struct field tok[MAX_TOKENS];
	size_t got, rest, k = 0;

	got = rtokens(s, n, tok, t->nr_tokens, &rest);
	r->indent = leading_blanks(s, n);
	if (got < t->nr_tokens || rest <= r->indent) {
		*bad = got ? tok[0].col : r->indent;
		return false;
	}
	r->name = s + r->indent;
	r->name_len = rest - r->indent;
	for (size_t c = 1; c < t->nr_cols; c++) {
		if (!parse_cell(t, c, tok + k, &r->cells[c], bad))
			return false;
		k += t->cols[c].kind == COL_COMPOSITE ? 9 : 1;
	}
	return true;
}

/* Whether every number of row R is within model/bounds.h's bounds; if
 * not, *BAD gets the first cell that is not. */
static bool row_in_bounds(const struct table *t, const struct row *r, const struct cell **bad)
{
	for (size_t c = 1; c < t->nr_cols; c++) {
		const struct cell *cell = &r->cells[c];
		bool ok = true;

		if (!cell->present)
			continue;
		switch (t->cols[c].kind) {
		case COL_CALLS:
		case COL_COUNT:
			ok = bound_count_ok(cell->i);
			break;
		case COL_BYTES:
			ok = bound_bytes_ok(cell->i);
			break;
		case COL_TIME:
			ok = bound_dur_ok(cell->i);
			break;
		case COL_COMPOSITE:
			/* -1 is a "-" part: in bounds. */
			ok = cell->total_ns <= BOUND_DUR_NS && cell->avg_ns <= BOUND_DUR_NS &&
			     cell->max_ns <= BOUND_DUR_NS && cell->min_ns <= BOUND_DUR_NS;
			break;
		default:
			break;
		}
		if (!ok) {
			*bad = cell;
			return false;
		}
	}
	return true;
}

/*
 * The values of row R that panes show as the file gives them: a Kernel
 * Summary row's Ratio(%) (file_values()) outside 0..100, or not finite,
 * is no share, and FLOPs that are not finite or below 0 are none; each is
 * said, and left unknown rather than shown.  (An inner row's ratio of
 * its parent may pass 100: events of one name nest.)
 */
static void check_shown_values(struct paddle *pd, struct row *r, uint64_t lineno)
{
	const struct table *t = &pd->t;

	for (size_t c = 1; c < t->nr_cols; c++) {
		struct cell *cell = &r->cells[c];
		struct pos at = { lineno, cell->col + 1 };
		int name_len = (int)(r->name_len > 60 ? 60 : r->name_len);
		int len = (int)(cell->len > 60 ? 60 : cell->len);

		if (t->cols[c].kind == COL_COMPOSITE && t->sec == SEC_KERNEL && cell->has_ratio &&
		    !(cell->ratio >= 0 && cell->ratio <= 100)) {
			diag_warn(pd->d, &at, "ratios not from 0 to 100 (left out)",
				  "row '%.*s': ratio in '%.*s' is not a percentage from 0 to 100; "
				  "left out", name_len, r->name, len, cell->s);
			cell->has_ratio = false;
		} else if (t->cols[c].kind == COL_FLOPS && cell->present &&
			   !(isfinite(cell->d) && cell->d >= 0)) {
			diag_warn(pd->d, &at, "FLOPs that are not finite or below 0 (left out)",
				  "row '%.*s': FLOPs '%.*s' are not a finite count from 0; left out",
				  name_len, r->name, len, cell->s);
			cell->present = false;
		}
	}
}

/* Whether a composite cell's Avg is its Total over CALLS, within the
 * rounding of two printed decimals (doc/formats/paddle.md, 'Checks within
 * the file').  A
 * row that fails was most likely cut into the wrong cells. */
static bool avg_agrees(const struct table *t, const struct cell *c, int64_t calls)
{
	double half, err;

	if (c->total_ns < 0 || c->avg_ns < 0 || calls <= 0)
		return true;
	half = 0.005 * pow(10, t->pow10);
	err = fabs((double)c->avg_ns * (double)calls - (double)c->total_ns);
	return err <= half * ((double)calls + 1) * 1.001 + 1;
}

void paddle_end_table(struct paddle *pd, uint64_t lineno, bool closed)
{
	struct table *t = &pd->t;
	struct pos at = { lineno, 1 };

	if (t->state == T_NONE)
		return;
	if (t->has_bad) {
		diag_warn(pd->d, &t->bad_at, "table rows that do not match their header, skipped",
			  "row of '%s' does not match the table's columns; skipped", t->title);
		t->has_bad = false;
	}
	/* Tree kernels are named after the only Kernel Summary row they fit
	 * (link_kernels()) only when none of its rows may be missing. */
	if (t->sec == SEC_KERNEL && (!t->complete || t->nr_gaps))
		pd->cur->kernels_cut = true;
	if (t->state == T_HEADER || t->state == T_HEADSEP || (t->state == T_ROWS && !t->nr_rows))
		diag_warn(pd->d, &at, "tables with a header but no rows",
			  "table '%s' has a header but no rows", t->title);
	else if (t->state == T_ROWS && !closed)
		diag_warn(pd->d, &at, "tables that end without their closing separator",
			  "table '%s' ends without its closing separator line", t->title);
	else if (t->state == T_TOP)
		diag_warn(pd->d, &at, "section titles not followed by a table",
			  "section title '%s' is not followed by a table", t->title);
	pd->cur->mark = pd->cur->p->nr_steps;
	t->state = T_NONE;
}

void paddle_start_table(struct paddle *pd, const struct field *title, int sec, uint64_t lineno)
{
	struct table *t = &pd->t;
	struct profile *p;

	paddle_end_table(pd, lineno, false);
	p = paddle_run_for_section(pd, sec, lineno);
	memset(t, 0, sizeof(*t));
	t->state = T_TOP;
	t->sec = sec;
	t->pow10 = 6;		/* time_unit='ms' is the default */
	t->top = -1;
	copy_field(t->title, sizeof(t->title), title->s, title->len);
	if (!meta_section[sec]) {
		t->group = node_new(p, p->root, NODE_GROUP, title->s, title->len);
		if (sec == SEC_KERNEL && !pd->cur->kernel_summary)
			pd->cur->kernel_summary = t->group;
		t->parent0 = t->group;
	}
	pd->found = true;
}

/* "Time unit: ms" */
static bool unit_line(struct table *t, const char *s, size_t n)
{
	static const struct {
		const char *unit;
		int pow10;
	} units[] = { { "ns", 0 }, { "us", 3 }, { "ms", 6 }, { "s", 9 } };
	size_t i = leading_blanks(s, n);

	if (!text_starts(s + i, n - i, "Time unit:"))
		return false;
	i += 10;
	i += leading_blanks(s + i, n - i);
	for (size_t u = 0; u < ARRAY_SIZE(units); u++) {
		if (text_eq(s + i, n - i, units[u].unit)) {
			t->pow10 = units[u].pow10;
			t->has_unit = true;
			return true;
		}
	}
	return false;
}

/* "CPU total 2670.22 ms (avg 267.02, max 303.87, min 255.38), 100.00%" from
 * a composite cell, the numbers as printed; "-" parts are left out. */
static int composite_text(char *buf, size_t cap, const char *sep, const char *title,
			  const struct cell *cell, const char *unit)
{
	static const char *const part[] = { "total", "avg", "max", "min", "ratio" };
	const char *side = strstr(title, " Total");
	struct field v[5];
	size_t nr = 0, i = 0, used;
	int w;

	/* The cell is "a / b / c / d / e" (parse_cell checked it). */
	while (nr < 5 && i <= cell->len) {
		const char *slash = memchr(cell->s + i, '/', cell->len - i);
		size_t end = slash ? (size_t)(slash - cell->s) : cell->len;

		v[nr].len = end - i;
		v[nr].s = text_trim(cell->s + i, &v[nr].len);
		nr++;
		i = end + 1;
	}
	if (nr != 5 || is_dash(&v[0]))
		return snprintf(buf, cap, "%s%s -", sep, title);
	w = snprintf(buf, cap, "%s%.*s total %.*s %s", sep, (int)(side ? side - title : 0), title,
		     (int)v[0].len, v[0].s, unit);
	used = w > 0 ? (size_t)w : 0;
	for (i = 1; i < 4 && used < cap; i++) {
		if (is_dash(&v[i]))
			continue;
		w = snprintf(buf + used, cap - used, "%s%s %.*s", i == 1 ? " (" : ", ", part[i],
			     (int)v[i].len, v[i].s);
		used += w > 0 ? (size_t)w : 0;
		if (i == 3 && used < cap)
			used += (size_t)snprintf(buf + used, cap - used, ")");
	}
	if (!is_dash(&v[4]) && used < cap)
		used += (size_t)snprintf(buf + used, cap - used, ", %.*s%%", (int)v[4].len, v[4].s);
	return (int)used;
}

/* An Info line for a row of a metadata section: "Calls 10, CPU Time
 * 2670.22 ms, Ratio 100.00%"; the numbers as printed. */
static void meta_row(struct paddle *pd, const struct row *r)
{
	static const char *const units[] = { "ns", "", "", "us", "", "", "ms", "", "", "s" };
	const struct table *t = &pd->t;
	const char *unit = t->pow10 >= 0 && t->pow10 <= 9 ? units[t->pow10] : "";
	char val[1024], *key;
	size_t used = 0;

	val[0] = '\0';
	for (size_t c = 1; c < t->nr_cols && used < sizeof(val); c++) {
		const struct column *col = &t->cols[c];
		const struct cell *cell = &r->cells[c];
		const char *sep = used ? ", " : "";
		size_t tlen = strlen(col->title);
		int w;

		if (col->kind == COL_PCT) {
			/* "Ratio (%)" -> "Ratio 75.23%" */
			while (tlen && col->title[tlen - 1] != '(')
				tlen--;
			while (tlen && (col->title[tlen - 1] == '(' || col->title[tlen - 1] == ' '))
				tlen--;
			w = snprintf(val + used, sizeof(val) - used, "%s%.*s %.*s%s", sep, (int)tlen,
				     col->title, (int)cell->len, cell->s, cell->present ? "%" : "");
		} else if (col->kind == COL_COMPOSITE) {
			w = composite_text(val + used, sizeof(val) - used, sep, col->title, cell, unit);
		} else if (col->kind == COL_TIME) {
			w = snprintf(val + used, sizeof(val) - used, "%s%s %.*s %s", sep, col->title,
				     (int)cell->len, cell->s, unit);
		} else {
			w = snprintf(val + used, sizeof(val) - used, "%s%s %.*s", sep, col->title,
				     (int)cell->len, cell->s);
		}
		used += w > 0 ? (size_t)w : 0;
	}
	key = xstrndup(r->name, r->name_len);
	profile_meta(pd->cur->p, meta_section[t->sec], key, val);
	free(key);
}

/* The Model Summary's rows, kept for the average step. */
static void model_row(struct paddle *pd, const struct row *r, int level)
{
	struct run *run = pd->cur;
	int cpu = find_col(&pd->t, COL_COMPOSITE, 1), calls = find_col(&pd->t, COL_CALLS, -1);

	if (cpu < 0)
		return;
	if (level == 0 && text_eq(r->name, r->name_len, "ProfileStep")) {
		run->has_model = true;
		run->model_step_ns = r->cells[cpu].total_ns;
		run->model_step_calls = calls >= 0 && r->cells[calls].present ? r->cells[calls].i : 0;
	} else if (level > 0 && run->has_model && run->nr_model < MAX_MODEL_CATS) {
		copy_field(run->model_names[run->nr_model], sizeof(run->model_names[0]), r->name,
			   r->name_len);
		run->model_ns[run->nr_model++] = r->cells[cpu].total_ns;
	}
}

/* The node kind of an Operator Summary row at LEVEL. */
static enum node_kind op_row_kind(const struct row *r, int level, bool has_host)
{
	if (level == 0)
		return NODE_OP;
	if (!has_host) {
		/* Device work: no CPU side at all ("- / - / - / - / -"). */
		if (text_eq(r->name, r->name_len, "MEMSET"))
			return NODE_MEMSET;
		if (text_starts(r->name, r->name_len, "MEMCPY"))
			return NODE_MEMCPY;
		return NODE_KERNEL;
	}
	/* "GpuMemcpySync:CPU->GPU": the host call; its MEMCPY_HtoD child is
	 * the copy itself, so this is a runtime call, not device work (else
	 * drill-down would count the copy twice). */
	if (text_find(r->name, r->name_len, "Memcpy"))
		return NODE_RUNTIME;
	return NODE_PHASE;
}

/* The node kind of a row of the table being read. */
static enum node_kind row_kind(const struct table *t, const struct row *r, int level, bool has_host)
{
	switch (t->sec) {
	case SEC_OPERATOR:
		return op_row_kind(r, level, has_host);
	case SEC_KERNEL:
		return NODE_KERNEL;
	case SEC_MEMCPY:
		return NODE_MEMCPY;
	case SEC_USER:
		return NODE_USER;
	default:
		return NODE_GROUP;	/* Memory Summary rows */
	}
}

/* Snake-case attribute key from a column title: "Allocation Size" ->
 * "allocation_size_bytes". */
static void column_key(const struct column *col, char *key, size_t cap)
{
	size_t k = 0;

	for (const char *s = col->title; *s && k + 8 < cap; s++) {
		if (isalnum((unsigned char)*s))
			key[k++] = (char)tolower((unsigned char)*s);
		else if (k && key[k - 1] != '_')
			key[k++] = '_';
	}
	while (k && key[k - 1] == '_')
		k--;
	if (col->kind == COL_BYTES)
		memcpy(key + k, "_bytes", 6), k += 6;
	key[k] = '\0';
}

/* The level a row at LEVEL takes in the tree: under the last row one
 * level up.  A row indented deeper than that hangs under the deepest row
 * there is, said once -- unless lines that are no rows came just before
 * it: then the row it belongs under was left out, and it is skipped (-1),
 * as are the rows after it until one fits the tree again. */
static int row_level(struct paddle *pd, const struct row *r, int level, uint64_t lineno)
{
	struct table *t = &pd->t;
	struct pos at = { lineno, r->indent + 1 };

	if (level > MAX_DEPTH - 1)
		level = MAX_DEPTH - 1;
	if (level <= t->top + 1)
		return level;
	if (t->after_skip) {
		diag_warn(pd->d, &at, "rows whose parent row was left out, skipped",
			  "row '%.*s' is indented under a row that is not in the table; skipped",
			  (int)(r->name_len > 60 ? 60 : r->name_len), r->name);
		return -1;
	}
	diag_warn(pd->d, &at, "rows indented more than one level below the row above",
		  "row '%.*s' is indented more than one level below the row above",
		  (int)(r->name_len > 60 ? 60 : r->name_len), r->name);
	return t->top + 1;
}

/*
 * What the file states of row N beyond its totals, which panes show rather
 * than recompute from rounded cells (profile.h, ATTR_FILE_*): the Avg of a
 * composite cell is its Total over the row's calls on either side.  Of the
 * Ratio(%) cells only the Kernel Summary's has a key's meaning, a kernel's
 * share of all kernel time (profiler_statistic.py: of the sum over the
 * kernel rows; older releases: of ProfileStep's GPU time); the others are
 * shares of their parent row (inner rows), of the sum of the rows in their
 * thread (ops), or of ProfileStep's time, none of which a pane has.
 */
static void file_values(struct paddle *pd, struct node *n, const struct cell *hc,
			const struct cell *dc)
{
	struct profile *p = pd->cur->p;

	if (hc && hc->avg_ns >= 0)
		attr_set_ns(p, node_attr_list(n), ATTR_FILE_HOST_MEAN, hc->avg_ns);
	if (dc && dc->avg_ns >= 0)
		attr_set_ns(p, node_attr_list(n), ATTR_FILE_DEVICE_MEAN, dc->avg_ns);
	if (pd->t.sec == SEC_KERNEL && dc && dc->has_ratio)
		attr_set_double(p, node_attr_list(n), ATTR_FILE_DEVICE_TOTAL_PCT, dc->ratio);
}

/*
 * A row with composite CPU and GPU cells (ops and their phases and
 * kernels, Kernel Summary, memcpy and UserDefined rows): N's calls, times
 * and FLOPs.
 *
 * Self times.  Host: the Total is inclusive and the rows under an op are
 * its phases (infer_meta, compute, node_creation) and memcpy calls, so an
 * op's own host time is its Total minus theirs, clamped at 0 (rounding,
 * and events of the same name nested in each other -- conv2d dygraph has
 * 1140 calls over 570 of its compute -- can make the children add up to
 * more).
 *
 * Device: self = total.  Nothing under an op is another op; every kernel
 * in its subtree was launched by the op itself (by way of its compute
 * phase), which is what device self means for the Operators pane
 * (tb_plugin subtracts only child *ops*).  Subtracting the phases would
 * leave 0 for every op -- RoiAlignGradNode's 239.7 ms would read 0 -- and
 * rank ops by noise.  LEVEL: the row's level in the tree.
 */
static void timed_row(struct paddle *pd, const struct row *r, struct node *n, int level)
{
	const struct table *t = &pd->t;
	struct profile *p = pd->cur->p;
	int cpu = find_col(t, COL_COMPOSITE, 1), gpu = find_col(t, COL_COMPOSITE, 0);
	int calls = find_col(t, COL_CALLS, -1), flops = find_col(t, COL_FLOPS, -1);
	const struct cell *hc = cpu >= 0 && r->cells[cpu].present ? &r->cells[cpu] : NULL;
	const struct cell *dc = gpu >= 0 && r->cells[gpu].present ? &r->cells[gpu] : NULL;
	struct node *parent = node_parent(n);

	if (calls >= 0 && r->cells[calls].present)
		node_set_calls(p, n, (uint64_t)r->cells[calls].i);
	if (hc)
		node_set_host_total(p, n, hc->total_ns);
	if (dc)
		node_set_device_total(p, n, dc->total_ns);
	node_set_host_self(p, n, node_host_total(p, n));
	node_set_device_self(p, n, node_device_total(p, n));
	/* Not across rows left out: the parent read before them may not be
	 * this row's at all. */
	if (parent && parent != t->parent0 && parent->kind != NODE_GROUP &&
	    t->stack_gaps[level - 1] == t->nr_gaps) {
		node_add_host_self(p, parent, -node_host_total(p, n));
		if (node_host_self(p, parent) < 0)
			node_set_host_self(p, parent, 0);
	}
	/* Per-call extremes: the host side's when the row has one (ops,
	 * phases, memcpy calls), else the device side's (kernels). */
	if (hc || dc) {
		node_set_minmax(p, n, (hc ? hc : dc)->min_ns, (hc ? hc : dc)->max_ns);
	}
	if (flops >= 0 && r->cells[flops].present) {
		if (r->cells[flops].is_int)
			attr_set_int(p, node_attr_list(n), "flops", r->cells[flops].i);
		else
			attr_set_double(p, node_attr_list(n), "flops", r->cells[flops].d);
	}
	file_values(pd, n, hc, dc);
}

/* A Memory Summary row: its columns as attributes of N. */
static void memory_row(struct paddle *pd, const struct row *r, struct node *n)
{
	const struct table *t = &pd->t;
	struct profile *p = pd->cur->p;

	for (size_t c = 1; c < t->nr_cols; c++) {
		const struct cell *cell = &r->cells[c];
		char key[64];

		column_key(&t->cols[c], key, sizeof(key));
		if (!*key)
			continue;
		if (t->cols[c].kind == COL_TEXT)
			attr_set_str(p, node_attr_list(n), key, cell->s, cell->len);
		else if (cell->present && (t->cols[c].kind == COL_COUNT || t->cols[c].kind == COL_BYTES))
			attr_set_int(p, node_attr_list(n), key, cell->i);
	}
}

/* A row of a section that becomes nodes: where it hangs, what it is,
 * then its numbers by the shape of its table.  False when it has no place
 * in the tree (row_level()). */
static bool tree_row(struct paddle *pd, const struct row *r, int level, uint64_t lineno)
{
	struct table *t = &pd->t;
	struct profile *p = pd->cur->p;
	int cpu = find_col(t, COL_COMPOSITE, 1);
	bool has_host = cpu >= 0 && r->cells[cpu].present;
	struct node *parent, *n;
	enum node_kind kind;

	level = row_level(pd, r, level, lineno);
	if (level < 0)
		return false;
	parent = level ? t->stack[level - 1] : t->parent0;
	kind = row_kind(t, r, level, has_host);
	n = node_new(p, parent, kind, r->name, r->name_len);
	if (text_ends(r->name, r->name_len, "..."))
		/* A cut name does not identify a kernel: rows that share one
		 * stay separate, as printed. */
		n->flags |= NODE_NAME_TRUNCATED | NODE_DISTINCT;
	if (t->sec == SEC_OPERATOR && kind == NODE_KERNEL) {
		struct run *run = pd->cur;

		n->flags |= NODE_NOT_A_ROW;	/* the Kernel Summary has them */
		GROW(run->tree_kernels, run->alloc_tree_kernels, run->nr_tree_kernels + 1);
		run->tree_kernels[run->nr_tree_kernels++] = (struct tree_kernel){
			n, { lineno, r->indent + 1 }, paddle_half_digit_ns(t->pow10) };
	}
	/* thread_sep=True: one table per thread, where an op can appear under
	 * several.  Merging them by name would add calls and times up but
	 * show one thread's FLOPs (a row's attributes are its first node's),
	 * so they stay rows of their own with a thread column. */
	if (level == 0 && t->thread[0]) {
		n->flags |= NODE_DISTINCT;
		attr_set_str(p, node_attr_list(n), "thread", t->thread, strlen(t->thread));
	}
	timed_row(pd, r, n, level);
	if (t->sec == SEC_MEMORY)
		memory_row(pd, r, n);
	t->stack[level] = n;
	t->stack_gaps[level] = t->nr_gaps;
	t->top = level;
	return true;
}

static void table_row(struct paddle *pd, const struct row *r, uint64_t lineno)
{
	struct table *t = &pd->t;
	size_t rel = r->indent > t->base ? r->indent - t->base : 0;
	int level = (int)(rel / 2 < MAX_DEPTH ? rel / 2 : MAX_DEPTH - 1);
	int calls = find_col(t, COL_CALLS, -1);

	t->nr_rows++;
	for (size_t c = 1; c < t->nr_cols; c++) {
		const struct cell *cell = &r->cells[c];

		if (t->cols[c].kind == COL_COMPOSITE && calls >= 0 &&
		    !avg_agrees(t, cell, r->cells[calls].present ? r->cells[calls].i : 0)) {
			struct pos at = { lineno, cell->col + 1 };

			diag_warn(pd->d, &at, "rows whose average is not total/calls",
				  "'%.*s': average %.*s is not total over %" PRId64 " calls",
				  (int)(r->name_len > 60 ? 60 : r->name_len), r->name, (int)cell->len,
				  cell->s, r->cells[calls].i);
		}
	}
	if (t->sec == SEC_MODEL)
		model_row(pd, r, level);
	if (meta_section[t->sec])
		meta_row(pd, r);
	else if (!tree_row(pd, r, level, lineno))
		return;
	t->after_skip = false;
}

/* Column needs of the sections that become nodes. */
static bool table_usable(const struct table *t)
{
	switch (t->sec) {
	case SEC_OPERATOR:
	case SEC_KERNEL:
	case SEC_MEMCPY:
	case SEC_USER:
		return find_col(t, COL_CALLS, -1) >= 0 && find_col(t, COL_COMPOSITE, -1) >= 0;
	default:
		return true;
	}
}

/* Report the row that did not parse, now that a line follows it. */
static void flush_bad_row(struct paddle *pd)
{
	struct table *t = &pd->t;

	if (!t->has_bad)
		return;
	diag_warn(pd->d, &t->bad_at, "table rows that do not match their header, skipped",
		  "row of '%s' does not match the table's columns; skipped", t->title);
	t->has_bad = false;
}

/* "Peak Allocated Memory: 123456" above a Memory Summary's table: an Info
 * line, keyed by the place ("Peak Allocated Memory (Place(gpu:0))"). */
static bool peak_line(struct paddle *pd, const char *s, size_t n)
{
	const struct table *t = &pd->t;
	size_t i = leading_blanks(s, n);
	const char *colon = memchr(s, ':', n);
	const char *place = text_find(t->title, strlen(t->title), " - ");
	char key[160], val[64];
	struct field k, v;

	if (!text_starts(s + i, n - i, "Peak ") || !colon)
		return false;
	k.len = (size_t)(colon - s);
	k.s = text_trim(s, &k.len);
	v.len = n - (size_t)(colon + 1 - s);
	v.s = text_trim(colon + 1, &v.len);
	snprintf(key, sizeof(key), "%.*s%s%s%s", (int)(k.len > 100 ? 100 : k.len), k.s,
		 place ? " (" : "", place ? place + 3 : "", place ? ")" : "");
	copy_field(val, sizeof(val), v.s, v.len);
	profile_meta(pd->cur->p, "memory", key, val);
	return true;
}

/* After the title: blank lines, "Time unit:", peaks, then the separator
 * over the header (its NR_SPANS dash runs SPANS). */
static bool table_top(struct paddle *pd, const char *s, size_t n, uint64_t lineno, bool blank,
		      const struct span *spans, size_t nr_spans)
{
	struct table *t = &pd->t;

	if (blank || unit_line(t, s, n) || peak_line(pd, s, n))
		return true;
	if (nr_spans >= 2 && nr_spans <= MAX_COLS) {
		memcpy(t->spans, spans, nr_spans * sizeof(*spans));
		t->nr_spans = nr_spans;
		t->base = spans[0].start;
		t->state = T_HEADER;
		return true;
	}
	paddle_end_table(pd, lineno, false);
	return false;
}

/* The header row, which the separator above lines up. */
static bool table_header(struct paddle *pd, const char *s, size_t n, uint64_t lineno, bool blank,
			 size_t nr_spans)
{
	struct table *t = &pd->t;
	struct pos at = { lineno, 1 };

	if (blank)
		return true;
	if (nr_spans || !parse_header(pd, s, n, lineno, false)) {
		diag_warn(pd->d, &at, "table headers that do not parse",
			  "header of table '%s' does not line up with its separator line", t->title);
		t->state = T_NONE;
		return nr_spans != 0;
	}
	if (has_time_columns(t) && !t->has_unit)
		diag_warn(pd->d, &at, "tables without a 'Time unit:' line (ms assumed)",
			  "table '%s' has no 'Time unit:' line; ms assumed", t->title);
	if (t->sec == SEC_KERNEL && t->group == pd->cur->kernel_summary)
		pd->cur->kernel_half_ns = paddle_half_digit_ns(t->pow10);
	t->skip_rows = !table_usable(t);
	if (t->skip_rows)
		diag_warn(pd->d, &at, "tables without the columns they need, skipped",
			  "table '%s' lacks its Calls or Total columns; skipped", t->title);
	t->state = T_HEADSEP;
	return true;
}

/* The separator under the header. */
static bool table_headsep(struct paddle *pd, uint64_t lineno, size_t nr_spans)
{
	struct table *t = &pd->t;
	struct pos at = { lineno, 1 };

	if (nr_spans >= 2) {
		t->state = T_ROWS;
		return true;
	}
	diag_warn(pd->d, &at, "table headers that do not parse",
		  "header of table '%s' is not followed by a separator line", t->title);
	t->state = T_NONE;
	return false;
}

/* "-----Thread: 1234-----" between an Operator Summary's rows: the rows
 * after it go under a group of its own. */
static void thread_title(struct paddle *pd, const struct field *f)
{
	struct table *t = &pd->t;
	struct field id = { f->s + 7, f->len - 7, 0 };

	if (!t->group)
		return;
	t->parent0 = node_new(pd->cur->p, t->group, NODE_GROUP, f->s, f->len);
	t->top = -1;
	id.s = text_trim(id.s, &id.len);
	if (text_eq(id.s, id.len, "All threads merged"))
		t->thread[0] = '\0';
	else
		copy_field(t->thread, sizeof(t->thread), id.s, id.len);
}

/* A line of "..." where a document cut the table short: the rows after it
 * are missing, and so is the table's end. */
static void cut_line(struct paddle *pd, uint64_t lineno, size_t col)
{
	struct table *t = &pd->t;
	struct pos at = { lineno, col + 1 };

	diag_warn(pd->d, &at, "tables cut short with '...'",
		  "table '%s' is cut short here ('...'); rows after it are missing", t->title);
	if (t->sec == SEC_KERNEL)
		pd->cur->kernels_cut = true;
	t->state = T_NONE;
	pd->cur->mark = pd->cur->p->nr_steps;
}

/* A line among the rows that is left out: rows are missing there, and
 * rows indented deeper than it hang under the last good row above it. */
static void row_gap(struct table *t, const char *s, size_t n)
{
	size_t rel = leading_blanks(s, n);
	int level;

	t->after_skip = true;
	t->nr_gaps++;
	rel = rel > t->base ? rel - t->base : 0;
	level = (int)(rel / 2 < MAX_DEPTH ? rel / 2 : MAX_DEPTH - 1);
	if (t->top >= level)
		t->top = level - 1;
}

/* A line inside the table that is no row of it: reported once the next
 * line shows it was not the file's last (flush_bad_row()). */
static void bad_row(struct paddle *pd, const char *s, size_t n, uint64_t lineno, size_t col)
{
	struct table *t = &pd->t;

	t->has_bad = true;
	t->bad_at.line = lineno;
	t->bad_at.col = col + 1;
	row_gap(t, s, n);
}

/* A row with a number beyond bounds: garbage, said and skipped as a gap,
 * never clamped into the tree's sums. */
static void row_beyond_bounds(struct paddle *pd, const char *s, size_t n, uint64_t lineno,
			      const struct row *r, const struct cell *bad)
{
	struct pos at = { lineno, bad->col + 1 };

	diag_warn(pd->d, &at, "table rows with a value beyond bounds, skipped",
		  "row '%.*s': '%.*s' is beyond proftui's bounds (10^15 ns, 2^40 calls, 2^50 bytes); "
		  "skipped", (int)(r->name_len > 60 ? 60 : r->name_len), r->name,
		  (int)(bad->len > 60 ? 60 : bad->len), bad->s);
	pd->t.nr_rows++;
	row_gap(&pd->t, s, n);
}

/* A line among the rows: the closing separator, a thread title, a cut, a
 * row, or a log line printed into the table by another thread. */
static bool table_rows(struct paddle *pd, const char *s, size_t n, uint64_t lineno, bool blank,
		       size_t nr_spans)
{
	struct table *t = &pd->t;
	size_t indent = leading_blanks(s, n), bad = 0;
	struct field f;
	struct row r;

	if (nr_spans >= 2) {
		/* The closing separator. */
		t->complete = true;
		if (!t->nr_rows)
			paddle_end_table(pd, lineno, true);
		else
			t->state = T_AFTER;
		return true;
	}
	/* A blank line ends a table as well as its separator does: newer
	 * releases print the UserDefined Summary without one (seed 001).  So
	 * does a Markdown fence round a quoted table. */
	if (nr_spans == 1 || blank || text_starts(s + indent, n - indent, "```")) {
		t->complete = nr_spans == 1;
		paddle_end_table(pd, lineno, true);
		return true;
	}
	if (paddle_title_of(s, n, '-', &f) && text_starts(f.s, f.len, "Thread:")) {
		thread_title(pd, &f);
		return true;
	}
	if (text_eq(s + indent, n - indent, "...")) {
		cut_line(pd, lineno, indent);
		return true;
	}
	if (paddle_title_of(s, n, '-', &f) || paddle_title_of(s, n, '=', &f)) {
		paddle_end_table(pd, lineno, false);
		return false;
	}
	if (parse_row(t, s, n, &r, &bad)) {
		const struct cell *beyond;

		if (!t->skip_rows && !row_in_bounds(t, &r, &beyond)) {
			row_beyond_bounds(pd, s, n, lineno, &r, beyond);
		} else if (!t->skip_rows) {
			check_shown_values(pd, &r, lineno);
			table_row(pd, &r, lineno);
		} else {
			t->nr_rows++;
		}
		return true;
	}
	if (!paddle_iteration_line(pd, s, n, lineno))
		bad_row(pd, s, n, lineno, bad);
	return true;
}

/* After the closing separator: Overview Summary's second header
 * ("Calls  GPU Time  Ratio (%)", its first cell blank) and block. */
static bool table_after(struct paddle *pd, const char *s, size_t n, uint64_t lineno, bool blank,
			size_t nr_spans)
{
	struct table *t = &pd->t;

	if (!blank && !nr_spans && t->sec == SEC_OVERVIEW && parse_header(pd, s, n, lineno, true)) {
		t->state = T_HEADSEP;
		return true;
	}
	/* The table's end: what paddle_end_table() notes (a Kernel Summary with
	 * rows omitted) holds after its closing separator too. */
	paddle_end_table(pd, lineno, true);
	return false;
}

bool paddle_table_line(struct paddle *pd, char *s, size_t n, uint64_t lineno)
{
	struct span spans[MAX_COLS];
	bool blank = leading_blanks(s, n) == n;
	size_t nr_spans;

	flush_bad_row(pd);
	nr_spans = blank ? 0 : text_dash_spans(s, n, spans, MAX_COLS, 20, false);
	switch (pd->t.state) {
	case T_TOP:
		return table_top(pd, s, n, lineno, blank, spans, nr_spans);
	case T_HEADER:
		return table_header(pd, s, n, lineno, blank, nr_spans);
	case T_HEADSEP:
		return table_headsep(pd, lineno, nr_spans);
	case T_ROWS:
		return table_rows(pd, s, n, lineno, blank, nr_spans);
	case T_AFTER:
		return table_after(pd, s, n, lineno, blank, nr_spans);
	default:
		return false;
	}
}
