#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the small hand-made traces of tests/golden/ranks and tests/golden/diff
# (run from the repository root; the files are committed, this says how they
# were made).  Every number is chosen so the expected figures can be worked out
# by hand:
#   ranks/job/worker{0,1,2}.pt.trace.json: three ranks of one NCCL job, two steps
#   each; per step a GEMM kernel and one nccl:all_reduce whose kernel starts
#   later on some ranks (they wait for the last one), and worker2 is slow.
#   ranks/spans/worker{0,1}.{1000,2000}.pt.trace.json: two workers of a job of
#   two, two spans each (the second slower), as torch-tb-profiler names spans.
#   diff/{base,new}.json: one step each; new drops aten::relu, adds aten::gelu,
#   makes aten::mm's kernel slower and aten::add's faster, keeps aten::copy_.
import json, os

def ev(cat, name, ts, dur, tid=1, pid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur,
            "args": args}

def rank_trace(rank, gemm, nccl_start, step_len, world=3):
    events, corr = [], 0
    for s in range(2):
        t0 = 1000 + s * 2000
        events.append(ev("user_annotation", f"ProfilerStep#{s + 1}", t0, step_len))
        corr += 1
        events.append(ev("cpu_op", "aten::mm", t0 + 10, 100, **{"External id": corr}))
        events.append(ev("cuda_runtime", "cudaLaunchKernel", t0 + 20, 10,
                         correlation=corr, **{"External id": corr}))
        events.append(ev("kernel", "gemm_kernel", t0 + 100, gemm, pid=0, tid=7,
                         correlation=corr, **{"External id": corr}))
        corr += 1
        events.append(ev("user_annotation", "nccl:all_reduce", t0 + 500, 20,
                         **{"External id": corr, "Input Dims": [[1024, 256]],
                            "Input type": ["float"]}))
        events.append(ev("cuda_runtime", "cudaLaunchKernel", t0 + 505, 10,
                         correlation=corr, **{"External id": corr}))
        events.append(ev("kernel", "ncclKernel_AllReduce_RING_LL_Sum_float", t0 + nccl_start,
                         800 - nccl_start, pid=0, tid=13, correlation=corr,
                         **{"External id": corr}))
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
                                  "totalGlobalMem": 85198045184, "computeMajor": 8,
                                  "computeMinor": 0, "numSms": 108}],
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world},
            "traceEvents": events}

def diff_trace(new):
    ops = [("aten::mm", 300 if new else 200), ("aten::add", 40 if new else 100),
           ("aten::copy_", 50), ("aten::gelu" if new else "aten::relu", 30)]
    events, t = [ev("user_annotation", "ProfilerStep#1", 0, 2000)], 10
    for i, (name, kdur) in enumerate(ops, 1):
        events.append(ev("cpu_op", name, t, 60, **{"External id": i}))
        events.append(ev("cuda_runtime", "cudaLaunchKernel", t + 5, 10,
                         correlation=i, **{"External id": i}))
        events.append(ev("kernel", name.split("::")[1] + "_kernel", t + 100, kdur, pid=0, tid=7,
                         correlation=i, **{"External id": i}))
        t += 400
    return {"schemaVersion": 1, "traceEvents": events}

def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"))
        f.write("\n")

write("tests/golden/ranks/job/worker0.pt.trace.json", rank_trace(0, 300, 540, 1600))
write("tests/golden/ranks/job/worker1.pt.trace.json", rank_trace(1, 320, 560, 1600))
write("tests/golden/ranks/job/worker2.pt.trace.json", rank_trace(2, 400, 600, 1800))
os.makedirs("tests/golden/ranks/spans", exist_ok=True)
for w, gemm in ((0, 300), (1, 320)):
    write(f"tests/golden/ranks/spans/worker{w}.1000.pt.trace.json", rank_trace(w, gemm, 540, 1600, 2))
    write(f"tests/golden/ranks/spans/worker{w}.2000.pt.trace.json",
          rank_trace(w, gemm + 100, 560, 1700, 2))
write("tests/golden/diff/base.json", diff_trace(False))
write("tests/golden/diff/new.json", diff_trace(True))
