// SPDX-License-Identifier: MIT
/* The model's side data: interned launches, devices, memory events; the
 * walk over one step's time; the calls and extremes of nodes. */
#include <malloc.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/aggregate.h"
#include "model/profile.h"
#include "model/util.h"
#include "test.h"

static void test_launches_intern(void)
{
	struct profile p;
	struct launch a, b;
	const struct launch *x, *y, *z;
	struct node *k;

	profile_init(&p, "t");
	launch_init(&a);
	a.grid[0] = 80;
	a.block[0] = 256;
	a.stream = 7;
	b = a;
	x = profile_launch(&p, &a);
	y = profile_launch(&p, &b);
	CHECK(x == y && x != &a);
	CHECK(isnan(x->blocks_per_sm) && x->registers_per_thread == -1);
	b.occupancy_pct = 50;
	z = profile_launch(&p, &b);
	CHECK(z != x && z->occupancy_pct == 50);
	for (int i = 0; i < 1000; i++) {
		b.grid[1] = i;
		profile_launch(&p, &b);
	}
	b.grid[1] = 500;
	CHECK(profile_launch(&p, &b) == profile_launch(&p, &b));
	k = node_new(&p, p.root, NODE_KERNEL, "k", 1);
	CHECK(node_launch(k) == NULL);
	attr_set_launch(&p, node_attr_list(k), x);
	CHECK(node_launch(k) == x);
	profile_release(&p);
}

static void test_devices_and_memory(void)
{
	struct profile p;
	struct device_info *d;
	struct mem_event *m;

	profile_init(&p, "t");
	CHECK(!p.dist.present && p.dist.rank == -1 && !p.has_time_origin);
	d = profile_add_device(&p, 3);
	CHECK(d->total_memory_bytes == -1 && d->cc_major == -1);
	d->num_sms = 108;
	CHECK(profile_device(&p, 3) && profile_device(&p, 3)->num_sms == 108);
	CHECK(profile_device(&p, 0) == NULL);
	for (int i = 0; i < 100; i++) {
		m = profile_add_mem_event(&p);
		CHECK(m->device.index == -1 && m->device.type == DEVICE_CPU && m->total_allocated == -1 && !m->op && m->addr == MEM_NO_ADDR);
		m->bytes = i;
	}
	CHECK(p.nr_mem_events == 100 && p.mem_events[99].bytes == 99);
	profile_release(&p);
}

struct seen {
	int64_t lo, hi;
	const struct node *v[512];
	size_t nr, nr_calls;
};

static bool note_in_range(struct node *n, void *ctx)
{
	struct seen *s = ctx;

	s->nr_calls++;
	if (n->start_ns >= s->lo && n->start_ns < s->hi && s->nr < 512)
		s->v[s->nr++] = n;
	return true;
}

static uint64_t rnd(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

/*
 * A walk over [lo, hi) leaves out the top subtrees with no start in it
 * and sees the nodes that start in it as the whole walk does, in its
 * order: ops nested in time, kernels that start after their op ends,
 * untimed groups, and a node added after the finish (which turns the
 * leaving out off).
 */
static void test_walk_starting(void)
{
	uint64_t state = 7;
	size_t pruned = 0;

	for (int round = 0; round < 50; round++) {
		struct profile p;
		struct node *late = NULL;

		profile_init(&p, "t");
		for (int t = 0; t < 3; t++) {
			struct node *th = node_new(&p, p.root, NODE_THREAD, "thread", 6);
			int64_t at = 1000 * t;

			for (int top = 0; top < 6; top++) {
				struct node *op = node_new(&p, th, NODE_OP, "op", 2);
				int nr_kids = (int)(rnd(&state) % 4);

				op->start_ns = at;
				for (int c = 0; c < nr_kids; c++) {
					struct node *kid = node_new(&p, op, NODE_OP, "kid", 3);
					struct node *k = node_new(&p, kid, NODE_KERNEL, "k", 1);

					kid->start_ns = at + 1 + c;
					/* Device work starts late, past later ops. */
					k->start_ns = at + (int64_t)(rnd(&state) % 300);
				}
				if (rnd(&state) % 5 == 0)
					node_new(&p, op, NODE_GROUP, "untimed", 7);
				at += 10 + (int64_t)(rnd(&state) % 40);
			}
		}
		profile_finish(&p);
		CHECK(profile_nr_top_nodes(&p) > 0);
		if (round % 2) {
			/* The tree changed after the finish: the walk is whole. */
			late = node_new(&p, node_first_child(p.root), NODE_OP, "late", 4);
			late->start_ns = 2500;
			CHECK_EQ(profile_nr_top_nodes(&p), 0);
		}
		for (int q = 0; q < 20; q++) {
			struct seen all = { 0 }, part = { 0 };

			all.lo = part.lo = (int64_t)(rnd(&state) % 3000);
			all.hi = part.hi = all.lo + 1 + (int64_t)(rnd(&state) % 400);
			node_walk(p.root, note_in_range, &all);
			node_walk_starting(&p, part.lo, part.hi, note_in_range, &part);
			CHECK_EQ(all.nr, part.nr);
			for (size_t i = 0; i < all.nr && i < part.nr; i++)
				CHECK(all.v[i] == part.v[i]);
			pruned += all.nr_calls - part.nr_calls;
		}
		profile_release(&p);
	}
	CHECK(pruned > 1000);	/* it did leave subtrees out */
}

/* A trace's nodes: no call or one, extremes unknown, in the flags alone. */
static void test_calls_by_flag(void)
{
	struct profile p;
	struct node *n;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_OP, "op", 2);
	CHECK_EQ(node_calls(&p, n), 0);
	CHECK_EQ(node_min_ns(&p, n), -1);
	CHECK_EQ(node_max_ns(&p, n), -1);
	CHECK_EQ(node_calls(&p, p.root), 0);
	node_set_calls(&p, n, 1);
	CHECK_EQ(node_calls(&p, n), 1);
	CHECK(n->calls_state == NODE_ONE_CALL && !n->flags);
	CHECK_EQ(node_min_ns(&p, n), -1);
	CHECK_EQ(node_max_ns(&p, n), -1);
	/* The other flags come and go without the calls. */
	n->flags |= NODE_DISTINCT | NODE_NEGATIVE;
	n->flags &= (uint8_t)~NODE_NEGATIVE;
	CHECK_EQ(node_calls(&p, n), 1);
	node_set_minmax(&p, n, -1, -1);
	CHECK_EQ(node_calls(&p, n), 1);
	node_set_calls(&p, n, 0);
	CHECK_EQ(node_calls(&p, n), 0);
	CHECK(n->flags == NODE_DISTINCT);
	CHECK_EQ(p.books.nr_counts, 0);	/* none of it took a record */
	if (sizeof(void *) == 8)
		CHECK_EQ(sizeof(struct node), 48);
	profile_release(&p);
}

/* Pre-aggregated rows: any count, extremes, in a record of the profile. */
/* ROOM: the profile makes nodes with room for their records after them,
 * as for a table of pre-aggregated rows; not so for its root, made
 * before (its record goes in the profile's table). */
static void calls_in_record(bool room)
{
	struct profile p;
	struct node *n, *m, *k;

	profile_init(&p, "t");
	if (room)
		profile_set_counts_per_node(&p);
	n = node_new(&p, p.root, NODE_OP, "op", 2);
	CHECK(!!(n->calls_state & NODE_ROOM) == room);
	node_set_calls(&p, n, 1ULL << 40);
	CHECK(node_calls(&p, n) == 1ULL << 40);
	CHECK_EQ(node_min_ns(&p, n), -1);
	CHECK_EQ(node_max_ns(&p, n), -1);
	node_set_minmax(&p, n, 7, 9000000000LL);
	CHECK(node_calls(&p, n) == 1ULL << 40);
	CHECK_EQ(node_min_ns(&p, n), 7);
	CHECK_EQ(node_max_ns(&p, n), 9000000000LL);
	/* Back to one call: the extremes stay. */
	node_set_calls(&p, n, 1);
	CHECK_EQ(node_calls(&p, n), 1);
	CHECK_EQ(node_min_ns(&p, n), 7);
	node_set_calls(&p, n, UINT64_MAX);
	CHECK(node_calls(&p, n) == UINT64_MAX);
	/* One call with extremes (a MegEngine row), and extremes with no
	 * call set yet (then the calls). */
	m = node_new(&p, p.root, NODE_OP, "m", 1);
	node_set_calls(&p, m, 1);
	node_set_minmax(&p, m, 30, 30);
	CHECK_EQ(node_calls(&p, m), 1);
	CHECK_EQ(node_min_ns(&p, m), 30);
	CHECK_EQ(node_max_ns(&p, m), 30);
	k = node_new(&p, p.root, NODE_KERNEL, "k", 1);
	node_set_minmax(&p, k, 5, 6);
	CHECK_EQ(node_calls(&p, k), 0);
	node_set_calls(&p, k, 3);
	CHECK_EQ(node_calls(&p, k), 3);
	CHECK_EQ(node_min_ns(&p, k), 5);
	CHECK_EQ(node_max_ns(&p, k), 6);
	CHECK(node_counts(&p, k).calls == 3 && node_counts(&p, k).max_ns == 6);
	CHECK(node_counts(&p, p.root).calls == 0 && node_counts(&p, p.root).min_ns == -1);
	CHECK_EQ(p.books.nr_counts, room ? 0 : 3);
	node_set_calls(&p, p.root, 2);
	node_set_minmax(&p, p.root, 1, 4);
	CHECK(node_calls(&p, p.root) == 2 && node_max_ns(&p, p.root) == 4);
	CHECK_EQ(p.books.nr_counts, room ? 1 : 4);
	/* The records kept apart: n's are still its own. */
	CHECK(node_calls(&p, n) == UINT64_MAX && node_min_ns(&p, n) == 7);
	CHECK(node_calls(&p, k) == 3 && node_min_ns(&p, k) == 5);
	profile_release(&p);
}

static void test_calls_in_record(void)
{
	calls_in_record(false);
	calls_in_record(true);
}

/* Many nodes with records among many without, each its own, before and
 * after profile_finish() renumbers them; and in constant time each. */
static void test_many_records(void)
{
	enum { NR = 200000 };
	struct profile p;
	struct node **made = malloc(NR * sizeof(*made));
	double t0 = test_cpu_s();
	bool all = true;

	profile_init(&p, "t");
	for (size_t i = 0; i < NR; i++) {
		struct node *parent = i % 3 ? made[i / 3] : p.root;

		made[i] = node_new(&p, parent, i % 2 ? NODE_KERNEL : NODE_OP, "x", 1);
		if (i % 4 == 0) {
			node_set_calls(&p, made[i], i + 2);
			node_set_minmax(&p, made[i], (int64_t)i, (int64_t)i * 2);
		} else {
			node_set_calls(&p, made[i], i % 4 == 1);
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < NR; i++) {
			struct node_counts c = node_counts(&p, made[i]);

			if (i % 4 == 0)
				all &= c.calls == i + 2 && c.min_ns == (int64_t)i && c.max_ns == (int64_t)i * 2;
			else
				all &= c.calls == (i % 4 == 1) && c.min_ns == -1 && c.max_ns == -1;
		}
		CHECK(all);
		profile_finish(&p);
	}
	CHECK_EQ(p.books.nr_counts, NR / 4);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	free(made);
	profile_release(&p);
}

/* A row gets the calls and extremes of its nodes and their flags, and
 * nothing of how a node keeps its calls. */
static void test_call_flags_not_in_rows(void)
{
	struct profile p;
	struct agg a;
	struct node *n;

	profile_init(&p, "t");
	n = node_new(&p, p.root, NODE_OP, "op", 2);
	n->flags |= NODE_DISTINCT;
	node_set_calls(&p, n, 5);
	node_set_minmax(&p, n, 1, 2);
	n = node_new(&p, p.root, NODE_OP, "op", 2);
	node_set_calls(&p, n, 1);
	profile_finish(&p);
	agg_ops(&p, NULL, &a);
	CHECK_EQ(a.nr, 2);
	CHECK(a.nr == 2 && a.rows[0].calls == 5 && a.rows[0].min_ns == 1 && a.rows[0].max_ns == 2);
	CHECK(a.nr == 2 && a.rows[0].node_flags == NODE_DISTINCT);
	CHECK(a.nr == 2 && a.rows[1].calls == 1 && a.rows[1].node_flags == 0);
	agg_release(&a);
	profile_release(&p);
}

/*
 * Appends without a last-child field: to many parents in any order, by
 * node_append() and by a builder that knows the tail (node_append_after()),
 * mixed with unlinks, each list must be what the appends made.  The hint
 * is wrong on purpose here as often as it can be: after an append that
 * bypassed it, and after an unlink of the very node it names.
 */
#define NR_PARENTS 40
#define NR_OPS 20000

static void test_appends_any_order(void)
{
	static struct node *want[NR_PARENTS][NR_OPS];
	size_t nr[NR_PARENTS] = { 0 };
	struct node *parents[NR_PARENTS];
	struct profile p;
	uint32_t seed = 12345;

	profile_init(&p, "t");
	for (int i = 0; i < NR_PARENTS; i++)
		parents[i] = node_new(&p, p.root, NODE_GROUP, "parent", 6);
	for (int op = 0; op < NR_OPS; op++) {
		size_t i, way;
		struct node *n;

		seed = seed * 1103515245u + 12345u;
		/* A few parents get most appends, so lists grow long. */
		i = (seed >> 8) % (seed & 0x10000 ? 4 : NR_PARENTS);
		way = (seed >> 20) % 8;
		if (way == 0 && nr[i]) {
			size_t at = (seed >> 4) % nr[i];

			node_unlink(want[i][at]);
			memmove(&want[i][at], &want[i][at + 1], (nr[i] - at - 1) * sizeof(want[i][0]));
			nr[i]--;
			continue;
		}
		if (way <= 2) {
			n = node_new(&p, NULL, NODE_OP, "bypass", 6);
			node_append_after(parents[i], nr[i] ? want[i][nr[i] - 1] : NULL, n);
		} else {
			n = node_new(&p, parents[i], NODE_OP, "append", 6);
		}
		want[i][nr[i]++] = n;
	}
	for (int i = 0; i < NR_PARENTS; i++) {
		const struct node *c = node_first_child(parents[i]);
		size_t k = 0;

		for (; c && k < nr[i]; c = node_next(c), k++)
			if (c != want[i][k] || node_parent(c) != parents[i])
				break;
		CHECK(k == nr[i] && !c);
		CHECK(node_last_child(&p, parents[i]) == (nr[i] ? want[i][nr[i] - 1] : NULL));
	}
	/* After the finish the hints are gone: an append still goes last. */
	profile_finish(&p);
	for (int i = 0; i < NR_PARENTS; i++) {
		struct node *n = node_new(&p, parents[i], NODE_OP, "late", 4);

		CHECK(node_last_child(&p, parents[i]) == n && !node_next(n));
		CHECK(nr[i] ? node_next(want[i][nr[i] - 1]) == n : node_first_child(parents[i]) == n);
	}
	profile_release(&p);
}

/*
 * Nodes in several slabs, of two profiles made in turn: every link, name
 * and record crosses slab boundaries and finds the node of its own
 * profile.  A table's nodes get room for their calls beside their slab
 * from the moment the parser asks, whichever slab that falls in.
 */
static void test_nodes_across_slabs(void)
{
	enum { NR = 3 * NODE_SLAB_NODES + 7 };
	struct profile p[2];
	struct node **made[2];
	const char *names[2][3];
	bool links = true, refs = true, counts = true;

	for (int k = 0; k < 2; k++) {
		profile_init(&p[k], k ? "b" : "a");
		made[k] = malloc(NR * sizeof(*made[k]));
		names[k][0] = profile_intern(&p[k], "op", 2);
		names[k][1] = profile_intern(&p[k], "kernel", 6);
		names[k][2] = profile_intern(&p[k], k ? "b only" : "a only", 6);
	}
	for (size_t i = 0; i < NR; i++) {
		for (int k = 0; k < 2; k++) {
			/* A chain down, a fan under the root, and a third
			 * under their parent's parent. */
			struct node *parent = i % 3 == 0 ? p[k].root
					      : made[k][i / 3 * (i % 3 == 1 ? 1 : 2) / 2];

			if (i == NR / 2)
				profile_set_counts_per_node(&p[k]);
			made[k][i] = node_new_interned(&p[k], parent, NODE_OP, names[k][i % 3]);
			if (i >= NR / 2)
				node_set_calls(&p[k], made[k][i], 1000 + i + (size_t)k);
		}
	}
	for (int k = 0; k < 2; k++) {
		CHECK(p[k].pool->nodes.nr_slabs >= 4);
		for (size_t i = 0; i < NR; i++) {
			struct node *n = made[k][i], *parent = node_parent(n);

			refs &= pool_node_at(p[k].pool, node_ref(n)) == n &&
				node_slab_of(n)->pool == p[k].pool &&
				node_name(n) == names[k][i % 3];
			links &= parent == (i % 3 == 0 ? p[k].root
					    : made[k][i / 3 * (i % 3 == 1 ? 1 : 2) / 2]);
			if (i >= NR / 2)
				counts &= (n->calls_state & NODE_ROOM) &&
					  node_calls(&p[k], n) == 1000 + i + (size_t)k;
			else
				counts &= !(n->calls_state & NODE_ROOM) && node_calls(&p[k], n) == 0;
		}
		/* The children of the root in order of making, one in three. */
		{
			size_t i = 0;

			for (const struct node *c = node_first_child(p[k].root); c; c = node_next(c), i += 3)
				links &= i < NR && c == made[k][i];
			links &= i >= NR;
		}
	}
	CHECK(refs);
	CHECK(links);
	CHECK(counts);
	CHECK(!node_ref(NULL) && !pool_node_at(p[0].pool, 0));
	for (int k = 0; k < 2; k++) {
		profile_finish(&p[k]);
		CHECK(node_name(made[k][NR - 1]) == names[k][(NR - 1) % 3]);
		CHECK(!strcmp(node_name(made[k][2]), k ? "b only" : "a only"));
		profile_release(&p[k]);
		free(made[k]);
	}
}

/*
 * Attributes live in slabs of their own, referred to by 32-bit numbers,
 * their types in the slab's head: two profiles that set them in turn, in
 * more slabs than one, each read back its own, with its key, type, value
 * and order; setting a key again keeps its place and takes the new type.
 */
static void test_attrs_across_slabs(void)
{
	enum { NR = 2 * (ATTR_SLAB_PLACES - ATTR_HEAD_PLACES) / 3 + 11 };
	static const char *const keys[] = { "flops", "input_shapes", "occupancy" };
	struct profile p[2];
	struct node **made[2];
	bool values = true, order = true, owners = true;

	for (int k = 0; k < 2; k++) {
		profile_init(&p[k], k ? "b" : "a");
		made[k] = malloc(NR * sizeof(*made[k]));
	}
	for (size_t i = 0; i < NR; i++) {
		for (int k = 0; k < 2; k++) {
			struct node *n = node_new(&p[k], p[k].root, NODE_OP, "op", 2);

			made[k][i] = n;
			attr_set_int(&p[k], node_attr_list(n), keys[0], (int64_t)(i * 2 + (size_t)k));
			attr_set_str(&p[k], node_attr_list(n), keys[1], k ? "[b]" : "[a]", 3);
			attr_set_ns(&p[k], node_attr_list(n), keys[2], (int64_t)i);
			/* Again, as a double: the same place, a new type. */
			if (i % 2)
				attr_set_double(&p[k], node_attr_list(n), keys[2], (double)i / 4);
		}
	}
	for (int k = 0; k < 2; k++) {
		CHECK(p[k].pool->attrs.nr_slabs >= 3);
		for (size_t i = 0; i < NR; i++) {
			const struct attr *a = node_attrs(made[k][i]);
			size_t nr = 0;

			for (const struct attr *b = a; b; b = attr_next(b), nr++) {
				order &= nr < 3 && !strcmp(attr_key(b), keys[nr]);
				owners &= attr_slab_of(b)->pool == p[k].pool;
			}
			order &= nr == 3;
			a = node_attr(made[k][i], keys[0]);
			values &= a && attr_type(a) == ATTR_INT && a->v.i == (int64_t)(i * 2 + (size_t)k);
			a = node_attr(made[k][i], keys[1]);
			values &= a && attr_type(a) == ATTR_STRING && !strcmp(a->v.s, k ? "[b]" : "[a]");
			a = node_attr(made[k][i], keys[2]);
			if (i % 2)
				values &= a && attr_type(a) == ATTR_DOUBLE && a->v.d == (double)i / 4;
			else
				values &= a && attr_type(a) == ATTR_NS && a->v.i == (int64_t)i;
			values &= !node_attr(made[k][i], "missing");
		}
	}
	CHECK(values);
	CHECK(order);
	CHECK(owners);
	CHECK(!pool_attr_at(p[0].pool, 0) && !node_attrs(p[0].root));
	for (int k = 0; k < 2; k++) {
		profile_release(&p[k]);
		free(made[k]);
	}
}

/*
 * After profile_finish() a node's id is its place in the tree's
 * depth-first order, whatever the order it was made in, nodes left out of
 * the tree not counted, and a node made later gets the next.
 */
static void test_ids_in_tree_order(void)
{
	enum { NR = NODE_SLAB_NODES + 5 };
	struct profile p;
	struct node *a, *b, *c, *gone, *later, **fan = malloc(NR * sizeof(*fan));
	bool ids = true;
	uint32_t next;

	profile_init(&p, "t");
	a = node_new(&p, p.root, NODE_OP, "a", 1);
	b = node_new(&p, p.root, NODE_OP, "b", 1);
	gone = node_new(&p, a, NODE_OP, "gone", 4);
	c = node_new(&p, a, NODE_OP, "c", 1);
	for (size_t i = 0; i < NR; i++)
		fan[i] = node_new(&p, b, NODE_KERNEL, "k", 1);
	node_unlink(gone);
	CHECK_EQ(p.nr_nodes, 5 + NR);

	profile_finish(&p);
	CHECK_EQ(p.nr_nodes, 4 + NR);
	CHECK_EQ(node_id(p.root), 0);
	CHECK_EQ(node_id(a), 1);
	CHECK_EQ(node_id(c), 2);
	CHECK_EQ(node_id(b), 3);
	for (size_t i = 0; i < NR; i++)
		ids &= node_id(fan[i]) == 4 + i;
	CHECK(ids);
	next = (uint32_t)p.nr_nodes;
	later = node_new(&p, c, NODE_KERNEL, "later", 5);
	CHECK_EQ(node_id(later), next);
	CHECK_EQ(p.nr_nodes, next + 1);
	profile_release(&p);
	free(fan);
}

/* The pages of [FROM, TO) in memory now. */
static size_t resident_pages(const char *from, const char *to)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)from + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t hi = (uintptr_t)to & ~(uintptr_t)(page - 1);
	unsigned char v[512];
	size_t n = hi > lo ? (hi - lo) / page : 0, in = 0;

	if (n > sizeof(v) || mincore((void *)lo, hi - lo, v))
		return SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		in += v[i] & 1;
	return in;
}

/*
 * A small profile's memory is what it uses: its arena holds small chunks
 * (a megabyte each was gigabytes for a log of 100,000 tables) and its
 * first slab of nodes fills page by page.  A set of 1,000 summaries held
 * 1,000 chunk tails it never used (500 MB) when every chunk was mapped
 * in whole.
 */
static void test_small_profile_touches_little(void)
{
	struct profile p;

	/* The earlier tests' freed memory, which malloc may hand out again,
	 * is given back first, so that what is in memory is this test's. */
	malloc_trim(0);
	profile_init(&p, "t");
	for (int i = 0; i < 100; i++) {
		char name[16];
		int n = snprintf(name, sizeof(name), "op %d", i);

		node_new(&p, p.root, NODE_OP, name, (size_t)n);
	}
	/* The arena: the path and 100 short names, in a few small chunks. */
	CHECK(p.arena.total_bytes <= 8192);
	/* The slab: 101 nodes in two pages of its sixteen; their ids, in
	 * the slab's thirteenth page, not before profile_finish(). */
	CHECK(resident_pages((const char *)node_slab_of(p.root) + 2 * 4096,
			     (const char *)node_slab_of(p.root) + SLAB_BYTES) == 0);
	/* Attributes: 100 in the first two pages of their slab, its head's
	 * types in the first. */
	for (struct node *n = node_first_child(p.root); n; n = node_next(n))
		attr_set_int(&p, node_attr_list(n), "flops", 1);
	CHECK(resident_pages((const char *)attr_slab_of(node_attrs(node_first_child(p.root))) + 2 * 4096,
			     (const char *)attr_slab_of(node_attrs(node_first_child(p.root))) + SLAB_BYTES) == 0);
	profile_finish(&p);
	CHECK(resident_pages((const char *)node_slab_of(p.root) + 2 * 4096,
			     (const char *)node_slab_of(p.root) + SLAB_BYTES) == 1);
	profile_release(&p);
}

/*
 * A profile's pool of nodes is 64 KB of directories of which a small
 * profile touches two pages; it is mapped, so the rest is never in
 * memory.  Taken from malloc(), it lay on memory a load had used and
 * freed (a file's read buffer), all of it in memory: 64 KB for each file
 * of a log dir of small traces.
 */
static void test_pool_not_on_used_memory(void)
{
	enum { BLOCKS = 8, BLOCK = 96 << 10 };
	char *block[BLOCKS], *fence;
	struct profile p;
	size_t in;

	/* Memory used and freed, below a block kept (so that malloc()
	 * keeps it for the next request rather than give it back). */
	for (int i = 0; i < BLOCKS; i++)
		memset(block[i] = xmalloc(BLOCK), 1, BLOCK);
	fence = xmalloc(64);
	for (int i = 0; i < BLOCKS; i++)
		free(block[i]);
	profile_init(&p, "t");
	node_new(&p, p.root, NODE_OP, "op", 2);
	in = resident_pages((const char *)p.pool, (const char *)(p.pool + 1));
	if (in > 4) {
		fprintf(stderr, "a profile of two nodes: %zu pages of its pool in memory\n", in);
		CHECK(!"the pool's untouched pages are not in memory");
	}
	profile_release(&p);
	free(fence);
}

/*
 * A log of 100,000 small tables is 100,000 runs (issue 29, item 7): it
 * cost gigabytes while each run had a table of names, slabs of nodes and
 * a megabyte of arena of its own.  The later runs of a file share the
 * first's names and pool, and a run costs what it holds: here six rows,
 * their attributes and a title.  Memory is the model's own account (slabs
 * made, arena chunks), not the process's.
 */
static void test_runs_cost_what_they_hold(void)
{
	enum { RUNS = 10000, ROWS = 6 };
	static const char *const names[ROWS] = {
		"aten::matmul", "aten::mm", "MLUKernelGemm", "aten::add_", "Memcpy HtoD", "aten::copy_",
	};
	struct profile first;
	const struct node_pool *counted = NULL;
	size_t bytes = 0, nr = 0;
	bool rows_ok = true;

	profile_init(&first, "epochs.log");
	profile_set_counts_per_node(&first);
	for (int r = 0; r < RUNS; r++) {
		struct profile *run = r ? profile_add_run(&first, "epochs.log:12") : &first;
		char title[32];

		snprintf(title, sizeof(title), "epoch %d", r);
		profile_meta(run, "table", "title", title);
		for (int k = 0; k < ROWS; k++) {
			struct node *n = node_new(run, run->root, NODE_OP, names[k], strlen(names[k]));

			node_set_calls(run, n, (uint64_t)(20 + k));
			node_set_host_self(run, n, 1000 * r + k);
			attr_set_double(run, node_attr_list(n), ATTR_FILE_HOST_SELF_PCT, 12.5);
		}
	}
	for (struct profile *run = &first; run; run = run->next_run, nr++) {
		const struct node *n;
		const char *title = profile_meta_get(run, "table", "title");
		char want[32];
		int k = 0;

		profile_finish(run);
		if (run->pool != counted) {	/* each pool once */
			bytes += (run->pool->nodes.nr_slabs + run->pool->attrs.nr_slabs) * SLAB_BYTES;
			counted = run->pool;
		}
		bytes += run->arena.total_bytes;
		/* Each run still has its own rows, whatever it shares. */
		rows_ok &= run->nr_nodes == ROWS + 1;
		for (n = node_first_child(run->root); n; n = node_next(n), k++)
			rows_ok &= !strcmp(node_name(n), names[k]) && node_calls(run, n) == (uint64_t)(20 + k) &&
				   node_host_self(run, n) == (int64_t)(1000 * nr + (size_t)k) &&
				   node_attrs(n) && node_attrs(n)->v.d == 12.5;
		snprintf(want, sizeof(want), "epoch %zu", nr);
		rows_ok &= k == ROWS && title && !strcmp(title, want);
	}
	CHECK_EQ(nr, RUNS);
	CHECK(rows_ok);
	/* 70,000 nodes and 60,000 attributes fill 85 slabs (5.6 MB); each
	 * run's arena a chunk of 512 bytes. */
	if (bytes / RUNS > 2048) {
		fprintf(stderr, "%zu bytes per run\n", bytes / RUNS);
		CHECK(!"a run costs what it holds");
	}
	profile_release(&first);
}

/* A least and a greatest call are kept as a pair in order, or not at all:
 * rows merged from half pairs wrote a summary its reader refused (a least
 * of 11 from one node, a greatest of 0 from another; fuzz-summary). */
static void test_minmax_pair(void)
{
	static const struct { int64_t min, max, want_min, want_max; } c[] = {
		{ 3, 5, 3, 5 }, { 4, 4, 4, 4 }, { 11, -1, -1, -1 }, { -1, 0, -1, -1 },
		{ 5, 3, -1, -1 }, { -7, 9, -1, -1 }, { -1, -1, -1, -1 },
	};
	struct profile p;

	profile_init(&p, "t");
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct node *n = node_new(&p, p.root, NODE_OP, "op", 2);

		node_set_calls(&p, n, 2);
		node_set_minmax(&p, n, c[i].min, c[i].max);
		CHECK_EQ(node_min_ns(&p, n), c[i].want_min);
		CHECK_EQ(node_max_ns(&p, n), c[i].want_max);
	}
	profile_release(&p);
}

const struct test tests[] = {
	/* First, on a fresh heap: malloc() then reuses the memory the test
	 * frees, as a load's read buffer is reused. */
	{ "a pool's untouched directories are not in memory", test_pool_not_on_used_memory },
	{ "a least and a greatest call are a pair in order, or none", test_minmax_pair },
	{ "launch configurations are interned", test_launches_intern },
	{ "devices and memory events", test_devices_and_memory },
	{ "a walk over a step's time sees what starts in it, in order", test_walk_starting },
	{ "no call or one call in a byte of the node, without a record", test_calls_by_flag },
	{ "other calls and extremes in the profile's record", test_calls_in_record },
	{ "many records, found in constant time after the finish", test_many_records },
	{ "rows get calls, extremes and flags from their nodes", test_call_flags_not_in_rows },
	{ "appends to many parents in any order, with unlinks", test_appends_any_order },
	{ "nodes in several slabs, of two profiles in turn", test_nodes_across_slabs },
	{ "attributes in several slabs, of two profiles in turn", test_attrs_across_slabs },
	{ "node ids in the tree's order", test_ids_in_tree_order },
	{ "a small profile's arena and slabs fill as they are used", test_small_profile_touches_little },
	{ "the runs of a file cost what they hold", test_runs_cost_what_they_hold },
	{ 0 },
};
