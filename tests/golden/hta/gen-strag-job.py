#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write tests/golden/hta/strag-job/: a job of four ranks, three
ProfilerSteps of 1000 us each, where rank 2 starts its all-reduce late.
The all-reduce (stream 20) starts 500, 510, 600 and 505 us into each step
on ranks 0-3 (rank 3: 520 in step 2) and lasts 300, 290, 200, 295 us; a
broadcast (stream 21, 50 us everywhere) starts 900 us in on rank 0 and 850
elsewhere; a GEMM runs 20-620 us into each step on stream 7 (under the
all-reduce's start) and a copy 960-980.  HTA's straggler test marks ranks 2 and 1 (steps 1, 3) and 2 and
3 (step 2): stragglers 2 and 1.  Run from the repository root."""
import json
import os

OUT = "tests/golden/hta/strag-job"
AR = "ncclKernel_AllReduce_RING_LL_Sum_float"
BC = "ncclKernel_Broadcast_RING_LL_Sum_float"
START = [[500, 500, 500], [510, 510, 510], [600, 600, 600], [505, 520, 505]]
DUR = [300, 290, 200, 295]


def rank(r):
    ev = []
    corr = 0

    def launch(ts, name, cat, stream, at, dur):
        nonlocal corr
        corr += 1
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                   "tid": 1, "ts": ts, "dur": 2, "args": {"correlation": corr}})
        ev.append({"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream, "ts": at,
                   "dur": dur, "args": {"device": 0, "stream": stream, "correlation": corr}})

    for s in range(1, 4):
        base = (s - 1) * 1000
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % s,
                   "pid": 1, "tid": 1, "ts": base, "dur": 1000})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
                   "ts": base + 5, "dur": 10})
        launch(base + 10, "volta_sgemm_128x64_nn", "kernel", 7, base + 20, 600)
        launch(base + 12, "Memcpy DtoD (Device -> Device)", "gpu_memcpy", 7, base + 960, 20)
        launch(base + 14, AR, "kernel", 20, base + START[r][s - 1], DUR[r])
        launch(base + 16, BC, "kernel", 21, base + (900 if r == 0 else 850), 50)
    return {"schemaVersion": 1,
            "distributedInfo": {"backend": "nccl", "rank": r, "world_size": 4},
            "traceEvents": ev}


os.makedirs(OUT, exist_ok=True)
for r in range(4):
    with open(os.path.join(OUT, "rank%d.pt.trace.json" % r), "w") as f:
        json.dump(rank(r), f, indent=None, separators=(", ", ": "))
        f.write("\n")
