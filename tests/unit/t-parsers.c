// SPDX-License-Identifier: MIT
/*
 * The list of parsers (parsers/parsers.h) holds each parser to what a
 * format needs besides its code: a fuzz target that calls it, and golden
 * cases that open a sample it claims.  t-detect holds each to a
 * detection sample.  A new format without these fails here.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/strbuf.h"
#include "parsers/parser.h"
#include "parsers/parsers.h"
#include "claimed-by.h"
#include "test.h"

#define DECLARE_PARSER(object, fuzz, golden) extern const struct parser object;
PARSERS(DECLARE_PARSER)

static const struct listed {
	const struct parser *parser;
	const char *object;	/* its name in C, as a fuzz target calls it */
	const char *fuzz;	/* fuzz/fuzz-FUZZ.c */
	const char *golden;	/* tests/golden/GOLDEN/ */
} listed[] = {
#define LISTED(object, fuzz, golden) { &object, #object, fuzz, golden },
	PARSERS(LISTED)
};

#define NR_LISTED (sizeof(listed) / sizeof(listed[0]))

/* The text of PATH (heap, NUL-ended), or NULL when it cannot be read. */
static char *read_text(const char *path)
{
	struct strbuf b = STRBUF_INIT;
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&b, buf, n);
	fclose(f);
	return b.s ? b.s : calloc(1, 1);
}

static bool is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether TEXT names the C identifier WORD (not as part of a longer one). */
static bool names(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *s = text; (s = strstr(s, word)); s += n)
		if ((s == text || !is_ident(s[-1])) && !is_ident(s[n]))
			return true;
	return false;
}

static void test_each_parser_has_a_fuzz_target(void)
{
	CHECK(NR_LISTED > 0);
	for (size_t i = 0; i < NR_LISTED; i++) {
		char path[256];
		char *text;

		snprintf(path, sizeof(path), "fuzz/fuzz-%s.c", listed[i].fuzz);
		text = read_text(path);
		if (!text || !names(text, listed[i].object)) {
			fprintf(stderr, "  parser %s: %s %s\n", listed[i].parser->name, path,
				text ? "does not call it" : "is missing");
			test_failed = 1;
		}
		free(text);
	}
}

/* Whether the golden case CASE (one line of arguments) opens a file that
 * PARSER claims. */
static bool case_opens_sample(const char *case_path, const struct parser *parser)
{
	char *args = read_text(case_path);
	bool found = false;

	if (!args)
		return false;
	for (char *tok = strtok(args, " \t\n"); tok && !found; tok = strtok(NULL, " \t\n")) {
		struct stat st;

		if (stat(tok, &st) == 0 && S_ISREG(st.st_mode))
			found = !strcmp(claimed_by(tok), parser->name);
	}
	free(args);
	return found;
}

/* Whether a case of tests/golden/DIR/ opens a file that PARSER claims. */
static bool has_golden(const char *dir, const struct parser *parser)
{
	char path[512];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "tests/golden/%s", dir);
	if (!(d = opendir(path)))
		return false;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 3 || strcmp(e->d_name + n - 2, ".t"))
			continue;
		snprintf(path, sizeof(path), "tests/golden/%s/%s", dir, e->d_name);
		found = case_opens_sample(path, parser);
	}
	closedir(d);
	return found;
}

static void test_each_parser_has_golden_cases(void)
{
	for (size_t i = 0; i < NR_LISTED; i++) {
		if (has_golden(listed[i].golden, listed[i].parser))
			continue;
		fprintf(stderr, "  parser %s: no case in tests/golden/%s/ opens a sample of it\n",
			listed[i].parser->name, listed[i].golden);
		test_failed = 1;
	}
}

/* The registry is the list: the same parsers, in the same order. */
static void test_registry_is_the_list(void)
{
	size_t n;
	const struct parser *const *list = parser_list(&n);

	CHECK_EQ(n, NR_LISTED);
	for (size_t i = 0; i < n && i < NR_LISTED; i++)
		CHECK(list[i] == listed[i].parser);
}

const struct test tests[] = {
	{ "each parser has a fuzz target that calls it", test_each_parser_has_a_fuzz_target },
	{ "each parser has golden cases on a sample of it", test_each_parser_has_golden_cases },
	{ "the registry lists the parsers of parsers.h", test_registry_is_the_list },
	{ 0 },
};
