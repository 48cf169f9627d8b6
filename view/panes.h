/* SPDX-License-Identifier: MIT */
/*
 * panes: the one list of pane types.  Everything that names panes is made
 * from it -- the pane ids, the table pane.c looks names up in, the tabs and
 * their order, the keymap sections, the pane-switching actions, the list
 * --print accepts and --list-panes prints (which the man-page lint reads)
 * -- so a new pane is one file and one line here (see pane.h for the
 * steps).
 *
 *	X(ID, NAME, TITLE, TAB)
 *
 * NAME is the --print name and the keymap section; the pane's ops are
 * NAME_pane_ops.  TITLE labels its tab and titles its rows.  TAB is 1 for a
 * pane with a tab of its own (in this order: 1-9, Tab, next-pane), 0 for
 * one opened from another pane (a drill-down, the help).
 *
 * This header includes nothing, so keymap.h and actions.h can use it.
 */
#ifndef TUI_PANES_H
#define TUI_PANES_H

#define PANES_WITH(X, A) \
	X(OVERVIEW, overview, "Overview", 1, A) \
	X(OPS, ops, "Operators", 1, A) \
	X(KERNELS, kernels, "Kernels", 1, A) \
	X(STEPS, steps, "Steps", 1, A) \
	X(TREE, tree, "Tree", 1, A) \
	X(TIMELINE, timeline, "Timeline", 1, A) \
	X(MEMORY, memory, "Memory", 1, A) \
	X(MODULES, modules, "Modules", 1, A) \
	X(INFO, info, "Info", 1, A) \
	X(RANKS, ranks, "Ranks", 1, A) \
	X(COMM, comm, "Comm ops", 1, A) \
	X(DRILL, drill, "Drill-down", 0, A) \
	X(MODULE_OPS, module_ops, "Module ops", 0, A) \
	X(MEMORY_EVENTS, memory_events, "Memory events", 0, A) \
	X(MEMORY_CURVE, memory_curve, "Memory curve", 0, A) \
	X(STACKS, stacks, "Call stacks", 0, A) \
	X(UNDER, under, "Ops under", 0, A) \
	X(HELP, help, "Help", 0, A) \
	X(DETAIL, detail, "Detail", 0, A) \
	X(COLUMNS, columns, "Columns", 0, A) \
	X(TEMPORAL, temporal, "Temporal breakdown", 0, A) \
	X(KERNEL_TYPES, kernel_types, "Kernel types", 0, A) \
	X(API, api, "API calls", 0, A) \
	X(ANNOTATIONS, annotations, "Annotations", 0, A) \
	X(IDLE, idle, "GPU idle", 0, A) \
	X(IDLE_GAPS, idle_gaps, "GPU idle gaps", 0, A) \
	X(SEQUENCES, sequences, "Kernel sequences", 0, A) \
	X(LAUNCHES, launches, "Kernel launches", 0, A) \
	X(LAUNCH_DIST, launch_dist, "Launch distribution", 0, A) \
	X(QUEUE_LENGTH, queue_length, "Queue length", 0, A) \
	X(MEMORY_BANDWIDTH, memory_bandwidth, "Memory bandwidth", 0, A) \
	X(RANK_ANALYSES, rank_analyses, "Rank analyses", 0, A) \
	X(SORT_BY, sort_by, "Sort by", 0, A) \
	X(CRITICAL_PATH, critical_path, "Critical path", 0, A) \
	X(KERNEL_BREAKDOWN, kernel_breakdown, "Kernels by type", 0, A) \
	X(RANGE, range, "Range", 0, A) \
	X(COUNTERS, counters, "Counters", 0, A)

/* The same list for a 4-argument X; PANES_WITH passes one more argument
 * through to X (actions.h hands its own X macro through it). */
#define PANE_CALL4(id, name, title, tab, X) X(id, name, title, tab)
#define PANES(X) PANES_WITH(PANE_CALL4, X)

enum pane_id {
#define X(id, name, title, tab) PANE_##id,
	PANES(X)
#undef X
	NR_PANES
};

/* PANE_IF_TAB(TAB, ...): the rest for a pane with a tab, nothing for the
 * others. */
#define PANE_IF_TAB_1(...) __VA_ARGS__
#define PANE_IF_TAB_0(...)
#define PANE_IF_TAB(tab, ...) PANE_IF_TAB_##tab(__VA_ARGS__)

#endif
