/* SPDX-License-Identifier: MIT */
/*
 * input: a streaming reader over a plain or gzip file (detected by its
 * magic bytes, never by its name) with fixed-size buffers, so a 10 GB trace
 * is read with a few hundred KB of memory.  It also keeps the line count,
 * so parsers turn any pointer into the buffer into a line:col for messages
 * without tracking positions in their hot loops -- or, on a plain file,
 * counts lines only when a message needs a place (input_lines_by_need()).
 *
 * Two ways to read, not to be mixed on one input:
 *   - bytes: in->cur..in->end are unread bytes; input_need() makes more
 *     available (moving the buffer: pointers into it become invalid);
 *   - lines: input_line() returns one line at a time.
 */
#ifndef PARSERS_INPUT_H
#define PARSERS_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* How far a load has got, for a progress bar: what the input reports
 * through its progress hook. */
struct load_progress {
	uint64_t done, total;		/* bytes of the file read, of its size
					   (0: not known, a pipe) */
	uint64_t plain;			/* bytes of text they held: more than
					   DONE when the file is compressed */
};

#define INPUT_BUF_BYTES (256 * 1024)
/* The longest line or token a parser may ask for at once. */
#define INPUT_MAX_SPAN (4 * 1024 * 1024)

struct input {
	const char *path;
	int fd;
	struct gunzip *z;		/* the decompressor when is_gzip */
	const unsigned char *zin_next;	/* compressed bytes not yet inflated, */
	size_t zin_avail;		/* in zin[] */
	bool is_gzip;
	bool at_eof;			/* nothing more to read into buf */
	/* Why the input ended early; set with at_eof, in the parser's
	 * thread (the reader thread hands them over with the last bytes). */
	int error;			/* errno-style code of a read failure */
	const char *error_msg;		/* zlib's message for a bad stream */

	char *buf, *cur, *end;		/* buf..end holds data; cur: unread */
	size_t cap;

	uint64_t buf_line;		/* line number of buf[0] */
	uint64_t buf_col;		/* column of buf[0], 1-based */
	uint64_t buf_offset;		/* uncompressed offset of buf[0] */
	/* Lines counted by need (input_lines_by_need()): buf_line and
	 * buf_col are then unused, and a place is found by reading the file
	 * of LINES_FROM again, from the last place found there. */
	struct input *lines_from;	/* NULL: lines are counted as read */
	bool can_reread;		/* a plain regular file: pread() works */
	uint64_t known_off, first_off;	/* places known in this input's file */
	struct pos known_at, first_at;

	uint64_t lineno;		/* input_line(): the line just returned */
	uint64_t nr_cut_lines;		/* input_line(): lines cut at INPUT_MAX_SPAN */
	bool in_cut_line;		/* the rest of a cut line is still to skip */

	uint64_t size_bytes;		/* file size on disk, 0 if unknown */
	uint64_t read_bytes;		/* bytes read from disk so far */
	uint64_t plain_bytes;		/* ...and the plain bytes they made */
	/* Called now and then while reading; for the progress bar. */
	void (*progress)(void *ctx, const struct load_progress *lp);
	void *progress_ctx;
	struct reader *reader;		/* the reading thread, when there is one */
	bool borrowed;			/* buf is the caller's (input_open_view) */
	/* input_open_feed(): the bytes come in segments from FEED, which
	 * returns false at the end (and may set error/error_msg then). */
	bool (*feed)(void *ctx, struct input *in, const char **seg, size_t *len);
	void *feed_ctx;
	const char *seg;		/* the segment being read */
	size_t seg_len;

	unsigned char zin[64 * 1024];	/* compressed input chunk */
};

/* Open PATH ("-" is stdin) and read the first chunk.  On failure print
 * "PATH: error: ..." through D (missing file, a directory, unreadable, a
 * broken gzip header) and return -1. */
int input_open(struct input *in, const char *path, struct diag *d);
/* Read the LEN bytes at DATA (copied) as if they were the file PATH; for
 * fuzz targets and unit tests.  Plain bytes only, no gzip. */
void input_open_mem(struct input *in, const char *path, const void *data, size_t len);
void input_close(struct input *in);

/*
 * For parsing one file on several threads (kineto_chunks.c).  A chunk of
 * the file, already in memory at DATA, read as the whole input: no copy,
 * the caller keeps DATA alive until input_close().  OFFSET and AT are the
 * place of DATA[0] in the file, so positions and marks are the file's.
 */
void input_open_view(struct input *in, const char *path, const char *data, size_t len,
		     uint64_t offset, struct pos at);
/* An input whose bytes FEED hands over in segments (each valid until the
 * next call), starting at OFFSET and AT of the file. */
void input_open_feed(struct input *in, const char *path,
		     bool (*feed)(void *ctx, struct input *in, const char **seg, size_t *len),
		     void *ctx, uint64_t offset, struct pos at);
/* Move up to N unread bytes to DST, past the buffer where it can (one copy
 * less), and return how many; fewer only at the end of the input.  The
 * input's lines are not counted: the caller says where reading goes on
 * with input_restart() before anything asks for a position.  AT, unless
 * NULL, is moved past the bytes taken as pos_advance() would, counted as
 * they are copied. */
size_t input_take(struct input *in, char *dst, size_t n, struct pos *at);
/*
 * For a consumer that takes a gzip file's bytes in large pieces
 * (kineto_chunks.c): the reading thread fills buffers of
 * INPUT_BUFFER_BYTES with up to INPUT_READ_BYTES each, after
 * INPUT_HEADROOM bytes it leaves free for the caller to put bytes of its
 * own in front.  input_take_buffer() takes the input's next bytes, up to
 * the end of such a buffer, into *BUF (one from input_buffer_new()) at
 * INPUT_HEADROOM: a whole buffer of the reader's is traded for *BUF,
 * without a copy, its lines counted by the reading thread as it filled
 * it; other bytes (the input's own buffer, a gzip file's first bytes)
 * are copied.  Returns how many, 0 only at the end.  AT as input_take().
 */
#define INPUT_HEADROOM (64u << 10)
#define INPUT_READ_BYTES (1u << 20)
#define INPUT_BUFFER_BYTES (INPUT_HEADROOM + INPUT_READ_BYTES + 1)
size_t input_take_buffer(struct input *in, char **buf, struct pos *at);
/* The most bytes input_take_buffer() gives at once: INPUT_READ_BYTES
 * unless a test asked the reading thread for smaller pieces. */
size_t input_chunk_bytes(const struct input *in);
char *input_buffer_new(void);
void input_buffer_free(char *buf);
/* Go on reading at OFFSET (line and column AT, unused when IN counts
 * lines by need): first the LEN bytes at BYTES (heap, taken over), then
 * what input_take() left.  For the bytes taken but not used. */
void input_restart(struct input *in, char *bytes, size_t len, uint64_t offset, struct pos at);

/* Make at least N unread bytes available at in->cur, fewer only at the
 * end of the input.  Returns how many are available.  May move the
 * buffer: pointers into it are invalid afterwards (offsets stay valid). */
size_t input_need(struct input *in, size_t n);
/* The position of P, a pointer into buf..end.  Where lines are counted
 * by need, this reads the file again and notes the place found in the
 * input that owns it (so one thread at a time per file). */
struct pos input_pos(const struct input *in, const char *p);
/*
 * Stop counting lines in IN, a plain regular file, from its buffer on: a
 * position there or past it is then found only when asked for (an error
 * or a warning), by reading the file again from the last place found.
 * Saves a scan of every byte for the newlines when nothing needs a place.
 * False, and lines are counted as before, when the file cannot be read
 * again (gzip, a pipe).
 */
bool input_lines_by_need(struct input *in);
/* For IN, an input over bytes of FILE's (input_open_view(),
 * input_open_feed() with FILE's offsets), when FILE counts lines by need:
 * IN's positions are found in FILE, the same way. */
void input_lines_from(struct input *in, struct input *file);
/* The position of the file offset OFF in IN, which counts lines by need
 * (OFF past where it began to: its buffer then). */
struct pos input_pos_at(struct input *in, uint64_t off);
/* Where reading the N bytes at S gets to from AT (lines and 1-based
 * columns, as every position in a message counts them). */
struct pos pos_advance(struct pos at, const char *s, size_t n);
/* The place of S[CUT], from START, the place of S[0], and END, the place
 * of S[N]: reads the bytes after CUT, and back from it to a newline. */
struct pos pos_back(struct pos start, struct pos end, const char *s, size_t n, size_t cut);
/* Whether reading stopped on an error (a truncated gzip, EIO); if so,
 * diag_error() through D says why.  Known once the bytes before the error
 * are in the buffer (in->at_eof), never earlier: with a reader thread the
 * error comes with the last bytes, so the answer at any point of a parse
 * is the same on every run, however far ahead that thread had got. */
bool input_failed(struct input *in, struct diag *d);

/* The next line without its "\n" or "\r\n", NUL-terminated, or NULL at the
 * end.  *LEN gets its length; in->lineno its number.  Valid until the next
 * call.  A line longer than INPUT_MAX_SPAN is cut there: its first
 * INPUT_MAX_SPAN bytes come back, the rest is skipped, and
 * in->nr_cut_lines counts it (parsers may warn). */
char *input_line(struct input *in, size_t *len);

/* The first bytes of the file (after decompression) for probing: up to
 * INPUT_PROBE_BYTES, without consuming them; after input_line() cut a
 * line, the bytes after that line.  64 KB rather than one: the
 * text formats arrive inside logs and documents, with pages of prose or
 * warnings before the first line a parser can recognise. */
#define INPUT_PROBE_BYTES (64 * 1024)
size_t input_head(struct input *in, const char **head);

#endif
