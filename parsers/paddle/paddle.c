// SPDX-License-Identifier: MIT
/*
 * PaddlePaddle: the profiler's summary tables (Profiler.summary(),
 * python/paddle/profiler/profiler_statistic.py) and the training-log lines
 * around them (PaddleDetection's "Epoch: [0] [ 19/12500] ... batch_cost:",
 * the "Perf Summary" block of paddle/profiler/timer.py); see
 * doc/formats/paddle.md.
 *
 * One line-oriented pass.  Real logs mix everything, so every line is first
 * asked whether it belongs to the table being read; if not, whether it is a
 * section title, a Perf Summary line or a training iteration; anything else
 * is prose (warnings, Markdown, Chinese documentation) and is skipped.
 *
 * Tables are cut into cells from the right: the numeric columns have a
 * fixed number of blank-separated tokens (a composite "Total / Avg / Max /
 * Min / Ratio" cell is nine), and whatever is left of them is the name,
 * with its indentation.  That copes with top-level names that overflow
 * their column, with trimmed trailing blanks and with tables indented
 * inside Markdown lists, where column offsets from the separator would not.
 *
 * Mapping (see parsers/parser.h and model/profile.h):
 *   Operator Summary  op (level 0) -> phase / memcpy runtime call (level 1)
 *                     -> kernel, MEMCPY_*, MEMSET (any deeper level, or
 *                     level 1 when launched by the op directly); the tree's
 *                     kernels are NODE_NOT_A_ROW, the Kernel Summary fills
 *                     the Kernels pane, and a tree kernel's cut name takes
 *                     a Kernel Summary row's only where that row is certain
 *                     (link_kernels()).  One group per thread title line.
 *   Kernel Summary    kernels under a group "Kernel Summary"
 *   Memory Manipulation Summary  memcpy nodes; UserDefined Summary  user
 *                     nodes; Memory Summary  one group row per table row,
 *                     with the columns as attributes, peaks in Info
 *   Device, Overview, Model, Distribution summaries, Perf Summary  Info;
 *                     the Model Summary also gives an "average" step when
 *                     the file has no iteration lines
 *   iteration lines   one step each: "Data" = data_cost (or reader_cost),
 *                     "Compute" = batch_cost - data_cost, total = batch_cost
 *                     (neither category without a data cost); the line's
 *                     other numbers are step values, integers as written
 *
 * Several summaries in one file (a log that prints one per epoch) become
 * runs: a section that comes back in print order starts a new run, and the
 * iteration lines printed since the previous summary move to it -- the
 * profiler prints its summary when its window closes, so those are the
 * iterations it measured.
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
#include "../parser.h"
#include "../text.h"

#define MAX_COLS 16
#define MAX_DEPTH 32
/* Tokens right of the name: at most every column a composite cell. */
#define MAX_TOKENS (MAX_COLS * 9)
#define MAX_MODEL_CATS 16

/* Sections in print order (_build_table); the order tells runs apart. */
enum section {
	SEC_DEVICE,
	SEC_OVERVIEW,
	SEC_MODEL,
	SEC_DISTRIBUTION,
	SEC_OPERATOR,
	SEC_KERNEL,
	SEC_MEMCPY,
	SEC_USER,
	SEC_MEMORY,
	NR_SECTIONS
};

/* Info pane section of the summaries that are metadata only. */
static const char *const meta_section[NR_SECTIONS] = {
	[SEC_DEVICE] = "device",
	[SEC_OVERVIEW] = "overview",
	[SEC_MODEL] = "model summary",
	[SEC_DISTRIBUTION] = "distribution",
};

enum col_kind {
	COL_NAME,
	COL_CALLS,
	COL_COMPOSITE,		/* "CPU Total / Avg / Max / Min / Ratio(%)" */
	COL_TIME,		/* "CPU Time", "GPU Time", "Total Time" */
	COL_PCT,		/* "Ratio (%)", "Utilization (%)" */
	COL_FLOPS,
	COL_COUNT,		/* "Allocation Count" */
	COL_BYTES,		/* "Allocation Size", "Increased Size" */
	COL_TEXT,		/* "Type", and columns we do not know */
};

struct column {
	uint8_t kind;			/* enum col_kind */
	bool is_host;			/* COL_COMPOSITE, COL_TIME: the CPU side */
	char title[48];			/* as printed, for Info lines and keys */
};

/* One cell of a row, parsed by its column's kind. */
struct cell {
	const char *s;			/* as printed, first to last token */
	size_t len, col;
	bool present;			/* not "-" (composite: total not "-") */
	int64_t i;			/* CALLS, COUNT, BYTES; TIME in ns */
	double d;			/* PCT, FLOPS */
	bool is_int;			/* FLOPS: printed as an integer */
	int64_t total_ns, avg_ns, max_ns, min_ns;	/* COMPOSITE; -1: "-" */
	double ratio;			/* COMPOSITE: its Ratio(%), 0..100 */
	bool has_ratio;			/* ... not "-" */
};

struct row {
	const char *name;
	size_t name_len;
	size_t indent;			/* leading blanks */
	struct cell cells[MAX_COLS];	/* by column; [0] is the name */
};

enum table_state {
	T_NONE,
	T_TOP,			/* after the title: unit lines, then a separator */
	T_HEADER,		/* the header row comes next */
	T_HEADSEP,		/* the separator under the header */
	T_ROWS,
	T_AFTER,		/* after the closing separator: Overview's
				   second header may follow */
};

struct table {
	enum table_state state;
	int sec;			/* enum section */
	char title[128];		/* as printed, for messages and the group */
	int pow10;			/* time unit: 6 for ms */
	bool has_unit;
	size_t base;			/* indentation of the separator line */
	struct span spans[MAX_COLS];
	size_t nr_spans;
	struct column cols[MAX_COLS];
	size_t nr_cols, nr_tokens;
	bool skip_rows;			/* a table we cannot map: rows ignored */
	struct node *group;		/* the section's group node */
	struct node *parent0;		/* where level-0 rows go (thread group) */
	struct node *stack[MAX_DEPTH];	/* the last row of each level */
	int top;			/* deepest valid level in stack, or -1 */
	bool after_skip;		/* a row above was skipped */
	bool complete;			/* its closing separator was seen */
	/* Lines inside the table that are no rows of it ("# 此处有省略",
	 * "omitted here", in Paddle's own documentation): rows are missing
	 * there, so no sum runs across one.  STACK_GAPS: how many there had
	 * been when the row of each level in STACK was read. */
	uint32_t nr_gaps;
	uint32_t stack_gaps[MAX_DEPTH];
	char thread[64];		/* "1234" under a per-thread title */
	uint64_t nr_rows;
	/* A row that did not parse: a warning once the next line shows it
	 * was not the file's last, an error ("cut mid-row") if it was. */
	bool has_bad;
	struct pos bad_at;
};

/* A kernel row of the Operator Summary, where it was read. */
struct tree_kernel {
	struct node *n;
	struct pos at;
	int64_t half_ns;		/* half the last printed digit of its table */
};

/* What one run (one summary and its iterations) has beyond its profile. */
struct run {
	struct profile *p;
	int last_sec;			/* last section read, -1 none */
	size_t mark;			/* nr_steps when its last table ended */
	size_t first_step;		/* steps before ours (a joined file) */
	/* Model Summary: the average step's breakdown (host side). */
	bool has_model;
	int64_t model_step_ns, model_step_calls;
	size_t nr_model;
	char model_names[MAX_MODEL_CATS][40];
	int64_t model_ns[MAX_MODEL_CATS];
	struct node *kernel_summary;	/* its Kernel Summary group */
	bool kernels_cut;		/* ... some of whose rows are missing */
	int64_t kernel_half_ns;		/* half its last printed digit */
	struct tree_kernel *tree_kernels;	/* heap; for link_kernels() */
	size_t nr_tree_kernels, alloc_tree_kernels;
	struct run *next;
};

enum perf_state { PERF_NONE, PERF_HEAD, PERF_TABLE };

struct paddle {
	struct profile *first;
	struct input *in;
	struct diag *d;
	struct run *runs, *cur;
	struct table t;
	enum perf_state perf;
	char perf_cols[4][16];
	size_t nr_perf_cols;
	char time_unit[16], ips_unit[32];
	bool found;			/* anything of ours at all */
	bool steps_refused;
};

static const char *const step_cats[] = { "Data", "Compute" };

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static size_t leading_blanks(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_blank(s[i]))
		i++;
	return i;
}

static bool eq_nocase(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && !strncasecmp(s, word, n);
}

/*
 * "-----Operator Summary-----" (FILL '-') or "=====Perf Summary=====" (FILL
 * '='): the text between two runs of at least three FILL characters, which
 * must not itself start or end with FILL (so "----  ----" separators are
 * not titles).  add_title() centres it; we do not care where.
 */
static bool title_of(const char *s, size_t n, char fill, struct field *text)
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

static int section_of(const struct field *f)
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

/* Whether a known section's title is in the first LEN bytes at HEAD, or
 * the marks of a Perf Summary, composite cells or iteration lines. */
static int paddle_probe(const char *head, size_t len)
{
	size_t i = 0;
	int score = 0;

	/* JSON (a chrome trace of Paddle's, tb_plugin output) is not ours;
	 * a log line may start with "[08/15 04:02:46]", JSON with "[{". */
	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i < len && head[i] == '{')
		return 0;
	if (i + 1 < len && head[i] == '[') {
		size_t j = i + 1;

		while (j < len && isspace((unsigned char)head[j]))
			j++;
		if (j < len && (head[j] == '{' || head[j] == '"' || head[j] == '['))
			return 0;
	}
	while (i < len) {
		const char *eol = memchr(head + i, '\n', len - i);
		size_t n = eol ? (size_t)(eol - head) - i : len - i;
		const char *s = head + i;
		struct field f;

		if (title_of(s, n, '-', &f) && section_of(&f) >= 0)
			return 90;
		if (title_of(s, n, '=', &f) && text_eq(f.s, f.len, "Perf Summary"))
			score = score > 85 ? score : 85;
		if (text_find(s, n, "Total / Avg / Max / Min / Ratio(%)"))
			score = score > 85 ? score : 85;
		if (text_find(s, n, "batch_cost: ") &&
		    (text_find(s, n, "data_cost: ") || text_find(s, n, "reader_cost: "))) {
			int k = text_find(s, n, "ppdet.") ? 70 : 50;

			score = score > k ? score : k;
		}
		/* PaddleFleetX: "[train] epoch: 0, batch: 0, loss: ...,
		 * avg_batch_cost: 1.18 sec, ..., ips: 3455 tokens/s" */
		if (text_find(s, n, "avg_batch_cost: ") && text_find(s, n, "ips: ")) {
			int k = text_find(s, n, "[train] ") ? 60 : 50;

			score = score > k ? score : k;
		}
		i += n + 1;
	}
	return score;
}

/* ---- runs and steps ---------------------------------------------------- */

static struct run *run_new(struct paddle *pd, struct profile *p)
{
	struct run *r = xcalloc(1, sizeof(*r));

	r->p = p;
	r->last_sec = -1;
	r->first_step = r->mark = p->nr_steps;
	if (pd->cur)
		pd->cur->next = r;
	else
		pd->runs = r;
	pd->cur = r;
	return r;
}

/* Whether P can take our steps: its categories are ours, or it has none. */
static bool want_steps(struct paddle *pd, struct profile *p, struct pos *at)
{
	if (!p->nr_step_cats && !p->nr_steps) {
		profile_set_step_cats(p, step_cats, ARRAY_SIZE(step_cats));
		return true;
	}
	if (p->nr_step_cats == ARRAY_SIZE(step_cats) && !strcmp(p->step_cats[0], step_cats[0]) &&
	    !strcmp(p->step_cats[1], step_cats[1]))
		return true;
	if (!pd->steps_refused)
		diag_warn(pd->d, at, "iterations left out: the profile has steps of another kind",
			  "the profile already has steps from another file; iterations left out");
	pd->steps_refused = true;
	return false;
}

/* Move FROM's steps from index START on to TO (names and attributes are
 * copied into TO's arena; FROM's copies stay in its arena, unused). */
static void move_steps(struct paddle *pd, struct profile *from, size_t start, struct profile *to)
{
	struct pos none = { 0, 0 };

	if (start >= from->nr_steps || !want_steps(pd, to, &none))
		return;
	for (size_t i = start; i < from->nr_steps; i++) {
		const struct step *s = &from->steps[i];
		struct step *t = profile_add_step(to, s->name, strlen(s->name));

		t->total_ns = s->total_ns;
		for (size_t c = 0; c < to->nr_step_cats && c < from->nr_step_cats; c++)
			t->cat_ns[c] = s->cat_ns[c];
		for (const struct attr *a = attr_first(from->pool, s->attrs); a; a = attr_next(a)) {
			if (attr_type(a) == ATTR_INT)
				attr_set_int(to, &t->attrs, attr_key(a), a->v.i);
			else if (attr_type(a) == ATTR_NS)
				attr_set_ns(to, &t->attrs, attr_key(a), a->v.i);
			else if (attr_type(a) == ATTR_DOUBLE)
				attr_set_double(to, &t->attrs, attr_key(a), a->v.d);
			else
				attr_set_str(to, &t->attrs, attr_key(a), a->v.s, strlen(a->v.s));
		}
	}
	from->nr_steps = start;
}

/* The run a section starting at line LINE belongs to: the current one,
 * unless it already has this section or a later one -- then a new summary
 * has begun. */
static struct profile *run_for_section(struct paddle *pd, int sec, uint64_t line)
{
	struct run *r = pd->cur;

	/* A Memory Summary per place follows another legitimately. */
	if (r->last_sec > sec || (r->last_sec == sec && sec != SEC_MEMORY)) {
		char where[512];
		struct run *old = r;

		snprintf(where, sizeof(where), "%s:%" PRIu64, pd->in->path, line);
		r = run_new(pd, profile_add_run(pd->first, where));
		move_steps(pd, old->p, old->mark, r->p);
	}
	r->last_sec = sec;
	return r->p;
}

/* Half the last digit a table in 10^POW10 ns prints (two decimals): what
 * rounding may have moved one of its numbers by. */
static int64_t half_digit_ns(int pow10)
{
	int64_t v = 5;

	if (pow10 < 3)
		return 0;
	for (int i = 3; i < pow10; i++)
		v *= 10;
	return v;
}

/* NAME without the "..." of a cut name; *LEN gets its length. */
static const char *name_stem(const struct node *n, size_t *len)
{
	*len = strlen(node_name(n));
	if (n->flags & NODE_NAME_TRUNCATED)
		*len -= 3;
	return node_name(n);
}

/* Whether the Operator Summary's kernel TREE (the name cut at 45-47
 * characters, argument list kept) and the Kernel Summary's SUM (argument
 * list stripped, cut at 87) can be the same kernel: both are prefixes of
 * its full name. */
static bool same_kernel(const struct node *tree, const struct node *sum)
{
	size_t tl, sl;
	const char *t = name_stem(tree, &tl), *s = name_stem(sum, &sl);

	if (tl >= sl)
		return !memcmp(t, s, sl) &&
		       (tl == sl || (sum->flags & NODE_NAME_TRUNCATED) || t[sl] == '(');
	return (tree->flags & NODE_NAME_TRUNCATED) && !memcmp(t, s, tl);
}

static bool within(int64_t a, int64_t b, int64_t tol)
{
	return a - b <= tol && b - a <= tol;
}

/* How a Kernel Summary row compares with a kernel of the tree. */
enum fit {
	FIT_NONE,		/* not that kernel */
	FIT_SOME,		/* could be: it launched there, and elsewhere */
	FIT_EXACT,		/* every number the same: launched there only */
};

/*
 * Whether SUM, whose numbers are rounded to SUM_HALF_NS, can be the kernel
 * K: its name fits, and every count of K fits in SUM's -- the summary row
 * counts every launch of the kernel, so it has at least K's calls and
 * time, a max at least K's and a min at most K's.  KC and SC are K's and
 * SUM's calls and extremes.
 */
static enum fit kernel_fit(const struct profile *p, const struct tree_kernel *k,
			   const struct node_counts *kc, const struct node *sum,
			   const struct node_counts *sc, int64_t sum_half_ns)
{
	const struct node *n = k->n;
	int64_t sum_ns = node_device_total(p, sum), k_ns = node_device_total(p, n);
	/* Tables in one unit print one number the same: rounding is
	 * monotonic.  Across units each may be off by half its last digit. */
	int64_t tol = k->half_ns == sum_half_ns ? 0 : k->half_ns + sum_half_ns;

	if (!same_kernel(n, sum) || sc->calls < kc->calls || sum_ns + tol < k_ns)
		return FIT_NONE;
	if (kc->max_ns >= 0 && sc->max_ns >= 0 && sc->max_ns + tol < kc->max_ns)
		return FIT_NONE;
	if (kc->min_ns >= 0 && sc->min_ns >= 0 && kc->min_ns + tol < sc->min_ns)
		return FIT_NONE;
	if (sc->calls == kc->calls && within(sum_ns, k_ns, tol) &&
	    within(sc->max_ns, kc->max_ns, tol) && within(sc->min_ns, kc->min_ns, tol))
		return FIT_EXACT;
	return FIT_SOME;
}

/* What link_kernels() works out for the tree kernels and the summary
 * rows.  Heap arrays, freed by link_release(). */
struct link {
	struct node **sums;		/* the Kernel Summary's rows */
	struct node_counts *sum_counts;	/* ... their calls and extremes, read
					   once: the match is quadratic */
	size_t nr_sums;
	uint64_t *calls;		/* per row: calls of the tree kernels named after it */
	int64_t *ns, *tol_ns;		/* ... their time, and its rounding */
	size_t *match;			/* per tree kernel: its row, or NO_ROW */
	uint8_t *how;			/* ... and how it was found (enum link_how) */
	size_t *nr_fit;			/* ... how many rows it could be */
};

enum link_how {
	LINK_GUESS,			/* the one row it fits: to be checked */
	LINK_EXACT,			/* the one row with its every number */
	LINK_NAMED,			/* it has a row's very name already */
};

#define NO_ROW SIZE_MAX

static void link_release(struct link *l)
{
	free(l->sums);
	free(l->sum_counts);
	free(l->calls);
	free(l->ns);
	free(l->tol_ns);
	free(l->match);
	free(l->how);
	free(l->nr_fit);
}

/* The row tree kernel K can be for certain: the one row with its very
 * numbers, or else the one row that fits at all when no row of the table
 * is missing.  NO_ROW when none or several can be; *NR_FIT: how many fit. */
static size_t certain_row(const struct run *r, const struct link *l, const struct tree_kernel *k,
			  uint8_t *how, size_t *nr_fit)
{
	size_t exact = NO_ROW, fit = NO_ROW, nr_exact = 0;
	struct node_counts kc = node_counts(r->p, k->n);

	*nr_fit = 0;
	for (size_t i = 0; i < l->nr_sums; i++) {
		switch (kernel_fit(r->p, k, &kc, l->sums[i], &l->sum_counts[i], r->kernel_half_ns)) {
		case FIT_EXACT:
			exact = i;
			nr_exact++;
			/* fall through */
		case FIT_SOME:
			fit = i;
			(*nr_fit)++;
			break;
		default:
			break;
		}
	}
	*how = nr_exact == 1 ? LINK_EXACT : LINK_GUESS;
	if (nr_exact == 1)
		return exact;
	if (!nr_exact && *nr_fit == 1 && !r->kernels_cut)
		return fit;
	return NO_ROW;
}

/* Tree kernel K adds itself to row ROW's sums.  They saturate rather
 * than wrap: a sum at the cap is past the row's own (bounded) numbers, so
 * the guesses at it are refused, which link_refused() reports. */
static void link_count(const struct run *r, struct link *l, const struct tree_kernel *k, size_t row)
{
	sum_add_u(&l->calls[row], node_calls(r->p, k->n));
	sum_add(&l->ns[row], node_device_total(r->p, k->n));
	sum_add(&l->tol_ns[row], k->half_ns);
}

/* Report tree kernel K, cut short and left so: which rows could be it. */
static void link_refused(struct paddle *pd, const struct run *r, const struct tree_kernel *k,
			 size_t nr_fit)
{
	static const char kind[] = "cut kernel names no Kernel Summary row is certain to be, kept as printed";
	const char *name = node_name(k->n);
	int len = (int)(strlen(name) > 60 ? 60 : strlen(name));

	if (!nr_fit && r->kernels_cut)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits none of the Kernel Summary rows "
			  "shown, and rows of it are missing; its cut name is kept", len, name);
	else if (!nr_fit)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits no Kernel Summary row; "
			  "its cut name is kept", len, name);
	else if (nr_fit > 1)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' could be any of %zu Kernel Summary "
			  "rows; its cut name is kept", len, name, nr_fit);
	else if (r->kernels_cut)
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits one Kernel Summary row, but rows "
			  "of that table are missing; its cut name is kept", len, name);
	else
		diag_warn(pd->d, &k->at, kind, "kernel '%.*s' fits one Kernel Summary row, but other "
			  "kernels of the tree take its calls or time; its cut name is kept", len, name);
}

/* Work out each tree kernel's row, then take back the guesses (not exact
 * matches) at rows the tree would count more calls or time for than the
 * row has. */
static void link_match(struct run *r, struct link *l)
{
	for (size_t i = 0; i < r->nr_tree_kernels; i++) {
		const struct tree_kernel *k = &r->tree_kernels[i];
		size_t same = NO_ROW;

		for (size_t j = 0; j < l->nr_sums && same == NO_ROW; j++)
			if (node_name(l->sums[j]) == node_name(k->n))
				same = j;
		if (same != NO_ROW) {
			l->match[i] = same;
			l->how[i] = LINK_NAMED;
		} else {
			l->match[i] = certain_row(r, l, k, &l->how[i], &l->nr_fit[i]);
		}
		if (l->match[i] != NO_ROW)
			link_count(r, l, k, l->match[i]);
	}
	for (size_t i = 0; i < r->nr_tree_kernels; i++) {
		size_t row = l->match[i];
		const struct node *sum;

		if (row == NO_ROW || l->how[i] != LINK_GUESS)
			continue;
		sum = l->sums[row];
		if (l->calls[row] > l->sum_counts[row].calls ||
		    l->ns[row] > node_device_total(r->p, sum) + l->tol_ns[row] + r->kernel_half_ns)
			l->match[i] = NO_ROW;
	}
}

/*
 * Kernel -> ops drill-down goes by name, but the Operator Summary prints
 * a kernel's name cut at 45-47 characters with its argument list, and
 * the Kernel Summary the same kernel's name without arguments, cut at 87
 * ("void phi::GPURoiAlignBackward<float>(int, flo..." and "void
 * phi::GPURoiAlignBackward<float>").  A tree kernel takes a Kernel Summary
 * row's name only when it is certain to be that kernel: the one row with
 * its very calls, time, max and min (launched from there only), or the one
 * row of a complete table whose name and counts it fits at all, and whose
 * calls and time the tree's kernels of that name do not overrun.  A guess
 * would do worse than a cut name: drill-down would list an op under a
 * kernel it never launched.  The others keep the cut name, NODE_NAME_
 * TRUNCATED, with a warning each ("void xmma_cudnn::gemm::kernel<xmma_
 * cudnn::imp..." fits dozens).  Quadratic: skipped for tables too large
 * for it to stay cheap.
 */
static void link_kernels(struct paddle *pd, struct run *r)
{
	struct link l = { 0 };
	size_t nr = r->nr_tree_kernels;

	if (!r->kernel_summary || !nr)
		return;
	for (struct node *s = node_first_child(r->kernel_summary); s; s = node_next(s))
		l.nr_sums++;
	if (!l.nr_sums || l.nr_sums > 20000000 / nr) {
		struct pos none = { 0, 0 };

		if (l.nr_sums)
			diag_warn(pd->d, &none, "kernel names not linked to the Kernel Summary",
				  "%zu kernels and %zu Kernel Summary rows: too many to link by name; "
				  "cut names are kept", nr, l.nr_sums);
		return;
	}
	l.sums = xmalloc(l.nr_sums * sizeof(*l.sums));
	l.sum_counts = xmalloc(l.nr_sums * sizeof(*l.sum_counts));
	l.nr_sums = 0;
	for (struct node *s = node_first_child(r->kernel_summary); s; s = node_next(s)) {
		l.sum_counts[l.nr_sums] = node_counts(r->p, s);
		l.sums[l.nr_sums++] = s;
	}
	l.calls = xcalloc(l.nr_sums, sizeof(*l.calls));
	l.ns = xcalloc(l.nr_sums, sizeof(*l.ns));
	l.tol_ns = xcalloc(l.nr_sums, sizeof(*l.tol_ns));
	l.match = xcalloc(nr, sizeof(*l.match));
	l.how = xcalloc(nr, sizeof(*l.how));
	l.nr_fit = xcalloc(nr, sizeof(*l.nr_fit));
	link_match(r, &l);
	for (size_t i = 0; i < nr; i++) {
		struct node *n = r->tree_kernels[i].n;
		const struct node *match = l.match[i] == NO_ROW ? NULL : l.sums[l.match[i]];

		if (match && l.how[i] != LINK_NAMED) {
			node_set_name(r->p, n, node_name(match));
			n->flags &= (uint8_t)~(NODE_NAME_TRUNCATED | NODE_DISTINCT);
			n->flags |= match->flags & (NODE_NAME_TRUNCATED | NODE_DISTINCT);
		} else if (!match && (n->flags & NODE_NAME_TRUNCATED)) {
			link_refused(pd, r, &r->tree_kernels[i], l.nr_fit[i]);
		}
	}
	link_release(&l);
}

/* A step's name and place, for finding names given twice. */
struct named_step {
	const char *name;		/* interned: equal names, equal pointers */
	size_t i;
};

static int cmp_named_step(const void *a, const void *b)
{
	const struct named_step *x = a, *y = b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* A name the run's steps share (a log that restarts its count, two
 * processes printing into one file) stays on its first step; the K-th
 * step of that name becomes "NAME (K)", so no step merges with another
 * in the panes that find steps by name (--step). */
static void name_repeats(struct profile *p, size_t first)
{
	size_t n = p->nr_steps - first;
	struct named_step *v = xmalloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = (struct named_step){ p->steps[first + i].name, first + i };
	qsort(v, n, sizeof(*v), cmp_named_step);
	for (size_t i = 1, k = 1; i < n; i++) {
		char name[128];
		int len;

		k = v[i].name == v[i - 1].name ? k + 1 : 1;
		if (k == 1)
			continue;
		len = snprintf(name, sizeof(name), "%s (%zu)", v[i].name, k);
		p->steps[v[i].i].name =
			profile_intern(p, name, len < (int)sizeof(name) ? (size_t)len : sizeof(name) - 1);
	}
	free(v);
}

/* A Kernel Summary the file cut short, or whose rows it says it omits:
 * its rows' ratios (of all kernel time) then sum short of 100%, and Info
 * says so, with how much the rows read hold. */
static void note_kernels_cut(struct run *r)
{
	double sum = 0;
	bool any = false;
	char text[128];

	if (!r->kernels_cut || !r->kernel_summary)
		return;
	for (const struct node *k = node_first_child(r->kernel_summary); k; k = node_next(k)) {
		const struct attr *a = attr_find(node_attrs(k), ATTR_FILE_DEVICE_TOTAL_PCT);

		if (a && attr_type(a) == ATTR_DOUBLE) {
			sum += a->v.d;
			any = true;
		}
	}
	if (any)
		snprintf(text, sizeof(text), "rows omitted by the file: those read hold %.2f%% of "
			 "the kernel time (their Ratio(%%))", sum);
	else
		snprintf(text, sizeof(text), "rows omitted by the file");
	profile_meta(r->p, "kernel summary", "rows", text);
}

/*
 * At the end: name the steps, or make the "average" step.  Step names are
 * the iteration number as printed ("19"; of the numbers a line prints, a
 * global step before an iteration's before a batch's); when the run's
 * iterations span several epochs, "EPOCH/INDEX" ("1/19"), since ppdet
 * restarts the index every epoch.
 * Lines that print no number are numbered by place from 0.  A name given
 * twice is told apart by name_repeats().
 */
static void finish_run(struct paddle *pd, struct run *r)
{
	struct profile *p = r->p;

	link_kernels(pd, r);
	note_kernels_cut(r);
	if (p->nr_steps > r->first_step) {
		int64_t epoch = -1;
		bool several = false;

		for (size_t i = r->first_step; i < p->nr_steps; i++) {
			const struct attr *a = attr_find(attr_first(p->pool, p->steps[i].attrs), "epoch");

			if (!a)
				continue;
			if (epoch >= 0 && a->v.i != epoch)
				several = true;
			epoch = a->v.i;
		}
		for (size_t i = r->first_step; several && i < p->nr_steps; i++) {
			struct step *s = &p->steps[i];
			const struct attr *a = attr_find(attr_first(p->pool, s->attrs), "epoch");
			char name[96];
			int n;

			if (!a)
				continue;
			n = snprintf(name, sizeof(name), "%" PRId64 "/%s", a->v.i, s->name);
			s->name = profile_intern(p, name, n < (int)sizeof(name) ? (size_t)n : sizeof(name) - 1);
		}
		name_repeats(p, r->first_step);
		return;
	}
	/* No iterations: the Model Summary's rows are the average step, each
	 * category its host total over ProfileStep's calls (not its own Avg,
	 * which is per call of that phase: Dataloader may run 9 times in 10
	 * steps), so the categories add up to the step. */
	if (r->has_model && r->model_step_calls > 0 && r->model_step_ns >= 0 && r->nr_model &&
	    !p->nr_step_cats &&
	    !p->nr_steps) {
		const char *names[MAX_MODEL_CATS];
		struct step *s;

		for (size_t i = 0; i < r->nr_model; i++)
			names[i] = r->model_names[i];
		profile_set_step_cats(p, names, r->nr_model);
		s = profile_add_step(p, "average", 7);
		s->total_ns = div_round(r->model_step_ns, r->model_step_calls);
		for (size_t i = 0; i < r->nr_model; i++)
			s->cat_ns[i] = r->model_ns[i] < 0 ? -1 : div_round(r->model_ns[i], r->model_step_calls);
	}
}

/* ---- training-log lines ------------------------------------------------ */

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The leading integer of S (after '[' and blanks), or -1. */
static int64_t leading_int(const char *s, size_t n, const char **digits, size_t *nr_digits)
{
	size_t i = 0, j;
	int64_t v = -1;

	while (i < n && (s[i] == '[' || s[i] == ' '))
		i++;
	j = i;
	while (j < n && isdigit((unsigned char)s[j]) && j - i < 18)
		j++;
	if (j > i && num_int(s + i, j - i, &v)) {
		if (digits) {
			*digits = s + i;
			*nr_digits = j - i;
		}
		return v;
	}
	return -1;
}

/* ppdet's eta: "5:05:37", "17 days, 13:50:26", "1 day, 0:00:01". */
static bool parse_eta(const char *s, size_t n, int64_t *ns)
{
	int64_t days = 0, part[3] = { 0, 0, 0 }, v;
	size_t i = 0, k = 0;

	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (i && i < n && s[i] == ' ') {
		size_t j = i + 1;

		if (!num_int(s, i, &days))
			return false;
		if (n - j >= 3 && !memcmp(s + j, "day", 3)) {
			j += 3;
			if (j < n && s[j] == 's')
				j++;
			if (j < n && s[j] == ',')
				j++;
			while (j < n && s[j] == ' ')
				j++;
			s += j;
			n -= j;
		} else {
			return false;
		}
	} else if (!i) {
		return false;
	}
	/* Bounded so that the nanoseconds fit an int64 (the fuzzer found
	 * "eta: 2322222222:59:56"): hours of at most 6 digits, minutes and
	 * seconds of 2, at most 10000 days. */
	for (i = 0; k < 3; k++) {
		size_t st = i, max = k ? 2 : 6;

		while (i < n && isdigit((unsigned char)s[i]))
			i++;
		if (i == st || i - st > max || !num_int(s + st, i - st, &part[k]))
			return false;
		if (k < 2 && (i >= n || s[i++] != ':'))
			return false;
	}
	if (days > 10000)
		return false;
	v = ((days * 24 + part[0]) * 60 + part[1]) * 60 + part[2];
	*ns = v * 1000000000;
	return true;
}

static bool is_key(const char *k, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (eq_nocase(k, n, *list))
			return true;
	return false;
}

/* A "key: value" pair of a log line, as printed. */
struct kv {
	const char *k, *v;
	size_t klen, vlen;
};

#define MAX_KV 48

/* What a log line says, cut into pairs; INDEX: the iteration index when
 * the line prints one in its own way (ppdet's "[ 19/12500]"). */
struct log_line {
	struct kv kv[MAX_KV];
	size_t nr;
	const char *index;
	size_t index_len;
	int index_rank;			/* enum index_rank of INDEX */
};

/* Which of a line's numbers names its iteration: a global step (never
 * restarts) over an iteration or step number over a batch within its
 * epoch (PaddleFleetX's "batch: 19" beside "global step 20"). */
enum index_rank { IDX_GLOBAL, IDX_ITER, IDX_BATCH, IDX_NONE };

static const char *const batch_keys[] = { "batch_cost", "avg_batch_cost", NULL };
static const char *const global_keys[] = { "global_step", "global step", NULL };
static const char *const iter_keys[] = { "iter", "iteration", "step", NULL };
static const char *const data_keys[] = { "data_cost", "reader_cost", "avg_reader_cost", NULL };
/* Keys that are not values of a step of their own (they are its time,
 * name or epoch). */
static const char *const label_keys[] = { "epoch", "eta", "batch_cost", "avg_batch_cost",
					  "data_cost", "reader_cost", "avg_reader_cost", "iter",
					  "iteration", "step", "global_step", "global step", "batch", NULL };

/* The end of the value that starts at S[VS]: a "[...]" group, or up to a
 * blank or a separator. */
static size_t value_end(const char *s, size_t n, size_t vs)
{
	size_t ve = vs;

	if (ve < n && s[ve] == '[') {
		while (ve < n && s[ve] != ']')
			ve++;
		return ve < n ? ve + 1 : ve;
	}
	while (ve < n && !is_blank(s[ve]) && s[ve] != ',' && s[ve] != ']' && s[ve] != '|')
		ve++;
	return ve;
}

/* Where the key before the colon at S[COLON] starts: a word of letters,
 * digits and '_', or two words when a ", " comes before them ("...,
 * learning rate: 2.5e-05", PaddleFleetX). */
static size_t key_start(const char *s, size_t colon)
{
	size_t ks = colon, w;

	while (ks > 0 && is_ident(s[ks - 1]))
		ks--;
	if (ks == colon || ks < 2 || s[ks - 1] != ' ' || !isalpha((unsigned char)s[ks - 2]))
		return ks;
	w = ks - 1;
	while (w > 0 && isalpha((unsigned char)s[w - 1]))
		w--;
	return w >= 2 && s[w - 1] == ' ' && s[w - 2] == ',' ? w : ks;
}

/* Cut S[0..N) into "key: value" pairs wherever they are
 * (doc/formats/paddle.md, 'Training-log lines'); "12:00:35" and "5:05:37"
 * have no blank after the colon and are no pairs. */
static void scan_pairs(const char *s, size_t n, struct log_line *l)
{
	memset(l, 0, sizeof(*l));
	l->index_rank = IDX_NONE;
	for (size_t i = 0; i + 1 < n && l->nr < ARRAY_SIZE(l->kv); i++) {
		size_t ks = i, vs, ve;

		if (s[i] != ':' || s[i + 1] != ' ')
			continue;
		ks = key_start(s, i);
		if (ks == i)
			continue;
		vs = i + 1;
		while (vs < n && s[vs] == ' ')
			vs++;
		ve = value_end(s, n, vs);
		l->kv[l->nr++] = (struct kv){ s + ks, s + vs, i - ks, ve - vs };
		/* ppdet: "Epoch: [0] [   19/12500]" -- the index follows. */
		if (eq_nocase(s + ks, i - ks, "epoch") && ve > vs && s[vs] == '[') {
			size_t j = ve;

			while (j < n && s[j] == ' ')
				j++;
			if (j < n && s[j] == '[' &&
			    leading_int(s + j, n - j, &l->index, &l->index_len) >= 0)
				l->index_rank = IDX_ITER;
		}
	}
}

/* Whether S[0..N) starts as a number does: a cost that does, and is no
 * time within bounds, is a bad value, not prose. */
static bool looks_numeric(const char *s, size_t n)
{
	size_t i = n && (s[0] == '-' || s[0] == '+') ? 1 : 0;

	return i < n && (isdigit((unsigned char)s[i]) || s[i] == '.');
}

/* The batch and data costs of a line, in ns (-1: none).  Seconds, or with
 * a unit: "2.18455s" (PaddleClas).  False, with *BAD the pair, when a cost
 * is written as a number but is no duration within BOUND_DUR_NS (too
 * large for an int64, negative, or beyond the bound). */
static bool read_costs(const struct log_line *l, int64_t *batch_ns, int64_t *data_ns,
		       const struct kv **bad)
{
	*batch_ns = *data_ns = -1;
	for (size_t i = 0; i < l->nr; i++) {
		const struct kv *kv = &l->kv[i];
		bool is_batch = is_key(kv->k, kv->klen, batch_keys);
		int64_t ns;

		if (!is_batch && !is_key(kv->k, kv->klen, data_keys))
			continue;
		if (!num_time_ns(kv->v, kv->vlen, 9, &ns) || !bound_dur_ok(ns)) {
			if (!looks_numeric(kv->v, kv->vlen))
				continue;
			*bad = kv;
			return false;
		}
		*(is_batch ? batch_ns : data_ns) = ns;
	}
	return true;
}

/* The rank of an index key (enum index_rank). */
static int index_key_rank(const char *k, size_t n)
{
	if (is_key(k, n, global_keys))
		return IDX_GLOBAL;
	if (is_key(k, n, iter_keys))
		return IDX_ITER;
	return eq_nocase(k, n, "batch") ? IDX_BATCH : IDX_NONE;
}

/* Take the number at V as L's index if it ranks above the one L has. */
static void offer_index(struct log_line *l, int rank, const char *v, size_t n)
{
	const char *digits;
	size_t nr_digits;

	if (rank < l->index_rank && leading_int(v, n, &digits, &nr_digits) >= 0) {
		l->index = digits;
		l->index_len = nr_digits;
		l->index_rank = rank;
	}
}

/* The same words written without a colon, "iter 10", "global step 20":
 * a word of index_key_rank() at a word's start, blanks, then digits
 * ("speed: 0.84 step/s" is no index). */
static void index_words(const char *s, size_t n, struct log_line *l)
{
	static const char *const words[] = { "global step", "global_step", "iteration", "iter",
					     "step", NULL };

	for (const char *const *w = words; *w; w++) {
		size_t wl = strlen(*w);

		for (size_t i = 0; i + wl < n; i++) {
			size_t j = i + wl;

			if ((i && is_ident(s[i - 1])) || strncasecmp(s + i, *w, wl) || s[j] != ' ')
				continue;
			while (j < n && s[j] == ' ')
				j++;
			if (j < n && isdigit((unsigned char)s[j]))
				offer_index(l, index_key_rank(*w, wl), s + j, n - j);
		}
	}
}

/* The epoch, index and eta of line S[0..N) into L and *EPOCH, *ETA_NS
 * (-1: none): "epoch: 3", PaddleClas's "[Epoch 1/120]", "iter: 7", "iter
 * 7", "global step 20", ppdet's "eta: 1 day, 2:03:04". */
static void read_labels(const char *s, size_t n, struct log_line *l, int64_t *epoch, int64_t *eta_ns)
{
	const char *at = text_find(s, n, "[Epoch ");

	*epoch = *eta_ns = -1;
	if (at)
		*epoch = leading_int(at + 7, n - (size_t)(at + 7 - s), NULL, NULL);
	for (size_t i = 0; i < l->nr; i++) {
		const struct kv *kv = &l->kv[i];

		if (eq_nocase(kv->k, kv->klen, "epoch"))
			*epoch = leading_int(kv->v, kv->vlen, NULL, NULL);
		else if (index_key_rank(kv->k, kv->klen) != IDX_NONE)
			offer_index(l, index_key_rank(kv->k, kv->klen), kv->v, kv->vlen);
		else if (eq_nocase(kv->k, kv->klen, "eta"))
			parse_eta(kv->v, n - (size_t)(kv->v - s), eta_ns);
	}
	index_words(s, n, l);
}

/* Every other numeric value of the line (losses, learning rate, ips) is a
 * column of its own, keyed by its name in lower case ("learning rate":
 * "learning_rate"): an integer where the file writes one ("ips: 3455"), a
 * double where it writes a decimal. */
static void step_values(struct profile *p, struct step *st, const struct log_line *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		const struct kv *kv = &l->kv[i];
		char key[64];
		int64_t v;
		double d;

		if (kv->klen >= sizeof(key) || is_key(kv->k, kv->klen, label_keys))
			continue;
		for (size_t j = 0; j < kv->klen; j++)
			key[j] = kv->k[j] == ' ' ? '_' : (char)tolower((unsigned char)kv->k[j]);
		key[kv->klen] = '\0';
		if (num_int(kv->v, kv->vlen, &v))
			attr_set_int(p, &st->attrs, key, v);
		else if (num_double(kv->v, kv->vlen, &d) && d == d)
			attr_set_double(p, &st->attrs, key, d);
	}
}

/* The step's categories from its batch and data costs.  Without a data
 * cost (PaddleFleetX prints none) neither is known: the line does not
 * say that no time went to data. */
static void step_split(struct paddle *pd, struct step *st, int64_t batch_ns, int64_t data_ns,
		       const struct pos *at)
{
	st->total_ns = batch_ns;
	if (data_ns < 0)
		return;
	st->cat_ns[0] = data_ns;
	if (data_ns > batch_ns) {
		diag_warn(pd->d, at, "iterations whose data time exceeds the batch time",
			  "data_cost exceeds batch_cost; compute time taken as 0");
		st->cat_ns[1] = 0;
	} else {
		st->cat_ns[1] = batch_ns - data_ns;
	}
}

/*
 * One iteration line: "key: value" pairs anywhere in it, plus ppdet's
 * "Epoch: [0] [ 19/12500]" and PaddleClas's "[Epoch 1/120][Iter: 0/5005]".
 * Only a line with a batch cost is an iteration.  Returns false for any
 * other line.
 */
static bool iteration_line(struct paddle *pd, const char *s, size_t n, uint64_t lineno)
{
	struct log_line l;
	int64_t batch_ns, data_ns, epoch, eta_ns;
	struct profile *p = pd->cur->p;
	struct pos pos = { lineno, 1 };
	const struct kv *bad;
	struct step *st;
	char ordinal[32];

	if (!text_find(s, n, "batch_cost"))
		return false;
	scan_pairs(s, n, &l);
	if (!read_costs(&l, &batch_ns, &data_ns, &bad)) {
		pos.col = (uint64_t)(bad->v - s) + 1;
		diag_warn(pd->d, &pos, "iterations with a cost beyond bounds, skipped",
			  "%.*s '%.*s' is not a time from 0 to 10^15 ns (11.6 days); iteration skipped",
			  (int)bad->klen, bad->k, (int)(bad->vlen > 40 ? 40 : bad->vlen), bad->v);
		pd->found = true;
		return true;
	}
	if (batch_ns < 0)
		return false;
	if (!want_steps(pd, p, &pos))
		return true;
	pd->found = true;
	read_labels(s, n, &l, &epoch, &eta_ns);
	if (!l.index) {
		/* No index printed: number the run's iterations from 0. */
		snprintf(ordinal, sizeof(ordinal), "%zu", p->nr_steps - pd->cur->first_step);
		l.index = ordinal;
		l.index_len = strlen(ordinal);
	}
	st = profile_add_step(p, l.index, l.index_len);
	step_split(pd, st, batch_ns, data_ns, &pos);
	if (epoch >= 0)
		attr_set_int(p, &st->attrs, "epoch", epoch);
	if (eta_ns >= 0)
		attr_set_ns(p, &st->attrs, "eta_ns", eta_ns);
	step_values(p, st, &l);
	return true;
}

/* ---- Perf Summary ------------------------------------------------------ */

/* "|   reader_cost   |     0.01367     |  ...  |": the trimmed cells. */
static size_t pipe_cells(const char *s, size_t n, struct field *out, size_t max)
{
	size_t i = leading_blanks(s, n), nr, rest, rest_len;

	if (i >= n || s[i] != '|')
		return 0;
	nr = text_bar_cells(s, n, i, "|", out, max, &rest);
	rest_len = n - rest;
	text_trim(s + rest, &rest_len);
	return rest_len ? 0 : nr;	/* text after the last bar: no row */
}

static void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* A line of the Perf Summary block; false when the block has ended. */
static bool perf_line(struct paddle *pd, const char *s, size_t n, uint64_t lineno)
{
	struct profile *p = pd->cur->p;
	struct field cells[8];
	size_t nr, i;

	if (pd->perf == PERF_HEAD && !pipe_cells(s, n, cells, 8)) {
		const char *rest = s;
		size_t len = n;

		/* "Reader Ratio: 53.514%", "Time Unit: s, IPS Unit: steps/s":
		 * timer.py prints these two and nothing else. */
		if (!text_starts(s, n, "Reader Ratio:") && !text_starts(s, n, "Time Unit:"))
			return false;
		while (len) {
			const char *comma = memchr(rest, ',', len);
			size_t part = comma ? (size_t)(comma - rest) : len;
			char key[64], val[64];
			struct field k, v;
			const char *colon = memchr(rest, ':', part);

			if (!colon)
				return false;
			k.len = (size_t)(colon - rest);
			k.s = text_trim(rest, &k.len);
			v.len = part - (size_t)(colon + 1 - rest);
			v.s = text_trim(colon + 1, &v.len);
			copy_field(key, sizeof(key), k.s, k.len);
			copy_field(val, sizeof(val), v.s, v.len);
			if (!strcmp(key, "Time Unit"))
				copy_field(pd->time_unit, sizeof(pd->time_unit), v.s, v.len);
			else if (!strcmp(key, "IPS Unit"))
				copy_field(pd->ips_unit, sizeof(pd->ips_unit), v.s, v.len);
			profile_meta(p, "perf summary", key, val);
			if (!comma)
				break;
			len -= part + 1;
			rest = comma + 1;
		}
		return true;
	}
	nr = pipe_cells(s, n, cells, 8);
	if (!nr)
		return false;
	pd->perf = PERF_TABLE;
	if (!cells[0].len) {
		/* The header: "|   | avg | max | min |". */
		pd->nr_perf_cols = 0;
		for (i = 1; i < nr && i < 8 && pd->nr_perf_cols < 4; i++)
			copy_field(pd->perf_cols[pd->nr_perf_cols++], sizeof(pd->perf_cols[0]),
				   cells[i].s, cells[i].len);
		return true;
	}
	{
		char key[64], val[256];
		size_t used = 0;
		const char *unit = text_ends(cells[0].s, cells[0].len, "_cost") ? pd->time_unit :
				   eq_nocase(cells[0].s, cells[0].len, "ips") ? pd->ips_unit : "";

		if (nr != pd->nr_perf_cols + 1 || nr > 8) {
			struct pos at = { lineno, cells[0].col + 1 };

			diag_warn(pd->d, &at, "Perf Summary lines that do not parse",
				  "Perf Summary row '%.*s' has %zu values for %zu columns", (int)cells[0].len,
				  cells[0].s, nr - 1, pd->nr_perf_cols);
			return true;
		}
		val[0] = '\0';
		for (i = 1; i < nr; i++) {
			double d;

			if (!num_double(cells[i].s, cells[i].len, &d)) {
				struct pos at = { lineno, cells[i].col + 1 };

				diag_warn(pd->d, &at, "Perf Summary lines that do not parse",
					  "'%.*s' is not a number", (int)cells[i].len, cells[i].s);
				return true;
			}
			used += (size_t)snprintf(val + used, sizeof(val) - used, "%s%s %.*s%s%s",
						 i > 1 ? ", " : "", pd->perf_cols[i - 1],
						 (int)cells[i].len, cells[i].s, *unit ? " " : "", unit);
			if (used >= sizeof(val))
				break;
		}
		copy_field(key, sizeof(key), cells[0].s, cells[0].len);
		profile_meta(p, "perf summary", key, val);
	}
	return true;
}

/* ---- tables ------------------------------------------------------------ */

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

static void end_table(struct paddle *pd, uint64_t lineno, bool closed)
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

static void start_table(struct paddle *pd, const struct field *title, int sec, uint64_t lineno)
{
	struct table *t = &pd->t;
	struct profile *p;

	end_table(pd, lineno, false);
	p = run_for_section(pd, sec, lineno);
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
		attr_set_ns(p, &n->attrs, ATTR_FILE_HOST_MEAN, hc->avg_ns);
	if (dc && dc->avg_ns >= 0)
		attr_set_ns(p, &n->attrs, ATTR_FILE_DEVICE_MEAN, dc->avg_ns);
	if (pd->t.sec == SEC_KERNEL && dc && dc->has_ratio)
		attr_set_double(p, &n->attrs, ATTR_FILE_DEVICE_TOTAL_PCT, dc->ratio);
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
			attr_set_int(p, &n->attrs, "flops", r->cells[flops].i);
		else
			attr_set_double(p, &n->attrs, "flops", r->cells[flops].d);
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
			attr_set_str(p, &n->attrs, key, cell->s, cell->len);
		else if (cell->present && (t->cols[c].kind == COL_COUNT || t->cols[c].kind == COL_BYTES))
			attr_set_int(p, &n->attrs, key, cell->i);
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
			n, { lineno, r->indent + 1 }, half_digit_ns(t->pow10) };
	}
	/* thread_sep=True: one table per thread, where an op can appear under
	 * several.  Merging them by name would add calls and times up but
	 * show one thread's FLOPs (a row's attributes are its first node's),
	 * so they stay rows of their own with a thread column. */
	if (level == 0 && t->thread[0]) {
		n->flags |= NODE_DISTINCT;
		attr_set_str(p, &n->attrs, "thread", t->thread, strlen(t->thread));
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
	end_table(pd, lineno, false);
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
		pd->cur->kernel_half_ns = half_digit_ns(t->pow10);
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
			end_table(pd, lineno, true);
		else
			t->state = T_AFTER;
		return true;
	}
	/* A blank line ends a table as well as its separator does: newer
	 * releases print the UserDefined Summary without one (seed 001).  So
	 * does a Markdown fence round a quoted table. */
	if (nr_spans == 1 || blank || text_starts(s + indent, n - indent, "```")) {
		t->complete = nr_spans == 1;
		end_table(pd, lineno, true);
		return true;
	}
	if (title_of(s, n, '-', &f) && text_starts(f.s, f.len, "Thread:")) {
		thread_title(pd, &f);
		return true;
	}
	if (text_eq(s + indent, n - indent, "...")) {
		cut_line(pd, lineno, indent);
		return true;
	}
	if (title_of(s, n, '-', &f) || title_of(s, n, '=', &f)) {
		end_table(pd, lineno, false);
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
	if (!iteration_line(pd, s, n, lineno))
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
	/* The table's end: what end_table() notes (a Kernel Summary with
	 * rows omitted) holds after its closing separator too. */
	end_table(pd, lineno, true);
	return false;
}

/*
 * A line while a table is open, by the table's state.  Returns true when
 * the table took it; false hands it to the general dispatch (after closing
 * the table when the line ends it).
 */
static bool table_line(struct paddle *pd, char *s, size_t n, uint64_t lineno)
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

/* ---- the pass ---------------------------------------------------------- */

static void dispatch(struct paddle *pd, char *s, size_t n, uint64_t lineno)
{
	struct field f;

	if (pd->perf != PERF_NONE) {
		if (perf_line(pd, s, n, lineno))
			return;
		pd->perf = PERF_NONE;
	}
	if (table_line(pd, s, n, lineno))
		return;
	if (title_of(s, n, '-', &f)) {
		int sec = section_of(&f);

		if (sec >= 0) {
			start_table(pd, &f, sec, lineno);
		} else if (text_find(f.s, f.len, "Summary") && !text_starts(f.s, f.len, "Thread:")) {
			struct pos at = { lineno, f.col + 1 };

			diag_warn(pd->d, &at, "summary sections this parser does not know, skipped",
				  "section '%.*s' is not one this parser knows; skipped",
				  (int)(f.len > 60 ? 60 : f.len), f.s);
		}
		return;
	}
	if (title_of(s, n, '=', &f) && text_eq(f.s, f.len, "Perf Summary")) {
		pd->perf = PERF_HEAD;
		pd->found = true;
		strcpy(pd->time_unit, "s");
		pd->ips_unit[0] = '\0';
		pd->nr_perf_cols = 0;
		return;
	}
	iteration_line(pd, s, n, lineno);
}

static int paddle_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct paddle pd = { .first = p, .in = in, .d = d };
	char *line;
	size_t len;
	uint64_t last = 0;
	int rc = 0;

	run_new(&pd, p);
	while ((line = input_line(in, &len))) {
		size_t k;

		last = in->lineno;
		if (memchr(line, '\0', len)) {
			struct pos at = { in->lineno, (size_t)((char *)memchr(line, '\0', len) - line) + 1 };

			diag_error(d, &at, "binary data (a NUL byte) in a text profile; reading stops here");
			rc = pd.found ? 0 : -1;
			pd.t.has_bad = false;
			goto out;
		}
		len = text_strip_ansi(line, len);
		k = text_log_prefix(line, len);
		line += k;
		len -= k;
		while (len && is_blank(line[len - 1]))
			len--;
		dispatch(&pd, line, len, in->lineno);
	}
	if (input_failed(in, d)) {
		rc = pd.found ? 0 : -1;
		pd.t.has_bad = false;
		goto out;
	}
	if (pd.t.has_bad) {
		/* The file's last line was a row that did not parse. */
		diag_error(d, &pd.t.bad_at, "table '%s' cut mid-row; the rows above it are kept",
			   pd.t.title);
		pd.t.has_bad = false;
		pd.t.state = T_NONE;	/* that is the table's end, said once */
	}
	end_table(&pd, last + 1, false);
	if (!pd.found) {
		diag_error(d, NULL, "no PaddlePaddle profiler summary or training-log lines found");
		rc = -1;
	}
out:
	for (struct run *r = pd.runs, *next; r; r = next) {
		next = r->next;
		if (rc == 0)
			finish_run(&pd, r);
		free(r->tree_kernels);
		free(r);
	}
	return rc;
}

const struct parser paddle_parser = {
	.counts_per_node = true,
	.name = "paddle",
	.summary = "PaddlePaddle profiler summary tables and training-log lines",
	.anywhere = true,
	.probe = paddle_probe,
	.parse = paddle_parse,
};
