// SPDX-License-Identifier: MIT
/*
 * How profiles given together relate (model/profset.c): the ranks of one
 * job that no file gave are found and said, however large a world size a
 * trace claims.
 */
#include "model/profset.h"
#include "model/util.h"
#include "test.h"

/* A set of N ranks (RANKS[i]) of a job of WORLD, as the loader leaves it:
 * labels the file names, each with its distributedInfo. */
static void make_set(struct profset *s, const int32_t *ranks, size_t n, int32_t world)
{
	memset(s, 0, sizeof(*s));
	s->members = xcalloc(n, sizeof(*s->members));
	s->nr = n;
	for (size_t i = 0; i < n; i++) {
		struct profset_member *m = &s->members[i];
		char name[64];

		snprintf(name, sizeof(name), "w%d.pt.trace.json", (int)ranks[i]);
		m->prof = xmalloc(sizeof(*m->prof));
		profile_init(m->prof, "");
		m->prof->path = profile_strdup(m->prof, name);
		m->prof->dist.present = true;
		m->prof->dist.rank = ranks[i];
		m->prof->dist.world_size = world;
		m->label = xstrdup(name);
		m->files = xstrdup(name);
	}
}

static void test_missing(void)
{
	/* 13 of 16, given out of order. */
	static const int32_t given[] = { 15, 0, 1, 2, 3, 5, 6, 9, 10, 11, 12, 13, 14 };
	struct profset_hints h = { .want_ranks = false };
	struct profset s;
	char err[256], text[256];

	make_set(&s, given, ARRAY_SIZE(given), 16);
	CHECK_EQ(profset_relate(&s, &h, err, sizeof(err)), 0);
	CHECK_EQ(s.kind, PROFSET_RANKS);
	CHECK_EQ(s.world_size, 16);
	CHECK_EQ(s.nr_missing, 3);
	CHECK_EQ(s.nr_missing_ranges, 2);
	CHECK_STR(profset_missing_text(&s, text, sizeof(text)), "3 of 16 ranks missing (4, 7-8)");
	CHECK(strstr(s.why, "3 of 16 ranks missing (4, 7-8)") != NULL);
	CHECK(strstr(s.why, "ranks 0-15") == NULL);
	profset_release(&s);
}

static void test_complete(void)
{
	static const int32_t given[] = { 2, 0, 1 };
	struct profset_hints h = { 0 };
	struct profset s;
	char err[256], text[256];

	make_set(&s, given, ARRAY_SIZE(given), 3);
	CHECK_EQ(profset_relate(&s, &h, err, sizeof(err)), 0);
	CHECK_EQ(s.nr_missing, 0);
	CHECK_STR(profset_missing_text(&s, text, sizeof(text)), "");
	CHECK(strstr(s.why, "ranks 0-2") != NULL);
	profset_release(&s);
}

/* The first and last ranks missing, and a world size of 2^31-1 from a
 * file: the gaps are counted, not listed rank by rank. */
static void test_huge_world(void)
{
	/* The last, a rank as large as the world size (no rank of it). */
	static const int32_t given[] = { 5, 9, INT32_MAX };
	struct profset_hints h = { 0 };
	struct profset s;
	char err[256], text[256];
	double t0 = test_cpu_s();

	make_set(&s, given, ARRAY_SIZE(given), INT32_MAX);
	CHECK_EQ(profset_relate(&s, &h, err, sizeof(err)), 0);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(s.nr_missing, (int64_t)INT32_MAX - 2);
	CHECK_STR(profset_missing_text(&s, text, sizeof(text)),
		  "2147483645 of 2147483647 ranks missing (0-4, 6-8, 10-2147483646)");
	profset_release(&s);
}

const struct test tests[] = {
	{ "the ranks no file gave are said", test_missing },
	{ "a whole job has none missing", test_complete },
	{ "a huge world size costs nothing", test_huge_world },
	{ 0 },
};
