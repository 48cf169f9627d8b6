# SPDX-License-Identifier: MIT
# What every shell test suite shares (git's t/test-lib.sh in miniature).
# A suite sources it first, by a path from its own location:
#	. "$(dirname "$0")/../test-lib.sh"
# reports each check with pass, fail or skip, and ends with test_done,
# which prints the suite's own count line
#	# suite NAME: P passed, F failed, S skipped
# that tests/run.sh reads.  Sourcing this file
#  - finds the repository root from the suite's path (never from the
#    caller's working directory or cd history) and changes to it, so a
#    suite gives the same results wherever it is started;
#  - makes O (the build directory) and PROFTUI absolute: given ones are
#    taken from the directory the suite started in, the defaults are
#    $ROOT/build and $O/proftui;
#  - arms an EXIT trap: a suite that ends any way but through test_done
#    (an exit, a signal, a helper that gave up) prints
#	FAIL: NAME: unexpected exit with code N
#    with its count line, and exits 1.

# The root is the nearest directory above the suite that holds this file.
test_start_dir=$PWD
test_script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
ROOT=${test_script%/*}
while [ ! -f "$ROOT/tests/test-lib.sh" ] && [ -n "$ROOT" ]; do
	ROOT=${ROOT%/*}
done
if [ -z "$ROOT" ]; then
	echo "FAIL: $0: no tests/test-lib.sh above it; where is the repository?"
	exit 1
fi
case ${O:=$ROOT/build} in /*) ;; *) O=$test_start_dir/$O ;; esac
case ${PROFTUI:=$O/proftui} in /*) ;; *) PROFTUI=$test_start_dir/$PROFTUI ;; esac
export ROOT O PROFTUI
cd "$ROOT" || exit 1

# tests/golden/run.sh is "golden", tests/tui/sort-test.sh "tui/sort-test".
test_suite=${test_script#"$ROOT"/tests/}
test_suite=${test_suite%.sh}
test_suite=${test_suite%/run}
test_nr_pass=0 test_nr_fail=0 test_nr_skip=0
test_exit_ok=

# pass TEXT, fail TEXT, skip TEXT WHY: one counted line each.  TEXT starts
# with the suite's own prefix ("golden: kineto/two-steps").
pass() {
	echo "PASS: $1"
	test_nr_pass=$((test_nr_pass + 1))
}
fail() {
	echo "FAIL: $1"
	test_nr_fail=$((test_nr_fail + 1))
}
skip() {
	echo "SKIP: $1 (${2:?skip needs a reason})"
	test_nr_skip=$((test_nr_skip + 1))
}

# test_done: print the count line and exit, 1 if anything failed.  A suite
# that checked nothing and skipped nothing has not tested anything: that
# is a failure too.
test_done() {
	if [ $((test_nr_pass + test_nr_fail + test_nr_skip)) -eq 0 ]; then
		fail "$test_suite: ran no check"
	fi
	echo "# suite $test_suite: $test_nr_pass passed, $test_nr_fail failed, $test_nr_skip skipped"
	test_exit_ok=t
	[ "$test_nr_fail" -eq 0 ] && exit 0
	exit 1
}

# The suite's own clean-up (tmux's server) goes in test_cleanup.
test_cleanup() { :; }
test_exit() {
	code=$?
	test_cleanup
	[ -n "$test_exit_ok" ] && exit "$code"
	test_exit_ok=t
	fail "$test_suite: unexpected exit with code $code"
	echo "# suite $test_suite: $test_nr_pass passed, $test_nr_fail failed, $test_nr_skip skipped"
	exit 1
}
trap test_exit EXIT
# A signal (tests/run.sh's timeout, Ctrl-C) goes through the EXIT trap too.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# need_proftui: without the binary every check would fail for the same
# reason; say it once and stop.
need_proftui() {
	[ -x "$PROFTUI" ] && return
	fail "$test_suite: no proftui binary at $PROFTUI (make builds it)"
	test_done
}
