/* SPDX-License-Identifier: MIT */
/*
 * The frequent kernel sequences under an op (model/kernel_seq.c) on small
 * profiles made by hand: patterns grouped, counted and sorted, the
 * shallowest instances only, equal starts in the file's order, the
 * pattern text's order, no GPU event, one kernel, a CPU-only profile, the
 * default operator, HTA's substring match, rounding and last step as
 * options, the step window, a capped sum, and many instances and a deep
 * nest in O(n log n).
 */
#include "model/bounds.h"
#include "model/kernel_seq.h"
#include "test.h"

#define US 1000

static struct node *host(struct profile *p, struct node *parent, enum node_kind kind,
			 const char *name, int64_t start_ns, int64_t dur_ns)
{
	struct node *n = node_new(p, parent, kind, name, strlen(name));

	n->start_ns = start_ns;
	node_set_calls(p, n, 1);
	node_set_host_total(p, n, dur_ns);
	node_set_host_self(p, n, dur_ns);
	return n;
}

/* A runtime call under PARENT at AT ns launching kernel NAME that runs
 * [START, START + DUR) ns. */
static struct node *launch(struct profile *p, struct node *parent, int64_t at, const char *name,
			   int64_t start, int64_t dur)
{
	struct node *rt = host(p, parent, NODE_RUNTIME, "cudaLaunchKernel", at, 2 * US);
	struct node *k = node_new(p, rt, NODE_KERNEL, name, strlen(name));

	k->start_ns = start;
	node_set_calls(p, k, 1);
	node_set_device_total(p, k, dur);
	node_set_device_self(p, k, dur);
	return k;
}

/* An op NAME at AT us under PARENT for 50 us launching the kernels of
 * KERNELS (NULL-ended), one every 10 us from AT + 100 us, each 3 us. */
static struct node *op_with(struct profile *p, struct node *parent, const char *name, int64_t at,
			    const char *const *kernels)
{
	struct node *op = host(p, parent, NODE_OP, name, at * US, 50 * US);

	for (size_t i = 0; kernels[i]; i++)
		launch(p, op, (at + 1 + (int64_t)i) * US, kernels[i], (at + 100 + 10 * (int64_t)i) * US,
		       3 * US);
	return op;
}

static struct node *thread(struct profile *p)
{
	return node_new(p, p->root, NODE_THREAD, "thread 1", 8);
}

static const char *text(const struct kseq_pattern *k)
{
	static char buf[512];
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < k->nr_names; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "|" : "", k->names[i]);
	return buf;
}

/* Grouped, counted, summed and sorted: count first, then the text. */
static void t_patterns(void)
{
	static const char *const abc[] = { "a", "b", "c", NULL };
	static const char *const abd[] = { "a", "b", "d", NULL };
	static const char *const ab[] = { "a", "b", NULL };
	struct profile p;
	struct kseq_result r;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p);
	op_with(&p, th, "X", 0, abd);
	op_with(&p, th, "X", 1000, abc);
	op_with(&p, th, "X", 2000, abd);
	op_with(&p, th, "X", 3000, ab);	/* two kernels: not an instance */
	op_with(&p, th, "Y", 4000, abc);	/* another op */
	profile_finish(&p);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.nr_patterns, 2);
	CHECK_EQ(r.nr_instances, 3);
	CHECK_EQ(r.nr_capped, 0);
	CHECK_STR(text(&r.patterns[0]), "X|a|b|d");
	CHECK_EQ(r.patterns[0].count, 2);
	CHECK_EQ(r.patterns[0].gpu_ns, 2 * 9 * US);
	CHECK_EQ(r.patterns[0].cpu_ns, 2 * 50 * US);
	CHECK_EQ(r.patterns[0].first->start_ns, 0);
	CHECK_STR(text(&r.patterns[1]), "X|a|b|c");
	CHECK_EQ(r.patterns[1].count, 1);
	CHECK_EQ(r.patterns[1].first->start_ns, 1000 * US);
	kseq_release(&r);

	/* An equal count: the text decides. */
	kseq_compute(&p, "Y", NULL, &r);
	CHECK_EQ(r.nr_patterns, 1);
	CHECK_STR(text(&r.patterns[0]), "Y|a|b|c");
	kseq_release(&r);

	/* A name no node has; a kernel's name is no op. */
	kseq_compute(&p, "Z", NULL, &r);
	CHECK_EQ(r.nr_patterns, 0);
	kseq_release(&r);
	CHECK(!kseq_op_exists(&p, "Z"));
	CHECK(!kseq_op_exists(&p, "a"));
	CHECK(kseq_op_exists(&p, "X"));

	/* Three per pattern by default; two when asked. */
	{
		struct kseq_options o;

		kseq_options_default(&o);
		CHECK_EQ(o.min_pattern_len, 3);
		o.min_pattern_len = 2;
		kseq_compute(&p, "X", &o, &r);
		CHECK_EQ(r.nr_instances, 4);
		CHECK_EQ(r.nr_patterns, 3);
		/* A prefix sorts first. */
		CHECK_STR(text(&r.patterns[1]), "X|a|b");
		CHECK_STR(text(&r.patterns[2]), "X|a|b|c");
		kseq_release(&r);
	}
	profile_release(&p);
}

/* Kernels are in start order, not launch order; equal starts in the
 * order of the file. */
static void t_start_order(void)
{
	struct profile p;
	struct kseq_result r;
	struct node *op;

	profile_init(&p, "mem");
	op = host(&p, thread(&p), NODE_OP, "X", 0, 50 * US);
	launch(&p, op, 1 * US, "late", 300 * US, US);
	launch(&p, op, 2 * US, "tie1", 200 * US, US);
	launch(&p, op, 3 * US, "early", 100 * US, US);
	launch(&p, op, 4 * US, "tie2", 200 * US, US);
	profile_finish(&p);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.nr_patterns, 1);
	CHECK_STR(text(&r.patterns[0]), "X|early|tie1|tie2|late");
	CHECK_EQ(r.patterns[0].gpu_ns, 4 * US);
	kseq_release(&r);
	profile_release(&p);
}

/* Nested ops of one name: the shallowest with three kernels count, and a
 * kernel counts once. */
static void t_nested(void)
{
	static const char *const abc[] = { "a", "b", "c", NULL };
	static const char *const ab[] = { "a", "b", NULL };
	struct profile p;
	struct kseq_result r;
	struct node *th, *outer, *step;

	profile_init(&p, "mem");
	th = thread(&p);
	/* X > X(a, b, c): the outer one. */
	outer = host(&p, th, NODE_OP, "X", 0, 500 * US);
	op_with(&p, outer, "X", 10, abc);
	/* X with two kernels at depth 0 is no instance. */
	op_with(&p, th, "X", 1000, ab);
	step = host(&p, th, NODE_STEP, "ProfilerStep#1", 2000 * US, 5000 * US);
	op_with(&p, step, "X", 2000, abc);
	profile_finish(&p);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.depth, 0);
	CHECK_EQ(r.nr_instances, 1);
	CHECK_EQ(r.nr_patterns, 1);
	CHECK_STR(text(&r.patterns[0]), "X|a|b|c");
	CHECK_EQ(r.patterns[0].cpu_ns, 500 * US);
	CHECK_EQ(r.patterns[0].gpu_ns, 9 * US);
	kseq_release(&r);
	profile_release(&p);
}

/* Only instances at the smallest depth: one in a step is deeper. */
static void t_depth(void)
{
	static const char *const abc[] = { "a", "b", "c", NULL };
	static const char *const ab[] = { "a", "b", NULL };
	struct profile p;
	struct kseq_result r;
	struct node *th, *step;

	profile_init(&p, "mem");
	th = thread(&p);
	step = host(&p, th, NODE_STEP, "ProfilerStep#1", 0, 5000 * US);
	op_with(&p, step, "X", 0, abc);
	op_with(&p, th, "X", 6000, abc);
	profile_finish(&p);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.depth, 0);
	CHECK_EQ(r.nr_instances, 1);
	CHECK_EQ(r.patterns[0].first->start_ns, 6000 * US);
	kseq_release(&r);
	profile_release(&p);

	/* The smallest depth among the calls that launched 3: a shallower
	 * call of two kernels does not hide the deeper one of three (HTA
	 * takes the smallest depth of all the calls of the name, and would
	 * count none). */
	profile_init(&p, "mem");
	th = thread(&p);
	op_with(&p, th, "X", 0, ab);
	step = host(&p, th, NODE_STEP, "ProfilerStep#1", 1000 * US, 5000 * US);
	op_with(&p, step, "X", 1000, abc);
	profile_finish(&p);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.depth, 1);
	CHECK_EQ(r.nr_instances, 1);
	CHECK_STR(text(&r.patterns[0]), "X|a|b|c");
	kseq_release(&r);
	profile_release(&p);
}

/* The text's order is the joined text's, bytewise: "k!" sorts before
 * "k|" ('!' < '|'), though "k" is a prefix of "k!". */
static void t_text_order(void)
{
	static const char *const a_names[] = { "X", "k", "z" };
	static const char *const b_names[] = { "X", "k!", "z" };
	static const char *const c_names[] = { "X", "k", "z" };
	struct kseq_pattern a = { a_names, 3, 1, 0, 0, NULL };
	struct kseq_pattern b = { b_names, 3, 1, 0, 0, NULL };
	struct kseq_pattern c = { c_names, 3, 1, 0, 0, NULL };
	struct kseq_pattern d = { a_names, 2, 1, 0, 0, NULL };

	CHECK(kseq_text_cmp(&b, &a) < 0);
	CHECK(kseq_text_cmp(&a, &b) > 0);
	CHECK(kseq_text_cmp(&a, &c) == 0);
	CHECK(kseq_text_cmp(&d, &a) < 0);
}

/* No GPU event, one kernel, a CPU-only profile: nothing, and no default
 * operator. */
static void t_empty(void)
{
	static const char *const a[] = { "a", NULL };
	static const char *const none[] = { NULL };
	struct profile p;
	struct kseq_result r;
	struct node *th;

	profile_init(&p, "mem");
	profile_finish(&p);
	CHECK(kseq_default_op(&p, NULL) == NULL);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.nr_patterns, 0);
	kseq_compute(&p, NULL, NULL, &r);
	CHECK_EQ(r.nr_patterns, 0);
	kseq_release(&r);
	profile_release(&p);

	profile_init(&p, "mem");
	th = thread(&p);
	op_with(&p, th, "X", 0, a);
	op_with(&p, th, "Y", 100, none);
	profile_finish(&p);
	CHECK(kseq_default_op(&p, NULL) == NULL);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.nr_patterns, 0);
	CHECK_EQ(r.nr_instances, 0);
	kseq_release(&r);
	profile_release(&p);
}

/* The default operator: the op name whose instances of 3 GPU events have
 * the most GPU time, summed; ties to the smallest name; annotations are
 * not ops. */
static void t_default_op(void)
{
	static const char *const abc[] = { "a", "b", "c", NULL };
	struct profile p;
	struct node *th, *ann;

	profile_init(&p, "mem");
	th = thread(&p);
	op_with(&p, th, "B", 0, abc);
	op_with(&p, th, "A", 1000, abc);
	profile_finish(&p);
	CHECK_STR(kseq_default_op(&p, NULL), "A");
	profile_release(&p);

	profile_init(&p, "mem");
	th = thread(&p);
	op_with(&p, th, "B", 0, abc);
	op_with(&p, th, "B", 1000, abc);
	op_with(&p, th, "A", 2000, abc);
	ann = host(&p, th, NODE_ANNOTATION, "C", 3000 * US, 5000 * US);
	op_with(&p, ann, "D", 3000, abc);
	op_with(&p, ann, "D", 3500, abc);
	op_with(&p, ann, "D", 4000, abc);
	profile_finish(&p);
	CHECK_STR(kseq_default_op(&p, NULL), "D");
	profile_release(&p);
}

/* HTA's conditions as options: a substring, rounding to whole us, and
 * the last step left out with what was launched in it. */
static void t_hta_options(void)
{
	static const char *const abc[] = { "a", "b", "c", NULL };
	struct profile p;
	struct kseq_options o;
	struct kseq_result r;
	struct node *th, *op;

	profile_init(&p, "mem");
	th = thread(&p);
	op_with(&p, th, "aten::X", 0, abc);
	op_with(&p, th, "autograd: aten::X", 1000, abc);
	/* Fractional times, rounded: 2100.6 + 0.4 -> [2101, 2101), 0;
	 * 2110.5 + 1 -> [2111, 2111), 0; the op 2000.6 + 10.8 -> 10. */
	op = host(&p, th, NODE_OP, "aten::X", 2000 * US + 600, 10 * US + 800);
	launch(&p, op, 2001 * US, "a", 2100 * US + 600, 400);
	launch(&p, op, 2002 * US, "b", 2110 * US + 500, 1000);
	launch(&p, op, 2003 * US, "c", 2120 * US, 3 * US);
	/* Its last kernel's launch at 3000 us falls in the last step. */
	op = host(&p, th, NODE_OP, "aten::X", 2999 * US, 5 * US);
	launch(&p, op, 2999 * US, "a", 3100 * US, US);
	launch(&p, op, 2999 * US + 500, "b", 3110 * US, US);
	launch(&p, op, 3000 * US, "c", 3120 * US, US);
	profile_finish(&p);

	kseq_options_default(&o);
	kseq_compute(&p, "aten::X", &o, &r);
	CHECK_EQ(r.nr_instances, 3);
	CHECK_EQ(r.nr_patterns, 1);
	CHECK_EQ(r.patterns[0].cpu_ns, 50 * US + 10 * US + 800 + 5 * US);
	CHECK_EQ(r.patterns[0].gpu_ns, 9 * US + 400 + 1000 + 3 * US + 3 * US);
	kseq_release(&r);

	o.substring = true;
	o.round_like_hta = true;
	o.launched_before_ns = 3000 * US;
	kseq_compute(&p, "aten::X", &o, &r);
	/* Both names; the op at 2999 us launched two kernels before the
	 * step: no instance. */
	CHECK_EQ(r.nr_instances, 3);
	CHECK_EQ(r.nr_patterns, 2);
	CHECK_STR(text(&r.patterns[0]), "aten::X|a|b|c");
	CHECK_EQ(r.patterns[0].count, 2);
	/* 50 + 10; kernels 9 + 0 + 0 + 3 */
	CHECK_EQ(r.patterns[0].cpu_ns, 60 * US);
	CHECK_EQ(r.patterns[0].gpu_ns, 12 * US);
	CHECK_STR(text(&r.patterns[1]), "autograd: aten::X|a|b|c");
	kseq_release(&r);
	profile_release(&p);
}

/* The step window: instances that start in it. */
static void t_window(void)
{
	static const char *const abc[] = { "a", "b", "c", NULL };
	struct profile p;
	struct kseq_options o;
	struct kseq_result r;
	struct node *th;

	profile_init(&p, "mem");
	th = thread(&p);
	op_with(&p, th, "X", 0, abc);
	op_with(&p, th, "X", 1000, abc);
	op_with(&p, th, "X", 2000, abc);
	profile_finish(&p);
	kseq_options_default(&o);
	o.lo_ns = 1000 * US;
	o.hi_ns = 2000 * US;
	kseq_compute(&p, "X", &o, &r);
	CHECK_EQ(r.nr_instances, 1);
	CHECK_EQ(r.patterns[0].first->start_ns, 1000 * US);
	kseq_release(&r);
	profile_release(&p);
}

/* GPU time past SUM_CAP holds the cap, and says so. */
static void t_capped(void)
{
	struct profile p;
	struct kseq_result r;
	struct node *op;

	profile_init(&p, "mem");
	op = host(&p, thread(&p), NODE_OP, "X", 0, 50 * US);
	launch(&p, op, 1 * US, "a", 100 * US, SUM_CAP / 2);
	launch(&p, op, 2 * US, "b", 200 * US, SUM_CAP / 2);
	launch(&p, op, 3 * US, "c", 300 * US, SUM_CAP / 2);
	profile_finish(&p);
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.nr_patterns, 1);
	CHECK_EQ(r.patterns[0].gpu_ns, SUM_CAP);
	CHECK(r.nr_capped >= 1);
	kseq_release(&r);
	profile_release(&p);
}

/* 200,000 instances of 3 kernels, and 100,000 ops of one name nested in
 * each other: linear walks and one sort. */
static void t_many(void)
{
	static const char *const abc[] = { "a", "b", "c", NULL };
	static const char *const abd[] = { "a", "b", "d", NULL };
	struct profile p;
	struct kseq_result r;
	struct node *th, *n;
	const size_t nr = 200000, deep = 100000;
	double t0;

	profile_init(&p, "mem");
	th = thread(&p);
	for (size_t i = 0; i < nr; i++)
		op_with(&p, th, "X", (int64_t)i * 1000, i % 3 ? abc : abd);
	n = th;
	for (size_t i = 0; i < deep; i++)
		n = host(&p, n, NODE_OP, "Y", 0, 50 * US);
	op_with(&p, n, "Y", 0, abc);
	profile_finish(&p);
	t0 = test_cpu_s();
	kseq_compute(&p, "X", NULL, &r);
	CHECK_EQ(r.nr_instances, nr);
	CHECK_EQ(r.nr_patterns, 2);
	CHECK_EQ(r.patterns[0].count, nr - (nr + 2) / 3);
	kseq_release(&r);
	kseq_compute(&p, "Y", NULL, &r);
	CHECK_EQ(r.nr_instances, 1);
	CHECK_EQ(r.depth, 0);
	kseq_release(&r);
	CHECK_STR(kseq_default_op(&p, NULL), "X");
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	profile_release(&p);
}

const struct test tests[] = {
	{ "patterns grouped, counted, sorted", t_patterns },
	{ "kernels in start order, ties in file order", t_start_order },
	{ "nested ops of one name", t_nested },
	{ "the smallest depth only", t_depth },
	{ "the text's order is bytewise", t_text_order },
	{ "no GPU event, one kernel, CPU only", t_empty },
	{ "the default operator", t_default_op },
	{ "HTA's substring, rounding and last step", t_hta_options },
	{ "the step window", t_window },
	{ "capped sum", t_capped },
	{ "many instances, deep nest", t_many },
	{ 0 },
};
