// SPDX-License-Identifier: MIT
/*
 * The Memory view's model (model/memory.c) on a trace of our own,
 * tests/golden/memory/small.json: a step holding linear > addmm > empty,
 * two relu (the second holds an empty and no memory event), GPU and CPU
 * memory events, one without an address, one after the last op, one on a
 * device type PyTorch does not have.  t-memory-parity.c checks the corpus against
 * torch-tb-profiler.
 */
#include "model/memory.h"
#include "model/strbuf.h"
#include "parsers/parser.h"
#include "test.h"
#include "long-trace.h"

#define FIX "tests/golden/memory/small.json"

static char msg[4096];

#define CPU ((struct mem_device){ -1, DEVICE_CPU })
#define GPU(i) ((struct mem_device){ (i), DEVICE_CUDA })

static const struct mem_stat *stat_of(const struct mem_stats *s, const char *name,
				      struct mem_device device)
{
	for (size_t i = 0; i < s->nr; i++)
		if (mem_device_eq(s->rows[i].device, device) && !strcmp(s->rows[i].name, name))
			return &s->rows[i];
	return NULL;
}

static void test_events_loaded(void)
{
	struct profile p;
	size_t in_empty = 0, none = 0;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	/* Eight events, the one on device type 64 dropped and said so. */
	CHECK_EQ(p.nr_mem_events, 8);
	CHECK(strstr(msg, "Device Type 64, none of PyTorch's"));
	CHECK(p.has_time_origin && p.time_origin_ns == 0);
	for (size_t i = 0; i < p.nr_mem_events; i++) {
		const struct mem_event *m = &p.mem_events[i];

		in_empty += m->op && !strcmp(node_name(m->op), "aten::empty");
		none += !m->op;
		if (m->ts_ns == 580000)
			CHECK(m->addr == MEM_NO_ADDR && m->total_allocated == -1);
		if (m->ts_ns == 50000)
			CHECK(mem_device_eq(m->device, CPU) && m->op && m->op->kind == NODE_STEP);
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
	x = stat_of(&s, "aten::empty", GPU(0));
	CHECK(x && x->self_size_increase == 1024 && x->size_increase == 1024);
	CHECK(x && x->self_alloc_count == 1 && x->alloc_size == 1024);
	/* Only one empty was reached: the other sits in a relu that holds
	 * no memory event, and the plugin does not go into those. */
	CHECK(x && x->calls == 1);
	x = stat_of(&s, "aten::addmm", GPU(0));
	CHECK(x && x->self_size_increase == 512 - 1024 && x->size_increase == 512);
	CHECK(x && x->self_alloc_count == 1 && x->alloc_count == 2);
	CHECK(x && x->self_alloc_size == 512 && x->alloc_size == 1536);
	x = stat_of(&s, "aten::linear", GPU(0));
	CHECK(x && x->self_size_increase == 0 && x->size_increase == 512 && x->alloc_count == 2);
	x = stat_of(&s, "aten::relu", GPU(0));
	/* The event without an address counts here, as in the plugin. */
	CHECK(x && x->self_size_increase == 256 + 64 && x->self_alloc_count == 2);
	CHECK(x && x->calls == 2);
	CHECK(!stat_of(&s, "ProfilerStep#1", GPU(0)) && !stat_of(&s, "aten::empty", CPU));
	/* Sorted by name within the device. */
	CHECK(s.nr == 4 && !strcmp(s.rows[0].name, "aten::addmm") &&
	      !strcmp(s.rows[3].name, "aten::relu"));
	mem_stats_release(&s);

	/* Zoomed to 450..1000 us: the events there, and the ops that
	 * overlap it. */
	mem_stats(&p, &r, &s);
	CHECK_EQ(s.nr, 1);
	x = stat_of(&s, "aten::relu", GPU(0));
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
		CHECK(mem_device_eq(e.rows[2].device, CPU) && !e.rows[2].op &&
		      e.rows[2].alloc_ns == 50000);
		CHECK_STR(e.rows[3].op, "aten::relu");
		CHECK(e.rows[3].release_ns == -1);
		CHECK(mem_device_eq(e.rows[4].device, GPU(0)) && !e.rows[4].op &&
		      e.rows[4].alloc_ns == 2000000);
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
	struct mem_device *devices;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	devices = mem_devices(&p, &nr);
	CHECK_EQ(nr, 2);
	CHECK(mem_device_eq(devices[0], GPU(0)) && mem_device_eq(devices[1], CPU));
	free(devices);
	mem_curves(&p, NULL, &c);
	CHECK_EQ(c.nr, 2);
	if (c.nr == 2) {
		CHECK(mem_device_eq(c.curves[0].device, GPU(0)));
		/* Six GPU events have an address and both totals. */
		CHECK_EQ(c.curves[0].nr, 6);
		CHECK_EQ(c.curves[0].peak_allocated, 1536);
		CHECK_EQ(c.curves[0].peak_reserved, 4096);
		CHECK(c.curves[0].points[0].ts_ns == 165000 && c.curves[0].points[5].ts_ns == 2000000);
		CHECK(mem_device_eq(c.curves[1].device, CPU) && c.curves[1].nr == 1);
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
	struct mem_device *devices;
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
		in_order &= mem_device_eq(devices[i], i < NR_GPUS ? GPU((int32_t)i) : CPU);
	CHECK(in_order);
	CHECK_EQ(mem_device_index(devices, nr, GPU(123)), 123);
	CHECK_EQ(mem_device_index(devices, nr, CPU), NR_GPUS);
	CHECK_EQ(mem_device_index(devices, nr, GPU(NR_GPUS)), nr);
	mem_curves(&p, NULL, &c);
	CHECK_EQ(c.nr, NR_GPUS + 1);
	if (c.nr == NR_GPUS + 1) {
		CHECK(mem_device_eq(c.curves[NR_GPUS - 1].device, GPU(NR_GPUS - 1)) &&
		      c.curves[NR_GPUS - 1].nr == 2);
		CHECK(mem_device_eq(c.curves[NR_GPUS].device, CPU) &&
		      c.curves[NR_GPUS].peak_allocated == 512);
	}
	mem_curves_release(&c);
	mem_stats(&p, NULL, &st);
	CHECK_EQ(st.nr, NR_GPUS + 1);	/* aten::empty, on each device */
	if (st.nr == NR_GPUS + 1)
		CHECK(mem_device_eq(st.rows[0].device, GPU(0)) &&
		      mem_device_eq(st.rows[NR_GPUS].device, CPU));
	mem_stats_release(&st);
	free(devices);
	profile_release(&p);
	strbuf_release(&b);
}

/*
 * A ROCm trace's memory is on Device Type 6 (HIP): all of it is read, on
 * a device of its own named HIP0, the CPU's 8 bytes beside it --
 * tests/golden/memory/hip.json.
 */
static void test_hip(void)
{
	struct profile p;
	struct mem_device hip0 = { 0, DEVICE_HIP }, *devices;
	struct mem_stats st;
	struct mem_event_rows e;
	struct mem_curves c;
	const struct mem_stat *x;
	char name[MEM_DEVICE_NAME_SIZE];
	size_t nr;

	CHECK_EQ(test_load(&p, "tests/golden/memory/hip.json", NULL, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	CHECK_EQ(p.nr_mem_events, 6);
	devices = mem_devices(&p, &nr);
	CHECK_EQ(nr, 2);
	if (nr == 2) {
		CHECK(mem_device_eq(devices[0], hip0) && mem_device_eq(devices[1], CPU));
		CHECK_STR(mem_device_name(devices[0], name, sizeof(name)), "HIP0");
	}
	free(devices);
	mem_stats(&p, NULL, &st);
	CHECK_EQ(st.nr, 4);
	x = stat_of(&st, "aten::linear", hip0);
	CHECK(x && x->size_increase == 8192 && x->alloc_size == 24576 && x->alloc_count == 2);
	mem_stats_release(&st);
	mem_event_rows(&p, NULL, &e);
	CHECK_EQ(e.nr, 4);
	if (e.nr == 4) {
		CHECK(mem_device_eq(e.rows[0].device, hip0) && e.rows[0].size_bytes == 16384);
		CHECK_STR(e.rows[0].parent, "aten::linear");
		CHECK(mem_device_eq(e.rows[2].device, CPU) && e.rows[2].size_bytes == 8);
	}
	mem_event_rows_release(&e);
	mem_curves(&p, NULL, &c);
	CHECK_EQ(c.nr, 2);
	if (c.nr == 2)
		CHECK(mem_device_eq(c.curves[0].device, hip0) && c.curves[0].nr == 5 &&
		      c.curves[0].peak_allocated == 24576 && c.curves[0].peak_reserved == 2097152);
	mem_curves_release(&c);
	/* The Overview's memory advice reads the MI300's peak. */
	CHECK_EQ(mem_peak_allocated(&p, 0), 24576);
	CHECK_STR(profile_meta_get(&p, "memory", "HIP0 peak_allocated_bytes"), "24576");
	profile_release(&p);
}

/*
 * Every type of c10's DeviceType (0..20) is a device, named after it;
 * one past, one below and a device with no Device Id are dropped, each
 * said so.
 */
static void test_every_device_type(void)
{
	static const char *const names[NR_DEVICE_TYPES] = {
		"CPU", "GPU3", "MKLDNN3", "OPENGL3", "OPENCL3", "IDEEP3", "HIP3", "FPGA3", "MAIA3",
		"XLA3", "VULKAN3", "METAL3", "XPU3", "MPS3", "META3", "HPU3", "VE3", "LAZY3", "IPU3",
		"MTIA3", "PrivateUse1:3",
	};
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	struct mem_device *devices;
	size_t nr;
	bool named = true;

	strbuf_addstr(&b, "{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
			  "\"aten::empty\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1000}");
	/* Types 20 down to -1 and 21; the last without a Device Id. */
	for (int type = NR_DEVICE_TYPES; type >= -2; type--)
		strbuf_addf(&b,
			    ",\n{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, "
			    "\"tid\": 1, \"ts\": %d, \"args\": {\"Total Reserved\": 4096, "
			    "\"Total Allocated\": 64, \"Bytes\": 64, \"Addr\": 4096, %s"
			    "\"Device Type\": %d}}",
			    100 + type, type == -2 ? "" : "\"Device Id\": 3, ", type == -2 ? 6 : type);
	strbuf_addstr(&b, "\n]}\n");
	CHECK_EQ(test_load(&p, test_write("every-type.json", b.s, b.len), NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(p.nr_mem_events, NR_DEVICE_TYPES);
	CHECK(strstr(msg, "Device Type 21, none of PyTorch's"));
	CHECK(strstr(msg, "Device Type -1, none of PyTorch's"));
	CHECK(strstr(msg, "on Device Type 6 without a usable 'Device Id'"));
	devices = mem_devices(&p, &nr);
	CHECK_EQ(nr, NR_DEVICE_TYPES);
	/* By type, CUDA's first, the CPU last. */
	for (size_t i = 0; i < nr && i < NR_DEVICE_TYPES; i++) {
		char name[MEM_DEVICE_NAME_SIZE];
		size_t type = (i + 1) % NR_DEVICE_TYPES;

		named &= devices[i].type == type && !strcmp(mem_device_name(devices[i], name,
										sizeof(name)), names[type]);
	}
	CHECK(named);
	free(devices);
	profile_release(&p);
	strbuf_release(&b);
}

/*
 * Two GPUs use one address (tests/golden/memory/two-gpus.json): GPU0's
 * 1 KB from aten::empty, freed in aten::add, and GPU1's 4 KB from
 * aten::to, allocated between the two and freed in aten::mul.  Each free
 * closes its own device's allocation; paired by the address alone (the
 * plugin), GPU0's free closed GPU1's 4 KB as 1 KB and GPU0's allocation
 * was lost.
 */
static void test_pairs_by_device(void)
{
	struct profile p;
	struct mem_event_rows e;

	CHECK_EQ(test_load(&p, "tests/golden/memory/two-gpus.json", NULL, msg, sizeof(msg)), 0);
	mem_event_rows(&p, NULL, &e);
	CHECK_EQ(e.nr, 2);
	if (e.nr == 2) {
		CHECK(mem_device_eq(e.rows[0].device, GPU(0)) && e.rows[0].size_bytes == 1024);
		CHECK(e.rows[0].alloc_ns == 5000 && e.rows[0].release_ns == 205000);
		CHECK_STR(e.rows[0].op, "aten::empty");
		CHECK(mem_device_eq(e.rows[1].device, GPU(1)) && e.rows[1].size_bytes == 4096);
		CHECK(e.rows[1].alloc_ns == 105000 && e.rows[1].release_ns == 305000);
		CHECK_STR(e.rows[1].op, "aten::to");
	}
	mem_event_rows_release(&e);
	profile_release(&p);
}

/* 3,000 allocations of the largest size: the statistics' byte sums hold
 * SUM_CAP (model/bounds.h), never wrap to a negative size, and are
 * counted; the counts beside them stay exact. */
static void test_sums_capped(void)
{
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	struct mem_stats s;
	char text[4096];

	long_trace(&b, 3000);
	CHECK_EQ(test_load(&p, test_write("long.json", b.s, b.len), "kineto", text, sizeof(text)), 0);
	mem_stats(&p, NULL, &s);
	CHECK_EQ(s.nr, 1);
	if (s.nr) {
		CHECK_STR(s.rows[0].name, "long");
		CHECK_EQ(s.rows[0].size_increase, SUM_CAP);
		CHECK_EQ(s.rows[0].self_alloc_size, SUM_CAP);
		CHECK_EQ(s.rows[0].alloc_count, 3000);
	}
	CHECK_EQ(s.nr_capped, 4);
	mem_stats_release(&s);
	profile_release(&p);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "sums past the cap hold it, and are counted", test_sums_capped },
	{ "memory events load, each in the innermost node that holds it", test_events_loaded },
	{ "statistics per op and device, as the plugin sums them", test_stats },
	{ "allocations pair with their frees, in the plugin's order", test_event_rows },
	{ "the curve per device, with its peaks", test_curves },
	{ "hundreds of devices: every one listed, with its curve and rows", test_many_devices },
	{ "a ROCm trace's memory, on HIP0", test_hip },
	{ "every device type of PyTorch's, by its name; others dropped", test_every_device_type },
	{ "an allocation pairs with the free on its own device", test_pairs_by_device },
	{ 0 },
};
