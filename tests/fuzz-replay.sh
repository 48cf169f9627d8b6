#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fuzz-replay.sh TARGET CORPUS: run each input of a fuzz target's
# seed corpus through TARGET (built with fuzz/driver.c instead of
# libFuzzer), one check per input, so that a crash a fuzzer once found
# stays fixed, under plain gcc and under ASan/UBSan.
. "$(dirname "$0")/test-lib.sh"
target=$1 corpus=$2
case $target in /*) ;; *) target=$test_start_dir/$target ;; esac
case $corpus in /*) ;; *) corpus=$test_start_dir/$corpus ;; esac
test_suite=fuzz/${target##*/}
out=$O/fuzz/${target##*/}.replay
[ -x "$target" ] || fail "$test_suite: no $target (make tests builds it)"
for input in "$corpus"/*; do
	[ -f "$input" ] || continue
	if "$target" "$input" >"$out" 2>&1; then
		pass "$test_suite: ${input##*/}"
	else
		fail "$test_suite: ${input##*/} (exit $?)"
		tail -n 20 "$out"
	fi
done
# Every target has seeds: one with none would test nothing here.
[ -d "$corpus" ] || fail "$test_suite: no seed corpus $corpus"
test_done
