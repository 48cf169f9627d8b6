// SPDX-License-Identifier: MIT
/*
 * traceEvents read in chunks on two threads (parsers/kineto/kineto_chunks.c)
 * must give what one reader gives, byte for byte: the same events with
 * the same ordinals, warnings, counts, errors and their places.  Chunks
 * are forced small (PROFTUI_PARSE_CHUNK) so that a trace of a few hundred
 * events is cut in many places, among them the bait: strings and nested
 * args holding "},{" that look like the start of an element.
 */
#include <zlib.h>

#include "load-text.h"
#include "test.h"

static const char *const chunk_sizes[] = { "64", "97", "128", "211", "256", "333", "512",
					   "1000", "1777", "4096" };

/* Whether WANT and GOT, the loads of NAME in chunks of SIZE bytes, are the
 * same text; if not, where they part, on stderr. */
static bool same_text(const char *name, const char *size, const char *want_how,
		      const char *want, const char *got_how, const char *got)
{
	const char *w = want, *g = got;

	if (!strcmp(want, got))
		return true;
	while (*w && *w == *g)
		w++, g++;
	fprintf(stderr, "%s, chunks of %s bytes: differs at byte %zu:\n  %-10s %.120s\n"
		"  %-10s %.120s\n", name, size, (size_t)(w - want), want_how, w, got_how, g);
	return false;
}

/* Whether every chunk size gives what one reader gives on TEXT. */
static void check_same(const char *name, const char *text, size_t len)
{
	const char *path = test_write(name, text, len);
	char *serial = load_text(path, "PROFTUI_PARSE_CHUNK", "0");

	for (size_t i = 0; i < ARRAY_SIZE(chunk_sizes); i++) {
		char *par = load_text(path, "PROFTUI_PARSE_CHUNK", chunk_sizes[i]);

		CHECK(same_text(name, chunk_sizes[i], "one reader", serial, "chunked", par));
		free(par);
	}
	free(serial);
}

/*
 * A trace with a bit of everything the reader counts or warns about,
 * and bait for the chunk cutter every few events.
 */
static void make_trace(struct strbuf *b, int nr)
{
	add(b, "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"G\"}],\n"
	       "\"traceEvents\": [\n");
	for (int i = 0; i < nr; i++) {
		long long ts = 1000 + 10LL * i;

		if (i)
			add(b, i % 7 ? ",\n" : " ,\n\t ");
		switch (i % 13) {
		case 0:
			/* A name that holds what a cut looks for, twice. */
			add(b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"bait},\\n{\\\"ph\\\":"
			       "\\\"X\\\"}, {\\\"x\\\": 1}\", \"pid\": 1, \"tid\": 1, \"ts\": %lld, "
			       "\"dur\": 5, \"args\": {\"External id\": %d}}", ts, i);
			break;
		case 1:
			/* "}, {" deeper in: args holding a list of objects. */
			add(b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"nested\", \"pid\": 1, "
			       "\"tid\": 1, \"ts\": %lld, \"dur\": 3, \"args\": {\"l\": [{\"a\": 1},\n"
			       "{\"b\": [{\"c\": 2}, {\"d\": 3}]}, {\"e\": 4}], \"External id\": %d}}", ts, i);
			break;
		case 2:
			add(b, "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
			       "\"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": 2, \"args\": {\"correlation\": "
			       "%d, \"External id\": %d}}", ts + 1, i, i - 2);
			break;
		case 3:
			add(b, "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": 0, \"tid\": 7, "
			       "\"ts\": %lld, \"dur\": 4, \"args\": {\"correlation\": %d, \"grid\": [1, 2, 3], "
			       "\"block\": [4, 1, 1]}}", i % 3, ts + 3, i - 1);
			break;
		case 4:
			/* New categories, more than the 32 counted one by one. */
			add(b, "{\"ph\": \"%c\", \"cat\": \"newcat%d\", \"name\": \"n\", \"ts\": %lld}",
			    "XiBEs"[i % 5], (i * 7) % 41, ts);
			break;
		case 5:
			add(b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"no ts\", \"dur\": 1}");
			break;
		case 6:
			add(b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"neg\", \"ts\": %lld, "
			       "\"dur\": -%d}", ts, i);
			break;
		case 7:
			add(b, "%d", i);	/* not an object */
			break;
		case 8:
			add(b, "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\","
			       " \"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": 9, \"args\": {\"Input Dims\":"
			       " [[1, 2], []], \"weird\": nan}}", i / 13, ts);
			break;
		case 9:
			add(b, "{\"ph\": \"X\", \"cat\": \"CPU_OP\", \"name\": \"ctrl\tchar\", \"pid\": 1, "
			       "\"tid\": 2, \"ts\": %lld, \"dur\": 1, \"args\": {}}", ts);
			break;
		case 10:
			add(b, "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", "
			       "\"pid\": 1, \"tid\": 1, \"ts\": %lld, \"args\": {\"Device Type\": 0, "
			       "\"Bytes\": %d, \"Total Allocated\": %d, \"Addr\": 16}}", ts, i, i * 2);
			break;
		case 11:
			add(b, "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"ProfilerStep#1\","
			       " \"pid\": 0, \"tid\": 7, \"ts\": %lld, \"dur\": 2}", ts);
			break;
		default:
			add(b, "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"f%d\", \"pid\": 1, "
			       "\"tid\": 1, \"ts\": %lld, \"dur\": 1, \"args\": {\"Python module id\": %d}}",
			    i % 4, ts, i % 3);
			break;
		}
	}
	add(b, "\n],\n\"displayTimeUnit\": \"ms\", \"baseTimeNanoseconds\": 17}\n");
}

static void test_same_events(void)
{
	struct strbuf b = STRBUF_INIT;

	make_trace(&b, 400);
	check_same("par-mixed.json", b.s, b.len);
	strbuf_release(&b);
}

/* A cut file keeps the same events, and says so at the same place. */
static void test_truncated(void)
{
	struct strbuf b = STRBUF_INIT;

	make_trace(&b, 120);
	for (size_t cut = b.len / 3; cut < b.len; cut += b.len / 5 + 17)
		check_same("par-cut.json", b.s, cut);
	strbuf_release(&b);
}

/* An error in the middle: the first in file order, at its place. */
static void test_errors(void)
{
	static const char *const bad[] = { "{\"ph\": \"X\" \"cat\": 1}", "{\"ph\": tru}",
					   "{\"a\": [}]}", "{\"n\": \"\\q\"}" };
	struct strbuf b = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		size_t at;

		strbuf_reset(&b);
		make_trace(&b, 200);
		/* After the 150th element, so that earlier chunks are fine. */
		at = 0;
		for (int n = 0; n < 150; n++)
			at = (size_t)(strstr(b.s + at + 1, ",\n") - b.s);
		{
			struct strbuf t = STRBUF_INIT;

			strbuf_add(&t, b.s, at + 2);
			strbuf_addstr(&t, bad[i]);
			strbuf_addstr(&t, b.s + at);
			check_same("par-error.json", t.s, t.len);
			strbuf_release(&t);
		}
	}
	strbuf_release(&b);
}

/* A bare array of events, and traceEvents with nothing or one thing. */
static void test_small_arrays(void)
{
	static const char *const texts[] = {
		"[{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"ts\": 1, \"dur\": 1},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b},{\", \"ts\": 2, \"dur\": 1}]\n",
		"{\"traceEvents\": []}",
		"{\"traceEvents\": [1]}",
		"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"ts\": 1}, ]}",
		"{\"traceEvents\": [",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		check_same("par-small.json", texts[i], strlen(texts[i]));
}

/* An element that is not an object, cut by a chunk's end: warned about
 * once, by the reading in file order, not by the chunk's reader too. */
static void test_cut_non_object(void)
{
	static const char text[] =
		"{\"traceEvents\": [\n{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1},\n"
		"[0, \"}, {\"],\n{\"name\": \"b\", \"ph\": \"X\", \"ts\": 2, \"dur\": 1}\n]}\n";

	check_same("par-cut-non-object.json", text, sizeof(text) - 1);
}

/* TEXT gzipped into PATH. */
static void write_gzip(const char *path, const char *text, size_t len)
{
	gzFile gz = gzopen(path, "wb1");

	CHECK(gz != NULL);
	if (gz) {
		CHECK(gzwrite(gz, text, (unsigned)len) == (int)len);
		gzclose(gz);
	}
}

/*
 * A gzip file read in chunks the size of the reading thread's
 * (PROFTUI_READ_CHUNK and PROFTUI_PARSE_CHUNK alike): the chunks are
 * its buffers, traded whole, their lines counted by that thread
 * (kineto_chunks.c, take_bytes()).  They must give what the same chunks
 * copied out of the gzip file give, and what the plain file gives (the
 * two written in turn under one name, which the messages hold).  Only a
 * trace of megabytes reaches this path at the reader's own size; TEXT
 * is some hundreds of KB, past the 256 KB the input reads itself.
 */
static void check_gzip_traded(const char *name, const char *text, size_t len)
{
	static const char *const sizes[] = { "4096", "5000", "65536", "100003", "250000" };

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		const char *path = test_write(name, text, len);
		char *plain = load_text(path, "PROFTUI_PARSE_CHUNK", sizes[i]), *copied, *traded;

		write_gzip(path, text, len);
		copied = load_text(path, "PROFTUI_PARSE_CHUNK", sizes[i]);
		setenv("PROFTUI_READ_CHUNK", sizes[i], 1);
		traded = load_text(path, "PROFTUI_PARSE_CHUNK", sizes[i]);
		unsetenv("PROFTUI_READ_CHUNK");
		CHECK(same_text(name, sizes[i], "plain", plain, "copied", copied));
		CHECK(same_text(name, sizes[i], "plain", plain, "traded", traded));
		free(plain);
		free(copied);
		free(traded);
	}
}

/* A gzip stream cut short at a few places (the reading thread ends at
 * the cut, or the input's own first read does): its chunks traded whole
 * give what the same chunks copied give, the events before the cut. */
static void check_gzip_cut_traded(const char *name, const char *text, size_t len)
{
	static const char *const sizes[] = { "4096", "100003" };
	const char *path = test_write(name, "", 0);
	struct stat st;

	for (int tenths = 3; tenths <= 9; tenths += 3) {
		write_gzip(path, text, len);
		CHECK(stat(path, &st) == 0 && truncate(path, st.st_size * tenths / 10) == 0);
		for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
			char *copied = load_text(path, "PROFTUI_PARSE_CHUNK", sizes[i]), *traded;

			setenv("PROFTUI_READ_CHUNK", sizes[i], 1);
			traded = load_text(path, "PROFTUI_PARSE_CHUNK", sizes[i]);
			unsetenv("PROFTUI_READ_CHUNK");
			CHECK(strstr(copied, "unexpected end of file") != NULL);
			CHECK(strstr(copied, "events read before it") != NULL);
			CHECK(same_text(name, sizes[i], "copied", copied, "traded", traded));
			free(copied);
			free(traded);
		}
	}
}

/* The mixed trace, whole, cut (the text, and the gzip stream) and with an
 * error near its end, through buffers traded whole; and elements longer
 * than the room a traded buffer keeps in front for the bytes a cut
 * leaves over (64 KB). */
static void test_gzip_traded(void)
{
	struct strbuf b = STRBUF_INIT, t = STRBUF_INIT;
	size_t at;

	make_trace(&b, 4000);
	CHECK(b.len > (400u << 10));
	check_gzip_traded("gz-mixed.json", b.s, b.len);
	check_gzip_traded("gz-cut.json", b.s, b.len - b.len / 7);
	check_gzip_cut_traded("gz-cut-stream.json", b.s, b.len);

	at = (size_t)(strstr(b.s + b.len - b.len / 5, ",\n") - b.s);
	strbuf_add(&t, b.s, at + 2);
	strbuf_addstr(&t, "{\"ph\": tru},\n");
	strbuf_addstr(&t, b.s + at + 2);
	check_gzip_traded("gz-error.json", t.s, t.len);

	/* Long elements among the small ones, at many places in a chunk:
	 * where one starts early in a chunk's second half and ends in a
	 * later chunk, the bytes the cut leaves over are more than the room
	 * in front of a traded buffer and take a buffer of their own
	 * (take_bytes()). */
	strbuf_reset(&t);
	strbuf_add(&t, b.s, at + 2);
	for (int k = 0; k < 16; k++) {
		strbuf_addstr(&t, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 5, \"dur\": 1, "
			      "\"name\": \"");
		for (int i = 0; i < 9000 + 700 * k; i++)
			strbuf_addstr(&t, "long name ");
		strbuf_addstr(&t, "\"},\n");
		for (int i = 0; i < 40 + 97 * k; i++)
			strbuf_addstr(&t, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"s\", "
				      "\"ts\": 6, \"dur\": 1},\n");
	}
	strbuf_addstr(&t, b.s + at + 2);
	check_gzip_traded("gz-long.json", t.s, t.len);
	strbuf_release(&t);
	strbuf_release(&b);
}

const struct test tests[] = {
	{ "chunks read on two threads give one reader's events", test_same_events },
	{ "a cut file keeps the same events in chunks", test_truncated },
	{ "the first error in file order, at its place", test_errors },
	{ "small arrays and a bare one", test_small_arrays },
	{ "an element not an object, cut by a chunk, warns once", test_cut_non_object },
	{ "a gzip file's buffers traded whole as chunks", test_gzip_traded },
	{ 0 },
};
