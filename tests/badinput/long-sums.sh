# SPDX-License-Identifier: MIT
# Sourced by tests/badinput/run.sh: sums a file can make long (issue 29).
# A trace of 10,000 threads, each one op of the longest duration a trace
# may hold launching a kernel as long, with an allocation of the largest
# size: every sum over them passes int64 itself.  Each pane must show
# them capped (">=") and warn, never a negative or wrapped number; a
# diff of two such traces must call nothing faster or slower.
sdir=$dir/sums
mkdir -p "$sdir"
long_trace() {
	awk -v n="$1" 'BEGIN {
		d = "1000000000000"
		print "{\"traceEvents\": ["
		printf "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"tid\": 1, \"ts\": 1, \"dur\": %s},\n", d
		for (i = 1; i <= n; i++) {
			printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::long\", \"tid\": %d, \"ts\": 1, \"dur\": %s, \"args\": {\"External id\": %d}},\n", i, d, i
			printf "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"tid\": %d, \"ts\": 2, \"dur\": 1, \"args\": {\"External id\": %d, \"correlation\": %d}},\n", i, i, i
			printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"long_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 3, \"dur\": %s, \"args\": {\"correlation\": %d}},\n", d, i
			printf "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"tid\": %d, \"ts\": 4, \"s\": \"t\", \"args\": {\"Bytes\": 1125899906842624, \"Device Type\": 1, \"Device Id\": 0, \"Addr\": %d}},\n", i, i
		}
		print "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::short\", \"tid\": 1, \"ts\": 5, \"dur\": 1}]}"
	}'
}
long_trace 10000 >"$sdir/long.json"
long_trace 9000 >"$sdir/long-base.json"
# capped WHAT WANT_MARK ARGS...: exit 0, a warning of capped sums, no
# negative number on stdout, and (WANT_MARK yes) a ">=" cell.
capped() {
	what=$1 want_mark=$2
	shift 2
	timeout 60 "$PROFTUI" "$@" >"$sdir/stdout" 2>"$sdir/stderr"
	rc=$?
	why=
	[ "$rc" -eq 0 ] || why="exit $rc"
	[ -z "$why" ] && ! grep -q 'capped' "$sdir/stderr" && why="no warning of capped sums"
	[ -z "$why" ] && grep -Eq '(^|[ ,=])-[0-9]' "$sdir/stdout" && why="a negative number"
	[ -z "$why" ] && [ "$want_mark" = yes ] && ! grep -q '>=[0-9]' "$sdir/stdout" &&
		why="no capped cell (>=)"
	[ -z "$why" ] && grep -Eq ' (faster|slower) ' "$sdir/stdout" && why="a capped sum compared"
	if [ -z "$why" ]; then
		pass "badinput: sums past int64: $what"
	else
		fail "badinput: sums past int64: $what ($why)"
		head -n 6 "$sdir/stdout" "$sdir/stderr"
	fi
}
for pane in ops kernels overview memory; do
	capped "--print $pane" yes --print "$pane" "$sdir/long.json"
done
# No row of these is a sum past the cap (the root's is not shown).
for pane in tree steps; do
	capped "--print $pane" no --print "$pane" "$sdir/long.json"
done
for pane in ops kernels; do
	capped "--print $pane as csv" no --print "$pane" --format csv "$sdir/long.json"
done
capped "--print ops --diff" yes --print ops --diff "$sdir/long-base.json" "$sdir/long.json"
capped "--print tree --diff" no --print tree --diff "$sdir/long-base.json" "$sdir/long.json"
