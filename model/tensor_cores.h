/* SPDX-License-Identifier: MIT */
/*
 * tensor_cores: which kernels use the GPU's matrix units (NVIDIA tensor
 * cores, AMD matrix cores) and which ops could, by name -- the rule
 * proftui(1) writes down under TENSOR CORES.  A kernel's name is all a
 * trace says of it, so the rule reads the families' naming: the MMA
 * instruction a cuBLAS/cuDNN/XMMA name carries, CUTLASS's tensorop and
 * wmma, Hopper/Blackwell's gmma, warpgroups and tcgen05, FlashAttention,
 * AMD's Tensile MI tokens, MFMA and composable-kernel XDL.  A name that
 * says it runs on CUDA cores (ffma, simt) never counts.
 *
 * tc_name_flags() answers both questions for an interned name, each
 * worked out once: a 1 GB trace asks them of 2.5 M nodes but has a few
 * thousand names.
 */
#ifndef MODEL_TENSOR_CORES_H
#define MODEL_TENSOR_CORES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether kernel NAME uses tensor (matrix) cores, by the rule above. */
bool kernel_uses_tensor_cores(const char *name);
/* Whether op NAME is one torch-tb-profiler deems tensor-core eligible
 * (its list, by exact name). */
bool op_tensor_core_eligible(const char *name);

enum { TC_NAME_KERNEL = 1, TC_NAME_ELIGIBLE = 2, TC_NAME_KNOWN = 4 };

/* The answers by interned name (pointer), made as asked. */
struct tc_names {
	const char **keys;
	uint8_t *flags;
	size_t cap, nr;			/* cap a power of two, at most half full */
};

/* TC_NAME_KERNEL and TC_NAME_ELIGIBLE of NAME (interned: the pointer is
 * the key), with TC_NAME_KNOWN. */
uint8_t tc_name_flags(struct tc_names *m, const char *name);
void tc_names_release(struct tc_names *m);

#endif
