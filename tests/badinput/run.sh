#!/bin/sh
# SPDX-License-Identifier: MIT
# Bad input through the whole program: each case must end with exit 2,
# one "FILE[:LINE:COL]: error: ..." line, no crash, no hang, and no output
# file -- neither a new one nor damage to one that was there.
. "$(dirname "$0")/../test-lib.sh"
need_proftui
dir=$O/tests/badinput
rm -rf "$dir"
mkdir -p "$dir"

# The inputs, made here.
: >"$dir/empty.json"
head -c 4096 /dev/urandom >"$dir/garbage.bin" 2>/dev/null ||
	awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }' >"$dir/garbage.bin"
printf '\377\330\377\340\000\020JFIF\000\001\001\000' >"$dir/photo.jpg"
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1, "dur": 2}' >"$dir/truncated.json"
gzip -c "$dir/truncated.json" | head -c 30 >"$dir/truncated.json.gz"
printf '[1, 2, 3]\n' >"$dir/wrong-top.json"
printf '{"traceEvents": [{"ph": "X", "name": "\377\376bad", "ts": 1, "dur": 2, "cat": "cpu_op"}]}' >"$dir/bad-utf8.json"
{ printf '{"traceEvents": [{"ph": "X", "name": "'; head -c 10485760 /dev/zero | tr '\0' a; printf '", "ts": 1}]}'; } >"$dir/huge-string.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$dir/deep.json"
printf '{"traceEvents": [\000\000]}' >"$dir/nul.json"
mkdir -p "$dir/a-directory"

for input in empty.json garbage.bin photo.jpg truncated.json truncated.json.gz wrong-top.json \
	bad-utf8.json huge-string.json deep.json nul.json a-directory missing.json; do
	out=$dir/out-$input.txt
	rm -f "$out"
	timeout 20 "$PROFTUI" --print ops -o "$out" "$dir/$input" >"$dir/stdout" 2>"$dir/stderr"
	rc=$?
	lines=$(grep -c . "$dir/stderr")
	first=$(head -n 1 "$dir/stderr")
	why=
	[ "$rc" -eq 2 ] || why="exit $rc, not 2"
	[ -z "$why" ] && [ "$lines" -ne 1 ] && why="$lines lines on stderr, not 1"
	case $first in
	"$dir/$input: error: "* | "$dir/$input:"[0-9]*": error: "*) ;;
	*) [ -z "$why" ] && why="message '$first'" ;;
	esac
	[ -z "$why" ] && [ -e "$out" ] && why="it wrote $out"
	[ -z "$why" ] && [ -s "$dir/stdout" ] && why="it printed to stdout"
	# An existing output file is left as it was.
	if [ -z "$why" ]; then
		echo keep >"$out"
		timeout 20 "$PROFTUI" --print ops -o "$out" "$dir/$input" >/dev/null 2>&1
		[ "$(cat "$out")" = keep ] || why="it changed an existing $out"
		ls -A "$dir" | grep -q '^\.proftui-' && why="a temporary file was left behind"
	fi
	if [ -z "$why" ]; then
		pass "badinput: $input"
	else
		fail "badinput: $input ($why)"
		head -n 3 "$dir/stderr"
	fi
done
# An unreadable file.  Root reads any file, so as root the binary runs as
# nobody, from a copy where nobody can reach it.
unreadable() {
	f=$1
	if [ "$(id -u)" -ne 0 ]; then
		"$PROFTUI" --print ops "$f"
		return
	fi
	command -v setpriv >/dev/null 2>&1 || return 77
	bin=$(mktemp -d /tmp/proftui-nobody-XXXXXX)
	cp "$PROFTUI" "$bin/proftui"
	cp "$f" "$bin/secret.json"
	chmod 755 "$bin" "$bin/proftui"
	chmod 000 "$bin/secret.json"
	(cd "$bin" && setpriv --reuid=65534 --regid=65534 --clear-groups ./proftui --print ops secret.json)
	rc=$?
	rm -rf "$bin"
	return $rc
}
printf '{"traceEvents": []}\n' >"$dir/secret.json"
chmod 000 "$dir/secret.json"
unreadable "$dir/secret.json" >"$dir/stdout" 2>"$dir/stderr"
rc=$?
if [ "$rc" -eq 77 ]; then
	skip "badinput: an unreadable file" "root, and no setpriv to drop it"
elif [ "$rc" -eq 2 ] && grep -q 'secret.json: error: cannot open: Permission denied' "$dir/stderr" &&
	[ "$(grep -c . "$dir/stderr")" -eq 1 ]; then
	pass "badinput: an unreadable file"
else
	fail "badinput: an unreadable file (exit $rc)"
	cat "$dir/stderr"
fi
chmod 644 "$dir/secret.json"
test_done
