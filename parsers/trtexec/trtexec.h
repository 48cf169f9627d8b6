/* SPDX-License-Identifier: MIT */
/*
 * trtexec: what the TensorRT parsers share (doc/formats/trtexec.md).  A
 * benchmark of one engine leaves several files behind, each read by a
 * parser object of its own; all of them add to one model of the engine, so
 * that `proftui x.graph.json x.profile.json x.timing.json` opens one
 * profile, whatever the order of the files.
 *
 * The model.  The engine's layers are NODE_LAYER nodes under the root, in
 * engine order, each a row of its own (NODE_DISTINCT: names may repeat).
 * Under a layer hang its tactic, as a kernel carrying the layer's time so
 * that the Kernels pane lists tactics, and the source layers it fused
 * (NODE_SOURCE), so that drill-down from a layer shows both.  What is
 * known of the engine, the device and the run goes to Info lines.
 *
 * trtexec_engine.c owns the model.  A parser reads one file's layers into
 * struct layer_in records of a struct layers, and layers_join() joins them
 * to the layers already in the profile: by name, or by position when the
 * counts agree and the names do not (old TensorRT named layers differently
 * in the two files; trex joins the same way).  Layers found in one file
 * only are kept and counted.  It also holds the Info-line helpers and the
 * few things the JSON files share (a probe's look at the head, the end of
 * the document).
 *
 * trtexec_graph.c reads --exportLayerInfo: the layers, simple (names) or
 * detailed (type, tensors, tactic, Metadata).  Its records carry the
 * layer_type, precision, tactic, origin and shape columns, the tactic as
 * the layer's kernel and the fused layers as its sources; its names win a
 * join by position.  Info: "engine" layers and bindings.
 *
 * trtexec_profile.c reads --exportProfile with a scanner of its own, since
 * trtexec never escapes the names in it: per-layer time over all
 * iterations, mean, median, percentage.  Info: "layer profile" iterations.
 *
 * trtexec_times.c reads --exportTimes: one step per inference, split into
 * Enqueue, H2D, Compute and D2H.  It adds no layers.
 *
 * trtexec_log.c reads the log: each --dumpProfile table (three layouts) as
 * layer records, a new run for each table after the first; the blocks of
 * "key: value" lines (options, device, performance summary) and the
 * "&&&&" lines (version, command, result) as Info lines.
 *
 * trex_metadata.c reads trex's *.profile.metadata.json and
 * *.build.metadata.json: the log's blocks, as JSON, into the same Info
 * lines.
 *
 * trex_device.c reads trex's <engine>.metadata.json, the GPUs' properties
 * as pycuda reports them, into "device" Info lines.  It adds no layers.
 *
 * Ownership: a record's name and sources are interned in the profile and
 * its attributes are an arena list of the profile's, which layers_join()
 * moves into the layer's node; only the records' arrays are the parser's
 * heap, freed by layers_release().  Info lines are copied.
 */
#ifndef PARSERS_TRTEXEC_H
#define PARSERS_TRTEXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../model/profile.h"
#include "../diag.h"
#include "../json.h"

/* One layer as one file describes it, before it joins the profile. */
struct layer_in {
	const char *name;		/* interned */
	struct pos at;			/* where this file gives it */
	bool has_time;			/* the file gives times (not the graph) */
	int64_t total_ns;		/* over every iteration */
	struct attr_list attrs;		/* a list of the profile's: mean_ns,
					   layer_type, ... */
	const char *kernel;		/* interned tactic name, or NULL */
	const char **sources;		/* heap array of interned names */
	size_t nr_sources, alloc_sources;
	bool sources_final;		/* from Metadata: replace any others */
};

/* One file's layers, in its order. */
struct layers {
	struct layer_in *v;
	size_t nr, alloc;
	uint64_t calls;			/* iterations; 0 when unknown */
};

/* A new, empty record for layer NAME (interned), found at AT; valid until
 * the next layers_add(). */
struct layer_in *layers_add(struct layers *ls, const char *name, struct pos at);
/* Free LS's arrays; the profile keeps what was interned. */
void layers_release(struct layers *ls);
/*
 * Join the layers LS of one file into P.  The k-th layer of a name joins
 * the k-th of that name already there; when some do not match and both
 * files have as many layers, they join by position instead (NAMES_WIN:
 * this file's names replace the others', as the engine's own layer list
 * does).  Layers found in one file only are kept, in engine order, and
 * counted as warnings through D.  LS's attribute lists move into the
 * nodes; LS still needs layers_release().  When none of LS's layers is
 * among P's and they cannot join by position, LS is another engine's: an
 * error through D, nothing joined, and it returns false (unless P sums
 * whole profiles, --merge).
 */
bool layers_join(struct profile *p, struct diag *d, struct layers *ls, bool names_win);

/*
 * The layers L fused, as its sources.  From its name, "a + b + PWN(c)"
 * (split at " + " outside brackets; a name of one part gives none); or
 * from Metadata (TensorRT >= 8.6), "[ONNX Layer: a]\x1e[ONNX Layer: b]",
 * which returns whether it found any.
 */
void layer_sources_from_name(struct profile *p, struct layer_in *l);
bool layer_sources_from_metadata(struct profile *p, struct layer_in *l, const char *s,
				 size_t n);

/* Set an Info line unless the profile has it already: when a log and
 * trex's metadata of one run are both loaded, the first file's line
 * stands.  For the few lines of the JSON exports; the files that hold any
 * number of lines use a struct meta_set. */
void trt_meta_once(struct profile *p, const char *section, const char *key, const char *value);

/* The (section, key) pairs a profile's Info holds, so that adding a line
 * is not a scan of them all: each pair is interned in the profile as one
 * string ("section\x1fkey"), so equal pairs are equal pointers -- exact
 * (no two pairs share a slot by a hash) and keyed (names come from files). */
struct meta_set {
	struct profile *p;
	const char **v;			/* NULL: an empty slot */
	size_t nr, cap;
};

void meta_set_init(struct meta_set *ms, struct profile *p);
void meta_set_release(struct meta_set *ms);
/* Add the Info line (SECTION, KEY) = VALUE (copied) unless there is one. */
void meta_set_put(struct meta_set *ms, const char *section, const char *key, const char *value);
/* The same with the value V[0..N). */
void meta_set_put_n(struct meta_set *ms, const char *section, const char *key, const char *v,
		    size_t n);

/* The index of the first byte at or after I that is not a JSON blank. */
size_t trt_skip_ws(const char *s, size_t len, size_t i);
/* Whether HEAD opens with OPEN ('{' or '[') and then, after OPEN2 when it
 * is not 0, the member name KEY ("" accepts any name). */
bool trt_opens_with(const char *head, size_t len, char open, char open2, const char *key);
/*
 * A JSON file's parse stopped on T (json_failed) after NR records of WHAT
 * ("layer list"): json_report_end() with "kept the NR read before it",
 * except that what came before a syntax error is kept too.  Returns -1
 * when nothing is left to keep, else 0.
 */
int trt_report_end(struct json *j, enum json_tok t, const char *what, size_t nr);

#endif
