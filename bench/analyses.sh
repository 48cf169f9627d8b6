#!/bin/sh
# SPDX-License-Identifier: MIT
# What each analysis pane costs on top of the load (issue 31: at most 1 s
# and 0.1x the file's size in extra peak memory on the 1 GB trace).  For
# each pane, --print PANE and --print info (the load and a pane of a few
# rows) run in turn RUNS times; printed are the medians of the pane's wall
# time, of its extra time over info's, and of its extra peak memory, with
# that memory as a share of the file.  Figures, not a test.
#   PROFTUI   binary (default build/proftui)
#   TRACE     trace (default bench/out/trace-1G.json, made by bench/run.sh)
#   RUNS      pairs (default 3)
#   ANALYSES  panes (default: those of the list below that --list-panes has)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
TRACE=${TRACE:-bench/out/trace-1G.json}
RUNS=${RUNS:-3}

if [ ! -f "$TRACE" ]; then
	echo "bench/analyses.sh: $TRACE is missing (bench/run.sh makes it); skipped"
	exit 0
fi
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
. "$(dirname "$0")/lib.sh"
if [ -z "${ANALYSES:-}" ]; then
	ANALYSES=
	# The Overview too: it runs the analyses' sections on landing.
	for p in overview temporal kernel-types kernel-breakdown idle launches launch-dist \
		queue-length memory-bandwidth api annotations sequences critical-path rank-analyses; do
		"$PROFTUI" --list-panes | grep -q "^$p " && ANALYSES="$ANALYSES $p"
	done
fi
size_kb=$(($(wc -c <"$TRACE") / 1024))
printf '%-18s %8s %9s %10s %8s\n' pane wall_s extra_s extra_MiB x_file
for p in $ANALYSES; do
	walls= extras= mems=
	for i in $(seq "$RUNS"); do
		set -- $(measure "$PROFTUI" --print "$p" -o /dev/null "$TRACE")
		w=$1 m=$2
		set -- $(measure "$PROFTUI" --print info -o /dev/null "$TRACE")
		walls="$walls $w"
		extras="$extras $(awk -v a="$w" -v b="$1" 'BEGIN { printf "%.2f", a - b }')"
		mems="$mems $((m - $2))"
	done
	mem=$(echo $mems | tr ' ' '\n' | median)
	printf '%-18s %8s %9s %10.1f %8.3f\n' "$p" "$(echo $walls | tr ' ' '\n' | median)" \
		"$(echo $extras | tr ' ' '\n' | median)" "$(awk -v k="$mem" 'BEGIN { print k / 1024 }')" \
		"$(awk -v k="$mem" -v f="$size_kb" 'BEGIN { print (f > 0 ? k / f : 0) }')"
done
