// SPDX-License-Identifier: MIT
/*
 * The Info pane: what the profile is (file, format, runs), its devices in
 * a line each with units (the raw properties folded under them, Enter
 * shows them), which rank of a distributed job it is, its metadata lines
 * as the parser recorded them (versions, options, the file's own
 * recommendations) and the parse's warnings with their counts.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/profset.h"
#include "../model/strbuf.h"
#include "../model/util.h"
#include "pane.h"


struct info_row {
	const char *section, *key, *value;
	bool is_raw;		/* a device's raw property: folded */
	bool is_fold;		/* the line that folds them */
	size_t run;		/* a run of the list: its number (1...); 0 */
};

struct info_priv {
	struct info_row *rows;
	size_t nr, alloc;
	char **owned;		/* values formatted here */
	size_t nr_owned, alloc_owned;
	bool show_raw;		/* the raw device properties are unfolded */
	bool is_printed;	/* --print: everything, nothing folded */
	size_t nr_raw;
};

#define INFO(r) ((const struct info_row *)(r))

static struct info_row *info_add(struct info_priv *ip, const char *section, const char *key,
				 const char *value)
{
	GROW(ip->rows, ip->alloc, ip->nr + 1);
	memset(&ip->rows[ip->nr], 0, sizeof(ip->rows[0]));
	ip->rows[ip->nr].section = section;
	ip->rows[ip->nr].key = key;
	ip->rows[ip->nr].value = value;
	return &ip->rows[ip->nr++];
}

static const char *info_fmt(struct info_priv *ip, const char *fmt, ...) PRINTF_LIKE(2, 3);

static const char *info_fmt(struct info_priv *ip, const char *fmt, ...)
{
	va_list ap;

	GROW(ip->owned, ip->alloc_owned, ip->nr_owned + 1);
	va_start(ap, fmt);
	ip->owned[ip->nr_owned] = xstrvfmt(fmt, ap);
	va_end(ap);
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
	.key = "value", .title = "Value", .kind = COL_TEXT, .get = get_value, .wrap = true,
	.help = "as the profile gives it, or as proftui counted it",
};

/* "device 0": the raw deviceProperties of a trace, as the parser kept
 * them. */
static bool is_device_section(const char *section)
{
	return !strncmp(section, "device ", 7) && section[7] >= '0' && section[7] <= '9';
}

/* The value of KEY in the meta section SECTION, or NULL. */
static const char *meta_of(const struct profile *p, const char *section, const char *key)
{
	for (const struct meta *m = p->meta; m; m = m->next)
		if (!strcmp(m->section, section) && !strcmp(m->key, key))
			return m->value;
	return NULL;
}

static int64_t meta_int(const struct profile *p, const char *section, const char *key)
{
	const char *v = meta_of(p, section, key);
	char *end;
	long long n;

	if (!v)
		return -1;
	n = strtoll(v, &end, 10);
	return *end || n < 0 ? -1 : n;
}

/* A metadata value of bytes ("GPU0 peak_allocated_bytes": "101305344")
 * as the file gives it, then in the units every byte cell has
 * ("101305344 (96.61 MiB)"): the file's number stays, in every format,
 * and reads at a glance.  Any other value as it is. */
static const char *bytes_value(struct info_priv *ip, const char *key, const char *value)
{
	size_t n = strlen(key);
	char *end, buf[64];
	long long v;

	if (n < 6 || strcmp(key + n - 6, "_bytes") || !*value || *value == '-')
		return value;
	errno = 0;
	v = strtoll(value, &end, 10);
	if (*end || errno)
		return value;
	fmt_cell(COL_BYTES, cell_int(v), FMT_HUMAN, buf, sizeof(buf));
	return info_fmt(ip, "%s (%s)", value, buf);
}

/* The Section column as wide as its longest name ("events not used"),
 * 14 cells at least and 24 at most: a file's own section names are text. */
static int section_width(const struct info_priv *ip)
{
	size_t w = 14;

	for (size_t i = 0; i < ip->nr; i++) {
		size_t k = u8_width(ip->rows[i].section, strlen(ip->rows[i].section));

		if (k > w)
			w = k;
	}
	return w > 24 ? 24 : (int)w;
}

/* One line for a device: "NAME, 79.18 GiB, compute 8.0, 108 SMs". */
static const char *device_line(struct info_priv *ip, const char *name, int64_t mem, int cc_major,
			       int cc_minor, int sms)
{
	char buf[512], bytes[64];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", name ? name : "?");

	if (mem >= 0) {
		fmt_cell(COL_BYTES, cell_int(mem), FMT_HUMAN, bytes, sizeof(bytes));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s", bytes);
	}
	if (cc_major >= 0 && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", compute %d.%d", cc_major,
				      cc_minor >= 0 ? cc_minor : 0);
	if (sms >= 0 && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ", %d SMs", sms);
	return info_fmt(ip, "%s", buf);
}

static const char *fold_text(struct info_priv *ip)
{
	if (ip->is_printed)
		return info_fmt(ip, "%zu, as the file gives them", ip->nr_raw);
	return info_fmt(ip, "%zu, as the file gives them (Enter %s them)", ip->nr_raw,
			ip->show_raw ? "hides" : "shows");
}

/*
 * The devices, a line each with units; their raw properties (bytes as
 * the file counts them) after, folded until Enter on the fold line.
 */
static void add_devices(struct info_priv *ip, const struct profile *p)
{
	const char *last = NULL;

	for (size_t i = 0; i < p->nr_devices; i++) {
		const struct device_info *d = &p->devices[i];

		info_add(ip, info_fmt(ip, "device %d", d->id), "summary",
			 device_line(ip, d->name, d->total_memory_bytes, d->cc_major, d->cc_minor,
				     d->num_sms));
	}
	/* Without the model's devices, the same from the raw lines. */
	for (const struct meta *m = p->meta; m && !p->nr_devices; m = m->next) {
		if (!is_device_section(m->section) || (last && !strcmp(last, m->section)))
			continue;
		last = m->section;
		info_add(ip, m->section, "summary",
			 device_line(ip, meta_of(p, m->section, "name"),
				     meta_int(p, m->section, "totalGlobalMem"),
				     (int)meta_int(p, m->section, "computeMajor"),
				     (int)meta_int(p, m->section, "computeMinor"),
				     (int)meta_int(p, m->section, "numSms")));
	}
	for (const struct meta *m = p->meta; m; m = m->next)
		if (is_device_section(m->section))
			ip->nr_raw++;
	if (!ip->nr_raw)
		return;
	info_add(ip, "devices", "raw properties", fold_text(ip))->is_fold = true;
	for (const struct meta *m = p->meta; m; m = m->next)
		if (is_device_section(m->section))
			info_add(ip, m->section, m->key, m->value)->is_raw = true;
}

/* Which rank of a distributed job the trace is, when the model says and
 * the parser's own lines do not. */
static void add_dist(struct info_priv *ip, const struct profile *p)
{
	if (!p->dist.present)
		return;
	for (const struct meta *m = p->meta; m; m = m->next)
		if (!strcmp(m->section, "distributed"))
			return;
	if (p->dist.rank >= 0)
		info_add(ip, "distributed", "rank", info_fmt(ip, "%d", p->dist.rank));
	if (p->dist.world_size >= 0)
		info_add(ip, "distributed", "world size", info_fmt(ip, "%d", p->dist.world_size));
	if (p->dist.backend)
		info_add(ip, "distributed", "backend", p->dist.backend);
}

/*
 * Whether the profile has device time: in its ops and kernels, or only in
 * its steps' device parts (a parser's "step parts" lines say which side
 * each part is, "device: ..." or "host: ...": load_and_run's device=,
 * trtexec's H2D, Compute and D2H), or none.
 */
static const char *device_time_text(struct info_priv *ip, const struct profile *p)
{
	struct strbuf parts = STRBUF_INIT;
	const char *text;

	if (p->has_device_time)
		return "yes";
	for (const struct meta *m = p->meta; m; m = m->next) {
		if (strcmp(m->section, "step parts") || strncmp(m->value, "device:", 7))
			continue;
		strbuf_addstr(&parts, parts.len ? ", " : "");
		strbuf_addstr(&parts, m->key);
	}
	if (!parts.len)
		return "none (host-only profile)";
	text = info_fmt(ip, "in the steps only (%s); no op or kernel has device time", parts.s);
	strbuf_release(&parts);
	return text;
}

static void info_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	const struct profile *first = pane->scope.first_run ? pane->scope.first_run : p;
	struct info_priv *ip = xcalloc(1, sizeof(*ip));
	size_t nr_runs = profile_nr_runs(first), i = 1;

	pane->priv = ip;
	ip->show_raw = ip->is_printed = pane->scope.expand_all;
	info_add(ip, "profile", "file", p->path);
	info_add(ip, "profile", "format", p->format ? p->format : "?");
	if (p->run_title)
		info_add(ip, "profile", "title", p->run_title);
	if (p->run_where)
		info_add(ip, "profile", "starts at", p->run_where);
	info_add(ip, "profile", "nodes", info_fmt(ip, "%u", p->nr_nodes));
	info_add(ip, "profile", "steps", info_fmt(ip, "%zu", p->nr_steps));
	info_add(ip, "profile", "device time", device_time_text(ip, p));
	if (nr_runs > 1) {
		for (const struct profile *r = first; r; r = r->next_run, i++)
			info_add(ip, "runs", info_fmt(ip, "run %zu%s", i, r == p ? " (shown)" : ""),
				 info_fmt(ip, "%s%s%s", r->run_where ? r->run_where : r->path,
					  r->run_title ? "  " : "", r->run_title ? r->run_title : ""))
				->run = i;
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
	add_devices(ip, p);
	add_dist(ip, p);
	for (const struct meta *m = p->meta; m; m = m->next)
		if (!is_device_section(m->section))
			info_add(ip, m->section, m->key, bytes_value(ip, m->key, m->value));
	for (const struct warning *w = p->warnings; w; w = w->next)
		info_add(ip, "warnings", w->text, info_fmt(ip, "%llu", (unsigned long long)w->count));

	pane->rows = xmalloc((ip->nr ? ip->nr : 1) * sizeof(*pane->rows));
	for (i = 0; i < ip->nr; i++)
		pane->rows[i] = &ip->rows[i];
	pane->nr_rows = ip->nr;
	i = pane_add_column(pane, &col_section);
	pane->cols[i].width = section_width(ip);
	pane_add_column(pane, &col_key);
	pane_add_column(pane, &col_value);
	pane->sort_col = -1;
}

/* The raw device properties stay out of the view while folded. */
static void info_rebuild(struct pane *pane)
{
	const struct info_priv *ip = pane->priv;
	size_t n = 0;

	pane_view_flat(pane);
	for (size_t i = 0; i < pane->nr_view; i++)
		if (ip->show_raw || !INFO(pane_row(pane, i))->is_raw)
			pane->view[n++] = pane->view[i];
	pane->nr_view = n;
}

/* Enter on the fold line shows or hides the raw properties; on a run of
 * the list of runs, shows that run (a log dir's, a file's). */
static bool info_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	struct info_priv *ip = pane->priv;
	const struct info_row *row = pane_row(pane, pane->cursor);

	if (act != ACT_DRILL && act != ACT_TOGGLE_FOLD && act != ACT_UNFOLD)
		return false;
	if (row && row->run && act == ACT_DRILL && !ip->is_printed) {
		req->open_run = true;
		req->run = row->run - 1;
		return true;
	}
	if (!row || !row->is_fold)
		return false;
	ip->show_raw = !ip->show_raw;
	for (size_t i = 0; i < ip->nr; i++)
		if (ip->rows[i].is_fold)
			ip->rows[i].value = fold_text(ip);
	pane_rebuild(pane);
	return true;
}

static const enum action info_hints[] = {
	ACT_HELP, ACT_FILTER, ACT_INSPECT, ACT_EXPORT, ACT_BACK, ACT_NONE,
};

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

/* The actions handle() takes. */
static const enum action info_actions[] = {
	ACT_DRILL, ACT_TOGGLE_FOLD, ACT_UNFOLD, ACT_NONE,
};

static const struct pane_text_ops info_text = { .hints = info_hints };

const struct pane_ops info_pane_ops = {
	.id = PANE_INFO,
	.load = info_load, .rebuild = info_rebuild, .row_name = info_key,
	.handle = info_handle, .actions = info_actions, .release = info_release, .text = &info_text,
};
