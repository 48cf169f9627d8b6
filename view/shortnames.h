/* SPDX-License-Identifier: MIT */
/*
 * shortnames: the short form of every name of a profile's tree, for the
 * short-names view (the `short-names` key, --short-names).  Where several
 * names share a short form, each gets " #N" after it, N counting them in
 * the order the tree first meets them, so two different names never look
 * the same; the numbers are the profile's, the same in every pane.
 *
 * The table borrows the profile's names (they outlive it) and owns the
 * short forms; shortnames_free() frees them.  Only the screen and what
 * the user asks for (--print --short-names) show short names: sorting and
 * filtering keep the full ones.
 */
#ifndef TUI_SHORTNAMES_H
#define TUI_SHORTNAMES_H

#include <stdbool.h>

#include "../model/profile.h"

struct shortnames;

/* The short names of every node of P; ASCII: "..." for the ellipsis. */
struct shortnames *shortnames_new(const struct profile *p, bool ascii);
void shortnames_free(struct shortnames *sn);
/* NAME's short form, or NAME itself when it has none (or is not a name of
 * the profile).  Valid as long as SN. */
const char *shortnames_get(const struct shortnames *sn, const char *name);

#endif
