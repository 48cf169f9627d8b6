// SPDX-License-Identifier: MIT
/*
 * The Overview pane: what torch-tb-profiler's Overview page shows, first
 * thing, for any profile that has steps or device time -- per GPU its
 * name, memory and compute capability and the plugin's four metrics; the
 * average step split into its categories with one stacked bar; step time
 * statistics; the recommendations (the plugin's rules and proftui's own,
 * each saying whose); the top operators and kernels, Enter on one of
 * which shows it in its pane.  What a format does not give is absent,
 * not zero.  The numbers are model/overview.c's.
 *
 * Rows are sections (depth 0) and their lines (depth 1).  --print
 * overview --format json writes its own contract (overview_json()): one
 * object per GPU, one for the step breakdown and the recommendations.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/critical_path.h"
#include "../model/name_stats.h"
#include "../model/idle.h"
#include "../model/launch_stats.h"
#include "../model/mem_bw.h"
#include "../model/queue_length.h"
#include "../model/overlap.h"
#include "../model/overview.h"
#include "../model/strbuf.h"
#include "../model/temporal.h"
#include "../model/util.h"
#include "export.h"
#include "pane.h"

enum ov_kind {
	OV_SECTION,		/* a heading */
	OV_LINE,		/* a value */
	OV_STEP,		/* the average step: the stacked bar */
	OV_CATEGORY,		/* one category of it: its own segment */
	OV_ADVICE,		/* a line of a recommendation */
	OV_TOP_OP,		/* a top operator: Enter shows it in Operators */
	OV_TOP_KERNEL,		/* a top kernel: Enter shows it in Kernels */
	OV_TEMPORAL,		/* GPU time: Enter opens the temporal breakdown */
	OV_KERNEL_TYPE,		/* a kernel-type class: Enter opens Kernel types */
	OV_API,			/* the API calls: Enter opens their table */
	OV_ANNOTATIONS,		/* the annotations: Enter opens their table */
	OV_IDLE_STREAM,		/* a stream's idle time: Enter opens GPU idle */
	OV_LAUNCHES,		/* the launches: Enter opens Kernel launches */
	OV_LAUNCH_DIST,		/* a launch figure: Enter opens Launch distribution */
	OV_QUEUE,		/* a stream's queue: Enter opens Queue length */
	OV_COPY_KIND,		/* a kind of copy: Enter opens Memory bandwidth */
	OV_OVERLAP,		/* comm/comp overlap: Enter opens Rank analyses */
	OV_CPATH,		/* the critical path: Enter opens its pane */
};

struct ov_row {
	enum ov_kind kind;
	char *item;		/* heap */
	char *value;		/* heap or NULL */
	double share_pct;	/* NaN: none */
	int cat;		/* OV_CATEGORY: the step category */
	const char *jump;	/* OV_TOP_*: the row's name there */
};

struct ov_priv {
	struct overview ov;
	struct ov_row *rows;
	size_t nr, alloc;
	uint64_t nr_capped;		/* of a section made apart (ov_load) */
	const struct step *cpath_step;	/* the critical path's step; NULL: all */
};

#define ROW(r) ((const struct ov_row *)(r))

static struct ov_row *add(struct ov_priv *op, enum ov_kind kind, char *item, char *value)
{
	struct ov_row *r;

	GROW(op->rows, op->alloc, op->nr + 1);
	r = &op->rows[op->nr++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->item = item;
	r->value = value;
	r->share_pct = NAN;
	return r;
}

static void add_pct(struct ov_priv *op, const char *item, double fraction, double scale)
{
	if (fraction == fraction)
		add(op, OV_LINE, xstrdup(item), NULL)->share_pct = fraction * scale;
}

static char *time_text(double ns)
{
	char buf[64];

	/* As a time cell: a capped sum reads ">=" the cap. */
	fmt_cell(COL_TIME, cell_int((int64_t)llround(ns)), FMT_HUMAN, buf, sizeof(buf));
	return xstrdup(buf);
}

/* ---------------------------------------------------------------------
 * Sections
 */

static void add_gpus(const struct profile *p, struct ov_priv *op)
{
	const struct overview *o = &op->ov;

	for (size_t i = 0; i < o->nr_gpus; i++) {
		const struct gpu_metrics *g = &o->gpus[i];
		const struct device_info *d = profile_device(p, g->device);

		add(op, OV_SECTION, xstrfmt("GPU %d", (int)g->device), NULL);
		if (d && d->name)
			add(op, OV_LINE, xstrdup("Name"), xstrdup(d->name));
		if (d && d->total_memory_bytes >= 0)
			add(op, OV_LINE, xstrdup("Memory"),
			    xstrfmt("%.2f GB", (double)d->total_memory_bytes / 1024 / 1024 / 1024));
		if (d && d->cc_major >= 0 && d->cc_minor >= 0)
			add(op, OV_LINE, xstrdup("Compute capability"),
			    xstrfmt("%d.%d", (int)d->cc_major, (int)d->cc_minor));
		add_pct(op, "GPU utilization", g->utilization, 100);
		add_pct(op, "Est. SM efficiency", g->sm_efficiency, 100);
		add_pct(op, "Est. achieved occupancy", g->occupancy_pct, 1);
		add_pct(op, "Tensor-core kernel time", g->tensor_core, 100);
	}
	/* Devices the trace names but no kernel ran on, or a format's own
	 * description of its device (trtexec's log). */
	if (!o->nr_gpus) {
		for (size_t i = 0; i < p->nr_devices; i++) {
			const struct device_info *d = &p->devices[i];

			add(op, OV_SECTION, xstrfmt("Device %d", (int)d->id), NULL);
			if (d->name)
				add(op, OV_LINE, xstrdup("Name"), xstrdup(d->name));
			if (d->total_memory_bytes >= 0)
				add(op, OV_LINE, xstrdup("Memory"),
				    xstrfmt("%.2f GB", (double)d->total_memory_bytes / 1024 / 1024 / 1024));
		}
		if (!p->nr_devices) {
			bool any = false;

			for (const struct meta *m = p->meta; m; m = m->next) {
				if (strcmp(m->section, "device"))
					continue;
				if (!any)
					add(op, OV_SECTION, xstrdup("Device"), NULL);
				any = true;
				add(op, OV_LINE, xstrdup(m->key), xstrdup(m->value));
			}
		}
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The value at quantile Q of N sorted values (nearest rank). */
static int64_t quantile(const int64_t *v, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);

	return v[rank ? rank - 1 : 0];
}

/* The share of the average step its categories leave out (negative:
 * that they count twice), when it shows at two decimals: the categories'
 * shares and it then sum to 100%.  NaN when there is none to show. */
static double rest_pct(const struct overview *o)
{
	double pct = o->avg_step_ns > 0 ? 100 * o->avg_rest_ns / o->avg_step_ns : NAN;

	return fabs(pct) >= 0.005 ? pct : NAN;
}

/* A breakdown sums to its step, or says why not: a line for the time in
 * no category, or for the time the categories overlap (a host part run
 * beside the device parts, as load_and_run's exec= and trtexec's enqueue
 * are), at least that much. */
static void add_step_rest(struct ov_priv *op)
{
	const struct overview *o = &op->ov;
	double pct = rest_pct(o);

	if (pct != pct)
		return;
	add(op, OV_LINE, xstrdup(pct > 0 ? "In no part" : "Overlap of the parts"),
	    time_text(o->avg_rest_ns))->share_pct = pct;
}

static void add_steps(const struct profile *p, struct ov_priv *op)
{
	const struct overview *o = &op->ov;
	int64_t *t;

	if (!p->nr_steps)
		return;
	add(op, OV_SECTION, xstrfmt("Step time (%zu step%s)", p->nr_steps, p->nr_steps == 1 ? "" : "s"),
	    NULL);
	add(op, OV_STEP, xstrdup(p->nr_steps > 1 ? "Average step" : "Step"),
	    time_text(o->avg_step_ns))->share_pct = o->avg_step_ns > 0 ? 100 : NAN;
	for (size_t c = 0; c < p->nr_step_cats; c++) {
		struct ov_row *r;

		if (o->avg_cat_ns[c] != o->avg_cat_ns[c])
			continue;
		r = add(op, OV_CATEGORY, xstrdup(p->step_cats[c]), time_text(o->avg_cat_ns[c]));
		r->cat = (int)c;
		if (o->avg_step_ns > 0)
			r->share_pct = 100 * o->avg_cat_ns[c] / o->avg_step_ns;
	}
	add_step_rest(op);
	if (p->nr_steps < 2)
		return;
	/* Iteration statistics: what a training log or trtexec's times
	 * give, and what latency percentiles are made of. */
	t = xmalloc(p->nr_steps * sizeof(*t));
	for (size_t i = 0; i < p->nr_steps; i++)
		t[i] = p->steps[i].total_ns;
	qsort(t, p->nr_steps, sizeof(*t), cmp_i64);
	add(op, OV_SECTION, xstrdup("Step time statistics"), NULL);
	add(op, OV_LINE, xstrdup("Minimum"), time_text((double)t[0]));
	add(op, OV_LINE, xstrdup("Median"), time_text((double)quantile(t, p->nr_steps, 0.5)));
	add(op, OV_LINE, xstrdup("90th percentile"), time_text((double)quantile(t, p->nr_steps, 0.9)));
	add(op, OV_LINE, xstrdup("99th percentile"), time_text((double)quantile(t, p->nr_steps, 0.99)));
	add(op, OV_LINE, xstrdup("Maximum"), time_text((double)t[p->nr_steps - 1]));
	if (p->steps[p->nr_steps - 1].end_ns > p->steps[0].start_ns) {
		int64_t span;

		/* Two bounded times may lie more than int64 apart. */
		if (__builtin_sub_overflow(p->steps[p->nr_steps - 1].end_ns, p->steps[0].start_ns, &span))
			span = SUM_CAP;
		add(op, OV_LINE, xstrdup("Steps per second"),
		    xstrfmt("%.2f", (double)p->nr_steps * 1e9 / (double)span));
	}
	free(t);
}

static void add_precisions(struct ov_priv *op)
{
	const struct overview *o = &op->ov;

	if (!o->nr_precisions || o->precision_total_ns <= 0)
		return;
	add(op, OV_SECTION, xstrdup("Precision (share of layer time)"), NULL);
	for (size_t k = 0; k < o->nr_precisions; k++) {
		struct ov_row *row = add(op, OV_LINE, xstrdup(o->precisions[k].name),
					 time_text((double)o->precisions[k].ns));

		if (!sum_capped(o->precision_total_ns) && !sum_capped(o->precisions[k].ns))
			row->share_pct = 100.0 * (double)o->precisions[k].ns /
					 (double)o->precision_total_ns;
	}
}

/* A format's own summary of its run as it states it: trtexec's log's
 * throughput, end-to-end latency and mean GPU compute time (Info has the
 * rest: enqueue, H2D, D2H...). */
static bool is_summary_key(const char *key)
{
	return !strcmp(key, "Throughput") || !strncmp(key, "Latency ", 8) ||
	       !strcmp(key, "GPU Compute Time mean") || !strcmp(key, "GPU Compute Time median");
}

static void add_perf_summary(const struct profile *p, struct ov_priv *op)
{
	bool any = false;

	for (const struct meta *m = p->meta; m; m = m->next) {
		if (strcmp(m->section, "performance summary") || !is_summary_key(m->key))
			continue;
		if (!any)
			add(op, OV_SECTION, xstrdup("Performance summary (as the file states it)"), NULL);
		any = true;
		add(op, OV_LINE, xstrdup(m->key), xstrdup(m->value));
	}
}

/* A recommendation's lines, cut at blanks near WIDTH. */
static void add_advice(struct ov_priv *op, const char *text, bool is_plugin)
{
	const size_t width = 44;
	const char *s = text;
	bool first = true;

	while (*s) {
		size_t n = strlen(s), cut = n;

		if (n > width) {
			for (cut = width; cut > 0 && s[cut] != ' '; cut--)
				;
			if (!cut)
				cut = width;
		}
		add(op, OV_ADVICE, xstrndup(s, cut),
		    first ? xstrdup(is_plugin ? "torch-tb-profiler" : "proftui") : NULL);
		first = false;
		s += cut;
		while (*s == ' ')
			s++;
	}
}

/* The five largest Operators rows by device self time (host self where
 * there is no device time), and Kernels rows by their time. */
static void add_top(const struct profile *p, struct ov_priv *op)
{
	for (int k = 0; k < 2; k++) {
		const struct top_rows *top = k ? &op->ov.top_kernels : &op->ov.top_ops;

		if (top->nr)
			add(op, OV_SECTION,
			    xstrdup(k ? "Top kernels (Enter: in Kernels)"
				      : p->has_device_time
					? "Top operators by device self time (Enter: in Operators)"
					: "Top operators by host self time (Enter: in Operators)"),
			    NULL);
		for (size_t j = 0; j < top->nr; j++) {
			const struct top_row *r = &top->v[j];
			struct ov_row *row = add(op, k ? OV_TOP_KERNEL : OV_TOP_OP, xstrdup(r->name),
						 time_text((double)r->ns));

			row->jump = r->name;
			if (r->file_pct == r->file_pct)
				row->share_pct = r->file_pct;
			else if (top->total_ns > 0 && !sum_capped(top->total_ns) && !sum_capped(r->ns))
				row->share_pct = 100.0 * (double)r->ns / (double)top->total_ns;
		}
	}
}

/* A time of the GPU breakdowns and its share of WHOLE (none when
 * WHOLE is 0: the kernel time itself). */
static void add_gpu_time(struct ov_priv *op, enum ov_kind kind, const char *item, int64_t ns,
			 int64_t whole)
{
	struct ov_row *row = add(op, kind, xstrdup(item), time_text((double)ns));

	if (whole)
		row->share_pct = temporal_pct(ns, whole);
}

/* HTA's comm/comp overlap (model/overlap.h) of the temporal breakdown T:
 * the communication time and how much of it computation overlapped; none
 * without communication. */
static void add_comm_overlap(const struct temporal *t, struct ov_priv *op)
{
	struct overlap o;
	struct ov_row *row;

	overlap_of(t, &o);
	if (o.comm_ns <= 0)
		return;
	add(op, OV_SECTION, xstrdup("Comm/comp overlap (Enter: rank analyses)"), NULL);
	add(op, OV_OVERLAP, xstrdup("Communication"), time_text((double)o.comm_ns));
	row = add(op, OV_OVERLAP, xstrdup("Under computation"), time_text((double)o.both_ns));
	row->share_pct = overlap_pct(&o);
}

/* HTA's temporal breakdown and kernel-type table (model/temporal.h),
 * over the whole trace: a few rows each, Enter opening their panes. */
static void add_gpu_breakdowns(const struct profile *p, struct ov_priv *op, uint64_t *nr_capped)
{
	struct temporal t;
	size_t order[NR_KTYPE_CLASSES], n = 0;

	temporal_compute(p, &TEMPORAL_OPTS_ALL, &t);
	*nr_capped += t.nr_capped;
	if (!t.nr_events)
		return;
	add(op, OV_SECTION, xstrdup("GPU time (Enter: breakdown)"), NULL);
	add_gpu_time(op, OV_TEMPORAL, "Kernel time (first start to last end)", t.kernel_ns, 0);
	add_gpu_time(op, OV_TEMPORAL, "Idle", t.idle_ns, t.kernel_ns);
	add_gpu_time(op, OV_TEMPORAL, "Compute", t.compute_ns, t.kernel_ns);
	add_gpu_time(op, OV_TEMPORAL, "Non-compute", t.non_compute_ns, t.kernel_ns);
	for (size_t c = 1; c < NR_KTYPE_CLASSES; c++)
		if (t.class_ns[c] > 0)
			order[n++] = c;
	if (!n)
		return;
	/* The most time first, as the pane lists them. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && t.class_ns[order[j]] > t.class_ns[order[j - 1]]; j--) {
			size_t tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	add(op, OV_SECTION, xstrdup("Kernel types (Enter: table)"), NULL);
	for (size_t i = 0; i < n; i++)
		add_gpu_time(op, OV_KERNEL_TYPE, temporal_class_name((unsigned)order[i]),
			     t.class_ns[order[i]], t.classes_total_ns);
	add_comm_overlap(&t, op);
}

/* What the API calls of a printed report are, by its name: nsys stats'
 * cuda_api_sum (cudaapisum before 2021.2) and osrt_sum (osrtsum). */
static const struct {
	const char *report;
	const char *item;
	int order;
} api_reports[] = {
	{ "cuda_api_sum", "CUDA API calls", 0 },	{ "cudaapisum", "CUDA API calls", 0 },
	{ "osrt_sum", "OS runtime calls", 1 },		{ "osrtsum", "OS runtime calls", 1 },
};

/* The order of REPORT's line, and its label into *ITEM (heap). */
static int api_part_label(const char *report, char **item)
{
	for (size_t i = 0; i < ARRAY_SIZE(api_reports); i++)
		if (report && !strcmp(report, api_reports[i].report)) {
			*item = xstrdup(api_reports[i].item);
			return api_reports[i].order;
		}
	if (!report) {
		*item = xstrdup("API calls");
		return 3;
	}
	*item = report[0] ? xstrfmt("API calls of %s", report) : xstrdup("API calls of other reports");
	return 2;
}

/*
 * The API calls apart by the printed report they are rows of, when any
 * is (nsys stats: CUDA's calls and the OS's are different things, and a
 * sum of both would say neither): one line each, CUDA's first.  False,
 * adding nothing, for a profile whose calls no report names, whose one
 * line add_calls_and_ranges() writes as before.
 */
static bool add_api_parts(const struct profile *p, struct ov_priv *op, bool *heading)
{
	struct name_stats_part *v;
	size_t n = name_stats_count_parts(p, NAME_STATS_API, &v);
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= v[i].report != NULL;
	if (!any) {
		free(v);
		return false;
	}
	for (int order = 0; order <= 3; order++)
		for (size_t i = 0; i < n; i++) {
			char *item;

			if (api_part_label(v[i].report, &item) != order || !v[i].calls) {
				free(item);
				continue;
			}
			if (!*heading)
				add(op, OV_SECTION, xstrdup("Calls, ranges (Enter: table)"), NULL);
			*heading = true;
			add(op, OV_API, xstrfmt("%s (%" PRIu64 ")", item, v[i].calls),
			    time_text((double)v[i].total_ns));
			free(item);
		}
	free(v);
	return true;
}

/* The runtime API calls and the annotations (model/name_stats.h): how
 * many (in brackets) and how long in all, Enter opening their tables; a
 * walk without the rows, so that the landing pane does not sort a million
 * calls. */
static void add_calls_and_ranges(const struct profile *p, struct ov_priv *op)
{
	static const struct {
		enum name_stats_kind kind;
		enum ov_kind row;
		const char *item;
	} what[] = {
		{ NAME_STATS_API, OV_API, "API calls" },
		{ NAME_STATS_HOST_ANNOTATIONS, OV_ANNOTATIONS, "Host annotations" },
		{ NAME_STATS_GPU_ANNOTATIONS, OV_ANNOTATIONS, "GPU annotations" },
	};
	bool heading = false;

	for (size_t i = 0; i < ARRAY_SIZE(what); i++) {
		uint64_t calls;
		int64_t total;

		if (what[i].kind == NAME_STATS_API && add_api_parts(p, op, &heading))
			continue;
		name_stats_count(p, what[i].kind, &calls, &total);
		if (!calls)
			continue;
		if (!heading)
			add(op, OV_SECTION, xstrdup("Calls, ranges (Enter: table)"), NULL);
		heading = true;
		add(op, what[i].row, xstrfmt("%s (%" PRIu64 ")", what[i].item, calls),
		    time_text((double)total));
	}
}

/* GPU idle by stream (model/idle.h): each stream's idle time, the sum of
 * the gaps between its kernels, copies and sets, and its share of the
 * stream's span. */
static void add_idle(const struct profile *p, struct ov_priv *op)
{
	struct idle_breakdown b;

	idle_compute(p, NULL, &b);
	if (b.nr_streams)
		add(op, OV_SECTION, xstrdup("GPU idle by stream (Enter: GPU idle)"), NULL);
	for (size_t i = 0; i < b.nr_streams; i++) {
		const struct idle_stream *s = &b.streams[i];
		struct ov_row *row = add(op, OV_IDLE_STREAM,
					 s->device >= 0 ? xstrfmt("GPU %d stream %d", (int)s->device,
								  (int)s->stream)
							: xstrfmt("Stream %d", (int)s->stream),
					 time_text((double)s->total_ns));

		row->share_pct = 100 * idle_stream_share(s);
	}
	idle_release(&b);
}

/* Enter on a stream's idle time: the GPU idle pane. */
static bool idle_handle(struct pane *pane, struct pane_request *req)
{
	req->open = true;
	req->open_pane = PANE_IDLE;
	memset(&req->open_scope, 0, sizeof(req->open_scope));
	req->open_scope.step = pane->scope.step;
	return true;
}

/* Launches (model/launch_stats.h): how many, the median and 99th
 * percentile of their launch delay, and the three outlier classes, each
 * with its share of the launches; Enter opens Kernel launches (the delay:
 * Launch distribution). */
static void add_launches(const struct profile *p, struct ov_priv *op)
{
	struct launch_summary s;
	const struct launch_dist *d = &s.dist[LAUNCH_DELAY];

	launch_summary_make(p, NULL, &s);
	if (!s.nr_launches)
		return;
	const struct {
		const char *item;
		uint64_t n;
	} classes[] = {
		{ "Short kernels (GPU < CPU time <= 50 us)", s.nr_short },
		{ "Runtime outliers (CPU time > 50 us)", s.nr_runtime_outliers },
		{ "Delay outliers (delay > 100 us)", s.nr_delay_outliers },
	};
	add(op, OV_SECTION, xstrdup("Launches (Enter: table)"), NULL);
	add(op, OV_LAUNCHES, xstrdup("Launches"), xstrfmt("%" PRIu64, s.nr_launches));
	add(op, OV_LAUNCH_DIST, xstrdup("Launch delay, median"), time_text(d->p50));
	add(op, OV_LAUNCH_DIST, xstrdup("Launch delay, p99"), time_text(d->p99));
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		add(op, OV_LAUNCHES, xstrdup(classes[i].item), xstrfmt("%" PRIu64, classes[i].n))
			->share_pct = 100.0 * (double)classes[i].n / (double)s.nr_launches;
}

/* Enter on a launch row: Kernel launches, or the delay's distribution. */
static bool launches_handle(struct pane *pane, const struct ov_row *r, struct pane_request *req)
{
	req->open = true;
	req->open_pane = r->kind == OV_LAUNCH_DIST ? PANE_LAUNCH_DIST : PANE_LAUNCHES;
	memset(&req->open_scope, 0, sizeof(req->open_scope));
	req->open_scope.step = pane->scope.step;
	return true;
}

/* Queues, copies (model/queue_length.h, model/mem_bw.h): each stream's
 * longest queue and its mean over time, each kind of copy's GB/s. */
static void add_queues_and_copies(const struct profile *p, struct ov_priv *op)
{
	struct queue_lengths q;
	struct mem_bw b;
	char buf[64];

	queue_compute(p, NULL, &q);
	mem_bw_compute(p, NULL, &b);
	if (q.nr_streams || b.nr_kinds)
		add(op, OV_SECTION, xstrdup("Queues, copies (Enter: table)"), NULL);
	for (size_t i = 0; i < q.nr_streams; i++) {
		const struct queue_stream *s = &q.streams[i];

		fmt_cell(COL_REAL, cell_real(s->tw_mean), FMT_HUMAN, buf, sizeof(buf));
		add(op, OV_QUEUE,
		    s->device >= 0 ? xstrfmt("GPU %d stream %d queue max, mean over time", (int)s->device,
					     (int)s->stream)
				   : xstrfmt("Stream %d queue max, mean over time", (int)s->stream),
		    xstrfmt("%.0f, %s", s->summary.max, buf[0] ? buf : "-"));
	}
	for (size_t i = 0; i < b.nr_kinds; i++) {
		const struct mem_bw_kind *k = &b.kinds[i];

		fmt_cell(COL_REAL, cell_real(k->gbps), FMT_HUMAN, buf, sizeof(buf));
		add(op, OV_COPY_KIND, xstrfmt("%.*s (%" PRIu64 ")", (int)k->name_len, k->name, k->count),
		    buf[0] ? xstrfmt("%s GB/s", buf) : xstrdup("no bytes"));
	}
	mem_bw_release(&b);
	queue_release(&q);
}

/* The critical path (model/critical_path.h) of the step shown, else of
 * the longest step, else of the whole trace: its length, then its three
 * biggest bounds with their shares. */
static void add_critical_path(const struct pane *pane, struct ov_priv *op)
{
	const struct profile *p = pane->prof;
	const struct step *s = NULL;
	struct cpath_options o;
	struct critical_path c;
	int order[NR_CPATH_BOUNDS], n = 0;

	if (pane->scope.step) {
		s = pane->scope.step;
		if ((uintptr_t)s - (uintptr_t)p->steps >= p->nr_steps * sizeof(*p->steps))
			s = profile_step_named(p, s->name);
		if (!s)
			return;
	} else {
		s = cpath_default_step(p);
	}
	cpath_options_for_step(&o, s);
	cpath_compute(p, &o, &c);
	if (c.nr_links && c.total_ns > 0) {
		op->cpath_step = s;
		add(op, OV_SECTION, xstrdup("Critical path (Enter: path)"), NULL);
		add(op, OV_CPATH, s ? xstrfmt("Path of step %s", s->name) : xstrdup("Path of the trace"),
		    time_text((double)c.total_ns))->share_pct = cpath_share(&c, c.total_ns);
		for (int b = 0; b < NR_CPATH_BOUNDS; b++)
			if (b != CPATH_NONE && c.bound_ns[b] > 0)
				order[n++] = b;
		/* The most time first. */
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && c.bound_ns[order[j]] > c.bound_ns[order[j - 1]]; j--) {
				int tmp = order[j];

				order[j] = order[j - 1];
				order[j - 1] = tmp;
			}
		for (int i = 0; i < n && i < 3; i++)
			add(op, OV_CPATH, xstrdup(cpath_bound_name(order[i])),
			    time_text((double)c.bound_ns[order[i]]))->share_pct =
				cpath_share(&c, c.bound_ns[order[i]]);
	}
	cpath_release(&c);
}

/* ---------------------------------------------------------------------
 * The pane
 */

static struct cell get_item(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->item);
}

static struct cell get_value(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_text(ROW(row)->value);
}

static struct cell get_share(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)c;
	return cell_real(ROW(row)->share_pct);
}

static struct cell get_bar(const struct pane *pane, const void *row, const struct column *c)
{
	(void)pane, (void)row, (void)c;
	return cell_none();	/* a drawing: ov_bar() gives its segments */
}

static const struct column ov_cols[] = {
	{ .key = "item", .title = "Overview", .kind = COL_NAME, .get = get_item, .spill = true,
	  .help = "a device, a step category, a recommendation, a top op or kernel, a GPU time "
		  "(the temporal breakdown and kernel types: proftui(1), PANES)" },
	{ .key = "value", .title = "Value", .kind = COL_TEXT, .width = 17, .get = get_value,
	  .spill = true,
	  .help = "GPU: as deviceProperties gives it; steps: the average step's time in the "
		  "category; recommendations: whose rule it is (torch-tb-profiler's, proftui's)" },
	{ .key = "share_pct", .title = "%", .kind = COL_PCT, .width = 7, .get = get_share,
	  .help = "GPU utilization: time some kernel runs / the steps' span; Est. SM "
		  "efficiency: Σ min(blocks per SM, 1) x kernel time / the span; Est. achieved "
		  "occupancy: kernels' occupancy weighted by their time in the span "
		  "(torch-tb-profiler's definitions); Tensor-core kernel time: share of the "
		  "time of every kernel on the device, over the whole trace, in kernels that "
		  "use tensor (matrix) cores by proftui(1)'s TENSOR CORES rule -- the Kernels "
		  "status line's share, over its rows.  Steps: share of the average step; top "
		  "rows: share of all ops' device self time (kernels: of all kernel time), or "
		  "where the file states the row's percentage (key_averages' Self CUDA %, a "
		  "Paddle Kernel Summary ratio) the file's value, as Operators and Kernels "
		  "show it.  In no part: the step's time no category holds; Parts overlap: "
		  "the time two categories count (a host part beside the device parts), at "
		  "least: negative, so the shares sum to 100%.  GPU time: share of the kernel "
		  "time (first start to last end of the GPU work); kernel types: share of the "
		  "classes' time" },
	{ .key = "bar", .title = "Breakdown", .kind = COL_BAR, .get = get_bar,
	  .help = "the average step split into its categories, as a bar" },
};

static const char *ov_name(const struct pane *pane, const void *row)
{
	(void)pane;
	return ROW(row)->item;
}

/* The sections, each of the pane's profile (the critical path: of its
 * step too). */
static void gpu_section(const struct pane *pane, struct ov_priv *op)
{
	add_gpu_breakdowns(pane->prof, op, &op->nr_capped);
}

static void idle_section(const struct pane *pane, struct ov_priv *op)
{
	add_idle(pane->prof, op);
}

static void calls_section(const struct pane *pane, struct ov_priv *op)
{
	add_calls_and_ranges(pane->prof, op);
}

static void launches_section(const struct pane *pane, struct ov_priv *op)
{
	add_launches(pane->prof, op);
}

static void queues_section(const struct pane *pane, struct ov_priv *op)
{
	add_queues_and_copies(pane->prof, op);
}

/*
 * The analyses' sections: each a walk of its own over the GPU work, none
 * writing the profile, so they run at once, each on a thread into its own
 * rows, joined in this order.  On 1 GB they are about 0.7 s one after the
 * other, as long as the rest of the Overview's load; side by side the
 * landing waits for the longest (about 0.3 s) where there are cores.
 */
static void (*const analysis_sections[])(const struct pane *pane, struct ov_priv *op) = {
	gpu_section, idle_section, calls_section, add_critical_path, launches_section,
	queues_section,
};

struct section_job {
	void (*fill)(const struct pane *pane, struct ov_priv *op);
	const struct pane *pane;
	struct ov_priv part;
	pthread_t thread;
	bool is_threaded;
};

static void *run_section(void *arg)
{
	struct section_job *j = arg;

	j->fill(j->pane, &j->part);
	return NULL;
}

static void add_analyses(const struct pane *pane, struct ov_priv *op, uint64_t *nr_capped)
{
	enum { N = ARRAY_SIZE(analysis_sections) };
	struct section_job jobs[N];
	pthread_attr_t attr;
	bool has_attr = !pthread_attr_init(&attr);

	/* The walks are loops, not recursion: a small stack each, so that
	 * an address-space limit (ulimit -v) is not spent on stacks. */
	if (has_attr)
		pthread_attr_setstacksize(&attr, 1u << 20);
	for (size_t i = 0; i < N; i++) {
		jobs[i] = (struct section_job){ .fill = analysis_sections[i], .pane = pane };
		/* The first runs here, and any that cannot get a thread. */
		jobs[i].is_threaded = i > 0 && has_attr &&
				      !pthread_create(&jobs[i].thread, &attr, run_section, &jobs[i]);
	}
	run_section(&jobs[0]);
	for (size_t i = 1; i < N; i++) {
		if (jobs[i].is_threaded)
			pthread_join(jobs[i].thread, NULL);
		else
			run_section(&jobs[i]);
	}
	if (has_attr)
		pthread_attr_destroy(&attr);
	for (size_t i = 0; i < N; i++) {
		struct ov_priv *part = &jobs[i].part;

		if (part->nr) {	/* a section without rows has no array */
			GROW(op->rows, op->alloc, op->nr + part->nr);
			memcpy(op->rows + op->nr, part->rows, part->nr * sizeof(*part->rows));
			op->nr += part->nr;
		}
		*nr_capped += part->nr_capped;
		if (part->cpath_step)
			op->cpath_step = part->cpath_step;
		free(part->rows);
	}
}

static void ov_load(struct pane *pane)
{
	const struct profile *p = pane->prof;
	struct ov_priv *op = xcalloc(1, sizeof(*op));

	pane->priv = op;
	overview_compute(p, &op->ov);
	pane->nr_capped += op->ov.nr_capped;
	/* An overview of a profile with neither steps nor device time
	 * would say nothing: it has no rows, and the UI opens elsewhere. */
	if (p->nr_steps || p->has_device_time) {
		add_gpus(p, op);
		add_steps(p, op);
		add_perf_summary(p, op);
		add_precisions(op);
		if (op->ov.nr_recs) {
			add(op, OV_SECTION, xstrdup("Recommendations"), NULL);
			for (size_t i = 0; i < op->ov.nr_recs; i++)
				add_advice(op, op->ov.recs[i].text, op->ov.recs[i].is_plugin);
		}
		add_top(p, op);
		add_analyses(pane, op, &pane->nr_capped);
	}
	pane->rows = xmalloc((op->nr ? op->nr : 1) * sizeof(*pane->rows));
	for (size_t i = 0; i < op->nr; i++)
		pane->rows[i] = &op->rows[i];
	pane->nr_rows = op->nr;
	for (size_t i = 0; i < ARRAY_SIZE(ov_cols); i++)
		pane_add_column(pane, &ov_cols[i]);
	pane->sort_col = -1;	/* the sections' order */
}

static int ov_depth(const struct pane *pane, size_t i)
{
	return ROW(pane_row(pane, i))->kind != OV_SECTION;
}

static int ov_fold(const struct pane *pane, size_t i)
{
	(void)pane, (void)i;
	return 0;
}

/* The generic filter keeps the sections around the lines it matches. */
static void ov_rebuild(struct pane *pane)
{
	size_t n = 0, section = SIZE_MAX;

	pane->view = xrealloc(pane->view, (pane->nr_rows ? pane->nr_rows : 1) * sizeof(*pane->view));
	for (size_t i = 0; i < pane->nr_rows; i++) {
		const struct ov_row *r = pane->rows[i];

		if (r->kind == OV_SECTION) {
			section = i;
			if (!pane->filter)
				pane->view[n++] = i;
			continue;
		}
		if (pane->filter && !filter_match(pane->filter, r->item, strlen(r->item)))
			continue;
		if (pane->filter && section != SIZE_MAX) {
			pane->view[n++] = section;
			section = SIZE_MAX;
		}
		pane->view[n++] = i;
	}
	pane->nr_view = n;
}

/* Enter (or Right) on a top op or kernel: show it in its pane. */
static bool ov_handle(struct pane *pane, enum action act, struct pane_request *req)
{
	const struct ov_row *r = pane_row(pane, pane->cursor);

	if ((act != ACT_DRILL && act != ACT_UNFOLD) || !r)
		return false;
	if (r->kind == OV_TEMPORAL || r->kind == OV_KERNEL_TYPE || r->kind == OV_API ||
	    r->kind == OV_ANNOTATIONS) {
		req->open = true;
		req->open_pane = r->kind == OV_TEMPORAL	   ? PANE_TEMPORAL
				 : r->kind == OV_KERNEL_TYPE ? PANE_KERNEL_TYPES
				 : r->kind == OV_API	   ? PANE_API
							   : PANE_ANNOTATIONS;
		memset(&req->open_scope, 0, sizeof(req->open_scope));
		return true;
	}
	if (r->kind == OV_IDLE_STREAM)
		return idle_handle(pane, req);
	if (r->kind == OV_LAUNCHES || r->kind == OV_LAUNCH_DIST)
		return launches_handle(pane, r, req);
	if (r->kind == OV_QUEUE || r->kind == OV_COPY_KIND) {
		req->open = true;
		req->open_pane = r->kind == OV_QUEUE ? PANE_QUEUE_LENGTH : PANE_MEMORY_BANDWIDTH;
		memset(&req->open_scope, 0, sizeof(req->open_scope));
		return true;
	}
	if (r->kind == OV_OVERLAP) {
		req->open = true;
		req->open_pane = PANE_RANK_ANALYSES;
		memset(&req->open_scope, 0, sizeof(req->open_scope));
		return true;
	}
	if (r->kind == OV_CPATH) {
		req->open = true;
		req->open_pane = PANE_CRITICAL_PATH;
		memset(&req->open_scope, 0, sizeof(req->open_scope));
		req->open_scope.step = ((const struct ov_priv *)pane->priv)->cpath_step;
		return true;
	}
	if (r->kind != OV_TOP_OP && r->kind != OV_TOP_KERNEL) {
		req->message = "Enter on a top op or kernel, or on a row of the sections after them, opens its pane";
		return true;
	}
	req->jump = true;
	req->jump_to = r->kind == OV_TOP_OP ? PANE_OPS : PANE_KERNELS;
	req->jump_row = r->jump;
	return true;
}

static size_t ov_bar(const struct pane *pane, const void *row, int64_t *seg, size_t max)
{
	const struct ov_priv *op = pane->priv;
	size_t n = pane->prof->nr_step_cats < max ? pane->prof->nr_step_cats : max;

	if (ROW(row)->kind != OV_STEP && ROW(row)->kind != OV_CATEGORY)
		return 0;
	for (size_t k = 0; k < n; k++) {
		double v = op->ov.avg_cat_ns[k];

		seg[k] = ROW(row)->kind == OV_CATEGORY && (int)k != ROW(row)->cat ? 0
			 : v == v ? (int64_t)llround(v) : 0;
	}
	return n;
}

static const char *const *ov_legend(const struct pane *pane, size_t *nr)
{
	*nr = pane->prof->nr_step_cats;
	return pane->prof->step_cats;
}

static void ov_empty(const struct pane *pane, char *buf, size_t size)
{
	(void)pane;
	snprintf(buf, size, "no steps and no device time: nothing to sum up (see Operators)");
}

/* ---------------------------------------------------------------------
 * JSON: the contract of --print overview --format json
 */

/* A number, or null where it is none (NaN) or not finite: JSON has no
 * inf. */
static void json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6f", v);
	else
		fputs("null", out);
}

static long ov_json(const struct pane *pane, FILE *out, size_t limit)
{
	const struct ov_priv *op = pane->priv;
	const struct overview *o = &op->ov;
	const struct profile *p = pane->prof;
	long rows = 0;

	(void)limit;
	fputs("[", out);
	for (size_t i = 0; i < o->nr_gpus; i++) {
		const struct gpu_metrics *g = &o->gpus[i];
		const struct device_info *d = profile_device(p, g->device);

		fprintf(out, "%s\n  {\"device\": \"GPU%d\", \"name\": ", rows ? "," : "", (int)g->device);
		if (d && d->name)
			export_json_string(out, d->name);
		else
			fputs("null", out);
		fputs(", \"gpu_utilization_pct\": ", out);
		json_num(out, g->utilization * 100);
		fputs(", \"sm_efficiency_pct\": ", out);
		json_num(out, g->sm_efficiency * 100);
		fputs(", \"achieved_occupancy_pct\": ", out);
		json_num(out, g->occupancy_pct);
		fputs(", \"tensor_core_pct\": ", out);
		json_num(out, g->tensor_core * 100);
		fputs("}", out);
		rows++;
	}
	fprintf(out, "%s\n  {\"steps\": %zu, \"average_step_us\": ", rows ? "," : "", o->nr_steps);
	json_num(out, o->nr_steps ? o->avg_step_ns / 1e3 : NAN);
	fputs(", \"step_breakdown_pct\": {", out);
	for (size_t c = 0, n = 0; c < p->nr_step_cats; c++) {
		if (o->avg_cat_ns[c] != o->avg_cat_ns[c] || !(o->avg_step_ns > 0))
			continue;
		fputs(n++ ? ", " : "", out);
		export_json_string(out, p->step_cats[c]);
		fputs(": ", out);
		json_num(out, 100 * o->avg_cat_ns[c] / o->avg_step_ns);
	}
	fputs("}", out);
	if (rest_pct(o) == rest_pct(o)) {
		fputs(", \"step_rest_pct\": ", out);
		json_num(out, rest_pct(o));
	}
	fputs(", \"recommendations\": [", out);
	for (size_t i = 0; i < o->nr_recs; i++) {
		char text[1100];

		snprintf(text, sizeof(text), "[%s] %s",
			 o->recs[i].is_plugin ? "torch-tb-profiler" : "proftui", o->recs[i].text);
		fputs(i ? ", " : "", out);
		export_json_string(out, text);
	}
	fputs("]}\n]\n", out);
	return rows + 1;
}

static void ov_release(struct pane *pane)
{
	struct ov_priv *op = pane->priv;

	if (!op)
		return;
	for (size_t i = 0; i < op->nr; i++) {
		free(op->rows[i].item);
		free(op->rows[i].value);
	}
	free(op->rows);
	overview_release(&op->ov);
	free(op);
}

static const enum action ov_hints[] = {
	ACT_HELP, ACT_DRILL, ACT_FILTER, ACT_EXPORT, ACT_NEXT_PANE, ACT_BACK, ACT_NONE,
};

/* The actions handle() takes. */
static const enum action ov_actions[] = {
	ACT_DRILL, ACT_UNFOLD, ACT_NONE,
};

static const struct pane_tree_ops ov_tree = { .row_depth = ov_depth, .row_fold = ov_fold };
static const struct pane_picture_ops ov_picture = { .bar = ov_bar, .legend = ov_legend };
static const struct pane_print_ops ov_print = { .export_json = ov_json };
static const struct pane_text_ops ov_text = { .hints = ov_hints };

const struct pane_ops overview_pane_ops = {
	.id = PANE_OVERVIEW, .available = pane_one_profile,
	.load = ov_load, .rebuild = ov_rebuild, .row_name = ov_name,
	.handle = ov_handle, .actions = ov_actions, .empty_text = ov_empty, .release = ov_release,
	.tree = &ov_tree, .picture = &ov_picture, .print = &ov_print, .text = &ov_text,
};
