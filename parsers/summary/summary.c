// SPDX-License-Identifier: MIT
/*
 * The summary parser: reads what `proftui --summary` writes (the format is
 * model/summary.h's, documented in proftui-summary(5)) back into a profile
 * whose panes show what the trace's showed.  The file is untrusted like
 * any input: every field is checked, the records must come in their
 * order, and the first problem stops the read with its line and column.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/aggregate.h"
#include "../../model/bounds.h"
#include "../../model/distributed.h"
#include "../../model/rank_analysis.h"
#include "../../model/summary.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"

#define MAX_FIELDS 4096

/* Records in the order they must come. */
enum stage {
	S_HEAD, S_META, S_CATS, S_STEPS, S_NAMES, S_ROWS, S_OVERLAP, S_COMM,
	S_TEMPORAL, S_KTYPES, S_IDLE, S_LAUNCH, S_ITERS, S_NCCL, S_END
};

struct sum {
	struct profile *p;
	struct input *in;
	struct diag *d;
	enum stage stage;
	char *line;
	char *field[MAX_FIELDS];
	size_t nr;			/* fields of the current line */
	bool cats_seen;
	struct step *last_step;
	struct node *last_row;
	size_t nr_attrs;		/* the last step's or row's, so far */
	struct step_overlap *overlap;	/* per step (heap) */
	bool has_communication;
	struct comm_call *calls;	/* heap; ranges in the arena */
	size_t nr_calls, alloc_calls;
	const char **names;		/* the name table (heap; names interned) */
	size_t nr_names, alloc_names;
	int64_t after_steps;		/* the start "-" means */
	bool after_known;
	int version;			/* 1; 2: it may say the trace was cut;
					   3: its op records carry input shapes;
					   4: it may carry the analyses */
	struct rank_analysis ra;	/* the analyses read (present: some) */
	bool seen_ktypes, seen_idle, seen_launch;
	int nr_launchdists;		/* read so far, in their order */
	size_t alloc_iters, alloc_nccl;	/* ra.strag's, heap */
	const char **warnings;		/* the warning texts read (interned),
					   open addressing, NULL: free */
	size_t nr_warnings, nr_warning_slots;
};

/* An error at field FIELD of the current line (its column). */
static int fail(struct sum *s, size_t field, const char *what)
{
	struct pos at = { s->in->lineno, 1 };

	if (field < s->nr)
		at.col = (uint64_t)(s->field[field] - s->line) + 1;
	diag_error(s->d, &at, "%s", what);
	return -1;
}

static int want_fields(struct sum *s, size_t n, const char *record)
{
	char msg[160];

	if (s->nr == n)
		return 0;
	snprintf(msg, sizeof(msg), "'%s' wants %zu fields, not %zu", record, n, s->nr);
	return fail(s, s->nr < n ? s->nr - 1 : n, msg);
}

static int get_int(struct sum *s, size_t f, int64_t *v)
{
	if (num_int(s->field[f], strlen(s->field[f]), v))
		return 0;
	return fail(s, f, "expected an integer");
}

/* Field F: an integer in LO..HI; WHAT says the range when it is not. */
static int get_bounded(struct sum *s, size_t f, int64_t lo, int64_t hi, const char *what,
		       int64_t *v)
{
	if (get_int(s, f, v))
		return -1;
	if (*v < lo || *v > hi)
		return fail(s, f, what);
	return 0;
}

static int get_range(struct sum *s, size_t f, int64_t lo, int64_t hi, int64_t *v)
{
	return get_bounded(s, f, lo, hi, "number out of range", v);
}

/*
 * The values a summary holds, each checked against model/bounds.h as a
 * trace's are: a summary is made by proftui, so a value out of range is
 * a corrupt or hostile file, and an error.
 */

/* A time measured from anywhere: within BOUND_ABS_TS_NS of 0. */
static int get_ts(struct sum *s, size_t f, int64_t *v)
{
	return get_bounded(s, f, -BOUND_ABS_TS_NS, BOUND_ABS_TS_NS,
			   "a time out of range (within 2^62 ns of 0)", v);
}

/* A duration of one thing (a call, a step), -1 where MISSING allows it. */
static int get_dur(struct sum *s, size_t f, bool missing, int64_t *v)
{
	return get_bounded(s, f, missing ? -1 : 0, BOUND_DUR_NS,
			   missing ? "a duration out of range (0 to 10^15 ns, or -1)"
				   : "a duration out of range (0 to 10^15 ns)", v);
}

/* A sum of durations (a record sums the trace's rows): summed with
 * sum_add(), it stops at SUM_CAP.  Self times may be negative (calls
 * that overlap their children). */
static int get_sum(struct sum *s, size_t f, bool self, int64_t *v)
{
	return get_bounded(s, f, self ? -SUM_CAP : 0, SUM_CAP,
			   self ? "a summed self time out of range (within INT64_MAX/4 of 0)"
				: "a sum out of range (0 to INT64_MAX/4)", v);
}

/* A size in bytes, or -1: unknown. */
static int get_bytes(struct sum *s, size_t f, int64_t *v)
{
	return get_bounded(s, f, -1, BOUND_BYTES, "a size out of range (0 to 2^50 bytes, or -1)", v);
}

/* A real number: finite, and within +-LIMIT. */
static int get_real(struct sum *s, size_t f, double limit, double *d)
{
	if (!num_double(s->field[f], strlen(s->field[f]), d))
		return fail(s, f, "expected a number");
	if (!isfinite(*d))
		return fail(s, f, "a number that is not finite");
	if (fabs(*d) > limit)
		return fail(s, f, "number out of range");
	return 0;
}

/* An interval [*START, *END] of fields F and F + 1: in order, and no
 * longer than one duration may be. */
static int get_span(struct sum *s, size_t f, int64_t *start, int64_t *end)
{
	if (get_ts(s, f, start) || get_ts(s, f + 1, end))
		return -1;
	if (*end < *start)
		return fail(s, f + 1, "it ends before it starts");
	if (*end - *start > BOUND_DUR_NS)
		return fail(s, f + 1, "an interval longer than 10^15 ns");
	return 0;
}

/* Field F unescaped in place; its length. */
static int get_text(struct sum *s, size_t f, size_t *len)
{
	long n = summary_unescape(s->field[f], strlen(s->field[f]));

	if (n < 0)
		return fail(s, f, "bad escape in text (\\\\, \\t, \\n, \\r or \\xNN)");
	*len = (size_t)n;
	return 0;
}

/* Split the line at tabs. */
static int split(struct sum *s, char *line, size_t len)
{
	s->line = line;
	s->nr = 0;
	s->field[s->nr++] = line;
	for (size_t i = 0; i < len; i++) {
		if (line[i] != '\t')
			continue;
		line[i] = '\0';
		if (s->nr == MAX_FIELDS)
			return fail(s, 0, "too many fields");
		s->field[s->nr++] = line + i + 1;
	}
	return 0;
}

static int enter(struct sum *s, enum stage stage, const char *record)
{
	char msg[128];

	if (stage < s->stage) {
		snprintf(msg, sizeof(msg), "'%s' comes too late (records go in the documented order)",
			 record);
		return fail(s, 0, msg);
	}
	s->stage = stage;
	return 0;
}

/*
 * The most attributes one step or row may carry.  The writer writes the
 * few a parser sets (a dozen at most); the model finds an attribute by
 * walking its record's list, so thousands on one record would make the
 * read quadratic.
 */
#define MAX_RECORD_ATTRS 256

static int read_attr(struct sum *s, struct attr_list *list)
{
	size_t klen, vlen;
	const char *key;
	int64_t i;
	double d;

	if (want_fields(s, 4, "attr") || get_text(s, 1, &klen))
		return -1;
	if (++s->nr_attrs > MAX_RECORD_ATTRS)
		return fail(s, 0, "more than 256 attributes on one record");
	if (!klen)
		return fail(s, 1, "an attribute without a key");
	key = profile_intern(s->p, s->field[1], klen);
	if (!strcmp(s->field[2], "i")) {
		/* An integer of the file's (an id, a count): shown, not
		 * summed. */
		if (get_int(s, 3, &i))
			return -1;
		attr_set_int(s->p, list, key, i);
	} else if (!strcmp(s->field[2], "n")) {
		/* A time; an op's tensor-core times are sums the Operators
		 * pane adds up. */
		bool is_sum = !strcmp(key, ATTR_FILE_TC_SELF) || !strcmp(key, ATTR_FILE_TC_TOTAL);

		if (is_sum ? get_sum(s, 3, false, &i) : get_ts(s, 3, &i))
			return -1;
		attr_set_ns(s->p, list, key, i);
	} else if (!strcmp(s->field[2], "d")) {
		if (get_real(s, 3, DBL_MAX, &d))
			return -1;
		attr_set_double(s->p, list, key, d);
	} else if (!strcmp(s->field[2], "s")) {
		if (get_text(s, 3, &vlen))
			return -1;
		/* Shapes are interned, as the trace's: the Operators pane
		 * groups by the pointer. */
		if (!strcmp(key, "input_shapes") || !strcmp(key, ATTR_FILE_INPUT_SHAPES))
			attr_set_interned(s->p, list, key, profile_intern(s->p, s->field[3], vlen));
		else
			attr_set_str(s->p, list, key, s->field[3], vlen);
	} else if (!strcmp(s->field[2], "l")) {
		/* A kernel's launch (Kineto), made of its record's means. */
		const struct attr *a;
		struct launch l;

		launch_init(&l);
		if ((a = attr_find(attr_list_first(s->p, list), "blocks_per_sm")) && attr_type(a) == ATTR_DOUBLE)
			l.blocks_per_sm = a->v.d;
		if ((a = attr_find(attr_list_first(s->p, list), "occupancy_pct")) && attr_type(a) == ATTR_DOUBLE)
			l.occupancy_pct = a->v.d;
		attr_set_launch(s->p, list, profile_launch(s->p, &l));
	} else {
		return fail(s, 2, "an attribute's type is i, n, d, s or l");
	}
	return 0;
}

/* Whether the interned TEXT was a warning before; notes it if not. */
static bool warned_before(struct sum *s, const char *text)
{
	size_t i, mask;

	if (2 * (s->nr_warnings + 1) > s->nr_warning_slots) {
		const char **old = s->warnings;
		size_t nr_old = s->nr_warning_slots;

		s->nr_warning_slots = nr_old ? 2 * nr_old : 64;
		s->warnings = xcalloc(s->nr_warning_slots, sizeof(*s->warnings));
		s->nr_warnings = 0;
		for (size_t k = 0; k < nr_old; k++)
			if (old[k])
				warned_before(s, old[k]);
		free(old);
	}
	mask = s->nr_warning_slots - 1;
	for (i = hash_ptr(text) & mask; s->warnings[i]; i = (i + 1) & mask)
		if (s->warnings[i] == text)
			return true;
	s->warnings[i] = text;
	s->nr_warnings++;
	return false;
}

/*
 * A warning record: its text once (the writer writes each once, so a
 * second is a corrupt file, and nothing adds counts up), appended to
 * the profile's list without profile_warn()'s search of it, which made
 * a file of 100,000 warnings take 15 s.
 */
static int read_warning(struct sum *s)
{
	struct warning *w;
	const char *text;
	int64_t count;
	size_t len;

	if (want_fields(s, 3, "warning") || get_bounded(s, 1, 0, BOUND_COUNT, "a count out of range (0 to 2^40)", &count) ||
	    get_text(s, 2, &len))
		return -1;
	text = profile_intern(s->p, s->field[2], len);
	if (warned_before(s, text))
		return fail(s, 2, "a warning given twice");
	w = arena_alloc(&s->p->arena, sizeof(*w));
	w->text = text;
	w->count = (uint64_t)count;
	w->next = NULL;
	if (s->p->warnings_tail)
		s->p->warnings_tail->next = w;
	else
		s->p->warnings = w;
	s->p->warnings_tail = w;
	return 0;
}

static int read_step(struct sum *s)
{
	struct profile *p = s->p;
	size_t n = p->nr_step_cats, len;
	int64_t v[3];
	struct step *st;

	if (!s->cats_seen)
		return fail(s, 0, "'step' before 'cats'");
	if (want_fields(s, 5 + n, "step") || get_text(s, 4 + n, &len))
		return -1;
	/* 0, 0: a step without an interval. */
	if (get_span(s, 1, &v[0], &v[1]) || get_dur(s, 3, true, &v[2]))
		return -1;
	st = profile_add_step(p, s->field[4 + n], len);
	st->start_ns = v[0];
	st->end_ns = v[1];
	st->total_ns = v[2];
	for (size_t k = 0; k < n; k++)
		if (get_dur(s, 4 + k, true, &st->cat_ns[k]))
			return -1;
	s->last_step = st;
	s->nr_attrs = 0;
	return 0;
}

/* Field F: a number of the name table. */
static int get_name(struct sum *s, size_t f, const char **name)
{
	int64_t i;

	if (get_range(s, f, 0, (int64_t)s->nr_names - 1, &i))
		return -1;
	*name = s->names[i];
	return 0;
}

/* Field F: a row's start -- "sN", the start of step N; "-", after the
 * last step; else nanoseconds, a time like any other (0 too). */
static int get_at(struct sum *s, size_t f, int64_t *at)
{
	const char *v = s->field[f];
	int64_t i;

	if (!strcmp(v, "-")) {
		if (!s->after_known) {
			s->after_steps = 1;
			for (size_t k = 0; k < s->p->nr_steps; k++)
				if (s->p->steps[k].end_ns > s->after_steps)
					s->after_steps = s->p->steps[k].end_ns;
			s->after_known = true;
		}
		*at = s->after_steps;
		return 0;
	}
	if (v[0] == 's') {
		if (!num_int(v + 1, strlen(v + 1), &i) || i < 0 || i >= (int64_t)s->p->nr_steps)
			return fail(s, f, "no such step");
		*at = s->p->steps[i].start_ns;
		return 0;
	}
	return get_ts(s, f, at);
}

/* Field F: a duration-weighted mean ("-": none), set as attribute KEY. */
static int get_mean(struct sum *s, size_t f, struct node *n, const char *key)
{
	double d;

	if (!strcmp(s->field[f], "-"))
		return 0;
	/* Blocks per SM, an occupancy in percent: weighed by durations,
	 * so bounded as a count is. */
	if (get_real(s, f, (double)BOUND_COUNT, &d))
		return -1;
	attr_set_double(s->p, node_attr_list(n), key, d);
	return 0;
}

/* A row's times from field F on: an op's host and device self and total
 * (self within total), a kernel's device self and total, then the least
 * and greatest call (-1: unknown). */
static int get_times(struct sum *s, size_t f, bool kernel, int64_t *v)
{
	size_t nr_sums = kernel ? 2 : 4;

	for (size_t i = 0; i < nr_sums; i++)
		if (get_sum(s, f + i, !kernel && i % 2 == 0, &v[i]))
			return -1;
	for (size_t i = 0; !kernel && i < nr_sums; i += 2)
		if (v[i] > v[i + 1])
			return fail(s, f + i, "a self time above its total");
	if (get_dur(s, f + nr_sums, true, &v[nr_sums]) || get_dur(s, f + nr_sums + 1, true, &v[nr_sums + 1]))
		return -1;
	/* The writer writes both or neither (node_set_minmax() keeps no
	 * half pair). */
	if ((v[nr_sums] < 0) != (v[nr_sums + 1] < 0))
		return fail(s, f + nr_sums, "a least call time without a greatest, or the reverse");
	if (v[nr_sums] > v[nr_sums + 1])
		return fail(s, f + nr_sums, "a least call time above the greatest");
	return 0;
}

static int read_row(struct sum *s, bool kernel)
{
	size_t nf = kernel ? 11 : 12, f = 1;
	int64_t start, flags, calls, v[6];
	enum node_kind kind = NODE_KERNEL;
	const char *name;
	struct node *n;

	if (want_fields(s, nf, kernel ? "kernel" : "op") || get_at(s, f++, &start))
		return -1;
	if (!kernel) {
		if (!strcmp(s->field[f], "op"))
			kind = NODE_OP;
		else if (!strcmp(s->field[f], "layer"))
			kind = NODE_LAYER;
		else
			return fail(s, f, "an op row's kind is op or layer");
		f++;
	}
	if (get_range(s, f++, 0, 0x3f, &flags) || get_sum(s, f++, false, &calls) ||
	    get_times(s, f, kernel, v) || get_name(s, nf - 1, &name))
		return -1;
	f += kernel ? 4 : 6;
	n = node_new_interned(s->p, s->p->root, kind, name);
	/* Without a timeline (the flags say so) the field holds 0, no time. */
	if (s->p->has_timeline)
		n->start_ns = start;
	n->flags = (uint8_t)flags;
	node_set_calls(s->p, n, (uint64_t)calls);
	if (kernel) {
		node_set_device_self(s->p, n, v[0]);
		node_set_device_total(s->p, n, v[1]);
		node_set_minmax(s->p, n, v[2], v[3]);
		if (get_mean(s, f, n, "blocks_per_sm") || get_mean(s, f + 1, n, "occupancy_pct"))
			return -1;
	} else {
		node_set_host_self(s->p, n, v[0]);
		node_set_host_total(s->p, n, v[1]);
		node_set_device_self(s->p, n, v[2]);
		node_set_device_total(s->p, n, v[3]);
		node_set_minmax(s->p, n, v[4], v[5]);
	}
	s->last_row = n;
	s->nr_attrs = 0;
	return 0;
}

static int read_call(struct sum *s)
{
	int64_t step, bytes, start, end, nr;
	const char *name;
	struct comm_call *c;

	if (s->nr < 7)
		return want_fields(s, 7, "call");
	if (get_range(s, 1, -1, (int64_t)s->p->nr_steps - 1, &step) || get_bytes(s, 2, &bytes) ||
	    get_span(s, 3, &start, &end) || get_range(s, 5, 0, (MAX_FIELDS - 7) / 2, &nr))
		return -1;
	if (want_fields(s, 7 + 2 * (size_t)nr, "call") || get_name(s, s->nr - 1, &name))
		return -1;
	GROW(s->calls, s->alloc_calls, s->nr_calls + 1);
	c = &s->calls[s->nr_calls];
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->step = (int32_t)step;
	c->size_bytes = bytes;
	c->start_ns = start;
	c->end_ns = end;
	c->nr_ranges = (size_t)nr;
	c->ranges = arena_alloc(&s->p->arena, (nr ? (size_t)nr : 1) * sizeof(*c->ranges));
	for (size_t j = 0; j < (size_t)nr; j++)
		if (get_span(s, 6 + 2 * j, &c->ranges[j].start, &c->ranges[j].end))
			return -1;
	s->nr_calls++;
	return 0;
}

/* A launch statistic at field F: "-" (none: NaN) where NONE allows it,
 * else a finite number of ns within INT64_MAX of 0. */
static int get_stat(struct sum *s, size_t f, bool none, double *d)
{
	if (!strcmp(s->field[f], "-")) {
		if (!none)
			return fail(s, f, "a statistic missing ('-') where it has a value");
		*d = NAN;
		return 0;
	}
	if (none)
		return fail(s, f, "a statistic where it has none ('-')");
	return get_real(s, f, (double)INT64_MAX, d);
}

/* The launch record: the counts, each class at most all launches. */
static int read_launch(struct sum *s)
{
	struct launch_summary *l = &s->ra.launch;
	int64_t v[4];

	if (want_fields(s, 5, "launch"))
		return -1;
	if (s->seen_launch)
		return fail(s, 0, "a second 'launch'");
	for (size_t i = 0; i < 4; i++)
		if (get_range(s, 1 + i, 0, INT64_MAX, &v[i]))
			return -1;
	for (size_t i = 1; i < 4; i++)
		if (v[i] > v[0])
			return fail(s, 1 + i, "more launches of a class than launches");
	l->nr_launches = (uint64_t)v[0];
	l->nr_short = (uint64_t)v[1];
	l->nr_runtime_outliers = (uint64_t)v[2];
	l->nr_delay_outliers = (uint64_t)v[3];
	s->seen_launch = true;
	return 0;
}

/* A launchdist record: the next figure's distribution, of every launch;
 * none of its statistics where there is no launch, no deviation of one;
 * the quantiles in order. */
static int read_launchdist(struct sum *s)
{
	struct launch_summary *l = &s->ra.launch;
	struct launch_dist *d;
	double q[7];		/* mean, std, min, p50, p90, p99, max */
	int64_t v[3];
	char msg[96];

	if (want_fields(s, 12, "launchdist"))
		return -1;
	if (!s->seen_launch)
		return fail(s, 0, "'launchdist' without 'launch' before it");
	if (s->nr_launchdists == NR_LAUNCH_FIGURES)
		return fail(s, 0, "a fourth 'launchdist'");
	if (strcmp(s->field[1], launch_figure_name((enum launch_figure)s->nr_launchdists))) {
		snprintf(msg, sizeof(msg), "expected the figure '%s' (cpu_duration, gpu_duration, "
			 "launch_delay in order)", launch_figure_name((enum launch_figure)s->nr_launchdists));
		return fail(s, 1, msg);
	}
	if (get_range(s, 2, 0, INT64_MAX, &v[0]) || get_sum(s, 3, false, &v[1]) ||
	    get_range(s, 4, 0, 1, &v[2]))
		return -1;
	if ((uint64_t)v[0] != l->nr_launches)
		return fail(s, 2, "a count other than the launches'");
	for (size_t i = 0; i < 7; i++)
		if (get_stat(s, 5 + i, v[0] == 0 || (i == 1 && v[0] == 1), &q[i]))
			return -1;
	if (v[0] && q[1] < 0)
		return fail(s, 6, "a negative deviation");
	for (size_t i = 3; v[0] && i < 7; i++)
		if (q[i] < q[i - 1])
			return fail(s, 5 + i, "statistics out of order (min <= p50 <= p90 <= p99 <= max)");
	d = &l->dist[s->nr_launchdists++];
	*d = (struct launch_dist){ (uint64_t)v[0], v[1], v[2], q[0], q[1], q[2], q[3], q[4], q[5], q[6] };
	return 0;
}

/* The analyses' records (version 4 on): temporal, ktypes, idle, the
 * launch statistics, then the straggler test's iter and nccl. */
static int read_analysis(struct sum *s, const char *r)
{
	struct rank_analysis *a = &s->ra;
	int64_t v[8];

	if (!strcmp(r, "temporal")) {
		if (enter(s, S_TEMPORAL, r) || want_fields(s, 7, r))
			return -1;
		if (a->present)
			return fail(s, 0, "a second 'temporal'");
		if (get_range(s, 1, 0, INT64_MAX, &v[0]))
			return -1;
		for (size_t i = 0; i < 4; i++)
			if (get_sum(s, 2 + i, false, &v[1 + i]))
				return -1;
		if (get_range(s, 6, 0, 1, &v[5]))
			return -1;
		a->present = true;
		a->nr_gpu_events = (uint64_t)v[0];
		a->kernel_ns = v[1];
		a->idle_ns = v[2];
		a->compute_ns = v[3];
		a->non_compute_ns = v[4];
		a->capped = v[5];
		return 0;
	}
	if (!a->present)
		return fail(s, 0, "analyses without 'temporal' first");
	if (!strcmp(r, "ktypes")) {
		if (enter(s, S_KTYPES, r) || want_fields(s, NR_KTYPE_CLASSES, r))
			return -1;
		if (s->seen_ktypes)
			return fail(s, 0, "a second 'ktypes'");
		for (size_t c = 1; c < NR_KTYPE_CLASSES; c++)
			if (get_sum(s, c, false, &a->class_ns[c]))
				return -1;
		s->seen_ktypes = true;
	} else if (!strcmp(r, "idle")) {
		if (enter(s, S_IDLE, r) || want_fields(s, 2 + NR_IDLE_CATEGORIES, r))
			return -1;
		if (!s->seen_ktypes)
			return fail(s, 0, "'idle' without 'ktypes' before it");
		if (s->seen_idle)
			return fail(s, 0, "a second 'idle'");
		if (get_range(s, 1, 0, INT64_MAX, &v[0]))
			return -1;
		a->nr_idle_streams = (uint64_t)v[0];
		/* Gaps may be negative (overlapping work): kernel wait too. */
		for (size_t c = 0; c < NR_IDLE_CATEGORIES; c++)
			if (get_sum(s, 2 + c, true, &a->idle_by_cat_ns[c]))
				return -1;
		s->seen_idle = true;
	} else if (!s->seen_idle) {
		return fail(s, 0, "launch and straggler records without 'idle' before them");
	} else if (!strcmp(r, "launch") || !strcmp(r, "launchdist")) {
		if (enter(s, S_LAUNCH, r))
			return -1;
		return !strcmp(r, "launch") ? read_launch(s) : read_launchdist(s);
	} else if (!strcmp(r, "iter")) {
		struct strag_iter *it;

		if (enter(s, S_ITERS, r) || want_fields(s, 4, r) ||
		    get_range(s, 1, 0, INT32_MAX, &v[0]) || get_span(s, 2, &v[1], &v[2]))
			return -1;
		if (a->strag.nr_iters && v[0] <= a->strag.iters[a->strag.nr_iters - 1].iteration)
			return fail(s, 1, "steps out of order (each N once, ascending)");
		GROW(a->strag.iters, s->alloc_iters, a->strag.nr_iters + 1);
		it = &a->strag.iters[a->strag.nr_iters++];
		*it = (struct strag_iter){ (int32_t)v[0], v[1], v[2] };
	} else {
		struct strag_kernel *k;
		const char *name;

		if (enter(s, S_NCCL, r) || want_fields(s, 6, r) ||
		    get_range(s, 1, 1, INT32_MAX, &v[0]) || get_range(s, 2, 1, INT32_MAX, &v[1]) ||
		    get_ts(s, 3, &v[2]) || get_dur(s, 4, false, &v[3]) || get_name(s, 5, &name))
			return -1;
		GROW(a->strag.kernels, s->alloc_nccl, a->strag.nr_kernels + 1);
		k = &a->strag.kernels[a->strag.nr_kernels++];
		*k = (struct strag_kernel){ name, v[2], v[3], (int32_t)v[0], (int32_t)v[1] };
	}
	return 0;
}

static bool is_analysis(const char *r)
{
	return !strcmp(r, "temporal") || !strcmp(r, "ktypes") || !strcmp(r, "idle") ||
	       !strcmp(r, "launch") || !strcmp(r, "launchdist") || !strcmp(r, "iter") ||
	       !strcmp(r, "nccl");
}

static int read_record(struct sum *s)
{
	struct profile *p = s->p;
	const char *r = s->field[0];
	int64_t v[10];
	size_t len;

	if (!strcmp(r, "source") || !strcmp(r, "format")) {
		if (enter(s, S_META, r) || want_fields(s, 2, r) || get_text(s, 1, &len))
			return -1;
		profile_meta(p, "summary", r, s->field[1]);
	} else if (!strcmp(r, "cut") && s->version >= SUMMARY_VERSION_CUT) {
		/* Its tables are what came before a cut: said at every
		 * opening, as the cut trace's own load said it. */
		if (enter(s, S_META, r) || want_fields(s, 2, r) || get_text(s, 1, &len))
			return -1;
		diag_warn(s->d, NULL, "summary of a cut trace",
			  "the trace this summarises was cut (its load stopped at %s): its tables "
			  "hold only what came before", s->field[1]);
	} else if (!strcmp(r, "flags")) {
		if (enter(s, S_META, r) || want_fields(s, 3, r) || get_range(s, 1, 0, 1, &v[0]) ||
		    get_range(s, 2, 0, 1, &v[1]))
			return -1;
		p->has_device_time = v[0];
		p->has_timeline = v[1];
	} else if (!strcmp(r, "dist")) {
		if (enter(s, S_META, r) || want_fields(s, 5, r) || get_range(s, 1, 0, 1, &v[0]) ||
		    get_range(s, 2, -1, INT32_MAX, &v[1]) || get_range(s, 3, -1, INT32_MAX, &v[2]) ||
		    get_text(s, 4, &len))
			return -1;
		/* As a trace's distributedInfo is read: a job has a rank,
		 * and its ranks are below its size. */
		if (v[2] == 0)
			return fail(s, 3, "world size 0");
		if (v[1] >= 0 && v[2] > 0 && v[1] >= v[2])
			return fail(s, 2, "rank not below the world size");
		p->dist.present = v[0];
		p->dist.rank = (int32_t)v[1];
		p->dist.world_size = (int32_t)v[2];
		p->dist.backend = len ? profile_intern(p, s->field[4], len) : NULL;
	} else if (!strcmp(r, "device")) {
		struct device_info *d;

		if (enter(s, S_META, r) || want_fields(s, 12, r))
			return -1;
		for (size_t i = 0; i < 10; i++)
			if (get_int(s, 1 + i, &v[i]))
				return -1;
		if (v[0] < INT32_MIN || v[0] > INT32_MAX)
			return fail(s, 1, "number out of range");
		for (size_t i = 2; i < 9; i++)
			if (v[i] < -1 || v[i] > INT32_MAX)
				return fail(s, 1 + i, "number out of range");
		if (get_bytes(s, 2, &v[1]) || get_bytes(s, 10, &v[9]))
			return -1;
		if (get_text(s, 11, &len))
			return -1;
		d = profile_add_device(p, (int32_t)v[0]);
		d->total_memory_bytes = v[1];
		d->cc_major = (int32_t)v[2];
		d->cc_minor = (int32_t)v[3];
		d->num_sms = (int32_t)v[4];
		d->max_threads_per_sm = (int32_t)v[5];
		d->max_threads_per_block = (int32_t)v[6];
		d->regs_per_sm = (int32_t)v[7];
		d->warp_size = (int32_t)v[8];
		d->shared_mem_per_sm_bytes = v[9];
		d->name = len ? profile_intern(p, s->field[11], len) : NULL;
	} else if (!strcmp(r, "meta")) {
		size_t a, b;

		if (enter(s, S_META, r) || want_fields(s, 4, r) || get_text(s, 1, &a) ||
		    get_text(s, 2, &b) || get_text(s, 3, &len))
			return -1;
		profile_meta(p, s->field[1], s->field[2], s->field[3]);
	} else if (!strcmp(r, "warning")) {
		if (enter(s, S_META, r))
			return -1;
		return read_warning(s);
	} else if (!strcmp(r, "cats")) {
		const char *names[64];

		if (enter(s, S_CATS, r))
			return -1;
		if (s->cats_seen)
			return fail(s, 0, "a second 'cats'");
		if (s->nr < 2)
			return want_fields(s, 2, r);
		if (get_range(s, 1, 0, 64, &v[0]) || want_fields(s, 2 + (size_t)v[0], r))
			return -1;
		for (size_t k = 0; k < (size_t)v[0]; k++) {
			if (get_text(s, 2 + k, &len))
				return -1;
			names[k] = s->field[2 + k];
		}
		profile_set_step_cats(p, names, (size_t)v[0]);
		s->cats_seen = true;
	} else if (!strcmp(r, "step")) {
		if (enter(s, S_STEPS, r))
			return -1;
		return read_step(s);
	} else if (!strcmp(r, "stepattr")) {
		if (enter(s, S_STEPS, r))
			return -1;
		if (!s->last_step)
			return fail(s, 0, "'stepattr' before any 'step'");
		return read_attr(s, &s->last_step->attrs);
	} else if (!strcmp(r, "name")) {
		if (enter(s, S_NAMES, r) || want_fields(s, 2, r) || get_text(s, 1, &len))
			return -1;
		GROW(s->names, s->alloc_names, s->nr_names + 1);
		s->names[s->nr_names++] = profile_intern(p, s->field[1], len);
	} else if (!strcmp(r, "op") || !strcmp(r, "kernel")) {
		if (enter(s, S_ROWS, r))
			return -1;
		return read_row(s, r[0] == 'k');
	} else if (!strcmp(r, "attr")) {
		if (enter(s, S_ROWS, r))
			return -1;
		if (!s->last_row)
			return fail(s, 0, "'attr' before any 'op' or 'kernel'");
		return read_attr(s, node_attr_list(s->last_row));
	} else if (!strcmp(r, "overlap")) {
		struct step_overlap *o;

		if (enter(s, S_OVERLAP, r) || want_fields(s, 6, r) ||
		    get_range(s, 1, 0, (int64_t)p->nr_steps - 1, &v[0]))
			return -1;
		for (size_t i = 0; i < 4; i++)
			if (get_dur(s, 2 + i, false, &v[1 + i]))
				return -1;
		if (!s->overlap)
			s->overlap = xcalloc(p->nr_steps ? p->nr_steps : 1, sizeof(*s->overlap));
		o = &s->overlap[v[0]];
		o->computation = v[1];
		o->overlap = v[2];
		o->communication = v[3];
		o->other = v[4];
	} else if (!strcmp(r, "comm")) {
		if (enter(s, S_COMM, r) || want_fields(s, 2, r) || get_range(s, 1, 0, 1, &v[0]))
			return -1;
		s->has_communication = v[0];
	} else if (!strcmp(r, "call")) {
		if (enter(s, S_COMM, r))
			return -1;
		return read_call(s);
	} else if (s->version >= SUMMARY_VERSION_ANALYSES && is_analysis(r)) {
		return read_analysis(s, r);
	} else if (!strcmp(r, "end")) {
		if (want_fields(s, 1, r))
			return -1;
		if (s->ra.present && !s->seen_idle)
			return fail(s, 0, "analyses without 'ktypes' and 'idle'");
		if (s->ra.present && s->nr_launchdists < NR_LAUNCH_FIGURES)
			return fail(s, 0, "analyses without 'launch' and its three 'launchdist'");
		s->stage = S_END;
	} else {
		char msg[160];

		snprintf(msg, sizeof(msg), "unknown record '%.40s'", r);
		return fail(s, 0, msg);
	}
	return 0;
}

/* The Distributed figures the file stored, into the profile's arena. */
static void store_rank_local(struct sum *s)
{
	struct profile *p = s->p;
	struct rank_local *rl = arena_alloc(&p->arena, sizeof(*rl));

	rl->nr_steps = p->nr_steps;
	rl->steps = arena_alloc(&p->arena, (p->nr_steps ? p->nr_steps : 1) * sizeof(*rl->steps));
	if (s->overlap)
		memcpy(rl->steps, s->overlap, p->nr_steps * sizeof(*rl->steps));
	rl->nr_calls = s->nr_calls;
	rl->calls = arena_alloc(&p->arena, (s->nr_calls ? s->nr_calls : 1) * sizeof(*rl->calls));
	if (s->nr_calls)
		memcpy(rl->calls, s->calls, s->nr_calls * sizeof(*rl->calls));
	rl->has_communication = s->has_communication;
	p->rank_local = rl;
}

/* The analyses the file stored (version 4 on), into the profile's arena;
 * none: the pane shows an empty row. */
static void store_rank_analysis(struct sum *s)
{
	struct profile *p = s->p;
	struct rank_analysis *a;
	struct strag_rank *r = &s->ra.strag;

	if (!s->ra.present)
		return;
	a = arena_alloc(&p->arena, sizeof(*a));
	*a = s->ra;
	a->owned = false;
	a->strag.iters = arena_alloc(&p->arena, (r->nr_iters ? r->nr_iters : 1) * sizeof(*r->iters));
	if (r->nr_iters)
		memcpy(a->strag.iters, r->iters, r->nr_iters * sizeof(*r->iters));
	a->strag.kernels =
		arena_alloc(&p->arena, (r->nr_kernels ? r->nr_kernels : 1) * sizeof(*r->kernels));
	if (r->nr_kernels)
		memcpy(a->strag.kernels, r->kernels, r->nr_kernels * sizeof(*r->kernels));
	p->rank_analysis = a;
}

static int summary_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct sum s = { .p = p, .in = in, .d = d };
	char *line;
	size_t len;
	int rc = 0;

	/* A summary is a profile of its own: it does not join another. */
	if (p->nr_nodes > 1 || p->nr_steps) {
		diag_error(d, NULL, "a summary opens alone, not merged with another profile");
		return -1;
	}
	p->is_summary = true;
	line = input_line(in, &len);
	if (!line || split(&s, line, len) || s.nr != 2 || strcmp(s.field[0], SUMMARY_MAGIC)) {
		if (!input_failed(in, d))
			diag_error(d, NULL, "not a proftui summary (no '%s' line)", SUMMARY_MAGIC);
		return -1;
	}
	s.version = !strcmp(s.field[1], "1") ? 1 : !strcmp(s.field[1], "2") ? 2
		  : !strcmp(s.field[1], "3") ? 3 : !strcmp(s.field[1], "4") ? 4 : 0;
	if (!s.version) {
		struct pos at = { in->lineno, (uint64_t)(s.field[1] - s.line) + 1 };

		diag_error(d, &at, "a summary of version '%.20s'; this proftui reads versions 1 to %d",
			   s.field[1], SUMMARY_VERSION);
		return -1;
	}
	p->summary_has_shapes = s.version >= SUMMARY_VERSION_SHAPES;
	while ((line = input_line(in, &len))) {
		if (s.stage == S_END) {
			struct pos at = { in->lineno, 1 };

			diag_error(d, &at, "text after 'end'");
			rc = -1;
			break;
		}
		if (in->nr_cut_lines) {
			struct pos at = { in->lineno, 1 };

			diag_error(d, &at, "a line longer than %d bytes", INPUT_MAX_SPAN);
			rc = -1;
			break;
		}
		if (split(&s, line, len) || read_record(&s)) {
			rc = -1;
			break;
		}
	}
	if (!rc && input_failed(in, d))
		rc = -1;
	if (!rc && s.stage != S_END) {
		struct pos at = { in->lineno + 1, 1 };

		diag_error(d, &at, "the summary ends early (no 'end' line): a cut file?");
		rc = -1;
	}
	if (!rc) {
		store_rank_local(&s);
		store_rank_analysis(&s);
	}
	free(s.ra.strag.iters);
	free(s.ra.strag.kernels);
	free(s.overlap);
	free(s.calls);
	free(s.names);
	free(s.warnings);
	return rc;
}

static int summary_probe(const char *head, size_t len)
{
	size_t n = strlen(SUMMARY_MAGIC);

	return len > n && !memcmp(head, SUMMARY_MAGIC, n) && head[n] == '\t' ? 100 : 0;
}

const struct parser summary_parser = {
	.counts_per_node = true,
	.name = "summary",
	.summary = "proftui --summary: one profile's aggregated tables",
	.probe = summary_probe,
	.parse = summary_parse,
};
