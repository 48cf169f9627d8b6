#!/bin/sh
# SPDX-License-Identifier: MIT
# What HTA's analyses cost on a big trace (issue 31: each <= 1 s and
# <= 0.1x the file in extra memory on 1 GB): for each analysis pane,
# --print NAME against --print info on the same trace -- the same load,
# then the analysis -- as the median wall time of RUNS runs and the peak
# resident memory.  The difference is the time to open the pane and the
# extra memory it takes.  Figures, not a test.
#   PROFTUI  binary (default build/proftui)
#   TRACE    trace (default bench/out/trace-1G.json, made by bench/run.sh)
#   RUNS     runs of each (default 3)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
TRACE=${TRACE:-bench/out/trace-1G.json}
RUNS=${RUNS:-3}

if [ ! -f "$TRACE" ]; then
	echo "bench/hta.sh: $TRACE is missing (bench/run.sh makes it); skipped"
	exit 0
fi
. "$(dirname "$0")/lib.sh"
# PANE: "seconds peak_kB" of one run.
run() {
	out=$(mktemp)
	/usr/bin/time -f '%e %M' -o "$out" "$PROFTUI" --print "$1" -o /dev/null "$TRACE" 2>/dev/null
	tail -1 "$out"
	rm -f "$out"
}
# PANE: the median seconds and the largest peak of RUNS runs.
measure() {
	s= m=0
	for i in $(seq "$RUNS"); do
		set -- "$1" $(run "$1")
		s="$s $2"
		[ "$3" -le "$m" ] || m=$3
		set -- "$1"
	done
	echo "$(echo $s | tr ' ' '\n' | median) $m"
}

size=$(wc -c <"$TRACE")
base=$(measure info)
printf '%-14s %9s %10s %9s %10s  (%s, %d MB)\n' pane wall_s peak_MB open_s extra_MB \
	"$(basename "$TRACE")" $((size / 1000000))
for pane in info temporal kernel-types; do
	m=$(measure "$pane")
	echo "$pane $m $base" | awk '{ printf "%-14s %9.2f %10.0f %9.2f %10.0f\n", $1, $2, $3 / 1024, $2 - $4, ($3 - $5) / 1024 }'
done
