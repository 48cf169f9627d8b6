#!/bin/sh
# SPDX-License-Identifier: MIT
# The summary workflow's scripts: scripts/summarize-slurm.sh run as each
# task of an array job would run it (SLURM_ARRAY_TASK_ID set by hand), and
# xargs -P as README shows it; the summaries they write open as the ranks
# of the job and print what the traces print.
. "$(dirname "$0")/../test-lib.sh"
need_proftui

dir=$O/tests/scripts
rm -rf "$dir"
mkdir -p "$dir/traces"
cp tests/golden/ranks/job/*.pt.trace.json "$dir/traces/"

ok=true
for i in 0 1 2; do
	SLURM_ARRAY_TASK_ID=$i PROFTUI=$PROFTUI sh scripts/summarize-slurm.sh "$dir/traces" \
		"$dir/slurm" 2>>"$dir/err" || ok=false
done
if $ok && [ "$(ls "$dir/slurm" | wc -l)" -eq 3 ]; then
	pass "scripts: three array tasks, three summaries"
else
	fail "scripts: three array tasks, three summaries ($(cat "$dir/err"))"
fi
if SLURM_ARRAY_TASK_ID=3 PROFTUI=$PROFTUI sh scripts/summarize-slurm.sh "$dir/traces" \
	"$dir/slurm" 2>"$dir/err"; then
	fail "scripts: a task past the last trace fails"
elif grep -q 'no trace number 3' "$dir/err"; then
	pass "scripts: a task past the last trace fails"
else
	fail "scripts: a task past the last trace fails ($(cat "$dir/err"))"
fi
"$PROFTUI" --print ranks --format json "$dir/traces" >"$dir/traces.json" 2>&1
"$PROFTUI" --print ranks --format json "$dir/slurm" >"$dir/slurm.json" 2>&1
if cmp -s "$dir/traces.json" "$dir/slurm.json"; then
	pass "scripts: the summaries' Ranks are the traces'"
else
	fail "scripts: the summaries' Ranks are the traces'"
fi

ls "$dir"/traces/*.pt.trace.json | xargs -P 3 -I{} "$PROFTUI" --summary -o {}.summary {}
"$PROFTUI" --print comm --format json --ranks "$dir"/traces/*.summary >"$dir/xargs.json" 2>&1
"$PROFTUI" --print comm --format json --ranks "$dir"/traces/*.pt.trace.json >"$dir/comm.json" 2>&1
if cmp -s "$dir/xargs.json" "$dir/comm.json"; then
	pass "scripts: xargs -P: the Comm ops are the traces'"
else
	fail "scripts: xargs -P: the Comm ops are the traces'"
fi
test_done
