// SPDX-License-Identifier: MIT
/*
 * proftui's entry point: options, loading, then either the terminal UI or
 * one pane printed (--print, or stdout not a terminal, as perf report
 * falls back to --stdio).
 *
 * Exit status: 0 ok, 1 usage error, 2 input error.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../model/escape.h"
#include "../model/profset.h"
#include "../model/strbuf.h"
#include "../model/summary.h"
#include "../model/util.h"
#include "../parsers/gunzip.h"
#include "../parsers/load.h"
#include "../parsers/parser.h"
#include "export.h"
#include "keymap.h"
#include "loading.h"
#include "outfile.h"
#include "pane.h"
#include "pane_multi.h"
#include "shortnames.h"
#include "ui.h"

#define EXIT_USAGE 1
#define EXIT_INPUT 2

#ifndef PROFTUI_VERSION
#define PROFTUI_VERSION "0.1"
#endif

struct options {
	const char *print;		/* pane name, NULL: interactive */
	const char *sort;
	bool reverse;
	const char *filter;
	const char *step;
	size_t limit;
	enum export_format format;
	const char *input_format;
	const char *output;
	const char *drill, *drill_re;
	const char *group;		/* --group shape|op */
	size_t run;			/* 1-based, 0: the first */
	const char *run_name;		/* --run NAME: the run titled so */
	bool print_runs;		/* --print runs DIR: list a log dir's runs */
	const char *keymap;		/* --keymap vi|emacs|FILE */
	const char *keys;		/* --keys FILE: a user file */
	bool ascii, no_color;
	bool keep_going;		/* print what a failed load kept */
	bool merge;			/* sum whole profiles given together */
	/* Several profiles (issue 12) */
	bool diff, ranks;		/* --diff, --ranks: say how they relate */
	const char *rank;		/* --rank R: that rank's own panes */
	bool summary;			/* --summary: write a summary, not a pane */
	unsigned jobs;			/* --jobs N: threads that load files */
	/* Reading names, the mouse (issue 15) */
	bool short_names;		/* --short-names */
	bool no_mouse;			/* --no-mouse */
};

static void usage(FILE *out)
{
	fputs("usage: proftui [OPTION]... FILE...\n"
	      "Explore deep-learning profiler output in the terminal: PyTorch/Kineto traces,\n"
	      "torch-tb-profiler outputs, key_averages tables, Paddle, TensorRT, MegEngine.\n"
	      "\n"
	      "  -p, --print PANE      print a pane and exit (see --list-panes)\n"
	      "  -s, --sort COL        sort by column COL (its key or title)\n"
	      "  -r, --reverse         reverse the sort\n"
	      "  -f, --filter RE       only rows whose name matches the PCRE2 pattern RE\n"
	      "                        (smart case; a leading ! inverts)\n"
	      "      --step NAME       only what ran in step NAME (as the profile names it)\n"
	      "      --drill NAME      with --print kernels: the kernels op NAME launched;\n"
	      "                        with --print ops: the ops that launched kernel NAME;\n"
	      "                        with --print stacks: the call stacks of op NAME\n"
	      "      --drill-re RE     the same for every name RE matches\n"
	      "      --group G         group Operators by name and input shape (G: shape),\n"
	      "                        Kernels by kernel, launching op and launch (G: op)\n"
	      "      --run N|NAME      the Nth run of a file or log dir that holds several\n"
	      "                        (from 1), or the run called NAME (--print runs DIR\n"
	      "                        lists a log dir's)\n"
	      "  -n, --limit N         print at most N rows (0: all, the default)\n"
	      "      --format FMT      output format: txt, csv, tsv, json, md\n"
	      "  -o, --output FILE     write to FILE (replaced whole, never half-written;\n"
	      "                        a device or FIFO written in place)\n"
	      "  -k, --keep-going      print what a file that failed to load kept (the\n"
	      "                        rows before a cut, the other files); the exit\n"
	      "                        status is still 2\n"
	      "      --merge           sum whole profiles given together (files of one run\n"
	      "                        always merge)\n"
	      "      --diff            compare two profiles: BASE, then NEW (two whole\n"
	      "                        profiles given together are a diff anyway, unless\n"
	      "                        they are ranks of one job)\n"
	      "      --ranks           read the files as the ranks (workers) of one job\n"
	      "                        (traces with one world size and distinct ranks,\n"
	      "                        or a log directory, are read so anyway)\n"
	      "      --rank R          with ranks: the panes of rank R (or worker R) alone\n"
	      "      --summary         write a summary of one trace to -o FILE: its tables,\n"
	      "                        for opening with many others (proftui-summary(5))\n"
	      "  -j, --jobs N          load N files at a time (default: one per core)\n"
	      "  -F, --input-format NAME  read the files as NAME (see --list-formats)\n"
	      "      --list-formats    list the input formats and exit\n"
	      "      --list-panes      list the panes --print takes and exit\n"
	      "      --list-actions    list the actions key files can bind and exit\n"
	      "      --keymap MAP      key bindings: vi, emacs, or a key file\n"
	      "      --keys FILE       a key file read after the keymap (default:\n"
	      "                        $XDG_CONFIG_HOME/proftui/keys)\n"
	      "      --short-names     show names short (C++ template arguments, parameters\n"
	      "                        and long namespaces elided); with --print, write\n"
	      "                        them short\n"
	      "      --no-mouse        leave the mouse to the terminal\n"
	      "      --ascii           draw with ASCII only\n"
	      "      --no-color        no colours (also: NO_COLOR set)\n"
	      "  -h, --help            show this help\n"
	      "  -V, --version         show the version\n"
	      "\n"
	      "Exit status: 0 ok, 1 usage error, 2 input error.  See proftui(1).\n",
	      out);
}

/* Messages quote arguments, file names and names from the files: all of
 * them go out through escape_fprintf() (model/escape.h), never raw. */
static int usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("proftui: ", stderr);
	va_start(ap, fmt);
	escape_vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'proftui --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

static bool parse_count(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno)
		return false;
	*out = (size_t)v;
	return true;
}

enum { OPT_STEP = 256, OPT_DRILL, OPT_DRILL_RE, OPT_RUN, OPT_FORMAT, OPT_LIST, OPT_LIST_PANES,
       OPT_LIST_ACTIONS, OPT_KEYMAP, OPT_KEYS, OPT_ASCII, OPT_NO_COLOR, OPT_MERGE, OPT_DIFF,
       OPT_RANKS, OPT_RANK, OPT_SUMMARY, OPT_SHORT_NAMES, OPT_NO_MOUSE, OPT_GROUP };

static const struct option long_options[] = {
	{ "print", required_argument, NULL, 'p' },
	{ "sort", required_argument, NULL, 's' },
	{ "reverse", no_argument, NULL, 'r' },
	{ "filter", required_argument, NULL, 'f' },
	{ "step", required_argument, NULL, OPT_STEP },
	{ "drill", required_argument, NULL, OPT_DRILL },
	{ "drill-re", required_argument, NULL, OPT_DRILL_RE },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "limit", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "keep-going", no_argument, NULL, 'k' },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "ranks", no_argument, NULL, OPT_RANKS },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "jobs", required_argument, NULL, 'j' },
	{ "input-format", required_argument, NULL, 'F' },
	{ "list-formats", no_argument, NULL, OPT_LIST },
	{ "list-panes", no_argument, NULL, OPT_LIST_PANES },
	{ "list-actions", no_argument, NULL, OPT_LIST_ACTIONS },
	{ "keymap", required_argument, NULL, OPT_KEYMAP },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-colour", no_argument, NULL, OPT_NO_COLOR },
	{ "short-names", no_argument, NULL, OPT_SHORT_NAMES },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void list_formats(void)
{
	size_t n;
	const struct parser *const *list = parser_list(&n);

	for (size_t i = 0; i < n; i++)
		printf("%-16s %s\n", list[i]->name, list[i]->summary);
}

/* The panes --print takes, with their titles (the man-page lint reads
 * this list). */
static void list_panes(void)
{
	for (size_t i = 0; i < NR_PANES; i++)
		if (pane_types[i].has_tab || pane_types[i].ops->printable)
			printf("%-16s %s\n", pane_print_name(pane_types[i].ops), pane_types[i].title);
}

static void list_actions(void)
{
	for (int a = 0; a < NR_ACTIONS; a++)
		printf("%-20s %s\n", action_name((enum action)a), action_help((enum action)a));
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, struct options *o)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:s:rf:n:o:kF:j:hV", long_options, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (!strcmp(optarg, "runs")) {
				o->print_runs = true;
				break;
			}
			if (!pane_ops_find(optarg)) {
				char names[256];

				return usage_error("unknown pane '%s' (%s)", optarg,
						   pane_print_names(names, sizeof(names)));
			}
			o->print = optarg;
			break;
		case 's':
			o->sort = optarg;
			break;
		case 'r':
			o->reverse = true;
			break;
		case 'f':
			o->filter = optarg;
			break;
		case OPT_STEP:
			o->step = optarg;
			break;
		case OPT_DRILL:
			o->drill = optarg;
			break;
		case OPT_DRILL_RE:
			o->drill_re = optarg;
			break;
		case OPT_GROUP:
			if (strcmp(optarg, "shape") && strcmp(optarg, "op"))
				return usage_error("--group wants shape (Operators) or op (Kernels), "
						   "not '%s'", optarg);
			o->group = optarg;
			break;
		case OPT_RUN:
			/* A number is the Nth run; anything else a run's name. */
			if (parse_count(optarg, &o->run) && o->run > 0)
				break;
			if (!*optarg || parse_count(optarg, &o->run))
				return usage_error("--run wants a run number from 1 or a run's name, "
						   "not '%s'", optarg);
			o->run = 0;
			o->run_name = optarg;
			break;
		case 'n':
			if (!parse_count(optarg, &o->limit))
				return usage_error("--limit wants a number of rows, not '%s'", optarg);
			break;
		case OPT_FORMAT:
			/* --format names the output; a parser's name is taken
			 * as --input-format, so both readings of it work. */
			if (!export_format_parse(optarg, &o->format)) {
				if (!parser_find(optarg))
					return usage_error("unknown format '%s' (output: txt, csv, "
							   "tsv, json, md; input: see --list-formats)",
							   optarg);
				o->input_format = optarg;
			}
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'k':
			o->keep_going = true;
			break;
		case OPT_MERGE:
			o->merge = true;
			break;
		case OPT_DIFF:
			o->diff = true;
			break;
		case OPT_RANKS:
			o->ranks = true;
			break;
		case OPT_RANK:
			o->rank = optarg;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case 'j': {
			size_t n;

			if (!parse_count(optarg, &n) || n == 0 || n > 4096)
				return usage_error("--jobs wants a number of threads, not '%s'", optarg);
			o->jobs = (unsigned)n;
			break;
		}
		case 'F':
			if (!parser_find(optarg))
				return usage_error("unknown input format '%s' (see --list-formats)",
						   optarg);
			o->input_format = optarg;
			break;
		case OPT_LIST:
			list_formats();
			return 0;
		case OPT_LIST_PANES:
			list_panes();
			return 0;
		case OPT_LIST_ACTIONS:
			list_actions();
			return 0;
		case OPT_KEYMAP:
			o->keymap = optarg;
			break;
		case OPT_KEYS:
			o->keys = optarg;
			break;
		case OPT_ASCII:
			o->ascii = true;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case OPT_SHORT_NAMES:
			o->short_names = true;
			break;
		case OPT_NO_MOUSE:
			o->no_mouse = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("proftui %s (gzip: %s)\n", PROFTUI_VERSION, gunzip_backend());
			return 0;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("no file to read");
	if (o->drill && o->drill_re)
		return usage_error("--drill and --drill-re do not go together");
	if (o->summary && (!o->output || o->print))
		return usage_error("--summary writes a file: say where with -o FILE (and no --print)");
	if ((o->merge && (o->diff || o->ranks)) || (o->diff && o->ranks))
		return usage_error("--merge, --diff and --ranks do not go together");
	if (o->group && o->print) {
		const struct pane_ops *ops = pane_ops_find(o->print);

		if (!ops->group_by || strcmp(ops->group_by, o->group))
			return usage_error("--group shape goes with --print ops, --group op with "
					   "--print kernels");
	}
	return -1;
}

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

static const struct step *find_step(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->nr_steps; i++)
		if (!strcmp(p->steps[i].name, name))
			return &p->steps[i];
	return NULL;
}

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

/* --print: one pane as text, to stdout or to -o FILE.  FILTER and DRILL_RE
 * (compiled before the load, so a bad pattern costs no wait) are the
 * pane's to free. */
/* The profile the panes show, and the scope that says what else is open:
 * the new run of a diff, the first rank (or --rank's) of a set of ranks,
 * the one profile; --run picks the run of each.  NULL after a message. */
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

/* A --print exits right after it prints: what it made goes back to the
 * OS at once, and freeing it piece by piece only delays the exit (0.4 s
 * for a 10 GB trace's profile; a 2.5 M-row Tree's pane is 115 MB more).
 * Sanitizer builds free, so that leak checks see everything accounted
 * for. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif
#ifndef FREE_AT_EXIT
#define FREE_AT_EXIT 0
#endif

static int print_pane(const struct pane_scope *shown, const struct profile *p, const struct options *o,
		      const char *label, struct filter *filter, struct filter *drill_re)
{
	const struct pane_ops *ops = pane_ops_find(o->print ? o->print : "ops");
	struct pane_scope scope = *shown;
	struct pane *pane;
	char err[512], caption[1024];
	int rc = 0;

	if (o->step && !(scope.step = find_step(p, o->step))) {
		rc = no_such_step(p, o->step);
		goto out_filters;
	}
	if (o->step && !p->has_timeline && ops->follows_step) {
		escape_fprintf(stderr, "proftui: warning: this profile's rows carry no times, so "
			       "--step %s cannot narrow them; all rows are shown", o->step);
		fputc('\n', stderr);
	}
	if (o->drill && ops->drill_is_scope) {
		scope.drill_name = o->drill;
	} else if (o->drill || o->drill_re) {
		if (!ops->print_drill) {
			rc = usage_error("--drill goes with --print kernels (an op's kernels), "
					 "--print ops (a kernel's ops) or --print call-stacks (an op's "
					 "call stacks)");
			goto out_filters;
		}
		scope.drill_to = ops->print_drill;
		scope.drill_name = o->drill;
		if (o->drill) {
			/* The op (or kernel) must be there: an empty table
			 * would pass for "it launched nothing". */
			bool is_op = scope.drill_to == DRILL_TO_KERNELS;
			struct pane *names = pane_open(is_op ? &ops_pane_ops : &kernels_pane_ops, p,
						       &scope);

			if (!pane_seek(names, o->drill)) {
				rc = no_such_name(names, o->drill, is_op ? "op" : "kernel", scope.step);
				pane_free(names);
				goto out_filters;
			}
			pane_free(names);
		}
		ops = &drill_pane_ops;
	}
	scope.expand_all = true;	/* print every row of a tree */
	scope.drill_re = drill_re;
	scope.group = o->group;
	pane = pane_open(ops, p, &scope);
	if (pattern_failed("--drill-re", o->drill_re, drill_re)) {
		rc = EXIT_INPUT;
		goto out;
	}
	if (pane->ops->needs_trace && pane->ops->needs_trace(pane)) {
		/* An empty table would pass for "none": say why, and fail. */
		char why[512] = "this view needs the trace";

		if (pane->ops->empty_text)
			pane->ops->empty_text(pane, why, sizeof(why));
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
	export_caption(pane, label, o->limit, caption, sizeof(caption));
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
	}
	if (!pane->nr_rows && pane->ops->empty_text) {
		/* Why the table is empty, as the TUI's bar would say. */
		char why[512] = "";

		pane->ops->empty_text(pane, why, sizeof(why));
		if (why[0]) {
			escape_fprintf(stderr, "proftui: %s", why);
			fputc('\n', stderr);
		}
	}
out:
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
static int write_summary(const struct profset *set, const struct profile *p, const struct options *o)
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
static int print_runs(const char *const *dirs, size_t nr)
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
