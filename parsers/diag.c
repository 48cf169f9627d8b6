// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../model/escape.h"
#include "../model/profile.h"
#include "../model/strbuf.h"
#include "diag.h"

struct diag_kind {
	const char *text;		/* not copied: callers pass literals */
	uint64_t count;
	uint64_t held;			/* counted while held, not yet in the profile */
	struct diag_kind *next;
};

void diag_init(struct diag *d, const char *path, FILE *out, struct profile *p)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
	d->out = out;
	d->profile = p;
}

/*
 * "PATH:LINE:COL: LEVEL: MSG".  The path and the message quote the file
 * (names, lines, the file's own name), and a name can hold a terminal's
 * escape sequences: every byte of the line goes out through
 * escape_fprintf(), here, where no caller can forget it.
 */
static void report(struct diag *d, const struct pos *at, const char *level, const char *fmt,
		   va_list ap)
{
	if (!d->out)
		return;
	if (at && at->line)
		escape_fprintf(d->out, "%s:%llu:%llu: %s: ", d->path,
			       (unsigned long long)at->line, (unsigned long long)at->col, level);
	else
		escape_fprintf(d->out, "%s: %s: ", d->path, level);
	escape_vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
}

/* Keep the first error's text, escaped, for the Info pane. */
static void keep_first_error(struct diag *d, const struct pos *at, const char *fmt, va_list ap)
{
	struct strbuf b = STRBUF_INIT;
	char msg[1024], where[64] = "";

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (at && at->line)
		snprintf(where, sizeof(where), "%llu:%llu: ", (unsigned long long)at->line,
			 (unsigned long long)at->col);
	strbuf_addstr(&b, where);
	escape_add(&b, msg, strlen(msg));
	d->first_error = b.s ? b.s : xstrdup("");
}

void diag_error(struct diag *d, const struct pos *at, const char *fmt, ...)
{
	va_list ap;

	d->nr_errors++;
	if (!d->first_error) {
		va_start(ap, fmt);
		keep_first_error(d, at, fmt, ap);
		va_end(ap);
	}
	va_start(ap, fmt);
	report(d, at, "error", fmt, ap);
	va_end(ap);
}

void diag_warn(struct diag *d, const struct pos *at, const char *kind,
	       const char *fmt, ...)
{
	struct diag_kind *k;
	va_list ap;

	for (k = d->kinds; k; k = k->next)
		if (k->text == kind || !strcmp(k->text, kind))
			break;
	if (!k) {
		k = xcalloc(1, sizeof(*k));
		k->text = kind;
		k->next = d->kinds;
		d->kinds = k;
	}
	d->nr_warnings++;
	if (d->is_held)
		k->held++;
	else if (d->profile)
		profile_warn(d->profile, kind, 1);
	if (++k->count > DIAG_SHOW_PER_KIND)
		return;
	va_start(ap, fmt);
	report(d, at, "warning", fmt, ap);
	va_end(ap);
}

void diag_hold(struct diag *d)
{
	d->is_held = true;
}

void diag_unhold(struct diag *d)
{
	d->is_held = false;
	for (struct diag_kind *k = d->kinds; k; k = k->next) {
		if (k->held && d->profile)
			profile_warn(d->profile, k->text, k->held);
		k->held = 0;
	}
}

bool diag_would_print(const struct diag *d, const char *kind)
{
	if (!d->out)
		return false;
	for (const struct diag_kind *k = d->kinds; k; k = k->next)
		if (k->text == kind || !strcmp(k->text, kind))
			return k->count < DIAG_SHOW_PER_KIND;
	return true;
}

void diag_finish(struct diag *d)
{
	struct diag_kind *k = d->kinds;

	while (k) {
		struct diag_kind *next = k->next;

		if (k->count > DIAG_SHOW_PER_KIND && d->out) {
			escape_fprintf(d->out, "%s: warning: ... and %llu more like this (%s)", d->path,
				       (unsigned long long)(k->count - DIAG_SHOW_PER_KIND), k->text);
			fputc('\n', d->out);
		}
		free(k);
		k = next;
	}
	d->kinds = NULL;
	free(d->first_error);
	d->first_error = NULL;
}
