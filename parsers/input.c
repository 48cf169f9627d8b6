// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "gunzip.h"
#include "input.h"

/* Report progress every this many bytes read from disk. */
#define PROGRESS_EVERY (8u << 20)

static ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* N more bytes of the file read, which made PLAIN bytes of text. */
static void note_read(struct input *in, size_t n, size_t plain)
{
	uint64_t before = in->read_bytes;

	/* Atomic: die() may read it from another thread (util.h). */
	__atomic_store_n(&in->read_bytes, before + n, __ATOMIC_RELAXED);
	in->plain_bytes += plain;
	if (in->progress && before / PROGRESS_EVERY != in->read_bytes / PROGRESS_EVERY) {
		struct load_progress lp = { in->read_bytes, in->size_bytes, in->plain_bytes };

		in->progress(in->progress_ctx, &lp);
	}
}

/*
 * Why the reading side stopped early.  It is handed to the parser with the
 * last bytes (under the reader's lock, see fill()), never written where
 * the parser may be reading: whether a parser saw the error must not
 * depend on how far ahead the reader thread had got.
 */
struct fault {
	int error;		/* errno of a failed read */
	const char *msg;	/* a bad or cut gzip stream */
};

/* Read raw bytes into DST; returns bytes read, 0 at end or on error
 * (noted in *F).  *RAW counts them for the progress bar. */
static size_t read_raw(struct input *in, void *dst, size_t n, uint64_t *raw, struct fault *f)
{
	ssize_t r = read_some(in->fd, dst, n);

	if (r < 0) {
		f->error = errno;
		return 0;
	}
	*raw += (uint64_t)r;
	return (size_t)r;
}

/* Lines are counted as the bytes are inflated, this many at a time. */
#define COUNT_PIECE (64u << 10)

/*
 * Produce up to SPACE plain (decompressed) bytes at DST: all of SPACE
 * unless the input ends first, which sets *EOF (and *F if it ended on an
 * error).  *RAW gets the bytes read from the file.  SPAN, unless NULL,
 * is moved past the bytes of a gzip stream as pos_advance() would, a
 * piece at a time as it is inflated and still in the cache.  Touches
 * only the producing side of IN (fd, z, zin): with a reader thread, only
 * that thread calls it.
 */
static size_t produce(struct input *in, char *dst, size_t space, uint64_t *raw, bool *eof,
		      struct fault *f, struct pos *span)
{
	size_t done = 0, room = space;
	char *out = dst;

	if (!in->is_gzip) {
		while (done < space) {
			size_t r = read_raw(in, dst + done, space - done, raw, f);

			if (!r) {
				*eof = true;
				break;
			}
			done += r;
		}
		return done;
	}
	while (room) {
		const char *err = NULL;
		char *piece = out;
		enum gunzip_status st;
		bool file_ended = false;

		if (!in->zin_avail) {
			in->zin_next = in->zin;
			in->zin_avail = read_raw(in, in->zin, sizeof(in->zin), raw, f);
			/* The file ends mid-stream.  The inflater may still hold
			 * text it had no room for (ISA-L keeps some back): run it
			 * with no input until it gives nothing, or the end of a
			 * cut file loses what it decoded. */
			file_ended = !in->zin_avail;
		}
		if (span) {
			/* Pieces small enough to be counted in the cache. */
			size_t piece_room = room < COUNT_PIECE ? room : COUNT_PIECE;

			room -= piece_room;
			st = gunzip_run(in->z, &in->zin_next, &in->zin_avail, &out, &piece_room, &err);
			room += piece_room;
			*span = pos_advance(*span, piece, (size_t)(out - piece));
		} else {
			st = gunzip_run(in->z, &in->zin_next, &in->zin_avail, &out, &room, &err);
		}
		if (st == GUNZIP_MEMBER_END) {
			/* Another gzip member may follow (gzip files can be
			 * concatenated); anything else after the end is ignored. */
			if (!in->zin_avail) {
				in->zin_next = in->zin;
				in->zin_avail = read_raw(in, in->zin, sizeof(in->zin), raw, f);
			}
			if (in->zin_avail >= 2 && in->zin_next[0] == 0x1f && in->zin_next[1] == 0x8b) {
				gunzip_reset(in->z);
				continue;
			}
			*eof = true;
			break;
		}
		if (st == GUNZIP_ERROR) {
			f->msg = err;
			*eof = true;
			break;
		}
		if (file_ended && out == piece) {
			if (!f->error)
				f->msg = "truncated gzip data (the file ends mid-stream)";
			*eof = true;
			break;
		}
	}
	return (size_t)(out - dst);
}

/*
 * The reader's buffers come from the system and go back to it, as the
 * parse chunks' do (kineto_chunks.c, which trades its own for them):
 * from malloc(), the first free() of one would raise glibc's threshold
 * for mapping large blocks, and blocks allocated after it would stay in
 * the heap, freed but counted.  The room before the bytes is not
 * touched, so costs no memory, unless a caller writes there.
 */
char *input_buffer_new(void)
{
	void *p = mmap(NULL, INPUT_BUFFER_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("out of memory (a %u-byte read buffer)", (unsigned)INPUT_BUFFER_BYTES);
	return p;
}

void input_buffer_free(char *buf)
{
	if (buf)
		munmap(buf, INPUT_BUFFER_BYTES);
}

/*
 * The reader thread: reading and decompressing run on the second core
 * while the parser works on the first -- inflate alone is about a second
 * per GB, so a gzipped trace loads almost as fast as a plain one.  It
 * fills a ring of chunks; fill() copies them into the parser's buffer,
 * and input_take_buffer() hands them over whole.  Each chunk's bytes are
 * INPUT_READ_BYTES at INPUT_HEADROOM into a buffer of INPUT_BUFFER_BYTES.
 */
#define NR_CHUNKS 2

struct reader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more, room;	/* a chunk was filled / emptied */
	struct chunk {
		char *data;		/* the buffer; its bytes at INPUT_HEADROOM */
		size_t len;
		uint64_t raw;		/* file bytes read to make it */
		bool counted;		/* span holds where its bytes get */
		struct pos span;	/* from { 0, 0 }, as pos_advance() counts */
	} ring[NR_CHUNKS];
	size_t head, tail, nr_full;	/* chunks [tail, head) are full */
	size_t off;			/* bytes of ring[tail] already taken */
	bool done;			/* the input ended: no chunk after these */
	struct fault fault;		/* why, when it ended early; set with done */
	bool stop;			/* input_close(): stop reading */
	bool count;			/* count the lines of the chunks filled */
	size_t chunk_bytes;		/* a chunk's bytes at most (input_chunk_bytes()) */
};

static void *reader_main(void *arg)
{
	struct input *in = arg;
	struct reader *r = in->reader;

	for (;;) {
		struct chunk *c;
		struct fault f = { 0, NULL };
		bool eof = false;

		pthread_mutex_lock(&r->lock);
		while (r->nr_full == NR_CHUNKS && !r->stop)
			pthread_cond_wait(&r->room, &r->lock);
		if (r->stop) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		c = &r->ring[r->head];
		c->counted = r->count;
		pthread_mutex_unlock(&r->lock);

		c->raw = 0;
		c->span = (struct pos){ 0, 0 };
		c->len = produce(in, c->data + INPUT_HEADROOM, r->chunk_bytes, &c->raw, &eof, &f,
				 c->counted ? &c->span : NULL);

		pthread_mutex_lock(&r->lock);
		r->head = (r->head + 1) % NR_CHUNKS;
		r->nr_full++;
		r->done = eof;
		r->fault = f;
		pthread_cond_signal(&r->more);
		pthread_mutex_unlock(&r->lock);
		if (eof)
			break;
	}
	return NULL;
}

static void reader_free(struct reader *r)
{
	for (int i = 0; i < NR_CHUNKS; i++)
		input_buffer_free(r->ring[i].data);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->more);
	pthread_cond_destroy(&r->room);
	free(r);
}

/*
 * The bytes of a reader's chunk: INPUT_READ_BYTES, or for tests what
 * PROFTUI_READ_CHUNK says (64 up to that): small chunks let a small gzip
 * file go through the path that trades whole buffers
 * (input_take_buffer(), kineto_chunks.c), which else only a file of
 * megabytes reaches.
 */
static size_t reader_chunk_bytes(void)
{
	const char *env = getenv("PROFTUI_READ_CHUNK");
	long v;

	if (!env || !*env)
		return INPUT_READ_BYTES;
	v = atol(env);
	return v < 64 ? 64 : v > (long)INPUT_READ_BYTES ? INPUT_READ_BYTES : (size_t)v;
}

size_t input_chunk_bytes(const struct input *in)
{
	return in->reader ? in->reader->chunk_bytes : INPUT_READ_BYTES;
}

static void reader_start(struct input *in)
{
	struct reader *r = xcalloc(1, sizeof(*r));

	r->chunk_bytes = reader_chunk_bytes();
	for (int i = 0; i < NR_CHUNKS; i++)
		r->ring[i].data = input_buffer_new();
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->more, NULL);
	pthread_cond_init(&r->room, NULL);
	in->reader = r;
	if (thread_start(&r->thread, reader_main, in) != 0) {
		/* No thread: read in this one, as before. */
		in->reader = NULL;
		reader_free(r);
	}
}

static void reader_stop(struct input *in)
{
	struct reader *r = in->reader;

	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_signal(&r->room);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	reader_free(r);
	in->reader = NULL;
}

/*
 * The newlines in the N bytes at S.  Kineto's pretty-printing ends a line
 * every 60 bytes or so, too often for a memchr() per line: 64 bytes a
 * step, in four lanes of 16 counted apart (one adding to the next would
 * wait on it), each byte of each ACC counting the newlines of its column
 * for up to 255 steps.
 */
static uint64_t count_newlines(const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	uint64_t nr = 0;

#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (end - p >= 16) {
		size_t steps = (size_t)(end - p) / 64;
		__m128i a = zero, b = zero, c = zero, d = zero, sum;
		uint64_t lanes[2];

		if (steps > 255)
			steps = 255;
		for (size_t i = 0; i < steps; i++, p += 64) {
			a = _mm_sub_epi8(a, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), nl));
			b = _mm_sub_epi8(b, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), nl));
			c = _mm_sub_epi8(c, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), nl));
			d = _mm_sub_epi8(d, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), nl));
		}
		/* Fewer than 64 bytes left: 16 at a time. */
		if (!steps)
			for (; end - p >= 16; p += 16)
				a = _mm_sub_epi8(a, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), nl));
		sum = _mm_add_epi64(_mm_add_epi64(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero)),
				    _mm_add_epi64(_mm_sad_epu8(c, zero), _mm_sad_epu8(d, zero)));
		_mm_storeu_si128((__m128i *)lanes, sum);
		nr += lanes[0] + lanes[1];
	}
#endif
	for (; p < end; p++)
		nr += *p == '\n';
	return nr;
}

/* The last newline in the N bytes at S, or NULL: a pretty-printed
 * trace has one near the end, a compact one may have none for MBs. */
static const char *last_newline(const char *s, size_t n)
{
	const char *p = s + n;

#ifdef __SSE2__
	while (p - s >= 16) {
		unsigned mask = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p - 16)), _mm_set1_epi8('\n')));

		if (mask)
			return p - 16 + (31 - __builtin_clz(mask));
		p -= 16;
	}
#endif
	while (p > s)
		if (*--p == '\n')
			return p;
	return NULL;
}

/*
 * Copy N bytes from SRC to DST and move AT past them, as pos_advance()
 * would: one pass over bytes that would otherwise be read twice, once
 * to copy them and once more to count their newlines.
 */
static void copy_counting(char *dst, const char *src, size_t n, struct pos *at)
{
	size_t i = 0;
	uint64_t nr_lines = 0;

#ifdef __SSE2__
	while (n - i >= 16) {
		size_t steps = (n - i) / 16;
		__m128i acc = _mm_setzero_si128();
		uint64_t lanes[2];

		if (steps > 255)
			steps = 255;
		for (size_t k = 0; k < steps; k++, i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(src + i));

			_mm_storeu_si128((__m128i *)(dst + i), v);
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
		}
		_mm_storeu_si128((__m128i *)lanes, _mm_sad_epu8(acc, _mm_setzero_si128()));
		nr_lines += lanes[0] + lanes[1];
	}
#endif
	for (; i < n; i++) {
		dst[i] = src[i];
		nr_lines += src[i] == '\n';
	}
	if (!nr_lines) {
		at->col += n;
		return;
	}
	at->line += nr_lines;
	at->col = (uint64_t)(dst + n - last_newline(dst, n));
}

/* The reader's next full chunk, waited for; NULL at the end, which sets
 * at_eof and hands over the fault, if any. */
static struct chunk *next_chunk(struct input *in)
{
	struct reader *r = in->reader;
	struct chunk *c = NULL;

	pthread_mutex_lock(&r->lock);
	while (!r->nr_full && !r->done)
		pthread_cond_wait(&r->more, &r->lock);
	if (r->nr_full) {
		c = &r->ring[r->tail];
	} else {
		/* Done, and every chunk taken: the fault comes with the end. */
		in->error = r->fault.error;
		in->error_msg = r->fault.msg;
		in->at_eof = true;
	}
	pthread_mutex_unlock(&r->lock);
	return c;
}

/* Give C, the reader's next chunk, taken to its end, back to it. */
static void chunk_done(struct input *in, struct chunk *c)
{
	struct reader *r = in->reader;

	note_read(in, c->raw, c->len);
	pthread_mutex_lock(&r->lock);
	r->tail = (r->tail + 1) % NR_CHUNKS;
	r->nr_full--;
	r->off = 0;
	pthread_cond_signal(&r->room);
	pthread_mutex_unlock(&r->lock);
}

/* Move up to SPACE plain bytes to DST, from wherever this input gets
 * them; sets at_eof (and the fault) at the end.  AT, unless NULL, is
 * moved past them. */
static size_t pull(struct input *in, char *dst, size_t space, struct pos *at)
{
	struct reader *r = in->reader;
	struct chunk *c;
	size_t n;

	if (in->feed) {
		while (!in->seg_len) {
			if (!in->feed(in->feed_ctx, in, &in->seg, &in->seg_len)) {
				in->at_eof = true;
				return 0;
			}
		}
		n = in->seg_len < space ? in->seg_len : space;
		if (at)
			copy_counting(dst, in->seg, n, at);
		else
			memcpy(dst, in->seg, n);
		in->seg += n;
		in->seg_len -= n;
		return n;
	}
	if (!r) {
		struct fault f = { 0, NULL };
		bool eof = false;
		uint64_t raw = 0;

		n = produce(in, dst, space, &raw, &eof, &f, NULL);
		note_read(in, raw, n);
		in->at_eof = eof;
		in->error = f.error;
		in->error_msg = f.msg;
		if (at)
			*at = pos_advance(*at, dst, n);
		return n;
	}
	c = next_chunk(in);
	if (!c)
		return 0;
	n = c->len - r->off < space ? c->len - r->off : space;
	if (at)
		copy_counting(dst, c->data + INPUT_HEADROOM + r->off, n, at);
	else
		memcpy(dst, c->data + INPUT_HEADROOM + r->off, n);
	r->off += n;
	if (r->off == c->len)
		chunk_done(in, c);
	return n;
}

/* Append plain bytes at in->end; sets at_eof at the end. */
static void fill(struct input *in)
{
	size_t space = in->cap - (size_t)(in->end - in->buf);

	if (in->at_eof || !space)
		return;
	in->end += pull(in, in->end, space, NULL);
}

static void account(struct input *in, const char *upto);

/*
 * A plain file's reading thread only copies: input_take() reads straight
 * into the caller's memory instead, on its own thread, which has the time.
 * Stop the reading thread, keeping what it read in the buffer.
 */
static void reader_retire(struct input *in)
{
	struct reader *r = in->reader;
	size_t extra = 0, avail = (size_t)(in->end - in->cur);

	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_signal(&r->room);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	for (size_t i = 0, k = r->tail; i < r->nr_full; i++, k = (k + 1) % NR_CHUNKS)
		extra += r->ring[k].len - (i ? 0 : r->off);
	if (in->cur != in->buf) {
		account(in, in->cur);
		memmove(in->buf, in->cur, avail);
		in->cur = in->buf;
		in->end = in->buf + avail;
	}
	if (avail + extra > in->cap) {
		in->cap = avail + extra;
		in->buf = in->cur = xrealloc(in->buf, in->cap + 1);
		in->end = in->buf + avail;
	}
	for (size_t i = 0, k = r->tail; i < r->nr_full; i++, k = (k + 1) % NR_CHUNKS) {
		size_t from = i ? 0 : r->off;

		memcpy(in->end, r->ring[k].data + INPUT_HEADROOM + from, r->ring[k].len - from);
		in->end += r->ring[k].len - from;
		note_read(in, r->ring[k].raw, r->ring[k].len);
	}
	if (r->done) {
		in->at_eof = true;
		in->error = r->fault.error;
		in->error_msg = r->fault.msg;
	}
	reader_free(r);
	in->reader = NULL;
}

size_t input_take(struct input *in, char *dst, size_t n, struct pos *at)
{
	size_t got;

	if (in->reader && !in->is_gzip)
		reader_retire(in);
	got = (size_t)(in->end - in->cur) < n ? (size_t)(in->end - in->cur) : n;
	if (at)
		copy_counting(dst, in->cur, got, at);
	else
		memcpy(dst, in->cur, got);
	in->cur += got;
	if (got == n)
		return got;
	/* The buffer is empty: the rest goes straight to DST, and the empty
	 * buffer stands at the next unread byte.  One grown to take what the
	 * reading thread had read (reader_retire()) is not filled again: its
	 * megabytes go back now, not when the input closes.  Shrunk, not
	 * freed: glibc's free() of a large block would raise its threshold
	 * for mapping large blocks, and heap blocks freed later would stay
	 * counted. */
	in->buf_offset += (uint64_t)(in->end - in->buf);
	if (in->cap > INPUT_BUF_BYTES && !in->borrowed) {
		in->cap = INPUT_BUF_BYTES;
		in->buf = xrealloc(in->buf, in->cap + 1);
	}
	in->cur = in->end = in->buf;
	while (got < n && !in->at_eof) {
		size_t k = pull(in, dst + got, n - got, at);

		got += k;
		in->buf_offset += k;
	}
	return got;
}

static struct pos pos_after(struct pos at, struct pos span)
{
	if (!span.line)
		return (struct pos){ at.line, at.col + span.col };
	return (struct pos){ at.line + span.line, span.col };
}

size_t input_take_buffer(struct input *in, char **buf, struct pos *at)
{
	struct reader *r = in->reader;
	size_t avail = (size_t)(in->end - in->cur), n;
	size_t most = input_chunk_bytes(in);
	struct chunk *c;
	char *filled;

	if (!r || !in->is_gzip)
		return input_take(in, *buf + INPUT_HEADROOM, most, at);
	/* The bytes before a whole chunk of the reader's: copied. */
	if (avail)
		return input_take(in, *buf + INPUT_HEADROOM,
				  avail < most ? avail : most, at);
	pthread_mutex_lock(&r->lock);
	r->count = true;
	pthread_mutex_unlock(&r->lock);
	c = next_chunk(in);
	if (!c)
		return 0;
	if (r->off || !c->counted || !c->len)
		return input_take(in, *buf + INPUT_HEADROOM,
				  c->len > r->off ? c->len - r->off : most, at);
	/* A whole chunk, its lines counted: trade buffers, no copy. */
	n = c->len;
	filled = c->data;
	c->data = *buf;
	*buf = filled;
	if (at)
		*at = pos_after(*at, c->span);
	/* The empty buffer stands at the next unread byte, as after
	 * input_take(). */
	in->buf_offset += (uint64_t)(in->end - in->buf) + n;
	in->cur = in->end = in->buf;
	chunk_done(in, c);
	return n;
}

void input_restart(struct input *in, char *bytes, size_t len, uint64_t offset, struct pos at)
{
	size_t rest = (size_t)(in->end - in->cur);
	size_t cap = len + rest > INPUT_BUF_BYTES ? len + rest : INPUT_BUF_BYTES;
	char *buf = xmalloc(cap + 1);

	if (len)
		memcpy(buf, bytes, len);
	memcpy(buf + len, in->cur, rest);
	free(bytes);
	if (!in->borrowed)
		free(in->buf);
	in->borrowed = false;
	in->buf = in->cur = buf;
	in->end = buf + len + rest;
	in->cap = cap;
	in->buf_offset = offset;
	if (!in->lines_from) {
		in->buf_line = at.line;
		in->buf_col = at.col;
	}
	if (in->reader) {
		/* Nobody takes the chunks whole now. */
		pthread_mutex_lock(&in->reader->lock);
		in->reader->count = false;
		pthread_mutex_unlock(&in->reader->lock);
	}
}

void input_open_view(struct input *in, const char *path, const char *data, size_t len,
		     uint64_t offset, struct pos at)
{
	memset(in, 0, offsetof(struct input, zin));
	in->path = path;
	in->fd = -1;
	in->borrowed = true;
	in->buf = in->cur = (char *)data;
	in->end = in->buf + len;
	in->cap = len;
	in->at_eof = true;
	in->buf_offset = offset;
	in->buf_line = at.line;
	in->buf_col = at.col;
}

void input_open_feed(struct input *in, const char *path,
		     bool (*feed)(void *ctx, struct input *in, const char **seg, size_t *len),
		     void *ctx, uint64_t offset, struct pos at)
{
	memset(in, 0, offsetof(struct input, zin));
	in->path = path;
	in->fd = -1;
	in->feed = feed;
	in->feed_ctx = ctx;
	in->cap = INPUT_BUF_BYTES;
	in->buf = in->cur = in->end = xmalloc(in->cap + 1);
	in->buf_offset = offset;
	in->buf_line = at.line;
	in->buf_col = at.col;
}

int input_open(struct input *in, const char *path, struct diag *d)
{
	struct fault f = { 0, NULL };
	struct stat st;

	memset(in, 0, offsetof(struct input, zin));
	in->path = path;
	in->buf_line = 1;
	in->buf_col = 1;
	if (!strcmp(path, "-")) {
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			diag_error(d, NULL, "cannot open: %s", strerror(errno));
			return -1;
		}
	}
	if (fstat(in->fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			diag_error(d, NULL, "is a directory, not a profile");
			input_close(in);
			return -1;
		}
		if (S_ISREG(st.st_mode)) {
			in->size_bytes = (uint64_t)st.st_size;
			in->can_reread = true;
		}
	}
	/* Out of memory from here on names this file, and how far it got. */
	die_set_load(path, &in->read_bytes, in->size_bytes);
	in->cap = INPUT_BUF_BYTES;
	in->buf = in->cur = in->end = xmalloc(in->cap + 1);

	/* Sniff the gzip magic from the raw bytes. */
	{
		uint64_t raw = 0;
		size_t n = read_raw(in, in->zin, sizeof(in->zin), &raw, &f);
		bool gzip = n >= 2 && in->zin[0] == 0x1f && in->zin[1] == 0x8b;

		note_read(in, raw, gzip ? 0 : n);
		if (gzip) {
			in->z = gunzip_new();
			in->zin_next = in->zin;
			in->zin_avail = n;
			in->is_gzip = true;
		} else {
			memcpy(in->buf, in->zin, n);
			in->end += n;
			if (!n)
				in->at_eof = true;
		}
	}
	if (f.error) {
		diag_error(d, NULL, "cannot read: %s", strerror(f.error));
		input_close(in);
		return -1;
	}
	input_need(in, INPUT_PROBE_BYTES);
	if (!in->at_eof)
		reader_start(in);
	return 0;
}

void input_open_mem(struct input *in, const char *path, const void *data, size_t len)
{
	memset(in, 0, offsetof(struct input, zin));
	in->path = path;
	in->fd = -1;
	in->buf_line = 1;
	in->buf_col = 1;
	in->cap = len > INPUT_BUF_BYTES ? len : INPUT_BUF_BYTES;
	in->buf = in->cur = xmalloc(in->cap + 1);
	memcpy(in->buf, data, len);
	in->end = in->buf + len;
	in->at_eof = true;
	in->size_bytes = len;
}

void input_close(struct input *in)
{
	if (in->reader)
		reader_stop(in);
	if (in->fd >= 0)
		die_load_done(in->read_bytes);
	gunzip_free(in->z);
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	if (!in->borrowed)
		free(in->buf);
	in->buf = in->cur = in->end = NULL;
	in->z = NULL;
	in->fd = -1;
}

struct pos pos_advance(struct pos at, const char *s, size_t n)
{
	uint64_t nr_lines = count_newlines(s, n);

	if (!nr_lines) {
		at.col += n;
		return at;
	}
	at.line += nr_lines;
	at.col = (uint64_t)(s + n - last_newline(s, n));
	return at;
}

struct pos pos_back(struct pos start, struct pos end, const char *s, size_t n, size_t cut)
{
	uint64_t after = count_newlines(s + cut, n - cut);
	const char *nl;

	if (end.line - after == start.line)
		return (struct pos){ start.line, start.col + cut };
	nl = last_newline(s, cut);
	return (struct pos){ end.line - after, (uint64_t)(s + cut - nl) };
}

/* Move the line count past the bytes [in->buf, upto). */
static void account(struct input *in, const char *upto)
{
	if (!in->lines_from) {
		struct pos at = { in->buf_line, in->buf_col };

		at = pos_advance(at, in->buf, (size_t)(upto - in->buf));
		in->buf_line = at.line;
		in->buf_col = at.col;
	}
	in->buf_offset += (uint64_t)(upto - in->buf);
}

size_t input_need(struct input *in, size_t n)
{
	size_t avail = (size_t)(in->end - in->cur);

	if (avail >= n || in->at_eof)
		return avail;
	if (in->cur != in->buf) {
		account(in, in->cur);
		memmove(in->buf, in->cur, avail);
		in->cur = in->buf;
		in->end = in->buf + avail;
	}
	if (n > in->cap) {
		size_t cap = in->cap;

		while (cap < n)
			cap *= 2;
		in->buf = xrealloc(in->buf, cap + 1);
		in->cur = in->buf;
		in->end = in->buf + avail;
		in->cap = cap;
	}
	/* Fill the whole buffer: fewer, larger reads. */
	while ((size_t)(in->end - in->buf) < in->cap && !in->at_eof)
		fill(in);
	return (size_t)(in->end - in->cur);
}

struct pos input_pos(const struct input *in, const char *p)
{
	struct pos at = { in->buf_line, in->buf_col };

	if (p < in->buf || p > in->end)
		p = in->buf;
	if (in->lines_from)
		return input_pos_at(in->lines_from, in->buf_offset + (uint64_t)(p - in->buf));
	return pos_advance(at, in->buf, (size_t)(p - in->buf));
}

bool input_lines_by_need(struct input *in)
{
	if (!in->can_reread || in->is_gzip || in->lines_from)
		return in->lines_from != NULL;
	/* From the buffer's start: places of the bytes still in it may be
	 * asked for too. */
	in->first_off = in->known_off = in->buf_offset;
	in->first_at = in->known_at = (struct pos){ in->buf_line, in->buf_col };
	in->lines_from = in;
	return true;
}

void input_lines_from(struct input *in, struct input *file)
{
	in->lines_from = file;
}

struct pos input_pos_at(struct input *in, uint64_t off)
{
	char block[64 * 1024];
	uint64_t at_off = in->known_off;
	struct pos at = in->known_at;

	/* Places are asked for in file order, nearly always; an earlier
	 * one is counted again from the start. */
	if (off < at_off) {
		at_off = in->first_off;
		at = in->first_at;
		if (off < at_off)
			return at;
	}
	while (at_off < off) {
		size_t want = off - at_off < sizeof(block) ? (size_t)(off - at_off) : sizeof(block);
		ssize_t r;

		do
			r = pread(in->fd, block, want, (off_t)at_off);
		while (r < 0 && errno == EINTR);
		if (r <= 0)
			break;	/* the file shrank under us: the best we know */
		at = pos_advance(at, block, (size_t)r);
		at_off += (uint64_t)r;
	}
	in->known_off = at_off;
	in->known_at = at;
	return at;
}

bool input_failed(struct input *in, struct diag *d)
{
	if (in->error) {
		diag_error(d, NULL, "read error: %s", strerror(in->error));
		return true;
	}
	if (in->error_msg) {
		diag_error(d, NULL, "%s", in->error_msg);
		return true;
	}
	return false;
}

/* After a line cut at INPUT_MAX_SPAN: drop the rest of it, so the next
 * line returned is the next line of the file and numbers stay right. */
static void skip_rest_of_line(struct input *in)
{
	for (;;) {
		char *nl = memchr(in->cur, '\n', (size_t)(in->end - in->cur));

		if (nl) {
			in->cur = nl + 1;
			break;
		}
		in->cur = in->end;
		if (in->at_eof || !input_need(in, INPUT_BUF_BYTES / 2))
			break;
	}
	in->in_cut_line = false;
}

char *input_line(struct input *in, size_t *len)
{
	size_t scanned = 0;
	char *nl, *line;
	bool cut = false;

	if (in->in_cut_line)
		skip_rest_of_line(in);
	for (;;) {
		size_t avail = (size_t)(in->end - in->cur);
		size_t look = avail < INPUT_MAX_SPAN ? avail : INPUT_MAX_SPAN;

		nl = memchr(in->cur + scanned, '\n', look - scanned);
		if (nl)
			break;
		scanned = look;
		if (in->at_eof || avail >= INPUT_MAX_SPAN) {
			if (!avail)
				return NULL;
			/* Last line without "\n", or a line cut at the bound. */
			cut = avail >= INPUT_MAX_SPAN;
			nl = in->cur + look;
			break;
		}
		input_need(in, avail + 1 > INPUT_BUF_BYTES / 2 ? avail * 2 : INPUT_BUF_BYTES / 2);
	}
	line = in->cur;
	*len = (size_t)(nl - line);
	in->cur = nl < in->end && !cut ? nl + 1 : nl;
	if (cut) {
		in->in_cut_line = true;
		in->nr_cut_lines++;
	}
	if (*len && line[*len - 1] == '\r')
		(*len)--;
	line[*len] = '\0';
	in->lineno++;
	return line;
}

size_t input_head(struct input *in, const char **head)
{
	size_t n;

	/* The rest of a line cut at INPUT_MAX_SPAN is never read: the head
	 * is what comes after it, as input_line() will return it.  Else a
	 * table after a line over 4 MB would go unseen by detection. */
	if (in->in_cut_line) {
		skip_rest_of_line(in);
		input_need(in, INPUT_PROBE_BYTES);
	}
	n = (size_t)(in->end - in->cur);

	*head = in->cur;
	return n < INPUT_PROBE_BYTES ? n : INPUT_PROBE_BYTES;
}
