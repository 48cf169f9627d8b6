// SPDX-License-Identifier: MIT
/*
 * traceEvents on two cores.  Tokenizing is most of a load and one thread
 * can only do it in order, so the array is cut into chunks of a few MB
 * and two worker threads read them ahead, each with a reader of its own
 * (tokenizer, name buffer, text scratch, counts of unused events); this
 * thread cuts the chunks and hands the workers' blocks, warnings and
 * counts over in file order, so the model sees the same events, with the
 * same ordinals, as from one reader.
 *
 * A chunk starts at a guess: a '{' after '}', ',' and spaces, which is an
 * element of the array unless it sits in a string or deeper in an event.
 * The guess is taken only when the reading of the chunk before, itself
 * taken, ends an element right there.  When it does not, that reading
 * stopped at the end of its bytes in the middle of an element (it never
 * reads past its chunk): then this thread reads on in file order, through
 * the chunks after, until an element ends exactly where a chunk starts,
 * and the workers' results for the chunks it read through are dropped.
 * A worker's error or warning counts only once its chunk is taken; its
 * place is worked out then: by reading the file again up to it (input.h,
 * lines by need), or, where that cannot be done (gzip, a pipe), from the
 * chunk's bytes and its place, counted as the chunks are cut.
 *
 * Memory: the chunks cut and not yet handed over (MAX_AHEAD of them, or
 * MAX_AHEAD_GZIP; an element longer than that frees the ones it spans as
 * it is read) and their blocks; the file itself is never held.
 *
 * Not the same as one reader in one case: a warning's place.  One reader
 * gives the place of the current token instead of the event's start when
 * the event began before its buffer was last refilled -- at 64 KB into a
 * plain file (the read that looks for the gzip magic), 256 KB into a
 * gzip file's plain bytes, and every time the 256 KB buffer runs dry
 * after; a chunk keeps its bytes, so its warnings always give the
 * event's start.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../model/util.h"
#include "kineto_int.h"

/* A gzip file's chunks are the reading thread's buffers, taken whole.  A
 * plain file's are read into buffers of their own, smaller: MAX_AHEAD of
 * them and their blocks are held at once, at the load's peak. */
#define CHUNK_BYTES INPUT_READ_BYTES
#define PLAIN_CHUNK_BYTES (1u << 20)
/* Smaller files (their plain size; a gzip file counts 4 times its own)
 * take one reader: the threads would cost more than they buy. */
#define MIN_PARALLEL_BYTES (24u << 20)
#define NR_WORKERS 2
#define MAX_AHEAD 4
/* A gzip file's chunks come inflated on the input's own thread, which
 * holds two more in its ring: one chunk less ahead keeps its load's peak
 * as low as a plain file's, at no cost in time (the inflating thread,
 * not the readers, sets the pace). */
#define MAX_AHEAD_GZIP 3
/* How far past an element to look for the next one's '{': the spaces
 * between two elements are few, and a longer gap only costs a guess. */
#define PEEK_LIMIT (64u << 10)

enum chunk_state { CH_QUEUED, CH_RUNNING, CH_DONE };

enum chunk_end {
	END_CLEAN,		/* an element ended where the next chunk starts */
	END_INCOMPLETE,		/* the bytes ran out inside an element, or
				   the tokenizer failed (maybe for that) */
	END_ARRAY,		/* traceEvents ended at end_off */
	END_REDO,		/* the reading could not be merged: read it again */
};

struct chunk {
	char *buf;			/* the memory data is in, */
	size_t buf_bytes;		/* ...this many bytes of it */
	char *data;
	size_t len;
	uint64_t offset;		/* of data[0] in the file */
	struct pos at;			/* ...and its line and column */
	bool first;			/* starts just after the '[' */
	bool start_known;		/* starts where an element may: the first
					   chunk, or one after a cut */
	bool cut;			/* ends before a guessed element */
	int state;			/* enum chunk_state, under the lock */
	int dead;			/* read through in file order: the
					   worker's result is not wanted */

	/* The worker's result, once CH_DONE. */
	enum chunk_end end;
	struct reader_out out;
	struct unused *unused;
	uint32_t nr_events;
	uint64_t nr_gpu_step_copies;
	int64_t origin_ns;
	uint64_t quirks[3];		/* raw controls, bare words, trailing commas */
	uint64_t resume;		/* where the last whole element ended */
	bool resume_after;		/* ...which there was (else the start) */
	uint64_t end_off;		/* END_ARRAY: just past the ']' */
	struct json jend;		/* ...and the tokenizer there */
};

struct chunks {
	struct kineto *k;
	struct input *in;		/* the file's, read by this thread */
	const char *path;
	struct json base;		/* the tokenizer as traceEvents opened */
	size_t chunk_bytes;
	bool whole;			/* the chunks are the reader's buffers
					   (input_take_buffer()) */
	size_t buf_bytes;		/* the size of a chunk's buffer */

	pthread_mutex_t lock;
	pthread_cond_t work, done;	/* a chunk to read / a chunk read */
	pthread_t threads[NR_WORKERS];
	int nr_threads;
	bool stop;

	struct chunk **v;		/* by number, NULL once freed */
	size_t nr, alloc;
	size_t frontier;		/* the next chunk to hand over */
	bool eof;			/* the input has no byte left to cut */
	size_t max_ahead;		/* chunks cut and not handed over, at most */
	char *spare[MAX_AHEAD];		/* chunk buffers to fill again: fresh
					   pages cost a fault each */
	int nr_spare;
	char *carry;			/* bytes after the last cut, for the next */
	size_t carry_len;
	uint64_t next_offset;		/* of the next chunk */
	struct pos next_at;
	struct pos taken_at;		/* the place after the carry */
	bool next_known;

	/* The reading in file order (read_on()). */
	size_t feed_next;		/* the chunk its input takes next */
	const char *feed_start;		/* its first bytes, */
	size_t feed_len;		/* from the chunk it starts in */
	size_t check;			/* the next chunk whose start it checks */
};

size_t kineto_chunk_bytes(const struct kineto *k)
{
	const char *env = getenv("PROFTUI_PARSE_CHUNK");
	const struct input *in = k->j.in;
	uint64_t plain;

	if (env && *env) {
		/* For tests: chunks this small, whatever the file. */
		long v = atol(env);

		return v <= 0 ? 0 : v < 64 ? 64 : (size_t)v;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	plain = in->is_gzip ? in->size_bytes * 4 : in->size_bytes;
	if (plain < MIN_PARALLEL_BYTES)
		return 0;
	return in->is_gzip ? CHUNK_BYTES : PLAIN_CHUNK_BYTES;
}

/* Whether the file's lines are counted as its chunks are cut, each chunk
 * knowing its place (c->at): a gzip file or a pipe.  Else they are
 * counted by need (input_lines_by_need()), from the file. */
static bool lines_known(const struct chunks *cs)
{
	return !cs->in->lines_from;
}

/* The place of file offset OFF, inside chunk C. */
static struct pos pos_in(const struct chunks *cs, const struct chunk *c, uint64_t off)
{
	if (!lines_known(cs))
		return input_pos_at(cs->in, off);
	return pos_advance(c->at, c->data, (size_t)(off - c->offset));
}

static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The last '{' in the second half of S[0..N) that follows '}', ',' and
 * spaces, or 0 for none. */
static size_t find_cut(const char *s, size_t n)
{
	for (size_t i = n; i-- > n / 2 && i > 0;) {
		size_t p = i;

		if (s[i] != '{')
			continue;
		while (p > 0 && is_space(s[p - 1]))
			p--;
		if (p == 0 || s[p - 1] != ',')
			continue;
		p--;
		while (p > 0 && is_space(s[p - 1]))
			p--;
		if (p > 0 && s[p - 1] == '}')
			return i;
	}
	return 0;
}

/*
 * Chunk buffers come from the system and go back to it: from malloc(),
 * the first free() of one would raise glibc's threshold for mapping large
 * blocks, and the model's blocks after it would stay in the heap, freed
 * but counted, at the load's peak.
 */
static char *buffer_new(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("out of memory (a %zu-byte chunk of the trace)", n);
	return p;
}

static void buffer_free(char *p, size_t n)
{
	munmap(p, n);
}

static void spare_or_free(struct chunks *cs, char *buf, size_t bytes)
{
	if (bytes == cs->buf_bytes && (size_t)cs->nr_spare < cs->max_ahead)
		cs->spare[cs->nr_spare++] = buf;
	else
		buffer_free(buf, bytes);
}

/*
 * The next chunk's bytes, the carry first: a whole buffer of the reading
 * thread's, the carry put in the room before its bytes, where it can;
 * else copied out of the input.
 */
static size_t take_bytes(struct chunks *cs, struct chunk *c)
{
	size_t n = cs->carry_len, got;
	char *buf = cs->nr_spare ? cs->spare[--cs->nr_spare] : buffer_new(cs->buf_bytes);
	struct pos *at = lines_known(cs) ? &cs->taken_at : NULL;

	if (!cs->whole) {
		c->buf = c->data = buf;
		c->buf_bytes = cs->buf_bytes;
		memcpy(c->data, cs->carry, n);
		n += input_take(cs->in, c->data + n, cs->chunk_bytes - n, at);
		if (n < cs->chunk_bytes)
			cs->eof = true;
		return n;
	}
	got = input_take_buffer(cs->in, &buf, at);
	if (!got)
		cs->eof = true;
	if (n <= INPUT_HEADROOM) {
		c->buf = buf;
		c->buf_bytes = cs->buf_bytes;
		c->data = buf + INPUT_HEADROOM - n;
		memcpy(c->data, cs->carry, n);
	} else {
		/* An element cut over 64 KB from its end: a buffer of its
		 * own, once in a while. */
		c->buf_bytes = n + got + 1;
		c->buf = c->data = buffer_new(c->buf_bytes);
		memcpy(c->data, cs->carry, n);
		memcpy(c->data + n, buf + INPUT_HEADROOM, got);
		spare_or_free(cs, buf, cs->buf_bytes);
	}
	return n + got;
}

/* Take the next chunk's bytes from the input and publish it. */
static void cut_chunk(struct chunks *cs)
{
	struct chunk *c = xcalloc(1, sizeof(*c));
	size_t n, cut;

	n = take_bytes(cs, c);
	c->offset = cs->next_offset;
	c->at = lines_known(cs) ? cs->next_at : (struct pos){ 0, 0 };
	c->first = cs->nr == 0;
	c->start_known = cs->next_known;
	c->origin_ns = INT64_MAX;
	c->unused = kineto_unused_new();	/* here, not in a worker's arena */
	cut = cs->eof ? 0 : find_cut(c->data, n);
	c->cut = cut > 0;
	c->len = cut ? cut : n;
	cs->carry_len = n - c->len;
	memcpy(cs->carry, c->data + c->len, cs->carry_len);
	cs->next_known = c->cut;
	cs->next_offset += c->len;
	/* Counting every chunk's newlines is a scan of the whole file: only
	 * when they cannot be counted later, by need (input.h), and then as
	 * the bytes are taken; the carry is read again, back from the end. */
	if (lines_known(cs))
		cs->next_at = pos_back(c->at, cs->taken_at, c->data, n, c->len);

	pthread_mutex_lock(&cs->lock);
	GROW(cs->v, cs->alloc, cs->nr + 1);
	cs->v[cs->nr++] = c;
	pthread_cond_broadcast(&cs->work);
	pthread_mutex_unlock(&cs->lock);
}

static void free_chunk(struct chunks *cs, size_t i)
{
	struct chunk *c = cs->v[i];

	if (!c)
		return;
	/* Out of the workers' sight first: next_job() looks at every one. */
	pthread_mutex_lock(&cs->lock);
	cs->v[i] = NULL;
	pthread_mutex_unlock(&cs->lock);
	kineto_drop_blocks(cs->k, c->out.first);
	kineto_out_release(&c->out);
	free(c->unused);
	spare_or_free(cs, c->buf, c->buf_bytes);
	free(c);
}

/* ---------------------------------------------------------------------
 * The workers
 */

/* After each element a worker reads: note where it ended, and stop at
 * the end of the chunk when the next one starts right there. */
static bool chunk_boundary(struct kineto *wk)
{
	struct chunk *c = wk->boundary_ctx;
	struct input *in = wk->j.in;

	if (__atomic_load_n(&c->dead, __ATOMIC_RELAXED))
		return true;
	if (kineto_unused_overflowed(wk->unused)) {
		c->end = END_REDO;
		return true;
	}
	c->resume = in->buf_offset + (uint64_t)(in->cur - in->buf);
	c->resume_after = true;
	c->quirks[0] = wk->j.nr_raw_control;
	c->quirks[1] = wk->j.nr_bare_words;
	c->quirks[2] = wk->j.nr_empty_trailing;
	if (c->cut && (size_t)(in->end - in->cur) <= PEEK_LIMIT &&
	    json_peek_element(&wk->j, PEEK_LIMIT) == c->offset + c->len) {
		c->end = END_CLEAN;
		return true;
	}
	return false;
}

static void read_chunk(struct chunks *cs, struct chunk *c)
{
	struct kineto wk = { .pipe = cs->k->pipe, .out = &c->out, .origin_ns = INT64_MAX,
			     .unused = c->unused, .at_boundary = chunk_boundary,
			     .boundary_ctx = c };
	struct input in;
	enum json_tok t;

	input_open_view(&in, cs->path, c->data, c->len, c->offset, c->at);
	json_init(&wk.j, &in, NULL);
	json_fork(&wk.j, &cs->base, c->first ? JSON_FORK_FIRST : JSON_FORK_NEXT);
	wk.j.quiet = true;
	c->resume = c->offset;
	c->end = END_INCOMPLETE;
	t = kineto_read_list(&wk);
	kineto_flush_reader(&wk);
	if (t == JSON_ARR_END) {
		c->end = END_ARRAY;
		c->end_off = in.buf_offset + (uint64_t)(in.cur - in.buf);
		c->jend = wk.j;
		c->jend.scratch = NULL;
		c->quirks[0] = wk.j.nr_raw_control;
		c->quirks[1] = wk.j.nr_bare_words;
		c->quirks[2] = wk.j.nr_empty_trailing;
	} else if (t != JSON_OBJ_END) {
		/*
		 * The end of the bytes, or an error, which may be only the
		 * end seen early ("tru" of a cut "true"): the reading in file
		 * order goes on from the last whole element, and says so if
		 * it is one.
		 */
		c->end = END_INCOMPLETE;
	}
	c->nr_events = wk.nr_events;
	c->nr_gpu_step_copies = wk.nr_gpu_step_copies;
	c->origin_ns = wk.origin_ns;
	free(wk.name_buf);
	strbuf_release(&wk.dims_text);
	strbuf_release(&wk.coll_text);
	strbuf_release(&wk.dtype_text);
	strbuf_release(&wk.stack_text);
	free(wk.ctr);
	strbuf_release(&wk.ctr_keys);
	strbuf_release(&wk.ctr_key);
	json_release(&wk.j);
	input_close(&in);
}

/* The first chunk a worker may read: queued, not dead, with a start an
 * element may have, and not too far ahead. */
static struct chunk *next_job(struct chunks *cs)
{
	size_t end = cs->frontier + cs->max_ahead < cs->nr ? cs->frontier + cs->max_ahead : cs->nr;

	for (size_t i = cs->frontier; i < end; i++) {
		struct chunk *c = cs->v[i];

		if (c && c->state == CH_QUEUED && c->start_known &&
		    !__atomic_load_n(&c->dead, __ATOMIC_RELAXED))
			return c;
	}
	return NULL;
}

static void *worker_main(void *arg)
{
	struct chunks *cs = arg;

	pthread_mutex_lock(&cs->lock);
	for (;;) {
		struct chunk *c = NULL;

		while (!cs->stop && !(c = next_job(cs)))
			pthread_cond_wait(&cs->work, &cs->lock);
		if (!c)
			break;
		c->state = CH_RUNNING;
		pthread_mutex_unlock(&cs->lock);

		read_chunk(cs, c);

		pthread_mutex_lock(&cs->lock);
		c->state = CH_DONE;
		pthread_cond_broadcast(&cs->done);
	}
	pthread_mutex_unlock(&cs->lock);
	return NULL;
}

/* ---------------------------------------------------------------------
 * Handing over, in file order
 */

/* Give the chunk's warnings to the diag as one reader would have. */
static void replay_warnings(struct chunks *cs, const struct chunk *c)
{
	struct diag *d = cs->k->d;

	for (size_t i = 0; i < c->out.nr_warnings; i++) {
		const struct kept_warning *w = &c->out.warnings[i];
		struct pos at = { 0, 0 };

		if (diag_would_print(d, w->kind))
			at = pos_in(cs, c, w->mark);
		diag_warn(d, &at, w->kind, "%s", w->msg);
	}
	/* Past the first DIAG_SHOW_PER_KIND of a kind: counted, not printed. */
	for (size_t i = 0; i < c->out.nr_kinds; i++)
		for (uint64_t n = 0; n < c->out.kinds[i].nr_more; n++)
			diag_warn(d, NULL, c->out.kinds[i].kind, "%s", "");
}

static void hand_over(struct chunks *cs, struct chunk *c)
{
	struct kineto *k = cs->k;

	replay_warnings(cs, c);
	kineto_hand_blocks(k, c->out.first, k->nr_events);
	c->out.first = c->out.last = NULL;
	k->nr_events += c->nr_events;
	if (c->unused)
		kineto_unused_merge(k->unused, c->unused);
	if (c->origin_ns < k->origin_ns)
		k->origin_ns = c->origin_ns;
	k->nr_gpu_step_copies += c->nr_gpu_step_copies;
	k->j.nr_raw_control += c->quirks[0];
	k->j.nr_bare_words += c->quirks[1];
	k->j.nr_empty_trailing += c->quirks[2];
}

/* Mark chunk I read through; free it unless a worker still reads it. */
static void pass_chunk(struct chunks *cs, size_t i)
{
	struct chunk *c = cs->v[i];
	bool running;

	if (!c)
		return;
	pthread_mutex_lock(&cs->lock);
	__atomic_store_n(&c->dead, 1, __ATOMIC_RELAXED);
	running = c->state == CH_RUNNING;
	pthread_mutex_unlock(&cs->lock);
	if (!running)
		free_chunk(cs, i);
}

/*
 * The file's input goes on at OFFSET (line and column AT) with the bytes
 * taken but not read: HEAD (HEAD_LEN of them), the chunks from FROM on,
 * and the carry.
 */
static void give_back(struct chunks *cs, const char *head, size_t head_len, size_t from,
		      uint64_t offset, struct pos at)
{
	size_t len = head_len + cs->carry_len;
	char *bytes, *p;

	for (size_t i = from; i < cs->nr; i++)
		len += cs->v[i] ? cs->v[i]->len : 0;
	p = bytes = xmalloc(len + 1);
	if (head_len)
		memcpy(p, head, head_len);
	p += head_len;
	for (size_t i = from; i < cs->nr; i++) {
		if (cs->v[i]) {
			memcpy(p, cs->v[i]->data, cs->v[i]->len);
			p += cs->v[i]->len;
		}
	}
	memcpy(p, cs->carry, cs->carry_len);
	input_restart(cs->in, bytes, len, offset, at);
}

/* The input of the reading in file order: the rest of the chunk it
 * starts in, then whole chunks, cut as needed. */
static bool feed(void *ctx, struct input *in, const char **seg, size_t *len)
{
	struct chunks *cs = ctx;
	uint64_t here = in->buf_offset + (uint64_t)(in->cur - in->buf);
	struct chunk *c;

	/* A chunk that starts before the token being read is no element's
	 * start: free it now, or an element of many chunks would hold them
	 * all. */
	while (cs->check + 1 < cs->feed_next && cs->v[cs->check]->offset < here)
		pass_chunk(cs, cs->check++);
	if (cs->feed_start) {
		*seg = cs->feed_start;
		*len = cs->feed_len;
		cs->feed_start = NULL;
		return true;
	}
	while (cs->feed_next >= cs->nr) {
		if (cs->eof) {
			/* Why the file's input ended, as it would say it. */
			in->error = cs->in->error;
			in->error_msg = cs->in->error_msg;
			return false;
		}
		cut_chunk(cs);
	}
	c = cs->v[cs->feed_next++];
	*seg = c->data;
	*len = c->len;
	return true;
}

/* After each element read in file order: stop where a chunk starts. */
static bool order_boundary(struct kineto *k)
{
	struct chunks *cs = k->boundary_ctx;
	struct input *in = k->j.in;
	uint64_t here = in->buf_offset + (uint64_t)(in->cur - in->buf), next;
	uint64_t start = cs->check < cs->nr ? cs->v[cs->check]->offset : cs->next_offset;

	if (start > here + PEEK_LIMIT)
		return false;	/* no chunk starts near: not worth a look */
	next = json_peek_element(&k->j, PEEK_LIMIT);
	if (next == UINT64_MAX)
		return false;
	/* The chunks this reading went past hold no element start. */
	while (cs->check < cs->nr && cs->v[cs->check]->offset < next) {
		if (cs->check < cs->feed_next - 1)
			pass_chunk(cs, cs->check);
		else
			__atomic_store_n(&cs->v[cs->check]->dead, 1, __ATOMIC_RELAXED);
		cs->check++;
	}
	return cs->check < cs->nr && cs->v[cs->check]->offset == next &&
	       cs->v[cs->check]->start_known;
}

/*
 * Chunk C ended inside an element: read on from its last whole element,
 * in file order on this thread, with the reader of K (so warnings and
 * blocks go straight out) until an element ends where a chunk starts.
 * Returns JSON_OBJ_END with cs->frontier at that chunk, or how
 * traceEvents ended (the file's tokenizer then goes on after it).
 */
static enum json_tok read_on(struct chunks *cs, struct chunk *c)
{
	struct kineto *k = cs->k;
	struct json file_j = k->j;
	struct input in;
	enum json_tok t;
	size_t at = cs->frontier;

	cs->feed_start = c->data + (c->resume - c->offset);
	cs->feed_len = c->len - (size_t)(c->resume - c->offset);
	cs->feed_next = at + 1;
	cs->check = at + 1;
	input_open_feed(&in, cs->path, feed, cs, c->resume, lines_known(cs) ?
			pos_in(cs, c, c->resume) : (struct pos){ 0, 0 });
	if (!lines_known(cs))
		input_lines_from(&in, cs->in);
	json_init(&k->j, &in, k->d);
	json_fork(&k->j, &cs->base, c->resume_after ? JSON_FORK_AFTER : c->first
		  ? JSON_FORK_FIRST : JSON_FORK_NEXT);
	k->at_boundary = order_boundary;
	k->boundary_ctx = cs;
	t = kineto_read_list(k);
	k->at_boundary = NULL;
	kineto_flush_reader(k);

	file_j.nr_raw_control += k->j.nr_raw_control;
	file_j.nr_bare_words += k->j.nr_bare_words;
	file_j.nr_empty_trailing += k->j.nr_empty_trailing;
	if (t == JSON_OBJ_END) {
		/* Chunks before the one it stopped at are read through. */
		for (size_t i = at + 1; i < cs->check; i++)
			pass_chunk(cs, i);
		pthread_mutex_lock(&cs->lock);
		cs->frontier = cs->check;
		pthread_mutex_unlock(&cs->lock);
	} else if (t == JSON_ARR_END) {
		uint64_t off = in.buf_offset + (uint64_t)(in.cur - in.buf);
		size_t rest = (size_t)(in.end - in.cur);
		char *head = xmalloc(rest + in.seg_len + 1);

		memcpy(head, in.cur, rest);
		memcpy(head + rest, in.seg, in.seg_len);
		give_back(cs, head, rest + in.seg_len, cs->feed_next, off,
			  lines_known(cs) ? input_pos(&in, in.cur) : (struct pos){ 0, 0 });
		free(head);
		json_resume(&file_j, &k->j);
	} else if (t == JSON_EOF) {
		give_back(cs, NULL, 0, cs->nr, in.buf_offset + (uint64_t)(in.end - in.buf),
			  lines_known(cs) ? input_pos(&in, in.end) : (struct pos){ 0, 0 });
	}
	json_release(&k->j);
	input_close(&in);
	k->j = file_j;
	if (t == JSON_EOF)
		t = json_end_truncated(&k->j);
	return t;
}

/* Wait until the chunk to hand over next is read; read it here when no
 * worker could be started. */
static struct chunk *wait_for_frontier(struct chunks *cs)
{
	struct chunk *c = cs->v[cs->frontier];

	if (!cs->nr_threads) {
		read_chunk(cs, c);
		c->state = CH_DONE;
		return c;
	}
	pthread_mutex_lock(&cs->lock);
	pthread_cond_broadcast(&cs->work);
	while (c->state != CH_DONE)
		pthread_cond_wait(&cs->done, &cs->lock);
	pthread_mutex_unlock(&cs->lock);
	return c;
}

enum json_tok kineto_read_chunked(struct kineto *k, size_t chunk_bytes)
{
	struct chunks cs = { .k = k, .in = k->j.in, .path = k->j.in->path, .base = k->j,
			     .chunk_bytes = chunk_bytes, .next_known = true };
	struct input *in = k->j.in;
	enum json_tok t = JSON_ERROR;

	cs.base.scratch = NULL;
	/* Not for a pipe or a plain file: its bytes are read straight into
	 * the chunks (input_take()). */
	cs.whole = in->is_gzip && chunk_bytes == input_chunk_bytes(in);
	cs.max_ahead = in->is_gzip ? MAX_AHEAD_GZIP : MAX_AHEAD;
	/* Whole, buffers go both ways: the reader's size, mapped as its
	 * own are (input_buffer_new()), so either side unmaps any. */
	cs.buf_bytes = cs.whole ? INPUT_BUFFER_BYTES : chunk_bytes + 1;
	cs.carry = xmalloc(chunk_bytes + 1);
	cs.next_offset = in->buf_offset + (uint64_t)(in->cur - in->buf);
	cs.next_at = cs.taken_at = input_pos(in, in->cur);
	/* What the chunks in flight fill, a few blocks each. */
	kineto_reserve_blocks(k, 8 * cs.max_ahead);
	pthread_mutex_init(&cs.lock, NULL);
	pthread_cond_init(&cs.work, NULL);
	pthread_cond_init(&cs.done, NULL);
	for (int i = 0; i < NR_WORKERS; i++)
		if (thread_start(&cs.threads[cs.nr_threads], worker_main, &cs) == 0)
			cs.nr_threads++;

	for (;;) {
		struct chunk *c;

		while (!cs.eof && (cs.nr - cs.frontier < cs.max_ahead || cs.frontier == cs.nr))
			cut_chunk(&cs);
		c = wait_for_frontier(&cs);
		if (c->end == END_REDO) {
			/* Dropped whole, and read again in file order. */
			c->resume = c->offset;
			c->resume_after = false;
			c->end = END_INCOMPLETE;
		} else {
			hand_over(&cs, c);
		}
		if (c->end == END_CLEAN) {
			free_chunk(&cs, cs.frontier);
			pthread_mutex_lock(&cs.lock);
			cs.frontier++;
			pthread_mutex_unlock(&cs.lock);
			continue;
		}
		if (c->end == END_ARRAY) {
			give_back(&cs, c->data + (c->end_off - c->offset),
				  c->len - (size_t)(c->end_off - c->offset), cs.frontier + 1, c->end_off,
				  lines_known(&cs) ? pos_in(&cs, c, c->end_off) : (struct pos){ 0, 0 });
			json_resume(&k->j, &c->jend);
			t = JSON_ARR_END;
			break;
		}
		t = read_on(&cs, c);
		if (t != JSON_OBJ_END)
			break;
	}

	pthread_mutex_lock(&cs.lock);
	cs.stop = true;
	pthread_cond_broadcast(&cs.work);
	pthread_mutex_unlock(&cs.lock);
	for (int i = 0; i < cs.nr_threads; i++)
		pthread_join(cs.threads[i], NULL);
	for (size_t i = 0; i < cs.nr; i++)
		free_chunk(&cs, i);
	free(cs.v);
	while (cs.nr_spare)
		buffer_free(cs.spare[--cs.nr_spare], cs.buf_bytes);
	free(cs.carry);
	pthread_mutex_destroy(&cs.lock);
	pthread_cond_destroy(&cs.work);
	pthread_cond_destroy(&cs.done);
	return t;
}
