// SPDX-License-Identifier: MIT
/*
 * The registry of pane types: each pane file's struct pane_ops by its id
 * (from the PANES list, panes.h), and the look-ups by name.  It sits above
 * the pane files, which call the engine (pane.c) and never this: the
 * engine knows a pane by the ops it is given.
 */
#include <stdio.h>
#include <strings.h>

#include "pane.h"

/* Each pane file's hooks, declared here only: a pane names another by its
 * id (enum pane_id), never by its hooks, so pane files do not call each
 * other. */
#define X(id, name, title, tab) extern const struct pane_ops name##_pane_ops;
PANES(X)
#undef X

const struct pane_ops *const pane_types[NR_PANES] = {
#define X(id, name, title, tab) [PANE_##id] = &name##_pane_ops,
	PANES(X)
#undef X
};

const struct pane_ops *pane_ops_find(const char *name)
{
	for (size_t i = 0; i < NR_PANES; i++) {
		const struct pane_ops *ops = pane_types[i];

		/* Panes opened from another are not reached by name, but
		 * for those --print takes. */
		if (!pane_infos[i].has_tab && !(ops->flags & PANE_PRINTABLE))
			continue;
		if (!strcasecmp(pane_infos[i].name, name))
			return ops;
		for (const char *const *a = ops->aliases; a && *a; a++)
			if (!strcasecmp(*a, name))
				return ops;
	}
	return NULL;
}

const char *pane_print_names(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_PANES && n < size; i++)
		if (pane_infos[i].has_tab || (pane_types[i]->flags & PANE_PRINTABLE))
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
					      pane_print_name(pane_types[i]));
	return buf;
}
