// SPDX-License-Identifier: MIT
/*
 * Kineto / Chrome trace JSON: what torch.profiler, export_chrome_trace()
 * and Paddle's chrome export write (FORMATS.md a.2-a.7).
 *
 * The numbers must equal torch-tb-profiler's on the same trace, so this
 * follows its model step by step (pytorch/kineto tb_plugin, profiler/):
 *
 *   1. events are typed by category (trace.py); only complete ("X") events
 *      count, python_function frames without a module id are not nodes;
 *   2. device work joins its runtime call by args.correlation, runtime calls
 *      join the op whose External id they carry (event_parser.py);
 *   3. each thread's host events nest by interval containment, sorted by
 *      (start, -end) with ties in file order (op_tree.py), and a lone child
 *      of the same name as its op parent is folded into it;
 *   4. self/total times as node.py's fill_stats() computes them;
 *   5. steps: ProfilerStep intervals widened to the device work they
 *      launched, then carved into categories by priority (overall_parser.py).
 *
 * Where the reference is odd we follow it and say so in a comment.  Device
 * work that no op claims is not dropped: it hangs under a group of its own
 * beneath the root and is counted as a warning.
 *
 * Memory: one compact record per kept event plus its node; the records are
 * freed when the tree is built.
 */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../model/util.h"
#include "json.h"
#include "parser.h"

#define NO_ID INT64_MIN

/* Event types, as trace.py's EventTypes (only those that matter here). */
enum ev_type {
	EV_OPERATOR,		/* cpu_op, operator */
	EV_PYTHON,		/* python (old traces) */
	EV_ANNOTATION,		/* user_annotation, gpu_user_annotation */
	EV_STEP,		/* ProfilerStep#N in any of the above */
	EV_MODULE,		/* python_function with a Python module id */
	EV_RUNTIME,
	EV_KERNEL,
	EV_MEMCPY,
	EV_MEMSET,
};

/* A host event that is a tree node: an op, a step, a module... */
struct host_rec {
	struct node *node;
	int64_t ext_id;
	int64_t tid;
	int64_t end_ns;
	uint32_t index;		/* file order, breaks ties as a stable sort */
	uint8_t type;		/* enum ev_type */
	bool claimed;		/* runtimes attached (see attach_runtimes) */
	struct rt_rec *runtimes;	/* chain through rt_rec.next_of_op */
};

struct rt_rec {
	struct node *node;
	int64_t ext_id, corr;
	int64_t tid;
	int64_t end_ns;
	uint32_t index;
	struct rt_rec *next_of_op;
	struct dev_rec *devices;	/* chain through dev_rec.next_of_rt */
	int64_t device_ns;		/* Σ device durations */
	bool used;			/* attached to an op or a thread */
};

struct dev_rec {
	struct node *node;
	int64_t end_ns;			/* ts + dur as the reference adds them */
	int64_t corr, ext_id;
	uint32_t index;
	uint8_t type;
	bool matched;			/* launched inside a step (steps) */
	struct dev_rec *next_of_rt;
};

/* Intervals [start, end) in ns. */
struct range {
	int64_t start, end;
};

struct ranges {
	struct range *v;
	size_t nr, alloc;
};

/* Step categories in tb_plugin's priority order (event_parser.ProfileRole). */
enum role { ROLE_KERNEL, ROLE_MEMCPY, ROLE_MEMSET, ROLE_COMM, ROLE_RUNTIME, ROLE_DATALOADER,
	    ROLE_CPUOP, NR_ROLES };

struct raw_step {
	int64_t start, end;
	const char *name;
	uint32_t index;
};

struct kineto {
	struct profile *p;
	struct diag *d;
	struct json j;

	struct host_rec *hosts;
	size_t nr_hosts, alloc_hosts;
	struct rt_rec *rts;
	size_t nr_rts, alloc_rts;
	struct dev_rec *devs;
	size_t nr_devs, alloc_devs;

	struct ranges roles[NR_ROLES];
	struct raw_step *steps;
	size_t nr_steps, alloc_steps;
	int64_t cpu_min, cpu_max;	/* host extent: the step of a trace without steps */

	/* External ids of collectives (nccl:/gloo: ops): their kernels are
	 * Communication, not Kernel.  Sorted after the parse. */
	int64_t *comm_ext;
	size_t nr_comm_ext, alloc_comm_ext;
	bool has_nccl, has_gloo;

	uint32_t nr_events;		/* every element of traceEvents */
	uint64_t nr_skipped;		/* X events we could not use */
	char *name_buf;			/* the event name being read, copied */
	size_t name_cap;
	struct pipe *pipe;		/* events from the reading to the model thread */
	bool has_device_props;
};

/* One event's fields as they arrive, in any order. */
struct raw_event {
	bool is_complete;		/* ph == "X" */
	bool has_ts, has_dur, has_cat;
	int cat;			/* enum cat */
	const char *name;		/* interned (the model's side) */
	const char *name_text;		/* the reading side: a copy, or NULL */
	size_t name_len;
	uint32_t ordinal;		/* its place among all trace events */
	double ts_us, dur_us;		/* as Python's json reads them */
	int64_t ts, dur;		/* ns, derived in take_event() */
	int64_t tid;
	int64_t ext_id, ext_id_lower;	/* "External id" / "external id" */
	int64_t corr;
	bool has_module_id;
	bool has_bpsm, has_occ;
	double blocks_per_sm, occupancy;
};

enum cat {
	CAT_UNKNOWN, CAT_OPERATOR, CAT_PYTHON, CAT_ANNOTATION, CAT_PYTHON_FUNCTION, CAT_RUNTIME,
	CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_TRACE,
};

static const struct {
	const char *name;
	enum cat cat;
} cats[] = {
	/* trace.py's EventTypeMap, matched case-insensitively... */
	{ "cpu_op", CAT_OPERATOR },
	{ "operator", CAT_OPERATOR },
	{ "user_annotation", CAT_ANNOTATION },
	{ "gpu_user_annotation", CAT_ANNOTATION },
	{ "python_function", CAT_PYTHON_FUNCTION },
	{ "python", CAT_PYTHON },
	{ "cuda_runtime", CAT_RUNTIME },
	{ "runtime", CAT_RUNTIME },
	{ "privateuse1_runtime", CAT_RUNTIME },
	{ "mtia_runtime", CAT_RUNTIME },
	{ "xpu_runtime", CAT_RUNTIME },
	{ "glow_runtime", CAT_RUNTIME },
	{ "kernel", CAT_KERNEL },
	{ "gpu_memcpy", CAT_MEMCPY },
	{ "memcpy", CAT_MEMCPY },
	{ "gpu_memset", CAT_MEMSET },
	{ "memset", CAT_MEMSET },
	{ "trace", CAT_TRACE },
	/* ...plus the Cambricon MLU fork's names.  Not in upstream
	 * tb_plugin's map; "cuda_driver" (cuLaunchKernel) deliberately is not
	 * either, so its kernels stay unlinked, as there. */
	{ "mlu_runtime", CAT_RUNTIME },
	{ "mlu_memcpy", CAT_MEMCPY },
	{ "mlu_memset", CAT_MEMSET },
};

static enum cat cat_of(const char *s, size_t n)
{
	char lower[32];

	if (n >= sizeof(lower))
		return CAT_UNKNOWN;
	for (size_t i = 0; i < n; i++)
		lower[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
	for (size_t i = 0; i < ARRAY_SIZE(cats); i++)
		if (strlen(cats[i].name) == n && !memcmp(cats[i].name, lower, n))
			return cats[i].cat;
	return CAT_UNKNOWN;
}

/* qsort(), but a no-op on arrays already in order -- Kineto writes each
 * thread's events sorted by start, so the check usually saves the sort --
 * and safe on empty (NULL) arrays, which qsort() is not. */
static void sort_items(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	const char *p = base;
	size_t i;

	for (i = 1; i < n; i++)
		if (cmp(p + (i - 1) * size, p + i * size) > 0)
			break;
	if (i < n)
		qsort(base, n, size, cmp);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* trace.py's NcclOpNameSet / GlooOpNameSet: exact names only. */
static int collective_lib(const char *name)
{
	static const char *const ops[] = { "broadcast", "reduce", "all_reduce", "all_gather",
					   "reduce_scatter" };
	const char *op;

	if (starts_with(name, "nccl:"))
		op = name + 5;
	else if (starts_with(name, "gloo:"))
		op = name + 5;
	else
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(op, ops[i]))
			return name[0] == 'n' ? 1 : 2;
	return 0;
}

static bool is_dataloader(const char *name)
{
	return (starts_with(name, "enumerate(DataLoader)#") && ends_with(name, ".__next__")) ||
	       starts_with(name, "enumerate(DataPipe)#");
}

static void add_range(struct ranges *r, int64_t start, int64_t end)
{
	GROW(r->v, r->alloc, r->nr + 1);
	r->v[r->nr].start = start;
	r->v[r->nr].end = end;
	r->nr++;
}

/* ---------------------------------------------------------------------
 * Reading events
 */

static struct pos here(struct kineto *k)
{
	return json_pos(&k->j);
}

/*
 * Times are read as the double Python's json module makes of them, not as
 * exact decimals: torch-tb-profiler computes every duration as
 * (ts + dur) - ts in doubles, and for 16-digit epoch microseconds with a
 * fraction that rounds each event by up to 0.125 us.  Matching its
 * numbers (which is the point) means rounding the same way; traces with
 * integer or boot-clock timestamps come out exact either way.
 *
 * num_double() gives the double strtod() would, as Python's float() does.
 */
static bool read_us(struct kineto *k, enum json_tok t, double *us)
{
	if (t != JSON_NUMBER && t != JSON_STRING)
		return false;	/* some writers quote numbers: take those too */
	return num_double(k->j.s, k->j.len, us) && *us == *us;
}

/* The exact value of the double US (microseconds) in ns, rounded. */
static int64_t us_to_ns(double us)
{
	double ip = floor(us);

	if (!(ip > -9.2e15 && ip < 9.2e15))
		return ip < 0 ? -INT64_MAX / 2 : INT64_MAX / 2;	/* absurd: clamp */
	return (int64_t)ip * 1000 + (int64_t)llround((us - ip) * 1000.0);
}

static bool read_int(struct kineto *k, enum json_tok t, int64_t *v)
{
	if ((t == JSON_NUMBER || t == JSON_STRING) && num_int(k->j.s, k->j.len, v))
		return true;
	/* Large ids sometimes come as floats ("12.0"). */
	if (t == JSON_NUMBER && num_scaled(k->j.s, k->j.len, 0, v))
		return true;
	return false;
}

/* pid/tid: ints, or strings such as "25738" (int("25738") in tb_plugin) or
 * "stream 7", which get a stable id of their own. */
static int64_t read_tid(struct kineto *k, enum json_tok t)
{
	int64_t v;
	uint64_t h = 1469598103934665603ULL;

	if (read_int(k, t, &v))
		return v;
	for (size_t i = 0; i < k->j.len; i++)
		h = (h ^ (unsigned char)k->j.s[i]) * 1099511628211ULL;
	return (int64_t)(h | (1ULL << 62));
}

static enum json_tok read_args(struct kineto *k, struct raw_event *e)
{
	struct json *j = &k->j;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		enum { A_OTHER, A_EXT, A_EXT_LOWER, A_CORR, A_BPSM, A_OCC, A_MODULE } which = A_OTHER;

		switch (j->s[0]) {
		case 'E':
			if (json_is(j, "External id"))
				which = A_EXT;
			break;
		case 'e':
			if (json_is(j, "external id"))
				which = A_EXT_LOWER;
			else if (json_is(j, "est. achieved occupancy %"))
				which = A_OCC;
			break;
		case 'c':
			if (json_is(j, "correlation"))
				which = A_CORR;
			break;
		case 'b':
			if (json_is(j, "blocks per SM"))
				which = A_BPSM;
			break;
		case 'P':
			if (json_is(j, "Python module id"))
				which = A_MODULE;
			break;
		}
		if (which == A_OTHER) {
			t = json_skip_value(j);
			if (t == JSON_ERROR || t == JSON_EOF)
				return t;
			continue;
		}
		t = json_next(j);
		switch (which) {
		case A_EXT:
			if (!read_int(k, t, &e->ext_id))
				e->ext_id = NO_ID;
			break;
		case A_EXT_LOWER:
			if (!read_int(k, t, &e->ext_id_lower))
				e->ext_id_lower = NO_ID;
			break;
		case A_CORR:
			if (!read_int(k, t, &e->corr))
				e->corr = NO_ID;
			break;
		case A_BPSM:
			e->has_bpsm = t == JSON_NUMBER && num_double(j->s, j->len, &e->blocks_per_sm);
			break;
		case A_OCC:
			e->has_occ = t == JSON_NUMBER && num_double(j->s, j->len, &e->occupancy);
			break;
		case A_MODULE:
			e->has_module_id = t != JSON_NULL;
			break;
		default:
			break;
		}
		t = json_skip(j, t);
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	return t;
}

static struct host_rec *add_host(struct kineto *k, struct raw_event *e, enum ev_type type,
				 enum node_kind kind, uint8_t flags)
{
	struct host_rec *h;
	struct node *n;

	GROW(k->hosts, k->alloc_hosts, k->nr_hosts + 1);
	h = &k->hosts[k->nr_hosts++];
	memset(h, 0, sizeof(*h));
	n = node_new_interned(k->p, NULL, kind, e->name);
	n->flags = flags;
	n->start_ns = e->ts;
	n->calls = 1;
	n->host_total_ns = e->dur;
	h->node = n;
	h->ext_id = e->ext_id;
	h->tid = e->tid;
	h->end_ns = e->ts + e->dur;
	h->index = e->ordinal;
	h->type = (uint8_t)type;
	return h;
}

static void add_device(struct kineto *k, struct raw_event *e, enum ev_type type)
{
	enum node_kind kind = type == EV_KERNEL ? NODE_KERNEL : type == EV_MEMCPY ? NODE_MEMCPY
										   : NODE_MEMSET;
	struct dev_rec *d;
	struct node *n;

	GROW(k->devs, k->alloc_devs, k->nr_devs + 1);
	d = &k->devs[k->nr_devs++];
	memset(d, 0, sizeof(*d));
	n = node_new_interned(k->p, NULL, kind, e->name);
	n->start_ns = e->ts;
	n->calls = 1;
	/* The kernel table sums 'dur' itself (kernel_parser.py, pandas),
	 * while op device times use end - start: keep both. */
	n->device_self_ns = n->device_total_ns = us_to_ns(e->dur_us);
	d->end_ns = e->ts + e->dur;
	if (type == EV_KERNEL) {
		if (e->has_bpsm)
			attr_set_double(k->p, &n->attrs, "blocks_per_sm", e->blocks_per_sm);
		if (e->has_occ)
			attr_set_double(k->p, &n->attrs, "occupancy_pct", e->occupancy);
	}
	d->node = n;
	d->corr = e->corr;
	d->ext_id = e->ext_id;
	d->index = e->ordinal;
	d->type = (uint8_t)type;
}

static void add_runtime(struct kineto *k, struct raw_event *e)
{
	struct rt_rec *r;
	struct node *n;

	GROW(k->rts, k->alloc_rts, k->nr_rts + 1);
	r = &k->rts[k->nr_rts++];
	memset(r, 0, sizeof(*r));
	n = node_new_interned(k->p, NULL, NODE_RUNTIME, e->name);
	n->start_ns = e->ts;
	n->calls = 1;
	n->host_self_ns = n->host_total_ns = e->dur;
	r->node = n;
	r->ext_id = e->ext_id;
	r->corr = e->corr;
	r->tid = e->tid;
	r->end_ns = e->ts + e->dur;
	r->index = e->ordinal;
}

/* Whether "ProfilerStep#5" has the number tb_plugin's int() reads. */
static bool step_number_ok(const char *name)
{
	const char *s = strchr(name, '#') + 1;
	const char *end = strchr(s, '#');
	int64_t v;

	return num_int(s, end ? (size_t)(end - s) : strlen(s), &v);
}

/* "ProfilerStep#5" -> "5" as tb_plugin's str(int(name.split('#')[1])). */
static const char *step_number(struct kineto *k, const char *name)
{
	const char *s = strchr(name, '#') + 1;
	const char *end = strchr(s, '#');
	size_t n = end ? (size_t)(end - s) : strlen(s);
	int64_t v;
	char buf[32];

	if (!num_int(s, n, &v))
		return NULL;
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return profile_intern(k->p, buf, strlen(buf));
}

/* Warn about the event that starts at MARK, working out where only when
 * the warning will print. */
#define warn_event(k, mark, kind, ...)                                          \
	do {                                                                    \
		struct pos at_ = { 0, 0 };                                      \
		if (diag_would_print((k)->d, kind))                             \
			at_ = json_mark_pos(&(k)->j, mark);                     \
		diag_warn((k)->d, &at_, kind, __VA_ARGS__);                     \
	} while (0)

/*
 * The reading thread's half of taking an event: drop what the model never
 * uses, and warn (with the event's place, which only this thread can
 * still work out) about what it cannot use.  Returns whether to pass it
 * on.  Touches only the reader's state: the tokenizer and the diag.
 */
static bool check_event(struct kineto *k, struct raw_event *e, uint64_t at)
{
	const char *name = e->name_text;

	if (!e->has_cat || e->cat == CAT_UNKNOWN || (e->cat == CAT_PYTHON_FUNCTION && !e->has_module_id))
		return false;
	if (e->cat == CAT_TRACE)
		return false;
	if (!e->has_ts || !name) {
		k->nr_skipped++;
		warn_event(k, at, "events without a name or timestamp, skipped",
			  "complete event without %s; skipped", name ? "'ts'" : "'name'");
		return false;
	}
	if (!e->has_dur)
		e->dur_us = 0;
	if (e->dur_us < 0) {
		k->nr_skipped++;
		warn_event(k, at, "events that end before they start, skipped",
			  "event '%s' ends before it starts; skipped", name);
		return false;
	}
	if ((e->cat == CAT_OPERATOR || e->cat == CAT_ANNOTATION) &&
	    starts_with(name, "ProfilerStep#") && !step_number_ok(name))
		warn_event(k, at, "step events with no step number",
			  "step event '%s' has no number after '#'; taken as an annotation", name);
	return true;
}

/* The model thread's half: classify the event and keep what the model
 * needs. */
static void take_event(struct kineto *k, struct raw_event *e)
{
	enum ev_type type;
	const char *name = e->name;

	if (e->ext_id_lower != NO_ID)
		e->ext_id = e->ext_id_lower;	/* trace.py reads 'external id' first */
	e->ts = us_to_ns(e->ts_us);
	e->dur = us_to_ns(e->ts_us + e->dur_us) - e->ts;	/* as (ts + dur) - ts */

	switch (e->cat) {
	case CAT_OPERATOR:
		type = starts_with(name, "ProfilerStep#") ? EV_STEP : EV_OPERATOR;
		break;
	case CAT_ANNOTATION:
		type = starts_with(name, "ProfilerStep#") ? EV_STEP : EV_ANNOTATION;
		break;
	case CAT_PYTHON:
		type = EV_PYTHON;
		break;
	case CAT_PYTHON_FUNCTION:
		type = EV_MODULE;
		break;
	case CAT_RUNTIME:
		type = EV_RUNTIME;
		break;
	case CAT_KERNEL:
		type = EV_KERNEL;
		break;
	case CAT_MEMCPY:
		type = EV_MEMCPY;
		break;
	default:
		type = EV_MEMSET;
		break;
	}

	/* Step-breakdown roles (event_parser.StepParser._parse_step). */
	switch (type) {
	case EV_KERNEL:
		/* Collective kernels are sorted out once the comm ids are known. */
		break;
	case EV_MEMCPY:
		add_range(&k->roles[ROLE_MEMCPY], e->ts, e->ts + e->dur);
		break;
	case EV_MEMSET:
		add_range(&k->roles[ROLE_MEMSET], e->ts, e->ts + e->dur);
		break;
	case EV_RUNTIME:
		add_range(&k->roles[ROLE_RUNTIME], e->ts, e->ts + e->dur);
		break;
	case EV_STEP:
		break;
	case EV_OPERATOR:
	case EV_ANNOTATION:
	case EV_PYTHON:
		if (type != EV_PYTHON && is_dataloader(name))
			add_range(&k->roles[ROLE_DATALOADER], e->ts, e->ts + e->dur);
		else if (collective_lib(name))
			add_range(&k->roles[ROLE_COMM], e->ts, e->ts + e->dur);
		else
			add_range(&k->roles[ROLE_CPUOP], e->ts, e->ts + e->dur);
		break;
	default:
		break;
	}
	if (type == EV_OPERATOR || type == EV_PYTHON || type == EV_STEP) {
		if (e->ts < k->cpu_min)
			k->cpu_min = e->ts;
		if (e->ts + e->dur > k->cpu_max)
			k->cpu_max = e->ts + e->dur;
	}

	switch (type) {
	case EV_KERNEL:
	case EV_MEMCPY:
	case EV_MEMSET:
		add_device(k, e, type);
		return;
	case EV_RUNTIME:
		add_runtime(k, e);
		return;
	case EV_STEP: {
		const char *num = step_number(k, name);
		struct raw_step *s;

		if (!num) {
			type = EV_ANNOTATION;	/* check_event() said so */
			break;
		}
		GROW(k->steps, k->alloc_steps, k->nr_steps + 1);
		s = &k->steps[k->nr_steps++];
		s->start = e->ts;
		s->end = e->ts + e->dur;
		s->name = num;
		s->index = e->ordinal;
		add_host(k, e, EV_STEP, NODE_STEP, NODE_NOT_A_ROW);
		return;
	}
	default:
		break;
	}

	/* Host tree nodes (node.py's create_operator_node and friends). */
	{
		int lib = collective_lib(name);
		uint8_t flags = 0;
		enum node_kind kind = NODE_OP;

		if (lib) {
			GROW(k->comm_ext, k->alloc_comm_ext, k->nr_comm_ext + 1);
			/* ModuleNode drops its External id; collectives are ops
			 * or annotations, so e->ext_id is what they key on. */
			k->comm_ext[k->nr_comm_ext++] = e->ext_id;
			if (lib == 1)
				k->has_nccl = true;
			else
				k->has_gloo = true;
		}
		if (type == EV_MODULE) {
			e->ext_id = NO_ID;	/* node.py: modules never own runtimes */
			kind = NODE_MODULE;
			flags = NODE_NOT_A_ROW;
		} else if (type == EV_PYTHON) {
			kind = NODE_ANNOTATION;
			flags = NODE_NOT_A_ROW;
		} else if (is_dataloader(name) || starts_with(name, "Optimizer.step")) {
			/* DataLoaderNode / OptimizerNode: in the tree, never rows. */
			kind = type == EV_OPERATOR ? NODE_OP : NODE_ANNOTATION;
			flags = NODE_NOT_A_ROW;
		} else if (type == EV_ANNOTATION) {
			if (!lib)
				return;	/* a label, not a node (node.py) */
			kind = NODE_ANNOTATION;
			flags = NODE_NOT_A_ROW | NODE_COLLECTIVE;
		} else if (!strcmp(name, "DataParallel.forward") ||
			   !strcmp(name, "DistributedDataParallel.forward") ||
			   starts_with(name, "Optimizer.")) {
			flags = NODE_NOT_A_ROW;	/* is_operator_node()'s exclusions */
		}
		if (lib)
			flags |= NODE_COLLECTIVE;
		add_host(k, e, type, kind, flags);
	}
}

/* ---------------------------------------------------------------------
 * Two threads: one reads JSON, one builds the model
 *
 * The tokenizer and the model are each about half of a load, and a GPU
 * box has cores to spare, so the reading thread packs every event worth
 * keeping into blocks of compact messages and the model thread takes
 * them in file order (interning names, making nodes and records).  They
 * share nothing else: the reader owns the tokenizer, the input and the
 * diag (held, so its warnings reach the profile only at the end); the
 * model thread owns the profile.  Without a thread the blocks are taken
 * as they fill, on the reading thread.
 */
#define NR_BLOCKS 4
#define BLOCK_BYTES (256u << 10)

/* One event in a block, its name after it (NUL-terminated). */
struct ev_msg {
	uint32_t size;			/* of the whole message, 8-aligned */
	uint32_t name_len;
	uint32_t ordinal;
	uint8_t cat;
	uint8_t has_module_id, has_bpsm, has_occ;
	double ts_us, dur_us;
	int64_t tid, ext_id, ext_id_lower, corr;
	double blocks_per_sm, occupancy;
	char name[];
};

struct block {
	char *data;
	size_t used, cap;
};

struct pipe {
	pthread_t thread;
	bool has_thread;
	pthread_mutex_t lock;
	pthread_cond_t full, empty;	/* a block was filled / emptied */
	struct block blocks[NR_BLOCKS];
	size_t head, tail, nr_full;	/* blocks [tail, head) are full */
	bool done;			/* no block after the full ones */
	struct kineto *k;
};

static void take_block(struct kineto *k, struct block *b)
{
	for (size_t off = 0; off < b->used;) {
		const struct ev_msg *m = (const struct ev_msg *)(b->data + off);
		struct raw_event e = {
			.is_complete = true, .has_ts = true, .has_dur = true, .has_cat = true,
			.cat = m->cat, .ordinal = m->ordinal, .ts_us = m->ts_us, .dur_us = m->dur_us,
			.tid = m->tid, .ext_id = m->ext_id, .ext_id_lower = m->ext_id_lower,
			.corr = m->corr, .has_module_id = m->has_module_id, .has_bpsm = m->has_bpsm,
			.has_occ = m->has_occ, .blocks_per_sm = m->blocks_per_sm,
			.occupancy = m->occupancy,
		};

		e.name = profile_intern(k->p, m->name, m->name_len);
		take_event(k, &e);
		off += m->size;
	}
	b->used = 0;
}

static void *model_main(void *arg)
{
	struct pipe *pp = arg;

	for (;;) {
		struct block *b;

		pthread_mutex_lock(&pp->lock);
		while (!pp->nr_full && !pp->done)
			pthread_cond_wait(&pp->full, &pp->lock);
		if (!pp->nr_full) {
			pthread_mutex_unlock(&pp->lock);
			break;
		}
		b = &pp->blocks[pp->tail];
		pthread_mutex_unlock(&pp->lock);

		take_block(pp->k, b);

		pthread_mutex_lock(&pp->lock);
		pp->tail = (pp->tail + 1) % NR_BLOCKS;
		pp->nr_full--;
		pthread_cond_signal(&pp->empty);
		pthread_mutex_unlock(&pp->lock);
	}
	return NULL;
}

static void pipe_start(struct kineto *k)
{
	struct pipe *pp = xcalloc(1, sizeof(*pp));

	pp->k = k;
	for (int i = 0; i < NR_BLOCKS; i++) {
		pp->blocks[i].cap = BLOCK_BYTES;
		pp->blocks[i].data = xmalloc(BLOCK_BYTES);
	}
	pthread_mutex_init(&pp->lock, NULL);
	pthread_cond_init(&pp->full, NULL);
	pthread_cond_init(&pp->empty, NULL);
	k->pipe = pp;
	diag_hold(k->d);
	pp->has_thread = pthread_create(&pp->thread, NULL, model_main, pp) == 0;
}

/* Hand the block being filled to the model thread; wait for a free one. */
static void pipe_publish(struct pipe *pp)
{
	if (!pp->has_thread) {
		take_block(pp->k, &pp->blocks[pp->head]);
		return;
	}
	pthread_mutex_lock(&pp->lock);
	pp->head = (pp->head + 1) % NR_BLOCKS;
	pp->nr_full++;
	pthread_cond_signal(&pp->full);
	while (pp->nr_full == NR_BLOCKS)
		pthread_cond_wait(&pp->empty, &pp->lock);
	pthread_mutex_unlock(&pp->lock);
}

static void pipe_put(struct kineto *k, const struct raw_event *e)
{
	struct pipe *pp = k->pipe;
	size_t size = (offsetof(struct ev_msg, name) + e->name_len + 1 + 7) & ~(size_t)7;
	struct block *b = &pp->blocks[pp->head];
	struct ev_msg *m;

	if (b->used + size > b->cap && b->used) {
		pipe_publish(pp);
		b = &pp->blocks[pp->head];
	}
	if (size > b->cap) {
		/* A name longer than a block: this block grows to hold it. */
		b->cap = size;
		b->data = xrealloc(b->data, b->cap);
	}
	m = (struct ev_msg *)(b->data + b->used);
	m->size = (uint32_t)size;
	m->name_len = (uint32_t)e->name_len;
	m->ordinal = e->ordinal;
	m->cat = (uint8_t)e->cat;
	m->has_module_id = e->has_module_id;
	m->has_bpsm = e->has_bpsm;
	m->has_occ = e->has_occ;
	m->ts_us = e->ts_us;
	m->dur_us = e->dur_us;
	m->tid = e->tid;
	m->ext_id = e->ext_id;
	m->ext_id_lower = e->ext_id_lower;
	m->corr = e->corr;
	m->blocks_per_sm = e->blocks_per_sm;
	m->occupancy = e->occupancy;
	memcpy(m->name, e->name_text, e->name_len);
	m->name[e->name_len] = '\0';
	b->used += size;
}

/* Hand over the last block, wait until the model has taken everything. */
static void pipe_finish(struct kineto *k)
{
	struct pipe *pp = k->pipe;

	if (pp->blocks[pp->head].used)
		pipe_publish(pp);
	if (pp->has_thread) {
		pthread_mutex_lock(&pp->lock);
		pp->done = true;
		pthread_cond_signal(&pp->full);
		pthread_mutex_unlock(&pp->lock);
		pthread_join(pp->thread, NULL);
	}
	diag_unhold(k->d);
	for (int i = 0; i < NR_BLOCKS; i++)
		free(pp->blocks[i].data);
	pthread_mutex_destroy(&pp->lock);
	pthread_cond_destroy(&pp->full);
	pthread_cond_destroy(&pp->empty);
	free(pp);
	k->pipe = NULL;
}

static enum json_tok read_event(struct kineto *k)
{
	struct json *j = &k->j;
	struct raw_event e = { .ext_id = NO_ID, .ext_id_lower = NO_ID, .corr = NO_ID };
	uint64_t at = json_mark(j);
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		char c0 = j->len ? j->s[0] : 0;
		size_t len = j->len;

		if (len == 2 && c0 == 'p' && j->s[1] == 'h') {
			t = json_next(j);
			e.is_complete = t == JSON_STRING && j->len == 1 && j->s[0] == 'X';
		} else if (len == 3 && c0 == 'c' && !memcmp(j->s, "cat", 3)) {
			t = json_next(j);
			if (t == JSON_STRING) {
				e.has_cat = true;
				e.cat = cat_of(j->s, j->len);
			}
		} else if (len == 4 && c0 == 'n' && !memcmp(j->s, "name", 4)) {
			t = json_next(j);
			if (t == JSON_STRING) {
				/* A copy: the buffer moves on with the next token. */
				if (j->len + 1 > k->name_cap) {
					k->name_cap = j->len + 1 > 2 * k->name_cap ? j->len + 1 : 2 * k->name_cap;
					k->name_buf = xrealloc(k->name_buf, k->name_cap);
				}
				memcpy(k->name_buf, j->s, j->len);
				k->name_buf[j->len] = '\0';
				e.name_text = k->name_buf;
				e.name_len = j->len;
			}
		} else if (len == 2 && c0 == 't' && j->s[1] == 's') {
			t = json_next(j);
			e.has_ts = read_us(k, t, &e.ts_us);
		} else if (len == 3 && c0 == 'd' && !memcmp(j->s, "dur", 3)) {
			t = json_next(j);
			e.has_dur = read_us(k, t, &e.dur_us);
		} else if (len == 3 && c0 == 't' && !memcmp(j->s, "tid", 3)) {
			t = json_next(j);
			e.tid = read_tid(k, t);
		} else if (len == 4 && c0 == 'a' && !memcmp(j->s, "args", 4)) {
			t = json_next(j);
			if (t == JSON_OBJ_BEGIN) {
				t = read_args(k, &e);
				if (t != JSON_OBJ_END)
					return t;
				continue;
			}
		} else {
			t = json_skip_value(j);
			if (t == JSON_ERROR || t == JSON_EOF)
				return t;
			continue;
		}
		t = json_skip(j, t);
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	if (t != JSON_OBJ_END)
		return t;
	e.ordinal = k->nr_events++;
	if (e.is_complete && check_event(k, &e, at))
		pipe_put(k, &e);
	return JSON_OBJ_END;
}

static enum json_tok read_event_list(struct kineto *k)
{
	enum json_tok t;

	while ((t = json_next(&k->j)) != JSON_ARR_END) {
		if (t == JSON_OBJ_BEGIN) {
			t = read_event(k);
			if (t != JSON_OBJ_END)
				return t;
			continue;
		}
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
		{
			struct pos at = here(k);

			diag_warn(k->d, &at, "trace events that are not objects, skipped",
				  "trace event is not an object; skipped");
		}
		t = json_skip(&k->j, t);
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	return t;
}

/* The traceEvents array, read on this thread while another builds. */
static enum json_tok read_events(struct kineto *k)
{
	enum json_tok t;

	pipe_start(k);
	t = read_event_list(k);
	pipe_finish(k);
	return t;
}

/* Top-level scalars and deviceProperties go to the Info pane. */
static enum json_tok read_device_props(struct kineto *k)
{
	struct json *j = &k->j;
	enum json_tok t;
	int nr = 0;

	while ((t = json_next(j)) == JSON_OBJ_BEGIN) {
		char section[32];

		snprintf(section, sizeof(section), "device %d", nr++);
		while ((t = json_next(j)) == JSON_KEY) {
			char key[64];

			snprintf(key, sizeof(key), "%.*s", (int)(j->len < 63 ? j->len : 63), j->s);
			t = json_next(j);
			if (t == JSON_STRING || t == JSON_NUMBER) {
				char *v = xstrndup(j->s, j->len);

				profile_meta(k->p, section, key, v);
				free(v);
			}
			t = json_skip(j, t);
			if (t == JSON_ERROR || t == JSON_EOF)
				return t;
		}
		if (t != JSON_OBJ_END)
			return t;
		k->has_device_props = true;
	}
	if (t != JSON_ARR_END) {
		if (t != JSON_ERROR && t != JSON_EOF)
			t = json_skip(j, t);
	}
	return t;
}

static enum json_tok read_top_object(struct kineto *k, bool *saw_events)
{
	struct json *j = &k->j;
	enum json_tok t;

	while ((t = json_next(j)) == JSON_KEY) {
		char key[64];
		bool is_events = json_is(j, "traceEvents");
		bool is_props = json_is(j, "deviceProperties");

		snprintf(key, sizeof(key), "%.*s", (int)(j->len < 63 ? j->len : 63), j->s);
		t = json_next(j);
		if (is_events && t == JSON_ARR_BEGIN) {
			*saw_events = true;
			t = read_events(k);
			if (t != JSON_ARR_END)
				return t;
			continue;
		}
		if (is_props && t == JSON_ARR_BEGIN) {
			t = read_device_props(k);
			if (t == JSON_ERROR || t == JSON_EOF)
				return t;
			continue;
		}
		if (t == JSON_STRING || t == JSON_NUMBER || t == JSON_TRUE || t == JSON_FALSE) {
			char *v = t == JSON_TRUE ? xstrdup("true") : t == JSON_FALSE ? xstrdup("false")
										    : xstrndup(j->s, j->len);

			profile_meta(k->p, "trace", key, v);
			free(v);
		}
		t = json_skip(j, t);
		if (t == JSON_ERROR || t == JSON_EOF)
			return t;
	}
	return t;
}

/* ---------------------------------------------------------------------
 * Linking: device -> runtime -> op, then one tree per thread
 */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static bool is_comm_ext(const struct kineto *k, int64_t ext)
{
	return ext != NO_ID && k->nr_comm_ext &&
	       bsearch(&ext, k->comm_ext, k->nr_comm_ext, sizeof(int64_t), cmp_i64) != NULL;
}

/* A hash map from int64 keys to record indices, open addressing. */
struct idmap {
	int64_t *keys;
	uint32_t *vals;
	size_t alloc;
};

static void idmap_init(struct idmap *m, size_t n)
{
	m->alloc = 16;
	while (m->alloc < 2 * n + 1)
		m->alloc *= 2;
	m->keys = xmalloc(m->alloc * sizeof(*m->keys));
	m->vals = xmalloc(m->alloc * sizeof(*m->vals));
	for (size_t i = 0; i < m->alloc; i++)
		m->keys[i] = NO_ID;
}

static void idmap_release(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
}

/* The slot of KEY: m->keys[slot] == KEY if present, NO_ID if free. */
static size_t idmap_slot(const struct idmap *m, int64_t key)
{
	size_t i = hash_u64((uint64_t)(key)) & (m->alloc - 1);

	while (m->keys[i] != NO_ID && m->keys[i] != key)
		i = (i + 1) & (m->alloc - 1);
	return i;
}

/*
 * Device events join the runtime call with the same correlation id
 * (event_parser._parse_node; flows are not used).  When two runtimes share
 * an id, each device event goes to the one seen last before it in time
 * order, as tb_plugin's single pass does; with the usual unique ids this
 * is a plain join.
 */
static void link_devices(struct kineto *k)
{
	struct idmap m;

	/* Missing correlations match each other, as None == None does. */
	idmap_init(&m, k->nr_rts);
	for (size_t i = 0; i < k->nr_rts; i++) {
		int64_t key = k->rts[i].corr == NO_ID ? NO_ID + 1 : k->rts[i].corr;
		size_t s = idmap_slot(&m, key);

		if (m.keys[s] == NO_ID) {
			m.keys[s] = key;
			m.vals[s] = (uint32_t)i;
		} else if (k->rts[m.vals[s]].node->start_ns > k->rts[i].node->start_ns) {
			m.vals[s] = (uint32_t)i;	/* keep the earliest; refined below */
		}
	}
	for (size_t i = 0; i < k->nr_devs; i++) {
		struct dev_rec *d = &k->devs[i];
		int64_t key = d->corr == NO_ID ? NO_ID + 1 : d->corr;
		size_t s = idmap_slot(&m, key);
		struct rt_rec *r;

		if (m.keys[s] == NO_ID)
			continue;	/* stale: no runtime launched it */
		r = &k->rts[m.vals[s]];
		d->next_of_rt = r->devices;
		r->devices = d;
		r->device_ns += d->end_ns - d->node->start_ns;
	}
	idmap_release(&m);
}

static int cmp_host_claim(const void *a, const void *b)
{
	const struct host_rec *const *x = a, *const *y = b;

	if ((*x)->node->start_ns != (*y)->node->start_ns)
		return (*x)->node->start_ns < (*y)->node->start_ns ? -1 : 1;
	return (*x)->index < (*y)->index ? -1 : (*x)->index > (*y)->index;
}

/* Threads in order of their first tree event, as tb_plugin's tid2list. */
struct thread {
	int64_t tid;
	struct node *node;
	struct host_rec **hosts;
	size_t nr_hosts, alloc_hosts;
	int64_t first_ts;
	uint32_t first_index;
	bool is_main;
};

struct threads {
	struct thread *v;
	size_t nr, alloc;
	struct idmap map;		/* tid -> index in v */
};

/*
 * Each op takes every runtime whose External id equals its own; the first
 * op (threads in first-seen order, ops in time order) with an id takes
 * them all (event_parser.parse_nodes pops the list).  Runtimes with
 * External id 0 belong to their thread's root.
 */
static void attach_runtimes(struct kineto *k, struct threads *th)
{
	struct idmap first_rt;	/* ext id -> first runtime of a chain */
	uint32_t *next_rt = xmalloc((k->nr_rts + 1) * sizeof(*next_rt));

	idmap_init(&first_rt, k->nr_rts);
	/* Chains in reverse, then walk: runtimes keep time order per id. */
	for (size_t i = k->nr_rts; i-- > 0;) {
		struct rt_rec *r = &k->rts[i];
		size_t s;

		if (r->ext_id == NO_ID || r->ext_id == 0)
			continue;
		s = idmap_slot(&first_rt, r->ext_id);
		next_rt[i] = first_rt.keys[s] == NO_ID ? UINT32_MAX : first_rt.vals[s];
		first_rt.keys[s] = r->ext_id;
		first_rt.vals[s] = (uint32_t)i;
	}
	for (size_t t = 0; t < th->nr; t++) {
		struct thread *thr = &th->v[t];

		for (size_t i = 0; i < thr->nr_hosts; i++) {
			struct host_rec *h = thr->hosts[i];
			size_t s;
			uint32_t ri;

			if (h->ext_id == NO_ID || h->ext_id == 0)
				continue;
			s = idmap_slot(&first_rt, h->ext_id);
			if (first_rt.keys[s] == NO_ID)
				continue;
			for (ri = first_rt.vals[s]; ri != UINT32_MAX; ri = next_rt[ri]) {
				struct rt_rec *r = &k->rts[ri];

				r->next_of_op = h->runtimes;
				h->runtimes = r;
				r->used = true;
			}
			first_rt.vals[s] = UINT32_MAX;	/* popped */
		}
	}
	idmap_release(&first_rt);
	free(next_rt);
}

static struct thread *thread_of(struct kineto *k, struct threads *th, int64_t tid)
{
	size_t s = idmap_slot(&th->map, tid);
	struct thread *t;

	if (th->map.keys[s] != NO_ID)
		return &th->v[th->map.vals[s]];
	GROW(th->v, th->alloc, th->nr + 1);
	t = &th->v[th->nr];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->first_ts = INT64_MAX;
	th->map.keys[s] = tid;
	th->map.vals[s] = (uint32_t)th->nr++;
	(void)k;
	return t;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct thread *x = a, *y = b;

	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	return x->first_index < y->first_index ? -1 : x->first_index > y->first_index;
}

/* Tree order: (start, -end), ties in file order (Python's stable sort). */
static int cmp_host_tree(const void *a, const void *b)
{
	const struct host_rec *const *x = a, *const *y = b;

	if ((*x)->node->start_ns != (*y)->node->start_ns)
		return (*x)->node->start_ns < (*y)->node->start_ns ? -1 : 1;
	if ((*x)->end_ns != (*y)->end_ns)
		return (*x)->end_ns > (*y)->end_ns ? -1 : 1;
	return (*x)->index < (*y)->index ? -1 : (*x)->index > (*y)->index;
}

static void group_threads(struct kineto *k, struct threads *th)
{
	idmap_init(&th->map, 64);
	for (size_t i = 0; i < k->nr_hosts; i++) {
		struct host_rec *h = &k->hosts[i];
		struct thread *t;

		if (2 * (th->nr + 1) >= th->map.alloc) {
			/* Rebuild the map bigger (threads are few). */
			struct idmap bigger;

			idmap_init(&bigger, 2 * th->map.alloc);
			for (size_t j = 0; j < th->nr; j++) {
				size_t s = idmap_slot(&bigger, th->v[j].tid);

				bigger.keys[s] = th->v[j].tid;
				bigger.vals[s] = (uint32_t)j;
			}
			idmap_release(&th->map);
			th->map = bigger;
		}
		t = thread_of(k, th, h->tid);
		GROW(t->hosts, t->alloc_hosts, t->nr_hosts + 1);
		t->hosts[t->nr_hosts++] = h;
		if (h->node->start_ns < t->first_ts ||
		    (h->node->start_ns == t->first_ts && h->index < t->first_index)) {
			t->first_ts = h->node->start_ns;
			t->first_index = h->index;
		}
		if (h->type == EV_STEP)
			t->is_main = true;
	}
	sort_items(th->v, th->nr, sizeof(*th->v), cmp_thread);
	for (size_t i = 0; i < th->nr; i++) {
		th->map.vals[idmap_slot(&th->map, th->v[i].tid)] = (uint32_t)i;
		sort_items(th->v[i].hosts, th->v[i].nr_hosts, sizeof(*th->v[i].hosts), cmp_host_claim);
	}
}

static struct node *unlinked_group(struct kineto *k, struct node **group)
{
	if (!*group) {
		*group = node_new(k->p, k->p->root, NODE_GROUP, "<unlinked device work>", 22);
		(*group)->flags = NODE_UNLINKED | NODE_NOT_A_ROW;
	}
	return *group;
}

/* Hang runtime R (and its device work) under PARENT. */
static void hang_runtime(struct rt_rec *r, struct node *parent, bool unlinked)
{
	node_append(parent, r->node);
	r->node->device_self_ns = r->node->device_total_ns = r->device_ns;
	for (struct dev_rec *d = r->devices; d; d = d->next_of_rt) {
		node_append(r->node, d->node);
		if (unlinked)
			d->node->flags |= NODE_UNLINKED;
	}
}

/*
 * The per-thread tree: interval containment over the sorted host events
 * (op_tree._build_tree_internal).  A node that overlaps its would-be parent
 * without fitting inside is dropped, as there, with a warning; its
 * runtimes then belong to no op.
 */
static void build_thread_tree(struct kineto *k, struct thread *t, struct node **dropped_group)
{
	struct host_rec **stack;
	size_t depth = 0;
	char name[64];

	sort_items(t->hosts, t->nr_hosts, sizeof(*t->hosts), cmp_host_tree);
	if (t->tid >= 0 && t->tid < (1LL << 62))
		snprintf(name, sizeof(name), "thread %lld", (long long)t->tid);
	else
		snprintf(name, sizeof(name), "thread %lld (named)", (long long)(t->tid & 0xffff));
	t->node = node_new(k->p, k->p->root, NODE_THREAD, name, strlen(name));
	t->node->flags = NODE_NOT_A_ROW;
	stack = xmalloc((t->nr_hosts + 1) * sizeof(*stack));
	for (size_t i = 0; i < t->nr_hosts; i++) {
		struct host_rec *h = t->hosts[i];

		for (;;) {
			struct host_rec *top = depth ? stack[depth - 1] : NULL;

			if (!top) {
				node_append(t->node, h->node);
				stack[depth++] = h;
				break;
			}
			if (h->node->start_ns < top->end_ns) {
				if (h->end_ns <= top->end_ns) {
					node_append(top->node, h->node);
					stack[depth++] = h;
				} else {
					struct pos none = { 0, 0 };

					diag_warn(k->d, &none, "events overlapping their parent, dropped",
						  "event '%s' overlaps '%s' on thread %lld without "
						  "nesting in it; dropped, as torch-tb-profiler does",
						  h->node->name, top->node->name, (long long)t->tid);
					h->node = NULL;
					for (struct rt_rec *r = h->runtimes; r; r = r->next_of_op)
						hang_runtime(r, unlinked_group(k, dropped_group), true);
					h->runtimes = NULL;
				}
				break;
			}
			depth--;
		}
	}
	free(stack);
}

/* Per-node facts kept only while the tree is built, indexed by node id. */
struct build {
	struct kineto *k;
	struct rt_rec **runtimes_of;	/* node id -> its runtime chain */
	struct node **unlinked;
};

/*
 * op_tree.remove_dup_nodes: an op whose only child is an op of the same
 * name absorbs it -- the child's children and runtimes replace its own
 * (the parent's own runtimes are dropped there; we keep them, unlinked,
 * so their kernels still show in the Kernels pane).
 */
static void remove_dup(struct build *b, struct node *n)
{
	while (n->kind == NODE_OP && n->child && n->child == n->last_child &&
	       n->child->kind == NODE_OP && n->child->name == n->name) {
		struct node *child = n->child;
		struct rt_rec *mine = b->runtimes_of[n->id];

		for (struct rt_rec *r = mine; r; r = r->next_of_op)
			hang_runtime(r, unlinked_group(b->k, b->unlinked), true);
		if (mine) {
			struct pos none = { 0, 0 };

			diag_warn(b->k->d, &none, "runtime calls of folded duplicate ops, unlinked",
				  "op '%s' folded into its lone child of the same name; its own "
				  "runtime calls belong to no op (as in torch-tb-profiler)", n->name);
		}
		b->runtimes_of[n->id] = b->runtimes_of[child->id];
		n->child = child->child;
		n->last_child = child->last_child;
		for (struct node *c = n->child; c; c = c->next)
			c->parent = n;
	}
}

static bool visit_dup(struct node *n, void *ctx)
{
	remove_dup(ctx, n);
	return true;
}

/*
 * node.py's fill_stats, bottom-up: host self = duration − children −
 * own runtimes; device self = own runtimes' device time; device total =
 * children's device total + device self.  Runtime nodes join the tree
 * here, after the host children, so the walk above never saw them.
 */
static void fill_stats(struct build *b, struct node *root)
{
	struct node *n = root;

	/* Post-order walk without recursion: traces nest deep. */
	while (n->child)
		n = n->child;
	for (;;) {
		struct rt_rec *rts = b->runtimes_of[n->id];

		if (n->kind != NODE_RUNTIME && !node_kind_is_device(n->kind) && n->kind != NODE_THREAD &&
		    n->kind != NODE_ROOT && n->kind != NODE_GROUP) {
			int64_t self = n->host_total_ns, dev_self = 0, dev_total = 0;

			for (struct node *c = n->child; c; c = c->next) {
				self -= c->host_total_ns;
				dev_total += c->device_total_ns;
			}
			for (struct rt_rec *r = rts; r; r = r->next_of_op) {
				self -= r->node->host_total_ns;
				dev_self += r->device_ns;
			}
			n->host_self_ns = self;
			n->device_self_ns = dev_self;
			n->device_total_ns = dev_total + dev_self;
		}
		if (n == root)
			break;
		if (n->next) {
			n = n->next;
			while (n->child)
				n = n->child;
		} else {
			n = n->parent;
		}
	}
}

static void hang_all_runtimes(struct build *b, struct node *root)
{
	struct node **todo = NULL;
	size_t nr = 0, alloc = 0;

	/* Collect first: hanging runtimes changes the child lists. */
	for (struct node *n = root; n;) {
		if (b->runtimes_of[n->id]) {
			GROW(todo, alloc, nr + 1);
			todo[nr++] = n;
		}
		if (n->child) {
			n = n->child;
			continue;
		}
		while (n != root && !n->next)
			n = n->parent;
		n = n == root ? NULL : n->next;
	}
	for (size_t i = 0; i < nr; i++)
		for (struct rt_rec *r = b->runtimes_of[todo[i]->id]; r; r = r->next_of_op)
			hang_runtime(r, todo[i], false);
	free(todo);
}

/* ---------------------------------------------------------------------
 * Steps (event_parser.StepParser, overall_parser.OverallParser)
 */

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/* Sort and merge overlapping ranges (range_utils.merge_ranges). */
static void merge_ranges(struct ranges *r)
{
	size_t out = 0;

	if (!r->nr)
		return;
	sort_items(r->v, r->nr, sizeof(*r->v), cmp_range);
	for (size_t i = 1; i < r->nr; i++) {
		if (r->v[i].start <= r->v[out].end) {
			if (r->v[i].end > r->v[out].end)
				r->v[out].end = r->v[i].end;
		} else {
			r->v[++out] = r->v[i];
		}
	}
	r->nr = out + 1;
}

/* DST = A ∩ B, both merged. */
static void intersect(const struct ranges *a, const struct ranges *b, struct ranges *dst)
{
	size_t i = 0, j = 0;

	dst->nr = 0;
	while (i < a->nr && j < b->nr) {
		int64_t lo = a->v[i].start > b->v[j].start ? a->v[i].start : b->v[j].start;
		int64_t hi = a->v[i].end < b->v[j].end ? a->v[i].end : b->v[j].end;

		if (lo < hi)
			add_range(dst, lo, hi);
		if (a->v[i].end < b->v[j].end)
			i++;
		else
			j++;
	}
}

/* DST = A − B, both merged. */
static void subtract(const struct ranges *a, const struct ranges *b, struct ranges *dst)
{
	size_t j = 0;

	dst->nr = 0;
	for (size_t i = 0; i < a->nr; i++) {
		int64_t cur = a->v[i].start, end = a->v[i].end;

		while (j < b->nr && b->v[j].end <= cur)
			j++;
		for (size_t jj = j; jj < b->nr && b->v[jj].start < end; jj++) {
			if (b->v[jj].start > cur)
				add_range(dst, cur, b->v[jj].start);
			if (b->v[jj].end > cur)
				cur = b->v[jj].end;
			if (cur >= end)
				break;
		}
		if (cur < end)
			add_range(dst, cur, end);
	}
}

/* Σ |R ∩ [lo, hi)| over a merged list (sorted, disjoint): a binary
 * search for the first range that ends after LO, then the ranges until
 * HI -- per step, not per step times every range of the trace. */
static int64_t sum_within(const struct ranges *r, int64_t lo, int64_t hi)
{
	size_t a = 0, b = r->nr;
	int64_t sum = 0;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (r->v[mid].end <= lo)
			a = mid + 1;
		else
			b = mid;
	}
	for (size_t i = a; i < r->nr && r->v[i].start < hi; i++) {
		int64_t s = r->v[i].start > lo ? r->v[i].start : lo;
		int64_t e = r->v[i].end < hi ? r->v[i].end : hi;

		if (s < e)
			sum += e - s;
	}
	return sum;
}

static int cmp_rt_start(const void *a, const void *b)
{
	const struct rt_rec *const *x = a, *const *y = b;

	if ((*x)->node->start_ns != (*y)->node->start_ns)
		return (*x)->node->start_ns < (*y)->node->start_ns ? -1 : 1;
	return (*x)->index < (*y)->index ? -1 : (*x)->index > (*y)->index;
}

static int cmp_step(const void *a, const void *b)
{
	const struct raw_step *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Widen each host step to the device work its runtimes launched
 * (StepParser._find_device_steps / _update_steps_duration), and drop
 * trailing steps that launched nothing, or less than 80 % of the previous
 * step's device events ("profiler may fail to capture all kernels").
 */
static void adjust_steps(struct kineto *k)
{
	size_t nr = k->nr_steps, i_step = 0, i_rt = 0;
	struct rt_rec **rts = xmalloc((k->nr_rts + 1) * sizeof(*rts));
	int64_t *dev_min = xmalloc((nr + 1) * sizeof(int64_t));
	int64_t *dev_max = xmalloc((nr + 1) * sizeof(int64_t));
	uint64_t *matched = xcalloc(nr + 1, sizeof(uint64_t));
	int64_t cur_min = INT64_MAX, cur_max = INT64_MIN, prev_end;
	bool any_matched = false;

	for (size_t i = 0; i < k->nr_rts; i++)
		rts[i] = &k->rts[i];
	sort_items(rts, k->nr_rts, sizeof(*rts), cmp_rt_start);
	while (i_step < nr && i_rt < k->nr_rts) {
		struct rt_rec *r = rts[i_rt];
		int64_t hs = k->steps[i_step].start, he = k->steps[i_step].end;

		if (r->node->start_ns < hs) {
			i_rt++;
		} else if (r->end_ns <= he) {
			for (struct dev_rec *d = r->devices; d; d = d->next_of_rt) {
				int64_t ds = d->node->start_ns, de = d->end_ns;

				if (ds < cur_min)
					cur_min = ds;
				if (de > cur_max)
					cur_max = de;
				d->matched = true;
				any_matched = true;
				matched[i_step]++;
			}
			i_rt++;
		} else if (r->node->start_ns < he) {
			i_rt++;
		} else {
			dev_min[i_step] = cur_min;
			dev_max[i_step] = cur_max;
			i_step++;
			cur_min = INT64_MAX;
			cur_max = INT64_MIN;
		}
	}
	for (; i_step < nr; i_step++) {
		dev_min[i_step] = cur_min;
		dev_max[i_step] = cur_max;
		cur_min = INT64_MAX;
		cur_max = INT64_MIN;
	}
	free(rts);
	if (!any_matched || !nr)
		goto out;

	prev_end = k->steps[0].start;
	if (dev_min[0] != INT64_MAX) {
		for (size_t i = 0; i < k->nr_devs; i++) {
			struct dev_rec *d = &k->devs[i];
			int64_t de = d->end_ns;

			if (!d->matched && de < dev_min[0] && de > prev_end)
				prev_end = de;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		int64_t start = prev_end > k->steps[i].start ? prev_end : k->steps[i].start;
		int64_t end = k->steps[i].end;

		if (dev_min[i] == INT64_MAX) {
			if (end < start)
				end = start;
		} else {
			if (dev_max[i] > end)
				end = dev_max[i];
			if (end < start)
				end = start;
		}
		k->steps[i].start = start;
		k->steps[i].end = end;
		prev_end = end;
	}
	if (nr > 1) {
		size_t last = nr;

		while (last > 0 && !matched[last - 1])
			last--;
		if (last > 0) {
			size_t keep = last;

			if (last > 1 && (double)matched[last - 2] * 0.8 > (double)matched[last - 1])
				keep = last - 1;
			if (keep < nr) {
				struct pos none = { 0, 0 };

				diag_warn(k->d, &none, "trailing steps left out of the step breakdown",
					  "the last %zu step(s) left out of the breakdown: the profiler "
					  "may not have captured all their kernels (as torch-tb-profiler)",
					  nr - keep);
				k->nr_steps = keep;
			}
		}
	}
out:
	free(dev_min);
	free(dev_max);
	free(matched);
}

static const char *const role_names[NR_ROLES + 1] = {
	"Kernel", "Memcpy", "Memset", "Communication", "Runtime", "DataLoader", "CPU Exec", "Other",
};

/*
 * Priority carving: each role takes what is left of the steps after the
 * roles before it; Other is what no role took (OverallParser.Statistics).
 */
static void build_steps(struct kineto *k)
{
	struct ranges slots = { 0 }, took = { 0 }, rest = { 0 }, carved[NR_ROLES + 1];
	const char *names[NR_ROLES + 1];
	int col_of[NR_ROLES + 1];
	size_t nr_cols = 0;
	bool gpu = k->roles[ROLE_KERNEL].nr || k->roles[ROLE_MEMCPY].nr ||
		   k->roles[ROLE_MEMSET].nr || k->roles[ROLE_RUNTIME].nr;

	memset(carved, 0, sizeof(carved));
	if (!k->nr_steps) {
		if (k->cpu_min > k->cpu_max)
			return;	/* no host events at all: no step to speak of */
		GROW(k->steps, k->alloc_steps, 1);
		k->steps[0].start = k->cpu_min;
		k->steps[0].end = k->cpu_max;
		k->steps[0].name = profile_intern(k->p, "0", 1);
		k->nr_steps = 1;
	} else {
		sort_items(k->steps, k->nr_steps, sizeof(*k->steps), cmp_step);
		adjust_steps(k);
	}
	for (int r = 0; r < NR_ROLES; r++)
		merge_ranges(&k->roles[r]);

	/* Columns as run_generator shows them: device ones only with device
	 * activity, Communication only with collectives. */
	for (int r = 0; r <= NR_ROLES; r++) {
		bool show = true;

		if (r == ROLE_KERNEL || r == ROLE_MEMCPY || r == ROLE_MEMSET || r == ROLE_RUNTIME)
			show = gpu;
		else if (r == ROLE_COMM)
			show = k->roles[ROLE_COMM].nr > 0;
		col_of[r] = show ? (int)nr_cols : -1;
		if (show)
			names[nr_cols++] = role_names[r];
	}
	profile_set_step_cats(k->p, names, nr_cols);

	for (size_t i = 0; i < k->nr_steps; i++)
		add_range(&slots, k->steps[i].start, k->steps[i].end);
	merge_ranges(&slots);
	for (int r = 0; r < NR_ROLES; r++) {
		intersect(&slots, &k->roles[r], &carved[r]);
		subtract(&slots, &carved[r], &rest);
		took = slots;
		slots = rest;
		rest = took;
	}
	carved[NR_ROLES] = slots;
	for (size_t i = 0; i < k->nr_steps; i++) {
		struct step *s = profile_add_step(k->p, k->steps[i].name, strlen(k->steps[i].name));

		s->start_ns = k->steps[i].start;
		s->end_ns = k->steps[i].end;
		s->total_ns = s->end_ns - s->start_ns;
		for (int r = 0; r <= NR_ROLES; r++)
			if (col_of[r] >= 0)
				s->cat_ns[col_of[r]] = sum_within(&carved[r], s->start_ns, s->end_ns);
	}
	for (int r = 0; r < NR_ROLES; r++)
		free(carved[r].v);
	free(slots.v);
	free(rest.v);
}

/* ---------------------------------------------------------------------
 * The parser
 */

static void build_model(struct kineto *k)
{
	struct threads th = { 0 };
	struct node *unlinked = NULL;
	struct build b = { .k = k, .unlinked = &unlinked };
	uint64_t nr_unlinked_rt = 0, nr_stale = 0;
	struct thread *main_thread = NULL;

	if (k->nr_comm_ext)
		sort_items(k->comm_ext, k->nr_comm_ext, sizeof(int64_t), cmp_i64);
	for (size_t i = 0; i < k->nr_devs; i++) {
		struct dev_rec *d = &k->devs[i];
		int64_t s = d->node->start_ns, e = d->end_ns;

		if (d->type != EV_KERNEL)
			continue;
		if (is_comm_ext(k, d->ext_id))
			add_range(&k->roles[ROLE_COMM], s, e);
		else
			add_range(&k->roles[ROLE_KERNEL], s, e);
	}
	link_devices(k);
	group_threads(k, &th);
	attach_runtimes(k, &th);

	for (size_t t = 0; t < th.nr; t++) {
		build_thread_tree(k, &th.v[t], &unlinked);
		if (th.v[t].is_main)
			main_thread = &th.v[t];
	}
	/* Sized now: the thread nodes above are nodes too.  Nodes made later
	 * (the unlinked group) are never looked up here. */
	b.runtimes_of = xcalloc(k->p->nr_nodes + 1, sizeof(*b.runtimes_of));
	for (size_t i = 0; i < k->nr_hosts; i++)
		if (k->hosts[i].node)
			b.runtimes_of[k->hosts[i].node->id] = k->hosts[i].runtimes;
	for (size_t t = 0; t < th.nr; t++) {
		node_walk(th.v[t].node, visit_dup, &b);
		fill_stats(&b, th.v[t].node);
		hang_all_runtimes(&b, th.v[t].node);
	}

	/* Runtimes with External id 0 belong to their thread's root; those
	 * whose id no op has, and device work no runtime launched, to no op
	 * at all: both are kept, under the root, and counted. */
	for (size_t i = 0; i < k->nr_rts; i++) {
		struct rt_rec *r = &k->rts[i];

		if (r->used)
			continue;
		if (r->ext_id == 0) {
			size_t s = idmap_slot(&th.map, r->tid);

			if (th.map.keys[s] != NO_ID) {
				hang_runtime(r, th.v[th.map.vals[s]].node, false);
				r->used = true;
				continue;
			}
		}
		hang_runtime(r, unlinked_group(k, &unlinked), true);
		r->used = true;
		if (r->devices)
			nr_unlinked_rt++;
	}
	for (size_t i = 0; i < k->nr_devs; i++) {
		struct dev_rec *d = &k->devs[i];

		if (d->node->parent)
			continue;
		node_append(unlinked_group(k, &unlinked), d->node);
		d->node->flags |= NODE_UNLINKED;
		nr_stale++;
	}
	if (unlinked) {
		for (struct node *c = unlinked->child; c; c = c->next) {
			unlinked->device_total_ns += c->device_total_ns;
			unlinked->host_total_ns += c->host_total_ns;
		}
	}
	if (nr_stale)
		profile_warn(k->p, "device events launched by no runtime call (kept, unlinked)", nr_stale);
	if (nr_unlinked_rt)
		profile_warn(k->p, "runtime calls whose External id no op has (kept, unlinked)",
			     nr_unlinked_rt);
	(void)main_thread;

	/* Thread and root totals, for the Tree pane. */
	for (size_t t = 0; t < th.nr; t++) {
		struct node *tn = th.v[t].node;

		for (struct node *c = tn->child; c; c = c->next) {
			tn->device_total_ns += c->device_total_ns;
			tn->host_total_ns += c->host_total_ns;
		}
		k->p->root->device_total_ns += tn->device_total_ns;
		k->p->root->host_total_ns += tn->host_total_ns;
		free(th.v[t].hosts);
	}
	if (unlinked)
		k->p->root->device_total_ns += unlinked->device_total_ns;
	free(th.v);
	idmap_release(&th.map);
	free(b.runtimes_of);
	build_steps(k);
}

static void kineto_release(struct kineto *k)
{
	free(k->name_buf);
	free(k->hosts);
	free(k->rts);
	free(k->devs);
	free(k->steps);
	free(k->comm_ext);
	for (int r = 0; r < NR_ROLES; r++)
		free(k->roles[r].v);
	json_release(&k->j);
}

static void report_quirks(struct kineto *k)
{
	struct json *j = &k->j;
	struct pos none = { 0, 0 };

	if (j->nr_raw_control)
		diag_warn(k->d, &none, "raw control characters in strings (tolerated)",
			  "%llu raw control character(s) inside strings; read as they are",
			  (unsigned long long)j->nr_raw_control);
	if (j->nr_bare_words)
		diag_warn(k->d, &none, "bare N/A, nan or inf values (tolerated)",
			  "%llu unquoted N/A, nan or inf value(s); read as missing",
			  (unsigned long long)j->nr_bare_words);
	if (j->nr_empty_trailing)
		diag_warn(k->d, &none, "trailing commas (tolerated)",
			  "%llu trailing comma(s) before a closing bracket",
			  (unsigned long long)j->nr_empty_trailing);
}

static int kineto_parse(struct profile *p, struct input *in, struct diag *d)
{
	struct kineto k = { .p = p, .d = d, .cpu_min = INT64_MAX, .cpu_max = INT64_MIN };
	bool saw_events = false;
	enum json_tok t;
	int rc = 0;

	json_init(&k.j, in, d);
	t = json_next(&k.j);
	if (t == JSON_OBJ_BEGIN) {
		t = read_top_object(&k, &saw_events);
		if (t == JSON_OBJ_END && !saw_events) {
			struct pos at = json_pos(&k.j);

			diag_error(d, &at, "no 'traceEvents' array: not a Kineto/Chrome trace");
			rc = -1;
		}
	} else if (t == JSON_ARR_BEGIN) {
		saw_events = true;	/* the legacy autograd exporter's bare array */
		t = read_events(&k);
	} else if (t != JSON_ERROR && t != JSON_EOF) {
		struct pos at = json_pos(&k.j);

		diag_error(d, &at, "expected a JSON object or array at the top level");
		rc = -1;
	}
	if (t == JSON_ERROR) {
		rc = -1;
	} else if (t == JSON_EOF && k.j.truncated) {
		struct pos at = json_pos(&k.j);

		/* A killed job's trace: keep every complete event. */
		diag_error(d, &at, "unexpected end of file inside the trace (truncated?); "
			   "kept the %u event%s read before it", k.nr_events,
			   k.nr_events == 1 ? "" : "s");
		if (!k.nr_events)
			rc = -1;
	} else if (t == JSON_EOF && rc == 0 && !saw_events) {
		diag_error(d, NULL, "no JSON value in the file");
		rc = -1;
	}
	if (rc == 0) {
		report_quirks(&k);
		build_model(&k);
	}
	kineto_release(&k);
	return rc;
}

/* A JSON object or array near the top that has Kineto's marks. */
static int kineto_probe(const char *head, size_t len)
{
	size_t i = 0;
	bool has_events = false, has_ph = false;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= len || (head[i] != '{' && head[i] != '['))
		return 0;
	for (size_t j = i; j + 4 <= len; j++) {
		if (head[j] != '"')
			continue;
		if ((j + 13 <= len && !memcmp(head + j, "\"traceEvents\"", 13)) ||
		    (j + 15 <= len && !memcmp(head + j, "\"schemaVersion\"", 15)))
			has_events = true;
		if (!memcmp(head + j, "\"ph\"", 4))
			has_ph = true;
	}
	if (has_events)
		return 90;
	if (head[i] == '[' && has_ph)
		return 70;	/* a bare array of trace events */
	return 0;
}

const struct parser kineto_parser = {
	.name = "kineto",
	.summary = "PyTorch profiler / Kineto Chrome trace JSON (.json, .json.gz)",
	.probe = kineto_probe,
	.parse = kineto_parse,
};
