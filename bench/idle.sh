#!/bin/sh
# SPDX-License-Identifier: MIT
# What GPU idle and GPU idle gaps cost on a big trace (issue 31: each
# analysis within 1 s and 0.1x the file's size of extra memory on 1 GB):
# the time to open each pane on the loaded trace (build/bench/keys, CPU
# time of its thread: the machine may be shared), and the peak memory of
# --print idle next to --print info, which loads the trace the same way
# and prints little, so the difference is the breakdown's.  Figures, not
# a test.
#   PROFTUI  binary (default build/proftui); build/bench/keys beside it
#   TRACE    trace (default bench/out/trace-1G.json, made by bench/run.sh)
#   RUNS     runs of each (default 3)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
TRACE=${TRACE:-bench/out/trace-1G.json}
RUNS=${RUNS:-3}
KEYS=$(dirname "$PROFTUI")/bench/keys

if [ ! -f "$TRACE" ]; then
	echo "bench/idle.sh: $TRACE is missing (bench/run.sh makes it); skipped"
	exit 0
fi
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
. "$(dirname "$0")/lib.sh"

for pane in idle idle_gaps; do
	BENCH_CLOCK=cpu "$KEYS" "$TRACE" "$RUNS" "$pane" | grep 'open'
done
# peak PANE: the median peak resident size of --print PANE, in KB.
peak() {
	kb=
	for i in $(seq "$RUNS"); do
		run_timed '%M' "$PROFTUI" --print "$1" -o /dev/null "$TRACE"
		kb="$kb $(cat "$DIR/time.out")"
	done
	echo $kb | tr ' ' '\n' | median
}
base=$(peak info)
idle=$(peak idle)
awk -v b="$base" -v i="$idle" -v size="$(wc -c <"$TRACE")" -v f="$(basename "$TRACE")" \
	'BEGIN { printf "idle: peak %.0f MB, %.0f MB with the load alone: %.4fx the file (%s)\n",
		 i / 1024, b / 1024, (i - b) * 1024 / size, f }'
