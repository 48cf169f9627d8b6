#!/bin/sh
# SPDX-License-Identifier: MIT
# The nested-frames probe (issue 29 item 2): traces of N nested Python
# frames (bench/gen_nested_frames.py), one op at the bottom ("bottom") or
# one in every frame ("every"), loaded by `proftui --print ops` and, for
# the first, `--print call-stacks` of that op (one stack of N frames).
# Prints wall time and peak RSS per run: figures, not a test.  Memory and
# time should grow in proportion to N; a text per prefix stack made them
# grow with N^2 (20,000 frames: 5 GB).
#   PROFTUI   binary (default build/proftui)
#   FRAMES    depths (default "5000 10000 20000 50000")
#   BENCH_DIR where traces go (default bench/out)
#   MEM_KB    a ulimit -v for each run (default 8 GB): a blow-up fails
#             the run rather than the machine
set -eu
PROFTUI=${PROFTUI:-build/proftui}
FRAMES=${FRAMES:-5000 10000 20000 50000}
DIR=${BENCH_DIR:-bench/out}
MEM_KB=${MEM_KB:-8388608}
mkdir -p "$DIR"

# One run: "wall_s peak_MB", or "failed" (out of memory under MEM_KB).
measure() {
	if (ulimit -v "$MEM_KB"; /usr/bin/time -f '%e %M' -o "$DIR/time.out" "$@") \
		>/dev/null 2>"$DIR/stderr.out"; then
		awk '{ printf "%8.2f %9.1f", $1, $2 / 1024 }' "$DIR/time.out"
	else
		printf '%18s' failed
	fi
}

printf '%-8s %7s %8s %8s %9s\n' variant frames json_MB wall_s peak_MB
for n in $FRAMES; do
	for variant in bottom every; do
		json=$DIR/nested-$variant-$n.json
		every=0
		[ "$variant" = every ] && every=1
		[ -f "$json" ] || python3 bench/gen_nested_frames.py -n "$n" --op-every "$every" -o "$json"
		mb=$(stat -L -c %s "$json" | awk '{ printf "%.1f", $1 / 1e6 }')
		printf '%-8s %7s %8s %s  --print ops\n' "$variant" "$n" "$mb" \
			"$(measure "$PROFTUI" --print ops "$json")"
		[ "$variant" = bottom ] &&
			printf '%-8s %7s %8s %s  --print call-stacks\n' "$variant" "$n" "$mb" \
				"$(measure "$PROFTUI" --print call-stacks --drill aten::deep "$json")"
	done
done
