/* SPDX-License-Identifier: MIT */
/*
 * A unit-test runner in one header (redis's testhelp.h in spirit).  A test
 * file defines `const struct test tests[]`, ended by { 0 }, and includes
 * this header once; CHECK() records a failure with file:line and goes on.
 * Each test prints one "PASS: file: name" / "FAIL: ..." / "SKIP: ... (why)"
 * line, and the binary ends with its count line,
 * "# suite unit/t-foo: P passed, F failed, S skipped", which tests/run.sh
 * reads.  A binary that runs no test fails, and so does a test that
 * leaves the program (exit(), die()): the count line is printed from
 * main() only, and an exit handler reports the test that was running.
 *
 * Tests find the shared corpus at $PROFTUI_CORPUS (default
 * ../shared/corpus) and skip with SKIP() when it is absent.
 */
#ifndef TESTS_UNIT_TEST_H
#define TESTS_UNIT_TEST_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "load-paths.h"
#include "parsers/parser.h"

struct test {
	const char *name;
	void (*fn)(void);
};

extern const struct test tests[];

/* CPU seconds so far, for a bound (CPU_BOUND_S) on work that must not
 * blow up on hostile input: a guard against quadratic time, far above
 * what the work takes, not a speed test. */
#define CPU_BOUND_S 2.0

static inline double test_cpu_s(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static int test_failed;
static const char *test_skip_reason;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, \
				#cond);                                               \
			test_failed = 1;                                              \
		}                                                                     \
	} while (0)

/* Integer equality that prints both sides when it fails. */
#define CHECK_EQ(a, b)                                                                \
	do {                                                                          \
		long long a_ = (long long)(a), b_ = (long long)(b);                  \
		if (a_ != b_) {                                                       \
			fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: %lld != %lld\n",  \
				__FILE__, __LINE__, #a, #b, a_, b_);                  \
			test_failed = 1;                                              \
		}                                                                     \
	} while (0)

#define CHECK_STR(a, b)                                                               \
	do {                                                                          \
		const char *a_ = (a), *b_ = (b);                                      \
		if (!a_ || !b_ || strcmp(a_, b_)) {                                   \
			fprintf(stderr, "%s:%d: CHECK_STR(%s, %s) failed: '%s' != '%s'\n", \
				__FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",      \
				b_ ? b_ : "(null)");                                  \
			test_failed = 1;                                              \
		}                                                                     \
	} while (0)

/* Mark the current test skipped (say why) and return from it. */
#define SKIP(why)                          \
	do {                               \
		test_skip_reason = (why);  \
		return;                    \
	} while (0)

static inline const char *test_corpus_dir(void)
{
	const char *dir = getenv("PROFTUI_CORPUS");

	return dir && *dir ? dir : "../shared/corpus";
}

/* A scratch directory for the files a test writes, made once:
 * $TMPDIR/proftui-test-XXXXXX.  main() removes it when every test
 * passed, and says where it is when one failed. */
static char test_dir_path[256];

static inline const char *test_dir(void)
{
	if (!test_dir_path[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(test_dir_path, sizeof(test_dir_path), "%s/proftui-test-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(test_dir_path))
			die("cannot make a temporary directory");
	}
	return test_dir_path;
}

static int test_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path) ? -1 : 0;
}

/* Write LEN bytes of DATA to the file NAME in test_dir(); returns its path
 * (a static buffer, valid until the next call).  Tests write bad input to
 * files so that messages carry FILE:LINE as a user sees them. */
static inline const char *test_write(const char *name, const void *data, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", test_dir(), name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	return path;
}


static inline int test_load(struct profile *p, const char *path, const char *format, char *msg,
			    size_t cap)
{
	const char *paths[1] = { path };

	return test_load_paths(p, paths, 1, format, msg, cap);
}

static const char *test_file;		/* this binary's name */
static const char *test_running;	/* the test under way, if any */
static int test_nr_pass, test_nr_fail, test_nr_skip;

/* Leaving the program other than from main() is a failure, wherever it
 * happens: say which test did it, with the count line, and exit 1. */
static void test_unexpected_exit(void)
{
	if (!test_running)
		return;
	printf("FAIL: %s: %s: the test left the program\n", test_file, test_running);
	printf("# suite unit/%s: %d passed, %d failed, %d skipped\n", test_file, test_nr_pass,
	       test_nr_fail + 1, test_nr_skip);
	fflush(stdout);
	_Exit(1);
}

int main(int argc, char **argv)
{
	test_file = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	atexit(test_unexpected_exit);
	for (const struct test *t = tests; t->name; t++) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		test_failed = 0;
		test_skip_reason = NULL;
		test_running = t->name;
		t->fn();
		test_running = NULL;
		if (test_failed) {
			printf("FAIL: %s: %s\n", test_file, t->name);
			test_nr_fail++;
		} else if (test_skip_reason) {
			printf("SKIP: %s: %s (%s)\n", test_file, t->name, test_skip_reason);
			test_nr_skip++;
		} else {
			printf("PASS: %s: %s\n", test_file, t->name);
			test_nr_pass++;
		}
		fflush(stdout);
	}
	if (!test_nr_pass && !test_nr_fail && !test_nr_skip) {
		printf("FAIL: %s: no test ran%s%s\n", test_file, argc > 1 ? " matching " : "",
		       argc > 1 ? argv[1] : "");
		test_nr_fail++;
	}
	/* The scratch files go; a failure's stay, to be looked at. */
	if (test_dir_path[0] && test_nr_fail)
		printf("# %s: the tests' files are in %s\n", test_file, test_dir_path);
	else if (test_dir_path[0] &&
		 nftw(test_dir_path, test_remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		printf("# %s: cannot remove %s\n", test_file, test_dir_path);
	printf("# suite unit/%s: %d passed, %d failed, %d skipped\n", test_file, test_nr_pass,
	       test_nr_fail, test_nr_skip);
	return test_nr_fail ? 1 : 0;
}

#endif
