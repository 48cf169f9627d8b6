/* SPDX-License-Identifier: MIT */
/*
 * keymap: key bindings are data.  keymaps/default.keys is compiled into the
 * binary and parsed exactly like a user's file; vi.keys and emacs.keys ship
 * beside it; a user file overrides single bindings.  The syntax:
 *
 *	# comment
 *	bind SECTION KEY ACTION
 *
 * SECTION is "global" or a pane's name (panes.h: "ops", "kernels",
 * "steps", "tree", "info", "drill", "help"); a pane's bindings win over
 * global ones.  KEY
 * is a character or a name in angle brackets (<Enter>, <C-l>, <F1>,
 * <Bslash>); ACTION is a name from actions.h, "none" unbinds.  Later lines
 * win.  A bad line is reported as "FILE:LINE: unknown action 'x'" and
 * loading goes on (tig).
 */
#ifndef TUI_KEYMAP_H
#define TUI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../view/actions.h"
#include "../view/panes.h"

/* Sections: "global", then one per pane type, named as the pane
 * (panes.h); KS_PANE(id) is pane ID's. */
enum keymap_section {
	KS_GLOBAL,
#define X(id, name, title, tab) KS_##id,
	PANES(X)
#undef X
	NR_KEYMAP_SECTIONS
};
#define KS_PANE(id) ((enum keymap_section)((int)(id) + 1))

/* A key: a character's code point, or a curses function key (KEY_UP...)
 * moved above every code point, so one int holds either (get_wch() tells
 * them apart; so do we). */
#define KEY_FN(k) (0x1000000 + (k))

struct binding {
	int key;			/* curses key code or character */
	enum keymap_section section;
	enum action action;
};

struct keymap {
	struct binding *v;
	size_t nr, alloc;
	/* Problems found while loading, "FILE:LINE: ...", one per line;
	 * heap, freed by keymap_release(). */
	char *messages;
	size_t nr_messages;
};

/* The built-in key files (made from keymaps/ *.keys by keymaps/embed.sh). */
extern const char keymap_default[], keymap_vi[], keymap_emacs[];

void keymap_init(struct keymap *km);
void keymap_release(struct keymap *km);
/* Parse TEXT (a key file's contents; NAME for messages) into KM.  Returns
 * the number of bad lines. */
int keymap_parse(struct keymap *km, const char *name, const char *text);
/* Read the file PATH into KM.  Returns -1 (and a message) when it cannot
 * be read, else the number of bad lines. */
int keymap_load_file(struct keymap *km, const char *path);
/*
 * The whole set-up: the default keymap, then MAP ("vi", "emacs" or a file;
 * NULL for none), then USER_FILE, or when that is NULL the user's own file
 * ($XDG_CONFIG_HOME/proftui/keys, else ~/.config/proftui/keys) if it
 * exists.
 */
void keymap_setup(struct keymap *km, const char *map, const char *user_file);

/* The action KEY does in SECTION (falling back to global), or ACT_NONE. */
enum action keymap_lookup(const struct keymap *km, enum keymap_section section, int key);
/* The keys bound to ACT in SECTION (global ones too when GLOBAL_TOO),
 * as text ("s, <F4>") into BUF; returns its length (0: none). */
size_t keymap_keys_of(const struct keymap *km, enum keymap_section section, enum action act,
		      char *buf, size_t size);

/* Split LINE in place into blank-separated words (at most MAX), up to a
 * '#' comment: the key file's syntax, which the config file shares.
 * Returns the words found. */
int keymap_words(char *line, char **w, int max);

/* Names. */
const char *section_name(enum keymap_section s);
int section_find(const char *name);		/* -1: none */
/* "<Enter>", "s", "<C-l>" -> key code, or -1; and back. */
int keymap_key_parse(const char *name);
const char *keymap_key_name(int key, char *buf, size_t size);

#endif
