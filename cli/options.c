// SPDX-License-Identifier: MIT
/*
 * The command line's options: one table of them, from which getopt_long()'s
 * lists and --help are made, and their reading into struct options with
 * every usage error said once.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/escape.h"
#include "../model/range_summary.h"
#include "../parsers/gunzip.h"
#include "../parsers/parser.h"
#include "../tui/keymap.h"
#include "../view/pane.h"
#include "options.h"

/*
 * Every option, in --help's order: X(ID, "long", 'x', "ARG", "help").
 * ID makes OPT_ID, the case that says what the option does in
 * take_option(); 'x' is its short letter (0: none); "ARG" names the value
 * it takes ("": none); "help" is its --help text, a line per \n.  A new
 * option is a line here, its case, its field in struct options, and its
 * entry in man/proftui.1's OPTIONS, which tests/lint.sh checks against
 * --help both ways.
 */
#define OPTIONS(X) \
	X(PRINT, "print", 'p', "PANE", "print a pane and exit (see --list-panes)") \
	X(SORT, "sort", 's', "COL", "sort by column COL (its key or title)") \
	X(REVERSE, "reverse", 'r', "", "reverse the sort") \
	X(FILTER, "filter", 'f', "RE", \
	  "only rows whose name matches the PCRE2 pattern RE\n" \
	  "(smart case; a leading ! inverts)") \
	X(STEP, "step", 0, "NAME", "only what ran in step NAME (as the profile names it)") \
	X(RANGE, "range", 0, "START:END", \
	  "with --print ops, kernels, steps, memory, temporal,\n" \
	  "kernel-types, kernel-breakdown, critical-path, api,\n" \
	  "annotations, launches, launch-dist, idle, idle-gaps,\n" \
	  "memory-bandwidth, queue-length, counters or range:\n" \
	  "only what falls from START to before END, times after\n" \
	  "the trace's first event (us, or with ns, us, ms, s)") \
	X(DRILL, "drill", 0, "NAME", \
	  "with --print kernels: the kernels op NAME launched;\n" \
	  "with --print ops: the ops that launched kernel NAME;\n" \
	  "with --print stacks: the call stacks of op NAME") \
	X(DRILL_RE, "drill-re", 0, "RE", "the same for every name RE matches") \
	X(GROUP, "group", 0, "G", \
	  "group Operators by name and input shape (G: shape),\n" \
	  "Kernels by kernel, launching op and launch (G: op)") \
	X(RUN, "run", 0, "N|NAME", \
	  "the Nth run of a file or log dir that holds several\n" \
	  "(from 1), or the run called NAME (--print runs DIR\n" \
	  "lists a log dir's)") \
	X(LIMIT, "limit", 'n', "N", "print at most N rows (0: all, the default)") \
	X(WIDTH, "width", 0, "N", \
	  "cut names so that a txt or md line fits in N\n" \
	  "columns (from 40; 0: whole names; default: the\n" \
	  "terminal's when printing to one, else whole)") \
	X(STATS, "stats", 0, "", \
	  "print the distribution columns too: Median, P90,\n" \
	  "P99 and StdDev of Kernels, Operators, Annotations") \
	X(FORMAT, "format", 0, "FMT", "output format: txt, csv, tsv, json, md") \
	X(OUTPUT, "output", 'o', "FILE", \
	  "write to FILE (replaced whole, never half-written;\n" \
	  "a device or FIFO written in place)") \
	X(KEEP_GOING, "keep-going", 'k', "", \
	  "print what a file that failed to load kept (the\n" \
	  "rows before a cut, the other files); the exit\n" \
	  "status is still 2") \
	X(MERGE, "merge", 0, "", \
	  "sum whole profiles given together (files of one run\n" \
	  "always merge)") \
	X(DIFF, "diff", 0, "", \
	  "compare two profiles: BASE, then NEW (two whole\n" \
	  "profiles given together are a diff anyway, unless\n" \
	  "they are ranks of one job)") \
	X(RANKS, "ranks", 0, "", \
	  "read the files as the ranks (workers) of one job\n" \
	  "(traces with one world size and distinct ranks,\n" \
	  "or a log directory, are read so anyway)") \
	X(RANK, "rank", 0, "R", "with ranks: the panes of rank R (or worker R) alone") \
	X(SUMMARY, "summary", 0, "", \
	  "write a summary of one trace to -o FILE: its tables,\n" \
	  "for opening with many others (proftui-summary(5))") \
	X(JOBS, "jobs", 'j', "N", "load N files at a time (default: one per core)") \
	X(INPUT_FORMAT, "input-format", 'F', "NAME", \
	  "read the files as NAME (see --list-formats)") \
	X(LIST_FORMATS, "list-formats", 0, "", "list the input formats and exit") \
	X(LIST_PANES, "list-panes", 0, "", "list the panes --print takes and exit") \
	X(LIST_ACTIONS, "list-actions", 0, "", "list the actions key files can bind and exit") \
	X(KEYMAP, "keymap", 0, "MAP", "key bindings: vi, emacs, or a key file") \
	X(KEYS, "keys", 0, "FILE", \
	  "a key file read after the keymap (default:\n" \
	  "$XDG_CONFIG_HOME/proftui/keys)") \
	X(SHORT_NAMES, "short-names", 0, "", \
	  "show names short (C++ template arguments, parameters\n" \
	  "and long namespaces elided); with --print, write\n" \
	  "them short") \
	X(NO_MOUSE, "no-mouse", 0, "", "leave the mouse to the terminal") \
	X(ASCII, "ascii", 0, "", "draw with ASCII only") \
	X(NO_COLOR, "no-color", 0, "", "no colours (also: NO_COLOR set)") \
	X(HELP, "help", 'h', "", "show this help") \
	X(VERSION, "version", 'V', "", "show the version")

/* Other long names of an option, left out of --help: X(ID, "long"). */
#define OPTION_ALIASES(X) \
	X(NO_COLOR, "no-colour")

enum option_id {
#define X(id, name, letter, arg, help) OPT_##id,
	OPTIONS(X)
#undef X
};

static const struct option_def {
	const char *name;
	char letter;
	const char *arg;
	const char *help;
} option_defs[] = {
#define X(id, name, letter, arg, help) { name, letter, arg, help },
	OPTIONS(X)
#undef X
};

static const struct option_alias {
	enum option_id id;
	const char *name;
} option_aliases[] = {
#define X(id, name) { OPT_##id, name },
	OPTION_ALIASES(X)
#undef X
};

#define NR_OPTIONS ARRAY_SIZE(option_defs)
#define NR_ALIASES ARRAY_SIZE(option_aliases)
/* getopt_long() returns a long option as OPT_LONG + its ID: above every
 * short letter. */
#define OPT_LONG 256
/* Where --help's texts start; a longer option is followed by two spaces. */
#define HELP_COLUMN 24

static void usage_option(FILE *out, const struct option_def *d)
{
	int n;

	if (d->letter)
		n = fprintf(out, "  -%c, --%s", d->letter, d->name);
	else
		n = fprintf(out, "      --%s", d->name);
	if (*d->arg)
		n += fprintf(out, " %s", d->arg);
	fprintf(out, "%*s", n < HELP_COLUMN - 2 ? HELP_COLUMN - n : 2, "");
	for (const char *s = d->help; *s; s++) {
		fputc(*s, out);
		if (*s == '\n')
			fprintf(out, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', out);
}

static void usage(FILE *out)
{
	fputs("usage: proftui [OPTION]... FILE...\n"
	      "Explore deep-learning profiler output in the terminal: PyTorch/Kineto traces,\n"
	      "torch-tb-profiler outputs, key_averages tables, Paddle, TensorRT, MegEngine.\n"
	      "\n",
	      out);
	for (size_t i = 0; i < NR_OPTIONS; i++)
		usage_option(out, &option_defs[i]);
	fputs("\n"
	      "Exit status: 0 ok, 1 usage error, 2 input error.  See proftui(1).\n",
	      out);
}

/* getopt_long()'s lists, from the table: LONGS has every long name and
 * alias, an alias returning its option's value (so that an abbreviation
 * of both, --no-col, is no ambiguity), and ends with a zeroed entry;
 * SHORTS starts with ':' so that a missing value is told from an unknown
 * option. */
static void getopt_lists(struct option longs[NR_OPTIONS + NR_ALIASES + 1],
			 char shorts[2 * NR_OPTIONS + 2])
{
	size_t n = 0;

	shorts[n++] = ':';
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const struct option_def *d = &option_defs[i];

		longs[i] = (struct option){ d->name, *d->arg ? required_argument : no_argument,
					    NULL, OPT_LONG + (int)i };
		if (d->letter) {
			shorts[n++] = d->letter;
			if (*d->arg)
				shorts[n++] = ':';
		}
	}
	for (size_t i = 0; i < NR_ALIASES; i++) {
		longs[NR_OPTIONS + i] = longs[option_aliases[i].id];
		longs[NR_OPTIONS + i].name = option_aliases[i].name;
	}
	longs[NR_OPTIONS + NR_ALIASES] = (struct option){ NULL, 0, NULL, 0 };
	shorts[n] = '\0';
}

/* The option getopt_long() returned C for, or -1 for an unknown one. */
static int option_of(int c)
{
	if (c >= OPT_LONG)
		return c - OPT_LONG;
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if (option_defs[i].letter && c == option_defs[i].letter)
			return (int)i;
	return -1;
}

/* Messages quote arguments, file names and names from the files: all of
 * them go out through escape_fprintf() (model/escape.h), never raw. */
int usage_error(const char *fmt, ...)
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
		if (pane_infos[i].has_tab || (pane_types[i]->flags & PANE_PRINTABLE))
			printf("%-16s %s\n", pane_print_name(pane_types[i]), pane_infos[i].title);
}

static void list_actions(void)
{
	for (int a = 0; a < NR_ACTIONS; a++)
		printf("%-20s %s\n", action_name((enum action)a), action_help((enum action)a));
}

/* What option ID with its value ARG (NULL: none) does.  Returns -1 to go
 * on, else an exit status.  No default: every option in the table has
 * its case (-Wswitch). */
static int take_option(enum option_id id, const char *arg, struct options *o)
{
	switch (id) {
	case OPT_PRINT:
		if (!strcmp(arg, "runs")) {
			o->print_runs = true;
			break;
		}
		if (!pane_ops_find(arg)) {
			char names[PANE_PRINT_NAMES_MAX];

			return usage_error("unknown pane '%s' (%s)", arg,
					   pane_print_names(names, sizeof(names)));
		}
		o->print = arg;
		break;
	case OPT_SORT:
		o->sort = arg;
		break;
	case OPT_REVERSE:
		o->reverse = true;
		break;
	case OPT_STATS:
		o->stats = true;
		break;
	case OPT_FILTER:
		o->filter = arg;
		break;
	case OPT_STEP:
		o->step = arg;
		break;
	case OPT_RANGE: {
		const char *colon = strchr(arg, ':');

		if (!colon || !range_parse_time(arg, (size_t)(colon - arg), &o->range_start_ns) ||
		    !range_parse_time(colon + 1, strlen(colon + 1), &o->range_end_ns))
			return usage_error("--range wants START:END, two times after the trace's "
					   "first event (us, or with a unit: ns, us, ms, s; at most "
					   "1000000 s), not '%s'", arg);
		if (o->range_end_ns <= o->range_start_ns)
			return usage_error("--range %s ends where or before it starts", arg);
		o->range = arg;
		break;
	}
	case OPT_DRILL:
		o->drill = arg;
		break;
	case OPT_DRILL_RE:
		o->drill_re = arg;
		break;
	case OPT_GROUP:
		if (strcmp(arg, "shape") && strcmp(arg, "op"))
			return usage_error("--group wants shape (Operators) or op (Kernels), "
					   "not '%s'", arg);
		o->group = arg;
		break;
	case OPT_RUN:
		/* A number is the Nth run; anything else a run's name. */
		if (parse_count(arg, &o->run) && o->run > 0)
			break;
		if (!*arg || parse_count(arg, &o->run))
			return usage_error("--run wants a run number from 1 or a run's name, "
					   "not '%s'", arg);
		o->run = 0;
		o->run_name = arg;
		break;
	case OPT_LIMIT:
		if (!parse_count(arg, &o->limit))
			return usage_error("--limit wants a number of rows, not '%s'", arg);
		break;
	case OPT_WIDTH:
		if (!parse_count(arg, &o->width) || (o->width && o->width < WIDTH_MIN) ||
		    o->width > WIDTH_MAX)
			return usage_error("--width wants 0 (whole names) or a number of columns "
					   "from %d to %d, not '%s'", WIDTH_MIN, WIDTH_MAX, arg);
		o->width_set = true;
		break;
	case OPT_FORMAT:
		/* --format names the output; a parser's name is taken
		 * as --input-format, so both readings of it work. */
		if (!export_format_parse(arg, &o->format)) {
			if (!parser_find(arg))
				return usage_error("unknown format '%s' (output: txt, csv, "
						   "tsv, json, md; input: see --list-formats)",
						   arg);
			o->input_format = arg;
		}
		break;
	case OPT_OUTPUT:
		o->output = arg;
		break;
	case OPT_KEEP_GOING:
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
		o->rank = arg;
		break;
	case OPT_SUMMARY:
		o->summary = true;
		break;
	case OPT_JOBS: {
		size_t n;

		if (!parse_count(arg, &n) || n == 0 || n > 4096)
			return usage_error("--jobs wants a number of threads, not '%s'", arg);
		o->jobs = (unsigned)n;
		break;
	}
	case OPT_INPUT_FORMAT:
		if (!parser_find(arg))
			return usage_error("unknown input format '%s' (see --list-formats)",
					   arg);
		o->input_format = arg;
		break;
	case OPT_LIST_FORMATS:
		list_formats();
		return 0;
	case OPT_LIST_PANES:
		list_panes();
		return 0;
	case OPT_LIST_ACTIONS:
		list_actions();
		return 0;
	case OPT_KEYMAP:
		o->keymap = arg;
		break;
	case OPT_KEYS:
		o->keys = arg;
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
	case OPT_HELP:
		usage(stdout);
		return 0;
	case OPT_VERSION:
#ifdef PROFTUI_STATIC
		/* Where the static tinfo looks, in ncurses' order. */
		printf("proftui %s (static; terminfo from $TERMINFO, ~/.terminfo, $TERMINFO_DIRS, "
		       "%s; gzip: %s)\n", PROFTUI_VERSION, PROFTUI_STATIC, gunzip_backend());
#else
		printf("proftui %s (gzip: %s)\n", PROFTUI_VERSION, gunzip_backend());
#endif
		return 0;
	}
	return -1;
}

/* Returns -1 to go on, else an exit status. */
/* The usage error for an option getopt did not know.  WORD is the word it
 * was reading (optind before the call): getopt stays on a cluster of
 * short options until its last letter, so a bad letter before another
 * ("-xV") leaves optind there, and argv[optind - 1] is the word before. */
static int unknown_option(char **argv, int optind_now, int word)
{
	const char *w = optind_now == word ? argv[word] : argv[optind_now - 1];

	if (optopt && strncmp(w, "--", 2)) {
		char letter[3] = { '-', (char)optopt, '\0' };

		return usage_error("unknown option '%s'", letter);
	}
	return usage_error("unknown option '%s'", w);
}

int parse_args(int argc, char **argv, struct options *o)
{
	struct option longs[NR_OPTIONS + NR_ALIASES + 1];
	char shorts[2 * NR_OPTIONS + 2];
	int c;

	getopt_lists(longs, shorts);
	opterr = 0;
	for (int word = optind; (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1;
	     word = optind) {
		int id = option_of(c);
		int rc;

		if (c == ':')
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		if (id < 0)
			return unknown_option(argv, optind, word);
		rc = take_option((enum option_id)id, optarg, o);
		if (rc >= 0)
			return rc;
	}
	if (optind >= argc)
		return usage_error("no file to read");
	if (o->drill && o->drill_re)
		return usage_error("--drill and --drill-re do not go together");
	if (o->summary && (!o->output || o->print))
		return usage_error("--summary writes a file: say where with -o FILE (and no --print)");
	if ((o->merge && (o->diff || o->ranks)) || (o->diff && o->ranks))
		return usage_error("--merge, --diff and --ranks do not go together");
	if (o->print && pane_ops_find(o->print)->id == PANE_STACKS && !o->drill && !o->drill_re)
		/* An empty table would read as "no stacks recorded". */
		return usage_error("--print call-stacks lists the call stacks of one op: name it "
				   "with --drill OP (--print ops lists the ops)");
	if (!o->range && o->print && pane_ops_find(o->print) &&
	    pane_ops_find(o->print)->id == PANE_RANGE)
		/* An empty table would read as "nothing ran". */
		return usage_error("--print range sums a range of time: give it with --range "
				   "START:END");
	if (o->range && (!o->print || !pane_ops_find(o->print) ||
			 !(pane_ops_find(o->print)->flags & PANE_FOLLOWS_RANGE)))
		return usage_error("--range goes with --print ops, kernels, steps, memory, temporal, "
				   "kernel-types, kernel-breakdown, critical-path, api, annotations, "
				   "launches, "
				   "launch-dist, idle, "
				   "idle-gaps, memory-bandwidth, queue-length, counters or range");
	if (o->group && o->print) {
		const struct pane_ops *ops = pane_ops_find(o->print);

		if (!pane_group_by(ops) || strcmp(pane_group_by(ops), o->group))
			return usage_error("--group shape goes with --print ops, --group op with "
					   "--print kernels");
	}
	return -1;
}
