// SPDX-License-Identifier: MIT
/*
 * Linking a Kineto trace's records into the call tree (kineto_int.h):
 *
 *   1. device work joins its runtime call by args.correlation, whatever
 *      the launch API (event_parser.py, with the driver API too);
 *   2. each thread's host events nest by interval containment, sorted by
 *      (start, -end) with ties in file order (op_tree.py), and a lone child
 *      of the same name as its op parent is folded into it; runtime calls
 *      join the innermost op that encloses them (claim());
 *   3. self/total times as node.py's fill_stats() computes them;
 *   4. memory events find their op, ops their Python frames' call stack.
 *
 * Device work no runtime launched, or launched on a thread that has no
 * host events, is not dropped: it hangs under a group of its own beneath
 * the root and is counted as a warning.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/util.h"
#include "kineto_int.h"

/*
 * Passes over records that each lead to a node, scattered in the arena:
 * the node AHEAD records on is asked for early, so that the misses
 * overlap rather than wait one after another.
 */
#define AHEAD 16

/* Where a node's start and host total are (two lines, often). */
static void prefetch_times(const struct node *n)
{
	PREFETCH(&n->start_ns);
	node_prefetch_time(n, NODE_HOST_TOTAL);
}

/* A hash map from int64 keys to record indices, open addressing. */
struct idmap {
	int64_t *keys;
	uint32_t *vals;
	size_t alloc;
};

static void idmap_init(struct idmap *m, size_t n)
{
	m->alloc = 16;
	while (m->alloc < 2 * n + 1)
		m->alloc *= 2;
	m->keys = xmalloc(m->alloc * sizeof(*m->keys));
	m->vals = xmalloc(m->alloc * sizeof(*m->vals));
	for (size_t i = 0; i < m->alloc; i++)
		m->keys[i] = NO_ID;
}

static void idmap_release(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
}

/* The slot of KEY: m->keys[slot] == KEY if present, NO_ID if free. */
static size_t idmap_slot(const struct idmap *m, int64_t key)
{
	size_t i = hash_u64((uint64_t)(key)) & (m->alloc - 1);

	while (m->keys[i] != NO_ID && m->keys[i] != key)
		i = (i + 1) & (m->alloc - 1);
	return i;
}

/*
 * A set of numbers below a bound, as bits, with each word's count of the
 * members before it: a member's rank (its place among them, in order)
 * is two loads and a popcount.  A table by rank then holds a value for
 * each member only, where one by number would hold one for each number.
 */
struct ranked_bits {
	uint64_t *bits;
	uint32_t *before;		/* by word: members in the words before */
	size_t nr_words;
	size_t nr;			/* members, once sealed */
};

/* An empty set of numbers below N. */
static void rb_init(struct ranked_bits *s, uint64_t n)
{
	s->nr_words = (size_t)(n / 64 + 1);
	s->bits = xcalloc(s->nr_words, sizeof(*s->bits));
	s->before = NULL;
	s->nr = 0;
}

static void rb_add(struct ranked_bits *s, uint64_t i)
{
	bit_set(s->bits, (size_t)i);
}

/* Count the members: after the last rb_add(). */
static void rb_seal(struct ranked_bits *s)
{
	size_t nr = 0;

	s->before = xmalloc(s->nr_words * sizeof(*s->before));
	for (size_t w = 0; w < s->nr_words; w++) {
		s->before[w] = (uint32_t)nr;
		nr += (size_t)__builtin_popcountll(s->bits[w]);
	}
	s->nr = nr;
}

/* I's rank, SIZE_MAX when it is not a member (or past the bound). */
static size_t rb_rank(const struct ranked_bits *s, uint64_t i)
{
	uint64_t w = i / 64, word, bit = (uint64_t)1 << (i % 64);

	if (w >= s->nr_words)
		return SIZE_MAX;
	word = s->bits[w];
	if (!(word & bit))
		return SIZE_MAX;
	return s->before[w] + (size_t)__builtin_popcountll(word & (bit - 1));
}

static void rb_release(struct ranked_bits *s)
{
	free(s->bits);
	free(s->before);
	memset(s, 0, sizeof(*s));
}

uint32_t kineto_find_thread(const struct tid_numbers *t, int64_t tid)
{
	size_t n;

	if (t->nr && tid == t->last_tid)
		return t->last;
	n = key_index_get(&t->map, (uint64_t)tid);
	return n == KEY_INDEX_NONE ? UINT32_MAX : (uint32_t)n;
}

uint32_t kineto_thread_number(struct tid_numbers *t, int64_t tid)
{
	uint32_t n = kineto_find_thread(t, tid);

	if (n == UINT32_MAX) {
		n = (uint32_t)t->nr;
		key_index_put(&t->map, (uint64_t)tid, n);
		GROW(t->tids, t->alloc_tids, t->nr + 1);
		t->tids[n] = tid;
		t->nr++;
	}
	t->last_tid = tid;
	t->last = n;
	return n;
}

static void threads_release(struct tid_numbers *t)
{
	key_index_release(&t->map);
	free(t->tids);
	memset(t, 0, sizeof(*t));
}

static void wide_release(struct wide_ids *w)
{
	free(w->v);
	memset(w, 0, sizeof(*w));
}

void kineto_records_release(struct kineto *k)
{
	free(k->hosts);
	k->hosts = NULL;
	free(k->rts);
	k->rts = NULL;
	free(k->devs);
	k->devs = NULL;
	free(k->sync_corrs);
	k->sync_corrs = NULL;
	free(k->frames);
	k->frames = NULL;
	free(k->gpu_ranges);
	k->gpu_ranges = NULL;
	wide_release(&k->wide_hosts);
	wide_release(&k->wide_rts);
	wide_release(&k->wide_devs);
	free(k->kernel_bits);
	k->kernel_bits = NULL;
	free(k->comm_bits);
	k->comm_bits = NULL;
	threads_release(&k->threads);
}

/*
 * A map from ids (correlations, External ids) to record indices.  The
 * profiler numbers both from counters, so they usually fill a range not
 * much wider than their count: then the ids present are bits over that
 * range, and their values a table by rank (struct ranked_bits) -- two
 * loads a lookup, and a few bytes for each id, where a table over the
 * whole range would take four for each number in it, and the hash table
 * over twenty.  Ids spread wider (or hostile ones) take the hash table.
 * Either is linear in N.  The ids to be set are marked first
 * (idindex_mark(), then idindex_seal()).
 */
struct idindex {
	bool dense;
	struct ranked_bits present;	/* id - base, when dense */
	uint32_t *vals;			/* by rank; UINT32_MAX: none */
	int64_t base;
	struct idmap hash;		/* when not dense */
};

/* Room for N ids, all within [MIN, MAX] (none when MIN > MAX). */
static void idindex_init(struct idindex *m, size_t n, int64_t min, int64_t max)
{
	uint64_t span = min <= max ? (uint64_t)max - (uint64_t)min + 1 : 0;

	memset(m, 0, sizeof(*m));
	if (span && span <= 4 * (uint64_t)n + 1024) {
		m->dense = true;
		rb_init(&m->present, span);
		m->base = min;
	} else {
		idmap_init(&m->hash, n);
	}
}

/* ID will be set: before idindex_seal(). */
static void idindex_mark(struct idindex *m, int64_t id)
{
	if (m->dense)
		rb_add(&m->present, (uint64_t)id - (uint64_t)m->base);
}

/* Every id marked: now none has a value, and any may be set. */
static void idindex_seal(struct idindex *m)
{
	if (!m->dense)
		return;
	rb_seal(&m->present);
	m->vals = xmalloc((m->present.nr + 1) * sizeof(*m->vals));
	memset(m->vals, 0xff, (m->present.nr + 1) * sizeof(*m->vals));
}

static void idindex_release(struct idindex *m)
{
	if (m->dense) {
		rb_release(&m->present);
		free(m->vals);
	} else {
		idmap_release(&m->hash);
	}
}

/* The value of ID, UINT32_MAX when it has none. */
static uint32_t idindex_get(const struct idindex *m, int64_t id)
{
	size_t s;

	if (m->dense) {
		s = rb_rank(&m->present, (uint64_t)id - (uint64_t)m->base);
		return s == SIZE_MAX ? UINT32_MAX : m->vals[s];
	}
	s = idmap_slot(&m->hash, id);
	return m->hash.keys[s] == NO_ID ? UINT32_MAX : m->hash.vals[s];
}

/* Give ID, one marked, the value V. */
static void idindex_set(struct idindex *m, int64_t id, uint32_t v)
{
	size_t s;

	if (m->dense) {
		m->vals[rb_rank(&m->present, (uint64_t)id - (uint64_t)m->base)] = v;
		return;
	}
	s = idmap_slot(&m->hash, id);
	m->hash.keys[s] = id;
	m->hash.vals[s] = v;
}

/* A correlation, or the one key all missing ones share: None == None. */
static bool corr_missing(int64_t corr)
{
	return corr == NO_ID || corr == NO_ID + 1;
}

/* The runtime that device work with correlation CORR joins: of those
 * with the same id, the earliest (ties: the first in the file). */
static void claim_corr(struct kineto *k, uint32_t *holder, uint32_t i)
{
	if (*holder == UINT32_MAX || k->rts[*holder].node->start_ns > k->rts[i].node->start_ns)
		*holder = i;
}

/*
 * Device events join the runtime call with the same correlation id
 * (event_parser._parse_node; flows are not used).  When two runtimes share
 * an id, each device event goes to the one seen last before it in time
 * order, as tb_plugin's single pass does; with the usual unique ids this
 * is a plain join.
 */
static void link_devices(struct kineto *k)
{
	struct idindex m;
	uint32_t missing = UINT32_MAX;	/* the runtime of missing correlations */
	int64_t min = INT64_MAX, max = INT64_MIN;

	for (size_t i = 0; i < k->nr_rts; i++) {
		int64_t corr = k->rts[i].u.corr;

		if (corr_missing(corr))
			continue;
		if (corr < min)
			min = corr;
		if (corr > max)
			max = corr;
	}
	idindex_init(&m, k->nr_rts, min, max);
	for (size_t i = 0; i < k->nr_rts; i++)
		if (!corr_missing(k->rts[i].u.corr))
			idindex_mark(&m, k->rts[i].u.corr);
	idindex_seal(&m);
	for (size_t i = 0; i < k->nr_rts; i++) {
		int64_t corr = k->rts[i].u.corr;
		uint32_t holder;

		k->rts[i].u.device_ns = 0;	/* its correlation is read */
		if (corr_missing(corr)) {
			claim_corr(k, &missing, (uint32_t)i);
			continue;
		}
		holder = idindex_get(&m, corr);
		claim_corr(k, &holder, (uint32_t)i);
		idindex_set(&m, corr, holder);
	}
	for (size_t i = 0; i < k->nr_devs; i++) {
		struct dev_rec *d = &k->devs[i];
		uint32_t ri = corr_missing(d->corr) ? missing : idindex_get(&m, d->corr);
		struct rt_rec *r;

		if (ri == UINT32_MAX)
			continue;	/* stale: no runtime launched it */
		r = &k->rts[ri];
		d->next_of_rt = r->devices;
		r->devices = rec_ref(i);
		profile_sum(k->p, &r->u.device_ns, d->end_ns - d->node->start_ns);
	}
	/* The cuda_syncs' runtime calls, as device work's. */
	for (size_t i = 0; i < k->nr_sync_corrs && i < k->p->nr_cuda_syncs; i++) {
		int64_t corr = k->sync_corrs[i];
		uint32_t ri = corr_missing(corr) ? UINT32_MAX : idindex_get(&m, corr);

		if (ri != UINT32_MAX)
			k->p->cuda_syncs[i].runtime = node_handle(k->rts[ri].node);
	}
	free(k->sync_corrs);
	k->sync_corrs = NULL;
	k->nr_sync_corrs = k->alloc_sync_corrs = 0;
	idindex_release(&m);
}

/*
 * The host records a sort of a thread's reads, by their index in
 * k->hosts (which is their file order), and the profile of their nodes:
 * the sorting thread's, for the comparisons, as qsort() passes nothing
 * else.
 */
static _Thread_local const struct host_rec *sort_hosts;
static _Thread_local const struct profile *sort_prof;

/* Threads in order of their first tree event, as tb_plugin's tid2list. */
struct thread {
	int64_t tid;
	uint32_t number;		/* its tid's (struct tid_numbers) */
	uint32_t nr_hosts;
	/* Its host records, chained through next_of_thread (refs to
	 * k->hosts): a list through the records, not an array beside them. */
	uint32_t first, last;
	struct node *node;
	int64_t first_ts;
	uint32_t first_index;
	/* Whether the hosts as grouped are in tree order (cmp_host_tree()):
	 * usually, and then the sort does not read every node again to
	 * find out.  The last one's keys, to tell. */
	bool in_tree_order;
	int64_t last_start, last_end;
	uint32_t last_index;
};

struct threads {
	struct thread *v;		/* those with host events, in order */
	size_t nr;
	uint32_t *of_number;		/* thread number -> index in v;
					   UINT32_MAX: no host events */
};

/* The thread of NUMBER, or NULL when it has no host events (or NUMBER is
 * UINT32_MAX, none). */
static struct thread *thread_of_number(struct threads *th, uint32_t number)
{
	uint32_t i = number == UINT32_MAX ? UINT32_MAX : th->of_number[number];

	return i == UINT32_MAX ? NULL : &th->v[i];
}

/*
 * Where each runtime call belongs: the innermost op that encloses its
 * start on its own thread, the launch's place being the ground truth
 * (claim(), in the tree building).  The trace's External id is used only
 * where that finds no op: then the op it names, if that op was running
 * at the launch -- on another thread, as none of its own did
 * (claim_by_external_id()).  torch-tb-profiler goes by External id
 * alone, which in some real traces equals the runtime's own correlation
 * and names an unrelated op, and lets every runtime without one join the
 * first module (proftui(1), DIFFERENCES).
 */
#define OWNER_NONE 0			/* no node: the unlinked group */
#define OWNER_THREAD UINT32_MAX		/* its thread's root */

/* While the claims are made, a runtime's owner -- its node's ref, or one
 * of the two above -- lies in its next_of_op, which the table of claims
 * then turns into the chain of the owner's runtimes: 4 bytes less for
 * each runtime at the link, near the load's peak. */
static inline uint32_t *owner_of(struct kineto *k, size_t i)
{
	return &k->rts[i].next_of_op;
}

struct claims {
	/* From table_claims() on, a bit by runtime: its thread's root
	 * owns it; no node does (the unlinked group). */
	uint64_t *at_thread, *at_none;
	uint64_t *no_op;		/* a bit by runtime: no op enclosed it */
	uint64_t *in_comm;		/* a bit by runtime: a collective did */
	/* Each thread's runtimes by start, ties in file order: the
	 * thread numbers' slices of ORDER, FIRST[number] to FIRST[number
	 * + 1].  Records only, made beside the grouping of threads
	 * (order_runtimes()), read by the trees (claim()). */
	uint32_t *order;
	size_t *first;
	/* What Info tells of the claims (report_claims()). */
	uint64_t nr_by_place_not_id;	/* External id named another op */
	uint64_t nr_by_id;		/* no op on their thread: by the id */
	uint64_t nr_outside_ops;	/* device work launched by no op */
	int64_t outside_ops_ns;
};

/* The runtimes by thread number, then start: a counting sort by thread,
 * which leaves each slice in file order, then a sort of the slices the
 * file does not give in time order (few: a thread's calls come in it). */
static void order_runtimes(struct kineto *k, struct claims *c)
{
	size_t nr_threads = k->threads.nr;
	size_t *at = xcalloc(nr_threads + 1, sizeof(*at));

	c->first = xcalloc(nr_threads + 2, sizeof(*c->first));
	c->order = xmalloc((k->nr_rts + 1) * sizeof(*c->order));
	for (size_t i = 0; i < k->nr_rts; i++)
		c->first[k->rts[i].thread + 1]++;
	for (size_t t = 0; t < nr_threads; t++) {
		c->first[t + 1] += c->first[t];
		at[t] = c->first[t];
	}
	for (size_t i = 0; i < k->nr_rts; i++)
		c->order[at[k->rts[i].thread]++] = (uint32_t)i;
	free(at);
	for (size_t t = 0; t < nr_threads; t++)
		kineto_sort_runtimes(k, c->order + c->first[t], c->first[t + 1] - c->first[t]);
}

/* The stack of the tree building (build_thread_tree()), by depth: each
 * open node's host record, the innermost op at or above it, whether a
 * collective is among them; reused thread after thread. */
struct tree_stack {
	uint32_t *rec;
	struct node **op;
	bool *in_comm;
	size_t alloc;
};

static int64_t end_of(const struct profile *p, const struct node *n)
{
	return n->start_ns + node_host_total(p, n);
}

/* External ids of interest (those of runtimes no op enclosed) to the
 * host record of each that starts first (ties: the first in the file),
 * UINT32_MAX - 1 while none is found. */
#define ID_NO_HOST (UINT32_MAX - 1)

static bool usable_ext(int64_t ext)
{
	return ext != NO_ID && ext != 0;	/* 0: "no op", as Kineto writes it */
}

/*
 * A runtime that no op of its thread encloses goes to the op its External
 * id names when that op was running at the launch, on whatever thread:
 * a launch recorded on a thread of its own.  Linear: one look-up per
 * record.
 */
static void claim_by_external_id(struct kineto *k, struct claims *c)
{
	struct idindex m;
	int64_t min = INT64_MAX, max = INT64_MIN;
	size_t nr = 0;
	/* The ids as bits over their span, where it is no wider than a
	 * byte a record: most hosts' ids are none of them, and a bit says
	 * so without the map's hash (a few thousand ids spread over a big
	 * trace's range take the hash table). */
	uint64_t *wanted = NULL;

	for (size_t i = 0; i < k->nr_rts; i++) {
		int64_t ext;

		if (!bit_get(c->no_op, i))
			continue;
		ext = kineto_ext_id(&k->wide_rts, i, k->rts[i].ext);
		if (!usable_ext(ext))
			continue;
		nr++;
		min = ext < min ? ext : min;
		max = ext > max ? ext : max;
	}
	if (!nr)
		return;
	idindex_init(&m, nr, min, max);
	for (size_t i = 0; i < k->nr_rts; i++) {
		int64_t ext = kineto_ext_id(&k->wide_rts, i, k->rts[i].ext);

		if (bit_get(c->no_op, i) && usable_ext(ext))
			idindex_mark(&m, ext);
	}
	idindex_seal(&m);
	if ((uint64_t)max - (uint64_t)min < 8 * (uint64_t)(k->nr_hosts + k->nr_rts) + 4096)
		wanted = xcalloc(((uint64_t)max - (uint64_t)min) / 64 + 1, sizeof(*wanted));
	for (size_t i = 0; i < k->nr_rts; i++) {
		int64_t ext = kineto_ext_id(&k->wide_rts, i, k->rts[i].ext);

		if (!bit_get(c->no_op, i) || !usable_ext(ext))
			continue;
		idindex_set(&m, ext, ID_NO_HOST);
		if (wanted)
			bit_set(wanted, (size_t)((uint64_t)ext - (uint64_t)min));
	}
	for (size_t i = 0; i < k->nr_hosts; i++) {
		int64_t ext = kineto_ext_id(&k->wide_hosts, i, k->hosts[i].ext);
		uint32_t best;

		if (ext < min || ext > max ||
		    (wanted && !bit_get(wanted, (size_t)((uint64_t)ext - (uint64_t)min))))
			continue;
		if (!usable_ext(ext) || (best = idindex_get(&m, ext)) == UINT32_MAX)
			continue;
		if (best == ID_NO_HOST ||
		    host_node(k->p, &k->hosts[i])->start_ns < host_node(k->p, &k->hosts[best])->start_ns)
			idindex_set(&m, ext, (uint32_t)i);
	}
	for (size_t i = 0; i < k->nr_rts; i++) {
		int64_t ext = kineto_ext_id(&k->wide_rts, i, k->rts[i].ext), at;
		uint32_t h;
		struct node *n;

		if (!bit_get(c->no_op, i) || !usable_ext(ext) ||
		    (h = idindex_get(&m, ext)) == ID_NO_HOST)
			continue;
		n = host_node(k->p, &k->hosts[h]);
		at = k->rts[i].node->start_ns;
		/* Out of the tree (dropped), or not running then: the id
		 * names something else. */
		if (!node_has_parent(n) || n->kind != NODE_OP || at < n->start_ns || at > end_of(k->p, n))
			continue;
		*owner_of(k, i) = node_handle(n);
		c->no_op[i / 64] &= ~((uint64_t)1 << (i % 64));
		if (n->flags & NODE_COLLECTIVE)
			bit_set(c->in_comm, i);
		c->nr_by_id++;
	}
	free(wanted);
	idindex_release(&m);
}

/* Threads with host events first, by their first; then the others, by
 * number. */
static int cmp_thread(const void *a, const void *b)
{
	const struct thread *x = a, *y = b;

	if (!x->nr_hosts != !y->nr_hosts)
		return x->nr_hosts ? -1 : 1;
	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	if (x->first_index != y->first_index)
		return x->first_index < y->first_index ? -1 : 1;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* Tree order: (start, -end), ties in file order (Python's stable sort). */
static int cmp_host_tree(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct host_rec *x = &sort_hosts[i], *y = &sort_hosts[j];
	int64_t x_start = host_node(sort_prof, x)->start_ns, y_start = host_node(sort_prof, y)->start_ns;
	int64_t x_end, y_end;

	if (x_start != y_start)
		return x_start < y_start ? -1 : 1;
	x_end = host_end(sort_prof, x);
	y_end = host_end(sort_prof, y);
	if (x_end != y_end)
		return x_end > y_end ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* Note that host record I, starting at START and ending at END, follows
 * T's last one. */
static void note_order(struct thread *t, uint32_t i, int64_t start, int64_t end)
{
	if (t->nr_hosts > 1)
		t->in_tree_order &= start > t->last_start ||
				    (start == t->last_start &&
				     (end < t->last_end || (end == t->last_end && i > t->last_index)));
	t->last_start = start;
	t->last_end = end;
	t->last_index = i;
}

/* Chain host record I (whose thread number is read) after T's last. */
static void thread_append(struct kineto *k, struct thread *t, uint32_t i)
{
	if (t->last)
		k->hosts[t->last - 1].t.next_of_thread = rec_ref(i);
	else
		t->first = rec_ref(i);
	t->last = rec_ref(i);
	k->hosts[i].t.next_of_thread = 0;
}

/*
 * T's host records in tree order (cmp_host_tree(), with sort_hosts and
 * sort_prof set): an array of them for the sort, then the list again.
 * Only for a thread whose records the file does not give in that order.
 */
static void sort_thread(struct kineto *k, struct thread *t)
{
	uint32_t *v = xmalloc((t->nr_hosts + 1) * sizeof(*v));
	size_t n = 0;

	for (uint32_t ref = t->first; ref; ref = k->hosts[ref - 1].t.next_of_thread)
		v[n++] = ref - 1;
	qsort(v, n, sizeof(*v), cmp_host_tree);
	t->first = t->last = 0;
	for (size_t i = 0; i < n; i++)
		thread_append(k, t, v[i]);
	free(v);
}

/*
 * The host records by thread: each thread's chained in file order through
 * the records themselves, whose thread number is read here for the last
 * time (struct host_rec).
 */
static void group_threads(struct kineto *k, struct threads *th)
{
	const struct tid_numbers *nums = &k->threads;

	th->v = xcalloc(nums->nr + 1, sizeof(*th->v));
	th->of_number = xmalloc((nums->nr + 1) * sizeof(*th->of_number));
	for (size_t n = 0; n < nums->nr; n++) {
		struct thread *t = &th->v[n];

		t->tid = nums->tids[n];
		t->number = (uint32_t)n;
		t->first_ts = INT64_MAX;
		t->in_tree_order = true;
	}
	for (size_t i = 0; i < k->nr_hosts; i++) {
		const struct host_rec *h = &k->hosts[i];
		const struct node *n = host_node(k->p, h);
		struct thread *t = &th->v[h->t.thread];
		int64_t start;

		if (i + AHEAD < k->nr_hosts)
			prefetch_times(host_node(k->p, &k->hosts[i + AHEAD]));
		start = n->start_ns;
		thread_append(k, t, (uint32_t)i);
		t->nr_hosts++;
		note_order(t, (uint32_t)i, start, start + node_host_total(k->p, n));
		if (start < t->first_ts || (start == t->first_ts && i < t->first_index)) {
			t->first_ts = start;
			t->first_index = (uint32_t)i;
		}
	}
	kineto_sort(th->v, nums->nr, sizeof(*th->v), cmp_thread);
	for (size_t i = 0; i < nums->nr; i++) {
		const struct thread *t = &th->v[i];

		th->of_number[t->number] = t->nr_hosts ? (uint32_t)i : UINT32_MAX;
		if (t->nr_hosts)
			th->nr = i + 1;
	}
}

static struct node *unlinked_group(struct kineto *k, struct node **group)
{
	if (!*group) {
		*group = node_new(k->p, k->p->root, NODE_GROUP, "<unlinked device work>", 22);
		(*group)->flags = NODE_UNLINKED | NODE_NOT_A_ROW;
	}
	return *group;
}

/* Hang runtime R (and its device work) under PARENT, after LAST, its
 * last child (NULL: none); returns R's node, the new last. */
static struct node *hang_runtime(struct kineto *k, struct rt_rec *r, struct node *parent,
				 struct node *last, bool unlinked)
{
	struct node *last_device = NULL;

	node_set_device_total(k->p, r->node, r->u.device_ns);
	node_set_device_self(k->p, r->node, r->u.device_ns);
	for (struct dev_rec *d = dev_at(k, r->devices); d; d = dev_at(k, d->next_of_rt)) {
		last_device = node_append_after(r->node, last_device, d->node);
		if (unlinked)
			d->node->flags |= NODE_UNLINKED;
	}
	return node_append_after(parent, last, r->node);
}

/* The same under PARENT wherever its last child is (the profile's hint). */
static void hang_runtime_last(struct kineto *k, struct rt_rec *r, struct node *parent,
			      bool unlinked)
{
	hang_runtime(k, r, parent, node_last_child(k->p, parent), unlinked);
}

/*
 * The innermost node of the tree building (its stack's top, DEPTH deep)
 * holds runtime I's start: the runtime belongs to the innermost op on the
 * stack; failing one, to the node, or the thread's root, and no op
 * launched it.
 */
static void claim(struct kineto *k, struct claims *c, const struct tree_stack *ts, size_t depth,
		  uint32_t i)
{
	struct node *op = depth ? ts->op[depth - 1] : NULL;

	if (depth && ts->in_comm[depth - 1])
		bit_set(c->in_comm, i);
	if (op) {
		*owner_of(k, i) = node_handle(op);
		return;
	}
	*owner_of(k, i) = depth ? k->hosts[ts->rec[depth - 1]].node : OWNER_THREAD;
	bit_set(c->no_op, i);
}

/* Claim T's runtimes that start before UNTIL, from the one at *NEXT on:
 * each to the innermost node of the stack that holds its start, closed
 * at both ends -- the stack given up to where it does (the tree's next
 * node gives up at least as much). */
static void claim_until(struct kineto *k, struct claims *c, struct tree_stack *ts, size_t *depth,
			const uint32_t *v, size_t n, size_t *next, int64_t until)
{
	for (; *next < n; (*next)++) {
		int64_t at = k->rts[v[*next]].node->start_ns;

		if (at >= until)
			return;
		while (*depth && at > host_end(k->p, &k->hosts[ts->rec[*depth - 1]]))
			(*depth)--;
		claim(k, c, ts, *depth, v[*next]);
	}
}

/*
 * The per-thread tree: interval containment over the sorted host events
 * (op_tree._build_tree_internal).  A node that overlaps its would-be parent
 * without fitting inside is dropped, as there, with a warning.  The same
 * pass claims the thread's runtimes, in time order beside it: each belongs
 * where its start lies on its own thread (claim()).
 */
static void build_thread_tree(struct kineto *k, struct thread *t, struct claims *c,
			      struct tree_stack *ts)
{
	size_t depth = 0, high = 0;	/* entries of the stack ever set */
	const uint32_t *v = c->order + c->first[t->number];
	size_t nr_rts = c->first[t->number + 1] - c->first[t->number], next_rt = 0;
	char name[64];
	uint32_t ahead;

	sort_hosts = k->hosts;
	sort_prof = k->p;
	if (!t->in_tree_order)
		sort_thread(k, t);
	if (t->tid >= 0 && t->tid < (1LL << 62))
		snprintf(name, sizeof(name), "thread %lld", (long long)t->tid);
	else
		snprintf(name, sizeof(name), "thread %lld (named)", (long long)(t->tid & 0xffff));
	t->node = node_new(k->p, k->p->root, NODE_THREAD, name, strlen(name));
	t->node->flags = NODE_NOT_A_ROW;
	if (ts->alloc < t->nr_hosts + 1) {
		free(ts->rec);
		free(ts->op);
		free(ts->in_comm);
		ts->alloc = t->nr_hosts + 1;
		ts->rec = xmalloc(ts->alloc * sizeof(*ts->rec));
		ts->op = xmalloc(ts->alloc * sizeof(*ts->op));
		ts->in_comm = xmalloc(ts->alloc * sizeof(*ts->in_comm));
	}
	ahead = t->first;
	for (int i = 0; i < AHEAD && ahead; i++)
		ahead = k->hosts[ahead - 1].t.next_of_thread;
	for (uint32_t ref = t->first; ref; ref = k->hosts[ref - 1].t.next_of_thread) {
		struct host_rec *h = &k->hosts[ref - 1];
		struct node *n = host_node(k->p, h);

		if (ahead) {
			prefetch_times(host_node(k->p, &k->hosts[ahead - 1]));
			ahead = k->hosts[ahead - 1].t.next_of_thread;
		}
		/* A runtime that starts with N is N's. */
		claim_until(k, c, ts, &depth, v, nr_rts, &next_rt, n->start_ns);
		for (;;) {
			struct host_rec *top = depth ? &k->hosts[ts->rec[depth - 1]] : NULL;
			struct node *parent = top ? host_node(k->p, top) : t->node;

			if (!top || n->start_ns < host_end(k->p, top)) {
				if (!top || host_end(k->p, h) <= host_end(k->p, top)) {
					/* The last node to stand at this depth
					 * is PARENT's last child, when it is
					 * PARENT's at all. */
					struct node *last = depth < high
							    ? host_node(k->p, &k->hosts[ts->rec[depth]])
							    : NULL;
					struct node *prev = last && node_parent(last) == parent ? last : NULL;

					node_append_after(parent, prev, n);
					ts->rec[depth] = ref - 1;
					ts->op[depth] = n->kind == NODE_OP ? n : depth ? ts->op[depth - 1] : NULL;
					ts->in_comm[depth] = (n->flags & NODE_COLLECTIVE) ||
							     (depth && ts->in_comm[depth - 1]);
					depth++;
					if (high < depth)
						high = depth;
				} else {
					struct pos none = { 0, 0 };

					/* Its runtimes join what encloses
					 * them in the tree. */
					diag_warn(k->d, &none, "events overlapping their parent, dropped",
						  "event '%s' overlaps '%s' on thread %lld without "
						  "nesting in it; dropped, as torch-tb-profiler does",
						  node_name(n), node_name(parent), (long long)t->tid);
				}
				break;
			}
			depth--;
		}
	}
	claim_until(k, c, ts, &depth, v, nr_rts, &next_rt, INT64_MAX);
}

/* A node and the runtime calls that join it once the other walks of the
 * tree are done (hang_all_runtimes()): handles, 12 bytes, for the
 * quarter of a million of a big trace. */
struct hang {
	uint32_t node;			/* node_handle() */
	uint32_t last;			/* its last child's; 0: none */
	uint32_t runtimes;		/* ref to k->rts */
};

struct build {
	struct kineto *k;
	struct claims claims;
	/* The runtimes of the host nodes that claimed some, by node
	 * handle: a bit for each such node, and its chain's first (a
	 * ref to k->rts) by its rank among them -- a table as long as
	 * the claims, not the tree. */
	struct ranked_bits claimers;
	uint32_t *runtimes_of;
	/* The same for an op that had no claim of its own and took its
	 * folded child's (remove_dup()): few. */
	struct key_index folded;
	struct node **unlinked;
	struct hang *hangs;
	size_t nr_hangs, alloc_hangs;
	struct node **negatives;	/* a thread's, in the order found */
	size_t nr_negatives, alloc_negatives;
};

/* The runtimes of N; a node made in the link (a thread's) has none. */
static struct rt_rec *runtimes_of(const struct build *b, const struct node *n)
{
	uint32_t ref = node_handle(n);
	size_t at = rb_rank(&b->claimers, ref);

	if (at != SIZE_MAX)
		return rt_at(b->k, b->runtimes_of[at]);
	if (b->folded.nr) {
		size_t v = key_index_get(&b->folded, ref);

		return v == KEY_INDEX_NONE ? NULL : rt_at(b->k, (uint32_t)v);
	}
	return NULL;
}

static void set_runtimes_of(struct build *b, const struct node *n, struct rt_rec *r)
{
	uint32_t ref = node_handle(n), chain = r ? rec_ref((size_t)(r - b->k->rts)) : 0;
	size_t at = rb_rank(&b->claimers, ref);

	if (at != SIZE_MAX)
		b->runtimes_of[at] = chain;
	else if (chain || b->folded.nr)
		key_index_put(&b->folded, ref, chain);
}

/*
 * op_tree.remove_dup_nodes: an op whose only child is an op of the same
 * name absorbs it -- the child's children and runtimes join its own.  The
 * plugin drops the parent's own runtimes there; both were launched by a
 * call of that op, so both stay its own here (proftui(1), DIFFERENCES).
 */
/* N's only child when it is an op of N's name and N an op, else NULL. */
static struct node *lone_dup_child(const struct node *n)
{
	struct node *child = n->kind == NODE_OP ? node_first_child(n) : NULL;

	if (!child || node_has_next(child) || child->kind != NODE_OP || node_name(child) != node_name(n))
		return NULL;
	return child;
}

static void remove_dup(struct build *b, struct node *n)
{
	struct node *child;

	while ((child = lone_dup_child(n))) {
		struct rt_rec *theirs = runtimes_of(b, child), *last = theirs;

		/* The child's chain is its own (nothing folded into it
		 * yet: the walk is in pre-order), so walking it to its end
		 * keeps the folds of a deep chain of duplicates linear. */
		if (theirs) {
			struct rt_rec *mine = runtimes_of(b, n);

			while (last->next_of_op)
				last = rt_at(b->k, last->next_of_op);
			last->next_of_op = mine ? rec_ref((size_t)(mine - b->k->rts)) : 0;
			set_runtimes_of(b, n, theirs);
		}
		node_fold_only_child(n);	/* CHILD leaves the tree */
	}
}

/*
 * A host self time below zero: child ops and runtime calls that add up to
 * more than the node's own duration -- runtimes that share its External id
 * but run elsewhere (ids reused, another thread), or a clock step.  The
 * plugin shows the number as it comes out and so do we (parity), but
 * marked and counted, never as if it were normal.
 */
static void note_negative(struct kineto *k, struct node *n)
{
	struct pos none = { 0, 0 };

	diag_warn(k->d, &none, "negative host self times (kept as torch-tb-profiler computes them)",
		  "'%s' has a host self time of %.3f us: its child ops and runtime calls last "
		  "longer than it does; kept as torch-tb-profiler computes it, and marked",
		  node_name(n), (double)node_host_self(k->p, n) / 1e3);
}

/*
 * node.py's fill_stats, bottom-up: host self = duration − children −
 * own runtimes; device self = own runtimes' device time; device total =
 * children's device total + device self.  Runtime nodes join the tree
 * later (hang_all_runtimes()), after the host children: b->hangs gets
 * the nodes they join.  ROOT is a thread's node: it gets the sum of its
 * top nodes' totals.
 *
 * The same walk first folds duplicate ops (remove_dup()), each node as
 * it is first reached: in pre-order, as a walk of its own would.  Self
 * times below zero are told after it, in its order, as ever after the
 * folds' warnings.
 */
static struct node *fold_down(struct build *b, struct node *n)
{
	remove_dup(b, n);
	while (node_first_child(n)) {
		n = node_first_child(n);
		remove_dup(b, n);
	}
	return n;
}

static void fill_stats(struct build *b, struct node *root)
{
	/* Post-order walk without recursion: traces nest deep. */
	struct profile *p = b->k->p;
	struct node *n = fold_down(b, root);
	/* The thread's totals, summed here and stored once: past 2.1 s
	 * they are wide, and each store would take the table's lock. */
	int64_t host_total = node_host_total(p, root), device_total = node_device_total(p, root);

	b->nr_negatives = 0;
	for (;;) {
		struct rt_rec *rts = runtimes_of(b, n);
		struct node *last = NULL;

		if (n->kind != NODE_RUNTIME && !node_kind_is_device(n->kind) && n->kind != NODE_THREAD &&
		    n->kind != NODE_ROOT && n->kind != NODE_GROUP) {
			int64_t inner = 0, self, dev_self = 0, dev_total = 0;

			for (struct node *c = node_first_child(n); c; c = node_next(c)) {
				profile_sum(p, &inner, node_host_total(p, c));
				profile_sum(p, &dev_total, node_device_total(p, c));
				last = c;
			}
			for (struct rt_rec *r = rts; r; r = rt_at(b->k, r->next_of_op)) {
				profile_sum(p, &inner, node_host_total(p, r->node));
				profile_sum(p, &dev_self, r->u.device_ns);
			}
			/* Children past the cap: a self time below it, capped
			 * too (the node's own duration is bounded). */
			self = sum_capped(inner) ? -SUM_CAP : node_host_total(p, n) - inner;
			profile_sum(p, &dev_total, dev_self);
			node_set_host_self(p, n, self);
			node_set_device_self(p, n, dev_self);
			node_set_device_total(p, n, dev_total);
			if (self < 0) {
				n->flags |= NODE_NEGATIVE;
				GROW(b->negatives, b->alloc_negatives, b->nr_negatives + 1);
				b->negatives[b->nr_negatives++] = n;
			}
		}
		if (rts) {
			GROW(b->hangs, b->alloc_hangs, b->nr_hangs + 1);
			b->hangs[b->nr_hangs].node = node_handle(n);
			b->hangs[b->nr_hangs].last = node_handle(last ? last : node_last_child(p, n));
			b->hangs[b->nr_hangs++].runtimes = rec_ref((size_t)(rts - b->k->rts));
		}
		if (n == root)
			break;
		if (node_parent(n) == root) {
			/* The thread's total, while N is at hand: a
			 * second walk of its top nodes misses on each. */
			profile_sum(p, &host_total, node_host_total(p, n));
			profile_sum(p, &device_total, node_device_total(p, n));
		}
		n = node_next(n) ? fold_down(b, node_next(n)) : node_parent(n);
	}
	node_set_host_total(p, root, host_total);
	node_set_device_total(p, root, device_total);
	for (size_t i = 0; i < b->nr_negatives; i++)
		note_negative(b->k, b->negatives[i]);
}

/* Each node's runtimes join it, after its host children: no walk of the
 * tree has to tell them apart from those any more. */
static void hang_all_runtimes(struct build *b)
{
	const struct profile *p = b->k->p;

	for (size_t i = 0; i < b->nr_hangs; i++) {
		if (i + AHEAD < b->nr_hangs) {
			PREFETCH(node_by_handle(p, b->hangs[i + AHEAD].node));
			PREFETCH(rt_at(b->k, b->hangs[i + AHEAD].runtimes));
			PREFETCH(rt_at(b->k, b->hangs[i + AHEAD / 2].runtimes)->node);
		}
		struct node *n = node_by_handle(p, b->hangs[i].node);
		struct node *last = node_by_handle(p, b->hangs[i].last);

		for (struct rt_rec *r = rt_at(b->k, b->hangs[i].runtimes); r;
		     r = rt_at(b->k, r->next_of_op))
			last = hang_runtime(b->k, r, n, last, false);
	}
}

/*
 * Runtimes that no node of their thread holds belong to its root, and add
 * to its totals; those of a thread without host events that no External
 * id placed, and device work no runtime launched, to nothing at all: both
 * are kept, under the root, and counted.
 */
static void hang_unclaimed(struct kineto *k, struct threads *th, const struct claims *c,
			   struct node **unlinked)
{
	uint64_t nr_unlinked_rt = 0, nr_stale = 0;
	/* What the runtimes add to each thread's totals (by its index in
	 * th->v), stored once at the end: a wide total takes a lock. */
	int64_t *host_add = xcalloc(th->nr + 1, sizeof(*host_add));
	int64_t *device_add = xcalloc(th->nr + 1, sizeof(*device_add));

	for (size_t i = 0; i < k->nr_rts; i++) {
		struct rt_rec *r = &k->rts[i];
		struct thread *t;

		if (bit_get(c->at_thread, i) && (t = thread_of_number(th, r->thread))) {
			hang_runtime_last(k, r, t->node, false);
			profile_sum(k->p, &host_add[t - th->v], node_host_total(k->p, r->node));
			profile_sum(k->p, &device_add[t - th->v], node_device_total(k->p, r->node));
		} else if (bit_get(c->at_none, i)) {
			hang_runtime_last(k, r, unlinked_group(k, unlinked), true);
			if (r->devices)
				nr_unlinked_rt++;
		}
	}
	for (size_t i = 0; i < k->nr_devs; i++) {
		struct dev_rec *d = &k->devs[i];

		if (i + AHEAD < k->nr_devs)
			node_prefetch(k->devs[i + AHEAD].node);
		if (node_parent(d->node))
			continue;
		node_append(k->p, unlinked_group(k, unlinked), d->node);
		d->node->flags |= NODE_UNLINKED;
		nr_stale++;
	}
	for (size_t t = 0; t < th->nr; t++) {
		if (host_add[t])
			node_add_host_total(k->p, th->v[t].node, host_add[t]);
		if (device_add[t])
			node_add_device_total(k->p, th->v[t].node, device_add[t]);
	}
	free(host_add);
	free(device_add);
	if (*unlinked) {
		int64_t device_total = node_device_total(k->p, *unlinked);
		int64_t host_total = node_host_total(k->p, *unlinked);

		for (struct node *n = node_first_child((*unlinked)); n; n = node_next(n)) {
			profile_sum(k->p, &device_total, node_device_total(k->p, n));
			profile_sum(k->p, &host_total, node_host_total(k->p, n));
		}
		node_set_device_total(k->p, *unlinked, device_total);
		node_set_host_total(k->p, *unlinked, host_total);
	}
	if (nr_stale)
		profile_warn(k->p, "device events launched by no runtime call (kept, unlinked)", nr_stale);
	if (nr_unlinked_rt)
		profile_warn(k->p, "runtime calls of threads without ops, launched by no op "
			     "(kept, unlinked)", nr_unlinked_rt);
}

/* The root's totals, for the Tree pane: its threads' (fill_stats() and
 * hang_unclaimed() made them) and the unlinked device work's. */
static void add_totals(struct kineto *k, struct threads *th, struct node *unlinked)
{
	for (size_t t = 0; t < th->nr; t++) {
		struct node *tn = th->v[t].node;

		node_add_device_total(k->p, k->p->root, node_device_total(k->p, tn));
		node_add_host_total(k->p, k->p->root, node_host_total(k->p, tn));
	}
	if (unlinked)
		node_add_device_total(k->p, k->p->root, node_device_total(k->p, unlinked));
}

/* Memory events by thread, then time, then file order.  The array the
 * comparison reads is the thread's: several traces link at once. */
static _Thread_local const struct mem_event *sort_base;

static int cmp_mem(const void *a, const void *b)
{
	const struct mem_event *x = &sort_base[*(const uint32_t *)a];
	const struct mem_event *y = &sort_base[*(const uint32_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/*
 * Each memory event belongs to the innermost host node of its thread
 * whose [start, end) holds it (memory_parser.find_memory_nodes): one
 * forward pass over the thread's events in time order beside its tree,
 * which is sorted and nested.  Events before the thread's first node or
 * after its last belong to none; so do those between its top-level nodes.
 * Run before runtime calls join the tree, when every child is a host node.
 */
static void link_memory(struct kineto *k, struct threads *th)
{
	struct profile *p = k->p;
	uint32_t *idx;
	size_t nr = p->nr_mem_events, i = 0;
	struct node **stack = NULL;
	size_t alloc = 0;

	if (!nr)
		return;
	idx = xmalloc(nr * sizeof(*idx));
	for (size_t r = 0; r < nr; r++)
		idx[r] = (uint32_t)r;
	sort_base = p->mem_events;
	qsort(idx, nr, sizeof(*idx), cmp_mem);
	while (i < nr) {
		int64_t tid = p->mem_events[idx[i]].tid;
		struct thread *t = thread_of_number(th, kineto_find_thread(&k->threads, tid));
		struct node *root = t ? t->node : NULL;
		size_t depth = 0;
		struct node *cur = root, *child = root ? node_first_child(root) : NULL;
		struct node *last = root ? node_last_child(p, root) : NULL;

		for (; i < nr && p->mem_events[idx[i]].tid == tid; i++) {
			struct mem_event *m = &p->mem_events[idx[i]];

			m->op = NULL;
			if (!last || m->ts_ns < node_first_child(root)->start_ns ||
			    m->ts_ns >= end_of(k->p, last))
				continue;
			/* Up while the event is past the node, then down. */
			while (cur != root && m->ts_ns >= end_of(k->p, cur)) {
				child = node_next(cur);
				cur = depth > 1 ? stack[depth - 2] : root;
				depth--;
			}
			while (child && m->ts_ns >= child->start_ns) {
				if (m->ts_ns >= end_of(k->p, child)) {
					child = node_next(child);
					continue;
				}
				GROW(stack, alloc, depth + 1);
				stack[depth++] = child;
				cur = child;
				child = node_first_child(cur);
			}
			m->op = cur != root ? cur : NULL;
		}
	}
	free(stack);
	free(idx);
}

/*
 * Call stacks of PyTorch 2.x traces (with_stack): the Python frames
 * (python_function events without a module id) that hold an op's start
 * on its thread, innermost first -- what old traces give in "Call
 * stack".  A stack is the profile's node for (the stack below, the
 * frame) (model/callstack.h): a frame opened costs one node, never a
 * text.  Only the outermost op under a given innermost frame gets the
 * attribute; the ops under it have the same stack (node_call_stack()
 * looks up).
 */

/* The tids of the thread numbers, for a sort of frames by tid: the
 * sorting thread's, as qsort() passes nothing else. */
static _Thread_local const int64_t *sort_tids;

static int cmp_frame(const void *a, const void *b)
{
	const struct py_frame *x = a, *y = b;

	if (x->thread != y->thread)
		return sort_tids[x->thread] < sort_tids[y->thread] ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

struct frame_walk {
	struct kineto *k;
	const struct py_frame *f, *f_end;	/* the thread's frames, sorted */
	const struct py_frame **open;		/* those open at the last start */
	const struct call_stack **stacks;	/* each one's stack */
	size_t depth;
	const struct call_stack **stack_at;	/* the stack of each node above */
	size_t alloc_stack_at;
};

/* The stack of frame NAME (interned) called from BELOW.  A name with a
 * ';' is as many frames as the text shows (call_stack_parse()). */
static const struct call_stack *frame_stack(struct profile *p, const struct call_stack *below,
					    const char *name)
{
	if (strchr(name, ';'))
		return call_stack_parse(&p->stacks, below, name, strlen(name));
	return call_stack_intern(&p->stacks, below, name);
}

/* The stack node N ran under.  Nodes come in start order: open the
 * frames that start by N's start, closing those that ended before each,
 * then close the ones that ended by it. */
static const struct call_stack *frames_at(struct frame_walk *w, const struct node *n)
{
	for (; w->f < w->f_end && w->f->start <= n->start_ns; w->f++) {
		while (w->depth && w->open[w->depth - 1]->end <= w->f->start)
			w->depth--;
		w->stacks[w->depth] = frame_stack(w->k->p, w->depth ? w->stacks[w->depth - 1] : NULL,
						  w->f->name);
		w->open[w->depth++] = w->f;
	}
	while (w->depth && w->open[w->depth - 1]->end <= n->start_ns)
		w->depth--;
	return w->depth ? w->stacks[w->depth - 1] : NULL;
}

/* The ops under TOP, a thread's top node, in pre-order: each gets its
 * stack, unless its parent op has the same.  The parent's is kept by
 * depth, not by node id: no table as big as the tree. */
static void frames_walk(struct frame_walk *w, struct node *top)
{
	struct node *n = top;
	size_t depth = 0;

	for (;;) {
		const struct call_stack *stack = frames_at(w, n);

		if (n->kind == NODE_OP && stack && !attr_find(node_attrs(n), "call_stack") &&
		    !(depth && node_parent(n)->kind == NODE_OP && w->stack_at[depth - 1] == stack))
			attr_set_stack(w->k->p, node_attr_list(n), stack);
		if (node_first_child(n)) {
			GROW(w->stack_at, w->alloc_stack_at, depth + 1);
			w->stack_at[depth++] = stack;
			n = node_first_child(n);
			continue;
		}
		while (n != top && !node_next(n)) {
			n = node_parent(n);
			depth--;
		}
		if (n == top)
			break;
		n = node_next(n);
	}
}

static void link_frames(struct kineto *k, struct threads *th)
{
	struct frame_walk w = { .k = k };
	size_t i = 0;

	if (!k->nr_frames)
		return;
	w.open = xmalloc(k->nr_frames * sizeof(*w.open));
	w.stacks = xmalloc(k->nr_frames * sizeof(*w.stacks));
	while (i < k->nr_frames) {
		uint32_t number = k->frames[i].thread;
		struct thread *t = thread_of_number(th, number);
		size_t j = i;

		while (j < k->nr_frames && k->frames[j].thread == number)
			j++;
		if (t) {
			struct node *root = t->node;

			w.f = &k->frames[i];
			w.f_end = &k->frames[j];
			w.depth = 0;
			for (struct node *c = node_first_child(root); c; c = node_next(c))
				frames_walk(&w, c);
		}
		i = j;
	}
	free(w.open);
	free(w.stacks);
	free(w.stack_at);
}

/* Records from which a second thread pays for itself (hosts, runtimes
 * and device work together): the 1 GB trace has 2.5 M. */
#define MIN_TWO_THREADS 100000

static bool link_on_two_threads(const struct kineto *k)
{
	const char *env = getenv("PROFTUI_LINK_THREADS");

	if (env && *env)
		return atoi(env) >= 2;	/* for tests: whatever the size */
	return k->nr_hosts + k->nr_rts + k->nr_devs >= MIN_TWO_THREADS &&
	       sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

/*
 * A part of the link that runs on a second thread while this one does
 * another, or before it in place.  The two touch different records, or
 * different fields of one (the second thread reads a node's start and
 * end, this one links nodes); what either writes that the other reads
 * later is read after the join.
 */
struct beside {
	pthread_t thread;
	bool started;
	void (*fn)(struct kineto *k, struct build *b);
	struct kineto *k;
	struct build *b;
};

static void *beside_main(void *arg)
{
	struct beside *s = arg;

	s->fn(s->k, s->b);
	return NULL;
}

static void beside_start(struct beside *s, bool two, void (*fn)(struct kineto *, struct build *),
			 struct kineto *k, struct build *b)
{
	s->fn = fn;
	s->k = k;
	s->b = b;
	s->started = two && !thread_start(&s->thread, beside_main, s);
	if (!s->started)
		fn(k, b);
}

static void beside_join(struct beside *s)
{
	if (s->started)
		pthread_join(s->thread, NULL);
	s->started = false;
}

/* Records only: the device links, the runtimes' chains by External id. */
/* Records only, their own fields each: the device links, and the
 * runtimes in the order the trees claim them. */
static void devices_beside(struct kineto *k, struct build *b)
{
	link_devices(k);
	order_runtimes(k, &b->claims);
}

/* The frames in the order link_frames() reads them. */
static void frames_beside(struct kineto *k, struct build *b)
{
	(void)b;
	sort_tids = k->threads.tids;
	kineto_sort(k->frames, k->nr_frames, sizeof(*k->frames), cmp_frame);
}

static void steps_beside(struct kineto *k, struct build *b)
{
	(void)b;
	kineto_plan_steps(k);
}

/*
 * The table of runtimes by node (struct build) from the owners the claims
 * found, each node's chained latest first (the order they hang in, as
 * the plugin's); and, for Info, how often the place named another op
 * than the External id, told by the host record of each claimer.
 */
static bool is_node_owner(uint32_t owner)
{
	return owner != OWNER_NONE && owner != OWNER_THREAD;
}

static void table_claims(struct kineto *k, struct build *b)
{
	struct claims *c = &b->claims;
	/* Every node's handle is below the bound. */
	uint64_t bound = node_handle_bound(k->p);
	uint32_t *host_of;

	rb_init(&b->claimers, bound + 1);
	for (size_t i = 0; i < k->nr_rts; i++)
		if (is_node_owner(*owner_of(k, i)))
			rb_add(&b->claimers, *owner_of(k, i));
	rb_seal(&b->claimers);
	host_of = xmalloc((b->claimers.nr + 1) * sizeof(*host_of));
	for (size_t i = 0; i < k->nr_hosts; i++) {
		size_t at = rb_rank(&b->claimers, k->hosts[i].node);

		if (at != SIZE_MAX)
			host_of[at] = (uint32_t)i;
	}
	/* The owners become chains, told apart from the External ids on
	 * the way: the last reader of them. */
	b->runtimes_of = xcalloc(b->claimers.nr + 1, sizeof(*b->runtimes_of));
	c->at_thread = xcalloc(k->nr_rts / 64 + 1, sizeof(*c->at_thread));
	c->at_none = xcalloc(k->nr_rts / 64 + 1, sizeof(*c->at_none));
	for (size_t i = 0; i < k->nr_rts; i++) {
		uint32_t owner = *owner_of(k, i);
		int64_t ext;
		size_t at;

		k->rts[i].next_of_op = 0;
		if (owner == OWNER_THREAD)
			bit_set(c->at_thread, i);
		else if (owner == OWNER_NONE)
			bit_set(c->at_none, i);
		if (bit_get(c->no_op, i) && k->rts[i].devices) {
			c->nr_outside_ops++;
			profile_sum(k->p, &c->outside_ops_ns, k->rts[i].u.device_ns);
		}
		if (!is_node_owner(owner))
			continue;
		at = rb_rank(&b->claimers, owner);
		k->rts[i].next_of_op = b->runtimes_of[at];
		b->runtimes_of[at] = rec_ref(i);
		ext = kineto_ext_id(&k->wide_rts, i, k->rts[i].ext);
		if (!bit_get(c->no_op, i) && usable_ext(ext) &&
		    ext != kineto_ext_id(&k->wide_hosts, host_of[at], k->hosts[host_of[at]].ext))
			c->nr_by_place_not_id++;
	}
	free(host_of);
}

/* Info: where the claims departed from the External ids, and the device
 * work that no op launched. */
static void report_claims(struct kineto *k, const struct claims *c)
{
	char v[64];

	if (c->nr_by_place_not_id) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)c->nr_by_place_not_id);
		profile_meta(k->p, "device work", "runtime calls credited to the op enclosing "
			     "them, not the one their External id names", v);
	}
	if (c->nr_by_id) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)c->nr_by_id);
		profile_meta(k->p, "device work", "runtime calls credited by External id "
			     "(no op enclosed them on their thread)", v);
	}
	if (c->nr_outside_ops) {
		snprintf(v, sizeof(v), "%llu runtime call%s, %.3f us of device time",
			 (unsigned long long)c->nr_outside_ops, c->nr_outside_ops == 1 ? "" : "s",
			 (double)c->outside_ops_ns / 1e3);
		profile_meta(k->p, "device work", "launched outside every op (no op's)", v);
	}
}

/* GPU-side ranges by device, stream, start, then file order (their
 * nodes' handles grow in it). */
static int cmp_gpu_range(const void *a, const void *b)
{
	const struct node *x = *(struct node *const *)a, *y = *(struct node *const *)b;
	const struct launch *lx = node_launch(x), *ly = node_launch(y);

	if (lx->device != ly->device)
		return lx->device < ly->device ? -1 : 1;
	if (lx->stream != ly->stream)
		return lx->stream < ly->stream ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return node_handle(x) < node_handle(y) ? -1 : node_handle(x) > node_handle(y);
}

/*
 * The GPU-side annotations (nccl:all_reduce, Optimizer.step#..., the
 * copies of the steps) hang under a group of their stream beneath the
 * root, in time order: ranges of the device, not a thread of the host
 * (torch-tb-profiler makes them ops of a "thread" named by the stream).
 * Their time is device time, and no total adds it up: it covers kernels
 * already counted.
 */
static void hang_gpu_ranges(struct kineto *k)
{
	struct node *group = NULL, *last = NULL;
	int32_t device = -1, stream = -1;

	kineto_sort(k->gpu_ranges, k->nr_gpu_ranges, sizeof(*k->gpu_ranges), cmp_gpu_range);
	for (size_t i = 0; i < k->nr_gpu_ranges; i++) {
		struct node *n = k->gpu_ranges[i];
		const struct launch *l = node_launch(n);

		if (!group || l->device != device || l->stream != stream) {
			char name[64];

			device = l->device;
			stream = l->stream;
			snprintf(name, sizeof(name), "GPU %d stream %d (annotations)", (int)device,
				 (int)stream);
			group = node_new(k->p, k->p->root, NODE_GROUP, name, strlen(name));
			group->flags = NODE_NOT_A_ROW;
			last = NULL;
		}
		last = node_append_after(group, last, n);
	}
	free(k->gpu_ranges);
	k->gpu_ranges = NULL;
}

/* The device work of the runtimes a collective encloses, for the steps'
 * Communication (kineto_steps.c): a trace whose External ids name no
 * op says so by the launch's place only. */
static void mark_comm_devices(struct kineto *k, const struct claims *c)
{
	for (size_t i = 0; i < k->nr_rts; i++) {
		if (!bit_get(c->in_comm, i))
			continue;
		for (const struct dev_rec *d = dev_at(k, k->rts[i].devices); d;
		     d = dev_at(k, d->next_of_rt)) {
			if (!k->comm_bits)
				k->comm_bits = xcalloc(k->nr_devs / 64 + 1, sizeof(*k->comm_bits));
			bit_set(k->comm_bits, (size_t)(d - k->devs));
		}
	}
}

static void claims_release(struct claims *c)
{
	free(c->at_thread);
	free(c->at_none);
	free(c->no_op);
	free(c->in_comm);
	free(c->order);
	free(c->first);
	memset(c, 0, sizeof(*c));
}

void kineto_link(struct kineto *k)
{
	struct threads th = { 0 };
	struct node *unlinked = NULL;
	struct build b = { .k = k, .unlinked = &unlinked };
	bool two = link_on_two_threads(k);
	struct beside side;
	struct tree_stack ts = { 0 };

	/* Device chains of runtimes and their order by thread and start
	 * beside the grouping of host events by thread.  The nodes so far
	 * are the events'; the link makes more (threads', the unlinked
	 * group). */
	beside_start(&side, two, devices_beside, k, &b);
	group_threads(k, &th);
	beside_join(&side);

	/* The frames beside the trees, which claim each runtime for the op
	 * that launched it. */
	b.claims.no_op = xcalloc(k->nr_rts / 64 + 1, sizeof(*b.claims.no_op));
	b.claims.in_comm = xcalloc(k->nr_rts / 64 + 1, sizeof(*b.claims.in_comm));
	for (size_t i = 0; i < k->nr_rts; i++)
		if (!thread_of_number(&th, k->rts[i].thread))
			bit_set(b.claims.no_op, i);	/* no tree: no op */
	beside_start(&side, two, frames_beside, k, &b);
	for (size_t t = 0; t < th.nr; t++)
		build_thread_tree(k, &th.v[t], &b.claims, &ts);
	beside_join(&side);
	free(ts.rec);
	free(ts.op);
	free(ts.in_comm);
	/* What the claims hold goes as soon as its last reader is done:
	 * the link is near the load's peak. */
	free(b.claims.order);
	free(b.claims.first);
	b.claims.order = NULL;
	b.claims.first = NULL;
	claim_by_external_id(k, &b.claims);
	table_claims(k, &b);
	report_claims(k, &b.claims);
	mark_comm_devices(k, &b.claims);
	free(b.claims.no_op);
	free(b.claims.in_comm);
	b.claims.no_op = b.claims.in_comm = NULL;
	/* The trees and the table of runtimes by node have what the host
	 * records held.  Each array goes as soon as the last pass over it
	 * is done: the free of a large one gives its pages back at once. */
	free(k->hosts);
	k->hosts = NULL;

	/* The steps beside the rest, which touches neither them nor what
	 * they read of the records. */
	beside_start(&side, two, steps_beside, k, &b);
	/* Each node with runtimes, once: their chains are disjoint. */
	b.alloc_hangs = k->nr_rts + 1;
	b.hangs = xmalloc(b.alloc_hangs * sizeof(*b.hangs));
	for (size_t t = 0; t < th.nr; t++)
		fill_stats(&b, th.v[t].node);
	free(b.runtimes_of);	/* b.hangs has what is left of it */
	b.runtimes_of = NULL;
	rb_release(&b.claimers);
	key_index_release(&b.folded);
	link_memory(k, &th);
	link_frames(k, &th);
	free(k->frames);
	k->frames = NULL;
	hang_all_runtimes(&b);
	free(b.hangs);
	hang_unclaimed(k, &th, &b.claims, &unlinked);
	add_totals(k, &th, unlinked);
	hang_gpu_ranges(k);
	beside_join(&side);

	kineto_records_release(k);
	claims_release(&b.claims);
	free(th.v);
	free(th.of_number);
	free(b.negatives);
}
