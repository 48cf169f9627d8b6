#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every test suite, or the suites named (tests/golden/run.sh,
# build/tests/unit/t-json...), and close with one line:
#	N passed, N failed, N skipped
# A suite prints a PASS:, FAIL: or SKIP: line per check and, last, its own
# count line "# suite NAME: P passed, F failed, S skipped" (tests/test-lib.sh
# and tests/unit/test.h print it).  The totals are the sums of those
# lines, and a suite that
#  - ends without its count line (an exit, a crash, a timeout),
#  - counts other lines than it printed,
#  - checked nothing and skipped nothing, or
#  - exits 0 with failures, or non-zero without,
# has one failure more, named on a "FAIL: suite ..." line.  Whatever a suite
# printed is in $O/tests/log/SUITE.log.
#   O             build directory (default: build in the repository)
#   PROFTUI       the binary under test (default $O/proftui)
#   TEST_TIMEOUT  seconds a suite may take (default 900)
# Relative paths, in these and in the arguments, are from the directory
# this starts in; the suites run from the repository's root.
limit=${TEST_TIMEOUT:-900}
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 1
start_dir=$PWD
case ${O:=$ROOT/build} in /*) ;; *) O=$start_dir/$O ;; esac
case ${PROFTUI:=$O/proftui} in /*) ;; *) PROFTUI=$start_dir/$PROFTUI ;; esac
export O PROFTUI
cd "$ROOT" || exit 1
logs=$O/tests/log
results=$O/test-results.log
rm -rf "$logs"
mkdir -p "$logs"
: >"$results"
: >"$logs/totals"

# suite NAME COMMAND...: run one suite from the root, and judge it.
suite() {
	name=$1
	shift
	log=$logs/$(echo "$name" | tr / -).log
	# A subshell, so that even the shell's own "Aborted" goes to the log.
	(
		if command -v timeout >/dev/null 2>&1; then
			timeout -k 10 "$limit" "$@"
		else
			"$@"
		fi
	) >"$log" 2>&1 </dev/null
	rc=$?
	awk -v name="$name" -v rc="$rc" -v limit="$limit" -v logfile="$log" \
		-v totals="$logs/totals" '
	/^PASS: / { p++ }
	/^FAIL: / { f++ }
	/^SKIP: / { s++ }
	/^# suite [^ ]*: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {
		nr_done++
		P = $(NF - 5); F = $(NF - 3); S = $(NF - 1)
		next
	}
	{ print }
	END {
		if (rc > 128)
			how = "killed by signal " (rc - 128)
		else
			how = "exit " rc
		if (rc == 124) {
			if (nr_done != 1) {
				P = p; F = f; S = s
			}
			why = "timed out after " limit " s"
		} else if (nr_done != 1) {
			P = p; F = f; S = s
			why = nr_done ? "printed " nr_done " count lines" : \
				"ended without its count line (" how ")"
		} else if (P != p || F != f || S != s) {
			why = sprintf("its count line says %d passed, %d failed, %d skipped, " \
				"but it printed %d, %d, %d (a check not made through pass, fail or skip?)", \
				P, F, S, p, f, s)
		} else if (P + F + S == 0) {
			why = "ran no check"
		} else if ((rc == 0) != (F == 0)) {
			why = how " with " F " failed"
		}
		if (why != "") {
			print "FAIL: suite " name ": " why "; see " logfile
			F++
		}
		# +0: a suite that printed no PASS has P unset, and an empty
		# first field would shift its failure into the passed column.
		print P + 0, F + 0, S + 0 >>totals
	}' "$log" | grep -v '^PASS: ' >>"$results"
}

# run FILE: a suite by its file, a shell script or a program; its name is
# its path from tests/ ("golden", "tui/sort-test", "unit/t-json").
run() {
	name=${1#"$ROOT"/}
	name=${name#"${O#"$ROOT"/}"/}
	name=${name#tests/}
	name=${name%.sh}
	name=${name%/run}
	case $1 in
	*.sh) suite "$name" sh "$1" ;;
	*) suite "$name" "$1" ;;
	esac
}

if [ $# -gt 0 ]; then
	for s in "$@"; do
		case $s in /*) ;; *) s=$start_dir/$s ;; esac
		run "$(cd "$(dirname "$s")" && pwd)/$(basename "$s")"
	done
else
	# A unit test that did not build is a failed suite, not a missing one.
	for src in tests/unit/t-*.c; do
		[ -f "$src" ] && run "$O/tests/unit/$(basename "$src" .c)"
	done
	run tests/golden/run.sh
	run tests/badinput/run.sh
	run tests/exports/run.sh
	run tests/lint.sh
	run tests/scripts/run.sh
	run tests/scripts/slurm.sh
	run tests/harness.sh
	# The static binary, the wheel, make install PREFIX (tests/dist).
	for t in tests/dist/*-test.sh; do
		[ -f "$t" ] && run "$t"
	done
	# The fuzz targets replay their seed corpora (crashes found stay fixed).
	for src in fuzz/fuzz-*.c; do
		[ -f "$src" ] || continue
		f=$(basename "$src" .c)
		suite "fuzz/$f" sh tests/fuzz-replay.sh "$O/fuzz/$f" "fuzz/corpus-${f#fuzz-}"
	done
	for t in tests/tui/*-test.sh; do
		run "$t"
	done
fi

# Failures and skips with their details; passes only counted.
cat "$results"
awk '{ p += $1; f += $2; s += $3; n++ }
END {
	printf "%d passed, %d failed, %d skipped\n", p, f, s
	exit (f > 0 || n == 0)
}' "$logs/totals"
