/* SPDX-License-Identifier: MIT */
/*
 * modules: torch-tb-profiler's Module view (module_op.py) as a pure
 * function of the call tree of a trace recorded with_modules: the
 * nn.Module hierarchy, each module with its occurrences, the operators
 * called directly in it, and host and device time, total and self.
 *
 * The hierarchy comes from how module calls nest; calls of one model
 * whose module structure is the same make one tree, as in the plugin.  A
 * module's numbers are those of every call of it (its name and module
 * id), wherever it sits in the hierarchy.
 */
#ifndef MODEL_MODULES_H
#define MODEL_MODULES_H

#include "profile.h"

struct module_row {
	const char *name;		/* "BertModel_0" (no "nn.Module: ") */
	const struct node *first;	/* the first call of it, for drilling */
	int64_t module_id;		/* the trace's Python module id; -1 none */
	int depth;			/* 0: a root */
	size_t parent;			/* row index, SIZE_MAX for a root */
	bool has_children;
	uint64_t occurrences;		/* calls of this module */
	uint64_t operators;		/* op calls directly in it */
	int64_t host_total_ns, host_self_ns;
	int64_t device_total_ns;	/* of everything under it */
	int64_t device_self_ns;		/* of what it launched outside its
					   child modules */
};

struct module_view {
	struct module_row *rows;	/* depth first: roots by name, children
					   in the order they are called */
	size_t nr, alloc;
	uint64_t nr_capped;		/* sums that reached SUM_CAP and hold
					   it (model/bounds.h): the pane warns */
};

void module_view(const struct profile *p, struct module_view *out);
void module_view_release(struct module_view *v);

/* The module name without the "nn.Module: " prefix (points into NAME). */
const char *module_short_name(const char *name);

#endif
