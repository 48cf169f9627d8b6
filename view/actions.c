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
} actions[] = {
#define X(e, name, help) { name, help },
	ACTIONS(X)
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

int action_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(actions); i++)
		if (!strcmp(actions[i].name, name))
			return (int)i;
	return -1;
}
