#!/bin/sh
# SPDX-License-Identifier: MIT
# What the distribution columns cost (issue 31 item 7: at most 1 s and
# 0.1x the file's size in extra peak memory on the 1 GB trace): --print
# PANE --stats against --print PANE, for Kernels and Operators, RUNS
# pairs each; printed are the medians of the --stats run's wall time, of
# its extra time and of its extra peak memory, with that memory as a
# share of the file.  Figures, not a test.
#   PROFTUI   binary (default build/proftui)
#   TRACE     trace (default bench/out/trace-1G.json, made by bench/run.sh)
#   RUNS      pairs (default 3)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
TRACE=${TRACE:-bench/out/trace-1G.json}
RUNS=${RUNS:-3}

if [ ! -f "$TRACE" ]; then
	echo "bench/dist.sh: $TRACE is missing (bench/run.sh makes it); skipped"
	exit 0
fi
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
. "$(dirname "$0")/lib.sh"
size_kb=$(($(wc -c <"$TRACE") / 1024))
printf '%-14s %8s %9s %10s %8s\n' "--stats" wall_s extra_s extra_MiB x_file
for p in kernels ops; do
	walls= extras= mems=
	for i in $(seq "$RUNS"); do
		set -- $(measure "$PROFTUI" --print "$p" --stats -o /dev/null "$TRACE")
		w=$1 m=$2
		set -- $(measure "$PROFTUI" --print "$p" -o /dev/null "$TRACE")
		walls="$walls $w"
		extras="$extras $(awk -v a="$w" -v b="$1" 'BEGIN { printf "%.2f", a - b }')"
		mems="$mems $((m - $2))"
	done
	mem=$(echo $mems | tr ' ' '\n' | median)
	printf '%-14s %8s %9s %10.1f %8.3f\n' "$p" "$(echo $walls | tr ' ' '\n' | median)" \
		"$(echo $extras | tr ' ' '\n' | median)" "$(awk -v k="$mem" 'BEGIN { print k / 1024 }')" \
		"$(awk -v k="$mem" -v f="$size_kb" 'BEGIN { print (f > 0 ? k / f : 0) }')"
done
