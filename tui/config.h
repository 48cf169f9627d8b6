/* SPDX-License-Identifier: MIT */
/*
 * config: the user's settings, in $XDG_CONFIG_HOME/proftui/config (else
 * ~/.config/proftui/config), read when the UI starts and written only by
 * save-config (W).  proftui-config(5) describes the file:
 *
 *	# comment
 *	set short-names on|off
 *	set mouse on|off
 *	set keymap default|vi|emacs|FILE
 *	sort PANE COLUMN [ascending|descending]
 *	columns PANE KEY... (-KEY: hidden)
 *
 * A bad line is reported as "FILE:LINE: ..." and the rest is read (the
 * key file's rule).  Options on the command line win over the file.
 * Nothing here touches the terminal.
 */
#ifndef TUI_CONFIG_H
#define TUI_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "../view/columns.h"
#include "../view/panes.h"

struct config_sort {
	char *key;			/* heap; NULL: the pane's own default */
	bool is_desc;
	bool has_dir;			/* the line said which way */
};

struct config {
	int short_names;		/* -1: not set, else 0 or 1 */
	int mouse;			/* -1: not set, else 0 or 1 */
	char *keymap;			/* heap; NULL: not set */
	struct config_sort sort[NR_PANES];
	struct col_choice cols[NR_PANES];
	/* Problems found while reading, "FILE:LINE: ...", one per line;
	 * heap. */
	char *messages;
	size_t nr_messages;
};

void config_init(struct config *c);
void config_release(struct config *c);
/* Read TEXT (NAME for messages) into C.  Returns the number of bad lines. */
int config_parse(struct config *c, const char *name, const char *text);
/* Read the file PATH into C.  Returns -1 when it cannot be read (a
 * message says why, unless it does not exist and QUIET_IF_ABSENT), else
 * the number of bad lines. */
int config_load(struct config *c, const char *path, bool quiet_if_absent);
/* The user's config file's path, into BUF; NULL when neither
 * XDG_CONFIG_HOME nor HOME is set. */
const char *config_path(char *buf, size_t size);
/* Write C to PATH (its directory made if need be), replacing the file
 * whole.  Returns 0, or -1 with ERR set to "PATH: reason". */
int config_save(const struct config *c, const char *path, char *err, size_t err_size);

#endif
