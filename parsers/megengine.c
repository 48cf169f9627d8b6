// SPDX-License-Identifier: MIT
/*
 * MegEngine (FORMATS.md e): two parsers.
 *
 * "megengine" reads text: what load_and_run prints to stdout and what
 * profile_analyze.py prints, which real files (logs, the project's own
 * documentation) mix in any order, inside prose, behind mgb_log prefixes
 * and colour codes.  Each line is recognised on its own; what no rule
 * knows is prose and is skipped.
 *
 *   - load_and_run, three generations (old mgblar.cpp, the v1.7 lite tool,
 *     the newest lite tool): every test run becomes a run of the profile,
 *     its "iter i/N" lines the Steps pane (total, host "Exec", "Device"),
 *     model load, prepare, warm-up and the "=== finished test" statistics
 *     the Info pane.  Model load and warm-up come before the test they
 *     belong to, so a run begins at whichever comes first and ends at its
 *     "=== finished" line; the next line of any of these kinds opens the
 *     next run.
 *   - profile_analyze: the summary table and the top-k tables (fancy_grid,
 *     whose logical rows span several lines, or the --confluence org
 *     table) form a run of their own, titled "profile_analyze": they
 *     describe a --profile JSON, not the load_and_run runs printed near
 *     them.  A --show-host table joins the device table before it by
 *     operator id.
 *
 * "megengine-json" reads load_and_run --profile JSON (to_json_full): the
 * operators with their device and host time (max over comp nodes of
 * end - start, as profile_analyze computes it), FLOPs, memory and shapes,
 * grouped by type in the tree, in execution order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/util.h"
#include "json.h"
#include "num.h"
#include "../model/strbuf.h"
#include "parser.h"
#include "text.h"

/* ------------------------------------------------------------------ */
/* Shared bits                                                          */

/* NS as milliseconds, "237.634 ms": at least three decimals, more only
 * when the value has them (profile_analyze prints seconds to 6 digits). */
static void fmt_ms(char *out, size_t size, int64_t ns)
{
	uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	char frac[8];
	int n = 6;

	snprintf(frac, sizeof(frac), "%06llu", (unsigned long long)(a % 1000000));
	while (n > 3 && frac[n - 1] == '0')
		n--;
	snprintf(out, size, "%s%llu.%.*s ms", ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000000), n, frac);
}

/* The shapes of a node, "{1,512,14,14} {512,512,3,3}". */
static void set_shapes(struct profile *p, struct node *n, const char *key, const struct strbuf *b)
{
	if (b->len)
		attr_set_str(p, &n->attrs, key, b->s, b->len);
}

/* ------------------------------------------------------------------ */
/* Text: load_and_run and profile_analyze                               */

enum phase {
	PH_EMPTY,		/* the run holds nothing of load_and_run yet */
	PH_PRE,			/* model load, prepare, warm-up */
	PH_TEST,		/* a test started or printed iterations */
	PH_DONE,		/* its "=== finished" line was read */
	PH_ANALYZE,		/* profile_analyze output */
};

/* What a table column holds, from its header. */
enum role {
	R_NONE,
	R_TIME,			/* fancy_grid: "#k" / seconds / percent */
	R_CUM,			/* fancy_grid: seconds / percent */
	R_INFO,			/* fancy_grid: name, type, id, wrapped */
	R_COMP, R_FLOPS, R_MEM, R_BW,	/* fancy_grid: number / unit */
	R_IN, R_OUT,		/* one shape a line, or ", " in org tables */
	R_NR,			/* org: "#" */
	R_SECS,			/* org: "time" in seconds */
	R_RATIO,		/* org: "ratio" percent */
	R_CUM_SECS,		/* org: "cum-time" */
	R_CUM_RATIO,		/* org: "cum-time ratio", a fraction */
	R_NAME, R_TYPE, R_ID, R_COUNT,	/* org: "opr name"... */
	R_MFLO, R_MFLOPS,	/* org: scaled by 10^6 */
	R_MIB, R_MIBS,		/* org: scaled by 2^20 */
};

enum table_kind { T_NONE, T_GRID, T_ORG, T_SKIP };

#define MAX_COLS 24
#define MAX_CELL_BYTES (256 * 1024)

struct table {
	enum table_kind kind;
	bool has_header;	/* grid: the header line was read */
	bool is_host;		/* "host self time" */
	bool in_row;		/* grid: lines of a row were read */
	bool row_bad;		/* ... and one did not fit the header */
	size_t row_lines;	/* grid: lines of the row so far */
	size_t nr_cols;
	uint8_t role[MAX_COLS];
	struct strbuf cell[MAX_COLS];	/* grid: a row's lines per column */
	uint64_t row_line;
	size_t nr_rows;
	uint64_t line;		/* where the table starts */
	struct node *last;	/* org: the row continuation lines add to */
};

struct mge {
	struct profile *first;
	struct profile *run;	/* where lines go now */
	struct input *in;
	struct diag *d;
	enum phase phase;
	bool run_used;		/* the run holds something */
	bool test_started;	/* a "going to run"/"run testcase" line */
	bool has_device_table, has_host_table, has_summary;
	bool want_options;	/* the line after "profile option:" */
	int64_t announced;	/* N of "iter i/N", 0 = none yet */
	int64_t step_sum_ns;	/* Σ iteration times of the run */
	struct strbuf lar_cmd, pa_cmd;	/* a command line just before output */
	uint64_t nr_items;	/* lines recognised */
	struct table t;
};

static struct pos here(const struct mge *m, size_t col)
{
	struct pos at = { m->in->lineno, col + 1 };

	return at;
}

#define UNREADABLE "unreadable load_and_run or profile_analyze lines, skipped"

/* A line we could not read: quote it (cut) in the message. */
static void unreadable_line(struct mge *m, const char *what, const char *s, size_t len)
{
	struct pos at = here(m, 0);

	if (!diag_would_print(m->d, UNREADABLE)) {
		diag_warn(m->d, &at, UNREADABLE, "%s", what);
		return;
	}
	diag_warn(m->d, &at, UNREADABLE, "cannot read %s '%.*s'", what,
		  (int)(len > 80 ? 80 : len), s);
}

static void meta(struct mge *m, const char *section, const char *key, const char *s, size_t n)
{
	char *v = xstrndup(s, n);

	profile_meta(m->run, section, key, v);
	free(v);
}

static void meta_ms(struct mge *m, const char *section, const char *key, int64_t ns)
{
	char v[48];

	fmt_ms(v, sizeof(v), ns);
	profile_meta(m->run, section, key, v);
}

/* Per-run checks when a load_and_run run ends. */
static void end_run(struct mge *m)
{
	if (m->phase == PH_TEST && m->announced && (int64_t)m->run->nr_steps < m->announced) {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "tests cut short (fewer iterations than announced)",
			  "test ends after %zu of %lld iterations", m->run->nr_steps,
			  (long long)m->announced);
	}
}

/* Start the next run unless the current one is still empty. */
static void next_run(struct mge *m)
{
	char where[600];

	if (!m->run_used)
		return;
	end_run(m);
	snprintf(where, sizeof(where), "%s:%llu", m->in->path,
		 (unsigned long long)m->in->lineno);
	m->run = profile_add_run(m->first, where);
	m->run_used = false;
	m->phase = PH_EMPTY;
	m->test_started = false;
	m->has_device_table = m->has_host_table = m->has_summary = false;
	m->announced = 0;
	m->step_sum_ns = 0;
}

/* Mark the run used; the first time, the command line printed just before
 * (in a document or a shell transcript) goes to its Info pane. */
static void use_run(struct mge *m, bool analyze)
{
	struct strbuf *cmd = analyze ? &m->pa_cmd : &m->lar_cmd;

	m->nr_items++;
	if (m->run_used)
		return;
	m->run_used = true;
	if (cmd->len)
		profile_meta(m->run, analyze ? "profile_analyze" : "load_and_run", "command", cmd->s);
	strbuf_reset(&m->lar_cmd);
	strbuf_reset(&m->pa_cmd);
}

/* Model load, prepare, warm-up, version: what comes before a test. */
static void lar_pre(struct mge *m)
{
	if (m->phase == PH_DONE || m->phase == PH_ANALYZE ||
	    (m->phase == PH_TEST && m->run->nr_steps))
		next_run(m);
	if (m->phase == PH_EMPTY)
		m->phase = PH_PRE;
	use_run(m, false);
}

/* "=== going to run ...", "run testcase: k". */
static void lar_test_start(struct mge *m)
{
	if (m->test_started || m->run->nr_steps || m->phase == PH_DONE || m->phase == PH_ANALYZE)
		next_run(m);
	m->phase = PH_TEST;
	m->test_started = true;
	use_run(m, false);
}

/* An iteration. */
static void lar_step(struct mge *m)
{
	if (m->phase == PH_DONE || m->phase == PH_ANALYZE)
		next_run(m);
	m->phase = PH_TEST;
	use_run(m, false);
}

static void set_title(struct mge *m, const char *s, size_t n)
{
	char title[64];

	if (m->run->run_title)
		return;
	snprintf(title, sizeof(title), "test #%.*s", (int)(n > 20 ? 20 : n), s);
	m->run->run_title = profile_strdup(m->run, title);
}

/* Digits at *P (advanced past them); false if none. */
static bool digits(const char **p, const char *end, const char **s, size_t *n)
{
	const char *q = *p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == *p)
		return false;
	*s = *p;
	*n = (size_t)(q - *p);
	*p = q;
	return true;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* A time in ms ("245.185ms", "141.249 ms", "10.574"); NAN values ("nan",
 * "-nan", "nanms": the sd of a single iteration is 0/0) set *IS_NAN. */
static bool ms_value(const char *s, size_t n, int64_t *ns, bool *is_nan)
{
	size_t k = n;

	s = text_trim(s, &k);
	*is_nan = false;
	if (k >= 2 && s[k - 2] == 'm' && s[k - 1] == 's') {
		size_t j = k - 2;
		const char *v = text_trim(s, &j);

		if (text_eq(v, j, "nan") || text_eq(v, j, "-nan")) {
			*is_nan = true;
			return true;
		}
	}
	if (text_eq(s, k, "nan") || text_eq(s, k, "-nan")) {
		*is_nan = true;
		return true;
	}
	return num_time_ns(s, k, 6, ns) && *ns >= 0;
}

/* "iter 0/10: 245.185ms (exec=10.574,device=242.226)", "iter 0/10:
 * 141.249 ms (exec=1.066 ms)", "iter 0/10: e2e=141.249 ms (host=1.066 ms)". */
static bool lar_iter(struct mge *m, const char *s, size_t len)
{
	const char *p = s + 5, *end = s + len, *idx, *nr, *open, *close;
	size_t idx_len, nr_len;
	int64_t total, exec = -1, device = -1, v, n_iter;
	bool is_nan;
	struct step *st;

	if (!digits(&p, end, &idx, &idx_len) || p == end || *p != '/')
		return false;
	p++;
	if (!digits(&p, end, &nr, &nr_len) || p == end || *p != ':')
		return false;
	p = skip_blanks(p + 1, end);
	open = memchr(p, '(', (size_t)(end - p));
	if (text_starts(p, (size_t)(end - p), "e2e="))
		p += 4;
	if (!ms_value(p, (size_t)((open ? open : end) - p), &total, &is_nan) || is_nan) {
		unreadable_line(m, "iteration", s, len);
		return true;
	}
	if (open) {
		close = memchr(open, ')', (size_t)(end - open));
		if (!close) {
			unreadable_line(m, "iteration", s, len);
			return true;
		}
		for (const char *f = open + 1; f < close;) {
			const char *comma = memchr(f, ',', (size_t)(close - f));
			const char *fe = comma ? comma : close;
			size_t flen = (size_t)(fe - f);
			const char *field = text_trim(f, &flen);
			const char *eq = memchr(field, '=', flen);

			if (eq) {
				size_t klen = (size_t)(eq - field);
				bool ok = ms_value(eq + 1, flen - klen - 1, &v, &is_nan) && !is_nan;

				if (!ok) {
					unreadable_line(m, "iteration", s, len);
					return true;
				}
				if (text_eq(field, klen, "exec") || text_eq(field, klen, "host"))
					exec = v;
				else if (text_eq(field, klen, "device"))
					device = v;
			}
			f = fe + 1;
		}
	}
	if (!num_int(nr, nr_len, &n_iter))
		n_iter = 0;
	lar_step(m);
	if (!m->run->nr_steps && !m->run->nr_step_cats) {
		const char *cats[2] = { "Exec", "Device" };

		profile_set_step_cats(m->run, cats, device >= 0 ? 2 : 1);
	}
	{
		int64_t i;

		if (!num_int(idx, idx_len, &i) || i != (int64_t)m->run->nr_steps ||
		    (m->announced && n_iter != m->announced)) {
			struct pos at = here(m, 0);

			diag_warn(m->d, &at, "iterations out of order or missing",
				  "iteration %.*s/%.*s after %zu iterations", (int)idx_len, idx,
				  (int)nr_len, nr, m->run->nr_steps);
		}
		if (!m->announced)
			m->announced = n_iter;
	}
	st = profile_add_step(m->run, idx, idx_len);
	st->total_ns = total;
	if (exec >= 0 && m->run->nr_step_cats > 0)
		st->cat_ns[0] = exec;
	if (device >= 0 && m->run->nr_step_cats > 1)
		st->cat_ns[1] = device;
	m->step_sum_ns += total;
	return true;
}

/* "=== finished test #0: time=2376.339ms avg_time=237.634ms sd=2.668ms
 * minmax=236.321,245.185" and its two later forms (sexec= ... min= max=,
 * standard_deviation= ... min= max=). */
static void lar_finished(struct mge *m, const char *s, size_t len)
{
	const char *p = s + strlen("=== finished test #"), *end = s + len, *k;
	size_t k_len, nr;
	struct field f[32];

	if (!digits(&p, end, &k, &k_len) || p == end || *p != ':') {
		unreadable_line(m, "test summary", s, len);
		return;
	}
	p++;
	if (m->phase == PH_DONE || m->phase == PH_ANALYZE)
		next_run(m);
	use_run(m, false);
	set_title(m, k, k_len);
	nr = text_split1(p, (size_t)(end - p), f, ARRAY_SIZE(f));
	if (nr > ARRAY_SIZE(f))
		nr = ARRAY_SIZE(f);
	for (size_t i = 0; i < nr; i++) {
		const char *eq = memchr(f[i].s, '=', f[i].len);
		const char *key, *val;
		size_t klen, vlen;
		int64_t ns, ns2;
		bool is_nan, is_nan2;
		char vbuf[64];

		if (!eq)
			continue;
		key = f[i].s;
		klen = (size_t)(eq - key);
		val = eq + 1;
		vlen = f[i].len - klen - 1;
		/* "time=1331.010 ms": the unit is a field of its own */
		if (i + 1 < nr && text_eq(f[i + 1].s, f[i + 1].len, "ms")) {
			vlen = (size_t)(f[i + 1].s + 2 - val);
			i++;
		}
		if (text_eq(key, klen, "minmax")) {
			const char *comma = memchr(val, ',', vlen);

			if (!comma || !ms_value(val, (size_t)(comma - val), &ns, &is_nan) ||
			    !ms_value(comma + 1, vlen - (size_t)(comma - val) - 1, &ns2, &is_nan2) ||
			    is_nan || is_nan2) {
				unreadable_line(m, "test summary", s, len);
				continue;
			}
			meta_ms(m, "load_and_run", "min", ns);
			meta_ms(m, "load_and_run", "max", ns2);
			continue;
		}
		if (!ms_value(val, vlen, &ns, &is_nan)) {
			unreadable_line(m, "test summary", s, len);
			continue;
		}
		if (is_nan)
			snprintf(vbuf, sizeof(vbuf), "nan");
		else
			fmt_ms(vbuf, sizeof(vbuf), ns);
		if (text_eq(key, klen, "time")) {
			profile_meta(m->run, "load_and_run", "time", vbuf);
			/* time= is the sum of the iterations, each printed to
			 * 0.0005 ms: more than that apart means lines are lost */
			if (!is_nan && m->run->nr_steps &&
			    llabs(ns - m->step_sum_ns) > (long long)(m->run->nr_steps + 1) * 500) {
				struct pos at = here(m, 0);

				diag_warn(m->d, &at, "test times that differ from the sum of their iterations",
					  "test time %s is not the sum of its %zu iterations", vbuf,
					  m->run->nr_steps);
			}
		} else if (text_eq(key, klen, "avg_time")) {
			profile_meta(m->run, "load_and_run", "avg", vbuf);
		} else if (text_eq(key, klen, "sd") || text_eq(key, klen, "sexec") ||
			   text_eq(key, klen, "standard_deviation")) {
			profile_meta(m->run, "load_and_run", "sd", vbuf);
		} else if (text_eq(key, klen, "min") || text_eq(key, klen, "max")) {
			profile_meta(m->run, "load_and_run", klen == 3 && key[1] == 'i' ? "min" : "max",
				     vbuf);
		}
	}
	if (m->announced && (int64_t)m->run->nr_steps < m->announced) {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "tests cut short (fewer iterations than announced)",
			  "test #%.*s ends after %zu of %lld iterations", (int)k_len, k,
			  m->run->nr_steps, (long long)m->announced);
	}
	m->phase = PH_DONE;
}

/* "KEY: 198.030ms" style lines: the time after PREFIX up to END_AT (or
 * the end) goes to the Info pane as KEY. */
static void lar_time_meta(struct mge *m, const char *s, size_t len, size_t skip, const char *stop,
			  const char *key)
{
	const char *p = s + skip, *end = s + len, *e = stop ? text_find(p, (size_t)(end - p), stop) : NULL;
	int64_t ns;
	bool is_nan;

	if (!ms_value(p, (size_t)((e ? e : end) - p), &ns, &is_nan) || is_nan) {
		unreadable_line(m, key, s, len);
		return;
	}
	lar_pre(m);
	meta_ms(m, "load_and_run", key, ns);
}

/* "warmup 0: 581.284ms", "warm up 0  355.658ms", "warm up 0 time 3.2 ms". */
static void lar_warmup(struct mge *m, const char *s, size_t len, size_t skip)
{
	const char *p = s + skip, *end = s + len, *k;
	size_t k_len;
	char key[48];
	int64_t ns;
	bool is_nan;

	if (!digits(&p, end, &k, &k_len)) {
		unreadable_line(m, "warm-up", s, len);
		return;
	}
	if (p < end && *p == ':')
		p++;
	p = skip_blanks(p, end);
	if (text_starts(p, (size_t)(end - p), "time "))
		p += 5;
	if (!ms_value(p, (size_t)(end - p), &ns, &is_nan) || is_nan) {
		unreadable_line(m, "warm-up", s, len);
		return;
	}
	lar_pre(m);
	snprintf(key, sizeof(key), "warmup %.*s", (int)(k_len > 20 ? 20 : k_len), k);
	meta_ms(m, "load_and_run", key, ns);
}

/* A step with a total time only: "=== finished run #3: time=12.1ms"
 * (benchmark mode) and "run iter 3 time 12.1 ms" (fitting mode). */
static void lar_plain_step(struct mge *m, const char *s, size_t len, size_t skip, const char *sep)
{
	const char *p = s + skip, *end = s + len, *k;
	size_t k_len;
	int64_t ns, i;
	bool is_nan;
	struct step *st;

	if (!digits(&p, end, &k, &k_len) || !text_starts(p, (size_t)(end - p), sep) ||
	    !ms_value(p + strlen(sep), (size_t)(end - p) - strlen(sep), &ns, &is_nan) || is_nan) {
		unreadable_line(m, "iteration", s, len);
		return;
	}
	lar_step(m);
	if (!num_int(k, k_len, &i) || i != (int64_t)m->run->nr_steps) {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "iterations out of order or missing",
			  "iteration %.*s after %zu iterations", (int)k_len, k, m->run->nr_steps);
	}
	st = profile_add_step(m->run, k, k_len);
	st->total_ns = ns;
	m->step_sum_ns += ns;
}

/* "=== going to run ..." in its four forms. */
static void lar_going(struct mge *m, const char *s, size_t len)
{
	const char *p = s + strlen("=== going to run "), *end = s + len, *k, *n;
	size_t k_len, n_len;
	const char *vars = text_find(p, (size_t)(end - p), "output vars: ");
	int64_t nr;

	if (text_starts(p, (size_t)(end - p), "test #")) {
		/* "=== going to run test #0 for 10 times" */
		p += 6;
		if (!digits(&p, end, &k, &k_len)) {
			unreadable_line(m, "test start", s, len);
			return;
		}
		lar_test_start(m);
		set_title(m, k, k_len);
		p = skip_blanks(p, end);
		if (text_starts(p, (size_t)(end - p), "for ")) {
			p += 4;
			if (digits(&p, end, &n, &n_len) && num_int(n, n_len, &nr))
				m->announced = nr;
		}
		return;
	}
	if (text_starts(p, (size_t)(end - p), "input for ") || text_starts(p, (size_t)(end - p), "for ")) {
		/* "input for 10 times"; "for 10 times; output vars: ..." */
		p += text_starts(p, (size_t)(end - p), "for ") ? 4 : 10;
		lar_test_start(m);
		if (digits(&p, end, &n, &n_len) && num_int(n, n_len, &nr))
			m->announced = nr;
	} else if (digits(&p, end, &n, &n_len) && text_starts(p, (size_t)(end - p), " testcases")) {
		/* "=== going to run 3 testcases; output vars: ..." */
		lar_pre(m);
		meta(m, "load_and_run", "testcases", n, n_len);
	} else {
		unreadable_line(m, "test start", s, len);
		return;
	}
	if (vars) {
		vars += strlen("output vars: ");
		meta(m, "load_and_run", "output vars", vars, (size_t)(end - vars));
	}
}

/* One line of load_and_run output, or false. */
static bool lar_line(struct mge *m, const char *s, size_t len)
{
	if (m->want_options) {
		m->want_options = false;
		meta(m, "load_and_run", "options", s, len);
		return true;
	}
	if (text_starts(s, len, "iter ") && len > 5 && s[5] >= '0' && s[5] <= '9')
		return lar_iter(m, s, len);
	if (text_starts(s, len, "=== finished test #")) {
		lar_finished(m, s, len);
		return true;
	}
	if (text_starts(s, len, "=== finished run #")) {
		lar_plain_step(m, s, len, strlen("=== finished run #"), ": time=");
		return true;
	}
	if (text_starts(s, len, "run iter ")) {
		lar_plain_step(m, s, len, strlen("run iter "), " time ");
		return true;
	}
	if (text_starts(s, len, "=== going to run ")) {
		lar_going(m, s, len);
		return true;
	}
	if (text_starts(s, len, "run testcase:")) {
		const char *p = skip_blanks(s + 13, s + len), *k;
		size_t k_len;

		lar_test_start(m);
		if (digits(&p, s + len, &k, &k_len))
			set_title(m, k, k_len);
		return true;
	}
	if (text_starts(s, len, "load model:")) {
		lar_time_meta(m, s, len, 11, NULL, "load model");
		return true;
	}
	if (text_starts(s, len, "=== prepare:")) {
		lar_time_meta(m, s, len, 12, ";", "prepare");
		return true;
	}
	if (text_starts(s, len, "config model time ")) {
		lar_time_meta(m, s, len, 18, NULL, "config model");
		return true;
	}
	if ((text_starts(s, len, "warmup ") && len > 7 && s[7] >= '0' && s[7] <= '9') ||
	    (text_starts(s, len, "warm up ") && len > 8 && s[8] >= '0' && s[8] <= '9')) {
		lar_warmup(m, s, len, s[4] == ' ' ? 8 : 7);
		return true;
	}
	if (text_starts(s, len, "=== total time:")) {
		int64_t ns;
		bool is_nan;

		if (!ms_value(s + 15, len - 15, &ns, &is_nan) || is_nan) {
			unreadable_line(m, "total time", s, len);
			return true;
		}
		if (m->phase == PH_ANALYZE)
			next_run(m);
		use_run(m, false);
		meta_ms(m, "load_and_run", "total time", ns);
		return true;
	}
	if (text_starts(s, len, "avg time:") || text_starts(s, len, "average time = ")) {
		size_t skip = text_starts(s, len, "avg time:") ? 9 : 15;
		int64_t ns;
		bool is_nan;

		if (!ms_value(s + skip, len - skip, &ns, &is_nan) || is_nan) {
			unreadable_line(m, "average time", s, len);
			return true;
		}
		if (m->phase == PH_ANALYZE || m->phase == PH_DONE)
			next_run(m);
		use_run(m, false);
		meta_ms(m, "load_and_run", "avg", ns);
		m->phase = PH_DONE;
		return true;
	}
	if (text_starts(s, len, "profile option:")) {
		/* fitting mode: the option code is the next line, then its
		 * average time, which ends the run; the iterations before
		 * belong to it */
		if (m->phase == PH_ANALYZE || m->phase == PH_DONE)
			next_run(m);
		use_run(m, false);
		m->want_options = true;
		return true;
	}
	{
		/* "mgb load-and-run: using MegBrain 8.4.1(0) and MegDNN 9.3.0";
		 * the newest tool prints "megbrain/lite/load_and_run:" on a line
		 * of its own before "using MegBrain ..." */
		const char *p = s;
		size_t n = len;

		if (text_starts(p, n, "mgb load-and-run: ")) {
			p += 18;
			n -= 18;
		}
		if (n > 15 && !strncasecmp(p, "using megbrain ", 15)) {
			lar_pre(m);
			meta(m, "load_and_run", "version", p + 6, n - 6);
			return true;
		}
		if (text_eq(s, len, "megbrain/lite/load_and_run:")) {
			lar_pre(m);
			return true;
		}
	}
	return false;
}

/* profile_analyze ------------------------------------------------------ */

/* The summary, "total device time  0.126343" (tabulate "simple") or
 * "| total device time | 0.126343 |" (--confluence), seconds; "N/A" when
 * the profile lacks such times; with --copy-time also "copy time
 * tot=0.0012 avg=0.0001".  False for anything else (prose that starts with
 * the same words). */
static bool pa_summary(struct mge *m, const char *s, size_t len)
{
	static const char *const keys[] = { "total device time", "total host time", "copy time",
					    "copy wait time" };
	const char *p = s, *end = s + len, *val;
	size_t i, vlen, nr = 0;
	int64_t ns[2] = { 0, 0 };
	bool na = false;
	struct field f[4];

	if (p < end && *p == '|')
		p = skip_blanks(p + 1, end);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (text_starts(p, (size_t)(end - p), keys[i]))
			break;
	if (i == ARRAY_SIZE(keys))
		return false;
	val = p + strlen(keys[i]);
	vlen = (size_t)(end - val);
	while (vlen && (val[vlen - 1] == '|' || val[vlen - 1] == ' '))
		vlen--;
	if (!vlen || (*val != ' ' && *val != '|'))
		return false;
	while (vlen && (*val == '|' || *val == ' '))
		val++, vlen--;
	if (i < 2) {
		na = text_eq(val, vlen, "N/A");
		if (!na && (!num_time_ns(val, vlen, 9, &ns[0]) || ns[0] < 0))
			return false;
	} else {
		nr = text_split1(val, vlen, f, ARRAY_SIZE(f));
		if (nr != 2 || !text_starts(f[0].s, f[0].len, "tot=") ||
		    !text_starts(f[1].s, f[1].len, "avg=") ||
		    !num_time_ns(f[0].s + 4, f[0].len - 4, 9, &ns[0]) ||
		    !num_time_ns(f[1].s + 4, f[1].len - 4, 9, &ns[1]))
			return false;
	}
	if (m->phase != PH_ANALYZE || (i == 0 && (m->has_summary || m->has_device_table ||
						  m->has_host_table)))
		next_run(m);
	if (!m->run->run_title)
		m->run->run_title = profile_strdup(m->run, "profile_analyze");
	m->phase = PH_ANALYZE;
	m->has_summary = true;
	use_run(m, true);
	if (i < 2) {
		if (na)
			profile_meta(m->run, "profile_analyze", keys[i], "N/A");
		else
			meta_ms(m, "profile_analyze", keys[i], ns[0]);
	} else {
		char key[48];

		snprintf(key, sizeof(key), "%s total", keys[i]);
		meta_ms(m, "profile_analyze", key, ns[0]);
		snprintf(key, sizeof(key), "%s avg", keys[i]);
		meta_ms(m, "profile_analyze", key, ns[1]);
	}
	return true;
}

/* A table of profile_analyze begins: its run. */
static void pa_table_run(struct mge *m, bool is_host)
{
	if (m->phase != PH_ANALYZE || (is_host ? m->has_host_table : m->has_device_table))
		next_run(m);
	if (!m->run->run_title)
		m->run->run_title = profile_strdup(m->run, "profile_analyze");
	m->phase = PH_ANALYZE;
	if (is_host)
		m->has_host_table = true;
	else
		m->has_device_table = true;
	use_run(m, true);
}

/* What one row of a top-k table says about an operator. */
struct pa_row {
	struct strbuf name, type, id, count, in_shapes, out_shapes;
	int64_t time_ns, cum_ns;
	double time_pct, cum_pct, flops, flops_per_s;
	int64_t memory;
	double bandwidth;		/* bytes/s: a rate, like FLOPS */
	bool has_time_pct, has_cum, has_cum_pct, has_flops, has_flops_per_s, has_memory,
		has_bandwidth;
};

static void row_release(struct pa_row *r)
{
	strbuf_release(&r->name);
	strbuf_release(&r->type);
	strbuf_release(&r->id);
	strbuf_release(&r->count);
	strbuf_release(&r->in_shapes);
	strbuf_release(&r->out_shapes);
}

static bool is_na(const char *s, size_t n)
{
	return text_eq(s, n, "N/A") || text_eq(s, n, "None") || text_eq(s, n, "nan") ||
	       text_eq(s, n, "inf") || text_eq(s, n, "-inf");
}

/* The operator a host table row describes, if the device table has it. */
static struct node *find_op(struct profile *p, const struct pa_row *r)
{
	for (struct node *n = p->root->child; n; n = n->next) {
		const struct attr *id = attr_find(n->attrs, "id");

		if (n->kind != NODE_OP)
			continue;
		if (r->id.len && id && id->type == ATTR_STRING && !strcmp(id->v.s, r->id.s))
			return n;
		if (!r->id.len && !id && !strcmp(n->name, r->name.s))
			return n;
	}
	return NULL;
}

/* One operator row becomes an op node (device table) or adds its host
 * time to the device table's node (host table). */
static struct node *pa_add(struct mge *m, struct pa_row *r, bool is_host)
{
	struct profile *p = m->run;
	struct node *n;

	if (!r->name.len) {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "unreadable profile_analyze rows, skipped",
			  "profile_analyze row without an operator name");
		return NULL;
	}
	n = is_host ? find_op(p, r) : NULL;
	if (n) {
		n->host_self_ns = n->host_total_ns = r->time_ns;
		return n;
	}
	n = node_new(p, p->root, NODE_OP, r->name.s, r->name.len);
	n->flags |= NODE_DISTINCT;
	n->calls = 1;
	if (is_host) {
		n->host_self_ns = n->host_total_ns = r->time_ns;
	} else {
		n->device_self_ns = n->device_total_ns = r->time_ns;
		n->min_ns = n->max_ns = r->time_ns;
	}
	if (r->type.len)
		attr_set_str(p, &n->attrs, "type", r->type.s, r->type.len);
	if (r->count.len) {
		int64_t c;

		if (num_int(r->count.s, r->count.len, &c))
			attr_set_int(p, &n->attrs, "nr_oprs", c);
	}
	if (r->id.len)
		attr_set_str(p, &n->attrs, "id", r->id.s, r->id.len);
	/* shares and rates of a host table are of host time: they would
	 * read as device figures in these columns */
	if (!is_host) {
		if (r->has_cum)
			attr_set_ns(p, &n->attrs, "cumulative_ns", r->cum_ns);
		if (r->has_cum_pct)
			attr_set_double(p, &n->attrs, "cumulative_pct", r->cum_pct);
		if (r->has_time_pct)
			attr_set_double(p, &n->attrs, "time_pct", r->time_pct);
	}
	if (r->has_flops)
		attr_set_double(p, &n->attrs, "flops", r->flops);
	if (r->has_flops_per_s && !is_host)
		attr_set_double(p, &n->attrs, "flops_per_s", r->flops_per_s);
	if (r->has_memory)
		attr_set_int(p, &n->attrs, "memory_bytes", r->memory);
	if (r->has_bandwidth && !is_host)
		attr_set_double(p, &n->attrs, "bandwidth_bytes_per_s", r->bandwidth);
	set_shapes(p, n, "input_shapes", &r->in_shapes);
	set_shapes(p, n, "output_shapes", &r->out_shapes);
	return n;
}

/* The I-th line (0-based) of a grid cell, trimmed; false past the end. */
static bool cell_line(const struct strbuf *b, size_t i, const char **s, size_t *n)
{
	const char *p = b->s, *end = b->s + b->len;

	if (!p)
		return false;
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!i--) {
			*s = p;
			*n = (size_t)((nl ? nl : end) - p);
			return true;
		}
		if (!nl)
			return false;
		p = nl + 1;
	}
}

/* The non-empty lines of a cell, in order. */
static size_t cell_lines(const struct strbuf *b, const char **s, size_t *n, size_t max)
{
	size_t nr = 0, len;
	const char *l;

	for (size_t i = 0; nr < max && cell_line(b, i, &l, &len); i++)
		if (len) {
			s[nr] = l;
			n[nr++] = len;
		}
	return nr;
}

/*
 * "231.21" + "MFLO", "9.48" + "MiB", "24.18" + "GiB/s", "N/A" + "FLO".
 * profile_analyze.py picks the prefix with get_number_with_unit(x, unit,
 * base): base 1000 for computation and FLOPS (so MFLO is 10^6 FLO, as
 * num_si() reads it), base 1024 for memory and bandwidth ("KiB", "MiB";
 * plain "byte" below 1024), which num_bytes() reads.
 */
static bool unit_value(const struct strbuf *b, const char *unit, double *d, int64_t *bytes,
		       bool *present)
{
	const char *l[2];
	size_t n[2];
	char text[96];
	size_t nr = cell_lines(b, l, n, 2), tl;

	*present = false;
	if (!nr)
		return true;
	if (is_na(l[0], n[0]))
		return true;
	if (nr < 2 || n[0] + n[1] + 2 > sizeof(text))
		return false;
	tl = (size_t)snprintf(text, sizeof(text), "%.*s %.*s", (int)n[0], l[0], (int)n[1], l[1]);
	if (!unit) {
		/* memory, or a rate of it: strip "/s" */
		if (tl > 2 && !strcmp(text + tl - 2, "/s"))
			tl -= 2;
		if (!num_bytes(text, tl, bytes) || *bytes < 0)
			return false;
	} else if (!num_si(text, tl, unit, d) || !isfinite(*d) || *d < 0) {
		return false;
	}
	*present = true;
	return true;
}

/* Shapes one a line ("{1,512,14,14}"), with " -[strides]" lines after
 * those of non-contiguous inputs: "{a,b} {c,d}-[x,y]". */
static void shapes_from_lines(struct strbuf *out, const char *const *l, const size_t *n, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (is_na(l[i], n[i]))
			continue;
		if (out->len && l[i][0] != '-')
			strbuf_addch(out, ' ');
		strbuf_add(out, l[i], n[i]);
	}
}

#define MAX_CELL_LINES 256

/* The grid row in t->cell becomes an operator. */
static void grid_row(struct mge *m)
{
	struct table *t = &m->t;
	struct pa_row r;
	const char *l[MAX_CELL_LINES];
	size_t n[MAX_CELL_LINES], nr;
	bool ok = true, present;
	int64_t bytes = 0;

	memset(&r, 0, sizeof(r));
	for (size_t c = 0; c < t->nr_cols && ok; c++) {
		const struct strbuf *b = &t->cell[c];

		switch (t->role[c]) {
		case R_TIME:
			/* "#0" / "0.000383" / "3.2%" */
			nr = cell_lines(b, l, n, 3);
			ok = nr >= 2 && l[0][0] == '#' && num_time_ns(l[1], n[1], 9, &r.time_ns) &&
			     r.time_ns >= 0;
			if (ok && nr == 3)
				r.has_time_pct = num_pct(l[2], n[2], &r.time_pct) && isfinite(r.time_pct);
			break;
		case R_CUM:
			nr = cell_lines(b, l, n, 2);
			if (nr >= 1)
				r.has_cum = num_time_ns(l[0], n[0], 9, &r.cum_ns) && r.cum_ns >= 0;
			if (nr >= 2)
				r.has_cum_pct = num_pct(l[1], n[1], &r.cum_pct) && isfinite(r.cum_pct);
			break;
		case R_INFO: {
			/* values wrapped at 30 characters (textwrap.wrap), the
			 * rest of each on lines that start "-  ".  XXX: textwrap
			 * breaks at blanks too and drops the blank; names with
			 * spaces come back without it, and nothing in the table
			 * says where it was */
			struct strbuf *val[3] = { &r.name, &r.type, &r.id };
			size_t nv = 0;

			nr = cell_lines(b, l, n, MAX_CELL_LINES);
			for (size_t i = 0; i < nr; i++) {
				if (nv && text_starts(l[i], n[i], "-  ")) {
					if (nv <= 3)
						strbuf_add(val[nv - 1], l[i] + 3, n[i] - 3);
					continue;
				}
				nv++;
				if (nv <= 3)
					strbuf_add(val[nv - 1], l[i], n[i]);
			}
			/* --aggregate-by type: type, number of operators, "N/A" */
			if (nv == 3 && text_eq(r.id.s, r.id.len, "N/A")) {
				int64_t cnt;

				if (num_int(r.type.s, r.type.len, &cnt)) {
					strbuf_reset(&r.count);
					strbuf_add(&r.count, r.type.s, r.type.len);
					strbuf_reset(&r.type);
					strbuf_add(&r.type, r.name.s, r.name.len);
				}
				strbuf_reset(&r.id);
			}
			break;
		}
		case R_COMP:
			ok = unit_value(b, "FLO", &r.flops, NULL, &present);
			r.has_flops = present;
			break;
		case R_FLOPS:
			ok = unit_value(b, "FLOPS", &r.flops_per_s, NULL, &present);
			r.has_flops_per_s = present;
			break;
		case R_MEM:
			ok = unit_value(b, NULL, NULL, &r.memory, &present);
			r.has_memory = present;
			break;
		case R_BW:
			ok = unit_value(b, NULL, NULL, &bytes, &present);
			r.bandwidth = (double)bytes;
			r.has_bandwidth = present;
			break;
		case R_IN:
		case R_OUT:
			nr = cell_lines(b, l, n, MAX_CELL_LINES);
			shapes_from_lines(t->role[c] == R_IN ? &r.in_shapes : &r.out_shapes, l, n, nr);
			break;
		default:
			break;
		}
	}
	if (ok) {
		pa_add(m, &r, t->is_host);
		t->nr_rows++;
	} else {
		struct pos at = { t->row_line, 1 };

		diag_warn(m->d, &at, "unreadable profile_analyze rows, skipped",
			  "cannot read the profile_analyze row that starts here");
	}
	row_release(&r);
}

static const char BOX_V[] = "\xe2\x94\x82";	/* │ */
static const char BOX_TOP[] = "\xe2\x95\x92";	/* ╒ */
static const char BOX_HEAD[] = "\xe2\x95\x9e";	/* ╞ */
static const char BOX_MID[] = "\xe2\x94\x9c";	/* ├ */
static const char BOX_BOTTOM[] = "\xe2\x95\x98";	/* ╘ */

/* Split a "│ a │ b │" line into its cells (trimmed); returns how many
 * (possibly more than MAX). */
static size_t grid_cells(const char *s, size_t len, struct field *out, size_t max)
{
	const char *p = s, *end = s + len;
	size_t nr = 0;

	if (!text_starts(s, len, BOX_V))
		return 0;
	p += 3;
	while (p < end) {
		const char *bar = text_find(p, (size_t)(end - p), BOX_V);
		size_t n;

		if (!bar)
			break;	/* text after the last bar: not a cell */
		n = (size_t)(bar - p);
		if (nr < max) {
			out[nr].s = text_trim(p, &n);
			out[nr].len = n;
			out[nr].col = (size_t)(out[nr].s - s);
		}
		nr++;
		p = bar + 3;
	}
	return nr;
}

static void table_reset(struct table *t)
{
	for (size_t c = 0; c < MAX_COLS; c++)
		strbuf_release(&t->cell[c]);
	memset(t, 0, sizeof(*t));
}

/* The table ends at line AT_LINE (a line that is no part of it, or the end
 * of the file). */
static void table_end(struct mge *m, bool at_eof)
{
	struct table *t = &m->t;

	if (t->kind == T_GRID && t->in_row) {
		struct pos at = here(m, 0);

		if (at_eof)
			diag_error(m->d, &at, "unexpected end of file inside a profile_analyze table row; "
				   "kept the %zu rows before it", t->nr_rows);
		else
			diag_error(m->d, &at, "profile_analyze table ends inside a row; "
				   "kept the %zu rows before it", t->nr_rows);
	} else if ((t->kind == T_GRID || t->kind == T_ORG) && !t->nr_rows) {
		struct pos at = { t->line, 1 };

		diag_warn(m->d, &at, "profile_analyze tables without rows",
			  "profile_analyze table has a header but no rows");
	}
	table_reset(t);
}

/* Column roles from header cells. */
static enum role header_role(const char *s, size_t n)
{
	static const struct {
		const char *title;
		enum role role;
	} roles[] = {
		{ "device self time", R_TIME }, { "host self time", R_TIME },
		{ "cumulative", R_CUM }, { "operator info", R_INFO },
		{ "computation", R_COMP }, { "FLOPS", R_FLOPS }, { "memory", R_MEM },
		{ "bandwidth", R_BW }, { "in_shapes", R_IN }, { "out_shapes", R_OUT },
		{ "#", R_NR }, { "time", R_SECS }, { "ratio", R_RATIO },
		{ "cum-time", R_CUM_SECS }, { "cum-time ratio", R_CUM_RATIO },
		{ "opr name", R_NAME }, { "opr type", R_TYPE }, { "opr id", R_ID },
		{ "opr count", R_COUNT }, { "computation (MFLO)", R_MFLO }, { "MFLOPS", R_MFLOPS },
		{ "memory (MB)", R_MIB }, { "bandwidth (MiB/s)", R_MIBS },
	};

	for (size_t i = 0; i < ARRAY_SIZE(roles); i++)
		if (text_eq(s, n, roles[i].title))
			return roles[i].role;
	return R_NONE;
}

/* A line of a fancy_grid table, or its first line.  False when the line
 * is no part of a table (the caller reads it as anything else). */
static bool grid_line(struct mge *m, const char *s, size_t len)
{
	struct table *t = &m->t;
	struct field f[MAX_COLS + 1];
	size_t nr;

	if (text_starts(s, len, BOX_TOP)) {
		if (t->kind != T_NONE)
			table_end(m, false);
		t->kind = T_GRID;
		t->line = m->in->lineno;
		return true;
	}
	if (t->kind != T_GRID && t->kind != T_SKIP) {
		/* a header without the border above it */
		if (!text_starts(s, len, BOX_V) || !text_find(s, len, " self time"))
			return false;
		if (t->kind != T_NONE)
			table_end(m, false);
		t->kind = T_GRID;
		t->line = m->in->lineno;
	}
	if (t->kind == T_SKIP) {
		if (text_starts(s, len, BOX_V) || text_starts(s, len, BOX_HEAD) ||
		    text_starts(s, len, BOX_MID))
			return true;
		if (text_starts(s, len, BOX_BOTTOM)) {
			table_reset(t);
			return true;
		}
		table_reset(t);
		return false;
	}
	if (text_starts(s, len, BOX_HEAD))
		return true;
	if (text_starts(s, len, BOX_MID) || text_starts(s, len, BOX_BOTTOM)) {
		if (t->in_row && !t->row_bad)
			grid_row(m);
		else if (t->in_row) {
			struct pos at = { t->row_line, 1 };

			diag_warn(m->d, &at, "misaligned profile_analyze rows, skipped",
				  "row does not fit the table's %zu columns", t->nr_cols);
		}
		for (size_t c = 0; c < t->nr_cols; c++)
			strbuf_reset(&t->cell[c]);
		t->in_row = t->row_bad = false;
		t->row_lines = 0;
		if (text_starts(s, len, BOX_BOTTOM)) {
			if (!t->nr_rows)
				table_end(m, false);
			else
				table_reset(t);
		}
		return true;
	}
	nr = grid_cells(s, len, f, ARRAY_SIZE(f));
	if (!nr) {
		table_end(m, false);
		return false;
	}
	if (!t->has_header) {
		bool has_time = false;

		if (nr > MAX_COLS) {
			t->kind = T_SKIP;
			return true;
		}
		t->nr_cols = nr;
		for (size_t c = 0; c < nr; c++) {
			t->role[c] = (uint8_t)header_role(f[c].s, f[c].len);
			has_time |= t->role[c] == R_TIME;
			if (t->role[c] == R_TIME)
				t->is_host = text_starts(f[c].s, f[c].len, "host");
		}
		if (!has_time) {
			t->kind = T_SKIP;	/* some other tool's grid */
			return true;
		}
		t->has_header = true;
		pa_table_run(m, t->is_host);
		return true;
	}
	if (!t->in_row) {
		t->in_row = true;
		t->row_line = m->in->lineno;
	}
	if (nr != t->nr_cols) {
		t->row_bad = true;
		return true;
	}
	for (size_t c = 0; c < nr; c++) {
		struct strbuf *b = &t->cell[c];

		if (b->len + f[c].len > MAX_CELL_BYTES) {
			t->row_bad = true;
			return true;
		}
		/* one line of the cell a line, empty ones too: they keep
		 * the places of the lines after them */
		if (t->row_lines)
			strbuf_addch(b, '\n');
		strbuf_add(b, f[c].s, f[c].len);
	}
	t->row_lines++;
	return true;
}

/* Cells of an org-mode row "| a | b |"; returns how many. */
static size_t org_cells(const char *s, size_t len, struct field *out, size_t max)
{
	const char *p = s + 1, *end = s + len;
	size_t nr = 0;

	while (p < end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t n;

		if (!bar)
			break;
		n = (size_t)(bar - p);
		if (nr < max) {
			out[nr].s = text_trim(p, &n);
			out[nr].len = n;
			out[nr].col = (size_t)(out[nr].s - s);
		}
		nr++;
		p = bar + 1;
	}
	return nr;
}

/* "{1,512,14,14}, {512,512,3,3}" -> "{1,512,14,14} {512,512,3,3}". */
static void shapes_from_org(struct strbuf *out, const char *s, size_t n)
{
	if (!n || is_na(s, n))
		return;
	if (out->len && s[0] != '-')
		strbuf_addch(out, ' ');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ',' && i > 0 && s[i - 1] == '}' && i + 1 < n && s[i + 1] == ' ')
			continue;
		strbuf_addch(out, s[i]);
	}
}

static bool org_scaled(const char *s, size_t n, double scale, double *out, bool *present)
{
	*present = false;
	if (!n || is_na(s, n))
		return true;
	if (!num_double(s, n, out) || !isfinite(*out) || *out < 0)
		return false;
	*out *= scale;
	*present = true;
	return true;
}

static void org_row(struct mge *m, const struct field *f)
{
	struct table *t = &m->t;
	struct pa_row r;
	bool ok = true, present, cont = false;
	double d;

	memset(&r, 0, sizeof(r));
	for (size_t c = 0; c < t->nr_cols; c++)
		if (t->role[c] == R_NR && !f[c].len)
			cont = true;
	if (cont) {
		/* a multi-line cell (strides under a shape) went on here */
		for (size_t c = 0; c < t->nr_cols && t->last; c++) {
			const char *key = t->role[c] == R_IN ? "input_shapes" :
					  t->role[c] == R_OUT ? "output_shapes" : NULL;
			const struct attr *a;
			struct strbuf b;

			if (!key || !f[c].len)
				continue;
			memset(&b, 0, sizeof(b));
			a = attr_find(t->last->attrs, key);
			if (a && a->type == ATTR_STRING)
				strbuf_add(&b, a->v.s, strlen(a->v.s));
			shapes_from_org(&b, f[c].s, f[c].len);
			set_shapes(m->run, t->last, key, &b);
			strbuf_release(&b);
		}
		return;
	}
	for (size_t c = 0; c < t->nr_cols && ok; c++) {
		const char *s = f[c].s;
		size_t n = f[c].len;

		switch (t->role[c]) {
		case R_SECS:
			ok = num_time_ns(s, n, 9, &r.time_ns) && r.time_ns >= 0;
			break;
		case R_RATIO:
			r.has_time_pct = num_pct(s, n, &r.time_pct) && isfinite(r.time_pct);
			break;
		case R_CUM_SECS:
			r.has_cum = num_time_ns(s, n, 9, &r.cum_ns) && r.cum_ns >= 0;
			break;
		case R_CUM_RATIO:
			r.has_cum_pct = num_double(s, n, &d) && isfinite(d);
			r.cum_pct = d * 100;
			break;
		case R_NAME:
			strbuf_add(&r.name, s, n);
			break;
		case R_TYPE:
			strbuf_add(&r.type, s, n);
			break;
		case R_ID:
			if (!is_na(s, n))
				strbuf_add(&r.id, s, n);
			break;
		case R_COUNT:
			strbuf_add(&r.count, s, n);
			break;
		case R_MFLO:
			ok = org_scaled(s, n, 1e6, &r.flops, &present);
			r.has_flops = present;
			break;
		case R_MFLOPS:
			ok = org_scaled(s, n, 1e6, &r.flops_per_s, &present);
			r.has_flops_per_s = present;
			break;
		case R_MIB:
		case R_MIBS:
			ok = org_scaled(s, n, 1024.0 * 1024.0, &d, &present);
			if (present && d >= 9.2e18)
				ok = false;
			if (ok && present && t->role[c] == R_MIB) {
				r.memory = llround(d);
				r.has_memory = true;
			} else if (ok && present) {
				r.bandwidth = d;
				r.has_bandwidth = true;
			}
			break;
		case R_IN:
			shapes_from_org(&r.in_shapes, s, n);
			break;
		case R_OUT:
			shapes_from_org(&r.out_shapes, s, n);
			break;
		default:
			break;
		}
	}
	/* aggregated by type: the type names the row */
	if (ok && !r.name.len && r.type.len)
		strbuf_add(&r.name, r.type.s, r.type.len);
	if (ok) {
		t->last = pa_add(m, &r, t->is_host);
		t->nr_rows++;
	} else {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "unreadable profile_analyze rows, skipped",
			  "cannot read this profile_analyze row");
	}
	row_release(&r);
}

/* A line of a --confluence table, or its header. */
static bool org_line(struct mge *m, const char *s, size_t len)
{
	struct table *t = &m->t;
	struct field f[MAX_COLS + 1];
	size_t nr;

	if (!len || s[0] != '|') {
		if (t->kind == T_ORG)
			table_end(m, false);
		return false;
	}
	nr = org_cells(s, len, f, ARRAY_SIZE(f));
	if (t->kind != T_ORG) {
		bool has_time = false, has_cum = false;

		if (nr > MAX_COLS || nr < 2)
			return false;
		for (size_t c = 0; c < nr; c++) {
			enum role r = header_role(f[c].s, f[c].len);

			has_time |= r == R_SECS;
			has_cum |= r == R_CUM_SECS;
		}
		if (!has_time || !has_cum)
			return false;
		if (t->kind != T_NONE)
			table_end(m, false);
		t->kind = T_ORG;
		t->line = m->in->lineno;
		t->nr_cols = nr;
		for (size_t c = 0; c < nr; c++)
			t->role[c] = (uint8_t)header_role(f[c].s, f[c].len);
		/* --show-host prints the host table after the device one, with
		 * the same header */
		t->is_host = m->phase == PH_ANALYZE && m->has_device_table && !m->has_host_table;
		pa_table_run(m, t->is_host);
		return true;
	}
	{
		bool rule = true;

		for (size_t i = 0; i < len; i++)
			if (s[i] != '|' && s[i] != '-' && s[i] != '+' && s[i] != ':')
				rule = false;
		if (rule)
			return true;
	}
	if (nr != t->nr_cols) {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "misaligned profile_analyze rows, skipped",
			  "row has %zu cells, the header %zu", nr, t->nr_cols);
		return true;
	}
	org_row(m, f);
	return true;
}

/* A line that runs a command: "./load_and_run x.mge --iter 10", "python3
 * .../profile_analyze.py model.json -t 5" -- kept for the run after it. */
static bool command_line(struct mge *m, const char *s, size_t len)
{
	struct field f[2];
	size_t nr;

	if (len && (s[0] == '$' || s[0] == '>' || s[0] == '#')) {
		s++, len--;
		s = text_trim(s, &len);
	}
	nr = text_split1(s, len, f, 2);
	if (!nr)
		return false;
	if (f[0].len >= 12 && !memcmp(f[0].s + f[0].len - 12, "load_and_run", 12)) {
		strbuf_reset(&m->lar_cmd);
		strbuf_add(&m->lar_cmd, s, len);
		return true;
	}
	if (nr > 1 && text_starts(f[0].s, f[0].len, "python") && text_find(s, len, "profile_analyze")) {
		strbuf_reset(&m->pa_cmd);
		strbuf_add(&m->pa_cmd, s, len);
		return true;
	}
	return false;
}

/* Whether a line holds bytes no text has: NUL and control characters
 * other than tab, CR, ESC. */
static bool is_binary(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 && c != '\t' && c != '\r' && c != 0x1b)
			return true;
	}
	return false;
}

static void text_line(struct mge *m, char *line, size_t len)
{
	const char *s;
	size_t n, pre;
	bool has_prefix;

	if (is_binary(line, len)) {
		struct pos at = here(m, 0);

		if (m->t.kind != T_NONE)
			table_end(m, false);
		diag_warn(m->d, &at, "lines with binary data, skipped", "line holds binary data");
		return;
	}
	n = text_strip_ansi(line, len);
	s = text_trim(line, &n);
	pre = text_log_prefix(s, n);
	has_prefix = pre > 0;
	s += pre;
	n -= pre;
	s = text_trim(s, &n);
	if (m->t.kind == T_GRID || m->t.kind == T_SKIP || text_starts(s, n, BOX_TOP) ||
	    text_starts(s, n, BOX_V)) {
		if (grid_line(m, s, n))
			return;
	}
	if (m->t.kind == T_ORG || (n && s[0] == '|')) {
		if (org_line(m, s, n))
			return;
	}
	if (!n)
		return;
	if (lar_line(m, s, n) || pa_summary(m, s, n))
		return;
	if (command_line(m, s, n))
		return;
	/* Prose between a command and its output makes the command
	 * someone else's; log lines and tabulate's rules do not. */
	if (!has_prefix && !text_dash_spans(s, n, NULL, 0, 3, false)) {
		strbuf_reset(&m->lar_cmd);
		strbuf_reset(&m->pa_cmd);
	}
}

static int megengine_text_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct mge m;
	char *line;
	size_t len;
	int rc = 0;

	memset(&m, 0, sizeof(m));
	m.first = p;
	m.run = p;
	m.in = in;
	m.d = d;
	/* a profile that holds another file's data keeps it: ours follows */
	m.run_used = p->root->child || p->nr_steps || p->meta;
	while ((line = input_line(in, &len)))
		text_line(&m, line, len);
	if (m.t.kind != T_NONE)
		table_end(&m, true);
	end_run(&m);
	if (input_failed(in, d)) {
		rc = -1;
	} else if (!m.nr_items) {
		diag_error(d, NULL, "no load_and_run output or profile_analyze table found");
		rc = -1;
	}
	strbuf_release(&m.lar_cmd);
	strbuf_release(&m.pa_cmd);
	table_reset(&m.t);
	return rc;
}

/* Lines only MegEngine prints, anywhere in the first 64 KB: documents put
 * pages of prose before them. */
static int megengine_text_probe(const char *head, size_t len)
{
	static const char *const sure[] = {
		"=== finished test #", "=== going to run ", "mgb load-and-run:",
		"megbrain/lite/load_and_run", "\xe2\x94\x82 device self time",
		"\xe2\x94\x82 host self time", "total device time  ", "| total device time |",
		"| cum-time ratio |",
	};
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i < len && head[i] == '{')
		return 0;	/* a JSON object: never load_and_run text */
	for (size_t k = 0; k < ARRAY_SIZE(sure); k++)
		if (text_find(head, len, sure[k]))
			return 80;
	if (text_find(head, len, "iter ") &&
	    (text_find(head, len, "(exec=") || text_find(head, len, "e2e=")))
		return 75;
	if (text_find(head, len, "load model: ") && text_find(head, len, "=== prepare: "))
		return 70;
	if (text_find(head, len, "run iter ") && text_find(head, len, "profile option:"))
		return 60;
	return 0;
}

const struct parser megengine_text_parser = {
	.name = "megengine",
	.family = "megengine",
	.summary = "MegEngine load_and_run output and profile_analyze tables (text)",
	.probe = megengine_text_probe,
	.parse = megengine_text_parse,
};

/* ------------------------------------------------------------------ */
/* --profile JSON                                                       */

struct opr {
	const char *id;			/* interned JSON key */
	const char *name, *type;	/* interned; NULL until read */
	int64_t device_ns, host_ns;	/* max over comp nodes / threads */
	double computation;
	int64_t memory;
	char *in_shapes, *out_shapes;	/* heap, "{1,3} {3}" */
	int64_t seq;			/* place in comp_seq, -1 = none */
	uint32_t order;			/* first seen */
	bool has_device, has_host, has_computation, has_memory, in_graph;
};

struct mjson {
	struct profile *p;
	struct diag *d;
	struct json j;
	struct opr *oprs;
	size_t nr, alloc;
	uint32_t *index;		/* open addressing on the id pointer */
	size_t index_cap;		/* a power of two, or 0 */
	const char *comp_nodes[16];	/* distinct comp node names seen */
	size_t nr_comp_nodes;
	bool more_comp_nodes;
	bool has_profiler;
	bool has_operators;		/* graph_exec's "operator" read whole */
	int64_t seq;
};

/* The record of operator ID (the key just read), created if new. */
static struct opr *opr_of(struct mjson *mj, const char *s, size_t n)
{
	const char *id = profile_intern(mj->p, s, n);
	size_t mask, i;

	if (mj->nr * 2 >= mj->index_cap) {
		size_t cap = mj->index_cap ? mj->index_cap * 2 : 64;
		uint32_t *idx = xmalloc(cap * sizeof(*idx));

		for (i = 0; i < cap; i++)
			idx[i] = UINT32_MAX;
		for (size_t k = 0; k < mj->nr; k++) {
			size_t h = hash_ptr(mj->oprs[k].id) & (cap - 1);

			while (idx[h] != UINT32_MAX)
				h = (h + 1) & (cap - 1);
			idx[h] = (uint32_t)k;
		}
		free(mj->index);
		mj->index = idx;
		mj->index_cap = cap;
	}
	mask = mj->index_cap - 1;
	for (i = hash_ptr(id) & mask; mj->index[i] != UINT32_MAX; i = (i + 1) & mask)
		if (mj->oprs[mj->index[i]].id == id)
			return &mj->oprs[mj->index[i]];
	GROW(mj->oprs, mj->alloc, mj->nr + 1);
	mj->index[i] = (uint32_t)mj->nr;
	memset(&mj->oprs[mj->nr], 0, sizeof(mj->oprs[mj->nr]));
	mj->oprs[mj->nr].id = id;
	mj->oprs[mj->nr].seq = -1;
	mj->oprs[mj->nr].order = (uint32_t)mj->nr;
	return &mj->oprs[mj->nr++];
}

#define ODD_VALUES "unexpected values in the profile JSON, skipped"

static void odd_value(struct mjson *mj, const char *what)
{
	struct pos at = json_pos(&mj->j);

	diag_warn(mj->d, &at, ODD_VALUES, "unexpected value for %s, skipped", what);
}

/* Skip the rest of the value whose first token T was just read. */
static enum json_tok skip(struct mjson *mj, enum json_tok t)
{
	return json_skip(&mj->j, t);
}

static bool tok_failed(enum json_tok t)
{
	return t == JSON_ERROR || t == JSON_EOF;
}

/* Read the next value, which should open a container (OPEN).  True when
 * it does; else *T is what the caller returns: the error, or the last
 * token of the odd value WHAT, warned about and skipped. */
static bool expect_open(struct mjson *mj, enum json_tok open, const char *what, enum json_tok *t)
{
	*t = json_next(&mj->j);
	if (*t == open)
		return true;
	if (!tok_failed(*t)) {
		odd_value(mj, what);
		*t = skip(mj, *t);
	}
	return false;
}

/* {"start": s, "kern": k, "end": e} in seconds: E - S in ns, or -1. */
static enum json_tok read_interval(struct mjson *mj, int64_t *ns)
{
	struct json *j = &mj->j;
	enum json_tok t;
	int64_t start = 0, end = 0;
	bool has_start = false, has_end = false, bad = false;

	*ns = -1;
	while ((t = json_next_key(j)) == JSON_KEY) {
		bool is_start = json_is(j, "start"), is_end = json_is(j, "end");

		t = json_next(j);
		if (tok_failed(t))
			return t;
		if ((is_start || is_end) && t == JSON_NUMBER) {
			int64_t v;

			if (!num_scaled(j->s, j->len, 9, &v))
				bad = true;
			else if (is_start)
				start = v, has_start = true;
			else
				end = v, has_end = true;
		} else if (is_start || is_end) {
			bad = true;
		}
		t = skip(mj, t);
		if (tok_failed(t))
			return t;
	}
	if (t != JSON_OBJ_END)
		return t;
	if (bad || !has_start || !has_end || end < start) {
		struct pos at = json_pos(j);

		diag_warn(mj->d, &at, "operator times without a valid start and end, skipped",
			  "operator time without a valid start and end");
		return t;
	}
	*ns = end - start;
	return t;
}

static void note_comp_node(struct mjson *mj, const char *name)
{
	for (size_t i = 0; i < mj->nr_comp_nodes; i++)
		if (mj->comp_nodes[i] == name)
			return;
	if (mj->nr_comp_nodes < ARRAY_SIZE(mj->comp_nodes))
		mj->comp_nodes[mj->nr_comp_nodes++] = name;
	else
		mj->more_comp_nodes = true;
}

/* "device" / "host": {opr id: {comp node or thread: interval}}. */
static enum json_tok read_times(struct mjson *mj, bool is_device)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, is_device ? "'device'" : "'host'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		size_t idx = (size_t)(opr_of(mj, j->s, j->len) - mj->oprs);

		if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator's times", &t)) {
			if (tok_failed(t))
				return t;
			continue;
		}
		while ((t = json_next_key(j)) == JSON_KEY) {
			const char *where = is_device ? profile_intern(mj->p, j->s, j->len) : NULL;
			int64_t ns;

			if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator's times", &t)) {
				if (tok_failed(t))
					return t;
				continue;
			}
			t = read_interval(mj, &ns);
			if (t != JSON_OBJ_END)
				return t;
			if (ns < 0)
				continue;
			if (where)
				note_comp_node(mj, where);
			/* the operator's time is its longest comp node's */
			if (is_device && (!mj->oprs[idx].has_device || ns > mj->oprs[idx].device_ns)) {
				mj->oprs[idx].device_ns = ns;
				mj->oprs[idx].has_device = true;
			} else if (!is_device && (!mj->oprs[idx].has_host || ns > mj->oprs[idx].host_ns)) {
				mj->oprs[idx].host_ns = ns;
				mj->oprs[idx].has_host = true;
			}
		}
		if (t != JSON_OBJ_END)
			return t;
	}
	return t;
}

/* An array of shapes [[1,3,224,224], [64,3,7,7]] as text, one entry per
 * shape in *PARTS (heap strings, "{1,3,224,224}"); null entries (in_layouts
 * of contiguous inputs) are NULL. */
static enum json_tok read_shape_list(struct mjson *mj, char ***parts, size_t *nr, const char *what)
{
	struct json *j = &mj->j;
	enum json_tok t = json_next(j);
	size_t alloc = 0;

	*parts = NULL;
	*nr = 0;
	if (t != JSON_ARR_BEGIN) {
		if (tok_failed(t))
			return t;
		if (t != JSON_NULL)
			odd_value(mj, what);
		return skip(mj, t);
	}
	while ((t = json_next(j)) != JSON_ARR_END) {
		struct strbuf b;
		bool bad = false;

		if (tok_failed(t))
			return t;
		GROW(*parts, alloc, *nr + 1);
		(*parts)[*nr] = NULL;
		if (t == JSON_NULL) {
			(*nr)++;
			continue;
		}
		if (t != JSON_ARR_BEGIN) {
			odd_value(mj, what);
			t = skip(mj, t);
			if (tok_failed(t))
				return t;
			continue;
		}
		memset(&b, 0, sizeof(b));
		strbuf_addch(&b, '{');
		while ((t = json_next(j)) != JSON_ARR_END) {
			if (tok_failed(t)) {
				strbuf_release(&b);
				return t;
			}
			if (t != JSON_NUMBER) {
				bad = true;
				t = skip(mj, t);
				if (tok_failed(t)) {
					strbuf_release(&b);
					return t;
				}
				continue;
			}
			if (b.len > 1)
				strbuf_addch(&b, ',');
			strbuf_add(&b, j->s, j->len);
		}
		strbuf_addch(&b, '}');
		if (bad)
			odd_value(mj, what);
		(*parts)[(*nr)++] = b.s;
	}
	return t;
}

static void free_parts(char **parts, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(parts[i]);
	free(parts);
}

/* Join shapes (and the strides of non-contiguous ones, "-[...]"). */
static char *join_shapes(char **shapes, size_t nr, char **strides, size_t nr_strides)
{
	struct strbuf b;

	memset(&b, 0, sizeof(b));
	for (size_t i = 0; i < nr; i++) {
		if (!shapes[i])
			continue;
		if (b.len)
			strbuf_addch(&b, ' ');
		strbuf_add(&b, shapes[i], strlen(shapes[i]));
		if (i < nr_strides && strides[i]) {
			/* "{a,b}" -> "-[a,b]" as profile_analyze prints it */
			strbuf_add(&b, "-[", 2);
			strbuf_add(&b, strides[i] + 1, strlen(strides[i]) - 2);
			strbuf_addch(&b, ']');
		}
	}
	return b.s;
}

/* "opr_footprint": {opr id: {"computation", "memory", "in_shapes", ...}}. */
static enum json_tok read_footprints(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'opr_footprint'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		size_t idx = (size_t)(opr_of(mj, j->s, j->len) - mj->oprs);
		char **in = NULL, **out = NULL, **layouts = NULL;
		size_t nr_in = 0, nr_out = 0, nr_layouts = 0;
		struct opr *o;

		if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator's footprint", &t)) {
			if (tok_failed(t))
				return t;
			continue;
		}
		while ((t = json_next_key(j)) == JSON_KEY) {
			o = &mj->oprs[idx];
			if (json_is(j, "computation") || json_is(j, "memory")) {
				bool is_comp = json_is(j, "computation");
				double v;

				t = json_next(j);
				if (tok_failed(t))
					break;
				if (t == JSON_NUMBER && num_double(j->s, j->len, &v) && isfinite(v) &&
				    v >= 0 && (is_comp || v < 9.2e18)) {
					if (is_comp) {
						o->computation = v;
						o->has_computation = true;
					} else {
						o->memory = llround(v);
						o->has_memory = true;
					}
				} else if (t != JSON_NULL) {
					odd_value(mj, is_comp ? "'computation'" : "'memory'");
				}
				t = skip(mj, t);
			} else if (json_is(j, "in_shapes")) {
				free_parts(in, nr_in);
				t = read_shape_list(mj, &in, &nr_in, "'in_shapes'");
			} else if (json_is(j, "out_shapes")) {
				free_parts(out, nr_out);
				t = read_shape_list(mj, &out, &nr_out, "'out_shapes'");
			} else if (json_is(j, "in_layouts")) {
				free_parts(layouts, nr_layouts);
				t = read_shape_list(mj, &layouts, &nr_layouts, "'in_layouts'");
			} else {
				t = json_skip_value(j);
			}
			if (tok_failed(t))
				break;
		}
		o = &mj->oprs[idx];
		if (t == JSON_OBJ_END) {
			free(o->in_shapes);
			free(o->out_shapes);
			o->in_shapes = join_shapes(in, nr_in, layouts, nr_layouts);
			o->out_shapes = join_shapes(out, nr_out, NULL, 0);
		}
		free_parts(in, nr_in);
		free_parts(out, nr_out);
		free_parts(layouts, nr_layouts);
		if (t != JSON_OBJ_END)
			return t;
	}
	return t;
}

static enum json_tok read_profiler(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'profiler'", &t))
		return t;
	mj->has_profiler = true;
	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "device"))
			t = read_times(mj, true);
		else if (json_is(j, "host"))
			t = read_times(mj, false);
		else if (json_is(j, "opr_footprint"))
			t = read_footprints(mj);
		else
			t = json_skip_value(j);
		if (tok_failed(t))
			return t;
	}
	return t;
}

/* "operator": {opr id: {"name", "type", ...}}. */
static enum json_tok read_operators(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'operator'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		size_t idx = (size_t)(opr_of(mj, j->s, j->len) - mj->oprs);

		mj->oprs[idx].in_graph = true;
		if (!expect_open(mj, JSON_OBJ_BEGIN, "an operator", &t)) {
			if (tok_failed(t))
				return t;
			continue;
		}
		while ((t = json_next_key(j)) == JSON_KEY) {
			bool is_name = json_is(j, "name"), is_type = json_is(j, "type");

			if (!is_name && !is_type) {
				t = json_skip_value(j);
				if (tok_failed(t))
					return t;
				continue;
			}
			t = json_next(j);
			if (tok_failed(t))
				return t;
			if (t == JSON_STRING) {
				const char *s = profile_intern(mj->p, j->s, j->len);

				if (is_name)
					mj->oprs[idx].name = s;
				else
					mj->oprs[idx].type = s;
			} else {
				odd_value(mj, is_name ? "an operator's 'name'" : "an operator's 'type'");
				t = skip(mj, t);
				if (tok_failed(t))
					return t;
			}
		}
		if (t != JSON_OBJ_END)
			return t;
	}
	return t;
}

static enum json_tok read_comp_seq(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_ARR_BEGIN, "'comp_seq'", &t))
		return t;
	while ((t = json_next(j)) != JSON_ARR_END) {
		if (tok_failed(t))
			return t;
		if (t == JSON_STRING || t == JSON_NUMBER) {
			struct opr *o = opr_of(mj, j->s, j->len);

			if (o->seq < 0)
				o->seq = mj->seq++;
			continue;
		}
		odd_value(mj, "'comp_seq'");
		t = skip(mj, t);
		if (tok_failed(t))
			return t;
	}
	return t;
}

static enum json_tok read_graph_exec(struct mjson *mj)
{
	struct json *j = &mj->j;
	enum json_tok t;

	if (!expect_open(mj, JSON_OBJ_BEGIN, "'graph_exec'", &t))
		return t;
	while ((t = json_next_key(j)) == JSON_KEY) {
		if (json_is(j, "operator")) {
			t = read_operators(mj);
			mj->has_operators |= t == JSON_OBJ_END;
		}
		else if (json_is(j, "comp_seq"))
			t = read_comp_seq(mj);
		else
			t = json_skip_value(j);	/* var, mem_chunk: not shown */
		if (tok_failed(t))
			return t;
	}
	return t;
}

static int cmp_exec_order(const void *a, const void *b)
{
	const struct opr *x = *(const struct opr *const *)a, *y = *(const struct opr *const *)b;

	/* comp_seq order first, then the rest as they came */
	if ((x->seq < 0) != (y->seq < 0))
		return x->seq < 0 ? 1 : -1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void build_json_model(struct mjson *mj)
{
	struct profile *p = mj->p;
	struct opr **v = xmalloc((mj->nr ? mj->nr : 1) * sizeof(*v));
	size_t nr = 0, untimed = 0, unnamed = 0;
	int64_t dev_total = 0, host_total = 0;
	bool any_dev = false, any_host = false;
	char num[64];

	for (size_t i = 0; i < mj->nr; i++) {
		struct opr *o = &mj->oprs[i];

		if (!o->has_device && !o->has_host) {
			untimed += o->in_graph;
			continue;
		}
		v[nr++] = o;
	}
	if (nr > 1)
		qsort(v, nr, sizeof(*v), cmp_exec_order);
	for (size_t i = 0; i < nr; i++) {
		struct opr *o = v[i];
		const char *type = o->type ? o->type : profile_intern(p, "(unknown type)", 14);
		struct node *g = node_child(p, p->root, NODE_GROUP, type);
		struct node *n;

		if (!o->in_graph)
			unnamed++;
		n = node_new_interned(p, g, NODE_OP, o->name ? o->name : o->id);
		n->flags |= NODE_DISTINCT;
		n->calls = 1;
		if (o->has_device) {
			n->device_self_ns = n->device_total_ns = o->device_ns;
			n->min_ns = n->max_ns = o->device_ns;
			g->device_total_ns += o->device_ns;
			dev_total += o->device_ns;
			any_dev = true;
		}
		if (o->has_host) {
			n->host_self_ns = n->host_total_ns = o->host_ns;
			g->host_total_ns += o->host_ns;
			host_total += o->host_ns;
			any_host = true;
		}
		if (o->type)
			attr_set_str(p, &n->attrs, "type", o->type, strlen(o->type));
		attr_set_str(p, &n->attrs, "id", o->id, strlen(o->id));
		if (o->has_computation) {
			attr_set_double(p, &n->attrs, "flops", o->computation);
			if (o->has_device && o->device_ns > 0)
				attr_set_double(p, &n->attrs, "flops_per_s",
						o->computation / ((double)o->device_ns / 1e9));
		}
		if (o->has_memory) {
			attr_set_int(p, &n->attrs, "memory_bytes", o->memory);
			if (o->has_device && o->device_ns > 0)
				attr_set_double(p, &n->attrs, "bandwidth_bytes_per_s",
						(double)o->memory / ((double)o->device_ns / 1e9));
		}
		if (o->in_shapes && *o->in_shapes)
			attr_set_str(p, &n->attrs, "input_shapes", o->in_shapes, strlen(o->in_shapes));
		if (o->out_shapes && *o->out_shapes)
			attr_set_str(p, &n->attrs, "output_shapes", o->out_shapes,
				     strlen(o->out_shapes));
	}
	free(v);
	snprintf(num, sizeof(num), "%zu", nr);
	profile_meta(p, "profiler", "operators", num);
	if (any_dev) {
		fmt_ms(num, sizeof(num), dev_total);
		profile_meta(p, "profiler", "total device time", num);
	}
	if (any_host) {
		fmt_ms(num, sizeof(num), host_total);
		profile_meta(p, "profiler", "total host time", num);
	}
	if (mj->nr_comp_nodes) {
		struct strbuf b;

		memset(&b, 0, sizeof(b));
		for (size_t i = 0; i < mj->nr_comp_nodes; i++) {
			if (i)
				strbuf_add(&b, ", ", 2);
			strbuf_add(&b, mj->comp_nodes[i], strlen(mj->comp_nodes[i]));
		}
		if (mj->more_comp_nodes)
			strbuf_add(&b, ", ...", 5);
		profile_meta(p, "profiler", "comp nodes", b.s);
		strbuf_release(&b);
	}
	if (untimed) {
		snprintf(num, sizeof(num), "%zu", untimed);
		profile_meta(p, "profiler", "operators without times", num);
	}
	/* without graph_exec's operators (a cut file) every operator is
	 * named by its id, and that is no news */
	if (unnamed && mj->has_operators) {
		struct pos none = { 0, 0 };

		diag_warn(mj->d, &none, "profiled operators missing from graph_exec, named by id",
			  "%zu profiled operators are not in graph_exec; named by their id", unnamed);
	}
	if (!nr) {
		struct pos none = { 0, 0 };

		diag_warn(mj->d, &none, "profiles without operator times",
			  "no operator has a device or host time");
	}
}

static int megengine_json_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct mjson mj;
	enum json_tok t;
	bool seen = false;
	int rc = 0;

	memset(&mj, 0, sizeof(mj));
	mj.p = p;
	mj.d = d;
	json_init(&mj.j, in, d);
	t = json_next(&mj.j);
	if (t == JSON_OBJ_BEGIN) {
		while ((t = json_next_key(&mj.j)) == JSON_KEY) {
			if (json_is(&mj.j, "profiler")) {
				seen = true;
				t = read_profiler(&mj);
			} else if (json_is(&mj.j, "graph_exec")) {
				seen = true;
				t = read_graph_exec(&mj);
			} else {
				t = json_skip_value(&mj.j);
			}
			if (tok_failed(t))
				break;
		}
	} else if (!tok_failed(t)) {
		struct pos at = json_pos(&mj.j);

		diag_error(d, &at, "expected a JSON object at the top level");
		rc = -1;
	}
	if (t == JSON_ERROR) {
		rc = -1;
	} else if (t == JSON_EOF && mj.j.truncated) {
		struct pos at = json_pos(&mj.j);
		size_t timed = 0;

		for (size_t i = 0; i < mj.nr; i++)
			timed += mj.oprs[i].has_device || mj.oprs[i].has_host;
		diag_error(d, &at, "unexpected end of file inside the profile (truncated?); "
			   "kept the %zu operators timed before it", timed);
		if (!timed)
			rc = -1;
	} else if (rc == 0 && t == JSON_EOF && !mj.j.nr_docs && !seen) {
		diag_error(d, NULL, "no JSON value in the file");
		rc = -1;
	} else if (rc == 0 && !mj.has_profiler) {
		diag_error(d, NULL, "no 'profiler' object: not a MegEngine --profile JSON");
		rc = -1;
	}
	if (rc == 0)
		build_json_model(&mj);
	for (size_t i = 0; i < mj.nr; i++) {
		free(mj.oprs[i].in_shapes);
		free(mj.oprs[i].out_shapes);
	}
	free(mj.oprs);
	free(mj.index);
	json_release(&mj.j);
	return rc;
}

/* A JSON object with load_and_run's --profile members near the top. */
static int megengine_json_probe(const char *head, size_t len)
{
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= len || head[i] != '{')
		return 0;
	if (text_find(head, len, "\"traceEvents\""))
		return 0;
	if (text_find(head, len, "\"graph_exec\""))
		return 85;
	if (text_find(head, len, "\"profiler\"") &&
	    (text_find(head, len, "\"opr_footprint\"") || text_find(head, len, "\"opr_internal_pf\"") ||
	     text_find(head, len, "\"kern\"")))
		return 85;
	return 0;
}

const struct parser megengine_json_parser = {
	.name = "megengine-json",
	.family = "megengine",
	.summary = "MegEngine load_and_run --profile JSON",
	.probe = megengine_json_probe,
	.parse = megengine_json_parse,
};
