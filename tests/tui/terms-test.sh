#!/bin/sh
# The terminals people reach a GPU box with: each draws the first screen,
# takes keys and leaves cleanly.
. "$(dirname "$0")/lib.sh"
for term in xterm-256color xterm screen tmux-256color linux vt100; do
	if ! infocmp "$term" >/dev/null 2>&1; then
		skip "tui: $name: TERM=$term" "no terminfo entry here"
		continue
	fi
	tui_start "TERM=$term $PROFTUI tests/golden/kineto/two-steps.json"
	check "TERM=$term draws the Overview pane" tui_wait 'Step time (2 steps)'
	tui_keys 3
	check "TERM=$term takes keys" tui_wait 'conv_fwd_kernel<float>'
	tui_keys Q
	check "TERM=$term quits with status 0" tui_wait '[exit 0]'
done
tui_done
