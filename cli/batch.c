// SPDX-License-Identifier: MIT
/*
 * Batch output: --print's pane with its scope checked (a step, a drill
 * target, a sort column that exists, with the nearest names offered when
 * not), --summary's file and --print runs' list.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../model/escape.h"
#include "../model/profset.h"
#include "../model/strbuf.h"
#include "../model/summary.h"
#include "../model/timeline.h"
#include "../model/util.h"
#include "../parsers/load.h"
#include "../view/export.h"
#include "../view/outfile.h"
#include "../view/pane_multi.h"
#include "../view/tlview.h"
#include "batch.h"

static int no_such_step(const struct profile *p, const char *name)
{
	escape_fprintf(stderr, "proftui: no step '%s' in this profile", name);
	if (!p->nr_steps) {
		fputs(" (it has no steps)\n", stderr);
	} else {
		fputs(" (steps:", stderr);
		for (size_t i = 0; i < p->nr_steps && i < 12; i++)
			escape_fprintf(stderr, " %s", p->steps[i].name);
		fputs(p->nr_steps > 12 ? " ...)\n" : ")\n", stderr);
	}
	return EXIT_USAGE;
}

static int no_such_column(const struct pane *pane, const char *name)
{
	char key[128];

	escape_fprintf(stderr, "proftui: no column '%s' in the %s pane (columns:", name,
		       pane_name(pane->ops));
	for (size_t i = 0; i < pane->nr_cols; i++)
		if (pane->cols[i].kind != COL_BAR)
			escape_fprintf(stderr, " %s",
				       column_json_key(&pane->cols[i], key, sizeof(key)));
	fputs(")\n", stderr);
	return EXIT_USAGE;
}

/* The edit distance of A and B, case ignored, up to a cap (names can be
 * long; only the near ones matter). */
static size_t distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), *row, best;

	if (n > 256)
		n = 256;
	if (m > 256)
		m = 256;
	row = xmalloc((m + 1) * sizeof(*row));
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j], cost = tolower((unsigned char)a[i - 1]) !=
						   tolower((unsigned char)b[j - 1]);
			size_t v = diag + cost;

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
		}
	}
	best = row[m];
	free(row);
	return best;
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return !n;
}

/*
 * "no op named 'NAME'" and the names of PANE's rows nearest to it: the
 * ones that hold it (case ignored) first, then by edit distance; exit 2,
 * as for a file that does not hold what was asked.
 */
static int no_such_name(const struct pane *pane, const char *name, const char *what,
			const struct step *step)
{
	enum { NR_CLOSE = 5 };
	const char *close[NR_CLOSE];
	size_t score[NR_CLOSE], nr = 0;

	for (size_t i = 0; i < pane->nr_view; i++) {
		const char *cand = pane_row_name(pane, pane_row(pane, i));
		size_t d = distance(name, cand), k;

		/* Holding it beats any distance (which is at most 256). */
		if (!contains_nocase(cand, name) && !contains_nocase(name, cand))
			d += 1000;
		if (nr == NR_CLOSE && d >= score[nr - 1])
			continue;
		if (nr < NR_CLOSE)
			nr++;
		for (k = nr - 1; k > 0 && score[k - 1] > d; k--) {
			score[k] = score[k - 1];
			close[k] = close[k - 1];
		}
		score[k] = d;
		close[k] = cand;
	}
	escape_fprintf(stderr, "proftui: no %s named '%s'", what, name);
	if (step)
		escape_fprintf(stderr, " in step %s", step->name);
	if (!nr) {
		fputs(" (there are none)\n", stderr);
	} else {
		fputs(" (closest:", stderr);
		for (size_t i = 0; i < nr; i++)
			escape_fprintf(stderr, "%s '%s'", i ? "," : "", close[i]);
		fputs(")\n", stderr);
	}
	return EXIT_INPUT;
}


/* Whether PCRE2 gave up on a name F was asked about: then the rows are
 * undecided, an error rather than a table that passes for "no match". */
static bool pattern_failed(const char *option, const char *pattern, const struct filter *f)
{
	const char *why = filter_error(f);

	if (!why)
		return false;
	escape_fprintf(stderr, "proftui: error: %s '%s': %s", option, pattern, why);
	fputc('\n', stderr);
	return true;
}


/* 0 when the op (IS_OP) or kernel NAME is in P within SCOPE's step, else
 * the exit status after a message offering the closest names. */
static int drill_name_exists(const struct profile *p, const struct pane_scope *scope, bool is_op,
			     const char *name)
{
	struct pane *names = pane_open(pane_types[is_op ? PANE_OPS : PANE_KERNELS], p, scope);
	int rc = 0;

	if (!pane_seek(names, name))
		rc = no_such_name(names, name, is_op ? "op" : "kernel", scope->step);
	pane_free(names);
	return rc;
}

/*
 * The width --print's txt and md lines are cut to (0: whole names): --width
 * when given; else, when the lines go to a terminal, its width
 * (TIOCGWINSZ), or $COLUMNS when the terminal does not say, or 80; else
 * (a pipe, a file, -o FILE) whole names, so that what a script reads does
 * not depend on the terminal it ran from.
 */
static size_t print_width(const struct options *o)
{
	struct winsize ws;
	const char *env;

	if (o->width_set)
		return o->width;
	if ((o->output && strcmp(o->output, "-")) || !isatty(STDOUT_FILENO))
		return 0;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	if ((env = getenv("COLUMNS")) && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*end && v > 0 && v <= WIDTH_MAX)
			return (size_t)v;
	}
	return 80;
}

/* --range: SCOPE narrowed to it, its times made absolute from the
 * Timeline's 0 (the trace's first event); 0, else an exit status after
 * saying why. */
static int range_scope(const struct profile *p, const struct options *o, struct pane_scope *scope)
{
	struct timeline tl;
	char len[32];

	if (!p->has_timeline) {
		fputs("proftui: this profile's rows carry no times: --range cannot narrow them\n",
		      stderr);
		return EXIT_USAGE;
	}
	timeline_build(p, &tl);
	if (o->range_start_ns >= tl.end_ns - tl.start_ns) {
		tlview_fmt_time(tl.end_ns - tl.start_ns, len, sizeof(len));
		escape_fprintf(stderr, "proftui: --range %s starts after the trace, which lasts %s",
			       o->range, len);
		fputc('\n', stderr);
		timeline_release(&tl);
		return EXIT_USAGE;
	}
	scope->has_range = true;
	scope->range_origin_ns = tl.start_ns;
	scope->range_start_ns = tl.start_ns + o->range_start_ns;
	scope->range_end_ns = tl.start_ns + o->range_end_ns;
	timeline_release(&tl);
	return 0;
}

/* --print: one pane as text, to stdout or to -o FILE.  FILTER and DRILL_RE
 * (compiled before the load, so a bad pattern costs no wait) are the
 * pane's to free. */
int print_pane(const struct pane_scope *shown, const struct profile *p, const struct options *o,
		      const char *label, struct filter *filter, struct filter *drill_re)
{
	const struct pane_ops *ops = pane_ops_find(o->print ? o->print : "ops");
	struct pane_scope scope = *shown;
	struct pane *pane;
	char err[512], *caption = NULL;
	int rc = 0;

	if (o->step && !(scope.step = profile_step_named(p, o->step))) {
		rc = no_such_step(p, o->step);
		goto out_filters;
	}
	if (o->step && !p->has_timeline && (ops->flags & PANE_FOLLOWS_STEP)) {
		escape_fprintf(stderr, "proftui: warning: this profile's rows carry no times, so "
			       "--step %s cannot narrow them; all rows are shown", o->step);
		fputc('\n', stderr);
	}
	if (o->range && (rc = range_scope(p, o, &scope)))
		goto out_filters;
	if (o->drill && (ops->flags & PANE_DRILL_IS_SCOPE)) {
		/* The op must be there, as for an op's kernels: an empty
		 * table would pass for "it has no call stacks". */
		scope.drill_name = o->drill;
		if ((rc = drill_name_exists(p, &scope, true, o->drill)))
			goto out_filters;
	} else if (o->drill || o->drill_re) {
		if (!pane_print_drill(ops)) {
			rc = usage_error("--drill goes with --print kernels (an op's kernels), "
					 "--print ops (a kernel's ops) or --print call-stacks (an op's "
					 "call stacks)");
			goto out_filters;
		}
		scope.drill_to = pane_print_drill(ops);
		scope.drill_name = o->drill;
		/* The op (or kernel) must be there: an empty table would
		 * pass for "it launched nothing". */
		if (o->drill && (rc = drill_name_exists(p, &scope,
							scope.drill_to == DRILL_TO_KERNELS, o->drill)))
			goto out_filters;
		ops = pane_types[PANE_DRILL];
	}
	scope.expand_all = true;	/* print every row of a tree */
	scope.all_columns = o->stats;	/* the distributions */
	scope.drill_re = drill_re;
	scope.group = o->group;
	pane = pane_open(ops, p, &scope);
	if (pattern_failed("--drill-re", o->drill_re, drill_re)) {
		rc = EXIT_INPUT;
		goto out;
	}
	if (pane_needs_trace(pane)) {
		/* An empty table would pass for "none": say why, and fail. */
		char why[512] = "this view needs the trace";

		pane_empty_text(pane, why, sizeof(why));
		escape_fprintf(stderr, "proftui: %s", why);
		fputc('\n', stderr);
		rc = EXIT_USAGE;
		goto out;
	}
	if (o->sort) {
		int col = pane_column(pane, o->sort);

		if (col < 0) {
			rc = no_such_column(pane, o->sort);
			goto out;
		}
		pane->sort_col = col;
		pane->sort_desc = column_default_desc(&pane->cols[col]);
	}
	if (o->reverse)
		pane->sort_desc = !pane->sort_desc;
	pane->filter = filter;
	/* pane_open() made the view in the pane's own order: again only when
	 * the order or the filter differ (a view of a tree is millions of
	 * rows). */
	if (o->sort || o->reverse || filter)
		pane_rebuild(pane);
	filter = NULL;
	if (pattern_failed("--filter", o->filter, pane->filter)) {
		rc = EXIT_INPUT;
		goto out;
	}
	caption = export_caption(pane, label, o->limit);
	export_set_width(print_width(o), o->ascii);
	if (o->output && strcmp(o->output, "-")) {
		if (export_to_path(pane, o->output, o->format, o->limit, caption, err,
				   sizeof(err)) < 0) {
			escape_fprintf(stderr, "proftui: %s", err);
			fputc('\n', stderr);
			rc = EXIT_INPUT;
		}
	} else if (export_pane(pane, stdout, o->format, o->limit, caption) < 0) {
		fprintf(stderr, "proftui: standard output: %s\n", strerror(errno));
		rc = EXIT_INPUT;
	}
	if (pane->nr_capped) {
		/* The pane's own sums past the cap, as its status line says. */
		escape_fprintf(stderr, "proftui: warning: %" PRIu64 " sum%s in the %s pane passed "
			       "73 years (2305843009.214 s, or as many bytes) and %s capped there; "
			       "shown as >=", pane->nr_capped, pane->nr_capped == 1 ? "" : "s",
			       pane_print_name(pane->ops), pane->nr_capped == 1 ? "was" : "were");
		fputc('\n', stderr);
	} else {
		/* A capped figure the pane type did not count (its model
		 * function capped it: a name_stats total, a mean of one),
		 * found in what was written, whatever the format. */
		uint64_t n = pane_capped_cells(pane, o->limit);

		if (n) {
			escape_fprintf(stderr, "proftui: warning: %" PRIu64 " figure%s in the %s pane "
				       "%s made of sums that passed 73 years (2305843009.214 s, or "
				       "as many bytes) and were capped there; shown as >=", n,
				       n == 1 ? "" : "s", pane_print_name(pane->ops),
				       n == 1 ? "is" : "are");
			fputc('\n', stderr);
		}
	}
	if (pane->nr_rows) {
		/* Why a column is blank, as the TUI's status line says. */
		char why[512];

		if (pane_why_blank(pane, why, sizeof(why))) {
			escape_fprintf(stderr, "proftui: %s", why);
			fputc('\n', stderr);
		}
	}
	if (!pane->nr_rows) {
		/* Why the table is empty, as the TUI's bar would say. */
		char why[512] = "";

		pane_empty_text(pane, why, sizeof(why));
		if (why[0]) {
			escape_fprintf(stderr, "proftui: %s", why);
			fputc('\n', stderr);
		}
	}
out:
	free(caption);
	if (FREE_AT_EXIT)
		pane_free(pane);
out_filters:
	filter_free(filter);
	filter_free(drill_re);
	return rc;
}

static long fill_summary(FILE *out, void *ctx)
{
	const struct strbuf *b = ctx;

	if (fwrite(b->s, 1, b->len, out) != b->len || fflush(out))
		return -1;
	return 0;
}

/* --summary: P's summary (model/summary.h) into -o FILE, as every output
 * goes to a path (outfile.h), or to standard output for "-". */
int write_summary(const struct profset *set, const struct profile *p, const struct options *o)
{
	struct strbuf b = STRBUF_INIT;
	char err[512];
	int rc = 0;

	if (set->kind != PROFSET_ONE) {
		rc = usage_error("--summary summarises one profile: give it one trace");
		goto out;
	}
	summary_write(p, &b);
	if (!strcmp(o->output, "-")) {
		if (fill_summary(stdout, &b) < 0) {
			fprintf(stderr, "proftui: standard output: %s\n", strerror(errno));
			rc = EXIT_INPUT;
		}
	} else if (outfile_write(o->output, fill_summary, &b, err, sizeof(err)) < 0) {
		escape_fprintf(stderr, "proftui: %s", err);
		fputc('\n', stderr);
		rc = EXIT_INPUT;
	}
out:
	strbuf_release(&b);
	return rc;
}

/* --print runs DIR...: each log dir's runs, as torch-tb-profiler's home
 * lists them, with their files and directory. */
int print_runs(const char *const *dirs, size_t nr)
{
	int rc = 0;

	for (size_t d = 0; d < nr; d++) {
		struct profset_run *runs;
		size_t n, width = 4;
		char err[1024];

		if (profset_list_runs(dirs[d], &runs, &n, err, sizeof(err))) {
			escape_fprintf(stderr, "proftui: %s", err);
			fputc('\n', stderr);
			rc = EXIT_INPUT;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			if (strlen(runs[i].name) > width)
				width = strlen(runs[i].name);
		escape_fprintf(stdout, "# Runs of %s: %zu", dirs[d], n);
		printf("\n%-*s  Files  Directory\n", (int)width, "Name");
		for (size_t i = 0; i < width; i++)
			putchar('-');
		fputs("  -----  ---------\n", stdout);
		for (size_t i = 0; i < n; i++) {
			escape_fprintf(stdout, "%-*s  %5zu  %s", (int)width, runs[i].name,
				       runs[i].nr_files, runs[i].dir);
			putchar('\n');
			free(runs[i].name);
			free(runs[i].dir);
		}
		free(runs);
		if (!n) {
			escape_fprintf(stderr, "proftui: %s: no runs (no *.pt.trace.json[.gz] or "
				       "*.summary files under it)", dirs[d]);
			fputc('\n', stderr);
			rc = EXIT_INPUT;
		}
	}
	return rc;
}

