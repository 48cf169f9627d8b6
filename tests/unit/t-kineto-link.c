// SPDX-License-Identifier: MIT
/*
 * The link of a Kineto trace (parsers/kineto/kineto_link.c) on two threads must
 * give what it gives on one, byte for byte: the tree and its times, the
 * tables, the steps and their categories, Info and the warnings in their
 * order.  PROFTUI_LINK_THREADS forces either, whatever the size.  And ids
 * looked up through an array over their range (dense) must link as those
 * looked up through the hash table (spread wide).
 */
#include "load-text.h"
#include "test.h"

static void check_equal(const char *what, const char *a, const char *b)
{
	if (strcmp(a, b)) {
		const char *s = a, *q = b;

		while (*s && *s == *q)
			s++, q++;
		fprintf(stderr, "%s: differs at byte %zu:\n  %.160s\n  %.160s\n", what,
			(size_t)(s - a), s, q);
	}
	CHECK(!strcmp(a, b));
}

/* Whether the file at PATH loads the same with the link on one thread and
 * on two; returns the text, for the caller to compare further or free. */
static char *check_threads(const char *what, const char *path)
{
	char *one = load_text(path, "PROFTUI_LINK_THREADS", "1");
	char *two = load_text(path, "PROFTUI_LINK_THREADS", "2");

	check_equal(what, one, two);
	free(two);
	return one;
}

/* How the ids of a trace are written: ID(i) = base + scale * i. */
struct ids {
	long long base, scale;
};

static long long id(const struct ids *ids, long long i)
{
	return ids->base + ids->scale * i;
}

static void op(struct strbuf *b, int tid, const char *cat, const char *name, long long ts,
	       long long dur, const char *ext)
{
	add(b, ",\n{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 1, \"tid\": %d, "
	       "\"ts\": %lld, \"dur\": %lld, \"args\": {%s}}", cat, name, tid, ts, dur, ext);
}

static void runtime(struct strbuf *b, int tid, long long ts, long long dur, const char *args)
{
	add(b, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
	       "\"pid\": 1, \"tid\": %d, \"ts\": %lld, \"dur\": %lld, \"args\": {%s}}", tid, ts,
	    dur, args);
}

static void kernel(struct strbuf *b, const char *name, long long ts, long long dur,
		   const char *args)
{
	add(b, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, "
	       "\"ts\": %lld, \"dur\": %lld, \"args\": {%s}}", name, ts, dur, args);
}

/*
 * Two CPU threads of NR_STEPS steps each, with something in each step
 * for every part of the link: ops that launch kernels, a lone child of
 * its parent's name (folded), an op overlapping its parent (dropped), a
 * runtime longer than its op (negative self), runtimes of External id 0
 * (the thread's), of an id no op has, without one, of another op's id,
 * on a thread without ops (with an op's id, and without), two runtimes of one
 * correlation and kernels of none or a stale one, a collective, Python
 * frames and memory events; the last step launches too little (left out
 * of the breakdown), the one before holds those without correlation.
 */
static void make_trace(struct strbuf *b, const struct ids *ids, int nr_steps)
{
	char args[256];
	long long n = 1;	/* the next id */

	add(b, "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"G\"}],\n"
	       "\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, "
	       "\"args\": {\"name\": \"p\"}}");
	for (int s = 0; s < nr_steps; s++) {
		for (int tid = 1; tid <= 2; tid++) {
			long long t0 = 10000 + 1000LL * s + 400 * (tid - 1);
			bool last = s == nr_steps - 1;
			long long e;

			snprintf(args, sizeof(args), "\"External id\": %lld", id(ids, n++));
			add(b, ",\n{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": "
			       "\"train.py(%d): step\", \"pid\": 1, \"tid\": %d, \"ts\": %lld, "
			       "\"dur\": 390, \"args\": {}}", s % 3, tid, t0);
			if (tid == 1) {
				char step[32];

				snprintf(step, sizeof(step), "ProfilerStep#%d", s);
				op(b, tid, "user_annotation", step, t0, 390, args);
			}
			/* An op and its lone child of the same name. */
			e = id(ids, n++);
			snprintf(args, sizeof(args), "\"External id\": %lld", e);
			op(b, tid, "cpu_op", "aten::linear", t0 + 10, 100, args);
			snprintf(args, sizeof(args), "\"External id\": %lld", id(ids, n++));
			op(b, tid, "cpu_op", "aten::linear", t0 + 12, 90, args);
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld", e,
				 id(ids, n));
			runtime(b, tid, t0 + 11, 1, args);
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, n++));
			kernel(b, "gemm", t0 + 30, 40, args);
			/* A child op that launches; one more, unless the last step. */
			e = id(ids, n++);
			snprintf(args, sizeof(args), "\"External id\": %lld", e);
			op(b, tid, "cpu_op", "aten::mm", t0 + 20, 50, args);
			/* A runtime in it whose External id names another op
			 * (the linear's); one on a thread of no ops that names
			 * it while it runs, one there that names none. */
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld",
				 e - 3, id(ids, n++));
			runtime(b, tid, t0 + 22, 1, args);
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld", e,
				 id(ids, n));
			runtime(b, 5, t0 + 24, 1, args);
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, n++));
			kernel(b, "elsewhere", t0 + 80, 2, args);
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld",
				 id(ids, 3000000 + n), id(ids, n));
			runtime(b, 5, t0 + 26, 1, args);
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, n++));
			kernel(b, "nowhere", t0 + 82, 2, args);
			for (int k = 0; k < (last ? 1 : 3); k++) {
				snprintf(args, sizeof(args),
					 "\"External id\": %lld, \"correlation\": %lld", e, id(ids, n));
				runtime(b, tid, t0 + 21 + 5 * k, 3, args);
				snprintf(args, sizeof(args), "\"correlation\": %lld, \"External id\": %lld",
					 id(ids, n++), e);
				kernel(b, k == 2 ? "relu" : "gemm", t0 + 100 + 30 * k, 20, args);
			}
			/* An op overlapping its parent's end: dropped, with its runtime. */
			e = id(ids, n++);
			snprintf(args, sizeof(args), "\"External id\": %lld", e);
			op(b, tid, "cpu_op", "aten::overlap", t0 + 100, 30, args);
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld", e,
				 id(ids, n));
			runtime(b, tid, t0 + 105, 2, args);
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, n++));
			kernel(b, "lost", t0 + 200, 5, args);
			/* An op whose runtime runs longer than it: negative self. */
			e = id(ids, n++);
			snprintf(args, sizeof(args), "\"External id\": %lld", e);
			op(b, tid, "cpu_op", "aten::short", t0 + 140, 4, args);
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld", e,
				 id(ids, n++));
			runtime(b, tid, t0 + 141, 9, args);
			/* A collective and its kernel. */
			e = id(ids, n++);
			snprintf(args, sizeof(args), "\"External id\": %lld", e);
			op(b, tid, "cpu_op", "nccl:all_reduce", t0 + 150, 20, args);
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld", e,
				 id(ids, n));
			runtime(b, tid, t0 + 152, 3, args);
			snprintf(args, sizeof(args), "\"correlation\": %lld, \"External id\": %lld",
				 id(ids, n++), e);
			kernel(b, "ncclKernel", t0 + 160, 50, args);
			/* The thread's own (External id 0), an id no op has, none. */
			snprintf(args, sizeof(args), "\"External id\": 0, \"correlation\": %lld",
				 id(ids, n));
			runtime(b, tid, t0 + 200, 2, args);
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, n++));
			kernel(b, "own", t0 + 210, 3, args);
			snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld",
				 id(ids, 1000000 + n), id(ids, n));
			runtime(b, tid, t0 + 210, 2, args);
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, n++));
			kernel(b, "orphan", t0 + 220, 3, args);
			if (s == nr_steps - 2)	/* it takes all kernels without one */
				runtime(b, tid, t0 + 215, 1, "\"cbid\": 1");
			/* Two runtimes of one correlation; kernels of none and a stale one. */
			for (int k = 0; k < 2; k++) {
				snprintf(args, sizeof(args), "\"External id\": %lld, \"correlation\": %lld",
					 id(ids, n + 1), id(ids, n));
				runtime(b, tid, t0 + 250 + 10 * k, 2, args);
			}
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, n));
			kernel(b, "twice", t0 + 280, 4, args);
			n += 2;
			if (s == nr_steps - 2)
				kernel(b, "uncorrelated", t0 + 290, 2, "\"stream\": 7");
			snprintf(args, sizeof(args), "\"correlation\": %lld", id(ids, 2000000 + n));
			kernel(b, "stale", t0 + 295, 2, args);
			/* A memory event inside aten::mm and one between ops. */
			for (int k = 0; k < 2; k++)
				add(b, ",\n{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": "
				       "\"[memory]\", \"pid\": 1, \"tid\": %d, \"ts\": %lld, \"s\": \"t\", "
				       "\"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Addr\": %d, "
				       "\"Bytes\": %d, \"Total Allocated\": %d, \"Total Reserved\": 4096}}",
				    tid, t0 + (k ? 5 : 25), 64 * (s + 1), 256 - 512 * k, 1024 + s);
		}
	}
	add(b, "\n],\n\"displayTimeUnit\": \"ms\"}\n");
}

static void test_threads_synthetic(void)
{
	struct strbuf b = STRBUF_INIT;
	struct ids dense = { 0, 1 };
	char *text;

	make_trace(&b, &dense, 12);
	text = check_threads("synthetic", test_write("link-threads.json", b.s, b.len));
	/* The fixture has what it is for. */
	CHECK(strstr(text, "events overlapping their parent, dropped"));
	CHECK(strstr(text, "negative host self times"));
	CHECK(strstr(text, "device events launched by no runtime call"));
	CHECK(strstr(text, "runtime calls of threads without ops, launched by no op"));
	CHECK(strstr(text, "credited to the op enclosing them, not the one their External id"));
	CHECK(strstr(text, "credited by External id (no op enclosed them on their thread)"));
	CHECK(strstr(text, "launched outside every op"));
	CHECK(strstr(text, "trailing steps left out of the step breakdown"));
	CHECK(strstr(text, "step column Communication"));
	CHECK(strstr(text, " stack train.py("));
	CHECK(strstr(text, "op aten::mm\n"));
	free(text);
	strbuf_release(&b);
}

/* The fixtures of the goldens, each a case of its own. */
static void test_threads_goldens(void)
{
	static const char *const names[] = { "absurd-times", "gpu-step-copies", "long-times",
					     "negative", "no-steps-device-tail", "two-steps", "unused" };
	char path[256];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "tests/golden/kineto/%s.json", names[i]);
		free(check_threads(names[i], path));
	}
}

/* Ids spread wider than the array takes (the hash table), at the ends of
 * int64, negative: linked as the dense ones are. */
static void test_ids_dense_and_spread(void)
{
	static const struct ids variants[] = {
		{ 7, 1000003 },			/* spread: the hash table */
		{ 4000000000000000000LL, 1 },	/* dense, far from zero */
		{ -4000000000000000000LL, 3 },	/* dense, negative */
		{ -9000000000000000000LL, 2000000000LL },	/* spread across zero */
	};
	struct strbuf b = STRBUF_INIT;
	struct ids dense = { 0, 1 };
	char *want;

	make_trace(&b, &dense, 6);
	want = load_text(test_write("link-ids.json", b.s, b.len), "PROFTUI_LINK_THREADS", "1");
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		char *got;

		strbuf_reset(&b);
		make_trace(&b, &variants[i], 6);
		got = load_text(test_write("link-ids.json", b.s, b.len), "PROFTUI_LINK_THREADS", "1");
		check_equal("ids", want, got);
		free(got);
	}
	free(want);
	strbuf_release(&b);
}

/* How many lines of TEXT start with PREFIX. */
static size_t count_lines(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		n += !strncmp(l, prefix, len);
	return n;
}

/*
 * Records keep a number for their tid, not the tid: the tid that is
 * int64's least (NO_ID, the free key of the link's maps) is a thread like
 * any other.  It used to be one thread for each run of its events, and
 * the runtime of its thread (External id 0) went unlinked.
 */
static void test_least_tid(void)
{
	static const char trace[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"m.py(1): f\", "
		"\"pid\": 1, \"tid\": -9223372036854775808, \"ts\": 0, \"dur\": 100, \"args\": {}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, "
		"\"tid\": -9223372036854775808, \"ts\": 10, \"dur\": 5, \"args\": {\"External id\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 11, \"dur\": 5, \"args\": {\"External id\": 2}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"c\", \"pid\": 1, "
		"\"tid\": -9223372036854775808, \"ts\": 20, \"dur\": 5, \"args\": {\"External id\": 3}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
		"\"pid\": 1, \"tid\": -9223372036854775808, \"ts\": 30, \"dur\": 1, "
		"\"args\": {\"External id\": 0, \"correlation\": 7}},\n"
		"{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 1, "
		"\"tid\": -9223372036854775808, \"ts\": 21, \"s\": \"t\", \"args\": {\"Device Type\": 0, "
		"\"Device Id\": -1, \"Addr\": 64, \"Bytes\": 64, \"Total Allocated\": 64, "
		"\"Total Reserved\": 64}}\n"
		"]}\n";
	char *text = check_threads("least tid", test_write("link-least-tid.json", trace,
							    sizeof(trace) - 1));

	CHECK_EQ(count_lines(text, " thread "), 2);
	CHECK(strstr(text, " thread 0 (named) k"));
	CHECK(strstr(text, "  a k"));
	CHECK(strstr(text, "  c k"));
	CHECK(strstr(text, "  cudaLaunchKernel k"));
	CHECK(strstr(text, " stack m.py(1): f\n"));
	CHECK(strstr(text, "\nmemory 0 ") && strstr(text, " op c\n"));
	CHECK(!strstr(text, "unlinked"));
	free(text);
}

/*
 * A thread number for each of many tids, their events interleaved: ops,
 * then the runtimes of each thread's root (External id 0), then a Python
 * frame each.  Every thread gets its runtime and its stack, in time
 * linear in the events.
 */
static void test_many_tids(void)
{
	enum { NR = 60000 };
	struct strbuf b = STRBUF_INIT;
	double t0 = test_cpu_s();
	char *text;

	add(&b, "{\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"x\", \"args\": {}}");
	for (int t = 0; t < NR; t++)
		op(&b, 1000 + t * 7919 % NR, "cpu_op", "aten::op", 10 + t, 5, "\"External id\": 1");
	for (int t = 0; t < NR; t++)
		runtime(&b, 1000 + t, 100000 + t, 1, "\"External id\": 0, \"correlation\": 1");
	for (int t = 0; t < NR; t++)
		add(&b, ",\n{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"m.py(1): f\", "
		       "\"pid\": 1, \"tid\": %d, \"ts\": 0, \"dur\": 200000, \"args\": {}}", 1000 + t);
	add(&b, "\n]}\n");
	text = check_threads("many tids", test_write("link-many-tids.json", b.s, b.len));
	CHECK_EQ(count_lines(text, " thread "), NR);
	CHECK_EQ(count_lines(text, "  cudaLaunchKernel k"), NR);
	CHECK_EQ(count_lines(text, "  aten::op k"), NR);
	CHECK(strstr(text, " stack m.py(1): f\n"));
	CHECK(!strstr(text, "unlinked"));
	CHECK(test_cpu_s() - t0 < 4 * CPU_BOUND_S);
	free(text);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "the least tid is one thread", test_least_tid },
	{ "many tids, interleaved, each a thread", test_many_tids },
	{ "two threads link as one: every part of the link", test_threads_synthetic },
	{ "two threads link as one: the golden fixtures", test_threads_goldens },
	{ "ids in an array link as ids in the hash table", test_ids_dense_and_spread },
	{ 0 },
};
