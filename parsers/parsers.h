/* SPDX-License-Identifier: MIT */
/*
 * Every parser, once.  registry.c makes its table from this list, in this
 * order: probe order breaks ties, a parser listed first wins an equal
 * score, and --list-formats prints them so.
 *
 * X(OBJECT, FUZZ, GOLDEN): OBJECT is the parser's struct parser; FUZZ
 * names the fuzz target that feeds it input, fuzz/fuzz-FUZZ.c (one
 * target may feed the parsers of a family, and names each OBJECT it
 * calls); GOLDEN the folder under tests/golden/ whose cases open its
 * samples.  tests/unit/t-parsers.c holds each parser to both, and
 * tests/unit/t-detect.c to a detection sample of its own.
 */
#ifndef PARSERS_PARSERS_H
#define PARSERS_PARSERS_H

#define PARSERS(X) \
	/* PyTorch profiler / Kineto Chrome trace JSON */ \
	X(kineto_parser, "kineto", "kineto") \
	/* PyTorch key_averages().table() text */ \
	X(torch_table_parser, "torch-table", "torch-table") \
	/* torch-tb-profiler REST outputs, one JSON per line */ \
	X(tb_json_parser, "tb-json", "tb-json") \
	/* TensorRT trtexec --exportLayerInfo */ \
	X(trtexec_graph_parser, "trtexec", "trtexec") \
	/* TensorRT trtexec --exportProfile */ \
	X(trtexec_profile_parser, "trtexec", "trtexec") \
	/* TensorRT trtexec --exportTimes */ \
	X(trtexec_times_parser, "trtexec", "trtexec") \
	/* TensorRT trtexec log (--dumpProfile) */ \
	X(trtexec_log_parser, "trtexec", "trtexec") \
	/* trex's *.metadata.json beside the exports */ \
	X(trex_metadata_parser, "trtexec", "trtexec") \
	/* trex's <engine>.metadata.json: GPU properties */ \
	X(trex_device_parser, "trtexec", "trtexec") \
	/* MegEngine load_and_run output, profile_analyze tables */ \
	X(megengine_text_parser, "megengine", "megengine") \
	/* MegEngine load_and_run --profile JSON */ \
	X(megengine_json_parser, "megengine", "megengine") \
	/* PaddlePaddle profiler summary and training log */ \
	X(paddle_parser, "paddle", "paddle") \
	/* ROCm rocprof / rocprofv3 statistics (CSV) */ \
	X(rocprof_stats_parser, "rocprof", "rocprof") \
	/* ROCm rocprof / rocprofv3 kernel and HIP API traces (CSV) */ \
	X(rocprof_trace_parser, "rocprof", "rocprof") \
	/* Nsight Systems nsys stats reports, text or CSV */ \
	X(nsys_stats_parser, "nsys", "nsys") \
	/* proftui --summary files */ \
	X(summary_parser, "summary", "summary")

#endif
