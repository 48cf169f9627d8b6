/* SPDX-License-Identifier: MIT */
/*
 * aggregate: the rows the Operators and Kernels panes show, as pure
 * functions of a profile's call tree.
 *
 * Each function fills a heap array of rows (caller frees with
 * agg_release()) in first-seen order of a depth-first walk; panes sort them.
 * A scope narrows what is counted: one step (by start time), and a
 * predicate on nodes, which is how drill-down works without this layer
 * knowing about regular expressions:
 *   op -> its kernels:     agg_op_kernels() with a predicate on ops
 *   kernel -> its ops:     agg_kernel_ops() with a predicate on kernels
 */
#ifndef MODEL_AGGREGATE_H
#define MODEL_AGGREGATE_H

#include "profile.h"

typedef bool agg_pred(const struct node *n, void *ctx);
/* Told of each node counted into a row: the row's index in out->rows and
 * the device time the node adds to it (model/dist.c's distributions). */
typedef void agg_each_fn(size_t row, const struct node *n, int64_t device_ns, void *ctx);

struct agg_scope {
	const struct step *step;	/* NULL: the whole profile */
	agg_pred *want;			/* NULL: every node */
	void *ctx;			/* passed to want */
	agg_each_fn *each;		/* NULL: nobody asks */
	void *each_ctx;			/* passed to each */
	/* A range of time (the Timeline's selection, --range): a node
	 * counts when it starts in [range_start_ns, range_end_ns), as a
	 * step's rule has it; with a step too, in both. */
	bool has_range;
	int64_t range_start_ns, range_end_ns;
};

struct agg_row {
	const char *name;
	const struct node *first;	/* first node counted: kind, attrs */
	const char *group;		/* a grouped row's second key: the input
					   shapes (agg_ops_by_shape) or the
					   launching op (agg_kernels_by_op);
					   NULL for the others */
	const struct attr *stack;	/* agg_op_stacks: the rows' call stack
					   (callstack.h); NULL for none */
	uint64_t calls;
	uint64_t nr_nodes;		/* nodes counted into the row */
	uint8_t node_flags;		/* NODE_* flags of any of them (OR) */
	int64_t host_self_ns, host_total_ns;
	int64_t device_self_ns, device_total_ns;	/* kernels: total = Σ dur */
	int64_t min_ns, max_ns;		/* per call; -1 when unknown */
	/* Duration-weighted sums for the kernel table's means (tb_plugin:
	 * np.average(x.fillna(0), weights=dur)): Σ x·dur over kernels. */
	double blocks_per_sm_wsum, occupancy_wsum;
	bool has_blocks_per_sm, has_occupancy;
	/* Ops, where agg_has_tc(): the time of the kernels that use tensor
	 * cores (tensor_cores.h) among device_self and device_total, and
	 * whether some call of the row is tensor-core eligible. */
	int64_t tc_self_ns, tc_total_ns;
	bool tc_eligible;
};

struct agg {
	struct agg_row *rows;
	size_t nr, alloc;
	int64_t scope_device_ns;	/* agg_op_kernels: device total of the
					   ops drilled into, for shares */
	uint64_t nr_capped;		/* sums that reached SUM_CAP and hold
					   it (model/bounds.h): panes warn */
	agg_each_fn *each;		/* the scope's, while it is filled */
	void *each_ctx;
};

void agg_release(struct agg *a);

/* Whether agg_ops() and agg_ops_by_shape() fill the tensor-core fields:
 * a call tree whose kernels carry their launches (a Kineto trace), or a
 * summary of one, whose op rows state them (the attributes below). */
bool agg_has_tc(const struct profile *p);

/* The tensor-core sums of each op row node of P's tree, bottom up: FN
 * gets the node, its tensor-core kernel time among its device self and
 * total time, and whether it is eligible. */
typedef void agg_tc_fn(const struct node *op, int64_t self_ns, int64_t total_ns, bool eligible,
		       void *ctx);
void agg_op_tc(const struct profile *p, agg_tc_fn *fn, void *ctx);

/* What a summary's op row states of them (ATTR_FILE_*: not columns of
 * their own): ATTR_NS, ATTR_NS and ATTR_INT (1: eligible). */
#define ATTR_FILE_TC_SELF "file_tc_self_ns"
#define ATTR_FILE_TC_TOTAL "file_tc_total_ns"
#define ATTR_FILE_TC_ELIGIBLE "file_tc_eligible"
/* A summary's op row that sums several of the trace's: their input
 * shapes (ATTR_STRING, interned), which it cannot show as an attribute. */
#define ATTR_FILE_INPUT_SHAPES "file_input_shapes"

/* Ops and layers: one row per name (or per node for NODE_DISTINCT rows).
 * Self times sum; total times sum over every call, recursive ones too, as
 * torch-tb-profiler does (op_agg.py), so rows match its operator table. */
void agg_ops(const struct profile *p, const struct agg_scope *s, struct agg *out);
/* Kernels: one row per kernel name over every kernel node (linked to an op
 * or not, as tb_plugin's kernel table) except those marked NODE_NOT_A_ROW
 * (a format that lists its kernels twice, in the tree and in a table of
 * their own, marks the tree's copies).  memcpy/memset are not kernels. */
void agg_kernels(const struct profile *p, const struct agg_scope *s, struct agg *out);
/* The device work under the ops that S->want accepts (each op's whole
 * subtree, counted once where matching ops nest): kernels, memcpy and
 * memset, aggregated by name, plus the source layers a TensorRT layer
 * fused (NODE_SOURCE rows, no time).  out->scope_device_ns is the device
 * total of those ops. */
void agg_op_kernels(const struct profile *p, const struct agg_scope *s, struct agg *out);
/* The ops that launched a kernel S->want accepts: the nearest op or layer
 * above each such kernel, aggregated like agg_ops(). */
void agg_kernel_ops(const struct profile *p, const struct agg_scope *s, struct agg *out);

/* Ops by name and input shapes: torch-tb-profiler's operator table
 * grouped by OperationAndInputShape, keyed on the input_shapes attribute
 * (Python's print of Input Dims; "[]" for an op without, as the plugin's
 * default).  Rows as agg_ops(), group = the shapes. */
void agg_ops_by_shape(const struct profile *p, const struct agg_scope *s, struct agg *out);

/* The Python call stack op N ran under (with_stack): its own or its
 * nearest op ancestor's "call_stack" attribute -- a stack, or in a
 * summary its text (callstack.h reads both) -- or NULL. */
const struct attr *node_call_stack(const struct node *n);
/* Ops by name and call stack (node_call_stack(); stack = the stack, NULL
 * for none): what torch-tb-profiler's "View call stack" lists.  Rows as
 * agg_ops(). */
void agg_op_stacks(const struct profile *p, const struct agg_scope *s, struct agg *out);
/*
 * Kernels by name, launching op and launch configuration (grid, block,
 * registers per thread, shared memory; unknown counts as 0): the
 * plugin's kernel table grouped by KernelNameAndOpName.  Its kernels are
 * those its op tree holds: launched by an op (group = its name), by a
 * thread itself or by no runtime call at all ("CallTreeRoot"; the second
 * only in a trace with steps); a kernel whose runtime call no op has is
 * not there.  Times are end minus start, as the plugin's tree has them.
 * first is the row's first kernel (its launch).
 */
void agg_kernels_by_op(const struct profile *p, const struct agg_scope *s, struct agg *out);

/* A launch's grid or block as the plugin prints it ("[564, 1, 1]"), or
 * "None" when the trace does not give it; into BUF. */
const char *launch_dim_text(const int32_t dim[3], char *buf, size_t size);

/* Whether node N started inside STEP (always true for a NULL step, and
 * for a step that has no interval). */
bool node_in_step(const struct node *n, const struct step *step);
/* Ops and TensorRT layers are Operators rows. */
bool node_is_op_row(const struct node *n);

#endif
