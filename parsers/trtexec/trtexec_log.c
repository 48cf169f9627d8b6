// SPDX-License-Identifier: MIT
/*
 * The trtexec log (doc/formats/trtexec.md, 'The log'): blocks of
 * "key: value" lines under "=== Title ===", the --dumpProfile table, and
 * the "&&&& PASSED" line.  Every line may carry a
 * "[MM/DD/YYYY-HH:MM:SS] [I] " prefix, or "[I] " alone.  Each table's
 * layers join the engine's (trtexec.h); a second table, or a second
 * "&&&& RUNNING", starts a new run.
 *
 * The table comes in three layouts (sampleReporting.cpp, Profiler::print):
 *   >= 8.6  "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer"
 *           numbers first, the name last (it may hold spaces);
 *   8.5     "<Layer right-aligned>   Time (ms)   Avg. Time (ms)   Median
 *           Time (ms)   Time %": the name first, numbers last;
 *   <= 8.4  the same without Median.
 * Either way the columns are read from the header and the numbers are
 * whitespace-separated tokens at one end of the row; what is left is the
 * name.  The last row is "Total".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "../text.h"
#include "trtexec.h"

enum col { COL_TIME, COL_AVG, COL_MEDIAN, COL_PCT, COL_OTHER };
#define MAX_COLS 8

/* The table's column titles, as each layout prints them. */
static const struct text_title col_titles[] = {
	{ "Time(ms)", COL_TIME },		/* >= 8.6 */
	{ "Avg.(ms)", COL_AVG },
	{ "Median(ms)", COL_MEDIAN },
	{ "Time(%)", COL_PCT },
	{ "Time (ms)", COL_TIME },		/* <= 8.5 */
	{ "Avg. Time (ms)", COL_AVG },
	{ "Median Time (ms)", COL_MEDIAN },
	{ "Time %", COL_PCT },
};

enum block { B_NONE, B_KV, B_PERF, B_HEADER, B_TABLE };

/* The "=== Title ===" blocks read as "key: value" lines (besides every
 * "=== ... Options ===", whose section is its title in lower case). */
static const struct {
	const char *title;
	const char *section;		/* of their Info lines */
	enum block block;
} block_titles[] = {
	{ "Performance summary", "performance summary", B_PERF },
	{ "Device Information", "device", B_KV },
};

/* The statistics TensorRT <= 8.2 lists under a group title ("Host
 * Latency", then "min: 1.6 ms (end to end 1.7 ms)"). */
static const char *const group_stats[] = { "min", "max", "mean", "median", "percentile" };

/* What tells a trtexec log in its first bytes: MARK, and MARK2 too when
 * it is not NULL.  The surest first. */
static const struct {
	const char *mark, *mark2;
	int score;
} log_marks[] = {
	{ "&&&& RUNNING TensorRT.trtexec", NULL, 90 },
	{ "&&&& PASSED TensorRT.trtexec", NULL, 90 },
	{ "&&&& FAILED TensorRT.trtexec", NULL, 90 },
	{ "=== Profile (", " iterations ) ===", 85 },
	{ "=== Performance summary ===", "GPU Compute Time", 80 },
	{ "=== Model Options ===", "=== Build Options ===", 60 },
};

#define KIND_BAD_ROW "unreadable rows in a profile table (skipped)"

struct log {
	struct profile *first, *cur;
	struct diag *d;
	const char *path;
	enum block block;
	char section[48];		/* B_KV, B_PERF: where meta lines go */
	char group[48];			/* B_PERF, TensorRT 7: "Host Latency" */
	struct meta_set meta;		/* cur's Info lines */
	bool cur_used;			/* this file gave cur something */
	bool cur_has_table;
	bool foreign;			/* a table of another engine's layers */
	uint64_t nr_found;		/* meta lines and tables */
	/* the --dumpProfile table being read */
	struct layers ls;
	uint64_t table_line;
	bool name_first;
	enum col cols[MAX_COLS];
	size_t nr_cols;
	int64_t sum_ns;
};

static void new_run(struct log *lg, uint64_t lineno)
{
	char where[512];

	snprintf(where, sizeof(where), "%s:%llu", lg->path, (unsigned long long)lineno);
	lg->cur = profile_add_run(lg->first, where);
	meta_set_release(&lg->meta);
	meta_set_init(&lg->meta, lg->cur);
	lg->cur_used = lg->cur_has_table = false;
}

static void log_meta(struct log *lg, const char *section, const char *key, const char *v,
		     size_t n)
{
	meta_set_put_n(&lg->meta, section, key, v, n);
	lg->cur_used = true;
	lg->nr_found++;
}

/* End the table: TOTAL_NS is the Total row's time, or -1 without one. */
static void end_table(struct log *lg, int64_t total_ns, uint64_t lineno)
{
	char n[32];

	if (total_ns >= 0) {
		/* Each row is printed to 0.01 ms: allow that much per row. */
		int64_t slack = 5000 * (int64_t)(lg->ls.nr + 1);
		int64_t diff = lg->sum_ns - total_ns;

		if (diff > slack || diff < -slack) {
			struct pos at = { lineno, 1 };

			diag_warn(lg->d, &at, "profile table total differs from the sum of its rows",
				  "the layers of the profile table add up to %s%.2f ms, its Total row "
				  "says %.2f ms", sum_capped(lg->sum_ns) ? "more than " : "",
				  (double)lg->sum_ns / 1e6, (double)total_ns / 1e6);
		}
	}
	snprintf(n, sizeof(n), "%llu", (unsigned long long)lg->ls.calls);
	meta_set_put(&lg->meta, "layer profile", "iterations", n);
	if (!layers_join(lg->cur, lg->d, &lg->ls, false))
		lg->foreign = true;
	layers_release(&lg->ls);
	lg->cur_used = lg->cur_has_table = true;
	lg->nr_found++;
	lg->block = B_NONE;
}

/* The block being read ends (a new block, the end of the run). */
static void end_block(struct log *lg, uint64_t lineno)
{
	if (lg->block == B_TABLE) {
		struct pos at = { lineno, 1 };

		diag_warn(lg->d, &at, "profile tables without a 'Total' row",
			  "profile table ends without its 'Total' row");
		end_table(lg, -1, lineno);
	} else if (lg->block == B_HEADER) {
		layers_release(&lg->ls);
	}
	lg->block = B_NONE;
}

static enum col col_kind(const char *s, size_t n)
{
	return (enum col)text_title_kind(col_titles, ARRAY_SIZE(col_titles), s, n, COL_OTHER);
}

static void header_line(struct log *lg, const char *s, size_t n, uint64_t lineno)
{
	struct field f[MAX_COLS + 2];
	size_t nf;
	bool has_time = false;

	if (!n)
		return;		/* not yet */
	lg->nr_cols = 0;
	if (text_starts(s, n, "Layer ")) {
		/* Name first: "Layer   Time (ms)   Avg. Time (ms)   Time %". */
		nf = text_split2(s, n, f, ARRAY_SIZE(f));
		lg->name_first = true;
		if (nf >= 2 && nf <= MAX_COLS + 1)
			for (size_t i = 1; i < nf; i++)
				lg->cols[lg->nr_cols++] = col_kind(f[i].s, f[i].len);
	} else {
		/* Name last: "Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer". */
		nf = text_split1(s, n, f, ARRAY_SIZE(f));
		lg->name_first = false;
		if (nf >= 2 && nf <= MAX_COLS + 1 && text_eq(f[nf - 1].s, f[nf - 1].len, "Layer"))
			for (size_t i = 0; i + 1 < nf; i++)
				lg->cols[lg->nr_cols++] = col_kind(f[i].s, f[i].len);
	}
	for (size_t i = 0; i < lg->nr_cols; i++)
		has_time |= lg->cols[i] == COL_TIME;
	if (!has_time) {
		struct pos at = { lineno, 1 };

		diag_warn(lg->d, &at, "profile tables without a header (skipped)",
			  "expected the header of the profile table after '=== Profile'; "
			  "table skipped");
		layers_release(&lg->ls);
		lg->block = B_NONE;
		return;
	}
	lg->block = B_TABLE;
	lg->table_line = lineno;
	lg->sum_ns = 0;
}

static void bad_row(struct log *lg, uint64_t lineno, size_t col, const char *why)
{
	struct pos at = { lineno, col + 1 };

	diag_warn(lg->d, &at, KIND_BAD_ROW, "%s; row skipped", why);
}

/* A row cut into its cells: the numbers in the header's order, and the
 * layer's name. */
struct row {
	struct field num[MAX_COLS];
	const char *name;
	size_t name_len;
};

/* TensorRT <= 8.5: the name first, right-aligned, the numbers after it;
 * the numbers are taken from the end, the name is what is left. */
static bool cut_name_first(struct log *lg, const char *s, size_t n, size_t prefix,
			   struct row *r)
{
	size_t end = n;

	for (size_t c = lg->nr_cols; c-- > 0;) {
		size_t st;

		while (end && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		st = end;
		while (st && s[st - 1] != ' ' && s[st - 1] != '\t')
			st--;
		if (st == end)
			return false;
		r->num[c].s = s + st;
		r->num[c].len = end - st;
		r->num[c].col = prefix + st;
		end = st;
	}
	r->name_len = end;
	r->name = text_trim(s, &r->name_len);
	return true;
}

/* TensorRT >= 8.6: the numbers first, the name last (it may hold
 * spaces). */
static bool cut_name_last(struct log *lg, const char *s, size_t n, size_t prefix, struct row *r)
{
	struct field f[MAX_COLS + 1];
	size_t nf = text_split1(s, n, f, lg->nr_cols + 1);

	if (nf < lg->nr_cols + 1)
		return false;
	for (size_t c = 0; c < lg->nr_cols; c++) {
		r->num[c] = f[c];
		r->num[c].col += prefix;
	}
	r->name_len = (size_t)(s + n - f[lg->nr_cols].s);
	r->name = text_trim(f[lg->nr_cols].s, &r->name_len);
	return true;
}

/* The row's numbers: times into NS[] (the Time column's also into
 * *TOTAL_NS), the percentage into *PCT.  False after a warning. */
static bool read_cells(struct log *lg, const struct row *r, uint64_t lineno, int64_t *ns,
		       int64_t *total_ns, double *pct, bool *has_pct)
{
	for (size_t c = 0; c < lg->nr_cols; c++) {
		const struct field *f = &r->num[c];
		bool ok = true;
		char why[128];

		const char *what = "is not a number";

		switch (lg->cols[c]) {
		case COL_TIME:
		case COL_AVG:
		case COL_MEDIAN:
			ok = num_scaled(f->s, f->len, 6, &ns[c]) && ns[c] >= 0;
			if (ok && !bound_dur_ok(ns[c])) {
				ok = false;
				what = "is beyond proftui's bound of 10^15 ns (11.6 days)";
			}
			if (lg->cols[c] == COL_TIME)
				*total_ns = ns[c];
			break;
		case COL_PCT:
			ok = num_double(f->s, f->len, pct) && *pct == *pct;
			/* A share outside 0..100 is no share: unknown. */
			*has_pct = ok && *pct >= 0 && *pct <= 100;
			if (ok && !*has_pct) {
				struct pos at = { lineno, f->col + 1 };

				diag_warn(lg->d, &at, "profile percentages not from 0 to 100 (left out)",
					  "'%.*s' in a profile table is not a percentage from 0 to 100; "
					  "left out", (int)(f->len < 40 ? f->len : 40), f->s);
			}
			break;
		case COL_OTHER:
			break;
		}
		if (ok)
			continue;
		snprintf(why, sizeof(why), "'%.*s' in a profile table %s", (int)(f->len < 40 ? f->len : 40),
			 f->s, what);
		bad_row(lg, lineno, f->col, why);
		return false;
	}
	return true;
}

/* A row of the table: S is the line after its log prefix, trimmed. */
static void row_line(struct log *lg, const char *s, size_t n, size_t prefix, uint64_t lineno)
{
	struct row r;
	int64_t ns[MAX_COLS] = { 0 }, total_ns = -1;
	double pct = 0;
	bool has_pct = false, ok;
	struct layer_in *l;
	struct pos at;

	if (!n) {
		end_block(lg, lineno);
		return;
	}
	if (lg->name_first)
		ok = cut_name_first(lg, s, n, prefix, &r);
	else
		ok = cut_name_last(lg, s, n, prefix, &r);
	if (!ok) {
		bad_row(lg, lineno, prefix, "too few columns in a profile table row");
		return;
	}
	if (!r.name_len) {
		bad_row(lg, lineno, prefix, "profile table row without a layer name");
		return;
	}
	if (!read_cells(lg, &r, lineno, ns, &total_ns, &pct, &has_pct))
		return;
	if (text_eq(r.name, r.name_len, "Total")) {
		end_table(lg, total_ns, lineno);
		return;
	}
	at.line = lineno;
	at.col = prefix + (size_t)(r.name - s) + 1;
	l = layers_add(&lg->ls, profile_intern(lg->cur, r.name, r.name_len), at);
	l->has_time = true;
	l->total_ns = total_ns;
	sum_add(&lg->sum_ns, total_ns);	/* at the cap, end_table() warns */
	for (size_t c = 0; c < lg->nr_cols; c++) {
		if (lg->cols[c] == COL_AVG)
			attr_set_ns(lg->cur, &l->attrs, "mean_ns", ns[c]);
		else if (lg->cols[c] == COL_MEDIAN)
			attr_set_ns(lg->cur, &l->attrs, "median_ns", ns[c]);
	}
	if (has_pct)
		attr_set_double(lg->cur, &l->attrs, "time_pct", pct);
	layer_sources_from_name(lg->cur, l);
}

/* "min = 0.349854 ms, max = 0.586731 ms, ..." after "Latency: ". */
static void perf_stats(struct log *lg, const char *key, const char *v, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t start = i, end;
		const char *eq;

		while (i < n && !(v[i] == ',' && i + 1 < n && v[i + 1] == ' '))
			i++;
		end = i;
		i += 2;
		eq = text_find(v + start, end - start, " = ");
		if (eq) {
			char k[256];
			size_t kn = (size_t)(eq - (v + start));
			const char *val = eq + 3;
			size_t vn = (size_t)(v + end - val);

			snprintf(k, sizeof(k), "%s %.*s", key, (int)(kn < 64 ? kn : 64), v + start);
			val = text_trim(val, &vn);
			log_meta(lg, lg->section, k, val, vn);
		}
	}
}

static bool is_stat(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(group_stats); i++)
		if (text_eq(s, n, group_stats[i]))
			return true;
	return false;
}

/* A line of a "key: value" block; false when the block has ended. */
static bool kv_line(struct log *lg, const char *s, size_t n)
{
	const char *colon, *v;
	size_t kn, vn;
	char key[160];

	if (!n || s[0] == '[')
		return false;	/* a blank line, or a message of the library */
	/* "Key: value"; trtexec also prints "Dump refittable layers:Disabled". */
	colon = text_find(s, n, ": ");
	if (!colon)
		colon = memchr(s, ':', n);
	if (!colon) {
		/* TensorRT 7's summary: "Host Latency", then "min: 1.2 ms"... */
		bool title = lg->block == B_PERF && n < sizeof(lg->group);

		for (size_t i = 0; title && i < n; i++)
			title = isalpha((unsigned char)s[i]) || s[i] == ' ' || s[i] == '-';
		if (!title)
			return false;
		snprintf(lg->group, sizeof(lg->group), "%.*s", (int)n, s);
		return true;
	}
	kn = (size_t)(colon - s);
	v = colon + 1;
	vn = (size_t)(s + n - v);
	v = text_trim(v, &vn);
	if (!kn || !vn)
		return true;	/* "Output:" with nothing after it */
	if (lg->group[0] && lg->block == B_PERF && is_stat(s, kn))
		snprintf(key, sizeof(key), "%s %.*s", lg->group, (int)(kn < 96 ? kn : 96), s);
	else
		snprintf(key, sizeof(key), "%.*s", (int)(kn < 150 ? kn : 150), s);
	if (lg->block == B_PERF && text_find(v, vn, " = "))
		perf_stats(lg, key, v, vn);
	else
		log_meta(lg, lg->section, key, v, vn);
	return true;
}

/* "=== Profile (2860 iterations ) ===": a table's header comes next. */
static void open_table(struct log *lg, const char *t, size_t n, uint64_t lineno)
{
	const char *num = t + 9, *sp;
	int64_t iterations;

	sp = memchr(num, ' ', n - 9);
	if (!sp || !num_int(num, (size_t)(sp - num), &iterations) || !bound_count_ok(iterations)) {
		struct pos at = { lineno, 1 };

		diag_warn(lg->d, &at, "profile tables without a header (skipped)",
			  "cannot read an iteration count (0 to 2^40) in '=== %.*s ==='; table skipped",
			  (int)(n < 60 ? n : 60), t);
		return;
	}
	if (lg->cur_has_table)
		new_run(lg, lineno);
	memset(&lg->ls, 0, sizeof(lg->ls));
	lg->ls.calls = (uint64_t)iterations;
	lg->block = B_HEADER;
}

/* "=== Title ===" opens a block. */
static void open_block(struct log *lg, const char *t, size_t n, uint64_t lineno)
{
	lg->group[0] = '\0';
	if (text_starts(t, n, "Profile (")) {
		open_table(lg, t, n, lineno);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(block_titles); i++) {
		if (text_eq(t, n, block_titles[i].title)) {
			snprintf(lg->section, sizeof(lg->section), "%s", block_titles[i].section);
			lg->block = block_titles[i].block;
			return;
		}
	}
	if (n > 8 && text_ends(t, n, " Options") && n < sizeof(lg->section)) {
		for (size_t i = 0; i < n; i++)
			lg->section[i] = (char)tolower((unsigned char)t[i]);
		lg->section[n] = '\0';
		lg->block = B_KV;
	}
}

/* TensorRT's version as trtexec prints it: v8601 is 8.6.1, v100100 10.1.0. */
static void version_of(const char *digits, size_t n, char *out, size_t cap)
{
	int64_t v;

	if (!num_int(digits, n, &v) || v < 0) {
		snprintf(out, cap, "%.*s", (int)(n < 20 ? n : 20), digits);
		return;
	}
	if (v >= 100000)
		snprintf(out, cap, "%lld.%lld.%lld", (long long)(v / 10000),
			 (long long)(v / 100 % 100), (long long)(v % 100));
	else
		snprintf(out, cap, "%lld.%lld.%lld", (long long)(v / 1000),
			 (long long)(v / 100 % 10), (long long)(v % 100));
}

/* "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=...",
 * and the same with PASSED or FAILED at the end of the run. */
static void status_line(struct log *lg, const char *s, size_t n, uint64_t lineno)
{
	const char *word = s + 5, *sp, *ver, *cmd;
	size_t wn;

	sp = memchr(word, ' ', n - 5);
	wn = sp ? (size_t)(sp - word) : n - 5;
	if (text_eq(word, wn, "RUNNING") && lg->cur_used)
		new_run(lg, lineno);	/* a second run in one file */
	ver = text_find(s, n, "[TensorRT v");
	if (ver) {
		const char *d = ver + 11;
		size_t dn = 0;
		char version[32];

		while (d + dn < s + n && isdigit((unsigned char)d[dn]))
			dn++;
		if (dn) {
			version_of(d, dn, version, sizeof(version));
			log_meta(lg, "tensorrt", "version", version, strlen(version));
		}
	}
	cmd = text_find(s, n, " # ");
	if (text_eq(word, wn, "RUNNING")) {
		if (cmd)
			log_meta(lg, "tensorrt", "command", cmd + 3, (size_t)(s + n - cmd - 3));
	} else if (wn) {
		log_meta(lg, "tensorrt", "result", word, wn);
	}
}

static void log_line(struct log *lg, char *line, size_t len, uint64_t lineno)
{
	size_t prefix, n;
	const char *s;

	if (text_is_binary(line, len)) {
		struct pos at = { lineno, 1 };

		/* A NUL would cut a name or a value short wherever shown. */
		diag_warn(lg->d, &at, "lines of binary data (skipped)",
			  "line holds binary data; skipped");
		return;
	}
	len = text_strip_ansi(line, len);
	prefix = text_log_prefix(line, len);
	n = len - prefix;
	s = text_trim(line + prefix, &n);
	prefix = (size_t)(s - line);
	if (text_starts(s, n, "&&&& ")) {
		end_block(lg, lineno);
		status_line(lg, s, n, lineno);
		return;
	}
	if (n >= 8 && text_starts(s, n, "=== ") && text_ends(s, n, " ===")) {
		end_block(lg, lineno);
		open_block(lg, s + 4, n - 8, lineno);
		return;
	}
	switch (lg->block) {
	case B_KV:
	case B_PERF:
		if (!kv_line(lg, s, n))
			lg->block = B_NONE;
		break;
	case B_HEADER:
		header_line(lg, s, n, lineno);
		break;
	case B_TABLE:
		row_line(lg, s, n, prefix, lineno);
		break;
	default:
		if (text_starts(s, n, "TensorRT version: ") && n > 18) {
			log_meta(lg, "tensorrt", "version", s + 18, n - 18);
		} else if (text_eq(s, n, "Host Latency")) {
			/* TensorRT <= 8.2: the summary without its "===" title,
			 * "Host Latency" then "min: 1.6 ms (end to end 1.7 ms)". */
			snprintf(lg->section, sizeof(lg->section), "performance summary");
			snprintf(lg->group, sizeof(lg->group), "Host Latency");
			lg->block = B_PERF;
		}
		break;
	}
}

static int log_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct log lg = { .first = p, .cur = p, .d = d, .path = in->path };
	char *line;
	size_t len;
	int rc = 0;

	meta_set_init(&lg.meta, p);
	while ((line = input_line(in, &len)))
		log_line(&lg, line, len, in->lineno);
	if (input_failed(in, d))
		rc = -1;
	if (lg.block == B_TABLE) {
		struct pos at = { in->lineno, 1 };

		/* A cut log: keep the rows read. */
		diag_error(d, &at, "profile table ends without its 'Total' row (file cut?); "
			   "kept the %zu rows read", lg.ls.nr);
		end_table(&lg, -1, in->lineno);
	} else {
		end_block(&lg, in->lineno);
	}
	if (!lg.nr_found && rc == 0) {
		diag_error(d, NULL, "no trtexec profile table, summary or options found");
		rc = -1;
	}
	if (lg.foreign)
		rc = -1;
	layers_release(&lg.ls);
	meta_set_release(&lg.meta);
	return rc;
}

static int log_probe(const char *head, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(log_marks); i++)
		if (text_find(head, len, log_marks[i].mark) &&
		    (!log_marks[i].mark2 || text_find(head, len, log_marks[i].mark2)))
			return log_marks[i].score;
	return 0;
}

const struct parser trtexec_log_parser = {
	.counts_per_node = true,
	.name = "trtexec-log",
	.family = "tensorrt",
	.engine_suffixes = (const char *const[]){ ".build.log", ".profile.log", ".log", NULL },
	.summary = "TensorRT trtexec log (--dumpProfile table, performance summary, options)",
	.anywhere = true,
	.probe = log_probe,
	.parse = log_parse,
};

