// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the Kineto load's two-core paths give what the
 * one-thread path gives, whatever the bytes.  The input after a header of
 * two bytes is written to a file and loaded as a Kineto trace five ways:
 * one reader and the link on one thread (the reference), traceEvents read
 * in chunks of two sizes the header picks (64..4096 bytes, forced with
 * PROFTUI_PARSE_CHUNK), the link on two threads (PROFTUI_LINK_THREADS),
 * and chunks with the link on two threads.  Each load's whole text
 * (tests/unit/load-text.h: code, messages with their places, tree, tables,
 * steps, memory events, Info, warnings and their counts) must be the
 * reference's, byte for byte; a difference aborts.  A high bit of the
 * header gzips the file first: chunks of a gzip file count their lines as
 * they are cut, not by reading the file again.
 *
 * One difference is allowed by design (parsers/kineto/kineto_chunks.c): one
 * reader gives a warning the place of its current token, not its event's
 * start, when its buffer was refilled since the event began.  A plain
 * file's first refill is at 64 KB, the end of the read that looks for the
 * gzip magic (input_open()); a gzip file's, at 256 KB of plain bytes
 * (INPUT_BUF_BYTES).  A plain file shorter than 64 KB is read whole at
 * once: inputs here are less than that, and a raw gzip input, whose
 * plain size is anything, is not taken.  So every byte is compared.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tests/unit/load-text.h"

#define HEADER 2
#define MAX_INPUT_BYTES (64 * 1024)	/* less the header: a file under 64 KB */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch_dir[256], scratch_path[300];

static void remove_scratch(void)
{
	unlink(scratch_path);
	rmdir(scratch_dir);
}

/* The file each input is written to, in a directory made once. */
static const char *scratch(void)
{
	if (!scratch_dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(scratch_dir, sizeof(scratch_dir), "%s/fuzz-kineto-ways-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch_dir)) {
			perror(scratch_dir);
			abort();
		}
		snprintf(scratch_path, sizeof(scratch_path), "%s/trace.json", scratch_dir);
		atexit(remove_scratch);
	}
	return scratch_path;
}

/* DATA[0..SIZE) as a gzip member, in *OUT (caller frees); its size. */
static size_t gzip(const uint8_t *data, size_t size, uint8_t **out)
{
	z_stream z = { 0 };
	size_t cap;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	cap = deflateBound(&z, size);
	*out = malloc(cap);
	if (!*out)
		abort();
	z.next_in = (uint8_t *)data;
	z.avail_in = (uInt)size;
	z.next_out = *out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	cap = z.total_out;
	deflateEnd(&z);
	return cap;
}

static void write_file(const char *path, const uint8_t *data, size_t size, bool gzipped)
{
	uint8_t *z = NULL;
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		abort();
	}
	if (gzipped)
		size = gzip(data, size, &z);
	if (size && fwrite(z ? z : data, 1, size, f) != size) {
		perror(path);
		abort();
	}
	fclose(f);
	free(z);
}

/* The load of PATH with traceEvents in chunks of CHUNK bytes ("0": one
 * reader) and the link on LINK threads. */
static char *load_way(const char *path, const char *chunk, const char *link)
{
	char *text;

	setenv("PROFTUI_LINK_THREADS", link, 1);
	text = load_text(path, "PROFTUI_PARSE_CHUNK", chunk);
	unsetenv("PROFTUI_LINK_THREADS");
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char small[16], large[16];
	const char *const ways[][2] = { { small, "1" }, { large, "1" }, { "0", "2" },
					{ small, "2" } };
	const char *path;
	char *want;
	bool gzipped;

	if (size < HEADER || size > MAX_INPUT_BYTES)
		return 0;
	if (size >= HEADER + 2 && data[HEADER] == 0x1f && data[HEADER + 1] == 0x8b)
		return 0;	/* gzip of any plain size: see the top */
	/* Small chunks cut a small trace in many places; large ones leave
	 * a few elements whole, and the reading in file order runs long. */
	snprintf(small, sizeof(small), "%d", 64 + data[0] % 192);
	snprintf(large, sizeof(large), "%d", 256 + (data[1] & 0x7f) * 30);
	gzipped = data[1] & 0x80;
	path = scratch();
	write_file(path, data + HEADER, size - HEADER, gzipped);
	want = load_way(path, "0", "1");
	for (size_t i = 0; i < ARRAY_SIZE(ways); i++) {
		char *got = load_way(path, ways[i][0], ways[i][1]);

		if (strcmp(want, got)) {
			const char *w = want, *g = got;

			while (*w && *w == *g)
				w++, g++;
			fprintf(stderr, "%s file, chunks of %s bytes (0: one reader), link on %s "
				"thread(s): differs from one reader, one thread at byte %zu:\n"
				"  want: %.300s\n  got:  %.300s\n", gzipped ? "gzip" : "plain",
				ways[i][0], ways[i][1], (size_t)(w - want), w, g);
			abort();
		}
		free(got);
	}
	free(want);
	return 0;
}
