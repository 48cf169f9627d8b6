// SPDX-License-Identifier: MIT
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "../view/format.h"
#include "keymap.h"

#define FN(k) KEY_FN(k)

static const char *const sections[] = {
	"global",
#define X(id, name, title, tab) #name,
	PANES(X)
#undef X
};

const char *section_name(enum keymap_section s)
{
	return (size_t)s < ARRAY_SIZE(sections) ? sections[s] : "?";
}

int section_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++)
		if (!strcmp(sections[i], name))
			return (int)i;
	return -1;
}

static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Up", FN(KEY_UP) },	     { "Down", FN(KEY_DOWN) },	  { "Left", FN(KEY_LEFT) },
	{ "Right", FN(KEY_RIGHT) },  { "PgUp", FN(KEY_PPAGE) },	  { "PgDn", FN(KEY_NPAGE) },
	{ "PageUp", FN(KEY_PPAGE) }, { "PageDown", FN(KEY_NPAGE) }, { "Home", FN(KEY_HOME) },
	{ "End", FN(KEY_END) },	     { "Enter", '\n' },		  { "Esc", 27 },
	{ "Tab", '\t' },	     { "S-Tab", FN(KEY_BTAB) },	  { "BS", FN(KEY_BACKSPACE) },
	{ "Backspace", FN(KEY_BACKSPACE) }, { "Del", FN(KEY_DC) }, { "Ins", FN(KEY_IC) },
	{ "Space", ' ' },	     { "Bslash", '\\' },	  { "Hash", '#' },
	{ "Lt", '<' },		     { "Gt", '>' },
};

int keymap_key_parse(const char *name)
{
	size_t n = strlen(name);

	if (n == 1)
		return (unsigned char)name[0];
	if (n < 3 || name[0] != '<' || name[n - 1] != '>') {
		/* One UTF-8 character is a key too. */
		uint32_t cp;

		return u8_decode(name, n, &cp) == n && cp != 0xfffd ? (int)cp : -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(key_names); i++)
		if (strlen(key_names[i].name) == n - 2 && !strncasecmp(name + 1, key_names[i].name, n - 2))
			return key_names[i].key;
	if ((name[1] == 'F' || name[1] == 'f') && n >= 4 && n <= 5) {
		int f = atoi(name + 2);

		if (f >= 1 && f <= 12)
			return FN(KEY_F(f));
	}
	if (n == 5 && (name[1] == 'C' || name[1] == 'c') && name[2] == '-') {
		char c = name[3];

		if (c >= 'a' && c <= 'z')
			return c - 'a' + 1;
		if (c >= 'A' && c <= 'Z')
			return c - 'A' + 1;
	}
	return -1;
}

const char *keymap_key_name(int key, char *buf, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_names); i++) {
		if (key_names[i].key == key) {
			snprintf(buf, size, "<%s>", key_names[i].name);
			return buf;
		}
	}
	if (key >= FN(KEY_F(1)) && key <= FN(KEY_F(12)))
		snprintf(buf, size, "<F%d>", key - FN(KEY_F(0)));
	else if (key >= 1 && key <= 26)
		snprintf(buf, size, "<C-%c>", 'a' + key - 1);
	else if (key > ' ' && key < 0x7f)
		snprintf(buf, size, "%c", key);
	else if (key >= 0x80 && key < 0x110000 && size > 4) {
		buf[u8_encode((uint32_t)key, buf)] = '\0';
	} else {
		snprintf(buf, size, "<0x%x>", key);
	}
	return buf;
}

void keymap_init(struct keymap *km)
{
	memset(km, 0, sizeof(*km));
}

void keymap_release(struct keymap *km)
{
	free(km->v);
	free(km->messages);
	memset(km, 0, sizeof(*km));
}

static void complain(struct keymap *km, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void complain(struct keymap *km, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	str_vaddline(&km->messages, fmt, ap);
	va_end(ap);
	km->nr_messages++;
}

static void bind(struct keymap *km, enum keymap_section s, int key, enum action act)
{
	/* A later binding of the same key in the same section replaces. */
	for (size_t i = 0; i < km->nr; i++) {
		if (km->v[i].section == s && km->v[i].key == key) {
			km->v[i].action = act;
			return;
		}
	}
	GROW(km->v, km->alloc, km->nr + 1);
	km->v[km->nr].key = key;
	km->v[km->nr].section = s;
	km->v[km->nr].action = act;
	km->nr++;
}

int keymap_words(char *line, char **w, int max)
{
	int n = 0;

	for (char *p = line; *p && n < max;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			break;
		w[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

int keymap_parse(struct keymap *km, const char *name, const char *text)
{
	int bad = 0;
	unsigned lineno = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");
		char line[1024], *w[5];
		int n, section, key, act;

		lineno++;
		if (len >= sizeof(line)) {
			complain(km, "%s:%u: line too long", name, lineno);
			bad++;
			text += len + (text[len] == '\n');
			continue;
		}
		memcpy(line, text, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		text += len + (text[len] == '\n');
		n = keymap_words(line, w, 5);
		if (n == 0)
			continue;
		if (strcmp(w[0], "bind")) {
			complain(km, "%s:%u: unknown command '%s' (expected 'bind')", name, lineno, w[0]);
			bad++;
			continue;
		}
		if (n != 4) {
			complain(km, "%s:%u: expected 'bind SECTION KEY ACTION'", name, lineno);
			bad++;
			continue;
		}
		if ((section = section_find(w[1])) < 0) {
			complain(km, "%s:%u: unknown section '%s'", name, lineno, w[1]);
			bad++;
			continue;
		}
		if ((key = keymap_key_parse(w[2])) < 0) {
			complain(km, "%s:%u: unknown key '%s'", name, lineno, w[2]);
			bad++;
			continue;
		}
		if ((act = action_find(w[3])) < 0) {
			complain(km, "%s:%u: unknown action '%s'", name, lineno, w[3]);
			bad++;
			continue;
		}
		bind(km, (enum keymap_section)section, key, (enum action)act);
	}
	return bad;
}

/*
 * Open PATH as a key file: O_NONBLOCK, so a FIFO left at the path cannot
 * hold start-up until someone writes to it, and a regular file or
 * nothing (a directory read as empty, a FIFO, a device is refused with a
 * message).  Returns the fd, or -1: with a message, unless IS_OPTIONAL
 * and there is simply no such file.
 */
static int open_key_file(struct keymap *km, const char *path, bool is_optional)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		if (!is_optional || (errno != ENOENT && errno != ENOTDIR))
			complain(km, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		complain(km, "%s: cannot read: %s", path, strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		complain(km, "%s: is a directory, not a key file", path);
	} else if (!S_ISREG(st.st_mode)) {
		complain(km, "%s: not a regular file (a FIFO or a device?), not read", path);
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

static int load_file(struct keymap *km, const char *path, bool is_optional)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	char buf[4096];
	ssize_t n;
	int fd = open_key_file(km, path, is_optional), bad;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			complain(km, "%s: cannot read: %s", path, strerror(errno));
			close(fd);
			free(text);
			return -1;
		}
		/* A key file is a few lines: a megabyte is a mistake. */
		if (len + (size_t)n > (1 << 20)) {
			complain(km, "%s: too large for a key file", path);
			close(fd);
			free(text);
			return -1;
		}
		GROW(text, cap, len + (size_t)n + 1);
		memcpy(text + len, buf, (size_t)n);
		len += (size_t)n;
	}
	close(fd);
	GROW(text, cap, len + 1);
	text[len] = '\0';
	if (strlen(text) != len) {
		complain(km, "%s: binary data, not a key file", path);
		free(text);
		return -1;
	}
	bad = keymap_parse(km, path, text);
	free(text);
	return bad;
}

int keymap_load_file(struct keymap *km, const char *path)
{
	return load_file(km, path, false);
}

void keymap_setup(struct keymap *km, const char *map, const char *user_file)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME"), *dir, *var, *rest;
	char path[PATH_MAX];
	int n;

	keymap_parse(km, "<builtin>", keymap_default);
	if (map) {
		if (!strcmp(map, "vi"))
			keymap_parse(km, "<builtin vi>", keymap_vi);
		else if (!strcmp(map, "emacs"))
			keymap_parse(km, "<builtin emacs>", keymap_emacs);
		else if (strcmp(map, "default"))
			keymap_load_file(km, map);
	}
	if (user_file) {
		keymap_load_file(km, user_file);
		return;
	}
	if (xdg && *xdg) {
		dir = xdg;
		var = "XDG_CONFIG_HOME";
		rest = "proftui/keys";
	} else if (home && *home) {
		dir = home;
		var = "HOME";
		rest = ".config/proftui/keys";
	} else {
		return;
	}
	/* A path cut to fit would name another file, which might exist. */
	n = snprintf(path, sizeof(path), "%s/%s", dir, rest);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		complain(km, "$%s is too long (%zu bytes) for a path: %s not read", var,
			 strlen(dir), rest);
		return;
	}
	/* The user's own file is optional: only a file that is there and
	 * broken is worth a word. */
	load_file(km, path, true);
}

enum action keymap_lookup(const struct keymap *km, enum keymap_section section, int key)
{
	enum action found = ACT_NONE;
	bool in_global = false;

	for (size_t i = 0; i < km->nr; i++) {
		if (km->v[i].key != key)
			continue;
		if (km->v[i].section == section && section != KS_GLOBAL)
			return km->v[i].action;	/* the pane's own wins, "none" too */
		if (km->v[i].section == KS_GLOBAL) {
			found = km->v[i].action;
			in_global = true;
		}
	}
	return in_global ? found : ACT_NONE;
}

size_t keymap_keys_of(const struct keymap *km, enum keymap_section section, enum action act,
		      char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < km->nr; i++) {
		char name[32];
		const struct binding *b = &km->v[i];

		if (b->action != act || (b->section != section && b->section != KS_GLOBAL))
			continue;
		/* A global binding the pane overrides is not in force here. */
		if (b->section == KS_GLOBAL && section != KS_GLOBAL &&
		    keymap_lookup(km, section, b->key) != act)
			continue;
		keymap_key_name(b->key, name, sizeof(name));
		if (n + strlen(name) + 3 >= size)
			break;
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "", name);
	}
	return n;
}
