// SPDX-License-Identifier: MIT
/*
 * The reader (parsers/input.c): a gzip cut short reports its error at the
 * same point of the parse on every run, whatever the reader thread's
 * timing (issue 9, item 3).  The traces are made here, with zlib.
 */
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "parsers/input.h"
#include "test.h"

/* A synthetic Kineto trace of NR events, gzipped, in a heap buffer
 * (caller frees); *SIZE gets its length.  Numbers vary as a real trace's
 * do, so it compresses about as well (around 8:1). */
static unsigned char *trace_gz(int nr, size_t *size)
{
	z_stream z;
	char *json = NULL;
	size_t len = 0, cap = 0;
	unsigned char *out;
	uint64_t x = 88172645463325252ULL;

	GROW(json, cap, 64);
	len = (size_t)sprintf(json, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	for (int i = 0; i < nr; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		GROW(json, cap, len + 256);
		len += (size_t)sprintf(json + len,
				       "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op%d\", "
				       "\"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": %d, "
				       "\"args\": {\"External id\": %d}}%s\n",
				       (int)(x % 97), 10 * i, (int)(x >> 40) % 9 + 1, i,
				       i + 1 < nr ? "," : "");
	}
	GROW(json, cap, len + 4);
	len += (size_t)sprintf(json + len, "]}\n");

	memset(&z, 0, sizeof(z));
	CHECK(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	out = xmalloc(deflateBound(&z, len));
	z.next_in = (unsigned char *)json;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)deflateBound(&z, len);
	CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	*size = z.total_out;
	deflateEnd(&z);
	free(json);
	return out;
}

/* A cut of GZ a few KB past the bytes that inflate to the first buffer:
 * input_open() reads that buffer itself and leaves the rest, and soon
 * the cut, to the reader thread. */
static size_t cut_past_first_buffer(const unsigned char *gz, size_t size)
{
	static unsigned char out[INPUT_BUF_BYTES + 1];
	z_stream z;
	size_t cut;

	memset(&z, 0, sizeof(z));
	CHECK(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK);
	z.next_out = out;
	z.avail_out = sizeof(out);
	z.next_in = (unsigned char *)gz;
	while (z.avail_out && z.total_in < size) {
		z.avail_in = 1;
		if (inflate(&z, Z_NO_FLUSH) != Z_OK)
			break;
	}
	cut = z.total_in + 4096;
	inflateEnd(&z);
	CHECK(cut < size / 4);
	return cut;
}

/* Take every byte of IN, as a parser would. */
static void read_all(struct input *in)
{
	while (input_need(in, INPUT_BUF_BYTES))
		in->cur = in->end;
}

/*
 * A gzip cut far past the first buffer: the error is known once its bytes
 * are read, not before.  input_open() starts the reader thread, which hits
 * the cut at once; before the hand-off was made at the end, whether a
 * check right after the open saw the error depended on that thread's luck.
 */
static void test_error_at_the_end(void)
{
	size_t size;
	unsigned char *gz = trace_gz(40000, &size);
	const char *path = test_write("cut-late.json.gz", gz, cut_past_first_buffer(gz, size));
	int early = 0, late = 0;

	for (int run = 0; run < 200; run++) {
		struct input in;
		struct diag d;
		FILE *err = tmpfile();

		diag_init(&d, path, err, NULL);
		CHECK(input_open(&in, path, &d) == 0);
		if (input_failed(&in, &d))
			early++;
		read_all(&in);
		if (input_failed(&in, &d))
			late++;
		input_close(&in);
		diag_finish(&d);
		fclose(err);
	}
	CHECK_EQ(early, 0);
	CHECK_EQ(late, 200);
	free(gz);
}

/* A gzip cut inside the first buffer: input_open() read to the cut
 * itself, so the error is known at once, every time. */
static void test_error_in_first_buffer(void)
{
	size_t size;
	unsigned char *gz = trace_gz(2000, &size);
	const char *path = test_write("cut-early.json.gz", gz, size / 2);
	char msg[1024];
	struct input in;
	struct diag d;
	FILE *err = tmpfile();
	size_t n;

	diag_init(&d, path, err, NULL);
	CHECK(input_open(&in, path, &d) == 0);
	CHECK(in.at_eof);
	CHECK(input_failed(&in, &d));
	input_close(&in);
	diag_finish(&d);
	rewind(err);
	n = fread(msg, 1, sizeof(msg) - 1, err);
	msg[n] = '\0';
	fclose(err);
	CHECK(strstr(msg, "truncated gzip data") != NULL);
	free(gz);
}

/* Everything FILE makes proftui say, and how it ended, in BUF. */
static void run_binary(const char *proftui, const char *path, char *buf, size_t cap)
{
	char cmd[1200];
	FILE *p;
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "timeout 60 %s --print ops %s 2>&1", proftui, path);
	p = popen(cmd, "r");
	n = p ? fread(buf, 1, cap - 64, p) : 0;
	status = p ? pclose(p) : -1;
	snprintf(buf + n, cap - n, "\n[status %d]", status);
}

/*
 * Through the binary, 50 times: one output.  The cut lands just past the
 * first buffer, where the race was (a trace from the corpus cut there
 * gave rows in some runs and only "truncated gzip data" in others).
 */
static void test_same_output_every_run(void)
{
	const char *proftui = getenv("PROFTUI");
	static char first[1 << 16], again[1 << 16];
	unsigned char *gz;
	const char *path;
	size_t size;
	int differ = 0;

	if (!proftui || !*proftui)
		proftui = "build/proftui";
	if (access(proftui, X_OK))
		SKIP("no proftui binary to run (make first)");
	gz = trace_gz(40000, &size);
	path = test_write("cut-race.json.gz", gz, cut_past_first_buffer(gz, size));

	run_binary(proftui, path, first, sizeof(first));
	for (int run = 1; run < 50; run++) {
		run_binary(proftui, path, again, sizeof(again));
		if (strcmp(first, again)) {
			if (!differ++)
				fprintf(stderr, "t-input: run 1 said:\n%s\nrun %d said:\n%s\n", first,
					run + 1, again);
		}
	}
	CHECK_EQ(differ, 0);
	free(gz);
}

/*
 * A profile bigger than the memory there is (ulimit -v 64 MB; this one
 * needs about 120): exit 2, as for any input proftui cannot load, with a
 * message that names the file and how far its load got.
 */
static void test_out_of_memory(void)
{
	const char *proftui = getenv("PROFTUI");
	char path[512], err_path[600], cmd[1600], msg[4096], want[700];
	gzFile gz;
	FILE *f;
	size_t n;
	long size;
	int status;

	if (!proftui || !*proftui)
		proftui = "build/proftui";
	if (access(proftui, X_OK))
		SKIP("no proftui binary to run (make first)");
	snprintf(path, sizeof(path), "%s/big.json.gz", test_dir());
	snprintf(err_path, sizeof(err_path), "%s/big.err", test_dir());
	gz = gzopen(path, "wb6");
	CHECK(gz != NULL);
	if (!gz)
		return;
	gzputs(gz, "{\"traceEvents\": [\n");
	for (int i = 0; i < 500000; i++)
		gzprintf(gz, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", "
			     "\"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1}%s\n",
			 2 * i, i + 1 < 500000 ? "," : "");
	gzputs(gz, "]}\n");
	CHECK(gzclose(gz) == Z_OK);
	f = fopen(path, "rb");
	CHECK(f && !fseek(f, 0, SEEK_END));
	size = f ? ftell(f) : 0;
	if (f)
		fclose(f);

	snprintf(cmd, sizeof(cmd), "ulimit -v 65536 && exec %s --print ops -o /dev/null %s 2>%s",
		 proftui, path, err_path);
	status = system(cmd);
	f = fopen(err_path, "r");
	n = f ? fread(msg, 1, sizeof(msg) - 1, f) : 0;
	msg[n] = '\0';
	if (f)
		fclose(f);
	if (strstr(msg, "Sanitizer"))
		SKIP("a sanitizer's shadow memory does not fit under ulimit -v");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	snprintf(want, sizeof(want), "%s: error: out of memory after reading ", path);
	CHECK(!strncmp(msg, want, strlen(want)));
	snprintf(want, sizeof(want), " of the file's %ld bytes\n", size);
	CHECK(strstr(msg, want) != NULL);
	if (test_failed)
		fprintf(stderr, "t-input: status %d, message '%s'\n", status, msg);
	unlink(path);
	unlink(err_path);
}

/* All of the file GZ (SIZE bytes, written to disk) as input.c gives it,
 * through the decompressor PROFTUI_GUNZIP names; *FAILED gets whether the
 * read ended on an error.  Caller frees. */
static char *inflate_with(const char *backend, const unsigned char *gz, size_t size,
			  size_t *len, bool *failed)
{
	const char *path = test_write("both.json.gz", gz, size);
	struct input in;
	struct diag d;
	char *all = NULL;
	size_t cap = 0;

	setenv("PROFTUI_GUNZIP", backend, 1);
	diag_init(&d, path, NULL, NULL);
	*len = 0;
	*failed = true;
	if (input_open(&in, path, &d) == 0) {
		while (input_need(&in, INPUT_BUF_BYTES)) {
			size_t n = (size_t)(in.end - in.cur);

			GROW(all, cap, *len + n + 1);
			memcpy(all + *len, in.cur, n);
			*len += n;
			in.cur = in.end;
		}
		*failed = input_failed(&in, &d);
		input_close(&in);
	}
	diag_finish(&d);
	unsetenv("PROFTUI_GUNZIP");
	return all;
}

/* ISA-L and zlib give the same bytes and the same verdicts: a whole file,
 * two members one after the other, a file cut short, a corrupt byte. */
static void test_both_decompressors(void)
{
	size_t size, len[2];
	unsigned char *gz = trace_gz(20000, &size), *two = xmalloc(2 * size), *bad = xmalloc(size);
	static const char *const backends[] = { "isa-l", "zlib" };
	struct {
		const unsigned char *data;
		size_t size;
		bool fails;
	} cases[4];

	memcpy(two, gz, size);
	memcpy(two + size, gz, size);
	cases[0].data = gz, cases[0].size = size, cases[0].fails = false;
	cases[1].data = two, cases[1].size = 2 * size, cases[1].fails = false;
	cases[2].data = gz, cases[2].size = size / 2, cases[2].fails = true;
	cases[3].data = bad, cases[3].size = size, cases[3].fails = true;
	memcpy(bad, gz, size);
	bad[size / 3] ^= 0x55;
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		char *out[2];
		bool failed[2];

		for (int b = 0; b < 2; b++)
			out[b] = inflate_with(backends[b], cases[c].data, cases[c].size, &len[b],
					      &failed[b]);
		CHECK_EQ(failed[0], cases[c].fails);
		CHECK_EQ(failed[1], cases[c].fails);
		if (!cases[c].fails) {
			CHECK_EQ(len[0], len[1]);
			CHECK(out[0] && out[1] && !memcmp(out[0], out[1], len[0]));
		}
		if (c == 1)
			CHECK(len[0] > 2 * 20000 * 100);	/* both members */
		free(out[0]);
		free(out[1]);
	}
	free(bad);
	free(two);
	free(gz);
}

/* The bytes read and the text they made, for the loading screen: a gzip
 * file's text is its inflated length, a plain file's its own; with the
 * reader thread and without (input_take(), as the chunked parse reads). */
static void count_bytes(const char *path, bool take, uint64_t *read, uint64_t *plain,
			uint64_t *seen)
{
	struct input in;
	struct diag d;
	FILE *err = tmpfile();
	static char block[100000];
	size_t n;

	*seen = 0;
	diag_init(&d, path, err, NULL);
	CHECK(input_open(&in, path, &d) == 0);
	if (take) {
		while ((n = input_take(&in, block, sizeof(block), NULL)) > 0)
			*seen += n;
	} else {
		while ((n = input_need(&in, INPUT_BUF_BYTES)) > 0) {
			*seen += n;
			in.cur = in.end;
		}
	}
	*read = in.read_bytes;
	*plain = in.plain_bytes;
	input_close(&in);
	diag_finish(&d);
	fclose(err);
}

static void test_bytes_counted(void)
{
	size_t size;
	unsigned char *gz = trace_gz(40000, &size);
	const char *path = test_write("count.json.gz", gz, size);
	uint64_t read, plain, text_len;
	char *text, plain_path[512];

	for (int take = 0; take < 2; take++) {
		count_bytes(path, take, &read, &plain, &text_len);
		CHECK_EQ(read, size);
		CHECK_EQ(plain, text_len);
		CHECK(plain > 4 * read);
	}
	/* The same text, not compressed. */
	text = xmalloc(text_len);
	{
		gzFile z = gzopen(path, "rb");

		CHECK(z && gzread(z, text, (unsigned)text_len) == (int)text_len);
		gzclose(z);
	}
	snprintf(plain_path, sizeof(plain_path), "%s", test_write("count.json", text, text_len));
	for (int take = 0; take < 2; take++) {
		uint64_t again;

		count_bytes(plain_path, take, &read, &plain, &again);
		CHECK_EQ(again, text_len);
		CHECK_EQ(read, text_len);
		CHECK_EQ(plain, text_len);
	}
	free(text);
	free(gz);
}

const struct test tests[] = {
	{ "ISA-L and zlib inflate alike", test_both_decompressors },
	{ "a cut gzip's error comes with its last bytes", test_error_at_the_end },
	{ "a gzip cut in the first buffer fails at once", test_error_in_first_buffer },
	{ "a cut gzip gives one output in 50 runs", test_same_output_every_run },
	{ "out of memory: exit 2, the file and how far", test_out_of_memory },
	{ "the bytes read and the text they made", test_bytes_counted },
	{ 0 },
};
