// SPDX-License-Identifier: MIT
/*
 * The Info pane: what the profile is (file, format, runs), its metadata
 * lines as the parser recorded them (device, versions, options, the
 * file's own recommendations) and the parse's warnings with their counts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/profset.h"
#include "../model/util.h"
#include "pane.h"


struct info_row {
	const char *section, *key, *value;
};

struct info_priv {
	struct info_row *rows;
	size_t nr, alloc;
	char **owned;		/* values formatted here */
	size_t nr_owned, alloc_owned;
};

#define INFO(r) ((const struct info_row *)(r))

static void info_add(struct info_priv *ip, const char *section, const char *key, const char *value)
{
	GROW(ip->rows, ip->alloc, ip->nr + 1);
	ip->rows[ip->nr].section = section;
	ip->rows[ip->nr].key = key;
	ip->rows[ip->nr].value = value;
	ip->nr++;
}

static const char *info_fmt(struct info_priv *ip, const char *fmt, ...) PRINTF_LIKE(2, 3);

static const char *info_fmt(struct info_priv *ip, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	GROW(ip->owned, ip->alloc_owned, ip->nr_owned + 1);
	ip->owned[ip->nr_owned] = xstrdup(buf);
	return ip->owned[ip->nr_owned++];
}

static const char *info_key(const struct pane *pane, const void *row)
{
	(void)pane;
	return INFO(row)->key;
}

static struct cell get_section(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(INFO(row)->section);
}

static struct cell get_value(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(INFO(row)->value);
}

static struct cell get_key(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(INFO(row)->key);
}

static const struct column col_section = {
	.key = "section", .title = "Section", .kind = COL_TEXT, .width = 14, .get = get_section,
	.help = "where the line comes from",
};
static const struct column col_key = {
	.key = "key", .title = "Key", .kind = COL_NAME, .get = get_key,
	.help = "what the value is",
};
static const struct column col_value = {
	.key = "value", .title = "Value", .kind = COL_TEXT, .get = get_value,
	.help = "as the profile gives it, or as proftui counted it",
};

static void info_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	const struct profile *first = pane->scope.first_run ? pane->scope.first_run : p;
	struct info_priv *ip = xcalloc(1, sizeof(*ip));
	size_t nr_runs = profile_nr_runs(first), i = 1;

	pane->priv = ip;
	info_add(ip, "profile", "file", p->path);
	info_add(ip, "profile", "format", p->format ? p->format : "?");
	if (p->run_title)
		info_add(ip, "profile", "title", p->run_title);
	if (p->run_where)
		info_add(ip, "profile", "starts at", p->run_where);
	info_add(ip, "profile", "nodes", info_fmt(ip, "%u", p->nr_nodes));
	info_add(ip, "profile", "steps", info_fmt(ip, "%zu", p->nr_steps));
	info_add(ip, "profile", "device time",
		 p->has_device_time ? "yes" : "none (host-only profile)");
	if (nr_runs > 1) {
		for (const struct profile *r = first; r; r = r->next_run, i++)
			info_add(ip, "runs", info_fmt(ip, "run %zu%s", i, r == p ? " (shown)" : ""),
				 info_fmt(ip, "%s%s%s", r->run_where ? r->run_where : r->path,
					  r->run_title ? "  " : "", r->run_title ? r->run_title : ""));
	}
	if (pane->scope.set) {
		/* How the files were related, and why (issue 12). */
		const struct profset *set = pane->scope.set;

		info_add(ip, "files", "opened as", set->why ? set->why : "?");
		for (size_t k = 0; k < set->nr; k++) {
			const struct profset_member *m = &set->members[k];
			const char *role = set->kind == PROFSET_DIFF ? (k ? "new" : "base") : "rank";

			info_add(ip, "files",
				 set->kind == PROFSET_RANKS && m->rank >= 0
					 ? info_fmt(ip, "rank %d%s", (int)m->rank,
						    first == m->prof ? " (shown)" : "")
					 : info_fmt(ip, "%s%s", role, first == m->prof ? " (shown)" : ""),
				 info_fmt(ip, "%s%s%s", m->label, strcmp(m->label, m->files) ? ": " : "",
					  strcmp(m->label, m->files) ? m->files : ""));
		}
	}
	for (const struct meta *m = p->meta; m; m = m->next)
		info_add(ip, m->section, m->key, m->value);
	for (const struct warning *w = p->warnings; w; w = w->next)
		info_add(ip, "warnings", w->text, info_fmt(ip, "%llu", (unsigned long long)w->count));

	pane->rows = xmalloc((ip->nr ? ip->nr : 1) * sizeof(*pane->rows));
	for (i = 0; i < ip->nr; i++)
		pane->rows[i] = &ip->rows[i];
	pane->nr_rows = ip->nr;
	pane_add_column(pane, &col_section);
	pane_add_column(pane, &col_key);
	pane_add_column(pane, &col_value);
	pane->sort_col = -1;
}

static void info_release(struct pane *pane)
{
	struct info_priv *ip = pane->priv;

	if (!ip)
		return;
	for (size_t i = 0; i < ip->nr_owned; i++)
		free(ip->owned[i]);
	free(ip->owned);
	free(ip->rows);
	free(ip);
}

const struct pane_ops info_pane_ops = {
	.id = PANE_INFO,
	.load = info_load, .row_name = info_key, .release = info_release,
};
