// SPDX-License-Identifier: MIT
/*
 * PyTorch key_averages().table() text (FORMATS.md b): the table that
 * print(prof.key_averages().table(...)) writes, usually inside a training
 * log or a Markdown page, often several times per file.
 *
 * A table is found by its header line ("Name  ...  Self CPU  ..."); its
 * column spans come from the dash separator above or below it, with a
 * fallback to splitting on runs of two or more blanks when there is none
 * (hand-edited copies).  Rows are cut along the spans; a row whose cells
 * spill over the gaps is split on blanks instead, and skipped with a
 * warning if even that does not give the header's columns.
 *
 * Each table with rows becomes one run of the profile (the first table the
 * profile itself, later ones profile_add_run()): a log that prints the
 * table every epoch, or the same data sorted two ways, are separate views,
 * never sums.  Rows are NODE_OP nodes under the root with NODE_DISTINCT, as
 * key_averages rows are already aggregated and the same name can appear
 * twice (a CPU op and its gpu_user_annotation twin).  A row with device
 * time and no host time is device work (a kernel, a memcpy): it also gets
 * a NODE_KERNEL (NODE_MEMCPY, NODE_MEMSET) child so that the Kernels pane
 * lists it.
 */
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "num.h"
#include "parser.h"
#include "text.h"

#define MAX_COLS 40
#define TITLE_MAX 160
/* No profile holds a time of more than 10^15 ns (11.6 days); beyond that
 * a cell is garbage, and the panes' sums of it would overflow. */
#define MAX_ABS_NS 1000000000000000LL

enum col_kind {
	COL_UNKNOWN,
	COL_DERIVED,		/* percentages and averages: panes compute them */
	COL_NAME,
	COL_OVERLOAD,
	COL_HOST_SELF,
	COL_HOST_TOTAL,
	COL_DEV_SELF,
	COL_DEV_TOTAL,
	COL_CPU_MEM,
	COL_SELF_CPU_MEM,
	COL_DEV_MEM,
	COL_SELF_DEV_MEM,
	COL_CALLS,
	COL_NODE_ID,
	COL_SHAPES,
	COL_SOURCE,
	COL_FLOPS,
	NR_COL_KINDS
};

/* Attribute keys of the memory columns, by kind. */
static const char *const mem_keys[NR_COL_KINDS] = {
	[COL_CPU_MEM] = "cpu_mem_bytes",
	[COL_SELF_CPU_MEM] = "self_cpu_mem_bytes",
	[COL_DEV_MEM] = "device_mem_bytes",
	[COL_SELF_DEV_MEM] = "self_device_mem_bytes",
};

struct column {
	enum col_kind kind;
	struct span sp;		/* character columns of the body, from the separator */
	double flops_scale;	/* COL_FLOPS: 1e3 for "Total KFLOPs" */
	char title[32];		/* as the header names it: messages, "sorted by" */
};

enum state {
	SEEK,			/* outside any table */
	HEADER_PENDING,		/* a header with no separator above: is one below? */
	ROWS,			/* inside a table */
	FOOTER,			/* after a table's closing separator */
};

struct table {
	struct column cols[MAX_COLS];
	size_t nr_cols;
	bool has_spans;		/* else: rows split on runs of blanks */
	bool seen_lower_sep;	/* the separator under the header */
	size_t nr_required;	/* split rows need at least this many fields */
	int source_col;		/* -1: no Source Location column */
	char dev[24];		/* the device word: "CUDA", "XPU", "MLU" */
	char title[TITLE_MAX];
	bool top_level_only;
	uint64_t start_line;	/* first line (the top separator or the header) */
	struct pos header_at;

	struct profile *run;	/* NULL until the first row */
	struct node *last;	/* the last row, for Source Location continuations */
	struct node **rows;	/* heap; freed when the table ends */
	size_t nr_rows, alloc_rows;
	size_t nr_skipped;

	/* "sorted by": whether each column's values never grew, and did fall */
	bool mono[MAX_COLS], fell[MAX_COLS];
	int64_t prev[MAX_COLS];
};

struct torch_table {
	struct profile *p;	/* the first run: what the caller passed */
	struct diag *d;
	struct input *in;
	enum state state;
	struct table t;
	struct profile *last_run;	/* where footers go */
	size_t nr_tables;		/* tables with rows */
	size_t nr_headers;
	struct pos first_header;

	/* The line before the current one, when it was a separator. */
	struct span prev_sep[MAX_COLS];
	size_t nr_prev_sep;
	uint64_t prev_sep_line;
	/* A prose line right above the table: its title. */
	char title[TITLE_MAX];
	bool top_level_only;
	char *pending;		/* HEADER_PENDING: the header line (heap) */
	size_t pending_len;
	struct pos pending_at;
};

/* The device-side names that are not kernels. */
static enum node_kind device_kind(const char *name)
{
	if (!strncmp(name, "Memcpy", 6))
		return NODE_MEMCPY;
	if (!strncmp(name, "Memset", 6))
		return NODE_MEMSET;
	return NODE_KERNEL;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

static bool is_blank_line(const char *s, size_t n)
{
	text_trim(s, &n);
	return n == 0;
}

/* NUL bytes and control characters: binary data, not a table. */
static bool is_binary(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 && c != '\t' && c != '\f' && c != '\v')
			return true;
	}
	return false;
}

/* A line of dashes or '=' only (a rule around a title, or a separator). */
static bool is_rule(const char *s, size_t n)
{
	struct span sp[1];

	return text_dash_spans(s, n, sp, 1, 3, true) > 0;
}

/*
 * Where the table text starts in LINE: after a log prefix (trtexec, glog,
 * MegEngine styles) and a Markdown list or quote marker.  A table line never
 * starts with "- " itself: names are right-aligned (or long), separators
 * are dash runs.
 */
static size_t body_start(const char *line, size_t len)
{
	size_t k = text_log_prefix(line, len);

	/* text_log_prefix() takes the blanks after a prefix too, but here
	 * they may be the padding of a right-aligned name: keep all but the
	 * one space that ends the prefix. */
	if (k) {
		while (k && line[k - 1] == ' ')
			k--;
		if (k < len && line[k] == ' ')
			k++;
	}

	if (k + 2 <= len && (line[k] == '-' || line[k] == '*' || line[k] == '>') && line[k + 1] == ' ')
		k += 2;
	return k;
}

/* "Self CPU time total: 17.476s", "CUDA time total: 1.2ms". */
static bool is_footer(const char *s, size_t n, const char **value, size_t *value_len)
{
	const char *colon;

	s = text_trim(s, &n);
	colon = text_find(s, n, " time total:");
	if (!colon || colon == s)
		return false;
	colon += strlen(" time total:");
	*value_len = n - (size_t)(colon - s);
	*value = text_trim(colon, value_len);
	return true;
}

/* Copy S[0..N) into DST (CAP bytes) without cutting a UTF-8 character. */
static void copy_text(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap) {
		n = cap - 1;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static bool is_device_word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/*
 * What a header cell names.  Current PyTorch: "Self CPU", "CPU total",
 * "Self CUDA", "CUDA total", "CPU Mem", "Self CUDA Mem"; PyTorch <= 1.7:
 * "Self CPU total", "Number of Calls".  The device word is whatever the
 * profiler's use_device was (CUDA, XPU, MLU, NPU, PRIVATEUSE1...); a table
 * names one.
 */
static enum col_kind classify(struct table *t, struct column *c, const char *s, size_t n)
{
	bool self = false, mem = false, total = false;

	if (text_eq(s, n, "Name"))
		return COL_NAME;
	if (text_eq(s, n, "Overload Name"))
		return COL_OVERLOAD;
	if (n && s[n - 1] == '%')
		return COL_DERIVED;
	if (ends_with(s, n, " avg"))
		return COL_DERIVED;
	if (text_eq(s, n, "# of Calls") || text_eq(s, n, "Number of Calls") || text_eq(s, n, "Calls"))
		return COL_CALLS;
	if (text_eq(s, n, "Node ID"))
		return COL_NODE_ID;
	if (text_eq(s, n, "Input Shapes"))
		return COL_SHAPES;
	if (text_eq(s, n, "Source Location"))
		return COL_SOURCE;
	if (text_starts(s, n, "Total ") && (ends_with(s, n, "FLOPs") || ends_with(s, n, "FLOPS"))) {
		static const char prefixes[] = "KMGTP";
		size_t k = n - 6 - 5;	/* letters between "Total " and "FLOPs" */
		const char *p;

		c->flops_scale = 1;
		if (k == 0)
			return COL_FLOPS;
		if (k != 1 || !(p = strchr(prefixes, s[6])) || !s[6])
			return COL_UNKNOWN;
		for (long i = 0; i <= p - prefixes; i++)
			c->flops_scale *= 1e3;
		return COL_FLOPS;
	}
	if (text_starts(s, n, "Self ")) {
		self = true;
		s += 5;
		n -= 5;
	}
	if (ends_with(s, n, " Mem")) {
		mem = true;
		n -= 4;
	} else if (ends_with(s, n, " total")) {
		total = true;
		n -= 6;
	}
	if (text_eq(s, n, "CPU")) {
		if (mem)
			return self ? COL_SELF_CPU_MEM : COL_CPU_MEM;
		if (self)
			return COL_HOST_SELF;
		return total ? COL_HOST_TOTAL : COL_UNKNOWN;
	}
	if (!is_device_word(s, n) || n >= sizeof(t->dev))
		return COL_UNKNOWN;
	if (!t->dev[0])
		copy_text(t->dev, sizeof(t->dev), s, n);
	else if (!text_eq(s, n, t->dev))
		return COL_UNKNOWN;	/* a second device word: not a layout we know */
	if (mem)
		return self ? COL_SELF_DEV_MEM : COL_DEV_MEM;
	if (self)
		return COL_DEV_SELF;
	return total ? COL_DEV_TOTAL : COL_UNKNOWN;
}

static bool is_numeric_kind(enum col_kind k)
{
	return (k >= COL_HOST_SELF && k <= COL_CALLS) || k == COL_NODE_ID;
}

static bool is_time_kind(enum col_kind k)
{
	return k >= COL_HOST_SELF && k <= COL_DEV_TOTAL;
}

/* A quick test before splitting: does LINE look like a table header? */
static bool looks_like_header(const char *s, size_t n)
{
	struct field f[MAX_COLS];
	size_t nf;
	bool name = false, cpu = false;

	if (!text_find(s, n, "Name") || !text_find(s, n, "CPU"))
		return false;
	nf = text_split2(s, n, f, MAX_COLS);
	if (nf > MAX_COLS)
		return false;
	for (size_t i = 0; i < nf; i++) {
		name |= text_eq(f[i].s, f[i].len, "Name");
		cpu |= text_eq(f[i].s, f[i].len, "Self CPU") || text_eq(f[i].s, f[i].len, "Self CPU total") ||
		       text_eq(f[i].s, f[i].len, "CPU total");
	}
	return name && cpu;
}

/*
 * Set up T's columns from the header line HDR and, when there is one, its
 * separator SEP (NR_SEP spans).  Header titles are read by splitting on
 * blanks, not along the spans: "Self CUDA Mem" and "CUDA time avg" are 13
 * characters in 12-character columns and push the rest of the header line
 * one place to the right.  Returns false when this is not a header we can
 * read (no Name or no host time column).
 */
static bool setup_columns(struct table *t, const char *hdr, size_t len, const struct span *sep,
			  size_t nr_sep)
{
	struct field f[MAX_COLS];
	size_t nf = text_split2(hdr, len, f, MAX_COLS);
	bool has_name = false, has_host = false;

	if (nf > MAX_COLS || (sep && nr_sep > MAX_COLS))
		return false;
	t->has_spans = sep != NULL;
	t->nr_cols = sep ? nr_sep : nf;
	t->source_col = -1;
	for (size_t i = 0; i < t->nr_cols; i++) {
		struct column *c = &t->cols[i];
		const struct field *title = NULL;

		if (sep) {
			c->sp = sep[i];
			if (nf == nr_sep) {
				title = &f[i];
			} else {
				/* The header field that overlaps this span most. */
				size_t best = 0;

				for (size_t k = 0; k < nf; k++) {
					size_t a = f[k].col > c->sp.start ? f[k].col : c->sp.start;
					size_t b = f[k].col + f[k].len < c->sp.end ? f[k].col + f[k].len : c->sp.end;

					if (b > a && b - a > best) {
						best = b - a;
						title = &f[k];
					}
				}
			}
		} else {
			title = &f[i];
			c->sp.start = f[i].col;
			c->sp.end = f[i].col + f[i].len;
		}
		c->kind = title ? classify(t, c, title->s, title->len) : COL_UNKNOWN;
		if (title)
			copy_text(c->title, sizeof(c->title), title->s, title->len);
		else
			c->title[0] = '\0';
		has_name |= c->kind == COL_NAME && i == 0;
		has_host |= c->kind == COL_HOST_SELF || c->kind == COL_HOST_TOTAL;
	}
	if (!has_name || !has_host)
		return false;
	/* PyTorch appends the FLOPs header after Source Location but puts the
	 * FLOPs value before it in each row (profiler_util.py _build_table);
	 * the stack frames land in the last column. */
	if (t->nr_cols >= 2 && t->cols[t->nr_cols - 2].kind == COL_SOURCE &&
	    t->cols[t->nr_cols - 1].kind == COL_FLOPS) {
		struct column *src = &t->cols[t->nr_cols - 2], *fl = &t->cols[t->nr_cols - 1];

		src->kind = COL_FLOPS;
		src->flops_scale = fl->flops_scale;
		fl->kind = COL_SOURCE;
	}
	t->nr_required = 0;
	for (size_t i = 0; i < t->nr_cols; i++) {
		if (t->cols[i].kind == COL_SOURCE)
			t->source_col = (int)i;
		if (t->cols[i].kind != COL_SOURCE && t->cols[i].kind != COL_SHAPES &&
		    t->cols[i].kind != COL_FLOPS)
			t->nr_required = i + 1;
		t->mono[i] = true;
		t->fell[i] = false;
	}
	return true;
}

static void start_table(struct torch_table *tt, const char *hdr, size_t len, bool with_sep,
			struct pos at)
{
	struct table *t = &tt->t;

	free(t->rows);
	memset(t, 0, sizeof(*t));
	t->header_at = at;
	copy_text(t->title, sizeof(t->title), tt->title, strlen(tt->title));
	t->top_level_only = tt->top_level_only;
	if (!setup_columns(t, hdr, len, with_sep ? tt->prev_sep : NULL, tt->nr_prev_sep)) {
		tt->state = SEEK;
		return;
	}
	t->start_line = with_sep ? tt->prev_sep_line : t->header_at.line;
	tt->state = ROWS;
}

/*
 * The cells of LINE (the body of a table line) in T's columns.  Returns
 * true when they line up: along the separator's spans when the gaps between
 * them are blank, else split on runs of blanks when that gives the
 * header's column count (missing trailing Input Shapes or Source Location
 * allowed).  *SPLIT says whether the fallback was used.
 */
static bool get_cells(const struct table *t, const char *line, size_t len, struct field *cells,
		      bool *split)
{
	struct field f[MAX_COLS];
	size_t nf;

	*split = false;
	if (t->has_spans) {
		bool wide = false, aligned = true;
		size_t prev_end = 0;

		for (size_t i = 0; i < len && !wide; i++)
			wide = (unsigned char)line[i] >= 0x80;
		for (size_t i = 0; i < t->nr_cols && aligned; i++) {
			struct span sp = t->cols[i].sp;

			/* Python pads by characters, not bytes. */
			if (wide) {
				sp.start = text_byte_of_col(line, len, sp.start);
				sp.end = text_byte_of_col(line, len, sp.end);
			}
			if (i == t->nr_cols - 1)
				sp.end = len;	/* the last cell may overflow */
			for (size_t k = prev_end; k < sp.start && k < len; k++)
				if (line[k] != ' ' && line[k] != '\t')
					aligned = false;
			cells[i] = text_cell(line, len, sp);
			prev_end = sp.end;
		}
		if (aligned)
			return true;
	}
	nf = text_split2(line, len, f, MAX_COLS);
	if (nf > t->nr_cols || nf < t->nr_required)
		return false;
	for (size_t i = 0; i < t->nr_cols; i++) {
		if (i < nf) {
			cells[i] = f[i];
		} else {
			cells[i].s = line + len;
			cells[i].len = 0;
			cells[i].col = len;
		}
	}
	*split = true;
	return true;
}

static struct profile *new_run(struct torch_table *tt)
{
	struct table *t = &tt->t;
	struct profile *run;
	char where[600];

	snprintf(where, sizeof(where), "%s:%llu", tt->d->path, (unsigned long long)t->start_line);
	if (!tt->nr_tables && !tt->p->root->child) {
		run = tt->p;
		if (!run->run_where)
			run->run_where = profile_strdup(run, where);
	} else {
		run = profile_add_run(tt->p, where);
	}
	tt->nr_tables++;
	tt->d->profile = run;	/* this table's warnings are its run's */
	if (!t->has_spans) {
		struct pos at = t->header_at;

		diag_warn(tt->d, &at, "tables without separator lines (columns split on blanks)",
			  "table header has no dash separator; columns are split on runs of blanks");
	}
	if (t->title[0])
		profile_meta(run, "table", "title", t->title);
	if (t->dev[0])
		profile_meta(run, "table", "device", t->dev);
	if (t->top_level_only)
		profile_meta(run, "table", "rows", "top-level ops only");
	return run;
}

/* Names of rows that have host time, sorted by pointer (names are interned). */
static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;

	return x < y ? -1 : x > y;
}

static bool has_host_time(const struct node *n)
{
	return n->host_self_ns || n->host_total_ns;
}

/*
 * Device-only rows are kernels and copies, except a gpu_user_annotation:
 * the device-side twin of a host range (ProfilerStep#N, a record_function
 * label, DistributedDataParallel.forward), which the table prints under the
 * same name as the host op.  Twins are found by name over the whole table.
 */
static void add_device_children(struct torch_table *tt)
{
	struct table *t = &tt->t;
	const char **host = xmalloc((t->nr_rows ? t->nr_rows : 1) * sizeof(*host));
	size_t nr_host = 0;

	for (size_t i = 0; i < t->nr_rows; i++)
		if (has_host_time(t->rows[i]))
			host[nr_host++] = t->rows[i]->name;
	qsort(host, nr_host, sizeof(*host), cmp_ptr);
	for (size_t i = 0; i < t->nr_rows; i++) {
		struct node *n = t->rows[i], *k;

		if (has_host_time(n) || (!n->device_self_ns && !n->device_total_ns))
			continue;
		if (bsearch(&n->name, host, nr_host, sizeof(*host), cmp_ptr) ||
		    !strncmp(n->name, "ProfilerStep", 12))
			continue;
		k = node_new_interned(t->run, n, device_kind(n->name), n->name);
		/* Distinct too: two kernels cut to the same 52 characters are
		 * two rows in the table, and stay two rows. */
		k->flags = n->flags & (NODE_NAME_TRUNCATED | NODE_DISTINCT);
		k->calls = n->calls;
		k->device_total_ns = k->device_self_ns = n->device_total_ns ? n->device_total_ns : n->device_self_ns;
	}
	free(host);
}

/* The column the rows are sorted by, when the values say so. */
static const char *sorted_by(const struct table *t)
{
	if (t->nr_rows < 3)
		return NULL;
	for (size_t i = 0; i < t->nr_cols; i++)
		if (is_numeric_kind(t->cols[i].kind) && t->cols[i].kind != COL_NODE_ID && t->mono[i] &&
		    t->fell[i])
			return t->cols[i].title;
	return NULL;
}

static void finish_table(struct torch_table *tt)
{
	struct table *t = &tt->t;
	const char *by;

	tt->state = FOOTER;
	tt->last_run = t->run;
	if (!t->run) {
		struct pos at = t->header_at;

		if (!t->nr_skipped)
			diag_warn(tt->d, &at, "tables with no rows", "table has a header but no rows");
		free(t->rows);
		t->rows = NULL;
		return;
	}
	add_device_children(tt);
	if ((by = sorted_by(t))) {
		char title[TITLE_MAX + 16];

		profile_meta(t->run, "table", "sorted by", by);
		if (!t->title[0]) {
			snprintf(title, sizeof(title), "sorted by %s", by);
			t->run->run_title = profile_strdup(t->run, title);
		}
	}
	if (t->title[0])
		t->run->run_title = profile_strdup(t->run, t->title);
	free(t->rows);
	t->rows = NULL;
	t->nr_rows = t->alloc_rows = 0;
}

static void note_sort(struct table *t, size_t col, int64_t v)
{
	if (t->nr_rows) {
		if (v > t->prev[col])
			t->mono[col] = false;
		else if (v < t->prev[col])
			t->fell[col] = true;
	}
	t->prev[col] = v;
}

enum row_result { ROW_OK, ROW_SKIP, ROW_END, ROW_ERROR };

/* Append a Source Location continuation row to the last row. */
static void continue_source(struct torch_table *tt, const struct field *frame)
{
	struct table *t = &tt->t;
	struct attr *a;
	char *joined;
	size_t old;

	if (!t->last)
		return;
	a = node_attr(t->last, "source_location");
	if (!a || a->type != ATTR_STRING || !a->v.s[0]) {
		attr_set_str(t->run, &t->last->attrs, "source_location", frame->s, frame->len);
		return;
	}
	old = strlen(a->v.s);
	joined = xmalloc(old + 2 + frame->len + 1);
	memcpy(joined, a->v.s, old);
	memcpy(joined + old, "; ", 2);
	memcpy(joined + old + 2, frame->s, frame->len);
	attr_set_str(t->run, &t->last->attrs, "source_location", joined, old + 2 + frame->len);
	free(joined);
}

/*
 * One line inside a table.  BODY is LINE without its prefix (PFX bytes).
 */
static enum row_result read_row(struct torch_table *tt, const char *body, size_t len, size_t pfx)
{
	struct table *t = &tt->t;
	struct field cells[MAX_COLS];
	int64_t v[MAX_COLS];
	double flops = -1;
	bool split, any_number = false;
	int missing = -1, bad = -1;
	const struct field *name;
	struct node *n;
	struct pos at = { tt->in->lineno, pfx + 1 };

	if (is_blank_line(body, len))
		return ROW_SKIP;	/* the blank row after each stack */
	if (is_binary(body, len)) {
		diag_error(tt->d, &at, "binary data inside the table");
		return ROW_ERROR;
	}
	if (!get_cells(t, body, len, cells, &split)) {
		struct field f[MAX_COLS];
		size_t nf = text_split2(body, len, f, MAX_COLS), nr_times = 0;
		int64_t ns;

		for (size_t i = 0; i < nf && i < MAX_COLS; i++)
			nr_times += num_time_ns(f[i].s, f[i].len, -1, &ns);
		if (nr_times >= 2) {
			diag_warn(tt->d, &at, "rows that do not line up with the header, skipped",
				  "row does not line up with the header's columns; skipped");
			t->nr_skipped++;
			return ROW_SKIP;
		}
		return ROW_END;
	}
	name = &cells[0];
	if (!name->len) {
		bool only_source = t->source_col >= 0 && cells[t->source_col].len;

		for (size_t i = 1; i < t->nr_cols && only_source; i++)
			if ((int)i != t->source_col && cells[i].len)
				only_source = false;
		if (only_source && t->last) {
			continue_source(tt, &cells[t->source_col]);
			return ROW_OK;
		}
		diag_warn(tt->d, &at, "rows without a name, skipped", "row has no name; skipped");
		t->nr_skipped++;
		return ROW_SKIP;
	}
	for (size_t i = 1; i < t->nr_cols; i++) {
		const struct column *c = &t->cols[i];
		const struct field *f = &cells[i];
		bool ok = true;

		v[i] = 0;
		if (c->kind == COL_FLOPS) {
			if (f->len && !text_eq(f->s, f->len, "--")) {
				ok = num_double(f->s, f->len, &flops);
				if (ok)
					flops *= c->flops_scale;
			}
		} else if (c->kind == COL_DERIVED) {
			double x;
			int64_t ns;

			/* Not kept, but a number here says this is a row. */
			any_number |= f->len && (num_pct(f->s, f->len, &x) || num_time_ns(f->s, f->len, -1, &ns));
			continue;
		} else if (!is_numeric_kind(c->kind)) {
			continue;
		} else if (!f->len) {
			if (missing < 0)
				missing = (int)i;
			continue;
		} else if (is_time_kind(c->kind)) {
			ok = num_time_ns(f->s, f->len, -1, &v[i]) && v[i] <= MAX_ABS_NS && v[i] >= -MAX_ABS_NS;
		} else if (c->kind == COL_CALLS) {
			ok = num_int(f->s, f->len, &v[i]) && v[i] >= 0;
		} else if (c->kind == COL_NODE_ID) {
			ok = num_int(f->s, f->len, &v[i]);
		} else {
			ok = num_bytes(f->s, f->len, &v[i]);
		}
		if (!ok && bad < 0)
			bad = (int)i;
		any_number |= ok && c->kind != COL_FLOPS;
	}
	if (!any_number)
		return ROW_END;	/* prose, a title: not a row */
	if (missing >= 0) {
		size_t col_start = t->cols[missing].sp.start, used = len;

		while (used && (body[used - 1] == ' ' || body[used - 1] == '\t'))
			used--;
		at.col = pfx + (used < col_start ? used : col_start) + 1;
		if (!split && used <= col_start) {
			diag_error(tt->d, &at, "table row cut short before column '%s'",
				   t->cols[missing].title);
			return ROW_ERROR;
		}
		diag_warn(tt->d, &at, "rows with empty cells, skipped", "row has no '%s' value; skipped",
			  t->cols[missing].title);
		t->nr_skipped++;
		return ROW_SKIP;
	}
	if (bad >= 0) {
		at.col = pfx + cells[bad].col + 1;
		diag_warn(tt->d, &at, "rows with unreadable cells, skipped",
			  "'%.*s' is not a valid '%s' value; row skipped", (int)(cells[bad].len < 40 ? cells[bad].len : 40),
			  cells[bad].s, t->cols[bad].title);
		t->nr_skipped++;
		return ROW_SKIP;
	}
	if (split && t->has_spans)
		diag_warn(tt->d, &at, "rows not aligned with the header (read by splitting on blanks)",
			  "row does not line up with the separator; read by splitting on blanks");

	if (!t->run)
		t->run = new_run(tt);
	n = node_new(t->run, t->run->root, NODE_OP, name->s, name->len);
	n->flags = NODE_DISTINCT;
	if (ends_with(name->s, name->len, "..."))
		n->flags |= NODE_NAME_TRUNCATED;
	for (size_t i = 1; i < t->nr_cols; i++) {
		const struct column *c = &t->cols[i];
		const struct field *f = &cells[i];

		switch (c->kind) {
		case COL_HOST_SELF:
			n->host_self_ns = v[i];
			break;
		case COL_HOST_TOTAL:
			n->host_total_ns = v[i];
			break;
		case COL_DEV_SELF:
			n->device_self_ns = v[i];
			break;
		case COL_DEV_TOTAL:
			n->device_total_ns = v[i];
			break;
		case COL_CALLS:
			n->calls = (uint64_t)v[i];
			break;
		case COL_CPU_MEM:
		case COL_SELF_CPU_MEM:
		case COL_DEV_MEM:
		case COL_SELF_DEV_MEM:
			attr_set_int(t->run, &n->attrs, mem_keys[c->kind], v[i]);
			break;
		case COL_NODE_ID:
			attr_set_int(t->run, &n->attrs, "node_id", v[i]);
			break;
		case COL_OVERLOAD:
			attr_set_str(t->run, &n->attrs, "overload_name", f->s, f->len);
			break;
		case COL_SHAPES:
			attr_set_str(t->run, &n->attrs, "input_shapes", f->s, f->len);
			break;
		case COL_SOURCE:
			attr_set_str(t->run, &n->attrs, "source_location", f->s, f->len);
			break;
		case COL_FLOPS:
			if (flops >= 0)
				attr_set_double(t->run, &n->attrs, "flops", flops);
			break;
		default:
			break;
		}
		if (is_numeric_kind(c->kind))
			note_sort(t, i, v[i]);
	}
	GROW(t->rows, t->alloc_rows, t->nr_rows + 1);
	t->rows[t->nr_rows++] = n;
	t->last = n;
	return ROW_OK;
}

static void add_footer(struct torch_table *tt, const char *s, size_t n, const char *value, size_t vlen)
{
	char key[64], val[64];
	size_t klen;

	if (!tt->last_run)
		return;
	s = text_trim(s, &n);
	klen = (size_t)(text_find(s, n, ":") - s);
	copy_text(key, sizeof(key), s, klen);
	copy_text(val, sizeof(val), value, vlen);
	profile_meta(tt->last_run, "totals", key, val);
}

/* Lines outside tables: keep what may title the next one. */
static void note_prose(struct torch_table *tt, const char *s, size_t n)
{
	s = text_trim(s, &n);
	if (!n || text_starts(s, n, "```") || text_starts(s, n, "~~~")) {
		tt->title[0] = '\0';	/* a blank line or a fence ends a title */
		tt->top_level_only = false;
		return;
	}
	if (is_rule(s, n))
		return;
	if (text_eq(s, n, "This report only display top-level ops statistics")) {
		tt->top_level_only = true;
		return;
	}
	copy_text(tt->title, sizeof(tt->title), s, n);
	tt->top_level_only = false;
}

static void set_prev_sep(struct torch_table *tt, const char *body, size_t len)
{
	size_t n = text_dash_spans(body, len, tt->prev_sep, MAX_COLS, 3, false);

	tt->nr_prev_sep = n >= 3 && n <= MAX_COLS ? n : 0;
	tt->prev_sep_line = tt->in->lineno;
}

/* A header line in SEEK state. */
static void found_header(struct torch_table *tt, const char *body, size_t len, size_t pfx)
{
	struct pos at = { tt->in->lineno, pfx + 1 };

	if (!tt->nr_headers++)
		tt->first_header = at;
	if (tt->nr_prev_sep && tt->prev_sep_line + 1 == tt->in->lineno) {
		start_table(tt, body, len, true, at);
		return;
	}
	/* No separator above: there may be one below. */
	free(tt->pending);
	tt->pending = xstrndup(body, len);
	tt->pending_len = len;
	tt->pending_at = at;
	tt->state = HEADER_PENDING;
}

static int torch_table_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct torch_table tt = { .p = p, .d = d, .in = in, .state = SEEK };
	struct profile *first_warnings = d->profile;
	char *line;
	size_t len;
	int rc = 0;

	while ((line = input_line(in, &len))) {
		size_t pfx, blen;
		const char *body, *value;
		size_t vlen;

		len = text_strip_ansi(line, len);
		pfx = body_start(line, len);
		body = line + pfx;
		blen = len - pfx;

		if (tt.state == HEADER_PENDING) {
			size_t n = text_dash_spans(body, blen, tt.prev_sep, MAX_COLS, 3, false);

			tt.nr_prev_sep = n >= 3 && n <= MAX_COLS ? n : 0;
			tt.prev_sep_line = tt.pending_at.line;
			start_table(&tt, tt.pending, tt.pending_len, tt.nr_prev_sep != 0, tt.pending_at);
			free(tt.pending);
			tt.pending = NULL;
			if (tt.state == ROWS && tt.nr_prev_sep) {
				tt.t.seen_lower_sep = true;
				continue;
			}
			/* else: fall through and read this line as a row */
		}
		if (tt.state == ROWS) {
			enum row_result r;

			if (text_dash_spans(body, blen, tt.prev_sep, 1, 3, false)) {
				if (!tt.t.nr_rows && !tt.t.seen_lower_sep && !tt.t.nr_skipped) {
					tt.t.seen_lower_sep = true;
					continue;
				}
				finish_table(&tt);
				continue;
			}
			if (is_footer(body, blen, &value, &vlen)) {
				struct pos at = { in->lineno, pfx + 1 };

				if (tt.t.run && tt.t.has_spans)
					diag_warn(d, &at, "tables without a closing separator line",
						  "table ends without a separator line");
				finish_table(&tt);
				add_footer(&tt, body, blen, value, vlen);
				continue;
			}
			r = read_row(&tt, body, blen, pfx);
			if (r == ROW_ERROR) {
				finish_table(&tt);
				break;
			}
			if (r != ROW_END)
				continue;
			if (tt.t.run && tt.t.has_spans) {
				struct pos at = { in->lineno, pfx + 1 };

				diag_warn(d, &at, "tables without a closing separator line",
					  "table ends without a separator line");
			}
			finish_table(&tt);
			tt.state = SEEK;
		}
		if (tt.state == FOOTER) {
			if (is_footer(body, blen, &value, &vlen)) {
				add_footer(&tt, body, blen, value, vlen);
				continue;
			}
			tt.state = SEEK;
			tt.title[0] = '\0';
		}
		/* SEEK */
		if (is_binary(body, blen)) {
			struct pos at = { in->lineno, 1 };

			diag_warn(d, &at, "lines of binary data, ignored", "binary data outside any table; ignored");
			tt.nr_prev_sep = 0;
			tt.title[0] = '\0';
			continue;
		}
		if (looks_like_header(body, blen)) {
			found_header(&tt, body, blen, pfx);
			continue;
		}
		set_prev_sep(&tt, body, blen);
		note_prose(&tt, body, blen);
	}
	if (tt.state == ROWS) {
		if (tt.t.run) {
			struct pos at = { in->lineno, 1 };

			diag_warn(d, &at, "tables cut short at the end of the file",
				  "file ends inside a table (truncated?); kept its %zu rows", tt.t.nr_rows);
		}
		finish_table(&tt);
	}
	free(tt.pending);
	free(tt.t.rows);
	d->profile = first_warnings;
	if (input_failed(in, d))
		return tt.nr_tables ? 0 : -1;
	if (!tt.nr_tables && !d->nr_errors) {
		if (tt.nr_headers)
			diag_error(d, &tt.first_header, "table header with no rows");
		else
			diag_error(d, NULL, "no key_averages() table found (no 'Name ... Self CPU' header line)");
	}
	if (!tt.nr_tables)
		rc = -1;
	return rc;
}

/*
 * A header line ("Name" and "Self CPU" on one line) within the first
 * 64 KB, with a dash separator next to it for full marks.  JSON is never
 * a table, whatever its strings say.
 */
static int torch_table_probe(const char *head, size_t len)
{
	size_t i = 0, prev_start = 0, prev_len = 0;
	bool prev_header = false;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	/* "[05/02/2024-10:12:00] [I] ..." is a log, "[{" JSON. */
	if (i < len && (head[i] == '{' || (head[i] == '[' && !text_log_prefix(head + i, len - i))))
		return 0;
	for (i = 0; i < len;) {
		const char *nl = memchr(head + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (head + i)) : len - i, k;
		const char *s = head + i;
		struct span sp[3];

		k = body_start(s, n);
		if (prev_header && text_dash_spans(s + k, n - k, sp, 3, 3, false) >= 3)
			return 85;
		if (text_find(s, n, "Self CPU") && looks_like_header(s + k, n - k)) {
			if (prev_len && text_dash_spans(head + prev_start, prev_len, sp, 3, 3, false) >= 3)
				return 85;
			prev_header = true;
		} else if (prev_header) {
			return 60;	/* a header with no separator: a hand-made copy */
		}
		prev_start = i + k;
		prev_len = n - k;
		if (!nl)
			break;
		i += n + 1;
	}
	return prev_header ? 60 : 0;
}

const struct parser torch_table_parser = {
	.name = "torch-table",
	.summary = "PyTorch key_averages().table() text, also inside logs and Markdown",
	.probe = torch_table_probe,
	.parse = torch_table_parse,
};
