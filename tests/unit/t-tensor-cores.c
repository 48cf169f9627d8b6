// SPDX-License-Identifier: MIT
/*
 * The tensor-core rule (model/tensor_cores.c, proftui(1) TENSOR CORES) on
 * real kernel names: those of the corpus traces and of public profiles,
 * issues and library sources (cuBLAS, cuDNN, CUTLASS, FlashAttention,
 * rocBLAS/hipBLASLt Tensile, composable kernel, MIOpen).  Then, on every
 * corpus trace, the kernel names where the rule departs from
 * torch-tb-profiler's list, which are exactly those listed here, each
 * with its reason (proftui(1), DIFFERENCES FROM TORCH-TB-PROFILER).
 */
#include "model/tensor_cores.h"
#include "parsers/parser.h"
#include "test.h"
#include "tc-plugin.h"

static const char *const uses_tc[] = {
	/* The bundled sample and the corpus (XMMA's tensor16x8x8 TF32,
	 * Hopper warpgroups, CUTLASS WMMA, FlashAttention, Tensile MFMA). */
	"sm80_xmma_dgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
	"stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_trt",
	"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
	"stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn",
	"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_execute_"
	"segment_k_off_kernel__5x_cublas",
	"void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>"
	"(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)",
	"void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2>"
	"(cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2::Params)",
	"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"
	"(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
	"void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, "
	"false, false, cutlass::bfloat16_t>>(pytorch_flash::Flash_fwd_params)",
	"Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_"
	"CLR1_CADS0_EPS0_GRVWA1_GRVWB1_GSUAMB_ISA90a_IU1_K1",
	/* cuBLAS legacy names, Volta to Ampere: FP16, BF16, TF32, INT8,
	 * sparse. */
	"volta_h884gemm_64x64_nn",
	"volta_fp16_s884cudnn_fp16_256x128_ldg8_splitK_relu_f2f_exp_small_nhwc2nchw_tn_v1",
	"turing_fp16_s1688gemm_fp16_256x128_ldg8_f2f_tn",
	"ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_64x3_nt",
	"ampere_bf16_s1688gemm_bf16_128x128_ldg8_f2f_nt_v1",
	"ampere_fp32_s1684tf32gemm_fp32_128x128_ldg4_nt_v1",
	"ampere_int32_i16832gemm_int8_128x128_ldg16_stages_64x3_nt_v1",
	"ampere_fp16_s16832gemm_sp_fp16_128x128_ldg8_relu_f2f_stages_64x3_nt_v1",
	"ampere_int32_i16864gemm_sp_int8_256x128_ldg16_stages_128x3_nt_v1",
	/* XMMA with its instruction: INT8, sparse, Hopper HGMMA. */
	"sm80_xmma_gemm_i8i8_i8i32_f32_tn_n_tilesize256x128x64_stage4_warpsize4x2x1_tensor16x8x32",
	"sm80_xmma_sparse_gemm_f16f16_f16f32_f32_nt_n_tilesize128x128x64_stage3_warpsize2x2x1_"
	"sptensor16x8x32",
	"sm90_xmma_gemm_f16f16_f16f32_f32_nt_n_tilesize128x128x64_cgasize1x2x1_stage4_gmmastage2_"
	"warpgroupsize1x1x1_hgmma64x128x16",
	/* CUTLASS 2 and 3. */
	"cutlass_tensorop_tf32_s1688gemm_tf32_256x128_16x3_tt_align4",
	"void cutlass::Kernel2<cutlass_80_tensorop_i16832gemm_s8_128x64_128x3_tn_align4>(Params)",
	"cutlass3x_sm90_tensorop_gemm_f16_f16_f32_void_f16_128x128x64_1x1x1_0_tnn_align8_"
	"warpspecialized_cooperative_epi_tma",
	"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, "
	"int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::"
	"MainloopSm90TmaGmmaWarpSpecializedCooperative<4, cute::tuple<cute::C<1>>>>>>(Params)",
	/* cuBLAS nvjet (Hopper, Blackwell), TF32 included. */
	"nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NNT",
	"nvjet_sm100_tst_64x16_64x16_2x4_2cta_h_bz_splitK_TNT",
	"nvjet_sss_tf32_128x256_TNT",
	/* Attention: FlashAttention 2/3, cuDNN, PyTorch's
	 * memory-efficient attention, TensorRT's fused MHA. */
	"flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel",
	"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<"
	"flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>>>>>>(Params)",
	"cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_3_64x64x128_4x1x1_kernel0_0",
	"cudnn_generated_fort_native_sdpa_sm100_flash_fprop_f16_knob_7_128x128x128_4x1x1_kernel0_0",
	"fmha_cutlassF_f16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<"
	"cutlass::half_t, cutlass::arch::Sm80, true, 64, 128, 128, true, true>::Params)",
	"fmha_v2_flash_attention_fp16_64_64_S_64_sm80_kernel",
	/* Blackwell. */
	"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::collective::"
	"CollectiveMma<cutlass::gemm::MainloopSm100TmaUmmaWarpSpecialized<3, 2, 2>>>>(Params)",
	"sm100_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tcgen05_kernel",
	/* AMD: hipBLASLt Tensile, composable kernel, MIOpen, rocWMMA. */
	"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x128x64_MI16x16x1_SN_LDSB1_AFC1",
	"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0",
	"void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::"
	"gemm::RowMajor, ck::half_t>, true, 2>(ck::GridwiseGemm::Argument)",
	"void ck::kernel_grouped_conv_fwd_multiple_abd_xdl_cshuffle<ck::GridwiseGemmMultipleABD_xdl_"
	"cshuffle<ck::half_t>>(ck::half_t const*)",
	"void ck::kernel_gemm_wmma<ck::GridwiseGemm_Wmma<ck::half_t>>(ck::half_t const*)",
	"igemm_fwd_gtcx_nchw_fp16_bx0_ex1_bt128x128x32_wt32x32x8_ws1x1_wr2x2_ta1x8x4x1_1x4x1x32",
	"mlir_gen_igemm_conv2d_v4r4_wrw_xdlops_0",
	NULL,
};

static const char *const no_tc[] = {
	/* FFMA XMMA (which the plugin's "xmma_gemm" takes for tensor
	 * cores), SIMT CUTLASS, FP32/FP16 legacy cuBLAS without MMA. */
	"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
	"alignc4_execute_kernel__5x_cublas",
	"cutlass_simt_sgemm_128x128_8x2_nt_align1",
	"cutlass_simt_hgemm_256x128_8x2_nt_align1",
	"ampere_sgemm_128x64_tn",
	"ampere_hgemm_256x128_nt_v0",
	"ampere_dgemm_128x64_nt_v0",
	"ampere_igemm_int8_128x128_ldg4_nt_v0",
	"volta_sgemm_128x32_sliced1x4_nn",
	"ampere_gcgemm_64x64_nt",
	"cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1",
	"volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1",
	"nvjet_sss_128x128_64x4_2x1_v_bz_NNT",
	"fmha_cutlassF_f16_aligned_64x64_rf_sm50(PyTorchMemEffAttention::AttentionKernel<"
	"cutlass::half_t, cutlass::arch::Sm50, true, 64, 64, 64, true, true>::Params)",
	"fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, "
	"cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
	/* Not GEMMs at all, though some carry "Tensor" or shapes. */
	"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>"
	"(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*)",
	"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
	"at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>)",
	"void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false>()",
	"void magma_sgemmEx_kernel<float, float, float, true, false, 6, 4, 6, 3, 4>(int, int, int)",
	"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
	"triton_poi_fused_add_cos_sin_0",
	"void ck::kernel_gemm_dl_v1r3<ck::GridwiseGemmDl_km_kn_mn_v1r3<ck::half_t>>(ck::half_t const*)",
	"Cijk_Ailk_Bljk_SB_MT64x64x8_SE_K1_TT4_4_WG16_16_1",
	"naive_conv_fwd_nchw_float",
	"void dummy_kernel()",
	NULL,
};

static void test_real_names(void)
{
	for (const char *const *n = uses_tc; *n; n++)
		if (!kernel_uses_tensor_cores(*n)) {
			fprintf(stderr, "  takes for CUDA cores: %s\n", *n);
			test_failed = 1;
		}
	for (const char *const *n = no_tc; *n; n++)
		if (kernel_uses_tensor_cores(*n)) {
			fprintf(stderr, "  takes for tensor cores: %s\n", *n);
			test_failed = 1;
		}
}

static void test_ops(void)
{
	CHECK(op_tensor_core_eligible("aten::mm"));
	CHECK(op_tensor_core_eligible("aten::cudnn_convolution"));
	CHECK(!op_tensor_core_eligible("aten::mm_"));
	CHECK(!op_tensor_core_eligible("aten::relu"));
}

/* The memo answers as the functions do, by pointer, however many names. */
static void test_memo(void)
{
	struct tc_names m = { 0 };
	static char names[3000][16];

	for (int i = 0; i < 3000; i++)
		snprintf(names[i], sizeof(names[i]), i % 3 ? "k%d" : "h884_%d", i);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 3000; i++)
			CHECK_EQ(tc_name_flags(&m, names[i]) & TC_NAME_KERNEL,
				 i % 3 ? 0 : TC_NAME_KERNEL);
	CHECK(tc_name_flags(&m, "aten::bmm") & TC_NAME_ELIGIBLE);
	tc_names_release(&m);
}

/*
 * The corpus's kernel names on which the two disagree, by a prefix each
 * (all are now taken for tensor cores; none the other way): the TF32
 * XMMA convolution (its MMA is tensor16x8x8), CUTLASS's WMMA GEMM,
 * FlashAttention, and Tensile's MFMA GEMMs (MI16x16x1).
 */
static const struct departure {
	const char *trace, *prefix;
} departures[] = {
	{ "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz",
	  "sm80_xmma_fprop_implicit_gemm_indexed_tf32" },
	{ "tracelens_h100_bert-small-uncased__1016001.json.gz",
	  "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm" },
	{ "tracelens_h100_bert-small-uncased__1016001.json.gz",
	  "void pytorch_flash::flash_fwd_kernel<" },
	{ "hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz", "Cijk_Ailk_Bjlk_SB_Bias_AS" },
	{ "hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz", "Cijk_Alik_Bljk_SB_Bias_AS" },
};

static bool found[ARRAY_SIZE(departures)];

/* Whether NAME of TRACE is a listed departure, marking it found. */
static bool listed(const char *trace, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(departures); i++)
		if (!strcmp(departures[i].trace, trace) &&
		    !strncmp(name, departures[i].prefix, strlen(departures[i].prefix)))
			return found[i] = true;
	return false;
}

static bool visit(struct node *n, void *ctx)
{
	const char *trace = ctx, *name = node_name(n);
	bool ours, theirs;

	if (n->kind != NODE_KERNEL)
		return true;
	ours = kernel_uses_tensor_cores(name);
	theirs = plugin_uses_tc(name);
	if (ours == theirs)
		return true;
	if (!ours || !listed(trace, name)) {
		fprintf(stderr, "  %s: unlisted departure (%s): %.100s\n", trace,
			ours ? "ours" : "the plugin's", name);
		test_failed = 1;
	}
	return true;
}

static void test_corpus_departures(void)
{
	static const char *const traces[] = {
		"tbplugin_resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
		"tbplugin_resnet50_num_workers_4__worker0.1623212756351.pt.trace.json.gz",
		"hta_amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
		"hta_cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
		"hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz",
		"hta_ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
		"hta_triton_example_triton_example.json.gz",
		"tracelens_h100_bert-small-uncased__1016001.json.gz",
	};
	for (size_t i = 0; i < ARRAY_SIZE(traces); i++) {
		char path[1024], msg[256];
		struct profile p;
		FILE *f;

		snprintf(path, sizeof(path), "%s/pytorch-kineto-trace/%s", test_corpus_dir(), traces[i]);
		if (!(f = fopen(path, "rb")))
			SKIP("no corpus at ../shared/corpus (set PROFTUI_CORPUS)");
		fclose(f);
		CHECK_EQ(test_load(&p, path, NULL, msg, sizeof(msg)), 0);
		node_walk(p.root, visit, (void *)traces[i]);
		profile_release(&p);
	}
	/* Each listed departure is in its trace. */
	for (size_t d = 0; d < ARRAY_SIZE(departures); d++)
		CHECK(found[d]);
}

const struct test tests[] = {
	{ "real kernel names: tensor cores or not", test_real_names },
	{ "tensor-core eligible ops: the plugin's list", test_ops },
	{ "the memo by interned name", test_memo },
	{ "corpus: where the rule departs from the plugin's list", test_corpus_departures },
	{ 0 },
};
