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
 * marker trace has the HIP trace's header) an annotation.  The files are separate:
 * a call is not linked to the kernel it launched (their Correlation_Id
 * would do it, were both in one profile).
 */
#include <stdlib.h>
#include <string.h>

#include "../../model/bounds.h"
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
};

enum { L_V3_API, L_V1_KERNEL, L_V2_KERNEL, L_V3_KERNEL, NR_L };

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
	int kattr_col[NR_KATTRS];	/* -1: no such column */
	bool any_kattr;
	int nr_cols;
	struct rec *v;
	size_t nr, alloc;
	bool queue_renumbered;
};

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
	r.name = profile_intern(t->p, name->s, name->len);
	GROW(t->v, t->alloc, t->nr + 1);
	t->v[t->nr++] = r;
	return 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
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

static void build(struct trace *t)
{
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
			n = node_new_interned(p, parent, r->marker ? NODE_ANNOTATION : NODE_RUNTIME,
					      r->name);
			n->start_ns = r->start;
			node_set_host_total(p, n, dur);
			node_set_host_self(p, n, dur);
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
		}
		node_set_calls(p, n, 1);
	}
	free(seen);
	if (t->nr) {
		p->has_time_origin = true;
		p->time_origin_ns = t->v[0].start;
	}
}

static int header(struct trace *t, char *line, size_t len, uint64_t lineno)
{
	struct field f[ROCPROF_MAX_COLS];
	size_t at = rocprof_bom(line, len), col;
	const char *why;
	int nr = rocprof_split(line + at, len - at, f, &why, &col);
	struct pos where = { lineno, 1 };

	if (nr < 0) {
		where.col = at + col + 1;
		diag_error(t->d, &where, "%s", why);
		return -1;
	}
	t->layout = layout_of(f, nr, t->col);
	if (t->layout < 0) {
		diag_error(t->d, &where, "not the header of a rocprof kernel or HIP API trace");
		return -1;
	}
	t->domain_col = t->layout == L_V3_API ? rocprof_col(f, nr, "Domain") : -1;
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
	};
	struct trace t = { .p = p, .d = d };
	struct field f[ROCPROF_MAX_COLS];
	bool have_header = false;
	char *line;
	size_t len;
	int rc = 0;

	while ((line = input_line(in, &len))) {
		const char *why;
		size_t col;
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
		nr = rocprof_split(line, len, f, &why, &col);
		if (nr < 0) {
			struct pos at = { in->lineno, col + 1 };

			diag_error(d, &at, "%s", why);
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

const struct parser rocprof_trace_parser = {
	.name = "rocprof-trace",
	.summary = "ROCm rocprof / rocprofv3 kernel and HIP API traces (CSV)",
	.probe = rocprof_trace_probe,
	.parse = rocprof_trace_parse,
};
