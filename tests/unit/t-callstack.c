// SPDX-License-Identifier: MIT
/*
 * Python call stacks (model/callstack.h): shared by prefix, so that a
 * deep recursion costs memory linear in its frames (issue 29 item 2:
 * 50,000 nested frames took 8.3 GB when every prefix kept its text), and
 * read back exactly as the texts they stand for.
 */
#include "model/aggregate.h"
#include "model/strbuf.h"
#include "parsers/parser.h"
#include "test.h"

static char msg[8192];

/* Frames in a test trace: deep enough that a text per prefix stack
 * (N^2 / 2 frame names, 1.3 GB) is far past the bound below, shallow
 * enough to load in a blink when the prefixes are shared. */
#define DEEP 10000

/* What the profile may hold per event of the trace: its names, nodes
 * and stacks, with room to spare. */
#define BYTES_PER_EVENT 256

static void add_frame(struct strbuf *b, int i)
{
	strbuf_addf(b,
		    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"deep.py(%d): f%d\", "
		    "\"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": %d, \"args\": {\"Python id\": %d}},\n",
		    10 + i % 7, i, 10 * i, 20 * (DEEP - i) + 5, i + 1);
}

static void add_op(struct strbuf *b, long ts)
{
	strbuf_addf(b,
		    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::deep\", \"pid\": 1, "
		    "\"tid\": 1, \"ts\": %ld, \"dur\": 3},\n",
		    ts);
}

/* DEEP nested frames (each frame I holds frame I + 1) and an op at the
 * innermost; with EVERY_FRAME, an op in each frame too, after the frame
 * inside it ends: DEEP distinct stacks of 1..DEEP frames. */
static const char *deep_trace(bool every_frame, size_t *events)
{
	struct strbuf b = STRBUF_INIT;
	const char *path;

	strbuf_addstr(&b, "{\"traceEvents\": [\n");
	for (int i = 0; i < DEEP; i++)
		add_frame(&b, i);
	add_op(&b, 10L * (DEEP - 1) + 2);
	*events = DEEP + 1;
	for (int d = DEEP - 2; every_frame && d >= 0; d--, ++*events)
		add_op(&b, 10L * (2 * DEEP - d - 1) + 6);
	strbuf_addstr(&b, "{\"ph\": \"i\", \"name\": \"end\", \"ts\": 0}]}\n");
	path = test_write(every_frame ? "deep-ops.json" : "deep.json", b.s, b.len);
	strbuf_release(&b);
	return path;
}

/* The op with the most frames above it and, in *SHALLOWEST, the one with
 * the fewest. */
struct depths {
	const struct node *deepest, *shallowest;
	size_t most, fewest, ops;
};

static void count_frame(const char *s, size_t n, void *ctx)
{
	(void)s, (void)n;
	++*(size_t *)ctx;
}

static bool visit_depth(struct node *n, void *ctx)
{
	struct depths *d = ctx;
	const struct attr *a;
	size_t frames = 0;

	if (n->kind != NODE_OP || !(a = node_call_stack(n)))
		return true;
	stack_attr_frames(a, count_frame, &frames);
	d->ops++;
	if (frames > d->most)
		d->most = frames, d->deepest = n;
	if (!d->fewest || frames < d->fewest)
		d->fewest = frames, d->shallowest = n;
	return true;
}

/* The probe: a deep recursion with one op at its bottom.  What
 * the profile holds is linear in the frames: one stack node each, and
 * the text of none until something shows it. */
static void test_deep_frames_linear(void)
{
	struct profile p;
	size_t events;
	struct depths d = { 0 };

	CHECK_EQ(test_load(&p, deep_trace(false, &events), "kineto", msg, sizeof(msg)), 0);
	CHECK(p.arena.total_bytes < BYTES_PER_EVENT * events + (1u << 20));
	CHECK_EQ(p.stacks.nr, DEEP);
	node_walk(p.root, visit_depth, &d);
	CHECK_EQ(d.ops, 1);
	CHECK_EQ(d.most, DEEP);
	profile_release(&p);
}

/* An op in every frame: DEEP stacks of 1..DEEP frames, DEEP nodes in
 * all; each op's stack is its frames, innermost first. */
static void test_deep_ops_share_prefixes(void)
{
	struct profile p;
	size_t events;
	struct depths d = { 0 };
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	const struct call_stack *s;

	CHECK_EQ(test_load(&p, deep_trace(true, &events), "kineto", msg, sizeof(msg)), 0);
	CHECK(p.arena.total_bytes < BYTES_PER_EVENT * events + (1u << 20));
	CHECK_EQ(p.stacks.nr, DEEP);
	node_walk(p.root, visit_depth, &d);
	CHECK_EQ(d.ops, DEEP);
	CHECK_EQ(d.most, DEEP);
	CHECK_EQ(d.fewest, 1);
	if (d.shallowest) {
		stack_attr_append_text(node_call_stack(d.shallowest), &text);
		CHECK_STR(text.s, "deep.py(10): f0");
	}
	if (d.deepest) {
		strbuf_reset(&text);
		stack_attr_append_text(node_call_stack(d.deepest), &text);
		for (int i = DEEP - 1; i >= 0; i--)
			strbuf_addf(&want, "deep.py(%d): f%d%s", 10 + i % 7, i, i ? ";" : "");
		CHECK(text.len == want.len && !strcmp(text.s, want.s));
		/* The text is made once, when asked, and kept. */
		s = node_call_stack(d.deepest)->v.stack;
		CHECK(call_stack_text(s) == call_stack_text(s));
		CHECK_STR(call_stack_text(s), want.s);
	}
	strbuf_release(&text);
	strbuf_release(&want);
	profile_release(&p);
}

static void add_piece(const char *s, size_t n, void *ctx)
{
	struct strbuf *b = ctx;

	strbuf_add(b, s, n);
	strbuf_addch(b, '|');
}

/* The frames of a stack and of its text are the same list: the text
 * split at ';', less an empty last part (how the Call stacks pane has
 * always listed a text). */
static void test_frames_of_text(void)
{
	static const char *const texts[] = { "a", "a;b", "a;", ";a", ";", "a;;b;", "x;y;;" };
	static const char *const frames[] = { "a|", "a|b|", "a|", "|a|", "|", "a||b|", "x|y||" };
	struct profile p;

	profile_init(&p, "stacks");
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct strbuf got = STRBUF_INIT, text = STRBUF_INIT;
		struct attr_list list = { 0 };
		const struct attr *a;

		attr_set_stack(&p, &list, call_stack_parse(&p.stacks, NULL, texts[i], strlen(texts[i])));
		a = attr_list_first(&p, &list);
		stack_attr_frames(a, add_piece, &got);
		CHECK_STR(got.s ? got.s : "", frames[i]);
		stack_attr_append_text(a, &text);
		CHECK_STR(text.s ? text.s : "", texts[i]);
		strbuf_release(&got);
		strbuf_release(&text);
	}
	profile_release(&p);
}

/* Stacks compare as their texts do, byte by byte, a ';' included. */
static void test_compare_as_text(void)
{
	static const char *const texts[] = { "a", "a;b", "ab", "a;", "b;a", "a;a", "", "\xff" };
	struct profile p;
	struct attr_list lists[ARRAY_SIZE(texts)] = { 0 };

	profile_init(&p, "stacks");
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		attr_set_stack(&p, &lists[i], call_stack_parse(&p.stacks, NULL, texts[i], strlen(texts[i])));
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(texts); j++) {
			int want = strcmp(texts[i], texts[j]);
			int got = stack_attr_cmp(attr_list_first(&p, &lists[i]), attr_list_first(&p, &lists[j]));

			CHECK((want > 0) - (want < 0) == got);
		}
	}
	profile_release(&p);
}

/*
 * One stack, however the trace wrote it: an old trace's "Call stack"
 * text, frames, or a frame whose name holds a ';' are the same stack when
 * their texts are, so the ops group as one (as their equal texts did).
 */
static void test_one_stack_however_written(void)
{
	struct profile p;
	struct agg a;

#define PF(name, ts, dur) \
	"{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"" name "\", \"pid\": 1, " \
	"\"tid\": 1, \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"Python id\": 1}},"
#define OP(ts, args) \
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, " \
	"\"ts\": " #ts ", \"dur\": 5" args "},"
	static const char trace[] =
		"{\"traceEvents\": ["
		PF("main.py(1): <module>", 0, 100)
		PF("m.py(2): f", 10, 20)
		OP(12, "")
		PF("m.py(2): f;main.py(1): <module>", 200, 20)
		OP(205, "")
		OP(300, ", \"args\": {\"Call stack\": \"m.py(2): f;main.py(1): <module>\"}")
		OP(400, ", \"args\": {\"Call stack\": \"main.py(1): <module>\"}")
		"{\"ph\": \"i\", \"name\": \"end\", \"ts\": 0}]}";
#undef PF
#undef OP

	CHECK_EQ(test_load(&p, test_write("written.json", trace, strlen(trace)), "kineto", msg,
			   sizeof(msg)),
		 0);
	agg_op_stacks(&p, NULL, &a);
	CHECK_EQ(a.nr, 2);
	for (size_t i = 0; i < a.nr; i++) {
		struct strbuf text = STRBUF_INIT;

		stack_attr_append_text(a.rows[i].stack, &text);
		CHECK_EQ(a.rows[i].calls, strcmp(text.s, "main.py(1): <module>") ? 3 : 1);
		strbuf_release(&text);
	}
	agg_release(&a);
	profile_release(&p);
}

const struct test tests[] = {
	{ "a deep recursion costs memory linear in its frames", test_deep_frames_linear },
	{ "ops at every depth share their stacks' prefixes", test_deep_ops_share_prefixes },
	{ "a stack lists the frames its text lists", test_frames_of_text },
	{ "stacks compare as their texts", test_compare_as_text },
	{ "equal texts are one stack however the trace wrote them",
	  test_one_stack_however_written },
	{ 0 },
};
