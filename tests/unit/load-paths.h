/* SPDX-License-Identifier: MIT */
/*
 * load-paths: a load with its messages kept, for the unit tests (test.h)
 * and for what a fuzz target shares with them (load-text.h), which cannot
 * include test.h and its main().
 */
#ifndef TESTS_UNIT_LOAD_PATHS_H
#define TESTS_UNIT_LOAD_PATHS_H

#include <stdio.h>

#include "parsers/load.h"
#include "parsers/parser.h"

/* Load the NR files PATHS (as FORMAT unless NULL) into P, initialised here
 * and left for the caller to release; the messages go to MSG (CAP bytes).
 * Returns profile_load()'s code. */
static inline int test_load_paths(struct profile *p, const char *const *paths, size_t nr,
				  const char *format, char *msg, size_t cap)
{
	struct load_options opt = { .format = format };
	FILE *err = tmpfile();
	size_t n = 0;
	int rc;

	opt.err = err;
	profile_init(p, paths[0]);
	rc = profile_load(p, paths, nr, &opt);
	if (err) {
		rewind(err);
		n = fread(msg, 1, cap - 1, err);
		fclose(err);
	}
	msg[n] = '\0';
	return rc;
}

#endif
