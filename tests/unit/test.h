/* SPDX-License-Identifier: MIT */
/*
 * A unit-test runner in one header (redis's testhelp.h in spirit).  A test
 * file defines `const struct test tests[]`, ended by { 0 }, and includes
 * this header once; CHECK() records a failure with file:line and goes on.
 * Each test prints one "PASS: file: name" / "FAIL: ..." / "SKIP: ... (why)"
 * line, which tests/run.sh counts.
 *
 * Tests find the shared corpus at $PROFTUI_CORPUS (default
 * ../shared/corpus) and skip with SKIP() when it is absent.
 */
#ifndef TESTS_UNIT_TEST_H
#define TESTS_UNIT_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/parser.h"

struct test {
	const char *name;
	void (*fn)(void);
};

extern const struct test tests[];

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
 * $TMPDIR/proftui-test-XXXXXX. */
static inline const char *test_dir(void)
{
	static char dir[256];

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/proftui-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			die("cannot make a temporary directory");
	}
	return dir;
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

/* Load the NR files PATHS (as FORMAT unless NULL) into P, initialised here
 * and left for the caller to release; the messages go to MSG (CAP bytes).
 * Returns profile_load()'s code. */
static inline int test_load_paths(struct profile *p, const char *const *paths, size_t nr,
				  const char *format, char *msg, size_t cap)
{
	struct load_options opt = { .format = format };
	FILE *err = tmpfile();
	size_t n = 0;
	int rc;

	opt.err = err;
	profile_init(p, paths[0]);
	rc = profile_load(p, paths, nr, &opt);
	if (err) {
		rewind(err);
		n = fread(msg, 1, cap - 1, err);
		fclose(err);
	}
	msg[n] = '\0';
	return rc;
}

static inline int test_load(struct profile *p, const char *path, const char *format, char *msg,
			    size_t cap)
{
	const char *paths[1] = { path };

	return test_load_paths(p, paths, 1, format, msg, cap);
}

int main(int argc, char **argv)
{
	const char *file = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int failed = 0;

	for (const struct test *t = tests; t->name; t++) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		test_failed = 0;
		test_skip_reason = NULL;
		t->fn();
		if (test_failed) {
			printf("FAIL: %s: %s\n", file, t->name);
			failed++;
		} else if (test_skip_reason) {
			printf("SKIP: %s: %s (%s)\n", file, t->name, test_skip_reason);
		} else {
			printf("PASS: %s: %s\n", file, t->name);
		}
		fflush(stdout);
	}
	return failed ? 1 : 0;
}

#endif
