#!/bin/sh
# SPDX-License-Identifier: MIT
# The load benchmark: `proftui --print ops` on synthetic Kineto traces of
# 100 MB and 1 GB, plain and gzipped.  Prints, per file, the median wall
# time of RUNS runs, MB/s of uncompressed JSON, peak RSS as a multiple of
# the JSON size, and the ratio to `cat FILE >/dev/null` timed in the same
# run.  Figures, not a test: the machine is shared and noisy, so quote
# medians and ratios.
#   PROFTUI  binary (default build/proftui)
#   SIZES    sizes to generate (default "100M 1G")
#   RUNS     runs per file (default 3)
#   BENCH_DIR where traces go (default bench/out; 1 GB traces are big)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
SIZES=${SIZES:-100M 1G}
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-bench/out}
mkdir -p "$DIR"

. "$(dirname "$0")/lib.sh"

printf '%-26s %9s %8s %9s %8s %8s %9s\n' file json_MB wall_s MB/s rss_MB rss/json vs_cat
for size in $SIZES; do
	json=$DIR/trace-$size.json
	[ -f "$json" ] || python3 bench/gentrace.py --size "$size" -o "$json"
	[ -f "$json.gz" ] || gzip -k -6 "$json"
	json_bytes=$(stat -L -c %s "$json")	# -L: a trace linked in from elsewhere
	for f in "$json" "$json.gz"; do
		cat "$f" >/dev/null	# warm the page cache
		walls= rsss= cats=
		for i in $(seq "$RUNS"); do
			set -- $(measure "$PROFTUI" --print ops -o /dev/null "$f")
			walls="$walls $1"
			rsss="$rsss $2"
			set -- $(measure cat "$f")
			cats="$cats $1"
		done
		wall=$(echo $walls | tr ' ' '\n' | median)
		rss=$(echo $rsss | tr ' ' '\n' | median)
		cat_s=$(echo $cats | tr ' ' '\n' | median)
		awk -v f="$(basename "$f")" -v b="$json_bytes" -v w="$wall" -v r="$rss" -v c="$cat_s" 'BEGIN {
			mb = b / 1e6
			printf "%-26s %9.1f %8.2f %9.1f %8.1f %8.2f %9s\n", f, mb, w, (w > 0 ? mb / w : 0),
				r / 1024, r * 1024 / b, (c > 0 ? sprintf("%.1fx", w / c) : "cat<10ms")
		}'
	done
done
