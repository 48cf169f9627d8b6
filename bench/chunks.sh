#!/bin/sh
# SPDX-License-Identifier: MIT
# traceEvents read by one reader or in chunks on two threads
# (parsers/kineto/kineto_chunks.c), side by side on the same files:
# `proftui --print ops --limit 10`, the two ways interleaved, RUNS runs
# each, the medians of wall time, user+system time and peak RSS.  Figures,
# not a test: the machine is shared, so quote medians.
#   PROFTUI  binary (default build/proftui)
#   RUNS     runs per way and file (default 5)
#   files    the traces to load (default: bench/out/trace-1G.json{,.gz},
#            which bench/run.sh makes)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
RUNS=${RUNS:-5}
[ $# -gt 0 ] || set -- bench/out/trace-1G.json bench/out/trace-1G.json.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

printf '%-28s %-10s %8s %8s %8s\n' file reader wall_s cpu_s rss_MB
for f in "$@"; do
	cat "$f" >/dev/null	# warm the page cache
	for i in $(seq "$RUNS"); do
		for way in one chunks; do
			chunk=
			[ "$way" = one ] && chunk=0
			PROFTUI_PARSE_CHUNK=$chunk /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" \
				"$PROFTUI" --print ops --limit 10 -o /dev/null "$f"
			awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/t" >>"$tmp/$way"
		done
	done
	for way in one chunks; do
		wall=$(cut -d' ' -f1 "$tmp/$way" | median)
		cpu=$(cut -d' ' -f2 "$tmp/$way" | median)
		rss=$(cut -d' ' -f3 "$tmp/$way" | median)
		printf '%-28s %-10s %8s %8s %8.1f\n' "$(basename "$f")" "$way" "$wall" "$cpu" \
			"$(echo "$rss" | awk '{ print $1 / 1024 }')"
		rm -f "$tmp/$way"
	done
done
