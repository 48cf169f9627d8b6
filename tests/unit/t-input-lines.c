// SPDX-License-Identifier: MIT
/*
 * Lines counted as bytes are taken (input_take() with a place) and a place
 * found back from the end (pos_back()): the chunks of a gzip trace learn
 * their line:col this way, and must get exactly what pos_advance() gives
 * for the same bytes.
 */
#include <stdint.h>
#include <unistd.h>
#include <zlib.h>

#include "parsers/input.h"
#include "test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Kinds of text, as a trace's lines may come. */
enum text_kind { NO_NEWLINE, DENSE, SPARSE, CRLF, ALL_NEWLINES, LAST_BYTE_NEWLINE, NR_KINDS };

static void make_text(char *s, size_t n, enum text_kind kind)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t x = next_random();

		s[i] = (char)('a' + x % 26);
		if ((kind == DENSE && x % 7 == 0) || (kind == SPARSE && x % 1000 == 0))
			s[i] = '\n';
		if (kind == CRLF && x % 9 == 0 && i + 1 < n) {
			s[i++] = '\r';
			s[i] = '\n';
		}
		if (kind == ALL_NEWLINES)
			s[i] = '\n';
	}
	if (kind == LAST_BYTE_NEWLINE && n)
		s[n - 1] = '\n';
}

static bool same_pos(struct pos a, struct pos b)
{
	return a.line == b.line && a.col == b.col;
}

/* pos_back() at every cut of texts of every kind, short and long (past
 * the 16 bytes a step of the counts), at odd alignments. */
static void test_pos_back(void)
{
	static char text[5000 + 2];	/* the longest, from its third byte */
	static const size_t lens[] = { 0, 1, 2, 15, 16, 17, 33, 255, 4097, 4999 };
	bool ok = true;

	for (int kind = 0; kind < NR_KINDS; kind++) {
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			for (size_t from = 0; from < 3; from++) {
				const char *s = text + from;
				size_t n = lens[l];
				struct pos start = { 7, 5 }, end;

				make_text(text, sizeof(text), (enum text_kind)kind);
				if (kind == LAST_BYTE_NEWLINE && n)
					text[from + n - 1] = '\n';
				end = pos_advance(start, s, n);
				for (size_t cut = 0; cut <= n; cut++) {
					struct pos want = pos_advance(start, s, cut);
					struct pos got = pos_back(start, end, s, n, cut);

					if (!same_pos(want, got)) {
						fprintf(stderr, "kind %d n %zu cut %zu: %llu:%llu, want %llu:%llu\n",
							kind, n, cut, (unsigned long long)got.line,
							(unsigned long long)got.col,
							(unsigned long long)want.line,
							(unsigned long long)want.col);
						ok = false;
						break;
					}
				}
			}
		}
	}
	CHECK(ok);
}

struct pieces {
	const char *s;
	size_t len, at;
	size_t max_piece;	/* 1: a byte a piece; else random sizes to this */
};

static bool feed_pieces(void *ctx, struct input *in, const char **seg, size_t *len)
{
	struct pieces *p = ctx;
	size_t n;

	(void)in;
	if (p->at == p->len)
		return false;
	n = p->max_piece == 1 ? 1 : 1 + next_random() % p->max_piece;
	if (n > p->len - p->at)
		n = p->len - p->at;
	*seg = p->s + p->at;
	*len = n;
	p->at += n;
	return true;
}

/* Take all of IN in takes of random sizes up to MAX_TAKE, counting, and
 * check the place after each against pos_advance() over what was taken.
 * TEXT is IN's bytes. */
static bool take_all(struct input *in, const char *text, size_t len, size_t max_take)
{
	static char dst[1 << 20];
	struct pos start = { 3, 9 }, at = start;
	size_t done = 0;

	for (;;) {
		size_t want = 1 + next_random() % max_take, got;

		if (want > sizeof(dst))
			want = sizeof(dst);
		got = input_take(in, dst, want, &at);
		if (got > len - done || memcmp(dst, text + done, got) != 0)
			return false;
		done += got;
		if (!same_pos(at, pos_advance(start, text, done))) {
			fprintf(stderr, "after %zu bytes: %llu:%llu, want %llu:%llu\n", done,
				(unsigned long long)at.line, (unsigned long long)at.col,
				(unsigned long long)pos_advance(start, text, done).line,
				(unsigned long long)pos_advance(start, text, done).col);
			return false;
		}
		if (got < want)
			break;
	}
	return done == len;
}

/* Bytes that come in pieces (of 1 byte, of up to 40), taken in parts
 * that cut pieces anywhere. */
static void test_take_pieces(void)
{
	static char text[20000];
	bool ok = true;

	for (int kind = 0; kind < NR_KINDS && ok; kind++) {
		static const size_t max_piece[] = { 1, 40, 3000 };

		make_text(text, sizeof(text), (enum text_kind)kind);
		for (size_t m = 0; m < 3 && ok; m++) {
			static const size_t max_take[] = { 1, 7, 100, 5000 };

			for (size_t t = 0; t < 4 && ok; t++) {
				struct pieces p = { text, sizeof(text), 0, max_piece[m] };
				struct input in;

				input_open_feed(&in, "t.json", feed_pieces, &p, 0, (struct pos){ 1, 1 });
				ok = take_all(&in, text, sizeof(text), max_take[t]);
				if (!ok)
					fprintf(stderr, "kind %d, pieces to %zu, takes to %zu\n", kind,
						max_piece[m], max_take[t]);
				input_close(&in);
			}
		}
	}
	CHECK(ok);
}

/* Text of KIND into TEXT, written gzipped to PATH and opened into IN
 * with the first 1000 bytes read, as a parser reads up to traceEvents
 * before the chunks.  False when the file could not be written. */
static bool open_gzip_text(const char *path, char *text, size_t len, enum text_kind kind,
			   struct input *in, struct diag *d)
{
	gzFile gz = gzopen(path, "wb1");

	make_text(text, len, kind);
	CHECK(gz != NULL);
	if (!gz)
		return false;
	CHECK(gzwrite(gz, text, (unsigned)len) == (int)len);
	gzclose(gz);
	diag_init(d, path, stderr, NULL);
	CHECK(input_open(in, path, d) == 0);
	CHECK(in->is_gzip);
	input_need(in, 1000);
	in->cur += 1000;
	return true;
}

/* A gzip file through the reading thread: the first bytes from the
 * input's own buffer (read before the reader starts, as a parser reads
 * up to traceEvents), the rest copied out of the reader's ring, in parts
 * that cut its chunks. */
static void test_take_gzip(void)
{
	size_t len = 5u << 20;
	char *text = xmalloc(len);
	char path[512];
	bool ok = true;

	snprintf(path, sizeof(path), "%s/lines.json.gz", test_dir());
	for (int kind = 0; kind < NR_KINDS && ok; kind++) {
		struct input in;
		struct diag d;

		if (!open_gzip_text(path, text, len, (enum text_kind)kind, &in, &d))
			break;
		/* The rest of the buffer taken with the ring's bytes. */
		ok = take_all(&in, text + 1000, len - 1000, 3u << 20);
		if (!ok)
			fprintf(stderr, "kind %d\n", kind);
		input_close(&in);
		diag_finish(&d);
	}
	unlink(path);
	free(text);
	CHECK(ok);
}

/* A gzip file's buffers taken whole (input_take_buffer()), the reading
 * thread's chunks of MOST bytes: the bytes and places as the file's,
 * after a start copied from the input's own buffer, and most of them
 * traded, not copied. */
static void take_buffers(size_t len, size_t most)
{
	char *text = xmalloc(len);
	char path[512];
	bool ok = true;

	snprintf(path, sizeof(path), "%s/lines.json.gz", test_dir());
	for (int kind = 0; kind < NR_KINDS && ok; kind++) {
		struct pos start = { 2, 4 }, at = start;
		char *buf;
		size_t done = 1000, got, nr_traded = 0;
		struct input in;
		struct diag d;

		if (!open_gzip_text(path, text, len, (enum text_kind)kind, &in, &d))
			break;
		CHECK(input_chunk_bytes(&in) == most);
		buf = input_buffer_new();
		while ((got = input_take_buffer(&in, &buf, &at))) {
			if (got > most || got > len - done ||
			    memcmp(buf + INPUT_HEADROOM, text + done, got) != 0) {
				fprintf(stderr, "kind %d: bytes differ after %zu\n", kind, done);
				ok = false;
				break;
			}
			done += got;
			nr_traded += got == most;
			if (!same_pos(at, pos_advance(start, text + 1000, done - 1000))) {
				fprintf(stderr, "kind %d: place differs after %zu\n", kind, done);
				ok = false;
				break;
			}
		}
		ok = ok && done == len && nr_traded >= 2 && !input_failed(&in, &d);
		input_buffer_free(buf);
		input_close(&in);
		diag_finish(&d);
	}
	unlink(path);
	free(text);
	CHECK(ok);
}

static void test_take_buffers(void)
{
	take_buffers(9u << 20, INPUT_READ_BYTES);
}

/* The same with the reader's chunks made small for tests
 * (PROFTUI_READ_CHUNK): a file of a megabyte trades hundreds. */
static void test_take_small_buffers(void)
{
	setenv("PROFTUI_READ_CHUNK", "4099", 1);
	take_buffers(1u << 20, 4099);
	setenv("PROFTUI_READ_CHUNK", "1", 1);	/* raised to 64 */
	take_buffers(300000, 64);
	unsetenv("PROFTUI_READ_CHUNK");
}

/* The bytes of PATH through an input, taken in parts of up to MAX_TAKE
 * (NULL when they are not a prefix of TEXT); their count in *LEN. */
static bool read_prefix(const char *path, const char *text, size_t text_len, size_t max_take,
			size_t *len)
{
	static char dst[1 << 17];
	struct input in;
	struct diag d;
	bool ok = true;
	size_t got;

	diag_init(&d, path, stderr, NULL);
	*len = 0;
	if (input_open(&in, path, &d) != 0)
		return false;
	do {
		size_t want = 1 + next_random() % max_take;

		got = input_take(&in, dst, want < sizeof(dst) ? want : sizeof(dst), NULL);
		if (got > text_len - *len || memcmp(dst, text + *len, got) != 0)
			ok = false;
		*len += got;
	} while (got && ok);
	input_close(&in);
	diag_finish(&d);
	return ok;
}

/*
 * A gzip file cut short gives every byte its stream holds up to the cut,
 * whatever the sizes it is read in and whichever inflater reads it.
 * ISA-L holds back some decoded bytes when it has no room for them; when
 * the file's end came with them, they were lost -- how many depended on
 * where the reading thread's buffers and pieces fell.
 */
static void test_cut_gzip(void)
{
	size_t len = 3u << 20, gz_len;
	char *text = xmalloc(len), *gz;
	char path[512], cut_path[512];
	static const char *const backends[] = { "isal", "zlib" };
	static const char *const chunks[] = { NULL, "4099", "64" };
	static const size_t takes[] = { 7, 5000, 100000 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/whole.json.gz", test_dir());
	snprintf(cut_path, sizeof(cut_path), "%s/cut.json.gz", test_dir());
	gz = xmalloc(len);
	for (size_t i = 0; i < len; i++) {
		/* Text that packs, but not to nothing: lines of numbers. */
		text[i] = i % 61 == 60 ? '\n' : "0123456789,. "[next_random() % 13];
	}
	{
		gzFile z = gzopen(path, "wb6");

		CHECK(z && gzwrite(z, text, (unsigned)len) == (int)len);
		if (z)
			gzclose(z);
	}
	f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	gz_len = fread(gz, 1, len, f);
	fclose(f);
	for (int cut = 1; cut <= 4; cut++) {
		size_t want[ARRAY_SIZE(backends)] = { 0 };

		f = fopen(cut_path, "wb");
		CHECK(f && fwrite(gz, 1, gz_len * cut / 5, f) == gz_len * cut / 5);
		if (f)
			fclose(f);
		for (size_t b = 0; b < ARRAY_SIZE(backends); b++) {
			for (size_t c = 0; c < ARRAY_SIZE(chunks); c++)
				for (size_t t = 0; t < ARRAY_SIZE(takes); t++) {
					size_t got;

					setenv("PROFTUI_GUNZIP", backends[b], 1);
					if (chunks[c])
						setenv("PROFTUI_READ_CHUNK", chunks[c], 1);
					CHECK(read_prefix(cut_path, text, len, takes[t], &got));
					unsetenv("PROFTUI_READ_CHUNK");
					unsetenv("PROFTUI_GUNZIP");
					if (!want[b])
						want[b] = got;
					if (got != want[b])
						fprintf(stderr, "cut at %d/5, %s, chunks of %s, takes of "
							"%zu: %zu bytes, want %zu\n", cut, backends[b],
							chunks[c] ? chunks[c] : "the default", takes[t], got,
							want[b]);
					CHECK(got == want[b]);
				}
			/* Most of what was packed before the cut. */
			CHECK(want[b] > len * (cut - 1) / 5);
		}
		/* The inflaters may differ by the end of what the cut split
		 * (ISA-L stops a byte short of zlib here), not by more. */
		CHECK(want[0] <= want[1] && want[1] - want[0] < 300);
	}
	unlink(path);
	unlink(cut_path);
	free(gz);
	free(text);
}

const struct test tests[] = {
	{ "pos_back() finds what pos_advance() does", test_pos_back },
	{ "input_take() counts pieces as pos_advance()", test_take_pieces },
	{ "input_take() counts a gzip file's ring", test_take_gzip },
	{ "input_take_buffer() trades a gzip file's buffers", test_take_buffers },
	{ "PROFTUI_READ_CHUNK makes the traded buffers small", test_take_small_buffers },
	{ "a cut gzip file gives all it holds, however read", test_cut_gzip },
	{ 0 },
};
