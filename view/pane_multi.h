/* SPDX-License-Identifier: MIT */
/*
 * pane_multi: a pane type over several profiles, made from its form over
 * one.  A diff shows each row of the base and the new run side by side
 * (base, new, diff, diff%) with a status; across ranks, each row's mean
 * over the ranks with its least and greatest rank.  The rows are the
 * one-profile pane's own, made by its own load() once per profile ("inner"
 * panes), and lined up as the pane type says (enum pane_align: by name,
 * or by position for steps), so every number of a side is the number
 * --print gives for that profile alone, by construction.
 *
 * Only the callers that open panes know about this (ui.c, main.c): they
 * go through pane_open(), which picks the form the scope asks for.
 */
#ifndef TUI_PANE_MULTI_H
#define TUI_PANE_MULTI_H

#include "pane.h"

/* The form of OPS that SCOPE asks for: its diff form (SCOPE's set is a
 * diff), its form across ranks (a set of ranks, not PER_RANK), or OPS
 * itself (one profile, or a pane type that does not line up). */
const struct pane_ops *pane_multi_ops(const struct pane_ops *ops, const struct pane_scope *scope);

/* pane_new() of pane_multi_ops(OPS, SCOPE). */
struct pane *pane_open(const struct pane_ops *ops, const struct profile *prof,
		       const struct pane_scope *scope);

/* The run RUN of the set member that holds P's run for a diff's base, or
 * NULL when SCOPE is not a diff. */
const struct profile *pane_diff_base(const struct pane_scope *scope);

#endif
