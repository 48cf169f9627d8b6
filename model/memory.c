// SPDX-License-Identifier: MIT
/*
 * The Memory view (memory.h), following torch-tb-profiler's
 * memory_parser.py and run.py, whose definitions the parity tests check
 * on the corpus.  Where the plugin is odd, this file says so and follows
 * it: the numbers are meant to be the plugin's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "memory.h"
#include "util.h"

/* c10's names of its device types (DeviceTypeName()), but CUDA's: the
 * plugin calls those GPUs. */
static const char *const type_names[NR_DEVICE_TYPES] = {
	[DEVICE_CPU] = "CPU", [DEVICE_CUDA] = "GPU", [DEVICE_MKLDNN] = "MKLDNN",
	[DEVICE_OPENGL] = "OPENGL", [DEVICE_OPENCL] = "OPENCL", [DEVICE_IDEEP] = "IDEEP",
	[DEVICE_HIP] = "HIP", [DEVICE_FPGA] = "FPGA", [DEVICE_MAIA] = "MAIA", [DEVICE_XLA] = "XLA",
	[DEVICE_VULKAN] = "VULKAN", [DEVICE_METAL] = "METAL", [DEVICE_XPU] = "XPU",
	[DEVICE_MPS] = "MPS", [DEVICE_META] = "META", [DEVICE_HPU] = "HPU", [DEVICE_VE] = "VE",
	[DEVICE_LAZY] = "LAZY", [DEVICE_IPU] = "IPU", [DEVICE_MTIA] = "MTIA",
	[DEVICE_PRIVATEUSE1] = "PrivateUse1",
};

const char *mem_device_name(struct mem_device device, char *buf, size_t size)
{
	const char *name = device.type < NR_DEVICE_TYPES ? type_names[device.type] : "?";
	char last = name[strlen(name) - 1];

	if (device.type == DEVICE_CPU)
		snprintf(buf, size, "CPU");
	else	/* "PrivateUse1:0", not "PrivateUse10" */
		snprintf(buf, size, "%s%s%d", name, last >= '0' && last <= '9' ? ":" : "",
			 (int)device.index);
	return buf;
}

bool mem_device_eq(struct mem_device a, struct mem_device b)
{
	return a.type == b.type && a.index == b.index;
}

static int cmp_device(const void *a, const void *b)
{
	const struct mem_device *x = a, *y = b;

	/* By type (CUDA's first), then index; the CPU last. */
	if ((x->type == DEVICE_CPU) != (y->type == DEVICE_CPU))
		return x->type == DEVICE_CPU ? 1 : -1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* The distinct devices of P's events, unordered, into a new array of
 * *NR: a short list scanned while there are few (one or two, nearly
 * always), a sort of every event's device past that, so that a file with
 * thousands of devices costs n log n, not n times the devices. */
static struct mem_device *distinct_devices(const struct profile *p, size_t *nr)
{
	enum { FEW = 16 };
	struct mem_device *v = xmalloc(FEW * sizeof(*v));
	size_t n = 0, i;

	for (i = 0; i < p->nr_mem_events; i++) {
		struct mem_device d = p->mem_events[i].device;
		size_t k;

		for (k = 0; k < n && !mem_device_eq(v[k], d); k++)
			;
		if (k < n)
			continue;
		if (n == FEW)
			break;
		v[n++] = d;
	}
	if (i < p->nr_mem_events) {
		free(v);
		v = xmalloc(p->nr_mem_events * sizeof(*v));
		for (i = 0; i < p->nr_mem_events; i++)
			v[i] = p->mem_events[i].device;
		qsort(v, p->nr_mem_events, sizeof(*v), cmp_device);
		for (i = 0, n = 0; i < p->nr_mem_events; i++)
			if (!n || !mem_device_eq(v[n - 1], v[i]))
				v[n++] = v[i];
	}
	*nr = n;
	return v;
}

struct mem_device *mem_devices(const struct profile *p, size_t *nr)
{
	struct mem_device *v = distinct_devices(p, nr);

	qsort(v, *nr, sizeof(*v), cmp_device);
	return v;
}

size_t mem_device_index(const struct mem_device *devices, size_t nr, struct mem_device device)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_device(&devices[mid], &device);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return nr;
}

/* The events in time order, ties in file order (the plugin's stable
 * sort by ts).  Caller frees.  What the comparisons read is the
 * calling thread's, as every sort's state here: profiles are worked on
 * by several threads at once. */
static _Thread_local const struct mem_event *sort_base;

static int cmp_by_time(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;

	if (sort_base[i].ts_ns != sort_base[j].ts_ns)
		return sort_base[i].ts_ns < sort_base[j].ts_ns ? -1 : 1;
	return (i > j) - (i < j);
}

static uint32_t *by_time(const struct profile *p)
{
	uint32_t *idx = xmalloc((p->nr_mem_events ? p->nr_mem_events : 1) * sizeof(*idx));

	for (size_t i = 0; i < p->nr_mem_events; i++)
		idx[i] = (uint32_t)i;
	sort_base = p->mem_events;
	qsort(idx, p->nr_mem_events, sizeof(*idx), cmp_by_time);
	return idx;
}

static bool in_range(const struct mem_range *r, int64_t ts)
{
	return !r || !r->is_set || (ts >= r->start_ns && ts <= r->end_ns);
}

/* The plugin's is_operator_node(): ops that are Operators rows. */
static bool is_op(const struct node *n)
{
	return n && n->kind == NODE_OP && node_is_op_row(n);
}

/* Host nodes: what the plugin's tree holds (runtime calls and device
 * work hang beside it there). */
static bool is_host(const struct node *n)
{
	return n->kind == NODE_OP || n->kind == NODE_STEP || n->kind == NODE_ANNOTATION ||
	       n->kind == NODE_MODULE;
}

/* ---------------------------------------------------------------------
 * Statistics
 */

/* Rows by (op name, device): open addressing on the interned name. */
struct stat_index {
	struct mem_stats *out;
	size_t *slots;			/* row index + 1; 0 free */
	size_t alloc;
};

/* One number per device, for hashing. */
static uint64_t device_key(struct mem_device d)
{
	return (uint64_t)d.type << 32 | (uint32_t)d.index;
}

static size_t stat_hash(const char *name, struct mem_device device)
{
	return (size_t)hash_u64((uint64_t)(uintptr_t)name * 31 + device_key(device));
}

static struct mem_stat *stat_row(struct stat_index *ix, const char *name, struct mem_device device)
{
	struct mem_stats *out = ix->out;
	size_t i;

	if (2 * (out->nr + 1) > ix->alloc) {
		free(ix->slots);
		ix->alloc = ix->alloc ? 2 * ix->alloc : 64;
		ix->slots = xcalloc(ix->alloc, sizeof(*ix->slots));
		for (size_t r = 0; r < out->nr; r++) {
			for (i = stat_hash(out->rows[r].name, out->rows[r].device) & (ix->alloc - 1);
			     ix->slots[i]; i = (i + 1) & (ix->alloc - 1))
				;
			ix->slots[i] = r + 1;
		}
	}
	for (i = stat_hash(name, device) & (ix->alloc - 1); ix->slots[i]; i = (i + 1) & (ix->alloc - 1)) {
		struct mem_stat *row = &out->rows[ix->slots[i] - 1];

		if (row->name == name && mem_device_eq(row->device, device))
			return row;
	}
	GROW(out->rows, out->alloc, out->nr + 1);
	memset(&out->rows[out->nr], 0, sizeof(out->rows[0]));
	out->rows[out->nr].name = name;
	out->rows[out->nr].device = device;
	ix->slots[i] = ++out->nr;
	return &out->rows[out->nr - 1];
}

/* Calls per op name (interned: by pointer). */
struct call_count {
	const char **names;
	uint64_t *counts;
	size_t alloc, nr;
};

static uint64_t *call_slot(struct call_count *c, const char *name)
{
	size_t i;

	if (2 * (c->nr + 1) > c->alloc) {
		const char **old_names = c->names;
		uint64_t *old_counts = c->counts;
		size_t old_alloc = c->alloc;

		c->alloc = c->alloc ? 2 * c->alloc : 256;
		c->names = xcalloc(c->alloc, sizeof(*c->names));
		c->counts = xcalloc(c->alloc, sizeof(*c->counts));
		for (size_t k = 0; k < old_alloc; k++) {
			if (!old_names[k])
				continue;
			for (i = hash_ptr(old_names[k]) & (c->alloc - 1); c->names[i];
			     i = (i + 1) & (c->alloc - 1))
				;
			c->names[i] = old_names[k];
			c->counts[i] = old_counts[k];
		}
		free(old_names);
		free(old_counts);
	}
	for (i = hash_ptr(name) & (c->alloc - 1); c->names[i]; i = (i + 1) & (c->alloc - 1))
		if (c->names[i] == name)
			return &c->counts[i];
	c->names[i] = name;
	c->nr++;
	return &c->counts[i];
}

static int64_t end_of(const struct profile *p, const struct node *n)
{
	return n->start_ns + node_host_total(p, n);
}

/*
 * The calls column is the plugin's op_calls: over the ops its statistics
 * walk reached, not over every call of the op.  That walk starts at each
 * thread's top-level nodes and goes into a node's children only when the
 * node holds some memory event (of any device, in the range or not); an
 * op under a node that holds none is not counted.  The walk also passes
 * over nodes outside the range.  An odd definition, kept for parity, and
 * said so in the column's help.
 */
static void count_calls(const struct profile *p, const uint8_t *holds,
			const struct mem_range *r, struct call_count *calls)
{
	struct node **stack = NULL;
	size_t depth = 0, alloc = 0;

	for (struct node *t = node_first_child(p->root); t; t = node_next(t)) {
		if (t->kind != NODE_THREAD)
			continue;
		for (struct node *c = node_first_child(t); c; c = node_next(c)) {
			if (!is_host(c))
				continue;
			GROW(stack, alloc, depth + 1);
			stack[depth++] = c;
		}
		while (depth) {
			struct node *n = stack[--depth];

			if (r && r->is_set && (end_of(p, n) < r->start_ns || n->start_ns > r->end_ns))
				continue;
			if (is_op(n))
				(*call_slot(calls, node_name(n)))++;
			if (!holds[node_id(n)])
				continue;
			for (struct node *c = node_first_child(n); c; c = node_next(c)) {
				if (!is_host(c))
					continue;
				GROW(stack, alloc, depth + 1);
				stack[depth++] = c;
			}
		}
	}
	free(stack);
}

static _Thread_local struct mem_device *sort_devices;
static _Thread_local size_t sort_nr_devices;

static int cmp_stat(const void *a, const void *b)
{
	const struct mem_stat *x = a, *y = b;
	size_t dx = mem_device_index(sort_devices, sort_nr_devices, x->device);
	size_t dy = mem_device_index(sort_devices, sort_nr_devices, y->device);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * get_memory_statistics: each memory event counts for the op it happened
 * in (its self columns) and for every op above it (the others); an event
 * in a node that is no op row (a step, a module, the DataLoader) counts
 * for nothing.  Self Size Increase sums the bytes (frees are negative),
 * Allocation Count / Size only the allocations.  Rows sum over the op's
 * nodes; a row is kept when any of its numbers is not zero.
 */
void mem_stats(const struct profile *p, const struct mem_range *r, struct mem_stats *out)
{
	uint8_t *holds = xcalloc(p->nr_nodes + 1, 1);
	struct stat_index ix = { .out = out };
	struct call_count calls = { 0 };
	size_t nr_devices, kept = 0;
	struct mem_device *devices = mem_devices(p, &nr_devices);

	memset(out, 0, sizeof(*out));
	/* Which nodes the plugin's matching of events to nodes entered:
	 * those holding some event, of any device and any time. */
	for (size_t i = 0; i < p->nr_mem_events; i++)
		for (const struct node *n = p->mem_events[i].op; n && node_id(n) < p->nr_nodes && !holds[node_id(n)];
		     n = node_parent(n))
			holds[node_id(n)] = 1;
	for (size_t i = 0; i < p->nr_mem_events; i++) {
		const struct mem_event *m = &p->mem_events[i];
		bool is_alloc = m->bytes > 0;

		if (!is_op(m->op) || !in_range(r, m->ts_ns))
			continue;
		for (const struct node *n = m->op; n; n = node_parent(n)) {
			struct mem_stat *row;

			if (!is_op(n))
				continue;
			row = stat_row(&ix, node_name(n), m->device);
			sum_add_counted(&row->size_increase, m->bytes, &out->nr_capped);
			sum_add_counted(&row->alloc_count, is_alloc, &out->nr_capped);
			sum_add_counted(&row->alloc_size, is_alloc ? m->bytes : 0, &out->nr_capped);
			if (n != m->op)
				continue;
			sum_add_counted(&row->self_size_increase, m->bytes, &out->nr_capped);
			sum_add_counted(&row->self_alloc_count, is_alloc, &out->nr_capped);
			sum_add_counted(&row->self_alloc_size, is_alloc ? m->bytes : 0, &out->nr_capped);
		}
	}
	count_calls(p, holds, r, &calls);
	for (size_t i = 0; i < out->nr; i++) {
		struct mem_stat *row = &out->rows[i];

		if (!row->size_increase && !row->self_size_increase && !row->alloc_count &&
		    !row->self_alloc_count && !row->alloc_size && !row->self_alloc_size)
			continue;
		row->calls = *call_slot(&calls, row->name);
		out->rows[kept++] = *row;
	}
	out->nr = kept;
	sort_devices = devices;
	sort_nr_devices = nr_devices;
	if (out->nr > 1)	/* rows may be NULL */
		qsort(out->rows, out->nr, sizeof(*out->rows), cmp_stat);
	free(calls.names);
	free(calls.counts);
	free(ix.slots);
	free(holds);
	free(devices);
}

void mem_stats_release(struct mem_stats *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

/* ---------------------------------------------------------------------
 * Events
 */

/* A map from a device's address to a record that remembers when each
 * key first went in, for the order Python's dict keeps (a key set again
 * keeps its place; one deleted and set again goes last).  Keys are the
 * device and the address: two devices' memory may have one address. */
struct addr_map {
	uint64_t *addrs, *devs;		/* the key: address, device_key() */
	uint32_t *recs;			/* the record it holds */
	uint64_t *seqs;			/* when the key went in */
	uint8_t *used;			/* 1 in, 2 deleted (a tombstone) */
	size_t alloc, nr_used;		/* nr_used counts tombstones too */
	uint64_t next_seq;
};

static size_t map_hash(uint64_t dev, uint64_t addr)
{
	return (size_t)hash_u64(addr ^ hash_u64(dev));
}

static void map_grow(struct addr_map *m)
{
	struct addr_map old = *m;

	m->alloc = m->alloc ? 2 * m->alloc : 64;
	m->addrs = xcalloc(m->alloc, sizeof(*m->addrs));
	m->devs = xcalloc(m->alloc, sizeof(*m->devs));
	m->recs = xcalloc(m->alloc, sizeof(*m->recs));
	m->seqs = xcalloc(m->alloc, sizeof(*m->seqs));
	m->used = xcalloc(m->alloc, 1);
	m->nr_used = 0;
	for (size_t i = 0; i < old.alloc; i++) {
		size_t j;

		if (old.used[i] != 1)
			continue;
		for (j = map_hash(old.devs[i], old.addrs[i]) & (m->alloc - 1); m->used[j];
		     j = (j + 1) & (m->alloc - 1))
			;
		m->addrs[j] = old.addrs[i];
		m->devs[j] = old.devs[i];
		m->recs[j] = old.recs[i];
		m->seqs[j] = old.seqs[i];
		m->used[j] = 1;
		m->nr_used++;
	}
	free(old.addrs);
	free(old.devs);
	free(old.recs);
	free(old.seqs);
	free(old.used);
}

/* The slot of E's device and address, or -1. */
static long map_find(const struct addr_map *m, const struct mem_event *e)
{
	uint64_t dev = device_key(e->device);

	if (!m->alloc)
		return -1;
	for (size_t i = map_hash(dev, e->addr) & (m->alloc - 1); m->used[i]; i = (i + 1) & (m->alloc - 1))
		if (m->used[i] == 1 && m->addrs[i] == e->addr && m->devs[i] == dev)
			return (long)i;
	return -1;
}

/* E's device and address now hold record REC. */
static void map_put(struct addr_map *m, const struct mem_event *e, uint32_t rec)
{
	long at = map_find(m, e);
	uint64_t dev = device_key(e->device);
	size_t i;

	if (at >= 0) {
		m->recs[at] = rec;	/* keeps its place */
		return;
	}
	if (2 * (m->nr_used + 1) > m->alloc)
		map_grow(m);
	for (i = map_hash(dev, e->addr) & (m->alloc - 1); m->used[i] == 1; i = (i + 1) & (m->alloc - 1))
		;
	if (!m->used[i])
		m->nr_used++;
	m->addrs[i] = e->addr;
	m->devs[i] = dev;
	m->recs[i] = rec;
	m->seqs[i] = m->next_seq++;
	m->used[i] = 1;
}

static void map_release(struct addr_map *m)
{
	free(m->addrs);
	free(m->devs);
	free(m->recs);
	free(m->seqs);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/* The records still in M, in the order they went in.  Caller frees;
 * *NR gets how many. */
static uint32_t *map_in_order(const struct addr_map *m, size_t *nr)
{
	size_t n = 0;
	uint64_t *seq;
	uint32_t *recs;

	for (size_t i = 0; i < m->alloc; i++)
		n += m->used[i] == 1;
	seq = xmalloc((n ? n : 1) * sizeof(*seq));
	recs = xmalloc((n ? n : 1) * sizeof(*recs));
	n = 0;
	for (size_t i = 0; i < m->alloc; i++) {
		if (m->used[i] != 1)
			continue;
		seq[n] = m->seqs[i];
		recs[n++] = m->recs[i];
	}
	/* Insertion sort by sequence: few are left unpaired. */
	for (size_t i = 1; i < n; i++) {
		uint64_t s = seq[i];
		uint32_t rec = recs[i];
		size_t j = i;

		for (; j > 0 && seq[j - 1] > s; j--) {
			seq[j] = seq[j - 1];
			recs[j] = recs[j - 1];
		}
		seq[j] = s;
		recs[j] = rec;
	}
	free(seq);
	*nr = n;
	return recs;
}

/* An allocation's op and the node above it, as the plugin names them:
 * the op only when the event is in an op row, the parent whatever it is
 * -- a thread's top level is the plugin's "CallTreeRoot". */
static void alloc_names(const struct mem_event *m, const char **op, const char **parent)
{
	*op = *parent = NULL;
	if (!is_op(m->op) || m->bytes <= 0)
		return;
	*op = node_name(m->op);
	if (!node_parent(m->op))
		return;
	*parent = node_parent(m->op)->kind == NODE_THREAD ? "CallTreeRoot" : node_name(node_parent(m->op));
}

static void add_event_row(struct mem_event_rows *out, const struct profile *p,
			  const struct mem_event *named, struct mem_device device, int64_t size,
			  int64_t alloc_ts, int64_t release_ts)
{
	struct mem_event_row *row;
	int64_t origin = p->has_time_origin ? p->time_origin_ns : 0;
	const char *op, *parent;

	GROW(out->rows, out->alloc, out->nr + 1);
	row = &out->rows[out->nr++];
	alloc_names(named, &op, &parent);
	row->op = op;
	/* The plugin names an aten::empty* allocation after its caller. */
	row->parent = op && !strncmp(op, "aten::empty", 11) ? parent : NULL;
	row->device = device;
	row->size_bytes = size;
	row->alloc_ns = alloc_ts == INT64_MIN ? -1 : alloc_ts - origin;
	row->release_ns = release_ts == INT64_MIN ? -1 : release_ts - origin;
}

/*
 * get_memory_events: in time order, an allocation (Bytes > 0) waits for
 * the next event on its device and address (anything but an allocation:
 * a free) and makes a row with it, sized by the free's bytes; what is
 * left unpaired makes rows with one time missing.  The plugin pairs by
 * the address alone, so that one GPU's free could close another's
 * allocation at the same address: not here.  Events without an address (PyTorch
 * before 1.10) take no part.  A free's op is its allocation's, paired
 * over all events, so that one whose allocation lies before the range
 * still names it.
 */
void mem_event_rows(const struct profile *p, const struct mem_range *r, struct mem_event_rows *out)
{
	uint32_t *idx = by_time(p), *left;
	int32_t *alloc_of = xmalloc((p->nr_mem_events ? p->nr_mem_events : 1) * sizeof(*alloc_of));
	struct addr_map allocs = { 0 }, frees = { 0 };
	size_t nr_left;

	memset(out, 0, sizeof(*out));
	/* Each free's allocation, over every event. */
	for (size_t k = 0; k < p->nr_mem_events; k++) {
		const struct mem_event *m = &p->mem_events[idx[k]];
		long at;

		alloc_of[idx[k]] = -1;
		if (m->addr == MEM_NO_ADDR)
			continue;
		if (m->bytes > 0) {
			map_put(&allocs, m, idx[k]);
		} else if ((at = map_find(&allocs, m)) >= 0) {
			alloc_of[idx[k]] = (int32_t)allocs.recs[at];
			allocs.used[at] = 2;
		}
	}
	map_release(&allocs);
	for (size_t k = 0; k < p->nr_mem_events; k++) {
		const struct mem_event *m = &p->mem_events[idx[k]];
		long at;

		if (m->addr == MEM_NO_ADDR || !in_range(r, m->ts_ns))
			continue;
		if (m->bytes > 0) {
			map_put(&allocs, m, idx[k]);
		} else if ((at = map_find(&allocs, m)) >= 0) {
			const struct mem_event *a = &p->mem_events[allocs.recs[at]];

			add_event_row(out, p, a, a->device, -m->bytes, a->ts_ns, m->ts_ns);
			allocs.used[at] = 2;
		} else {
			map_put(&frees, m, idx[k]);
		}
	}
	left = map_in_order(&allocs, &nr_left);
	for (size_t k = 0; k < nr_left; k++) {
		const struct mem_event *a = &p->mem_events[left[k]];

		add_event_row(out, p, a, a->device, a->bytes, a->ts_ns, INT64_MIN);
	}
	free(left);
	left = map_in_order(&frees, &nr_left);
	for (size_t k = 0; k < nr_left; k++) {
		const struct mem_event *f = &p->mem_events[left[k]];
		const struct mem_event *a = alloc_of[left[k]] >= 0 ? &p->mem_events[alloc_of[left[k]]] : f;

		add_event_row(out, p, a, f->device, -f->bytes, INT64_MIN, f->ts_ns);
	}
	free(left);
	map_release(&allocs);
	map_release(&frees);
	free(alloc_of);
	free(idx);
}

void mem_event_rows_release(struct mem_event_rows *e)
{
	free(e->rows);
	memset(e, 0, sizeof(*e));
}

/* ---------------------------------------------------------------------
 * The curve
 */

void mem_curves(const struct profile *p, const struct mem_range *r, struct mem_curves *out)
{
	size_t nr;
	struct mem_device *devices = mem_devices(p, &nr);
	uint32_t *idx = by_time(p);

	memset(out, 0, sizeof(*out));
	out->curves = xcalloc(nr ? nr : 1, sizeof(*out->curves));
	for (size_t d = 0; d < nr; d++) {
		out->curves[d].device = devices[d];
		out->curves[d].peak_allocated = out->curves[d].peak_reserved = -1;
	}
	/* One pass in time order, each event to its device's curve. */
	for (size_t k = 0; k < p->nr_mem_events; k++) {
		const struct mem_event *m = &p->mem_events[idx[k]];
		struct mem_curve *c;

		/* get_curves_and_peaks: events with an address and both
		 * totals. */
		if (m->addr == MEM_NO_ADDR || m->total_allocated < 0 || m->total_reserved < 0 ||
		    !in_range(r, m->ts_ns))
			continue;
		c = &out->curves[mem_device_index(devices, nr, m->device)];
		GROW(c->points, c->alloc, c->nr + 1);
		c->points[c->nr].ts_ns = m->ts_ns;
		c->points[c->nr].allocated = m->total_allocated;
		c->points[c->nr].reserved = m->total_reserved;
		c->nr++;
		if (m->total_allocated > c->peak_allocated)
			c->peak_allocated = m->total_allocated;
		if (m->total_reserved > c->peak_reserved)
			c->peak_reserved = m->total_reserved;
	}
	/* Only the devices with points, in their order. */
	for (size_t d = 0; d < nr; d++)
		if (out->curves[d].nr)
			out->curves[out->nr++] = out->curves[d];
	free(devices);
	free(idx);
}

void mem_curves_release(struct mem_curves *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->curves[i].points);
	free(c->curves);
	memset(c, 0, sizeof(*c));
}

int64_t mem_peak_allocated(const struct profile *p, int32_t index)
{
	int64_t peak = -1;

	for (size_t i = 0; i < p->nr_mem_events; i++) {
		const struct mem_event *m = &p->mem_events[i];

		if (m->device.type != DEVICE_CPU && m->device.index == index && m->total_allocated > peak)
			peak = m->total_allocated;
	}
	return peak;
}
