/* SPDX-License-Identifier: MIT */
/*
 * actions: everything a key can do, as one list.  The X-macro yields the
 * action enum, the names key files use, and the help text; the help screen
 * and the man-page check are generated from it, so they cannot drift
 * (tig's REQ_INFO).
 */
#ifndef VIEW_ACTIONS_H
#define VIEW_ACTIONS_H

#include <stdbool.h>

#include "panes.h"

/* "pane-ops": one action per pane with a tab, from panes.h. */
#define PANE_ACTION(id, name, title, tab, X) \
	PANE_IF_TAB(tab, X(PANE_##id, "pane-" #name, "Show the " title " pane"))

/* X(ID, "name", "help") for an action the UI knows (a pane may still
 * carry it out its own way first); P(...) for one that only some panes
 * carry out -- those that list it in their pane_ops.actions -- and that
 * elsewhere says where it works (pane_action_elsewhere(), view/panes.c).
 * ACTIONS(X) is the whole list for a 3-argument X. */
#define ACTIONS_WITH(X, P) \
	X(NONE, "none", "Do nothing (binding a key to none unbinds it)") \
	X(MOVE_UP, "move-up", "Move the cursor one row up") \
	X(MOVE_DOWN, "move-down", "Move the cursor one row down") \
	X(PAGE_UP, "page-up", "Move one screen up") \
	X(PAGE_DOWN, "page-down", "Move one screen down") \
	X(HALF_UP, "half-page-up", "Move half a screen up") \
	X(HALF_DOWN, "half-page-down", "Move half a screen down") \
	X(FIRST_ROW, "first-row", "Go to the first row") \
	X(LAST_ROW, "last-row", "Go to the last row") \
	X(SCROLL_LEFT, "scroll-left", "Show the columns further left") \
	X(SCROLL_RIGHT, "scroll-right", "Show the columns further right") \
	X(NEXT_PANE, "next-pane", "Show the next pane") \
	X(PREV_PANE, "prev-pane", "Show the previous pane") \
	PANES_WITH(PANE_ACTION, X) \
	X(DRILL, "drill", "Open what the row launched (op: its kernels) or what launched it (kernel: its ops)") \
	X(BACK, "back", "Go back from a drill-down or the help; quit at the top") \
	X(QUIT, "quit", "Leave proftui at once") \
	X(SORT_DEVICE_SELF, "sort-device-self", "Sort by device self time (again: reverse)") \
	X(SORT_DEVICE_TOTAL, "sort-device-total", "Sort by device total time (again: reverse)") \
	X(SORT_HOST_SELF, "sort-host-self", "Sort by host self time (again: reverse)") \
	X(SORT_HOST_TOTAL, "sort-host-total", "Sort by host total time (again: reverse)") \
	X(SORT_CALLS, "sort-calls", "Sort by calls (again: reverse)") \
	X(SORT_NAME, "sort-name", "Sort by name (again: reverse)") \
	X(SORT_PREV, "sort-prev", "Sort by the column to the left") \
	X(SORT_NEXT, "sort-next", "Sort by the column to the right") \
	X(SORT_REVERSE, "sort-reverse", "Reverse the sort") \
	X(FILTER, "filter", "Show only rows whose name matches a PCRE2 pattern, as you type") \
	X(SEARCH, "search", "Search the names: the cursor goes to the first row the pattern matches (PCRE2, smart case); rows stay") \
	X(SEARCH_NEXT, "search-next", "The next row the search matches (Timeline without a search: the next block of the name)") \
	X(SEARCH_PREV, "search-prev", "The previous row the search matches (Timeline without a search: the previous block of the name)") \
	X(CLEAR_FILTER, "clear-filter", "Clear the filter") \
	X(EXPORT, "export", "Write the pane to a file (.txt .csv .tsv .json .md)") \
	X(STEP_PREV, "step-prev", "Show only the previous step") \
	X(STEP_NEXT, "step-next", "Show only the next step") \
	X(STEP_ALL, "step-all", "Show all steps") \
	X(RUN_PREV, "run-prev", "Show the previous run of the file") \
	X(RUN_NEXT, "run-next", "Show the next run of the file") \
	X(UNFOLD, "unfold", "Tree: open the node") \
	X(FOLD, "fold", "Tree: close the node (on a closed one: go to its parent)") \
	X(TOGGLE_FOLD, "toggle-fold", "Tree: open or close the node") \
	X(UNFOLD_ALL, "unfold-all", "Tree: open everything under the node") \
	P(TOGGLE_VIEW, "toggle-view", "Switch the grouping: Operators by input shape, Kernels by launching op; Memory: all its events") \
	P(DEVICE_PREV, "device-prev", "Memory: show the previous device") \
	P(DEVICE_NEXT, "device-next", "Memory: show the next device") \
	P(CHART_LEFT, "chart-left", "Memory: move the chart's cursor to an earlier time") \
	P(CHART_RIGHT, "chart-right", "Memory: move the chart's cursor to a later time") \
	P(ZOOM_IN, "zoom-in", "Memory, Timeline: show less time, around the cursor (Memory: its tables too)") \
	P(ZOOM_OUT, "zoom-out", "Memory, Timeline: show more time, around the cursor") \
	P(ZOOM_ALL, "zoom-all", "Memory, Timeline: show the whole time (Timeline: of the step)") \
	P(CALL_STACK, "call-stack", "Operators: the Python call stacks the op ran under (with_stack)") \
	P(SEQUENCES, "sequences", "Operators: the frequent kernel sequences the op launched (HTA's)") \
	X(HELP, "help", "Show the keys and what the columns mean") \
	X(INSPECT, "inspect", "Show all of the row: full name, columns and their meaning, attributes, what launched it") \
	X(SHORT_NAMES, "short-names", "Show names short (C++ templates, parameters, namespaces elided) or full") \
	X(COLUMNS, "columns", "Choose the pane's columns and their order (for this run; save-config keeps them)") \
	X(SORT_MENU, "sort-menu", "Choose the column to sort by from a list (htop's F6)") \
	X(SAVE_CONFIG, "save-config", "Write the columns, the pane's sort and short names to the config file") \
	P(TOGGLE_COLUMN, "toggle-column", "Column chooser: show or hide the column") \
	P(COLUMN_UP, "column-up", "Column chooser: move the column left (up the list)") \
	P(COLUMN_DOWN, "column-down", "Column chooser: move the column right (down the list)") \
	X(TIMELINE_JUMP, "timeline-jump", "Show the row on the Timeline: its own block (else the first of its name), zoomed to be read") \
	P(PAN_LEFT, "pan-left", "Timeline: move the view half a screen earlier") \
	P(PAN_RIGHT, "pan-right", "Timeline: move the view half a screen later") \
	P(PREV_BLOCK, "prev-block", "Timeline: select the block before this one in its lane") \
	P(NEXT_BLOCK, "next-block", "Timeline: select the block after this one in its lane") \
	P(PREV_INSTANCE, "prev-instance", "Timeline: select the previous block of the same name") \
	P(NEXT_INSTANCE, "next-instance", "Timeline: select the next block of the same name") \
	P(FOLLOW_FLOW, "follow-flow", "Timeline: follow the flow down: an op's first kernel, then its next") \
	P(FLOW_BACK, "flow-back", "Timeline: follow the flow up: the op that launched the kernel") \
	P(PIN_LANE, "pin-lane", "Timeline: pin the block's lane at the top, or unpin it") \
	P(HIDE_LANE, "hide-lane", "Timeline: hide the block's lane") \
	P(SHOW_LANES, "show-lanes", "Timeline: show every hidden lane again") \
	P(COUNTER_LANES, "counter-lanes", "Timeline: show every counter lane (counters over time), or hide them") \
	P(PATH_MARKS, "path-marks", "Timeline: mark the critical path's blocks (<name>), or stop") \
	P(RANGE_MARK, "range-mark", "Timeline: select the block's own span as the time range (Perfetto's m)") \
	P(RANGE_VISUAL, "range-visual", "Timeline: start a range at the block; move to extend it, again to set it") \
	P(RANGE_SUMMARY, "range-summary", "Timeline: what the time range holds, by name (the Range pane)") \
	X(RANGE_CLEAR, "range-clear", "Clear the Timeline's time range, which narrows the panes (with none: clear the filter)") \
	X(REDRAW, "redraw", "Redraw the screen")

#define ACTIONS(X) ACTIONS_WITH(X, X)

enum action {
#define X(e, name, help) ACT_##e,
	ACTIONS(X)
#undef X
	NR_ACTIONS
};

/* An action's name in key files ("sort-name"), its line of help, and the
 * action a name means (-1: none). */
const char *action_name(enum action act);
const char *action_help(enum action act);
int action_find(const char *name);
/* The word the status bar's hint shows after the action's key ("sort"),
 * its name where none shorter is set. */
const char *action_hint_word(enum action act);
/* Whether ACT is a P action: only some panes carry it out. */
bool action_is_pane_only(enum action act);

#endif
