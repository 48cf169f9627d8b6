// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "config.h"
#include "keymap.h"

void config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->short_names = c->mouse = -1;
}

void config_release(struct config *c)
{
	for (size_t i = 0; i < NR_PANES; i++) {
		free(c->sort[i].key);
		col_choice_release(&c->cols[i]);
	}
	free(c->keymap);
	free(c->messages);
	memset(c, 0, sizeof(*c));
	c->short_names = c->mouse = -1;
}

static void complain(struct config *c, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void complain(struct config *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	str_vaddline(&c->messages, fmt, ap);
	va_end(ap);
	c->nr_messages++;
}

static int on_off(const char *s)
{
	if (!strcmp(s, "on") || !strcmp(s, "yes") || !strcmp(s, "true"))
		return 1;
	if (!strcmp(s, "off") || !strcmp(s, "no") || !strcmp(s, "false"))
		return 0;
	return -1;
}

#define MAX_WORDS 260

/* One line's words; false after a complaint. */
static bool config_line(struct config *c, const char *name, unsigned lineno, char **w, int n)
{
	int pane = -1;

	if (!strcmp(w[0], "set")) {
		int v;

		if (n != 3) {
			complain(c, "%s:%u: expected 'set NAME VALUE'", name, lineno);
			return false;
		}
		if (!strcmp(w[1], "keymap")) {
			free(c->keymap);
			c->keymap = xstrdup(w[2]);
			return true;
		}
		if (strcmp(w[1], "short-names") && strcmp(w[1], "mouse")) {
			complain(c, "%s:%u: unknown setting '%s' (short-names, mouse, keymap)", name,
				 lineno, w[1]);
			return false;
		}
		if ((v = on_off(w[2])) < 0) {
			complain(c, "%s:%u: '%s' is on or off, not '%s'", name, lineno, w[1], w[2]);
			return false;
		}
		if (!strcmp(w[1], "mouse"))
			c->mouse = v;
		else
			c->short_names = v;
		return true;
	}
	if (strcmp(w[0], "sort") && strcmp(w[0], "columns")) {
		complain(c, "%s:%u: unknown command '%s' (set, sort, columns)", name, lineno, w[0]);
		return false;
	}
	if (n < 3) {
		complain(c, "%s:%u: expected '%s PANE %s'", name, lineno, w[0],
			 w[0][0] == 's' ? "COLUMN [ascending|descending]" : "KEY...");
		return false;
	}
	/* Panes by their section names (keymap.h), as key files name them. */
	pane = section_find(w[1]);
	if (pane <= 0) {
		complain(c, "%s:%u: unknown pane '%s'", name, lineno, w[1]);
		return false;
	}
	pane--;
	if (w[0][0] == 's') {
		struct config_sort *s = &c->sort[pane];

		if (n > 4 || (n == 4 && strcmp(w[3], "ascending") && strcmp(w[3], "descending"))) {
			complain(c, "%s:%u: expected 'sort PANE COLUMN [ascending|descending]'", name,
				 lineno);
			return false;
		}
		free(s->key);
		s->key = xstrdup(w[2]);
		s->has_dir = n == 4;
		s->is_desc = n == 4 && !strcmp(w[3], "descending");
		return true;
	}
	col_choice_release(&c->cols[pane]);
	for (int i = 2; i < n; i++)
		col_choice_add(&c->cols[pane], w[i] + (w[i][0] == '-'), w[i][0] != '-');
	return true;
}

int config_parse(struct config *c, const char *name, const char *text)
{
	unsigned lineno = 0;
	int bad = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");
		char *line, *w[MAX_WORDS];
		int n;

		lineno++;
		line = xstrndup(text, len);
		text += len + (text[len] == '\n');
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		n = keymap_words(line, w, MAX_WORDS);
		if (n == MAX_WORDS) {
			complain(c, "%s:%u: too many words", name, lineno);
			bad++;
		} else if (n && !config_line(c, name, lineno, w, n)) {
			bad++;
		}
		free(line);
	}
	return bad;
}

int config_load(struct config *c, const char *path, bool quiet_if_absent)
{
	FILE *f = fopen(path, "r");
	struct strbuf text = STRBUF_INIT;
	char buf[4096];
	size_t n;
	int bad;

	if (!f) {
		if (!(quiet_if_absent && errno == ENOENT))
			complain(c, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (text.len + n > (1 << 20)) {
			complain(c, "%s: too large for a config file", path);
			fclose(f);
			strbuf_release(&text);
			return -1;
		}
		strbuf_add(&text, buf, n);
	}
	fclose(f);
	if (text.s && strlen(text.s) != text.len) {
		complain(c, "%s: binary data, not a config file", path);
		strbuf_release(&text);
		return -1;
	}
	bad = config_parse(c, path, text.s ? text.s : "");
	strbuf_release(&text);
	return bad;
}

const char *config_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(buf, size, "%s/proftui/config", xdg);
	else if (home && *home)
		snprintf(buf, size, "%s/.config/proftui/config", home);
	else
		return NULL;
	return buf;
}

/* Make the directories above PATH. */
static int make_dirs(const char *path)
{
	char *d = xstrdup(path);
	int rc = 0;

	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(d, 0777) && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	free(d);
	return rc;
}

int config_save(const struct config *c, const char *path, char *err, size_t err_size)
{
	struct strbuf text = STRBUF_INIT;
	size_t n = strlen(path) + 16;
	char *tmp = xmalloc(n);
	FILE *f;
	bool ok;
	int fd;

	strbuf_addstr(&text, "# proftui config: written by save-config (W); see proftui-config(5)\n");
	if (c->short_names >= 0)
		strbuf_addstr(&text, c->short_names ? "set short-names on\n" : "set short-names off\n");
	if (c->mouse >= 0)
		strbuf_addstr(&text, c->mouse ? "set mouse on\n" : "set mouse off\n");
	if (c->keymap) {
		strbuf_addstr(&text, "set keymap ");
		strbuf_addstr(&text, c->keymap);
		strbuf_addch(&text, '\n');
	}
	for (size_t p = 0; p < NR_PANES; p++) {
		const char *pane = section_name((enum keymap_section)KS_PANE(p));

		if (c->sort[p].key) {
			strbuf_addstr(&text, "sort ");
			strbuf_addstr(&text, pane);
			strbuf_addch(&text, ' ');
			strbuf_addstr(&text, c->sort[p].key);
			if (c->sort[p].has_dir)
				strbuf_addstr(&text, c->sort[p].is_desc ? " descending" : " ascending");
			strbuf_addch(&text, '\n');
		}
		if (c->cols[p].nr) {
			strbuf_addstr(&text, "columns ");
			strbuf_addstr(&text, pane);
			for (size_t i = 0; i < c->cols[p].nr; i++) {
				strbuf_addstr(&text, c->cols[p].v[i].is_shown ? " " : " -");
				strbuf_addstr(&text, c->cols[p].v[i].key);
			}
			strbuf_addch(&text, '\n');
		}
	}
	make_dirs(path);
	snprintf(tmp, n, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		strbuf_release(&text);
		return -1;
	}
	{
		/* mkstemp makes 0600; a config file is an ordinary file. */
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	ok = fwrite(text.s, 1, text.len, f) == text.len;
	if (fclose(f))
		ok = false;
	if (!ok || rename(tmp, path)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		strbuf_release(&text);
		return -1;
	}
	free(tmp);
	strbuf_release(&text);
	return 0;
}
