/* SPDX-License-Identifier: MIT */
/*
 * launch_stats: kernel launch statistics (launch_stats.h says what is
 * counted).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta_time.h"
#include "launch_stats.h"
#include "temporal.h"
#include "util.h"

static const char *const figure_names[NR_LAUNCH_FIGURES] = {
	[LAUNCH_CPU] = "cpu_duration",
	[LAUNCH_GPU] = "gpu_duration",
	[LAUNCH_DELAY] = "launch_delay",
};

const char *launch_figure_name(enum launch_figure f)
{
	return f < NR_LAUNCH_FIGURES ? figure_names[f] : "?";
}

const char *launch_class_text(unsigned cls)
{
	static const char *const text[8] = {
		"",
		"short",
		"runtime outlier",
		"short + runtime outlier",	/* cannot be: short needs cpu <= cutoff */
		"delay outlier",
		"short + delay outlier",
		"runtime outlier + delay outlier",
		"short + runtime outlier + delay outlier",
	};

	return text[cls & 7];
}

void launch_options_default(struct launch_options *o)
{
	memset(o, 0, sizeof(*o));
	o->runtime_cutoff_ns = 50000;
	o->delay_cutoff_ns = 100000;
	o->lo_ns = INT64_MIN;
	o->hi_ns = INT64_MAX;
	o->launched_before_ns = INT64_MAX;
}

void launch_options_for_step(struct launch_options *o, const struct profile *p,
			     const struct step *picked)
{
	struct temporal_opts t = temporal_opts_for_step(p, picked);

	launch_options_default(o);
	if (t.has_window) {
		o->lo_ns = t.window_start_ns;
		o->hi_ns = t.window_end_ns;
	}
}

void launch_options_narrow(struct launch_options *o, int64_t start_ns, int64_t end_ns)
{
	window_narrow(&o->lo_ns, &o->hi_ns, start_ns, end_ns);
}

/* HTA's launch events (cuda_kernel_analysis.py), by their whole name. */
static const char *const hta_calls[] = {
	"cudaLaunchKernel",
	"cudaLaunchKernelExC",
	"runFunction - job_prep_and_submit_for_execution",
	"cudaMemcpyAsync",
	"cudaMemsetAsync",
};

bool launch_is_hta_call(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(hta_calls); i++)
		if (!strcmp(name, hta_calls[i]))
			return true;
	return false;
}

struct collect {
	const struct profile *p;
	const struct launch_options *o;
	struct launch_row *v;
	size_t nr, alloc;
};

/* A - B, saturated at the ends of int64. */
static int64_t sat_sub(int64_t a, int64_t b)
{
	int64_t d;

	if (!__builtin_sub_overflow(a, b, &d))
		return d;
	return b < 0 ? INT64_MAX : INT64_MIN;
}

/* The end of [START, START + DUR), saturated. */
static int64_t sat_end(int64_t start, int64_t dur)
{
	int64_t e;

	if (!__builtin_add_overflow(start, dur, &e))
		return e;
	return dur > 0 ? INT64_MAX : INT64_MIN;
}

static bool visit(struct node *n, void *ctx)
{
	struct collect *c = ctx;
	const struct launch_options *o = c->o;
	const struct node *call;
	int64_t cpu_start, cpu_dur, cpu_end, gpu_start, gpu_dur, gpu_end;
	struct launch_row r;

	if (!node_kind_is_device((enum node_kind)n->kind))
		return true;
	call = node_parent(n);
	if (!call || call->kind != NODE_RUNTIME || !node_is_timed(call) || !node_is_timed(n))
		return true;
	if (o->hta_launch_set && !launch_is_hta_call(node_name(call)))
		return true;
	cpu_start = call->start_ns;
	cpu_dur = node_host_total(c->p, call);
	gpu_start = n->start_ns;
	gpu_dur = node_device_total(c->p, n);
	if (cpu_dur == NS_UNTIMED || gpu_dur == NS_UNTIMED)
		return true;
	if (cpu_start < o->lo_ns || cpu_start >= o->hi_ns)
		return true;
	if (o->round_like_hta) {
		cpu_end = hta_end_ns(cpu_start, cpu_dur);
		cpu_start = hta_start_ns(cpu_start);
		gpu_end = hta_end_ns(gpu_start, gpu_dur);
		gpu_start = hta_start_ns(gpu_start);
	} else {
		cpu_end = sat_end(cpu_start, cpu_dur);
		gpu_end = sat_end(gpu_start, gpu_dur);
	}
	if (o->launched_before_ns != INT64_MAX) {
		int64_t bound = o->launched_before_ns;

		if (o->round_like_hta)
			bound = hta_start_ns(bound);
		if (cpu_start >= bound)
			return true;
	}
	r.work = n;
	r.cpu_ns = sat_sub(cpu_end, cpu_start);
	r.gpu_ns = sat_sub(gpu_end, gpu_start);
	r.delay_ns = sat_sub(gpu_start, cpu_end);
	if (r.delay_ns < 0)
		r.delay_ns = 0;
	r.cls = 0;
	if (r.cpu_ns <= o->runtime_cutoff_ns && r.gpu_ns < r.cpu_ns)
		r.cls |= LAUNCH_SHORT;
	if (r.cpu_ns > o->runtime_cutoff_ns)
		r.cls |= LAUNCH_RUNTIME_OUTLIER;
	if (r.delay_ns > o->delay_cutoff_ns)
		r.cls |= LAUNCH_DELAY_OUTLIER;
	GROW(c->v, c->alloc, c->nr + 1);
	c->v[c->nr++] = r;
	return true;
}

static int cmp_row(const void *a, const void *b)
{
	const struct launch_row *x = a, *y = b;
	const struct node *cx = node_parent(x->work), *cy = node_parent(y->work);

	if (cx->start_ns != cy->start_ns)
		return cx->start_ns < cy->start_ns ? -1 : 1;
	if (x->work->start_ns != y->work->start_ns)
		return x->work->start_ns < y->work->start_ns ? -1 : 1;
	return (node_handle(x->work) > node_handle(y->work)) -
	       (node_handle(x->work) < node_handle(y->work));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double launch_quantile(const double *v, size_t n, double q)
{
	double pos;
	size_t lo;

	if (!n)
		return NAN;
	pos = q * (double)(n - 1);
	lo = (size_t)floor(pos);
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

/* D from the N values of figure F of ROWS, in SCRATCH. */
static void describe(const struct launch_row *rows, size_t n, enum launch_figure f,
		     double *scratch, struct launch_dist *d)
{
	double sum = 0, sq = 0;

	memset(d, 0, sizeof(*d));
	d->count = n;
	d->mean = d->std = d->min = d->p50 = d->p90 = d->p99 = d->max = NAN;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		int64_t v = f == LAUNCH_CPU ? rows[i].cpu_ns
			    : f == LAUNCH_GPU ? rows[i].gpu_ns
					      : rows[i].delay_ns;

		scratch[i] = (double)v;
		sum += scratch[i];
		if (!sum_add(&d->total_ns, v))
			d->capped = true;
	}
	d->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (scratch[i] - d->mean) * (scratch[i] - d->mean);
	if (n > 1)
		d->std = sqrt(sq / (double)(n - 1));
	qsort(scratch, n, sizeof(*scratch), cmp_double);
	d->min = scratch[0];
	d->max = scratch[n - 1];
	d->p50 = launch_quantile(scratch, n, 0.50);
	d->p90 = launch_quantile(scratch, n, 0.90);
	d->p99 = launch_quantile(scratch, n, 0.99);
}

void launch_stats_compute(const struct profile *p, const struct launch_options *o,
			  struct launch_stats *s)
{
	struct launch_options def;
	struct collect c = { 0 };
	double *scratch;

	memset(s, 0, sizeof(*s));
	if (!o) {
		launch_options_default(&def);
		o = &def;
	}
	c.p = p;
	c.o = o;
	if (p->root)
		node_walk(p->root, visit, &c);
	s->rows = c.v;
	s->nr = c.nr;
	if (c.nr > 1)
		qsort(s->rows, s->nr, sizeof(*s->rows), cmp_row);
	s->sum.nr_launches = c.nr;
	for (size_t i = 0; i < c.nr; i++) {
		s->sum.nr_short += !!(c.v[i].cls & LAUNCH_SHORT);
		s->sum.nr_runtime_outliers += !!(c.v[i].cls & LAUNCH_RUNTIME_OUTLIER);
		s->sum.nr_delay_outliers += !!(c.v[i].cls & LAUNCH_DELAY_OUTLIER);
	}
	scratch = xmalloc((c.nr ? c.nr : 1) * sizeof(*scratch));
	for (int f = 0; f < NR_LAUNCH_FIGURES; f++)
		describe(s->rows, s->nr, (enum launch_figure)f, scratch, &s->sum.dist[f]);
	free(scratch);
}

void launch_stats_release(struct launch_stats *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

void launch_summary_make(const struct profile *p, const struct launch_options *o,
			 struct launch_summary *out)
{
	struct launch_stats s;

	launch_stats_compute(p, o, &s);
	*out = s.sum;
	launch_stats_release(&s);
}
