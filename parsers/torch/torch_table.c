// SPDX-License-Identifier: MIT
/*
 * PyTorch key_averages().table() text (doc/formats/torch-table.md): the
 * table that print(prof.key_averages().table(...)) writes, usually inside
 * a training log or a Markdown page, often several times per file.
 *
 * A table is found by its header line ("Name  ...  Self CPU  ..."); its
 * column spans come from the dash separator above or below it, with a
 * fallback to splitting on runs of two or more blanks when there is none
 * (hand-edited copies).  Rows are cut along the spans; a row whose cells
 * spill over the gaps is split on blanks instead.  When even that does not
 * give the header's columns (a separator of other groups than the header,
 * a lost empty cell, a name glued to its first number), the row is read
 * from the right: the header says what each column holds, each takes its
 * value from the end of the line, and the name is what is left -- the
 * table is then said, once, to have been read loosely.  A row that fits
 * no reading is skipped with a warning.
 *
 * Each table with rows becomes one run of the profile (the first table the
 * profile itself, later ones profile_add_run()): a log that prints the
 * table every epoch, or the same data sorted two ways, are separate views,
 * never sums.  Rows are nodes under the root with NODE_DISTINCT, as
 * key_averages rows are already aggregated and the same name can appear
 * on several rows (a CPU op and its gpu_user_annotation twin, a Triton
 * launch and its kernel, an op by input shape).  Each row's kind is what
 * the table says of it (classify_rows()): a row with host time is an op
 * or a runtime call (cudaLaunchKernel); one with device time only is
 * device work -- a kernel (a row of the Kernels pane), a copy or a set,
 * none of them an op -- or the device copy of a host range, an
 * annotation.  The shares and means a row states ("Self CUDA %", "CPU
 * time avg") are kept as its ATTR_FILE_* attributes: the panes show those
 * rather than recompute them from rounded cells and the rows shown.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "../text.h"

#define MAX_COLS 40
#define TITLE_MAX 160

enum col_kind {
	COL_UNKNOWN,
	COL_DERIVED,		/* a percentage not kept: its base is none of ours */
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
	/* What the file states of a row, kept as it says it (profile.h,
	 * ATTR_FILE_*): the panes show these rather than recompute them. */
	COL_HOST_SELF_PCT,
	COL_HOST_TOTAL_PCT,
	COL_DEV_SELF_PCT,
	COL_HOST_MEAN,
	COL_DEV_MEAN,
	NR_COL_KINDS
};

/*
 * Attribute keys of the file-stated columns, by kind.  Their bases, in
 * _build_table: "Self CPU %" and "CPU total %" divide by the sum of every
 * event's self CPU time (the footer's "Self CPU time total", rows cut by
 * row_limit included); "Self <DEV> %" by the sum of the device events'
 * self time (the footer's "Self <DEV> time total"); "<DEV> time avg" and
 * "CPU time avg" are the row's total over its calls.
 */
static const char *const file_keys[NR_COL_KINDS] = {
	[COL_HOST_SELF_PCT] = ATTR_FILE_HOST_SELF_PCT,
	[COL_HOST_TOTAL_PCT] = ATTR_FILE_HOST_TOTAL_PCT,
	[COL_DEV_SELF_PCT] = ATTR_FILE_DEVICE_SELF_PCT,
	[COL_HOST_MEAN] = ATTR_FILE_HOST_MEAN,
	[COL_DEV_MEAN] = ATTR_FILE_DEVICE_MEAN,
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
	bool sep_ignored;	/* the separator's groups are not the header's */
	bool warned_loose;	/* "read loosely" said for this table */
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

/*
 * Whether NAME is a runtime API call's -- the host-side calls the profiler
 * records as events of their own (cuda_runtime, cuda_driver and their
 * ROCm and oneAPI counterparts): the API's prefix, a capital, and no more
 * than an identifier (cudaLaunchKernel, cuLaunchKernel_v2,
 * hipMemcpyWithStream, urEnqueueKernelLaunch).  An op has "::" in its
 * name, a record_function label is the user's.
 */
static bool is_runtime_name(const char *name)
{
	static const char *const prefixes[] = { "cuda", "cu", "hip", "ur", "ze" };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		size_t k = strlen(prefixes[i]);

		if (strncmp(name, prefixes[i], k) || name[k] < 'A' || name[k] > 'Z')
			continue;
		for (k++; name[k]; k++)
			if (!isalnum((unsigned char)name[k]) && name[k] != '_')
				return false;
		return true;
	}
	return false;
}

static bool is_blank_line(const char *s, size_t n)
{
	text_trim(s, &n);
	return n == 0;
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

static bool is_device_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/*
 * The header titles we know, as data (lnav keeps a format's fields so):
 * what each names, in the words of profiler_util.py's _build_table.  In a
 * pattern, '@' is the device word -- whatever the profiler's use_device
 * was (CUDA, XPU, MLU, NPU, PRIVATEUSE1...), one per table -- and a
 * leading '*' any text.  The first rule that matches wins.
 */
struct title_rule {
	const char *pattern;
	enum col_kind kind;
	double flops_scale;	/* COL_FLOPS: FLOPs per unit of the column */
};

static const struct title_rule title_rules[] = {
	{ "Name", COL_NAME, 0 },
	{ "Overload Name", COL_OVERLOAD, 0 },
	{ "Self CPU %", COL_HOST_SELF_PCT, 0 },
	{ "Self CPU", COL_HOST_SELF, 0 },
	{ "CPU total %", COL_HOST_TOTAL_PCT, 0 },
	{ "CPU total", COL_HOST_TOTAL, 0 },
	{ "CPU time avg", COL_HOST_MEAN, 0 },
	{ "Self @", COL_DEV_SELF, 0 },
	{ "Self @ %", COL_DEV_SELF_PCT, 0 },
	{ "@ total", COL_DEV_TOTAL, 0 },
	{ "@ time avg", COL_DEV_MEAN, 0 },
	{ "CPU Mem", COL_CPU_MEM, 0 },
	{ "Self CPU Mem", COL_SELF_CPU_MEM, 0 },
	{ "@ Mem", COL_DEV_MEM, 0 },
	{ "Self @ Mem", COL_SELF_DEV_MEM, 0 },
	{ "# of Calls", COL_CALLS, 0 },
	{ "Node ID", COL_NODE_ID, 0 },
	{ "Input Shapes", COL_SHAPES, 0 },
	{ "Source Location", COL_SOURCE, 0 },
	/* _build_table names the FLOPs column for its unit; older forks
	 * spell it FLOPS. */
	{ "Total FLOPs", COL_FLOPS, 1 },
	{ "Total KFLOPs", COL_FLOPS, 1e3 },
	{ "Total MFLOPs", COL_FLOPS, 1e6 },
	{ "Total GFLOPs", COL_FLOPS, 1e9 },
	{ "Total TFLOPs", COL_FLOPS, 1e12 },
	{ "Total PFLOPs", COL_FLOPS, 1e15 },
	{ "Total FLOPS", COL_FLOPS, 1 },
	{ "Total KFLOPS", COL_FLOPS, 1e3 },
	{ "Total MFLOPS", COL_FLOPS, 1e6 },
	{ "Total GFLOPS", COL_FLOPS, 1e9 },
	{ "Total TFLOPS", COL_FLOPS, 1e12 },
	{ "Total PFLOPS", COL_FLOPS, 1e15 },
	/* PyTorch <= 1.7.  Its "CUDA total %" divides each row's inclusive
	 * CUDA total by the sum of every event's inclusive total: a base
	 * no pane has, so it is not kept. */
	{ "Self CPU total %", COL_HOST_SELF_PCT, 0 },
	{ "Self CPU total", COL_HOST_SELF, 0 },
	{ "@ total %", COL_DERIVED, 0 },
	{ "Number of Calls", COL_CALLS, 0 },
	{ "Calls", COL_CALLS, 0 },
	/* Other percentages and averages, of what we do not know. */
	{ "*%", COL_DERIVED, 0 },
	{ "* avg", COL_DERIVED, 0 },
};

/* Whether the title S[0..N) is PATTERN; '@' stores the device word in *DEV. */
static bool title_matches(const char *pattern, const char *s, size_t n, struct field *dev)
{
	if (*pattern == '*')
		return text_ends(s, n, pattern + 1);
	for (; *pattern; pattern++) {
		if (*pattern == '@') {
			size_t k = 0;

			while (k < n && is_device_char(s[k]))
				k++;
			if (!k)
				return false;
			dev->s = s;
			dev->len = k;
			s += k;
			n -= k;
		} else if (n && *s == *pattern) {
			s++;
			n--;
		} else {
			return false;
		}
	}
	return n == 0;
}

/* The rule for the title S[0..N), and its device word in *DEV; NULL if none. */
static const struct title_rule *title_rule(const char *s, size_t n, struct field *dev)
{
	for (size_t i = 0; i < ARRAY_SIZE(title_rules); i++) {
		dev->len = 0;
		if (!title_matches(title_rules[i].pattern, s, n, dev))
			continue;
		/* "CPU" is the host, which rules of its own name. */
		if (dev->len && text_eq(dev->s, dev->len, "CPU"))
			continue;
		return &title_rules[i];
	}
	return NULL;
}

/* The columns whose title names the table's device: its times and memory. */
static bool names_device(enum col_kind k)
{
	return k == COL_DEV_SELF || k == COL_DEV_TOTAL || k == COL_DEV_MEM || k == COL_SELF_DEV_MEM;
}

/* T's device: the word of the first device time or memory title of the
 * header fields F[0..NF). */
static void find_device(struct table *t, const struct field *f, size_t nf)
{
	for (size_t i = 0; i < nf && !t->dev[0]; i++) {
		struct field dev;
		const struct title_rule *r = title_rule(f[i].s, f[i].len, &dev);

		if (r && names_device(r->kind) && dev.len < sizeof(t->dev))
			copy_text(t->dev, sizeof(t->dev), dev.s, dev.len);
	}
}

/*
 * What the header title S[0..N) names.  A title with a device word other
 * than the table's (T->dev) is not a layout we know: a time or a memory
 * column is not read, a percentage or a mean not kept.
 */
static enum col_kind classify(const struct table *t, struct column *c, const char *s, size_t n)
{
	struct field dev = { NULL, 0, 0 };
	const struct title_rule *r = title_rule(s, n, &dev);

	if (!r)
		return COL_UNKNOWN;
	if (dev.len && !text_eq(dev.s, dev.len, t->dev))
		return names_device(r->kind) ? COL_UNKNOWN : COL_DERIVED;
	c->flops_scale = r->flops_scale;
	return r->kind;
}

static bool is_numeric_kind(enum col_kind k)
{
	return (k >= COL_HOST_SELF && k <= COL_CALLS) || k == COL_NODE_ID;
}

static bool is_time_kind(enum col_kind k)
{
	return k >= COL_HOST_SELF && k <= COL_DEV_TOTAL;
}

static bool is_file_pct_kind(enum col_kind k)
{
	return k >= COL_HOST_SELF_PCT && k <= COL_DEV_SELF_PCT;
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
		struct field dev;
		const struct title_rule *r = title_rule(f[i].s, f[i].len, &dev);

		name |= r && r->kind == COL_NAME;
		cpu |= r && (r->kind == COL_HOST_SELF || r->kind == COL_HOST_TOTAL);
	}
	return name && cpu;
}

/* The field of F[0..NF) that overlaps SP most; NULL if none does. */
static const struct field *overlapping(const struct field *f, size_t nf, struct span sp)
{
	const struct field *found = NULL;
	size_t best = 0;

	for (size_t k = 0; k < nf; k++) {
		size_t a = f[k].col > sp.start ? f[k].col : sp.start;
		size_t b = f[k].col + f[k].len < sp.end ? f[k].col + f[k].len : sp.end;

		if (b > a && b - a > best) {
			best = b - a;
			found = &f[k];
		}
	}
	return found;
}

/* Whether every title of F[0..NF) is one title_rules[] knows. */
static bool all_titles_known(const struct field *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++) {
		struct field dev;

		if (!title_rule(f[i].s, f[i].len, &dev))
			return false;
	}
	return true;
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
	/* A separator with other groups than the header has titles (typed by
	 * hand, or from another table) says nothing about the columns when
	 * the header names each of them: rows are then read loosely.  Else
	 * each group takes the title over it. */
	if (sep && nf != nr_sep && all_titles_known(f, nf)) {
		t->sep_ignored = true;
		sep = NULL;
	}
	t->has_spans = sep != NULL;
	t->nr_cols = sep ? nr_sep : nf;
	t->source_col = -1;
	find_device(t, f, nf);
	for (size_t i = 0; i < t->nr_cols; i++) {
		struct column *c = &t->cols[i];
		const struct field *title;

		if (sep) {
			c->sp = sep[i];
			title = nf == nr_sep ? &f[i] : overlapping(f, nf, c->sp);
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
	if (!tt->nr_tables && !node_first_child(tt->p->root)) {
		run = tt->p;
		if (!run->run_where)
			run->run_where = profile_strdup(run, where);
	} else {
		run = profile_add_run(tt->p, where);
	}
	tt->nr_tables++;
	tt->d->profile = run;	/* this table's warnings are its run's */
	if (!t->has_spans && !t->sep_ignored) {
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

static bool has_host_time(const struct profile *run, const struct node *n)
{
	return node_host_self(run, n) || node_host_total(run, n);
}

/* A name of host rows, and the most device self time any of them has. */
struct host_name {
	const char *name;	/* interned: equal names are equal pointers */
	int64_t device_self;
};

static int cmp_host_name(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct host_name *)a)->name;
	uintptr_t y = (uintptr_t)((const struct host_name *)b)->name;

	return x < y ? -1 : x > y;
}

/* The names of T's rows that have host time, sorted, one entry each. */
static struct host_name *host_names(const struct table *t, size_t *nr)
{
	struct host_name *h = xmalloc((t->nr_rows ? t->nr_rows : 1) * sizeof(*h));
	size_t n = 0, k = 0;

	for (size_t i = 0; i < t->nr_rows; i++)
		if (has_host_time(t->run, t->rows[i]))
			h[n++] = (struct host_name){ node_name(t->rows[i]),
						     node_device_self(t->run, t->rows[i]) };
	qsort(h, n, sizeof(*h), cmp_host_name);
	for (size_t i = 0; i < n; i++) {
		if (!k || h[k - 1].name != h[i].name)
			h[k++] = h[i];
		else if (h[i].device_self > h[k - 1].device_self)
			h[k - 1].device_self = h[i].device_self;
	}
	*nr = k;
	return h;
}

/* The ranges PyTorch itself labels with record_function: never a kernel,
 * even when the table left out their host rows (row_limit). */
static bool is_pytorch_range(const char *name)
{
	static const char *const prefixes[] = { "ProfilerStep", "Optimizer.", "DataParallel.forward",
						"DistributedDataParallel.forward",
						"enumerate(DataLoader)" };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * Whether the device-only row N, of device time DEV, is the device-side
 * copy of a host range (a gpu_user_annotation: ProfilerStep*, a
 * record_function label, DistributedDataParallel.forward), which the
 * table prints under the host range's name.  A device row of a host row's
 * name is that copy unless the host row launched it -- its own device
 * time holds the row's: a Triton kernel and the cpu_op of its name that
 * launched it.  A range launches nothing itself (its self time is 0).
 */
static bool is_device_range(const struct node *n, int64_t dev, const struct host_name *host,
			    size_t nr_host)
{
	struct host_name key = { node_name(n), 0 };
	const struct host_name *twin;

	if (is_pytorch_range(key.name))
		return true;
	twin = bsearch(&key, host, nr_host, sizeof(*host), cmp_host_name);
	return twin && !(twin->device_self > 0 && twin->device_self >= dev);
}

/*
 * What each row of the table is, by what the table says of it (rows are
 * made as ops, and their kind set when the whole table is read, since a
 * row's twin may come after it).  key_averages keeps apart the events its
 * key does (profiler_util.py get_key(): name, node, device type, user
 * annotation or not), so one name may print on several rows.  A row with
 * host time is an op, or a runtime call when it has a runtime API's name;
 * one with device time only is device work -- a kernel, a copy (Memcpy
 * ...), a set (Memset ...) -- or the device copy of a host range, an
 * annotation.  Device work is a row of the Kernels pane (kernels) and of
 * no op's: the table does not say which op launched it.
 */
static void classify_rows(struct torch_table *tt)
{
	struct table *t = &tt->t;
	size_t nr_host;
	struct host_name *host = host_names(t, &nr_host);

	for (size_t i = 0; i < t->nr_rows; i++) {
		struct node *n = t->rows[i];
		int64_t self = node_device_self(t->run, n), total = node_device_total(t->run, n);
		int64_t dev = total ? total : self;

		if (has_host_time(t->run, n)) {
			if (is_runtime_name(node_name(n)))
				n->kind = NODE_RUNTIME;
			continue;
		}
		if (!dev)
			continue;
		if (is_device_range(n, dev, host, nr_host)) {
			n->kind = NODE_ANNOTATION;
			continue;
		}
		n->kind = (uint8_t)device_kind(node_name(n));
		/* All of a kernel's time is its own. */
		node_set_device_self(t->run, n, dev);
		node_set_device_total(t->run, n, dev);
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
	classify_rows(tt);
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
	if (!a || attr_type(a) != ATTR_STRING || !a->v.s[0]) {
		attr_set_str(t->run, node_attr_list(t->last), "source_location", frame->s, frame->len);
		return;
	}
	old = strlen(a->v.s);
	joined = xmalloc(old + 2 + frame->len + 1);
	memcpy(joined, a->v.s, old);
	memcpy(joined + old, "; ", 2);
	memcpy(joined + old + 2, frame->s, frame->len);
	attr_set_str(t->run, node_attr_list(t->last), "source_location", joined, old + 2 + frame->len);
	free(joined);
}

/*
 * A line that does not cut into the header's columns: a row gone wrong
 * when it holds two or more times (skipped, counted), else whatever
 * follows the table (prose, a log line): its end.
 */
static enum row_result misaligned_row(struct torch_table *tt, const char *body, size_t len,
				      struct pos at)
{
	struct field f[MAX_COLS];
	size_t nf = text_split2(body, len, f, MAX_COLS), nr_times = 0;
	int64_t ns;

	for (size_t i = 0; i < nf && i < MAX_COLS; i++)
		nr_times += num_time_ns(f[i].s, f[i].len, -1, &ns);
	if (nr_times < 2)
		return ROW_END;
	diag_warn(tt->d, &at, "rows that do not line up with the header, skipped",
		  "row does not line up with the header's columns; skipped");
	tt->t.nr_skipped++;
	return ROW_SKIP;
}

/* A row without a name: the next frame of the last row's Source Location,
 * or skipped. */
static enum row_result nameless_row(struct torch_table *tt, const struct field *cells, struct pos at)
{
	struct table *t = &tt->t;
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

/* The numbers of one row, by column. */
struct row_values {
	int64_t v[MAX_COLS];	/* times in ns, bytes, calls, node ids; means */
	double pct[MAX_COLS];	/* file-stated percentages */
	bool has_file[MAX_COLS];	/* the file-stated value of the column
					   read (pct or v) */
	double flops;		/* -1: none ("--" or no column) */
};

enum cell_state {
	CELL_IGNORED,		/* text, or a number that does not make a row */
	CELL_NUMBER,
	CELL_EMPTY,		/* a numeric column with nothing in it */
	CELL_BAD,		/* a numeric column with something else in it */
};

/*
 * A percentage or a mean: kept only as the file states it ("12.34%",
 * "1.234ms"), never a "NaN" (a total of zero) or the bare "0" that
 * _build_table prints as the "CPU total %" of an async event, which is
 * no percentage at all.  A cell that is neither makes nothing wrong
 * with the row: the numbers we sum are elsewhere.
 */
static enum cell_state read_file_value(const struct column *c, const struct field *f, size_t i,
				       struct row_values *rv)
{
	double x;
	int64_t ns;
	bool is_pct = f->len && num_pct(f->s, f->len, &x);
	bool is_time = !is_pct && f->len && num_time_ns(f->s, f->len, -1, &ns);

	rv->has_file[i] = false;
	if (is_file_pct_kind(c->kind) && is_pct && text_ends(f->s, f->len, "%") && isfinite(x)) {
		rv->pct[i] = x;
		rv->has_file[i] = true;
	} else if ((c->kind == COL_HOST_MEAN || c->kind == COL_DEV_MEAN) && is_time &&
		   ns <= BOUND_DUR_NS && ns >= -BOUND_DUR_NS) {
		rv->v[i] = ns;
		rv->has_file[i] = true;
	}
	/* A number here says this is a row. */
	return is_pct || is_time ? CELL_NUMBER : CELL_IGNORED;
}

/* Read the cell F of column C into RV's column I. */
static enum cell_state read_cell(const struct column *c, const struct field *f, size_t i,
				 struct row_values *rv)
{
	bool ok;

	rv->v[i] = 0;
	if (c->kind == COL_FLOPS) {
		if (!f->len || text_eq(f->s, f->len, "--"))
			return CELL_IGNORED;
		if (!num_double(f->s, f->len, &rv->flops) || !isfinite(rv->flops) || rv->flops < 0)
			return CELL_BAD;
		rv->flops *= c->flops_scale;
		return CELL_IGNORED;
	}
	if (c->kind == COL_DERIVED || file_keys[c->kind])
		return read_file_value(c, f, i, rv);
	if (!is_numeric_kind(c->kind))
		return CELL_IGNORED;
	if (!f->len)
		return CELL_EMPTY;
	/* Beyond model/bounds.h's bounds a cell is garbage (CELL_BAD: the row
	 * is skipped, said), and the panes' sums of it would overflow.  Self
	 * times may be negative (PyTorch subtracts children). */
	if (is_time_kind(c->kind))
		ok = num_time_ns(f->s, f->len, -1, &rv->v[i]) && rv->v[i] <= BOUND_DUR_NS &&
		     rv->v[i] >= -BOUND_DUR_NS;
	else if (c->kind == COL_CALLS)
		ok = num_int(f->s, f->len, &rv->v[i]) && bound_count_ok(rv->v[i]);
	else if (c->kind == COL_NODE_ID)
		ok = num_int(f->s, f->len, &rv->v[i]);
	else
		ok = num_bytes(f->s, f->len, &rv->v[i]) && bound_bytes_ok(rv->v[i]);
	return ok ? CELL_NUMBER : CELL_BAD;
}

/* What the numeric cells of a row came to. */
struct verdict {
	bool any_number;	/* else: prose, a title -- not a row */
	int missing, bad;	/* the first empty / unreadable numeric cell, or -1 */
};

/* Read the numeric cells of a row into RV and say how that went. */
static struct verdict read_values(const struct table *t, const struct field *cells, struct row_values *rv)
{
	struct verdict v = { false, -1, -1 };

	rv->flops = -1;
	for (size_t i = 1; i < t->nr_cols; i++) {
		switch (read_cell(&t->cols[i], &cells[i], i, rv)) {
		case CELL_NUMBER:
			v.any_number = true;
			break;
		case CELL_EMPTY:
			if (v.missing < 0)
				v.missing = (int)i;
			break;
		case CELL_BAD:
			if (v.bad < 0)
				v.bad = (int)i;
			break;
		default:
			break;
		}
	}
	return v;
}

static bool is_whole_row(struct verdict v)
{
	return v.any_number && v.missing < 0 && v.bad < 0;
}

/*
 * A row whose cells did not all read: ROW_END when none is a number
 * (prose, a title: not a row); else the row is skipped with a warning,
 * or, cut short, is an error.
 */
static enum row_result reject_row(struct torch_table *tt, const char *body, size_t len,
				  const struct field *cells, bool split, struct pos at, struct verdict v)
{
	struct table *t = &tt->t;

	if (!v.any_number)
		return ROW_END;
	if (v.missing >= 0) {
		size_t col_start = t->cols[v.missing].sp.start, used = len, pfx = at.col - 1;

		while (used && (body[used - 1] == ' ' || body[used - 1] == '\t'))
			used--;
		at.col = pfx + (used < col_start ? used : col_start) + 1;
		if (!split && used <= col_start) {
			diag_error(tt->d, &at, "table row cut short before column '%s'",
				   t->cols[v.missing].title);
			return ROW_ERROR;
		}
		diag_warn(tt->d, &at, "rows with empty cells, skipped", "row has no '%s' value; skipped",
			  t->cols[v.missing].title);
		t->nr_skipped++;
		return ROW_SKIP;
	}
	at.col += cells[v.bad].col;
	diag_warn(tt->d, &at, "rows with unreadable cells, skipped", "'%.*s' is not a valid '%s' value; row skipped",
		  (int)(cells[v.bad].len < 40 ? cells[v.bad].len : 40), cells[v.bad].s, t->cols[v.bad].title);
	t->nr_skipped++;
	return ROW_SKIP;
}

/* ---- rows read loosely -------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The last run of non-blanks in LINE[0..END); false if there is none. */
static bool last_token(const char *line, size_t end, struct field *tok)
{
	size_t b;

	while (end && is_blank(line[end - 1]))
		end--;
	if (!end)
		return false;
	for (b = end; b && !is_blank(line[b - 1]); b--)
		;
	tok->s = line + b;
	tok->len = end - b;
	tok->col = b;
	return true;
}

/* Whether S[0..N) is a value of a one-word column of kind K, as
 * _build_table prints it. */
static bool fits(enum col_kind k, const char *s, size_t n)
{
	int64_t x;
	double d;

	if (is_time_kind(k) || k == COL_HOST_MEAN || k == COL_DEV_MEAN)
		return num_time_ns(s, n, -1, &x);
	if (k == COL_CALLS || k == COL_NODE_ID)
		return num_int(s, n, &x);
	if (k == COL_FLOPS)
		return text_eq(s, n, "--") || num_double(s, n, &d);
	if (is_file_pct_kind(k) || k == COL_DERIVED)
		return (text_ends(s, n, "%") && num_pct(s, n, &d)) || text_eq(s, n, "NaN") || text_eq(s, n, "0") ||
		       (k == COL_DERIVED && num_time_ns(s, n, -1, &x));
	return false;
}

/*
 * The cell of column K that ends at END in LINE, taken from the right:
 * one word, or two for memory ("-2.46 MB"), or a bracketed list for Input
 * Shapes.  False when what is there is not such a value.
 */
static bool take_cell(enum col_kind k, const char *line, size_t end, struct field *cell)
{
	struct field unit;

	if (!last_token(line, end, cell))
		return false;
	if (k == COL_CPU_MEM || k == COL_SELF_CPU_MEM || k == COL_DEV_MEM || k == COL_SELF_DEV_MEM) {
		int64_t bytes;

		unit = *cell;
		if (!num_bytes(unit.s, unit.len, &bytes)) {
			if (!last_token(line, unit.col, cell))
				return false;
			cell->len = unit.col + unit.len - cell->col;
		}
		return num_bytes(cell->s, cell->len, &bytes);
	}
	if (k == COL_SHAPES) {
		size_t depth = 0, i = cell->col + cell->len;

		if (line[i - 1] != ']')
			return false;
		while (i--) {
			if (line[i] == ']')
				depth++;
			else if (line[i] == '[' && !--depth)
				break;
		}
		if (i == (size_t)-1)
			return false;
		cell->len = cell->col + cell->len - i;
		cell->s = line + i;
		cell->col = i;
		return true;
	}
	return fits(k, cell->s, cell->len);
}

/* Whether S[0..N) is a number as "%.<DECIMALS>f" prints it, then SUFFIX. */
static bool is_printed(const char *s, size_t n, int decimals, const char *suffix)
{
	size_t i = 0, k = strlen(suffix);

	if (n < k || memcmp(s + n - k, suffix, k))
		return false;
	n -= k;
	if (i < n && s[i] == '-')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return false;
	if (s[i] == '0')
		i++;		/* a lone leading zero: "0.25" */
	else
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	if (i == n || s[i] != '.' || n - i - 1 != (size_t)decimals)
		return false;
	for (i++; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Whether S[0..N) is exactly how _build_table prints a value of kind K:
 * "12.34%", "1.234ms"; stricter than fits(), to find where a glued value
 * begins. */
static bool is_printed_value(enum col_kind k, const char *s, size_t n)
{
	if (is_file_pct_kind(k) || k == COL_DERIVED)
		return is_printed(s, n, 2, "%");
	if (is_time_kind(k) || k == COL_HOST_MEAN || k == COL_DEV_MEAN)
		return is_printed(s, n, 3, "ms") || is_printed(s, n, 3, "us") || is_printed(s, n, 3, "s");
	return false;
}

/*
 * The value of column K glued to the end of the text before it, as in
 * "std::enable_if<!(false)0.00%": the one ending of TOK that is such a
 * value as _build_table prints it.  When two endings are ("layer20.00%":
 * "20.00%" after "layer", or "0.00%" after "layer2"), nothing says which:
 * none is taken.  Values are short: only the last 24 bytes are tried.
 */
static bool take_glued(enum col_kind k, const struct field *tok, struct field *cell)
{
	size_t nr_found = 0;

	for (size_t i = tok->len > 24 ? tok->len - 24 : 1; i < tok->len; i++) {
		if (!is_printed_value(k, tok->s + i, tok->len - i))
			continue;
		if (!nr_found++) {
			cell->s = tok->s + i;
			cell->len = tok->len - i;
			cell->col = tok->col + i;
		}
	}
	return nr_found == 1;
}

/*
 * Read a row from the right, for tables that do not line up (hand-edited,
 * re-indented, separators lost): the header says which columns there are
 * and what each holds, so each takes its value from the end of the line
 * in turn, and the name (with the overload name, when there is one) is
 * what is left.  The value next to the name may be glued to it.  False
 * when the row is not all such values, or the table has a column whose
 * extent only alignment can tell (Source Location, titles we do not know).
 */
static bool read_loose(const struct table *t, const char *line, size_t len, struct field *cells)
{
	size_t first = t->nr_cols > 1 && t->cols[1].kind == COL_OVERLOAD ? 2 : 1, end = len, nf;
	struct field rest[3];

	if (t->nr_cols <= first)
		return false;
	for (size_t i = t->nr_cols; i-- > first;) {
		enum col_kind k = t->cols[i].kind;
		struct field tok;

		if (k == COL_UNKNOWN || k == COL_NAME || k == COL_OVERLOAD || k == COL_SOURCE)
			return false;
		if (!take_cell(k, line, end, &cells[i])) {
			if (i != first || !last_token(line, end, &tok) || !take_glued(k, &tok, &cells[i]))
				return false;
		}
		end = cells[i].col;
	}
	nf = text_split2(line, end, rest, 3);
	if (nf < 1 || nf > first)
		return false;
	cells[0] = rest[0];
	if (first == 2)
		cells[1] = nf == 2 ? rest[1] : (struct field){ line + end, 0, end };
	return true;
}

/* Say once per table that it was read loosely. */
static void note_loose(struct torch_table *tt, struct pos at)
{
	if (tt->t.warned_loose)
		return;
	tt->t.warned_loose = true;
	diag_warn(tt->d, &at, "tables read loosely (rows read from the right)",
		  "table does not line up with its header; rows read from the right, by what each column holds");
}

/* Whether the row's values RV are of device time only (no host time). */
static bool device_only(const struct table *t, const struct row_values *rv)
{
	bool host = false, dev = false;

	for (size_t i = 1; i < t->nr_cols; i++) {
		enum col_kind k = t->cols[i].kind;

		host |= (k == COL_HOST_SELF || k == COL_HOST_TOTAL) && rv->v[i];
		dev |= (k == COL_DEV_SELF || k == COL_DEV_TOTAL) && rv->v[i];
	}
	return dev && !host;
}

/*
 * Whether cell I (F) of a device-only row says nothing of it: the host
 * side's columns, which _build_table fills for every row (0 B of memory,
 * 0.00% of CPU time, no shapes "[]", no stack).  Such cells are not kept,
 * so that a kernel's row has no host columns in the Kernels pane.
 */
static bool says_nothing(const struct column *c, const struct field *f, const struct row_values *rv,
			 size_t i)
{
	switch (c->kind) {
	case COL_CPU_MEM:
	case COL_SELF_CPU_MEM:
	case COL_DEV_MEM:
	case COL_SELF_DEV_MEM:
	case COL_HOST_MEAN:
		return rv->v[i] == 0;
	case COL_HOST_SELF_PCT:
	case COL_HOST_TOTAL_PCT:
		return !rv->has_file[i] || rv->pct[i] == 0;
	case COL_SHAPES:
		return !f->len || text_eq(f->s, f->len, "[]");
	case COL_OVERLOAD:
	case COL_SOURCE:
		return !f->len;
	default:
		return false;
	}
}

/* The node of a row whose cells all read. */
static void add_row(struct torch_table *tt, const struct field *cells, const struct row_values *rv)
{
	struct table *t = &tt->t;
	bool device = device_only(t, rv);
	struct node *n;

	if (!t->run)
		t->run = new_run(tt);
	n = node_new(t->run, t->run->root, NODE_OP, cells[0].s, cells[0].len);
	n->flags = NODE_DISTINCT;
	if (text_ends(cells[0].s, cells[0].len, "..."))
		n->flags |= NODE_NAME_TRUNCATED;
	for (size_t i = 1; i < t->nr_cols; i++) {
		const struct column *c = &t->cols[i];
		const struct field *f = &cells[i];
		int64_t v = rv->v[i];

		if (is_numeric_kind(c->kind))
			note_sort(t, i, v);
		if (device && says_nothing(c, f, rv, i))
			continue;
		switch (c->kind) {
		case COL_HOST_SELF:
			node_set_host_self(t->run, n, v);
			break;
		case COL_HOST_TOTAL:
			node_set_host_total(t->run, n, v);
			break;
		case COL_DEV_SELF:
			node_set_device_self(t->run, n, v);
			break;
		case COL_DEV_TOTAL:
			node_set_device_total(t->run, n, v);
			break;
		case COL_CALLS:
			node_set_calls(t->run, n, (uint64_t)v);
			break;
		case COL_CPU_MEM:
		case COL_SELF_CPU_MEM:
		case COL_DEV_MEM:
		case COL_SELF_DEV_MEM:
			attr_set_int(t->run, node_attr_list(n), mem_keys[c->kind], v);
			break;
		case COL_NODE_ID:
			attr_set_int(t->run, node_attr_list(n), "node_id", v);
			break;
		case COL_OVERLOAD:
			attr_set_str(t->run, node_attr_list(n), "overload_name", f->s, f->len);
			break;
		case COL_SHAPES:
			attr_set_str(t->run, node_attr_list(n), "input_shapes", f->s, f->len);
			break;
		case COL_SOURCE:
			attr_set_str(t->run, node_attr_list(n), "source_location", f->s, f->len);
			break;
		case COL_FLOPS:
			if (rv->flops >= 0)
				attr_set_double(t->run, node_attr_list(n), "flops", rv->flops);
			break;
		case COL_HOST_SELF_PCT:
		case COL_HOST_TOTAL_PCT:
		case COL_DEV_SELF_PCT:
			if (rv->has_file[i])
				attr_set_double(t->run, node_attr_list(n), file_keys[c->kind], rv->pct[i]);
			break;
		case COL_HOST_MEAN:
		case COL_DEV_MEAN:
			if (rv->has_file[i])
				attr_set_ns(t->run, node_attr_list(n), file_keys[c->kind], v);
			break;
		default:
			break;
		}
	}
	GROW(t->rows, t->alloc_rows, t->nr_rows + 1);
	t->rows[t->nr_rows++] = n;
	t->last = n;
}

/*
 * One line inside a table.  BODY is LINE without its prefix (PFX bytes).
 * Its shape says what it is: blank (the line after each stack), binary,
 * nameless (a stack frame), a row along the columns, a row read loosely,
 * or not a row.
 */
static enum row_result read_row(struct torch_table *tt, const char *body, size_t len, size_t pfx)
{
	struct table *t = &tt->t;
	struct field cells[MAX_COLS], loose[MAX_COLS];
	struct row_values rv;
	struct verdict v = { false, -1, -1 };
	bool split, aligned;
	struct pos at = { tt->in->lineno, pfx + 1 };

	if (is_blank_line(body, len))
		return ROW_SKIP;
	if (text_is_binary(body, len)) {
		diag_error(tt->d, &at, "binary data inside the table");
		return ROW_ERROR;
	}
	aligned = get_cells(t, body, len, cells, &split);
	if (aligned && !cells[0].len)
		return nameless_row(tt, cells, at);
	if (aligned)
		v = read_values(t, cells, &rv);
	if (!is_whole_row(v) && (t->sep_ignored || v.any_number || !aligned) &&
	    read_loose(t, body, len, loose) && is_whole_row(read_values(t, loose, &rv))) {
		add_row(tt, loose, &rv);
		note_loose(tt, at);
		return ROW_OK;
	}
	if (!aligned)
		return misaligned_row(tt, body, len, at);
	if (!is_whole_row(v))
		return reject_row(tt, body, len, cells, split, at, v);
	if (split && t->has_spans)
		diag_warn(tt->d, &at, "rows not aligned with the header (read by splitting on blanks)",
			  "row does not line up with the separator; read by splitting on blanks");
	if (t->sep_ignored)
		note_loose(tt, at);
	add_row(tt, cells, &rv);
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

/* The table ends at BODY, which is not one of its lines: say so when it
 * had a separator to end with. */
static void end_without_sep(struct torch_table *tt, size_t pfx)
{
	struct pos at = { tt->in->lineno, pfx + 1 };

	if (tt->t.run && tt->t.has_spans)
		diag_warn(tt->d, &at, "tables without a closing separator line",
			  "table ends without a separator line");
}

/* HEADER_PENDING: BODY is the line after a header with no separator
 * above.  Returns true when it was the separator below. */
static bool after_pending_header(struct torch_table *tt, const char *body, size_t len)
{
	size_t n = text_dash_spans(body, len, tt->prev_sep, MAX_COLS, 3, false);

	tt->nr_prev_sep = n >= 3 && n <= MAX_COLS ? n : 0;
	tt->prev_sep_line = tt->pending_at.line;
	start_table(tt, tt->pending, tt->pending_len, tt->nr_prev_sep != 0, tt->pending_at);
	free(tt->pending);
	tt->pending = NULL;
	if (tt->state == ROWS && tt->nr_prev_sep) {
		tt->t.seen_lower_sep = true;
		return true;
	}
	return false;
}

enum line_result {
	LINE_TAKEN,		/* the line belonged to the table */
	LINE_OUTSIDE,		/* the table ended before it: read it as outside */
	LINE_STOP,		/* an error: stop reading */
};

/* ROWS: a separator, a footer or a row. */
static enum line_result table_line(struct torch_table *tt, const char *body, size_t len, size_t pfx)
{
	const char *value;
	size_t vlen;
	enum row_result r;

	if (text_dash_spans(body, len, tt->prev_sep, 1, 3, false)) {
		if (!tt->t.nr_rows && !tt->t.seen_lower_sep && !tt->t.nr_skipped)
			tt->t.seen_lower_sep = true;
		else
			finish_table(tt);
		return LINE_TAKEN;
	}
	if (is_footer(body, len, &value, &vlen)) {
		end_without_sep(tt, pfx);
		finish_table(tt);
		add_footer(tt, body, len, value, vlen);
		return LINE_TAKEN;
	}
	r = read_row(tt, body, len, pfx);
	if (r == ROW_ERROR) {
		finish_table(tt);
		return LINE_STOP;
	}
	if (r != ROW_END)
		return LINE_TAKEN;
	end_without_sep(tt, pfx);
	finish_table(tt);
	tt->state = SEEK;
	return LINE_OUTSIDE;
}

/* SEEK: binary data, a header, a separator or prose. */
static void outside_line(struct torch_table *tt, const char *body, size_t len, size_t pfx)
{
	if (text_is_binary(body, len)) {
		struct pos at = { tt->in->lineno, 1 };

		diag_warn(tt->d, &at, "lines of binary data, ignored", "binary data outside any table; ignored");
		tt->nr_prev_sep = 0;
		tt->title[0] = '\0';
		return;
	}
	if (looks_like_header(body, len)) {
		found_header(tt, body, len, pfx);
		return;
	}
	set_prev_sep(tt, body, len);
	note_prose(tt, body, len);
}

/* The input ended: close the table it ended in, and say what was found,
 * as the caller's (WARNINGS_TO's) message, not the last table's. */
static int end_of_input(struct torch_table *tt, struct profile *warnings_to)
{
	struct diag *d = tt->d;

	if (tt->state == ROWS) {
		if (tt->t.run) {
			struct pos at = { tt->in->lineno, 1 };

			diag_warn(d, &at, "tables cut short at the end of the file",
				  "file ends inside a table (truncated?); kept its %zu rows", tt->t.nr_rows);
		}
		finish_table(tt);
	}
	d->profile = warnings_to;
	if (input_failed(tt->in, d))
		return tt->nr_tables ? 0 : -1;
	if (!tt->nr_tables && !d->nr_errors) {
		if (tt->nr_headers)
			diag_error(d, &tt->first_header, "table header with no rows");
		else
			diag_error(d, NULL, "no key_averages() table found (no 'Name ... Self CPU' header line)");
	}
	return tt->nr_tables ? 0 : -1;
}

static int torch_table_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct torch_table tt = { .p = p, .d = d, .in = in, .state = SEEK };
	struct profile *first_warnings = d->profile;
	char *line;
	size_t len;
	int rc;

	while ((line = input_line(in, &len))) {
		size_t pfx;
		const char *body, *value;
		size_t blen, vlen;

		len = text_strip_ansi(line, len);
		pfx = body_start(line, len);
		body = line + pfx;
		blen = len - pfx;

		if (tt.state == HEADER_PENDING && after_pending_header(&tt, body, blen))
			continue;
		if (tt.state == ROWS) {
			enum line_result r = table_line(&tt, body, blen, pfx);

			if (r == LINE_STOP)
				break;
			if (r == LINE_TAKEN)
				continue;
		}
		if (tt.state == FOOTER) {
			if (is_footer(body, blen, &value, &vlen)) {
				add_footer(&tt, body, blen, value, vlen);
				continue;
			}
			tt.state = SEEK;
			tt.title[0] = '\0';
		}
		outside_line(&tt, body, blen, pfx);
	}
	rc = end_of_input(&tt, first_warnings);
	free(tt.pending);
	free(tt.t.rows);
	return rc;
}

/* The first byte of S[0..N) that is not white space (N if none). */
static size_t skip_space(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	return i;
}

/*
 * Whether HEAD[0..LEN) starts like a JSON document: an object whose first
 * member name is quoted, or an array of such, of strings, of arrays or of
 * numbers.  A log line that only begins with a bracket or a brace --
 * "[rank0]: ...", "[2024-05-02 10:12:00] ...", a Python dict "{'loss':
 * 0.5}" -- is not JSON, and may be the first line of any window of a log.
 */
static bool looks_like_json(const char *head, size_t len)
{
	size_t i = skip_space(head, len, 0), k;

	if (i == len)
		return false;
	if (head[i] == '{') {
		i = skip_space(head, len, i + 1);
		return i < len && (head[i] == '"' || head[i] == '}');
	}
	if (head[i] != '[')
		return false;
	i = skip_space(head, len, i + 1);
	if (i == len)
		return false;
	if (head[i] == '{')
		return looks_like_json(head + i, len - i);
	if (head[i] == '[' || head[i] == '"' || head[i] == ']')
		return true;
	/* Numbers: [1.5, 2], but not [2024-05-02 10:12:00], [08/15 04:02:46]
	 * or "[32, 512] input shape" -- text after the array. */
	for (;;) {
		for (k = i; k < len && ((head[k] >= '0' && head[k] <= '9') || head[k] == '.' || head[k] == '-' ||
					head[k] == '+' || head[k] == 'e' || head[k] == 'E');
		     k++)
			;
		if (k == i || !num_double(head + i, k - i, &(double){ 0 }))
			return false;
		i = skip_space(head, len, k);
		if (i < len && head[i] == ']') {
			i = skip_space(head, len, i + 1);
			return i == len || strchr(",]}[{", head[i]);
		}
		if (i < len && head[i] != ',')
			return false;
		i = skip_space(head, len, i + 1);
		if (i >= len)
			return true;	/* the window ends inside the array */
	}
}

/*
 * A header line ("Name" and "Self CPU" on one line) anywhere in HEAD, with
 * a dash separator next to it for full marks.  HEAD is the start of a file
 * or any later window of it (the registry probes later windows of a long
 * log): its first line may be any line of the log, or part of one.  JSON
 * is never a table, whatever its strings say.
 */
static int torch_table_probe(const char *head, size_t len)
{
	size_t prev_start = 0, prev_len = 0;
	bool prev_header = false;

	if (looks_like_json(head, len))
		return 0;
	for (size_t i = 0; i < len;) {
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
	.counts_per_node = true,
	.name = "torch-table",
	.summary = "PyTorch key_averages().table() text, also inside logs and Markdown",
	.anywhere = true,	/* printed at the end of a training log */
	.probe = torch_table_probe,
	.parse = torch_table_parse,
};
