// SPDX-License-Identifier: MIT
/*
 * Kernel types (model/kernel_type.c): HTA's rules, in their order, on
 * names of each kind and on the names where the order or the anchoring
 * decides.
 */
#include "model/kernel_type.h"
#include "test.h"

static const struct {
	const char *name;
	enum kernel_type type;
} cases[] = {
	/* Communication: nccl/hip/hccl at the start, ncclKernel anywhere. */
	{ "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
	  KTYPE_COMMUNICATION },
	{ "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", KTYPE_COMMUNICATION },
	{ "void at::native::ncclKernel_wrapper<float>()", KTYPE_COMMUNICATION },
	{ "hccl_allreduce", KTYPE_COMMUNICATION },
	/* hip* is communication before memory is tried: HTA's order. */
	{ "hipMemcpyAsync", KTYPE_COMMUNICATION },
	{ "hipExtModuleLaunchKernel", KTYPE_COMMUNICATION },
	/* Memory: the start only. */
	{ "Memcpy HtoD (Pageable -> Device)", KTYPE_MEMORY },
	{ "Memcpy DtoD (Device -> Device)", KTYPE_MEMORY },
	{ "Memset (Device)", KTYPE_MEMORY },
	{ "dma_copy", KTYPE_MEMORY },
	/* Computation: none of the other patterns. */
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>()",
	  KTYPE_COMPUTATION },
	{ "sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize96x128x32", KTYPE_COMPUTATION },
	{ "triton_poi_fused_add_0", KTYPE_COMPUTATION },
	{ "Cijk_Ailk_Bljk_SB_MT64x64x16", KTYPE_COMPUTATION },
	{ "nc", KTYPE_COMPUTATION },
	{ "", KTYPE_COMPUTATION },
	/* Other: the exclusion pattern without a type of its own. */
	{ "Context Sync", KTYPE_OTHER },
	{ "Stream Sync", KTYPE_OTHER },
	{ "Event Sync", KTYPE_OTHER },
	{ "Stream Wait Event", KTYPE_OTHER },
	{ "void kernel_with_Memcpy_inside()", KTYPE_OTHER },
	{ "fused_Memset_tail", KTYPE_OTHER },
	{ "my_dma_kernel", KTYPE_OTHER },
	{ "cudaLaunchKernel", KTYPE_OTHER },
	{ "cudaLaunchKernelExC", KTYPE_OTHER },
	{ "runFunction - job_prep_and_submit_for_execution", KTYPE_OTHER },
	{ "job_exe_x", KTYPE_OTHER },
	{ "packet_x", KTYPE_OTHER },
	{ "pe_exe_x", KTYPE_OTHER },
	{ "cpum_exe_subgraph_x", KTYPE_OTHER },
	{ "collective_subgraph_execution_x", KTYPE_OTHER },
	/* Anchored at the start: a prefix elsewhere does not count. */
	{ "x_nccl_thing", KTYPE_COMPUTATION },
	{ "x_cudaLaunchKernel", KTYPE_COMPUTATION },
	{ "MemcpyLike", KTYPE_MEMORY },
	{ "memcpy_lowercase", KTYPE_COMPUTATION },
	/* Python's re "." stops at a newline: a pattern past the first
	 * line does not match. */
	{ "kernel\nMemcpy", KTYPE_COMPUTATION },
	{ "kernel\nncclKernel", KTYPE_COMPUTATION },
	{ "cuda\nLaunchKernel", KTYPE_COMPUTATION },
	{ "nccl\nx", KTYPE_COMMUNICATION },
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum kernel_type t = kernel_type_of(cases[i].name);

		if (t != cases[i].type)
			fprintf(stderr, "case %zu '%s': %s, not %s\n", i, cases[i].name,
				kernel_type_name(t), kernel_type_name(cases[i].type));
		CHECK_EQ(t, cases[i].type);
	}
	CHECK_EQ(kernel_type_of(NULL), KTYPE_OTHER);
}

static void test_names(void)
{
	CHECK_STR(kernel_type_name(KTYPE_COMPUTATION), "COMPUTATION");
	CHECK_STR(kernel_type_name(KTYPE_COMMUNICATION), "COMMUNICATION");
	CHECK_STR(kernel_type_name(KTYPE_MEMORY), "MEMORY");
	CHECK_STR(kernel_type_name(KTYPE_OTHER), "OTHER");
}

const struct test tests[] = {
	{ "HTA's kernel-type rules, in their order", test_cases },
	{ "kernel-type names", test_names },
	{ 0 },
};
