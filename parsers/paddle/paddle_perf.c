// SPDX-License-Identifier: MIT
/*
 * PaddlePaddle (paddle.c): the "Perf Summary" block that
 * paddle/profiler/timer.py prints, a bar-drawn table into Info.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../num.h"
#include "../text.h"
#include "paddle_int.h"


/* "|   reader_cost   |     0.01367     |  ...  |": the trimmed cells. */
static size_t pipe_cells(const char *s, size_t n, struct field *out, size_t max)
{
	size_t i = leading_blanks(s, n), nr, rest, rest_len;

	if (i >= n || s[i] != '|')
		return 0;
	nr = text_bar_cells(s, n, i, "|", out, max, &rest);
	rest_len = n - rest;
	text_trim(s + rest, &rest_len);
	return rest_len ? 0 : nr;	/* text after the last bar: no row */
}


bool paddle_perf_line(struct paddle *pd, const char *s, size_t n, uint64_t lineno)
{
	struct profile *p = pd->cur->p;
	struct field cells[8];
	size_t nr, i;

	if (pd->perf == PERF_HEAD && !pipe_cells(s, n, cells, 8)) {
		const char *rest = s;
		size_t len = n;

		/* "Reader Ratio: 53.514%", "Time Unit: s, IPS Unit: steps/s":
		 * timer.py prints these two and nothing else. */
		if (!text_starts(s, n, "Reader Ratio:") && !text_starts(s, n, "Time Unit:"))
			return false;
		while (len) {
			const char *comma = memchr(rest, ',', len);
			size_t part = comma ? (size_t)(comma - rest) : len;
			char key[64], val[64];
			struct field k, v;
			const char *colon = memchr(rest, ':', part);

			if (!colon)
				return false;
			k.len = (size_t)(colon - rest);
			k.s = text_trim(rest, &k.len);
			v.len = part - (size_t)(colon + 1 - rest);
			v.s = text_trim(colon + 1, &v.len);
			copy_field(key, sizeof(key), k.s, k.len);
			copy_field(val, sizeof(val), v.s, v.len);
			if (!strcmp(key, "Time Unit"))
				copy_field(pd->time_unit, sizeof(pd->time_unit), v.s, v.len);
			else if (!strcmp(key, "IPS Unit"))
				copy_field(pd->ips_unit, sizeof(pd->ips_unit), v.s, v.len);
			profile_meta(p, "perf summary", key, val);
			if (!comma)
				break;
			len -= part + 1;
			rest = comma + 1;
		}
		return true;
	}
	nr = pipe_cells(s, n, cells, 8);
	if (!nr)
		return false;
	pd->perf = PERF_TABLE;
	if (!cells[0].len) {
		/* The header: "|   | avg | max | min |". */
		pd->nr_perf_cols = 0;
		for (i = 1; i < nr && i < 8 && pd->nr_perf_cols < 4; i++)
			copy_field(pd->perf_cols[pd->nr_perf_cols++], sizeof(pd->perf_cols[0]),
				   cells[i].s, cells[i].len);
		return true;
	}
	{
		char key[64], val[256];
		size_t used = 0;
		const char *unit = text_ends(cells[0].s, cells[0].len, "_cost") ? pd->time_unit :
				   eq_nocase(cells[0].s, cells[0].len, "ips") ? pd->ips_unit : "";

		if (nr != pd->nr_perf_cols + 1 || nr > 8) {
			struct pos at = { lineno, cells[0].col + 1 };

			diag_warn(pd->d, &at, "Perf Summary lines that do not parse",
				  "Perf Summary row '%.*s' has %zu values for %zu columns", (int)cells[0].len,
				  cells[0].s, nr - 1, pd->nr_perf_cols);
			return true;
		}
		val[0] = '\0';
		for (i = 1; i < nr; i++) {
			double d;

			if (!num_double(cells[i].s, cells[i].len, &d)) {
				struct pos at = { lineno, cells[i].col + 1 };

				diag_warn(pd->d, &at, "Perf Summary lines that do not parse",
					  "'%.*s' is not a number", (int)cells[i].len, cells[i].s);
				return true;
			}
			used += (size_t)snprintf(val + used, sizeof(val) - used, "%s%s %.*s%s%s",
						 i > 1 ? ", " : "", pd->perf_cols[i - 1],
						 (int)cells[i].len, cells[i].s, *unit ? " " : "", unit);
			if (used >= sizeof(val))
				break;
		}
		copy_field(key, sizeof(key), cells[0].s, cells[0].len);
		profile_meta(p, "perf summary", key, val);
	}
	return true;
}
