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
# Keys typed during the load act once it ends, before the tabs not shown
# open (they open while no key waits): a tab that opens after a step was
# picked shows that step.  The writer holds the rest of the trace back
# until the keys are in.
go=$OUT/loading-go-$$
rm -f "$fifo" "$go"
mkfifo "$fifo"
F=tests/golden/kineto/two-steps.json
(head -c 1000 "$F"; until [ -e "$go" ]; do sleep 0.05; done; tail -c +1001 "$F") >"$fifo" &
writer=$!
tui_start "$PROFTUI $fifo"
check "typed ahead: the loading screen" tui_wait 'q: stop loading and quit'
tui_keys ] ] 3
touch "$go"
check "typed ahead: the step picked" tui_wait 'sort: Total ▼  step 2'
check "typed ahead: Kernels of that step" tui_wait '300.000 us'
check "typed ahead: not of the other" tui_gone 'add_kernel'
tui_keys Q
wait "$writer" 2>/dev/null
rm -f "$fifo" "$go"
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
