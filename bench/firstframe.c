// SPDX-License-Identifier: MIT
/*
 * firstframe: how soon the TUI shows something, on a terminal of its own
 * (a pseudo-terminal, 120x35): milliseconds from the exec to the loading
 * screen's first frame, to the panes (" proftui · " then a pane's title,
 * once the load is done), and from a q typed on the loading screen to
 * the exit.  Figures, not a test: medians of RUNS runs.
 *
 *   firstframe PROFTUI FILE [RUNS]
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdbool.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 50

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The screen so far, with curses' escape sequences left in: the words we
 * wait for are written whole. */
struct screen {
	char *text;
	size_t len, cap;
};

static void screen_read(struct screen *s, int fd)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n <= 0)
		return;
	if (s->len + (size_t)n + 1 > s->cap) {
		s->cap = (s->len + (size_t)n + 1) * 2;
		s->text = realloc(s->text, s->cap);
		if (!s->text) {
			perror("firstframe");
			exit(2);
		}
	}
	memcpy(s->text + s->len, buf, (size_t)n);
	s->len += (size_t)n;
	s->text[s->len] = '\0';
}

/* Whether S, from FROM on, shows a pane: a title " proftui · " that is
 * not the loading screen's (" proftui · loading FILE"). */
static bool shows_pane(const struct screen *s, size_t from)
{
	static const char title[] = " proftui \xc2\xb7 ";
	const char *at = s->len > from ? s->text + from : "";

	while ((at = strstr(at, title))) {
		at += sizeof(title) - 1;
		if (strncmp(at, "loading", 7))
			return true;
	}
	return false;
}

enum want { FIRST_FRAME, PANES, EXIT };

/* Wait up to LIMIT_MS for what WANT says on FD; the ms since T0 it took,
 * or -1. */
static double wait_for(int fd, struct screen *s, enum want want, size_t from, pid_t child,
		       double t0, double limit_ms)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double t = now_ms();

		if (want == FIRST_FRAME && s->len > from && strstr(s->text + from, "loading"))
			return t - t0;
		if (want == PANES && shows_pane(s, from))
			return t - t0;
		if (want == EXIT && waitpid(child, NULL, WNOHANG) == child)
			return t - t0;
		if (t - t0 > limit_ms)
			return -1;
		if (poll(&p, 1, 2) > 0)
			screen_read(s, fd);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n ? v[(n - 1) / 2] : -1;
}

/* One run: the first frame, then either the panes or (QUIT) a q. */
static int run(const char *proftui, const char *file, bool quit, double *first, double *last)
{
	struct winsize ws = { .ws_row = 35, .ws_col = 120 };
	struct screen s = { 0 };
	double t0 = now_ms();
	int fd;
	pid_t child = forkpty(&fd, NULL, NULL, &ws);

	if (child < 0) {
		perror("firstframe: forkpty");
		return -1;
	}
	if (child == 0) {
		setenv("TERM", "xterm-256color", 1);
		execl(proftui, proftui, file, (char *)NULL);
		_exit(127);
	}
	*first = wait_for(fd, &s, FIRST_FRAME, 0, child, t0, 10e3);
	if (quit) {
		double tq = now_ms();

		if (write(fd, "q", 1) != 1)
			return -1;
		*last = wait_for(fd, &s, EXIT, 0, child, tq, 10e3);
	} else {
		*last = wait_for(fd, &s, PANES, 0, child, t0, 600e3);
		if (write(fd, "Q", 1) == 1)
			wait_for(fd, &s, EXIT, 0, child, now_ms(), 10e3);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(fd);
	free(s.text);
	return *first < 0 || *last < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	double first[MAX_RUNS], panes[MAX_RUNS], quit[MAX_RUNS], unused;
	int runs = argc > 3 ? atoi(argv[3]) : 5;

	if (argc < 3 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: firstframe PROFTUI FILE [RUNS <= %d]\n", MAX_RUNS);
		return 2;
	}
	for (int i = 0; i < runs; i++) {
		if (run(argv[1], argv[2], false, &first[i], &panes[i]) ||
		    run(argv[1], argv[2], true, &unused, &quit[i])) {
			fprintf(stderr, "firstframe: run %d of %s did not show what it waits for\n",
				i + 1, argv[2]);
			return 1;
		}
	}
	printf("%-26s first frame %6.1f ms   panes %8.1f ms   q to exit %6.1f ms   (medians of %d)\n",
	       strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2], median(first, runs),
	       median(panes, runs), median(quit, runs), runs);
	return 0;
}
