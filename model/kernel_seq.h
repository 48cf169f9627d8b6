/* SPDX-License-Identifier: MIT */
/*
 * kernel_seq: the frequent kernel sequences under an operator, as
 * Holistic Trace Analysis's get_frequent_cuda_kernel_sequences() defines
 * them (proftui(1), PANES, sequences).
 *
 * The operator is a name: the host nodes of that name (exactly; HTA's
 * substring match is an option, for the comparison with it) are the
 * candidates.  A candidate's GPU events are the kernels, copies and sets
 * in its subtree: those launched by the runtime calls under it.  Of the
 * candidates that launched at least min_pattern_len (3) GPU events, those
 * at the smallest call-stack depth are the instances (the depth is the
 * number of host nodes -- steps, ops, annotations, modules -- above a
 * node; two instances at one depth never nest, so no GPU event counts
 * twice).  An instance's pattern is its name, then its GPU events' names
 * in start order (equal starts: in the order of the file).  Instances of
 * one pattern are grouped: their count, the summed durations of their GPU
 * events (GPU time) and of the instances themselves (CPU time).  Patterns
 * are sorted by count, more first, then by their text (the names joined
 * by '|', bytewise).
 *
 * The default operator, when none is named, is the op (a cpu_op event)
 * name whose instances with at least min_pattern_len GPU events have the
 * largest summed GPU time; ties go to the smallest name (the choice of
 * HTA's reference script).
 *
 * kseq_compute() is O(n + k log k): one walk of the tree, then the
 * chosen instances' k GPU events sorted.
 */
#ifndef MODEL_KERNEL_SEQ_H
#define MODEL_KERNEL_SEQ_H

#include "profile.h"

struct kseq_options {
	unsigned min_pattern_len;	/* 3 */
	/* Only the instances that start in [lo_ns, hi_ns) (the steps
	 * chosen); INT64_MIN, INT64_MAX: all. */
	int64_t lo_ns, hi_ns;
	/* HTA's conditions, for the comparison with HTA only (no pane sets
	 * them): the candidates are every host node whose name contains the
	 * operator's; starts rounded up and ends down to a whole
	 * microsecond (hta_time.h); and only the host nodes that start
	 * before LAUNCHED_BEFORE_NS and the GPU events whose runtime call
	 * does (HTA's dropped last step; INT64_MAX: no such filter). */
	bool substring;
	bool round_like_hta;
	int64_t launched_before_ns;
};

void kseq_options_default(struct kseq_options *o);

struct kseq_pattern {
	const char *const *names;	/* the op's name, then its GPU events',
					   interned; into the result's array */
	size_t nr_names;		/* 1 + the GPU events */
	uint64_t count;			/* instances */
	int64_t gpu_ns;			/* their GPU events' summed durations */
	int64_t cpu_ns;			/* their summed durations */
	const struct node *first;	/* the instance that starts first */
};

struct kseq_result {
	struct kseq_pattern *patterns;	/* sorted: count desc, text asc */
	size_t nr_patterns;
	uint64_t nr_instances;		/* the patterns' counts' sum */
	unsigned depth;			/* the instances' depth */
	uint64_t nr_capped;		/* sums that reached SUM_CAP */
	const char **names;		/* every pattern's names, one array */
	size_t nr_names;
};

/* The default operator of P (see above), interned in P; NULL when no op
 * launched MIN_PATTERN_LEN GPU events.  O options: NULL for the default
 * (its min_pattern_len, filters and rounding apply). */
const char *kseq_default_op(const struct profile *p, const struct kseq_options *o);

/* Whether some host node of P is called OP (exactly). */
bool kseq_op_exists(const struct profile *p, const char *op);

/* The patterns under OP into R (release with kseq_release()); O options:
 * NULL for the default.  No instance: no pattern. */
void kseq_compute(const struct profile *p, const char *op, const struct kseq_options *o,
		  struct kseq_result *r);
void kseq_release(struct kseq_result *r);

/* strcmp() of two patterns' texts (their names joined by '|'), bytewise,
 * without making them. */
int kseq_text_cmp(const struct kseq_pattern *a, const struct kseq_pattern *b);

#endif
