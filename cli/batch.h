/* SPDX-License-Identifier: MIT */
/*
 * batch: what proftui does without a terminal -- one pane printed
 * (--print, or stdout not a terminal), a summary written (--summary), a
 * log dir's runs listed (--print runs).  Each returns an exit status.
 */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include "../model/profset.h"
#include "../view/filter.h"
#include "../view/pane.h"
#include "options.h"

int print_pane(const struct pane_scope *shown, const struct profile *p, const struct options *o,
	       const char *label, struct filter *filter, struct filter *drill_re);
int write_summary(const struct profset *set, const struct profile *p, const struct options *o);
int print_runs(const char *const *dirs, size_t nr);

#endif
