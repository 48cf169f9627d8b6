/* SPDX-License-Identifier: MIT */
/*
 * torch-tb-profiler's tensor-core kernel list (tensor_core.py, after
 * NVIDIA PyProf), for the parity tests: where proftui's rule
 * (model/tensor_cores.c) departs from it, the plugin's numbers are its
 * list's, and t-tensor-cores.c lists every corpus kernel name on which
 * the two disagree.  Include after test.h.
 */
#ifndef TESTS_UNIT_TC_PLUGIN_H
#define TESTS_UNIT_TC_PLUGIN_H

#include <string.h>

#include "model/tensor_cores.h"

static inline bool plugin_uses_tc(const char *name)
{
	static const char *const list[] = {
		"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
		"first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
		"xmma_implicit_gemm", "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm",
		"xmma_gemm", "xmma_sparse_gemm", "c1688",
	};

	for (size_t i = 0; i < ARRAY_SIZE(list); i++)
		if (strstr(name, list[i]))
			return true;
	return false;
}

static bool tc_departs_visit(struct node *n, void *ctx)
{
	bool *departs = ctx;

	if (n->kind == NODE_KERNEL &&
	    kernel_uses_tensor_cores(node_name(n)) != plugin_uses_tc(node_name(n)))
		*departs = true;
	return !*departs;
}

/* Whether some kernel of P is one on which the two rules disagree. */
static inline bool tc_rules_depart(const struct profile *p)
{
	bool departs = false;

	node_walk(p->root, tc_departs_visit, &departs);
	return departs;
}

#endif
