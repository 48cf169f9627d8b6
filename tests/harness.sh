#!/bin/sh
# SPDX-License-Identifier: MIT
# The runner judges suites, not only counts them: tests/run.sh on suites
# that end badly (an early "exit 0" with nothing printed, one after a
# PASS, a crash, a missing binary, a count line that lies) must close
# with failures and a non-zero status, never with "N passed, 0 failed".
. "$(dirname "$0")/test-lib.sh"

dir=$O/tests/harness
rm -rf "$dir"
mkdir -p "$dir"

# judge NAME BODY: run BODY as a suite through tests/run.sh (its own
# build directory, so this suite's log stays) and expect it counted red.
judge() {
	printf '#!/bin/sh\n%s\n' "$2" >"$dir/$1.sh"
	O=$dir/o PROFTUI=$PROFTUI sh tests/run.sh "$dir/$1.sh" >"$dir/$1.out" 2>&1
	rc=$?
	last=$(tail -n 1 "$dir/$1.out")
	case $last in
	*" passed, 0 failed"*) fail "harness: $1 counted green ($last)" ;;
	*" passed, "[1-9]*" failed"*)
		if [ "$rc" -ne 0 ]; then
			pass "harness: $1 counted red"
		else
			fail "harness: $1 counted red but run.sh exited 0"
		fi ;;
	*) fail "harness: $1: no count line ($last)" ;;
	esac
}

judge early-exit 'exit 0'
judge exit-after-a-pass 'echo "PASS: one"; exit 0'
judge crash 'echo "PASS: one"; kill -SEGV $$'
judge broken-binary '/nonexistent/proftui --version && echo "PASS: ran"
echo "# suite x: 1 passed, 0 failed, 0 skipped"'
judge lying-count 'echo "FAIL: one"; echo "# suite x: 1 passed, 0 failed, 0 skipped"'
judge no-check 'echo "# suite x: 0 passed, 0 failed, 0 skipped"'

# And a good suite stays green, so the above is not a runner that fails
# everything.
printf '#!/bin/sh\necho "PASS: one"\necho "# suite x: 1 passed, 0 failed, 0 skipped"\n' \
	>"$dir/good.sh"
if O=$dir/o sh tests/run.sh "$dir/good.sh" >"$dir/good.out" 2>&1 &&
   [ "$(tail -n 1 "$dir/good.out")" = "1 passed, 0 failed, 0 skipped" ]; then
	pass "harness: a good suite counted green"
else
	fail "harness: a good suite counted green ($(tail -n 1 "$dir/good.out"))"
fi
test_done
