// SPDX-License-Identifier: MIT
/*
 * The Memory view's model (model/memory.c) on a trace of our own,
 * tests/golden/memory/small.json: a step holding linear > addmm > empty,
 * two relu (the second holds an empty and no memory event), GPU and CPU
 * memory events, one without an address, one after the last op, one on a
 * device type nobody knows.  t-memory-parity.c checks the corpus against
 * torch-tb-profiler.
 */
#include "model/memory.h"
#include "model/strbuf.h"
#include "parsers/parser.h"
#include "test.h"

#define FIX "tests/golden/memory/small.json"

static char msg[4096];

static const struct mem_stat *stat_of(const struct mem_stats *s, const char *name, int device)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->rows[i].device == device && !strcmp(s->rows[i].name, name))
			return &s->rows[i];
	return NULL;
}

static void test_events_loaded(void)
{
	struct profile p;
	size_t in_empty = 0, none = 0;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	/* Eight events, the one on device type 7 dropped and said so. */
	CHECK_EQ(p.nr_mem_events, 8);
	CHECK(strstr(msg, "no CPU (Device Type 0) or GPU"));
	CHECK(p.has_time_origin && p.time_origin_ns == 0);
	for (size_t i = 0; i < p.nr_mem_events; i++) {
		const struct mem_event *m = &p.mem_events[i];

		in_empty += m->op && !strcmp(node_name(m->op), "aten::empty");
		none += !m->op;
		if (m->ts_ns == 580000)
			CHECK(m->addr == MEM_NO_ADDR && m->total_allocated == -1);
		if (m->ts_ns == 50000)
			CHECK(m->device == -1 && m->op && m->op->kind == NODE_STEP);
		if (m->ts_ns == 700000)
			CHECK(m->op && m->op->kind == NODE_STEP);
	}
	CHECK_EQ(in_empty, 1);
	CHECK_EQ(none, 1);	/* the one after the last node */
	CHECK_STR(profile_meta_get(&p, "memory", "GPU0 peak_allocated_bytes"), "1536");
	CHECK_STR(profile_meta_get(&p, "memory", "GPU0 peak_reserved_bytes"), "4096");
	CHECK_STR(profile_meta_get(&p, "memory", "CPU peak_allocated_bytes"), "8");
	profile_release(&p);
}

static void test_stats(void)
{
	struct profile p;
	struct mem_stats s;
	struct mem_range r = { true, 450000, 1000000 };
	const struct mem_stat *x;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	mem_stats(&p, NULL, &s);
	/* Four ops on GPU0; the CPU's one event is in the step, no op. */
	CHECK_EQ(s.nr, 4);
	x = stat_of(&s, "aten::empty", 0);
	CHECK(x && x->self_size_increase == 1024 && x->size_increase == 1024);
	CHECK(x && x->self_alloc_count == 1 && x->alloc_size == 1024);
	/* Only one empty was reached: the other sits in a relu that holds
	 * no memory event, and the plugin does not go into those. */
	CHECK(x && x->calls == 1);
	x = stat_of(&s, "aten::addmm", 0);
	CHECK(x && x->self_size_increase == 512 - 1024 && x->size_increase == 512);
	CHECK(x && x->self_alloc_count == 1 && x->alloc_count == 2);
	CHECK(x && x->self_alloc_size == 512 && x->alloc_size == 1536);
	x = stat_of(&s, "aten::linear", 0);
	CHECK(x && x->self_size_increase == 0 && x->size_increase == 512 && x->alloc_count == 2);
	x = stat_of(&s, "aten::relu", 0);
	/* The event without an address counts here, as in the plugin. */
	CHECK(x && x->self_size_increase == 256 + 64 && x->self_alloc_count == 2);
	CHECK(x && x->calls == 2);
	CHECK(!stat_of(&s, "ProfilerStep#1", 0) && !stat_of(&s, "aten::empty", -1));
	/* Sorted by name within the device. */
	CHECK(s.nr == 4 && !strcmp(s.rows[0].name, "aten::addmm") &&
	      !strcmp(s.rows[3].name, "aten::relu"));
	mem_stats_release(&s);

	/* Zoomed to 450..1000 us: the events there, and the ops that
	 * overlap it. */
	mem_stats(&p, &r, &s);
	CHECK_EQ(s.nr, 1);
	x = stat_of(&s, "aten::relu", 0);
	CHECK(x && x->self_size_increase == 320 && x->calls == 2);
	mem_stats_release(&s);
	profile_release(&p);
}

static void test_event_rows(void)
{
	struct profile p;
	struct mem_event_rows e;
	struct mem_range r = { true, 180000, 1000000 };

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	mem_event_rows(&p, NULL, &e);
	CHECK_EQ(e.nr, 5);
	if (e.nr == 5) {
		/* Freed first: the empty's 1 KB, named after its caller. */
		CHECK_STR(e.rows[0].op, "aten::empty");
		CHECK_STR(e.rows[0].parent, "aten::addmm");
		CHECK(e.rows[0].size_bytes == 1024 && e.rows[0].alloc_ns == 165000 &&
		      e.rows[0].release_ns == 300000);
		CHECK_STR(e.rows[1].op, "aten::addmm");
		CHECK(!e.rows[1].parent && e.rows[1].size_bytes == 512);
		/* Never freed, in the order they came: the CPU's (in the
		 * step, so no op), relu's, the one after every node. */
		CHECK(e.rows[2].device == -1 && !e.rows[2].op && e.rows[2].alloc_ns == 50000);
		CHECK_STR(e.rows[3].op, "aten::relu");
		CHECK(e.rows[3].release_ns == -1);
		CHECK(e.rows[4].device == 0 && !e.rows[4].op && e.rows[4].alloc_ns == 2000000);
	}
	mem_event_rows_release(&e);

	/* From 180 us: B's allocation is in, A's is not, so A's free is a
	 * row of its own -- still named after the allocation. */
	mem_event_rows(&p, &r, &e);
	CHECK_EQ(e.nr, 3);
	if (e.nr == 3) {
		CHECK_STR(e.rows[e.nr - 1].op, "aten::empty");
		CHECK(e.rows[e.nr - 1].alloc_ns == -1 && e.rows[e.nr - 1].release_ns == 300000);
		CHECK(e.rows[e.nr - 1].size_bytes == 1024);
	}
	mem_event_rows_release(&e);
	profile_release(&p);
}

static void test_curves(void)
{
	struct profile p;
	struct mem_curves c;
	size_t nr;
	int32_t *devices;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	devices = mem_devices(&p, &nr);
	CHECK_EQ(nr, 2);
	CHECK(devices[0] == 0 && devices[1] == -1);
	free(devices);
	mem_curves(&p, NULL, &c);
	CHECK_EQ(c.nr, 2);
	if (c.nr == 2) {
		CHECK(c.curves[0].device == 0);
		/* Six GPU events have an address and both totals. */
		CHECK_EQ(c.curves[0].nr, 6);
		CHECK_EQ(c.curves[0].peak_allocated, 1536);
		CHECK_EQ(c.curves[0].peak_reserved, 4096);
		CHECK(c.curves[0].points[0].ts_ns == 165000 && c.curves[0].points[5].ts_ns == 2000000);
		CHECK(c.curves[1].device == -1 && c.curves[1].nr == 1);
	}
	mem_curves_release(&c);
	CHECK_EQ(mem_peak_allocated(&p, 0), 1536);
	profile_release(&p);
}

/*
 * A trace whose memory events are on NR_GPUS GPUs (in a shuffled order)
 * and the CPU, two events each: every device is listed, in order, with a
 * curve and rows of its own -- none is lost past a fixed number of slots
 * (64 in the Memory pane and 256 in the curves, before).
 */
#define NR_GPUS 300

static void test_many_devices(void)
{
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	struct mem_curves c;
	struct mem_stats st;
	size_t nr;
	int32_t *devices;
	bool in_order = true;

	strbuf_addstr(&b, "{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
			  "\"aten::empty\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 100000}");
	for (int i = 0; i <= NR_GPUS; i++) {
		/* GPU (i * 7) % NR_GPUS, the CPU last in the file's order. */
		int dev = i < NR_GPUS ? (i * 7) % NR_GPUS : 0, type = i < NR_GPUS ? 1 : 0;

		for (int k = 0; k < 2; k++)
			strbuf_addf(&b,
				    ",\n{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", "
				    "\"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": %d, "
				    "\"args\": {\"Total Reserved\": 4096, \"Total Allocated\": %d, "
				    "\"Bytes\": %d, \"Addr\": %d, \"Device Id\": %d, \"Device Type\": %d}}",
				    10 + 2 * i + k, k ? 0 : 512, k ? -512 : 512, 4096 + 16 * i, dev, type);
	}
	strbuf_addstr(&b, "\n]}\n");
	CHECK_EQ(test_load(&p, test_write("many-devices.json", b.s, b.len), NULL, msg, sizeof(msg)),
		 0);
	devices = mem_devices(&p, &nr);
	CHECK_EQ(nr, NR_GPUS + 1);
	for (size_t i = 0; i < nr; i++)
		in_order &= devices[i] == (i < NR_GPUS ? (int32_t)i : -1);
	CHECK(in_order);
	CHECK_EQ(mem_device_index(devices, nr, 123), 123);
	CHECK_EQ(mem_device_index(devices, nr, -1), NR_GPUS);
	CHECK_EQ(mem_device_index(devices, nr, NR_GPUS), nr);
	mem_curves(&p, NULL, &c);
	CHECK_EQ(c.nr, NR_GPUS + 1);
	if (c.nr == NR_GPUS + 1) {
		CHECK(c.curves[NR_GPUS - 1].device == NR_GPUS - 1 && c.curves[NR_GPUS - 1].nr == 2);
		CHECK(c.curves[NR_GPUS].device == -1 && c.curves[NR_GPUS].peak_allocated == 512);
	}
	mem_curves_release(&c);
	mem_stats(&p, NULL, &st);
	CHECK_EQ(st.nr, NR_GPUS + 1);	/* aten::empty, on each device */
	if (st.nr == NR_GPUS + 1)
		CHECK(st.rows[0].device == 0 && st.rows[NR_GPUS].device == -1);
	mem_stats_release(&st);
	free(devices);
	profile_release(&p);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "memory events load, each in the innermost node that holds it", test_events_loaded },
	{ "statistics per op and device, as the plugin sums them", test_stats },
	{ "allocations pair with their frees, in the plugin's order", test_event_rows },
	{ "the curve per device, with its peaks", test_curves },
	{ "hundreds of devices: every one listed, with its curve and rows", test_many_devices },
	{ 0 },
};
