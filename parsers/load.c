// SPDX-License-Identifier: MIT
/*
 * The files of one profile: each detected by the registry (or named by
 * --format), parsed by its parser into the same profile, the profile
 * finished when all are read (load.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/bounds.h"
#include "../model/util.h"
#include "load.h"
#include "parser.h"
#include "text.h"

/* What profile_load() remembers across files. */
struct load_state {
	const struct parser *first;	/* the parser of the first file loaded */
	const char *first_path;
};

/* Whether a file read by PARSER may join what is loaded: the first file,
 * a file of the same family (it completes the same run), or --merge. */
static bool may_join(const struct load_state *ls, const struct parser *parser,
		     const struct load_options *opt)
{
	if (!ls->first || opt->merge)
		return true;
	return parser->family && ls->first->family && !strcmp(parser->family, ls->first->family);
}

/*
 * The sums of the file's times that passed SUM_CAP (model/bounds.h) and
 * hold it, whichever parser made them: one warning with their number, so
 * that a capped figure (shown as ">=" the cap) is never read as measured.
 */
static void warn_capped_sums(struct profile *p, struct diag *d)
{
	static const char kind[] = "sums of times past 73 years, capped (shown as >=)";
	uint64_t n = 0;

	for (struct profile *run = p; run; run = run->next_run) {
		n += run->nr_capped_sums;
		run->nr_capped_sums = 0;
	}
	if (!n)
		return;
	diag_warn(d, NULL, kind, "%" PRIu64 " sum%s of times passed %.3f s (73 years, a quarter of "
		  "int64 nanoseconds) and %s capped there; shown as >=2.3e9 s", n, n == 1 ? "" : "s",
		  (double)SUM_CAP / 1e9, n == 1 ? "was" : "were");
	profile_warn(p, kind, n - 1);
}

/*
 * What a file no parser reads is, when it is Nsight Systems' own (nsys
 * stats reads both, proftui neither): a report (.nsys-rep, before 2021.3
 * .qdrep), known by its name since no public text gives its magic, or an
 * SQLite export (nsys export --type sqlite), known by SQLite's magic and,
 * where the schema in the head read names nsys's tables, as nsys's (an
 * SQLite file whose schema lies further on is told it may be one).  NULL
 * for any other file.
 */
static const char *nsys_file(const char *path, const char *head, size_t len)
{
	static const char sqlite_magic[] = "SQLite format 3";	/* and its NUL */
	static const char *const nsys_tables[] = { "CUPTI_ACTIVITY_KIND_", "TARGET_INFO_" };
	size_t n = strlen(path);

	if (((n >= 9 && !strcmp(path + n - 9, ".nsys-rep")) || (n >= 6 && !strcmp(path + n - 6, ".qdrep"))) &&
	    text_is_binary(head, len))
		return "an Nsight Systems report, which proftui does not read: run "
		       "'nsys stats --format csv REPORT.nsys-rep > REPORT.csv' and open REPORT.csv";
	if (len < sizeof(sqlite_magic) || memcmp(head, sqlite_magic, sizeof(sqlite_magic)))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(nsys_tables); i++)
		if (text_find(head, len, nsys_tables[i]))
			return "an Nsight Systems SQLite export, which proftui does not read: run "
			       "'nsys stats --format csv EXPORT.sqlite > EXPORT.csv' and open EXPORT.csv";
	return "an SQLite database, which proftui does not read (an Nsight Systems export? run "
	       "'nsys stats --format csv EXPORT.sqlite > EXPORT.csv' and open EXPORT.csv)";
}

static int load_one(struct profile *p, const char *path, const struct load_options *opt,
		    struct load_state *ls)
{
	const struct parser *parser;
	struct input in;
	struct diag d;
	const char *head;
	size_t len;
	int rc = -1;

	diag_init(&d, path, opt->err, p);
	if (input_open(&in, path, &d))
		goto out;
	in.progress = opt->progress;
	in.progress_ctx = opt->progress_ctx;
	len = input_head(&in, &head);
	/* A file that fails after some text (a gzip stream cut short) is
	 * read as far as it goes, as a cut plain file is: its parser meets
	 * the end, keeps what came before and says where. */
	if (!len && input_failed(&in, &d))
		goto out_close;
	if (!len) {
		diag_error(&d, NULL, "file is empty");
		goto out_close;
	}
	if (opt->format) {
		parser = parser_find(opt->format);
		if (!parser) {
			diag_error(&d, NULL, "unknown format '%s' (see --list-formats)", opt->format);
			goto out_close;
		}
	} else if (!(parser = parser_detect(head, len))) {
		const char *what = nsys_file(path, head, len);

		if (what) {
			diag_error(&d, NULL, "%s", what);
			goto out_close;
		}
		if (text_is_binary(head, len)) {
			diag_error(&d, NULL, "binary data, not a profile any parser knows "
				   "(see --list-formats)");
			goto out_close;
		}
		if (!(parser = parser_detect_past_head(&in))) {
			if (!input_failed(&in, &d))
				diag_error(&d, NULL, "no parser recognises this file "
					   "(see --list-formats; -F NAME forces one)");
			goto out_close;
		}
	}
	if (!may_join(ls, parser, opt)) {
		diag_error(&d, NULL, "a second whole profile, after '%s' (%s, %s): proftui sums "
			   "profiles only with --merge; open each alone", ls->first_path,
			   ls->first->name, parser->name);
		goto out_close;
	}
	if (!p->format)
		p->format = parser->name;
	if (parser->counts_per_node)
		profile_set_counts_per_node(p);
	p->sums_whole = opt->merge;
	rc = parser->parse(p, &in, &d);
	if (rc >= 0)
		warn_capped_sums(p, &d);
	if (rc == 0 && d.nr_errors)
		rc = 1;
	/* A load that kept what came before an error says where it
	 * stopped, for as long as the profile is shown (Info). */
	if (rc == 1 && d.first_error)
		profile_meta(p, "load", "stopped at", d.first_error);
	if (rc >= 0 && !ls->first) {
		ls->first = parser;
		ls->first_path = path;
	}
out_close:
	input_close(&in);
out:
	/* A file of several that did not load says so beside the others. */
	if (rc < 0 && d.first_error) {
		size_t n = strlen(path) + strlen(d.first_error) + 3;
		char *what = xmalloc(n);

		snprintf(what, n, "%s: %s", path, d.first_error);
		profile_meta(p, "load", "not loaded", what);
		free(what);
	}
	diag_finish(&d);
	return rc;
}

int profile_load(struct profile *p, const char *const *paths, size_t nr_paths,
		 const struct load_options *opt)
{
	struct load_state ls = { NULL, NULL };
	size_t nr_loaded = 0;
	int worst = 0;

	/* A file that fails is named in its message; the others still load
	 * (what -k prints, and what the TUI opens). */
	for (size_t i = 0; i < nr_paths; i++) {
		int rc = load_one(p, paths[i], opt, &ls);

		if (rc >= 0)
			nr_loaded++;
		if (rc != 0)
			worst = 1;
	}
	if (!nr_loaded)
		return -1;
	for (struct profile *run = p; run; run = run->next_run)
		profile_finish(run);
	return worst;
}
