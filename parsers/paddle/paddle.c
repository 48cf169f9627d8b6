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
 * This file holds the pass and the probe; each kind of line has its file:
 * the summary tables (paddle_tables.c), the Perf Summary (paddle_perf.c),
 * the training-log lines (paddle_log.c), and the runs and steps they fill
 * (paddle_runs.c); paddle_int.h says what they share.
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
#include "paddle_int.h"

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

		if (paddle_title_of(s, n, '-', &f) && paddle_section_of(&f) >= 0)
			return 90;
		if (paddle_title_of(s, n, '=', &f) && text_eq(f.s, f.len, "Perf Summary"))
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

/* ---- the pass ---------------------------------------------------------- */

static void dispatch(struct paddle *pd, char *s, size_t n, uint64_t lineno)
{
	struct field f;

	if (pd->perf != PERF_NONE) {
		if (paddle_perf_line(pd, s, n, lineno))
			return;
		pd->perf = PERF_NONE;
	}
	if (paddle_table_line(pd, s, n, lineno))
		return;
	if (paddle_title_of(s, n, '-', &f)) {
		int sec = paddle_section_of(&f);

		if (sec >= 0) {
			paddle_start_table(pd, &f, sec, lineno);
		} else if (text_find(f.s, f.len, "Summary") && !text_starts(f.s, f.len, "Thread:")) {
			struct pos at = { lineno, f.col + 1 };

			diag_warn(pd->d, &at, "summary sections this parser does not know, skipped",
				  "section '%.*s' is not one this parser knows; skipped",
				  (int)(f.len > 60 ? 60 : f.len), f.s);
		}
		return;
	}
	if (paddle_title_of(s, n, '=', &f) && text_eq(f.s, f.len, "Perf Summary")) {
		pd->perf = PERF_HEAD;
		pd->found = true;
		strcpy(pd->time_unit, "s");
		pd->ips_unit[0] = '\0';
		pd->nr_perf_cols = 0;
		return;
	}
	paddle_iteration_line(pd, s, n, lineno);
}

static int paddle_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct paddle pd = { .first = p, .in = in, .d = d };
	char *line;
	size_t len;
	uint64_t last = 0;
	int rc = 0;

	paddle_run_new(&pd, p);
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
	paddle_end_table(&pd, last + 1, false);
	if (!pd.found) {
		diag_error(d, NULL, "no PaddlePaddle profiler summary or training-log lines found");
		rc = -1;
	}
out:
	for (struct run *r = pd.runs, *next; r; r = next) {
		next = r->next;
		if (rc == 0)
			paddle_finish_run(&pd, r);
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
