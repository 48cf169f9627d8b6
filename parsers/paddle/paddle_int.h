/* SPDX-License-Identifier: MIT */
/*
 * PaddlePaddle's summary and training log (paddle.c): what its files
 * share.  paddle.c runs the pass and hands each line to the tables
 * (paddle_tables.c), the Perf Summary (paddle_perf.c) or the training
 * log (paddle_log.c); all of them fill the runs (paddle_runs.c).
 */
#ifndef PARSERS_PADDLE_INT_H
#define PARSERS_PADDLE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "../../model/profile.h"
#include "../diag.h"
#include "../input.h"
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

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline size_t leading_blanks(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_blank(s[i]))
		i++;
	return i;
}

static inline bool eq_nocase(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && !strncasecmp(s, word, n);
}

static inline void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* paddle_runs.c */

/* A new run reading into P, after the others; it becomes the current one. */
struct run *paddle_run_new(struct paddle *pd, struct profile *p);

/* Whether P can take our steps: its categories are ours, or it has none. */
bool paddle_want_steps(struct paddle *pd, struct profile *p, struct pos *at);

/* The run a section starting at line LINE belongs to: the current one,
 * unless it already has this section or a later one -- then a new summary
 * has begun. */
struct profile *paddle_run_for_section(struct paddle *pd, int sec, uint64_t line);

/* Half the last digit a table in 10^POW10 ns prints (two decimals): what
 * rounding may have moved one of its numbers by. */
int64_t paddle_half_digit_ns(int pow10);

/*
 * At the end: name the steps, or make the "average" step.  Step names are
 * the iteration number as printed ("19"; of the numbers a line prints, a
 * global step before an iteration's before a batch's); when the run's
 * iterations span several epochs, "EPOCH/INDEX" ("1/19"), since ppdet
 * restarts the index every epoch.
 * Lines that print no number are numbered by place from 0.  A name given
 * twice is told apart by name_repeats().
 */
void paddle_finish_run(struct paddle *pd, struct run *r);

/* paddle_log.c */

/*
 * One iteration line: "key: value" pairs anywhere in it, plus ppdet's
 * "Epoch: [0] [ 19/12500]" and PaddleClas's "[Epoch 1/120][Iter: 0/5005]".
 * Only a line with a batch cost is an iteration.  Returns false for any
 * other line.
 */
bool paddle_iteration_line(struct paddle *pd, const char *s, size_t n, uint64_t lineno);

/* paddle_perf.c */

/* A line of the Perf Summary block; false when the block has ended. */
bool paddle_perf_line(struct paddle *pd, const char *s, size_t n, uint64_t lineno);

/* paddle_tables.c */

/*
 * "-----Operator Summary-----" (FILL '-') or "=====Perf Summary=====" (FILL
 * '='): the text between two runs of at least three FILL characters, which
 * must not itself start or end with FILL (so "----  ----" separators are
 * not titles).  add_title() centres it; we do not care where.
 */
bool paddle_title_of(const char *s, size_t n, char fill, struct field *text);

/* The section (enum section) a title names, or -1 for one we do not know. */
int paddle_section_of(const struct field *f);

/* Close the open table, if any, at line LINENO, with a warning when it
 * is short of rows or, unless CLOSED (its closing separator was read),
 * of its end. */
void paddle_end_table(struct paddle *pd, uint64_t lineno, bool closed);

/* Open the table of section SEC titled TITLE (line LINENO), in the run
 * it belongs to; the table open before is closed. */
void paddle_start_table(struct paddle *pd, const struct field *title, int sec, uint64_t lineno);

/*
 * A line while a table is open, by the table's state.  Returns true when
 * the table took it; false hands it to the general dispatch (after closing
 * the table when the line ends it).
 */
bool paddle_table_line(struct paddle *pd, char *s, size_t n, uint64_t lineno);

#endif
