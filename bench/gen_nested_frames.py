#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a Kineto trace of N nested Python frames on one thread.

The resource probe of issue 29 item 2: with_stack traces record each
Python frame as a python_function event, and a deep recursion makes a
chain of N frames, each enclosing the next.  An op's call stack is every
frame that holds its start, so the stacks of such a trace are long, and
each deeper one extends the one below it.

  gen_nested_frames.py -n 50000 -o deep.json
  gen_nested_frames.py -n 20000 --op-every 1 -o deep.json

The ops: one at the innermost frame and, with --op-every K, one in every
K-th frame (after the frame inside it ends), so that K = 1 gives N
distinct stacks of lengths 1..N.  Each op launches a kernel, so the ops
have device time.  Deterministic: the same arguments give the same bytes.
"""

import argparse
import json
import sys

STEP = 10   # us between one frame's start and the next one's


def frame(i, n):
    """Frame I of N: starts STEP after the one below, ends after it."""
    return {"ph": "X", "cat": "python_function",
            "name": "deep.py(%d): recurse_%d" % (10 + i % 7, i),
            "pid": 1, "tid": 1, "ts": STEP * i, "dur": STEP * 2 * (n - i) + 5,
            "args": {"Python parent id": i if i else None, "Python id": i + 1}}


def op_with_kernel(ext, ts, name):
    """A cpu_op at TS, its launch and its kernel (EXT: the External id)."""
    return [
        {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1,
         "ts": ts, "dur": 3, "args": {"External id": ext, "Input Dims": [[8, 8]]}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
         "pid": 1, "tid": 1, "ts": ts + 1, "dur": 1,
         "args": {"External id": ext, "correlation": ext}},
        {"ph": "X", "cat": "kernel", "name": "deep_kernel", "pid": 0, "tid": 7,
         "ts": ts + 2, "dur": 2,
         "args": {"External id": ext, "correlation": ext, "device": 0, "stream": 7}},
    ]


def events(n, op_every):
    out = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
            "pid": 1, "tid": 1, "ts": 0, "dur": STEP * 2 * n + 20, "args": {}}]
    out += [frame(i, n) for i in range(n)]
    ext = 1
    # The innermost frame's op: inside frame n - 1, which ends last of all
    # the frames' first halves.
    out += op_with_kernel(ext, STEP * (n - 1) + 2, "aten::deep")
    if op_every:
        # Frame d's op runs after frame d + 1 ends, before d ends.
        for d in range(n - 2, -1, -1):
            if d % op_every == 0:
                ext += 1
                out += op_with_kernel(ext, STEP * (2 * n - d - 1) + 6, "aten::deep")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", "--frames", type=int, required=True, help="nested frames")
    ap.add_argument("--op-every", type=int, default=0,
                    help="an op in every K-th frame too (0: only the innermost)")
    ap.add_argument("-o", "--output", default="-", help="file (default stdout)")
    a = ap.parse_args()
    if a.frames < 1 or a.op_every < 0:
        ap.error("need at least one frame and K >= 0")
    doc = {"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "Test GPU", "totalGlobalMem": 34089730048,
                                 "computeMajor": 8, "computeMinor": 0}],
           "traceEvents": events(a.frames, a.op_every)}
    f = sys.stdout if a.output == "-" else open(a.output, "w")
    json.dump(doc, f, separators=(",", ":"))
    f.write("\n")
    if f is not sys.stdout:
        f.close()


if __name__ == "__main__":
    main()
