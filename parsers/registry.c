// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "text.h"

extern const struct parser kineto_parser;
extern const struct parser torch_table_parser;
extern const struct parser tb_json_parser;
extern const struct parser trtexec_graph_parser, trtexec_profile_parser, trtexec_times_parser,
	trtexec_log_parser, trex_metadata_parser, trex_device_parser;
extern const struct parser megengine_text_parser;
extern const struct parser megengine_json_parser;
extern const struct parser paddle_parser;

/* One line per format.  Probe order breaks ties: a parser listed first
 * wins an equal score. */
static const struct parser *const parsers[] = {
	&kineto_parser,		/* PyTorch profiler / Kineto Chrome trace JSON */
	&torch_table_parser,	/* PyTorch key_averages().table() text */
	&tb_json_parser,	/* torch-tb-profiler REST outputs, one JSON per line */
	&trtexec_graph_parser,	/* TensorRT trtexec --exportLayerInfo */
	&trtexec_profile_parser, /* TensorRT trtexec --exportProfile */
	&trtexec_times_parser,	/* TensorRT trtexec --exportTimes */
	&trtexec_log_parser,	/* TensorRT trtexec log (--dumpProfile) */
	&trex_metadata_parser,	/* trex's *.metadata.json beside the exports */
	&trex_device_parser,	/* trex's <engine>.metadata.json: GPU properties */
	&megengine_text_parser,	/* MegEngine load_and_run output, profile_analyze tables */
	&megengine_json_parser,	/* MegEngine load_and_run --profile JSON */
	&paddle_parser,		/* PaddlePaddle profiler summary and training log */
	NULL			/* end of the list */
};

#define NR_PARSERS (ARRAY_SIZE(parsers) - 1)

const struct parser *const *parser_list(size_t *n)
{
	*n = NR_PARSERS;
	return parsers;
}

static const struct parser *detect(const char *head, size_t len, bool anywhere)
{
	const struct parser *best = NULL;
	int best_score = 0;

	for (const struct parser *const *pp = parsers; *pp; pp++) {
		int score;

		if (anywhere && !(*pp)->anywhere)
			continue;
		score = (*pp)->probe(head, len);

		if (score > best_score) {
			best = *pp;
			best_score = score;
		}
	}
	return best;		/* NULL: nobody claimed it */
}

const struct parser *parser_detect(const char *head, size_t len)
{
	return detect(head, len, false);
}

const struct parser *parser_detect_anywhere(const char *window, size_t len)
{
	return detect(window, len, true);
}

const struct parser *parser_find(const char *name)
{
	for (const struct parser *const *pp = parsers; *pp; pp++)
		if (!strcmp((*pp)->name, name))
			return *pp;
	return NULL;
}

/*
 * No parser claimed the head of a text file: a table may sit at the end
 * of a long log.  Walk the file in windows (half a probe's worth of whole
 * lines at a time, read with input_line() so line numbers stay right) and
 * probe each with the parsers whose text may begin anywhere.  The parse
 * then starts at the window that matched, so nothing is read twice.
 */
static const struct parser *detect_past_head(struct input *in)
{
	for (;;) {
		const struct parser *parser;
		const char *head;
		size_t skipped = 0, len, n;

		while (skipped < INPUT_PROBE_BYTES / 2) {
			if (!input_line(in, &n))
				return NULL;
			skipped += n + 1;
		}
		input_need(in, INPUT_PROBE_BYTES);
		len = input_head(in, &head);
		if (!len || text_is_binary(head, len))
			return NULL;
		if ((parser = parser_detect_anywhere(head, len)))
			return parser;
	}
}

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
	if (input_failed(&in, &d))
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
		if (text_is_binary(head, len)) {
			diag_error(&d, NULL, "binary data, not a profile any parser knows "
				   "(see --list-formats)");
			goto out_close;
		}
		if (!(parser = detect_past_head(&in))) {
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
	rc = parser->parse(p, &in, &d);
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
