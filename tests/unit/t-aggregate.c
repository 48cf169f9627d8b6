// SPDX-License-Identifier: MIT
/* The aggregations behind the panes, on a tree built by hand. */
#include "model/aggregate.h"
#include "parsers/parser.h"
#include "test.h"

/*
 * root
 *   step (NOT_A_ROW)            [0, 1000)
 *     op A  start 10   host 100/60  dev 50 self, 80 total
 *       kernel k1  30
 *       op B  start 20  host 40/40  dev 30/30
 *         kernel k2  30
 *     op A  start 500  host 10/10  dev 0
 *   op B (distinct row)  start 2000  host 5/5
 *   kernel k1 (unlinked) start 3000  20
 */
static struct node *op(struct profile *p, struct node *parent, const char *name, int64_t start,
		       int64_t ht, int64_t hs, int64_t dt, int64_t ds)
{
	struct node *n = node_new(p, parent, NODE_OP, name, strlen(name));

	node_set_calls(p, n, 1);
	n->start_ns = start;
	node_set_host_total(p, n, ht);
	node_set_host_self(p, n, hs);
	node_set_device_total(p, n, dt);
	node_set_device_self(p, n, ds);
	return n;
}

static struct node *kernel(struct profile *p, struct node *parent, const char *name,
			   int64_t start, int64_t dur)
{
	struct node *n = node_new(p, parent, NODE_KERNEL, name, strlen(name));

	node_set_calls(p, n, 1);
	n->start_ns = start;
	node_set_device_self(p, n, dur);
	node_set_device_total(p, n, dur);
	return n;
}

static void build(struct profile *p)
{
	struct node *step = node_new(p, p->root, NODE_STEP, "ProfilerStep#1", 14), *a, *b, *d;
	struct step *s;

	step->flags = NODE_NOT_A_ROW;
	step->start_ns = 1;
	a = op(p, step, "A", 10, 100, 60, 80, 50);
	kernel(p, a, "k1", 15, 30);
	b = op(p, a, "B", 20, 40, 40, 30, 30);
	kernel(p, b, "k2", 25, 30);
	op(p, step, "A", 500, 10, 10, 0, 0);
	d = op(p, p->root, "B", 2000, 5, 5, 0, 0);
	d->flags |= NODE_DISTINCT;
	kernel(p, p->root, "k1", 3000, 20)->flags |= NODE_UNLINKED;
	profile_set_step_cats(p, (const char *const[]){ "Kernel" }, 1);
	s = profile_add_step(p, "1", 1);
	s->start_ns = 0;
	s->end_ns = 1000;
	profile_finish(p);
}

static const struct agg_row *row(const struct agg *a, const char *name, size_t nth)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name) && nth-- == 0)
			return &a->rows[i];
	return NULL;
}

static void test_ops_by_name(void)
{
	struct profile p;
	struct agg a;
	const struct agg_row *r;

	profile_init(&p, "t");
	build(&p);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 3);	/* A, B, and the distinct B */
	r = row(&a, "A", 0);
	CHECK(r && r->calls == 2 && r->host_total_ns == 110 && r->host_self_ns == 70 &&
	      r->device_total_ns == 80 && r->device_self_ns == 50);
	r = row(&a, "B", 0);
	CHECK(r && r->calls == 1 && r->device_self_ns == 30);
	r = row(&a, "B", 1);
	CHECK(r && r->calls == 1 && r->host_total_ns == 5);
	CHECK(!row(&a, "ProfilerStep#1", 0));
	agg_release(&a);
	profile_release(&p);
}

static void test_kernels_and_step_scope(void)
{
	struct profile p;
	struct agg a;
	struct agg_scope s;
	const struct agg_row *r;

	profile_init(&p, "t");
	build(&p);
	agg_kernels(&p, NULL, &a);
	r = row(&a, "k1", 0);
	CHECK(r && r->calls == 2 && r->device_total_ns == 50 && r->min_ns == 20 && r->max_ns == 30);
	agg_release(&a);
	s = (struct agg_scope){ .step = &p.steps[0] };
	agg_kernels(&p, &s, &a);
	r = row(&a, "k1", 0);
	CHECK(r && r->calls == 1 && r->device_total_ns == 30);
	agg_release(&a);
	agg_ops(&p, &s, &a);
	CHECK(!row(&a, "B", 1));	/* the distinct B ran after the step */
	agg_release(&a);
	profile_release(&p);
}

static bool is_a(const struct node *n, void *ctx)
{
	return !strcmp(node_name(n), ctx);
}

static void test_drill_down(void)
{
	struct profile p;
	struct agg a;
	struct agg_scope s = { .want = is_a, .ctx = "A" };
	const struct agg_row *r;

	profile_init(&p, "t");
	build(&p);
	/* A's kernels: its own and those of B under it, counted once. */
	agg_op_kernels(&p, &s, &a);
	CHECK_EQ(a.nr, 2);
	CHECK(row(&a, "k1", 0) && row(&a, "k1", 0)->device_total_ns == 30);
	CHECK(row(&a, "k2", 0) && row(&a, "k2", 0)->calls == 1);
	CHECK_EQ(a.scope_device_ns, 80);
	agg_release(&a);
	/* k2's launching op is B, the nearest op above it. */
	s.ctx = "k2";
	agg_kernel_ops(&p, &s, &a);
	CHECK_EQ(a.nr, 1);
	r = row(&a, "B", 0);
	CHECK(r && r->device_self_ns == 30);
	agg_release(&a);
	/* The unlinked k1 has no op. */
	s.ctx = "k1";
	agg_kernel_ops(&p, &s, &a);
	CHECK_EQ(a.nr, 1);
	CHECK(row(&a, "A", 0) != NULL);
	agg_release(&a);
	profile_release(&p);
}

static void test_not_a_row_kernels(void)
{
	struct profile p;
	struct agg a;
	struct node *o;

	profile_init(&p, "t");
	o = op(&p, p.root, "conv", 0, 0, 0, 10, 10);
	kernel(&p, o, "cudnn", 0, 10)->flags |= NODE_NOT_A_ROW;
	kernel(&p, p.root, "cudnn", 0, 10);	/* the kernel table's copy */
	profile_finish(&p);
	agg_kernels(&p, NULL, &a);
	CHECK(a.nr == 1 && a.rows[0].calls == 1);
	agg_release(&a);
	profile_release(&p);
}

static const struct agg_row *group_row_of(const struct agg *a, const char *name, const char *group)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name) && !strcmp(a->rows[i].group, group))
			return &a->rows[i];
	return NULL;
}

/* tests/golden/overview/small.json: aten::mm with two shapes, aten::relu
 * with two; their kernels with their launches. */
static void test_grouped(void)
{
	struct profile p;
	struct agg a;
	const struct agg_row *r;
	char msg[2048];

	CHECK_EQ(test_load(&p, "tests/golden/overview/small.json", NULL, msg, sizeof(msg)), 0);
	agg_ops_by_shape(&p, NULL, &a);
	CHECK_EQ(a.nr, 4);
	r = group_row_of(&a, "aten::mm", "[[64, 64], [64, 64]]");
	CHECK(r && r->calls == 1 && r->device_self_ns == 200000);
	r = group_row_of(&a, "aten::mm", "[[128, 64], [64, 64]]");
	CHECK(r && r->calls == 1 && r->device_self_ns == 300000);
	CHECK(group_row_of(&a, "aten::relu", "[[128, 64]]"));
	agg_release(&a);

	agg_kernels_by_op(&p, NULL, &a);
	CHECK_EQ(a.nr, 3);
	r = group_row_of(&a, "relu_kernel", "aten::relu");
	/* One launch configuration, two calls: one row. */
	CHECK(r && r->calls == 2 && r->device_total_ns == 300000 && r->min_ns == 100000);
	r = group_row_of(&a, "volta_h884gemm_64x64_nn", "aten::mm");
	CHECK(r && node_launch(r->first) && node_launch(r->first)->grid[0] == 4);
	agg_release(&a);
	profile_release(&p);
}

/* The plugin's print of a grid or block. */
static void test_dim_text(void)
{
	char buf[64];
	int32_t g[3] = { 564, 1, 1 }, none[3] = { 0, 0, 0 };

	CHECK_STR(launch_dim_text(g, buf, sizeof(buf)), "[564, 1, 1]");
	CHECK_STR(launch_dim_text(none, buf, sizeof(buf)), "None");
}

/* 10,000 calls of the longest duration: each row's sums hold SUM_CAP
 * (model/bounds.h), never wrap, and the aggregate counts each that
 * reached it once. */
static void test_sums_capped(void)
{
	struct profile p;
	struct agg a;

	profile_init(&p, "t");
	for (int i = 0; i < 10000; i++) {
		struct node *o = op(&p, p.root, "long", 1, BOUND_DUR_NS, BOUND_DUR_NS, BOUND_DUR_NS,
				    BOUND_DUR_NS);

		kernel(&p, o, "k", 1, BOUND_DUR_NS);
	}
	op(&p, p.root, "short", 1, 5, 5, 0, 0);
	profile_finish(&p);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 2);
	CHECK_EQ(a.rows[0].calls, 10000);
	CHECK_EQ(a.rows[0].host_self_ns, SUM_CAP);
	CHECK_EQ(a.rows[0].host_total_ns, SUM_CAP);
	CHECK_EQ(a.rows[0].device_self_ns, SUM_CAP);
	CHECK_EQ(a.rows[0].device_total_ns, SUM_CAP);
	CHECK_EQ(a.rows[1].host_self_ns, 5);
	CHECK_EQ(a.nr_capped, 4);
	agg_release(&a);
	agg_kernels(&p, NULL, &a);
	CHECK_EQ(a.nr, 1);
	CHECK_EQ(a.rows[0].device_total_ns, SUM_CAP);
	CHECK_EQ(a.rows[0].max_ns, BOUND_DUR_NS);
	CHECK_EQ(a.nr_capped, 2);
	agg_release(&a);
	profile_release(&p);
}

const struct test tests[] = {
	{ "ops aggregate by name; distinct rows stay apart", test_ops_by_name },
	{ "sums past the cap hold it, and are counted", test_sums_capped },
	{ "kernels aggregate with min and max; a step narrows", test_kernels_and_step_scope },
	{ "drill-down: an op's kernels, a kernel's ops", test_drill_down },
	{ "kernels listed twice count once", test_not_a_row_kernels },
	{ "ops by input shape, kernels by op and launch", test_grouped },
	{ "grids and blocks print as the plugin prints them", test_dim_text },
	{ 0 },
};
