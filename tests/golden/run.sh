#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden tests: each tests/golden/<format>/<case>.t holds the arguments of
# one proftui run (one line, paths relative to the repository root); the
# expected result is <case>.out beside it: stdout, then "--- stderr" and
# what went there when anything did, then "--- exit N" when N is not 0.
# UPDATE_GOLDEN=1 (make golden) rewrites the .out files for review in
# git diff.  Each case runs twice: as it is, and with the rows of its
# tables made on two threads in batches of one row
# (PROFTUI_EXPORT_BATCH=1, view/export.c), which must write the same bytes.
. "$(dirname "$0")/../test-lib.sh"
need_proftui
out=$O/tests/golden
mkdir -p "$out"

run_case() {
	t=$1
	args=$(cat "$t")
	# The arguments are ours, split on blanks as the shell does.
	# shellcheck disable=SC2086
	"$PROFTUI" $args >"$out/stdout" 2>"$out/stderr" </dev/null
	rc=$?
	cat "$out/stdout"
	if [ -s "$out/stderr" ]; then
		echo "--- stderr"
		cat "$out/stderr"
	fi
	[ "$rc" -eq 0 ] || echo "--- exit $rc"
}

for t in tests/golden/*/*.t; do
	[ -f "$t" ] || continue
	name=${t#tests/golden/}
	name=${name%.t}
	expected=${t%.t}.out
	actual=$out/$(echo "$name" | tr / _).actual
	run_case "$t" >"$actual"
	if [ -n "$UPDATE_GOLDEN" ]; then
		cp "$actual" "$expected"
		pass "golden: $name (updated)"
	elif [ ! -f "$expected" ]; then
		fail "golden: $name (no $expected; make golden writes it)"
	elif diff -u "$expected" "$actual" >"$actual.diff"; then
		pass "golden: $name"
	else
		fail "golden: $name"
		head -n 40 "$actual.diff"
	fi
	[ -n "$UPDATE_GOLDEN" ] && continue
	PROFTUI_EXPORT_BATCH=1 run_case "$t" >"$actual"
	if [ -f "$expected" ] && diff -u "$expected" "$actual" >"$actual.diff"; then
		pass "golden: $name (rows on two threads)"
	else
		fail "golden: $name (rows on two threads)"
		head -n 40 "$actual.diff"
	fi
done
# A profile read from standard input or a FIFO prints what the file
# prints, but for its name in the title: the load reads it once, so
# finding its parser must not read it first.
fifo=$out/pipe.fifo
for f in tests/golden/kineto/two-steps.json tests/golden/torch-table/epochs.log \
	tests/golden/paddle/summary-2.3.txt tests/golden/tb-json/grouped.json; do
	"$PROFTUI" --print ops "$f" 2>&1 | sed "s|$f|FILE|" >"$out/pipe.want"
	timeout 20 "$PROFTUI" --print ops - <"$f" 2>&1 | sed 's|of -|of FILE|' >"$out/pipe.got"
	gzip -c "$f" | timeout 20 "$PROFTUI" --print ops - 2>&1 | sed 's|of -|of FILE|' \
		>"$out/pipe.gz.got"
	rm -f "$fifo"
	mkfifo "$fifo"
	cat "$f" >"$fifo" &
	timeout 20 "$PROFTUI" --print ops "$fifo" 2>&1 | sed "s|$fifo|FILE|" >"$out/fifo.got"
	kill $! 2>/dev/null
	wait $! 2>/dev/null
	for how in pipe pipe.gz fifo; do
		case $how in
		pipe) what="a pipe" ;;
		pipe.gz) what="a pipe, gzipped" ;;
		fifo) what="a FIFO" ;;
		esac
		if cmp -s "$out/pipe.want" "$out/$how.got"; then
			pass "golden: $f through $what"
		else
			fail "golden: $f through $what"
			diff "$out/pipe.want" "$out/$how.got" | head -n 5
		fi
	done
done
rm -f "$fifo"
# An expected output whose arguments are gone tests nothing.
for expected in tests/golden/*/*.out; do
	[ -f "$expected" ] && [ ! -f "${expected%.out}.t" ] &&
		fail "golden: $expected has no ${expected%.out}.t beside it"
done
test_done
