// SPDX-License-Identifier: MIT
/* The model's side data: interned launches, devices, memory events. */
#include <math.h>

#include "model/profile.h"
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
	attr_set_launch(&p, &k->attrs, x);
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
		CHECK(m->device == -1 && m->total_allocated == -1 && !m->op && m->addr == MEM_NO_ADDR);
		m->bytes = i;
	}
	CHECK(p.nr_mem_events == 100 && p.mem_events[99].bytes == 99);
	profile_release(&p);
}

const struct test tests[] = {
	{ "launch configurations are interned", test_launches_intern },
	{ "devices and memory events", test_devices_and_memory },
	{ 0 },
};
