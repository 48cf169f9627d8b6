// SPDX-License-Identifier: MIT
/*
 * Reading a Kineto trace: JSON to records, on two threads (kineto_int.h
 * says who owns what).  Events are typed by category as trace.py does;
 * only complete ("X") events count, python_function frames without a
 * module id are not nodes (they give ops their call stack).
 *
 * Memory: one compact record per kept event plus its node; the records are
 * freed when the tree is built.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "../../model/bounds.h"
#include "../../model/util.h"
#include "kineto_int.h"
#include "../text.h"

/*
 * What an op's args say beyond its ids: its input shapes (record_shapes)
 * and, for communication, what it moved.  Text and the inputs' sizes go
 * to the reader's scratch in struct kineto (dims_text, in_elems...), so
 * that an event costs nothing more to start.
 */
struct op_args {
	bool has_dims;			/* "Input Dims" (k->dims_text holds it) */
	bool dims_new;			/* ...from "Input Dims", not "Input dims" */
	bool dims_sized;		/* every input's element count is known */
	uint8_t nr_elems, nr_sizes;	/* in k->in_elems, k->in_size */
	bool has_coll, has_dtype;	/* in k->coll_text, k->dtype_text */
	bool has_stack;			/* "Call stack" (old traces), in k->stack_text */
	uint8_t has_nelems;		/* bits: 1 in_nelems, 2 out_nelems, 4 group_size */
	/* record_param_comms (PyTorch 2.x), as the file gives them */
	int64_t in_nelems, out_nelems, group_size;
};

/* How a kernel was launched: its args, which become a struct launch. */
enum {
	KA_DEVICE = 1 << 0, KA_STREAM = 1 << 1, KA_REGS = 1 << 2, KA_SMEM = 1 << 3,
	KA_BPSM = 1 << 4, KA_OCC = 1 << 5,
};

struct kernel_args {
	uint8_t has;			/* KA_* bits */
	int32_t device, stream, regs;
	int32_t grid[3], block[3];	/* 0: not given */
	int64_t smem;
	double blocks_per_sm, occupancy;
};

/* A [memory] instant's args (profile_memory=True). */
enum {
	MA_DEV_TYPE = 1 << 0, MA_DEV_ID = 1 << 1, MA_ADDR = 1 << 2, MA_BYTES = 1 << 3,
	MA_ALLOCATED = 1 << 4, MA_RESERVED = 1 << 5,
	MA_SIZE_PAST_INT64 = 1 << 6,	/* a size that is a number past int64 */
};

struct mem_args {
	uint8_t has;			/* MA_* bits */
	int64_t dev_type, dev_id, bytes, allocated, reserved;
	uint64_t addr;
};

/* A cuda_sync event's "wait_on_stream", "wait_on_cuda_event_record_corr_id". */
enum { SA_WAIT_STREAM = 1 << 0, SA_WAIT_CORR = 1 << 1 };

struct sync_args {
	uint8_t has;			/* SA_* bits */
	int64_t wait_stream, wait_corr;
};

/* A copy's or set's "bytes" and "memory bandwidth (GB/s)". */
enum { CA_BYTES = 1 << 0, CA_GBPS = 1 << 1 };

struct copy_args {
	uint8_t has;			/* CA_* bits */
	int64_t bytes;
	double gbps;
};

/* One event's fields as they arrive, in any order. */
struct raw_event {
	bool is_complete;		/* ph == "X" */
	bool has_cat;
	uint8_t ts_state, dur_state;	/* enum time_state */
	char bad_text[32];		/* the value of a BAD_TIME member, for the warning */
	char ph;			/* its one letter; 0 none, 1 not one letter */
	int cat;			/* enum cat */
	uint16_t slot;			/* its category's slot (struct unused) */
	const char *name;		/* interned (the model's side) */
	const char *name_text;		/* the reading side: a copy, or NULL */
	size_t name_len;
	uint32_t ordinal;		/* its place among all trace events */
	double ts_us, dur_us;		/* for the bounds and the messages */
	int64_t ts_ns, dur_ns;		/* exact: the decimals as written */
	int64_t ts, dur;		/* ns, derived in take_event() */
	int64_t tid;
	int64_t pid;			/* a GPU-side range's device */
	int64_t ext_id, ext_id_lower;	/* "External id" / "external id" */
	int64_t corr;
	bool has_module_id;
	int64_t module_id;		/* "Python module id"; -1 not a number */
	struct kernel_args ka;
	struct mem_args mem;
	struct copy_args copy;
	struct sync_args sync;
	struct op_args op;
	bool ctr_read;			/* a counter's args were read (read_counter_args()) */
	double ctr_value;		/* a counter sample's, on the model's side */
	int64_t comm_bytes;		/* a collective's inputs, in bytes; -1 */
	const char *coll, *dtype;	/* interned (the model's side), or NULL */
	const char *dims, *stack;	/* interned, or NULL */
};

enum cat {
	CAT_UNKNOWN, CAT_OPERATOR, CAT_PYTHON, CAT_ANNOTATION, CAT_GPU_ANNOTATION,
	CAT_PYTHON_FUNCTION, CAT_RUNTIME, CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_TRACE,
	CAT_MEMORY,		/* not a category: a [memory] instant, whatever its cat */
	CAT_SYNC,		/* cuda_sync: a side table only (profile_add_cuda_sync()) */
	CAT_COUNTER,		/* not a category: one sample of a "ph":"C" event */
};

#define CAT(name, cat) { name, sizeof(name) - 1, cat }

static const struct {
	const char *name;
	size_t len;
	enum cat cat;
} cats[] = {
	/* trace.py's EventTypeMap, matched case-insensitively... */
	CAT("cpu_op", CAT_OPERATOR),
	CAT("operator", CAT_OPERATOR),
	CAT("user_annotation", CAT_ANNOTATION),
	CAT("gpu_user_annotation", CAT_GPU_ANNOTATION),
	CAT("python_function", CAT_PYTHON_FUNCTION),
	CAT("python", CAT_PYTHON),
	CAT("cuda_runtime", CAT_RUNTIME),
	CAT("runtime", CAT_RUNTIME),
	CAT("privateuse1_runtime", CAT_RUNTIME),
	CAT("mtia_runtime", CAT_RUNTIME),
	CAT("xpu_runtime", CAT_RUNTIME),
	CAT("glow_runtime", CAT_RUNTIME),
	CAT("kernel", CAT_KERNEL),
	CAT("gpu_memcpy", CAT_MEMCPY),
	CAT("memcpy", CAT_MEMCPY),
	CAT("gpu_memset", CAT_MEMSET),
	CAT("memset", CAT_MEMSET),
	CAT("trace", CAT_TRACE),
	/* ...plus the Cambricon MLU fork's names, and the driver API.
	 * cuLaunchKernel (cat cuda_driver) launches cuBLASLt, CUTLASS and
	 * every torch.compile/Triton kernel: tb_plugin's map leaves it out,
	 * so their kernels belong to no op there; they belong to the op
	 * that launched them here (proftui(1), DIFFERENCES).  Any other
	 * category named *_runtime or *_driver is a runtime too
	 * (read_cat()): Kineto names one per backend. */
	CAT("mlu_runtime", CAT_RUNTIME),
	CAT("mlu_memcpy", CAT_MEMCPY),
	CAT("mlu_memset", CAT_MEMSET),
	CAT("cuda_driver", CAT_RUNTIME),
	CAT("privateuse1_driver", CAT_RUNTIME),
	/* Categories the model does not use, here only so that the common
	 * ones have a slot of their own (struct unused). */
	CAT("ac2g", CAT_UNKNOWN),
	CAT("fwdbwd", CAT_UNKNOWN),
	CAT("async", CAT_UNKNOWN),
	CAT("cuda_sync", CAT_SYNC),
	CAT("cpu_instant_event", CAT_UNKNOWN),
};

/*
 * Events the model does not use are counted by category and phase on the
 * reading thread, and listed in Info at the end: nothing is dropped
 * silently.  A category is a slot -- one per name in cats[], a few of our
 * own, and the first NR_NEW_CATS other names as the file spells them; the
 * rest share SLOT_OTHER -- so counting is an increment, and only the end
 * formats text.
 */
#define NR_NEW_CATS 32
#define CAT_NAME_MAX 32		/* longer names go to SLOT_OTHER */
#define NR_PH 96		/* none, not one letter, '!'..'~' */

enum {
	SLOT_NONE = ARRAY_SIZE(cats),	/* no "cat" */
	SLOT_MEMORY,			/* "[memory]" instants, whatever their cat */
	SLOT_OTHER,			/* past NR_NEW_CATS names, or too long */
	SLOT_NEW,			/* the first new name */
	NR_SLOTS = SLOT_NEW + NR_NEW_CATS
};

struct unused {
	uint64_t count[NR_SLOTS][NR_PH];
	char name[NR_SLOTS][CAT_NAME_MAX];	/* as the file first spells it */
	bool is_listed[NR_SLOTS];
	uint16_t order[NR_SLOTS];		/* slots in the order first counted */
	size_t nr_order, nr_new;
	bool overflowed;			/* a new name found no room */
	/* read_cat()'s last answer: most events have the category of the
	 * one before, as the file spells it. */
	bool has_last;
	char last_text[CAT_NAME_MAX];
	size_t last_len;
	enum cat last_cat;
	uint16_t last_slot;
};

/* The index in cats[] of category S, or -1. */
static int cat_index(const char *s, size_t n)
{
	char lower[CAT_NAME_MAX];

	if (n >= sizeof(lower))
		return -1;
	for (size_t i = 0; i < n; i++)
		lower[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
	for (size_t i = 0; i < ARRAY_SIZE(cats); i++)
		if (cats[i].len == n && !memcmp(cats[i].name, lower, n))
			return (int)i;
	return -1;
}

/* The slot of a category not in cats[]: its own among the first
 * NR_NEW_CATS names, else SLOT_OTHER. */
static uint16_t new_slot(struct unused *u, const char *s, size_t n)
{
	size_t k;

	if (n >= CAT_NAME_MAX)
		return SLOT_OTHER;
	for (k = SLOT_NEW; k < SLOT_NEW + u->nr_new; k++)
		if (!strncmp(u->name[k], s, n) && !u->name[k][n])
			return (uint16_t)k;
	if (u->nr_new == NR_NEW_CATS) {
		u->overflowed = true;
		return SLOT_OTHER;
	}
	memcpy(u->name[k], s, n);
	u->nr_new++;
	return (uint16_t)k;
}

/* Whether S, a category not in cats[], names a host API of a device
 * backend: "<backend>_runtime" or "<backend>_driver", any case. */
static bool is_backend_api(const char *s, size_t n)
{
	static const char *const ends[] = { "_runtime", "_driver" };

	for (size_t i = 0; i < ARRAY_SIZE(ends); i++) {
		size_t m = strlen(ends[i]);

		if (n > m && !strncasecmp(s + n - m, ends[i], m))
			return true;
	}
	return false;
}

/* Category S: its enum cat, and its slot in *SLOT. */
static enum cat read_cat(struct unused *u, const char *s, size_t n, uint16_t *slot)
{
	enum cat cat;
	int i;

	/* The same text gives the same answer, with nothing more to note:
	 * its first spelling and its new slot are already noted. */
	if (u->has_last && n == u->last_len && !memcmp(s, u->last_text, n)) {
		*slot = u->last_slot;
		return u->last_cat;
	}
	i = cat_index(s, n);
	if (i < 0) {
		*slot = new_slot(u, s, n);
		cat = is_backend_api(s, n) ? CAT_RUNTIME : CAT_UNKNOWN;
	} else {
		if (!u->name[i][0])
			memcpy(u->name[i], s, n);	/* n < CAT_NAME_MAX: cat_index() said so */
		*slot = (uint16_t)i;
		cat = cats[i].cat;
	}
	if (n < CAT_NAME_MAX) {
		u->has_last = true;
		memcpy(u->last_text, s, n);
		u->last_len = n;
		u->last_cat = cat;
		u->last_slot = *slot;
	}
	return cat;
}

static void count_unused(struct unused *u, const struct raw_event *e)
{
	uint16_t slot = e->has_cat ? e->slot : SLOT_NONE;
	int ph = e->ph == 0 ? 0 : e->ph == 1 ? 1 : e->ph - '!' + 2;

	if (e->name_text && e->name_len == 8 && !memcmp(e->name_text, "[memory]", 8))
		slot = SLOT_MEMORY;
	if (!u->is_listed[slot]) {
		u->is_listed[slot] = true;
		u->order[u->nr_order++] = slot;
	}
	u->count[slot][ph]++;
}

/*
 * FROM counted the events after INTO's.  A name's slot is its place among
 * the new names in file order, and FROM's new names are in its order, so
 * giving them slots in INTO in that order is what one reader would have
 * done -- as long as FROM had room for all of its own (the caller checks
 * kineto_unused_overflowed()).  cats[] slots keep the first spelling,
 * named even when not counted (read_cat()).
 */
void kineto_unused_merge(struct unused *into, const struct unused *from)
{
	uint16_t slot_of[NR_SLOTS];

	for (size_t i = 0; i < ARRAY_SIZE(cats); i++)
		if (!into->name[i][0])
			memcpy(into->name[i], from->name[i], CAT_NAME_MAX);
	for (size_t i = 0; i < SLOT_NEW; i++)
		slot_of[i] = (uint16_t)i;
	for (size_t i = SLOT_NEW; i < SLOT_NEW + from->nr_new; i++)
		slot_of[i] = new_slot(into, from->name[i], strlen(from->name[i]));
	for (size_t i = 0; i < from->nr_order; i++) {
		size_t slot = from->order[i], to = slot_of[slot];

		if (!into->is_listed[to]) {
			into->is_listed[to] = true;
			into->order[into->nr_order++] = (uint16_t)to;
		}
		for (int ph = 0; ph < NR_PH; ph++)
			into->count[to][ph] += from->count[slot][ph];
	}
}

struct unused *kineto_unused_new(void)
{
	return xcalloc(1, sizeof(struct unused));
}

bool kineto_unused_overflowed(const struct unused *u)
{
	return u && u->overflowed;
}

/* trace.py's NcclOpNameSet / GlooOpNameSet: exact names only.  1 for
 * NCCL, 2 for Gloo, 0 for anything else. */
static int collective_lib(const char *name, size_t len)
{
	static const char *const ops[] = { "broadcast", "reduce", "all_reduce", "all_gather",
					   "reduce_scatter" };
	int lib;

	/* Most names are none: "nccl:reduce" is the shortest that is. */
	if (len < 11 || name[4] != ':' || (name[0] != 'n' && name[0] != 'g'))
		return 0;
	if (text_starts(name, len, "nccl:"))
		lib = 1;
	else if (text_starts(name, len, "gloo:"))
		lib = 2;
	else
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (text_eq(name + 5, len - 5, ops[i]))
			return lib;
	return 0;
}

static bool is_dataloader(const char *name, size_t len)
{
	return (text_starts(name, len, "enumerate(DataLoader)#") &&
		text_ends(name, len, ".__next__")) ||
	       text_starts(name, len, "enumerate(DataPipe)#");
}

/* ---------------------------------------------------------------------
 * Reading one event's members
 */

static struct pos here(struct kineto *k)
{
	return json_pos(&k->j);
}

/*
 * Times are kept as the trace writes them, to the nanosecond: a 16-digit
 * epoch timestamp with a fraction is exact as a decimal and 0.25 us coarse
 * as a double.  torch-tb-profiler computes every duration as (ts + dur) -
 * ts in doubles, which rounds each event by up to 0.25 us and sums the
 * errors (proftui(1), DIFFERENCES); traces with integer or boot-clock
 * timestamps come out the same either way.  The double (num_double(), as
 * Python's float()) only checks the bounds and spells a bad value.
 */
enum time_state {
	NO_TIME,		/* absent or null */
	TIME_OK,		/* a number (maybe out of range: check_event() sees) */
	BAD_TIME,		/* there, but not a number: nan, N/A, "abc", {} */
};

/*
 * model/bounds.h's bounds, in the trace's microseconds: a timestamp
 * less than 2^62 ns from zero (the epoch clock gets there in 2116), so
 * that two of them are less than int64 apart (a time since the origin),
 * and a duration of at most 10^15 ns (11.6 days).  Beyond them a value is
 * garbage, and an event carrying one is dropped with a warning, never
 * clamped.  The double is checked too: a value past int64 ns has no
 * exact form.
 */
#define MAX_ABS_TS_US ((double)BOUND_ABS_TS_NS / 1e3)
#define MAX_DUR_US ((double)BOUND_DUR_NS / 1e3)

static bool ts_in_bounds(const struct raw_event *e)
{
	return fabs(e->ts_us) <= MAX_ABS_TS_US && e->ts_ns > -BOUND_ABS_TS_NS &&
	       e->ts_ns < BOUND_ABS_TS_NS;
}

/* Keep what the member held for the warning: printable ASCII only. */
static void keep_bad_text(struct raw_event *e, const struct json *j, enum json_tok t)
{
	const char *what = t == JSON_OBJ_BEGIN ? "an object" : t == JSON_ARR_BEGIN ? "an array"
			   : t == JSON_TRUE    ? "true"
			   : t == JSON_FALSE   ? "false"
					       : NULL;
	size_t n = 0, max = sizeof(e->bad_text) - 4;

	if (what) {
		snprintf(e->bad_text, sizeof(e->bad_text), "%s", what);
		return;
	}
	if (t == JSON_STRING)
		e->bad_text[n++] = '"';
	for (size_t i = 0; i < j->len && n < max; i++)
		e->bad_text[n++] = j->s[i] > ' ' && j->s[i] < 127 ? j->s[i] : '?';
	if (t == JSON_STRING)
		e->bad_text[n++] = '"';
	e->bad_text[n] = '\0';
}

static enum time_state read_us(struct kineto *k, enum json_tok t, struct raw_event *e, double *us,
				int64_t *ns)
{
	if (t == JSON_NULL)
		return NO_TIME;
	/* Some writers quote numbers: take those too. */
	if (t == JSON_NUMBER || t == JSON_STRING) {
		/* The decimal itself, to the ns: the double of a 16-digit
		 * epoch time is 0.25 us coarse.  One parse: the bounds need
		 * the double only roughly. */
		if (num_scaled(k->j.s, k->j.len, 3, ns)) {
			*us = (double)*ns / 1e3;
			return TIME_OK;
		}
		/* Past int64 ns (the bounds then drop it), or a form only
		 * strtod() reads ("0x10"): the double's value. */
		if (num_double(k->j.s, k->j.len, us) && *us == *us) {
			*ns = fabs(*us) < 9e15 ? (int64_t)(*us * 1e3 + (*us < 0 ? -0.5 : 0.5)) : 0;
			return TIME_OK;
		}
	}
	keep_bad_text(e, &k->j, t);
	return BAD_TIME;
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

enum arg {
	A_OTHER, A_EXT, A_EXT_LOWER, A_CORR, A_BPSM, A_OCC, A_MODULE, A_DIMS, A_DIMS_OLD, A_TYPES,
	A_COLL, A_DTYPE, A_IN_NELEMS, A_OUT_NELEMS, A_GROUP_SIZE, A_DEVICE, A_STREAM, A_GRID,
	A_BLOCK, A_REGS, A_SMEM, A_STACK, A_DEV_TYPE, A_DEV_ID, A_ADDR, A_BYTES, A_ALLOCATED,
	A_RESERVED, A_COPY_BYTES, A_COPY_GBPS, A_WAIT_STREAM, A_WAIT_CORR,
};

/* Which of the args the model uses the current key names. */
static enum arg arg_of(const struct json *j)
{
	switch (j->s[0]) {
	case 'E':
		if (json_is(j, "External id"))
			return A_EXT;
		break;
	case 'e':
		if (json_is(j, "external id"))
			return A_EXT_LOWER;
		if (json_is(j, "est. achieved occupancy %"))
			return A_OCC;
		break;
	case 'c':
		if (json_is(j, "correlation"))
			return A_CORR;
		break;
	case 'b':
		if (json_is(j, "blocks per SM"))
			return A_BPSM;
		if (json_is(j, "block"))
			return A_BLOCK;
		if (json_is(j, "bytes"))
			return A_COPY_BYTES;
		break;
	case 's':
		if (json_is(j, "stream"))
			return A_STREAM;
		if (json_is(j, "shared memory"))
			return A_SMEM;
		break;
	case 'g':
		if (json_is(j, "grid"))
			return A_GRID;
		break;
	case 'r':
		if (json_is(j, "registers per thread"))
			return A_REGS;
		break;
	case 'P':
		if (json_is(j, "Python module id"))
			return A_MODULE;
		break;
	case 'I':
		if (json_is(j, "Input Dims"))
			return A_DIMS;
		if (json_is(j, "Input dims"))
			return A_DIMS_OLD;
		if (json_is(j, "Input type"))
			return A_TYPES;
		if (json_is(j, "In msg nelems"))
			return A_IN_NELEMS;
		break;
	case 'C':
		if (json_is(j, "Collective name"))
			return A_COLL;
		if (json_is(j, "Call stack"))
			return A_STACK;
		break;
	case 'd':
		if (json_is(j, "dtype"))
			return A_DTYPE;
		if (json_is(j, "device"))
			return A_DEVICE;
		break;
	case 'O':
		if (json_is(j, "Out msg nelems"))
			return A_OUT_NELEMS;
		break;
	case 'D':
		if (json_is(j, "Device Type"))
			return A_DEV_TYPE;
		if (json_is(j, "Device Id"))
			return A_DEV_ID;
		break;
	case 'A':
		if (json_is(j, "Addr"))
			return A_ADDR;
		break;
	case 'B':
		if (json_is(j, "Bytes"))
			return A_BYTES;
		break;
	case 'm':
		if (json_is(j, "memory bandwidth (GB/s)"))
			return A_COPY_GBPS;
		break;
	case 'w':
		if (json_is(j, "wait_on_stream"))
			return A_WAIT_STREAM;
		if (json_is(j, "wait_on_cuda_event_record_corr_id"))
			return A_WAIT_CORR;
		break;
	case 'T':
		if (json_is(j, "Total Allocated"))
			return A_ALLOCATED;
		if (json_is(j, "Total Reserved"))
			return A_RESERVED;
		break;
	case 'G':
		if (json_is(j, "Group size"))
			return A_GROUP_SIZE;
		break;
	}
	return A_OTHER;
}

/* Python's repr() of the string S[0..N): quoted, with its escapes (the
 * common cases; non-ASCII text is printable there and kept as it is). */
static void add_py_str(struct strbuf *b, const char *s, size_t n)
{
	char q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'';

	strbuf_addch(b, q);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];

		if (c == '\\' || c == (unsigned char)q) {
			strbuf_addch(b, '\\');
			strbuf_addch(b, (char)c);
		} else if (c == '\n' || c == '\r' || c == '\t') {
			strbuf_addch(b, '\\');
			strbuf_addch(b, c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			strbuf_addstr(b, esc);
		} else {
			strbuf_addch(b, (char)c);
		}
	}
	strbuf_addch(b, q);
}

/* Python's repr() of a JSON number as json.loads() reads it: integers
 * as written, other numbers as the shortest float that reads back. */
static void add_py_num(struct strbuf *b, const char *s, size_t n)
{
	char buf[40];
	double d;
	size_t i = 0;

	/* Dims are integers: copied as written (one pass to tell). */
	while (i < n && s[i] != '.' && s[i] != 'e' && s[i] != 'E')
		i++;
	if (i == n) {
		strbuf_add(b, s, n);
		return;
	}
	if (!num_double(s, n, &d) || d != d || d - d != 0) {
		strbuf_addstr(b, d != d ? "nan" : d > 0 ? "inf" : "-inf");
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		double back;

		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (num_double(buf, strlen(buf), &back) && back == d)
			break;
	}
	strbuf_addstr(b, buf);
	if (!strpbrk(buf, ".en"))
		strbuf_addstr(b, ".0");
}

/*
 * "Input Dims", the value whose first token T was just read, into
 * k->dims_text as Python's str() prints the list json.loads() makes of
 * it -- "[[1, 512], []]" -- which is the key torch-tb-profiler groups
 * ops by (str(op.input_shape)).  Each top-level element's element count
 * (the product of its dims, for sizing a collective) goes to OA.
 */
static enum json_tok read_dims(struct kineto *k, enum json_tok t, struct op_args *oa)
{
	struct json *j = &k->j;
	struct strbuf *b = &k->dims_text;
	int base = j->depth - (t == JSON_OBJ_BEGIN || t == JSON_ARR_BEGIN);
	bool first = true;		/* no element yet in the open container */
	bool elem_ok = false;		/* the top-level element is a list of ints */
	int64_t elems = 1;

	strbuf_reset(b);
	oa->has_dims = true;
	oa->dims_sized = t == JSON_ARR_BEGIN;
	oa->nr_elems = 0;
	for (;;) {
		int depth = j->depth - base;	/* of the token T, once read */

		if (t == JSON_ARR_END || t == JSON_OBJ_END) {
			strbuf_addch(b, t == JSON_ARR_END ? ']' : '}');
			if (depth == 1 && elem_ok) {
				if (oa->nr_elems < ARRAY_SIZE(k->in_elems))
					k->in_elems[oa->nr_elems++] = elems;
				else
					oa->dims_sized = false;
			} else if (depth == 1) {
				oa->dims_sized = false;
			}
			first = false;
			if (depth <= 0)
				return t;
		} else {
			if (!first && t != JSON_KEY && b->len && b->s[b->len - 1] != ' ')
				strbuf_addstr(b, ", ");
			first = false;
			switch (t) {
			case JSON_ARR_BEGIN:
			case JSON_OBJ_BEGIN:
				strbuf_addch(b, t == JSON_ARR_BEGIN ? '[' : '{');
				first = true;
				if (depth == 2) {
					elem_ok = t == JSON_ARR_BEGIN;
					elems = 1;
				}
				break;
			case JSON_KEY:
				if (b->s[b->len - 1] != '{')
					strbuf_addstr(b, ", ");
				add_py_str(b, j->s, j->len);
				strbuf_addstr(b, ": ");
				break;
			case JSON_NUMBER: {
				int64_t v;

				add_py_num(b, j->s, j->len);
				if (depth == 2 && num_int(j->s, j->len, &v) && v >= 0) {
					/* Saturating: a size past 2^62 is garbage anyway. */
					elems = v && elems > INT64_MAX / 4 / v ? INT64_MAX / 4 : elems * v;
				} else if (depth == 2) {
					elem_ok = false;
				} else if (depth == 1) {
					oa->dims_sized = false;
				}
				break;
			}
			case JSON_STRING:
				add_py_str(b, j->s, j->len);
				elem_ok = elem_ok && depth != 2;
				oa->dims_sized = oa->dims_sized && depth != 1;
				break;
			case JSON_TRUE:
			case JSON_FALSE:
			case JSON_NULL:
			case JSON_BARE:
				strbuf_addstr(b, t == JSON_TRUE ? "True" : t == JSON_FALSE ? "False"
								 : "None");
				elem_ok = elem_ok && depth != 2;
				oa->dims_sized = oa->dims_sized && depth != 1;
				break;
			default:
				return t;	/* a failure */
			}
			if (depth <= 0)
				return t;	/* a scalar: the whole value */
		}
		t = json_next_fast(j);
		if (json_failed(t))
			return t;
	}
}

/* torch-tb-profiler's sizes of tensor elements by "Input type"
 * (communication.py); any other type weighs 0 there, and here. */
static uint8_t elem_size(const char *s, size_t n)
{
	static const struct {
		const char *type;
		uint8_t size;
	} sizes[] = {
		{ "long int", 8 }, { "float", 4 },	     { "int", 4 },
		{ "c10::Half", 2 }, { "c10::BFloat16", 2 }, { "unsigned char", 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		if (text_eq(s, n, sizes[i].type))
			return sizes[i].size;
	return 0;
}

static enum json_tok read_types(struct kineto *k, enum json_tok t, struct op_args *oa)
{
	if (t != JSON_ARR_BEGIN)
		return json_skip(&k->j, t);
	oa->nr_sizes = 0;
	while ((t = json_next_element(&k->j)) != JSON_ARR_END) {
		if (json_failed(t))
			return t;
		if (oa->nr_sizes < ARRAY_SIZE(k->in_size))
			k->in_size[oa->nr_sizes++] = t == JSON_STRING ? elem_size(k->j.s, k->j.len) : 0;
		t = json_skip(&k->j, t);
		if (json_failed(t))
			return t;
	}
	return t;
}

/* A kernel's "grid" or "block": three positive ints into DIM, else
 * nothing (0, unknown). */
static enum json_tok read_dim3(struct kineto *k, enum json_tok t, int32_t *dim)
{
	int32_t v3[3];
	size_t n = 0;
	bool ok = t == JSON_ARR_BEGIN;

	if (!ok)
		return json_skip(&k->j, t);
	while ((t = json_next_element(&k->j)) != JSON_ARR_END) {
		int64_t v;

		if (json_failed(t))
			return t;
		if (n < 3 && read_int(k, t, &v) && v > 0 && v <= INT32_MAX)
			v3[n] = (int32_t)v;
		else
			ok = false;
		n++;
		t = json_skip(&k->j, t);
		if (json_failed(t))
			return t;
	}
	if (ok && n == 3)
		memcpy(dim, v3, sizeof(v3));
	return t;
}

static enum json_tok read_args(struct kineto *k, struct raw_event *e)
{
	struct json *j = &k->j;
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		enum arg which = arg_of(j);

		if (which == A_OTHER) {
			t = json_skip_value(j);
			if (json_failed(t))
				return t;
			continue;
		}
		t = json_next_value(j);
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
			if (t == JSON_NUMBER && num_double(j->s, j->len, &e->ka.blocks_per_sm))
				e->ka.has |= KA_BPSM;
			break;
		case A_OCC:
			if (t == JSON_NUMBER && num_double(j->s, j->len, &e->ka.occupancy))
				e->ka.has |= KA_OCC;
			break;
		case A_DEVICE:
		case A_STREAM:
		case A_REGS:
		case A_SMEM: {
			int64_t v;

			if (!read_int(k, t, &v) || v < 0 || (which != A_SMEM && v > INT32_MAX))
				break;
			if (which == A_DEVICE)
				e->ka.device = (int32_t)v;
			else if (which == A_STREAM)
				e->ka.stream = (int32_t)v;
			else if (which == A_REGS)
				e->ka.regs = (int32_t)v;
			else
				e->ka.smem = v;
			e->ka.has |= which == A_DEVICE ? KA_DEVICE : which == A_STREAM ? KA_STREAM
				     : which == A_REGS ? KA_REGS : KA_SMEM;
			break;
		}
		case A_DEV_TYPE:
		case A_DEV_ID:
		case A_ADDR:
		case A_BYTES:
		case A_ALLOCATED:
		case A_RESERVED: {
			static const uint8_t bit[] = {
				[A_DEV_TYPE] = MA_DEV_TYPE, [A_DEV_ID] = MA_DEV_ID, [A_ADDR] = MA_ADDR,
				[A_BYTES] = MA_BYTES, [A_ALLOCATED] = MA_ALLOCATED,
				[A_RESERVED] = MA_RESERVED,
			};
			int64_t v;

			if (!read_int(k, t, &v)) {
				/* A size too large to read is out of range,
				 * not absent (which reads as 0 bytes). */
				if (t == JSON_NUMBER && which >= A_BYTES)
					e->mem.has |= MA_SIZE_PAST_INT64;
				break;
			}
			if (which == A_DEV_TYPE)
				e->mem.dev_type = v;
			else if (which == A_DEV_ID)
				e->mem.dev_id = v;
			else if (which == A_ADDR)
				e->mem.addr = (uint64_t)v;
			else if (which == A_BYTES)
				e->mem.bytes = v;
			else if (which == A_ALLOCATED)
				e->mem.allocated = v;
			else
				e->mem.reserved = v;
			e->mem.has |= bit[which];
			break;
		}
		case A_COPY_BYTES:
			if (read_int(k, t, &e->copy.bytes) && bound_bytes_ok(e->copy.bytes) &&
			    e->copy.bytes >= 0)
				e->copy.has |= CA_BYTES;
			break;
		case A_WAIT_STREAM:
		case A_WAIT_CORR: {
			int64_t v;

			if (!read_int(k, t, &v) || v < 0 || (which == A_WAIT_STREAM && v > INT32_MAX))
				break;
			if (which == A_WAIT_STREAM)
				e->sync.wait_stream = v;
			else
				e->sync.wait_corr = v;
			e->sync.has |= which == A_WAIT_STREAM ? SA_WAIT_STREAM : SA_WAIT_CORR;
			break;
		}
		case A_COPY_GBPS:
			if (t == JSON_NUMBER && num_double(j->s, j->len, &e->copy.gbps) &&
			    isfinite(e->copy.gbps))
				e->copy.has |= CA_GBPS;
			break;
		case A_GRID:
		case A_BLOCK:
			t = read_dim3(k, t, which == A_GRID ? e->ka.grid : e->ka.block);
			break;
		case A_MODULE:
			e->has_module_id = t != JSON_NULL;
			if (!read_int(k, t, &e->module_id))
				e->module_id = -1;
			break;
		case A_DIMS_OLD:
			/* trace.py takes "Input Dims", the old spelling only
			 * when that is absent. */
			if (e->op.has_dims && e->op.dims_new)
				break;
			/* fall through */
		case A_DIMS:
			t = read_dims(k, t, &e->op);
			e->op.dims_new = which == A_DIMS;
			break;
		case A_TYPES:
			/* Only a collective's types are used: Kineto writes the
			 * name before the args, so most ops skip them. */
			if (e->name_text && !collective_lib(e->name_text, e->name_len))
				t = json_skip(j, t);
			else
				t = read_types(k, t, &e->op);
			break;
		case A_COLL:
		case A_DTYPE:
		case A_STACK:
			if (t == JSON_STRING && j->len) {
				struct strbuf *b = which == A_COLL ? &k->coll_text : which == A_DTYPE
						   ? &k->dtype_text : &k->stack_text;

				strbuf_reset(b);
				strbuf_add(b, j->s, j->len);
				*(which == A_COLL ? &e->op.has_coll : which == A_DTYPE ? &e->op.has_dtype
				  : &e->op.has_stack) = true;
			}
			break;
		case A_IN_NELEMS:
		case A_OUT_NELEMS:
		case A_GROUP_SIZE: {
			int64_t v;

			if (!read_int(k, t, &v) || v < 0)
				break;
			if (which == A_IN_NELEMS)
				e->op.in_nelems = v;
			else if (which == A_OUT_NELEMS)
				e->op.out_nelems = v;
			else
				e->op.group_size = v;
			e->op.has_nelems |= which == A_IN_NELEMS ? 1 : which == A_OUT_NELEMS ? 2 : 4;
			break;
		}
		default:
			break;
		}
		if (json_failed(t))
			return t;
		t = json_skip(j, t);
		if (json_failed(t))
			return t;
	}
	return t;
}

/* ---------------------------------------------------------------------
 * Taking an event: the reader's checks, the model's records
 */

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

/*
 * A reader that reads ahead keeps its warnings: the first
 * DIAG_SHOW_PER_KIND of a kind with their text and place, which are all
 * that may print, the rest counted.  True when this one's text is wanted.
 */
static bool keep_warning(struct reader_out *o, const char *kind, uint64_t mark)
{
	struct kept_kind *kk = NULL;

	for (size_t i = 0; i < o->nr_kinds; i++)
		if (o->kinds[i].kind == kind || !strcmp(o->kinds[i].kind, kind))
			kk = &o->kinds[i];
	if (!kk) {
		GROW(o->kinds, o->alloc_kinds, o->nr_kinds + 1);
		kk = &o->kinds[o->nr_kinds++];
		memset(kk, 0, sizeof(*kk));
		kk->kind = kind;
	}
	if (kk->nr_kept == DIAG_SHOW_PER_KIND) {
		kk->nr_more++;
		return false;
	}
	kk->nr_kept++;
	GROW(o->warnings, o->alloc_warnings, o->nr_warnings + 1);
	o->warnings[o->nr_warnings].kind = kind;
	o->warnings[o->nr_warnings].mark = mark;
	o->warnings[o->nr_warnings].msg = NULL;
	o->nr_warnings++;
	return true;
}

/* Warn about the event that starts at MARK, working out where only when
 * the warning will print. */
#define warn_event(k, mark, kind, ...)                                          \
	do {                                                                    \
		struct pos at_ = { 0, 0 };                                      \
		if ((k)->out) {                                                 \
			if (keep_warning((k)->out, kind, mark))                 \
				(k)->out->warnings[(k)->out->nr_warnings - 1].msg =  \
					xstrfmt(__VA_ARGS__);                   \
			break;                                                  \
		}                                                               \
		if (diag_would_print((k)->d, kind))                             \
			at_ = json_mark_pos(&(k)->j, mark);                     \
		diag_warn((k)->d, &at_, kind, __VA_ARGS__);                     \
	} while (0)

void kineto_out_release(struct reader_out *o)
{
	for (size_t i = 0; i < o->nr_warnings; i++)
		free(o->warnings[i].msg);
	free(o->warnings);
	free(o->kinds);
	o->warnings = NULL;
	o->kinds = NULL;
	o->nr_warnings = o->alloc_warnings = o->nr_kinds = o->alloc_kinds = 0;
}

/* What the reader does with an event. */
enum verdict {
	TAKE,			/* pass it on to the model */
	NOT_USED,		/* a kind the model has no use for: count it */
	SKIPPED,		/* dropped, and counted where it was decided */
};

/*
 * A [memory] instant: an allocation or a free on the CPU (Device Type 0)
 * or on device Device Id of another of c10's device types (CUDA 1, HIP
 * 6, XPU 12, MTIA 19, PrivateUse1 20...).  One the Memory view cannot
 * place -- no time, a type c10 does not have, a device without an id --
 * is dropped and counted.
 */
/* An allocation or free, and the totals after it, within BOUND_BYTES: the
 * Memory pane sums them.  A negative total reads as absent (add_memory()). */
static bool mem_sizes_in_bounds(const struct mem_args *m)
{
	return !(m->has & MA_SIZE_PAST_INT64) && (!(m->has & MA_BYTES) || bound_bytes_ok(m->bytes)) &&
	       (!(m->has & MA_ALLOCATED) || m->allocated <= BOUND_BYTES) &&
	       (!(m->has & MA_RESERVED) || m->reserved <= BOUND_BYTES);
}

static enum verdict check_memory(struct kineto *k, struct raw_event *e, uint64_t at)
{
	const struct mem_args *m = &e->mem;

	if (e->ts_state != TIME_OK || !ts_in_bounds(e)) {
		warn_event(k, at, "memory events without a usable time, skipped",
			  "[memory] event without a usable 'ts'; skipped");
		return SKIPPED;
	}
	if (!(m->has & MA_DEV_TYPE)) {
		warn_event(k, at, "memory events on no device proftui knows, skipped",
			  "[memory] event without a 'Device Type'; skipped");
		return SKIPPED;
	}
	if (m->dev_type < 0 || m->dev_type >= NR_DEVICE_TYPES) {
		warn_event(k, at, "memory events on no device proftui knows, skipped",
			  "[memory] event on Device Type %lld, none of PyTorch's (0, the CPU, to "
			  "%d, PrivateUse1); skipped", (long long)m->dev_type, NR_DEVICE_TYPES - 1);
		return SKIPPED;
	}
	if (m->dev_type != DEVICE_CPU &&
	    (!(m->has & MA_DEV_ID) || m->dev_id < 0 || m->dev_id > INT32_MAX)) {
		warn_event(k, at, "memory events on no device proftui knows, skipped",
			  "[memory] event on Device Type %d without a usable 'Device Id'; skipped",
			  (int)m->dev_type);
		return SKIPPED;
	}
	if (!mem_sizes_in_bounds(m)) {
		warn_event(k, at, "memory events with a size out of range, skipped",
			  "[memory] event with a size out of range (at most 2^50 bytes, 1 PiB, "
			  "each way); skipped");
		return SKIPPED;
	}
	e->cat = CAT_MEMORY;
	return TAKE;
}

/*
 * The reading thread's half of taking an event: drop what the model never
 * uses, and warn (with the event's place, which only this thread can
 * still work out) about what it cannot use.  Touches only the reader's
 * state: the tokenizer, the diag and its own counts.
 */
/* torch-tb-profiler's span of the recording: the complete Trace event
 * "PyTorch Profiler (0)" with a usable time (event_parser.py takes the
 * last). */
static bool is_profiler_span(const struct raw_event *e)
{
	return e->is_complete && e->name_text &&
	       text_eq(e->name_text, e->name_len, "PyTorch Profiler (0)") &&
	       e->ts_state == TIME_OK && ts_in_bounds(e) && e->dur_state == TIME_OK &&
	       e->dur_us >= 0 && e->dur_us <= MAX_DUR_US && e->dur_ns <= BOUND_DUR_NS;
}

static enum verdict check_event(struct kineto *k, struct raw_event *e, uint64_t at)
{
	const char *name = e->name_text;
	bool is_memory = e->ph == 'i' && name && text_eq(name, e->name_len, "[memory]");

	/* Where the recording starts: the earliest of the events torch-tb-
	 * profiler makes objects of (complete events of a category it
	 * knows, [memory] instants), for times since the profiler started. */
	if ((is_memory || (e->is_complete && e->has_cat && e->cat != CAT_UNKNOWN &&
			   e->cat != CAT_SYNC)) &&
	    e->ts_state == TIME_OK && ts_in_bounds(e) && e->ts_ns < k->origin_ns)
		k->origin_ns = e->ts_ns;
	if (is_memory)
		return check_memory(k, e, at);
	if (e->has_cat && e->cat == CAT_SYNC) {
		/* Counted as not used (no pane shows them), and kept for the
		 * critical path's sync edges when whole: silently else, as
		 * ever. */
		count_unused(k->unused, e);
		if (!e->is_complete || !name || e->ts_state != TIME_OK || !ts_in_bounds(e) ||
		    e->dur_state == BAD_TIME || e->dur_us < 0 || e->dur_us > MAX_DUR_US ||
		    e->dur_ns > BOUND_DUR_NS)
			return SKIPPED;
		if (e->dur_state == NO_TIME)
			e->dur_us = 0, e->dur_ns = 0;
		return TAKE;
	}
	if (e->has_cat && e->cat == CAT_TRACE && is_profiler_span(e)) {
		/* Counted as not used, as ever (no pane shows it), and kept
		 * for the range of the GPU utilization buckets. */
		count_unused(k->unused, e);
		return TAKE;
	}
	if (!e->is_complete || !e->has_cat || e->cat == CAT_UNKNOWN || e->cat == CAT_TRACE)
		return NOT_USED;
	if (e->cat == CAT_GPU_ANNOTATION && name && text_starts(name, e->name_len, "ProfilerStep#")) {
		/* PyTorch 2.x's device-side copy of a step: the plugin makes a
		 * second step of it (doc/formats/kineto.md, 'Steps'),
		 * halving the average, wherever it falls.  Steps are the host's ranges; this one
		 * is a range on its stream, as any GPU-side annotation. */
		k->nr_gpu_step_copies++;
	}
	if (e->ts_state == NO_TIME || !name) {
		warn_event(k, at, "events without a name or timestamp, skipped",
			  "complete event without %s; skipped", name ? "'ts'" : "'name'");
		return SKIPPED;
	}
	if (e->ts_state == BAD_TIME || e->dur_state == BAD_TIME) {
		bool ts = e->ts_state == BAD_TIME;

		warn_event(k, at, "events with a time that is not a number, skipped",
			  "event '%s' has '%s' %s, not a number; skipped", name, ts ? "ts" : "dur",
			  e->bad_text);
		return SKIPPED;
	}
	if (!ts_in_bounds(e)) {
		warn_event(k, at, "events with a time out of range, skipped",
			  "event '%s' has 'ts' %g us, out of range (|ts| < %g us); skipped", name,
			  e->ts_us, MAX_ABS_TS_US);
		return SKIPPED;
	}
	if (e->dur_state == NO_TIME) {
		e->dur_us = 0;
		e->dur_ns = 0;
	}
	if (e->dur_us > MAX_DUR_US || e->dur_ns > BOUND_DUR_NS) {
		warn_event(k, at, "events with a time out of range, skipped",
			  "event '%s' has 'dur' %g us, out of range (at most %g us, 11.6 days); "
			  "skipped", name, e->dur_us, MAX_DUR_US);
		return SKIPPED;
	}
	if (e->dur_us < 0) {
		warn_event(k, at, "events with a negative duration, skipped",
			  "event '%s' has a negative 'dur' (%g us): it ends before it starts; "
			  "skipped", name, e->dur_us);
		return SKIPPED;
	}
	if ((e->cat == CAT_OPERATOR || e->cat == CAT_ANNOTATION) &&
	    text_starts(name, e->name_len, "ProfilerStep#") && !step_number_ok(name))
		warn_event(k, at, "step events with no step number",
			  "step event '%s' has no number after '#'; taken as an annotation", name);
	return TAKE;
}

static struct host_rec *add_host(struct kineto *k, struct raw_event *e, enum node_kind kind,
				 uint8_t flags)
{
	struct host_rec *h;
	struct node *n;

	GROW(k->hosts, k->alloc_hosts, k->nr_hosts + 1);
	h = &k->hosts[k->nr_hosts++];
	memset(h, 0, sizeof(*h));
	n = node_new_interned(k->p, NULL, kind, e->name);
	n->flags = flags;
	n->start_ns = e->ts;
	node_set_calls(k->p, n, 1);
	node_set_host_total(k->p, n, e->dur);
	h->node = node_handle(n);
	h->ext = kineto_ext_narrow(&k->wide_hosts, k->nr_hosts - 1, e->ext_id);
	h->t.thread = kineto_thread_number(&k->threads, e->tid);
	return h;
}

/* The profile's one copy of a kernel's launch (a million kernels of a
 * big trace share a few hundred). */
static const struct launch *launch_of(struct kineto *k, const struct kernel_args *ka)
{
	struct launch l;

	launch_init(&l);
	if (ka->has & KA_DEVICE)
		l.device = ka->device;
	if (ka->has & KA_STREAM)
		l.stream = ka->stream;
	if (ka->has & KA_REGS)
		l.registers_per_thread = ka->regs;
	if (ka->has & KA_SMEM)
		l.shared_memory_bytes = ka->smem;
	if (ka->has & KA_BPSM)
		l.blocks_per_sm = ka->blocks_per_sm;
	if (ka->has & KA_OCC)
		l.occupancy_pct = ka->occupancy;
	memcpy(l.grid, ka->grid, sizeof(l.grid));
	memcpy(l.block, ka->block, sizeof(l.block));
	return profile_launch(k->p, &l);
}

static void add_device(struct kineto *k, struct raw_event *e, enum ev_type type)
{
	enum node_kind kind = type == EV_KERNEL ? NODE_KERNEL : type == EV_MEMCPY ? NODE_MEMCPY
										   : NODE_MEMSET;
	size_t i = k->nr_devs;
	struct dev_rec *d;
	struct node *n;

	GROW(k->devs, k->alloc_devs, k->nr_devs + 1);
	d = &k->devs[k->nr_devs++];
	memset(d, 0, sizeof(*d));
	n = node_new_interned(k->p, NULL, kind, e->name);
	n->start_ns = e->ts;
	node_set_calls(k->p, n, 1);
	/* The kernel table sums 'dur' itself (kernel_parser.py, pandas),
	 * while the op tree's times are end - start (which differ by the
	 * rounding of ts + dur in doubles): device total is the first,
	 * device self the second. */
	node_set_device_total(k->p, n, e->dur);
	node_set_device_self(k->p, n, e->dur);
	d->end_ns = e->ts + e->dur;
	if (type == EV_KERNEL && (e->ka.has || e->ka.grid[0] || e->ka.block[0]))
		attr_set_launch(k->p, node_attr_list(n), launch_of(k, &e->ka));
	else if (type != EV_KERNEL && (e->ka.has & KA_STREAM))
		profile_set_copy(k->p, n, e->ka.has & KA_DEVICE ? e->ka.device : -1, e->ka.stream,
				 e->copy.has & CA_BYTES ? e->copy.bytes : -1,
				 e->copy.has & CA_GBPS ? e->copy.gbps : NAN);
	d->node = n;
	if (i % 64 == 0) {
		GROW(k->kernel_bits, k->alloc_kernel_bits, i / 64 + 1);
		k->kernel_bits[i / 64] = 0;
	}
	if (type == EV_KERNEL)
		bit_set(k->kernel_bits, i);
	d->corr = e->corr;
	d->ext = kineto_ext_narrow(&k->wide_devs, i, e->ext_id);
}

/* A GPU-side annotation (gpu_user_annotation): a range of its device's
 * stream, which Kineto writes as the event's pid and tid.  Not a host
 * node: its time is the device's (NODE_DEVICE_RANGE), and the link hangs
 * it under a group of its stream. */
static void add_gpu_range(struct kineto *k, const struct raw_event *e)
{
	struct node *n = node_new_interned(k->p, NULL, NODE_ANNOTATION, e->name);
	struct launch l;

	n->start_ns = e->ts;
	n->flags = NODE_NOT_A_ROW | NODE_DEVICE_RANGE;
	node_set_calls(k->p, n, 1);
	node_set_device_total(k->p, n, e->dur);
	launch_init(&l);
	if (e->pid >= 0 && e->pid <= INT32_MAX)
		l.device = (int32_t)e->pid;
	if (e->tid >= 0 && e->tid <= INT32_MAX)
		l.stream = (int32_t)e->tid;
	attr_set_launch(k->p, node_attr_list(n), profile_launch(k->p, &l));
	GROW(k->gpu_ranges, k->alloc_gpu_ranges, k->nr_gpu_ranges + 1);
	k->gpu_ranges[k->nr_gpu_ranges++] = n;
}

/* A cuda_sync event: a record of the profile's side table; its runtime
 * call is found by correlation when the load links (link_devices()). */
static void add_sync(struct kineto *k, const struct raw_event *e)
{
	static const char *const kinds[] = {
		[CUDA_SYNC_STREAM] = "Stream Sync", [CUDA_SYNC_CONTEXT] = "Context Sync",
		[CUDA_SYNC_EVENT] = "Event Sync", [CUDA_SYNC_WAIT_EVENT] = "Stream Wait Event",
	};
	struct cuda_sync s = {
		.start_ns = e->ts, .dur_ns = e->dur, .wait_corr = -1, .device = -1, .stream = -1,
		.wait_stream = -1, .kind = CUDA_SYNC_OTHER,
	};

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (text_eq(e->name, e->name_len, kinds[i]))
			s.kind = (uint8_t)i;
	if (e->ka.has & KA_DEVICE)
		s.device = e->ka.device;
	if (e->ka.has & KA_STREAM)
		s.stream = e->ka.stream;
	if (e->sync.has & SA_WAIT_STREAM)
		s.wait_stream = (int32_t)e->sync.wait_stream;
	if (e->sync.has & SA_WAIT_CORR)
		s.wait_corr = e->sync.wait_corr;
	profile_add_cuda_sync(k->p, &s);
	GROW(k->sync_corrs, k->alloc_sync_corrs, k->nr_sync_corrs + 1);
	k->sync_corrs[k->nr_sync_corrs++] = e->corr;
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
	node_set_calls(k->p, n, 1);
	node_set_host_total(k->p, n, e->dur);
	node_set_host_self(k->p, n, e->dur);
	r->node = n;
	r->ext = kineto_ext_narrow(&k->wide_rts, k->nr_rts - 1, e->ext_id);
	r->u.corr = e->corr;
	r->thread = kineto_thread_number(&k->threads, e->tid);
}

/* A ProfilerStep becomes a step and a node; false when its name has no
 * number (check_event() said so), and it is an annotation instead. */
static bool add_step(struct kineto *k, struct raw_event *e)
{
	const char *num = step_number(k, e->name);
	struct raw_step *s;

	if (!num)
		return false;
	GROW(k->steps, k->alloc_steps, k->nr_steps + 1);
	s = &k->steps[k->nr_steps++];
	s->start = e->ts;
	s->end = e->ts + e->dur;
	s->name = num;
	s->index = e->ordinal;
	add_host(k, e, NODE_STEP, NODE_NOT_A_ROW);
	return true;
}

/*
 * PyTorch 2.x wraps each collective in a record_param_comms op whose args
 * say what it moved; torch-tb-profiler never read them, HTA does.  Kept
 * as the file gives them, on the node (a handful per step).
 */
static void add_comms_args(struct kineto *k, const struct raw_event *e, struct node *n)
{
	if (e->coll)
		attr_set_interned(k->p, node_attr_list(n), "collective_name", e->coll);
	if (e->dtype)
		attr_set_interned(k->p, node_attr_list(n), "dtype", e->dtype);
	if (e->op.has_nelems & 1)
		attr_set_int(k->p, node_attr_list(n), "in_msg_nelems", e->op.in_nelems);
	if (e->op.has_nelems & 2)
		attr_set_int(k->p, node_attr_list(n), "out_msg_nelems", e->op.out_nelems);
	if (e->op.has_nelems & 4)
		attr_set_int(k->p, node_attr_list(n), "group_size", e->op.group_size);
}

/* Host tree nodes (node.py's create_operator_node and friends). */
static void add_tree_node(struct kineto *k, struct raw_event *e, enum ev_type type)
{
	const char *name = e->name;
	int lib = collective_lib(name, e->name_len);
	uint8_t flags = 0;
	enum node_kind kind = NODE_OP;
	struct node *n;

	if (lib) {
		GROW(k->comm_ext, k->alloc_comm_ext, k->nr_comm_ext + 1);
		/* ModuleNode drops its External id; collectives are ops
		 * or annotations, so e->ext_id is what they key on. */
		k->comm_ext[k->nr_comm_ext++] = e->ext_id;
	}
	if (type == EV_MODULE) {
		e->ext_id = NO_ID;	/* node.py: modules never own runtimes */
		kind = NODE_MODULE;
		flags = NODE_NOT_A_ROW;
	} else if (type == EV_PYTHON) {
		kind = NODE_ANNOTATION;
		flags = NODE_NOT_A_ROW;
	} else if (is_dataloader(name, e->name_len) || text_starts(name, e->name_len, "Optimizer.step")) {
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
		   text_starts(name, e->name_len, "Optimizer.")) {
		flags = NODE_NOT_A_ROW;	/* is_operator_node()'s exclusions */
	}
	if (lib)
		flags |= NODE_COLLECTIVE;
	n = host_node(k->p, add_host(k, e, kind, flags));
	/* Op rows group by input shape (interned: the many calls of one
	 * shape share one string) and show their stack, made of frames as
	 * with_stack's are (model/callstack.h, kineto_link.c). */
	if (kind == NODE_OP && e->dims)
		attr_set_interned(k->p, node_attr_list(n), "input_shapes", e->dims);
	if (kind == NODE_OP && e->stack)
		attr_set_stack(k->p, node_attr_list(n), call_stack_parse(&k->p->stacks, NULL, e->stack, strlen(e->stack)));
	/* The Module view keys a module by its name and module id. */
	if (kind == NODE_MODULE && e->module_id >= 0)
		attr_set_int(k->p, node_attr_list(n), "module_id", e->module_id);
	if (lib && e->comm_bytes >= 0)
		attr_set_int(k->p, node_attr_list(n), "comm_bytes", e->comm_bytes);
	if (kind == NODE_OP && !strcmp(name, "record_param_comms"))
		add_comms_args(k, e, n);
}

/* A Python frame: not a node (trace.py), but the call stack of the ops
 * under it. */
static void add_frame(struct kineto *k, const struct raw_event *e)
{
	struct py_frame *f;

	GROW(k->frames, k->alloc_frames, k->nr_frames + 1);
	f = &k->frames[k->nr_frames++];
	f->thread = kineto_thread_number(&k->threads, e->tid);
	f->start = e->ts;
	f->end = e->ts + e->dur;
	f->name = e->name;
	f->index = e->ordinal;
}

static void add_memory(struct kineto *k, const struct raw_event *e)
{
	struct mem_event *m = profile_add_mem_event(k->p);

	m->ts_ns = e->ts_ns;
	m->tid = e->tid;
	m->device.type = (uint8_t)e->mem.dev_type;	/* check_memory(): 0..20 */
	m->device.index = e->mem.dev_type == DEVICE_CPU ? -1 : (int32_t)e->mem.dev_id;
	m->bytes = e->mem.has & MA_BYTES ? e->mem.bytes : 0;	/* trace.py: 0 */
	if (e->mem.has & MA_ADDR)
		m->addr = e->mem.addr;
	if ((e->mem.has & MA_ALLOCATED) && e->mem.allocated >= 0)
		m->total_allocated = e->mem.allocated;
	if ((e->mem.has & MA_RESERVED) && e->mem.reserved >= 0)
		m->total_reserved = e->mem.reserved;
}

/* One sample of a counter event: the profile's side table. */
static void add_counter(struct kineto *k, const struct raw_event *e)
{
	struct counter_rec r = {
		.name = e->name, .key = e->dims, .pid = e->pid, .ts_ns = e->ts_ns,
		.value = e->ctr_value,
	};

	profile_add_counter(k->p, &r);
}

/* The trace.py type of an event check_event() let through. */
static enum ev_type type_of(const struct raw_event *e)
{
	bool is_step = text_starts(e->name, e->name_len, "ProfilerStep#");

	switch (e->cat) {
	case CAT_OPERATOR:
		return is_step ? EV_STEP : EV_OPERATOR;
	case CAT_ANNOTATION:
		return is_step ? EV_STEP : EV_ANNOTATION;
	case CAT_GPU_ANNOTATION:
		return EV_GPU_RANGE;
	case CAT_PYTHON:
		return EV_PYTHON;
	case CAT_PYTHON_FUNCTION:
		return EV_MODULE;
	case CAT_RUNTIME:
		return EV_RUNTIME;
	case CAT_KERNEL:
		return EV_KERNEL;
	case CAT_MEMCPY:
		return EV_MEMCPY;
	default:
		return EV_MEMSET;
	}
}

/* The step-breakdown role of an event (event_parser.StepParser._parse_step),
 * or NR_ROLES for none.  Kernels get theirs once the collectives' External
 * ids are all known, and runtimes from their records in time order, when
 * they merge as they come (kineto_steps.c). */
static enum role role_of(enum ev_type type, const char *name, size_t len)
{
	switch (type) {
	case EV_MEMCPY:
		return ROLE_MEMCPY;
	case EV_MEMSET:
		return ROLE_MEMSET;
	case EV_GPU_RANGE:
		/* Device time, not the host's: a collective's is
		 * Communication, the others no role (never CPU Exec). */
		return collective_lib(name, len) ? ROLE_COMM : NR_ROLES;
	case EV_OPERATOR:
	case EV_ANNOTATION:
	case EV_PYTHON:
		if (type != EV_PYTHON && is_dataloader(name, len))
			return ROLE_DATALOADER;
		if (collective_lib(name, len))
			return ROLE_COMM;
		return ROLE_CPUOP;
	default:
		return NR_ROLES;
	}
}

/* The model thread's half: classify the event and keep what the model
 * needs. */
static void take_event(struct kineto *k, struct raw_event *e)
{
	enum ev_type type;
	enum role role;

	if (e->cat == CAT_MEMORY) {
		add_memory(k, e);
		return;
	}
	if (e->ext_id_lower != NO_ID)
		e->ext_id = e->ext_id_lower;	/* trace.py reads 'external id' first */
	e->ts = e->ts_ns;
	e->dur = e->dur_ns;
	if (e->cat == CAT_SYNC) {
		add_sync(k, e);
		return;
	}
	if (e->cat == CAT_COUNTER) {
		add_counter(k, e);
		return;
	}
	if (e->cat == CAT_TRACE) {
		k->p->has_profiler_span = true;
		k->p->profiler_start_ns = e->ts;
		k->p->profiler_end_ns = e->ts + e->dur;
		return;
	}
	if (e->cat == CAT_PYTHON_FUNCTION && !e->has_module_id) {
		add_frame(k, e);
		return;
	}

	type = type_of(e);
	role = role_of(type, e->name, e->name_len);
	if (role != NR_ROLES)
		ranges_add_held(&k->roles[role], e->ts, e->ts + e->dur);
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
	case EV_GPU_RANGE:
		add_gpu_range(k, e);
		return;
	case EV_STEP:
		if (add_step(k, e))
			return;
		type = EV_ANNOTATION;
		break;
	default:
		break;
	}
	add_tree_node(k, e, type);
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

/*
 * One event in a block: what every event has, then only the parts of the
 * rest it has (PART_* bits, in their order, each a multiple of 8 bytes),
 * then its name and its texts, each NUL-ended.  Most events have none
 * of the parts: a message is a third the size of one with room for all,
 * and the blocks held at the load's peak as few.
 */
struct ev_msg {
	uint32_t size;			/* of the whole message, 8-aligned */
	uint32_t name_len;
	uint32_t ordinal;
	uint8_t cat;
	uint8_t has_module_id;
	uint16_t parts;			/* PART_* */
	int64_t ts_ns, dur_ns;
	int64_t tid;
	int64_t ext_id, corr;		/* NO_ID: none */
	char rest[];
};

/* A message's parts: absent, each is as the reader starts an event.
 * Each is rare but for kernels' args and ops' texts: a branch each that
 * is seldom taken, or taken by the events of one kind. */
enum {
	PART_EXT_LOWER = 1 << 0,	/* int64_t ext_id_lower; else NO_ID */
	PART_KERNEL = 1 << 1,		/* struct kernel_args; else zero bytes */
	PART_MEM = 1 << 2,		/* struct mem_args: CAT_MEMORY */
	PART_OP = 1 << 3,		/* struct msg_op; else none: comm_bytes -1 */
	PART_MODULE = 1 << 4,		/* int64_t module_id; else 0 */
	PART_TEXTS = 1 << 5,		/* struct msg_texts; else no text */
	PART_PID = 1 << 6,		/* int64_t pid: a GPU-side range's */
	PART_COPY = 1 << 7,		/* struct copy_args: a copy's or set's */
	PART_SYNC = 1 << 8,		/* struct sync_args: a cuda_sync's */
	PART_COUNTER = 1 << 9,		/* double: a counter sample's value */
};

struct msg_op {
	int64_t comm_bytes;
	int64_t in_nelems, out_nelems, group_size;
	uint8_t has_nelems;
};

/* The lengths of the texts after the name, in order (0: none). */
struct msg_texts {
	uint32_t len[4];
};

/* The bytes a part of SIZE takes in a message: whole 8-byte words, so
 * that every part after it is aligned. */
static size_t part_room(size_t size)
{
	return (size + 7) & ~(size_t)7;
}

/* Copy the part at AT out to PART; where the next one starts. */
static const char *get_part(const char *at, void *part, size_t size)
{
	memcpy(part, at, size);
	return at + part_room(size);
}

/* The texts of a message after its name, in order. */
enum { TEXT_DIMS, TEXT_STACK, TEXT_COLL, TEXT_DTYPE, NR_TEXTS };

/*
 * Blocks go to the model thread through a queue, and come back to a list
 * of free ones that every reader takes from (kineto_chunks.c has two more
 * readers, which keep their full blocks until their chunk's turn).
 */
struct pipe {
	pthread_t thread;
	bool has_thread;
	pthread_mutex_t lock;
	pthread_cond_t full, empty;	/* a block was queued / taken */
	struct block *head, *tail;	/* queued, in file order */
	size_t nr_queued;		/* ...and not yet taken */
	struct block *free;		/* taken, to fill again */
	bool done;			/* no block after the queued ones */
	struct kineto *k;
};

static void take_block(struct kineto *k, struct block *b)
{
	for (size_t off = 0; off < b->used;) {
		const struct ev_msg *m = (const struct ev_msg *)(b->data + off);
		const char *at = m->rest;
		struct raw_event e = {
			.is_complete = true, .ts_state = TIME_OK, .dur_state = TIME_OK, .has_cat = true,
			.cat = m->cat, .ordinal = m->ordinal + b->ordinal_base, .ts_ns = m->ts_ns,
			.dur_ns = m->dur_ns, .tid = m->tid, .ext_id = m->ext_id, .ext_id_lower = NO_ID,
			.corr = m->corr, .has_module_id = m->has_module_id, .name_len = m->name_len,
			.comm_bytes = -1,
		};
		struct msg_op op;
		struct msg_texts lens = { { 0 } };
		const char *texts[NR_TEXTS];

		if (m->parts & PART_EXT_LOWER)
			at = get_part(at, &e.ext_id_lower, sizeof(e.ext_id_lower));
		if (m->parts & PART_KERNEL)
			at = get_part(at, &e.ka, sizeof(e.ka));
		if (m->parts & PART_MEM)
			at = get_part(at, &e.mem, sizeof(e.mem));
		if (m->parts & PART_OP) {
			at = get_part(at, &op, sizeof(op));
			e.comm_bytes = op.comm_bytes;
			e.op.in_nelems = op.in_nelems;
			e.op.out_nelems = op.out_nelems;
			e.op.group_size = op.group_size;
			e.op.has_nelems = op.has_nelems;
		}
		if (m->parts & PART_MODULE)
			at = get_part(at, &e.module_id, sizeof(e.module_id));
		if (m->parts & PART_PID)
			at = get_part(at, &e.pid, sizeof(e.pid));
		if (m->parts & PART_COPY)
			at = get_part(at, &e.copy, sizeof(e.copy));
		if (m->parts & PART_SYNC)
			at = get_part(at, &e.sync, sizeof(e.sync));
		if (m->parts & PART_COUNTER)
			at = get_part(at, &e.ctr_value, sizeof(e.ctr_value));
		if (m->parts & PART_TEXTS)
			at = get_part(at, &lens, sizeof(lens));
		e.name = profile_intern(k->p, at, m->name_len);
		at += m->name_len + 1;
		for (int i = 0; i < NR_TEXTS; i++) {
			texts[i] = lens.len[i] ? profile_intern(k->p, at, lens.len[i]) : NULL;
			at += lens.len[i] + 1;
		}
		e.dims = texts[TEXT_DIMS];
		e.stack = texts[TEXT_STACK];
		e.coll = texts[TEXT_COLL];
		e.dtype = texts[TEXT_DTYPE];
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
		while (!pp->head && !pp->done)
			pthread_cond_wait(&pp->full, &pp->lock);
		b = pp->head;
		if (b) {
			pp->head = b->next;
			if (!pp->head)
				pp->tail = NULL;
		}
		pthread_mutex_unlock(&pp->lock);
		if (!b)
			break;

		take_block(pp->k, b);

		pthread_mutex_lock(&pp->lock);
		b->next = pp->free;
		pp->free = b;
		pp->nr_queued--;
		pthread_cond_signal(&pp->empty);
		pthread_mutex_unlock(&pp->lock);
	}
	return NULL;
}

static void pipe_start(struct kineto *k)
{
	struct pipe *pp = xcalloc(1, sizeof(*pp));

	pp->k = k;
	pthread_mutex_init(&pp->lock, NULL);
	pthread_cond_init(&pp->full, NULL);
	pthread_cond_init(&pp->empty, NULL);
	k->pipe = pp;
	diag_hold(k->d);
	pp->has_thread = thread_start(&pp->thread, model_main, pp) == 0;
}

/*
 * Block memory comes from the system and goes back to it when the read is
 * done: from the heap, it would stay there, counted in the load's peak
 * (and a thread's heap is never used again once the thread ends).
 */
static char *map_bytes(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("out of memory (%zu bytes for events being read)", n);
	return p;
}

static void block_release_data(struct block *b)
{
	if (b->is_mapped)
		munmap(b->data, b->cap);
	else
		free(b->data);
}

static void block_free(struct block *b)
{
	block_release_data(b);
	free(b);
}

/* An empty block, from the free list when there is one. */
static struct block *block_get(struct pipe *pp)
{
	struct block *b;

	pthread_mutex_lock(&pp->lock);
	b = pp->free;
	if (b)
		pp->free = b->next;
	pthread_mutex_unlock(&pp->lock);
	if (!b) {
		b = xmalloc(sizeof(*b));
		b->cap = BLOCK_BYTES;
		b->data = map_bytes(BLOCK_BYTES);
		b->is_mapped = true;
	}
	b->used = 0;
	b->ordinal_base = 0;
	b->next = NULL;
	return b;
}

void kineto_reserve_blocks(struct kineto *k, size_t n)
{
	struct block *list = NULL;

	while (n--) {
		struct block *b = block_get(k->pipe);

		b->next = list;
		list = b;
	}
	kineto_drop_blocks(k, list);
}

void kineto_drop_blocks(struct kineto *k, struct block *first)
{
	struct pipe *pp = k->pipe;

	pthread_mutex_lock(&pp->lock);
	while (first) {
		struct block *b = first;

		first = b->next;
		b->next = pp->free;
		pp->free = b;
	}
	pthread_mutex_unlock(&pp->lock);
}

/*
 * Hand blocks to the model thread, then wait until it has fewer than
 * NR_BLOCKS left to take: memory stays bounded however far the readers
 * are ahead.  Without a model thread they are taken here, as they come.
 */
void kineto_hand_blocks(struct kineto *k, struct block *first, uint32_t base)
{
	struct pipe *pp = k->pipe;
	struct block *last = NULL;
	size_t n = 0;

	for (struct block *b = first; b; b = b->next) {
		b->ordinal_base = base;
		last = b;
		n++;
	}
	if (!first)
		return;
	if (!pp->has_thread) {
		for (struct block *b = first; b; b = b->next)
			take_block(k, b);
		kineto_drop_blocks(k, first);
		return;
	}
	pthread_mutex_lock(&pp->lock);
	if (pp->tail)
		pp->tail->next = first;
	else
		pp->head = first;
	pp->tail = last;
	pp->nr_queued += n;
	pthread_cond_signal(&pp->full);
	while (pp->nr_queued >= NR_BLOCKS)
		pthread_cond_wait(&pp->empty, &pp->lock);
	pthread_mutex_unlock(&pp->lock);
}

/* The block being filled is full: pass it on, start another. */
static void pipe_publish(struct kineto *k)
{
	struct block *b = k->blk;

	k->blk = NULL;
	if (k->out) {
		if (k->out->last)
			k->out->last->next = b;
		else
			k->out->first = b;
		k->out->last = b;
	} else {
		kineto_hand_blocks(k, b, 0);
	}
}

void kineto_flush_reader(struct kineto *k)
{
	if (k->blk && k->blk->used) {
		pipe_publish(k);
	} else if (k->blk) {
		kineto_drop_blocks(k, k->blk);
		k->blk = NULL;
	}
}

/* What an event that is no kernel has of kernel args: zero bytes. */
static const struct kernel_args no_kernel_args;

/* Copy PART in at AT; where the next one goes. */
static char *put_part(char *at, const void *part, size_t size)
{
	memcpy(at, part, size);
	return at + part_room(size);
}

static void pipe_put(struct kineto *k, const struct raw_event *e)
{
	struct pipe *pp = k->pipe;
	/* Text only events that become op nodes use: shapes and stacks of
	 * host events, names of record_param_comms. */
	bool is_host = e->cat == CAT_OPERATOR || e->cat == CAT_ANNOTATION || e->cat == CAT_PYTHON;
	bool is_counter = e->cat == CAT_COUNTER;
	const struct strbuf *text[NR_TEXTS] = {
		is_counter ? &k->ctr_key : is_host && e->op.has_dims ? &k->dims_text : NULL,
		is_host && e->op.has_stack ? &k->stack_text : NULL,
		is_host && e->op.has_coll ? &k->coll_text : NULL,
		is_host && e->op.has_dtype ? &k->dtype_text : NULL,
	};
	struct msg_texts lens = { { 0 } };
	struct msg_op op = { 0 };
	size_t size = offsetof(struct ev_msg, rest) + e->name_len + 1;
	unsigned parts = 0;
	char *at;

	for (int i = 0; i < NR_TEXTS; i++) {
		lens.len[i] = text[i] && text[i]->len < UINT32_MAX / 4 ? (uint32_t)text[i]->len : 0;
		size += lens.len[i] + 1;
		if (lens.len[i])
			parts |= PART_TEXTS;
	}
	if (e->ext_id_lower != NO_ID)
		parts |= PART_EXT_LOWER;
	if (e->cat == CAT_MEMORY)
		parts |= PART_MEM;
	else if (memcmp(&e->ka, &no_kernel_args, sizeof(e->ka)))
		parts |= PART_KERNEL;
	op.comm_bytes = e->comm_bytes;
	op.in_nelems = e->op.in_nelems;
	op.out_nelems = e->op.out_nelems;
	op.group_size = e->op.group_size;
	op.has_nelems = e->op.has_nelems;
	if (op.comm_bytes != -1 || op.in_nelems || op.out_nelems || op.group_size || op.has_nelems)
		parts |= PART_OP;
	if (e->module_id)
		parts |= PART_MODULE;
	if (e->cat == CAT_GPU_ANNOTATION || is_counter)
		parts |= PART_PID;
	if (is_counter)
		parts |= PART_COUNTER;
	if (e->copy.has && (e->cat == CAT_MEMCPY || e->cat == CAT_MEMSET))
		parts |= PART_COPY;
	if (e->sync.has && e->cat == CAT_SYNC)
		parts |= PART_SYNC;
	if (parts & PART_EXT_LOWER)
		size += part_room(sizeof(e->ext_id_lower));
	if (parts & PART_KERNEL)
		size += part_room(sizeof(e->ka));
	if (parts & PART_MEM)
		size += part_room(sizeof(e->mem));
	if (parts & PART_OP)
		size += part_room(sizeof(op));
	if (parts & PART_MODULE)
		size += part_room(sizeof(e->module_id));
	if (parts & PART_PID)
		size += part_room(sizeof(e->pid));
	if (parts & PART_COPY)
		size += part_room(sizeof(e->copy));
	if (parts & PART_SYNC)
		size += part_room(sizeof(e->sync));
	if (parts & PART_COUNTER)
		size += part_room(sizeof(e->ctr_value));
	if (parts & PART_TEXTS)
		size += part_room(sizeof(lens));
	size = (size + 7) & ~(size_t)7;
	if (!k->blk)
		k->blk = block_get(pp);
	struct block *b = k->blk;
	struct ev_msg *m;

	if (b->used + size > b->cap && b->used) {
		pipe_publish(k);
		b = k->blk = block_get(pp);
	}
	if (size > b->cap) {
		/* A name longer than a block: this block grows to hold it. */
		char *data = xmalloc(size);

		block_release_data(b);
		b->data = data;
		b->cap = size;
		b->is_mapped = false;
	}
	m = (struct ev_msg *)(b->data + b->used);
	m->size = (uint32_t)size;
	m->name_len = (uint32_t)e->name_len;
	m->ordinal = e->ordinal;
	m->cat = (uint8_t)e->cat;
	m->has_module_id = e->has_module_id;
	m->parts = (uint16_t)parts;
	m->ts_ns = e->ts_ns;
	m->dur_ns = e->dur_ns;
	m->tid = e->tid;
	m->ext_id = e->ext_id;
	m->corr = e->corr;
	at = m->rest;
	if (parts & PART_EXT_LOWER)
		at = put_part(at, &e->ext_id_lower, sizeof(e->ext_id_lower));
	if (parts & PART_KERNEL)
		at = put_part(at, &e->ka, sizeof(e->ka));
	if (parts & PART_MEM)
		at = put_part(at, &e->mem, sizeof(e->mem));
	if (parts & PART_OP)
		at = put_part(at, &op, sizeof(op));
	if (parts & PART_MODULE)
		at = put_part(at, &e->module_id, sizeof(e->module_id));
	if (parts & PART_PID)
		at = put_part(at, &e->pid, sizeof(e->pid));
	if (parts & PART_COPY)
		at = put_part(at, &e->copy, sizeof(e->copy));
	if (parts & PART_SYNC)
		at = put_part(at, &e->sync, sizeof(e->sync));
	if (parts & PART_COUNTER)
		at = put_part(at, &e->ctr_value, sizeof(e->ctr_value));
	if (parts & PART_TEXTS)
		at = put_part(at, &lens, sizeof(lens));
	memcpy(at, e->name_text, e->name_len);
	at[e->name_len] = '\0';
	at += e->name_len + 1;
	for (int i = 0; i < NR_TEXTS; i++) {
		if (lens.len[i])
			memcpy(at, text[i]->s, lens.len[i]);
		at[lens.len[i]] = '\0';
		at += lens.len[i] + 1;
	}
	b->used += size;
}

/* Hand over the last block, wait until the model has taken everything. */
static void pipe_finish(struct kineto *k)
{
	struct pipe *pp = k->pipe;

	kineto_flush_reader(k);
	if (pp->has_thread) {
		pthread_mutex_lock(&pp->lock);
		pp->done = true;
		pthread_cond_signal(&pp->full);
		pthread_mutex_unlock(&pp->lock);
		pthread_join(pp->thread, NULL);
	}
	diag_unhold(k->d);
	while (pp->free) {
		struct block *b = pp->free;

		pp->free = b->next;
		block_free(b);
	}
	pthread_mutex_destroy(&pp->lock);
	pthread_cond_destroy(&pp->full);
	pthread_cond_destroy(&pp->empty);
	free(pp);
	k->pipe = NULL;
}

/* ---------------------------------------------------------------------
 * The event list, deviceProperties and distributedInfo
 */

/* Keep a copy of the name token: the buffer moves on with the next one. */
static void keep_name(struct kineto *k, struct raw_event *e)
{
	struct json *j = &k->j;

	if (j->len + 1 > k->name_cap) {
		k->name_cap = j->len + 1 > 2 * k->name_cap ? j->len + 1 : 2 * k->name_cap;
		k->name_buf = xrealloc(k->name_buf, k->name_cap);
	}
	memcpy(k->name_buf, j->s, j->len);
	k->name_buf[j->len] = '\0';
	e->name_text = k->name_buf;
	e->name_len = j->len;
}

/*
 * What a collective (nccl:all_reduce...) moved, as torch-tb-profiler's
 * Distributed view sizes it (communication.py): over its inputs, the
 * element count ("Input Dims") times the element size of its "Input
 * type" (0 for a type the plugin does not know).  -1 when the event is
 * no collective or has no shapes.
 */
static int64_t comm_bytes(const struct kineto *k, const struct raw_event *e)
{
	int64_t sum = 0;

	if (!e->name_text || !collective_lib(e->name_text, e->name_len) || !e->op.has_dims ||
	    !e->op.dims_sized)
		return -1;
	for (size_t i = 0; i < e->op.nr_elems; i++) {
		int64_t size = i < e->op.nr_sizes ? k->in_size[i] : 0;

		if (size && k->in_elems[i] > (INT64_MAX / 4 - sum) / size)
			return -1;	/* beyond any real message */
		sum += k->in_elems[i] * size;
	}
	return sum;
}

/* ---------------------------------------------------------------------
 * Counter events ("ph":"C")
 *
 * Each numeric arg of a counter event is a sample of the series (pid,
 * name, key): its value from the event's ts on (model/counters.h).  The
 * args are read as a counter's only once "ph" said so -- Kineto and the
 * plugin write "ph" first -- so that no other event pays for them.
 */
enum ctr_state { CTR_OK, CTR_NOT_NUMBER, CTR_NOT_FINITE, CTR_OUT_OF_RANGE };

struct ctr_arg {
	size_t off, len;		/* the key, in k->ctr_keys */
	double value;
	uint8_t state;			/* enum ctr_state */
};

/* The value just read, as a counter's: a number (quoted or not, as some
 * writers quote), finite, within BOUND_COUNTER_ABS. */
static enum ctr_state ctr_value(const struct json *j, enum json_tok t, double *v)
{
	if ((t != JSON_NUMBER && t != JSON_STRING) || !num_double(j->s, j->len, v))
		return CTR_NOT_NUMBER;
	if (!isfinite(*v))
		return CTR_NOT_FINITE;
	return fabs(*v) <= BOUND_COUNTER_ABS ? CTR_OK : CTR_OUT_OF_RANGE;
}

static enum json_tok read_counter_args(struct kineto *k, struct raw_event *e)
{
	struct json *j = &k->j;
	enum json_tok t;

	k->nr_ctr = 0;
	strbuf_reset(&k->ctr_keys);
	e->ctr_read = true;
	while ((t = json_next_key(j)) == JSON_KEY) {
		struct ctr_arg *a;

		GROW(k->ctr, k->alloc_ctr, k->nr_ctr + 1);
		a = &k->ctr[k->nr_ctr++];
		a->off = k->ctr_keys.len;
		a->len = j->len;
		strbuf_add(&k->ctr_keys, j->s, j->len);
		t = json_next_value(j);
		if (json_failed(t))
			return t;
		a->state = (uint8_t)ctr_value(j, t, &a->value);
		t = json_skip(j, t);
		if (json_failed(t))
			return t;
	}
	return t;
}

/* Whether counter event E has a usable name and time; warns if not. */
static bool counter_ok(struct kineto *k, const struct raw_event *e, uint64_t at)
{
	const char *name = e->name_text;

	if (!name || e->ts_state == NO_TIME) {
		warn_event(k, at, "counter events without a name or timestamp, skipped",
			   "counter event without %s; skipped", name ? "'ts'" : "'name'");
		return false;
	}
	if (e->ts_state == BAD_TIME) {
		warn_event(k, at, "counter events with a time that is not a number, skipped",
			   "counter event '%s' has 'ts' %s, not a number; skipped", name, e->bad_text);
		return false;
	}
	if (!ts_in_bounds(e)) {
		warn_event(k, at, "counter events with a time out of range, skipped",
			   "counter event '%s' has 'ts' %g us, out of range (|ts| < %g us); skipped",
			   name, e->ts_us, MAX_ABS_TS_US);
		return false;
	}
	if (!e->ctr_read) {
		warn_event(k, at, "counter events without args after their ph, skipped",
			   "counter event '%s' has no 'args' after its 'ph' (a counter's args are "
			   "read once 'ph' says it is one); skipped", name);
		return false;
	}
	return true;
}

/* A counter event: one message per numeric arg; an arg that is not a
 * finite number in range is dropped with a warning, never read as 0. */
static void take_counter(struct kineto *k, struct raw_event *e, uint64_t at)
{
	if (!counter_ok(k, e, at))
		return;
	e->cat = CAT_COUNTER;
	e->has_cat = true;
	e->comm_bytes = -1;
	for (size_t i = 0; i < k->nr_ctr; i++) {
		const struct ctr_arg *a = &k->ctr[i];
		const char *key = k->ctr_keys.s + a->off;
		int klen = a->len < 40 ? (int)a->len : 40;

		switch ((enum ctr_state)a->state) {
		case CTR_OK:
			strbuf_reset(&k->ctr_key);
			strbuf_add(&k->ctr_key, key, a->len);
			e->ctr_value = a->value;
			pipe_put(k, e);
			break;
		case CTR_NOT_NUMBER:
		case CTR_NOT_FINITE:
			warn_event(k, at, "counter values that are not finite numbers, skipped",
				   "counter event '%s' has arg '%.*s' that is not a finite number; "
				   "skipped", e->name_text, klen, key);
			break;
		case CTR_OUT_OF_RANGE:
			warn_event(k, at, "counter values out of range, skipped",
				   "counter event '%s' has arg '%.*s' = %g, out of range (|value| <= "
				   "1e18); skipped", e->name_text, klen, key, a->value);
			break;
		}
	}
}

/* The members of an event read_event() takes. */
enum member { M_OTHER, M_PH, M_CAT, M_NAME, M_TS, M_DUR, M_TID, M_PID, M_ARGS };

/* Which member the key S[0..N) names: by its length, then one compare
 * of a few bytes (a memcmp() of constant size is one load). */
static inline enum member member_of(const char *s, size_t n)
{
	switch (n) {
	case 2:
		return !memcmp(s, "ph", 2) ? M_PH : !memcmp(s, "ts", 2) ? M_TS : M_OTHER;
	case 3:
		return !memcmp(s, "cat", 3) ? M_CAT : !memcmp(s, "dur", 3) ? M_DUR
		       : !memcmp(s, "tid", 3) ? M_TID : !memcmp(s, "pid", 3) ? M_PID : M_OTHER;
	case 4:
		return !memcmp(s, "name", 4) ? M_NAME : !memcmp(s, "args", 4) ? M_ARGS : M_OTHER;
	}
	return M_OTHER;
}

static enum json_tok read_event(struct kineto *k)
{
	struct json *j = &k->j;
	struct raw_event e = { .ext_id = NO_ID, .ext_id_lower = NO_ID, .corr = NO_ID, .pid = -1 };
	uint64_t at = json_mark(j);
	enum json_tok t;

	while ((t = json_next_key(j)) == JSON_KEY) {
		enum member m = member_of(j->s, j->len);

		if (m == M_OTHER) {
			t = json_skip_value(j);
			if (json_failed(t))
				return t;
			continue;
		}
		t = json_next_value(j);
		switch (m) {
		case M_PH:
			e.ph = t != JSON_STRING ? 0 : j->len == 1 && j->s[0] > ' ' && j->s[0] < 127 ? j->s[0] : 1;
			e.is_complete = e.ph == 'X';
			break;
		case M_CAT:
			if (t == JSON_STRING) {
				e.has_cat = true;
				e.cat = read_cat(k->unused, j->s, j->len, &e.slot);
			}
			break;
		case M_NAME:
			if (t == JSON_STRING)
				keep_name(k, &e);
			break;
		case M_TS:
			e.ts_state = (uint8_t)read_us(k, t, &e, &e.ts_us, &e.ts_ns);
			break;
		case M_DUR:
			e.dur_state = (uint8_t)read_us(k, t, &e, &e.dur_us, &e.dur_ns);
			break;
		case M_TID:
			e.tid = read_tid(k, t);
			break;
		case M_PID:
			/* Only a GPU-side range uses it (its device): not
			 * read once the category says the event is another. */
			if (!e.has_cat || e.cat == CAT_GPU_ANNOTATION || e.ph == 'C')
				e.pid = read_tid(k, t);
			break;
		case M_ARGS:
			if (t == JSON_OBJ_BEGIN && e.ph == 'C') {
				t = read_counter_args(k, &e);
				if (t != JSON_OBJ_END)
					return t;
				continue;
			}
			if (t == JSON_OBJ_BEGIN) {
				t = read_args(k, &e);
				if (t != JSON_OBJ_END)
					return t;
				continue;
			}
			break;
		case M_OTHER:
			break;
		}
		t = json_skip(j, t);
		if (json_failed(t))
			return t;
	}
	if (t != JSON_OBJ_END)
		return t;
	e.ordinal = k->nr_events++;
	if (e.ph == 'C') {
		take_counter(k, &e, at);
		return JSON_OBJ_END;
	}
	e.comm_bytes = comm_bytes(k, &e);
	switch (check_event(k, &e, at)) {
	case TAKE:
		pipe_put(k, &e);
		break;
	case NOT_USED:
		count_unused(k->unused, &e);
		break;
	case SKIPPED:
		break;
	}
	return JSON_OBJ_END;
}

enum json_tok kineto_read_list(struct kineto *k)
{
	enum json_tok t;

	if (!k->unused)
		k->unused = xcalloc(1, sizeof(*k->unused));
	while ((t = json_next_element(&k->j)) != JSON_ARR_END) {
		if (t == JSON_OBJ_BEGIN) {
			t = read_event(k);
			if (t != JSON_OBJ_END)
				return t;
		} else {
			uint64_t mark;

			if (json_failed(t))
				return t;
			/* A chunk's end may cut a number short ("1" of "123"):
			 * the reading in file order will tell. */
			if (k->out && t >= JSON_NUMBER && t <= JSON_BARE &&
			    k->j.in->cur == k->j.in->end)
				return JSON_EOF;
			if (!k->out) {
				struct pos at = here(k);

				diag_warn(k->d, &at, "trace events that are not objects, skipped",
					  "trace event is not an object; skipped");
			}
			mark = json_mark(&k->j);
			t = json_skip(&k->j, t);
			if (json_failed(t))
				return t;
			/* A chunk's reader keeps the warning only once the
			 * element is whole: one its bytes cut short ("[1, {")
			 * is read again in file order, which warns then. */
			if (k->out && keep_warning(k->out, "trace events that are not objects, skipped",
						   mark))
				k->out->warnings[k->out->nr_warnings - 1].msg =
					xstrdup("trace event is not an object; skipped");
		}
		if (k->at_boundary && k->at_boundary(k))
			return JSON_OBJ_END;
	}
	return t;
}

void kineto_events_start(struct kineto *k)
{
	if (!k->unused)
		k->unused = xcalloc(1, sizeof(*k->unused));
	/* From here on, lines are counted only for a message that needs a
	 * place (where the file can be read again). */
	input_lines_by_need(k->j.in);
	pipe_start(k);
}

void kineto_events_finish(struct kineto *k)
{
	pipe_finish(k);
}

/* One member of a deviceProperties entry into D, when it is one the
 * model knows (numbers only; the name is taken by the caller). */
static void device_prop(struct device_info *d, const char *key, int64_t v)
{
	static const struct {
		const char *key;
		size_t off;
		bool is64;
	} props[] = {
#define PROP(key, field, is64) { key, offsetof(struct device_info, field), is64 }
		PROP("id", id, false),
		PROP("totalGlobalMem", total_memory_bytes, true),
		PROP("computeMajor", cc_major, false),
		PROP("computeMinor", cc_minor, false),
		PROP("numSms", num_sms, false),
		PROP("maxThreadsPerMultiprocessor", max_threads_per_sm, false),
		PROP("maxThreadsPerBlock", max_threads_per_block, false),
		PROP("regsPerMultiprocessor", regs_per_sm, false),
		PROP("warpSize", warp_size, false),
		PROP("sharedMemPerMultiprocessor", shared_mem_per_sm_bytes, true),
		/* ROCm's spelling */
		PROP("maxSharedMemoryPerMultiProcessor", shared_mem_per_sm_bytes, true),
#undef PROP
	};

	for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
		if (strcmp(key, props[i].key))
			continue;
		if (props[i].is64) {
			int64_t v64 = v;

			memcpy((char *)d + props[i].off, &v64, sizeof(v64));
		} else if (v <= INT32_MAX) {
			int32_t v32 = (int32_t)v;

			memcpy((char *)d + props[i].off, &v32, sizeof(v32));
		}
		return;
	}
}

/*
 * deviceProperties: one object per GPU of the machine.  Each becomes a
 * device of the model (the Overview names it, the tensor-core and memory
 * rules read it) and its scalars go to Info as the file gives them.
 */
enum json_tok kineto_read_device_props(struct kineto *k)
{
	struct json *j = &k->j;
	enum json_tok t;
	int nr = 0;

	while ((t = json_next(j)) == JSON_OBJ_BEGIN) {
		char section[32];
		struct device_info *d = profile_add_device(k->p, nr);

		snprintf(section, sizeof(section), "device %d", nr++);
		while ((t = json_next(j)) == JSON_KEY) {
			char key[64];
			bool is_name = json_is(j, "name");

			snprintf(key, sizeof(key), "%.*s", (int)(j->len < 63 ? j->len : 63), j->s);
			t = json_next(j);
			if (t == JSON_STRING || t == JSON_NUMBER) {
				char *v = xstrndup(j->s, j->len);
				int64_t iv;

				profile_meta(k->p, section, key, v);
				free(v);
				if (is_name && t == JSON_STRING)
					d->name = profile_intern(k->p, j->s, j->len);
				else if (t == JSON_NUMBER && num_int(j->s, j->len, &iv) && iv >= 0)
					device_prop(d, key, iv);
			}
			t = json_skip(j, t);
			if (json_failed(t))
				return t;
		}
		if (t != JSON_OBJ_END)
			return t;
	}
	if (t != JSON_ARR_END) {
		if (!json_failed(t))
			t = json_skip(j, t);
	}
	return t;
}

/*
 * A distributedInfo rank (LO 0) or world size (LO 1) into *V: a whole
 * number from LO to INT32_MAX as the file writes it ("2", "2.0", "2e0").
 * Never rounded: a rank of 2.5 is no rank, not rank 3.
 */
static bool read_dist_int(struct kineto *k, enum json_tok t, int64_t lo, int64_t *v)
{
	double d;

	if ((t == JSON_NUMBER || t == JSON_STRING) && num_int(k->j.s, k->j.len, v))
		return *v >= lo && *v <= INT32_MAX;
	/* NaN and the infinities fail the range test. */
	if (t != JSON_NUMBER || !num_double(k->j.s, k->j.len, &d) || !(d >= lo && d <= INT32_MAX) ||
	    d != floor(d))
		return false;
	*v = (int64_t)d;
	return true;
}

#define DIST_WARNING "distributedInfo ranks or world sizes that are not one, taken as unknown"

/* Take distributedInfo's rank or world size (IS_RANK says which) from the
 * current value into DI; a value that is not one is a warning, and the
 * field stays unknown (-1).  *RANK_AT: where the rank was. */
static void take_dist_int(struct kineto *k, enum json_tok t, bool is_rank, uint64_t *rank_at)
{
	struct dist_info *di = &k->p->dist;
	uint64_t at = json_mark(&k->j);
	int64_t v;

	if (read_dist_int(k, t, is_rank ? 0 : 1, &v)) {
		*(is_rank ? &di->rank : &di->world_size) = (int32_t)v;
		if (is_rank)
			*rank_at = at;
		return;
	}
	/* The text of a number, a string or a bare word; what else it is. */
	bool has_text = t == JSON_NUMBER || t == JSON_STRING || t == JSON_BARE;
	const char *what = t == JSON_NULL ? "null" : t == JSON_TRUE || t == JSON_FALSE ? "a boolean"
						  : "an object or array";

	warn_event(k, at, DIST_WARNING,
		   "distributedInfo %s %s%.*s%s is not a whole number from %d to 2147483647; the "
		   "trace's %s is taken as unknown", is_rank ? "rank" : "world_size",
		   has_text ? "'" : what, has_text ? (int)(k->j.len < 40 ? k->j.len : 40) : 0,
		   has_text ? k->j.s : "", has_text ? "'" : "", is_rank ? 0 : 1,
		   is_rank ? "rank" : "world size");
}

/*
 * distributedInfo: which rank of which job the trace is (the Ranks pane
 * and the Distributed view need backend, rank and world size).  Its
 * scalars go to Info as the file gives them; pg_config, a list of every
 * process group with every rank in it, is skipped.  A rank or world size
 * that is not one (2.5, -1, a rank not below the world size) leaves the
 * rank unknown, with a warning: never a rank the file did not give.
 */
enum json_tok kineto_read_dist_info(struct kineto *k)
{
	struct json *j = &k->j;
	struct dist_info *di = &k->p->dist;
	uint64_t rank_at = 0;
	enum json_tok t;

	di->present = true;
	while ((t = json_next(j)) == JSON_KEY) {
		char key[64];
		bool is_backend = json_is(j, "backend"), is_rank = json_is(j, "rank");
		bool is_world = json_is(j, "world_size");

		snprintf(key, sizeof(key), "%.*s", (int)(j->len < 63 ? j->len : 63), j->s);
		t = json_next(j);
		if (t == JSON_STRING || t == JSON_NUMBER) {
			char *text = xstrndup(j->s, j->len);

			profile_meta(k->p, "distributed", key, text);
			free(text);
		}
		if (is_backend && t == JSON_STRING)
			di->backend = profile_intern(k->p, j->s, j->len);
		else if (is_rank || is_world)
			take_dist_int(k, t, is_rank, &rank_at);
		t = json_skip(j, t);
		if (json_failed(t))
			return t;
	}
	if (di->rank >= 0 && di->world_size > 0 && di->rank >= di->world_size) {
		warn_event(k, rank_at, DIST_WARNING,
			   "distributedInfo rank %d is not below its world_size %d; the trace's rank "
			   "is taken as unknown", (int)di->rank, (int)di->world_size);
		di->rank = -1;
	}
	return t;
}

/* The name of SLOT for Info. */
static const char *slot_name(const struct unused *u, size_t slot)
{
	switch (slot) {
	case SLOT_NONE:
		return "no category";
	case SLOT_MEMORY:
		return "[memory]";
	case SLOT_OTHER:
		return "other categories";
	default:
		return u->name[slot];
	}
}

void kineto_set_origin(struct kineto *k)
{
	if (k->origin_ns == INT64_MAX)
		return;
	k->p->has_time_origin = true;
	k->p->time_origin_ns = k->origin_ns;
}

void kineto_report_unused(struct kineto *k)
{
	const struct unused *u = k->unused;
	char key[CAT_NAME_MAX + 32], v[32];

	for (size_t i = 0; u && i < u->nr_order; i++) {
		size_t slot = u->order[i];

		for (int ph = 0; ph < NR_PH; ph++) {
			const char *name = slot_name(u, slot);

			if (!u->count[slot][ph])
				continue;
			if (ph == 0)
				snprintf(key, sizeof(key), "%s (no ph)", name);
			else if (ph == 1)
				snprintf(key, sizeof(key), "%s (ph not one letter)", name);
			else
				snprintf(key, sizeof(key), "%s (ph %c)", name, '!' + ph - 2);
			snprintf(v, sizeof(v), "%llu", (unsigned long long)u->count[slot][ph]);
			profile_meta(k->p, "events not used", key, v);
		}
	}
	if (k->nr_gpu_step_copies) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)k->nr_gpu_step_copies);
		profile_meta(k->p, "events not used", "GPU-side copies of ProfilerStep (not steps)", v);
	}
}
