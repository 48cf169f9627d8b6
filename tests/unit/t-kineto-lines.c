// SPDX-License-Identifier: MIT
/*
 * Places in messages when lines are counted by need (input_lines_by_need():
 * a plain file is read again for a message that needs one) against places
 * counted as the file is read (its gzip copy, which cannot be read again):
 * the same line and column for every warning and error, in traceEvents and
 * after it, with one reader and with chunks of several sizes.
 */
#include <zlib.h>

#include "model/strbuf.h"
#include "parsers/input.h"
#include "parsers/parser.h"
#include "test.h"

static const char *const chunk_sizes[] = { "0", "211", "1000", "65536" };

/* The messages of loading PATH with chunks of CHUNK bytes, PATH itself
 * left out of them (the plain and the gzip copy have two names). */
static char *messages(const char *path, const char *chunk)
{
	static char msg[1 << 16];
	struct strbuf b = STRBUF_INIT;
	struct profile p;
	size_t n = strlen(path);
	int rc;

	setenv("PROFTUI_PARSE_CHUNK", chunk, 1);
	rc = test_load(&p, path, "kineto", msg, sizeof(msg));
	unsetenv("PROFTUI_PARSE_CHUNK");
	profile_release(&p);
	strbuf_addf(&b, "rc %d\n", rc);
	for (const char *s = msg; *s;) {
		const char *at = strstr(s, path);

		if (!at) {
			strbuf_addstr(&b, s);
			break;
		}
		strbuf_add(&b, s, (size_t)(at - s));
		strbuf_addstr(&b, "FILE");
		s = at + n;
	}
	return b.s;
}

/* Whether TEXT gives the same messages from a plain file as from its
 * gzip copy, at every chunk size; and that some carry a place. */
static bool same_places(const char *text, size_t len)
{
	char gz_path[512];
	const char *plain_path;
	bool ok = true;
	gzFile gz;

	snprintf(gz_path, sizeof(gz_path), "%s/lines.json.gz", test_dir());
	gz = gzopen(gz_path, "wb");
	if (!gz)
		return false;
	gzwrite(gz, text, (unsigned)len);
	gzclose(gz);
	plain_path = test_write("lines.json", text, len);
	for (size_t i = 0; i < ARRAY_SIZE(chunk_sizes) && ok; i++) {
		char *plain = messages(plain_path, chunk_sizes[i]);
		char *counted = messages(gz_path, chunk_sizes[i]);

		if (strcmp(plain, counted) || !strstr(plain, "FILE:")) {
			fprintf(stderr, "  chunks of %s bytes:\n  by need:\n%s  counted:\n%s",
				chunk_sizes[i], plain, counted);
			ok = false;
		}
		free(plain);
		free(counted);
	}
	return ok;
}

/* Events over many lines, every kind of warning the reader gives now and
 * then, and long names so that a reader refills its buffer many times. */
static void make_trace(struct strbuf *b, int nr)
{
	strbuf_addstr(b, "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n");
	for (int i = 0; i < nr; i++) {
		long long ts = 1000 + 10LL * i;

		if (i)
			strbuf_addstr(b, ",\n");
		switch (i % 97) {
		case 13:
			strbuf_addf(b, "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"neg\",\n"
				       "   \"ts\": %lld, \"dur\": -1}", ts);
			break;
		case 31:
			strbuf_addstr(b, "  {\"ph\": \"X\", \"cat\": \"cpu_op\",\r\n   \"name\": \"no ts\"}");
			break;
		case 57:
			strbuf_addf(b, "  %d", i);
			break;
		case 71:
			strbuf_addf(b, "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"bad\",\n"
				       "   \"ts\": \"abc\", \"dur\": 1}");
			break;
		default:
			strbuf_addf(b, "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
				       "\"aten::op_with_a_rather_long_name_%d\", \"pid\": 1, \"tid\": 1,\n"
				       "    \"ts\": %lld.%03d, \"dur\": 5.5,\n"
				       "    \"args\": {\n      \"External id\": %d\n    }\n  }",
				    i % 50, ts, i % 1000, i);
			break;
		}
	}
	strbuf_addstr(b, "\n  ],\n  \"displayTimeUnit\": \"ms\"\n}\n");
}

static void test_warnings(void)
{
	struct strbuf b = STRBUF_INIT;

	make_trace(&b, 3000);
	CHECK(same_places(b.s, b.len));
	strbuf_release(&b);
}

/* An error after traceEvents: its place counts every line before. */
static void test_error_after_events(void)
{
	struct strbuf b = STRBUF_INIT;

	make_trace(&b, 3000);
	b.len -= 3;	/* the "\n}\n" that ends it */
	strbuf_addstr(&b, ",\n  \"x\": tru\n}\n");
	CHECK(same_places(b.s, b.len));
	strbuf_release(&b);
}

/* An error late in traceEvents, and a file cut short. */
static void test_error_in_events(void)
{
	struct strbuf b = STRBUF_INIT;
	char *at;

	make_trace(&b, 3000);
	at = strstr(b.s + b.len * 3 / 4, "\"dur\": 5.5");
	CHECK(at != NULL);
	if (at)
		memcpy(at, "\"dur\"  5.5", 10);
	CHECK(same_places(b.s, b.len));
	strbuf_reset(&b);
	make_trace(&b, 3000);
	CHECK(same_places(b.s, b.len * 2 / 3));
	strbuf_release(&b);
}

/* pos_advance() against a count a byte at a time: every length to 600
 * at every alignment, newlines sparse and dense, and long stretches with
 * none (past the 255 steps a round of its count takes). */
static void test_pos_advance(void)
{
	static char text[9000];
	uint64_t x = 0x853c49e6748fea9bULL;
	bool ok = true;

	for (int density = 1; density <= 4096 && ok; density *= 4) {
		for (size_t i = 0; i < sizeof(text); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			text[i] = x % (uint64_t)density == 0 ? '\n' : (char)('a' + x % 26);
		}
		for (size_t len = 0; len < 600 && ok; len++) {
			for (size_t from = 0; from < 17 && ok; from++) {
				struct pos want = { 7, 5 }, got;

				for (size_t i = from; i < from + len; i++) {
					want.col++;
					if (text[i] == '\n') {
						want.line++;
						want.col = 1;
					}
				}
				got = pos_advance((struct pos){ 7, 5 }, text + from, len);
				ok = got.line == want.line && got.col == want.col;
			}
		}
		{
			struct pos want = { 1, 1 }, got = pos_advance(want, text, sizeof(text));

			for (size_t i = 0; i < sizeof(text); i++) {
				want.col++;
				if (text[i] == '\n') {
					want.line++;
					want.col = 1;
				}
			}
			ok = ok && got.line == want.line && got.col == want.col;
		}
	}
	CHECK(ok);
}

const struct test tests[] = {
	{ "pos_advance() counts as a byte loop does", test_pos_advance },
	{ "warnings in traceEvents, places by need", test_warnings },
	{ "an error after traceEvents", test_error_after_events },
	{ "an error late in traceEvents, a cut file", test_error_in_events },
	{ 0 },
};
