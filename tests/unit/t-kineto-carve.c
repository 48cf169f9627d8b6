// SPDX-License-Identifier: MIT
/*
 * What the Kineto link and step plan keep small must still come out
 * exact (parsers/kineto/kineto_link.c, kineto_steps.c): the step breakdown
 * carved in one sweep, steps that overlap included; runtimes claimed by
 * the first op in time when the file gives a thread's ops out of order;
 * an op with no claim of its own that folds its child takes the child's
 * runtimes; ids spread far apart.  Each on one thread and on two.
 */
#include "load-text.h"
#include "test.h"

static void op(struct strbuf *b, int tid, const char *cat, const char *name, long long ts,
	       long long dur, const char *args)
{
	add(b, ",\n{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 1, \"tid\": %d, "
	       "\"ts\": %lld, \"dur\": %lld, \"args\": {%s}}", cat, name, tid, ts, dur, args);
}

static void runtime(struct strbuf *b, int tid, long long ts, long long dur, long long ext,
		    long long corr)
{
	add(b, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
	       "\"pid\": 1, \"tid\": %d, \"ts\": %lld, \"dur\": %lld, \"args\": {\"External id\": "
	       "%lld, \"correlation\": %lld}}", tid, ts, dur, ext, corr);
}

static void kernel(struct strbuf *b, const char *name, long long ts, long long dur,
		   long long corr)
{
	add(b, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, "
	       "\"ts\": %lld, \"dur\": %lld, \"args\": {\"correlation\": %lld}}", name, ts, dur,
	    corr);
}

/* The trace's load as text, the same on one link thread and on two. */
static char *load_both(const char *name, const struct strbuf *b)
{
	const char *path = test_write(name, b->s, b->len);
	char *one = load_text(path, "PROFTUI_LINK_THREADS", "1");
	char *two = load_text(path, "PROFTUI_LINK_THREADS", "2");

	if (strcmp(one, two))
		fprintf(stderr, "%s: one link thread and two differ:\n%s\n----\n%s\n", name, one,
			two);
	CHECK(!strcmp(one, two));
	free(two);
	return one;
}

static void memcpy_event(struct strbuf *b, long long ts, long long dur)
{
	add(b, ",\n{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", "
	       "\"pid\": 0, \"tid\": 7, \"ts\": %lld, \"dur\": %lld, \"args\": {}}", ts, dur);
}

/* Whether TEXT has LINE, a whole line. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, line, n) && (l[n] == '\n' || !l[n]))
			return true;
	return false;
}

/*
 * Steps no device work widened keep the host's intervals, which may
 * overlap: each gets its own part of every role, the part they share
 * counted in both, by priority (Memcpy before CPU Exec).  A step of no
 * length has nothing.
 */
static void test_overlapping_steps(void)
{
	struct strbuf b = STRBUF_INIT;
	char *text;

	add(&b, "{\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"x\", \"args\": {}}");
	op(&b, 1, "user_annotation", "ProfilerStep#1", 0, 100, "");
	op(&b, 1, "user_annotation", "ProfilerStep#2", 50, 100, "");
	op(&b, 1, "user_annotation", "ProfilerStep#3", 200, 0, "");
	op(&b, 1, "cpu_op", "aten::x", 40, 20, "\"External id\": 1");
	op(&b, 2, "cpu_op", "aten::y", 120, 10, "\"External id\": 2");
	op(&b, 2, "cpu_op", "aten::z", 300, 10, "\"External id\": 3");
	memcpy_event(&b, 45, 10);
	add(&b, "\n]}\n");
	text = load_both("carve-overlap.json", &b);
	CHECK(has_line(text, "step column Memcpy"));
	CHECK(has_line(text, "step column CPU Exec"));
	/* Kernel Memcpy Memset Runtime DataLoader CPU-Exec Other */
	CHECK(has_line(text, "step 1 0 100000 0 10000 0 0 0 10000 80000"));
	CHECK(has_line(text, "step 2 50000 150000 0 5000 0 0 0 15000 80000"));
	CHECK(has_line(text, "step 3 200000 200000 0 0 0 0 0 0 0"));
	free(text);
	strbuf_release(&b);
}

/*
 * Each role takes what the roles before it left of a step: a kernel
 * inside its runtime inside an op -- Kernel, then what is left of the
 * runtime, then of the op -- and runtimes that overlap count once.
 */
static void test_priority(void)
{
	struct strbuf b = STRBUF_INIT;
	char *text;

	add(&b, "{\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"x\", \"args\": {}}");
	op(&b, 1, "user_annotation", "ProfilerStep#1", 0, 100, "");
	op(&b, 1, "cpu_op", "aten::mm", 10, 40, "\"External id\": 2");
	runtime(&b, 1, 20, 5, 2, 10);
	kernel(&b, "gemm", 22, 18, 10);
	op(&b, 2, "cpu_op", "aten::add", 60, 20, "\"External id\": 3");
	runtime(&b, 2, 62, 6, 3, 11);
	runtime(&b, 1, 64, 6, 3, 12);
	add(&b, "\n]}\n");
	text = load_both("carve-priority.json", &b);
	/* Kernel 22..40; Runtime 20..22, 62..70; CPU Exec 10..20, 40..50,
	 * 60..62, 70..80; Other the rest. */
	CHECK(has_line(text, "step 1 0 100000 18000 0 0 10000 0 32000 40000"));
	free(text);
	strbuf_release(&b);
}

/*
 * The first op in time claims the runtimes of its External id, however
 * the file orders its thread's ops (sorted through an array for the
 * claims, the thread's list of records relinked).
 */
static void test_claims_out_of_order(void)
{
	struct strbuf b = STRBUF_INIT;
	char *text, *late, *early;

	add(&b, "{\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"x\", \"args\": {}}");
	op(&b, 1, "cpu_op", "aten::late", 100, 10, "\"External id\": 5");
	op(&b, 1, "cpu_op", "aten::early", 10, 10, "\"External id\": 5");
	op(&b, 1, "cpu_op", "aten::middle", 50, 10, "\"External id\": 6");
	runtime(&b, 1, 12, 1, 5, 1);
	kernel(&b, "k5", 30, 4, 1);
	runtime(&b, 1, 52, 1, 6, 2);
	kernel(&b, "k6", 70, 4, 2);
	add(&b, "\n]}\n");
	text = load_both("carve-claims.json", &b);
	early = strstr(text, "  aten::early ");
	late = strstr(text, "  aten::late ");
	CHECK(early && late && early < late);
	CHECK(early && strstr(early, "\n   cudaLaunchKernel ") == strchr(early, '\n'));
	CHECK(late && !strncmp(strchr(late, '\n'), "\nop ", 4));
	CHECK(strstr(text, "  aten::middle ") && strstr(text, "\n    k6 "));
	CHECK(!strstr(text, "unlinked"));
	free(text);
	strbuf_release(&b);
}

/*
 * An op with no runtimes of its own that folds its lone child of the
 * same name takes the child's: they hang under it and its device self
 * time is theirs -- with ids from a counter (the ranked table) and spread
 * far apart (the hash table) alike.
 */
static void test_fold_takes_child_runtimes(void)
{
	static const long long scale[] = { 1, 1000000000000LL };
	char *want = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(scale); i++) {
		struct strbuf b = STRBUF_INIT;
		char args[64], *text;

		add(&b, "{\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"x\", \"args\": {}}");
		snprintf(args, sizeof(args), "\"External id\": %lld", 1 * scale[i]);
		op(&b, 1, "cpu_op", "aten::linear", 0, 100, args);
		snprintf(args, sizeof(args), "\"External id\": %lld", 2 * scale[i]);
		op(&b, 1, "cpu_op", "aten::linear", 10, 80, args);
		runtime(&b, 1, 20, 5, 2 * scale[i], 3 * scale[i]);
		kernel(&b, "gemm", 30, 7, 3 * scale[i]);
		snprintf(args, sizeof(args), "\"External id\": %lld", 4 * scale[i]);
		op(&b, 1, "cpu_op", "aten::relu", 200, 10, args);
		add(&b, "\n]}\n");
		text = load_both("carve-fold.json", &b);
		CHECK(has_line(text, "  aten::linear k3 f0 s0 ht100000 hs95000 dt7000 ds7000"));
		CHECK(has_line(text, "   cudaLaunchKernel k6 f0 s20000 ht5000 hs5000 dt7000 ds7000"));
		CHECK(!strstr(text, "folded duplicate"));
		CHECK(!strstr(text, "unlinked"));
		if (want)
			CHECK(!strcmp(want, text));
		free(want);
		want = text;
		strbuf_release(&b);
	}
	free(want);
}

const struct test tests[] = {
	{ "steps that overlap carve apart", test_overlapping_steps },
	{ "roles carve by priority", test_priority },
	{ "the first op in time claims, file order aside", test_claims_out_of_order },
	{ "a fold takes its child's runtimes", test_fold_takes_child_runtimes },
	{ 0 },
};
