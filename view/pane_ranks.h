/* SPDX-License-Identifier: MIT */
/*
 * pane_ranks: what the Ranks and Comm ops panes share -- the profiles
 * they are about, one per rank: the set's members (the run shown of
 * each), or the one profile shown as a job of one rank.
 */
#ifndef TUI_PANE_RANKS_H
#define TUI_PANE_RANKS_H

#include "pane.h"

struct rank_set {
	const struct profile **profs;	/* per rank: the run shown */
	const char **labels;		/* its worker name (borrowed) */
	long *ranks;			/* its rank number; -1: unknown */
	size_t nr;
};

/* The ranks PANE is about; returns how many.  Release with
 * rank_set_release(). */
size_t rank_set_of(const struct pane *pane, struct rank_set *rs);
void rank_set_release(struct rank_set *rs);

#endif
