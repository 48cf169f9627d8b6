// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

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

/* An empty profile P with the names and pool of FIRST, a run of the
 * same file, or (FIRST NULL) of its own. */
static void init_run(struct profile *p, const char *path, const struct profile *first)
{
	memset(p, 0, sizeof(*p));
	arena_init(&p->arena);
	if (first) {
		p->names = first->names;
	} else {
		p->names = xmalloc(sizeof(*p->names));
		strtab_init(p->names, &p->arena);
		p->owns_names_and_pool = true;
	}
	pool_open_run(p, first);
	call_stacks_init(&p->stacks, &p->arena, p->names);
	p->path = arena_strdup(&p->arena, path ? path : "");
	p->root = node_new(p, NULL, NODE_ROOT, "<all>", 5);
	p->dist.rank = p->dist.world_size = -1;
}

void profile_init(struct profile *p, const char *path)
{
	init_run(p, path, NULL);
}

static void drop_family_state(struct profile *p)
{
	if (p->family_state && p->family_state_free)
		p->family_state_free(p->family_state);
	p->family_state = NULL;
	p->family_state_free = NULL;
}

void profile_release(struct profile *p)
{
	struct profile *run = p->next_run;

	drop_family_state(p);

	while (run) {
		struct profile *next = run->next_run;

		run->next_run = NULL;
		profile_release(run);
		free(run);
		run = next;
	}
	free(p->steps);
	free(p->devices);
	free(p->mem_events);
	free(p->copy_streams);
	free(p->cuda_syncs);
	free(p->counter_recs);
	launch_index_free(p->launches);
	call_stacks_release(&p->stacks);
	/* The first run's, after its later runs: the names' strings lie
	 * in its arena. */
	pool_close_run(p);
	if (p->owns_names_and_pool) {
		strtab_release(p->names);
		free(p->names);
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
	pool_follow_first_run(run, first);
	run->format = first->format;
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

const struct step *profile_step_named(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->nr_steps; i++)
		if (!strcmp(p->steps[i].name, name))
			return &p->steps[i];
	return NULL;
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

static int cmp_copy_stream(const void *a, const void *b)
{
	const struct copy_stream *x = a, *y = b;

	return (x->handle > y->handle) - (x->handle < y->handle);
}

void profile_set_copy_stream(struct profile *p, const struct node *n, int32_t device,
			     int32_t stream)
{
	profile_set_copy(p, n, device, stream, -1, NAN);
}

void profile_set_copy(struct profile *p, const struct node *n, int32_t device, int32_t stream,
		      int64_t bytes, double gbps)
{
	struct copy_stream *c;

	GROW(p->copy_streams, p->alloc_copy_streams, p->nr_copy_streams + 1);
	c = &p->copy_streams[p->nr_copy_streams++];
	c->handle = node_handle(n);
	c->device = device;
	c->stream = stream;
	c->bytes = bytes;
	c->gbps = gbps;
	if (p->nr_copy_streams > 1 && c[-1].handle > c->handle)
		p->copy_streams_unsorted = true;
}

void profile_add_cuda_sync(struct profile *p, const struct cuda_sync *s)
{
	GROW(p->cuda_syncs, p->alloc_cuda_syncs, p->nr_cuda_syncs + 1);
	p->cuda_syncs[p->nr_cuda_syncs++] = *s;
}

void profile_add_counter(struct profile *p, const struct counter_rec *r)
{
	GROW(p->counter_recs, p->alloc_counter_recs, p->nr_counter_recs + 1);
	p->counter_recs[p->nr_counter_recs++] = *r;
}

const struct copy_stream *profile_copy(const struct profile *p, const struct node *n)
{
	struct copy_stream key = { .handle = node_handle(n) };

	if (!p->nr_copy_streams)
		return NULL;
	return bsearch(&key, p->copy_streams, p->nr_copy_streams, sizeof(key), cmp_copy_stream);
}

bool profile_copy_stream(const struct profile *p, const struct node *n, int32_t *device,
			 int32_t *stream)
{
	const struct copy_stream *c = profile_copy(p, n);

	if (!c)
		return false;
	*device = c->device;
	*stream = c->stream;
	return true;
}

void profile_finish(struct profile *p)
{
	bool device = p->has_device_time, timeline = p->has_timeline;

	drop_family_state(p);
	if (p->copy_streams_unsorted) {
		qsort(p->copy_streams, p->nr_copy_streams, sizeof(*p->copy_streams),
		      cmp_copy_stream);
		p->copy_streams_unsorted = false;
	}

	strtab_settle(p->names);	/* the parser's threads are done */
	pool_number_tree(p);
	/* A summary states both of the trace it was made from; its rows
	 * alone may not show them (device time only off the rows). */
	if (p->is_summary) {
		p->has_device_time = device;
		p->has_timeline = timeline;
	}
}
