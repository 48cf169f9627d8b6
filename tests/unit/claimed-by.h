/* SPDX-License-Identifier: MIT */
/*
 * For the detection tests (t-registry on the corpus, t-detect on in-repo
 * samples): which parser claims a file, read as proftui reads it.
 */
#ifndef TESTS_UNIT_CLAIMED_BY_H
#define TESTS_UNIT_CLAIMED_BY_H

#include "parsers/diag.h"
#include "parsers/input.h"
#include "parsers/parser.h"

/* The name of the parser that claims the head of PATH (decompressed);
 * "(none)" when no parser does, "(unreadable)" when it cannot be read. */
static const char *claimed_by(const char *path)
{
	const struct parser *p;
	struct input in;
	struct diag d;
	const char *head;
	size_t len;

	diag_init(&d, path, NULL, NULL);
	if (input_open(&in, path, &d)) {
		diag_finish(&d);
		return "(unreadable)";
	}
	len = input_head(&in, &head);
	p = parser_detect(head, len);
	input_close(&in);
	diag_finish(&d);
	return p ? p->name : "(none)";
}

#endif
