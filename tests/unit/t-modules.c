// SPDX-License-Identifier: MIT
/*
 * The Module view's model (model/modules.c) on a trace of our own,
 * tests/golden/modules/small.json: a step calling Net_0 twice, each call
 * holding Linear_0 (an aten::linear, 100 us on the GPU), an aten::relu
 * (20 us) and Linear_1 (an aten::linear, 50 us); a cudaDeviceSynchronize
 * without an External id, which the plugin gives to the first host event
 * without one: the first Net_0 call.  t-modules-parity.c checks the
 * corpus.
 */
#include "model/modules.h"
#include "model/strbuf.h"
#include "parsers/parser.h"
#include "test.h"

#define FIX "tests/golden/modules/small.json"

static char msg[4096];

static void test_module_view(void)
{
	struct profile p;
	struct module_view v;

	CHECK_EQ(test_load(&p, FIX, NULL, msg, sizeof(msg)), 0);
	module_view(&p, &v);
	/* Two calls of one structure: one tree of three modules. */
	CHECK_EQ(v.nr, 3);
	if (v.nr == 3) {
		const struct module_row *net = &v.rows[0], *l0 = &v.rows[1], *l1 = &v.rows[2];

		CHECK_STR(net->name, "Net_0");
		CHECK(net->depth == 0 && net->parent == SIZE_MAX && net->has_children);
		CHECK_EQ(net->occurrences, 2);
		CHECK_EQ(net->operators, 2);	/* the relus; linears are in Linear_* */
		CHECK_EQ(net->host_total_ns, 970000);
		/* 490 - 180 - 40 - 140 + 480 - 360: the synchronize
		 * after both calls is the step's, not the module's. */
		CHECK_EQ(net->host_self_ns, 130000 + 120000);
		CHECK_EQ(net->device_total_ns, 340000);
		CHECK_EQ(net->device_self_ns, 40000);
		CHECK_STR(l0->name, "Linear_0");
		CHECK(l0->depth == 1 && l0->parent == 0 && !l0->has_children);
		CHECK(l0->occurrences == 2 && l0->operators == 2 && l0->module_id == 0);
		CHECK(l0->device_total_ns == 200000 && l0->device_self_ns == 200000);
		CHECK(l0->host_total_ns == 360000 && l0->host_self_ns == 40000);
		CHECK_STR(l1->name, "Linear_1");
		CHECK(l1->module_id == 1 && l1->device_self_ns == 100000);
		CHECK(l0->first && !strcmp(node_name(l0->first), "nn.Module: Linear_0"));
	}
	module_view_release(&v);
	profile_release(&p);
}

/* A call whose modules differ from the others' is a tree of its own. */
static void test_structures(void)
{
	static const char trace[] =
		"{\"traceEvents\": ["
		"{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: B_0\", \"tid\": 1, "
		"\"ts\": 0, \"dur\": 10, \"args\": {\"Python id\": 1, \"Python module id\": 0}},"
		"{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: A_0\", \"tid\": 1, "
		"\"ts\": 20, \"dur\": 10, \"args\": {\"Python id\": 2, \"Python module id\": 0}},"
		"{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: C_0\", \"tid\": 1, "
		"\"ts\": 21, \"dur\": 5, \"args\": {\"Python id\": 3, \"Python module id\": 0}},"
		"{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: A_0\", \"tid\": 1, "
		"\"ts\": 40, \"dur\": 10, \"args\": {\"Python id\": 4, \"Python module id\": 0}}]}";
	struct profile p;
	struct module_view v;

	CHECK_EQ(test_load(&p, test_write("structures.json", trace, strlen(trace)), "kineto", msg,
			   sizeof(msg)), 0);
	module_view(&p, &v);
	/* A_0 with C_0, A_0 alone, B_0: roots by name, the two A_0 apart,
	 * each with the numbers of every call of A_0. */
	CHECK_EQ(v.nr, 4);
	if (v.nr == 4) {
		CHECK(!strcmp(v.rows[0].name, "A_0") && v.rows[0].has_children);
		CHECK(!strcmp(v.rows[1].name, "C_0") && v.rows[1].depth == 1);
		CHECK(!strcmp(v.rows[2].name, "A_0") && !v.rows[2].has_children);
		CHECK(!strcmp(v.rows[3].name, "B_0"));
		CHECK(v.rows[0].occurrences == 2 && v.rows[2].occurrences == 2);
	}
	module_view_release(&v);
	profile_release(&p);
}

/* 3,000 calls of a module of the longest duration: its row's sums hold
 * SUM_CAP (model/bounds.h), never wrap, and the view counts them. */
static void test_sums_capped(void)
{
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	struct module_view v;

	strbuf_addf(&b, "{\"traceEvents\": [");
	for (int i = 1; i <= 3000; i++)
		strbuf_addf(&b, "%s{\"ph\": \"X\", \"cat\": \"python_function\", "
			    "\"name\": \"nn.Module: Big_0\", \"tid\": %d, \"ts\": 1, "
			    "\"dur\": 1000000000000, \"args\": {\"Python module id\": 0}}",
			    i > 1 ? "," : "", i);
	strbuf_addf(&b, "]}");
	CHECK_EQ(test_load(&p, test_write("modules.json", b.s, b.len), "kineto", msg, sizeof(msg)), 0);
	module_view(&p, &v);
	CHECK_EQ(v.nr, 1);
	if (v.nr == 1) {
		CHECK_EQ(v.rows[0].occurrences, 3000);
		CHECK_EQ(v.rows[0].host_total_ns, SUM_CAP);
		CHECK_EQ(v.rows[0].host_self_ns, SUM_CAP);
	}
	CHECK_EQ(v.nr_capped, 2);
	module_view_release(&v);
	profile_release(&p);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "sums past the cap hold it, and are counted", test_sums_capped },
	{ "modules: occurrences, operators, host and device time", test_module_view },
	{ "calls of one structure are one tree, others a tree each", test_structures },
	{ 0 },
};
