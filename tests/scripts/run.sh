#!/bin/sh
# SPDX-License-Identifier: MIT
# The summary workflow's scripts: scripts/summarize-slurm.sh run as each
# task of an array job would run it (SLURM_ARRAY_TASK_ID and the array's
# size set by hand; tests/scripts/slurm.sh runs it on Slurm), and
# xargs -P as README shows it; the summaries they write open as the ranks
# of the job and print what the traces print.
. "$(dirname "$0")/../test-lib.sh"
need_proftui

dir=$O/tests/scripts
rm -rf "$dir"
mkdir -p "$dir/traces"
cp tests/golden/ranks/job/*.pt.trace.json "$dir/traces/"

# task I of K: run the script as array task I of a job of K tasks.
task() {
	SLURM_ARRAY_TASK_ID=$1 SLURM_ARRAY_TASK_COUNT=$2 PROFTUI=$3 sh scripts/summarize-slurm.sh \
		"$dir/traces" "$4"
}

ok=true
for i in 0 1; do
	task "$i" 2 "$PROFTUI" "$dir/slurm" 2>>"$dir/err" || ok=false
done
if $ok && [ "$(ls "$dir/slurm" | wc -l)" -eq 3 ]; then
	pass "scripts: two array tasks share three traces: three summaries"
else
	fail "scripts: two array tasks share three traces: three summaries ($(cat "$dir/err"))"
fi
if task 3 4 "$PROFTUI" "$dir/past" 2>"$dir/err" && [ ! -e "$dir/past" ] && [ ! -s "$dir/err" ]; then
	pass "scripts: a task past the last trace has nothing to do"
else
	fail "scripts: a task past the last trace has nothing to do ($(cat "$dir/err"))"
fi
mkdir -p "$dir/empty"
if (dir=$dir/empty task 0 1 "$PROFTUI" "$dir/none") 2>"$dir/err"; then
	fail "scripts: a directory without traces fails"
elif grep -q 'no trace' "$dir/err"; then
	pass "scripts: a directory without traces fails"
else
	fail "scripts: a directory without traces fails ($(cat "$dir/err"))"
fi
# Without the array's size a task cannot know its slice.
if SLURM_ARRAY_TASK_ID=0 PROFTUI=$PROFTUI sh scripts/summarize-slurm.sh "$dir/traces" \
	"$dir/none" 2>"$dir/err"; then
	fail "scripts: a task without the array's size fails"
elif grep -q 'SLURM_ARRAY_TASK_COUNT' "$dir/err"; then
	pass "scripts: a task without the array's size fails"
else
	fail "scripts: a task without the array's size fails ($(cat "$dir/err"))"
fi
# The size from the array's bounds (--array=4-10:3 is tasks 4, 7, 10).
mkdir -p "$dir/bounds"
for i in 4 7 10; do
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_MAX=10 \
		SLURM_ARRAY_TASK_STEP=3 PROFTUI=$PROFTUI sh scripts/summarize-slurm.sh \
		"$dir/traces" "$dir/bounds" 2>>"$dir/err"
done
if [ "$(ls "$dir/bounds" | wc -l)" -eq 3 ]; then
	pass "scripts: the array's size from its bounds and step"
else
	fail "scripts: the array's size from its bounds and step ($(ls "$dir/bounds"))"
fi
# No proftui: the task says how to name it, and exits 127.
task 0 1 "$dir/no-such-proftui" "$dir/none" 2>"$dir/err"
rc=$?
if [ "$rc" -eq 127 ] && grep -q "cannot run '$dir/no-such-proftui'.*PROFTUI=" "$dir/err"; then
	pass "scripts: without proftui the task says how to name it"
else
	fail "scripts: without proftui the task says how to name it (exit $rc: $(cat "$dir/err"))"
fi
# A trace that fails: the others are summarised, then the task fails
# naming it.
mkdir -p "$dir/bad"
cp "$dir"/traces/*.pt.trace.json "$dir/bad/"
echo 'not a trace' >"$dir/bad/a-broken.pt.trace.json"
if SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=1 PROFTUI=$PROFTUI sh scripts/summarize-slurm.sh \
	"$dir/bad" "$dir/bad-out" 2>"$dir/err"; then
	fail "scripts: a failed trace fails the task, after the rest"
elif [ "$(ls "$dir/bad-out" | wc -l)" -eq 3 ] &&
	grep -q "1 of the task's traces failed.*a-broken.pt.trace.json" "$dir/err"; then
	pass "scripts: a failed trace fails the task, after the rest"
else
	fail "scripts: a failed trace fails the task, after the rest ($(cat "$dir/err"))"
fi
"$PROFTUI" --print ranks --format json "$dir/traces" >"$dir/traces.json" 2>&1
"$PROFTUI" --print ranks --format json "$dir/slurm" >"$dir/slurm.json" 2>&1
if cmp -s "$dir/traces.json" "$dir/slurm.json"; then
	pass "scripts: the summaries' Ranks are the traces'"
else
	fail "scripts: the summaries' Ranks are the traces'"
fi

# README's xargs line: the summaries go to OUT_DIR, not beside the traces.
mkdir -p "$dir/xargs"
(cd "$dir" && printf '%s\0' traces/*.pt.trace.json |
	PATH=$(dirname "$PROFTUI"):$PATH xargs -0 -P 3 -n 1 \
		sh -c 'proftui --summary -o "xargs/${1##*/}.summary" "$1"' sh)
"$PROFTUI" --print comm --format json --ranks "$dir"/xargs/*.summary >"$dir/xargs.json" 2>&1
"$PROFTUI" --print comm --format json --ranks "$dir"/traces/*.pt.trace.json >"$dir/comm.json" 2>&1
if [ "$(ls "$dir/traces" | wc -l)" -eq 3 ] && cmp -s "$dir/xargs.json" "$dir/comm.json"; then
	pass "scripts: xargs -P: the Comm ops are the traces', the traces left alone"
else
	fail "scripts: xargs -P: the Comm ops are the traces', the traces left alone"
fi
test_done
