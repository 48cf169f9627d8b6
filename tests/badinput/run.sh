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
# A whole trace whose gzip stream is damaged only after its JSON ends: its
# last byte cut, or its check (the trailer's first byte) changed.  The
# JSON parses, so only reading on to the end tells.
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1, "dur": 2}]}\n' |
	gzip -c >"$dir/whole.json.gz"
size=$(wc -c <"$dir/whole.json.gz")
head -c $((size - 1)) "$dir/whole.json.gz" >"$dir/trailer-cut.json.gz"
cp "$dir/whole.json.gz" "$dir/bad-check.json.gz"
byte=$(od -An -tu1 -j $((size - 8)) -N 1 "$dir/whole.json.gz" | tr -d ' ')
if [ "$byte" = 0 ]; then printf '\001'; else printf '\000'; fi |
	dd of="$dir/bad-check.json.gz" bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
printf '{"traceEvents": [{"ph": "X", "name": "\377\376bad", "ts": 1, "dur": 2, "cat": "cpu_op"}]}' >"$dir/bad-utf8.json"
{ printf '{"traceEvents": [{"ph": "X", "name": "'; head -c 10485760 /dev/zero | tr '\0' a; printf '", "ts": 1}]}'; } >"$dir/huge-string.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$dir/deep.json"
printf '{"traceEvents": [\000\000]}' >"$dir/nul.json"
mkdir -p "$dir/a-directory"

for input in empty.json garbage.bin photo.jpg truncated.json truncated.json.gz wrong-top.json \
	trailer-cut.json.gz bad-check.json.gz bad-utf8.json huge-string.json deep.json nul.json a-directory missing.json; do
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
# A filter PCRE2 gives up on (its match limit) leaves rows undecided: an
# error, not a table of no rows.  Each name here matches b[0-9]$, after 30
# a's that the first branch splits 2^30 ways.
awk 'BEGIN { printf "{\"traceEvents\": ["
	for (i = 0; i < 5; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab%d\", \"ts\": %d, \"dur\": 1}", i ? ", " : "", i, 10 * i + 1
	print "]}" }' >"$dir/costly-filter.json"
rm -f "$dir/out-costly.txt"
timeout 20 "$PROFTUI" --print ops --filter '(a+)+c|b[0-9]$' -o "$dir/out-costly.txt" \
	"$dir/costly-filter.json" >"$dir/stdout" 2>"$dir/stderr"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(grep -c . "$dir/stderr")" -eq 1 ] && [ ! -e "$dir/out-costly.txt" ] &&
	grep -q "^proftui: error: --filter '(a+)+c|b\[0-9\]\$': pattern too costly (match limit" \
		"$dir/stderr"; then
	pass "badinput: a filter past PCRE2's match limit is an error"
else
	fail "badinput: a filter past PCRE2's match limit is an error (exit $rc)"
	head -n 3 "$dir/stderr"
fi
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

# The same gzip file whole loads; text after a trace's JSON is warned
# about, with its place, and the trace is kept.
after_end() {
	what=$1 input=$2 want=$3
	timeout 20 "$PROFTUI" --print ops "$dir/$input" >"$dir/stdout" 2>"$dir/stderr"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^a ' "$dir/stdout" && [ "$(cat "$dir/stderr")" = "$want" ]; then
		pass "badinput: $what"
	else
		fail "badinput: $what (exit $rc)"
		head -n 3 "$dir/stderr"
	fi
}
after_end "a whole gzip trace loads" whole.json.gz ""
{ gzip -dc "$dir/whole.json.gz"; printf '  \n{"more": 1}\n'; } >"$dir/text-after.json"
gzip -c "$dir/text-after.json" >"$dir/text-after.json.gz"
after_end "text after a trace's end: a warning" text-after.json \
	"$dir/text-after.json:3:1: warning: text after the end of the trace; ignored"
after_end "text after a gzip trace's end: a warning" text-after.json.gz \
	"$dir/text-after.json.gz:3:1: warning: text after the end of the trace; ignored"

# A log of 20,000 small key_averages tables is 20,000 runs, and a run costs
# what it holds (issue 29, item 7): the log loads in well under 1 GB of
# address space, where runs of their own names, slabs and a megabyte of
# arena each needed 28 GB.  The last run is there, with its own calls.
awk 'BEGIN {
	for (i = 1; i <= 20000; i++) {
		print "-------------  ------------  ------------  ------------"
		print "         Name    Self CPU %      Self CPU    # of Calls"
		print "-------------  ------------  ------------  ------------"
		printf "     aten::mm        60.00%%     600.000us  %12d\n", i
		print "   aten::add_        40.00%     400.000us            40"
		print "-------------  ------------  ------------  ------------"
		print "Self CPU time total: 1.000ms\n"
	}
}' >"$dir/tables.log"
(ulimit -v 1048576 && exec timeout 60 "$PROFTUI" --print ops --run 20000 "$dir/tables.log") \
	>"$dir/stdout" 2>"$dir/stderr"
rc=$?
if grep -q Sanitizer "$dir/stderr"; then
	skip "badinput: 20,000 tables in 1 GB" "a sanitizer's shadow memory does not fit under ulimit -v"
elif [ "$rc" -eq 0 ] && [ ! -s "$dir/stderr" ] && grep -q '^aten::mm  *20000 ' "$dir/stdout"; then
	pass "badinput: 20,000 tables load as runs in 1 GB"
else
	fail "badinput: 20,000 tables load as runs in 1 GB (exit $rc)"
	head -n 3 "$dir/stderr"
fi

# Hostile text: a name, a line or a file name holding a terminal's escape
# sequences (OSC 0 sets the title, OSC 52 writes the clipboard).  Nothing
# of it may leave raw on any channel: each case fails when its stdout, its
# stderr or the file it wrote holds ESC (0x1b), BEL (0x07) or CSI (0x9b),
# and when the escaped form ("\x1b]0;PWNED") is missing, so a case that
# quietly printed nothing cannot pass.
hdir=$dir/hostile
mkdir -p "$hdir"
esc=$(printf '\033')
evil=$(printf 'n\033]0;PWNED\007\033]52;c;S2luZXRv\007')
raw_bytes=$(printf '[\033\007\233]')
hostile() {
	what=$1 want_rc=$2 want_text=$3
	shift 3
	rm -f "$hdir/export"*
	timeout 20 "$PROFTUI" "$@" >"$hdir/stdout" 2>"$hdir/stderr"
	rc=$?
	why=
	[ "$rc" -eq "$want_rc" ] || why="exit $rc, not $want_rc"
	for f in "$hdir/stdout" "$hdir/stderr" "$hdir/export"*; do
		[ -f "$f" ] || continue
		LC_ALL=C grep -q "$raw_bytes" "$f" && why="raw control bytes in $(basename "$f")"
	done
	cat "$hdir/stdout" "$hdir/stderr" "$hdir/export"* 2>/dev/null | grep -qF -- "$want_text" ||
		[ -n "$why" ] || why="no '$want_text' in what it wrote"
	if [ -z "$why" ]; then
		pass "badinput: hostile text: $what"
	else
		fail "badinput: hostile text: $what ($why)"
		cat "$hdir/stderr" "$hdir/stdout" | head -n 5 | od -c | head -n 10
	fi
}
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "op", "ts": 1, "dur": 2, "pid": 1, "tid": 1}' \
	>"$hdir/$evil.json"
hostile "an error naming a file with ESC in its name" 2 'n\x1b]0;PWNED\x07' \
	--print ops "$hdir/$evil.json"
hostile "a missing file with ESC in its name" 2 'missingn\x1b]0;PWNED' \
	--print ops "$hdir/missing$evil"
{
	printf 'load model: 30.000ms\n=== prepare: 2.000ms; going to warmup\n\n'
	printf 'warm up 0  40.000ms\n'
	printf 'iter 0/2: 12.000 ms (exec=1.000 ms)\n'
	# ESC passes MegEngine's binary check: OSC ended by ST, not BEL.
	printf 'iter 1/2: \033]0;PWNED\033\\ ms\n'
	printf '\n=== finished test #0: time=24.000 ms avg_time=12.000 ms\n'
} >"$hdir/lar.txt"
hostile "a MegEngine iteration line" 0 '\x1b]0;PWNED\x1b\' --print steps "$hdir/lar.txt"
printf '[{"count": 10},\n{"name": "conv%s", "timeMs": "abc", "averageMs": 1, "medianMs": 1, "percentage": 50},\n{"name": "relu", "timeMs": 2, "averageMs": 0.2, "medianMs": 0.2, "percentage": 50}]\n' \
	"$(printf '\033]0;PWNED\007')" >"$hdir/trt.json"
hostile "a trtexec layer name" 0 "layer 'conv\\x1b]0;PWNED\\x07'" --print ops "$hdir/trt.json"
# The exports: the caption (the file name, the filter, the drill name) and
# every cell of txt, md, csv and tsv escaped; JSON keeps the original text
# as JSON escapes.
cp tests/golden/errors/hostile.json "$hdir/t$evil.json"
for fmt in txt md; do
	hostile "a $fmt export's caption" 0 "filter 'op|\\x1b'" \
		--print ops --format "$fmt" --filter "op|$esc" -o "$hdir/export.$fmt" "$hdir/t$evil.json"
done
for fmt in csv tsv; do
	hostile "a $fmt export" 0 'evil\x1b]0;PWNED\x07op' \
		--print ops --format "$fmt" --filter "op|$esc" -o "$hdir/export.$fmt" "$hdir/t$evil.json"
done
hostile "a json export" 0 '"evil\u001b]0;PWNED\u0007op"' \
	--print ops --format json -o "$hdir/export.json" "$hdir/t$evil.json"
hostile "the caption on stdout" 0 'Operators of '"$hdir"'/tn\x1b]0;PWNED\x07' \
	--print ops "$hdir/t$evil.json"
hostile "the Info pane" 0 'value\x1b]52;c;S2luZXRv\x07' --print info "$hdir/t$evil.json"
hostile "a drill-down's caption" 0 'evil\x1b]0;PWNED\x07op › kernels' \
	--print kernels --drill "$(printf 'evil\033]0;PWNED\007op')" "$hdir/t$evil.json"
hostile "no such op to drill into" 2 "no op named 'n\\x1b]0;PWNED\\x07\\x1b]52;c;S2luZXRv\\x07'" \
	--print kernels --drill "$evil" "$hdir/t$evil.json"
# proftui's own messages quote arguments, file names and names from the
# file: a step, a column, a pattern, a pane, a run, an output path.
hostile "no such step, listing the file's steps" 1 "steps: 7\\x1b]0;PWNED\\x07 8" \
	--print steps --step 9 tests/golden/errors/hostile-steps.json
hostile "no such column" 1 "no column 'n\\x1b]0;PWNED" --print ops --sort "$evil" "$hdir/t$evil.json"
hostile "a bad pattern" 1 "--filter '(n\\x1b]0;PWNED" --print ops --filter "($evil" "$hdir/t$evil.json"
hostile "an unknown pane" 1 "unknown pane 'n\\x1b]0;PWNED" --print "$evil" "$hdir/t$evil.json"
hostile "an unknown option" 1 "unknown option '--n\\x1b]0;PWNED" "--$evil" "$hdir/t$evil.json"
hostile "a bad --limit" 1 "not 'n\\x1b]0;PWNED" --limit "$evil" "$hdir/t$evil.json"
# --range: a time range of --print; a usage error, never a wrapped time.
hostile "a bad --range" 1 "not 'n\\x1b]0;PWNED" --print range --range "$evil" "$hdir/t$evil.json"
r=tests/golden/kineto/range.json
hostile "--range without a colon" 1 "--range wants START:END" --print range --range 5 "$r"
hostile "--range ending before it starts" 1 "ends where or before it starts" \
	--print ops --range 9:5 "$r"
hostile "--range past the trace" 1 "starts after the trace, which lasts 1.1 ms" \
	--print kernels --range 1200:1300 "$r"
hostile "--range of INT64_MAX ns" 1 "--range wants START:END" \
	--print range --range 0:9223372036854775807ns "$r"
hostile "--range of 2^64 + 1 us" 1 "--range wants START:END" \
	--print range --range 0:18446744073709551617 "$r"
hostile "--range of a negative time" 1 "--range wants START:END" --print range --range -5:10 "$r"
hostile "--range with a pane it cannot narrow" 1 "--range goes with --print ops" \
	--print tree --range 0:10 "$r"
hostile "no such run, naming the file" 1 "no run 3 in $hdir/tn\\x1b]0;PWNED" \
	--print ops --run 3 "$hdir/t$evil.json"
hostile "an output path that cannot be written" 2 "nodirn\\x1b]0;PWNED" \
	--print ops -o "$hdir/nodir$evil/out.txt" "$hdir/t$evil.json"

# -o onto a symbolic link writes through to the file it points to (the
# link stays a link), as the shell's '>' does; and a file we may write in
# a directory we may not is written in place.
ldir=$dir/links
rm -rf "$ldir"
mkdir -p "$ldir/sub"
trace=tests/golden/kineto/two-steps.json
"$PROFTUI" --print ops "$trace" >"$ldir/want" 2>/dev/null
# A relative link, an absolute one, a chain, and one to a file not yet there.
echo old >"$ldir/real.txt"
ln -s real.txt "$ldir/rel.txt"
echo old >"$ldir/abs-target.txt"
ln -s "$ldir/abs-target.txt" "$ldir/abs.txt"
echo old >"$ldir/chain-end.txt"
ln -s ../chain-end.txt "$ldir/sub/chain2.txt"
ln -s sub/chain2.txt "$ldir/chain1.txt"
ln -s new.txt "$ldir/dangling.txt"
for case in rel.txt:real.txt abs.txt:abs-target.txt chain1.txt:chain-end.txt dangling.txt:new.txt; do
	link=${case%%:*} target=${case#*:}
	"$PROFTUI" --print ops -o "$ldir/$link" "$trace" >/dev/null 2>"$ldir/stderr"
	rc=$?
	why=
	[ "$rc" -eq 0 ] || why="exit $rc: $(cat "$ldir/stderr")"
	[ -z "$why" ] && [ ! -L "$ldir/$link" ] && why="the link was replaced"
	[ -z "$why" ] && ! cmp -s "$ldir/want" "$ldir/$target" && why="$target does not hold the export"
	[ -z "$why" ] && ls -A "$ldir" "$ldir/sub" | grep -q '^\.proftui-' && why="a temporary file was left"
	if [ -z "$why" ]; then
		pass "badinput: -o onto a symbolic link writes its target ($link)"
	else
		fail "badinput: -o onto a symbolic link writes its target ($link: $why)"
	fi
done
# ...but not a link someone else planted in a sticky shared directory
# (/tmp), which the kernel's protected_symlinks would not follow either.
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$ldir/shared"
	chmod 1777 "$ldir/shared"
	echo precious >"$ldir/precious.txt"
	ln -s ../precious.txt "$ldir/shared/out.txt"
	chown -h 65534:65534 "$ldir/shared/out.txt"
	"$PROFTUI" --print ops -o "$ldir/shared/out.txt" "$trace" >/dev/null 2>"$ldir/stderr"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(cat "$ldir/precious.txt")" = precious ] &&
		grep -q 'out.txt: a symbolic link someone else owns, in a shared directory; not followed' \
			"$ldir/stderr"; then
		pass "badinput: a planted link in a sticky directory is refused"
	else
		fail "badinput: a planted link in a sticky directory is refused (exit $rc)"
		cat "$ldir/stderr"
	fi
else
	skip "badinput: a planted link in a sticky directory" "needs root to plant it as another user"
fi

# A file we may write in a directory we may not: no temporary file can be
# made beside it, so it is written in place.  Root writes anywhere, so as
# root the binary runs as nobody (as for the unreadable file above).
# as_user CMD...: CMD as a user who cannot write $wdir/ro (itself or via
# setpriv); 77 when that cannot be arranged.
wdir=$(mktemp -d /tmp/proftui-inplace-XXXXXX)
as_user() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
		return
	fi
	command -v setpriv >/dev/null 2>&1 || return 77
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
cp "$PROFTUI" "$trace" "$wdir/"
mkdir "$wdir/ro"
printf 'old contents\n' >"$wdir/ro/out.txt"
chmod 666 "$wdir/ro/out.txt"
chmod 555 "$wdir/ro"
chmod 755 "$wdir" "$wdir/proftui"
chmod 644 "$wdir/two-steps.json"
(cd "$wdir" && as_user ./proftui --print ops -o ro/out.txt two-steps.json) >/dev/null 2>"$ldir/stderr"
rc=$?
why=
[ "$rc" -eq 77 ] && why=skip
[ -z "$why" ] && [ "$rc" -ne 0 ] && why="exit $rc: $(cat "$ldir/stderr")"
[ -z "$why" ] && ! sed "s|$trace|two-steps.json|" "$ldir/want" | cmp -s - "$wdir/ro/out.txt" &&
	why="out.txt does not hold the export"
[ -z "$why" ] && [ "$(stat -c %a "$wdir/ro/out.txt")" != 666 ] && why="its mode changed"
[ -z "$why" ] && ls -A "$wdir/ro" | grep -q '^\.proftui-' && why="a temporary file was left"
case $why in
'') pass "badinput: a writable file in a read-only directory is written in place" ;;
skip) skip "badinput: a writable file in a read-only directory" "root, and no setpriv" ;;
*)
	fail "badinput: a writable file in a read-only directory is written in place ($why)"
	;;
esac
# In place, a write that cannot complete leaves the old contents: here the
# file size limit (ulimit -f: 512 or 1024 bytes, by the shell; SIGXFSZ
# ignored, so the write fails with EFBIG) is below the export's size (the
# whole tree, 3.7 kB).
printf 'old contents\n' >"$wdir/ro/out.txt"
(cd "$wdir" && trap '' XFSZ && ulimit -f 1 &&
	as_user ./proftui --print tree -o ro/out.txt two-steps.json) >/dev/null 2>"$ldir/stderr"
rc=$?
if [ "$rc" -eq 77 ]; then
	skip "badinput: a failed in-place write" "root, and no setpriv"
elif [ "$rc" -eq 2 ] && [ "$(cat "$wdir/ro/out.txt")" = "old contents" ] &&
	grep -q 'ro/out.txt: File too large' "$ldir/stderr"; then
	pass "badinput: a failed in-place write leaves the old contents"
else
	fail "badinput: a failed in-place write leaves the old contents (exit $rc)"
	cat "$ldir/stderr"
	head -c 200 "$wdir/ro/out.txt"
fi
# The same when the old file is larger than the limit: there is room, so
# the write starts, stops at the limit, and the old contents go back.
awk 'BEGIN { for (i = 0; i < 100; i++) print "an old line of fifty bytes, kept as it was......" }' \
	>"$wdir/ro/out.txt"
cp "$wdir/ro/out.txt" "$ldir/old"
(cd "$wdir" && trap '' XFSZ && ulimit -f 1 &&
	as_user ./proftui --print tree -o ro/out.txt two-steps.json) >/dev/null 2>"$ldir/stderr"
rc=$?
if [ "$rc" -eq 77 ]; then
	skip "badinput: an in-place write failing half-way" "root, and no setpriv"
elif [ "$rc" -eq 2 ] && cmp -s "$ldir/old" "$wdir/ro/out.txt" &&
	grep -q 'ro/out.txt: File too large' "$ldir/stderr"; then
	pass "badinput: an in-place write failing half-way puts the old contents back"
else
	fail "badinput: an in-place write failing half-way puts the old contents back (exit $rc)"
	cat "$ldir/stderr"
fi
chmod 755 "$wdir/ro"
rm -rf "$wdir"
# A summary's values, each out of range in a copy of a good one: exit 2
# and "FILE:LINE:COL: error:" at the value (a summary is proftui's own
# output, so a bad value is a corrupt or hostile file).
sdir=$dir/summary-values
mkdir -p "$sdir"
printf 'proftui-summary\t1\nsource\tt.json\nformat\tkineto\nflags\t1\t1\ndist\t0\t-1\t-1\t\n' >"$sdir/good.summary"
printf 'device\t0\t1000\t8\t0\t80\t2048\t1024\t65536\t32\t1000\tGPU\nwarning\t1\tw\ncats\t1\tKernel\n' \
	>>"$sdir/good.summary"
printf 'step\t1000\t2000\t1000\t500\t0\nname\taten::mm\nname\tk\n' >>"$sdir/good.summary"
printf 'op\ts0\top\t0\t2\t10\t100\t5\t50\t40\t60\t0\nattr\tx\td\t1.5\n' >>"$sdir/good.summary"
printf 'kernel\ts0\t0\t2\t50\t50\t20\t30\t1.5\t50\t1\noverlap\t0\t500\t0\t0\t500\ncomm\t0\n' \
	>>"$sdir/good.summary"
printf 'call\t0\t64\t1100\t1200\t1\t1100\t1200\t0\nend\n' >>"$sdir/good.summary"
# bad_value WHAT LINE COL TEXT: line LINE of the good summary replaced by
# TEXT (\t for tabs, \n between lines) is refused at column COL.
bad_value() {
	what=$1 line=$2 col=$3
	f=$sdir/$(echo "$what" | tr -c 'a-z0-9\n' -).summary
	awk -v n="$line" -v text="$4" 'NR == n { gsub(/\\t/, "\t", text); gsub(/\\n/, "\n", text); print text; next } { print }' \
		"$sdir/good.summary" >"$f"
	timeout 20 "$PROFTUI" --print steps "$f" >"$sdir/stdout" 2>"$sdir/stderr"
	rc=$?
	why=
	[ "$rc" -eq 2 ] || why="exit $rc, not 2"
	[ -z "$why" ] && [ "$(grep -c . "$sdir/stderr")" -ne 1 ] && why="not one line on stderr"
	case $(cat "$sdir/stderr") in
	"$f:$line:$col: error: "*) ;;
	*) [ -z "$why" ] && why="message '$(cat "$sdir/stderr")'" ;;
	esac
	if [ -z "$why" ]; then
		pass "badinput: summary: $what"
	else
		fail "badinput: summary: $what ($why)"
	fi
}
timeout 20 "$PROFTUI" --print steps "$sdir/good.summary" >/dev/null 2>&1 &&
	pass "badinput: summary: the good one loads" || fail "badinput: summary: the good one loads"
bad_value "a step start past its bound" 9 6 'step\t-4611686018427387905\t2000\t1000\t500\t0'
bad_value "a step that ends before it starts" 9 11 'step\t2000\t1000\t1000\t500\t0'
bad_value "a step longer than a duration may be" 9 12 'step\t-1000\t1000000000000001\t1000\t500\t0'
bad_value "an absolute time past its bound" 9 6 'step\t4611686018427387905\t4611686018427387906\t1\t1\t0'
bad_value "a negative step total" 9 16 'step\t1000\t2000\t-5\t500\t0'
bad_value "a step category of INT64_MAX" 9 21 'step\t1000\t2000\t1000\t9223372036854775807\t0'
bad_value "negative calls" 12 12 'op\ts0\top\t0\t-2\t10\t100\t5\t50\t40\t60\t0'
bad_value "calls past the cap" 12 12 'op\ts0\top\t0\t9223372036854775807\t10\t100\t5\t50\t40\t60\t0'
bad_value "a negative host total" 12 17 'op\ts0\top\t0\t2\t10\t-100\t5\t50\t40\t60\t0'
bad_value "a host self above its total" 12 14 'op\ts0\top\t0\t2\t101\t100\t5\t50\t40\t60\t0'
bad_value "a device total of INT64_MAX" 12 23 'op\ts0\top\t0\t2\t10\t100\t5\t9223372036854775807\t40\t60\t0'
bad_value "a least call above the greatest" 12 26 'op\ts0\top\t0\t2\t10\t100\t5\t50\t61\t60\t0'
bad_value "a least call without a greatest" 12 26 'op\ts0\top\t0\t2\t10\t100\t5\t50\t40\t-1\t0'
bad_value "a greatest call without a least" 12 26 'op\ts0\top\t0\t2\t10\t100\t5\t50\t-1\t60\t0'
bad_value "a greatest call past a duration" 12 29 'op\ts0\top\t0\t2\t10\t100\t5\t50\t40\t1000000000000001\t0'
bad_value "a raw start past its bound" 12 4 'op\t-9223372036854775807\top\t0\t2\t10\t100\t5\t50\t40\t60\t0'
bad_value "a nan attribute" 13 10 'attr\tx\td\tnan'
bad_value "an inf attribute" 13 10 'attr\tx\td\t-inf'
bad_value "a time attribute of INT64_MIN" 13 10 'attr\tx\tn\t-9223372036854775808'
bad_value "a nan kernel mean" 14 27 'kernel\ts0\t0\t2\t50\t50\t20\t30\tnan\t50\t1'
bad_value "an inf kernel mean" 14 31 'kernel\ts0\t0\t2\t50\t50\t20\t30\t1.5\tinf\t1'
bad_value "a kernel mean of 1e300" 14 27 'kernel\ts0\t0\t2\t50\t50\t20\t30\t1e300\t50\t1'
bad_value "a negative kernel total" 14 18 'kernel\ts0\t0\t2\t50\t-50\t20\t30\t1.5\t50\t1'
bad_value "a negative overlap time" 15 11 'overlap\t0\t-500\t0\t0\t500'
bad_value "an overlap time of INT64_MAX" 15 19 'overlap\t0\t500\t0\t0\t9223372036854775807'
bad_value "call bytes past their bound" 17 8 'call\t0\t1125899906842625\t1100\t1200\t1\t1100\t1200\t0'
bad_value "a call that ends before it starts" 17 16 'call\t0\t64\t1200\t1100\t1\t1100\t1200\t0'
bad_value "a call range that ends before it starts" 17 28 'call\t0\t64\t1100\t1200\t1\t1200\t1100\t0'
bad_value "device memory past its bound" 6 10 'device\t0\t1125899906842625\t8\t0\t80\t2048\t1024\t65536\t32\t1000\tGPU'
bad_value "negative device memory" 6 10 'device\t0\t-2\t8\t0\t80\t2048\t1024\t65536\t32\t1000\tGPU'
bad_value "a warning counted INT64_MAX times" 7 9 'warning\t9223372036854775807\tw'
bad_value "a warning given twice" 8 11 'warning\t1\tw\ncats\t1\tKernel'
# Warnings read in linear time: 300,000 of them took minutes when each
# searched those before.
{
	printf 'proftui-summary\t1\n'
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf "warning\t1\tw%d\n", i }'
	printf 'cats\t0\ncomm\t0\nend\n'
} >"$sdir/many-warnings.summary"
if timeout 20 "$PROFTUI" --print steps "$sdir/many-warnings.summary" >/dev/null 2>&1; then
	pass "badinput: summary: 300,000 warnings load"
else
	fail "badinput: summary: 300,000 warnings load"
fi
. "$(dirname "$0")/long-sums.sh"
. "$(dirname "$0")/nsys.sh"

. "$(dirname "$0")/bounds.sh"
. "$(dirname "$0")/rocprof.sh"
. "$(dirname "$0")/output.sh"
. "$(dirname "$0")/ranks.sh"
. "$(dirname "$0")/counters.sh"
test_done
