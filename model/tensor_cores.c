// SPDX-License-Identifier: MIT
/*
 * The tensor-core rule (tensor_cores.h; written out in proftui(1) under
 * TENSOR CORES, and tested on real kernel names in t-tensor-cores.c).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_cores.h"
#include "util.h"

/* Marks of math on CUDA cores: cuBLAS/cuDNN XMMA kernels built on FFMA
 * (sm80_xmma_gemm_f32f32_..._ffma_...) and CUTLASS SIMT kernels.  They
 * win over every mark below ("xmma_gemm" is one). */
static const char *const cuda_core_marks[] = { "_ffma", "_hfma", "_dfma", "simt_" };

/* torch-tb-profiler's list (tensor_core.py, after NVIDIA PyProf's tc.py),
 * then what today's families call themselves. */
static const char *const tc_marks[] = {
	/* The plugin's. */
	"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
	"first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
	"xmma_implicit_gemm", "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm",
	"xmma_gemm", "xmma_sparse_gemm", "c1688",
	/* cuBLAS/CUTLASS MMA shapes it lacks: INT8/INT4 and sparse
	 * (i16832, s16832_sp, i16864), binary, TF32 m16n8k4, WMMA 16x16x16. */
	"16832gemm", "16864gemm", "168256", "1684tf32gemm", "161616",
	/* CUTLASS 2 and 3 tensor-op kernels, and WMMA anywhere (CUTLASS,
	 * cuDNN's fused attention, rocWMMA, composable kernel on RDNA). */
	"tensorop", "wmma",
	/* Hopper: warpgroup MMA (hgmma, igmma, gmmastage, wgmma, CUTLASS's
	 * ...GmmaWarpSpecialized) and cuBLAS/cuDNN's warpgroup tiles. */
	"gmma", "Gmma", "warpgroupsize",
	/* Blackwell: the fifth-generation MMA and CUTLASS's ...TmaUmma... */
	"tcgen05", "TmaUmma",
	/* FlashAttention 2/3/4 (fp16/bf16 only), cuDNN's fused attention,
	 * TensorRT's fused MHA. */
	"flash_fwd", "flash_bwd", "FlashAtt", "fort_native_sdpa", "fmha_v2",
	/* AMD: MFMA, composable kernel's XDL, MIOpen's XDLOPS igemm. */
	"mfma", "MFMA", "_xdl", "_Xdl", "xdlops", "Xdlops", "gtcx",
};

/* S starts with digits 'x' digits 'x' digits: an MMA shape, 16x8x16. */
static bool at_shape(const char *s)
{
	for (int part = 0; part < 3; part++) {
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
		if (part < 2 && *s++ != 'x')
			return false;
	}
	return true;
}

/* Whether NAME holds MARK followed by an MMA shape: XMMA's
 * "tensor16x8x8", Tensile's (rocBLAS, hipBLASLt) "_MI16x16x1". */
static bool has_shape_after(const char *name, const char *mark)
{
	size_t len = strlen(mark);

	for (const char *s = name; (s = strstr(s, mark)); s++)
		if (at_shape(s + len))
			return true;
	return false;
}

/* cuBLAS's nvjet GEMMs (Hopper, Blackwell) run on tensor cores, but for
 * "sss" (FP32 in, compute and out) without "tf32", which may not. */
static bool nvjet_tc(const char *name)
{
	const char *j = strstr(name, "nvjet_");

	return j && !(strstr(j, "sss_") && !strstr(j, "tf32"));
}

/* PyTorch's memory-efficient attention in fp16/bf16, but for its sm50
 * build (CUDA cores). */
static bool fmha_cutlass_tc(const char *name)
{
	return (strstr(name, "fmha_cutlassF_f16") || strstr(name, "fmha_cutlassF_bf16") ||
		strstr(name, "fmha_cutlassB_f16") || strstr(name, "fmha_cutlassB_bf16")) &&
	       !strstr(name, "_sm50");
}

bool kernel_uses_tensor_cores(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cuda_core_marks); i++)
		if (strstr(name, cuda_core_marks[i]))
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(tc_marks); i++)
		if (strstr(name, tc_marks[i]))
			return true;
	return has_shape_after(name, "tensor") || has_shape_after(name, "_MI") || nvjet_tc(name) ||
	       fmha_cutlass_tc(name);
}

/* ...and these ops (exact names) could use them: the plugin's list. */
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

bool op_tensor_core_eligible(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tc_ops); i++)
		if (!strcmp(name, tc_ops[i]))
			return true;
	return false;
}

uint8_t tc_name_flags(struct tc_names *m, const char *name)
{
	size_t i;

	if (2 * (m->nr + 1) > m->cap) {
		struct tc_names bigger = { .cap = m->cap ? 2 * m->cap : 1024 };

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
	m->flags[i] = TC_NAME_KNOWN | (kernel_uses_tensor_cores(name) ? TC_NAME_KERNEL : 0) |
		      (op_tensor_core_eligible(name) ? TC_NAME_ELIGIBLE : 0);
	m->nr++;
	return m->flags[i];
}

void tc_names_release(struct tc_names *m)
{
	free(m->keys);
	free(m->flags);
	memset(m, 0, sizeof(*m));
}
