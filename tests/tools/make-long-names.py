#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write tests/golden/kineto/long-names.json: one step of a Kineto trace
whose kernels have the C++ template names of about 300 characters that
real CUDA libraries give them (and one with wide characters), for the
--width goldens.  Run from the repository root; the output is fixed (no
randomness, no clock)."""
import json

def template(ns, name, depth):
    args = ", ".join(f"{ns}::detail::Array<char*, {i}>" for i in range(1, depth + 1))
    return (f"void {ns}::native::{name}<{depth}, {ns}::native::Functor<float, "
            f"{ns}::native::Op<{ns}::detail::Policy<128, 4>>>, {args}>"
            f"(int, {ns}::native::Functor<float>, {args})")

names = [
    template("at", "vectorized_elementwise_kernel", 5),
    template("cutlass", "Kernel_sm80_tensorop_gemm", 4),
    template("cub", "DeviceReduceSingleTileKernel", 6),
    "add_kernel",
    "\u6838\u51fd\u6570_" * 12 + "kernel<float>",
]
events = [
    {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "python"}},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 7, "tid": 7,
     "ts": 1000, "dur": 2000, "args": {"External id": 1}},
]
# Blocks per SM of each kernel: Blk/SM's two decimals in every row.
bpsm = [1.5, 0.61, 0.007576, 0.0039, 12.25]
ts = 1100
for i, name in enumerate(names):
    ext, corr = 10 + i, 100 + i
    events.append({"ph": "X", "cat": "cpu_op", "name": f"aten::op{i}", "pid": 7, "tid": 7,
                   "ts": ts, "dur": 200, "args": {"External id": ext}})
    events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7,
                   "tid": 7, "ts": ts + 10, "dur": 10,
                   "args": {"External id": ext, "correlation": corr}})
    events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
                   "ts": ts + 50, "dur": 100 * (len(names) - i),
                   "args": {"correlation": corr, "External id": ext,
                            "blocks per SM": bpsm[i], "est. achieved occupancy %": 40}})
    ts += 300
trace = {"schemaVersion": 1,
         "deviceProperties": [{"id": 0, "name": "Test GPU 80GB",
                               "totalGlobalMem": 85899345920, "numSms": 108}],
         "traceEvents": events}
with open("tests/golden/kineto/long-names.json", "w", encoding="utf-8") as f:
    json.dump(trace, f, indent=1, ensure_ascii=False)
    f.write("\n")
