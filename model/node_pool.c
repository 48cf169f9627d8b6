// SPDX-License-Identifier: MIT
/*
 * node_pool: a profile's nodes and attributes, in slabs (node_pool.h), and
 * what each run keeps beside them (struct pool_books): the tree's builders,
 * the records of calls and of wide times, the walks, and the numbering
 * profile_finish() asks for.  profile.c asks for a run's pool and books
 * with pool_open_run() and gives them back with pool_close_run().
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "profile.h"
#include "util.h"

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
	n = pool_node_at(pool, ref);
	slab = node_slab_of(n);
	if (p->books.counts_per_node && !slab->counts)
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
	return memset(pool_attr_at(pool, ref), 0, sizeof(struct attr));
}

void pool_open_run(struct profile *p, const struct profile *first)
{
	p->pool = first ? first->pool : pool_new(p->names);
	pthread_mutex_init(&p->books.wide_lock, NULL);
}

void pool_close_run(struct profile *p)
{
	struct pool_books *b = &p->books;

	free(b->spans);
	free(b->counts);
	key_index_release(&b->counts_index);
	free(b->wide_times);
	key_index_release(&b->wide_index);
	pthread_mutex_destroy(&b->wide_lock);
	key_index_release(&b->tails);
	/* The first run's, after its later runs (profile_release()). */
	if (p->owns_names_and_pool)
		pool_release(p->pool);
}

void pool_follow_first_run(struct profile *run, const struct profile *first)
{
	run->books.counts_per_node = first->books.counts_per_node;
}

void profile_set_counts_per_node(struct profile *p)
{
	p->books.counts_per_node = true;
}

uint64_t node_handle_bound(const struct profile *p)
{
	return (uint64_t)p->pool->nodes.nr_slabs << NODE_SLAB_SHIFT;
}

void node_prepend(struct node *parent, struct node *child)
{
	child->parent_ref = node_ref(parent);
	child->next_ref = parent->child_ref;
	parent->child_ref = node_ref(child);
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
	if (p->books.tail_parent != parent) {
		if (p->books.tail_parent && node_first_child(p->books.tail_parent) != p->books.tail)
			key_index_put(&p->books.tails, (uint64_t)(uintptr_t)p->books.tail_parent,
				      (size_t)(uintptr_t)p->books.tail);
		p->books.tail_parent = parent;
	}
	p->books.tail = t;
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

	if (p->books.tail_parent == parent) {
		t = p->books.tail;
	} else {
		size_t v = key_index_get(&p->books.tails, (uint64_t)(uintptr_t)parent);

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

	if (p->books.counts_per_node)
		n->calls_state = NODE_ROOM;
	node_set_name(p, n, name);
	n->kind = kind;
	/* A node made once the tree is numbered (a tree derived from it)
	 * has the next id; before, profile_finish() numbers them all. */
	if (p->pool->has_ids)
		node_slab_ids(node_slab_of(n))[node_place(n)] = (uint32_t)p->nr_nodes;
	p->nr_nodes++;
	p->books.nr_spans = 0;	/* the tree changes: a walk by spans would miss it */
	if (parent)
		node_append(p, parent, n);
	return n;
}

const struct node_counts *node_counts_in_table(const struct profile *p, const struct node *n)
{
	size_t i = key_index_get(&p->books.counts_index, (uint64_t)(uintptr_t)n);

	/* Only the profile that made N has it: a wrong number otherwise. */
	if (i == KEY_INDEX_NONE)
		die("bug: node %s has no record of its calls in profile %s", node_name(n), p->path);
	return &p->books.counts[i];
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
		GROW(p->books.counts, p->books.alloc_counts, p->books.nr_counts + 1);
		c = &p->books.counts[p->books.nr_counts];
		key_index_put(&p->books.counts_index, (uint64_t)(uintptr_t)n, p->books.nr_counts++);
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
	pthread_mutex_t *lock = (pthread_mutex_t *)&p->books.wide_lock;
	size_t i;
	int64_t ns;

	pthread_mutex_lock(lock);
	i = key_index_get(&p->books.wide_index, (uint64_t)(uintptr_t)n);
	ns = i == KEY_INDEX_NONE ? 0 : p->books.wide_times[i].ns[t];
	pthread_mutex_unlock(lock);
	/* Only the profile that made N has it: a wrong number otherwise. */
	if (i == KEY_INDEX_NONE)
		die("bug: node %s has no record of its times in profile %s", node_name(n), p->path);
	return ns;
}

void node_set_time_wide(struct profile *p, struct node *n, enum node_time t, int64_t ns)
{
	size_t i;

	pthread_mutex_lock(&p->books.wide_lock);
	i = key_index_get(&p->books.wide_index, (uint64_t)(uintptr_t)n);
	if (i == KEY_INDEX_NONE) {
		GROW(p->books.wide_times, p->books.alloc_wide_times, p->books.nr_wide_times + 1);
		i = p->books.nr_wide_times++;
		memset(&p->books.wide_times[i], 0, sizeof(p->books.wide_times[i]));
		key_index_put(&p->books.wide_index, (uint64_t)(uintptr_t)n, i);
	}
	p->books.wide_times[i].ns[t] = ns;
	n->time32[t] = NODE_TIME_WIDE;
	pthread_mutex_unlock(&p->books.wide_lock);
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

void node_detach_children(struct node *parent)
{
	struct node *c = node_first_child(parent), *next;

	for (; c; c = next) {
		next = node_next(c);
		c->parent_ref = c->next_ref = 0;
	}
	parent->child_ref = 0;
}

void node_fold_only_child(struct node *n)
{
	struct node *child = node_first_child(n);

	n->child_ref = child->child_ref;
	for (struct node *c = node_first_child(n); c; c = node_next(c))
		c->parent_ref = node_ref(n);
	child->parent_ref = child->child_ref = 0;
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

struct attr *attr_list_first(const struct profile *p, const struct attr_list *list)
{
	return pool_attr_at(p->pool, list->first_ref);
}

/* Stable insertion sort: each attribute goes after those not above it. */
void attr_list_sort(const struct profile *p, struct attr_list *list,
		    int (*cmp)(const struct attr *a, const struct attr *b))
{
	uint32_t sorted = 0, ref = list->first_ref;

	while (ref) {
		struct attr *a = pool_attr_at(p->pool, ref);
		uint32_t next = a->next_ref, *at = &sorted;

		while (*at && cmp(pool_attr_at(p->pool, *at), a) <= 0)
			at = &pool_attr_at(p->pool, *at)->next_ref;
		a->next_ref = *at;
		*at = ref;
		ref = next;
	}
	list->first_ref = sorted;
}

struct attr *node_attr(const struct node *n, const char *key)
{
	return (struct attr *)attr_find(node_attrs(n), key);
}

/* The attribute KEY of *LIST, appended if absent (keeps first-set order,
 * which is the column order panes show), now of TYPE. */
static struct attr *attr_slot(struct profile *p, struct attr_list *list, const char *key,
			      enum attr_type type)
{
	uint32_t *link = &list->first_ref;
	struct attr *a;
	struct attr_slab *slab;

	for (; *link; link = &a->next_ref) {
		a = pool_attr_at(p->pool, *link);
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

void attr_set_int(struct profile *p, struct attr_list *list, const char *key, int64_t v)
{
	attr_slot(p, list, key, ATTR_INT)->v.i = v;
}

void attr_set_ns(struct profile *p, struct attr_list *list, const char *key, int64_t ns)
{
	attr_slot(p, list, key, ATTR_NS)->v.i = ns;
}

void attr_set_double(struct profile *p, struct attr_list *list, const char *key, double v)
{
	attr_slot(p, list, key, ATTR_DOUBLE)->v.d = v;
}

void attr_set_str(struct profile *p, struct attr_list *list, const char *key, const char *s, size_t n)
{
	const char *copy = arena_strndup(&p->arena, s, n);

	attr_slot(p, list, key, ATTR_STRING)->v.s = copy;
}

void attr_set_interned(struct profile *p, struct attr_list *list, const char *key, const char *s)
{
	attr_slot(p, list, key, ATTR_STRING)->v.s = s;
}

void attr_set_launch(struct profile *p, struct attr_list *list, const struct launch *l)
{
	attr_slot(p, list, "launch", ATTR_LAUNCH)->v.launch = l;
}

void attr_set_stack(struct profile *p, struct attr_list *list, const struct call_stack *s)
{
	attr_slot(p, list, "call_stack", ATTR_STACK)->v.stack = s;
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

	if (!p->books.nr_spans) {
		node_walk(p->root, fn, ctx);	/* not finished, or no top nodes */
		return;
	}
	if (!fn(p->root, ctx))
		return;
	/* The spans, in the tree's order, name their thread: a top node
	 * left out is not even read. */
	for (struct node *t = node_first_child(p->root); t; t = node_next(t)) {
		bool open = fn(t, ctx);

		for (; k < p->books.nr_spans && p->books.spans[k].thread == t; k++)
			if (open && p->books.spans[k].max_start >= lo && p->books.spans[k].min_start < hi)
				node_walk(p->books.spans[k].top, fn, ctx);
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
		GROW(p->books.spans, p->books.alloc_spans, p->books.nr_spans + 1);
		p->books.spans[p->books.nr_spans++] = (struct node_span){ node_parent(n), n, n->start_ns, n->start_ns };
		return;
	}
	s = &p->books.spans[p->books.nr_spans - 1];
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

void pool_number_tree(struct profile *p)
{
	struct finish_ctx f = { p, 0 };

	p->has_device_time = false;
	p->has_timeline = false;
	p->books.nr_spans = 0;
	/* The tree is whole: an append after this (a derived tree) finds its
	 * parent's last child again, once. */
	key_index_release(&p->books.tails);
	p->books.tail_parent = p->books.tail = NULL;
	node_walk(p->root, number_node, &f);
	p->nr_nodes = f.next_id;
	p->pool->has_ids = true;
}

size_t profile_nr_top_nodes(const struct profile *p)
{
	return p->books.nr_spans;
}

struct node *profile_top_node(const struct profile *p, size_t i)
{
	return i < p->books.nr_spans ? p->books.spans[i].top : NULL;
}
