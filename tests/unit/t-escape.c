// SPDX-License-Identifier: MIT
/* model/escape: what a profile's text becomes before anyone sees it. */
#include "model/escape.h"
#include "model/strbuf.h"
#include "test.h"

/* escape_text() of the NUL-free string S, into a static buffer. */
static const char *esc(const char *s)
{
	static char buf[512];

	escape_text(s, strlen(s), false, buf, sizeof(buf));
	return buf;
}

static void test_controls(void)
{
	CHECK(!escape_needed("aten::mm", 8));
	CHECK(escape_needed("a\x1b[2J", 5));
	CHECK(escape_needed("caf\xc3\xa9", 5));
	CHECK_STR(esc("a\x1b[2Jb"), "a\\x1b[2Jb");
	CHECK_STR(esc("\x07\x7f\t\r\n"), "\\x07\\x7f\\x09\\x0d\\x0a");
	/* The OSC 52 of the issue: nothing of it stays a control. */
	CHECK_STR(esc("x\x1b]52;c;S2luZXRv\x07"), "x\\x1b]52;c;S2luZXRv\\x07");
	/* A C1 control (U+009B, CSI) by its code point, a stray byte by
	 * its value, a lone continuation byte, a truncated sequence. */
	CHECK_STR(esc("x\xc2\x9by\xff"), "x\\x9by\\xff");
	CHECK_STR(esc("\x9b"), "\\x9b");
	CHECK_STR(esc("a\xe4\xb8"), "a\\xe4\\xb8");
	/* Overlong forms and surrogates are not UTF-8. */
	CHECK_STR(esc("\xc0\x9b"), "\\xc0\\x9b");
	CHECK_STR(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	/* Printable text, also beyond ASCII, is kept; so is U+FFFD itself. */
	CHECK_STR(esc("caf\xc3\xa9 \xe4\xb8\xad"), "caf\xc3\xa9 \xe4\xb8\xad");
	CHECK_STR(esc("\xef\xbf\xbd"), "\xef\xbf\xbd");
}

static void test_ascii_only_and_cuts(void)
{
	char b[16];

	escape_text("caf\xc3\xa9\x1b", 6, true, b, sizeof(b));
	CHECK_STR(b, "caf?\\x1b");
	/* Cut at a character boundary when full... */
	escape_text("\xe4\xb8\xad\xe6\x96\x87", 6, false, b, 5);
	CHECK_STR(b, "\xe4\xb8\xad");
	/* ...and never in the middle of an escape. */
	CHECK_EQ(escape_text("ab\x1b", 3, false, b, 6), 2);
	CHECK_STR(b, "ab");
	/* The text may hold NUL bytes: they are controls too. */
	escape_text("a\0b", 3, false, b, sizeof(b));
	CHECK_STR(b, "a\\x00b");
	/* Every byte a control: 4 bytes out for each, and no more. */
	CHECK_EQ(escape_text("\x01\x02\x03", 3, false, b, 3 * ESCAPE_MAX_GROWTH + 1), 12);
}

static void test_add(void)
{
	struct strbuf sb = STRBUF_INIT;

	escape_add(&sb, "", 0);
	CHECK_STR(sb.s, "");
	escape_add(&sb, "ok \x1b[31mred", 11);
	escape_add(&sb, "\xc2\x9b", 2);
	CHECK_STR(sb.s, "ok \\x1b[31mred\\x9b");
	CHECK_EQ(sb.len, strlen(sb.s));
	strbuf_release(&sb);
}

/* What escape_fprintf() wrote, read back. */
static const char *fprintf_result(FILE *f)
{
	static char buf[8192];
	size_t n;

	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_fprintf(void)
{
	FILE *f = tmpfile();
	char big[3000];

	if (!f)
		SKIP("no tmpfile()");
	/* Every argument and the format's own text: the whole message. */
	escape_fprintf(f, "%s:%d: event '%s'", "tr\x1b]0;x\x07.json", 3, "a\x9b\xc2\x9b");
	CHECK_STR(fprintf_result(f), "tr\\x1b]0;x\\x07.json:3: event 'a\\x9b\\x9b'");
	/* Past the small buffer, the same. */
	f = tmpfile();
	if (!f)
		SKIP("no tmpfile()");
	memset(big, 'a', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\x1b';
	big[sizeof(big) - 1] = '\0';
	escape_fprintf(f, "<%s>", big);
	{
		const char *r = fprintf_result(f);

		CHECK_EQ(strlen(r), sizeof(big) - 2 + 4 + 2);
		CHECK(!strchr(r, '\x1b'));
		CHECK(!strcmp(r + strlen(r) - 5, "\\x1b>"));
	}
}

static void test_invisible_class(void)
{
	static const uint32_t in[] = { 0xad, 0x61c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f,
				       0x2028, 0x2029, 0x202a, 0x202e, 0x2060, 0x2064, 0x2066,
				       0x2069, 0xfeff, 0xfff9, 0xe0001, 0xe0020, 0xe007f };
	static const uint32_t out[] = { 'a', 0xa0, 0x300, 0x200a, 0x2010, 0x2027, 0x202f,
					0x205f, 0x2065, 0xfefe, 0xff00, 0xfffc, 0xe0000,
					0xe0080, 0x1f600, 0x4e2d };

	for (size_t i = 0; i < ARRAY_SIZE(in); i++)
		CHECK(escape_is_invisible(in[i]));
	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		CHECK(!escape_is_invisible(out[i]));
	CHECK_STR(esc("x\xe2\x80\xaey"), "x\\u202ey");
	CHECK_STR(esc("\xf3\xa0\x81\xbf"), "\\U000e007f");
}

/* diag: the path and the message, as one escaped line. */
static void test_diag(void)
{
	static const char trace[] =
		"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", "
		"\"name\": \"x\\u001b]0;PWNED\\u0007\", \"ts\": 1, \"dur\": -1}]}";
	const char *path = test_write("t\x1b]0;T\x07.json", trace, sizeof(trace) - 1);
	struct profile p;
	char msg[4096];

	test_load(&p, path, NULL, msg, sizeof(msg));
	profile_release(&p);
	CHECK(!strchr(msg, '\x1b') && !strchr(msg, '\x07'));
	CHECK(strstr(msg, "t\\x1b]0;T\\x07.json:1:18: warning: event 'x\\x1b]0;PWNED\\x07'") != NULL);
	CHECK(msg[0] && msg[strlen(msg) - 1] == '\n');
}

const struct test tests[] = {
	{ "controls, C1 controls and bad bytes are escaped", test_controls },
	{ "ASCII-only terminals, and cuts at a full buffer", test_ascii_only_and_cuts },
	{ "escape_add appends to a strbuf", test_add },
	{ "escape_fprintf escapes the whole message", test_fprintf },
	{ "diag messages are escaped, path included", test_diag },
	{ "bidi controls and zero-width characters are escaped", test_invisible_class },
	{ 0 },
};
