// SPDX-License-Identifier: MIT
/*
 * The Overview's numbers (overview.h), following torch-tb-profiler's
 * gpu_metrics_parser.py, tensor_cores_parser.py, kernel_parser.py and the
 * rules of data.py's analyze(); t-overview-parity.c checks them against
 * the plugin's gpu_metrics and overview outputs on the corpus.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "memory.h"
#include "overview.h"
#include "strbuf.h"
#include "util.h"

/* The plugin's tensor_core.py, after NVIDIA PyProf's tc.py: a kernel
 * whose name holds one of these uses tensor cores... */
static const char *const tc_kernels[] = {
	"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
	"first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
	"xmma_implicit_gemm", "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm",
	"xmma_gemm", "xmma_sparse_gemm", "c1688",
};

/* ...and these ops (exact names) could use them. */
static const char *const tc_ops[] = {
	"aten::_convolution", "aten::_convolution_nogroup", "aten::conv1d", "aten::conv2d",
	"aten::conv3d", "aten::conv_tbc", "aten::conv_transpose1d", "aten::conv_transpose2d",
	"aten::conv_transpose3d", "aten::convolution", "aten::cudnn_convolution",
	"aten::cudnn_convolution_transpose", "aten::prelu", "aten::addmm", "aten::addmv",
	"aten::addr", "aten::matmul", "aten::mm", "aten::mv", "aten::linear", "aten::addbmm",
	"aten::baddbmm", "aten::bmm", "aten::chain_matmul", "aten::linalg_multi_dot",
	"aten::_thnn_fused_lstm_cell", "aten::_thnn_fused_gru_cell", "aten::lstm_cell",
	"aten::gru_cell", "aten::rnn_tanh_cell", "aten::rnn_relu_cell",
	"CudnnConvolutionBackward", "BmmBackward0", "aten::cudnn_convolution_transpose_backward",
	"CudnnConvolutionTransposeBackward", "MmBackward", "aten::cudnn_convolution_backward_weight",
	"aten::addmm_", "AddmvBackward", "MvBackward",
	"aten::cudnn_convolution_transpose_backward_weight",
	"aten::cudnn_convolution_transpose_backward_input", "AddmmBackward",
	"aten::cudnn_convolution_backward_input", "AddbmmBackward", "aten::cudnn_convolution_backward",
};

bool kernel_uses_tensor_cores(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tc_kernels); i++)
		if (strstr(name, tc_kernels[i]))
			return true;
	return false;
}

bool op_tensor_core_eligible(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tc_ops); i++)
		if (!strcmp(name, tc_ops[i]))
			return true;
	return false;
}

/*
 * The two name tests above by interned name, each worked out once: a
 * 1 GB trace asks them of 2.5 M nodes but has a few thousand names, and
 * the strstr()/strcmp() lists made the Overview take 0.9 s to open.
 */
enum { NAME_TC_KERNEL = 1, NAME_TC_ELIGIBLE = 2, NAME_KNOWN = 4 };

struct name_memo {
	const char **keys;
	uint8_t *flags;
	size_t cap, nr;		/* cap a power of two, at most half full */
};

static uint8_t name_flags(struct name_memo *m, const char *name)
{
	size_t i;

	if (2 * (m->nr + 1) > m->cap) {
		struct name_memo bigger = { .cap = m->cap ? 2 * m->cap : 1024 };

		bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
		bigger.flags = xcalloc(bigger.cap, 1);
		for (size_t k = 0; k < m->cap; k++) {
			if (!m->keys[k])
				continue;
			for (i = hash_ptr(m->keys[k]) & (bigger.cap - 1); bigger.keys[i];
			     i = (i + 1) & (bigger.cap - 1))
				;
			bigger.keys[i] = m->keys[k];
			bigger.flags[i] = m->flags[k];
		}
		bigger.nr = m->nr;
		free(m->keys);
		free(m->flags);
		*m = bigger;
	}
	for (i = hash_ptr(name) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == name)
			return m->flags[i];
	m->keys[i] = name;
	m->flags[i] = NAME_KNOWN | (kernel_uses_tensor_cores(name) ? NAME_TC_KERNEL : 0) |
		      (op_tensor_core_eligible(name) ? NAME_TC_ELIGIBLE : 0);
	m->nr++;
	return m->flags[i];
}

static void name_memo_release(struct name_memo *m)
{
	free(m->keys);
	free(m->flags);
}

/* ---------------------------------------------------------------------
 * Kernels by device
 */

struct kernel {
	int64_t start, end;		/* ns: ts and ts + dur */
	double blocks_per_sm, occupancy;	/* NaN: not given */
	int32_t device;
	uint32_t order;			/* the walk's order, for stable sorts */
};

struct kernels {
	struct kernel *v;
	size_t nr, alloc;
	double tc_ns, all_ns;		/* kernel_parser.py's tc_used_ratio */
	struct name_memo *memo;
};

static bool collect_kernel(struct node *n, void *ctx)
{
	struct kernels *ks = ctx;
	const struct launch *l;

	if (n->kind != NODE_KERNEL || (n->flags & NODE_NOT_A_ROW))
		return true;
	ks->all_ns += (double)n->device_total_ns;
	if (name_flags(ks->memo, n->name) & NAME_TC_KERNEL)
		ks->tc_ns += (double)n->device_total_ns;
	/* The GPU metrics take kernels whose args name their device. */
	l = node_launch(n);
	if (!l || l->device < 0)
		return true;
	GROW(ks->v, ks->alloc, ks->nr + 1);
	ks->v[ks->nr].start = n->start_ns;
	ks->v[ks->nr].end = n->start_ns + n->device_total_ns;
	ks->v[ks->nr].blocks_per_sm = l->blocks_per_sm;
	ks->v[ks->nr].occupancy = l->occupancy_pct;
	ks->v[ks->nr].device = l->device;
	ks->v[ks->nr].order = (uint32_t)ks->nr;
	ks->nr++;
	return true;
}

static int cmp_start(const void *a, const void *b)
{
	const struct kernel *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* |(merged kernel ranges of DEVICE) ∩ [lo, hi)| over KS sorted by start. */
static int64_t busy_within(const struct kernels *ks, int32_t device, int64_t lo, int64_t hi)
{
	int64_t sum = 0, cur_s = 0, cur_e = 0;
	bool open = false;

	for (size_t i = 0; i <= ks->nr; i++) {
		const struct kernel *k = i < ks->nr ? &ks->v[i] : NULL;

		if (k && k->device != device)
			continue;
		if (k && open && k->start <= cur_e) {
			if (k->end > cur_e)
				cur_e = k->end;
			continue;
		}
		if (open) {
			int64_t s = cur_s > lo ? cur_s : lo, e = cur_e < hi ? cur_e : hi;

			if (s < e)
				sum += e - s;
		}
		if (k) {
			cur_s = k->start;
			cur_e = k->end;
			open = true;
		}
	}
	return sum;
}

/* An end of a kernel's range with its blocks per SM, for the sweep. */
struct endpoint {
	int64_t t;
	int is_end;			/* starts before ends at one time */
	double value;
	uint32_t order;
};

static int cmp_endpoint(const void *a, const void *b)
{
	const struct endpoint *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->is_end != y->is_end)
		return x->is_end - y->is_end;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Est. SM efficiency (merge_ranges_with_value): sweep the kernels' ends
 * in time order summing blocks per SM of the kernels running, each slice
 * worth min(sum, 1); the slices inside the span, weighted by their time,
 * over the span.  NaN when no slice lies in the span.
 */
static double sm_efficiency(const struct kernels *ks, int32_t device, int64_t lo, int64_t hi)
{
	struct endpoint *ep = xmalloc((2 * ks->nr + 1) * sizeof(*ep));
	size_t n = 0;
	double value = 0, weighted = 0;
	bool any = false;

	for (size_t i = 0; i < ks->nr; i++) {
		const struct kernel *k = &ks->v[i];

		/* Only positive values count (the plugin warns about the rest). */
		if (k->device != device || !(k->blocks_per_sm > 0))
			continue;
		ep[n++] = (struct endpoint){ k->start, 0, k->blocks_per_sm, (uint32_t)(2 * i) };
		ep[n++] = (struct endpoint){ k->end, 1, k->blocks_per_sm, (uint32_t)(2 * i + 1) };
	}
	qsort(ep, n, sizeof(*ep), cmp_endpoint);
	for (size_t i = 0; i < n; i++) {
		if (i && ep[i].t > ep[i - 1].t && value > 0.0) {
			int64_t s = ep[i - 1].t > lo ? ep[i - 1].t : lo;
			int64_t e = ep[i].t < hi ? ep[i].t : hi;

			if (s < e) {
				weighted += (value < 1.0 ? value : 1.0) * (double)(e - s);
				any = true;
			}
		}
		value += ep[i].is_end ? -ep[i].value : ep[i].value;
	}
	free(ep);
	return any ? weighted / (double)(hi - lo) : NAN;
}

/* Est. achieved occupancy: the kernels' values weighted by their time in
 * the span; NaN when no kernel with a value runs in it. */
static double occupancy(const struct kernels *ks, int32_t device, int64_t lo, int64_t hi)
{
	double weighted = 0, time = 0;

	for (size_t i = 0; i < ks->nr; i++) {
		const struct kernel *k = &ks->v[i];
		int64_t s = k->start > lo ? k->start : lo, e = k->end < hi ? k->end : hi;

		if (k->device != device || !(k->occupancy >= 0.0) || s >= e)
			continue;
		weighted += k->occupancy * (double)(e - s);
		time += (double)(e - s);
	}
	return time > 0 ? weighted / time : NAN;
}

/* ---------------------------------------------------------------------
 * Tensor cores over the op tree
 */

static bool is_host(const struct node *n)
{
	return n->kind == NODE_OP || n->kind == NODE_STEP || n->kind == NODE_ANNOTATION ||
	       n->kind == NODE_MODULE;
}

/* The kernels N's own runtime calls launched: their time, and whether
 * some of it used tensor cores. */
static int64_t own_kernel_ns(const struct node *n, struct name_memo *memo, bool *any_tc)
{
	int64_t sum = 0;

	for (const struct node *rt = n->child; rt; rt = rt->next) {
		if (rt->kind != NODE_RUNTIME)
			continue;
		for (const struct node *k = rt->child; k; k = k->next) {
			if (k->kind != NODE_KERNEL)
				continue;
			sum += k->device_total_ns;
			if (any_tc && k->device_total_ns > 0 &&
			    (name_flags(memo, k->name) & NAME_TC_KERNEL))
				*any_tc = true;
		}
	}
	return sum;
}

struct tc_walk {
	uint8_t *eligible, *below;	/* by node id: it / something under it */
	double bottom_ns, ops_ns;
	/* tensor_cores_parser._calculate_tc_ratio: ops' kernels by device */
	double *tc_ns, *all_ns;
	size_t nr_devices;
	bool has_kernel;
	struct name_memo *memo;
};

/*
 * An op is tensor-core eligible when its name is on the list, or (ops
 * only, node.py fill_stats) an op under it is, or it launched a kernel
 * that used tensor cores.  The eligible ops lowest in the tree ("bottom")
 * give the numerator of tc_eligible_ops_kernel_ratio: their own kernels'
 * time over all op rows' own kernels' time.
 */
static void tc_visit(struct tc_walk *w, struct node *n)
{
	bool own_tc = false, child_eligible = false, child_below = false;
	int64_t own = own_kernel_ns(n, w->memo, &own_tc);

	for (struct node *c = n->child; c; c = c->next) {
		if (!is_host(c))
			continue;
		child_eligible |= w->eligible[c->id];
		child_below |= w->below[c->id];
	}
	w->eligible[n->id] = is_host(n) && ((name_flags(w->memo, n->name) & NAME_TC_ELIGIBLE) ||
					    (n->kind == NODE_OP && (child_eligible || own_tc)));
	w->below[n->id] = w->eligible[n->id] || child_below;
	if (w->eligible[n->id] && !child_below)
		w->bottom_ns += (double)own;
	if (n->kind == NODE_OP && node_is_op_row(n)) {
		w->ops_ns += (double)own;
		for (const struct node *rt = n->child; rt; rt = rt->next) {
			if (rt->kind != NODE_RUNTIME)
				continue;
			for (const struct node *k = rt->child; k; k = k->next) {
				const struct launch *l = node_launch(k);

				if (k->kind != NODE_KERNEL)
					continue;
				w->has_kernel = true;
				if (!l || l->device < 0 || (size_t)l->device >= w->nr_devices)
					continue;
				w->all_ns[l->device] += (double)k->device_total_ns;
				if (name_flags(w->memo, k->name) & NAME_TC_KERNEL)
					w->tc_ns[l->device] += (double)k->device_total_ns;
			}
		}
	}
}

/* Post-order over the whole tree, without recursion (traces nest deep). */
static void tc_walk_tree(struct tc_walk *w, struct node *root)
{
	struct node *n = root;

	while (n->child)
		n = n->child;
	for (;;) {
		tc_visit(w, n);
		if (n == root)
			break;
		if (n->next) {
			n = n->next;
			while (n->child)
				n = n->child;
		} else {
			n = n->parent;
		}
	}
}

/* ---------------------------------------------------------------------
 * Recommendations
 */

static void recommend(struct overview *o, bool is_plugin, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void recommend(struct overview *o, bool is_plugin, const char *fmt, ...)
{
	va_list ap;

	GROW(o->recs, o->alloc_recs, o->nr_recs + 1);
	va_start(ap, fmt);
	o->recs[o->nr_recs].text = xstrvfmt(fmt, ap);
	va_end(ap);
	o->recs[o->nr_recs].is_plugin = is_plugin;
	o->nr_recs++;
}

/* A category's share of the average step, 0..1; 0 when it is absent. */
static double share_of(const struct profile *p, const struct overview *o, const char *cat)
{
	int c = profile_step_cat(p, cat);

	if (c < 0 || !(o->avg_step_ns > 0) || o->avg_cat_ns[c] != o->avg_cat_ns[c])
		return 0;
	return o->avg_cat_ns[c] / o->avg_step_ns;
}

struct names_seen {
	const char *dp_name, *ddp_name;	/* interned; NULL: not in the profile */
	bool dp, ddp, nccl;
};

static bool visit_names(struct node *n, void *ctx)
{
	struct names_seen *s = ctx;

	/* Names are interned: a pointer compare, not a strcmp per node. */
	if (n->name == s->dp_name)
		s->dp = true;
	else if (n->name == s->ddp_name)
		s->ddp = true;
	else if ((n->flags & NODE_COLLECTIVE) && !strncmp(n->name, "nccl:", 5))
		s->nccl = true;
	return true;
}

static void recommendations(const struct profile *p, struct overview *o)
{
	struct names_seen seen = { 0 };
	const struct device_info *first = p->nr_devices ? &p->devices[0] : NULL;
	double share;
	char list[256];
	size_t n = 0, nr_low = 0;

	/* data.py analyze(), its rules in its order, in our words. */
	share = share_of(p, o, "DataLoader");
	if (share > 0.05)
		recommend(o, true, "%.1f%% of the step time is in the DataLoader: set num_workers when "
			  "you construct the DataLoader, to load data in several processes.", share * 100);
	seen.dp_name = strtab_lookup(&p->names, "DataParallel.forward", 20);
	seen.ddp_name = strtab_lookup(&p->names, "DistributedDataParallel.forward", 31);
	node_walk(p->root, visit_names, &seen);
	if (seen.dp && o->nr_gpus > 1)
		recommend(o, true, "Use DistributedDataParallel instead of DataParallel to train on "
			  "several GPUs.");
	if (seen.ddp && !seen.nccl) {
		for (size_t i = 0; i < p->nr_devices; i++) {
			const struct device_info *d = &p->devices[i];

			if (d->cc_major >= 0 && d->cc_minor >= 0 &&
			    d->cc_major * 10 + (d->cc_minor < 10 ? d->cc_minor : 9) >= 35) {
				recommend(o, true, "NCCL is the fastest backend for DistributedDataParallel, "
					  "and this run does not use it.");
				break;
			}
		}
	}
	share = share_of(p, o, "Communication");
	if (share > 0.1)
		recommend(o, true, "%.1f%% of the step time is in communication: gradient compression "
			  "or gradient accumulation may help, or a larger batch (which changes the "
			  "effective batch size, and may change how the model converges).", share * 100);
	for (size_t i = 0; i < o->nr_gpus; i++) {
		if (!(o->gpus[i].utilization < 0.5))
			continue;
		n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%d",
				      !nr_low ? "" : ", ", (int)o->gpus[i].device);
		nr_low++;
	}
	if (nr_low)
		recommend(o, true, "GPU %s %s low utilization: a larger batch may help (it may also "
			  "change how fast and how stably the model converges).", list,
			  nr_low == 1 ? "has" : "have");
	/* The plugin reads the first device's compute capability: tensor
	 * cores came with 7.0. */
	if (first && first->cc_major >= 7 && o->tc_used_ratio == 0.0 &&
	    o->tc_eligible_ops_kernel_ratio > 0.0)
		recommend(o, true, "Kernels launched by tensor-core eligible operators take %.0f%% of "
			  "the kernel time, and no kernel uses tensor cores: Automatic Mixed Precision "
			  "(torch.autocast) would run them in FP16/BF16.",
			  o->tc_eligible_ops_kernel_ratio * 100);
	for (size_t i = 0; i < p->nr_devices; i++) {
		const struct device_info *d = &p->devices[i];
		int64_t peak = mem_peak_allocated(p, d->id);

		/* GPUs only: the plugin means to skip the CPU and, through a
		 * slip, compares its peak with the last GPU's memory. */
		if (d->total_memory_bytes > 0 && peak > 0 &&
		    (double)peak > (double)d->total_memory_bytes * 0.9) {
			recommend(o, true, "GPU %d's memory use peaks at %.1f%% of its %.1f GB: gradient "
				  "checkpointing or Automatic Mixed Precision would make room (for a larger "
				  "batch, say).", (int)d->id,
				  (double)peak / (double)d->total_memory_bytes * 100,
				  (double)d->total_memory_bytes / 1024 / 1024 / 1024);
			break;
		}
	}

	/* proftui's own. */
	share = share_of(p, o, "Runtime");
	if (share >= 0.1)
		recommend(o, false, "%.1f%% of the step time is in CUDA runtime calls while the GPU is "
			  "idle: launching kernels costs more than running them.  Fewer, larger kernels "
			  "(torch.compile fuses ops) or CUDA Graphs cut the launches.", share * 100);
	share = share_of(p, o, "Memcpy");
	if (share >= 0.1)
		recommend(o, false, "%.1f%% of the step time is in memory copies: pinned host memory "
			  "(pin_memory=True) and non_blocking copies let them overlap with compute.",
			  share * 100);
}

/* ---------------------------------------------------------------------
 * The whole
 */

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

void overview_compute(const struct profile *p, struct overview *o)
{
	struct name_memo memo = { 0 };
	struct kernels ks = { .memo = &memo };
	int32_t *ids;
	size_t nr_ids = 0;
	int32_t max_id = -1;

	memset(o, 0, sizeof(*o));
	o->tc_used_ratio = NAN;
	o->nr_steps = p->nr_steps;
	o->avg_cat_ns = xcalloc(p->nr_step_cats ? p->nr_step_cats : 1, sizeof(*o->avg_cat_ns));
	if (p->nr_steps) {
		double total = 0;

		for (size_t i = 0; i < p->nr_steps; i++)
			total += (double)p->steps[i].total_ns;
		o->avg_step_ns = total / (double)p->nr_steps;
		for (size_t c = 0; c < p->nr_step_cats; c++) {
			double sum = 0;
			size_t n = 0;

			for (size_t i = 0; i < p->nr_steps; i++) {
				if (p->steps[i].cat_ns[c] < 0)
					continue;
				sum += (double)p->steps[i].cat_ns[c];
				n++;
			}
			o->avg_cat_ns[c] = n ? sum / (double)n : NAN;
		}
		if (p->steps[p->nr_steps - 1].end_ns > p->steps[0].start_ns) {
			o->span_start_ns = p->steps[0].start_ns;
			o->span_end_ns = p->steps[p->nr_steps - 1].end_ns;
		}
	}

	node_walk(p->root, collect_kernel, &ks);
	if (ks.all_ns > 0)
		o->tc_used_ratio = ks.tc_ns / ks.all_ns;
	if (ks.nr > 1)	/* qsort() takes no NULL, even for 0 items */
		qsort(ks.v, ks.nr, sizeof(*ks.v), cmp_start);
	ids = xmalloc((ks.nr ? ks.nr : 1) * sizeof(*ids));
	for (size_t i = 0; i < ks.nr; i++) {
		size_t k;

		for (k = 0; k < nr_ids && ids[k] != ks.v[i].device; k++)
			;
		if (k == nr_ids)
			ids[nr_ids++] = ks.v[i].device;
		if (ks.v[i].device > max_id)
			max_id = ks.v[i].device;
	}
	qsort(ids, nr_ids, sizeof(*ids), cmp_i32);

	{
		struct tc_walk w = { .memo = &memo };

		w.eligible = xcalloc(p->nr_nodes + 1, 1);
		w.below = xcalloc(p->nr_nodes + 1, 1);
		w.nr_devices = (size_t)(max_id + 1);
		w.tc_ns = xcalloc(w.nr_devices + 1, sizeof(double));
		w.all_ns = xcalloc(w.nr_devices + 1, sizeof(double));
		tc_walk_tree(&w, p->root);
		o->tc_eligible_ops_kernel_ratio = w.ops_ns > 0 ? w.bottom_ns / w.ops_ns : 0.0;

		o->gpus = xcalloc(nr_ids ? nr_ids : 1, sizeof(*o->gpus));
		for (size_t i = 0; i < nr_ids; i++) {
			struct gpu_metrics *g = &o->gpus[o->nr_gpus++];
			int64_t lo = o->span_start_ns, hi = o->span_end_ns;

			g->device = ids[i];
			g->utilization = g->sm_efficiency = g->occupancy_pct = g->tensor_core = NAN;
			if (hi > lo) {
				g->utilization = (double)busy_within(&ks, g->device, lo, hi) /
						 (double)(hi - lo);
				g->sm_efficiency = sm_efficiency(&ks, g->device, lo, hi);
				g->occupancy_pct = occupancy(&ks, g->device, lo, hi);
			}
			/* Kernels launched by ops (not clipped to the span). */
			if (w.has_kernel)
				g->tensor_core = w.all_ns[g->device] > 0
							 ? w.tc_ns[g->device] / w.all_ns[g->device]
							 : 0.0;
		}
		free(w.eligible);
		free(w.below);
		free(w.tc_ns);
		free(w.all_ns);
	}
	recommendations(p, o);
	name_memo_release(&memo);
	free(ids);
	free(ks.v);
}

void overview_release(struct overview *o)
{
	for (size_t i = 0; i < o->nr_recs; i++)
		free(o->recs[i].text);
	free(o->recs);
	free(o->gpus);
	free(o->avg_cat_ns);
	memset(o, 0, sizeof(*o));
}
