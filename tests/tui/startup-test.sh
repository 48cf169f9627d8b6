#!/bin/sh
# The first screen: the Overview of a trace with steps and device time;
# 2 shows Operators sorted by device self time; tabs, status, hint.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
check "opens on the Overview pane" tui_wait 'Step time (2 steps)'
check "the first screen" tui_expect startup
tui_keys 2
check "2 shows the Operators pane" tui_wait 'sort: Dev self'
check "Operators" tui_expect startup-ops
tui_keys q
check "q at the top level quits with status 0" tui_wait '[exit 0]'
tui_done
