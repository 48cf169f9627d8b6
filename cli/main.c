// SPDX-License-Identifier: MIT
/*
 * proftui's entry point: options (options.c), loading, then either the
 * terminal UI or one pane printed (batch.c: --print, or stdout not a
 * terminal, as perf report falls back to --stdio).
 *
 * Exit status: 0 ok, 1 usage error, 2 input error.
 */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/escape.h"
#include "../model/profset.h"
#include "../model/util.h"
#include "../parsers/load.h"
#include "../tui/loading.h"
#include "../tui/ui.h"
#include "../view/export.h"
#include "../view/pane_multi.h"
#include "../view/shortnames.h"
#include "batch.h"
#include "options.h"

/* The files to load, for loading.c's callback. */
struct load_job {
	struct profset *set;
	const char *const *paths;
	size_t nr;
};

static int load_files(void *ctx, const struct load_options *lo)
{
	struct load_job *j = ctx;

	return profset_load(j->set, j->paths, j->nr, lo);
}


/* PATTERN (of OPTION) compiled into *OUT; false after a usage message.
 * Empty patterns are no filter, except where one is needed. */
static bool compile(const char *option, const char *pattern, bool need, struct filter **out)
{
	char err[512];

	*out = NULL;
	if (!pattern)
		return true;
	*out = filter_new(pattern, err, sizeof(err));
	if (*out || (!*err && !need))
		return true;
	escape_fprintf(stderr, "proftui: %s '%s': %s", option, pattern, *err ? err : "empty pattern");
	fputc('\n', stderr);
	return false;
}


/* The run titled NAME (a run of a log dir, a titled run of a file) of
 * FIRST into *RUN; false after a message listing the titles. */
static bool find_run(const struct profile *first, const char *name, size_t *run)
{
	size_t i = 0;

	for (const struct profile *r = first; r; r = r->next_run, i++) {
		if (r->run_title && !strcmp(r->run_title, name)) {
			*run = i;
			return true;
		}
	}
	escape_fprintf(stderr, "proftui: no run '%s' (runs:", name);
	for (const struct profile *r = first; r; r = r->next_run)
		escape_fprintf(stderr, " %s", r->run_title ? r->run_title : "(untitled)");
	fputs(")\n", stderr);
	return false;
}

/* The member --rank NAME picks: the worker of that name, else the one
 * worker that claims that rank number; SET->nr after a message when
 * there is none, or when several workers claim the rank. */
static size_t find_rank(const struct profset *set, const char *name)
{
	size_t found = set->nr, nr_found = 0;

	for (size_t m = 0; m < set->nr; m++)
		if (!strcmp(set->members[m].label, name))
			return m;
	for (size_t m = 0; m < set->nr; m++) {
		char num[32];

		snprintf(num, sizeof(num), "%ld", (long)set->members[m].rank);
		if (set->members[m].rank >= 0 && !strcmp(num, name) && !nr_found++)
			found = m;
	}
	if (nr_found > 1) {
		escape_fprintf(stderr, "proftui: rank %s is claimed by %zu workers (%s, ...): "
			       "give --rank a worker's name", name, nr_found,
			       set->members[found].label);
		fputc('\n', stderr);
		return set->nr;
	}
	if (!nr_found) {
		escape_fprintf(stderr, "proftui: no rank '%s' among the %zu ranks (%s)", name,
			       set->nr, set->label);
		fputc('\n', stderr);
	}
	return found;
}

/* The profile the panes show, and the scope that says what else is open:
 * the new run of a diff, the first rank (or --rank's) of a set of ranks,
 * the one profile; --run picks the run of each.  NULL after a message. */
static const struct profile *pick_shown(const struct profset *set, const struct options *o,
					struct pane_scope *scope, long *member)
{
	size_t run = o->run ? o->run - 1 : 0, m = set->kind == PROFSET_DIFF ? 1 : 0;
	const struct profile *p;

	if (o->run_name && !find_run(set->members[m].prof, o->run_name, &run))
		return NULL;

	memset(scope, 0, sizeof(*scope));
	scope->set = set->kind == PROFSET_ONE ? NULL : set;
	scope->run = run;
	if (o->rank) {
		if (set->kind != PROFSET_RANKS) {
			usage_error("--rank picks one of the ranks of a job (see --ranks)");
			return NULL;
		}
		if ((m = find_rank(set, o->rank)) == set->nr)
			return NULL;
		scope->per_rank = true;
	}
	for (size_t i = 0; i < set->nr; i++) {
		if (!profile_run(set->members[i].prof, run)) {
			escape_fprintf(stderr, "proftui: no run %zu in %s (it holds %zu)", run + 1,
				       set->members[i].files, profile_nr_runs(set->members[i].prof));
			fputc('\n', stderr);
			return NULL;
		}
	}
	p = profile_run(set->members[m].prof, run);
	scope->first_run = set->members[m].prof;
	*member = (long)m;
	return p;
}


/*
 * Hold what goes to stderr (fd 2: stdio or not) while the screen is up
 * (HOLD true), and add it to *MESSAGES when done (HOLD false).
 */
static void stderr_hold(bool hold, char **messages)
{
	static FILE *held;
	static int saved = -1;
	char buf[4096];
	size_t n, len;

	fflush(stderr);
	if (hold) {
		held = tmpfile();
		saved = held ? dup(STDERR_FILENO) : -1;
		if (saved >= 0)
			dup2(fileno(held), STDERR_FILENO);
		return;
	}
	if (saved < 0)
		return;
	dup2(saved, STDERR_FILENO);
	close(saved);
	saved = -1;
	rewind(held);
	len = *messages ? strlen(*messages) : 0;
	while ((n = fread(buf, 1, sizeof(buf), held)) > 0) {
		*messages = xrealloc(*messages, len + n + 1);
		memcpy(*messages + len, buf, n);
		len += n;
		(*messages)[len] = '\0';
	}
	fclose(held);
}

/* The first line of MESSAGES, into BUF; NULL when there is none. */
static const char *first_line(const char *messages, char *buf, size_t size)
{
	if (!messages || !*messages)
		return NULL;
	snprintf(buf, size, "%.*s", (int)strcspn(messages, "\n"), messages);
	return buf;
}

int main(int argc, char **argv)
{
	struct options o = { .format = EXPORT_TXT };
	struct load_options lo = { .err = stderr };
	struct profset set = { 0 };
	struct pane_scope scope;
	const struct profile *p = NULL;
	struct filter *filter = NULL, *drill_re = NULL;
	struct load_job job;
	char *messages = NULL;
	bool interactive;
	long member = 0;
	int rc;

	setlocale(LC_ALL, "");
	if ((rc = parse_args(argc, argv, &o)) >= 0)
		return rc;
	if (o.print_runs)
		return print_runs((const char *const *)argv + optind, (size_t)(argc - optind));
	/* A terminal that cannot show the panes (TERM=dumb) gets the pane
	 * printed, as a pipe does. */
	interactive = !o.print && !o.output && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) &&
		      loading_term_usable();
	/* A bad pattern is a usage error before any file is read.  (The UI
	 * compiles its own, and says what is wrong in its bar.) */
	if (!interactive && (!compile("--filter", o.filter, false, &filter) ||
			     !compile("--drill-re", o.drill_re, true, &drill_re))) {
		filter_free(filter);
		return EXIT_USAGE;
	}
	lo.format = o.input_format;
	lo.merge = o.merge;
	lo.diff = o.diff;
	lo.ranks = o.ranks;
	lo.jobs = o.jobs;
	lo.run_name = o.run_name;
	job.set = &set;
	job.paths = (const char *const *)argv + optind;
	job.nr = (size_t)(argc - optind);
	/* Interactive, the screen is up at once and the load runs behind
	 * its progress; its messages wait until the screen is gone. */
	if (interactive)
		rc = loading_run(load_files, &job, &lo, job.nr == 1 ? job.paths[0] : "the files",
				 &messages);
	else
		rc = loading_batch(load_files, &job, &lo);
	if (rc == -2) {
		rc = EXIT_USAGE;
		goto out;
	}
	/* Batch output is all or nothing: a file that failed to load (even
	 * one that kept what came before the error) prints no table, unless
	 * --keep-going asks for what was kept.  The TUI opens what was kept
	 * and says why it stopped. */
	if (rc < 0 || (rc > 0 && !interactive && !o.keep_going)) {
		rc = EXIT_INPUT;
		goto out;
	}
	if (interactive && !set.nr) {
		rc = EXIT_INPUT;
		goto out;
	}
	/* Its words for stderr wait, while the screen is up, with the
	 * load's. */
	if (interactive)
		stderr_hold(true, &messages);
	p = pick_shown(&set, &o, &scope, &member);
	if (interactive)
		stderr_hold(false, &messages);
	if (!p) {
		rc = EXIT_USAGE;
	} else if (o.summary) {
		int failed = rc > 0;

		rc = write_summary(&set, p, &o);
		if (failed && !rc)
			rc = EXIT_INPUT;
	} else if (interactive) {
		char msg[512];
		struct ui_options uo = {
			.label = set.label, .filter = o.filter, .step = o.step, .sort = o.sort,
			.reverse = o.reverse, .keymap = o.keymap, .keys = o.keys, .group = o.group,
			.ascii = o.ascii, .no_color = o.no_color || (getenv("NO_COLOR") && *getenv("NO_COLOR")),
			.load_failed = rc > 0, .run = scope.run,
			.rank = scope.per_rank ? member : -1,
			.short_names = o.short_names, .no_mouse = o.no_mouse,
			.message = first_line(messages, msg, sizeof(msg)),
		};

		rc = ui_run(&set, &uo);
	} else {
		int failed = rc > 0;
		struct shortnames *sn = o.short_names ? shortnames_new(p, false) : NULL;

		export_set_short_names(sn);
		rc = print_pane(&scope, p, &o, set.label, filter, drill_re);
		filter = drill_re = NULL;
		export_set_short_names(NULL);
		shortnames_free(sn);
		if (failed && !rc)
			rc = EXIT_INPUT;	/* printed, but the input was bad */
	}
out:
	if (interactive) {
		/* What the load said, now that the shell has the terminal. */
		ui_term_end();
		if (messages)
			fputs(messages, stderr);
	}
	free(messages);
	filter_free(filter);
	filter_free(drill_re);
	/* The profile: see FREE_AT_EXIT. */
	if (interactive || FREE_AT_EXIT)
		profset_release(&set);
	return rc;
}
