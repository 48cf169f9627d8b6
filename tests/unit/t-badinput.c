// SPDX-License-Identifier: MIT
/*
 * Bad input: every case gets one "FILE[:LINE:COL]: error: ..." line and a
 * failed load -- never a crash, a hang or a silent success.  The files are
 * made here, under $TMPDIR.
 */
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "model/strbuf.h"
#include "parsers/parser.h"
#include "test.h"

/* Load PATH (as FORMAT if not NULL); return the load's code and put the
 * messages in MSG. */
static int load(const char *path, const char *format, char *msg, size_t cap, struct profile *keep)
{
	struct profile p;
	int rc = test_load(&p, path, format, msg, cap);

	if (keep)
		*keep = p;
	else
		profile_release(&p);
	return rc;
}

/* One error line, starting with PATH, containing WANT (warnings about what
 * was read before the error may come first). */
static void expect_error(const char *path, const char *format, const char *want)
{
	char msg[4096], prefix[600];
	int rc = load(path, format, msg, sizeof(msg), NULL);

	snprintf(prefix, sizeof(prefix), "%s:", path);
	CHECK(rc < 0);
	CHECK(!strncmp(msg, prefix, strlen(prefix)));
	CHECK(strstr(msg, ": error: ") != NULL);
	CHECK(strstr(strstr(msg, ": error: ") + 1, ": error: ") == NULL);	/* one */
	CHECK(msg[strlen(msg) - 1] == '\n' && !strchr(strstr(msg, ": error: "), '\n')[1]);
	if (!strstr(msg, want)) {
		fprintf(stderr, "  message '%s' lacks '%s'\n", msg, want);
		test_failed = 1;
	}
}

static void t_empty(void)
{
	expect_error(test_write("empty.json", "", 0), NULL, "file is empty");
}

static void t_garbage(void)
{
	unsigned char junk[3000];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 7919 % 251);
	expect_error(test_write("junk.bin", junk, sizeof(junk)), NULL, "binary data");
}

static void t_jpeg(void)
{
	static const unsigned char jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 'J', 'F', 'I', 'F',
					      0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00,
					      0x00, 0xff, 0xdb, 0x00, 0x43, 0x00 };

	expect_error(test_write("photo.jpg", jpeg, sizeof(jpeg)), NULL, "binary data");
}

static void t_no_parser(void)
{
	const char *text = "hello, this is a shopping list\nmilk\neggs\n";

	expect_error(test_write("list.txt", text, strlen(text)), NULL, "no parser recognises");
}

static void t_missing(void)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/does-not-exist.json", test_dir());
	expect_error(path, NULL, "No such file");
}

static void t_directory(void)
{
	expect_error(test_dir(), NULL, "is a directory");
}

static void t_unreadable(void)
{
	const char *path;

	if (geteuid() == 0)
		SKIP("running as root, which reads any file");
	path = test_write("secret.json", "{}", 2);
	chmod(path, 0);
	expect_error(path, NULL, "Permission denied");
}

/*
 * A gzip file cut mid-stream is read as far as it goes, as a cut plain
 * file is: the events before the cut are kept, and the error says where
 * the text ends, and why.  This one ends inside the input's first read, before
 * any reading thread: once, that failed the whole load with no place.
 */
static void t_truncated_gzip(void)
{
	static const char event[] = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
				    "\"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 2}";
	struct strbuf text = STRBUF_INIT;
	char path[600], msg[4096];
	struct profile p;
	struct stat st;
	gzFile gz;

	strbuf_addstr(&text, "{\"traceEvents\": [\n");
	for (int i = 0; i < 2000; i++) {
		strbuf_addf(&text, event, 10 * i + 1);
		strbuf_addstr(&text, ",\n");
	}
	strbuf_addstr(&text, "{}]}\n");
	snprintf(path, sizeof(path), "%s/cut.json.gz", test_dir());
	gz = gzopen(path, "wb");
	CHECK(gz && gzwrite(gz, text.s, (unsigned)text.len) == (int)text.len);
	if (gz)
		gzclose(gz);
	CHECK(stat(path, &st) == 0 && truncate(path, st.st_size / 2) == 0);
	CHECK_EQ(load(path, NULL, msg, sizeof(msg), &p), 1);
	CHECK(strstr(msg, "cut.json.gz:") && strstr(msg, "error: unexpected end of file"));
	CHECK(strstr(msg, ": truncated gzip data") && strstr(msg, "events read before it"));
	CHECK(node_first_child(p.root) && node_first_child(node_first_child(p.root)));	/* thread -> aten::mm */
	profile_release(&p);
	strbuf_release(&text);
}

static void t_truncated_json(void)
{
	const char *text = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
			   "\"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2}, {\"ph\": \"X\", \"cat\": \"cpu_op\", "
			   "\"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 3}, {\"ph\": \"X\", \"na";
	char msg[4096];
	struct profile p;
	const char *path;

	path = test_write("cut.json", text, strlen(text));
	/* Kept, with an error that says where it stopped: exit 2 in batch
	 * mode, but the two complete events are there to look at. */
	CHECK_EQ(load(path, NULL, msg, sizeof(msg), &p), 1);
	CHECK(strstr(msg, "cut.json:1:") && strstr(msg, "error: unexpected end of file"));
	CHECK(strstr(msg, "kept the 2 events"));
	CHECK(node_first_child(p.root) && node_first_child(node_first_child(p.root)));	/* thread -> aten::mm */
	profile_release(&p);
}

static void t_wrong_top_level(void)
{
	expect_error(test_write("string.json", "\"just a string\"", 15), "kineto",
		     "expected a JSON object or array at the top level");
	expect_error(test_write("object.json", "{\"foo\": 1}", 10), "kineto", "no 'traceEvents' array");
}

static void t_huge_string(void)
{
	size_t n = 10 * 1024 * 1024;
	char *text = malloc(n + 64);

	strcpy(text, "{\"traceEvents\": [{\"name\": \"");
	memset(text + strlen(text), 'a', n);
	strcpy(text + 28 + n, "\"}]}");
	expect_error(test_write("long.json", text, strlen(text)), NULL, "string longer than");
	free(text);
}

static void t_deep_nesting(void)
{
	size_t n = 100000;
	char *text = malloc(n + 32);

	strcpy(text, "{\"traceEvents\": ");
	memset(text + 16, '[', n);
	text[16 + n] = '\0';
	expect_error(test_write("deep.json", text, strlen(text)), NULL, "nesting deeper than");
	free(text);
}

static void t_bad_utf8(void)
{
	const char *text = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"caf\xe9 \xff\"}]}";

	expect_error(test_write("latin1.json", text, strlen(text)), NULL, "invalid UTF-8");
}

static void t_nul_bytes(void)
{
	static const char text[] = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\0b\"}]}";

	expect_error(test_write("nul.json", text, sizeof(text) - 1), NULL, "NUL byte");
}

const struct test tests[] = {
	{ "an empty file", t_empty },
	{ "binary garbage", t_garbage },
	{ "a JPEG", t_jpeg },
	{ "a format no parser claims", t_no_parser },
	{ "a missing file", t_missing },
	{ "a directory", t_directory },
	{ "an unreadable file", t_unreadable },
	{ "a truncated gzip keeps complete events", t_truncated_gzip },
	{ "a truncated JSON keeps complete events", t_truncated_json },
	{ "a wrong top-level type", t_wrong_top_level },
	{ "a 10 MB single string", t_huge_string },
	{ "100000-deep nesting", t_deep_nesting },
	{ "invalid UTF-8", t_bad_utf8 },
	{ "NUL bytes", t_nul_bytes },
	{ 0 },
};
