// SPDX-License-Identifier: MIT
/*
 * The tokenizer's fast paths (json_next_key(), json_next_value(),
 * json_next_element(), json_next_fast(), json_skip_value()'s plain
 * numbers) against the
 * generic json_next(): the same tokens, texts, positions, errors and
 * quirk counts, on crafted input read through buffers of every small size,
 * so that every token is also met cut by a buffer's end.
 */
#include "json-log.h"
#include "test.h"

/* Whether TEXT reads the same in MODE, through buffers of every size from
 * 1 to 48 bytes and a large one, as with json_next() alone through the
 * large buffer (for SKIPPING: as in that mode through the large buffer). */
static bool same_every_way(const char *text, size_t len, enum mode mode)
{
	struct strbuf want = { 0 }, got = { 0 };
	bool ok = true;

	json_log(text, len, 0, mode == SKIPPING ? SKIPPING : GENERIC, &want);
	for (size_t cap = 1; cap <= 49 && ok; cap++) {
		json_log(text, len, cap == 49 ? 0 : cap, mode, &got);
		if (got.len != want.len || memcmp(got.s, want.s, got.len)) {
			fprintf(stderr, "  mode %d, buffer %zu, input:\n%.*s\n  want:\n%s  got:\n%s",
				mode, cap, (int)len, text, want.s, got.s);
			ok = false;
		}
	}
	strbuf_release(&want);
	strbuf_release(&got);
	return ok;
}

static bool same_all_modes(const char *text)
{
	size_t len = strlen(text);

	return same_every_way(text, len, GENERIC) && same_every_way(text, len, FAST) &&
	       same_every_way(text, len, SKIPPING) && same_every_way(text, len, ANY);
}

static const char event[] =
	"{\"traceEvents\": [\n"
	"  {\n"
	"    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void at::k<float>(int)\", "
	"\"pid\": 0, \"tid\": 7,\n"
	"    \"ts\": 2721888881676.845, \"dur\": 18.016,\n"
	"    \"args\": {\n"
	"      \"External id\": 14,      \"queued\": 0, \"stream\": 7, \"grid\": [264, 1, 1],"
	"      \"est. achieved occupancy %\": 100, \"blocks per SM\": -2.000000\n"
	"    }\n"
	"  },\n"
	"  {\"ph\":\"i\",\"s\":\"g\",\"pid\":\"\",\"tid\":\"\",\"ts\":1712195495519689.123}\n"
	"  ],\n  \"traceName\": \"t.json\"\n}\n";

static void test_kineto_event(void)
{
	CHECK(same_all_modes(event));
}

/* Every prefix of an event: each token cut by the end of the file. */
static void test_every_cut(void)
{
	bool ok = true;

	for (size_t n = 0; n < sizeof(event) - 1 && ok; n++)
		ok = same_every_way(event, n, GENERIC) && same_every_way(event, n, FAST) &&
		     same_every_way(event, n, SKIPPING) && same_every_way(event, n, ANY);
	CHECK(ok);
}

static void test_odd_whitespace(void)
{
	CHECK(same_all_modes("{\t\"a\"\t:\t1\t,\r\n\"b\"\r\n:\"x\"\r\n}"));
	CHECK(same_all_modes("{\"a\" : 1 , \"b\" :\"x\" ,\"s\" : 2 }"));
	CHECK(same_all_modes("[                                        {\"a\":1}"
			     "                                                  ,{}]"));
	CHECK(same_all_modes("{\"s\":1                                                 }"));
	CHECK(same_all_modes("{\"a\":\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n1}"));
	/* A form feed and a vertical tab are no whitespace in JSON. */
	CHECK(same_all_modes("{\"a\":\f1}"));
	CHECK(same_all_modes("{\"a\":1,\v\"b\":2}"));
	CHECK(same_all_modes("[1,\x01{}]"));
}

static void test_strings(void)
{
	CHECK(same_all_modes("{\"a\\\"b\": \"c\\\\d\", \"\\u00e9\": \"\\ud83d\\ude00\"}"));
	CHECK(same_all_modes("{\"s\\n\": \"x\", \"s\": \"y\\/z\", \"sa\": \"bad \\q\"}"));
	CHECK(same_all_modes("{\"caf\xc3\xa9\": \"\xe2\x82\xac 5\", \"s\": \"\xe2\x82\"}"));
	CHECK(same_all_modes("{\"a\": \"raw\ttab\", \"b\x01\": \"\x1f\"}"));
	CHECK(same_all_modes("{\"a\": \"nul\\u0000\"}"));
	CHECK(same_all_modes("{\"a\": \"a string longer than sixteen bytes, and then some\","
			     " \"a key longer than sixteen bytes\": \"\"}"));
	CHECK(same_all_modes("{\"\": \"\", \"s\": \"\"}"));
	CHECK(same_all_modes("{\"a\": \"no end}"));
	CHECK(same_all_modes("{\"a\" \"b\"}"));
	CHECK(same_all_modes("{\"a\": 1 \"b\": 2}"));
}

static void test_numbers(void)
{
	CHECK(same_all_modes("[0, -0, 1, -1, 01, 1.5, -1.5, 1., .5, -.5, 1e5, 1E-5, 2.5e+3, -]"));
	CHECK(same_all_modes("{\"a\": 1.5e3, \"s\": 1.5e3, \"b\": -, \"c\": 5}"));
	CHECK(same_all_modes("{\"s\": -, \"c\": 5}"));
	CHECK(same_all_modes("{\"s\": 1.}"));
	CHECK(same_all_modes("{\"s\": 12abc, \"t\": 1}"));
	CHECK(same_all_modes("{\"s\": 12 abc, \"t\": 1}"));
	CHECK(same_all_modes("{\"a\": 123abc}"));
	CHECK(same_all_modes("{\"a\": 1/2, \"b\": 3_4, \"s\": 1/2}"));
	CHECK(same_all_modes("{\"a\": nan, \"b\": -Infinity, \"c\": N/A, \"d\": true, "
			     "\"e\": false, \"f\": null, \"s\": nan, \"s\": true}"));
	CHECK(same_all_modes("{\"ts\": 2721888881589.904, \"dur\": 1712195495519689.123}"));
	/* 64 characters pass, 65 are too long. */
	CHECK(same_all_modes("{\"a\": 1234567890123456789012345678901234567890123456789012345678901234,"
			     " \"s\": 1234567890123456789012345678901234567890123456789012345678901234}"));
	CHECK(same_all_modes("{\"a\": 12345678901234567890123456789012345678901234567890123456789012345}"));
	CHECK(same_all_modes("{\"s\": 12345678901234567890123456789012345678901234567890123456789012345}"));
	CHECK(same_all_modes("[1, 2, 3]"));
	CHECK(same_all_modes("{\"s\": [1, 2], \"s\": {\"a\": 1}, \"s\": 5]"));
}

/* Digits are found eight at a time: every byte after every count of
 * digits, the point's both sides. */
static void test_every_byte_after_digits(void)
{
	bool ok = true;

	for (int nr = 0; nr < 18 && ok; nr++) {
		for (int c = 0; c < 256 && ok; c++) {
			char text[64];
			int n = snprintf(text, sizeof(text), "{\"a\": %.*s", nr, "123456789012345678");

			text[n++] = (char)c;
			n += snprintf(text + n, sizeof(text) - (size_t)n, "%.*s}", nr, "98765432109876543");
			ok = same_every_way(text, (size_t)n, FAST) && same_every_way(text, (size_t)n, SKIPPING);
		}
	}
	CHECK(ok);
}

static void test_structure(void)
{
	CHECK(same_all_modes("{\"a\": {\"b\": [{\"c\": {}}, [], [[1]]]}, \"d\": []}"));
	CHECK(same_all_modes("{\"a\": 1,}"));
	CHECK(same_all_modes("[{\"a\": 1},]"));
	CHECK(same_all_modes("{\"a\": 1]"));
	CHECK(same_all_modes("[{\"a\": 1}}"));
	CHECK(same_all_modes("{\"a\": }"));
	CHECK(same_all_modes("{,}"));
	CHECK(same_all_modes("{\"a\"}"));
	CHECK(same_all_modes("[,{}]"));
	CHECK(same_all_modes("[1,]"));
	CHECK(same_all_modes("[ ]"));
	CHECK(same_all_modes("[[],[[ ]], [\"a\",\"b\" ], [1 , 2 ,3]]"));
	CHECK(same_all_modes("{\"grid\": [264, 1, 1], \"t\": [\"float\", \"\", \"c10::Half\"]}"));
	CHECK(same_all_modes("[1 {}]"));
	CHECK(same_all_modes("{\"a\":1}\n{\"b\":2}\n[3]"));
	CHECK(same_all_modes("{\"a\": [1, {\"s\": 2}, \"x\"], \"s\": [\"}\", \"]\", \"\\\"\"]}"));
}

static void test_deep_nesting(void)
{
	struct strbuf b = { 0 };

	strbuf_addstr(&b, "{\"a\":");
	for (int i = 0; i < JSON_MAX_DEPTH + 4; i++)
		strbuf_addstr(&b, i % 2 ? "{\"k\":" : "[");
	CHECK(same_every_way(b.s, b.len, GENERIC) && same_every_way(b.s, b.len, FAST));
	strbuf_reset(&b);
	strbuf_addstr(&b, "{\"s\":");
	for (int i = 0; i < JSON_MAX_DEPTH + 4; i++)
		strbuf_addstr(&b, "[");
	CHECK(same_every_way(b.s, b.len, SKIPPING));
	strbuf_release(&b);
}

/* Random documents of the shapes above: nesting, keys, every kind of
 * value, whitespace of every kind, and now and then a byte that breaks
 * it. */
static void add_random_value(struct strbuf *b, uint64_t *x, int depth);

static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void add_space(struct strbuf *b, uint64_t *x)
{
	static const char *const spaces[] = { "", "", "", " ", "\n    ", "\t", "\r\n",
					      "                    ", "\n      " };

	strbuf_addstr(b, spaces[next_random(x) % ARRAY_SIZE(spaces)]);
}

static void add_random_value(struct strbuf *b, uint64_t *x, int depth)
{
	static const char *const scalars[] = {
		"1", "-12", "2721888881589.904", "0.5", "1e3", "-0", "true", "null", "nan",
		"\"\"", "\"X\"", "\"cpu_op\"", "\"a\\\"b\"", "\"\\u00e9\"", "\"caf\xc3\xa9\"",
		"\"void at::native::vectorized_elementwise_kernel<4, float>(int)\"", "1.",
		"12x", "\"tab\there\"",
	};
	static const char *const keys[] = { "ph", "cat", "name", "ts", "dur", "args", "s",
					    "stream", "External id", "k\\\"ey", "" };
	uint64_t r = next_random(x);
	int n = (int)(r >> 8) % 5;

	if (depth > 4 || r % 4) {
		strbuf_addstr(b, scalars[(r >> 16) % ARRAY_SIZE(scalars)]);
		return;
	}
	strbuf_addch(b, r & 4 ? '{' : '[');
	for (int i = 0; i < n; i++) {
		add_space(b, x);
		if (r & 4) {
			strbuf_addf(b, "\"%s\"", keys[next_random(x) % ARRAY_SIZE(keys)]);
			add_space(b, x);
			strbuf_addch(b, ':');
			add_space(b, x);
		}
		add_random_value(b, x, depth + 1);
		add_space(b, x);
		if (i + 1 < n || next_random(x) % 16 == 0)
			strbuf_addch(b, ',');
	}
	add_space(b, x);
	strbuf_addch(b, r & 4 ? '}' : ']');
}

static void test_random_documents(void)
{
	struct strbuf b = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	bool ok = true;

	for (int i = 0; i < 400 && ok; i++) {
		strbuf_reset(&b);
		add_random_value(&b, &x, 0);
		if (i % 8 == 7 && b.len > 2) {
			/* Break one byte. */
			b.s[next_random(&x) % b.len] = "}],:\"x \x01"[next_random(&x) % 8];
		}
		ok = same_every_way(b.s, b.len, GENERIC) && same_every_way(b.s, b.len, FAST) &&
		     same_every_way(b.s, b.len, SKIPPING) && same_every_way(b.s, b.len, ANY);
	}
	CHECK(ok);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "a Kineto event reads the same on the fast paths", test_kineto_event },
	{ "every cut of it too", test_every_cut },
	{ "odd whitespace", test_odd_whitespace },
	{ "strings: escapes, controls, UTF-8, cut", test_strings },
	{ "numbers of every shape, words, bounds", test_numbers },
	{ "every byte after every count of digits", test_every_byte_after_digits },
	{ "structure and its errors", test_structure },
	{ "nesting past the bound", test_deep_nesting },
	{ "random documents", test_random_documents },
	{ 0 },
};
