// SPDX-License-Identifier: MIT
/* proftui's entry point.  XXX: only --list-formats and a load check so far;
 * the panes, --print and the TUI are being built (issues 2 and 3). */
#include <stdio.h>
#include <string.h>

#include "model/profile.h"
#include "parsers/parser.h"

int main(int argc, char **argv)
{
	struct load_options opt = { .err = stderr };
	struct profile p;
	int rc;

	if (argc == 2 && !strcmp(argv[1], "--list-formats")) {
		size_t n;
		const struct parser *const *list = parser_list(&n);

		for (size_t i = 0; i < n; i++)
			printf("%-14s %s\n", list[i]->name, list[i]->summary);
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: proftui FILE...\n");
		return 1;
	}
	profile_init(&p, argv[1]);
	rc = profile_load(&p, (const char *const *)argv + 1, (size_t)argc - 1, &opt);
	if (rc >= 0)
		printf("%s: %u nodes, %zu steps\n", argv[1], p.nr_nodes, p.nr_steps);
	profile_release(&p);
	return rc < 0 ? 2 : rc ? 2 : 0;
}
