#!/bin/sh
# SPDX-License-Identifier: MIT
# The many-runs benchmark (issue 29, item 7): a log that holds one small
# key_averages table (five rows, about 1.5 kB) NR times is NR runs.  Prints,
# for each NR, the log's size, wall and CPU time of `--print ops --run NR`
# (the whole load, then the last run's rows) and peak RSS, medians of RUNS
# runs, and the RSS per table; then the same for a log dir of NR_DIRS runs,
# each one small Kineto trace (runs that are files, each a profile of its
# own).  Load time and memory should grow in proportion to NR.  Figures,
# not a test: on a shared machine quote CPU times and ratios.
#   PROFTUI   binary (default build/proftui)
#   NRS       tables per log (default "1000 10000 100000")
#   NR_DIRS   runs per log dir (default "1000 10000"; "" for none)
#   RUNS      runs per figure (default 3)
#   BENCH_DIR where files go (default bench/out/tables)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
NRS=${NRS:-1000 10000 100000}
NR_DIRS=${NR_DIRS-1000 10000}
RUNS=${RUNS:-3}
DIR=${BENCH_DIR:-bench/out/tables}
mkdir -p "$DIR"

. "$(dirname "$0")/lib.sh"

# report LABEL NR BYTES COMMAND...: the medians of RUNS runs, and RSS per run.
report() {
	label=$1 nr=$2 bytes=$3
	shift 3
	walls= cpus= rsss=
	for i in $(seq "$RUNS"); do
		set -- $(measure_cpu "$@") "$@"
		walls="$walls $1"
		cpus="$cpus $2"
		rsss="$rsss $3"
		shift 3
	done
	rss=$(echo $rsss | tr ' ' '\n' | median)
	printf '%-22s %9s %8.1f %8s %8s %8s %10s\n' "$label" "$nr" "$(echo "$bytes" | awk '{ print $1 / 1e6 }')" \
		"$(echo $walls | tr ' ' '\n' | median)" "$(echo $cpus | tr ' ' '\n' | median)" \
		"$((rss / 1024))" "$((rss * 1024 / nr))"
}

# One table as key_averages().table() prints it: five rows, CPU and CUDA
# columns, the calls of its first row the table's number (so that the
# last run is told from the first).
tables() {
	awk -v n="$1" '
	function row(name, c1, c2, c3, c4, c5, c6, c7, c8, c9, calls) {
		printf "%17s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s\n",
			name, c1, c2, c3, c4, c5, c6, c7, c8, c9, calls
	}
	BEGIN {
		rule = "-----------------"
		for (c = 0; c < 10; c++)
			rule = rule "  ------------"
		for (i = 1; i <= n; i++) {
			print rule
			row("Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
			    "Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg", "# of Calls")
			print rule
			row("aten::matmul", "24.56%", "210.000us", "105.26%", "900.000us", "45.000us",
			    "0.000us", "0.00%", "5.400ms", "270.000us", i)
			row("aten::mm", "70.18%", "600.000us", "80.70%", "690.000us", "34.500us",
			    "5.400ms", "48.60%", "5.400ms", "270.000us", 20)
			row("volta_sgemm_128", "0.00%", "0.000us", "0.00%", "0.000us", "0.000us",
			    "5.100ms", "45.90%", "5.100ms", "255.000us", 20)
			row("aten::add_", "5.26%", "45.000us", "10.53%", "90.000us", "2.250us",
			    "310.000us", "2.79%", "310.000us", "7.750us", 40)
			row("Memcpy HtoD", "0.00%", "0.000us", "0.00%", "0.000us", "0.000us",
			    "300.000us", "2.70%", "300.000us", "75.000us", 4)
			print rule
			print "Self CPU time total: 855.000us"
			print "Self CUDA time total: 11.110ms"
			print ""
		}
	}'
}

printf '%-22s %9s %8s %8s %8s %8s %10s\n' input runs MB wall_s cpu_s rss_MB rss_B/run
for nr in $NRS; do
	log=$DIR/tables-$nr.log
	[ -f "$log" ] || tables "$nr" >"$log"
	report "log of tables" "$nr" "$(wc -c <"$log")" "$PROFTUI" --print ops --run "$nr" "$log"
done
# A log dir of runs that are files: one small trace each (tests/golden's).
trace=tests/golden/kineto/two-steps.json
for nr in $NR_DIRS; do
	logdir=$DIR/logdir-$nr
	if [ ! -d "$logdir" ]; then
		mkdir -p "$logdir.tmp"
		for i in $(seq "$nr"); do
			mkdir "$logdir.tmp/run$i"
			cp "$trace" "$logdir.tmp/run$i/worker0.pt.trace.json"
		done
		mv "$logdir.tmp" "$logdir"
	fi
	report "log dir of traces" "$nr" "$(du -sb "$logdir" | cut -f1)" "$PROFTUI" --print ops --run "$nr" "$logdir"
done
