// SPDX-License-Identifier: MIT
/*
 * export_to_path(), what the TUI's export prompt writes with: what is at
 * the path decides how it is written.  A device or a FIFO is written in
 * place and stays what it was (a file renamed over /dev/full would
 * replace the device); a regular file is replaced whole.  (The command
 * line's -o, for --print and --summary alike, is tested through the
 * program in tests/badinput/output.sh.)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "parsers/parser.h"
#include "test.h"
#include "view/export.h"
#include "view/pane.h"

static const char trace[] = "tests/golden/kineto/two-steps.json";

/* The Operators pane of the test trace, as text, into *TEXT (heap). */
static struct pane *ops_pane(struct profile *p, char **text)
{
	char msg[4096];
	size_t len = 0;
	struct pane *pane;
	FILE *f;

	CHECK(test_load(p, trace, NULL, msg, sizeof(msg)) == 0);
	pane = pane_new(pane_ops_find("ops"), p, NULL);
	f = open_memstream(text, &len);
	export_pane(pane, f, EXPORT_TXT, 0, NULL);
	fclose(f);
	return pane;
}

/* A device that is always full: as root a node of our own (the numbers
 * of /dev/full), so that a bug cannot replace the system's. */
static void test_full_device(void)
{
	char path[512], err[512], *want;
	struct profile p;
	struct pane *pane;
	struct stat st;
	long rows;

	if (geteuid() == 0) {
		snprintf(path, sizeof(path), "%s/full", test_dir());
		if (mknod(path, S_IFCHR | 0666, makedev(1, 7)) != 0)
			SKIP("root, and mknod failed here");
	} else {
		snprintf(path, sizeof(path), "/dev/full");
	}
	pane = ops_pane(&p, &want);
	rows = export_to_path(pane, path, EXPORT_TXT, 0, NULL, err, sizeof(err));
	CHECK_EQ(rows, -1);
	CHECK(strstr(err, strerror(ENOSPC)) != NULL);
	CHECK(stat(path, &st) == 0 && S_ISCHR(st.st_mode));
	free(want);
	pane_free(pane);
	profile_release(&p);
}

struct reader {
	int fd;			/* the FIFO, opened before any writer */
	char *got;
	size_t len;
};

/* What comes through the FIFO until its writer closes it; nothing when
 * no writer comes within 20 s. */
static void *read_all(void *arg)
{
	struct reader *r = arg;
	FILE *out = open_memstream(&r->got, &r->len);
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	/* Until a writer opens it, a FIFO polls as neither readable nor
	 * hung up (Linux), and a read would say end of file. */
	if (poll(&pfd, 1, 20000) == 1)
		while ((n = read(r->fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, out);
	fclose(out);
	return NULL;
}

/* A FIFO: its reader gets the whole export, and it stays a FIFO.  The
 * reader opens it first (without waiting for a writer), so that a bug
 * that replaced the FIFO leaves no one blocked in open(). */
static void test_fifo(void)
{
	char path[512], err[512], *want;
	struct reader r = { -1, NULL, 0 };
	struct profile p;
	struct pane *pane;
	struct stat st;
	pthread_t th;
	long rows;

	snprintf(path, sizeof(path), "%s/fifo", test_dir());
	CHECK(mkfifo(path, 0600) == 0);
	r.fd = open(path, O_RDONLY | O_NONBLOCK);
	CHECK(r.fd >= 0);
	CHECK(fcntl(r.fd, F_SETFL, 0) == 0);
	pane = ops_pane(&p, &want);
	pthread_create(&th, NULL, read_all, &r);
	rows = export_to_path(pane, path, EXPORT_TXT, 0, NULL, err, sizeof(err));
	CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
	if (!S_ISFIFO(st.st_mode)) {
		/* Replaced: no writer will come.  One of ours, through the
		 * reader's own descriptor, ends its wait. */
		char fd_path[64];
		int w;

		snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", r.fd);
		w = open(fd_path, O_WRONLY | O_NONBLOCK);
		if (w >= 0)
			close(w);
	}
	pthread_join(th, NULL);
	close(r.fd);
	CHECK(rows == (long)pane->nr_rows);
	CHECK(r.got && !strcmp(r.got, want));
	free(r.got);
	free(want);
	pane_free(pane);
	profile_release(&p);
}

/* The whole of the file PATH (heap), or NULL. */
static char *slurp(const char *path)
{
	char *buf = NULL, chunk[4096];
	size_t len = 0, n;
	FILE *in = fopen(path, "r"), *out = open_memstream(&buf, &len);

	while (in && (n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		fwrite(chunk, 1, n, out);
	fclose(out);
	if (!in) {
		free(buf);
		return NULL;
	}
	fclose(in);
	return buf;
}

/* A regular file is replaced whole, and leaves no temporary file. */
static void test_regular_file(void)
{
	char path[512], err[512], *want, *got;
	struct profile p;
	struct pane *pane;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.txt", test_dir());
	f = fopen(path, "w");
	fputs("old contents, longer than nothing\n", f);
	fclose(f);
	pane = ops_pane(&p, &want);
	CHECK(export_to_path(pane, path, EXPORT_TXT, 0, NULL, err, sizeof(err)) ==
	      (long)pane->nr_rows);
	got = slurp(path);
	CHECK(got && !strcmp(got, want));
	free(got);
	free(want);
	pane_free(pane);
	profile_release(&p);
}

const struct test tests[] = {
	{ "full_device", test_full_device },
	{ "fifo", test_fifo },
	{ "regular_file", test_regular_file },
	{ 0 },
};
