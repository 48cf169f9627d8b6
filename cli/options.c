// SPDX-License-Identifier: MIT
/*
 * The command line's options: --help's text, the long options, and their
 * reading into struct options with every usage error said once.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/escape.h"
#include "../parsers/gunzip.h"
#include "../parsers/parser.h"
#include "../tui/keymap.h"
#include "../view/pane.h"
#include "options.h"

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
		if (pane_infos[i].has_tab || (pane_types[i]->flags & PANE_PRINTABLE))
			printf("%-16s %s\n", pane_print_name(pane_types[i]), pane_infos[i].title);
}

static void list_actions(void)
{
	for (int a = 0; a < NR_ACTIONS; a++)
		printf("%-20s %s\n", action_name((enum action)a), action_help((enum action)a));
}

/* Returns -1 to go on, else an exit status. */
int parse_args(int argc, char **argv, struct options *o)
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

		if (!pane_group_by(ops) || strcmp(pane_group_by(ops), o->group))
			return usage_error("--group shape goes with --print ops, --group op with "
					   "--print kernels");
	}
	return -1;
}
