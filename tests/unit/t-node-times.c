// SPDX-License-Identifier: MIT
/* A node's four times in 32 bits each, and the profile's table of those
 * that do not fit (model/profile.h): every value reads back exact. */
#include <pthread.h>
#include <stdint.h>

#include "model/profile.h"
#include "test.h"

/* Values at and around the edges of the 32 bits, and far past them. */
static const int64_t edges[] = {
	0, 1, -1, 1000,
	INT32_MAX - 1, INT32_MAX, (int64_t)INT32_MAX + 1, (int64_t)INT32_MAX + 2,
	INT32_MIN + 2, INT32_MIN + 1, INT32_MIN, (int64_t)INT32_MIN - 1,
	5000000000LL, -5000000000LL, 1000000000000000000LL, -1000000000000000000LL,
	INT64_MAX, INT64_MIN + 1, INT64_MIN,
};

static bool fits(int64_t v)
{
	return v > INT32_MIN && v <= INT32_MAX;
}

/* Whether a time set to V stays in its node's field: when it fits, but
 * for a build that stores every time in the table (make wide). */
#ifdef PROFTUI_TIMES_ALL_WIDE
#define ALL_WIDE true
#else
#define ALL_WIDE false
#endif

static bool kept_in_field(int64_t v)
{
	return !ALL_WIDE && fits(v);
}

/* Each time of a node alone, at every edge: the others stay as they were. */
static void test_edges(void)
{
	struct profile p;
	struct node *n;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_OP, "op", 2);
	for (int t = 0; t < NR_NODE_TIMES; t++)
		CHECK_EQ(node_time(&p, n, (enum node_time)t), 0);
	for (size_t i = 0; i < ARRAY_SIZE(edges); i++) {
		for (int t = 0; t < NR_NODE_TIMES; t++) {
			int64_t others = 7 + t;

			for (int u = 0; u < NR_NODE_TIMES; u++)
				node_set_time(&p, n, (enum node_time)u, others);
			node_set_time(&p, n, (enum node_time)t, edges[i]);
			CHECK_EQ(node_time(&p, n, (enum node_time)t), edges[i]);
			/* In the field exactly when it fits. */
			CHECK_EQ(n->time32[t] == NODE_TIME_WIDE, !kept_in_field(edges[i]));
			for (int u = 0; u < NR_NODE_TIMES; u++)
				if (u != t)
					CHECK_EQ(node_time(&p, n, (enum node_time)u), others);
		}
	}
	/* One record for the node, however many of its times went there. */
	CHECK_EQ(p.books.nr_wide_times, 1);
	profile_release(&p);
}

/* The named accessors are the four times, each its own. */
static void test_named(void)
{
	struct profile p;
	struct node *n;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_OP, "op", 2);
	node_set_host_self(&p, n, -3000000000LL);
	node_set_host_total(&p, n, 5000000000LL);
	node_set_device_self(&p, n, 3000000000LL);
	node_set_device_total(&p, n, 2);
	CHECK_EQ(node_host_self(&p, n), -3000000000LL);
	CHECK_EQ(node_host_total(&p, n), 5000000000LL);
	CHECK_EQ(node_device_self(&p, n), 3000000000LL);
	CHECK_EQ(node_device_total(&p, n), 2);
	node_add_host_self(&p, n, 3000000001LL);
	node_add_host_total(&p, n, -5000000000LL);
	node_add_device_self(&p, n, 1);
	node_add_device_total(&p, n, 4000000000LL);
	CHECK_EQ(node_host_self(&p, n), 1);
	CHECK_EQ(node_host_total(&p, n), 0);
	CHECK_EQ(node_device_self(&p, n), 3000000001LL);
	CHECK_EQ(node_device_total(&p, n), 4000000002LL);
	profile_release(&p);
}

/* Sums that cross the edge one way and back, as a thread's total does
 * with its top nodes, or a self time with its children. */
static void test_add_across(void)
{
	struct profile p;
	struct node *n;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_THREAD, "thread", 6);
	node_set_host_total(&p, n, INT32_MAX - 5);
	node_add_host_total(&p, n, 10);
	CHECK_EQ(node_host_total(&p, n), (int64_t)INT32_MAX + 5);
	CHECK(n->time32[NODE_HOST_TOTAL] == NODE_TIME_WIDE);
	node_add_host_total(&p, n, -10);
	CHECK_EQ(node_host_total(&p, n), INT32_MAX - 5);
	/* Back in the field. */
	CHECK_EQ(n->time32[NODE_HOST_TOTAL] == NODE_TIME_WIDE, !kept_in_field(INT32_MAX - 5));
	node_add_host_total(&p, n, 5);
	CHECK_EQ(node_host_total(&p, n), INT32_MAX);
	node_add_host_total(&p, n, 1);
	CHECK_EQ(node_host_total(&p, n), (int64_t)INT32_MAX + 1);

	node_set_host_self(&p, n, INT32_MIN + 3);
	node_add_host_self(&p, n, -2);
	CHECK_EQ(node_host_self(&p, n), INT32_MIN + 1);
	CHECK_EQ(n->time32[NODE_HOST_SELF] == NODE_TIME_WIDE, !kept_in_field(INT32_MIN + 1));
	node_add_host_self(&p, n, -1);
	CHECK_EQ(node_host_self(&p, n), INT32_MIN);
	CHECK(n->time32[NODE_HOST_SELF] == NODE_TIME_WIDE);
	node_add_host_self(&p, n, -1);
	CHECK_EQ(node_host_self(&p, n), (int64_t)INT32_MIN - 1);
	node_add_host_self(&p, n, 2);
	CHECK_EQ(node_host_self(&p, n), INT32_MIN + 1);

	/* Many small steps past the edge and far beyond. */
	node_set_device_total(&p, n, 0);
	for (int i = 0; i < 1000; i++)
		node_add_device_total(&p, n, 12345678);
	CHECK_EQ(node_device_total(&p, n), 12345678000LL);
	for (int i = 0; i < 2000; i++)
		node_add_device_total(&p, n, -12345678);
	CHECK_EQ(node_device_total(&p, n), -12345678000LL);
	/* The host total, wide all along, kept its value. */
	CHECK_EQ(node_host_total(&p, n), (int64_t)INT32_MAX + 1);
	profile_release(&p);
}

static int64_t wide_value(size_t i, int t)
{
	return (int64_t)(i + 1) * 3000000007LL * (i % 2 ? -1 : 1) + t;
}

/* Many nodes with wide times, and as many without, in one profile. */
static void test_many_nodes(void)
{
	enum { NR = 100000 };
	struct profile p;
	struct node **v = xmalloc(NR * sizeof(*v));

	profile_init(&p, "t");
	for (size_t i = 0; i < NR; i++) {
		v[i] = node_new(&p, p.root, NODE_OP, "op", 2);
		for (int t = 0; t < NR_NODE_TIMES; t++)
			node_set_time(&p, v[i], (enum node_time)t,
				      i % 3 ? (int64_t)i * 10 + t : wide_value(i, t));
	}
	profile_finish(&p);
	CHECK_EQ(p.books.nr_wide_times, kept_in_field(0) ? (NR + 2) / 3 : NR);
	for (size_t i = 0; i < NR; i++) {
		for (int t = 0; t < NR_NODE_TIMES; t++) {
			int64_t want = i % 3 ? (int64_t)i * 10 + t : wide_value(i, t);

			if (node_time(&p, v[i], (enum node_time)t) != want) {
				CHECK_EQ(node_time(&p, v[i], (enum node_time)t), want);
				break;
			}
		}
	}
	free(v);
	profile_release(&p);
}

/* Two profiles, each with its own table: the same shapes, other values. */
static void test_two_profiles(void)
{
	struct profile a, b;
	struct node *x, *y;

	profile_init(&a, "a");
	profile_init(&b, "b");
	x = node_new(&a, a.root, NODE_KERNEL, "k", 1);
	y = node_new(&b, b.root, NODE_KERNEL, "k", 1);
	node_set_device_total(&a, x, 5000000000LL);
	node_set_device_total(&b, y, 7000000000LL);
	node_set_device_self(&b, y, -7000000000LL);
	CHECK_EQ(node_device_total(&a, x), 5000000000LL);
	CHECK_EQ(node_device_total(&b, y), 7000000000LL);
	CHECK_EQ(node_device_self(&a, x), 0);
	CHECK_EQ(node_device_self(&b, y), -7000000000LL);
	CHECK_EQ(a.books.nr_wide_times, 1);
	CHECK_EQ(b.books.nr_wide_times, 1);
	/* A device time only in the table is device time all the same. */
	profile_finish(&a);
	CHECK(a.has_device_time);
	/* A later run of a file is a profile of its own. */
	{
		struct profile *run = profile_add_run(&a, "t:9");
		struct node *z = node_new(run, run->root, NODE_OP, "op", 2);

		node_set_host_total(run, z, -4000000000LL);
		CHECK_EQ(node_host_total(run, z), -4000000000LL);
		CHECK_EQ(run->books.nr_wide_times, 1);
		CHECK_EQ(a.books.nr_wide_times, 1);
	}
	profile_release(&a);
	profile_release(&b);
}

/* Two threads set and read wide times of one profile at once, each on
 * its own nodes (the link's two threads do): the table is locked. */
struct writer {
	struct profile *p;
	struct node **nodes;
	size_t nr;
	int64_t base;
	bool ok;
};

static void *write_times(void *arg)
{
	struct writer *w = arg;

	w->ok = true;
	for (size_t i = 0; i < w->nr; i++) {
		node_set_host_total(w->p, w->nodes[i], w->base + (int64_t)i);
		node_add_device_total(w->p, w->nodes[i], w->base);
	}
	for (size_t i = 0; i < w->nr; i++)
		w->ok &= node_host_total(w->p, w->nodes[i]) == w->base + (int64_t)i &&
			 node_device_total(w->p, w->nodes[i]) == w->base;
	return NULL;
}

static void test_two_threads(void)
{
	enum { NR = 20000 };
	struct profile p;
	struct node **v = xmalloc(2 * NR * sizeof(*v));
	struct writer w[2];
	pthread_t thread;
	bool started;

	profile_init(&p, "t");
	for (size_t i = 0; i < 2 * NR; i++)
		v[i] = node_new(&p, p.root, NODE_OP, "op", 2);
	for (int k = 0; k < 2; k++)
		w[k] = (struct writer){ &p, v + k * NR, NR, (k ? -1 : 1) * 9000000000LL, false };
	started = !pthread_create(&thread, NULL, write_times, &w[1]);
	write_times(&w[0]);
	if (started)
		pthread_join(thread, NULL);
	else
		write_times(&w[1]);
	CHECK(w[0].ok && w[1].ok);
	CHECK_EQ(p.books.nr_wide_times, 2 * NR);
	free(v);
	profile_release(&p);
}

const struct test tests[] = {
	{ "each time at the edges of 32 bits and past them", test_edges },
	{ "the named accessors", test_named },
	{ "sums across the edge, both ways", test_add_across },
	{ "many nodes with wide times in one profile", test_many_nodes },
	{ "two profiles and a later run, each its own table", test_two_profiles },
	{ "two threads with wide times of one profile", test_two_threads },
	{ 0 },
};
