#!/bin/sh
# SPDX-License-Identifier: MIT
# A Slurm array job that writes one proftui summary per trace.  Each task
# takes a slice of TRACE_DIR's traces (by name): with K tasks, task I
# (counted from 0) takes traces I, I+K, I+2K...; a task past the last
# trace has none.  A job of 1,000 traces is best 16 to 64 tasks, not
# 1,000: the scheduler spends seconds on each task, a summary a tenth of
# one (and Slurm's MaxArraySize, 1001 by default, refuses larger arrays).
#
#   sbatch --array=0-31 scripts/summarize-slurm.sh TRACE_DIR OUT_DIR
#   proftui OUT_DIR/*.summary          # afterwards, on any machine
#
# Try it without Slurm by setting the variables each array task gets:
#   SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=1 sh scripts/summarize-slurm.sh traces out
# PROFTUI names the binary (default: proftui on the job's PATH; sbatch
# passes the submitting shell's variables on).  A task summarises its
# traces one after the other, with one proftui each: one core, and memory
# for the largest trace alone (a summary takes about a fifth of its
# trace's size).  Slurm's own output goes to /dev/null (a file per task
# would be left empty); what the script or proftui has to say goes to
# OUT_DIR/log/JOB_TASK.log, made only when there is something to say.
#SBATCH --job-name=proftui-summary
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=00:30:00
#SBATCH --output=/dev/null
set -eu

# The script as its user submitted it: Slurm runs a copy in its spool.
me=$0
if [ -n "${SLURM_JOB_ID:-}" ]; then
	cmd=$(scontrol show job "$SLURM_JOB_ID" 2>/dev/null |
		sed -n 's/^ *Command=\([^ ]*\).*/\1/p' | head -n 1) || cmd=
	if [ -n "$cmd" ]; then
		me=$cmd
	elif [ -n "${SLURM_SUBMIT_DIR:-}" ]; then
		me="scripts/summarize-slurm.sh (submitted from $SLURM_SUBMIT_DIR)"
	fi
fi
task=${SLURM_ARRAY_TASK_ID:-}
job=${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-by-hand}}
# In a job, the task's log: OUT_DIR/log/JOB_TASK.log, or in the submit
# directory until OUT_DIR is known.  Made by the first line written.
log=
if [ -n "${SLURM_JOB_ID:-}" ]; then
	log=${SLURM_SUBMIT_DIR:-.}/proftui-summary-${job}_$task.log
fi

# to_log: append stdin to the task's log (none by hand), its directory
# made now, so that a task with nothing to say leaves nothing.
to_log() {
	if [ -z "$log" ]; then
		cat >/dev/null
	elif mkdir -p "${log%/*}" 2>/dev/null; then
		cat >>"$log"
	else
		cat >>"${SLURM_SUBMIT_DIR:-.}/proftui-summary-${job}_$task.log"
	fi
}

# say TEXT: to stderr and the task's log.
say() {
	echo "$me: $*" >&2
	echo "$me: $*" | to_log
}

if [ $# -ne 2 ]; then
	say "usage: sbatch --array=0-K $me TRACE_DIR OUT_DIR"
	exit 1
fi
dir=$1
out=$2
if [ -n "$log" ]; then
	log=$out/log/${job}_$task.log
fi

proftui=${PROFTUI:-proftui}
if ! command -v "$proftui" >/dev/null 2>&1 || ! "$proftui" --version >/dev/null 2>&1; then
	say "cannot run '$proftui' on $(hostname): not on the job's PATH, or it does not run;" \
		"name it: PROFTUI=/path/to/proftui sbatch --array=... $me $dir $out"
	exit 127
fi

num() {
	case $2 in
	'' | *[!0-9]*)
		say "$1 is '$2', not a number: this is a Slurm array job" \
			"(by hand: SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=1 sh $me $dir $out)"
		exit 1
		;;
	esac
}
num SLURM_ARRAY_TASK_ID "$task"
# The number of tasks, and this task's place among them (--array=0-31:2
# steps by 2; --array=1,5,9 gives no step, and no slices).
min=${SLURM_ARRAY_TASK_MIN:-0}
max=${SLURM_ARRAY_TASK_MAX:-}
step=${SLURM_ARRAY_TASK_STEP:-1}
num SLURM_ARRAY_TASK_MIN "$min"
num SLURM_ARRAY_TASK_STEP "$step"
if [ -n "${SLURM_ARRAY_TASK_COUNT:-}" ]; then
	count=$SLURM_ARRAY_TASK_COUNT
elif [ -n "$max" ]; then
	num SLURM_ARRAY_TASK_MAX "$max"
	count=$(((max - min) / step + 1))
else
	say "SLURM_ARRAY_TASK_COUNT is not set: how many tasks share the traces?" \
		"(by hand: SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=1 sh $me $dir $out)"
	exit 1
fi
num SLURM_ARRAY_TASK_COUNT "$count"
if [ "$step" -eq 0 ] || [ $(((task - min) % step)) -ne 0 ] ||
	[ "$task" -lt "$min" ] || [ $(((task - min) / step)) -ge "$count" ]; then
	say "task $task is not one of the $count of --array=$min-${max:-?}:$step;" \
		"give the array as a range (--array=0-31)"
	exit 1
fi
i=$(((task - min) / step))

# The traces in name order, as every task sees them: this task's slice.
# More tasks than traces: the extra ones have nothing to do.
all=$(find "$dir" -maxdepth 1 -type f \( -name '*.pt.trace.json' -o \
	-name '*.pt.trace.json.gz' \) | LC_ALL=C sort) || {
	say "cannot list the traces of $dir"
	exit 1
}
if [ -z "$all" ]; then
	say "no trace (*.pt.trace.json, *.pt.trace.json.gz) in $dir"
	exit 1
fi
list=$(printf '%s\n' "$all" | awk -v i="$i" -v k="$count" '(NR - 1) % k == i')
[ -n "$list" ] || exit 0
mkdir -p "$out"

# Every trace of the slice, even after one failed; then fail naming them.
err=$(mktemp "${TMPDIR:-/tmp}/proftui-summary.XXXXXX")
trap 'rm -f "$err"' EXIT
failed=
nr_failed=0
rc=0
while IFS= read -r trace; do
	if "$proftui" --summary -o "$out/$(basename "$trace").summary" "$trace" 2>"$err"; then
		:
	else
		rc=$?
		failed="$failed $trace"
		nr_failed=$((nr_failed + 1))
	fi
	if [ -s "$err" ]; then
		to_log <"$err"
		cat "$err" >&2
	fi
done <<EOF
$list
EOF
if [ "$nr_failed" -gt 0 ]; then
	say "$nr_failed of the task's traces failed (the last with exit $rc):$failed"
	exit 1
fi
