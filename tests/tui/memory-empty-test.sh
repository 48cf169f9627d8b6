#!/bin/sh
# The Memory pane of a trace without memory events, at 80x24 and 120x40:
# "this profile's data is in: ..." wraps at word boundaries, whole to its
# last tab, rather than being cut at the screen's edge.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/kineto/two-steps.json"
	tui_wait 'proftui · Overview'
	tui_keys 7
	tui_wait 'no memory events'
	check "$size: the list of tabs to its end" tui_wait 'Timeline (6), Info (9)'
	check "$size: nothing cut" off_screen 'data is in: Overview (1), Operators (2), Kernels (3), Steps…'
	tui_keys q
	tui_wait '[exit 0]'
done
tui_done
