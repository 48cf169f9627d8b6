// SPDX-License-Identifier: MIT
/* The timeline: lanes and rows from the tree, the searches by time, the
 * picture a window makes, the pane's keys, --print timeline's rows. */
#include "test.h"
#include "model/timeline.h"
#include "view/canvas.h"
#include "view/pane.h"
#include "view/tlview.h"

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

/*
 * thread 1: step [0, 100) > mm [10, 40) > launch [12, 14) > kernel k1 [20, 50)
 *                          > add [50, 60) > launch [51, 52) > kernel k2 [45, 70)
 *           a runtime the tree puts beside the step but inside it [80, 85)
 * thread 2: relu [5, 15)
 * k1 and k2 overlap: no stream is known, so they take two rows.
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
	add(p, t1, NODE_RUNTIME, "cudaMemcpyAsync", 80, 5);
	add(p, t2, NODE_OP, "aten::relu", 5, 10);
	p->has_timeline = true;
	profile_finish(p);
}

static void test_lanes_and_rows(void)
{
	struct profile p;
	struct timeline tl;

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	CHECK_EQ(tl.nr_lanes, 3);
	CHECK_STR(tl.lanes[0].name, "thread 1");
	CHECK_STR(tl.lanes[1].name, "thread 2");
	CHECK_STR(tl.lanes[2].name, "GPU");
	CHECK_EQ(tl.nr_blocks, 9);
	/* thread 1: step; mm, add and the runtime that overlaps the step
	 * (a row lower than the step); the launches. */
	CHECK_EQ(tl.lanes[0].nr_rows, 3);
	CHECK_EQ(tl.rows[0].nr, 1);
	CHECK_STR(node_name(tl_row_block(&tl.rows[0], 0)->node), "ProfilerStep#1");
	CHECK_EQ(tl.rows[1].nr, 3);
	CHECK_STR(node_name(tl_row_block(&tl.rows[1], 2)->node), "cudaMemcpyAsync");
	CHECK_EQ(tl.rows[2].nr, 2);
	/* The kernels overlap: two rows of the GPU lane. */
	CHECK_EQ(tl.lanes[2].nr_rows, 2);
	CHECK_STR(node_name(tl_row_block(&tl.rows[tl.lanes[2].first_row], 0)->node), "k1");
	CHECK_STR(node_name(tl_row_block(&tl.rows[tl.lanes[2].first_row + 1], 0)->node), "k2");
	CHECK_EQ(tl.start_ns, 1000000000);
	CHECK_EQ(tl.end_ns, 1000000000 + 100000);
	/* Every block, by start. */
	{
		const void **by_start = timeline_by_start(&tl);
		const struct tl_block *second = by_start[1];

		for (size_t i = 1; i < tl.nr_blocks; i++) {
			const struct tl_block *a = by_start[i - 1], *b = by_start[i];

			CHECK(a->start_ns <= b->start_ns);
		}
		CHECK_STR(node_name(second->node), "aten::relu");
		free(by_start);
	}
	timeline_release(&tl);
	profile_release(&p);
}

static void test_search(void)
{
	struct profile p;
	struct timeline tl;
	const struct tl_row *r;

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	r = &tl.rows[1];	/* mm [10, 40), add [50, 60), memcpy [80, 85) */
	CHECK_EQ(timeline_first_after(r, 1000000000 + 5000), 0);
	CHECK_EQ(timeline_first_after(r, 1000000000 + 40000), 1);
	CHECK_EQ(timeline_first_after(r, 1000000000 + 90000), 3);
	CHECK_EQ(timeline_first_from(r, 1000000000 + 50000), 1);
	CHECK_EQ(timeline_nearest(r, 1000000000 + 44000), 0);
	CHECK_EQ(timeline_nearest(r, 1000000000 + 46000), 1);
	CHECK_EQ(timeline_nearest(r, 1000000000 + 55000), 1);
	CHECK_EQ(timeline_nearest(r, 1000000000 + 99000), 2);
	timeline_release(&tl);
	profile_release(&p);
}

static void test_untimed_has_no_lanes(void)
{
	struct profile p;
	struct timeline tl;

	profile_init(&p, "t");
	node_set_host_total(&p, node_new(&p, p.root, NODE_OP, "aten::mm", 8), 5);
	profile_finish(&p);
	timeline_build(&p, &tl);
	CHECK_EQ(tl.nr_lanes, 0);
	CHECK_EQ(tl.nr_blocks, 0);
	timeline_release(&tl);
	profile_release(&p);
}

static void test_picture(void)
{
	struct profile p;
	struct timeline tl;
	struct tlview v;
	struct tlview_style st = { 0 };
	struct canvas c = { 0 };
	char line[512];

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	tlview_reset(&v, &tl, tl.start_ns, tl.end_ns);
	/* 18 cells of names, 100 of time: a microsecond a cell. */
	canvas_reset(&c, 8, 118);
	c.ascii = true;
	tlview_paint(&v, &st, &c);
	canvas_line(&c, 0, line, sizeof(line));
	/* A tick every 20 cells, from the start of the time area. */
	CHECK(!strncmp(line, "                  |0                  |20 us              |40 us", 64));
	canvas_line(&c, 1, line, sizeof(line));
	CHECK(!strncmp(line, "thread 1          [ProfilerStep#1", 33));
	CHECK(strstr(line, "ProfilerStep#1") != NULL);
	canvas_line(&c, 2, line, sizeof(line));
	/* mm at 10..40: cells 10..39 of the time area. */
	CHECK(strstr(line, "          [aten::mm                    ]") != NULL);
	CHECK(strstr(line, "[aten::a~]") != NULL);	/* 10 cells: cut */
	canvas_line(&c, 3, line, sizeof(line));
	CHECK(strstr(line, "[]") != NULL);	/* the 2 us launch */
	canvas_line(&c, 4, line, sizeof(line));
	CHECK(!strncmp(line, "thread 2", 8));
	CHECK(strstr(line, "    [aten::r~]") != NULL);
	canvas_line(&c, 5, line, sizeof(line));
	CHECK(!strncmp(line, "GPU", 3));
	CHECK(strstr(line, "[k1") != NULL);
	canvas_line(&c, 6, line, sizeof(line));
	CHECK(strstr(line, "[k2") != NULL);
	/* The block under a cell. */
	CHECK(tlview_hit(&v, 2, 18 + 12) == tl_row_block(&tl.rows[1], 0));
	CHECK(tlview_hit(&v, 2, 18 + 45) == NULL);
	/* Zoomed out on a 10-cell area, blocks share cells. */
	canvas_reset(&c, 8, 8 + 10);
	tlview_paint(&v, &st, &c);
	canvas_line(&c, 2, line, sizeof(line));
	CHECK_STR(line, "         [~] |  |");
	canvas_release(&c);
	timeline_release(&tl);
	profile_release(&p);
}

static void test_zoom_and_pan(void)
{
	struct profile p;
	struct timeline tl;
	struct tlview v;

	profile_init(&p, "t");
	build(&p);
	timeline_build(&p, &tl);
	tlview_reset(&v, &tl, tl.start_ns, tl.end_ns);
	tlview_zoom(&v, tl.start_ns + 20000, 0.5);
	CHECK_EQ(v.t1 - v.t0, 50000);
	CHECK_EQ(v.t0, tl.start_ns + 10000);	/* 20 us stays where it was */
	tlview_pan(&v, 1.0);
	CHECK_EQ(v.t0, tl.start_ns + 50000);	/* up to the end, no further */
	tlview_pan(&v, 1.0);
	CHECK_EQ(v.t1, tl.end_ns);
	tlview_zoom(&v, v.t0, 100);
	CHECK_EQ(v.t0, tl.start_ns);
	CHECK_EQ(v.t1, tl.end_ns);
	for (int i = 0; i < 40; i++)
		tlview_zoom(&v, v.t0, 0.5);
	CHECK_EQ(v.t1 - v.t0, 1000);	/* a microsecond at least */
	timeline_release(&tl);
	profile_release(&p);
}

static const char *sel_name(const struct pane *pane)
{
	return pane_row_name(pane, pane_row(pane, pane->cursor));
}

static void test_pane_keys(void)
{
	struct profile p;
	struct pane *pane;
	struct pane_request req;
	struct canvas c = { 0 };
	const struct step *s;
	char err[64];

	profile_init(&p, "t");
	build(&p);
	s = profile_add_step(&p, "1", 1);
	s = &p.steps[0];
	p.steps[0].start_ns = 1000000000 + 50000;
	p.steps[0].end_ns = 1000000000 + 100000;
	pane = pane_new(pane_types[PANE_TIMELINE], &p, NULL);
	CHECK_EQ(pane->nr_view, 9);
	canvas_reset(&c, 10, 116);
	pane_paint(pane, &c);
	CHECK_STR(sel_name(pane), "ProfilerStep#1");
	/* Down: the block of the next row nearest the step's middle. */
	CHECK(pane_handle(pane, ACT_MOVE_DOWN, &req));
	CHECK_STR(sel_name(pane), "aten::add");
	CHECK(pane_handle(pane, ACT_PREV_BLOCK, &req));
	CHECK_STR(sel_name(pane), "aten::mm");
	CHECK(pane_handle(pane, ACT_PREV_BLOCK, &req));
	CHECK(req.message != NULL);	/* the first of its row */
	CHECK(pane_handle(pane, ACT_NEXT_BLOCK, &req));
	CHECK(pane_handle(pane, ACT_NEXT_BLOCK, &req));
	CHECK_STR(sel_name(pane), "cudaMemcpyAsync");
	CHECK(pane_handle(pane, ACT_MOVE_DOWN, &req));
	CHECK_STR(sel_name(pane), "cudaLaunchKernel");
	CHECK_EQ(pane_row(pane, pane->cursor) == &((const struct tl_block *)pane->rows[0])[0], 0);
	CHECK(pane_handle(pane, ACT_PREV_INSTANCE, &req));
	CHECK_STR(sel_name(pane), "cudaLaunchKernel");
	CHECK(!req.message);
	CHECK(pane_handle(pane, ACT_PREV_INSTANCE, &req));
	CHECK(req.message != NULL);	/* no earlier one */
	/* The generic seek finds a name's first block (w, from a row). */
	CHECK(pane_seek(pane, "k2"));
	CHECK_STR(sel_name(pane), "k2");
	/* A filter narrows the rows; a step narrows them by start. */
	pane_set_filter(pane, filter_new("^k", err, sizeof(err)));
	CHECK_EQ(pane->nr_view, 2);
	pane_set_step(pane, s);
	CHECK_EQ(pane->nr_view, 0);	/* k1 and k2 start before 50 us */
	pane_set_filter(pane, NULL);
	CHECK_EQ(pane->nr_view, 3);	/* add, its launch, the memcpy */
	canvas_release(&c);
	pane_free(pane);
	profile_release(&p);
}

/* A little generator, so that the shapes below are the same every run. */
static uint32_t next_rand(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 16;
}

/*
 * Two threads of ops, each op with runtime calls the tree lists after
 * its children and in reverse (as Kineto traces come), launching kernels
 * onto one stream from both threads; one op with 3000 children in
 * reverse order of time, more than the sort's insertion budget; ties of
 * start.  Names share long prefixes, so a sort by name must look past
 * sixteen bytes.
 */
static void build_big(struct profile *p)
{
	static const char *const names[] = {
		"aten::convolution_backward", "aten::convolution", "aten::conv2d", "aten::add",
		"aten::mm", "aten::empty", "cudaLaunchKernel", "aten::convolution_backward_x",
	};
	struct node *t[2];
	uint32_t seed = 7;
	struct launch l;

	launch_init(&l);
	l.device = 0;
	l.stream = 7;
	for (int k = 0; k < 2; k++) {
		char name[32];

		snprintf(name, sizeof(name), "thread %d", k);
		t[k] = node_new(p, p->root, NODE_THREAD, name, strlen(name));
		for (int i = 0; i < 300; i++) {
			int64_t at = i * 100 + k * 10;
			struct node *op = add(p, t[k], NODE_OP, names[next_rand(&seed) % 8], at, 90);

			for (int c = 0; c < 3; c++)
				add(p, op, NODE_OP, names[next_rand(&seed) % 8], at + 5 + c * 20,
				    next_rand(&seed) % 2 ? 10 : 0);
			for (int r = 2; r >= 0; r--) {
				struct node *rt = add(p, op, NODE_RUNTIME, "cudaLaunchKernel",
						      at + 5 + r * 20, 3);
				struct node *kn = add(p, rt, NODE_KERNEL, names[r], at + 40 + r * 10,
						      next_rand(&seed) % 15);

				attr_set_launch(p, node_attr_list(kn), profile_launch(p, &l));
			}
		}
	}
	{
		struct node *wide = add(p, t[0], NODE_OP, "aten::wide", 40000, 5000);

		for (int i = 3000; i-- > 0;)
			add(p, wide, NODE_OP, names[i % 8], 40000 + i, i % 3 ? 1 : 0);
	}
	{
		/* Empty ops at one time, a child a row below its parent, then
		 * a sibling back in the parent's row: tree order is not row
		 * order there. */
		struct node *z = add(p, t[0], NODE_OP, "aten::empty", 50000, 0);

		add(p, z, NODE_OP, "aten::view", 50000, 0);
		add(p, t[0], NODE_OP, "aten::add", 50000, 5);
	}
	p->has_timeline = true;
	profile_finish(p);
}

/* What timeline_build() must give, the plain way: each lane's blocks in
 * tree order, stably sorted by start, each to the first row at or below
 * its depth that is free. */
struct ref_block {
	const struct node *node;
	int64_t start, end;
	size_t lane, want, row;
};

static void ref_walk(const struct profile *p, const struct node *n, int depth,
		     const struct node *thread, int thread_depth, struct ref_block *v, size_t *nr)
{
	for (const struct node *c = node_first_child(n); c; c = node_next(c)) {
		if (c->kind == NODE_THREAD) {
			ref_walk(p, c, depth + 1, c, depth + 1, v, nr);
			continue;
		}
		if (node_is_timed(c)) {
			bool dev = node_kind_is_device(c->kind);

			v[*nr] = (struct ref_block){
				c, c->start_ns,
				c->start_ns + (dev ? node_device_total(p, c) : node_host_total(p, c)),
				dev ? 2 : (size_t)(node_name(thread)[7] - '0'),
				dev ? 0 : (size_t)(depth + 1 - thread_depth - 1), 0,
			};
			(*nr)++;
		}
		ref_walk(p, c, depth + 1, thread, thread_depth, v, nr);
	}
}

/* By start, then row, then place in the row (the address, rows being
 * arrays): an order with no ties. */
static int cmp_start_row(const void *a, const void *b)
{
	const struct tl_block *x = *(const struct tl_block *const *)a;
	const struct tl_block *y = *(const struct tl_block *const *)b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return (x > y) - (x < y);
}

static void test_rows_as_a_plain_sort_makes_them(void)
{
	struct profile p;
	struct timeline tl;
	struct ref_block *v;
	size_t nr = 0;

	profile_init(&p, "t");
	build_big(&p);
	v = xcalloc(p.nr_nodes, sizeof(*v));
	ref_walk(&p, p.root, 0, NULL, 0, v, &nr);
	/* A stable insertion sort by (lane, start), then the packing. */
	for (size_t i = 1; i < nr; i++) {
		struct ref_block x = v[i];
		size_t j = i;

		for (; j > 0 && (v[j - 1].lane > x.lane ||
				 (v[j - 1].lane == x.lane && v[j - 1].start > x.start)); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	{
		int64_t last_end[3][64];
		size_t nr_rows[3] = { 0, 0, 0 };

		for (size_t i = 0; i < nr; i++) {
			size_t lane = v[i].lane, r = v[i].want;

			while (nr_rows[lane] <= r)
				last_end[lane][nr_rows[lane]++] = INT64_MIN;
			while (r < nr_rows[lane] && last_end[lane][r] > v[i].start)
				r++;
			if (r == nr_rows[lane])
				last_end[lane][nr_rows[lane]++] = INT64_MIN;
			v[i].row = r;
			if (v[i].end > last_end[lane][r])
				last_end[lane][r] = v[i].end;
		}
	}
	timeline_build(&p, &tl);
	CHECK_EQ(tl.nr_lanes, 3);
	CHECK_EQ(tl.nr_blocks, nr);
	{
		size_t seen = 0;

		/* Row by row, the blocks the plain way puts there, in order. */
		for (size_t r = 0; r < tl.nr_rows; r++) {
			const struct tl_row *row = &tl.rows[r];
			size_t k = 0;

			for (size_t i = 0; i < nr; i++) {
				if (v[i].lane != row->lane || v[i].row != row->depth)
					continue;
				if (k >= row->nr || tl_row_block(row, k)->node != v[i].node ||
				    tl_block_end(tl.prof, tl_row_block(row, k)) != v[i].end)
					break;
				k++;
			}
			CHECK_EQ(k, row->nr);
			seen += k;
		}
		CHECK_EQ(seen, nr);
	}
	/* Every block by start, ties row by row. */
	{
		const void **by_start = timeline_by_start(&tl);
		const struct tl_block **want = xmalloc(nr * sizeof(*want));
		size_t k = 0, same = 0;

		for (size_t r = 0; r < tl.nr_rows; r++)
			for (size_t i = 0; i < tl.rows[r].nr; i++)
				want[k++] = tl_row_block(&tl.rows[r], i);
		qsort(want, k, sizeof(*want), cmp_start_row);
		for (size_t i = 0; i < k; i++)
			same += by_start[i] == (const void *)want[i];
		CHECK_EQ(same, nr);
		free(want);
		free(by_start);
	}
	timeline_release(&tl);
	free(v);
	profile_release(&p);
}

/* The pane's view is what the generic filter and sort give its rows in
 * step S (NULL: all) for pattern RE (NULL: none). */
static void check_view_is_generic(struct pane *pane, const struct step *s, const char *re)
{
	size_t *want = xmalloc(pane->nr_rows * sizeof(*want)), n = 0;
	char err[64];
	struct filter *f = re ? filter_new(re, err, sizeof(err)) : NULL;

	for (size_t i = 0; i < pane->nr_rows; i++) {
		const struct tl_block *b = pane->rows[i];

		if (s && (b->start_ns < s->start_ns || b->start_ns >= s->end_ns))
			continue;
		if (f && !filter_match(f, node_name(b->node), strlen(node_name(b->node))))
			continue;
		want[n++] = i;
	}
	pane_sort_indices(pane, want, n, pane->sort_col, pane->sort_desc);
	CHECK_EQ(pane->nr_view, n);
	if (pane->nr_view == n)
		CHECK(!memcmp(pane->view, want, n * sizeof(*want)));
	filter_free(f);
	free(want);
}

/* The columns' sorts the pane makes itself give the generic sort's
 * order, ties and all, with a filter and a step. */
static void test_sort_and_filter_as_generic(void)
{
	struct profile p;
	struct pane *pane;
	struct step *s;
	char err[64];
	int name;

	profile_init(&p, "t");
	build_big(&p);
	s = profile_add_step(&p, "1", 1);
	s->start_ns = 1000000000 + 9000;
	s->end_ns = 1000000000 + 21000;
	pane = pane_new(pane_types[PANE_TIMELINE], &p, NULL);
	name = pane_column(pane, "name");
	CHECK(pane->nr_view > 5000);
	for (int desc = 0; desc < 2; desc++) {
		pane_sort(pane, name, desc);
		check_view_is_generic(pane, NULL, NULL);
		pane_set_filter(pane, filter_new("conv", err, sizeof(err)));
		check_view_is_generic(pane, NULL, "conv");
		pane_set_step(pane, s);
		check_view_is_generic(pane, s, "conv");
		pane_set_filter(pane, filter_new("!conv", err, sizeof(err)));
		check_view_is_generic(pane, s, "!conv");
		pane_set_filter(pane, NULL);
		check_view_is_generic(pane, s, NULL);
		pane_set_step(pane, NULL);
		/* Every column, the pane's own sorts. */
		for (int col = 0; col < (int)pane->nr_cols; col++) {
			pane_sort(pane, col, desc);
			check_view_is_generic(pane, NULL, NULL);
			pane_set_step(pane, s);
			check_view_is_generic(pane, s, NULL);
			pane_set_filter(pane, filter_new("aten", err, sizeof(err)));
			check_view_is_generic(pane, s, "aten");
			pane_set_filter(pane, NULL);
			pane_set_step(pane, NULL);
		}
	}
	pane_free(pane);
	profile_release(&p);
}

/*
 * A hostile trace: a stream per kernel, a thread per op.  Each lane is
 * found in a table: 3 * 10^4 of each cost a pass, where a search along
 * the lanes per kernel and per thread was 10^9 turns.
 */
static void test_many_lanes(void)
{
	enum { N = 30000 };
	struct profile p;
	struct timeline tl;
	double cpu_s;

	profile_init(&p, "many-lanes");
	for (int i = 0; i < N; i++) {
		struct node *th = node_new(&p, p.root, NODE_THREAD, "thread", 6);
		struct node *op = node_new(&p, th, NODE_OP, "op", 2);
		struct node *rt = node_new(&p, op, NODE_RUNTIME, "cudaLaunchKernel", 16);
		struct node *k = node_new(&p, rt, NODE_KERNEL, "k", 1);
		struct launch l;

		launch_init(&l);
		l.device = 0;
		l.stream = i;
		op->start_ns = rt->start_ns = 1000 + (int64_t)i * 10;
		node_set_host_total(&p, op, 5);
		node_set_host_self(&p, op, 5);
		node_set_host_total(&p, rt, 5);
		k->start_ns = 2000 + (int64_t)i * 10;
		node_set_device_total(&p, k, 5);
		node_set_device_self(&p, k, 5);
		attr_set_launch(&p, node_attr_list(k), profile_launch(&p, &l));
	}
	p.has_device_time = p.has_timeline = true;
	profile_finish(&p);
	cpu_s = test_cpu_s();
	timeline_build(&p, &tl);
	cpu_s = test_cpu_s() - cpu_s;
	CHECK(cpu_s < CPU_BOUND_S);
	CHECK_EQ(tl.nr_lanes, 2 * N);
	CHECK_EQ(tl.nr_blocks, 3 * N);
	timeline_release(&tl);
	profile_release(&p);
}

/* Whether A and B hold the same lanes, rows and blocks (made from the
 * same profile, each its own memory). */
static bool same_timeline(const struct timeline *a, const struct timeline *b)
{
	if (a->nr_lanes != b->nr_lanes || a->nr_rows != b->nr_rows || a->nr_blocks != b->nr_blocks ||
	    a->start_ns != b->start_ns || a->end_ns != b->end_ns)
		return false;
	for (size_t l = 0; l < a->nr_lanes; l++) {
		const struct tl_lane *x = &a->lanes[l], *y = &b->lanes[l];

		if (strcmp(x->name, y->name) || x->is_device != y->is_device ||
		    x->first_row != y->first_row || x->nr_rows != y->nr_rows ||
		    x->nr_blocks != y->nr_blocks)
			return false;
		for (size_t i = 0; i < x->nr_blocks; i++)
			if (x->blocks[i].node != y->blocks[i].node ||
			    x->blocks[i].start_ns != y->blocks[i].start_ns ||
			    x->blocks[i].dur_ns != y->blocks[i].dur_ns ||
			    x->blocks[i].row != y->blocks[i].row)
				return false;
	}
	for (size_t r = 0; r < a->nr_rows; r++) {
		const struct tl_row *x = &a->rows[r], *y = &b->rows[r];

		if (x->lane != y->lane || x->depth != y->depth || x->nr != y->nr ||
		    !x->max_end != !y->max_end || !x->idx != !y->idx)
			return false;
		for (size_t i = 0; i < x->nr; i++)
			if (tl_row_block(x, i)->node != tl_row_block(y, i)->node ||
			    (x->max_end && x->max_end[i] != y->max_end[i]))
				return false;
	}
	return true;
}

/*
 * On two threads, the index is the one a single thread makes: the walks
 * split between the root's children (three threads and a group of
 * device work of no thread, kernels of both big threads on one stream),
 * the lanes packed by either thread, the blocks merged by start in two
 * halves of time (ties of start among them).
 */
static void test_two_threads_as_one(void)
{
	struct profile p;
	struct timeline one, two;
	const void **by_one, **by_two;

	profile_init(&p, "t");
	build_big(&p);
	{
		struct node *t3 = node_new(&p, p.root, NODE_THREAD, "thread 3", 8);
		struct node *g = node_new(&p, p.root, NODE_GROUP, "<unlinked>", 10);

		for (int i = 0; i < 50; i++) {
			add(&p, t3, NODE_OP, "aten::relu", i * 7, 5);
			add(&p, g, NODE_KERNEL, "lost", i * 11, 4);
		}
		profile_finish(&p);
	}
	timeline_build_on(&p, &one, false);
	timeline_build_on(&p, &two, true);
	CHECK(one.nr_blocks > 3000);
	CHECK(same_timeline(&one, &two));
	by_one = timeline_by_start_on(&one, false);
	by_two = timeline_by_start_on(&one, true);
	for (size_t i = 0; i < one.nr_blocks; i++) {
		if (by_one[i] != by_two[i]) {
			fprintf(stderr, "  by start: block %zu differs\n", i);
			test_failed = 1;
			break;
		}
	}
	free(by_one);
	free(by_two);
	timeline_release(&one);
	timeline_release(&two);
	profile_release(&p);
}

/*
 * A block keeps its length in 32 bits: one of 4.3 s or more reads it
 * from its node, in the packing as everywhere.  A 5 s op, one that
 * starts before it ends (a row lower), and one of negative time (no
 * length).
 */
static void test_long_blocks(void)
{
	struct profile p;
	struct timeline tl;
	struct node *t, *longest, *next, *neg;

	profile_init(&p, "t");
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	longest = add(&p, t, NODE_OP, "aten::long", 0, 5000000);
	next = add(&p, t, NODE_OP, "aten::next", 4900000, 10);
	neg = add(&p, t, NODE_OP, "aten::neg", 6000000, 10);
	node_set_host_total(&p, neg, -21800000);
	p.has_timeline = true;
	profile_finish(&p);
	timeline_build(&p, &tl);
	CHECK_EQ(tl.nr_rows, 2);
	CHECK_EQ(tl.rows[0].nr, 2);
	CHECK(tl_row_block(&tl.rows[0], 0)->node == longest);
	CHECK_EQ(tl_block_end(&p, tl_row_block(&tl.rows[0], 0)), longest->start_ns + 5000000000LL);
	CHECK(tl_row_block(&tl.rows[1], 0)->node == next);
	CHECK(tl_row_block(&tl.rows[0], 1)->node == neg);
	CHECK_EQ(tl_block_end(&p, tl_row_block(&tl.rows[0], 1)), neg->start_ns);
	CHECK_EQ(tl.end_ns, neg->start_ns);
	timeline_release(&tl);
	profile_release(&p);
}

/*
 * The view of a big trace, filled on two threads: every row in time
 * order, then a step's rows, then all again (as 0 gives them).
 */
static void test_big_view(void)
{
	enum { N = 150000 };
	struct profile p;
	struct node *t;
	struct pane *pane;
	bool in_order = true;

	profile_init(&p, "t");
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	for (int i = 0; i < N; i++)
		add(&p, t, NODE_OP, i % 2 ? "aten::mm" : "aten::add", i * 10, 5);
	profile_add_step(&p, "1", 1);
	p.steps[0].start_ns = 1000000000 + 10000LL * 40001;
	p.steps[0].end_ns = 1000000000 + 10000LL * 140000;
	p.has_timeline = true;
	profile_finish(&p);
	pane = pane_new(pane_types[PANE_TIMELINE], &p, NULL);
	CHECK_EQ(pane->nr_view, N);
	for (size_t i = 0; i < pane->nr_view; i++)
		in_order &= pane->view[i] == i;
	CHECK(in_order);
	pane_set_step(pane, &p.steps[0]);
	CHECK_EQ(pane->nr_view, 140000 - 40001);
	for (size_t i = 0; i < pane->nr_view; i++)
		in_order &= pane->view[i] == 40001 + i;
	CHECK(in_order);
	pane_set_step(pane, NULL);
	CHECK_EQ(pane->nr_view, N);
	for (size_t i = 0; i < pane->nr_view; i++)
		in_order &= pane->view[i] == i;
	CHECK(in_order);
	pane_free(pane);
	profile_release(&p);
}

/* Whether TL's blocks by start are the same on one thread and two. */
static bool same_by_start(const struct timeline *tl)
{
	const void **by_one = timeline_by_start_on(tl, false), **by_two = timeline_by_start_on(tl, true);
	bool same = !memcmp(by_one, by_two, tl->nr_blocks * sizeof(*by_one));

	free(by_one);
	free(by_two);
	return same;
}

/* Top node I of the big thread and what hangs under it, without times. */
static void untime(struct node *n)
{
	n->start_ns = NS_UNTIMED;
	for (struct node *c = node_first_child(n); c; c = node_next(c))
		untime(c);
}

/*
 * A trace of one big thread and a small one: the walks split between
 * two top nodes of the big one, its lane's blocks in one room, the
 * second walk's part after the gap the first leaves.  Its top nodes
 * UNTIMED_FROM up to UNTIMED_TO carry no times: then one walk, or the
 * other, has no block of that thread.  Each op's first child comes after
 * its runtime call in the tree but before it in time (a sort moves it),
 * and the kernels on one stream overlap (two rows).
 */
static void test_two_threads_split_a_thread(int untimed_from, int untimed_to)
{
	struct profile p;
	struct timeline one, two;
	struct node *t1, *t2;
	struct launch l;

	profile_init(&p, "t");
	launch_init(&l);
	l.device = 0;
	l.stream = 7;
	t1 = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	for (int i = 0; i < 1000; i++) {
		int64_t at = i * 100;
		struct node *op = add(&p, t1, NODE_OP, "aten::mm", at, 90);
		struct node *rt = add(&p, op, NODE_RUNTIME, "cudaLaunchKernel", at + 60, 3);
		struct node *kn = add(&p, rt, NODE_KERNEL, "gemm", at + 70, 120);

		attr_set_launch(&p, node_attr_list(kn), profile_launch(&p, &l));
		add(&p, op, NODE_OP, "aten::empty", at + 5, 2);
		if (i >= untimed_from && i < untimed_to)
			untime(op);
	}
	t2 = node_new(&p, p.root, NODE_THREAD, "thread 2", 8);
	for (int i = 0; i < 10; i++)
		add(&p, t2, NODE_OP, "aten::add", i * 1000 + 50, 500);
	p.has_device_time = p.has_timeline = true;
	profile_finish(&p);
	timeline_build_on(&p, &one, false);
	timeline_build_on(&p, &two, true);
	CHECK_EQ(one.nr_blocks, (size_t)(4 * (1000 - (untimed_to - untimed_from)) + 10));
	CHECK(same_timeline(&one, &two));
	CHECK(same_by_start(&one));
	CHECK(same_by_start(&two));
	timeline_release(&one);
	timeline_release(&two);
	profile_release(&p);
}

static void test_two_threads_split_inside_a_thread(void)
{
	test_two_threads_split_a_thread(0, 0);
	test_two_threads_split_a_thread(0, 600);	/* the first walk has none of it */
	test_two_threads_split_a_thread(400, 1000);	/* the second has none */
	test_two_threads_split_a_thread(0, 1000);	/* neither */
}

const struct test tests[] = {
	{ "lanes: threads, then device work; rows that do not overlap", test_lanes_and_rows },
	{ "searches by time", test_search },
	{ "blocks of 4.3 s and more, and of negative time", test_long_blocks },
	{ "a stream per kernel and a thread per op cost a pass, not a search each",
	  test_many_lanes },
	{ "an untimed profile has no timeline", test_untimed_has_no_lanes },
	{ "the picture: a ruler, lanes, blocks with names where they fit", test_picture },
	{ "zoom and pan stay in range", test_zoom_and_pan },
	{ "the pane's keys: rows, blocks, instances, filter, step", test_pane_keys },
	{ "rows: what a plain stable sort and packing give", test_rows_as_a_plain_sort_makes_them },
	{ "sorts and filters: the generic view's rows, in its order",
	  test_sort_and_filter_as_generic },
	{ "two threads make the index one thread makes", test_two_threads_as_one },
	{ "two threads split a big thread as one makes it", test_two_threads_split_inside_a_thread },
	{ "the view of a big trace, filled on two threads", test_big_view },
	{ 0 },
};
