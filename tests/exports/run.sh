#!/bin/sh
# SPDX-License-Identifier: MIT
# Every JSON that proftui writes is JSON: each pane --print can show, as
# --format json, on every input of the golden suites and on inputs made to
# hold the numbers JSON cannot spell (a ratio to zero, a share of nothing,
# percentages out of range).  Python's own parser judges, with NaN and
# Infinity refused as RFC 8259 refuses them; a pane that does not apply to
# an input (exit 1 or 2) is not judged.
. "$(dirname "$0")/../test-lib.sh"
need_proftui
command -v python3 >/dev/null 2>&1 || { skip "exports: every --format json output is JSON" "no python3 to judge it"; test_done; }
dir=$O/tests/exports
rm -rf "$dir"
mkdir -p "$dir/out"

# Zeros everywhere a ratio or a share divides: a base whose op took no
# time, a step of no length, a kernel of no duration.
cat >"$dir/zero-base.json" <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "op", "ts": 10, "dur": 0, "pid": 1, "tid": 1, "args": {"External id": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 10, "dur": 0, "pid": 1, "tid": 1, "args": {"correlation": 1, "External id": 1}},
{"ph": "X", "cat": "kernel", "name": "k", "ts": 10, "dur": 0, "pid": 0, "tid": 7, "args": {"correlation": 1, "External id": 1, "device": 0, "stream": 7}},
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "ts": 10, "dur": 0, "pid": 1, "tid": 1}
]}
JSON
cat >"$dir/zero-new.json" <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "op", "ts": 10, "dur": 5, "pid": 1, "tid": 1, "args": {"External id": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 11, "dur": 1, "pid": 1, "tid": 1, "args": {"correlation": 1, "External id": 1}},
{"ph": "X", "cat": "kernel", "name": "k", "ts": 12, "dur": 3, "pid": 0, "tid": 7, "args": {"correlation": 1, "External id": 1, "device": 0, "stream": 7, "blocks per SM": 1e999, "est. achieved occupancy %": -1e999, "registers per thread": 1e999}},
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "ts": 10, "dur": 6, "pid": 1, "tid": 1}
]}
JSON
# trtexec's layer times with shares that do not add up, or cannot (a
# number past double's range reads as infinite).
printf '[{"count": 0},\n{"name": "a", "timeMs": 0, "averageMs": 0, "medianMs": 0, "percentage": -50},\n{"name": "b", "timeMs": 0, "averageMs": 0, "medianMs": 0, "percentage": 1e999}]\n' \
	>"$dir/trt-shares.json"

inputs=$(ls tests/golden/*/* tests/samples/* 2>/dev/null | grep -v '\.\(t\|out\)$')
panes=$("$PROFTUI" --list-panes | awk '{ print $1 }')
i=0
: >"$dir/list"
judge() {	# judge ARGS...: one export, kept if the pane applies
	i=$((i + 1))
	if "$PROFTUI" --print "$@" --format json >"$dir/out/$i.json" 2>/dev/null; then
		printf '%s\t%s\n' "$dir/out/$i.json" "$*" >>"$dir/list"
	fi
}
for p in $panes; do
	for f in $inputs "$dir/trt-shares.json"; do
		[ -f "$f" ] && judge "$p" "$f"
	done
	judge "$p" --diff "$dir/zero-base.json" "$dir/zero-new.json"
	judge "$p" --diff "$dir/zero-new.json" "$dir/zero-base.json"
	judge "$p" --diff tests/golden/diff/base.json tests/golden/diff/new.json
	[ -d tests/golden/ranks/job ] && judge "$p" tests/golden/ranks/job
done

python3 - "$dir/list" >"$dir/verdicts" <<'PY'
import json, sys

def refuse(name):
    raise ValueError("not JSON: " + name)

for line in open(sys.argv[1], encoding="utf-8"):
    path, what = line.rstrip("\n").split("\t", 1)
    try:
        with open(path, encoding="utf-8") as f:
            json.load(f, parse_constant=refuse)
        print("ok\t" + what)
    except Exception as e:
        print("bad\t" + what + "\t" + str(e)[:200])
PY
nr=$(grep -c '^ok' "$dir/verdicts")
bad=$(grep '^bad' "$dir/verdicts")
if [ -n "$bad" ]; then
	fail "exports: every --format json output is JSON ($(echo "$bad" | wc -l) not)"
	echo "$bad" | head -n 10
elif [ "$nr" -lt 100 ]; then
	fail "exports: every --format json output is JSON (only $nr exports judged)"
else
	pass "exports: every --format json output is JSON ($nr exports)"
fi
test_done
