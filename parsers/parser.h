/* SPDX-License-Identifier: MIT */
/*
 * parser: one input format.  Each format lives in its family's folder
 * (parsers/FAMILY/), ends in one designated-initialiser object, and is
 * listed once in parsers.h; content, never the file name, decides which
 * parser reads a file (registry.c).
 */
#ifndef PARSERS_PARSER_H
#define PARSERS_PARSER_H

#include <stddef.h>
#include <stdio.h>

#include "../model/profile.h"
#include "diag.h"
#include "input.h"

struct parser {
	const char *name;		/* --format NAME */
	const char *summary;		/* one line for --list-formats */
	/* Files of one family complete one profile when opened together (a
	 * trtexec graph + profile + times, a MegEngine log + its --profile
	 * JSON).  NULL: each file is a whole profile of its own. */
	const char *family;
	/* A family file of one engine (TensorRT): how trex names it,
	 * <engine><suffix>, so that a file so named says its engine; and
	 * two of one kind (parser and suffix) never complete each other.
	 * NULL: the family's files of this parser may add up. */
	const char *const *engine_suffixes;
	/* Its text may begin anywhere in a file (a key_averages table at the
	 * end of a training log): when no parser claims a file's head,
	 * detection probes the later windows of a text file with the parsers
	 * that set this, and the parse starts at the window that matched. */
	bool anywhere;
	/* Its nodes are pre-aggregated rows, nearly every one with calls
	 * and extremes of its own: the profile makes each node with room
	 * for them beside it (profile_set_counts_per_node()). */
	bool counts_per_node;
	/* How sure (0..100) that a file starting with the LEN bytes at HEAD
	 * is this format.  HEAD is decompressed and may end mid-token. */
	int (*probe)(const char *head, size_t len);
	/* Fill P from IN, reporting problems through D.  P may already hold
	 * what other files of the same run gave (a trtexec graph before its
	 * profile): a parser that can join adds to it.  Returns 0, or -1 after
	 * an error was reported. */
	int (*parse)(struct profile *p, struct input *in, struct diag *d);
};

/* The parser that claims HEAD most surely, or NULL. */
const struct parser *parser_detect(const char *head, size_t len);
/* The same among the parsers whose text may begin anywhere in a file, for
 * a window past the head. */
const struct parser *parser_detect_anywhere(const char *window, size_t len);
/* A parser for a text file whose head no parser claimed: later windows
 * of IN, probed with the parsers whose text may begin anywhere.  IN is
 * left at the window that matched, so that the parse starts there. */
const struct parser *parser_detect_past_head(struct input *in);
/* The parser called NAME, or NULL. */
const struct parser *parser_find(const char *name);
/* Every parser, in registry order; *N gets how many. */
const struct parser *const *parser_list(size_t *n);

#endif
