// SPDX-License-Identifier: MIT
/*
 * The reader remembers the category of the event before (read_cat()):
 * runs of one spelling, spellings that differ in case only, new names past
 * the room for them -- each counted under the name and slot it had when
 * looked up every time.
 */
#include "model/strbuf.h"
#include "parsers/parser.h"
#include "test.h"

static char msg[8192];

static const char *unused(const struct profile *p, const char *key)
{
	return profile_meta_get(p, "events not used", key);
}

static void add_event(struct strbuf *b, const char *cat, const char *ph)
{
	strbuf_addf(b, "{\"ph\": \"%s\", \"cat\": \"%s\", \"name\": \"e\", \"ts\": 1, \"dur\": 1},\n",
		    ph, cat);
}

static void test_runs_of_categories(void)
{
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	char name[16];

	strbuf_addstr(&b, "{\"traceEvents\": [\n");
	/* A known category first spelled in capitals, then as cats[] has it. */
	add_event(&b, "CPU_OP", "B");
	add_event(&b, "CPU_OP", "B");
	add_event(&b, "cpu_op", "B");
	add_event(&b, "cpu_op", "E");
	/* New names: one in a run, one differing from it in case only. */
	add_event(&b, "mine", "X");
	add_event(&b, "mine", "X");
	add_event(&b, "Mine", "X");
	add_event(&b, "mine", "i");
	/* Past the 32 new names: the 33rd and after, in runs too. */
	for (int i = 0; i < 31; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		add_event(&b, name, "X");
	}
	add_event(&b, "late", "X");
	add_event(&b, "late", "X");
	add_event(&b, "later", "X");
	add_event(&b, "n0", "X");
	add_event(&b, "", "X");
	add_event(&b, "", "X");
	strbuf_addstr(&b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"ts\": 1, \"dur\": 2}]}");
	CHECK_EQ(test_load(&p, test_write("cats.json", b.s, b.len), "kineto", msg, sizeof(msg)), 0);
	CHECK_STR(unused(&p, "CPU_OP (ph B)"), "3");
	CHECK_STR(unused(&p, "CPU_OP (ph E)"), "1");
	CHECK(!unused(&p, "cpu_op (ph B)"));
	CHECK_STR(unused(&p, "mine (ph X)"), "2");
	CHECK_STR(unused(&p, "Mine (ph X)"), "1");
	CHECK_STR(unused(&p, "mine (ph i)"), "1");
	CHECK_STR(unused(&p, "n0 (ph X)"), "2");
	CHECK_STR(unused(&p, "n29 (ph X)"), "1");
	/* 32 names: "mine", "Mine", n0..n29; then no room (n30, "late"
	 * twice, "later", "" twice). */
	CHECK(!unused(&p, "n30 (ph X)"));
	CHECK(!unused(&p, "late (ph X)"));
	CHECK_STR(unused(&p, "other categories (ph X)"), "6");
	profile_release(&p);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "runs of categories, spellings, names past the room", test_runs_of_categories },
	{ 0 },
};
