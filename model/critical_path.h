/* SPDX-License-Identifier: MIT */
/*
 * critical_path: the longest chain of dependent work in a window of a
 * trace (a step, or the whole trace), as Holistic Trace Analysis's
 * critical_path_analysis() builds it (proftui(1), PANES, critical-path).
 *
 * The events: the host ops and runtime calls (NODE_OP, NODE_RUNTIME) that
 * start in the window, its end included, and last longer than 0; and the
 * device work (kernels, copies, sets) such a runtime call launched.  Each
 * has a start node and an end node.  The edges:
 *
 *   op        on each host thread, along the call stack (HTA's: events
 *             sorted by start, at one time ends first, longer starts
 *             first; an end pops the innermost open event): from the
 *             last node met to the next start or end; weight the time
 *             between them, 0 into the end of a blocking call
 *             (cudaDeviceSynchronize, cudaStreamSynchronize,
 *             cudaEventQuery, cudaEventSynchronize, cudaMemcpy;
 *             not cudaMemcpyAsync, which HTA times too).  Annotations, steps and modules shape
 *             the stack but have no nodes.  On a stream: a kernel's
 *             start to its end, weight its duration.
 *   dependency  the end of a top-level op to the start of the next one on
 *             its thread, weight 0.
 *   launch    the launching call's start to the kernel's start, weight
 *             the time between, when the stream's queue was empty at the
 *             launch (the call made it 1: launches of the stream less
 *             starts of its work, over the whole trace) and still 0 at
 *             the kernel's start, and the stream's previous kernel (if
 *             any) ended before the call started;
 *   kernel-kernel  otherwise the end of the stream's previous kernel to
 *             the kernel's start, weight the gap (when it is below
 *             kk_max_gap_ns).
 *   sync      from Kineto's cuda_sync events (the profile's cuda_syncs),
 *             when the runtime call that waited has nodes, weight 0: a
 *             Stream Sync (or Event Sync with a stream): from the end of
 *             the work on its stream launched by the last call that
 *             started before the waiting call, to that call's end; a
 *             Context Sync: the same from each stream of its device.  A
 *             Stream Wait Event makes none (which work its event recorded
 *             is the cudaEventRecord call's, which is not linked).
 *
 * A weight below 0 (overlap) counts 0.  The longest path takes the nodes
 * in a topological order (Kahn's, O(V + E)), each relaxing its edges in
 * the order they were made (ties: the first edge made wins; the path ends
 * at the first node of greatest distance).  Without sync edges every edge
 * goes forward in one order -- each thread's nodes in call-stack order,
 * then each stream's kernels by start -- so the graph is acyclic by
 * construction; a sync edge comes only from work launched before the
 * waiting call started, and should the sync edges still close a cycle
 * (times that disagree), they are all left out (sync_dropped).  Building
 * is O(n log n): the sorts, and a binary search per sync event.
 */
#ifndef MODEL_CRITICAL_PATH_H
#define MODEL_CRITICAL_PATH_H

#include "profile.h"

enum cpath_bound {
	CPATH_NONE,			/* "": dependencies */
	CPATH_CPU,			/* cpu_bound */
	CPATH_GPU_COMPUTE,		/* gpu_compute_bound */
	CPATH_GPU_COMMUNICATION,	/* gpu_communication_bound */
	CPATH_LAUNCH,			/* gpu_kernel_launch_overhead */
	CPATH_KERNEL_KERNEL,		/* gpu_kernel_kernel_overhead */
	NR_CPATH_BOUNDS
};

/* HTA's names of the bounds ("" for CPATH_NONE). */
const char *cpath_bound_name(enum cpath_bound b);

enum cpath_edge {
	CPATH_EDGE_OP,
	CPATH_EDGE_DEPENDENCY,
	CPATH_EDGE_LAUNCH,
	CPATH_EDGE_KERNEL_KERNEL,
	CPATH_EDGE_SYNC,
};

struct cpath_options {
	/* The window: events (host) or their launching calls (device)
	 * starting in [lo_ns, hi_ns], both ends included.  INT64_MIN,
	 * INT64_MAX: the whole trace. */
	int64_t lo_ns, hi_ns;
	/* A kernel-kernel edge only for a gap below this; INT64_MAX: any. */
	int64_t kk_max_gap_ns;
	/* HTA's conditions, for the comparison with HTA only (the pane never
	 * sets it): every start rounded up and every end down to a whole
	 * microsecond (hta_time.h), the window's too. */
	bool round_like_hta;
	/* HTA links a runtime call to one piece of device work only, the
	 * last of those it launched (a CUDA graph's launch has many): the
	 * others are left out.  For the comparison with HTA only. */
	bool last_work_only;
	/* Keep the whole graph (edges) in the result, for the tests. */
	bool keep_graph;
};

void cpath_options_default(struct cpath_options *o);
/* The default over step S's span (NULL, or a step without one: the whole
 * trace). */
void cpath_options_for_step(struct cpath_options *o, const struct step *s);

/* Narrow O's window to the events (or launching calls) that start in
 * [START, END) too (a range of time; with a step, the part in both; an
 * empty window when they do not meet). */
void cpath_options_narrow(struct cpath_options *o, int64_t start_ns, int64_t end_ns);

/* The step a pane shows when none is chosen: P's longest (the first of
 * the longest), or NULL when P has no step with a span. */
const struct step *cpath_default_step(const struct profile *p);

/* One link of the path: an edge of the graph. */
struct cpath_link {
	int64_t start_ns;		/* its first node's time */
	int64_t dur_ns;			/* its weight */
	enum cpath_edge type;
	enum cpath_bound bound;
	/* The event it is attributed to, as HTA attributes it: an op edge to
	 * the event whose time it is (the parent's, between two children),
	 * a kernel-kernel gap to the kernel before it; a launch to the
	 * kernel launched; a dependency to the op it leads to. */
	const struct node *event;
	bool on_device;			/* EVENT is device work (lane: stream) */
	int32_t device, stream;		/* when on_device */
	const struct node *thread;	/* else: its thread (NULL: none) */
};

struct cpath_edge_rec {
	uint32_t from, to;		/* graph nodes */
	int64_t weight_ns;
};

struct critical_path {
	struct cpath_link *links;	/* the path, in order */
	size_t nr_links;
	int64_t total_ns;		/* the path's length: its weights' sum */
	int64_t bound_ns[NR_CPATH_BOUNDS];	/* by bound, capped (bounds.h) */
	uint64_t nr_capped;		/* sums that reached SUM_CAP */
	size_t nr_events;		/* events with nodes */
	size_t nr_nodes, nr_edges;	/* the graph's size */
	size_t nr_sync_edges;		/* of them, sync edges */
	bool sync_dropped;		/* sync edges left out: they made a cycle */
	/* keep_graph: every edge. */
	struct cpath_edge_rec *edges;
};

/* BOUND's share of the path, in percent; NaN when the path is empty or a
 * sum is capped. */
double cpath_share(const struct critical_path *c, int64_t ns);

/* Fill C (release with cpath_release()); O: NULL for the default. */
void cpath_compute(const struct profile *p, const struct cpath_options *o, struct critical_path *c);
void cpath_release(struct critical_path *c);

#endif
