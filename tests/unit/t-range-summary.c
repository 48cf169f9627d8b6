// SPDX-License-Identifier: MIT
/* A range of time on the timeline, summarized by name: blocks that
 * straddle an edge count their part inside, nested blocks each count
 * their own time, a lane or every lane; and --range's times. */
#include "test.h"
#include "model/aggregate.h"
#include "model/bounds.h"
#include "model/range_summary.h"
#include "model/timeline.h"

#define US 1000
#define T0 1000000000LL

static struct node *add(struct profile *p, struct node *parent, enum node_kind kind,
			const char *name, int64_t start_us, int64_t dur_us)
{
	struct node *n = node_new(p, parent, kind, name, strlen(name));

	n->start_ns = T0 + start_us * US;
	node_set_calls(p, n, 1);
	if (node_kind_is_device(kind)) {
		node_set_device_total(p, n, dur_us * US);
		node_set_device_self(p, n, dur_us * US);
	} else {
		node_set_host_total(p, n, dur_us * US);
	}
	return n;
}

/*
 * thread 1: step [0, 100) > mm [10, 40) > launch [12, 14) > kernel k1 [20, 50)
 *                         > add [50, 60) > launch [51, 52) > kernel k2 [45, 70)
 * thread 2: relu [5, 15), mark [30, 30) (lasts nothing)
 */
static void build(struct profile *p)
{
	struct node *t1 = node_new(p, p->root, NODE_THREAD, "thread 1", 8);
	struct node *t2 = node_new(p, p->root, NODE_THREAD, "thread 2", 8);
	struct node *step = add(p, t1, NODE_STEP, "ProfilerStep#1", 0, 100);
	struct node *mm = add(p, step, NODE_OP, "aten::mm", 10, 30);
	struct node *l1 = add(p, mm, NODE_RUNTIME, "cudaLaunchKernel", 12, 2);
	struct node *ad = add(p, step, NODE_OP, "aten::add", 50, 10);
	struct node *l2 = add(p, ad, NODE_RUNTIME, "cudaLaunchKernel", 51, 1);

	add(p, l1, NODE_KERNEL, "k1", 20, 30);
	add(p, l2, NODE_KERNEL, "k2", 45, 25);
	add(p, t2, NODE_OP, "aten::relu", 5, 10);
	add(p, t2, NODE_OP, "mark", 30, 0);
	p->has_timeline = true;
	profile_finish(p);
}

static const struct range_row *find(const struct range_summary *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->rows[i].name, name))
			return &s->rows[i];
	return NULL;
}

/* Row NAME of S: COUNT blocks, TOTAL_US inside; or absent (COUNT 0). */
static void check_row(const struct range_summary *s, const char *name, uint64_t count,
		      int64_t total_us, int line)
{
	const struct range_row *r = find(s, name);

	if (!count) {
		if (r)
			fprintf(stderr, "line %d: %s is in the range\n", line, name);
		CHECK(!r);
		return;
	}
	if (!r) {
		fprintf(stderr, "line %d: %s is not in the range\n", line, name);
		CHECK(r);
		return;
	}
	if (r->count != count || r->total_ns != total_us * US)
		fprintf(stderr, "line %d: %s: %llu, %lld ns\n", line, name,
			(unsigned long long)r->count, (long long)r->total_ns);
	CHECK_EQ(r->count, count);
	CHECK_EQ(r->total_ns, total_us * US);
}
#define ROW(s, name, count, total) check_row(s, name, count, total, __LINE__)

static void test_all_lanes(void)
{
	struct profile p;
	struct timeline tl;
	struct range_summary s;

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	/* [20, 55): by hand. */
	range_summarize(&tl, T0 + 20 * US, T0 + 55 * US, SIZE_MAX, &s);
	ROW(&s, "ProfilerStep#1", 1, 35);	/* straddles both edges */
	ROW(&s, "aten::mm", 1, 20);		/* straddles the start */
	ROW(&s, "aten::add", 1, 5);		/* straddles the end */
	ROW(&s, "cudaLaunchKernel", 1, 1);	/* l1 ended before; l2 in */
	ROW(&s, "k1", 1, 30);			/* starts at the start: whole */
	ROW(&s, "k2", 1, 10);
	ROW(&s, "aten::relu", 0, 0);
	ROW(&s, "mark", 1, 0);			/* lasts nothing, inside */
	CHECK_EQ(s.nr, 7);
	/* By name, in strcmp() order. */
	for (size_t i = 1; i < s.nr; i++)
		CHECK(strcmp(s.rows[i - 1].name, s.rows[i].name) < 0);
	range_summary_release(&s);

	/* Both launches: one row of two. */
	range_summarize(&tl, T0 + 10 * US, T0 + 60 * US, SIZE_MAX, &s);
	ROW(&s, "cudaLaunchKernel", 2, 3);
	ROW(&s, "aten::relu", 1, 5);
	range_summary_release(&s);
	timeline_release(&tl);
	profile_release(&p);
}

static void test_edges(void)
{
	struct profile p;
	struct timeline tl;
	struct range_summary s;

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	/* [14, 20): l1 ends at 14 and k1 starts at 20: neither is in it. */
	range_summarize(&tl, T0 + 14 * US, T0 + 20 * US, SIZE_MAX, &s);
	ROW(&s, "cudaLaunchKernel", 0, 0);
	ROW(&s, "k1", 0, 0);
	ROW(&s, "aten::mm", 1, 6);
	ROW(&s, "aten::relu", 1, 1);
	CHECK_EQ(s.nr, 3);
	range_summary_release(&s);
	/* A zero-length block at the range's end is out, at its start in. */
	range_summarize(&tl, T0 + 25 * US, T0 + 30 * US, SIZE_MAX, &s);
	ROW(&s, "mark", 0, 0);
	range_summary_release(&s);
	range_summarize(&tl, T0 + 30 * US, T0 + 31 * US, SIZE_MAX, &s);
	ROW(&s, "mark", 1, 0);
	range_summary_release(&s);
	/* Empty and inverted ranges hold nothing; so does one past the end. */
	range_summarize(&tl, T0 + 30 * US, T0 + 30 * US, SIZE_MAX, &s);
	CHECK_EQ(s.nr, 0);
	range_summary_release(&s);
	range_summarize(&tl, T0 + 40 * US, T0 + 30 * US, SIZE_MAX, &s);
	CHECK_EQ(s.nr, 0);
	range_summary_release(&s);
	range_summarize(&tl, T0 + 200 * US, T0 + 300 * US, SIZE_MAX, &s);
	CHECK_EQ(s.nr, 0);
	range_summary_release(&s);
	timeline_release(&tl);
	profile_release(&p);
}

static void test_one_lane(void)
{
	struct profile p;
	struct timeline tl;
	struct range_summary s;
	size_t t1 = SIZE_MAX, dev = SIZE_MAX;

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	for (size_t l = 0; l < tl.nr_lanes; l++) {
		if (!strcmp(tl.lanes[l].name, "thread 1"))
			t1 = l;
		if (tl.lanes[l].is_device)
			dev = l;
	}
	CHECK(t1 != SIZE_MAX && dev != SIZE_MAX);
	if (t1 == SIZE_MAX || dev == SIZE_MAX)
		return;
	range_summarize(&tl, T0 + 20 * US, T0 + 55 * US, t1, &s);
	/* Nested: the step, mm, add and a launch, each its own time inside
	 * (together 61 us of a 35 us range: share may pass 100%). */
	ROW(&s, "ProfilerStep#1", 1, 35);
	ROW(&s, "aten::mm", 1, 20);
	ROW(&s, "aten::add", 1, 5);
	ROW(&s, "cudaLaunchKernel", 1, 1);
	ROW(&s, "k1", 0, 0);
	ROW(&s, "mark", 0, 0);
	CHECK_EQ(s.nr, 4);
	range_summary_release(&s);
	range_summarize(&tl, T0 + 20 * US, T0 + 55 * US, dev, &s);
	ROW(&s, "k1", 1, 30);
	ROW(&s, "k2", 1, 10);
	CHECK_EQ(s.nr, 2);
	range_summary_release(&s);
	timeline_release(&tl);
	profile_release(&p);
}

/* Many blocks, one range over all of them: a pass, not a pass per block. */
static void test_cost(void)
{
	struct profile p;
	struct timeline tl;
	struct range_summary s;
	struct node *t;
	double t0;
	char name[32];

	profile_init(&p, "t");
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	for (int i = 0; i < 200000; i++) {
		snprintf(name, sizeof(name), "op%d", i % 5000);
		add(&p, t, NODE_OP, i % 2 ? name : "same", i * 2, 1);
	}
	p.has_timeline = true;
	profile_finish(&p);
	timeline_build(&p, &tl);
	t0 = test_cpu_s();
	for (int k = 0; k < 5; k++) {
		range_summarize(&tl, T0, T0 + 400000 * US, SIZE_MAX, &s);
		CHECK_EQ(s.nr, 2501);
		range_summary_release(&s);
	}
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	timeline_release(&tl);
	profile_release(&p);
}

static const struct agg_row *agg_row_named(const struct agg *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name))
			return &a->rows[i];
	return NULL;
}

/* The Operators and Kernels of a range: what started in [start, end),
 * as a step's rule has it; with a step, what started in both. */
static void test_aggregate_scope(void)
{
	struct profile p;
	struct agg a;
	struct agg_scope s = { .has_range = true, .range_start_ns = T0 + 10 * US,
			       .range_end_ns = T0 + 50 * US };
	struct step st = { .name = "1", .start_ns = T0 + 20 * US, .end_ns = T0 + 100 * US };

	profile_init(&p, "t");
	build(&p);
	agg_ops(&p, &s, &a);
	CHECK(agg_row_named(&a, "aten::mm"));		/* starts at the start */
	CHECK(agg_row_named(&a, "mark"));
	CHECK(!agg_row_named(&a, "aten::add"));	/* starts at the end */
	CHECK(!agg_row_named(&a, "aten::relu"));	/* before, though it overlaps */
	agg_release(&a);
	agg_kernels(&p, &s, &a);
	CHECK_EQ(a.nr, 2);
	agg_release(&a);
	s.range_start_ns = T0 + 46 * US;
	s.range_end_ns = T0 + 200 * US;
	agg_kernels(&p, &s, &a);
	CHECK_EQ(a.nr, 0);		/* k2 started at 45 */
	agg_release(&a);
	/* A step too: both.  [20, 100) and [10, 50): mark only. */
	s.range_start_ns = T0 + 10 * US;
	s.range_end_ns = T0 + 50 * US;
	s.step = &st;
	agg_ops(&p, &s, &a);
	CHECK_EQ(a.nr, 1);
	CHECK(agg_row_named(&a, "mark"));
	agg_release(&a);
	/* Disjoint: nothing (not everything). */
	st.start_ns = T0 + 60 * US;
	agg_ops(&p, &s, &a);
	CHECK_EQ(a.nr, 0);
	agg_release(&a);
	profile_release(&p);
}

static void test_parse_time(void)
{
	int64_t ns = -1;

	CHECK(range_parse_time("5", 1, &ns) && ns == 5000);
	CHECK(range_parse_time("5us", 3, &ns) && ns == 5000);
	CHECK(range_parse_time("1.5ms", 5, &ns) && ns == 1500000);
	CHECK(range_parse_time("2s", 2, &ns) && ns == 2000000000);
	CHECK(range_parse_time("7ns", 3, &ns) && ns == 7);
	CHECK(range_parse_time("0.25", 4, &ns) && ns == 250);
	CHECK(range_parse_time("0", 1, &ns) && ns == 0);
	CHECK(range_parse_time("1000000s", 8, &ns) && ns == BOUND_DUR_NS);
	CHECK(!range_parse_time("1000001s", 8, &ns));
	CHECK(!range_parse_time("99999999999999999999999999", 26, &ns));
	CHECK(!range_parse_time("9223372036854775807ns", 21, &ns));
	CHECK(!range_parse_time("18446744073709551617", 20, &ns));
	CHECK(!range_parse_time("", 0, &ns));
	CHECK(!range_parse_time("-5", 2, &ns));
	CHECK(!range_parse_time("5 ms", 4, &ns));
	CHECK(!range_parse_time("5h", 2, &ns));
	CHECK(!range_parse_time(".", 1, &ns));
	CHECK(!range_parse_time("ms", 2, &ns));
}

const struct test tests[] = {
	{ "every lane: straddling blocks count their part inside", test_all_lanes },
	{ "edges: a block that ends or starts at one is out", test_edges },
	{ "one lane: nested blocks each count their own time", test_one_lane },
	{ "a range over 200000 blocks costs a pass", test_cost },
	{ "--range's times: units, bounds, no wrap", test_parse_time },
	{ "Operators and Kernels of a range: what started in it", test_aggregate_scope },
	{ 0 },
};
