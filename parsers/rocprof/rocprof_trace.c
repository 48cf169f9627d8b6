// SPDX-License-Identifier: MIT
/*
 * rocprof traces (doc/formats/rocprof.md): one record per kernel dispatch
 * or per HIP call, with its start and end in nanoseconds.
 *
 *   rocprof (v1) results.csv    "Index","KernelName","gpu-id","queue-id",
 *                               ...,"BeginNs","EndNs",...
 *   rocprofv2 (file plugin)      Dispatch_ID,GPU_ID,Queue_ID,...,
 *                               Kernel_Name,Start_Timestamp,End_Timestamp,...
 *   rocprofv3 *_kernel_trace.csv "Kind","Agent_Id","Queue_Id",...,
 *                               "Kernel_Name","Correlation_Id",
 *                               "Start_Timestamp","End_Timestamp",...
 *   rocprofv3 *_hip_api_trace.csv "Domain","Function","Process_Id",
 *                               "Thread_Id","Correlation_Id",
 *                               "Start_Timestamp","End_Timestamp"
 *
 * Columns are found by their titles, so rocpd's CSV (a "Guid" first) and
 * the versions that add or drop columns read alike.  A kernel becomes a
 * device node on the Timeline, one lane per GPU (gpu-id, Agent_Id: "4"
 * or "Agent 4") and queue; the Kernels pane aggregates them by name.  A
 * HIP call becomes a runtime node on its thread, a roctx range (the
 * marker trace has the HIP trace's header) an annotation.  A run's
 * kernel and HIP API traces given together make one profile, where a
 * kernel goes under the call of its Correlation_Id (link_calls()).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
#include "../../model/keyindex.h"
#include "../../model/util.h"
#include "../num.h"
#include "../parser.h"
#include "rocprof.h"

enum { T_NAME, T_DEVICE, T_QUEUE, T_START, T_END, T_TID, T_CORR, NR_T };

/* The columns of each layout: title per role, NULL where it has none.
 * The API trace first: rocprofv2's has a Kernel_Name column too. */
static const char *const layouts[][NR_T] = {
	{ "Function", NULL, NULL, "Start_Timestamp", "End_Timestamp", "Thread_Id",
	  "Correlation_Id" },
	{ "KernelName", "gpu-id", "queue-id", "BeginNs", "EndNs", "tid", NULL },
	{ "Kernel_Name", "GPU_ID", "Queue_ID", "Start_Timestamp", "End_Timestamp", "TID",
	  "Correlation_ID" },
	{ "Kernel_Name", "Agent_Id", "Queue_Id", "Start_Timestamp", "End_Timestamp", "Thread_Id",
	  "Correlation_Id" },
	/* rocprofv3 *_memory_copy_trace.csv: the device is the GPU end of
	 * the copy (Destination_Agent_Id from the host, else the source). */
	{ "Direction", "Source_Agent_Id", "Stream_Id", "Start_Timestamp", "End_Timestamp", NULL,
	  "Correlation_Id" },
};

enum { L_V3_API, L_V1_KERNEL, L_V2_KERNEL, L_V3_KERNEL, L_V3_COPY, NR_L };

/*
 * A kernel's resources and sizes, kept as its attributes under the keys
 * here, each as the file gives it (doc/formats/rocprof.md): the titles
 * of the column in rocprof (v1), rocprofv2 and rocprofv3, any of which
 * may be absent.  Sizes of the grid are in work-items, as ROCm counts
 * them (not CUDA's blocks), so they are not a launch's grid.
 */
static const struct {
	const char *key;
	const char *titles[3];
} kattrs[] = {
	{ "grid_size", { "grd", "GRD", NULL } },
	{ "grid_size_x", { "Grid_Size_X", NULL, NULL } },
	{ "grid_size_y", { "Grid_Size_Y", NULL, NULL } },
	{ "grid_size_z", { "Grid_Size_Z", NULL, NULL } },
	{ "workgroup_size", { "wgr", "WGR", NULL } },
	{ "workgroup_size_x", { "Workgroup_Size_X", NULL, NULL } },
	{ "workgroup_size_y", { "Workgroup_Size_Y", NULL, NULL } },
	{ "workgroup_size_z", { "Workgroup_Size_Z", NULL, NULL } },
	{ "lds_bytes", { "lds", "LDS", "LDS_Block_Size" } },
	{ "scratch_bytes", { "scr", "SCR", "Scratch_Size" } },
	{ "vgpr", { "arch_vgpr", "Arch_VGPR", "VGPR_Count" } },
	{ "accum_vgpr", { "accum_vgpr", "ACCUM_VGPR", "Accum_VGPR_Count" } },
	{ "sgpr", { "sgpr", "SGPR", "SGPR_Count" } },
};

#define NR_KATTRS (sizeof(kattrs) / sizeof(kattrs[0]))

/* A record, until all are read and sorted by start. */
struct rec {
	const char *name;		/* interned */
	int64_t start, end;
	int64_t device, queue, tid;	/* -1: not given */
	int64_t corr;			/* -1: not given */
	uint64_t lineno;
	bool marker;			/* a MARKER_ domain's row: roctx */
	int64_t *kattr;			/* a kernel's NR_KATTRS values, -1: not
					   given; NULL when none is */
};

struct trace {
	struct profile *p;
	struct diag *d;
	int layout;
	int col[NR_T];
	int domain_col;			/* the API trace's Domain */
	int dst_col;			/* the copy trace's Destination_Agent_Id */
	int kattr_col[NR_KATTRS];	/* -1: no such column */
	bool any_kattr;
	int nr_cols;
	struct rec *v;
	size_t nr, alloc;
	bool queue_renumbered;
};

/*
 * What the files of one run keep for each other (profile.family_state):
 * each kernel dispatch and HIP call that has a Correlation_Id, with its
 * node and thread, so that whichever file comes last links them.
 */
struct jrec {
	struct node *n;
	int64_t corr, tid;
	bool call, tried;	/* tried: a kernel matched against the calls */
};

struct join {
	struct jrec *v;
	size_t nr, alloc;
	size_t nr_calls, nr_kernels;
};

static void join_free(void *state)
{
	struct join *j = state;

	free(j->v);
	free(j);
}

static struct join *join_of(struct profile *p)
{
	if (!p->family_state) {
		p->family_state = xcalloc(1, sizeof(struct join));
		p->family_state_free = join_free;
	}
	return p->family_state;
}

static void join_add(struct profile *p, struct node *n, const struct rec *r, bool call)
{
	struct join *j = join_of(p);

	GROW(j->v, j->alloc, j->nr + 1);
	j->v[j->nr++] = (struct jrec){ .n = n, .corr = r->corr, .tid = r->tid, .call = call };
	if (call)
		j->nr_calls++;
	else
		j->nr_kernels++;
}

static int layout_of(const struct field *f, int nr, int *col)
{
	for (int l = 0; l < NR_L; l++) {
		bool ok = true;

		for (int c = 0; c < NR_T && ok; c++) {
			col[c] = layouts[l][c] ? rocprof_col(f, nr, layouts[l][c]) : -1;
			/* name, start and end are what a record needs */
			if ((c == T_NAME || c == T_START || c == T_END) && col[c] < 0)
				ok = false;
		}
		if (ok && l == L_V3_API && rocprof_col(f, nr, "Domain") < 0)
			ok = false;
		if (ok && l == L_V3_COPY &&
		    (col[T_DEVICE] < 0 || rocprof_col(f, nr, "Destination_Agent_Id") < 0))
			ok = false;
		/* rocprofv2's kernels are told from rocprofv3's by GPU_ID */
		if (ok && l == L_V2_KERNEL && col[T_DEVICE] < 0)
			ok = false;
		if (ok)
			return l;
	}
	return -1;
}

static int bad(struct trace *t, uint64_t lineno, const struct field *f, const char *what)
{
	struct pos at = { lineno, f->col + 1 };

	diag_error(t->d, &at, "value '%.*s' is not %s", (int)(f->len > 40 ? 40 : f->len), f->s,
		   what);
	return -1;
}

/* An id: "4", or rocprofv3's "Agent 4". */
static int id_cell(struct trace *t, uint64_t lineno, const struct field *f, int64_t *v)
{
	const char *s = f->s;
	size_t n = f->len;

	if (text_starts(s, n, "Agent "))
		s += 6, n -= 6;
	if (!num_int(s, n, v) || *v < 0)
		return bad(t, lineno, f, "an id");
	return 0;
}

/* A kernel's size or count: a whole number, 0 or more, within 2^62. */
static int size_cell(struct trace *t, uint64_t lineno, const struct field *f, int64_t *v)
{
	if (!num_int(f->s, f->len, v) || *v < 0 || *v >= BOUND_ABS_TS_NS)
		return bad(t, lineno, f, "a size within 2^62");
	return 0;
}

static int ts_cell(struct trace *t, uint64_t lineno, const struct field *f, int64_t *v)
{
	if (!num_int(f->s, f->len, v))
		return bad(t, lineno, f, "an integer");
	if (*v < 0 || *v >= BOUND_ABS_TS_NS)
		return bad(t, lineno, f, "a timestamp within 2^62 ns");
	return 0;
}

static int record(struct trace *t, uint64_t lineno, const struct field *f, int nr)
{
	const int *col = t->col;
	struct rec r = { .device = -1, .queue = -1, .tid = -1, .corr = -1, .lineno = lineno };
	const struct field *name = &f[col[T_NAME]];

	if (nr != t->nr_cols) {
		struct pos at = { lineno, 1 };

		diag_error(t->d, &at, "%d fields where the header has %d", nr, t->nr_cols);
		return -1;
	}
	if (ts_cell(t, lineno, &f[col[T_START]], &r.start) ||
	    ts_cell(t, lineno, &f[col[T_END]], &r.end))
		return -1;
	if (col[T_DEVICE] >= 0 && id_cell(t, lineno, &f[col[T_DEVICE]], &r.device))
		return -1;
	if (col[T_QUEUE] >= 0 && id_cell(t, lineno, &f[col[T_QUEUE]], &r.queue))
		return -1;
	if (col[T_TID] >= 0 && id_cell(t, lineno, &f[col[T_TID]], &r.tid))
		return -1;
	if (col[T_CORR] >= 0 && id_cell(t, lineno, &f[col[T_CORR]], &r.corr))
		return -1;
	if (t->dst_col >= 0 && text_starts(name->s, name->len, "HOST_TO_") &&
	    id_cell(t, lineno, &f[t->dst_col], &r.device))
		return -1;
	if (r.end < r.start || !bound_dur_ok(r.end - r.start)) {
		struct pos at = { lineno, f[col[T_END]].col + 1 };

		diag_warn(t->d, &at, "records that end before they start, skipped",
			  "'%.*s' ends before it starts; skipped",
			  (int)(name->len > 60 ? 60 : name->len), name->s);
		return 0;
	}
	if (!name->len) {
		struct pos at = { lineno, name->col + 1 };

		diag_error(t->d, &at, "a record without a name");
		return -1;
	}
	if (t->any_kattr) {
		r.kattr = xmalloc(NR_KATTRS * sizeof(*r.kattr));
		for (size_t k = 0; k < NR_KATTRS; k++) {
			r.kattr[k] = -1;
			if (t->kattr_col[k] >= 0 &&
			    size_cell(t, lineno, &f[t->kattr_col[k]], &r.kattr[k])) {
				free(r.kattr);
				return -1;
			}
		}
	}
	if (t->domain_col >= 0) {
		const struct field *dom = &f[t->domain_col];

		r.marker = text_starts(dom->s, dom->len, "MARKER_");
	}
	if (t->layout == L_V3_COPY) {
		/* As rocprofv3's copy statistics name it: the row of the
		 * same copies in *_memory_copy_stats.csv. */
		char buf[160];
		size_t n = name->len > 100 ? 100 : name->len;

		memcpy(buf, "MEMORY_COPY_", 12);
		memcpy(buf + 12, name->s, n);
		r.name = profile_intern(t->p, buf, 12 + n);
	} else {
		r.name = profile_intern(t->p, name->s, name->len);
	}
	GROW(t->v, t->alloc, t->nr + 1);
	t->v[t->nr++] = r;
	return 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Of two marker ranges that start together the longer holds the
	 * other: it comes first. */
	if (x->marker && y->marker && x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

/* A queue id as a lane's stream: the file's number when it fits, else
 * (rocprofv3 before 6.2 wrote the queue's address) the queue's place
 * among those of the file, in order of first dispatch. */
static int32_t lane_of(struct trace *t, int64_t queue, int64_t *seen, size_t *nr_seen)
{
	if (queue <= INT32_MAX)
		return (int32_t)queue;
	for (size_t i = 0; i < *nr_seen; i++)
		if (seen[i] == queue)
			return (int32_t)i;
	t->queue_renumbered = true;
	seen[*nr_seen] = queue;
	return (int32_t)(*nr_seen)++;
}

static struct node *parent_of(struct trace *t, const struct rec *r, struct node **last_parent,
			      int64_t *last_key)
{
	int64_t key = t->layout == L_V3_API ? r->tid : r->device;
	char name[48];

	if (*last_parent && key == *last_key)
		return *last_parent;
	if (t->layout == L_V3_API) {
		if (key >= 0)
			snprintf(name, sizeof(name), "thread %lld", (long long)key);
		else
			snprintf(name, sizeof(name), "thread");
		*last_parent = node_child(t->p, t->p->root, NODE_THREAD,
					  profile_intern(t->p, name, strlen(name)));
	} else {
		if (key >= 0)
			snprintf(name, sizeof(name), "GPU %lld", (long long)key);
		else
			snprintf(name, sizeof(name), "GPU");
		*last_parent = node_child(t->p, t->p->root, NODE_GROUP,
					  profile_intern(t->p, name, strlen(name)));
	}
	(*last_parent)->flags |= NODE_NOT_A_ROW;
	*last_key = key;
	return *last_parent;
}

/* A marker range still open on its thread, while later ones may nest. */
struct open_range {
	struct node *n;
	int64_t start, end;
	int64_t covered_end;		/* the end of its children so far */
	int64_t child_ns;		/* its time its children cover */
};

struct marker_stack {
	struct open_range *v;
	size_t nr, alloc;
};

/* The open ranges of each thread, by Thread_Id. */
struct marker_stacks {
	struct key_index by_tid;
	struct marker_stack *v;
	size_t nr, alloc;
	uint64_t nr_crossing;		/* ranges that outlast one they start in */
};

static struct marker_stack *stack_of(struct marker_stacks *ms, int64_t tid)
{
	size_t i = key_index_get(&ms->by_tid, (uint64_t)tid);

	if (i == KEY_INDEX_NONE) {
		GROW(ms->v, ms->alloc, ms->nr + 1);
		ms->v[ms->nr] = (struct marker_stack){ 0 };
		i = ms->nr++;
		key_index_put(&ms->by_tid, (uint64_t)tid, i);
	}
	return &ms->v[i];
}

/* Whether the open range O holds R whole (a mark at O's very end does
 * not: it comes after). */
static bool holds(const struct open_range *o, const struct rec *r)
{
	return o->start <= r->start && r->end <= o->end && r->start < o->end;
}

/*
 * A marker range's parent on its thread: the innermost open range that
 * holds it whole, else the thread.  Ranges that ended before it are
 * closed; one that it starts inside but outlasts (they cross: roctx
 * ranges of two libraries, or a pop out of order) is closed too and
 * counted, so R goes up to the nearest range that holds it whole and no
 * range's self time counts another's.  Pushes R's node N once made.
 */
static struct node *marker_parent(struct marker_stacks *ms, const struct rec *r,
				  struct node *thread, struct marker_stack **out)
{
	struct marker_stack *st = stack_of(ms, r->tid);
	bool crossing = false;

	while (st->nr && !holds(&st->v[st->nr - 1], r)) {
		const struct open_range *top = &st->v[st->nr - 1];

		crossing |= top->start <= r->start && r->start < top->end && top->end < r->end;
		st->nr--;
	}
	ms->nr_crossing += crossing;
	*out = st;
	return st->nr ? st->v[st->nr - 1].n : thread;
}

/* Push R's node N on ST, and take its time out of its parent's self. */
static void marker_push(struct profile *p, struct marker_stack *st, const struct rec *r,
			struct node *n)
{
	if (st->nr) {
		struct open_range *top = &st->v[st->nr - 1];
		int64_t from = r->start > top->covered_end ? r->start : top->covered_end;

		if (r->end > from) {
			top->child_ns += r->end - from;
			top->covered_end = r->end;
		}
		node_set_host_self(p, top->n, top->end - top->start - top->child_ns);
	}
	GROW(st->v, st->alloc, st->nr + 1);
	st->v[st->nr++] = (struct open_range){ .n = n, .start = r->start, .end = r->end,
						 .covered_end = r->start };
}

static void build(struct trace *t)
{
	struct marker_stacks ms = { 0 };
	struct profile *p = t->p;
	struct node *last_parent = NULL;
	int64_t last_key = -2;
	int64_t *seen = xmalloc((t->nr + 1) * sizeof(*seen));
	size_t nr_seen = 0;

	if (t->nr)	/* qsort()'s array may not be NULL, even empty */
		qsort(t->v, t->nr, sizeof(*t->v), cmp_rec);
	for (size_t i = 0; i < t->nr; i++) {
		const struct rec *r = &t->v[i];
		struct node *parent = parent_of(t, r, &last_parent, &last_key);
		int64_t dur = r->end - r->start;
		struct node *n;

		if (t->layout == L_V3_API) {
			struct marker_stack *st = NULL;

			if (r->marker)
				parent = marker_parent(&ms, r, parent, &st);
			n = node_new_interned(p, parent, r->marker ? NODE_ANNOTATION : NODE_RUNTIME,
					      r->name);
			n->start_ns = r->start;
			node_set_host_total(p, n, dur);
			node_set_host_self(p, n, dur);
			if (st)
				marker_push(p, st, r, n);
			if (!r->marker && r->corr > 0)
				join_add(p, n, r, true);
		} else if (t->layout == L_V3_COPY) {
			n = node_new_interned(p, parent, NODE_MEMCPY, r->name);
			n->start_ns = r->start;
			node_set_device_total(p, n, dur);
			node_set_device_self(p, n, dur);
			profile_set_copy_stream(p, n,
						r->device <= INT32_MAX ? (int32_t)r->device : -1,
						r->queue >= 0 ? lane_of(t, r->queue, seen, &nr_seen) : -1);
			if (r->corr > 0)
				join_add(p, n, r, false);
		} else {
			struct launch l;

			n = node_new_interned(p, parent, NODE_KERNEL, r->name);
			n->start_ns = r->start;
			node_set_device_total(p, n, dur);
			node_set_device_self(p, n, dur);
			launch_init(&l);
			l.device = r->device >= 0 && r->device <= INT32_MAX ? (int32_t)r->device : -1;
			l.stream = r->queue >= 0 ? lane_of(t, r->queue, seen, &nr_seen) : -1;
			attr_set_launch(p, node_attr_list(n), profile_launch(p, &l));
			for (size_t k = 0; r->kattr && k < NR_KATTRS; k++)
				if (r->kattr[k] >= 0)
					attr_set_int(p, node_attr_list(n), kattrs[k].key,
						     r->kattr[k]);
			if (r->corr > 0)
				join_add(p, n, r, false);
		}
		node_set_calls(p, n, 1);
	}
	free(seen);
	for (size_t i = 0; i < ms.nr; i++)
		free(ms.v[i].v);
	free(ms.v);
	key_index_release(&ms.by_tid);
	if (ms.nr_crossing) {
		static const char kind[] = "marker ranges that outlast a range they start in "
					   "(placed beside it)";

		diag_warn(t->d, NULL, kind, "%" PRIu64 " marker range%s outlast%s a range %s "
			  "start%s in, so %s not nested: each lies under the nearest range that "
			  "holds it whole", ms.nr_crossing, ms.nr_crossing == 1 ? "" : "s",
			  ms.nr_crossing == 1 ? "s" : "", ms.nr_crossing == 1 ? "it" : "they",
			  ms.nr_crossing == 1 ? "s" : "", ms.nr_crossing == 1 ? "is" : "are");
		profile_warn(p, kind, ms.nr_crossing - 1);
	}
	/* The earliest start of the run's files, whichever came first. */
	if (t->nr && (!p->has_time_origin || t->v[0].start < p->time_origin_ns)) {
		p->has_time_origin = true;
		p->time_origin_ns = t->v[0].start;
	}
}

static int cmp_call(const void *a, const void *b)
{
	const struct jrec *x = *(const struct jrec *const *)a, *y = *(const struct jrec *const *)b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* A kernel to move and the call it goes under, by the kernel's node. */
struct move {
	const struct node *kernel;
	struct node *call;
};

static int cmp_move(const void *a, const void *b)
{
	const struct move *x = a, *y = b;

	return x->kernel < y->kernel ? -1 : x->kernel > y->kernel;
}

static int cmp_ptr(const void *a, const void *b)
{
	const void *x = *(const void *const *)a, *y = *(const void *const *)b;

	return x < y ? -1 : x > y;
}

/* The first of CALLS (NR, by id then thread) after (CORR, TID) when
 * PAST, else at or after it. */
static size_t lower(struct jrec **calls, size_t nr, int64_t corr, int64_t tid, bool past)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct jrec *c = calls[mid];

		if (c->corr < corr || (c->corr == corr && (c->tid < tid || (past && c->tid == tid))))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The call of K's Correlation_Id among CALLS (NR, by id then thread): the
 * one call of that id, else the one of them on K's thread; NULL when
 * none or several (*AMBIGUOUS then set).  Logarithmic, however many calls
 * share an id. */
static struct jrec *call_of(struct jrec **calls, size_t nr, const struct jrec *k,
			    bool *ambiguous)
{
	size_t lo = lower(calls, nr, k->corr, INT64_MIN, false);
	size_t end = lower(calls, nr, k->corr, INT64_MAX, true);
	size_t t0, t1;

	if (end - lo == 1)
		return calls[lo];
	if (end == lo)
		return NULL;
	t0 = lower(calls, nr, k->corr, k->tid, false);
	t1 = lower(calls, nr, k->corr, k->tid, true);
	if (t1 - t0 == 1)
		return calls[t0];
	*ambiguous = true;
	return NULL;
}

/*
 * Once a run's kernel trace and HIP API trace are both read: each kernel
 * dispatch goes under the HIP call that has its Correlation_Id (rocprofv3
 * gives a call and the dispatch it made one id), as a Kineto kernel
 * under its launch, so that the call is its launch.  A dispatch whose id
 * no call has stays under its GPU and is counted.  Linear but for the
 * sorts: each GPU's children are walked once and appended again.
 */
static void link_calls(struct profile *p, struct diag *d)
{
	struct join *j = p->family_state;
	struct jrec **calls;
	struct move *moves;
	struct node **groups;
	size_t nr_calls = 0, nr_moves = 0, nr_groups = 0;
	uint64_t nr_unlinked = 0, nr_ambiguous = 0;

	if (!j || !j->nr_calls || !j->nr_kernels)
		return;
	calls = xmalloc(j->nr_calls * sizeof(*calls));
	moves = xmalloc(j->nr_kernels * sizeof(*moves));
	groups = xmalloc(j->nr_kernels * sizeof(*groups));
	for (size_t i = 0; i < j->nr; i++)
		if (j->v[i].call)
			calls[nr_calls++] = &j->v[i];
	qsort(calls, nr_calls, sizeof(*calls), cmp_call);
	for (size_t i = 0; i < j->nr; i++) {
		struct jrec *k = &j->v[i], *c;
		bool ambiguous = false;

		if (k->call || k->tried)
			continue;
		/* Once: the run's one API trace is read (two never join). */
		k->tried = true;
		c = call_of(calls, nr_calls, k, &ambiguous);
		if (!c) {
			nr_unlinked++;
			nr_ambiguous += ambiguous;
			continue;
		}
		moves[nr_moves++] = (struct move){ .kernel = k->n, .call = c->n };
		groups[nr_groups++] = node_parent(k->n);
	}
	qsort(moves, nr_moves, sizeof(*moves), cmp_move);
	qsort(groups, nr_groups, sizeof(*groups), cmp_ptr);
	for (size_t g = 0; g < nr_groups; g++) {
		struct node *group = groups[g], **kids;
		size_t nr_kids = 0;

		if (!group || (g && group == groups[g - 1]))
			continue;
		for (struct node *c = node_first_child(group); c; c = node_next(c))
			nr_kids++;
		kids = xmalloc(nr_kids * sizeof(*kids));
		nr_kids = 0;
		for (struct node *c = node_first_child(group); c; c = node_next(c))
			kids[nr_kids++] = c;
		node_detach_children(group);
		for (size_t i = 0; i < nr_kids; i++) {
			struct move key = { .kernel = kids[i] };
			struct move *m = bsearch(&key, moves, nr_moves, sizeof(*moves), cmp_move);

			node_append(p, m ? m->call : group, kids[i]);
		}
		free(kids);
		if (!node_first_child(group))
			node_unlink(group);	/* every dispatch found its call */
	}
	if (nr_unlinked) {
		diag_warn(d, NULL, "dispatches and copies whose Correlation_Id no HIP call has (kept, "
			  "unlinked)",
			  "%" PRIu64 " kernel dispatch%s or cop%s not linked to a HIP call: %" PRIu64
			  " of an id no call of the API trace has, %" PRIu64
			  " of an id several calls have",
			  nr_unlinked, nr_unlinked == 1 ? "" : "es", nr_unlinked == 1 ? "y" : "ies",
			  nr_unlinked - nr_ambiguous,
			  nr_ambiguous);
	}
	free(calls);
	free(moves);
	free(groups);
}

static int header(struct trace *t, char *line, size_t len, uint64_t lineno)
{
	struct field f[ROCPROF_MAX_COLS];
	int nr = rocprof_fields(t->d, line, len, rocprof_bom(line, len), lineno, f);
	struct pos where = { lineno, 1 };

	if (nr < 0)
		return -1;
	t->layout = layout_of(f, nr, t->col);
	if (t->layout < 0) {
		diag_error(t->d, &where, "not the header of a rocprof kernel or HIP API trace");
		return -1;
	}
	t->domain_col = t->layout == L_V3_API ? rocprof_col(f, nr, "Domain") : -1;
	t->dst_col = t->layout == L_V3_COPY ? rocprof_col(f, nr, "Destination_Agent_Id") : -1;
	for (size_t k = 0; k < NR_KATTRS; k++) {
		t->kattr_col[k] = -1;
		for (int i = 0; i < 3 && t->layout != L_V3_API && t->kattr_col[k] < 0; i++)
			if (kattrs[k].titles[i])
				t->kattr_col[k] = rocprof_col(f, nr, kattrs[k].titles[i]);
		t->any_kattr |= t->kattr_col[k] >= 0;
	}
	t->nr_cols = nr;
	return 0;
}

static int rocprof_trace_parse(struct profile *p, struct input *in, struct diag *d)
{
	static const char *const formats[] = {
		[L_V3_API] = "rocprofv3 HIP API trace (CSV)",
		[L_V1_KERNEL] = "rocprof kernel trace (results.csv)",
		[L_V2_KERNEL] = "rocprofv2 kernel trace (CSV)",
		[L_V3_KERNEL] = "rocprofv3 kernel trace (CSV)",
		[L_V3_COPY] = "rocprofv3 memory copy trace (CSV)",
	};
	struct trace t = { .p = p, .d = d, .dst_col = -1 };
	struct field f[ROCPROF_MAX_COLS];
	bool have_header = false;
	char *line;
	size_t len;
	int rc = 0;

	while ((line = input_line(in, &len))) {
		int nr;

		if (!have_header) {
			if (header(&t, line, len, in->lineno)) {
				rc = -1;
				break;
			}
			have_header = true;
			continue;
		}
		if (!len)
			continue;
		nr = rocprof_fields(d, line, len, 0, in->lineno, f);
		if (nr < 0) {
			rc = -1;
			break;
		}
		if (record(&t, in->lineno, f, nr)) {
			rc = -1;
			break;
		}
	}
	if (!rc && input_failed(in, d))
		rc = -1;
	if (!rc && !have_header) {
		diag_error(d, NULL, "no rocprof trace header");
		rc = -1;
	}
	if (!rc) {
		build(&t);
		link_calls(p, d);
		profile_meta(p, "trace", "format", formats[t.layout]);
		if (t.queue_renumbered)
			profile_meta(p, "trace", "queues",
				     "numbered in order of first dispatch (the file's ids "
				     "are addresses)");
	}
	for (size_t i = 0; i < t.nr; i++)
		free(t.v[i].kattr);
	free(t.v);
	return rc;
}

static int rocprof_trace_probe(const char *head, size_t len)
{
	char buf[2048];
	struct field f[ROCPROF_MAX_COLS];
	int nr = rocprof_probe_header(head, len, buf, sizeof(buf), f);
	int col[NR_T];

	if (nr < 3)
		return 0;
	return layout_of(f, nr, col) >= 0 ? 95 : 0;
}

/* How rocprofv3 names the files of one run, PREFIX_<table>.csv: files so
 * named of one prefix open together (their kernels and calls link). */
static const char *const run_files[] = {
	"_kernel_trace.csv", "_hip_api_trace.csv", "_marker_api_trace.csv",
	"_memory_copy_trace.csv", NULL,
};

const struct parser rocprof_trace_parser = {
	.name = "rocprof-trace",
	.family = "rocprof",
	.engine_suffixes = run_files,
	.summary = "ROCm rocprof / rocprofv3 kernel and HIP API traces (CSV)",
	.probe = rocprof_trace_probe,
	.parse = rocprof_trace_parse,
};
