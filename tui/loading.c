// SPDX-License-Identifier: MIT
/*
 * The load on a thread of its own, and what the user sees meanwhile.
 *
 * Threads: the load's own (and the reading threads it starts) call the
 * progress callback and write messages; the main thread draws and reads
 * keys.  They share only the progress counters (atomics) and the message
 * buffer (a mutex); curses is the main thread's alone.
 */
#define _GNU_SOURCE		/* fopencookie() */
#include <curses.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <term.h>		/* setupterm(): after the rest, it defines names */
#include <unistd.h>

#include "../model/escape.h"
#include "../model/strbuf.h"
#include "../model/util.h"
#include "../view/format.h"
#include "keymap.h"
#include "loading.h"
#include "ui.h"

/*
 * Where the load's messages go: a stream whose writes land in a buffer
 * (the screen is up) or on stderr (batch), under a lock, since the
 * load's threads may write at once.
 */
struct sink {
	pthread_mutex_t lock;
	struct strbuf kept;		/* interactive: everything written */
	bool to_stderr;
	/* Batch: the progress bar, which a message clears first. */
	bool bar_shown;
	int last_pct;
	struct timespec start;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct sink *s = cookie;

	pthread_mutex_lock(&s->lock);
	if (s->to_stderr) {
		if (s->bar_shown) {
			/* The message starts a line of its own; the bar
			 * comes back with the next progress. */
			fputs("\r\033[K", stderr);
			s->bar_shown = false;
			s->last_pct = -1;
		}
		fwrite(buf, 1, size, stderr);
		fflush(stderr);
	} else {
		strbuf_add(&s->kept, buf, size);
	}
	pthread_mutex_unlock(&s->lock);
	return (ssize_t)size;
}

static FILE *sink_open(struct sink *s)
{
	cookie_io_functions_t io = { .write = sink_write };
	FILE *f = fopencookie(s, "w", io);

	if (f)
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---------------------------------------------------------------------
 * Interactive: a thread loads, the main thread draws
 */

struct job {
	loading_fn *load;
	void *ctx;
	struct load_options lo;
	int rc;
	atomic_uint_fast64_t done, total, plain;
	atomic_bool finished;
};

static void on_progress(void *ctx, const struct load_progress *lp)
{
	struct job *j = ctx;

	atomic_store(&j->done, lp->done);
	atomic_store(&j->total, lp->total);
	atomic_store(&j->plain, lp->plain);
}

static void *run_job(void *arg)
{
	struct job *j = arg;

	j->rc = j->load(j->ctx, &j->lo);
	fflush(j->lo.err);
	atomic_store(&j->finished, true);
	return NULL;
}

/* The first line of what the load wrote, into BUF; NULL when none. */
static const char *first_message(struct sink *s, char *buf, size_t size)
{
	const char *r = NULL;

	pthread_mutex_lock(&s->lock);
	if (s->kept.len) {
		size_t n = strcspn(s->kept.s, "\n");

		snprintf(buf, size, "%.*s", (int)n, s->kept.s);
		r = buf;
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

int loading_run(loading_fn *load, void *ctx, const struct load_options *lo, const char *label,
		char **messages)
{
	struct sink sink = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct job *j = xcalloc(1, sizeof(*j));
	struct progress_view pv = { .label = label };
	struct timespec start;
	pthread_t thread;
	char first[512];
	/* Keys typed ahead during the load (other than q): given back to
	 * curses after it, so "proftui x.json" then "2" shows Operators. */
	struct {
		wint_t ch;
		bool is_key;
	} ahead[64];
	size_t nr_ahead = 0;
	int rc;

	*messages = NULL;
	if (ui_term_start()) {
		const char *term = getenv("TERM");
		size_t n = 64 + (term ? strlen(term) : 0);

		*messages = xmalloc(n);
		snprintf(*messages, n, "proftui: cannot use this terminal (TERM=%s)\n",
			 term ? term : "");
		free(j);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	j->load = load;
	j->ctx = ctx;
	j->lo = *lo;
	j->lo.progress = on_progress;
	j->lo.progress_ctx = j;
	j->lo.err = sink_open(&sink);
	if (!j->lo.err)
		die("cannot keep the load's messages");
	if (pthread_create(&thread, NULL, run_job, j))
		die("cannot start the loading thread");
	timeout(50);
	while (!atomic_load(&j->finished)) {
		wint_t ch;
		int r;

		pv.done = atomic_load(&j->done);
		pv.total = atomic_load(&j->total);
		pv.plain = atomic_load(&j->plain);
		pv.elapsed_s = seconds_since(&start);
		pv.message = first_message(&sink, first, sizeof(first));
		ui_draw_progress(&pv);
		r = get_wch(&ch);
		if (r == OK && (ch == 'q' || ch == 'Q' || ch == 27)) {
			/* At once: the load is not waited for. */
			ui_term_end();
			_exit(0);
		}
		if ((r == OK || r == KEY_CODE_YES) && ch != KEY_RESIZE && ch != KEY_MOUSE &&
		    nr_ahead < ARRAY_SIZE(ahead)) {
			ahead[nr_ahead].ch = ch;
			ahead[nr_ahead++].is_key = r == KEY_CODE_YES;
		}
	}
	timeout(-1);
	/* curses gives back the last key pushed first. */
	while (nr_ahead--) {
		if (ahead[nr_ahead].is_key)
			ungetch((int)ahead[nr_ahead].ch);
		else
			unget_wch((wchar_t)ahead[nr_ahead].ch);
	}
	pthread_join(thread, NULL);
	fclose(j->lo.err);
	rc = j->rc;
	pv.is_done = true;
	pv.done = pv.total = atomic_load(&j->total);
	pv.message = first_message(&sink, first, sizeof(first));
	ui_draw_progress(&pv);
	if (sink.kept.len)
		*messages = xstrdup(sink.kept.s);
	strbuf_release(&sink.kept);
	pthread_mutex_destroy(&sink.lock);
	free(j);
	return rc;
}

/* ---------------------------------------------------------------------
 * Batch: a bar on stderr
 */

static void show_bar(void *ctx, const struct load_progress *lp)
{
	struct sink *s = ctx;
	int pct, fill;
	char bar[31], text[200];

	pthread_mutex_lock(&s->lock);
	if (!lp->total || (!s->bar_shown && seconds_since(&s->start) < 0.5))
		goto out;
	pct = (int)(lp->done * 100 / lp->total);
	if (pct > 100)
		pct = 100;
	if (s->bar_shown && pct == s->last_pct)
		goto out;
	s->bar_shown = true;
	s->last_pct = pct;
	fill = pct * 30 / 100;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, ' ', (size_t)(30 - fill));
	bar[30] = '\0';
	fmt_progress(lp->done, lp->total, lp->plain, seconds_since(&s->start), text, sizeof(text));
	/* The line is cleared to its end: the time left may get shorter. */
	fprintf(stderr, "\rloading [%s] %s\033[K", bar, text);
	fflush(stderr);
out:
	pthread_mutex_unlock(&s->lock);
}

int loading_batch(loading_fn *load, void *ctx, const struct load_options *lo)
{
	struct sink sink = { .lock = PTHREAD_MUTEX_INITIALIZER, .to_stderr = true, .last_pct = -1 };
	struct load_options o = *lo;
	int rc;

	if (!isatty(STDERR_FILENO))
		return load(ctx, lo);
	clock_gettime(CLOCK_MONOTONIC, &sink.start);
	o.progress = show_bar;
	o.progress_ctx = &sink;
	o.err = lo->err ? sink_open(&sink) : NULL;
	rc = load(ctx, &o);
	if (o.err)
		fclose(o.err);
	if (sink.bar_shown)
		fputs("\r\033[K", stderr);
	pthread_mutex_destroy(&sink.lock);
	return rc;
}

bool loading_term_usable(void)
{
	const char *term = getenv("TERM");
	TERMINAL *saved = cur_term;
	bool ok = false;
	int err;

	if (!term || !*term || !strcmp(term, "dumb"))
		return false;
	/* A terminal curses could start but not draw on (no cursor
	 * addressing) is no place for the panes either. */
	if (setupterm(NULL, STDOUT_FILENO, &err) == OK) {
		char *cup = tigetstr("cup");

		ok = cup && cup != (char *)-1;
		del_curterm(cur_term);
	} else if (err == 0) {
		/* Asked for the panes, the user would see a table and not
		 * know why: a static build on a distribution that keeps its
		 * terminfo elsewhere, a terminal new to this machine. */
		escape_fprintf(stderr, "proftui: TERM=%s: no terminfo entry found (TERMINFO_DIRS can "
			       "name the directory that has it: proftui(1)); printing the pane", term);
		fputc('\n', stderr);
	}
	set_curterm(saved);
	return ok;
}
