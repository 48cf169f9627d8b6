# SPDX-License-Identifier: MIT
# What the benchmark scripts share.  Source it after setting DIR (where a
# run's time and error output go):
#	. "$(dirname "$0")/lib.sh"

# The median of the numbers on standard input, one per line.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run_timed FORMAT COMMAND...: COMMAND under GNU time's FORMAT, its output
# dropped; a command that fails ends the benchmark with its error output.
run_timed() {
	fmt=$1
	shift
	/usr/bin/time -f "$fmt" -o "$DIR/time.out" "$@" >/dev/null 2>"$DIR/stderr.out" || {
		echo "bench: '$*' failed:" >&2
		cat "$DIR/stderr.out" >&2
		exit 1
	}
}

# measure COMMAND...: "wall_s rss_kb" of one run.
measure() {
	run_timed '%e %M' "$@"
	cat "$DIR/time.out"
}

# measure_cpu COMMAND...: "wall_s cpu_s rss_kb" of one run (CPU: user and
# system).
measure_cpu() {
	run_timed '%e %U %S %M' "$@"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$DIR/time.out"
}
