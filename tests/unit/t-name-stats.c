// SPDX-License-Identifier: MIT
/* The API summary (model/name_stats.h): one row per runtime call name,
 * with the figures of nsys's cuda_api_sum, from the profile's runtime
 * nodes; what a pre-aggregated row cannot give stays unknown. */
#include <math.h>

#include "test.h"
#include "model/name_stats.h"

/* A runtime call NAME of DUR ns starting at START under the root, one
 * call as a trace's event is. */
static struct node *call(struct profile *p, const char *name, int64_t start, int64_t dur)
{
	struct node *n = node_new(p, p->root, NODE_RUNTIME, name, strlen(name));

	n->start_ns = start;
	node_set_calls(p, n, 1);
	node_set_host_total(p, n, dur);
	node_set_host_self(p, n, dur);
	return n;
}

static const struct name_row *row_of(const struct name_stats *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->rows[i].name, name))
			return &s->rows[i];
	return NULL;
}

static void test_figures(void)
{
	struct profile p;
	struct name_stats s;
	const struct name_row *r;

	profile_init(&p, "t");
	call(&p, "cudaLaunchKernel", 0, 1000);
	call(&p, "cudaLaunchKernel", 10, 3000);
	call(&p, "cudaLaunchKernel", 20, 2000);
	call(&p, "cudaLaunchKernel", 30, 10000);
	call(&p, "cudaMemcpyAsync", 40, 50000);
	/* An op is not an API call. */
	node_set_host_total(&p, node_new(&p, p.root, NODE_OP, "aten::mm", 8), 7);
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_API, NULL, &s);
	CHECK_EQ(s.nr, 2);
	CHECK_STR(s.rows[0].name, "cudaMemcpyAsync");	/* the longest total first */
	CHECK_EQ(s.total_ns, 66000);
	r = row_of(&s, "cudaLaunchKernel");
	CHECK(r != NULL);
	CHECK_EQ(r->calls, 4);
	CHECK_EQ(r->total_ns, 16000);
	CHECK_EQ(r->min_ns, 1000);
	CHECK_EQ(r->max_ns, 10000);
	CHECK_EQ(r->median_ns, 2500);	/* the mean of the middle two */
	/* Sample standard deviation of 1000, 2000, 3000, 10000 ns. */
	CHECK(fabs(r->stddev_ns - 4082.48290463863) < 1e-6);
	r = row_of(&s, "cudaMemcpyAsync");
	CHECK_EQ(r->median_ns, 50000);
	CHECK(isnan(r->stddev_ns));	/* one call: no spread to speak of */
	name_stats_release(&s);
	/* The Overview's count: the same calls and total, without rows. */
	{
		uint64_t calls;
		int64_t total;

		name_stats_count(&p, NAME_STATS_API, &calls, &total);
		CHECK_EQ(calls, 5);
		CHECK_EQ(total, 66000);
	}
	profile_release(&p);
}

/* An even count whose middle two are odd apart rounds half away from
 * zero, as every mean of proftui does. */
static void test_median_rounds(void)
{
	struct profile p;
	struct name_stats s;

	profile_init(&p, "t");
	call(&p, "cudaEventRecord", 0, 1);
	call(&p, "cudaEventRecord", 1, 2);
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_API, NULL, &s);
	CHECK_EQ(s.rows[0].median_ns, 2);
	name_stats_release(&s);
	profile_release(&p);
}

/* A key_averages row: 100 calls counted in the file, their sum and
 * extremes; single durations are not there, so neither median nor
 * spread is. */
static void test_counted_row(void)
{
	struct profile p;
	struct name_stats s;
	struct node *n;

	profile_init(&p, "t");
	n = call(&p, "cudaLaunchKernel", NS_UNTIMED, 500000);
	node_set_calls(&p, n, 100);
	node_set_minmax(&p, n, 3000, 9000);
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_API, NULL, &s);
	CHECK_EQ(s.rows[0].calls, 100);
	CHECK_EQ(s.rows[0].total_ns, 500000);
	CHECK_EQ(s.rows[0].min_ns, 3000);
	CHECK_EQ(s.rows[0].max_ns, 9000);
	CHECK_EQ(s.rows[0].median_ns, -1);
	CHECK(isnan(s.rows[0].stddev_ns));
	name_stats_release(&s);
	profile_release(&p);
}

/* A row of a printed report (nsys stats) states its mean, median,
 * deviation, share and report: the row shows those; two such rows of one
 * name merge into a row that states none of them. */
static void test_file_figures(void)
{
	struct profile p;
	struct name_stats s;
	struct node *n;
	const struct name_row *r;

	profile_init(&p, "t");
	n = call(&p, "poll", NS_UNTIMED, 3000000);
	node_set_calls(&p, n, 3);
	node_set_minmax(&p, n, 900000, 1149999);
	attr_set_ns(&p, node_attr_list(n), ATTR_FILE_MEAN, 1000001);
	attr_set_ns(&p, node_attr_list(n), ATTR_FILE_MEDIAN, 950001);
	attr_set_ns(&p, node_attr_list(n), ATTR_FILE_STDDEV, 130000);
	attr_set_double(&p, node_attr_list(n), ATTR_FILE_SHARE_PCT, 75.0);
	attr_set_str(&p, node_attr_list(n), ATTR_FILE_REPORT, "osrt_sum", 8);
	n = call(&p, "ioctl", NS_UNTIMED, 100);
	node_set_calls(&p, n, 2);
	attr_set_ns(&p, node_attr_list(n), ATTR_FILE_MEDIAN, 50);
	n = call(&p, "ioctl", NS_UNTIMED, 300);
	node_set_calls(&p, n, 2);
	attr_set_ns(&p, node_attr_list(n), ATTR_FILE_MEDIAN, 150);
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_API, NULL, &s);
	r = row_of(&s, "poll");
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(r->mean_ns, 1000001);
		CHECK_EQ(r->median_ns, 950001);
		CHECK(r->stddev_ns == 130000.0);
		CHECK(r->file_pct == 75.0);
		CHECK_STR(r->report, "osrt_sum");
		CHECK_EQ(r->min_ns, 900000);
	}
	r = row_of(&s, "ioctl");
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(r->calls, 4);
		CHECK_EQ(r->median_ns, -1);
		CHECK_EQ(r->mean_ns, -1);
		CHECK(isnan(r->file_pct));
		CHECK(r->report == NULL);
	}
	name_stats_release(&s);
	profile_release(&p);
}

/* A step keeps the calls that started in it. */
static void test_step(void)
{
	struct profile p;
	struct name_stats s;
	struct step *st;

	profile_init(&p, "t");
	call(&p, "cudaLaunchKernel", 100, 5);
	call(&p, "cudaLaunchKernel", 200, 7);
	call(&p, "cudaStreamSynchronize", 250, 9);
	st = profile_add_step(&p, "1", 1);
	st->start_ns = 150;
	st->end_ns = 300;
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_API, &(struct name_stats_scope){ .step = &p.steps[0] }, &s);
	CHECK_EQ(s.nr, 2);
	CHECK_EQ(row_of(&s, "cudaLaunchKernel")->calls, 1);
	CHECK_EQ(row_of(&s, "cudaLaunchKernel")->total_ns, 7);
	CHECK_EQ(s.total_ns, 16);
	name_stats_release(&s);
	profile_release(&p);
}

/* A range of time keeps the calls that start in it, each with all its
 * time (the one at 100 ends inside it and stays out); with a step, those
 * that start in both. */
static void test_range(void)
{
	struct profile p;
	struct name_stats s;
	struct step *st;
	struct name_stats_scope sc = { .has_range = true, .range_start_ns = 104,
				       .range_end_ns = 250 };

	profile_init(&p, "t");
	call(&p, "cudaLaunchKernel", 100, 5);
	call(&p, "cudaLaunchKernel", 200, 70);	/* ends past the range: all 70 */
	call(&p, "cudaLaunchKernel", 104, 3);
	call(&p, "cudaStreamSynchronize", 250, 9);	/* starts at its end: out */
	st = profile_add_step(&p, "1", 1);
	st->start_ns = 150;
	st->end_ns = 300;
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_API, &sc, &s);
	CHECK_EQ(s.nr, 1);
	CHECK_EQ(row_of(&s, "cudaLaunchKernel")->calls, 2);
	CHECK_EQ(row_of(&s, "cudaLaunchKernel")->total_ns, 73);
	name_stats_release(&s);
	sc.step = &p.steps[0];
	name_stats_make(&p, NAME_STATS_API, &sc, &s);
	CHECK_EQ(s.nr, 1);
	CHECK_EQ(row_of(&s, "cudaLaunchKernel")->calls, 1);
	CHECK_EQ(row_of(&s, "cudaLaunchKernel")->total_ns, 70);
	name_stats_release(&s);
	profile_release(&p);
}

/* Sums a file makes too long saturate and say so; nothing wraps. */
static void test_capped(void)
{
	struct profile p;
	struct name_stats s;

	profile_init(&p, "t");
	for (int i = 0; i < 3000; i++)
		call(&p, "cudaDeviceSynchronize", i, BOUND_DUR_NS);
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_API, NULL, &s);
	CHECK(s.rows[0].capped);
	CHECK(s.capped);
	CHECK_EQ(s.rows[0].total_ns, SUM_CAP);
	CHECK_EQ(s.rows[0].median_ns, BOUND_DUR_NS);
	name_stats_release(&s);
	profile_release(&p);
}

/* Annotations: the host's ranges by host time, their GPU copies (device
 * ranges) by device time, each side apart. */
static void test_annotations(void)
{
	struct profile p;
	struct name_stats host, gpu;
	struct node *n;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_ANNOTATION, "forward", 7);
	n->start_ns = 0;
	node_set_calls(&p, n, 1);
	node_set_host_total(&p, n, 5000);
	n = node_new(&p, p.root, NODE_ANNOTATION, "forward", 7);
	n->start_ns = 1000400;
	n->flags |= NODE_DEVICE_RANGE;
	node_set_calls(&p, n, 1);
	node_set_device_total(&p, n, 2200);
	call(&p, "cudaLaunchKernel", 10, 3);
	profile_finish(&p);
	name_stats_make(&p, NAME_STATS_HOST_ANNOTATIONS, NULL, &host);
	name_stats_make(&p, NAME_STATS_GPU_ANNOTATIONS, NULL, &gpu);
	CHECK_EQ(host.nr, 1);
	CHECK_EQ(host.rows[0].total_ns, 5000);
	CHECK_EQ(gpu.nr, 1);
	CHECK_EQ(gpu.rows[0].total_ns, 2200);
	name_stats_release(&gpu);
	/* HTA's parser: ceil(1000.4 us) to floor(1002.6 us), 1 us -- the
	 * departure proftui(1) lists; the pane keeps the file's 2.2 us. */
	name_stats_make(&p, NAME_STATS_GPU_ANNOTATIONS,
			&(struct name_stats_scope){ .round_like_hta = true }, &gpu);
	CHECK_EQ(gpu.rows[0].total_ns, 1000);
	name_stats_release(&gpu);
	/* HTA leaves out what started at or after its last step's start. */
	name_stats_make(&p, NAME_STATS_GPU_ANNOTATIONS,
			&(struct name_stats_scope){ .before_ns = 1000400 }, &gpu);
	CHECK_EQ(gpu.nr, 0);
	name_stats_release(&gpu);
	name_stats_release(&host);
	profile_release(&p);
}

/* The calls counted apart by the report each is a row of; past the cap,
 * the rest are one part of report "". */
static void test_parts(void)
{
	struct profile p;
	struct name_stats_part *v;
	char report[32];
	size_t n;
	struct node *c;

	profile_init(&p, "t");
	c = call(&p, "cudaLaunchKernel", 0, 1000);
	attr_set_str(&p, node_attr_list(c), ATTR_FILE_REPORT, "cuda_api_sum", 12);
	c = call(&p, "read", 10, 300);
	attr_set_str(&p, node_attr_list(c), ATTR_FILE_REPORT, "osrt_sum", 8);
	c = call(&p, "write", 20, 200);
	attr_set_str(&p, node_attr_list(c), ATTR_FILE_REPORT, "osrt_sum", 8);
	call(&p, "cudaFree", 30, 5);
	profile_finish(&p);
	n = name_stats_count_parts(&p, NAME_STATS_API, &v);
	CHECK_EQ(n, 3);
	CHECK_STR(v[0].report, "cuda_api_sum");
	CHECK_EQ(v[0].calls, 1);
	CHECK_EQ(v[0].total_ns, 1000);
	CHECK_STR(v[1].report, "osrt_sum");
	CHECK_EQ(v[1].calls, 2);
	CHECK_EQ(v[1].total_ns, 500);
	CHECK(v[2].report == NULL);
	CHECK_EQ(v[2].total_ns, 5);
	free(v);
	profile_release(&p);

	profile_init(&p, "t");
	for (int i = 0; i < 40; i++) {
		snprintf(report, sizeof(report), "r%d", i);
		c = call(&p, "x", i, 1);
		attr_set_str(&p, node_attr_list(c), ATTR_FILE_REPORT, report, strlen(report));
	}
	profile_finish(&p);
	n = name_stats_count_parts(&p, NAME_STATS_API, &v);
	CHECK_EQ(n, NAME_STATS_PARTS_MAX);
	CHECK_STR(v[n - 1].report, "");
	CHECK_EQ(v[n - 1].calls, 40 - (NAME_STATS_PARTS_MAX - 1));
	free(v);
	profile_release(&p);
}

const struct test tests[] = {
	{ "calls apart by the printed report they are rows of", test_parts },
	{ "calls, total, extremes, median and spread per name", test_figures },
	{ "an even count's median rounds half away from zero", test_median_rounds },
	{ "a pre-aggregated row has no median or spread", test_counted_row },
	{ "a printed report's row shows its own figures", test_file_figures },
	{ "a step keeps the calls that started in it", test_step },
	{ "a range of time keeps the calls that start in it", test_range },
	{ "long sums saturate, flagged", test_capped },
	{ "annotations: host and GPU sides; HTA's rounding and last step", test_annotations },
	{ 0 },
};
