// SPDX-License-Identifier: MIT
/*
 * model/distributed.c on trees and ranges built by hand: the union of
 * ranges against a plain sort and merge, a rank's per-step split against
 * a count of the nanoseconds each kind of work covers, and the cost of
 * many steps over many kernels.
 */
#include "model/distributed.h"
#include "parsers/parser.h"
#include "test.h"

/* A fixed pseudo-random sequence (an LCG): the same ranges every run. */
static uint64_t seed;

static uint64_t next_random(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return seed >> 17;
}

static int cmp_start_then_longer(const void *a, const void *b)
{
	const struct span_ns *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end < y->end) - (x->end > y->end);
}

/* What span_union() is defined as: qsort by start (longer first), merge
 * what touches, sum the lengths; V is left as span_union() leaves it. */
static int64_t union_by_qsort(struct span_ns *v, size_t n)
{
	size_t out = 0;
	int64_t sum = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_start_then_longer);
	for (size_t i = 1; i < n; i++) {
		if (v[i].start <= v[out].end) {
			if (v[i].end > v[out].end)
				v[out].end = v[i].end;
		} else {
			v[++out] = v[i];
		}
	}
	for (size_t i = 0; i <= out; i++)
		sum += v[i].end - v[i].start;
	return sum;
}

/* Many ranges share a start; some end before they start (a clock step);
 * some start near either end of the int64 range. */
static void random_spans(struct span_ns *v, size_t n, int shape)
{
	for (size_t i = 0; i < n; i++) {
		int64_t start = (int64_t)(next_random() % (shape == 0 ? 50 : 1000000000));
		int64_t len = (int64_t)(next_random() % 1000) - (shape == 1 ? 100 : 0);

		if (shape == 2 && i % 7 == 0)
			start += (i % 2 ? INT64_MAX : INT64_MIN) / 2;
		v[i].start = start;
		v[i].end = start + len;
	}
}

static void test_union(void)
{
	static const size_t sizes[] = { 0, 1, 2, 9, 1023, 1024, 1025, 5000, 40000 };

	seed = 1;
	for (int shape = 0; shape < 3; shape++)
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			size_t n = sizes[k];
			struct span_ns *a = xmalloc((n ? n : 1) * sizeof(*a));
			struct span_ns *b = xmalloc((n ? n : 1) * sizeof(*b));

			random_spans(a, n, shape);
			memcpy(b, a, n * sizeof(*a));
			CHECK_EQ(span_union(a, n), union_by_qsort(b, n));
			/* Merged in place, every byte as the qsort leaves it. */
			CHECK(!n || !memcmp(a, b, n * sizeof(*a)));
			free(a);
			free(b);
		}
}

/* ---------------------------------------------------------------------
 * One rank's split, against a count over every nanosecond of a short
 * trace.
 */

/* Every range of build_rank() ends before this. */
#define SPAN_NS 8000

static struct node *timed(struct profile *p, struct node *parent, enum node_kind kind,
			  const char *name, int64_t start, int64_t len)
{
	struct node *n = node_new(p, parent, kind, name, strlen(name));

	node_set_calls(p, n, 1);
	n->start_ns = start;
	if (kind == NODE_KERNEL) {
		node_set_device_self(p, n, len);
		node_set_device_total(p, n, len);
	} else {
		node_set_host_self(p, n, len);
		node_set_host_total(p, n, len);
	}
	return n;
}

/* Covered nanoseconds: 1 computation, 2 communication. */
static void cover(uint8_t *at, int64_t start, int64_t len, uint8_t what)
{
	for (int64_t t = start; t < start + len && t < SPAN_NS; t++)
		if (t >= 0)
			at[t] |= what;
}

/*
 * A thread of ops; each launches a kernel or none; some are collectives
 * whose kernels are communication.  Host ops come before the first kernel
 * and after it; steps overlap, nest, hold nothing, are empty or reversed.
 * WITH_KERNELS false: no kernel at all, and the host ops are computation
 * (but a collective and the DataLoader's __next__).
 */
static void build_rank(struct profile *p, bool with_kernels, uint8_t *at)
{
	struct node *t = node_new(p, p->root, NODE_THREAD, "thread 1", 8);
	int64_t at_ns = 0;

	seed = with_kernels ? 7 : 8;
	for (int i = 0; i < 60; i++) {
		int64_t len = (int64_t)(next_random() % 80) + 1;
		bool collective = next_random() % 5 == 0, loader = !collective && i % 11 == 3;
		const char *name = collective ? "nccl:all_reduce"
				   : loader ? "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
					    : "aten::mm";
		struct node *op = timed(p, t, NODE_OP, name, at_ns, len);

		if (collective) {
			op->flags |= NODE_COLLECTIVE;
			cover(at, at_ns, len, 2);
		} else if (!with_kernels && !loader) {
			cover(at, at_ns, len, 1);
		}
		if (with_kernels && i >= 4 && next_random() % 3) {
			struct node *rt = timed(p, op, NODE_RUNTIME, "cudaLaunchKernel", at_ns, 5);
			int64_t kstart = at_ns + (int64_t)(next_random() % 200);
			int64_t klen = (int64_t)(next_random() % 150);

			timed(p, rt, NODE_KERNEL, "k", kstart, klen);
			cover(at, kstart, klen, collective ? 2 : 1);
		}
		at_ns += (int64_t)(next_random() % 60);
	}
	profile_set_step_cats(p, (const char *const[]){ "Kernel" }, 1);
	for (int i = 0; i < 40; i++) {
		char name[16];
		int64_t start = (int64_t)(next_random() % 4000);
		int64_t len = i % 10 == 9 ? 0 : (int64_t)(next_random() % 900);
		struct step *s;

		snprintf(name, sizeof(name), "%d", i);
		s = profile_add_step(p, name, strlen(name));
		s->start_ns = start;
		s->end_ns = i % 13 == 12 ? start - 5 : start + len;
		s->total_ns = s->end_ns - s->start_ns;
	}
	profile_finish(p);
}

static void check_split(bool with_kernels)
{
	static uint8_t at[SPAN_NS];
	struct profile p;
	struct rank_local l;

	memset(at, 0, sizeof(at));
	profile_init(&p, "rank.json");
	build_rank(&p, with_kernels, at);
	rank_local_of(&p, &l);
	CHECK_EQ(l.nr_steps, p.nr_steps);
	for (size_t i = 0; i < p.nr_steps && i < l.nr_steps; i++) {
		const struct step *s = &p.steps[i];
		int64_t comp = 0, comm = 0, both = 0;

		if (s->end_ns <= s->start_ns) {
			CHECK_EQ(l.steps[i].computation, 0);
			CHECK_EQ(l.steps[i].other, 0);
			continue;
		}
		for (int64_t t = s->start_ns; t < s->end_ns && t < SPAN_NS; t++) {
			comp += (at[t] & 1) != 0;
			comm += (at[t] & 2) != 0;
			both += at[t] == 3;
		}
		CHECK_EQ(l.steps[i].computation, comp);
		CHECK_EQ(l.steps[i].communication, comm);
		CHECK_EQ(l.steps[i].overlap, both);
		CHECK_EQ(l.steps[i].other, s->end_ns - s->start_ns + both - comp - comm);
	}
	CHECK(l.has_communication);
	rank_local_release(&l);
	profile_release(&p);
}

static void test_split_kernels(void)
{
	check_split(true);
}

static void test_split_host(void)
{
	check_split(false);
}

/*
 * A step's figures must cost the work in it, not all the work: N steps
 * over N disjoint kernels, each step holding one.  Summed over every
 * kernel per step, N = 10^5 is 10^10 turns of a loop (8 s of CPU here);
 * by the step's bounds, milliseconds.  The bound is CPU time, far from
 * both.
 */
static void test_many_steps(void)
{
	const int n = 100000;
	struct profile p;
	struct node *t;
	struct rank_local l;
	double cpu_s;

	profile_init(&p, "steps.json");
	t = node_new(&p, p.root, NODE_THREAD, "thread 1", 8);
	profile_set_step_cats(&p, (const char *const[]){ "Kernel" }, 1);
	for (int i = 0; i < n; i++) {
		struct node *op = timed(&p, t, NODE_OP, "aten::mm", (int64_t)i * 100, 10);
		struct node *rt = timed(&p, op, NODE_RUNTIME, "cudaLaunchKernel", (int64_t)i * 100, 5);
		struct step *s = profile_add_step(&p, "s", 1);

		timed(&p, rt, NODE_KERNEL, "k", (int64_t)i * 100 + 20, 30);
		s->start_ns = (int64_t)i * 100;
		s->end_ns = s->start_ns + 100;
		s->total_ns = 100;
	}
	timed(&p, t, NODE_OP, "nccl:all_reduce", 0, 50)->flags |= NODE_COLLECTIVE;
	profile_finish(&p);
	cpu_s = test_cpu_s();
	rank_local_of(&p, &l);
	cpu_s = test_cpu_s() - cpu_s;
	CHECK_EQ(l.nr_steps, n);
	CHECK_EQ(l.steps[n - 1].computation, 30);
	CHECK_EQ(l.steps[0].overlap, 30);
	if (cpu_s > CPU_BOUND_S) {
		fprintf(stderr, "  rank_local_of: %.2f s of CPU for %d steps and kernels\n", cpu_s, n);
		test_failed = 1;
	}
	rank_local_release(&l);
	profile_release(&p);
}

const struct test tests[] = {
	{ "the union of ranges is the qsort-and-merge one, to the byte", test_union },
	{ "a rank's split per step counts the ns its kernels cover", test_split_kernels },
	{ "without kernels, its host ops are the computation", test_split_host },
	{ "10^5 steps over 10^5 kernels cost each step its own kernels", test_many_steps },
	{ 0 },
};
