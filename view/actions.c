// SPDX-License-Identifier: MIT
/*
 * The actions' names and help, from the one list in actions.h: key files
 * (tui/keymap.c), the help pane and --list-actions read them here.
 */
#include <string.h>

#include "../model/util.h"
#include "actions.h"

static const struct {
	const char *name;
	const char *help;
	bool pane_only;
} actions[] = {
#define X(e, name, help) { name, help, false },
#define P(e, name, help) { name, help, true },
	ACTIONS_WITH(X, P)
#undef P
#undef X
};

const char *action_name(enum action act)
{
	return (size_t)act < ARRAY_SIZE(actions) ? actions[act].name : "?";
}

const char *action_help(enum action act)
{
	return (size_t)act < ARRAY_SIZE(actions) ? actions[act].help : "";
}

bool action_is_pane_only(enum action act)
{
	return (size_t)act < ARRAY_SIZE(actions) && actions[act].pane_only;
}

/* The bar's word for an action whose name is too long for it. */
static const char *const hint_words[NR_ACTIONS] = {
	[ACT_SORT_DEVICE_SELF] = "sort",
	[ACT_SORT_HOST_SELF] = "sort",
	[ACT_TOGGLE_FOLD] = "fold",
	[ACT_TIMELINE_JUMP] = "timeline",
	[ACT_TOGGLE_COLUMN] = "show/hide",
	[ACT_COLUMN_UP] = "move up",
	[ACT_COLUMN_DOWN] = "move down",
	[ACT_NEXT_INSTANCE] = "next same",
	[ACT_ZOOM_IN] = "zoom",
	[ACT_ZOOM_OUT] = "out",
	[ACT_RANGE_MARK] = "range",
	[ACT_RANGE_SUMMARY] = "summary",
};

const char *action_hint_word(enum action act)
{
	if ((size_t)act < ARRAY_SIZE(hint_words) && hint_words[act])
		return hint_words[act];
	return action_name(act);
}

int action_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(actions); i++)
		if (!strcmp(actions[i].name, name))
			return (int)i;
	return -1;
}
