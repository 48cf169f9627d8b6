// SPDX-License-Identifier: MIT
/*
 * The Kineto reader picks an event's members and args by their names
 * (read_event(), arg_of()) after the tokenizer found them, on its fast
 * path for plain names or the generic one for escaped names.  A trace
 * whose names are written with escapes ("n\u0061me") must load as the
 * same trace with plain names, and names that only look like a member
 * ("nam", "names", "namf", "pH", "", "t") must be passed by as any unknown name
 * is -- also read in chunks of a few bytes, where buffer ends cut names.
 */
#include "load-text.h"
#include "test.h"

/* Three events, one of each kind the reader takes apart, with their
 * member names from NAMES (plain or escaped) and EXTRA, members of
 * other names, before and after each event's own. */
static void make_trace(struct strbuf *b, const char *const names[], const char *extra)
{
	strbuf_reset(b);
	add(b, "{\"traceEvents\": [\n");
	for (int i = 0; i < 3; i++) {
		const char *cat = i == 0 ? "cpu_op" : i == 1 ? "cuda_runtime" : "kernel";
		const char *name = i == 0 ? "aten::mm" : i == 1 ? "cudaLaunchKernel" : "gemm";

		add(b, "%s  {%s\"%s\": \"X\", \"%s\": \"%s\", \"%s\": \"%s\", \"pid\": 1, "
		       "\"%s\": %d,\n    \"%s\": %d.%03d, \"%s\": %d.5,\n    \"%s\": {",
		    i ? ",\n" : "", extra, names[0], names[1], cat, names[2], name, names[3],
		    i == 2 ? 7 : 1, names[4], 100 + i, i * 125, names[5], 10 - i, names[6]);
		if (i == 0)
			add(b, "\"%s\": 5, \"%s\": [[2, 3], [3, 4]], \"%s\": [\"float\", \"float\"], "
			       "\"Ev Idx\": 0", names[7], names[8], names[9]);
		else
			add(b, "\"%s\": 5, \"%s\": 42, \"%s\": [8, 1, 1], \"%s\": [128, 1, 1], "
			       "\"%s\": 0", names[7], names[10], names[11], names[12], names[13]);
		add(b, "}");
		if (*extra)	/* after the members too: a name taken for one would win */
			add(b, ", %.*s", (int)strlen(extra) - 2, extra);
		add(b, "\n  }");
	}
	add(b, "\n]}\n");
}

static const char *const plain[] = {
	"ph", "cat", "name", "tid", "ts", "dur", "args", "External id", "Input Dims",
	"Input type", "correlation", "grid", "block", "stream",
};

static const char *const escaped[] = {
	"\\u0070h", "c\\u0061t", "n\\u0061me", "ti\\u0064", "t\\u0073", "du\\u0072", "arg\\u0073",
	"External\\u0020id", "Input \\u0044ims", "Input typ\\u0065", "correlatio\\u006e",
	"\\u0067rid", "bloc\\u006b", "strea\\u006d",
};

/* Names next to the members', of their lengths and first bytes. */
static const char near_misses[] =
	"\"nam\": \"x\", \"names\": \"y\", \"pH\": \"B\", \"p\": 1, \"t\": 5, \"tsx\": 1, "
	"\"\": 2, \"dura\": 3, \"argss\": {\"External id\": 9}, \"Ph\": \"i\", \"ti\": 4, "
	"\"cats\": \"kernel\", \"NAME\": \"z\", \"ar\": [1], \"du\": 8, \"t\\u0073x\": 0, "
	"\"px\": \"i\", \"tz\": 3, \"cab\": \"kernel\", \"duq\": 2, \"tix\": 6, "
	"\"namf\": \"w\", \"argz\": {\"External id\": 8}, ";

/* Whether TEXT loads as WANT does, in one reader and in chunks. */
static bool loads_as(const char *name, const struct strbuf *want, const struct strbuf *text)
{
	static const char *const chunks[] = { "0", "64", "97", "211" };
	const char *want_path = test_write("want.json", want->s, want->len);
	char *expect = load_text(want_path, "PROFTUI_PARSE_CHUNK", "0");
	const char *path = test_write(name, text->s, text->len);
	bool ok = strstr(expect, "rc 0") == expect;

	for (size_t i = 0; i < ARRAY_SIZE(chunks) && ok; i++) {
		char *got = load_text(path, "PROFTUI_PARSE_CHUNK", chunks[i]);

		if (strcmp(got, expect)) {
			fprintf(stderr, "%s, chunks %s:\n  want: %.400s\n  got:  %.400s\n", name,
				chunks[i], expect, got);
			ok = false;
		}
		free(got);
	}
	free(expect);
	return ok;
}

static void test_escaped_names(void)
{
	struct strbuf want = STRBUF_INIT, text = STRBUF_INIT;

	make_trace(&want, plain, "");
	make_trace(&text, escaped, "");
	CHECK(loads_as("escaped.json", &want, &text));
	strbuf_release(&want);
	strbuf_release(&text);
}

static void test_near_misses(void)
{
	struct strbuf want = STRBUF_INIT, text = STRBUF_INIT;

	make_trace(&want, plain, "");
	make_trace(&text, plain, near_misses);
	CHECK(loads_as("near.json", &want, &text));
	make_trace(&text, escaped, near_misses);
	CHECK(loads_as("near-escaped.json", &want, &text));
	strbuf_release(&want);
	strbuf_release(&text);
}

/* The trace must show what it holds: a check that cannot pass on a
 * reader that dropped every member. */
static void test_members_read(void)
{
	struct strbuf b = STRBUF_INIT;
	const char *path;
	char *got;

	make_trace(&b, escaped, near_misses);
	path = test_write("read.json", b.s, b.len);
	got = load_text(path, "PROFTUI_PARSE_CHUNK", "0");
	CHECK(strstr(got, "aten::mm") != NULL);
	CHECK(strstr(got, "gemm") != NULL);
	CHECK(strstr(got, "[[2, 3], [3, 4]]") != NULL);
	CHECK(strstr(got, "8/1/1") != NULL || strstr(got, ",8,1,1") != NULL ||
	      strstr(got, "/8,1,1/") != NULL);
	free(got);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "escaped member names read as plain ones", test_escaped_names },
	{ "names next to the members' are passed by", test_near_misses },
	{ "the members are read", test_members_read },
	{ 0 },
};
