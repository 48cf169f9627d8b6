// SPDX-License-Identifier: MIT
/*
 * The CSV reader the rocprof parsers share (rocprof.h).  rocprof quotes
 * names and, in rocprofv3, most fields; a name holds commas ("f(int,
 * float)") and, in principle, a doubled quote.  A line is one record:
 * no profiler of the family writes a newline inside a field, so a quote
 * still open at the end of a line is an error, not a field that goes on.
 */
#include <string.h>

#include "rocprof.h"

int rocprof_split(char *line, size_t len, struct field *out, const char **why, size_t *at_col)
{
	size_t i = 0;
	int nr = 0;

	for (;;) {
		size_t start = i, w;
		bool quoted = false;

		if (nr == ROCPROF_MAX_COLS) {
			*why = "more than 64 fields in a line";
			*at_col = i;
			return -1;
		}
		if (i < len && line[i] == '"') {
			quoted = true;
			start = w = ++i;
			for (;;) {
				if (i >= len) {
					*why = "quote left open at the end of the line";
					*at_col = start - 1;
					return -1;
				}
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						line[w++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				line[w++] = line[i++];
			}
			if (i < len && line[i] != ',') {
				*why = "text after a closing quote";
				*at_col = i;
				return -1;
			}
		} else {
			while (i < len && line[i] != ',')
				i++;
			w = i;
		}
		if (w - start > ROCPROF_MAX_FIELD) {
			*why = "a field longer than 65536 bytes";
			*at_col = start;
			return -1;
		}
		out[nr].s = line + start;
		out[nr].len = w - start;
		out[nr].col = start;
		if (!quoted)
			out[nr].s = text_trim(out[nr].s, &out[nr].len);
		nr++;
		if (i >= len)
			return nr;
		i++;	/* the comma */
	}
}

int rocprof_fields(struct diag *d, char *line, size_t len, size_t skip, uint64_t lineno,
		   struct field *out)
{
	const char *why;
	size_t col;
	int nr = rocprof_split(line + skip, len - skip, out, &why, &col);

	if (nr < 0) {
		struct pos at = { lineno, skip + col + 1 };

		diag_error(d, &at, "%s", why);
	}
	return nr;
}

size_t rocprof_bom(const char *s, size_t len)
{
	return len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
}

int rocprof_col(const struct field *hdr, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (text_eq(hdr[i].s, hdr[i].len, name))
			return i;
	return -1;
}

int rocprof_probe_header(const char *head, size_t len, char *buf, size_t cap,
			 struct field *out)
{
	size_t at = rocprof_bom(head, len), n;
	const char *nl = memchr(head + at, '\n', len - at);
	const char *why;
	size_t col;

	if (!nl)
		return -1;	/* no whole line: a header is short */
	n = (size_t)(nl - head) - at;
	if (n && head[at + n - 1] == '\r')
		n--;
	if (n == 0 || n >= cap)
		return -1;
	memcpy(buf, head + at, n);
	buf[n] = '\0';
	return rocprof_split(buf, n, out, &why, &col);
}
