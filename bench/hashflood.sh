#!/bin/sh
# SPDX-License-Identifier: MIT
# The hash-flood benchmark (issue 9): `proftui --print ops` on Kineto
# traces of N events whose names, or correlation ids, were crafted to
# collide under the old unkeyed hashes (tests/unit/flood.h), beside traces
# of random names and ids of the same shape.  Prints the median wall time
# of RUNS runs of each; with keyed hashes crafted and random should match.
# A run that passes TIMEOUT seconds prints as ">TIMEOUT".
#   PROFTUI   binary (default build/proftui)
#   N         events per trace (default 1000000)
#   RUNS      runs per trace (default 3)
#   TIMEOUT   seconds per run (default 120)
#   BENCH_DIR where traces go (default bench/out)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
N=${N:-1000000}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-120}
DIR=${BENCH_DIR:-bench/out}
mkdir -p "$DIR"

${CC:-cc} -O2 -o "$DIR/floodgen" bench/floodgen.c

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-24s %9s %10s\n' trace json_MB wall_s
for what in names ids; do
	for how in crafted random; do
		json=$DIR/flood-$what-$how-$N.json
		[ -f "$json" ] || "$DIR/floodgen" "$what" "$how" "$N" >"$json"
		cat "$json" >/dev/null	# warm the page cache
		walls=
		for i in $(seq "$RUNS"); do
			start=$(date +%s%N)
			rc=0
			timeout "$TIMEOUT" "$PROFTUI" --print ops -o /dev/null "$json" >/dev/null 2>&1 || rc=$?
			case $rc in
			0) walls="$walls $((($(date +%s%N) - start) / 1000000))" ;;
			124) walls="$walls 999999999" ;;	# sorts last
			*) echo "bench: $PROFTUI failed on $json (exit $rc)" >&2; exit 1 ;;
			esac
		done
		ms=$(echo $walls | tr ' ' '\n' | median)
		awk -v t="$what-$how" -v b="$(stat -c %s "$json")" -v ms="$ms" -v limit="$TIMEOUT" 'BEGIN {
			printf "%-24s %9.1f %10s\n", t, b / 1e6, ms == 999999999 ? ">" limit : sprintf("%.2f", ms / 1000)
		}'
	done
done
