#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every test suite and close with one "N passed, N failed, N skipped"
# line.  Each suite prints "PASS: ...", "FAIL: ..." or "SKIP: ... (why)"
# lines; this script only runs them and counts.
#   O        build directory (build, build-asan)
#   PROFTUI  the binary under test
O=${O:-build}
PROFTUI=${PROFTUI:-$O/proftui}
export O PROFTUI
log=$O/test-results.log
mkdir -p "$O"
: >"$log"

suite() {
	# A suite that dies without printing its own FAIL still counts as one.
	name=$1
	shift
	if ! "$@" >>"$log" 2>&1; then
		grep -q '^FAIL: ' "$log" || echo "FAIL: $name: exited non-zero" >>"$log"
	fi
}

for t in "$O"/tests/unit/t-*; do
	[ -x "$t" ] || continue
	suite "$(basename "$t")" "$t"
done
for s in tests/golden/run.sh tests/badinput/run.sh tests/lint.sh; do
	[ -f "$s" ] && suite "$s" sh "$s"
done
# The fuzz targets replay their seed corpora (crashes found stay fixed).
for t in "$O"/fuzz/fuzz-*; do
	[ -x "$t" ] || continue
	f=$(basename "$t")
	corpus=fuzz/corpus-${f#fuzz-}
	[ -d "$corpus" ] || continue
	if "$t" "$corpus" >"$O/$f.replay" 2>&1; then
		echo "PASS: fuzz replay: $f ($(cat "$O/$f.replay"))" >>"$log"
	else
		echo "FAIL: fuzz replay: $f" >>"$log"
		tail -n 20 "$O/$f.replay" >>"$log"
	fi
done
for t in tests/tui/*-test.sh; do
	[ -f "$t" ] && suite "$t" sh "$t"
done

# Failures and skips with their details; passes only counted.
grep -v '^PASS: ' "$log"
pass=$(grep -c '^PASS: ' "$log")
fail=$(grep -c '^FAIL: ' "$log")
skip=$(grep -c '^SKIP: ' "$log")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
