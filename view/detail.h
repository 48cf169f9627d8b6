/* SPDX-License-Identifier: MIT */
/*
 * detail: the lines of the detail view (`i`, inspect; pane_detail.c) --
 * everything about one row: its full name, each of its pane's columns
 * with the value, its unit and what it means, its attributes, and what a
 * pane type adds through its detail hook (the ops that launched a kernel,
 * the kernels an op launched, where a node sits in the tree).  A line may
 * lead somewhere: Enter on it shows that row in its own pane.
 *
 * The detail owns copies of every field and value; detail_release() frees
 * them.  Meanings are static text (columns' help).
 */
#ifndef TUI_DETAIL_H
#define TUI_DETAIL_H

#include <stddef.h>

#include "pane.h"

struct detail_line {
	char *field;			/* "Dev self", "input_shapes"; heap */
	char *value;			/* "700.000 us"; heap */
	const char *meaning;		/* static, or "" */
	bool is_heading;		/* a section's title: "columns" */
	bool is_link;			/* Enter shows the row GO_NAME in */
	enum pane_id go_to;		/* the pane GO_TO */
	const char *go_name;		/* a name of the profile (outlives it) */
};

struct detail {
	struct detail_line *v;
	size_t nr, alloc;
};

void detail_release(struct detail *d);
/* A section's title line. */
void detail_heading(struct detail *d, const char *title);
/* A line; FIELD and VALUE are copied. */
void detail_add(struct detail *d, const char *field, const char *value, const char *meaning);
/* A line that leads to the row called NAME in the pane GO_TO. */
void detail_add_link(struct detail *d, const char *field, const char *value, const char *meaning,
		     enum pane_id go_to, const char *name);

/* The lines about a node of the call tree: its kind, the nodes above it,
 * and for device work the op that launched it. */
void detail_node(struct detail *d, const struct node *n);

/* The distribution of a row's durations, V[0..N) ascending (none when N
 * is 0): its percentiles, then its histogram (model/dist.h's 1-2-5
 * bins), a line per bin with its count and a bar, the bins that hold the
 * median, P90 and P99 marked. */
void detail_histogram(struct detail *d, const int64_t *v, size_t n);

/* What the detail view shows (its scope.arg): ROW of the pane OF. */
struct detail_arg {
	const struct pane *of;
	const void *row;
};

#endif
