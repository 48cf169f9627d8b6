// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "profile.h"
#include "util.h"

static const char *const kind_names[] = {
#define X(e, s) s,
	NODE_KINDS(X)
#undef X
};

const char *node_kind_name(enum node_kind kind)
{
	return (size_t)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "?";
}

bool node_kind_is_device(enum node_kind kind)
{
	return kind == NODE_KERNEL || kind == NODE_MEMCPY || kind == NODE_MEMSET;
}

static void launch_index_free(struct launch_index *ix);

/* A trace has millions of nodes: each byte of one is megabytes. */
_Static_assert(sizeof(void *) != 8 || sizeof(struct node) == 48,
	       "struct node is 48 bytes on a 64-bit machine");
_Static_assert(sizeof(struct attr) == 16, "an attribute is 16 bytes");
_Static_assert(sizeof(struct node_slab) <= sizeof(struct node), "a slab's head fits a node's place");
_Static_assert(NODE_SLAB_NODES * (sizeof(struct node) + sizeof(uint32_t)) <= SLAB_BYTES,
	       "a slab holds its nodes and their ids");
_Static_assert(ATTR_SLAB_PLACES * sizeof(struct attr) == SLAB_BYTES, "attribute slabs fill their bytes");
_Static_assert(offsetof(struct attr_slab, types) + ATTR_SLAB_PLACES - ATTR_HEAD_PLACES <=
		       ATTR_HEAD_PLACES * sizeof(struct attr),
	       "an attribute slab's head holds a type for each of its places");

static void slab_dir_release(struct slab_dir *dir)
{
	for (uint32_t i = 0; (uint64_t)i << SLAB_DIR_SHIFT < dir->nr_slabs; i++)
		free(dir->pages[i]);
	for (size_t i = 0; i < dir->nr_groups; i++)
		munmap(dir->groups[i].base, dir->groups[i].len);
	free(dir->groups);
}

static void pool_release(struct node_pool *pool)
{
	for (uint32_t s = 0; s < pool->nodes.nr_slabs; s++) {
		struct node_slab *slab = slab_dir_at(&pool->nodes, s);

		free(slab->counts);
	}
	slab_dir_release(&pool->nodes);
	slab_dir_release(&pool->attrs);
	munmap(pool, sizeof(*pool));
}

/*
 * An empty pool for NAMES.  Mapped, not malloc()ed: of its 64 KB only the
 * directories' heads and first entries are ever touched, but memory that
 * malloc() hands out again (a file's read buffer, freed) is in memory
 * whole, and a log dir of small traces held 64 KB per file for nothing.
 * A fresh mapping is zero and costs the pages touched.
 */
static struct node_pool *pool_new(const struct strtab *names)
{
	struct node_pool *pool = mmap(NULL, sizeof(*pool), PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (pool == MAP_FAILED)
		die("out of memory");
	pool->names = names;
	return pool;
}

/* A new slab of DIR, with room in the directory: the next of the last
 * group, or the first of a new one (mapped with a slab more than it
 * needs, for the alignment, and the ends that fall outside given back).
 * Its number is the one before DIR's count. */
static void *slab_dir_add(struct slab_dir *dir, uint32_t max_slabs)
{
	uint32_t nr = dir->nr_slabs;
	void *slab;

	if (nr == max_slabs)
		die("a profile of more than %" PRIu32 " slabs of nodes or attributes", max_slabs);
	if (dir->spare == dir->spare_end) {
		size_t nr_group = dir->nr_groups ? 2 * dir->groups[dir->nr_groups - 1].len / SLAB_BYTES : 1;
		size_t len = (nr_group < SLAB_GROUP_MAX ? nr_group : SLAB_GROUP_MAX) * SLAB_BYTES;
		char *map = mmap(NULL, len + SLAB_BYTES, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *base;

		if (map == MAP_FAILED)
			die("out of memory");
		base = (char *)(((uintptr_t)map + SLAB_BYTES - 1) & ~(uintptr_t)(SLAB_BYTES - 1));
		if (base > map)
			munmap(map, (size_t)(base - map));
		if (base + len < map + len + SLAB_BYTES)
			munmap(base + len, (size_t)(map + len + SLAB_BYTES - (base + len)));
		GROW(dir->groups, dir->alloc_groups, dir->nr_groups + 1);
		dir->groups[dir->nr_groups++] = (struct slab_group){ base, len };
		dir->spare = base;
		dir->spare_end = base + len;
	}
	if (!(nr & ((1u << SLAB_DIR_SHIFT) - 1)))
		dir->pages[nr >> SLAB_DIR_SHIFT] = xmalloc(sizeof(void *) << SLAB_DIR_SHIFT);
	slab = dir->spare;
	dir->spare += SLAB_BYTES;
	dir->pages[nr >> SLAB_DIR_SHIFT][nr & ((1u << SLAB_DIR_SHIFT) - 1)] = slab;
	dir->nr_slabs = nr + 1;
	return slab;
}

/* Room for one more node in P's pool: its last slab's next place, or a
 * new slab's first.  Slabs are aligned to their size, so a node finds its
 * slab's head by masking its address. */
static struct node *pool_take(struct profile *p)
{
	struct node_pool *pool = p->pool;
	uint32_t ref = pool->next_ref;
	struct node_slab *slab;
	struct node *n;

	if (!(ref & (NODE_SLAB_NODES - 1))) {
		slab = slab_dir_add(&pool->nodes, UINT32_MAX >> NODE_SLAB_SHIFT);
		slab->pool = pool;
		slab->counts = NULL;
		slab->number = pool->nodes.nr_slabs - 1;
		ref = slab->number << NODE_SLAB_SHIFT | 1;
	}
	n = node_at(pool, ref);
	slab = node_slab_of(n);
	if (p->counts_follow_nodes && !slab->counts)
		slab->counts = xcalloc(NODE_SLAB_NODES, sizeof(*slab->counts));
	pool->next_ref = ref + 1;
	memset(n, 0, sizeof(*n));
	n->start_ns = NS_UNTIMED;	/* until its parser gives it a time */
	return n;
}

/* Room for one more attribute in P's pool, and its reference: as
 * pool_take()'s, past the head's places. */
static struct attr *pool_take_attr(struct profile *p, uint32_t *ref_out)
{
	struct node_pool *pool = p->pool;
	uint32_t ref = pool->next_attr;

	if (!(ref & (ATTR_SLAB_PLACES - 1))) {
		struct attr_slab *slab = slab_dir_add(&pool->attrs, UINT32_MAX >> ATTR_SLAB_SHIFT);

		slab->pool = pool;
		slab->number = pool->attrs.nr_slabs - 1;
		ref = slab->number << ATTR_SLAB_SHIFT | ATTR_HEAD_PLACES;
	}
	pool->next_attr = ref + 1;
	*ref_out = ref;
	return memset(attr_first(pool, ref), 0, sizeof(struct attr));
}

/* An empty profile P with the names and pool of FIRST, a run of the
 * same file, or (FIRST NULL) of its own. */
static void init_run(struct profile *p, const char *path, const struct profile *first)
{
	memset(p, 0, sizeof(*p));
	arena_init(&p->arena);
	if (first) {
		p->names = first->names;
		p->pool = first->pool;
	} else {
		p->names = xmalloc(sizeof(*p->names));
		strtab_init(p->names, &p->arena);
		p->pool = pool_new(p->names);
		p->owns_names_and_pool = true;
	}
	call_stacks_init(&p->stacks, &p->arena, p->names);
	p->path = arena_strdup(&p->arena, path ? path : "");
	pthread_mutex_init(&p->wide_lock, NULL);
	p->root = node_new(p, NULL, NODE_ROOT, "<all>", 5);
	p->dist.rank = p->dist.world_size = -1;
}

void profile_init(struct profile *p, const char *path)
{
	init_run(p, path, NULL);
}

void profile_release(struct profile *p)
{
	struct profile *run = p->next_run;

	while (run) {
		struct profile *next = run->next_run;

		run->next_run = NULL;
		profile_release(run);
		free(run);
		run = next;
	}
	free(p->steps);
	free(p->spans);
	free(p->counts);
	key_index_release(&p->counts_index);
	free(p->wide_times);
	key_index_release(&p->wide_index);
	pthread_mutex_destroy(&p->wide_lock);
	key_index_release(&p->tails);
	free(p->devices);
	free(p->mem_events);
	launch_index_free(p->launches);
	call_stacks_release(&p->stacks);
	/* The first run's, after its later runs: the names' strings lie
	 * in its arena. */
	if (p->owns_names_and_pool) {
		strtab_release(p->names);
		free(p->names);
		pool_release(p->pool);
	}
	arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}

struct profile *profile_add_run(struct profile *first, const char *where)
{
	/* The last run is remembered: a log with thousands of tables adds
	 * its runs in constant time each. */
	struct profile *last = first->last_run ? first->last_run : first, *run;

	while (last->next_run)
		last = last->next_run;
	run = xmalloc(sizeof(*run));
	init_run(run, first->path, first);
	run->format = first->format;
	run->counts_follow_nodes = first->counts_follow_nodes;
	run->run_where = where ? arena_strdup(&run->arena, where) : NULL;
	last->next_run = run;
	first->last_run = run;
	return run;
}

struct profile *profile_run(struct profile *first, size_t n)
{
	while (first && n--)
		first = first->next_run;
	return first;
}

size_t profile_nr_runs(const struct profile *first)
{
	size_t n = 0;

	for (; first; first = first->next_run)
		n++;
	return n;
}

const char *profile_intern(struct profile *p, const char *s, size_t n)
{
	return strtab_intern(p->names, s, n);
}

const char *profile_strdup(struct profile *p, const char *s)
{
	return arena_strdup(&p->arena, s);
}

struct node *node_append_after(struct node *parent, struct node *prev, struct node *child)
{
	uint32_t ref = node_ref(child);

	child->parent_ref = node_ref(parent);
	child->next_ref = 0;
	if (prev)
		prev->next_ref = ref;
	else
		parent->child_ref = ref;
	return child;
}

/* Remember T as PARENT's last child.  The last parent is asked first: a
 * flat table appends row after row to one parent without a look-up.  The
 * one it leaves goes to the table, unless it has a single child (most
 * parents of a tree built depth first: a look-up would find it anyway). */
static void note_last_child(struct profile *p, struct node *parent, struct node *t)
{
	if (p->tail_parent != parent) {
		if (p->tail_parent && node_first_child(p->tail_parent) != p->tail)
			key_index_put(&p->tails, (uint64_t)(uintptr_t)p->tail_parent,
				      (size_t)(uintptr_t)p->tail);
		p->tail_parent = parent;
	}
	p->tail = t;
}

/*
 * The hint is a node that was PARENT's last child once.  While it is
 * still its child (whatever takes a node out clears its parent), the last
 * is at or after it; else the walk starts at the first child.  The walk
 * leaves a new hint, so each child is walked past about once: linear in
 * all, however appends with and without hints mix.
 */
struct node *node_last_child(struct profile *p, struct node *parent)
{
	struct node *t = NULL;

	if (p->tail_parent == parent) {
		t = p->tail;
	} else {
		size_t v = key_index_get(&p->tails, (uint64_t)(uintptr_t)parent);

		if (v != KEY_INDEX_NONE)
			t = (struct node *)(uintptr_t)v;
	}
	if (!t || node_parent(t) != parent)
		t = node_first_child(parent);
	if (!t)
		return NULL;
	while (node_next(t))
		t = node_next(t);
	note_last_child(p, parent, t);
	return t;
}

void node_append(struct profile *p, struct node *parent, struct node *child)
{
	node_append_after(parent, node_last_child(p, parent), child);
	note_last_child(p, parent, child);
}

void node_set_name(struct profile *p, struct node *n, const char *name)
{
	uint32_t number = strtab_number(name);

	/* A name from elsewhere would read another string's number: the
	 * wrong name, shown as if the file had it. */
	if (number >= p->names->nr || strtab_string(p->names, number) != name)
		die("bug: node name '%s' is not interned in profile %s", name, p->path);
	n->name_number = number;
}

struct node *node_new(struct profile *p, struct node *parent,
		      enum node_kind kind, const char *name, size_t name_len)
{
	return node_new_interned(p, parent, kind, strtab_intern(p->names, name, name_len));
}

struct node *node_new_interned(struct profile *p, struct node *parent,
			       enum node_kind kind, const char *name)
{
	struct node *n = pool_take(p);

	if (p->counts_follow_nodes)
		n->calls_state = NODE_ROOM;
	node_set_name(p, n, name);
	n->kind = kind;
	/* A node made once the tree is numbered (a tree derived from it)
	 * has the next id; before, profile_finish() numbers them all. */
	if (p->pool->has_ids)
		node_slab_ids(node_slab_of(n))[node_place(n)] = (uint32_t)p->nr_nodes;
	p->nr_nodes++;
	p->nr_spans = 0;	/* the tree changes: a walk by spans would miss it */
	if (parent)
		node_append(p, parent, n);
	return n;
}

const struct node_counts *node_counts_in_table(const struct profile *p, const struct node *n)
{
	size_t i = key_index_get(&p->counts_index, (uint64_t)(uintptr_t)n);

	/* Only the profile that made N has it: a wrong number otherwise. */
	if (i == KEY_INDEX_NONE)
		die("bug: node %s has no record of its calls in profile %s", node_name(n), p->path);
	return &p->counts[i];
}

/* N's record, made with the values N has now if it has none. */
static struct node_counts *counts_slot(struct profile *p, struct node *n)
{
	struct node_counts *c;

	if ((n->calls_state & NODE_CALLS_STATE) == NODE_COUNTED)
		return (struct node_counts *)node_counts_record(p, n);
	if (n->calls_state & NODE_ROOM) {
		c = (struct node_counts *)node_counts_record(p, n);
	} else {
		GROW(p->counts, p->alloc_counts, p->nr_counts + 1);
		c = &p->counts[p->nr_counts];
		key_index_put(&p->counts_index, (uint64_t)(uintptr_t)n, p->nr_counts++);
	}
	c->calls = node_calls(p, n);
	c->min_ns = c->max_ns = -1;
	n->calls_state = (uint8_t)((n->calls_state & NODE_ROOM) | NODE_COUNTED);
	return c;
}

void node_set_counted_calls(struct profile *p, struct node *n, uint64_t calls)
{
	counts_slot(p, n)->calls = calls;
}

void node_set_minmax(struct profile *p, struct node *n, int64_t min_ns, int64_t max_ns)
{
	struct node_counts *c;

	/* A least and a greatest call go together: one without the other,
	 * or a least above the greatest, is no pair (a file's garbage), and
	 * neither is kept.  So a row that merges nodes' pairs (aggregate.c,
	 * summary.c) has its least no greater than its greatest. */
	if (min_ns < 0 || max_ns < 0 || min_ns > max_ns)
		min_ns = max_ns = -1;
	if ((n->calls_state & NODE_CALLS_STATE) != NODE_COUNTED && min_ns == -1 && max_ns == -1)
		return;
	c = counts_slot(p, n);
	c->min_ns = min_ns;
	c->max_ns = max_ns;
}

/*
 * The lock is taken to read too: the table may grow under another
 * thread's write meanwhile.  It is not part of what P holds, so a reader
 * with a const profile takes it all the same.
 */
int64_t node_time_wide(const struct profile *p, const struct node *n, enum node_time t)
{
	pthread_mutex_t *lock = (pthread_mutex_t *)&p->wide_lock;
	size_t i;
	int64_t ns;

	pthread_mutex_lock(lock);
	i = key_index_get(&p->wide_index, (uint64_t)(uintptr_t)n);
	ns = i == KEY_INDEX_NONE ? 0 : p->wide_times[i].ns[t];
	pthread_mutex_unlock(lock);
	/* Only the profile that made N has it: a wrong number otherwise. */
	if (i == KEY_INDEX_NONE)
		die("bug: node %s has no record of its times in profile %s", node_name(n), p->path);
	return ns;
}

void node_set_time_wide(struct profile *p, struct node *n, enum node_time t, int64_t ns)
{
	size_t i;

	pthread_mutex_lock(&p->wide_lock);
	i = key_index_get(&p->wide_index, (uint64_t)(uintptr_t)n);
	if (i == KEY_INDEX_NONE) {
		GROW(p->wide_times, p->alloc_wide_times, p->nr_wide_times + 1);
		i = p->nr_wide_times++;
		memset(&p->wide_times[i], 0, sizeof(p->wide_times[i]));
		key_index_put(&p->wide_index, (uint64_t)(uintptr_t)n, i);
	}
	p->wide_times[i].ns[t] = ns;
	n->time32[t] = NODE_TIME_WIDE;
	pthread_mutex_unlock(&p->wide_lock);
}

struct node *node_child(struct profile *p, struct node *parent,
			enum node_kind kind, const char *name)
{
	for (struct node *c = node_first_child(parent); c; c = node_next(c))
		if (node_name(c) == name && c->kind == kind)
			return c;
	return node_new(p, parent, kind, name, strlen(name));
}

void node_unlink(struct node *n)
{
	struct node *parent = node_parent(n), *prev = NULL;

	if (!parent)
		return;
	for (struct node *c = node_first_child(parent); c; prev = c, c = node_next(c)) {
		if (c != n)
			continue;
		if (prev)
			prev->next_ref = n->next_ref;
		else
			parent->child_ref = n->next_ref;
		break;
	}
	n->parent_ref = n->next_ref = 0;
}

struct node *node_ancestor(const struct node *n, enum node_kind kind)
{
	for (struct node *a = node_parent(n); a; a = node_parent(a))
		if (a->kind == kind)
			return a;
	return NULL;
}

const struct attr *attr_find(const struct attr *list, const char *key)
{
	/* Keys are interned, so the pointers usually decide; the first
	 * byte spares a strcmp() for most keys that differ. */
	for (; list; list = attr_next(list)) {
		const char *k = attr_key(list);

		if (k == key || (k[0] == key[0] && !strcmp(k, key)))
			return list;
	}
	return NULL;
}

struct attr *node_attr(const struct node *n, const char *key)
{
	return (struct attr *)attr_find(node_attrs(n), key);
}

/* The attribute KEY of *LIST, appended if absent (keeps first-set order,
 * which is the column order panes show), now of TYPE. */
static struct attr *attr_slot(struct profile *p, uint32_t *list, const char *key, enum attr_type type)
{
	uint32_t *link = list;
	struct attr *a;
	struct attr_slab *slab;

	for (; *link; link = &a->next_ref) {
		a = attr_first(p->pool, *link);
		if (!strcmp(attr_key(a), key))
			goto found;
	}
	a = pool_take_attr(p, link);
	a->key_number = strtab_number(strtab_intern(p->names, key, strlen(key)));
found:
	slab = attr_slab_of(a);
	slab->types[a - (struct attr *)slab - ATTR_HEAD_PLACES] = (uint8_t)type;
	return a;
}

void attr_set_int(struct profile *p, uint32_t *list, const char *key, int64_t v)
{
	attr_slot(p, list, key, ATTR_INT)->v.i = v;
}

void attr_set_ns(struct profile *p, uint32_t *list, const char *key, int64_t ns)
{
	attr_slot(p, list, key, ATTR_NS)->v.i = ns;
}

void attr_set_double(struct profile *p, uint32_t *list, const char *key, double v)
{
	attr_slot(p, list, key, ATTR_DOUBLE)->v.d = v;
}

void attr_set_str(struct profile *p, uint32_t *list, const char *key, const char *s, size_t n)
{
	const char *copy = arena_strndup(&p->arena, s, n);

	attr_slot(p, list, key, ATTR_STRING)->v.s = copy;
}

void attr_set_interned(struct profile *p, uint32_t *list, const char *key, const char *s)
{
	attr_slot(p, list, key, ATTR_STRING)->v.s = s;
}

void attr_set_launch(struct profile *p, uint32_t *list, const struct launch *l)
{
	attr_slot(p, list, "launch", ATTR_LAUNCH)->v.launch = l;
}

void attr_set_stack(struct profile *p, uint32_t *list, const struct call_stack *s)
{
	attr_slot(p, list, "call_stack", ATTR_STACK)->v.stack = s;
}

const struct launch *node_launch(const struct node *n)
{
	for (const struct attr *a = node_attrs(n); a; a = attr_next(a))
		if (attr_type(a) == ATTR_LAUNCH)
			return a->v.launch;
	return NULL;
}

void launch_init(struct launch *l)
{
	memset(l, 0, sizeof(*l));
	l->device = l->stream = -1;
	l->registers_per_thread = -1;
	l->shared_memory_bytes = -1;
	l->blocks_per_sm = NAN;
	l->occupancy_pct = NAN;
}

/*
 * Interned launches: an open-addressed table of pointers into the arena,
 * keyed by the bytes of the struct (NaN fields compare by their bits,
 * which launch_init() makes the same).  A 1 GB trace launches a million
 * kernels in a few hundred configurations.
 */
struct launch_index {
	const struct launch **slots;
	size_t nr, alloc;
	const struct launch *last;	/* kernels in a row often share one */
};

/* Keyed (siphash.h): the fields are the file's, and FNV-1a, used here
 * before, has collisions one can construct, which no mixing after it
 * would have undone. */
static uint64_t launch_hash(const struct launch *l)
{
	return siphash13(&hash_key, l, sizeof(*l));
}

static void launch_index_free(struct launch_index *ix)
{
	if (!ix)
		return;
	free(ix->slots);
	free(ix);
}

const struct launch *profile_launch(struct profile *p, const struct launch *l)
{
	struct launch_index *ix = p->launches;
	struct launch key;
	size_t i;

	/* Compare whole structs: padding must be zero too. */
	memset(&key, 0, sizeof(key));
	key.device = l->device;
	key.stream = l->stream;
	memcpy(key.grid, l->grid, sizeof(key.grid));
	memcpy(key.block, l->block, sizeof(key.block));
	key.registers_per_thread = l->registers_per_thread;
	key.shared_memory_bytes = l->shared_memory_bytes;
	key.blocks_per_sm = l->blocks_per_sm;
	key.occupancy_pct = l->occupancy_pct;
	if (!ix)
		ix = p->launches = xcalloc(1, sizeof(*ix));
	if (ix->last && !memcmp(ix->last, &key, sizeof(key)))
		return ix->last;
	if (2 * (ix->nr + 1) > ix->alloc) {
		const struct launch **old = ix->slots;
		size_t old_alloc = ix->alloc;

		ix->alloc = ix->alloc ? 2 * ix->alloc : 64;
		ix->slots = xcalloc(ix->alloc, sizeof(*ix->slots));
		for (size_t k = 0; k < old_alloc; k++) {
			if (!old[k])
				continue;
			for (i = launch_hash(old[k]) & (ix->alloc - 1); ix->slots[i];
			     i = (i + 1) & (ix->alloc - 1))
				;
			ix->slots[i] = old[k];
		}
		free(old);
	}
	for (i = launch_hash(&key) & (ix->alloc - 1); ix->slots[i]; i = (i + 1) & (ix->alloc - 1))
		if (!memcmp(ix->slots[i], &key, sizeof(key)))
			return ix->last = ix->slots[i];
	{
		struct launch *copy = arena_alloc_aligned(&p->arena, sizeof(*copy),
							  alignof(struct launch));

		memcpy(copy, &key, sizeof(key));
		ix->slots[i] = copy;
		ix->nr++;
		return ix->last = copy;
	}
}

struct device_info *profile_add_device(struct profile *p, int32_t id)
{
	struct device_info *d;

	GROW(p->devices, p->alloc_devices, p->nr_devices + 1);
	d = &p->devices[p->nr_devices++];
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->total_memory_bytes = -1;
	d->cc_major = d->cc_minor = -1;
	d->num_sms = d->max_threads_per_sm = d->max_threads_per_block = -1;
	d->regs_per_sm = d->warp_size = -1;
	d->shared_mem_per_sm_bytes = -1;
	return d;
}

const struct device_info *profile_device(const struct profile *p, int32_t id)
{
	for (size_t i = 0; i < p->nr_devices; i++)
		if (p->devices[i].id == id)
			return &p->devices[i];
	return NULL;
}

struct mem_event *profile_add_mem_event(struct profile *p)
{
	struct mem_event *m;

	GROW(p->mem_events, p->alloc_mem_events, p->nr_mem_events + 1);
	m = &p->mem_events[p->nr_mem_events++];
	memset(m, 0, sizeof(*m));
	m->total_allocated = m->total_reserved = -1;
	m->addr = MEM_NO_ADDR;
	m->device = (struct mem_device){ .index = -1, .type = DEVICE_CPU };
	return m;
}

void profile_set_step_cats(struct profile *p, const char *const *names, size_t n)
{
	const char **cats = arena_alloc(&p->arena, (n ? n : 1) * sizeof(*cats));

	for (size_t i = 0; i < n; i++)
		cats[i] = strtab_intern(p->names, names[i], strlen(names[i]));
	p->step_cats = cats;
	p->nr_step_cats = n;
}

struct step *profile_add_step(struct profile *p, const char *name, size_t name_len)
{
	struct step *s;

	GROW(p->steps, p->alloc_steps, p->nr_steps + 1);
	s = &p->steps[p->nr_steps++];
	memset(s, 0, sizeof(*s));
	s->name = strtab_intern(p->names, name, name_len);
	s->cat_ns = arena_alloc(&p->arena, (p->nr_step_cats ? p->nr_step_cats : 1) * sizeof(int64_t));
	for (size_t i = 0; i < p->nr_step_cats; i++)
		s->cat_ns[i] = -1;
	return s;
}

int profile_step_cat(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->nr_step_cats; i++)
		if (!strcmp(p->step_cats[i], name))
			return (int)i;
	return -1;
}

void profile_meta(struct profile *p, const char *section, const char *key, const char *value)
{
	struct meta *m = arena_alloc(&p->arena, sizeof(*m));

	m->section = strtab_intern(p->names, section, strlen(section));
	m->key = arena_strdup(&p->arena, key);
	m->value = arena_strdup(&p->arena, value ? value : "");
	if (p->meta_tail)
		p->meta_tail->next = m;
	else
		p->meta = m;
	p->meta_tail = m;
}

const char *profile_meta_get(const struct profile *p, const char *section, const char *key)
{
	for (const struct meta *m = p->meta; m; m = m->next)
		if (!strcmp(m->section, section) && !strcmp(m->key, key))
			return m->value;
	return NULL;
}

void profile_warn(struct profile *p, const char *text, uint64_t count)
{
	struct warning *w;

	for (w = p->warnings; w; w = w->next) {
		if (!strcmp(w->text, text)) {
			w->count += count;
			return;
		}
	}
	w = arena_alloc(&p->arena, sizeof(*w));
	w->text = arena_strdup(&p->arena, text);
	w->count = count;
	if (p->warnings_tail)
		p->warnings_tail->next = w;
	else
		p->warnings = w;
	p->warnings_tail = w;
}

void node_walk(struct node *from, bool (*fn)(struct node *n, void *ctx), void *ctx)
{
	struct node_cursor at = { from ? node_slab_of(from)->pool : NULL, 0, NULL };
	struct node *n = from;

	/* Iterative: traces nest deep enough to make recursion a risk. */
	while (n) {
		/* The next sibling is read while the children are: nodes lie
		 * wherever the parser made them, and the two misses overlap
		 * (a walk of 2.5 M nodes: 30 ms rather than 45). */
		if (n->next_ref) {
			const struct node *next = node_cursor_at(&at, n->next_ref);

			PREFETCH(next);
			PREFETCH((const char *)next + sizeof(*next) - 1);
		}
		if (fn(n, ctx) && n->child_ref) {
			n = node_cursor_at(&at, n->child_ref);
			continue;
		}
		while (n != from && !n->next_ref)
			n = node_cursor_at(&at, n->parent_ref);
		if (n == from)
			break;
		n = node_cursor_at(&at, n->next_ref);
	}
}

void node_walk_starting(const struct profile *p, int64_t lo, int64_t hi,
			bool (*fn)(struct node *n, void *ctx), void *ctx)
{
	size_t k = 0;

	if (!p->nr_spans) {
		node_walk(p->root, fn, ctx);	/* not finished, or no top nodes */
		return;
	}
	if (!fn(p->root, ctx))
		return;
	/* The spans, in the tree's order, name their thread: a top node
	 * left out is not even read. */
	for (struct node *t = node_first_child(p->root); t; t = node_next(t)) {
		bool open = fn(t, ctx);

		for (; k < p->nr_spans && p->spans[k].thread == t; k++)
			if (open && p->spans[k].max_start >= lo && p->spans[k].min_start < hi)
				node_walk(p->spans[k].top, fn, ctx);
	}
}

struct finish_ctx {
	struct profile *p;
	uint32_t next_id;
};

/* The walk is in pre-order: a top node's subtree is the run of nodes
 * after it until the next node at depth 1 or 2. */
static void add_to_span(struct profile *p, struct node *n)
{
	struct node_span *s;

	if (n == p->root || node_parent(n) == p->root)
		return;
	if (node_parent(node_parent(n)) == p->root) {
		GROW(p->spans, p->alloc_spans, p->nr_spans + 1);
		p->spans[p->nr_spans++] = (struct node_span){ node_parent(n), n, n->start_ns, n->start_ns };
		return;
	}
	s = &p->spans[p->nr_spans - 1];
	if (n->start_ns < s->min_start)
		s->min_start = n->start_ns;
	if (n->start_ns > s->max_start)
		s->max_start = n->start_ns;
}

static bool number_node(struct node *n, void *ctx)
{
	struct finish_ctx *f = ctx;

	add_to_span(f->p, n);
	node_slab_ids(node_slab_of(n))[node_place(n)] = f->next_id++;
	if (node_device_self(f->p, n) || node_device_total(f->p, n))
		f->p->has_device_time = true;
	if (node_is_timed(n))
		f->p->has_timeline = true;
	return true;
}

void profile_finish(struct profile *p)
{
	struct finish_ctx f = { p, 0 };
	bool device = p->has_device_time, timeline = p->has_timeline;

	p->has_device_time = false;
	p->has_timeline = false;
	p->nr_spans = 0;
	/* The tree is whole: an append after this (a derived tree) finds its
	 * parent's last child again, once. */
	key_index_release(&p->tails);
	p->tail_parent = p->tail = NULL;
	strtab_settle(p->names);	/* the parser's threads are done */
	node_walk(p->root, number_node, &f);
	p->nr_nodes = f.next_id;
	p->pool->has_ids = true;
	/* A summary states both of the trace it was made from; its rows
	 * alone may not show them (device time only off the rows). */
	if (p->is_summary) {
		p->has_device_time = device;
		p->has_timeline = timeline;
	}
}
