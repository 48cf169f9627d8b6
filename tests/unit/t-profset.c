// SPDX-License-Identifier: MIT
/*
 * How profiles given together relate (model/profset.c): the ranks of one
 * job that no file gave are found and said, however large a world size a
 * trace claims.
 */
#include "model/profset.h"
#include "model/strbuf.h"
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

/*
 * A log dir of many runs (issue 29, item 7): each member's files are
 * joined ("a + b + ..."), and joining them one run at a time copied the
 * whole string again for each run -- a log dir of 10,000 runs spent 6 s
 * of CPU there.  2,000 runs whose file names are 4 kB long (as a path
 * may be) chain in well under the bound, into one string of them all.
 */
static void test_many_runs_chain(void)
{
	enum { RUNS = 2000, NAME = 4000 };
	struct profset *runs = xcalloc(RUNS, sizeof(*runs));
	char **names = xcalloc(RUNS, sizeof(*names));
	char *file = xmalloc(NAME + 64), err[256];
	size_t want_len = 0;
	struct profset s;
	double t0, cpu_s;

	memset(file, 'd', NAME);
	for (size_t r = 0; r < RUNS; r++) {
		const int32_t rank = 0;

		make_set(&runs[r], &rank, 1, 1);
		runs[r].kind = PROFSET_ONE;
		runs[r].why = xstrdup("one profile");
		snprintf(file + NAME, 64, "/run%zu/w0.pt.trace.json", r);
		free(runs[r].members[0].files);
		runs[r].members[0].files = xstrdup(file);
		want_len += strlen(file) + (r ? 3 : 0);
		names[r] = xstrfmt("run%zu", r);
	}
	t0 = test_cpu_s();
	CHECK_EQ(profset_chain_runs(&s, runs, (const char *const *)names, RUNS, err, sizeof(err)), 0);
	cpu_s = test_cpu_s() - t0;
	if (cpu_s > CPU_BOUND_S) {
		fprintf(stderr, "%d runs chained in %.1f s of CPU\n", RUNS, cpu_s);
		CHECK(!"linear");
	}
	CHECK_EQ(profile_nr_runs(s.members[0].prof), RUNS);
	CHECK_EQ(strlen(s.members[0].files), want_len);
	CHECK(!strncmp(s.members[0].files + NAME, "/run0/w0.pt.trace.json + dd", 27));
	CHECK(!strcmp(s.members[0].files + want_len - 25, "/run1999/w0.pt.trace.json"));
	CHECK_STR(profile_run(s.members[0].prof, RUNS - 1)->run_title, "run1999");
	profset_release(&s);
	for (size_t r = 0; r < RUNS; r++)
		free(names[r]);
	free(names);
	free(runs);
	free(file);
}

const struct test tests[] = {
	{ "the ranks no file gave are said", test_missing },
	{ "a whole job has none missing", test_complete },
	{ "a huge world size costs nothing", test_huge_world },
	{ "a log dir of many runs chains in linear time", test_many_runs_chain },
	{ 0 },
};
