#!/bin/sh
# A costly filter never freezes the UI: past PCRE2's limits a pattern is an
# error on the bar (not "no match"), Q quits while a slow filter runs, and
# a large paste into the bar is taken as far as it fits, filtered once.
. "$(dirname "$0")/lib.sh"

# ops N K TAIL: a trace of N ops, each called K a's, TAIL and its number.
ops() {
	awk -v n="$1" -v k="$2" -v tail="$3" 'BEGIN {
		for (i = 0; i < k; i++)
			a = a "a"
		print "{\"traceEvents\": ["
		for (i = 0; i < n; i++)
			printf "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s%s%d\", " \
				"\"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1}\n",
				i ? "," : "", a, tail, i, 10 * i + 1
		print "]}"
	}'
}
# (a+)+ splits a run of K a's 2^K ways: 30 a's are past the match limit,
# 15 within it but a fraction of a millisecond each.
ops 5 30 b >"$OUT/five.json"
ops 1000 30 _ >"$OUT/long.json"
ops 50000 15 _ >"$OUT/slow.json"
# 200 KB of "b|a": cut at the line's 1023 bytes it is still a pattern.
awk 'BEGIN { for (i = 0; i < 200000 / 3; i++) printf "b|a" }' >"$OUT/paste.txt"

# quits_within S: the program's exit on screen within about S seconds
# (polled, as every wait here; the bound is what the check is about).
quits_within() {
	i=0
	until on_screen '[exit 0]'; do
		i=$((i + 1))
		[ "$i" -le $(($1 * 20)) ] || return 1
		sleep 0.05
	done
}

# Every name matches b[0-9]$, but (a+)+c gives up on each first.
tui_start "$PROFTUI $OUT/five.json"
tui_keys 2
tui_wait 'sort: Host self'
tui_keys /
tui_text '(a+)+c|b[0-9]$'
check "a match past PCRE2's limit is an error on the bar" \
	tui_wait "pattern too costly (match limit exceeded) on 'aaaa"
tui_keys Enter
check "Enter keeps the last good filter and says why" \
	tui_wait 'kept the last valid filter: pattern too costly'
tui_keys Q
check "Q quits" tui_wait '[exit 0]'

# The same from the command line: the filter goes, and all rows show.
tui_start "$PROFTUI --filter '(a+)+c|b[0-9]\$' $OUT/five.json"
check "--filter past the limit is removed, and says why" \
	tui_wait "filter '(a+)+c|b[0-9]\$' removed: pattern too costly"
check "not an empty table" tui_wait ' 1/5 '
check "no filter left" off_screen 'matched'

# The issue's case: without the limits this pass took 30 s or more.
tui_start "$PROFTUI $OUT/long.json"
tui_keys 2
tui_wait 'sort: Host self'
tui_keys / && tui_text '(a+)+$' && tui_keys Enter
tui_keys Q
check "Q quits at once after (a+)+\$ on 1,000 long names" quits_within 5

# Within the limits, but 50,000 names take seconds: a key stops the pass.
tui_start "$PROFTUI $OUT/slow.json"
tui_keys 2
tui_wait 'sort: Host self'
tui_keys / && tui_text '(a+)+$' && tui_keys Enter
tui_keys Q
check "Q quits while a slow filter runs" quits_within 2

# A paste of 200 KB: the line takes what fits, says so, and the UI answers
# (the key after it is read at once: no frame drawn, no pass run per key).
tui_start "$PROFTUI $OUT/slow.json"
tui_keys 2
tui_wait 'sort: Host self'
tui_keys /
$T load-buffer "$OUT/paste.txt"
$T paste-buffer -t t
check "a paste past the line's end is cut, and the bar says so" \
	tui_wait 'the line holds 1023 bytes at most'
check "what fits filters" tui_wait '50000/50000 matched'
tui_keys Escape
check "the UI answers after the paste" tui_wait 'filter restored'
tui_keys Q
check "and Q quits" tui_wait '[exit 0]'
tui_done
