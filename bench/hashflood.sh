#!/bin/sh
# SPDX-License-Identifier: MIT
# The hash-flood benchmark (issue 9): `proftui --print ops` on Kineto
# traces of N events whose names, or correlation ids, were crafted to
# collide under the old unkeyed hashes (tests/unit/flood.h), beside traces
# of random names and ids of the same shape.  Prints the median wall time
# and CPU time (user + system; on a shared machine the steadier figure) of
# RUNS runs of each; with keyed hashes crafted and random should match.
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

. "$(dirname "$0")/lib.sh"

printf '%-24s %9s %10s %10s\n' trace json_MB wall_s cpu_s
for what in names ids; do
	for how in crafted random; do
		json=$DIR/flood-$what-$how-$N.json
		[ -f "$json" ] || "$DIR/floodgen" "$what" "$how" "$N" >"$json"
		cat "$json" >/dev/null	# warm the page cache
		walls= cpus=
		for i in $(seq "$RUNS"); do
			rc=0
			timeout "$TIMEOUT" /usr/bin/time -f '%e %U %S' -o "$DIR/time.out" \
				"$PROFTUI" --print ops -o /dev/null "$json" >/dev/null 2>&1 || rc=$?
			case $rc in
			0)
				set -- $(cat "$DIR/time.out")
				walls="$walls $1"
				cpus="$cpus $(echo "$2 + $3" | bc)"
				;;
			124)
				walls="$walls 999999"	# sorts last
				cpus="$cpus 999999"
				;;
			*) echo "bench: $PROFTUI failed on $json (exit $rc)" >&2; exit 1 ;;
			esac
		done
		wall=$(echo $walls | tr ' ' '\n' | median)
		cpu=$(echo $cpus | tr ' ' '\n' | median)
		awk -v t="$what-$how" -v b="$(stat -c %s "$json")" -v w="$wall" -v c="$cpu" \
			-v limit="$TIMEOUT" 'BEGIN {
			printf "%-24s %9.1f %10s %10s\n", t, b / 1e6,
				w == 999999 ? ">" limit : sprintf("%.2f", w),
				c == 999999 ? "-" : sprintf("%.2f", c)
		}'
	done
done
