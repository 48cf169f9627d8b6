// SPDX-License-Identifier: MIT
#include <math.h>

#include "../model/util.h"
#include "name_cells.h"

#define NROW(r) ((const struct name_row *)(r))

const char *name_row_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return NROW(row)->name;
}

struct cell name_cell_name(const struct pane *pane, const void *row, const struct column *c)
{
	(void)c;
	return cell_text(name_row_name(pane, row));
}

struct cell name_cell_calls(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int((int64_t)NROW(row)->calls);
}

struct cell name_cell_total(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_int(NROW(row)->total_ns);
}

struct cell name_cell_mean(const struct pane *pane, const void *row, const struct column *c)
{
	const struct name_row *r = NROW(row);

	(void)pane, (void)c;
	if (r->mean_ns >= 0)
		return cell_int(r->mean_ns);	/* the file's (nsys stats' Avg) */
	if (!r->calls || r->capped)
		return cell_none();
	return cell_int(div_round(r->total_ns, r->calls));
}

struct cell name_cell_stat(const struct pane *pane, const void *row, const struct column *c)
{
	const struct name_row *r = NROW(row);
	int64_t v = c->arg == 0 ? r->median_ns : c->arg == 1 ? r->min_ns :
		    c->arg == 2 ? r->max_ns : c->arg == 3 ? r->p90_ns : r->p99_ns;

	(void)pane;
	return v >= 0 ? cell_int(v) : cell_none();
}

struct cell name_cell_stddev(const struct pane *pane, const void *row, const struct column *c)
{
	double d = NROW(row)->stddev_ns;

	(void)pane, (void)c;
	return isnan(d) ? cell_none() : cell_int((int64_t)llround(d));
}

struct cell name_cell_file_pct(const struct pane *pane, const void *row, const struct column *c)
{
	double d = NROW(row)->file_pct;

	(void)pane, (void)c;
	return isnan(d) ? cell_none() : cell_real(d);
}

struct cell name_cell_report(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(NROW(row)->report);
}

bool name_stats_have_file_pct(const struct name_stats *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!isnan(s->rows[i].file_pct))
			return true;
	return false;
}

bool name_stats_have_report(const struct name_stats *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->rows[i].report)
			return true;
	return false;
}
