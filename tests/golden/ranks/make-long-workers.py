#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes tests/golden/ranks/long-workers: five ranks of one job whose
# workers have names of 200 characters (hosts and job ids make them
# long), so that the "# Ranks of ..." caption is over 1 KB.  Each is
# tests/golden/ranks/job/worker0.pt.trace.json with its rank and world
# size changed.  Run from the repository root.
import json, os

with open("tests/golden/ranks/job/worker0.pt.trace.json") as f:
    base = json.load(f)
out = "tests/golden/ranks/long-workers"
os.makedirs(out, exist_ok=True)
for r in range(5):
    base["distributedInfo"] = {"backend": "nccl", "rank": r, "world_size": 5}
    name = f"rank{r}-" + "node-gpu-a100-80gb-pcie-rack17-slot04-job8811923-" * 4
    with open(f"{out}/{name[:200]}.pt.trace.json", "w") as f:
        json.dump(base, f, indent=None, separators=(",", ":"))
        f.write("\n")
