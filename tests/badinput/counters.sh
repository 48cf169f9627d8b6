# SPDX-License-Identifier: MIT
# Sourced by tests/badinput/run.sh: counter events ("ph":"C") as a
# hostile file writes them.  A broken structure inside a counter's args
# is an error with its place and exit 2; a value that is not a finite
# number, or past 1e18, is a warning at its place and no number in the
# table (never 0, nan or inf); many series stay within a time bound.
cdir=$dir/counters
mkdir -p "$cdir"

# counter_error WHAT TEXT LINE: a trace whose only counter event is TEXT
# fails with "FILE:LINE:COL: error:", exit 2, one line, nothing printed.
counter_error() {
	what=$1 f=$cdir/$(echo "$1" | tr -c 'a-z0-9\n' -).json
	printf '{"traceEvents": [\n%s' "$2" >"$f"
	timeout 20 "$PROFTUI" --print counters "$f" >"$cdir/stdout" 2>"$cdir/stderr"
	rc=$?
	why=
	[ "$rc" -eq 2 ] || why="exit $rc, not 2"
	[ -z "$why" ] && [ "$(grep -c . "$cdir/stderr")" -ne 1 ] && why="not one line on stderr"
	case $(head -n 1 "$cdir/stderr") in
	"$f:$3:"[0-9]*": error: "*) ;;
	*) [ -z "$why" ] && why="message '$(head -n 1 "$cdir/stderr")'" ;;
	esac
	[ -z "$why" ] && [ -s "$cdir/stdout" ] && why="it printed to stdout"
	if [ -z "$why" ]; then
		pass "badinput: counters: $what"
	else
		fail "badinput: counters: $what ($why)"
	fi
}
counter_error "args cut short" '{"ph": "C", "name": "c", "ts": 1, "args": {"v": 1,' 2
counter_error "args that end in a bracket" '{"ph": "C", "name": "c", "ts": 1, "args": {"v": 1]}]}' 2
counter_error "an arg without a value" '{"ph": "C", "name": "c", "ts": 1, "args": {"v": }}]}' 2
counter_error "a nested value cut short" '{"ph": "C", "name": "c", "ts": 1, "args": {"v": [1, {"a": }' 2

# Values no series may hold: each warned about at its place, none shown.
printf '%s\n' '{"traceEvents": [' \
	'{"ph": "C", "name": "ok", "pid": 1, "ts": 1, "args": {"v": 2}},' \
	'{"ph": "C", "name": "bad", "pid": 1, "ts": 2, "args": {"nan": NaN, "inf": -Infinity, "big": 1e999, "huge": -2e18, "s": "x", "o": {}, "n": null}},' \
	'{"ph": "C", "name": "nots", "pid": 1, "args": {"v": 3}},' \
	'{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 0, "dur": 5}' \
	']}' >"$cdir/values.json"
timeout 20 "$PROFTUI" --print counters --format csv "$cdir/values.json" >"$cdir/stdout" 2>"$cdir/stderr"
rc=$?
why=
[ "$rc" -eq 0 ] || why="exit $rc, not 0"
[ -z "$why" ] && [ "$(grep -c "values.json:3:1: warning: counter event 'bad'" "$cdir/stderr")" -ne 7 ] &&
	why="not seven warnings at 3:1"
[ -z "$why" ] && ! grep -q "values.json:4:1: warning: counter event without 'ts'" "$cdir/stderr" &&
	why="no warning for the event without ts"
[ -z "$why" ] && grep -qi 'nan\|inf\|^bad\|e+18\|nots' "$cdir/stdout" && why="a bad value in the table"
[ -z "$why" ] && ! grep -q '^ok,recorded,as recorded,1,' "$cdir/stdout" && why="the good series is not there"
if [ -z "$why" ]; then
	pass "badinput: counters: bad values are warned about, never shown"
else
	fail "badinput: counters: bad values are warned about, never shown ($why)"
	head -n 3 "$cdir/stderr"
fi

# 200,000 series of one sample each, and one series of 200,000 samples
# in reverse time order: within the time bound.
awk 'BEGIN { printf "{\"traceEvents\": [\n"
	for (i = 0; i < 200000; i++)
		printf "{\"ph\": \"C\", \"name\": \"c%d\", \"pid\": 1, \"ts\": %d, \"args\": {\"v\": %d}},\n", i, i, i
	for (i = 200000; i > 0; i--)
		printf "{\"ph\": \"C\", \"name\": \"one\", \"pid\": 1, \"ts\": %d, \"args\": {\"v\": %d}},\n", i, i % 7
	print "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 5}]}" }' \
	>"$cdir/many.json"
if timeout 20 "$PROFTUI" --print counters --format csv "$cdir/many.json" >"$cdir/stdout" 2>"$cdir/stderr" &&
	[ "$(grep -c . "$cdir/stdout")" -eq 200002 ] && grep -q '^one,recorded,as recorded,200000,' "$cdir/stdout"; then
	pass "badinput: counters: 200,000 series and a series of 200,000 samples"
else
	fail "badinput: counters: 200,000 series and a series of 200,000 samples"
fi
