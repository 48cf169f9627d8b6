// SPDX-License-Identifier: MIT
/*
 * The Kineto parser on small traces of our own: the fixtures under
 * tests/golden/kineto/ and traces written here.  t-kineto-parity.c checks
 * the numbers against torch-tb-profiler on the corpus; this file checks
 * where proftui departs from it and how odd input is counted.
 */
#include <math.h>

#include "model/aggregate.h"
#include "model/strbuf.h"
#include "parsers/kineto/kineto_int.h"
#include "parsers/parser.h"
#include "test.h"
#include "decimal-ns.h"

#define FIX "tests/golden/kineto/"

static char msg[8192];

/* The count of the warning of kind TEXT, 0 when there is none. */
static uint64_t warnings_of(const struct profile *p, const char *text)
{
	for (const struct warning *w = p->warnings; w; w = w->next)
		if (!strcmp(w->text, text))
			return w->count;
	return 0;
}

/* Load the trace TEXT, written to a file NAME, as a Kineto trace. */
static int load_text(struct profile *p, const char *name, const char *text)
{
	return test_load(p, test_write(name, text, strlen(text)), "kineto", msg, sizeof(msg));
}

static const char *unused(const struct profile *p, const char *key)
{
	return profile_meta_get(p, "events not used", key);
}

static const struct agg_row *row_of(const struct agg *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->rows[i].name, name))
			return &a->rows[i];
	return NULL;
}

static void test_gpu_step_copies(void)
{
	struct profile p;

	CHECK_EQ(test_load(&p, FIX "gpu-step-copies.json", NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(p.nr_steps, 2);
	if (p.nr_steps == 2) {
		CHECK_STR(p.steps[0].name, "1");
		CHECK_STR(p.steps[1].name, "2");
		CHECK_EQ(p.steps[0].total_ns, 1000000);
		/* Step 2 reaches the end of its kernel, 100 us past its range. */
		CHECK_EQ(p.steps[1].total_ns, 1100000);
	}
	CHECK_STR(profile_meta_get(&p, "events not used",
				   "GPU-side copies of ProfilerStep (not steps)"), "2");
	CHECK_EQ(warnings_of(&p, "trailing steps left out of the step breakdown"), 0);
	profile_release(&p);
}

static void test_no_steps_device_tail(void)
{
	struct profile p;
	int kernel;

	CHECK_EQ(test_load(&p, FIX "no-steps-device-tail.json", NULL, msg, sizeof(msg)), 0);
	CHECK_EQ(p.nr_steps, 1);
	kernel = profile_step_cat(&p, "Kernel");
	CHECK(kernel >= 0);
	if (p.nr_steps == 1 && kernel >= 0) {
		CHECK_STR(p.steps[0].name, "0");
		/* From the first op (1000 us) to the last kernel's end (1300 us),
		 * not to the last op's (1200 us). */
		CHECK_EQ(p.steps[0].start_ns, 1000000);
		CHECK_EQ(p.steps[0].end_ns, 1300000);
		CHECK_EQ(p.steps[0].cat_ns[kernel], 150000);
	}
	profile_release(&p);
}

static void test_negative_host_self(void)
{
	struct profile p;
	struct agg ops;
	const struct agg_row *to, *copy;

	CHECK_EQ(test_load(&p, FIX "negative.json", NULL, msg, sizeof(msg)), 0);
	agg_ops(&p, NULL, &ops);
	to = row_of(&ops, "aten::to");
	copy = row_of(&ops, "aten::copy_");
	CHECK(to && copy);
	if (to && copy) {
		/* 100 us - 60 us (aten::copy_) - 20 us - 200 us (its runtimes),
		 * as the plugin computes it; marked, not hidden. */
		CHECK_EQ(to->host_self_ns, -180000);
		CHECK(to->node_flags & NODE_NEGATIVE);
		CHECK(!(copy->node_flags & NODE_NEGATIVE));
	}
	CHECK_EQ(warnings_of(&p, "negative host self times (kept as torch-tb-profiler computes them)"),
		 1);
	CHECK(strstr(msg, "'aten::to' has a host self time of -180.000 us"));
	agg_release(&ops);
	profile_release(&p);
}

static void test_negative_dur(void)
{
	struct profile p;
	struct agg ops, kernels;

	CHECK_EQ(test_load(&p, FIX "negative.json", NULL, msg, sizeof(msg)), 0);
	agg_ops(&p, NULL, &ops);
	agg_kernels(&p, NULL, &kernels);
	CHECK(!row_of(&ops, "aten::add"));
	CHECK_EQ(kernels.nr, 0);
	CHECK_EQ(warnings_of(&p, "events with a negative duration, skipped"), 2);
	CHECK(strstr(msg, "negative.json:9:5: warning: event 'aten::add' has a negative 'dur'"));
	agg_release(&ops);
	agg_release(&kernels);
	profile_release(&p);
}

static void test_unused_counted(void)
{
	struct profile p;

	CHECK_EQ(test_load(&p, FIX "unused.json", NULL, msg, sizeof(msg)), 0);
	CHECK_STR(unused(&p, "no category (ph M)"), "2");
	/* Counter events are the Counters pane's and the Timeline's. */
	CHECK(!unused(&p, "no category (ph C)"));
	CHECK_EQ(p.nr_counter_recs, 1);
	CHECK_STR(unused(&p, "no category (ph X)"), "1");
	CHECK_STR(unused(&p, "ac2g (ph s)"), "1");
	CHECK_STR(unused(&p, "ac2g (ph f)"), "1");
	CHECK_STR(unused(&p, "cuda_sync (ph X)"), "1");
	/* Frames (call stacks) and modules are used. */
	CHECK(!unused(&p, "python_function (not a module) (ph X)"));
	CHECK(!unused(&p, "python_function (ph X)"));
	/* [memory] instants, with cpu_instant_event (2.x) and without a
	 * category (1.x), are memory events now. */
	CHECK(!unused(&p, "[memory] (ph i)"));
	CHECK_EQ(p.nr_mem_events, 2);
	CHECK_STR(unused(&p, "cpu_op (ph B)"), "1");
	CHECK_STR(unused(&p, "cpu_op (ph E)"), "1");
	CHECK_STR(unused(&p, "cpu_op (no ph)"), "1");
	CHECK_STR(unused(&p, "cpu_op (ph not one letter)"), "1");
	CHECK_STR(unused(&p, "My_Category (ph X)"), "2");
	CHECK_STR(unused(&p, "Trace (ph X)"), "1");
	CHECK(!unused(&p, "cpu_op (ph X)"));
	CHECK(!unused(&p, "kernel (ph X)"));
	profile_release(&p);
}

/* Categories past the first 32 new names, and names too long to keep,
 * share one line: counting stays an increment, Info stays short. */
static void test_unused_many_categories(void)
{
	struct profile p;
	char trace[8192], *at = trace;

	at += sprintf(at, "{\"traceEvents\": [");
	for (int i = 0; i < 40; i++)
		at += sprintf(at, "{\"ph\": \"X\", \"cat\": \"c%d\", \"name\": \"e\", \"ts\": 1, "
			      "\"dur\": 1},", i);
	at += sprintf(at, "{\"ph\": \"X\", \"cat\": \"c0\", \"name\": \"e\", \"ts\": 1},");
	at += sprintf(at, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"e\", \"ts\": 1},",
		      "a_category_name_of_forty_letters_long__");
	sprintf(at, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"ts\": 1, "
		"\"dur\": 2}]}");
	CHECK_EQ(load_text(&p, "many-cats.json", trace), 0);
	CHECK_STR(unused(&p, "c0 (ph X)"), "2");
	CHECK_STR(unused(&p, "c31 (ph X)"), "1");
	CHECK(!unused(&p, "c32 (ph X)"));
	CHECK_STR(unused(&p, "other categories (ph X)"), "9");
	profile_release(&p);
}

/* ts 1e20, dur 1e308 and their kin: dropped and counted, never clamped
 * (they were clamped to 2^62 ns: dur 1e308 showed as 4611686018 s). */
static void test_absurd_times(void)
{
	struct profile p;
	struct agg ops, kernels;

	CHECK_EQ(test_load(&p, FIX "absurd-times.json", NULL, msg, sizeof(msg)), 0);
	agg_ops(&p, NULL, &ops);
	agg_kernels(&p, NULL, &kernels);
	CHECK_EQ(ops.nr, 1);
	CHECK(row_of(&ops, "aten::ok"));
	CHECK_EQ(kernels.nr, 0);
	CHECK_EQ(warnings_of(&p, "events with a time out of range, skipped"), 4);
	CHECK_EQ(warnings_of(&p, "events with a time that is not a number, skipped"), 4);
	CHECK_EQ(warnings_of(&p, "events with a negative duration, skipped"), 1);
	CHECK(strstr(msg, "absurd-times.json:4:5: warning: event 'ts_huge' has 'ts' 1e+20 us, out of "
			  "range"));
	CHECK(strstr(msg, "event 'dur_huge' has 'dur' 1e+308 us, out of range"));
	CHECK(strstr(msg, "event 'ts_nan' has 'ts' nan, not a number"));
	CHECK(strstr(msg, "event 'dur_text' has 'dur' \"abc\", not a number"));
	agg_release(&ops);
	agg_release(&kernels);
	profile_release(&p);
}

/* The bounds themselves (model/bounds.h: below 2^62 ns, 10^15 ns): the
 * last timestamp and duration in range load to the nanosecond; the first
 * ones past them do not load at all. */
static void test_time_bounds(void)
{
	struct profile p;
	struct agg ops;
	const struct agg_row *r;

	CHECK_EQ(load_text(&p, "bounds.json",
			   "{\"traceEvents\": ["
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"edge\", "
			   "\"ts\": 4611686018427387.903, \"dur\": 1000000000000},"
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"past_ts\", "
			   "\"ts\": -4611686018427387.904, \"dur\": 1},"
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"past_dur\", "
			   "\"ts\": 1, \"dur\": 1000000000000.001}]}"), 0);
	agg_ops(&p, NULL, &ops);
	CHECK_EQ(ops.nr, 1);
	r = row_of(&ops, "edge");
	CHECK(r);
	if (r)
		CHECK_EQ(r->host_total_ns, 1000000000000000LL);
	CHECK_EQ(warnings_of(&p, "events with a time out of range, skipped"), 2);
	agg_release(&ops);
	profile_release(&p);
}

/* 3,000 threads, each one op of the longest duration launching a kernel
 * as long: the root's totals pass SUM_CAP (model/bounds.h) and hold it,
 * never wrapping, and the load says how many sums it capped. */
static void test_sums_capped(void)
{
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	const struct node *t;

	strbuf_addf(&b, "{\"traceEvents\": [");
	for (int i = 1; i <= 3000; i++)
		strbuf_addf(&b, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"long\", \"tid\": %d, "
			    "\"ts\": 1, \"dur\": 1000000000000, \"args\": {\"External id\": %d}},"
			    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
			    "\"tid\": %d, \"ts\": 2, \"dur\": 1, \"args\": {\"External id\": %d, "
			    "\"correlation\": %d}},"
			    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
			    "\"ts\": 3, \"dur\": 1000000000000, \"args\": {\"correlation\": %d}}",
			    i > 1 ? "," : "", i, i, i, i, i, i);
	strbuf_addf(&b, "]}");
	CHECK_EQ(load_text(&p, "capped.json", b.s), 0);
	CHECK_EQ(node_host_total(&p, p.root), SUM_CAP);
	CHECK_EQ(node_device_total(&p, p.root), SUM_CAP);
	t = node_first_child(p.root);
	CHECK(t && node_host_total(&p, t) == 1000000000000000LL);
	CHECK(t && node_device_total(&p, t) == 1000000000000000LL);
	CHECK_EQ(warnings_of(&p, "sums of times past 73 years, capped (shown as >=)"), 2);
	CHECK(strstr(msg, "capped.json: warning: 2 sums of times passed 2305843009.214 s"));
	strbuf_release(&b);
	profile_release(&p);
}

/* 4,000 steps of the longest duration, each one op as long: their
 * running sums pass SUM_CAP, yet each step's time in each role is its
 * own, exact, as a difference of two of them must be. */
static void test_steps_past_cap(void)
{
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	int cpu;

	strbuf_addf(&b, "{\"traceEvents\": [");
	for (int i = 1; i <= 4000; i++)
		strbuf_addf(&b, "%s{\"ph\": \"X\", \"cat\": \"user_annotation\", "
			    "\"name\": \"ProfilerStep#%d\", \"tid\": 1, \"ts\": %d000000000000, "
			    "\"dur\": 1000000000000}, {\"ph\": \"X\", \"cat\": \"cpu_op\", "
			    "\"name\": \"op\", \"tid\": 1, \"ts\": %d000000000000, \"dur\": 1000000000000}",
			    i > 1 ? "," : "", i, i, i);
	strbuf_addf(&b, "]}");
	CHECK_EQ(load_text(&p, "steps.json", b.s), 0);
	CHECK_EQ(p.nr_steps, 4000);
	cpu = profile_step_cat(&p, "CPU Exec");
	CHECK(cpu >= 0);
	for (size_t i = 0; cpu >= 0 && i < p.nr_steps; i++) {
		if (p.steps[i].total_ns != BOUND_DUR_NS || p.steps[i].cat_ns[cpu] != BOUND_DUR_NS) {
			CHECK_EQ(p.steps[i].cat_ns[cpu], BOUND_DUR_NS);
			break;
		}
	}
	/* The thread's and the root's host totals are capped, not a step's. */
	CHECK_EQ(warnings_of(&p, "sums of times past 73 years, capped (shown as >=)"), 2);
	strbuf_release(&b);
	profile_release(&p);
}

/* distributedInfo: backend, rank and world size in the model, every
 * scalar in Info; the list of process groups is not kept. */
static void test_dist_info(void)
{
	struct profile p;

	CHECK_EQ(load_text(&p, "dist.json",
			   "{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, "
			   "\"world_size\": 8, \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", "
			   "\"ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}], \"nccl_version\": \"2.17.1\"},"
			   "\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", "
			   "\"ts\": 1, \"dur\": 2}]}"), 0);
	CHECK(p.dist.present);
	CHECK_STR(p.dist.backend, "nccl");
	CHECK_EQ(p.dist.rank, 3);
	CHECK_EQ(p.dist.world_size, 8);
	CHECK_STR(profile_meta_get(&p, "distributed", "nccl_version"), "2.17.1");
	CHECK_STR(profile_meta_get(&p, "distributed", "world_size"), "8");
	CHECK(!profile_meta_get(&p, "distributed", "pg_config"));
	profile_release(&p);

	/* Without it: absent, and a rank that is not a number stays unknown. */
	CHECK_EQ(load_text(&p, "nodist.json",
			   "{\"distributedInfo\": {\"rank\": \"x\"}, \"traceEvents\": []}"), 0);
	CHECK(p.dist.present && !p.dist.backend);
	CHECK_EQ(p.dist.rank, -1);
	profile_release(&p);
	CHECK_EQ(load_text(&p, "nodist2.json", "{\"traceEvents\": []}"), 0);
	CHECK(!p.dist.present);
	profile_release(&p);
}

/* The first node called NAME in a depth-first walk, or NULL. */
struct find_ctx {
	const char *name;
	const struct node *found;
};

static bool visit_find(struct node *n, void *ctx)
{
	struct find_ctx *f = ctx;

	if (!f->found && !strcmp(node_name(n), f->name))
		f->found = n;
	return !f->found;
}

static const struct node *find_node(const struct profile *p, const char *name)
{
	struct find_ctx f = { name, NULL };

	node_walk(p->root, visit_find, &f);
	return f.found;
}

static int64_t int_attr(const struct node *n, const char *key)
{
	const struct attr *a = n ? attr_find(node_attrs(n), key) : NULL;

	return a && attr_type(a) == ATTR_INT ? a->v.i : -1;
}

/*
 * What a collective moved, as torch-tb-profiler's Distributed view sizes
 * it: element counts from "Input Dims" times the element size of "Input
 * type" (long int 8, float 4, c10::Half 2; a type it does not know, 0),
 * summed over the inputs; and record_param_comms' own args as given.
 */
static void test_comm_bytes(void)
{
	struct profile p;
	const struct node *n;
	const struct attr *a;

	CHECK_EQ(load_text(&p, "comm.json",
			   "{\"traceEvents\": ["
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", "
			   "\"ts\": 10, \"dur\": 50, \"args\": {\"External id\": 1, "
			   "\"Collective name\": \"allreduce\", \"dtype\": \"Float\", "
			   "\"In msg nelems\": 2049000, \"Out msg nelems\": 2049000, \"Group size\": 8}},"
			   "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"nccl:all_reduce\", "
			   "\"ts\": 12, \"dur\": 20, \"args\": {\"External id\": 2, "
			   "\"Input Dims\": [[8, 1024], [3], []], "
			   "\"Input type\": [\"float\", \"long int\", \"c10::Half\"]}},"
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"nccl:broadcast\", "
			   "\"ts\": 70, \"dur\": 10, \"args\": {\"Input dims\": [[5, 5]], "
			   "\"Input type\": [\"unknown thing\"]}},"
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"nccl:all_gather\", "
			   "\"ts\": 90, \"dur\": 10, \"args\": {\"Input type\": [\"float\"]}},"
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", "
			   "\"ts\": 110, \"dur\": 10, \"args\": {\"Input Dims\": [[4]], "
			   "\"Input type\": [\"float\"]}}]}"), 0);
	/* 8*1024 floats, 3 longs, one scalar Half. */
	CHECK_EQ(int_attr(find_node(&p, "nccl:all_reduce"), "comm_bytes"), 8 * 1024 * 4 + 3 * 8 + 2);
	CHECK_EQ(int_attr(find_node(&p, "nccl:broadcast"), "comm_bytes"), 0);
	/* No shapes recorded: no size, rather than a made-up 0. */
	CHECK_EQ(int_attr(find_node(&p, "nccl:all_gather"), "comm_bytes"), -1);
	CHECK_EQ(int_attr(find_node(&p, "aten::add"), "comm_bytes"), -1);
	n = find_node(&p, "record_param_comms");
	CHECK_EQ(int_attr(n, "in_msg_nelems"), 2049000);
	CHECK_EQ(int_attr(n, "out_msg_nelems"), 2049000);
	CHECK_EQ(int_attr(n, "group_size"), 8);
	a = n ? attr_find(node_attrs(n), "collective_name") : NULL;
	CHECK(a && attr_type(a) == ATTR_STRING && !strcmp(a->v.s, "allreduce"));
	a = n ? attr_find(node_attrs(n), "dtype") : NULL;
	CHECK(a && attr_type(a) == ATTR_STRING && !strcmp(a->v.s, "Float"));
	profile_release(&p);
}

/* deviceProperties: each GPU a device of the model, by its id. */
static void test_devices(void)
{
	struct profile p;
	const struct device_info *d;

	CHECK_EQ(load_text(&p, "devices.json",
			   "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", "
			   "\"totalGlobalMem\": 85018279936, \"computeMajor\": 9, \"computeMinor\": 0, "
			   "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048, "
			   "\"warpSize\": 32, \"numSms\": 132, \"regsPerMultiprocessor\": 65536, "
			   "\"sharedMemPerMultiprocessor\": 233472}, "
			   "{\"id\": 1, \"name\": \"AMD Radeon Graphics\", \"warpSize\": 64, "
			   "\"maxSharedMemoryPerMultiProcessor\": 65536}], \"traceEvents\": []}"), 0);
	CHECK_EQ(p.nr_devices, 2);
	d = profile_device(&p, 0);
	CHECK(d != NULL);
	if (d) {
		CHECK_STR(d->name, "NVIDIA H100 80GB HBM3");
		CHECK_EQ(d->total_memory_bytes, 85018279936LL);
		CHECK_EQ(d->cc_major, 9);
		CHECK_EQ(d->cc_minor, 0);
		CHECK_EQ(d->num_sms, 132);
		CHECK_EQ(d->max_threads_per_sm, 2048);
		CHECK_EQ(d->shared_mem_per_sm_bytes, 233472);
	}
	d = profile_device(&p, 1);
	CHECK(d != NULL);
	if (d) {
		CHECK_EQ(d->warp_size, 64);
		CHECK_EQ(d->shared_mem_per_sm_bytes, 65536);
		/* What the file does not give stays unknown. */
		CHECK_EQ(d->total_memory_bytes, -1);
		CHECK_EQ(d->cc_major, -1);
	}
	/* Info still lists them as the file gives them. */
	CHECK_STR(profile_meta_get(&p, "device 0", "numSms"), "132");
	profile_release(&p);
}

/* A kernel's args become one interned launch: equal launches are one. */
static void test_launches(void)
{
	struct profile p;
	const struct node *k1, *k2;
	const struct launch *l;
	struct agg kernels;
	const struct agg_row *r;

	CHECK_EQ(load_text(&p, "launch.json",
			   "{\"traceEvents\": ["
			   "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"ts\": 10, "
			   "\"dur\": 3, \"args\": {\"device\": 1, \"stream\": 7, \"correlation\": 5, "
			   "\"registers per thread\": 32, \"shared memory\": 1024, "
			   "\"blocks per SM\": 4.272727, \"grid\": [564, 1, 1], \"block\": [128, 1, 1], "
			   "\"est. achieved occupancy %\": 27}},"
			   "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"ts\": 20, "
			   "\"dur\": 1, \"args\": {\"device\": 1, \"stream\": 7, "
			   "\"registers per thread\": 32, \"shared memory\": 1024, "
			   "\"blocks per SM\": 4.272727, \"grid\": [564, 1, 1], \"block\": [128, 1, 1], "
			   "\"est. achieved occupancy %\": 27}},"
			   "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"amd\", \"ts\": 30, "
			   "\"dur\": 1, \"args\": {\"device\": 2, \"grid\": [1, 2], \"block\": \"x\"}}]}"),
		 0);
	k1 = find_node(&p, "k1");
	k2 = find_node(&p, "k2");
	l = k1 ? node_launch(k1) : NULL;
	CHECK(l != NULL);
	if (l) {
		CHECK_EQ(l->device, 1);
		CHECK_EQ(l->stream, 7);
		CHECK_EQ(l->grid[0], 564);
		CHECK_EQ(l->block[0], 128);
		CHECK_EQ(l->block[2], 1);
		CHECK_EQ(l->registers_per_thread, 32);
		CHECK_EQ(l->shared_memory_bytes, 1024);
		CHECK(l->blocks_per_sm == 4.272727);
		CHECK(l->occupancy_pct == 27);
		/* One copy for both kernels, and nothing else on the node. */
		CHECK(k2 && node_launch(k2) == l);
		CHECK(node_attrs(k1) && !attr_next(node_attrs(k1)));
	}
	l = node_launch(find_node(&p, "amd"));
	CHECK(l && l->device == 2 && l->grid[0] == 0 && l->block[0] == 0);
	CHECK(l && l->registers_per_thread == -1 && l->blocks_per_sm != l->blocks_per_sm);
	/* The kernel table's means read the launch. */
	agg_kernels(&p, NULL, &kernels);
	r = row_of(&kernels, "k1");
	CHECK(r && r->has_blocks_per_sm && r->has_occupancy);
	agg_release(&kernels);
	profile_release(&p);
}

static const char *str_attr(const struct node *n, const char *key)
{
	const struct attr *a = n ? attr_find(node_attrs(n), key) : NULL;

	return a && attr_type(a) == ATTR_STRING ? a->v.s : NULL;
}

/* The text of the call stack A (a static buffer, valid until the next
 * call); NULL for none.  own_stack(): of N's own attribute. */
static const char *stack_text(const struct attr *a)
{
	static struct strbuf b;

	if (!a)
		return NULL;
	strbuf_reset(&b);
	stack_attr_append_text(a, &b);
	return b.s ? b.s : "";
}

static const char *own_stack(const struct node *n)
{
	return n ? stack_text(attr_find(node_attrs(n), "call_stack")) : NULL;
}

/*
 * An op's input shapes as Python's str() prints the list -- the key
 * torch-tb-profiler groups ops by -- interned, so calls of one shape
 * share a string; "Input dims" (old) only where "Input Dims" is absent;
 * an old trace's "Call stack"; a module's id.
 */
static void test_shapes_stack_module(void)
{
	struct profile p;
	const struct node *a, *b, *c, *m;

	CHECK_EQ(load_text(&p, "shapes.json",
			   "{\"traceEvents\": ["
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"ts\": 1, \"dur\": 1, "
			   "\"args\": {\"Input Dims\": [[1, 512], [], [3.5, 1e20], [true, null, \"s'q\"]]}},"
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"ts\": 3, \"dur\": 1, "
			   "\"args\": {\"Input dims\": [[7]], \"Input Dims\": [[1, 512], [], [3.5, 1e20], "
			   "[true, null, \"s'q\"]], \"Call stack\": \"a.py(1): f;b.py(2): g\"}},"
			   "{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"c\", \"ts\": 5, \"dur\": 1, "
			   "\"args\": {\"Input dims\": [[2, {\"k\": 1}]], \"Call stack\": \"\"}},"
			   "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: M_0\", "
			   "\"ts\": 7, \"dur\": 1, \"args\": {\"Python id\": 3, \"Python module id\": 4}}]}"),
		 0);
	a = find_node(&p, "a");
	b = find_node(&p, "b");
	c = find_node(&p, "c");
	m = find_node(&p, "nn.Module: M_0");
	CHECK_STR(str_attr(a, "input_shapes"), "[[1, 512], [], [3.5, 1e+20], [True, None, \"s'q\"]]");
	CHECK(str_attr(a, "input_shapes") == str_attr(b, "input_shapes"));
	CHECK_STR(str_attr(c, "input_shapes"), "[[2, {'k': 1}]]");
	CHECK_STR(own_stack(b), "a.py(1): f;b.py(2): g");
	CHECK(!own_stack(a) && !own_stack(c));
	CHECK_EQ(int_attr(m, "module_id"), 4);
	profile_release(&p);
}

/* A runtime call without an External id belongs to what encloses it on
 * its thread: here the step, outside both modules.  The plugin's None ==
 * None gave it to the first nn.Module call, whose host self it shortened
 * (proftui(1), DIFFERENCES). */
static void test_runtime_without_id(void)
{
	struct profile p;
	const struct node *sync, *net;

	CHECK_EQ(test_load(&p, "tests/golden/modules/small.json", NULL, msg, sizeof(msg)), 0);
	sync = find_node(&p, "cudaDeviceSynchronize");
	CHECK(sync && node_parent(sync) && node_parent(sync)->kind == NODE_STEP);
	net = find_node(&p, "nn.Module: Net_0");
	CHECK(net && net->start_ns == 10000);
	/* 490 us, less its children (two modules and an op), as the trace says. */
	CHECK_EQ(node_host_self(&p, net), 490000 - 180000 - 40000 - 140000);
	CHECK_EQ(warnings_of(&p, "runtime calls of threads without ops, launched by no op "
				 "(kept, unlinked)"), 0);
	profile_release(&p);
}

/*
 * Each launch belongs to the innermost op that encloses it on its own
 * thread, whatever its API and whatever its External id says: a
 * cuLaunchKernel (the driver API: cuBLASLt, Triton) is linked as a
 * runtime call is; a memcpy whose External id equals its correlation
 * and so names another op goes to the op it was launched in; a graph
 * launch outside every op and module (no External id) belongs to none
 * of them, and Info says so.  torch-tb-profiler gets all three wrong.
 */
static void test_launch_by_place(void)
{
	struct profile p;
	struct agg ops;
	const struct agg_row *addmm, *copy, *empty;
	const struct node *sampler;

#define EV(cat, name, ts, dur, args) \
	"{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 1, \"tid\": 1, " \
	"\"ts\": " #ts ", \"dur\": " #dur ", \"args\": {" args "}},"
#define DEV(cat, name, ts, dur, corr) \
	"{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 0, \"tid\": 7, " \
	"\"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"correlation\": " #corr "}},"
	CHECK_EQ(load_text(&p, "by-place.json",
			   "{\"traceEvents\": ["
			   EV("user_annotation", "ProfilerStep#1", 0, 1000, "\"External id\": 100")
			   EV("cpu_op", "aten::addmm", 100, 100, "\"External id\": 1")
			   EV("cuda_driver", "cuLaunchKernel", 110, 5,
			      "\"External id\": 1, \"correlation\": 10")
			   DEV("kernel", "sm90_xmma_gemm", 120, 5, 10)
			   EV("cpu_op", "aten::copy_", 300, 100, "\"External id\": 2")
			   EV("cuda_runtime", "cudaMemcpyAsync", 310, 5,
			      "\"External id\": 3, \"correlation\": 3")
			   DEV("gpu_memcpy", "Memcpy HtoD", 320, 20, 3)
			   EV("cpu_op", "aten::empty_strided", 500, 10, "\"External id\": 3")
			   "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: Sampler_0\", "
			   "\"pid\": 1, \"tid\": 1, \"ts\": 520, \"dur\": 70, "
			   "\"args\": {\"Python id\": 2, \"Python module id\": 0}},"
			   EV("cpu_op", "aten::argmax", 530, 20, "\"External id\": 4")
			   EV("cuda_runtime", "hipLaunchKernel", 535, 5,
			      "\"External id\": 4, \"correlation\": 4")
			   DEV("kernel", "argmax_kernel", 545, 3, 4)
			   EV("cuda_runtime", "hipGraphLaunch", 600, 10, "\"correlation\": 30")
			   DEV("kernel", "graph_k1", 620, 100, 30)
			   DEV("kernel", "graph_k2", 720, 100, 30)
			   DEV("kernel", "graph_k3", 820, 100, 30)
			   "{\"ph\": \"i\", \"name\": \"end\", \"ts\": 0}]}"),
		 0);
#undef EV
#undef DEV
	agg_ops(&p, NULL, &ops);
	addmm = row_of(&ops, "aten::addmm");
	copy = row_of(&ops, "aten::copy_");
	empty = row_of(&ops, "aten::empty_strided");
	CHECK(addmm && addmm->device_self_ns == 5000);
	CHECK(addmm && addmm->host_self_ns == 95000);
	CHECK(copy && copy->device_self_ns == 20000);
	CHECK(empty && empty->device_self_ns == 0 && empty->device_total_ns == 0);
	sampler = find_node(&p, "nn.Module: Sampler_0");
	CHECK(sampler && node_device_total(&p, sampler) == 3000);
	CHECK_STR(profile_meta_get(&p, "device work", "launched outside every op (no op's)"),
		  "1 runtime call, 300.000 us of device time");
	CHECK_STR(profile_meta_get(&p, "device work", "runtime calls credited to the op enclosing "
						      "them, not the one their External id names"),
		  "1");
	agg_release(&ops);
	profile_release(&p);
}

/*
 * Times keep the trace's nanoseconds: an epoch timestamp with a fraction
 * is exact as a decimal and 0.25 us coarse as a double, so the plugin's
 * (ts + dur) - ts rounds each event's duration, sums the errors, and can
 * make a child that ends with its parent overlap it (and be dropped).
 */
static void test_ns_times(void)
{
	struct profile p;
	struct agg ops;
	const struct agg_row *mul, *inner;

	CHECK_EQ(load_text(&p, "ns.json",
			   "{\"traceEvents\": ["
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mul\", \"pid\": 1, "
			   "\"tid\": 1, \"ts\": 1712195495505772.801, \"dur\": 10.333},"
			   "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::inner\", \"pid\": 1, "
			   "\"tid\": 1, \"ts\": 1712195495505775.1, \"dur\": 8.034},"
			   "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
			   "\"pid\": 1, \"tid\": 1, \"ts\": 1712195495505773.002, \"dur\": 1.1, "
			   "\"args\": {\"correlation\": 1}},"
			   "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"mul_kernel\", \"pid\": 0, "
			   "\"tid\": 7, \"ts\": 1712195495505780.8, \"dur\": 4.928, "
			   "\"args\": {\"correlation\": 1}},"
			   "{\"ph\": \"i\", \"name\": \"end\", \"ts\": 0}]}"),
		 0);
	agg_ops(&p, NULL, &ops);
	mul = row_of(&ops, "aten::mul");
	inner = row_of(&ops, "aten::inner");
	CHECK(mul && mul->device_self_ns == 4928 && mul->host_total_ns == 10333);
	/* It ends at 5783.134, as its parent does: nested, not dropped. */
	CHECK(inner && inner->host_total_ns == 8034);
	CHECK(mul && mul->host_self_ns == 10333 - 8034 - 1100);
	CHECK_EQ(warnings_of(&p, "events overlapping their parent, dropped"), 0);
	agg_release(&ops);
	profile_release(&p);
}

/*
 * PyTorch 2.x's with_stack: python_function frames without a module id
 * are not nodes, but give the ops that start inside them their stack,
 * innermost first as old traces' "Call stack"; an op under another op
 * with the same stack inherits it (node_call_stack()) instead of holding
 * a copy; a module is not a frame; another thread's frames do not count.
 */
static void test_python_frames(void)
{
	struct profile p;
	const struct node *lin, *mm, *relu1, *relu2, *lone;
	struct agg a;

#define PF(name, ts, dur, tid) \
	"{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"" name "\", \"pid\": 1, " \
	"\"tid\": " #tid ", \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"Python id\": 1}},"
#define OP(name, ts, dur, tid) \
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" name "\", \"pid\": 1, \"tid\": " #tid \
	", \"ts\": " #ts ", \"dur\": " #dur "},"
	CHECK_EQ(load_text(&p, "frames.json",
			   "{\"traceEvents\": ["
			   PF("main.py(10): <module>", 0, 1000, 1)
			   PF("model.py(5): forward", 10, 500, 1)
			   "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: M_0\", "
			   "\"pid\": 1, \"tid\": 1, \"ts\": 15, \"dur\": 400, "
			   "\"args\": {\"Python id\": 2, \"Python module id\": 7}},"
			   OP("aten::linear", 20, 70, 1)
			   OP("aten::mm", 30, 50, 1)
			   PF("F.py(1): relu", 100, 100, 1)
			   OP("aten::relu", 110, 80, 1)
			   OP("aten::relu", 600, 100, 1)
			   PF("other.py(2): g", 0, 2000, 2)
			   OP("aten::lone", 3000, 10, 2)
			   OP("aten::zeros", 10, 5, 3)
			   "{\"ph\": \"i\", \"name\": \"end\", \"ts\": 0}]}"),
		 0);
#undef PF
#undef OP
	lin = find_node(&p, "aten::linear");
	mm = find_node(&p, "aten::mm");
	relu1 = find_node(&p, "aten::relu");
	relu2 = node_next(find_node(&p, "nn.Module: M_0"));	/* the call after the module */
	lone = find_node(&p, "aten::lone");
	CHECK(!find_node(&p, "model.py(5): forward"));
	CHECK_STR(own_stack(lin), "model.py(5): forward;main.py(10): <module>");
	CHECK(!own_stack(mm));
	CHECK_STR(stack_text(node_call_stack(mm)), "model.py(5): forward;main.py(10): <module>");
	CHECK(node_call_stack(mm) == node_call_stack(lin));
	CHECK_STR(stack_text(node_call_stack(relu1)),
		  "F.py(1): relu;model.py(5): forward;main.py(10): <module>");
	CHECK(relu2 && !strcmp(node_name(relu2), "aten::relu") && relu2->start_ns == 600000);
	CHECK_STR(stack_text(node_call_stack(relu2)), "main.py(10): <module>");
	CHECK(!node_call_stack(lone));
	CHECK(!node_call_stack(find_node(&p, "aten::zeros")));
	CHECK(!unused(&p, "python_function (not a module) (ph X)"));

	agg_op_stacks(&p, NULL, &a);
	CHECK_EQ(a.nr, 6);
	for (size_t i = 0; i < a.nr; i++)
		if (!strcmp(a.rows[i].name, "aten::relu"))
			CHECK(a.rows[i].calls == 1 && a.rows[i].stack);
	agg_release(&a);
	profile_release(&p);
}

/* A and B hold the same ranges, in the same order. */
static void check_same_ranges(const struct ranges *a, const struct ranges *b)
{
	CHECK_EQ(a->nr, b->nr);
	for (size_t i = 0; i < a->nr && i < b->nr; i++) {
		CHECK_EQ(a->v[i].start, b->v[i].start);
		CHECK_EQ(a->v[i].end, b->v[i].end);
	}
}

/*
 * A role's ranges join the last one kept as they come when they start
 * inside it; merged, they must be what the ranges added one by one give,
 * whatever the order: nested, touching, zero-length, out of order.
 */
static void test_ranges_merge_as_they_come(void)
{
	uint64_t seed = 12345;
	size_t nr_joined = 0;

	for (int round = 0; round < 200; round++) {
		struct ranges plain = { 0 }, joined = { 0 };
		int n = 1 + round % 50;

		for (int i = 0; i < n; i++) {
			int64_t start, len;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			start = (int64_t)(seed >> 33) % 100;
			len = (int64_t)(seed >> 20) % (round % 3 ? 8 : 30);
			ranges_add(&plain, start, start + len);
			ranges_add_merging(&joined, start, start + len);
		}
		nr_joined += (size_t)n - joined.nr;
		ranges_merge(&plain);
		ranges_merge(&joined);
		check_same_ranges(&plain, &joined);
		free(plain.v);
		free(joined.v);
	}
	CHECK(nr_joined > 100);	/* the joining path ran */
}

/*
 * Two threads whose ops touch end to end, their events interleaved: no
 * range starts inside the last one kept, yet the list is merged as it
 * grows, and holds a few thousand at most, not one a range.  Merged, it
 * is what the ranges added one by one give; a few random ones (nested,
 * zero-length, out of order) ride along.
 */
static void test_ranges_merge_in_batches(void)
{
	struct ranges plain = { 0 }, joined = { 0 };
	uint64_t seed = 777;
	size_t most = 0;

	for (int64_t i = 0; i < 40000; i++) {
		int64_t start = i % 2 ? 1000000 + i / 2 * 10 : i / 2 * 10, len = 10;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		if (seed >> 58 == 0) {
			start = (int64_t)(seed >> 20) % 2000000;
			len = (int64_t)(seed >> 10) % 7;
		}
		ranges_add(&plain, start, start + len);
		ranges_add_held(&joined, start, start + len);
		if (joined.nr > most)
			most = joined.nr;
	}
	ranges_merge(&plain);
	ranges_merge(&joined);
	CHECK(plain.nr > 100);	/* the random ones did not all join */
	CHECK(most <= 2 * plain.nr + 4096);	/* twice the union, and a batch */
	CHECK(most < 10000);
	check_same_ranges(&plain, &joined);
	free(plain.v);
	free(joined.v);
}

/* The old definition, with libm: the ns nearest to the double US. */
/*
 * Times are the trace's decimals to the ns, not doubles: 4000 events
 * whose ts and dur have 0 to 7 decimals, halves of a ns (".0005", exact
 * ones near 0) among them, negative and 16-digit epoch times too, must
 * get the start and duration their text gives, to the ns -- a duration
 * as written, not (ts + dur) - ts in doubles.
 */
static void test_times_to_ns(void)
{
	enum { NR = 4000 };
	static char ts_text[NR][40], dur_text[NR][40];
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	double at = -3000000.0;
	const struct node *thread, *n;
	size_t i = 0, bad = 0;

	strbuf_addstr(&b, "{\"traceEvents\": [");
	for (int k = 0; k < NR; k++) {
		static const char *const tails[] = { "", ".5", ".0005", ".0015", ".4995", ".9995",
						     ".123", ".0004999", ".5005", ".999999" };
		long long whole;

		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		if (k == NR / 2)
			at = 1712195495519689.0;	/* an epoch in microseconds */
		whole = (long long)floor(at);
		if (k >= NR / 4 && k < NR / 4 + 40) {
			/* Near 0 (a trace of relative times), X.XXX5 is a
			 * half ns exactly: it rounds away from zero. */
			snprintf(ts_text[k], sizeof(ts_text[k]), "%.4f", (2 * (k - NR / 4) + 1) / 2000.0);
			snprintf(dur_text[k], sizeof(dur_text[k]), "0.0005");
			strbuf_addf(&b, ",{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", "
				    "\"pid\": 1, \"tid\": 1, \"ts\": %s, \"dur\": %s}",
				    ts_text[k], dur_text[k]);
			at = 10.0;
			continue;
		}
		if (state >> 60 < 10)
			snprintf(ts_text[k], sizeof(ts_text[k]), "%lld%s", whole, tails[state >> 60]);
		else
			snprintf(ts_text[k], sizeof(ts_text[k]), "%lld.%07llu", whole,
				 (unsigned long long)(state >> 20) % 10000000);
		snprintf(dur_text[k], sizeof(dur_text[k]), "%llu%s",
			 (unsigned long long)(state >> 40) % 50, tails[(state >> 8) % 10]);
		strbuf_addf(&b, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", "
			    "\"pid\": 1, \"tid\": 1, \"ts\": %s, \"dur\": %s}",
			    k ? "," : "", ts_text[k], dur_text[k]);
		at = floor(at) + 60 + (double)((state >> 16) % 1000);
	}
	strbuf_addstr(&b, "]}");
	CHECK_EQ(load_text(&p, "times.json", b.s), 0);
	strbuf_release(&b);
	thread = node_first_child(p.root);
	CHECK(thread && !node_next(thread));
	for (n = thread ? node_first_child(thread) : NULL; n; n = node_next(n), i++) {
		if (i >= NR || n->start_ns != decimal_ns(ts_text[i]) ||
		    node_host_total(&p, n) != decimal_ns(dur_text[i])) {
			if (!bad++ && i < NR)
				fprintf(stderr, "t-kineto: ts %s dur %s: %lld, %lld ns\n", ts_text[i],
					dur_text[i], (long long)n->start_ns,
					(long long)node_host_total(&p, n));
		}
	}
	CHECK_EQ(i, NR);
	CHECK_EQ(bad, 0);
	profile_release(&p);
}

const struct test tests[] = {
	{ "times are the decimals as written, to the ns", test_times_to_ns },
	{ "GPU-side copies of ProfilerStep are counted, not steps", test_gpu_step_copies },
	{ "the step of a trace without steps reaches its device work", test_no_steps_device_tail },
	{ "a negative host self time is kept, marked and counted", test_negative_host_self },
	{ "events with a negative dur are dropped and counted", test_negative_dur },
	{ "every event the parser does not use is counted in Info", test_unused_counted },
	{ "new categories past the first 32 share one line", test_unused_many_categories },
	{ "absurd and unreadable times are dropped and counted, not clamped", test_absurd_times },
	{ "times at the bounds load exactly, past them they are dropped", test_time_bounds },
	{ "sums past the cap hold it, and are counted", test_sums_capped },
	{ "steps whose running sums pass the cap keep their own times", test_steps_past_cap },
	{ "distributedInfo gives the rank, the world size and the backend", test_dist_info },
	{ "collectives carry their size in bytes, record_param_comms its args", test_comm_bytes },
	{ "deviceProperties become the profile's devices", test_devices },
	{ "a kernel's args are one interned launch", test_launches },
	{ "ops keep their input shapes and stack, modules their id", test_shapes_stack_module },
	{ "a runtime call without an External id belongs to what encloses it",
	  test_runtime_without_id },
	{ "each launch belongs to the op that encloses it, whatever its API or id",
	  test_launch_by_place },
	{ "times keep the trace's nanoseconds", test_ns_times },
	{ "Python frames give the ops under them their call stack", test_python_frames },
	{ "role ranges joined as they come merge as the ranges one by one",
	  test_ranges_merge_as_they_come },
	{ "ranges of interleaved threads are merged in batches", test_ranges_merge_in_batches },
	{ 0 },
};
