// SPDX-License-Identifier: MIT
/*
 * The registry: every parser, and detection -- which parser claims a
 * file, from its head or, for text, from a later window.  Loading is
 * load.c's; it calls here, never the other way.
 */
#include <string.h>

#include "../model/util.h"
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
extern const struct parser summary_parser;

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
	&summary_parser,	/* proftui --summary files */
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
const struct parser *parser_detect_past_head(struct input *in)
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
