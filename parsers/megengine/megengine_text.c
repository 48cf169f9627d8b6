// SPDX-License-Identifier: MIT
/*
 * MegEngine text (doc/formats/megengine.md, 'load_and_run output' and
 * 'profile_analyze tables'), parser "megengine": what load_and_run prints
 * to stdout and what profile_analyze.py prints, which real files (logs, the
 * project's own documentation) mix in any order, inside prose, behind
 * mgb_log prefixes and colour codes.  Each line is recognised on its own;
 * what no rule knows is prose and is skipped.
 *
 *   - load_and_run, three generations (old mgblar.cpp, the v1.7 lite tool,
 *     the newest lite tool): every test run becomes a run of the profile,
 *     its "iter i/N" lines the Steps pane (total, host "Exec", "Device"),
 *     model load, prepare, warm-up and the "=== finished test" statistics
 *     the Info pane.  Model load and warm-up come before the test they
 *     belong to, so a run begins at whichever comes first and ends at its
 *     "=== finished" line; the next line of any of these kinds opens the
 *     next run.  A process that dies first ("Trap", "Segmentation fault",
 *     an uncaught exception; or one that simply starts again: its version
 *     or "load model" a second time) ends its run there, with a warning
 *     that it did not finish and the error it printed in Info.
 *   - profile_analyze: the summary table and the top-k tables (fancy_grid,
 *     whose logical rows span several lines, or the --confluence org
 *     table) form a run of their own, titled "profile_analyze": they
 *     describe a --profile JSON, not the load_and_run runs printed near
 *     them.  A --show-host table joins the device table before it by
 *     operator id.
 *
 * The --profile JSON itself is megengine_json.c's; megengine.h says what
 * the two share.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../model/bounds.h"
#include "../../model/strbuf.h"
#include "../../model/util.h"
#include "megengine.h"
#include "../num.h"
#include "../parser.h"
#include "../text.h"

/* The shapes of a node, "{1,512,14,14} {512,512,3,3}". */
static void set_shapes(struct profile *p, struct node *n, const char *key, const struct strbuf *b)
{
	if (b->len)
		attr_set_str(p, node_attr_list(n), key, b->s, b->len);
}

enum phase {
	PH_EMPTY,		/* the run holds nothing of load_and_run yet */
	PH_PRE,			/* model load, prepare, warm-up */
	PH_TEST,		/* a test started or printed iterations */
	PH_DONE,		/* its "=== finished" line was read */
	PH_ABORTED,		/* the process died before it finished */
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
	bool has_version, has_load;	/* lines a process prints once */
	bool banner_before;	/* "megbrain/lite/load_and_run:", then its version */
	bool has_error;		/* an error line of the run is in Info */
	int64_t announced;	/* N of "iter i/N", 0 = none yet */
	int64_t step_sum_ns;	/* Σ iteration times of the run, saturating */
	bool beyond;		/* ms_value() met a time beyond BOUND_DUR_NS */
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

	bool beyond = m->beyond;

	m->beyond = false;
	if (!diag_would_print(m->d, UNREADABLE)) {
		diag_warn(m->d, &at, UNREADABLE, "%s", what);
		return;
	}
	diag_warn(m->d, &at, UNREADABLE, "cannot read %s '%.*s'%s", what,
		  (int)(len > 80 ? 80 : len), s,
		  beyond ? ": a time beyond proftui's bound of 10^15 ns (11.6 days)" : "");
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

	megengine_fmt_ms(v, sizeof(v), ns);
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
	m->has_version = m->has_load = m->has_error = false;
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

#define UNFINISHED "load_and_run runs that did not finish"

/* Whether the run is load_and_run's and has not finished. */
static bool lar_unfinished(const struct mge *m)
{
	return m->phase == PH_PRE || m->phase == PH_TEST;
}

/* The run ends here without its end: the process died (at the line S,
 * when one says so), another one starts, or (AT_EOF) the file ends.  It
 * stays a run of its own, with what it printed. */
static void lar_abort(struct mge *m, const char *s, size_t len, bool at_eof)
{
	struct pos at = here(m, 0);
	int n = (int)(len > 60 ? 60 : len);

	if (s && m->run->nr_steps)
		diag_warn(m->d, &at, UNFINISHED, "load_and_run run ends at '%.*s' after %zu "
			  "iteration%s; it did not finish", n, s, m->run->nr_steps,
			  m->run->nr_steps == 1 ? "" : "s");
	else if (s)
		diag_warn(m->d, &at, UNFINISHED, "load_and_run run ends at '%.*s' before its "
			  "iterations; it did not finish", n, s);
	else if (at_eof)
		diag_warn(m->d, &at, UNFINISHED, "file ends before the load_and_run run above "
			  "printed its iterations; it did not finish");
	else
		diag_warn(m->d, &at, UNFINISHED, "load_and_run starts again before the run above "
			  "printed its iterations; that run did not finish");
	if (s)
		meta(m, "load_and_run", "ended by", s, len);
	m->phase = PH_ABORTED;
}

/* A line a load_and_run process prints once (its version, IS_LOAD: "load
 * model"): a second one means the process before has ended -- if its run
 * had not finished, it died. */
static void lar_process(struct mge *m, bool is_load)
{
	bool again = m->has_load || (!is_load && m->has_version);

	if (again && lar_unfinished(m))
		lar_abort(m, NULL, 0, false);
	if (again)
		next_run(m);
	if (is_load)
		m->has_load = true;
	else
		m->has_version = true;
}

/* Model load, prepare, warm-up, version: what comes before a test. */
static void lar_pre(struct mge *m)
{
	if (m->phase == PH_DONE || m->phase == PH_ABORTED || m->phase == PH_ANALYZE ||
	    (m->phase == PH_TEST && m->run->nr_steps))
		next_run(m);
	if (m->phase == PH_EMPTY)
		m->phase = PH_PRE;
	use_run(m, false);
}

/* "=== going to run ...", "run testcase: k". */
static void lar_test_start(struct mge *m)
{
	if (m->test_started || m->run->nr_steps || m->phase == PH_DONE || m->phase == PH_ABORTED ||
	    m->phase == PH_ANALYZE)
		next_run(m);
	m->phase = PH_TEST;
	m->test_started = true;
	use_run(m, false);
}

/* An iteration. */
static void lar_step(struct mge *m)
{
	if (m->phase == PH_DONE || m->phase == PH_ABORTED || m->phase == PH_ANALYZE)
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
 * "-nan", "nanms": the sd of a single iteration is 0/0) set *IS_NAN.  A
 * time beyond BOUND_DUR_NS is unreadable, and sets M->beyond for the
 * caller's unreadable_line() to say why. */
static bool ms_value(struct mge *m, const char *s, size_t n, int64_t *ns, bool *is_nan)
{
	size_t k = n;

	m->beyond = false;
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
	if (!num_time_ns(s, k, 6, ns) || *ns < 0)
		return false;
	m->beyond = *ns > BOUND_DUR_NS;
	return !m->beyond;
}

/* A kind of load_and_run line, known by how it starts (lar_kinds[]). */
struct lar_kind {
	const char *prefix;
	/* Read the line S[0..LEN); false when it is no such line after all
	 * (prose that starts the same way). */
	bool (*read)(struct mge *m, const char *s, size_t len, const struct lar_kind *kind);
	const char *key;	/* the Info line it fills, or what follows the index */
	const char *stop;	/* where its time ends, if before the line's end */
};

/* "iter 0/10: 245.185ms (exec=10.574,device=242.226)", "iter 0/10:
 * 141.249 ms (exec=1.066 ms)", "iter 0/10: e2e=141.249 ms (host=1.066 ms)". */
static bool lar_iter(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	const char *p = s + strlen(kind->prefix), *end = s + len, *idx, *nr, *open, *close;
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
	if (!ms_value(m, p, (size_t)((open ? open : end) - p), &total, &is_nan) || is_nan) {
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
				bool ok = ms_value(m, eq + 1, flen - klen - 1, &v, &is_nan) && !is_nan;

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
		/* What each part is, for Info ("step parts": which side of
		 * the machine, pane_info.c reads it): exec= runs on the host
		 * while the device works, so the two overlap. */
		profile_meta(m->run, "step parts", "Exec",
			     "host: running the graph's operators (exec=, host=), beside the device");
		if (device >= 0)
			profile_meta(m->run, "step parts", "Device",
				     "device: the device's time in the iteration (device=)");
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
	sum_add(&m->step_sum_ns, total);
	return true;
}

/* "=== finished test #0: time=2376.339ms avg_time=237.634ms sd=2.668ms
 * minmax=236.321,245.185" and its two later forms (sexec= ... min= max=,
 * standard_deviation= ... min= max=). */
static bool lar_finished(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	const char *p = s + strlen(kind->prefix), *end = s + len, *k;
	size_t k_len, nr;
	struct field f[32];

	if (!digits(&p, end, &k, &k_len) || p == end || *p != ':') {
		unreadable_line(m, "test summary", s, len);
		return true;
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

			if (!comma || !ms_value(m, val, (size_t)(comma - val), &ns, &is_nan) ||
			    !ms_value(m, comma + 1, vlen - (size_t)(comma - val) - 1, &ns2, &is_nan2) ||
			    is_nan || is_nan2) {
				unreadable_line(m, "test summary", s, len);
				continue;
			}
			meta_ms(m, "load_and_run", "min", ns);
			meta_ms(m, "load_and_run", "max", ns2);
			continue;
		}
		if (!ms_value(m, val, vlen, &ns, &is_nan)) {
			unreadable_line(m, "test summary", s, len);
			continue;
		}
		if (is_nan)
			snprintf(vbuf, sizeof(vbuf), "nan");
		else
			megengine_fmt_ms(vbuf, sizeof(vbuf), ns);
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
	return true;
}

/* "load model: 198.030ms", "=== prepare: 1.509ms; going to warmup": the
 * time after the prefix, up to KIND->stop if given, goes to the Info pane
 * as KIND->key. */
static bool lar_time_meta(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	const char *p = s + strlen(kind->prefix), *end = s + len;
	const char *e = kind->stop ? text_find(p, (size_t)(end - p), kind->stop) : NULL;
	int64_t ns;
	bool is_nan;

	if (!ms_value(m, p, (size_t)((e ? e : end) - p), &ns, &is_nan) || is_nan) {
		unreadable_line(m, kind->key, s, len);
		return true;
	}
	if (!strcmp(kind->key, "load model"))
		lar_process(m, true);
	lar_pre(m);
	meta_ms(m, "load_and_run", kind->key, ns);
	return true;
}

/* "warmup 0: 581.284ms", "warm up 0  355.658ms", "warm up 0 time 3.2 ms". */
static bool lar_warmup(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	const char *p = s + strlen(kind->prefix), *end = s + len, *k;
	size_t k_len;
	char key[48];
	int64_t ns;
	bool is_nan;

	if (!digits(&p, end, &k, &k_len))
		return false;	/* prose: "warm up the cache" */
	if (p < end && *p == ':')
		p++;
	p = skip_blanks(p, end);
	if (text_starts(p, (size_t)(end - p), "time "))
		p += 5;
	if (!ms_value(m, p, (size_t)(end - p), &ns, &is_nan) || is_nan) {
		unreadable_line(m, "warm-up", s, len);
		return true;
	}
	lar_pre(m);
	snprintf(key, sizeof(key), "warmup %.*s", (int)(k_len > 20 ? 20 : k_len), k);
	meta_ms(m, "load_and_run", key, ns);
	return true;
}

/* A step with a total time only: "=== finished run #3: time=12.1ms"
 * (benchmark mode) and "run iter 3 time 12.1 ms" (fitting mode); KIND->key
 * is what comes between the index and the time. */
static bool lar_plain_step(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	const char *p = s + strlen(kind->prefix), *end = s + len, *k, *sep = kind->key;
	size_t k_len;
	int64_t ns, i;
	bool is_nan;
	struct step *st;

	if (!digits(&p, end, &k, &k_len) || !text_starts(p, (size_t)(end - p), sep) ||
	    !ms_value(m, p + strlen(sep), (size_t)(end - p) - strlen(sep), &ns, &is_nan) || is_nan) {
		unreadable_line(m, "iteration", s, len);
		return true;
	}
	lar_step(m);
	if (!num_int(k, k_len, &i) || i != (int64_t)m->run->nr_steps) {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "iterations out of order or missing",
			  "iteration %.*s after %zu iterations", (int)k_len, k, m->run->nr_steps);
	}
	st = profile_add_step(m->run, k, k_len);
	st->total_ns = ns;
	sum_add(&m->step_sum_ns, ns);
	return true;
}

/* "=== going to run ..." in its four forms. */
static bool lar_going(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	const char *p = s + strlen(kind->prefix), *end = s + len, *k, *n;
	size_t k_len, n_len;
	const char *vars = text_find(p, (size_t)(end - p), "output vars: ");
	int64_t nr;

	if (text_starts(p, (size_t)(end - p), "test #")) {
		/* "=== going to run test #0 for 10 times" */
		p += 6;
		if (!digits(&p, end, &k, &k_len)) {
			unreadable_line(m, "test start", s, len);
			return true;
		}
		lar_test_start(m);
		set_title(m, k, k_len);
		p = skip_blanks(p, end);
		if (text_starts(p, (size_t)(end - p), "for ")) {
			p += 4;
			if (digits(&p, end, &n, &n_len) && num_int(n, n_len, &nr))
				m->announced = nr;
		}
		return true;
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
		return true;
	}
	if (vars) {
		vars += strlen("output vars: ");
		meta(m, "load_and_run", "output vars", vars, (size_t)(end - vars));
	}
	return true;
}

/* "run testcase: 0" (the v1.7 tool, behind a log prefix). */
static bool lar_testcase(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	const char *p = skip_blanks(s + strlen(kind->prefix), s + len), *k;
	size_t k_len;

	lar_test_start(m);
	if (digits(&p, s + len, &k, &k_len))
		set_title(m, k, k_len);
	return true;
}

/* A run's closing time after KIND's prefix, kept as load_and_run's KEY
 * for the run (WHAT names it in a warning when it cannot be read).  A
 * run already past its iterations -- or, with AFTER_DONE, already closed
 * -- means this line starts the next one.  False when unreadable. */
static bool lar_run_ms(struct mge *m, const char *s, size_t len, const struct lar_kind *kind,
		       const char *what, const char *key, bool after_done)
{
	size_t skip = strlen(kind->prefix);
	int64_t ns;
	bool is_nan;

	if (!ms_value(m, s + skip, len - skip, &ns, &is_nan) || is_nan) {
		unreadable_line(m, what, s, len);
		return false;
	}
	if (m->phase == PH_ANALYZE || (after_done && m->phase == PH_DONE))
		next_run(m);
	use_run(m, false);
	meta_ms(m, "load_and_run", key, ns);
	return true;
}

/* "=== total time: 2376.339ms" */
static bool lar_total(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	lar_run_ms(m, s, len, kind, "total time", "total time", false);
	return true;
}

/* "avg time: 12.1ms" (benchmark mode), "average time = 12.1 ms": the
 * run's last line. */
static bool lar_avg(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	if (lar_run_ms(m, s, len, kind, "average time", "avg", true))
		m->phase = PH_DONE;
	return true;
}

/* "profile option:" of fitting mode: the option code is the next line,
 * then its average time, which ends the run; the iterations before belong
 * to it. */
static bool lar_options(struct mge *m, const char *s, size_t len, const struct lar_kind *kind)
{
	(void)s, (void)len, (void)kind;
	if (m->phase == PH_ANALYZE || m->phase == PH_DONE)
		next_run(m);
	use_run(m, false);
	m->want_options = true;
	return true;
}

/* load_and_run's lines, known by how they start (after any log prefix);
 * lnav keeps a format's lines as data the same way. */
static const struct lar_kind lar_kinds[] = {
	{ "iter ", lar_iter, NULL, NULL },
	{ "=== finished test #", lar_finished, NULL, NULL },
	{ "=== finished run #", lar_plain_step, ": time=", NULL },
	{ "run iter ", lar_plain_step, " time ", NULL },
	{ "=== going to run ", lar_going, NULL, NULL },
	{ "run testcase:", lar_testcase, NULL, NULL },
	{ "load model:", lar_time_meta, "load model", NULL },
	{ "=== prepare:", lar_time_meta, "prepare", ";" },
	{ "config model time ", lar_time_meta, "config model", NULL },
	{ "warmup ", lar_warmup, NULL, NULL },
	{ "warm up ", lar_warmup, NULL, NULL },
	{ "=== total time:", lar_total, NULL, NULL },
	{ "avg time:", lar_avg, NULL, NULL },
	{ "average time = ", lar_avg, NULL, NULL },
	{ "profile option:", lar_options, NULL, NULL },
};

/* "mgb load-and-run: using MegBrain 8.4.1(0) and MegDNN 9.3.0"; the newest
 * tool prints "megbrain/lite/load_and_run:" on a line of its own before
 * "using MegBrain ...". */
static bool lar_version(struct mge *m, const char *s, size_t len)
{
	const char *p = s;
	size_t n = len;

	if (text_starts(p, n, "mgb load-and-run: ")) {
		p += 18;
		n -= 18;
	}
	if (n > 15 && !strncasecmp(p, "using megbrain ", 15)) {
		/* the newest tool's banner line came just before */
		if (!m->banner_before)
			lar_process(m, false);
		m->banner_before = false;
		lar_pre(m);
		meta(m, "load_and_run", "version", p + 6, n - 6);
		return true;
	}
	if (text_eq(s, len, "megbrain/lite/load_and_run:")) {
		lar_process(m, false);
		lar_pre(m);
		m->banner_before = true;
		return true;
	}
	return false;
}

/* What a shell or the C++ runtime prints when a process dies. */
static const char *const death_lines[] = {
	"Trap", "Trace/breakpoint trap", "Aborted", "Killed", "Segmentation fault",
	"Illegal instruction", "Bus error", "Floating point exception",
};

/* The line that says the process died: "Trap", "Segmentation fault (core
 * dumped)", "terminate called after throwing an instance of ...".  Only
 * while a run is unfinished; elsewhere it is prose. */
static bool lar_death(struct mge *m, const char *s, size_t len)
{
	size_t n = len;
	bool dead = text_starts(s, len, "terminate called ");

	if (text_ends(s, n, " (core dumped)"))
		n -= strlen(" (core dumped)");
	for (size_t i = 0; i < ARRAY_SIZE(death_lines) && !dead; i++)
		dead = text_eq(s, n, death_lines[i]);
	if (!dead || !lar_unfinished(m))
		return false;
	lar_abort(m, s, len, false);
	return true;
}

/* An error mgb_log printed into an unfinished run ("[21 10:02:11
 * @:512][ERR] ..."): the first goes to the Info pane, where it says why a
 * run that did not finish died. */
static bool lar_error(struct mge *m, const char *s, size_t len)
{
	if (!lar_unfinished(m))
		return false;
	if (!m->has_error)
		meta(m, "load_and_run", "error", s, len);
	m->has_error = true;
	return true;
}

/* One line of load_and_run output, or false. */
static bool lar_line(struct mge *m, const char *s, size_t len)
{
	if (m->want_options) {
		m->want_options = false;
		meta(m, "load_and_run", "options", s, len);
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(lar_kinds); i++)
		if (text_starts(s, len, lar_kinds[i].prefix))
			return lar_kinds[i].read(m, s, len, &lar_kinds[i]);
	return lar_version(m, s, len);
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
	if (!na && (!bound_dur_ok(ns[0]) || !bound_dur_ok(ns[1]))) {
		m->beyond = true;
		unreadable_line(m, "profile_analyze summary", s, len);
		return true;
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
	for (struct node *n = node_first_child(p->root); n; n = node_next(n)) {
		const struct attr *id = attr_find(node_attrs(n), MGE_ATTR_ID);

		if (n->kind != NODE_OP)
			continue;
		if (r->id.len && id && attr_type(id) == ATTR_STRING && !strcmp(id->v.s, r->id.s))
			return n;
		if (!r->id.len && !id && !strcmp(node_name(n), r->name.s))
			return n;
	}
	return NULL;
}

/* Whether every number of R is within model/bounds.h's bounds. */
static bool pa_row_in_bounds(const struct pa_row *r)
{
	int64_t c;

	if (r->count.len && num_int(r->count.s, r->count.len, &c) && !bound_count_ok(c))
		return false;
	return bound_dur_ok(r->time_ns) && (!r->has_cum || bound_dur_ok(r->cum_ns)) &&
	       (!r->has_memory || bound_bytes_ok(r->memory));
}

/* A share of R outside 0..100 is no share: said, and left unknown
 * rather than shown. */
static void pa_row_pcts(struct mge *m, struct pa_row *r)
{
	bool *has[] = { &r->has_time_pct, &r->has_cum_pct };
	const double *v[] = { &r->time_pct, &r->cum_pct };

	for (size_t i = 0; i < ARRAY_SIZE(has); i++) {
		struct pos at = here(m, 0);

		if (!*has[i] || (*v[i] >= 0 && *v[i] <= 100))
			continue;
		diag_warn(m->d, &at, "profile_analyze percentages not from 0 to 100 (left out)",
			  "profile_analyze row '%.*s': %s %g%% is not a percentage from 0 to 100; "
			  "left out", (int)(r->name.len > 60 ? 60 : r->name.len), r->name.s,
			  i ? "cumulative share" : "share", *v[i]);
		*has[i] = false;
	}
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
	pa_row_pcts(m, r);
	if (!pa_row_in_bounds(r)) {
		struct pos at = here(m, 0);

		diag_warn(m->d, &at, "profile_analyze rows with a value beyond bounds, skipped",
			  "profile_analyze row '%.*s' has a value beyond proftui's bounds "
			  "(10^15 ns, 2^40 operators, 2^50 bytes); skipped",
			  (int)(r->name.len > 60 ? 60 : r->name.len), r->name.s);
		return NULL;
	}
	n = is_host ? find_op(p, r) : NULL;
	if (n) {
		node_set_host_total(p, n, r->time_ns);
		node_set_host_self(p, n, r->time_ns);
		return n;
	}
	n = node_new(p, p->root, NODE_OP, r->name.s, r->name.len);
	n->flags |= NODE_DISTINCT;
	node_set_calls(p, n, 1);
	if (is_host) {
		node_set_host_total(p, n, r->time_ns);
		node_set_host_self(p, n, r->time_ns);
	} else {
		node_set_device_total(p, n, r->time_ns);
		node_set_device_self(p, n, r->time_ns);
		node_set_minmax(p, n, r->time_ns, r->time_ns);
	}
	if (r->type.len)
		attr_set_str(p, node_attr_list(n), MGE_ATTR_TYPE, r->type.s, r->type.len);
	if (r->count.len) {
		int64_t c;

		if (num_int(r->count.s, r->count.len, &c))
			attr_set_int(p, node_attr_list(n), "nr_oprs", c);
	}
	if (r->id.len)
		attr_set_str(p, node_attr_list(n), MGE_ATTR_ID, r->id.s, r->id.len);
	/* shares and rates of a host table are of host time: they would
	 * read as device figures in these columns */
	if (!is_host) {
		if (r->has_cum)
			attr_set_ns(p, node_attr_list(n), "cumulative_ns", r->cum_ns);
		if (r->has_cum_pct)
			attr_set_double(p, node_attr_list(n), "cumulative_pct", r->cum_pct);
		if (r->has_time_pct)
			attr_set_double(p, node_attr_list(n), "time_pct", r->time_pct);
	}
	if (r->has_flops)
		attr_set_double(p, node_attr_list(n), MGE_ATTR_FLOPS, r->flops);
	if (r->has_flops_per_s && !is_host)
		attr_set_double(p, node_attr_list(n), MGE_ATTR_FLOPS_PER_S, r->flops_per_s);
	if (r->has_memory)
		attr_set_int(p, node_attr_list(n), MGE_ATTR_MEMORY, r->memory);
	if (r->has_bandwidth && !is_host)
		attr_set_double(p, node_attr_list(n), MGE_ATTR_BANDWIDTH, r->bandwidth);
	set_shapes(p, n, MGE_ATTR_IN_SHAPES, &r->in_shapes);
	set_shapes(p, n, MGE_ATTR_OUT_SHAPES, &r->out_shapes);
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

/* "#0" / "0.000383" / "3.2%": the row's rank, time and share. */
static bool grid_time(struct pa_row *r, const struct strbuf *b)
{
	const char *l[3];
	size_t n[3], nr = cell_lines(b, l, n, 3);

	if (nr < 2 || l[0][0] != '#' || !num_time_ns(l[1], n[1], 9, &r->time_ns) || r->time_ns < 0)
		return false;
	if (nr == 3)
		r->has_time_pct = num_pct(l[2], n[2], &r->time_pct) && isfinite(r->time_pct);
	return true;
}

/* "0.00123" / "45.6%": the running sum and its share. */
static void grid_cumulative(struct pa_row *r, const struct strbuf *b)
{
	const char *l[2];
	size_t n[2], nr = cell_lines(b, l, n, 2);

	if (nr >= 1)
		r->has_cum = num_time_ns(l[0], n[0], 9, &r->cum_ns) && r->cum_ns >= 0;
	if (nr >= 2)
		r->has_cum_pct = num_pct(l[1], n[1], &r->cum_pct) && isfinite(r->cum_pct);
}

/*
 * Operator info: name, type, id, each wrapped at 30 characters
 * (textwrap.wrap) with the rest of it on lines that start "-  ".  XXX:
 * textwrap breaks at blanks too and drops the blank; names with spaces
 * come back without it, and nothing in the table says where it was.
 */
static void grid_info(struct pa_row *r, const struct strbuf *b)
{
	const char *l[MAX_CELL_LINES];
	size_t n[MAX_CELL_LINES], nr = cell_lines(b, l, n, MAX_CELL_LINES), nv = 0;
	struct strbuf *val[3] = { &r->name, &r->type, &r->id };

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
	if (nv == 3 && text_eq(r->id.s, r->id.len, "N/A")) {
		int64_t cnt;

		if (num_int(r->type.s, r->type.len, &cnt)) {
			strbuf_reset(&r->count);
			strbuf_add(&r->count, r->type.s, r->type.len);
			strbuf_reset(&r->type);
			strbuf_add(&r->type, r->name.s, r->name.len);
		}
		strbuf_reset(&r->id);
	}
}

/* One cell of a grid row by its column's ROLE; false when it does not
 * read as that column's values. */
static bool grid_cell(struct pa_row *r, enum role role, const struct strbuf *b)
{
	const char *l[MAX_CELL_LINES];
	size_t n[MAX_CELL_LINES];
	int64_t bytes = 0;
	bool ok = true;

	switch (role) {
	case R_TIME:
		return grid_time(r, b);
	case R_CUM:
		grid_cumulative(r, b);
		break;
	case R_INFO:
		grid_info(r, b);
		break;
	case R_COMP:
		ok = unit_value(b, "FLO", &r->flops, NULL, &r->has_flops);
		break;
	case R_FLOPS:
		ok = unit_value(b, "FLOPS", &r->flops_per_s, NULL, &r->has_flops_per_s);
		break;
	case R_MEM:
		ok = unit_value(b, NULL, NULL, &r->memory, &r->has_memory);
		break;
	case R_BW:
		ok = unit_value(b, NULL, NULL, &bytes, &r->has_bandwidth);
		r->bandwidth = (double)bytes;
		break;
	case R_IN:
	case R_OUT:
		shapes_from_lines(role == R_IN ? &r->in_shapes : &r->out_shapes, l, n,
				  cell_lines(b, l, n, MAX_CELL_LINES));
		break;
	default:
		break;
	}
	return ok;
}

/* The grid row in t->cell becomes an operator. */
static void grid_row(struct mge *m)
{
	struct table *t = &m->t;
	struct pa_row r;
	bool ok = true;

	memset(&r, 0, sizeof(r));
	for (size_t c = 0; c < t->nr_cols && ok; c++)
		ok = grid_cell(&r, t->role[c], &t->cell[c]);
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
	size_t rest;	/* text after the last bar: not a cell */

	if (!text_starts(s, len, BOX_V))
		return 0;
	return text_bar_cells(s, len, 0, BOX_V, out, max, &rest);
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
	static const struct text_title roles[] = {
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

	return (enum role)text_title_kind(roles, ARRAY_SIZE(roles), s, n, R_NONE);
}

/* A rule between two rows ("├─┼─┤") or under the last ("╘═╧═╛"): the
 * lines gathered since the last rule are one row. */
static void grid_rule(struct mge *m, bool is_bottom)
{
	struct table *t = &m->t;

	if (t->in_row && !t->row_bad) {
		grid_row(m);
	} else if (t->in_row) {
		struct pos at = { t->row_line, 1 };

		diag_warn(m->d, &at, "misaligned profile_analyze rows, skipped",
			  "row does not fit the table's %zu columns", t->nr_cols);
	}
	for (size_t c = 0; c < t->nr_cols; c++)
		strbuf_reset(&t->cell[c]);
	t->in_row = t->row_bad = false;
	t->row_lines = 0;
	if (is_bottom) {
		if (!t->nr_rows)
			table_end(m, false);
		else
			table_reset(t);
	}
}

/* The header's NR cells F: each column's role.  A grid without a time
 * column is some other tool's, and skipped. */
static void grid_header(struct mge *m, const struct field *f, size_t nr)
{
	struct table *t = &m->t;
	bool has_time = false;

	if (nr > MAX_COLS) {
		t->kind = T_SKIP;
		return;
	}
	t->nr_cols = nr;
	for (size_t c = 0; c < nr; c++) {
		t->role[c] = (uint8_t)header_role(f[c].s, f[c].len);
		has_time |= t->role[c] == R_TIME;
		if (t->role[c] == R_TIME)
			t->is_host = text_starts(f[c].s, f[c].len, "host");
	}
	if (!has_time) {
		t->kind = T_SKIP;
		return;
	}
	t->has_header = true;
	pa_table_run(m, t->is_host);
}

/* One line of a row's NR cells F, added to what the row has so far. */
static void grid_row_line(struct mge *m, const struct field *f, size_t nr)
{
	struct table *t = &m->t;

	if (!t->in_row) {
		t->in_row = true;
		t->row_line = m->in->lineno;
	}
	if (nr != t->nr_cols) {
		t->row_bad = true;
		return;
	}
	for (size_t c = 0; c < nr; c++) {
		struct strbuf *b = &t->cell[c];

		if (b->len + f[c].len > MAX_CELL_BYTES) {
			t->row_bad = true;
			return;
		}
		/* one line of the cell a line, empty ones too: they keep
		 * the places of the lines after them */
		if (t->row_lines)
			strbuf_addch(b, '\n');
		strbuf_add(b, f[c].s, f[c].len);
	}
	t->row_lines++;
}

/* A line of a table we skip: true while it goes on. */
static bool grid_skip(struct mge *m, const char *s, size_t len)
{
	if (text_starts(s, len, BOX_V) || text_starts(s, len, BOX_HEAD) ||
	    text_starts(s, len, BOX_MID))
		return true;
	table_reset(&m->t);
	return text_starts(s, len, BOX_BOTTOM);
}

/* A line of a fancy_grid table, or its first line.  False when the line
 * is no part of a table (the caller reads it as anything else). */
static bool grid_line(struct mge *m, const char *s, size_t len)
{
	struct table *t = &m->t;
	struct field f[MAX_COLS + 1];
	size_t nr;
	/* the top border, or a header without the border above it */
	bool starts = text_starts(s, len, BOX_TOP) ||
		      (t->kind != T_GRID && t->kind != T_SKIP && text_starts(s, len, BOX_V) &&
		       text_find(s, len, " self time"));

	if (starts) {
		if (t->kind != T_NONE)
			table_end(m, false);
		t->kind = T_GRID;
		t->line = m->in->lineno;
		if (text_starts(s, len, BOX_TOP))
			return true;
	}
	if (t->kind == T_SKIP)
		return grid_skip(m, s, len);
	if (t->kind != T_GRID)
		return false;
	if (text_starts(s, len, BOX_HEAD))
		return true;
	if (text_starts(s, len, BOX_MID) || text_starts(s, len, BOX_BOTTOM)) {
		grid_rule(m, text_starts(s, len, BOX_BOTTOM));
		return true;
	}
	nr = grid_cells(s, len, f, ARRAY_SIZE(f));
	if (!nr) {
		table_end(m, false);
		return false;
	}
	if (!t->has_header)
		grid_header(m, f, nr);
	else
		grid_row_line(m, f, nr);
	return true;
}

/* Cells of an org-mode row "| a | b |"; returns how many. */
static size_t org_cells(const char *s, size_t len, struct field *out, size_t max)
{
	size_t rest;	/* text after the last bar: not a cell */

	return text_bar_cells(s, len, 0, "|", out, max, &rest);
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

/* A row whose "#" cell is empty goes on with the row above: a multi-line
 * cell (strides under a shape). */
static void org_continuation(struct mge *m, const struct field *f)
{
	struct table *t = &m->t;

	for (size_t c = 0; c < t->nr_cols && t->last; c++) {
		const char *key = t->role[c] == R_IN ? MGE_ATTR_IN_SHAPES :
				  t->role[c] == R_OUT ? MGE_ATTR_OUT_SHAPES : NULL;
		const struct attr *a;
		struct strbuf b;

		if (!key || !f[c].len)
			continue;
		memset(&b, 0, sizeof(b));
		a = attr_find(node_attrs(t->last), key);
		if (a && attr_type(a) == ATTR_STRING)
			strbuf_add(&b, a->v.s, strlen(a->v.s));
		shapes_from_org(&b, f[c].s, f[c].len);
		set_shapes(m->run, t->last, key, &b);
		strbuf_release(&b);
	}
}

/* "memory (MB)", "bandwidth (MiB/s)": scaled by 2^20. */
static bool org_mib(struct pa_row *r, enum role role, const char *s, size_t n)
{
	bool present;
	double d;

	if (!org_scaled(s, n, 1024.0 * 1024.0, &d, &present) || (present && d >= 9.2e18))
		return false;
	if (present && role == R_MIB) {
		r->memory = llround(d);
		r->has_memory = true;
	} else if (present) {
		r->bandwidth = d;
		r->has_bandwidth = true;
	}
	return true;
}

/* One cell S[0..N) of an org row by its column's ROLE; false when it does
 * not read as that column's values. */
static bool org_cell(struct pa_row *r, enum role role, const char *s, size_t n)
{
	double d = 0;

	switch (role) {
	case R_SECS:
		return num_time_ns(s, n, 9, &r->time_ns) && r->time_ns >= 0;
	case R_RATIO:
		r->has_time_pct = num_pct(s, n, &r->time_pct) && isfinite(r->time_pct);
		return true;
	case R_CUM_SECS:
		r->has_cum = num_time_ns(s, n, 9, &r->cum_ns) && r->cum_ns >= 0;
		return true;
	case R_CUM_RATIO:
		r->has_cum_pct = num_double(s, n, &d) && isfinite(d);
		r->cum_pct = d * 100;
		return true;
	case R_NAME:
		strbuf_add(&r->name, s, n);
		return true;
	case R_TYPE:
		strbuf_add(&r->type, s, n);
		return true;
	case R_ID:
		if (!is_na(s, n))
			strbuf_add(&r->id, s, n);
		return true;
	case R_COUNT:
		strbuf_add(&r->count, s, n);
		return true;
	case R_MFLO:
		return org_scaled(s, n, 1e6, &r->flops, &r->has_flops);
	case R_MFLOPS:
		return org_scaled(s, n, 1e6, &r->flops_per_s, &r->has_flops_per_s);
	case R_MIB:
	case R_MIBS:
		return org_mib(r, role, s, n);
	case R_IN:
		shapes_from_org(&r->in_shapes, s, n);
		return true;
	case R_OUT:
		shapes_from_org(&r->out_shapes, s, n);
		return true;
	default:
		return true;
	}
}

static void org_row(struct mge *m, const struct field *f)
{
	struct table *t = &m->t;
	struct pa_row r;
	bool ok = true;

	for (size_t c = 0; c < t->nr_cols; c++) {
		if (t->role[c] == R_NR && !f[c].len) {
			org_continuation(m, f);
			return;
		}
	}
	memset(&r, 0, sizeof(r));
	for (size_t c = 0; c < t->nr_cols && ok; c++)
		ok = org_cell(&r, t->role[c], f[c].s, f[c].len);
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
	if (text_ends(f[0].s, f[0].len, "load_and_run")) {
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

/* Whether a line says an error: its mgb_log prefix PRE[0..PRE_LEN) has
 * the level "[ERR]" ("[ERROR]", "[FATAL]"), or the text S[0..N) starts
 * "error:". */
static bool is_error(const char *pre, size_t pre_len, const char *s, size_t n)
{
	for (size_t i = 0; i + 4 <= pre_len; i++)
		if (pre[i] == '[' && (!strncasecmp(pre + i + 1, "err", 3) ||
				      (i + 6 <= pre_len && !strncasecmp(pre + i + 1, "fatal", 5))))
			return true;
	return n >= 6 && !strncasecmp(s, "error:", 6);
}

static void text_line(struct mge *m, char *line, size_t len)
{
	const char *s, *prefix;
	size_t n, pre;
	bool has_prefix;

	/* text_is_binary(): a NUL, or a line that is mostly control bytes
	 * (ESC of colour codes, tab and CR are text) */
	if (text_is_binary(line, len)) {
		struct pos at = here(m, 0);

		if (m->t.kind != T_NONE)
			table_end(m, false);
		diag_warn(m->d, &at, "lines with binary data, skipped", "line holds binary data");
		return;
	}
	n = text_strip_ansi(line, len);
	s = prefix = text_trim(line, &n);
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
	if (lar_death(m, s, n) || (is_error(prefix, pre, s, n) && lar_error(m, s, n)))
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
	m.run_used = node_first_child(p->root) || p->nr_steps || p->meta;
	while ((line = input_line(in, &len)))
		text_line(&m, line, len);
	if (m.t.kind != T_NONE)
		table_end(&m, true);
	if (lar_unfinished(&m) && !m.run->nr_steps)
		lar_abort(&m, NULL, 0, true);
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
	.counts_per_node = true,
	.name = "megengine",
	.family = "megengine",
	.summary = "MegEngine load_and_run output and profile_analyze tables (text)",
	.anywhere = true,
	.probe = megengine_text_probe,
	.parse = megengine_text_parse,
};
