#!/bin/sh
# SPDX-License-Identifier: MIT
# The many-traces benchmark (issue 12): the load of NR traces of SIZE (one
# job's ranks, each its own distributedInfo rank) against the load of one,
# and the summary workflow: a summary of each trace, copied to NR_SUMMARIES
# ranks (a job of that many workers whose traces look alike), opened all
# at once.  Prints wall time, CPU time (user + sys) and peak RSS, medians of
# RUNS runs.  Figures, not a test: on a shared machine quote CPU times and
# ratios; wall times show what the cores left to you allowed.
#   PROFTUI        binary (default build/proftui)
#   SIZE           size of each trace (default 100M)
#   NR             traces (default 8)
#   NR_SUMMARIES   summaries opened at once (default 1000)
#   RUNS           runs per figure (default 3)
#   BENCH_DIR      where files go (default bench/out/ranks)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
SIZE=${SIZE:-100M}
NR=${NR:-8}
NR_SUMMARIES=${NR_SUMMARIES:-1000}
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-bench/out/ranks}
mkdir -p "$DIR/traces" "$DIR/made" "$DIR/summaries"

. "$(dirname "$0")/lib.sh"

# report LABEL COMMAND...: the medians of RUNS runs.
report() {
	label=$1
	shift
	walls= cpus= rsss=
	for i in $(seq "$RUNS"); do
		set -- $(measure_cpu "$@") "$@"
		walls="$walls $1"
		cpus="$cpus $2"
		rsss="$rsss $3"
		shift 3
	done
	printf '%-44s %8s %8s %9s\n' "$label" "$(echo $walls | tr ' ' '\n' | median)" \
		"$(echo $cpus | tr ' ' '\n' | median)" \
		"$(($(echo $rsss | tr ' ' '\n' | median) / 1024))"
}

# The traces: ../shared/tools/gen_kineto_trace.py --ddp when it is there
# (NCCL collectives), else bench/gentrace.py; each rank gets its own
# distributedInfo rank.
GEN=${GEN:-../shared/tools/gen_kineto_trace.py}
for r in $(seq 0 $((NR - 1))); do
	t=$DIR/traces/worker$r.pt.trace.json
	[ -f "$t" ] && continue
	if [ -f "$GEN" ]; then
		python3 "$GEN" --size "$SIZE" --ddp --seed $((r + 1)) -o "$t" >/dev/null
	else
		python3 bench/gentrace.py --size "$SIZE" --seed $((r + 1)) -o "$t"
	fi
	if grep -q '"distributedInfo"' "$t"; then
		sed -i "s/\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": [0-9]*, \"world_size\": [0-9]*/\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $r, \"world_size\": $NR/" "$t"
	else
		sed -i "1s/^{/{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $r, \"world_size\": $NR}, /" "$t"
	fi
done
cat "$DIR"/traces/*.json >/dev/null	# the page cache, warm

printf '%-44s %8s %8s %9s\n' "" wall_s cpu_s rss_MB
report "one trace of $SIZE" "$PROFTUI" --print info -o /dev/null "$DIR/traces/worker0.pt.trace.json"
report "$NR traces of $SIZE, one thread per core" "$PROFTUI" --print info -o /dev/null "$DIR/traces"
report "$NR traces of $SIZE, one at a time (-j 1)" "$PROFTUI" --print info -j 1 -o /dev/null "$DIR/traces"
report "$NR traces: the Ranks pane" "$PROFTUI" --print ranks -o /dev/null "$DIR/traces"

# A summary per trace, then NR_SUMMARIES ranks made of them.
for r in $(seq 0 $((NR - 1))); do
	s=$DIR/made/worker$r.summary
	[ -f "$s" ] || "$PROFTUI" --summary -o "$s" "$DIR/traces/worker$r.pt.trace.json"
done
report "--summary of one trace of $SIZE" "$PROFTUI" --summary -o "$DIR/one.summary" \
	"$DIR/traces/worker0.pt.trace.json"
if [ "$(ls "$DIR/summaries" | wc -l)" -ne "$NR_SUMMARIES" ]; then
	rm -f "$DIR"/summaries/*
	i=0
	while [ "$i" -lt "$NR_SUMMARIES" ]; do
		awk -v rank="$i" -v world="$NR_SUMMARIES" -F '\t' 'BEGIN { OFS = "\t" }
			$1 == "source" { $2 = sprintf("rank%04d.pt.trace.json", rank) }
			$1 == "dist" { $2 = 1; $3 = rank; $4 = world; $5 = "nccl" }
			{ print }' "$DIR/made/worker$((i % NR)).summary" \
			>"$DIR/summaries/rank$(printf %04d "$i").summary"
		i=$((i + 1))
	done
fi
printf '%-44s %s KB each, %s MB in all\n' "summaries" \
	"$(($(stat -c %s "$DIR/made/worker0.summary") / 1024))" "$(du -sm "$DIR/summaries" | cut -f1)"
cat "$DIR"/summaries/* >/dev/null
report "$NR_SUMMARIES summaries: the Ranks pane" "$PROFTUI" --print ranks -o /dev/null "$DIR/summaries"
report "$NR_SUMMARIES summaries: Rank analyses" "$PROFTUI" --print rank-analyses -o /dev/null \
	"$DIR/summaries"
report "$NR_SUMMARIES summaries: Operators across ranks" "$PROFTUI" --print ops -o /dev/null "$DIR/summaries"
report "$NR_SUMMARIES summaries: one rank's Kernels" "$PROFTUI" --print kernels --rank 500 -o /dev/null \
	"$DIR/summaries"
