// SPDX-License-Identifier: MIT
/*
 * The registry of pane types: each pane file's struct pane_ops by its id
 * (from the PANES list, panes.h), the look-ups by name, and what a
 * pane-only action says where no pane took it, from the panes that list
 * it.  It sits above the pane files, which call the engine (pane.c) and
 * never this: the engine knows a pane by the ops it is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/util.h"
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

/* The words for pane-only actions whose sentence is not where they work:
 * what toggle-view says where nothing regroups, and call stacks, which
 * belong to an op. */
static const struct {
	enum action act;
	const char *words;
} elsewhere_words[] = {
	{ ACT_TOGGLE_VIEW, "this pane has no other grouping" },
	{ ACT_CALL_STACK, "call stacks are an op's: press it in Operators" },
};

static int by_title(const void *a, const void *b)
{
	return strcmp(pane_title(*(const struct pane_ops *const *)a),
		      pane_title(*(const struct pane_ops *const *)b));
}

bool pane_action_elsewhere(enum action act, char *buf, size_t size)
{
	const struct pane_ops *in[NR_PANES];
	size_t nr = 0, n;

	if (!action_is_pane_only(act))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(elsewhere_words); i++) {
		if (elsewhere_words[i].act == act) {
			snprintf(buf, size, "%s", elsewhere_words[i].words);
			return true;
		}
	}
	for (size_t i = 0; i < NR_PANES; i++)
		if (pane_type_takes(pane_types[i], act))
			in[nr++] = pane_types[i];
	if (nr <= 1) {
		n = (size_t)snprintf(buf, size, "%s works ", action_name(act));
		if (n < size && nr)
			pane_type_where(in[0], buf + n, size - n);
		else if (n < size)
			snprintf(buf + n, size - n, "in no pane");
		return true;
	}
	/* Several: "in the Memory and Timeline panes", by title. */
	qsort(in, nr, sizeof(*in), by_title);
	n = (size_t)snprintf(buf, size, "%s works in the ", action_name(act));
	for (size_t i = 0; i < nr && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", pane_title(in[i]),
				      i + 2 < nr ? ", " : i + 1 < nr ? " and " : " panes");
	return true;
}
