// SPDX-License-Identifier: MIT
/*
 * Opening key files (issue 9, item 9): a FIFO at the path must not block
 * start-up, a directory or a device is refused with a message, and an
 * $XDG_CONFIG_HOME too long for a path is refused rather than cut short
 * (which named, and read, another file).
 */
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "tui/keymap.h"

/* Before the fix a FIFO blocked in open(): fail, do not hang the suite. */
static void on_alarm(int sig)
{
	static const char msg[] = "FAIL: t-keyfile: blocked opening a FIFO\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static bool has_message(const struct keymap *km, const char *want)
{
	if (km->messages && strstr(km->messages, want))
		return true;
	fprintf(stderr, "  messages '%s' lack '%s'\n", km->messages ? km->messages : "", want);
	return false;
}

/* A fresh directory under test_dir() with a proftui/ inside; its path. */
static const char *config_dir(const char *name)
{
	static char dir[600];
	char sub[700];

	snprintf(dir, sizeof(dir), "%s/%s", test_dir(), name);
	snprintf(sub, sizeof(sub), "%s/proftui", dir);
	mkdir(dir, 0700);
	mkdir(sub, 0700);
	return dir;
}

static void test_fifo(void)
{
	const char *dir = config_dir("fifo");
	char path[700];
	struct keymap km;

	snprintf(path, sizeof(path), "%s/proftui/keys", dir);
	CHECK(mkfifo(path, 0600) == 0);
	signal(SIGALRM, on_alarm);
	alarm(10);

	/* At the user's own path. */
	setenv("XDG_CONFIG_HOME", dir, 1);
	keymap_init(&km);
	keymap_setup(&km, NULL, NULL);
	CHECK(has_message(&km, "keys: not a regular file"));
	keymap_release(&km);
	/* Named by --keys, and by --keymap. */
	keymap_init(&km);
	keymap_setup(&km, path, path);
	CHECK_EQ(km.nr_messages, 2);
	CHECK(has_message(&km, "keys: not a regular file"));
	keymap_release(&km);

	alarm(0);
	unsetenv("XDG_CONFIG_HOME");
}

static void test_directory(void)
{
	const char *dir = config_dir("directory");
	char path[700];
	struct keymap km;

	snprintf(path, sizeof(path), "%s/proftui", dir);
	keymap_init(&km);
	CHECK_EQ(keymap_load_file(&km, path), -1);
	CHECK(has_message(&km, "proftui: is a directory, not a key file"));
	keymap_release(&km);

	snprintf(path, sizeof(path), "%s/proftui/keys", dir);
	CHECK(mkdir(path, 0700) == 0);
	setenv("XDG_CONFIG_HOME", dir, 1);
	keymap_init(&km);
	keymap_setup(&km, NULL, NULL);
	CHECK(has_message(&km, "keys: is a directory, not a key file"));
	keymap_release(&km);
	unsetenv("XDG_CONFIG_HOME");
}

static void test_device(void)
{
	struct keymap km;

	keymap_init(&km);
	CHECK_EQ(keymap_load_file(&km, "/dev/null"), -1);
	CHECK(has_message(&km, "/dev/null: not a regular file"));
	keymap_release(&km);
}

/* No file at the user's path is the usual case: not a word. */
static void test_no_user_file(void)
{
	struct keymap km;

	setenv("XDG_CONFIG_HOME", config_dir("empty"), 1);
	keymap_init(&km);
	keymap_setup(&km, NULL, NULL);
	CHECK(km.messages == NULL);
	keymap_release(&km);
	unsetenv("XDG_CONFIG_HOME");
}

/*
 * $XDG_CONFIG_HOME padded with slashes so that "$XDG_CONFIG_HOME/proftui/keys"
 * cut to PATH_MAX - 1 bytes reads "DIR/////.../proftui/k": a file that is
 * there, binding x.  It must not be read; the real keys file is not
 * either, since its path cannot be written down.
 */
static void test_long_xdg(void)
{
	const char *dir = config_dir("long");
	const size_t path_max = 4096, len = path_max - 1 - strlen("/proftui/k");
	char path[700], *xdg;
	struct keymap km;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proftui/k", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("bind global x quit\n", f);
	fclose(f);
	CHECK(strlen(dir) < len);
	xdg = xmalloc(len + 1);
	memset(xdg, '/', len);
	memcpy(xdg, dir, strlen(dir));
	xdg[len] = '\0';

	setenv("XDG_CONFIG_HOME", xdg, 1);
	keymap_init(&km);
	keymap_setup(&km, NULL, NULL);
	CHECK(keymap_lookup(&km, KS_OPS, 'x') != ACT_QUIT);
	CHECK(has_message(&km, "$XDG_CONFIG_HOME is too long"));
	keymap_release(&km);
	unsetenv("XDG_CONFIG_HOME");
	free(xdg);
}

const struct test tests[] = {
	{ "a FIFO as the key file is refused at once", test_fifo },
	{ "a directory as the key file is refused", test_directory },
	{ "a device as the key file is refused", test_device },
	{ "no user key file: no message", test_no_user_file },
	{ "an over-long $XDG_CONFIG_HOME is refused, not cut", test_long_xdg },
	{ 0 },
};
