// SPDX-License-Identifier: MIT
/*
 * rocprof statistics (doc/formats/rocprof.md): rocprof --stats's
 * results.stats.csv, results.hip_stats.csv and results.copy_stats.csv,
 * rocprofv3 --stats's *_kernel_stats.csv, *_hip_api_stats.csv and
 * *_memory_copy_stats.csv.  One header for all of them,
 *
 *	"Name","Calls","TotalDurationNs","AverageNs","Percentage"
 *
 * with "MinNs","MaxNs","StdDev" after it in rocprofv3.  What a row is
 * says its name, never the file's: a HIP or HSA call (hipMemcpy,
 * __hipPushCallConfiguration, hsa_queue_create) is a runtime row, a copy
 * (CopyHostToDevice, MEMORY_COPY_HOST_TO_DEVICE) a copy row, anything
 * else a kernel.  Every figure the file prints is kept as printed: calls,
 * total, extremes as the node's own, Percentage and AverageNs as the
 * file's values (profile.h, ATTR_FILE_*), StdDev as an attribute.
 */
#include <math.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "rocprof.h"

enum { C_NAME, C_CALLS, C_TOTAL, C_AVG, C_PCT, C_MIN, C_MAX, C_STDDEV, NR_C };

static const char *const titles[NR_C] = {
	"Name", "Calls", "TotalDurationNs", "AverageNs", "Percentage", "MinNs", "MaxNs", "StdDev",
};

#define NR_REQUIRED 5

struct stats {
	struct profile *p;
	struct diag *d;
	int col[NR_C];
	int nr_cols;
	struct node *group[3];		/* Kernels, HIP calls, copies */
	uint64_t nr_rows;
};

enum row_kind { ROW_KERNEL, ROW_API, ROW_COPY, ROW_DOMAIN };

static bool is_upper_word(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return n > 0;
}

/* What a row is, by its name. */
static enum row_kind row_kind(const char *s, size_t n)
{
	if ((n > 3 && text_starts(s, n, "hip") && s[3] >= 'A' && s[3] <= 'Z') ||
	    text_starts(s, n, "__hip") || text_starts(s, n, "hsa_") || text_starts(s, n, "roctx"))
		return ROW_API;
	if ((text_starts(s, n, "Copy") && n > 4 && s[4] >= 'A' && s[4] <= 'Z') ||
	    text_starts(s, n, "MEMORY_COPY_"))
		return ROW_COPY;
	/* rocprofv3's *_domain_stats.csv: one row per tracing domain, sums
	 * of the other tables' rows (KERNEL_DISPATCH, HIP_API, ...). */
	if (is_upper_word(s, n) &&
	    (text_ends(s, n, "_API") || text_eq(s, n, "KERNEL_DISPATCH") ||
	     text_eq(s, n, "MEMORY_COPY") || text_eq(s, n, "MEMORY_ALLOCATION") ||
	     text_eq(s, n, "SCRATCH_MEMORY")))
		return ROW_DOMAIN;
	return ROW_KERNEL;
}

static struct node *group(struct stats *st, enum row_kind k)
{
	static const char *const names[] = { "Kernels", "HIP calls", "Copies" };

	if (!st->group[k]) {
		st->group[k] = node_new(st->p, st->p->root, NODE_GROUP, names[k], strlen(names[k]));
		st->group[k]->flags = NODE_NOT_A_ROW;
	}
	return st->group[k];
}

static int bad(struct stats *st, uint64_t lineno, const struct field *f, const char *what)
{
	struct pos at = { lineno, f->col + 1 };

	diag_error(st->d, &at, "value '%.*s' is not %s", (int)(f->len > 40 ? 40 : f->len), f->s,
		   what);
	return -1;
}

/* An integer cell within its bound. */
static int int_cell(struct stats *st, uint64_t lineno, const struct field *f, bool count,
		    int64_t *v)
{
	if (!num_int(f->s, f->len, v))
		return bad(st, lineno, f, "an integer");
	if (count ? !bound_count_ok(*v) : !bound_dur_ok(*v))
		return bad(st, lineno, f, count ? "a count within 2^40" :
			   "a duration within 10^15 ns");
	return 0;
}

/* A decimal cell (AverageNs "2432.240683", Percentage "4.671e-04"). */
static int dbl_cell(struct stats *st, uint64_t lineno, const struct field *f, double max,
		    double *v)
{
	if (!num_double(f->s, f->len, v) || !isfinite(*v))
		return bad(st, lineno, f, "a number");
	if (*v < 0 || *v > max)
		return bad(st, lineno, f, "a number within its bound");
	return 0;
}

static int row(struct stats *st, uint64_t lineno, const struct field *f, int nr)
{
	struct profile *p = st->p;
	const struct field *name = &f[st->col[C_NAME]];
	int64_t calls, total, avg_ns, mn = -1, mx = -1;
	double avg, pct, sd = NAN;
	enum row_kind k;
	enum node_kind kind;
	struct node *n;
	bool host;

	if (nr != st->nr_cols) {
		struct pos at = { lineno, 1 };

		diag_error(st->d, &at, "%d fields where the header has %d", nr, st->nr_cols);
		return -1;
	}
	if (int_cell(st, lineno, &f[st->col[C_CALLS]], true, &calls) ||
	    int_cell(st, lineno, &f[st->col[C_TOTAL]], false, &total) ||
	    dbl_cell(st, lineno, &f[st->col[C_AVG]], (double)BOUND_DUR_NS, &avg) ||
	    dbl_cell(st, lineno, &f[st->col[C_PCT]], 100.5, &pct))
		return -1;
	if (st->col[C_MIN] >= 0 && int_cell(st, lineno, &f[st->col[C_MIN]], false, &mn))
		return -1;
	if (st->col[C_MAX] >= 0 && int_cell(st, lineno, &f[st->col[C_MAX]], false, &mx))
		return -1;
	if (st->col[C_STDDEV] >= 0 &&
	    dbl_cell(st, lineno, &f[st->col[C_STDDEV]], (double)BOUND_DUR_NS, &sd))
		return -1;
	k = row_kind(name->s, name->len);
	if (k == ROW_DOMAIN) {
		struct pos at = { lineno, name->col + 1 };

		diag_warn(st->d, &at, "domain totals (rocprofv3 domain_stats), skipped",
			  "row '%.*s' is a tracing domain's total, not a kernel or a call; skipped",
			  (int)(name->len > 40 ? 40 : name->len), name->s);
		return 0;
	}
	kind = k == ROW_API ? NODE_RUNTIME : k == ROW_COPY ? NODE_MEMCPY : NODE_KERNEL;
	host = k == ROW_API;
	n = node_new(p, group(st, k), kind, name->s, name->len);
	/* One row per name, as printed; a second row of a name stays one. */
	n->flags |= NODE_DISTINCT;
	node_set_calls(p, n, (uint64_t)calls);
	node_set_time(p, n, host ? NODE_HOST_TOTAL : NODE_DEVICE_TOTAL, total);
	node_set_time(p, n, host ? NODE_HOST_SELF : NODE_DEVICE_SELF, total);
	node_set_minmax(p, n, mn, mx);
	avg_ns = (int64_t)llround(avg);
	attr_set_ns(p, node_attr_list(n), host ? ATTR_FILE_HOST_MEAN : ATTR_FILE_DEVICE_MEAN,
		    avg_ns);
	/* Percentage: the row's share of its table's total (kernels: of all
	 * kernel time, the file's value of the key). */
	if (k == ROW_KERNEL)
		attr_set_double(p, node_attr_list(n), ATTR_FILE_DEVICE_TOTAL_PCT, pct);
	else
		attr_set_double(p, node_attr_list(n), "percentage", pct);
	if (!isnan(sd))
		attr_set_double(p, node_attr_list(n), "stddev_ns", sd);
	/* A call's StdDev as printed, to the ns, where the API calls pane
	 * shows a printed report's (model/name_stats.c, as nsys stats'
	 * rows).  Not for one call: its deviation (0) and median (its
	 * time) are known exactly, and a stated figure would blank the
	 * median the file leaves to be worked out. */
	if (!isnan(sd) && host && calls > 1)
		attr_set_ns(p, node_attr_list(n), ATTR_FILE_STDDEV, (int64_t)llround(sd));
	st->nr_rows++;
	return 0;
}

static int header(struct stats *st, char *line, size_t len, uint64_t lineno)
{
	struct field f[ROCPROF_MAX_COLS];
	int nr = rocprof_fields(st->d, line, len, rocprof_bom(line, len), lineno, f);
	struct pos where = { lineno, 1 };

	if (nr < 0)
		return -1;
	for (int c = 0; c < NR_C; c++) {
		st->col[c] = rocprof_col(f, nr, titles[c]);
		if (c < NR_REQUIRED && st->col[c] < 0) {
			diag_error(st->d, &where, "no column '%s' in the header of rocprof statistics",
				   titles[c]);
			return -1;
		}
	}
	st->nr_cols = nr;
	return 0;
}

static int rocprof_stats_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct stats st = { .p = p, .d = d };
	struct field f[ROCPROF_MAX_COLS];
	bool have_header = false;
	char *line;
	size_t len;

	while ((line = input_line(in, &len))) {
		int nr;

		if (!have_header) {
			if (header(&st, line, len, in->lineno))
				return -1;
			have_header = true;
			continue;
		}
		if (!len)
			continue;
		nr = rocprof_fields(d, line, len, 0, in->lineno, f);
		if (nr < 0) {
			return -1;
		}
		if (row(&st, in->lineno, f, nr))
			return -1;
	}
	if (input_failed(in, d))
		return -1;
	if (!have_header) {
		diag_error(d, NULL, "no rocprof statistics header");
		return -1;
	}
	profile_meta(p, "trace", "format", "rocprof statistics (CSV)");
	return 0;
}

/* The header, whole, as the first line (after a BOM). */
static int rocprof_stats_probe(const char *head, size_t len)
{
	char buf[1024];
	struct field f[ROCPROF_MAX_COLS];
	int nr = rocprof_probe_header(head, len, buf, sizeof(buf), f);

	if (nr < NR_REQUIRED)
		return 0;
	for (int c = 0; c < NR_REQUIRED; c++)
		if (rocprof_col(f, nr, titles[c]) < 0)
			return 0;
	for (int i = 0; i < nr; i++) {
		bool known = false;

		for (int c = 0; c < NR_C; c++)
			known |= text_eq(f[i].s, f[i].len, titles[c]);
		if (!known)
			return 0;
	}
	return 95;
}

const struct parser rocprof_stats_parser = {
	.name = "rocprof-stats",
	.summary = "ROCm rocprof / rocprofv3 kernel, HIP API and copy statistics (CSV)",
	.counts_per_node = true,
	.probe = rocprof_stats_probe,
	.parse = rocprof_stats_parse,
};
