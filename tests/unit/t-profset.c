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

/* Ranks that several workers claim: counted, the first files of each
 * named, every worker kept a member of its own. */
static void test_shared(void)
{
	static const int32_t given[] = { 4, 0, 1, 0, 4, 0, 0 };
	struct profset_hints h = { .want_ranks = true };
	struct profset s;
	char err[256], *text;

	make_set(&s, given, ARRAY_SIZE(given), 8);
	/* Worker names of their own (make_set names them by rank). */
	for (size_t i = 0; i < s.nr; i++) {
		char name[64];

		snprintf(name, sizeof(name), "w%zu.pt.trace.json", i);
		s.members[i].prof->path = profile_strdup(s.members[i].prof, name);
		free(s.members[i].files);
		s.members[i].files = xstrdup(name);
	}
	CHECK_EQ(profset_relate(&s, &h, err, sizeof(err)), 0);
	CHECK_EQ(s.nr, 7);
	CHECK_EQ(s.nr_shared_ranks, 2);
	CHECK_EQ(s.nr_sharing, 6);
	text = profset_shared_text(&s);
	CHECK_STR(text, "6 workers share 2 ranks: rank 0 (w1.pt.trace.json, w3.pt.trace.json, "
			"w5.pt.trace.json and 1 more), rank 4 (w0.pt.trace.json, w4.pt.trace.json)");
	CHECK(strstr(s.why, "6 workers claim 2 rank(s) between them") != NULL);
	free(text);
	profset_release(&s);

	make_set(&s, given + 1, 2, 8);
	CHECK_EQ(profset_relate(&s, &h, err, sizeof(err)), 0);
	CHECK(profset_shared_text(&s) == NULL);
	profset_release(&s);
}

/* Whether many files are the ranks of one job: sorted, not every pair
 * compared (20,000 ranks were 4 * 10^8 name comparisons). */
static void test_many_ranks(void)
{
	enum { N = 20000 };
	int32_t *given = xcalloc(N, sizeof(*given));
	struct profset_hints h = { 0 };
	struct profset s;
	char err[256];
	double t0;

	for (size_t i = 0; i < N; i++)
		given[i] = (int32_t)((i * 7919) % N);	/* every rank, shuffled */
	make_set(&s, given, N, N);
	t0 = test_cpu_s();
	CHECK_EQ(profset_relate(&s, &h, err, sizeof(err)), 0);
	CHECK(test_cpu_s() - t0 < CPU_BOUND_S);
	CHECK_EQ(s.kind, PROFSET_RANKS);
	CHECK_EQ(s.nr_missing, 0);
	CHECK_EQ(s.members[N - 1].rank, N - 1);
	profset_release(&s);
	free(given);
}

const struct test tests[] = {
	{ "the ranks no file gave are said", test_missing },
	{ "a whole job has none missing", test_complete },
	{ "a huge world size costs nothing", test_huge_world },
	{ "a log dir of many runs chains in linear time", test_many_runs_chain },
	{ "workers claiming one rank are counted and named", test_shared },
	{ "many ranks relate in n log n", test_many_ranks },
	{ 0 },
};
