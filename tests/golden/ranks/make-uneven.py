#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes tests/golden/ranks/uneven: two ranks of one job, where rank 1
# made one collective more than rank 0 (a third nccl:all_reduce in its
# second step), so that the collectives do not line up and Transfer and
# Sync are blank.  Made from tests/golden/ranks/job's worker0 and worker1.
# Run from the repository root.
import copy, json, os

out = "tests/golden/ranks/uneven"
os.makedirs(out, exist_ok=True)
for r in range(2):
    with open(f"tests/golden/ranks/job/worker{r}.pt.trace.json") as f:
        t = json.load(f)
    t["distributedInfo"] = {"backend": "nccl", "rank": r, "world_size": 2}
    if r == 1:
        # The second step's collective again, 700 us later, with its own
        # correlation and External id.
        extra = []
        for e in t["traceEvents"]:
            if e.get("ts", 0) >= 3000 and ("nccl" in e["name"].lower() or
                                           (e["name"] == "cudaLaunchKernel" and
                                            e["ts"] > 3500)):
                c = copy.deepcopy(e)
                c["ts"] += 700
                c["dur"] = min(c["dur"], 100)
                for k in ("correlation", "External id"):
                    if k in c["args"]:
                        c["args"][k] += 100
                extra.append(c)
        t["traceEvents"] += extra
    with open(f"{out}/worker{r}.pt.trace.json", "w") as f:
        json.dump(t, f, indent=None, separators=(",", ":"))
        f.write("\n")
