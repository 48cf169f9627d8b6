#!/bin/sh
# Queue length follows the Timeline's range: m on the cudaLaunchKernel at
# 500 us of tests/golden/hta/queue-membw.json sets [500, 505) us; Queue
# length then says the range in its title (not "ignored here"), draws the
# range, and counts stream 7's launch at 500 us (one change, to 1) and
# stream 20, whose span the range meets, with no change in it; Esc clears
# the range and the whole trace's figures come back.  At 80x24 and 120x40.
. "$(dirname "$0")/lib.sh"
F=tests/golden/hta/queue-membw.json
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "TERM=xterm-256color $PROFTUI $F"
	tui_wait 'Overview'
	tui_keys 6
	tui_wait ' 1/20 ProfilerStep#1'
	tui_keys j
	tui_wait ' 17/20 cudaLaunchKernel'
	tui_keys m
	check "$size: m sets the launch's span" tui_wait 'range 500 us - 505 us (5 us)'
	tui_keys 1 / '^GPU 0 stream 7 queue' Enter
	tui_keys Down Enter
	check "$size: Enter opens Queue length" tui_line 1 'Queue length'
	check "$size: its title says the range" tui_line 1 'range 500 us–505 us'
	check "$size: as one it follows" \
		sh -c "! $T capture-pane -p -t t | sed -n 1p | grep -q 'ignored here'"
	check "$size: the chart starts at the range" \
		tui_wait 'stream 7 0.500 ms: queued 1; peak 1 at 0.500 ms'
	check "$size: the chart ends at the range's end" tui_wait '0.505 ms'
	check "$size: stream 7: one change, to a queue of 1" \
		tui_wait '0        7         1       1.00 '
	check "$size: stream 20: a row, no change in the range" \
		tui_wait '0       20         0'
	tui_keys Escape
	check "$size: Esc clears the range" tui_wait 'range cleared'
	check "$size: the whole trace's figures again" tui_wait '1.70'
	tui_keys Q
done
tui_done
