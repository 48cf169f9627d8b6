/* SPDX-License-Identifier: MIT */
/*
 * The corpus traces that Holistic Trace Analysis's reference outputs were
 * made from (corpus/hta-expected/README.md), one list for every test
 * that compares an analysis with HTA's: the trace, and the stem of HTA's
 * files for it (<stem>__hta_<analysis>.json), both under the corpus.
 * Reading them: hta-json.h.
 */
#ifndef TESTS_HTA_CASES_H
#define TESTS_HTA_CASES_H

#include <stddef.h>

#include "hta-json.h"

struct hta_case {
	const char *trace;		/* under the corpus */
	const char *expected;		/* under the corpus, without the suffix */
};

static const struct hta_case hta_cases[] = {
	{ "pytorch-kineto-trace/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	  "hta-expected/hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto" },
	{ "pytorch-kineto-trace/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace"
	  ".json.gz",
	  "hta-expected/hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace" },
	{ "pytorch-kineto-trace/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	  "hta-expected/hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace" },
	{ "pytorch-kineto-trace/hta_triton_example_triton_example.json.gz",
	  "hta-expected/hta_triton_example_triton_example" },
	{ "pytorch-kineto-trace/tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  "hta-expected/tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace" },
	{ "pytorch-kineto-trace/tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  "hta-expected/tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace" },
	{ "pytorch-kineto-trace/tracelens_h100_bert-small-uncased__1016001.json.gz",
	  "hta-expected/tracelens_h100_bert-small-uncased__1016001" },
	{ "pytorch-kineto-multi/hta_trace_diff/control.json.gz",
	  "hta-expected-multi/hta_trace_diff/control" },
	{ "pytorch-kineto-multi/hta_trace_diff/test.json.gz", "hta-expected-multi/hta_trace_diff/test" },
	{ "pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	  "hta-expected-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_0__worker0.1623143089861.pt.trace" },
	{ "pytorch-kineto-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
	  "hta-expected-multi/tbplugin_resnet50_workers0_vs_4/"
	  "resnet50_num_workers_4__worker0.1623212756351.pt.trace" },
};

#endif
