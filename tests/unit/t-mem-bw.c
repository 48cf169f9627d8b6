/* SPDX-License-Identifier: MIT */
/*
 * Memory copies and sets by kind (model/mem_bw.c) on small profiles made
 * by hand -- kinds from names, bytes, time and GB/s, events without a
 * "bytes" arg, no copy at all, HTA's sweep of the events' own bandwidths
 * and its order of ties, a capped sum, many copies in O(n log n) -- and
 * on a Kineto file of ours, whose "bytes" and "memory bandwidth (GB/s)"
 * args the loader must keep.
 */
#include <math.h>

#include "model/bounds.h"
#include "model/mem_bw.h"
#include "parsers/load.h"
#include "test.h"

#define US 1000

static struct node *copy(struct profile *p, enum node_kind kind, const char *name, int64_t start,
			 int64_t dur, int64_t bytes, double gbps)
{
	struct node *n = node_new(p, p->root, kind, name, strlen(name));

	n->start_ns = start;
	node_set_calls(p, n, 1);
	node_set_device_total(p, n, dur);
	node_set_device_self(p, n, dur);
	profile_set_copy(p, n, 0, 7, bytes, gbps);
	return n;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (fabs(b) + 1);
}

static const struct mem_bw_kind *kind(const struct mem_bw *b, const char *name)
{
	for (size_t i = 0; i < b->nr_kinds; i++)
		if (b->kinds[i].name_len == strlen(name) && !memcmp(b->kinds[i].name, name, strlen(name)))
			return &b->kinds[i];
	return NULL;
}

/*
 * Two HtoD copies (1 MB in 10 us, 3 MB in 20 us), a DtoH without a
 * "bytes" arg (5 us), two sets: kinds in name order; GB/s over the sized
 * events only.
 */
static void t_kinds(void)
{
	struct profile p;
	struct mem_bw b;
	const struct mem_bw_kind *k;

	profile_init(&p, "mem");
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pageable -> Device)", 0, 10 * US, 1000000, 100);
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pinned -> Device)", 50 * US, 20 * US, 3000000, 150);
	copy(&p, NODE_MEMCPY, "Memcpy DtoH (Device -> Pinned)", 100 * US, 5 * US, -1, NAN);
	copy(&p, NODE_MEMSET, "Memset (Device)", 200 * US, 1 * US, 4000, 4);
	copy(&p, NODE_MEMSET, "Memset (Device)", 300 * US, 0, 0, 0);
	profile_finish(&p);
	mem_bw_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_kinds, 3);
	CHECK(b.kinds[0].name_len == 11 && !memcmp(b.kinds[0].name, "Memcpy DtoH", 11));
	CHECK(b.kinds[1].name_len == 11 && !memcmp(b.kinds[1].name, "Memcpy HtoD", 11));
	CHECK(b.kinds[2].name_len == 6 && !memcmp(b.kinds[2].name, "Memset", 6));
	k = kind(&b, "Memcpy HtoD");
	CHECK_EQ(k->count, 2);
	CHECK_EQ(k->nr_sized, 2);
	CHECK_EQ(k->bytes, 4000000);
	CHECK_EQ(k->time_ns, 30 * US);
	CHECK(near(k->gbps, 4000000.0 / 30000));	/* bytes per ns: GB/s */
	CHECK_EQ(k->min_bytes, 1000000);
	CHECK_EQ(k->max_bytes, 3000000);
	CHECK(near(k->mean_bytes, 2000000));
	CHECK_EQ(k->hta.count, 0);	/* only with hta_summary */
	k = kind(&b, "Memcpy DtoH");
	CHECK_EQ(k->count, 1);
	CHECK_EQ(k->nr_sized, 0);
	CHECK_EQ(k->time_ns, 5 * US);
	CHECK(isnan(k->gbps));
	CHECK(isnan(k->mean_bytes));
	CHECK_EQ(k->min_bytes, -1);
	k = kind(&b, "Memset");
	CHECK_EQ(k->count, 2);
	CHECK_EQ(k->bytes, 4000);
	CHECK(near(k->gbps, 4));
	mem_bw_release(&b);
	profile_release(&p);
}

/* A range of time keeps the copies and sets that start in it, each whole:
 * [5, 200) us holds the second HtoD (3 MB in 20 us: 150 GB/s)
 * and the DtoH; the set at 200 starts at its end. */
static void t_range(void)
{
	struct profile p;
	struct mem_bw b;
	struct mem_bw_options o;
	const struct mem_bw_kind *k;

	profile_init(&p, "mem");
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pageable -> Device)", 0, 10 * US, 1000000, 100);
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pinned -> Device)", 50 * US, 20 * US, 3000000, 150);
	copy(&p, NODE_MEMCPY, "Memcpy DtoH (Device -> Pinned)", 100 * US, 5 * US, -1, NAN);
	copy(&p, NODE_MEMSET, "Memset (Device)", 200 * US, 1 * US, 4000, 4);
	profile_finish(&p);
	mem_bw_options_default(&o);
	o.has_range = true;
	o.range_start_ns = 5 * US;
	o.range_end_ns = 200 * US;
	mem_bw_compute(&p, &o, &b);
	CHECK_EQ(b.nr_kinds, 2);
	k = kind(&b, "Memcpy HtoD");
	CHECK_EQ(k->count, 1);
	CHECK_EQ(k->bytes, 3000000);
	CHECK_EQ(k->time_ns, 20 * US);
	CHECK(near(k->gbps, 150));
	CHECK(kind(&b, "Memcpy DtoH") != NULL);
	CHECK(kind(&b, "Memset") == NULL);
	mem_bw_release(&b);
	profile_release(&p);
}

/*
 * HTA's sweep: copies A [0, 10) at 100 GB/s and B [5, 20) at 50, and a
 * set of 0 us at 30 (lasting 1 us) at 8: running sums 100, 150, 50, 0, 8,
 * 0; the positive ones 100 150 50 8.  Ties: C [20, 25) at 20 starts when
 * B ends -- starts first 70 then 20, ends first 0 (not positive) then
 * 20.
 */
static void t_hta_sweep(void)
{
	struct profile p;
	struct mem_bw b;
	struct mem_bw_options o;
	const struct describe *d;

	profile_init(&p, "mem");
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pinned -> Device)", 0, 10 * US, 1000000, 100);
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pinned -> Device)", 5 * US, 15 * US, 750000, 50);
	copy(&p, NODE_MEMSET, "Memset (Device)", 30 * US, 0, 0, 8);
	profile_finish(&p);
	mem_bw_options_default(&o);
	o.hta_summary = true;
	mem_bw_compute(&p, &o, &b);
	d = &kind(&b, "Memcpy HtoD")->hta;
	CHECK_EQ(d->count, 3);
	CHECK(near(d->mean, 100));
	CHECK(near(d->max, 150));
	CHECK(near(d->min, 50));
	d = &kind(&b, "Memset")->hta;
	CHECK_EQ(d->count, 1);
	CHECK(near(d->max, 8));
	mem_bw_release(&b);
	profile_release(&p);

	profile_init(&p, "mem");
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pinned -> Device)", 5 * US, 15 * US, 750000, 50);
	copy(&p, NODE_MEMCPY, "Memcpy HtoD (Pinned -> Device)", 20 * US, 5 * US, 100000, 20);
	profile_finish(&p);
	mem_bw_compute(&p, &o, &b);
	d = &b.kinds[0].hta;
	CHECK_EQ(d->count, 3);		/* 50, 70, 20 */
	CHECK(near(d->max, 70));
	mem_bw_release(&b);
	o.ends_first = true;
	mem_bw_compute(&p, &o, &b);
	d = &b.kinds[0].hta;
	CHECK_EQ(d->count, 2);		/* 50, (0), 20 */
	CHECK(near(d->max, 50));
	mem_bw_release(&b);
	profile_release(&p);
}

/* No copy, and kernels only: no kind. */
static void t_none(void)
{
	struct profile p;
	struct mem_bw b;
	struct node *k;

	profile_init(&p, "mem");
	k = node_new(&p, p.root, NODE_KERNEL, "k", 1);
	k->start_ns = 0;
	node_set_device_total(&p, k, 10);
	profile_finish(&p);
	mem_bw_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_kinds, 0);
	CHECK(b.kinds == NULL);
	mem_bw_release(&b);
	profile_release(&p);
}

/* Bytes past SUM_CAP hold the cap and make no GB/s. */
static void t_capped(void)
{
	struct profile p;
	struct mem_bw b;

	profile_init(&p, "mem");
	copy(&p, NODE_MEMCPY, "Memcpy DtoD (Device -> Device)", 0, 10, SUM_CAP / 2 + SUM_CAP / 4, 1);
	copy(&p, NODE_MEMCPY, "Memcpy DtoD (Device -> Device)", 20, 10, SUM_CAP / 2 + SUM_CAP / 4, 1);
	profile_finish(&p);
	mem_bw_compute(&p, NULL, &b);
	CHECK_EQ(b.kinds[0].bytes, SUM_CAP);
	CHECK(b.nr_capped >= 1);
	CHECK(isnan(b.kinds[0].gbps));
	CHECK(isnan(b.kinds[0].mean_bytes));
	mem_bw_release(&b);
	profile_release(&p);
}

/* 200,000 copies of two kinds, made in reverse time: one sort. */
static void t_many(void)
{
	struct profile p;
	struct mem_bw b;
	struct mem_bw_options o;
	const size_t n = 200000;
	double t0;

	profile_init(&p, "mem");
	for (size_t i = n; i-- > 0;)
		copy(&p, NODE_MEMCPY, i % 2 ? "Memcpy HtoD (Pinned -> Device)" : "Memcpy DtoH (x)",
		     (int64_t)i * 10 * US, 5 * US, 1000, 0.2);
	profile_finish(&p);
	mem_bw_options_default(&o);
	o.hta_summary = true;
	t0 = test_cpu_s();
	mem_bw_compute(&p, &o, &b);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(b.nr_kinds, 2);
	CHECK_EQ(b.kinds[0].count + b.kinds[1].count, n);
	CHECK_EQ(b.kinds[0].hta.count, n / 2);
	mem_bw_release(&b);
	profile_release(&p);
}

/* The Kineto loader keeps a copy's and a set's "bytes" and "memory
 * bandwidth (GB/s)": the file's own figures, checked here against the
 * file (tests/golden/hta/queue-membw.json). */
static void t_kineto_args(void)
{
	const char *path = "tests/golden/hta/queue-membw.json";
	const char *paths[1] = { path };
	struct load_options lo = { 0 };
	struct profile p;
	struct mem_bw b;
	const struct mem_bw_kind *k;

	profile_init(&p, path);
	CHECK(profile_load(&p, paths, 1, &lo) == 0);
	mem_bw_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_kinds, 4);
	k = kind(&b, "Memcpy HtoD");
	CHECK(k != NULL);
	if (k) {
		CHECK_EQ(k->bytes, 2000000);
		CHECK_EQ(k->time_ns, 20 * US);
		CHECK(near(k->gbps, 100));
	}
	k = kind(&b, "Memcpy DtoD");
	CHECK(k && k->nr_sized == 0 && k->count == 1);
	k = kind(&b, "Memset");
	CHECK(k && k->bytes == 4096 + 16 && k->count == 2 && k->time_ns == 2 * US);
	mem_bw_release(&b);
	profile_release(&p);
}

/* Pre-aggregated rows: one with a copy record (an nsys stats report's)
 * counts as its calls with the extremes it states; one without (a
 * key_averages table's Memcpy row) stays out. */
static void t_rows(void)
{
	struct profile p;
	struct mem_bw b;
	const struct mem_bw_kind *k;
	struct node *n;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_MEMCPY, "[CUDA memcpy HtoD]", 18);
	node_set_calls(&p, n, 4);
	node_set_device_total(&p, n, 8 * US);
	attr_set_int(&p, node_attr_list(n), ATTR_COPY_MIN_BYTES, 1000);
	attr_set_int(&p, node_attr_list(n), ATTR_COPY_MAX_BYTES, 7000);
	profile_set_copy(&p, n, -1, -1, 16000, NAN);
	n = node_new(&p, p.root, NODE_MEMCPY, "Memcpy HtoD (Pageable -> Device)", 32);
	node_set_calls(&p, n, 3);
	node_set_device_total(&p, n, 5 * US);
	profile_finish(&p);
	mem_bw_compute(&p, NULL, &b);
	CHECK_EQ(b.nr_kinds, 1);
	k = kind(&b, "[CUDA memcpy HtoD]");
	CHECK(k != NULL);
	if (k) {
		CHECK_EQ(k->count, 4);
		CHECK_EQ(k->nr_sized, 4);
		CHECK_EQ(k->bytes, 16000);
		CHECK_EQ(k->time_ns, 8 * US);
		CHECK_EQ(k->min_bytes, 1000);
		CHECK_EQ(k->max_bytes, 7000);
		CHECK(near(k->mean_bytes, 4000));
		CHECK(near(k->gbps, 2.0));
	}
	mem_bw_release(&b);
	profile_release(&p);
}

const struct test tests[] = {
	{ "kinds, bytes, time, GB/s, unsized events", t_kinds },
	{ "HTA's sweep and its order of ties", t_hta_sweep },
	{ "no copy", t_none },
	{ "pre-aggregated rows: with a copy record only", t_rows },
	{ "capped sum", t_capped },
	{ "200,000 copies in O(n log n)", t_many },
	{ "kineto: bytes and bandwidth args kept", t_kineto_args },
	{ "a range of time keeps the copies that start in it", t_range },
	{ 0 },
};
