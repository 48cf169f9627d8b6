#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a synthetic PyTorch profiler (Kineto) trace of about a given size.

proftui's own generator, for the benchmark and the bundled sample.  The
event mix is a training loop as torch.profiler records it: ProfilerStep#N
annotations; a DataLoader fetch; forward ops nested three or four deep
(conv -> convolution -> _convolution -> cudnn_convolution, linear -> addmm)
on the main thread under python_function frames; backward ops on a second
thread; an optimizer step; every leaf op launches a runtime call
(cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync) whose correlation id
the kernel, memcpy or memset on the device carries; NCCL all-reduce on its
own stream; long C++ template kernel names.  Deterministic for a seed.

  gentrace.py --size 100M -o t.json        # about 100 MiB of JSON
  gentrace.py --steps 4 -o sample.json.gz  # gzip when the name ends in .gz
"""

import argparse
import gzip
import random
import sys

KERNELS = {
    "conv": "void cudnn::cnn::implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, false, false, true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)",
    "bn": "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, float)",
    "relu": "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
    "gemm": "ampere_sgemm_128x64_tn",
    "add": "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
    "wgrad": "void cudnn::detail::wgrad_alg0_engine<float, 128, 6, 8, 3, 3, 5, false, 512>(int, int, int, float const*, int, float*, float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)",
    "dgrad": "sm80_xmma_dgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_trt",
    "nccl": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
}

# (op chain from outer to inner, device kind, kernel key, mean kernel us)
FORWARD = [
    (["aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"], "kernel", "conv", 180),
    (["aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"], "kernel", "bn", 45),
    (["aten::relu_", "aten::clamp_min_"], "kernel", "relu", 20),
    (["aten::linear", "aten::addmm"], "kernel", "gemm", 95),
    (["aten::add", ], "kernel", "add", 12),
]
BACKWARD = [
    (["autograd::engine::evaluate_function: ConvolutionBackward0", "ConvolutionBackward0", "aten::convolution_backward"], "kernel", "wgrad", 260),
    (["autograd::engine::evaluate_function: ConvolutionBackward0", "ConvolutionBackward0", "aten::convolution_backward"], "kernel", "dgrad", 210),
    (["autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", "aten::mm"], "kernel", "gemm", 90),
]


class Writer:
    def __init__(self, out, rng):
        self.out = out
        self.rng = rng
        self.first = True
        self.bytes = 0
        self.ext = 1
        self.corr = 100
        self.gpu_free = {7: 0.0, 20: 0.0}   # stream -> time the device is free

    def emit(self, text):
        if not self.first:
            text = "," + text
        self.first = False
        self.out.write(text)
        self.bytes += len(text)

    def x(self, cat, name, pid, tid, ts, dur, args):
        argtext = ", ".join('"%s": %s' % kv for kv in args)
        self.emit('\n  {\n    "ph": "X", "cat": "%s", "name": "%s", "pid": %s, "tid": %s,\n'
                  '    "ts": %.3f, "dur": %.3f,\n    "args": {%s}\n  }'
                  % (cat, name.replace('"', '\\"'), pid, tid, ts, dur, argtext))

    def launch(self, tid, ts, ext, kind, key, mean_us, stream=7):
        """A runtime call at TS and the device work it launches."""
        rng = self.rng
        self.corr += 1
        corr = self.corr
        if kind == "kernel":
            rt, rt_dur = "cudaLaunchKernel", rng.uniform(3, 9)
        elif kind == "gpu_memcpy":
            rt, rt_dur = "cudaMemcpyAsync", rng.uniform(5, 15)
        else:
            rt, rt_dur = "cudaMemsetAsync", rng.uniform(3, 6)
        self.x("cuda_runtime", rt, 1, tid, ts, rt_dur,
               [("External id", ext), ("cbid", 211), ("correlation", corr)])
        start = max(ts + rt_dur + rng.uniform(2, 8), self.gpu_free[stream])
        dur = max(1.0, rng.gauss(mean_us, mean_us * 0.1))
        self.gpu_free[stream] = start + dur
        if kind == "kernel":
            name = KERNELS[key]
            args = [("External id", ext), ("queued", 0), ("device", 0), ("context", 1),
                    ("stream", stream), ("correlation", corr),
                    ("registers per thread", 64), ("shared memory", 16384),
                    ("blocks per SM", "%.6f" % rng.uniform(0.5, 12)),
                    ("warps per SM", "%.6f" % rng.uniform(2, 48)),
                    ("grid", "[%d, 1, 1]" % rng.choice([80, 160, 320, 1024])),
                    ("block", "[256, 1, 1]"),
                    ("est. achieved occupancy %", rng.randint(10, 100))]
        elif kind == "gpu_memcpy":
            name = "Memcpy HtoD (Pageable -> Device)"
            args = [("External id", ext), ("device", 0), ("context", 1), ("stream", stream),
                    ("correlation", corr), ("bytes", 602112), ("memory bandwidth (GB/s)", "%.3f" % rng.uniform(5, 12))]
        else:
            name = "Memset (Device)"
            args = [("External id", ext), ("device", 0), ("context", 1), ("stream", stream),
                    ("correlation", corr), ("bytes", 4096), ("memory bandwidth (GB/s)", "%.3f" % rng.uniform(1, 4))]
        self.x(kind, name, 0, stream, start, dur, args)
        return ts + rt_dur

    def op_chain(self, tid, ts, chain, kind, key, mean_us, stream=7):
        """Nested ops, the innermost launching device work; returns end."""
        rng = self.rng
        pre = [rng.uniform(2, 6) for _ in chain]
        post = [rng.uniform(1, 4) for _ in chain]
        exts = []
        for _ in chain:
            self.ext += 1
            exts.append(self.ext)
        # Inner duration first: the launch plus some host work.
        t = ts + sum(pre)
        end_inner = self.launch(tid, t, exts[-1], kind, key, mean_us, stream) + rng.uniform(1, 5)
        spans = []
        end = end_inner
        for i in reversed(range(len(chain))):
            start = ts + sum(pre[:i])
            spans.append((chain[i], start, end - start, exts[i]))
            end += post[i]
        for name, start, dur, ext in reversed(spans):
            self.x("cpu_op", name, 1, tid, start, dur,
                   [("External id", ext), ("Record function id", 0), ("Sequence number", ext),
                    ("Input Dims", "[[32, 64, 56, 56], [64, 64, 3, 3]]"),
                    ("Input type", '["float", "float"]')])
        return end


def generate(out, size, steps, seed):
    rng = random.Random(seed)
    w = Writer(out, rng)
    out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    {\n'
              '      "id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85198045184,\n'
              '      "computeMajor": 8, "computeMinor": 0, "maxThreadsPerBlock": 1024,\n'
              '      "numSms": 108, "warpSize": 32\n    }\n  ],\n'
              '  "record_shapes": 1,\n  "with_stack": 1,\n  "cupti_version": 18,\n'
              '  "cuda_runtime_version": 12010,\n  "cuda_driver_version": 12020,\n'
              '  "trace_id": "proftui-bench",\n  "displayTimeUnit": "ms",\n'
              '  "baseTimeNanoseconds": 1700000000000000000,\n  "traceEvents": [')
    t = 5000000.0
    step = 0
    main, bwd = 1001, 1002
    while (steps and step < steps) or (not steps and w.bytes < size):
        step_start = t
        body = []   # events are emitted inside; we write the step annotation last
        t += rng.uniform(20, 60)
        # DataLoader fetch.
        dl = rng.uniform(300, 900)
        w.x("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1, main, t, dl,
            [("External id", w.ext + 1)])
        w.ext += 1
        t += dl + rng.uniform(5, 20)
        t = w.op_chain(main, t, ["aten::to", "aten::_to_copy", "aten::copy_"], "gpu_memcpy", None, 60) + 3
        # Forward, under a python frame.
        fwd_start = t
        layers = rng.randint(20, 40)
        for _ in range(layers):
            chain, kind, key, mean = rng.choice(FORWARD)
            t = w.op_chain(main, t + rng.uniform(2, 10), chain, kind, key, mean)
        w.x("python_function", "nn.Module: ResNet_0", 1, main, fwd_start - 1, t - fwd_start + 2,
            [("Python parent id", 1), ("Python id", 2), ("Python module id", 0), ("Python thread", 0)])
        t = w.op_chain(main, t + 5, ["aten::zero_", "aten::fill_"], "gpu_memset", None, 3)
        # Backward on its own thread.
        bt = t + rng.uniform(10, 30)
        for _ in range(layers):
            chain, kind, key, mean = rng.choice(BACKWARD)
            bt = w.op_chain(bwd, bt + rng.uniform(2, 10), chain, kind, key, mean)
        if rng.random() < 0.5:
            w.ext += 1
            ext = w.ext
            w.x("user_annotation", "nccl:all_reduce", 1, bwd, bt + 2, 30.0, [("External id", ext)])
            w.launch(bwd, bt + 4, ext, "kernel", "nccl", 400, stream=20)
            bt += 35
        t = max(t, bt) + rng.uniform(5, 15)
        # Optimizer.
        opt_start = t
        for _ in range(rng.randint(5, 12)):
            t = w.op_chain(main, t + 2, ["aten::add_"], "kernel", "add", 8)
        w.x("cpu_op", "Optimizer.step#SGD.step", 1, main, opt_start - 1, t - opt_start + 2,
            [("External id", w.ext + 1)])
        w.ext += 1
        t = max(t, w.gpu_free[7]) + rng.uniform(10, 40)
        w.x("user_annotation", "ProfilerStep#%d" % step, 1, main, step_start, t - step_start,
            [("External id", w.ext + 1)])
        w.ext += 1
        step += 1
        t += rng.uniform(5, 20)
    out.write('\n  ],\n  "traceName": "proftui-bench"\n}\n')
    return step


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", required=True, help="path; .gz writes gzip")
    ap.add_argument("--size", default="10M", help="target size: 100M, 1G (binary units)")
    ap.add_argument("--steps", type=int, default=0, help="exactly N steps instead of a size")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    size = int(float(a.size[:-1]) * mult[a.size[-1].upper()]) if a.size[-1].upper() in mult else int(a.size)
    if a.output.endswith(".gz"):
        out = gzip.open(a.output, "wt", compresslevel=6)
    else:
        out = open(a.output, "w", buffering=1 << 20)
    with out:
        n = generate(out, size, a.steps, a.seed)
    print("%s: %d steps" % (a.output, n), file=sys.stderr)


if __name__ == "__main__":
    main()
