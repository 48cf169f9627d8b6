/* SPDX-License-Identifier: MIT */
/*
 * lineedit: the one-line editor the bar turns into -- for the filter (the
 * caller applies the text as it changes) and the export path.  Emacs keys
 * as readline has them (C-a C-e C-b C-f C-d C-u C-w), the arrows, Home,
 * End, Delete and Backspace; text is UTF-8 and the cursor moves by
 * characters.  It knows nothing of what the text is for.
 */
#ifndef TUI_LINEEDIT_H
#define TUI_LINEEDIT_H

#include <stddef.h>

/* The text holds LINEEDIT_MAX - 1 bytes: a paste longer than that is
 * cut, each key past the end answered LINEEDIT_FULL. */
#define LINEEDIT_MAX 1024

struct lineedit {
	char text[LINEEDIT_MAX];	/* NUL-terminated */
	size_t len, cur;		/* bytes; cur is at a character start */
};

enum lineedit_result {
	LINEEDIT_IGNORED,	/* not an editing key */
	LINEEDIT_MOVED,		/* the cursor moved, the text is the same */
	LINEEDIT_CHANGED,	/* the text changed */
	LINEEDIT_FULL,		/* a character that does not fit: text unchanged */
	LINEEDIT_ACCEPT,	/* Enter */
	LINEEDIT_CANCEL,	/* Esc, C-g */
};

/* Start editing TEXT (copied, cut to fit) with the cursor at its end. */
void lineedit_start(struct lineedit *le, const char *text);
/* Apply KEY (a code point or KEY_FN(curses key), keymap.h). */
enum lineedit_result lineedit_key(struct lineedit *le, int key);

#endif
