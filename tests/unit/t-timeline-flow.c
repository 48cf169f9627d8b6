// SPDX-License-Identifier: MIT
/* Flows on the timeline: from device work to the call and op that
 * launched it, from an op or a call to its device work, in time. */
#include "test.h"
#include "model/timeline.h"
#include "view/canvas.h"
#include "view/pane.h"

static struct node *add(struct profile *p, struct node *parent, enum node_kind kind,
			const char *name, int64_t start_us, int64_t dur_us)
{
	struct node *n = node_new(p, parent, kind, name, strlen(name));

	n->start_ns = 1000000000 + start_us * 1000;
	node_set_calls(p, n, 1);
	if (node_kind_is_device(kind)) {
		node_set_device_total(p, n, dur_us * 1000);
		node_set_device_self(p, n, dur_us * 1000);
	} else {
		node_set_host_total(p, n, dur_us * 1000);
	}
	return n;
}

struct fixture {
	struct node *step, *mm, *l1, *l2, *cp, *ad, *l3, *k1, *k2, *k3, *m1, *k4, *lone;
};

/*
 * thread 1: step > mm [10, 40) > launch l1 [12, 14) > k1 [60, 70)
 *                              > launch l2 [20, 22) > k2 [50, 55), memset m1 [56, 57)
 *                > add [41, 45) > launch l3 [42, 43) > k3 [80, 90)
 *           a kernel straight under the step, no call: k4 [95, 96)
 *           a runtime call of its own: cp [97, 98) > copy lone [99, 100)
 * mm's device work in time: k2, m1, k1 -- not the order of the calls.
 */
static void build(struct profile *p, struct fixture *f)
{
	struct node *t1 = node_new(p, p->root, NODE_THREAD, "thread 1", 8);

	f->step = add(p, t1, NODE_STEP, "ProfilerStep#1", 0, 200);
	f->mm = add(p, f->step, NODE_OP, "aten::mm", 10, 30);
	f->l1 = add(p, f->mm, NODE_RUNTIME, "cudaLaunchKernel", 12, 2);
	f->l2 = add(p, f->mm, NODE_RUNTIME, "cudaLaunchKernel", 20, 2);
	f->ad = add(p, f->step, NODE_OP, "aten::add", 41, 4);
	f->l3 = add(p, f->ad, NODE_RUNTIME, "cudaLaunchKernel", 42, 1);
	f->k1 = add(p, f->l1, NODE_KERNEL, "k1", 60, 10);
	f->k2 = add(p, f->l2, NODE_KERNEL, "k2", 50, 5);
	f->m1 = add(p, f->l2, NODE_MEMSET, "Memset", 56, 1);
	f->k3 = add(p, f->l3, NODE_KERNEL, "k3", 80, 10);
	f->k4 = add(p, f->step, NODE_KERNEL, "k4", 95, 1);
	f->cp = add(p, t1, NODE_RUNTIME, "cudaMemcpyAsync", 97, 1);
	f->lone = add(p, f->cp, NODE_MEMCPY, "Memcpy HtoD", 99, 1);
	p->has_timeline = true;
	profile_finish(p);
}

static void test_sources(void)
{
	struct profile p;
	struct fixture f;

	profile_init(&p, "t");
	build(&p, &f);
	CHECK(timeline_flow_call(f.k1) == f.l1);
	CHECK(timeline_flow_op(f.k1) == f.mm);
	CHECK(timeline_flow_call(f.m1) == f.l2);
	CHECK(timeline_flow_op(f.m1) == f.mm);
	/* Straight under an op: no call; the step is no op. */
	CHECK(timeline_flow_call(f.k4) == NULL);
	CHECK(timeline_flow_op(f.k4) == NULL);
	/* A call made outside any op. */
	CHECK(timeline_flow_call(f.lone) == f.cp);
	CHECK(timeline_flow_op(f.lone) == NULL);
	/* Host work has no source. */
	CHECK(timeline_flow_call(f.l1) == NULL);
	CHECK(timeline_flow_op(f.mm) == NULL);
	CHECK(timeline_flow_from(f.mm, f.k1));
	CHECK(timeline_flow_from(f.l2, f.m1));
	CHECK(timeline_flow_from(f.step, f.k3));
	CHECK(!timeline_flow_from(f.ad, f.k1));
	CHECK(!timeline_flow_from(f.l1, f.k2));
	CHECK(!timeline_flow_from(f.mm, f.l1));	/* a call is no flow */
	CHECK(!timeline_flow_from(f.k1, f.k1));
	CHECK(!timeline_flow_from(NULL, f.k1));
	profile_release(&p);
}

static bool not_memset(const struct tl_block *b, void *ctx)
{
	(void)ctx;
	return b->node->kind != NODE_MEMSET;
}

static void test_walk_in_time(void)
{
	struct profile p;
	struct fixture f;
	struct timeline tl;
	const struct tl_block *b;

	profile_init(&p, "t");
	build(&p, &f);
	timeline_build(&p, &tl);
	CHECK(timeline_block_of(&tl, f.k1) && timeline_block_of(&tl, f.k1)->node == f.k1);
	CHECK(timeline_block_of(&tl, f.mm) && timeline_block_of(&tl, f.mm)->node == f.mm);
	/* mm's device work by start, not by call. */
	b = timeline_flow_next(&tl, f.mm, NULL, NULL, NULL);
	CHECK(b && b->node == f.k2);
	b = timeline_flow_next(&tl, f.mm, b, NULL, NULL);
	CHECK(b && b->node == f.m1);
	b = timeline_flow_next(&tl, f.mm, b, NULL, NULL);
	CHECK(b && b->node == f.k1);
	CHECK(timeline_flow_next(&tl, f.mm, b, NULL, NULL) == NULL);
	/* What KEEP leaves out is stepped over. */
	b = timeline_flow_next(&tl, f.mm, timeline_block_of(&tl, f.k2), not_memset, NULL);
	CHECK(b && b->node == f.k1);
	/* A call: its own work only. */
	b = timeline_flow_next(&tl, f.l1, NULL, NULL, NULL);
	CHECK(b && b->node == f.k1);
	CHECK(timeline_flow_next(&tl, f.l1, b, NULL, NULL) == NULL);
	/* The step: everything under it, k4 too, in time. */
	b = timeline_flow_next(&tl, f.step, timeline_block_of(&tl, f.k3), NULL, NULL);
	CHECK(b && b->node == f.k4);
	/* Nothing from device work, nor from an op without any. */
	CHECK(timeline_flow_next(&tl, f.k1, NULL, NULL, NULL) == NULL);
	CHECK(timeline_flow_next(&tl, f.k4, NULL, NULL, NULL) == NULL);
	timeline_release(&tl);
	profile_release(&p);
}

/* A chain 100k deep: the walk keeps no stack. */
static void test_deep_tree(void)
{
	struct profile p;
	struct timeline tl;
	struct node *top, *n;
	const struct tl_block *b;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	top = n = add(&p, n, NODE_OP, "op", 0, 1000);
	for (int i = 0; i < 100000; i++)
		n = add(&p, n, NODE_OP, "op", 0, 1000);
	n = add(&p, n, NODE_RUNTIME, "cudaLaunchKernel", 1, 1);
	add(&p, n, NODE_KERNEL, "k", 5, 1);
	p.has_timeline = true;
	profile_finish(&p);
	timeline_build(&p, &tl);
	b = timeline_flow_next(&tl, top, NULL, NULL, NULL);
	CHECK(b && !strcmp(node_name(b->node), "k"));
	CHECK(timeline_flow_op(b->node) && timeline_flow_op(b->node) != top);
	timeline_release(&tl);
	profile_release(&p);
}

static const char *sel_name(const struct pane *pane)
{
	return pane_row_name(pane, pane_row(pane, pane->cursor));
}

static bool sel_is(const struct pane *pane, const struct node *n)
{
	return pane_row_node(pane, pane_row(pane, pane->cursor)) == n;
}

/* The canvas line that holds TEXT, or -1. */
static int line_with(const struct canvas *c, const char *text, char *line, size_t size)
{
	for (int y = 0; y < c->rows; y++) {
		canvas_line(c, y, line, size);
		if (strstr(line, text))
			return y;
	}
	return -1;
}

/* o and O in the pane: down an op's kernels in time, up to the op, back
 * down where the walk was; the partners drawn {so}, the mark before the
 * selected row. */
static void test_pane_keys(void)
{
	struct profile p;
	struct fixture f;
	struct pane *pane;
	struct pane_request req = { 0 };
	struct canvas c = { 0 };
	char line[512], err[64];
	int y;

	profile_init(&p, "t");
	build(&p, &f);
	pane = pane_new(pane_types[PANE_TIMELINE], &p, NULL);
	canvas_reset(&c, 12, 218);	/* a microsecond a cell */
	c.ascii = true;
	pane_paint(pane, &c);
	CHECK(pane_seek_node(pane, f.mm));
	CHECK_STR(sel_name(pane), "aten::mm");
	/* The op selected: its kernels drawn as partners, k3 not. */
	pane_paint(pane, &c);
	CHECK(line_with(&c, "{k2", line, sizeof(line)) >= 0);
	CHECK(line_with(&c, "{k1", line, sizeof(line)) >= 0);
	CHECK(line_with(&c, "[k3", line, sizeof(line)) >= 0);
	y = line_with(&c, "[aten::mm", line, sizeof(line));
	CHECK(y >= 0 && line[17] == 'v');
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(!req.message);
	CHECK(sel_is(pane, f.k2));
	/* The kernel selected: its call and op are the partners. */
	pane_paint(pane, &c);
	CHECK(line_with(&c, "{aten::mm", line, sizeof(line)) >= 0);
	CHECK(line_with(&c, "{k1", line, sizeof(line)) < 0);
	y = line_with(&c, "[k2", line, sizeof(line));
	CHECK(y >= 0 && line[17] == '^');
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(sel_is(pane, f.m1));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(sel_is(pane, f.k1));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(req.message != NULL);	/* mm's last */
	CHECK(sel_is(pane, f.k1));
	req.message = NULL;
	CHECK(pane_handle(pane, ACT_FLOW_BACK, &req));
	CHECK(!req.message);
	CHECK(sel_is(pane, f.mm));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(sel_is(pane, f.k1));	/* where the walk was */
	/* From a kernel not reached by a walk: its own op's. */
	CHECK(pane_seek_node(pane, f.k3));
	CHECK(pane_handle(pane, ACT_FLOW_BACK, &req));
	CHECK(sel_is(pane, f.ad));
	/* A call made outside an op: the call is the source. */
	CHECK(pane_seek_node(pane, f.lone));
	CHECK(pane_handle(pane, ACT_FLOW_BACK, &req));
	CHECK(sel_is(pane, f.cp));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(sel_is(pane, f.lone));
	/* Nothing launched k4; the step launches nothing. */
	CHECK(pane_seek_node(pane, f.k4));
	CHECK(pane_handle(pane, ACT_FLOW_BACK, &req));
	CHECK(req.message != NULL && sel_is(pane, f.k4));
	req.message = NULL;
	CHECK(pane_seek_node(pane, f.step));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(req.message != NULL && sel_is(pane, f.step));
	req.message = NULL;
	/* A filter that leaves out the memset: the walk steps over it. */
	pane_set_filter(pane, filter_new("^(aten::mm|k[0-9])$", err, sizeof(err)));
	CHECK(pane_seek_node(pane, f.mm));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(sel_is(pane, f.k2));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(sel_is(pane, f.k1));	/* not the memset */
	CHECK(pane_handle(pane, ACT_FLOW_BACK, &req));
	CHECK(sel_is(pane, f.mm));
	/* The walk's place is left out: o starts again. */
	pane_set_filter(pane, filter_new("^(aten::mm|k2)$", err, sizeof(err)));
	CHECK(pane_seek_node(pane, f.mm));
	CHECK(pane_handle(pane, ACT_FOLLOW_FLOW, &req));
	CHECK(sel_is(pane, f.k2));
	canvas_release(&c);
	pane_free(pane);
	profile_release(&p);
}

const struct test tests[] = {
	{ "device work's call and op; what came from an op", test_sources },
	{ "an op's device work in time, past what is not kept", test_walk_in_time },
	{ "a tree 100k deep is walked without a stack", test_deep_tree },
	{ "o and O in the pane, and the partners drawn", test_pane_keys },
	{ 0 },
};
