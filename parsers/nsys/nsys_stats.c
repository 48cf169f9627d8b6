// SPDX-License-Identifier: MIT
/*
 * Nsight Systems' printed summary reports (doc/formats/nsys-stats.md): what
 * `nsys stats` and `nsys profile --stats=true` write, as column text
 * (headers over dash separators, numbers right-aligned with thousands
 * separators), as CSV or TSV (--format csv, tsv) or as cells between
 * pipes (a Markdown pipe table; a boxed table), one report or several in
 * one output, usually inside a log or a Markdown page.
 *
 * A report is found by its header line (a name column, a count column and
 * a total of time or of size); the title line before it, when there is
 * one ("** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):", "Executing
 * 'cuda_api_sum' stats report", "Processing [...] with [.../osrt_sum.py]",
 * the older "CUDA Kernel Statistics:"), says which report it is; without
 * one, its columns do.  The reports read and where their rows go:
 *
 *   cuda_gpu_kern_sum, gpukernsum      kernels: the Kernels pane
 *   cuda_api_sum, cudaapisum           runtime calls: the API pane
 *   osrt_sum, osrtsum                  runtime calls, of the OS: the API
 *                                      pane, their report named
 *   cuda_gpu_mem_time_sum, gpumemtimesum  copies and sets, their time
 *   cuda_gpu_mem_size_sum, gpumemsizesum  the same operations, their bytes
 *   nvtx_sum, nvtxsum, nvtxppsum       NVTX ranges: annotations
 *
 * Each row is one pre-aggregated node (NODE_DISTINCT) under a group node
 * of its report.  The figures a row prints are kept as it prints them
 * (profile.h, ATTR_FILE_*), to the nanosecond or the byte: the panes show
 * those rather than recompute them.  A second report of a kind already
 * read starts a new run (another nsys output further down the log).
 * A row that cannot be read (a value out of bounds, a cell missing, a
 * quote left open) is an error with its place: a report is a handful of
 * lines nsys wrote, not a hand-edited table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/keyindex.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "../text.h"

#define MAX_COLS 24
#define NUM_MAX 64		/* longest number cell read */
#define NAME_MAX_BYTES (64 * 1024)	/* a longer name is cut (NODE_NAME_TRUNCATED) */

enum report {
	R_NONE,			/* not said */
	R_KERN,
	R_API,
	R_OSRT,
	R_MEM_TIME,
	R_MEM_SIZE,
	R_NVTX,
	R_OTHER,		/* a report this parser does not read */
	NR_REPORTS
};

/* The report names of current and older versions (2021.2 and before
 * named them without underscores). */
static const struct {
	const char *id;
	enum report r;
} report_ids[] = {
	{ "cuda_gpu_kern_sum", R_KERN },	{ "gpukernsum", R_KERN },
	{ "cuda_api_sum", R_API },		{ "cudaapisum", R_API },
	{ "osrt_sum", R_OSRT },			{ "osrtsum", R_OSRT },
	{ "cuda_gpu_mem_time_sum", R_MEM_TIME }, { "gpumemtimesum", R_MEM_TIME },
	{ "cuda_gpu_mem_size_sum", R_MEM_SIZE }, { "gpumemsizesum", R_MEM_SIZE },
	{ "nvtx_sum", R_NVTX },			{ "nvtxsum", R_NVTX },
	{ "nvtxppsum", R_NVTX },		{ "nvtx_pushpop_sum", R_NVTX },
};

/* The titles `nsys profile --stats=true` printed before report names
 * (2020 to 2021.1), without their ':'. */
static const struct {
	const char *title;
	enum report r;
	const char *id;		/* the report's later name */
} old_titles[] = {
	{ "CUDA Kernel Statistics", R_KERN, "gpukernsum" },
	{ "CUDA API Statistics", R_API, "cudaapisum" },
	{ "CUDA Memory Operation Statistics (by time)", R_MEM_TIME, "gpumemtimesum" },
	{ "CUDA Memory Operation Statistics (by size in KiB)", R_MEM_SIZE, "gpumemsizesum" },
	{ "Operating System Runtime API Statistics", R_OSRT, "osrtsum" },
	{ "NVTX Push-Pop Range Statistics", R_NVTX, "nvtxppsum" },
};

enum col {
	C_UNKNOWN,		/* read past (Category, a percentile) */
	C_PCT,
	C_COUNT,
	C_TOTAL,		/* time */
	C_AVG,
	C_MED,
	C_MIN,
	C_MAX,
	C_STDDEV,
	C_SIZE_TOTAL,		/* bytes */
	C_SIZE_AVG,
	C_SIZE_MED,
	C_SIZE_MIN,
	C_SIZE_MAX,
	C_SIZE_STDDEV,
	C_STYLE,
	C_NAME,
	NR_COLS
};

/* A column: what it holds, and its unit as 10^POW10 ns or MUL/DIV bytes. */
struct column {
	enum col kind;
	int pow10;			/* time columns */
	int64_t mul, div;		/* size columns: bytes = value * mul / div */
	struct span sp;			/* table form */
};

/* The formatters' layouts: nsys's column text (dash separator, cells by
 * extent), CSV and TSV (one quoting, another separator), and tables of
 * cells between '|' (Markdown pipe tables, with a |---| line; the same
 * with '+' junctions and border lines). */
enum form { F_TABLE, F_CSV, F_TSV, F_PIPE };

struct table {
	enum report report;
	char id[64];			/* the report's name, as the file gives it */
	enum form form;
	struct column cols[MAX_COLS];
	size_t nr_cols;
	int at[NR_COLS];		/* the column of each kind, or -1 */
	uint64_t header_line;
	int bare_pow10;			/* the unit a title gives bare times, or -1 */
	bool want_separator;		/* table form: the dash line is next */
	struct node *group;
	uint64_t nr_rows;
};

struct nsys {
	struct profile *first, *run;
	struct diag *d;
	/* The title seen last, for the next header. */
	enum report pending;
	char pending_id[64];
	uint64_t pending_line;
	int pending_pow10;		/* "(nanoseconds)" in the title: 0; else -1 */
	bool in_table;
	struct table t;
	unsigned seen;			/* the reports of this run, by bit */
	bool found;
	/* The copies and sets of this run, for the size report to join, and
	 * the bytes each moved (-1: not known): their copy records, made
	 * once each when the run ends (flush_copies()). */
	struct node **mem;
	int64_t *mem_bytes;
	size_t nr_mem, alloc_mem, alloc_mem_bytes;
	struct key_index mem_by_name;	/* interned name -> index in mem */
	char num[NUM_MAX + 1];
};

/* ---- titles -------------------------------------------------------- */

static enum report report_of_id(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(report_ids); i++)
		if (strlen(report_ids[i].id) == n && !memcmp(report_ids[i].id, s, n))
			return report_ids[i].r;
	return R_OTHER;
}

/* Whether S[0..N) is a report name: lower-case letters, digits, '_'. */
static bool is_report_id(const char *s, size_t n)
{
	if (!n || n >= sizeof(((struct table *)0)->id))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* Whether the title S[0..*N) states its times in nanoseconds, as nsys
 * nvprof's "CUDA API Statistics (nanoseconds)" did (2020-2021), the
 * words then dropped from *N. */
static bool title_in_ns(const char *s, size_t *n)
{
	static const char ns_words[] = " (nanoseconds)";
	size_t k = strlen(ns_words);

	if (*n > k && !memcmp(s + *n - k, ns_words, k)) {
		*n -= k;
		return true;
	}
	return false;
}

/*
 * The report a title line names, its name into ID; R_NONE when LINE is no
 * title.  A name may carry arguments ("cuda_gpu_kern_sum:base").
 */
static enum report title_of(const char *line, size_t len, char *id, size_t id_size)
{
	const char *s = line, *a, *b;
	size_t n = len;

	s = text_trim(s, &n);
	a = NULL;
	/* The same title bolded in Markdown: "**CUDA ... (cuda_api_sum)**". */
	if (n > 4 && text_starts(s, n, "**") && text_ends(s, n, ")**")) {
		b = s + n - 3;
		for (a = b; a > s && a[-1] != '('; a--)
			;
	} else if (text_starts(s, n, "** ") && text_ends(s, n, "):")) {
		b = s + n - 2;
		for (a = b; a > s && a[-1] != '('; a--)
			;
	} else if ((a = text_find(s, n, "Executing '")) && text_find(s, n, "' stats report")) {
		a += strlen("Executing '");
		b = memchr(a, '\'', (size_t)(s + n - a));
	} else if (text_starts(s, n, "Processing [") && (a = text_find(s, n, "] with ["))) {
		b = text_find(a, (size_t)(s + n - a), ".py]");
		if (!b)
			return R_NONE;
		for (a = b; a > s && a[-1] != '/' && a[-1] != '\\' && a[-1] != '['; a--)
			;
	} else {
		if (n && s[n - 1] == ':')
			n--;
		title_in_ns(s, &n);
		for (size_t i = 0; i < ARRAY_SIZE(old_titles); i++)
			if (text_eq(s, n, old_titles[i].title)) {
				snprintf(id, id_size, "%s", old_titles[i].id);
				return old_titles[i].r;
			}
		return R_NONE;
	}
	if (!a || !b || b <= a)
		return R_NONE;
	{
		const char *colon = memchr(a, ':', (size_t)(b - a));

		if (colon)
			b = colon;
	}
	if (!is_report_id(a, (size_t)(b - a)))
		return R_NONE;
	snprintf(id, id_size, "%.*s", (int)(b - a), a);
	return report_of_id(a, (size_t)(b - a));
}

/* ---- headers ------------------------------------------------------- */

static const struct text_title bases[] = {
	{ "Instances", C_COUNT }, { "Num Calls", C_COUNT }, { "Calls", C_COUNT },
	{ "Count", C_COUNT }, { "Operations", C_COUNT },
	{ "Total Time", C_TOTAL }, { "Total", C_SIZE_TOTAL },
	{ "Avg", C_AVG }, { "Average", C_AVG }, { "Med", C_MED }, { "Median", C_MED },
	{ "Min", C_MIN }, { "Minimum", C_MIN }, { "Max", C_MAX }, { "Maximum", C_MAX },
	{ "StdDev", C_STDDEV }, { "Std Dev", C_STDDEV },
	{ "Name", C_NAME }, { "Operation", C_NAME }, { "Range", C_NAME },
	{ "Style", C_STYLE },
};

static bool is_size_kind(enum col k)
{
	return k >= C_SIZE_TOTAL && k <= C_SIZE_STDDEV;
}

/* A time unit's power of ten in nanoseconds, or -1. */
static int time_unit(const char *u, size_t n)
{
	return text_eq(u, n, "ns") ? 0 : text_eq(u, n, "us") ? 3 : text_eq(u, n, "ms") ? 6
	       : text_eq(u, n, "s") ? 9 : -1;
}

/* A size unit as bytes = value * MUL / DIV; false when U is none. */
static bool size_unit(const char *u, size_t n, int64_t *mul, int64_t *div)
{
	/* nsys prints MB as 10^6 bytes, KiB as 1024. */
	static const struct { const char *u; int64_t mul, div; } units[] = {
		{ "B", 1, 1 }, { "KB", 1000, 1 }, { "MB", 1000000, 1 }, { "GB", 1000000000, 1 },
		{ "KiB", 1024, 1 }, { "MiB", 1048576, 1 }, { "GiB", 1073741824, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (text_eq(u, n, units[i].u)) {
			*mul = units[i].mul;
			*div = units[i].div;
			return true;
		}
	return false;
}

/* The column titled S[0..N) into C; REPORT says what a bare "Total" or
 * "Average" measures in the older size report. */
static void column_of(const char *s, size_t n, enum report report, struct column *c)
{
	const char *unit = NULL;
	size_t unit_len = 0, base = n;

	memset(c, 0, sizeof(*c));
	c->pow10 = -1;
	if (text_eq(s, n, "Time (%)") || text_eq(s, n, "Time(%)")) {
		c->kind = C_PCT;
		return;
	}
	if (n > 3 && s[n - 1] == ')') {
		const char *open = s + n - 1;

		while (open > s && open[-1] != '(')
			open--;
		if (open > s + 1 && open[-2] == ' ') {
			unit = open;
			unit_len = (size_t)(s + n - 1 - open);
			base = (size_t)(open - 2 - s);
		}
	}
	c->kind = text_title_kind(bases, ARRAY_SIZE(bases), s, base, C_UNKNOWN);
	if (c->kind == C_UNKNOWN || c->kind == C_NAME || c->kind == C_STYLE || c->kind == C_COUNT)
		return;
	if (unit && size_unit(unit, unit_len, &c->mul, &c->div)) {
		if (c->kind == C_TOTAL)
			c->kind = C_SIZE_TOTAL;
		else if (!is_size_kind(c->kind))
			c->kind += C_SIZE_TOTAL - C_TOTAL;
		return;
	}
	if (unit) {
		c->pow10 = time_unit(unit, unit_len);
		if (c->pow10 < 0) {
			c->kind = C_UNKNOWN;
			return;
		}
	}
	if (c->kind == C_SIZE_TOTAL && !unit) {
		/* a bare "Total": the older size report's, in KiB */
		if (report != R_MEM_SIZE) {
			c->kind = C_UNKNOWN;
			return;
		}
		c->mul = 1024;
		c->div = 1;
		return;
	}
	if (c->kind == C_SIZE_TOTAL)
		c->kind = C_TOTAL;	/* "Total (ns)": time */
	if (report == R_MEM_SIZE && !unit) {
		c->kind += C_SIZE_TOTAL - C_TOTAL;
		c->mul = 1024;
		c->div = 1;
	}
}

/*
 * Whether the N titles make a report's header, into T: a name, a count
 * and a total.  Bare time columns take the total's unit.
 */
static bool header_of(struct table *t, const struct field *f, size_t n, enum report report)
{
	int pow10 = -1;

	if (n < 3 || n > MAX_COLS)
		return false;
	for (size_t k = 0; k < NR_COLS; k++)
		t->at[k] = -1;
	for (size_t i = 0; i < n; i++) {
		struct column *c = &t->cols[i];

		column_of(f[i].s, f[i].len, report, c);
		if (c->kind != C_UNKNOWN) {
			if (t->at[c->kind] >= 0)
				return false;	/* a column twice: not a header of ours */
			t->at[c->kind] = (int)i;
		}
		if (c->kind == C_TOTAL && c->pow10 >= 0)
			pow10 = c->pow10;
	}
	t->nr_cols = n;
	if (t->at[C_NAME] < 0 || t->at[C_COUNT] < 0 || (t->at[C_TOTAL] < 0) == (t->at[C_SIZE_TOTAL] < 0))
		return false;
	if (pow10 < 0 && t->at[C_TOTAL] >= 0 && t->cols[t->at[C_TOTAL]].pow10 < 0)
		pow10 = t->bare_pow10;	/* a bare "Total Time" in the title's unit */
	if (t->at[C_TOTAL] >= 0 && pow10 < 0)
		return false;	/* a time without its unit */
	for (size_t i = 0; i < n; i++)
		if (t->cols[i].kind >= C_TOTAL && t->cols[i].kind <= C_STDDEV && t->cols[i].pow10 < 0)
			t->cols[i].pow10 = pow10;
	return true;
}

/* ---- cells --------------------------------------------------------- */

/*
 * Split a CSV LINE (TSV when SEP is a tab) into fields, unquoting in
 * place ("a ""b""" is a "b").  Returns how many (more than MAX: only MAX
 * stored), or -1 with *BAD the column of a quote left open.
 */
static long csv_split(char *line, size_t len, char sep, struct field *out, size_t max, size_t *bad)
{
	size_t i = 0, nr = 0;

	for (;;) {
		struct field f = { .col = i };

		if (i < len && line[i] == '"') {
			size_t w = i + 1, r = i + 1;

			for (;;) {
				if (r >= len) {
					*bad = i;
					return -1;
				}
				if (line[r] == '"') {
					if (r + 1 < len && line[r + 1] == '"') {
						line[w++] = '"';
						r += 2;
						continue;
					}
					break;
				}
				line[w++] = line[r++];
			}
			f.s = line + i + 1;
			f.len = w - (i + 1);
			i = r + 1;
			while (i < len && line[i] != sep && (line[i] == ' ' || line[i] == '\t'))
				i++;
			if (i < len && line[i] != sep) {
				*bad = i;
				return -1;
			}
		} else {
			const char *comma = memchr(line + i, sep, len - i);
			size_t end = comma ? (size_t)(comma - line) : len;

			f.s = line + i;
			f.len = end - i;
			f.s = text_trim(f.s, &f.len);
			i = end;
		}
		if (nr < max)
			out[nr] = f;
		nr++;
		if (i >= len)
			return (long)nr;
		i++;		/* the comma */
	}
}

/* Whether LINE is a rule of a pipe table: only '-', '=', ':', '+', '|'
 * and blanks, with a dash. */
static bool is_pipe_rule(const char *line, size_t len)
{
	bool dash = false;

	for (size_t i = 0; i < len; i++) {
		if (!strchr("-=:+| \t", line[i]) || !line[i])
			return false;
		dash |= line[i] == '-' || line[i] == '=';
	}
	return dash;
}

/*
 * Split a pipe-table LINE ("| a | b |", or "a | b" without the outer
 * pipes) into its trimmed cells; "\|" is a '|' inside a cell (Markdown),
 * unescaped in place.  With REST, the MAXth cell runs to the end of the
 * line (its last '|' off): the name, which may hold a '|'.  Returns how
 * many cells (more than MAX: only MAX stored).
 */
static size_t pipe_split(char *line, size_t len, struct field *out, size_t max, bool rest)
{
	size_t i = 0, nr = 0, end = len;

	while (i < end && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i < end && line[i] == '|')
		i++;
	if (end > i && line[end - 1] == '|' && !(end >= 2 && line[end - 2] == '\\'))
		end--;
	for (;;) {
		size_t start = i, w;
		struct field f;

		if (rest && nr + 1 == max) {
			i = end;
		} else {
			while (i < end && !(line[i] == '|' && !(i > start && line[i - 1] == '\\')))
				i++;
		}
		/* The cell, "\|" made '|'. */
		w = start;
		for (size_t r = start; r < i; r++) {
			if (line[r] == '\\' && r + 1 < i && line[r + 1] == '|')
				continue;
			line[w++] = line[r];
		}
		for (size_t r = w; r < i; r++)
			line[r] = ' ';
		f.s = line + start;
		f.len = w - start;
		f.col = start;
		f.s = text_trim(f.s, &f.len);
		f.col = (size_t)(f.s - line);
		if (nr < max)
			out[nr] = f;
		nr++;
		if (i >= end)
			return nr;
		i++;		/* the pipe */
	}
}

/* The cells of a pipe table's rule ("|---|:--:|", "----+----"): how many
 * runs of dashes between '|' or '+' (outer ones not counted). */
static size_t pipe_rule_cells(const char *line, size_t len)
{
	size_t nr = 0;
	bool in_run = false;

	for (size_t i = 0; i < len; i++) {
		bool mark = line[i] == '-' || line[i] == '=' || line[i] == ':';

		if (mark && !in_run)
			nr++;
		in_run = mark || (in_run && (line[i] == ' ' || line[i] == '\t'));
		if (line[i] == '|' || line[i] == '+')
			in_run = false;
	}
	return nr;
}

/* The number S[0..N) without its thousands separators, into NS->num;
 * false when it is no number this parser reads. */
static bool plain_number(struct nsys *ns, const char *s, size_t n, size_t *out_len)
{
	size_t w = 0, since_comma = 0;
	bool comma = false, dot = false;

	if (!n || n > NUM_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == ',') {
			if (dot || !w || (comma && since_comma != 3) || !(s[i - 1] >= '0' && s[i - 1] <= '9'))
				return false;
			comma = true;
			since_comma = 0;
			continue;
		}
		if (c == '.')
			dot = true;
		else if (c >= '0' && c <= '9' && !dot)
			since_comma++;
		ns->num[w++] = c;
	}
	if (comma && since_comma != 3)
		return false;
	ns->num[w] = '\0';
	*out_len = w;
	return true;
}

/* ---- rows ---------------------------------------------------------- */

/* What a row says, read from its cells. */
struct row {
	const char *name;
	size_t name_len;
	struct pos name_at;
	const char *style;
	size_t style_len;
	double pct;			/* NaN: not given */
	uint64_t count;
	int64_t t[C_STDDEV + 1];	/* C_TOTAL..C_STDDEV, ns; -1: not given */
	int64_t b[C_SIZE_STDDEV + 1];	/* C_SIZE_TOTAL..C_SIZE_STDDEV, bytes; -1 */
};

/* The size S[0..N) in C's unit as bytes: read in thousandths of the
 * unit (the 3 decimals nsys prints; more are rounded there), then scaled
 * and rounded half up to the byte. */
static bool size_bytes(const char *s, size_t n, const struct column *c, int64_t *out)
{
	int64_t milli, v;

	if (!num_scaled(s, n, 3, &milli) || milli < 0 || milli > BOUND_BYTES)
		return false;
	if (__builtin_mul_overflow(milli, c->mul, &v))
		return false;
	v = (v / c->div + 500) / 1000;
	if (!bound_bytes_ok(v))
		return false;
	*out = v;
	return true;
}

static bool read_cell(struct nsys *ns, const struct column *c, const struct field *f,
		      const struct pos *at, struct row *r)
{
	size_t n;

	switch (c->kind) {
	case C_UNKNOWN:
		return true;
	case C_NAME:
		r->name = f->s;
		r->name_len = f->len;
		r->name_at = *at;
		return true;
	case C_STYLE:
		r->style = f->s;
		r->style_len = f->len;
		return true;
	default:
		break;
	}
	if (!plain_number(ns, f->s, f->len, &n)) {
		diag_error(ns->d, at, "'%.*s' is not a number (column %d of report '%s')",
			   (int)(f->len > 40 ? 40 : f->len), f->s, (int)(c - ns->t.cols) + 1, ns->t.id);
		return false;
	}
	if (c->kind == C_PCT) {
		if (!num_double(ns->num, n, &r->pct) || !(r->pct >= 0 && r->pct <= 100)) {
			diag_error(ns->d, at, "a share of '%s' is not a percentage from 0 to 100",
				   ns->num);
			return false;
		}
		return true;
	}
	if (c->kind == C_COUNT) {
		int64_t v;

		if (!num_int(ns->num, n, &v) || !bound_count_ok(v)) {
			diag_error(ns->d, at, "a count of '%s' is not a count from 0 to %lld",
				   ns->num, (long long)BOUND_COUNT);
			return false;
		}
		r->count = (uint64_t)v;
		return true;
	}
	if (c->kind <= C_STDDEV) {
		int64_t v;

		if (!num_scaled(ns->num, n, c->pow10, &v) || !bound_dur_ok(v)) {
			diag_error(ns->d, at, "a time of '%s' is not a duration from 0 to %lld ns",
				   ns->num, (long long)BOUND_DUR_NS);
			return false;
		}
		r->t[c->kind] = v;
		return true;
	}
	{
		int64_t v;

		if (!size_bytes(ns->num, n, c, &v)) {
			diag_error(ns->d, at, "a size of '%s' is not one from 0 to %lld bytes",
				   ns->num, (long long)BOUND_BYTES);
			return false;
		}
		r->b[c->kind] = v;
		return true;
	}
}

/* The cells of a row of the table form: cut along the separator's spans,
 * the last column to the end of the line. */
static size_t table_cells(const struct table *t, const char *line, size_t len, struct field *f)
{
	for (size_t i = 0; i < t->nr_cols; i++) {
		struct span sp = t->cols[i].sp;

		if (i + 1 == t->nr_cols)
			sp.end = len;
		f[i] = text_cell(line, len, sp);
	}
	return t->nr_cols;
}

/* ---- the model ----------------------------------------------------- */

static const char *const report_words[NR_REPORTS] = {
	[R_KERN] = "kernels", [R_API] = "CUDA API calls", [R_OSRT] = "OS runtime calls",
	[R_MEM_TIME] = "memory operations by time", [R_MEM_SIZE] = "memory operations by size",
	[R_NVTX] = "NVTX ranges",
};

static void flush_copies(struct nsys *ns)
{
	for (size_t i = 0; i < ns->nr_mem; i++)
		profile_set_copy(ns->run, ns->mem[i], -1, -1, ns->mem_bytes[i], NAN);
	ns->nr_mem = 0;
	key_index_release(&ns->mem_by_name);
}

static void start_run_if_seen(struct nsys *ns, enum report r)
{
	char where[600];

	if (!(ns->seen & (1u << r)))
		return;
	flush_copies(ns);
	snprintf(where, sizeof(where), "%s:%llu", ns->d->path, (unsigned long long)ns->t.header_line);
	ns->run = profile_add_run(ns->first, where);
	ns->d->profile = ns->run;
	ns->seen = 0;
}

static void open_group(struct nsys *ns)
{
	struct table *t = &ns->t;
	struct profile *p;
	char key[80];

	start_run_if_seen(ns, t->report);
	p = ns->run;
	if (!p->run_where) {
		char where[600];

		snprintf(where, sizeof(where), "%s:%llu", ns->d->path,
			 (unsigned long long)t->header_line);
		p->run_where = profile_strdup(p, where);
	}
	ns->seen |= 1u << t->report;
	t->group = node_new(p, p->root, NODE_GROUP, t->id, strlen(t->id));
	t->group->flags |= NODE_NOT_A_ROW | NODE_DISTINCT;
	snprintf(key, sizeof(key), "%s (line %llu)", t->id, (unsigned long long)t->header_line);
	profile_meta(p, "nsys stats", key, report_words[t->report]);
}

/* The index of the (first) copy or set called NAME, interned, in this
 * run, or -1: a look-up, so that a hostile report of many operations
 * joins in linear time. */
static long mem_node(struct nsys *ns, const char *name)
{
	size_t i = key_index_get(&ns->mem_by_name, (uint64_t)(uintptr_t)name);

	return i == KEY_INDEX_NONE ? -1 : (long)i;
}

static bool is_memset(const char *s, size_t n)
{
	return text_find(s, n, "memset") || text_find(s, n, "Memset");
}

/* The figures of a copy or set of cuda_gpu_mem_time_sum: as attributes
 * of their own, since no pane of aggregated rows shows copies (the Tree
 * shows them as columns; Memory bandwidth reads the node). */
static void set_copy_figures(struct profile *p, struct node *n, const struct row *r)
{
	static const char *const keys[] = {
		[C_AVG] = "mean_ns", [C_MED] = "median_ns", [C_MIN] = "min_ns",
		[C_MAX] = "max_ns", [C_STDDEV] = "stddev_ns",
	};

	if (!isnan(r->pct))
		attr_set_double(p, node_attr_list(n), "time_pct", r->pct);
	for (int k = C_AVG; k <= C_STDDEV; k++)
		if (r->t[k] >= 0)
			attr_set_ns(p, node_attr_list(n), keys[k], r->t[k]);
}

/* A row of times into N: a kernel's or a copy's device time, a call's or a
 * range's host time, and the figures printed beside it. */
static void set_times(struct profile *p, struct node *n, const struct row *r)
{
	int64_t total = r->t[C_TOTAL];
	bool device = node_kind_is_device(n->kind);

	if (device) {
		node_set_device_self(p, n, total);
		node_set_device_total(p, n, total);
	} else {
		node_set_host_self(p, n, total);
		node_set_host_total(p, n, total);
	}
	node_set_calls(p, n, r->count);
	if (r->t[C_MIN] >= 0 && r->t[C_MAX] >= 0)
		node_set_minmax(p, n, r->t[C_MIN], r->t[C_MAX]);
	if (n->kind == NODE_MEMCPY || n->kind == NODE_MEMSET) {
		set_copy_figures(p, n, r);
		return;
	}
	if (!isnan(r->pct))
		attr_set_double(p, node_attr_list(n), device ? ATTR_FILE_DEVICE_TOTAL_PCT
							     : ATTR_FILE_SHARE_PCT, r->pct);
	if (r->t[C_AVG] >= 0)
		attr_set_ns(p, node_attr_list(n), device ? ATTR_FILE_DEVICE_MEAN : ATTR_FILE_MEAN,
			    r->t[C_AVG]);
	if (r->t[C_MED] >= 0)
		attr_set_ns(p, node_attr_list(n), device ? "median_ns" : ATTR_FILE_MEDIAN, r->t[C_MED]);
	if (r->t[C_STDDEV] >= 0)
		attr_set_ns(p, node_attr_list(n), device ? "stddev_ns" : ATTR_FILE_STDDEV,
			    r->t[C_STDDEV]);
}

static void set_sizes(struct profile *p, struct node *n, const struct row *r, int64_t *bytes)
{
	static const char *const keys[] = {
		[C_SIZE_TOTAL] = "total_size_bytes", [C_SIZE_AVG] = "mean_size_bytes",
		[C_SIZE_MED] = "median_size_bytes", [C_SIZE_MIN] = ATTR_COPY_MIN_BYTES,
		[C_SIZE_MAX] = ATTR_COPY_MAX_BYTES, [C_SIZE_STDDEV] = "stddev_size_bytes",
	};

	for (int k = C_SIZE_TOTAL; k <= C_SIZE_STDDEV; k++)
		if (r->b[k] >= 0)
			attr_set_int(p, node_attr_list(n), keys[k], r->b[k]);
	*bytes = r->b[C_SIZE_TOTAL];
}

static void add_row(struct nsys *ns, const struct row *r)
{
	struct table *t = &ns->t;
	struct profile *p = ns->run;
	enum node_kind kind;
	struct node *n;
	size_t name_len = r->name_len;
	bool cut = false;

	if (name_len > NAME_MAX_BYTES) {
		name_len = NAME_MAX_BYTES;
		cut = true;
	}
	/* nsys cuts a long name to its column with an ellipsis. */
	if (text_ends(r->name, name_len, "\xe2\x80\xa6"))
		cut = true;
	switch (t->report) {
	case R_KERN:
		kind = NODE_KERNEL;
		break;
	case R_API:
	case R_OSRT:
		kind = NODE_RUNTIME;
		break;
	case R_NVTX:
		kind = NODE_ANNOTATION;
		break;
	default:
		kind = is_memset(r->name, name_len) ? NODE_MEMSET : NODE_MEMCPY;
		break;
	}
	if (t->report == R_MEM_SIZE) {
		const char *name = profile_intern(p, r->name, name_len);
		long i = mem_node(ns, name);

		if (i >= 0) {
			n = ns->mem[i];
			if (node_calls(p, n) != r->count)
				diag_warn(ns->d, &r->name_at, "copies counted differently by time and by size",
					  "'%.*s' counts %llu operations by size, %llu by time",
					  (int)(name_len > 60 ? 60 : name_len), r->name,
					  (unsigned long long)r->count,
					  (unsigned long long)node_calls(p, n));
			set_sizes(p, n, r, &ns->mem_bytes[i]);
			t->nr_rows++;
			return;
		}
	}
	n = node_new(p, t->group, kind, r->name, name_len);
	n->flags |= NODE_DISTINCT | (cut ? NODE_NAME_TRUNCATED : 0);
	if (t->report == R_MEM_TIME || t->report == R_MEM_SIZE) {
		GROW(ns->mem, ns->alloc_mem, ns->nr_mem + 1);
		GROW(ns->mem_bytes, ns->alloc_mem_bytes, ns->nr_mem + 1);
		if (mem_node(ns, node_name(n)) < 0)
			key_index_put(&ns->mem_by_name, (uint64_t)(uintptr_t)node_name(n), ns->nr_mem);
		ns->mem[ns->nr_mem] = n;
		ns->mem_bytes[ns->nr_mem++] = -1;
	}
	if (t->report == R_MEM_SIZE) {
		node_set_calls(p, n, r->count);
		set_sizes(p, n, r, &ns->mem_bytes[ns->nr_mem - 1]);
	} else {
		set_times(p, n, r);
	}
	if (t->report == R_OSRT || t->report == R_API)
		attr_set_str(p, node_attr_list(n), ATTR_FILE_REPORT, t->id, strlen(t->id));
	if (r->style && r->style_len)
		attr_set_str(p, node_attr_list(n), "style", r->style, r->style_len);
	t->nr_rows++;
}

/* ---- the pass ------------------------------------------------------ */

static bool read_row(struct nsys *ns, char *line, size_t len, uint64_t lineno)
{
	struct table *t = &ns->t;
	struct field f[MAX_COLS];
	size_t nr;
	struct row r;

	memset(&r, 0, sizeof(r));
	r.pct = NAN;
	for (size_t k = 0; k < ARRAY_SIZE(r.t); k++)
		r.t[k] = -1;
	for (size_t k = 0; k < ARRAY_SIZE(r.b); k++)
		r.b[k] = -1;
	if (t->form == F_PIPE) {
		nr = pipe_split(line, len, f, t->nr_cols, t->at[C_NAME] == (int)t->nr_cols - 1);
	} else if (t->form == F_CSV || t->form == F_TSV) {
		size_t bad = 0;
		long got = csv_split(line, len, t->form == F_TSV ? '\t' : ',', f, MAX_COLS, &bad);

		if (got < 0) {
			struct pos at = { lineno, bad + 1 };

			diag_error(ns->d, &at, "a quote left open in a row of report '%s'", t->id);
			return false;
		}
		nr = (size_t)got;
	} else {
		if (len < t->cols[t->nr_cols - 1].sp.start) {
			struct pos at = { lineno, len + 1 };

			diag_error(ns->d, &at, "a row of report '%s' cut short before its name",
				   t->id);
			return false;
		}
		nr = table_cells(t, line, len, f);
	}
	if (nr != t->nr_cols) {
		struct pos at = { lineno, 1 };

		diag_error(ns->d, &at, "a row of %zu cells in report '%s', whose header has %zu",
			   nr, t->id, t->nr_cols);
		return false;
	}
	for (size_t i = 0; i < nr; i++) {
		struct pos at = { lineno, f[i].col + 1 };

		if (!f[i].len && t->cols[i].kind != C_UNKNOWN && t->cols[i].kind != C_STYLE) {
			diag_error(ns->d, &at, "column %zu of report '%s' is empty in this row", i + 1,
				   t->id);
			return false;
		}
		if (!read_cell(ns, &t->cols[i], &f[i], &at, &r))
			return false;
	}
	if (r.t[C_MIN] > r.t[C_MAX] || r.b[C_SIZE_MIN] > r.b[C_SIZE_MAX]) {
		struct pos at = { lineno, 1 };

		diag_error(ns->d, &at, "a least above the greatest in a row of report '%s'", t->id);
		return false;
	}
	add_row(ns, &r);
	return true;
}

/* Whether LINE is a header, and if so start its table. */
static bool try_header(struct nsys *ns, char *line, size_t len, uint64_t lineno)
{
	struct table *t = &ns->t;
	struct field f[MAX_COLS + 1];
	size_t nr = text_split2(line, len, f, MAX_COLS + 1);
	enum report from_title = ns->pending_line ? ns->pending : R_NONE;
	enum form form = F_TABLE;

	t->bare_pow10 = from_title != R_NONE ? ns->pending_pow10 : -1;
	if (nr > MAX_COLS || !header_of(t, f, nr, from_title)) {
		size_t bad;
		long got = -1;

		form = memchr(line, '|', len) ? F_PIPE : memchr(line, '\t', len) ? F_TSV : F_CSV;
		if (form == F_PIPE)
			got = (long)pipe_split(line, len, f, MAX_COLS + 1, false);
		else if (memchr(line, form == F_TSV ? '\t' : ',', len))
			got = csv_split(line, len, form == F_TSV ? '\t' : ',', f, MAX_COLS + 1, &bad);
		if (got < 3 || got > MAX_COLS || !header_of(t, f, (size_t)got, from_title))
			return false;
		nr = (size_t)got;
	}
	t->form = form;
	t->header_line = lineno;
	t->want_separator = form == F_TABLE || form == F_PIPE;
	t->nr_rows = 0;
	if (from_title != R_NONE) {
		t->report = from_title;
		snprintf(t->id, sizeof(t->id), "%s", ns->pending_id);
	} else {
		/* No title: the columns say which report, when each is one
		 * of the reports read (cuda_gpu_sum's Category is not). */
		bool unknown = false;

		for (size_t i = 0; i < nr; i++)
			unknown |= t->cols[i].kind == C_UNKNOWN;
		t->report = unknown ? R_OTHER
			    : t->at[C_SIZE_TOTAL] >= 0 ? R_MEM_SIZE
			    : t->at[C_STYLE] >= 0 || text_eq(f[t->at[C_NAME]].s, f[t->at[C_NAME]].len, "Range") ? R_NVTX
			    : text_eq(f[t->at[C_NAME]].s, f[t->at[C_NAME]].len, "Operation") ? R_MEM_TIME
			    : text_eq(f[t->at[C_COUNT]].s, f[t->at[C_COUNT]].len, "Instances") ? R_KERN
			    : R_API;
		snprintf(t->id, sizeof(t->id), "%s",
			 t->report == R_OTHER ? "(untitled)"
			 : t->report == R_MEM_SIZE ? "cuda_gpu_mem_size_sum"
			 : t->report == R_NVTX	 ? "nvtx_sum"
			 : t->report == R_MEM_TIME ? "cuda_gpu_mem_time_sum"
			 : t->report == R_KERN	 ? "cuda_gpu_kern_sum"
						 /* cuda_api_sum and osrt_sum
						  * have the same columns: which
						  * one, only a title says. */
						 : "(untitled API report)");
	}
	ns->pending_line = 0;
	if ((t->report == R_MEM_SIZE) != (t->at[C_SIZE_TOTAL] >= 0) && t->report != R_OTHER) {
		struct pos at = { lineno, 1 };

		diag_error(ns->d, &at, "report '%s' has %s columns where it should have %s", t->id,
			   t->at[C_SIZE_TOTAL] >= 0 ? "size" : "time",
			   t->report == R_MEM_SIZE ? "sizes" : "times");
		return true;
	}
	ns->in_table = true;
	ns->found = true;
	if (t->report == R_OTHER) {
		struct pos at = { lineno, 1 };

		if (from_title == R_NONE)
			diag_warn(ns->d, &at, "nsys reports this parser does not read, skipped",
				  "a report without a title, with columns of none this parser "
				  "reads; skipped");
		else
			diag_warn(ns->d, &at, "nsys reports this parser does not read, skipped",
				  "report '%s' is not one this parser reads; skipped", t->id);
		t->group = NULL;
		return true;
	}
	if (form == F_CSV || form == F_TSV)
		open_group(ns);
	return true;
}

static bool read_separator(struct nsys *ns, const char *line, size_t len, uint64_t lineno)
{
	struct table *t = &ns->t;
	struct span sp[MAX_COLS + 1];
	size_t nr = t->form == F_PIPE ? is_pipe_rule(line, len) ? pipe_rule_cells(line, len) : 0
				      : text_dash_spans(line, len, sp, MAX_COLS + 1, 1, false);

	t->want_separator = false;
	if (nr != t->nr_cols) {
		struct pos at = { lineno, 1 };

		diag_error(ns->d, &at, "report '%s': the line under its header has %zu dash runs, "
			   "not one for each of its %zu columns", t->id, nr, t->nr_cols);
		return false;
	}
	if (t->form == F_TABLE)
		for (size_t i = 0; i < nr; i++)
			t->cols[i].sp = sp[i];
	if (t->report != R_OTHER)
		open_group(ns);
	return true;
}

/* Whether LINE ends a table: blank, a Markdown fence, a title. */
static bool ends_table(const char *line, size_t len)
{
	const char *s = text_trim(line, &len);
	char id[64];

	return !len || text_starts(s, len, "```") || text_starts(s, len, "~~~") ||
	       title_of(s, len, id, sizeof(id)) != R_NONE || text_starts(s, len, "SKIPPED: ");
}

static int nsys_line(struct nsys *ns, char *line, size_t len, uint64_t lineno)
{
	struct table *t = &ns->t;
	enum report r;
	char id[64];

	if (ns->in_table && t->want_separator) {
		if (!read_separator(ns, line, len, lineno))
			return -1;
		return 0;
	}
	if (ns->in_table && !ends_table(line, len)) {
		if (t->report == R_OTHER || (t->form == F_PIPE && is_pipe_rule(line, len)))
			return 0;	/* a border line of a boxed table */
		return read_row(ns, line, len, lineno) ? 0 : -1;
	}
	ns->in_table = false;
	if ((r = title_of(line, len, id, sizeof(id))) != R_NONE) {
		ns->pending = r;
		snprintf(ns->pending_id, sizeof(ns->pending_id), "%s", id);
		ns->pending_line = lineno;
		{
			size_t n = len;
			const char *s = text_trim(line, &n);

			if (n && s[n - 1] == ':')
				n--;
			ns->pending_pow10 = title_in_ns(s, &n) ? 0 : -1;
		}
		return 0;
	}
	try_header(ns, line, len, lineno);
	return 0;
}

static int nsys_stats_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct nsys ns = { .first = p, .run = p, .d = d };
	char *line;
	size_t len;
	int rc = 0;

	while ((line = input_line(in, &len))) {
		size_t k;

		if (memchr(line, '\0', len)) {
			struct pos at = { in->lineno, (size_t)((char *)memchr(line, '\0', len) - line) + 1 };

			diag_error(d, &at, "binary data (a NUL byte) in a text profile; reading stops here");
			rc = -1;
			goto out;
		}
		len = text_strip_ansi(line, len);
		k = text_log_prefix(line, len);
		line += k;
		len -= k;
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
			len--;
		if (d->nr_errors || nsys_line(&ns, line, len, in->lineno) < 0) {
			rc = -1;
			goto out;
		}
	}
	if (input_failed(in, d)) {
		rc = -1;
		goto out;
	}
	if (ns.in_table && ns.t.want_separator) {
		struct pos at = { in->lineno + 1, 1 };

		diag_error(d, &at, "report '%s' ends at its header", ns.t.id);
		rc = -1;
		goto out;
	}
	if (d->nr_errors) {
		rc = -1;
		goto out;
	}
	if (!ns.found) {
		diag_error(d, NULL, "no nsys stats report found");
		rc = -1;
	}
out:
	if (rc == 0)
		flush_copies(&ns);
	d->profile = p;
	free(ns.mem);
	free(ns.mem_bytes);
	key_index_release(&ns.mem_by_name);
	return rc;
}

/* ---- detection ----------------------------------------------------- */

/*
 * A report's header anywhere in HEAD (the start of a file or a later
 * window of a long log), with its dash separator or as CSV for full
 * marks, or a title line naming a report this parser reads.  JSON is
 * never a report, whatever its strings say.
 */
static int nsys_stats_probe(const char *head, size_t len)
{
	size_t i = 0;
	int score = 0;
	bool prev_header = false, prev_pipe = false, any_header = false;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i < len && head[i] == '{')
		return 0;
	while (i < len) {
		const char *nl = memchr(head + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (head + i)) : len - i, k;
		char line[512];
		struct field f[MAX_COLS + 1];
		struct table t = { .bare_pow10 = -1 };
		struct span sp[MAX_COLS + 1];
		char id[64];
		enum report r;
		size_t nr, cut = n < sizeof(line) ? n : sizeof(line) - 1;

		memcpy(line, head + i, cut);
		line[cut] = '\0';
		k = text_log_prefix(line, cut);
		if (prev_header && text_dash_spans(line + k, cut - k, sp, MAX_COLS + 1, 1, false) >= 3)
			return 90;
		if (prev_pipe && is_pipe_rule(line + k, cut - k) && pipe_rule_cells(line + k, cut - k) >= 3)
			return 90;
		any_header |= prev_header;
		prev_header = prev_pipe = false;
		r = title_of(line + k, cut - k, id, sizeof(id));
		if (r != R_NONE && r != R_OTHER && score < 70)
			score = 70;
		nr = text_split2(line + k, cut - k, f, MAX_COLS + 1);
		if (nr <= MAX_COLS && header_of(&t, f, nr, R_NONE)) {
			prev_header = true;
		} else if (memchr(line + k, '|', cut - k) && text_find(line + k, cut - k, "Total")) {
			size_t got = pipe_split(line + k, cut - k, f, MAX_COLS + 1, false);

			prev_pipe = got >= 3 && got <= MAX_COLS && header_of(&t, f, got, R_NONE);
			any_header |= prev_pipe;
		} else if ((memchr(line + k, ',', cut - k) || memchr(line + k, '\t', cut - k)) &&
			   text_find(line + k, cut - k, "Total")) {
			size_t bad;
			char sep = memchr(line + k, '\t', cut - k) ? '\t' : ',';
			long got = csv_split(line + k, cut - k, sep, f, MAX_COLS + 1, &bad);

			if (got >= 3 && got <= MAX_COLS && header_of(&t, f, (size_t)got, R_NONE))
				return 90;
		}
		if (!nl)
			break;
		i += n + 1;
	}
	return prev_header || (any_header && score < 60) ? 60 : score;
}

const struct parser nsys_stats_parser = {
	.counts_per_node = true,
	.name = "nsys-stats",
	.summary = "Nsight Systems nsys stats reports (column text, CSV, TSV, pipe tables), also inside logs",
	.anywhere = true,	/* printed at the end of a profiling run's log */
	.probe = nsys_stats_probe,
	.parse = nsys_stats_parse,
};
