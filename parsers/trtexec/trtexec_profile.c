// SPDX-License-Identifier: MIT
/*
 * trtexec --exportProfile (doc/formats/trtexec.md, 'Layer profile'):
 * per-layer times over N iterations, one record per layer after a record
 * with the count.
 *
 * trtexec writes this file with plain stream output and never escapes a
 * name, so a '"' or '\' in a layer name makes it invalid JSON.  It is read
 * by a scanner of its own over the whole file (one short record per layer,
 * small): a string ends at the first '"' that is followed by what can only
 * be the next member (`, "key" :`) or the end of the record (`}`).  Names
 * are taken as written, backslashes included.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/strbuf.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "../text.h"
#include "trtexec.h"

#define PROFILE_MAX_BYTES (256u << 20)

struct scan {
	struct profile *p;
	struct diag *d;
	char *s;			/* the whole file, heap */
	const char *cur, *end;
	const char *mark;		/* positions: counted from here... */
	uint64_t mark_line;		/* ...on this line */
	const char *mark_bol;		/* start of that line */
	size_t nr_kept;			/* layers read, for messages */
	/* The layers' "percentage" values summed, and how far their
	 * printed digits let the sum stray from 100 (check_percentages()). */
	double pct_sum, pct_slack;
	size_t nr_pct;
};

/* Half a unit of the last digit of the decimal S[0..N) ("3.99953":
 * 0.000005); 0 for an exponent form, which trtexec writes in full. */
static double half_last_digit(const char *s, size_t n)
{
	const char *dot = memchr(s, '.', n);
	double h = 0.5;

	if (memchr(s, 'e', n) || memchr(s, 'E', n))
		return 0;
	for (const char *c = dot ? dot + 1 : s + n; c < s + n && isdigit((unsigned char)*c); c++)
		h /= 10;
	return h;
}

/*
 * trtexec's percentages are each layer's share of the layers' total
 * time, so they sum to 100 within their printed digits.  When they do
 * not, the Operators pane's Time % (the file's) is of some other whole
 * than the layers read (a profile edited or put together from several):
 * say so, with the sum, in a warning and in Info.
 */
static void check_percentages(struct scan *sc)
{
	char sum[64];

	if (!sc->nr_pct || fabs(sc->pct_sum - 100) <= sc->pct_slack + 1e-9)
		return;
	snprintf(sum, sizeof(sum), "%.2f%%", sc->pct_sum);
	diag_warn(sc->d, NULL, "layer percentages that do not sum to 100%",
		  "the layers' 'percentage' values sum to %s, not 100%%: Time %% is the file's "
		  "share of a whole other than these layers' time", sum);
	profile_meta(sc->p, "layer profile", "percentages sum to", sum);
}

static struct pos scan_pos(struct scan *sc, const char *at)
{
	struct pos pos;

	if (at < sc->mark) {
		sc->mark = sc->mark_bol = sc->s;
		sc->mark_line = 1;
	}
	for (const char *q = sc->mark; (q = memchr(q, '\n', (size_t)(at - q))); q++) {
		sc->mark_line++;
		sc->mark_bol = q + 1;
	}
	sc->mark = at;
	pos.line = sc->mark_line;
	pos.col = (uint64_t)(at - sc->mark_bol) + 1;
	return pos;
}

static void scan_ws(struct scan *sc)
{
	while (sc->cur < sc->end &&
	       (*sc->cur == ' ' || *sc->cur == '\n' || *sc->cur == '\r' || *sc->cur == '\t'))
		sc->cur++;
}

static const char *describe_at(const struct scan *sc, char *buf, size_t cap)
{
	unsigned char c;

	if (sc->cur >= sc->end)
		return "the end of the file";
	c = (unsigned char)*sc->cur;
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, cap, "'%c'", c);
	else
		snprintf(buf, cap, "byte 0x%02x", c);
	return buf;
}

/* Where the file ends: its last byte, not the newline slurp() added. */
static struct pos end_pos(struct scan *sc)
{
	const char *at = sc->end;

	if (at > sc->s && at[-1] == '\n')
		at--;
	return scan_pos(sc, at);
}

static void scan_error(struct scan *sc, const char *expected)
{
	struct pos at;
	char buf[16];

	if (sc->cur >= sc->end) {
		at = end_pos(sc);
		diag_error(sc->d, &at, "unexpected end of file inside the profile (truncated?); "
			   "kept the %zu layers read before it", sc->nr_kept);
		return;
	}
	at = scan_pos(sc, sc->cur);
	diag_error(sc->d, &at, "expected %s, found %s", expected, describe_at(sc, buf, sizeof(buf)));
}

/* Whether a string's closing quote can be at Q: what follows is the next
 * member's name and colon, or the end of the record. */
static bool closes_string(const struct scan *sc, const char *q)
{
	const char *r = q + 1, *end = sc->end;
	size_t n = 0;

	while (r < end && (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n'))
		r++;
	if (r == end || *r == '}')
		return true;
	if (*r != ',')
		return false;
	r++;
	while (r < end && (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n'))
		r++;
	if (r == end || *r != '"')
		return false;
	for (r++; r < end && n <= 64 && (isalnum((unsigned char)*r) || *r == '_'); r++)
		n++;
	if (!n || n > 64 || r == end || *r != '"')
		return false;
	r++;
	while (r < end && (*r == ' ' || *r == '\t'))
		r++;
	return r < end && *r == ':';
}

/* A string value at sc->cur (its opening quote), tolerantly.  A NUL byte
 * in it is an error, as in any JSON string here: it would cut the name
 * short wherever it is shown. */
static bool scan_string(struct scan *sc, const char **s, size_t *n)
{
	const char *q = sc->cur + 1, *nul;

	while ((q = memchr(q, '"', (size_t)(sc->end - q))) && !closes_string(sc, q))
		q++;
	if (!q) {
		struct pos at = scan_pos(sc, sc->cur);

		diag_error(sc->d, &at, "string never ends (file cut?)");
		return false;
	}
	nul = memchr(sc->cur + 1, '\0', (size_t)(q - sc->cur - 1));
	if (nul) {
		struct pos at = scan_pos(sc, nul);

		diag_error(sc->d, &at, "NUL byte inside a string");
		return false;
	}
	*s = sc->cur + 1;
	*n = (size_t)(q - *s);
	sc->cur = q + 1;
	return true;
}

/* A member name: plain letters, as trtexec writes them. */
static bool scan_key(struct scan *sc, const char **s, size_t *n)
{
	const char *q;

	if (sc->cur >= sc->end || *sc->cur != '"') {
		scan_error(sc, "a member name in quotes");
		return false;
	}
	q = memchr(sc->cur + 1, '"', (size_t)(sc->end - sc->cur - 1));
	if (!q) {
		sc->cur = sc->end;
		scan_error(sc, "a member name");
		return false;
	}
	*s = sc->cur + 1;
	*n = (size_t)(q - *s);
	sc->cur = q + 1;
	return true;
}

/* A number, or a word C++ prints for one (nan, inf, -nan). */
static bool scan_number(struct scan *sc, const char **s, size_t *n)
{
	const char *q = sc->cur;

	while (q < sc->end && q - sc->cur < 64 &&
	       (isalnum((unsigned char)*q) || *q == '.' || *q == '-' || *q == '+'))
		q++;
	if (q == sc->cur) {
		scan_error(sc, "a value");
		return false;
	}
	*s = sc->cur;
	*n = (size_t)(q - sc->cur);
	sc->cur = q;
	return true;
}

struct prof_record {
	const char *name;
	size_t name_len;
	const char *vals[5];		/* count, timeMs, averageMs, medianMs, percentage */
	size_t lens[5];
	const char *at[5];
};

enum { PV_COUNT, PV_TIME, PV_AVG, PV_MEDIAN, PV_PCT };

static const char *const prof_keys[] = { "count", "timeMs", "averageMs", "medianMs", "percentage" };

/* One `{ ... }` record at sc->cur; false after an error. */
static bool scan_record(struct scan *sc, struct prof_record *r)
{
	memset(r, 0, sizeof(*r));
	sc->cur++;
	scan_ws(sc);
	if (sc->cur < sc->end && *sc->cur == '}') {
		sc->cur++;
		return true;
	}
	for (;;) {
		const char *key, *v;
		size_t kn, vn;
		int which = -1;

		scan_ws(sc);
		if (!scan_key(sc, &key, &kn))
			return false;
		scan_ws(sc);
		if (sc->cur >= sc->end || *sc->cur != ':') {
			scan_error(sc, "':' after a member name");
			return false;
		}
		sc->cur++;
		scan_ws(sc);
		for (int i = 0; i < (int)ARRAY_SIZE(prof_keys); i++)
			if (text_eq(key, kn, prof_keys[i]))
				which = i;
		if (sc->cur < sc->end && *sc->cur == '"') {
			const char *at = sc->cur;

			if (!scan_string(sc, &v, &vn))
				return false;
			if (text_eq(key, kn, "name")) {
				r->name = v;
				r->name_len = vn;
			} else if (which >= 0) {
				r->vals[which] = v;	/* a quoted number: take it */
				r->lens[which] = vn;
				r->at[which] = at;
			}
		} else {
			const char *at = sc->cur;

			if (!scan_number(sc, &v, &vn))
				return false;
			if (which >= 0) {
				r->vals[which] = v;
				r->lens[which] = vn;
				r->at[which] = at;
			}
		}
		scan_ws(sc);
		if (sc->cur < sc->end && *sc->cur == ',') {
			sc->cur++;
			continue;
		}
		if (sc->cur < sc->end && *sc->cur == '}') {
			sc->cur++;
			return true;
		}
		scan_error(sc, "',' or '}' in a profile record");
		return false;
	}
}

#define KIND_BAD_NUMBER "profile values that are not numbers (left out)"
#define KIND_BEYOND "profile values beyond bounds (left out)"
#define KIND_BAD_PCT "profile percentages not from 0 to 100 (left out)"

/* Warn of value WHICH of R, of KIND: it is WHAT. */
static void bad_value(struct scan *sc, const struct prof_record *r, int which, const char *kind,
		      const char *what)
{
	if (diag_would_print(sc->d, kind)) {
		struct pos at = scan_pos(sc, r->at[which]);

		diag_warn(sc->d, &at, kind, "'%s' of layer '%.*s' is '%.*s', %s", prof_keys[which],
			  (int)r->name_len, r->name, (int)r->lens[which], r->vals[which], what);
	} else {
		diag_warn(sc->d, NULL, kind, "bad value");
	}
}

/* Milliseconds as written ("31.3879", "1.2e-05") -> ns; false (warned) if
 * the value is not a finite number, or beyond BOUND_DUR_NS. */
static bool prof_ms(struct scan *sc, const struct prof_record *r, int which, int64_t *ns)
{
	if (!r->vals[which])
		return false;
	if (num_scaled(r->vals[which], r->lens[which], 6, ns) && *ns >= 0) {
		if (bound_dur_ok(*ns))
			return true;
		bad_value(sc, r, which, KIND_BEYOND, "beyond proftui's bound of 10^15 ns (11.6 days)");
		return false;
	}
	bad_value(sc, r, which, KIND_BAD_NUMBER, "not a time");
	return false;
}

static void take_record(struct scan *sc, struct layers *ls, const struct prof_record *r,
			const char *start, bool *has_count)
{
	struct profile *p = sc->p;
	struct pos at = scan_pos(sc, start);	/* first: positions only move on */
	struct layer_in *l;
	int64_t ns;
	double pct;

	if (!r->name) {
		int64_t count;

		if (r->vals[PV_COUNT] && num_int(r->vals[PV_COUNT], r->lens[PV_COUNT], &count) &&
		    count >= 0 && !bound_count_ok(count)) {
			bad_value(sc, r, PV_COUNT, KIND_BEYOND, "beyond proftui's bound of 2^40");
		} else if (r->vals[PV_COUNT] &&
			   num_int(r->vals[PV_COUNT], r->lens[PV_COUNT], &count) && count >= 0) {
			ls->calls = (uint64_t)count;
			*has_count = true;
		} else {
			diag_warn(sc->d, &at, "profile records with no layer name or count (skipped)",
				  "record has neither a 'name' nor a 'count'; skipped");
		}
		return;
	}
	if (memchr(r->name, '"', r->name_len) || memchr(r->name, '\\', r->name_len)) {
		struct pos name_at = scan_pos(sc, r->name);

		diag_warn(sc->d, &name_at, "layer names with unescaped quotes (read as written)",
			  "layer name '%.*s' has quotes or backslashes trtexec did not escape; "
			  "read as written", (int)r->name_len, r->name);
	}
	l = layers_add(ls, profile_intern(p, r->name, r->name_len), at);
	if (prof_ms(sc, r, PV_TIME, &ns)) {
		l->has_time = true;
		l->total_ns = ns;
	} else if (!r->vals[PV_TIME]) {
		diag_warn(sc->d, &at, "profile records without 'timeMs' (no time)",
			  "layer '%s' has no 'timeMs'", l->name);
	}
	if (prof_ms(sc, r, PV_AVG, &ns))
		attr_set_ns(p, &l->attrs, "mean_ns", ns);
	if (prof_ms(sc, r, PV_MEDIAN, &ns))
		attr_set_ns(p, &l->attrs, "median_ns", ns);
	/* A share is 0..100: anything else is unknown, not shown. */
	if (r->vals[PV_PCT]) {
		bool is_num = num_double(r->vals[PV_PCT], r->lens[PV_PCT], &pct) && pct == pct;

		if (is_num && pct >= 0 && pct <= 100) {
			attr_set_double(p, &l->attrs, "time_pct", pct);
			sc->pct_sum += pct;
			sc->pct_slack += half_last_digit(r->vals[PV_PCT], r->lens[PV_PCT]);
			sc->nr_pct++;
		} else if (is_num) {
			bad_value(sc, r, PV_PCT, KIND_BAD_PCT, "not a percentage from 0 to 100");
		} else {
			bad_value(sc, r, PV_PCT, KIND_BAD_NUMBER, "not a number");
		}
	}
	layer_sources_from_name(p, l);
}

/* The whole input into one heap buffer (lines rejoined with '\n'). */
static char *slurp(struct input *in, struct diag *d, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	size_t n;
	char *line;

	while ((line = input_line(in, &n))) {
		if (b.len + n + 1 > PROFILE_MAX_BYTES) {
			diag_error(d, NULL, "file larger than %u MB: not a trtexec profile",
				   PROFILE_MAX_BYTES >> 20);
			strbuf_release(&b);
			return NULL;
		}
		strbuf_add(&b, line, n);
		strbuf_add(&b, "\n", 1);
	}
	if (input_failed(in, d)) {
		strbuf_release(&b);
		return NULL;
	}
	if (!b.s)
		strbuf_add(&b, "", 0);
	*len = b.len;
	return b.s;
}

/* The records after the opening '[', up to the closing ']': whether it
 * was reached (false after an error, reported). */
static bool scan_records(struct scan *sc, struct layers *ls, bool *has_count)
{
	size_t nr_records = 0;

	for (;;) {
		struct prof_record r;
		const char *start;

		scan_ws(sc);
		if (sc->cur < sc->end && *sc->cur == ',' && nr_records) {
			sc->cur++;
			scan_ws(sc);
		}
		if (sc->cur < sc->end && *sc->cur == ']') {
			sc->cur++;
			return true;
		}
		sc->nr_kept = ls->nr;
		if (sc->cur >= sc->end) {
			scan_error(sc, "a profile record");
			return false;
		}
		if (*sc->cur != '{') {
			scan_error(sc, nr_records ? "',' or ']' after a profile record"
						  : "'{' opening a profile record");
			return false;
		}
		start = sc->cur;
		if (!scan_record(sc, &r))
			return false;
		nr_records++;
		take_record(sc, ls, &r, start, has_count);
	}
}

static int profile_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct scan sc = { .p = p, .d = d };
	struct layers ls = { 0 };
	size_t len;
	bool has_count = false, ok;
	int rc = 0;

	sc.s = slurp(in, d, &len);
	if (!sc.s)
		return -1;
	sc.cur = sc.mark = sc.mark_bol = sc.s;
	sc.mark_line = 1;
	sc.end = sc.s + len;
	scan_ws(&sc);
	if (sc.cur >= sc.end || *sc.cur != '[') {
		scan_error(&sc, "'[' opening a trtexec --exportProfile array");
		free(sc.s);
		return -1;
	}
	sc.cur++;
	ok = scan_records(&sc, &ls, &has_count);
	if (ok) {
		scan_ws(&sc);
		if (sc.cur < sc.end) {
			struct pos at = scan_pos(&sc, sc.cur);

			diag_warn(d, &at, "text after the end of the JSON document (ignored)",
				  "text after the end of the profile; ignored");
		}
		if (!has_count)
			diag_warn(d, NULL, "no iteration count in the profile",
				  "no '{ \"count\" : N }' record: the number of iterations is unknown");
	}
	if (ok || ls.nr) {
		if (!layers_join(p, d, &ls, false)) {
			rc = -1;
		} else {
			if (has_count) {
				char n[32];

				snprintf(n, sizeof(n), "%llu", (unsigned long long)ls.calls);
				trt_meta_once(p, "layer profile", "iterations", n);
			}
			if (ok)	/* of a cut file, the layers read are a part */
				check_percentages(&sc);
		}
	} else {
		rc = -1;
	}
	layers_release(&ls);
	free(sc.s);
	return rc;
}

/* `[ { "count" : N }` first -- a record of its own -- then records with
 * "timeMs", or the end of the array (an engine without layers). */
static int profile_probe(const char *head, size_t len)
{
	const char *count;
	size_t i;

	if (!trt_opens_with(head, len, '[', '{', "count"))
		return 0;
	count = text_find(head, len, "\"count\"");
	i = trt_skip_ws(head, len, (size_t)(count - head) + 7);
	if (i >= len || head[i] != ':')
		return 0;
	i = trt_skip_ws(head, len, i + 1);
	while (i < len && head[i] >= '0' && head[i] <= '9')
		i++;
	i = trt_skip_ws(head, len, i);
	if (i >= len || head[i] != '}')
		return 0;
	i = trt_skip_ws(head, len, i + 1);
	if (i >= len)
		return 60;	/* the file was cut there */
	if (head[i] == ']')
		return 70;	/* an engine without layers */
	if (head[i] != ',')
		return 0;
	i = trt_skip_ws(head, len, i + 1);
	if (i >= len || head[i] != '{')
		return 0;
	i = trt_skip_ws(head, len, i + 1);
	/* `{ "name" : "...", "timeMs"`, perhaps cut inside the first record. */
	if (text_starts(head + i, len - i, "\"name\"") &&
	    (text_find(head, len, "\"timeMs") || !memchr(head + i, '\n', len - i)))
		return 95;
	return 0;
}

const struct parser trtexec_profile_parser = {
	.counts_per_node = true,
	.name = "trtexec-profile",
	.family = "tensorrt",
	.engine_suffixes = (const char *const[]){ ".profile.json", NULL },
	.summary = "TensorRT trtexec --exportProfile JSON (per-layer times)",
	.probe = profile_probe,
	.parse = profile_parse,
};

