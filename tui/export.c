// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/strbuf.h"
#include "../model/util.h"
#include "export.h"

static const char *const format_names[] = { "txt", "csv", "tsv", "json", "md" };

bool export_format_parse(const char *name, enum export_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (!strcasecmp(name, format_names[i])) {
			*out = (enum export_format)i;
			return true;
		}
	}
	if (!strcasecmp(name, "text")) {
		*out = EXPORT_TXT;
		return true;
	}
	if (!strcasecmp(name, "markdown")) {
		*out = EXPORT_MD;
		return true;
	}
	return false;
}

enum export_format export_format_of_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash : path, '.');
	enum export_format f;

	if (dot && export_format_parse(dot + 1, &f))
		return f;
	return EXPORT_TXT;
}

const char *export_format_name(enum export_format f)
{
	return format_names[f];
}

void export_caption(const struct pane *pane, const char *label, size_t limit, char *buf,
		    size_t size)
{
	size_t n = 0;

#define ADD(...)                                                           \
	do {                                                               \
		if (n < size)                                              \
			n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__); \
	} while (0)
	ADD("%s of %s", pane->title, label);
	if (pane->sort_col >= 0)
		ADD(", sorted by %s (%s)", pane->cols[pane->sort_col].title,
		    pane->sort_desc ? "descending" : "ascending");
	if (pane->filter)
		ADD(", filter '%s'", filter_pattern(pane->filter));
	if (pane->scope.step)
		ADD(", step %s", pane->scope.step->name);
	if (limit && limit < pane->nr_view)
		ADD(": the first %zu of %zu rows (of %zu)", limit, pane->nr_view, pane->nr_rows);
	else
		ADD(": %zu of %zu rows", pane->nr_view, pane->nr_rows);
#undef ADD
}

/* The cell's text, escaped for a reader (controls as \xNN). */
static const char *cell_str(const struct pane *pane, const void *row, size_t col, enum fmt_style st,
			    struct strbuf *raw, struct strbuf *esc)
{
	struct cell v = pane_cell(pane, row, col);
	size_t len;

	/* Names can be megabytes long: the buffers grow to them. */
	if (v.type == CELL_TEXT) {
		len = strlen(v.v.s);
		if (!fmt_needs_escape(v.v.s, len))
			return v.v.s;
		strbuf_reset(esc);
		strbuf_grow(esc, 4 * len);
		esc->len = fmt_escape(v.v.s, len, false, esc->s, esc->cap);
		return esc->s;
	}
	strbuf_reset(raw);
	strbuf_grow(raw, 64);
	raw->len = fmt_cell(pane->cols[col].kind, v, st, raw->s, raw->cap);
	return raw->s;
}

static bool exported(const struct column *c)
{
	return c->kind != COL_BAR;
}

static bool left_aligned(const struct column *c)
{
	return c->kind == COL_NAME || c->kind == COL_TEXT;
}

/* The tree's indentation and fold mark before a name, for text forms. */
static size_t tree_prefix(const struct pane *pane, size_t i, char *buf, size_t size)
{
	int depth = pane->ops->row_depth ? pane->ops->row_depth(pane, i) : 0;
	int fold = pane->ops->row_fold ? pane->ops->row_fold(pane, i) : 0;
	size_t n = 0;

	if (!pane->ops->row_depth)
		return 0;
	for (int d = 0; d < depth && n + 3 < size; d++) {
		buf[n++] = ' ';
		buf[n++] = ' ';
	}
	if (n + 3 < size) {
		buf[n++] = fold == 2 ? '+' : fold == 1 ? '-' : ' ';
		buf[n++] = ' ';
	}
	buf[n] = '\0';
	return n;
}

static void put_padded(FILE *out, const char *s, size_t width, bool left, bool last)
{
	size_t w = u8_width(s, strlen(s));

	if (!left)
		for (size_t i = w; i < width; i++)
			fputc(' ', out);
	fputs(s, out);
	if (left && !last)
		for (size_t i = w; i < width; i++)
			fputc(' ', out);
}

/* Rows to write: view rows 0..nr-1, then (FOOT) the summary rows. */
static const void *nth_row(const struct pane *pane, size_t i, size_t nr)
{
	return i < nr ? pane_row(pane, i) : pane->foot[i - nr];
}

static long export_txt(const struct pane *pane, FILE *out, size_t nr, const char *caption, bool md)
{
	size_t nr_cols = pane->nr_cols, total = nr + pane->nr_foot;
	size_t *width = xcalloc(nr_cols, sizeof(*width));
	struct strbuf raw = STRBUF_INIT, esc = STRBUF_INIT;
	char prefix[512];
	size_t last = 0;

	for (size_t c = 0; c < nr_cols; c++)
		if (exported(&pane->cols[c]))
			last = c;
	for (size_t c = 0; c < nr_cols; c++)
		width[c] = u8_width(pane->cols[c].title, strlen(pane->cols[c].title));
	if (!md) {
		for (size_t i = 0; i < total; i++) {
			const void *row = nth_row(pane, i, nr);
			size_t pre = i < nr ? tree_prefix(pane, i, prefix, sizeof(prefix)) : 0;

			for (size_t c = 0; c < nr_cols; c++) {
				const char *s;
				size_t w;

				if (!exported(&pane->cols[c]))
					continue;
				s = cell_str(pane, row, c, FMT_HUMAN, &raw, &esc);
				w = u8_width(s, strlen(s)) + (pane->cols[c].kind == COL_NAME ? pre : 0);
				if (w > width[c])
					width[c] = w;
			}
		}
	}
	if (caption)
		fprintf(out, md ? "%s\n\n" : "# %s\n", caption);
	/* Header and rule. */
	for (size_t c = 0; c < nr_cols; c++) {
		const struct column *col = &pane->cols[c];

		if (!exported(col))
			continue;
		if (md) {
			fprintf(out, "| %s ", col->title);
		} else {
			put_padded(out, col->title, width[c], left_aligned(col), c == last);
			if (c != last)
				fputs("  ", out);
		}
	}
	fputs(md ? "|\n" : "\n", out);
	for (size_t c = 0; c < nr_cols; c++) {
		if (!exported(&pane->cols[c]))
			continue;
		if (md) {
			fputs(left_aligned(&pane->cols[c]) ? "|---" : "|--:", out);
		} else {
			for (size_t k = 0; k < width[c]; k++)
				fputc('-', out);
			if (c != last)
				fputs("  ", out);
		}
	}
	fputs(md ? "|\n" : "\n", out);
	for (size_t i = 0; i < total; i++) {
		const void *row = nth_row(pane, i, nr);
		size_t pre = i < nr ? tree_prefix(pane, i, prefix, sizeof(prefix)) : 0;

		if (i == nr && !md) {
			/* The summary rows under a rule of their own. */
			for (size_t c = 0; c < nr_cols; c++) {
				if (!exported(&pane->cols[c]))
					continue;
				for (size_t k = 0; k < width[c]; k++)
					fputc('-', out);
				if (c != last)
					fputs("  ", out);
			}
			fputc('\n', out);
		}
		for (size_t c = 0; c < nr_cols; c++) {
			const struct column *col = &pane->cols[c];
			const char *s;

			if (!exported(col))
				continue;
			s = cell_str(pane, row, c, FMT_HUMAN, &raw, &esc);
			if (md) {
				fputs("| ", out);
				if (col->kind == COL_NAME && pre)
					fputs(prefix, out);
				for (; *s; s++) {
					if (*s == '|')
						fputc('\\', out);
					fputc(*s, out);
				}
				fputc(' ', out);
				continue;
			}
			if (col->kind == COL_NAME && pre) {
				char *both = xmalloc(pre + strlen(s) + 1);

				memcpy(both, prefix, pre);
				strcpy(both + pre, s);
				put_padded(out, both, width[c], true, c == last);
				free(both);
			} else {
				put_padded(out, s, width[c], left_aligned(col), c == last);
			}
			if (c != last)
				fputs("  ", out);
		}
		fputs(md ? "|\n" : "\n", out);
	}
	free(width);
	strbuf_release(&raw);
	strbuf_release(&esc);
	return (long)nr;
}

static void csv_field(FILE *out, const char *s, bool tsv)
{
	if (tsv) {
		/* Tabs and newlines arrive escaped already (\x09). */
		fputs(s, out);
		return;
	}
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* One CSV/TSV line: the header (ROW is NULL) or view row I. */
static void csv_line(const struct pane *pane, FILE *out, const void *row, size_t i, bool tsv,
		     struct strbuf *raw, struct strbuf *esc)
{
	char key[128];
	bool first = true;

	if (pane->ops->row_depth) {
		if (row)
			fprintf(out, "%d", pane->ops->row_depth(pane, i));
		else
			fputs("depth", out);
		first = false;
	}
	for (size_t c = 0; c < pane->nr_cols; c++) {
		if (!exported(&pane->cols[c]))
			continue;
		if (!first)
			fputc(tsv ? '\t' : ',', out);
		first = false;
		csv_field(out, row ? cell_str(pane, row, c, FMT_RAW, raw, esc)
				   : column_json_key(&pane->cols[c], key, sizeof(key)), tsv);
	}
	fputc('\n', out);
}

static long export_csv(const struct pane *pane, FILE *out, size_t nr, bool tsv)
{
	struct strbuf raw = STRBUF_INIT, esc = STRBUF_INIT;

	csv_line(pane, out, NULL, 0, tsv, &raw, &esc);
	for (size_t i = 0; i < nr; i++)
		csv_line(pane, out, pane_row(pane, i), i, tsv, &raw, &esc);
	strbuf_release(&raw);
	strbuf_release(&esc);
	return (long)nr;
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);	/* escaped before; kept safe */
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static long export_json(const struct pane *pane, FILE *out, size_t nr)
{
	struct strbuf raw = STRBUF_INIT, esc = STRBUF_INIT;
	char key[128];

	fputs("[", out);
	for (size_t i = 0; i < nr; i++) {
		const void *row = pane_row(pane, i);
		bool first = true;

		fputs(i ? ",\n  {" : "\n  {", out);
		if (pane->ops->row_depth) {
			fprintf(out, "\"depth\": %d", pane->ops->row_depth(pane, i));
			first = false;
		}
		for (size_t c = 0; c < pane->nr_cols; c++) {
			const struct column *col = &pane->cols[c];
			struct cell v;

			if (!exported(col))
				continue;
			if (!first)
				fputs(", ", out);
			first = false;
			json_string(out, column_json_key(col, key, sizeof(key)));
			fputs(": ", out);
			v = pane_cell(pane, row, c);
			if (v.type == CELL_NONE)
				fputs("null", out);
			else if (v.type == CELL_TEXT)
				json_string(out, cell_str(pane, row, c, FMT_RAW, &raw, &esc));
			else
				fputs(cell_str(pane, row, c, FMT_RAW, &raw, &esc), out);
		}
		fputs("}", out);
	}
	fputs(nr ? "\n]\n" : "]\n", out);
	strbuf_release(&raw);
	strbuf_release(&esc);
	return (long)nr;
}

long export_pane(const struct pane *pane, FILE *out, enum export_format fmt, size_t limit,
		 const char *caption)
{
	size_t nr = limit && limit < pane->nr_view ? limit : pane->nr_view;
	long rows = -1;

	switch (fmt) {
	case EXPORT_TXT:
		rows = export_txt(pane, out, nr, caption, false);
		break;
	case EXPORT_MD:
		rows = export_txt(pane, out, nr, caption, true);
		break;
	case EXPORT_CSV:
		rows = export_csv(pane, out, nr, false);
		break;
	case EXPORT_TSV:
		rows = export_csv(pane, out, nr, true);
		break;
	case EXPORT_JSON:
		rows = pane->ops->export_json ? pane->ops->export_json(pane, out, nr)
					      : export_json(pane, out, nr);
		break;
	}
	if (fflush(out) || ferror(out))
		return -1;
	return rows;
}

long export_to_path(const struct pane *pane, const char *path, enum export_format fmt,
		    size_t limit, const char *caption, char *err, size_t err_size)
{
	size_t n = strlen(path) + 32;
	char *tmp = xmalloc(n);
	const char *slash = strrchr(path, '/');
	struct stat st;
	long rows;
	FILE *out;
	int fd;

	/* The temporary file sits beside the target, so the rename stays
	 * on one file system and is atomic. */
	if (slash)
		snprintf(tmp, n, "%.*s/.proftui-XXXXXX", (int)(slash - path), path);
	else
		snprintf(tmp, n, ".proftui-XXXXXX");
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp makes 0600; an export is an ordinary file. */
	{
		mode_t mask = umask(0);

		umask(mask);
		if (stat(path, &st) == 0)
			fchmod(fd, st.st_mode & 07777);
		else
			fchmod(fd, 0666 & ~mask);
	}
	out = fdopen(fd, "w");
	if (!out) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	rows = export_pane(pane, out, fmt, limit, caption);
	if (rows < 0 || fsync(fileno(out)) != 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno ? errno : EIO));
		fclose(out);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (fclose(out) != 0 || rename(tmp, path) != 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return rows;
}
