#!/bin/sh
# SPDX-License-Identifier: MIT
# What --print of the whole Tree costs next to --print ops on the same
# trace (issue 10: at most 1.5x on a 1 GB trace).  Both load the trace the
# same way; the Tree then writes every node as a row.  Runs the two in
# turn RUNS times and prints each one's median wall time and the median of
# the pair-by-pair ratios, which holds when the machine's speed drifts.
# Figures, not a test.
#   PROFTUI  binary (default build/proftui)
#   TRACE    trace (default bench/out/trace-1G.json, made by bench/run.sh)
#   RUNS     pairs (default 5)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
TRACE=${TRACE:-bench/out/trace-1G.json}
RUNS=${RUNS:-5}

if [ ! -f "$TRACE" ]; then
	echo "bench/print.sh: $TRACE is missing (bench/run.sh makes it); skipped"
	exit 0
fi
. "$(dirname "$0")/lib.sh"
wall() {
	out=$(mktemp)
	/usr/bin/time -f '%e' -o "$out" "$PROFTUI" --print "$1" -o /dev/null "$TRACE" 2>/dev/null
	cat "$out"
	rm -f "$out"
}

ops= tree= ratios=
for i in $(seq "$RUNS"); do
	o=$(wall ops)
	t=$(wall tree)
	ops="$ops $o"
	tree="$tree $t"
	ratios="$ratios $(awk -v t="$t" -v o="$o" 'BEGIN { printf "%.3f", (o > 0 ? t / o : 0) }')"
done
printf '%-26s %10s %10s %10s\n' file ops_s tree_s tree/ops
printf '%-26s %10s %10s %10s\n' "$(basename "$TRACE")" "$(echo $ops | tr ' ' '\n' | median)" \
	"$(echo $tree | tr ' ' '\n' | median)" "$(echo $ratios | tr ' ' '\n' | median)"
