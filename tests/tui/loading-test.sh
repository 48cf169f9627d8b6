#!/bin/sh
# The load runs behind a screen of its own that comes up at once, and q
# ends the program at once, however much is left to read (a pipe that
# never ends here).  What the load says waits until the screen is gone,
# the first of it in the bar.  TERM=dumb prints the pane instead.
. "$(dirname "$0")/lib.sh"
fifo=$OUT/loading-$$.fifo
rm -f "$fifo"
mkfifo "$fifo"
for size in 80x24 120x35; do
	# Half a trace, and the writer holds the pipe open: the load waits.
	(head -c 2000 tests/tui/templates.json; sleep 30) >"$fifo" &
	writer=$!
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI $fifo"
	check "$size: the loading screen" tui_line 1 "proftui · loading $fifo"
	check "$size: says how to stop" tui_wait 'q: stop loading and quit'
	tui_keys q
	check "$size: q quits at once, the load unfinished" tui_wait '[exit 0]'
	kill "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
done
rm -f "$fifo"
tui_start "$PROFTUI tests/golden/kineto/negative.json"
check "the first warning in the bar, after the count" \
	tui_wait "3 warnings while loading (see Info): tests/golden/kineto/negative.json:9:5: wa"
check "not on the screen's lines" sh -c "! $T capture-pane -p -t t | head -n 3 | grep -q warning"
tui_keys Q
check "printed once the screen is gone" tui_wait "negative.json:10:5: warning: event 'add_kernel'"
tui_start "TERM=dumb $PROFTUI tests/golden/kineto/two-steps.json"
check "TERM=dumb prints the Operators pane" tui_wait '# Operators of tests/golden/kineto/two-steps.json'
check "and ends" tui_wait '[exit 0]'
tui_done
