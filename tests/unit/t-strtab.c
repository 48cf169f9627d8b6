// SPDX-License-Identifier: MIT
/*
 * The name table and the hashes under it, against input crafted to
 * collide (issue 9, item 2).  The crafted input collides under the hashes
 * proftui used before (tests/unit/flood.h keeps them); each test first
 * checks that it does, then that the keyed hashes treat it like random
 * input.  The tests count probes, never time: a table that is flooded
 * again fails here on any machine, and fails fast, because each load
 * stops once it has spent a few times what random input took.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <zlib.h>

#include "flood.h"
#include "model/arena.h"
#include "model/strtab.h"
#include "model/util.h"
#include "test.h"

#define MILLION 1000000

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 16 random bytes, none NUL, as the crafted names are. */
static void random_name(char out[17])
{
	for (int i = 0; i < 16; i++)
		out[i] = (char)(1 + rng() % 255);
	out[16] = '\0';
}

static void test_siphash_vectors(void)
{
	/* The paper's test vector (SipHash-2-4, appendix A): key 00..0f,
	 * message 00..0e. */
	struct siphash_key key = { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL };
	struct siphash_key zero = { 0, 0 };
	unsigned char msg[15];

	for (int i = 0; i < 15; i++)
		msg[i] = (unsigned char)i;
	CHECK(siphash24(&key, msg, sizeof(msg)) == 0xa129ca6149be45e5ULL);
	/* SipHash-1-3 as CPython 3.11 computes it (PYTHONHASHSEED=0 is the
	 * all-zero key): hash(b"abc") and hash(bytes(range(15))). */
	CHECK((int64_t)siphash13(&zero, "abc", 3) == -4594863902769663758LL);
	CHECK((int64_t)siphash13(&zero, msg, sizeof(msg)) == -932606700130547222LL);
	/* The process key was drawn: two zero words would mean no source
	 * of randomness worked. */
	CHECK(hash_key.k0 || hash_key.k1);
}

static void test_intern_is_identity(void)
{
	struct arena a;
	struct strtab t;
	const char *x;

	arena_init(&a);
	strtab_init(&t, &a);
	x = strtab_intern(&t, "aten::mm", 8);
	CHECK(x == strtab_intern(&t, "aten::mm!", 8));
	CHECK(x != strtab_intern(&t, "aten::m", 7));
	CHECK(strtab_lookup(&t, "aten::mm", 8) == x);
	CHECK(!strtab_lookup(&t, "aten::mv", 8));
	strtab_release(&t);
	arena_release(&a);
}

/*
 * strtab_intern() first looks among the names interned last, picked by
 * their length and first and last eight bytes.  Names that share those
 * (prefixes of one string share the head; names that differ only in the
 * middle share all three) must still intern to their own copy, in any
 * order, as the index alone gives it.
 */
static void test_recent_names_stay_distinct(void)
{
	enum { LONGEST = 3000, MIDDLES = 600 };
	static char text[LONGEST + 1];
	static const char *prefix_of[LONGEST + 1], *middle_of[MIDDLES];
	struct arena a;
	struct strtab t;
	bool same = true;

	for (int i = 0; i < LONGEST; i++)
		text[i] = (char)('a' + rng() % 26);
	arena_init(&a);
	strtab_init(&t, &a);
	for (size_t n = 0; n <= LONGEST; n++)
		prefix_of[n] = strtab_intern(&t, text, n);
	for (int m = 0; m < MIDDLES; m++) {
		char name[40];

		snprintf(name, sizeof(name), "aten::mm_%08d_backward", m);
		middle_of[m] = strtab_intern(&t, name, strlen(name));
	}
	CHECK(t.nr == LONGEST + 1 + MIDDLES);
	for (int i = 0; i < 20000 && same; i++) {
		size_t n = (size_t)(rng() % (LONGEST + 1));
		int m = (int)(rng() % MIDDLES);
		char name[40];

		snprintf(name, sizeof(name), "aten::mm_%08d_backward", m);
		same = strtab_intern(&t, text, n) == prefix_of[n] &&
		       strlen(prefix_of[n]) == n && !memcmp(prefix_of[n], text, n) &&
		       strtab_intern(&t, name, strlen(name)) == middle_of[m] &&
		       !strcmp(middle_of[m], name);
	}
	CHECK(same);
	CHECK(t.nr == LONGEST + 1 + MIDDLES);
	strtab_release(&t);
	arena_release(&a);
}

/* Intern N names from NEXT into a fresh table; stop early (and return
 * false) once the probes pass BUDGET.  *PROBES gets the probes. */
static bool load_names(size_t n, void (*next)(void *ctx, char out[17]), void *ctx,
		       uint64_t budget, uint64_t *probes)
{
	struct arena a;
	struct strtab t;
	bool within = true;

	arena_init(&a);
	strtab_init(&t, &a);
	for (size_t i = 0; i < n && within; i++) {
		char name[17];

		next(ctx, name);
		strtab_intern(&t, name, 16);
		within = t.nr_probes <= budget;
	}
	*probes = t.nr_probes;
	if (within && t.nr != n) {
		fprintf(stderr, "t-strtab: %zu names, %zu distinct\n", n, t.nr);
		within = false;
	}
	strtab_release(&t);
	arena_release(&a);
	return within;
}

static void next_random(void *ctx, char out[17])
{
	(void)ctx;
	random_name(out);
}

static void next_crafted(void *ctx, char out[17])
{
	flood_name(ctx, out);
}

static void test_crafted_names(void)
{
	struct flood f;
	uint64_t random_probes, crafted_probes;
	uint32_t old_hash;
	char name[17];

	/* The attack works on the old hash: a thousand names, one hash. */
	flood_init(&f, false);
	flood_name(&f, name);
	old_hash = flood_old_hash_bytes(name, 16);
	for (int i = 0; i < 1000; i++) {
		flood_name(&f, name);
		CHECK(flood_old_hash_bytes(name, 16) == old_hash);
	}

	CHECK(load_names(MILLION, next_random, NULL, UINT64_MAX, &random_probes));
	/* About 1.5 probes a name at our load. */
	CHECK(random_probes < 3 * (uint64_t)MILLION);
	flood_init(&f, false);
	CHECK(load_names(MILLION, next_crafted, &f, 2 * random_probes, &crafted_probes));
	if (crafted_probes > 2 * random_probes)
		fprintf(stderr, "t-strtab: crafted names took over %llu probes, random %llu\n",
			(unsigned long long)crafted_probes, (unsigned long long)random_probes);
}

/* The net under the hash: with the key known (as if it leaked), names
 * chosen to share a slot make a long run; the table draws a new key,
 * and every name still interns to its one copy. */
static void test_long_run_rekeys(void)
{
	struct siphash_key known = { 1, 2 };
	const char *first[150];
	char names[150][17];
	struct arena a;
	struct strtab t;
	size_t found = 0;

	arena_init(&a);
	strtab_init(&t, &a);
	t.key = known;
	/* 150 names that all want slot 0 of a table of up to 1024 slots
	 * (it doubles from 64 to 512 as they come in). */
	while (found < 150) {
		random_name(names[found]);
		if (!(siphash13(&known, names[found], 16) & 1023))
			found++;
	}
	for (size_t i = 0; i < 150; i++)
		first[i] = strtab_intern(&t, names[i], 16);
	CHECK_EQ(t.nr_rekeys, 1);
	CHECK(t.key.k0 != known.k0 || t.key.k1 != known.k1);
	CHECK_EQ(t.alloc, 512);
	/* Without the new key the 150 would have taken 150 * 151 / 2 probes. */
	CHECK(t.nr_probes < 150 * 151 / 4);
	for (size_t i = 0; i < 150; i++) {
		CHECK(strtab_intern(&t, names[i], 16) == first[i]);
		CHECK(strtab_lookup(&t, names[i], 16) == first[i]);
	}
	CHECK_EQ(t.nr, 150);
	strtab_release(&t);
	arena_release(&a);
}

/*
 * The integer tables (Kineto's correlation and External ids, and the
 * pointer-keyed ones) use hash_u64() with linear probing in a power of
 * two at least twice the keys; this is that table, counting probes.
 * Stops (false) once the probes pass BUDGET.
 */
static bool load_ids(const int64_t *ids, size_t n, uint64_t budget, uint64_t *probes)
{
	size_t alloc = 16;
	int64_t *keys;
	bool *used;

	while (alloc < 2 * n + 1)
		alloc *= 2;
	keys = xcalloc(alloc, sizeof(*keys));
	used = xcalloc(alloc, sizeof(*used));
	*probes = 0;
	for (size_t k = 0; k < n && *probes <= budget; k++) {
		size_t i = hash_u64((uint64_t)ids[k]) & (alloc - 1);

		for ((*probes)++; used[i] && keys[i] != ids[k]; (*probes)++)
			i = (i + 1) & (alloc - 1);
		used[i] = true;
		keys[i] = ids[k];
	}
	free(keys);
	free(used);
	return *probes <= budget;
}

static void test_crafted_ids(void)
{
	int64_t *ids = xmalloc(MILLION * sizeof(*ids));
	uint64_t next = 0, random_probes, probes;

	for (size_t k = 0; k < MILLION; k++)
		ids[k] = (int64_t)(rng() >> 1);
	CHECK(load_ids(ids, MILLION, UINT64_MAX, &random_probes));
	CHECK(random_probes < 3 * (uint64_t)MILLION);

	/* Crafted against the old hash: all alike in its low 32 bits. */
	for (size_t k = 0; k < MILLION; k++) {
		ids[k] = flood_id(&next);
		CHECK((flood_old_hash_u64((uint64_t)ids[k]) & 0xffffffff) == 0x5eed);
	}
	CHECK(load_ids(ids, MILLION, 2 * random_probes, &probes));

	/* Keys with structure, which weak mixes spread badly: consecutive
	 * ids, and strides of the table's own size and of 2^32. */
	for (size_t k = 0; k < MILLION; k++)
		ids[k] = (int64_t)k + 1;
	CHECK(load_ids(ids, MILLION, 2 * random_probes, &probes));
	for (size_t k = 0; k < MILLION; k++)
		ids[k] = (int64_t)(k << 21);
	CHECK(load_ids(ids, MILLION, 2 * random_probes, &probes));
	for (size_t k = 0; k < MILLION; k++)
		ids[k] = (int64_t)(k << 32) | 7;
	CHECK(load_ids(ids, MILLION, 2 * random_probes, &probes));
	free(ids);
}

/*
 * Through the binary: a Kineto trace whose million runtime calls all have
 * crafted names and crafted correlation ids.  Before the keyed hashes,
 * 100 k of them took 20 s and a million did not finish in hours; random
 * ones of the same size load in a second or two (more under ASan).  The
 * timeout is generous: it only tells a flood from a load.
 */
static void test_crafted_trace_loads(void)
{
	const char *proftui = getenv("PROFTUI");
	char path[512], cmd[1200];
	struct flood f;
	uint64_t next = 0;
	gzFile gz;
	int status;

	if (!proftui || !*proftui)
		proftui = "build/proftui";
	if (access(proftui, X_OK))
		SKIP("no proftui binary to run (make first)");
	snprintf(path, sizeof(path), "%s/flood.json.gz", test_dir());
	gz = gzopen(path, "wb1");
	CHECK(gz != NULL);
	if (!gz)
		return;
	flood_init(&f, true);
	gzputs(gz, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	for (long i = 0; i < MILLION; i++) {
		char name[17], json_name[16 * 6 + 1], *p = json_name;

		flood_name(&f, name);
		for (const unsigned char *s = (const unsigned char *)name; *s; s++)
			p += *s < 0x20 || *s == '"' || *s == '\\' ? sprintf(p, "\\u%04x", *s)
								  : sprintf(p, "%c", *s);
		gzprintf(gz, "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"%s\",\"pid\":1,\"tid\":1,"
			     "\"ts\":%ld,\"dur\":1,\"args\":{\"correlation\":%lld}}%s\n",
			 json_name, 2 * i, (long long)flood_id(&next), i + 1 < MILLION ? "," : "");
	}
	gzputs(gz, "]}\n");
	CHECK(gzclose(gz) == Z_OK);
	snprintf(cmd, sizeof(cmd), "timeout 300 %s --print info -o /dev/null %s", proftui, path);
	status = system(cmd);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "t-strtab: '%s' ended with status %d\n", cmd, status);
	unlink(path);
}

/*
 * Each string's number, in the order first seen, read back by number --
 * on another thread too, while this one interns more and the array of
 * numbers grows (the Kineto link reads names on one thread while it may
 * intern on another; TSan runs this).
 */
enum { NR_NUMBERED = 100000 };

struct number_reader {
	const struct strtab *t;
	_Atomic size_t published;	/* numbers below it may be read */
	bool ok;
};

static void *read_numbers(void *arg)
{
	struct number_reader *r = arg;
	size_t seen = 0;

	while (seen < NR_NUMBERED) {
		size_t upto = atomic_load_explicit(&r->published, memory_order_acquire);
		char want[32];

		for (; seen < upto; seen++) {
			snprintf(want, sizeof(want), "name %zu", seen);
			r->ok &= !strcmp(strtab_string(r->t, (uint32_t)seen), want);
		}
	}
	return NULL;
}

static void test_numbers(void)
{
	struct arena a;
	struct strtab t;
	struct number_reader r = { &t, 0, true };
	pthread_t reader;
	bool numbered = true, again = true;

	arena_init(&a);
	strtab_init(&t, &a);
	CHECK(!pthread_create(&reader, NULL, read_numbers, &r));
	for (size_t i = 0; i < NR_NUMBERED; i++) {
		char name[32];
		int n = snprintf(name, sizeof(name), "name %zu", i);
		const char *s = strtab_intern(&t, name, (size_t)n);

		numbered &= strtab_number(s) == i && strtab_string(&t, (uint32_t)i) == s;
		/* An old name again keeps its number, and takes none. */
		n = snprintf(name, sizeof(name), "name %zu", i / 2);
		s = strtab_intern(&t, name, (size_t)n);
		again &= strtab_number(s) == i / 2 && t.nr == i + 1;
		atomic_store_explicit(&r.published, i + 1, memory_order_release);
	}
	pthread_join(reader, NULL);
	CHECK(numbered);
	CHECK(again);
	CHECK(r.ok);
	CHECK(t.nr_retired > 0);	/* the array grew under the reader */
	strtab_settle(&t);
	CHECK(!strcmp(strtab_string(&t, 12345), "name 12345"));
	strtab_release(&t);
	arena_release(&a);
}

/*
 * A table holds in proportion to its names (issue 29, item 7): a small
 * file's dozen names took 23 KB (a recent-names cache of 512 in the
 * table itself, an index of 1,024 slots), and a log dir of 10,000 small
 * traces held 10,000 of them.  The table's bytes are its struct and what
 * it took from malloc (mallinfo2(): this test runs alone on its thread),
 * less the strings' arena.
 */
static void test_small_table_holds_little(void)
{
	struct arena a;
	struct strtab t;
	size_t before, held;
	void *probe = xmalloc(64);
	bool counted = mallinfo2().uordblks > 0;

	free(probe);
	if (!counted)
		SKIP("this malloc() keeps no mallinfo2() figures (a sanitizer's)");
	arena_init(&a);
	before = mallinfo2().uordblks;
	strtab_init(&t, &a);
	for (int i = 0; i < 12; i++) {
		char name[24];

		snprintf(name, sizeof(name), "aten::op%d", i);
		strtab_intern(&t, name, strlen(name));
	}
	held = sizeof(t) + mallinfo2().uordblks - before - a.total_bytes;
	if (held > 4096) {
		fprintf(stderr, "12 names: the table holds %zu bytes\n", held);
		CHECK(!"a small table holds little");
	}
	CHECK_EQ(t.nr, 12);
	strtab_release(&t);
	arena_release(&a);
}

const struct test tests[] = {
	{ "SipHash matches the paper and CPython", test_siphash_vectors },
	{ "names intern to one pointer", test_intern_is_identity },
	{ "numbers, read on another thread while the table grows", test_numbers },
	{ "names the recent cache confuses intern to their own copy",
	  test_recent_names_stay_distinct },
	{ "1 M names crafted against the old hash probe like random ones", test_crafted_names },
	{ "a long probe run draws a new key", test_long_run_rekeys },
	{ "a table of a few names holds a few", test_small_table_holds_little },
	{ "1 M ids crafted against the old hash probe like random ones", test_crafted_ids },
	{ "a trace of 1 M crafted names and correlation ids loads", test_crafted_trace_loads },
	{ 0 },
};
