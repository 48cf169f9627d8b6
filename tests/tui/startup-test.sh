#!/bin/sh
# The first screen: Operators sorted by device self time, tabs, status, hint.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
check "opens on the Operators pane" tui_wait 'sort: Dev self'
check "the first screen" tui_expect startup
tui_keys q
check "q at the top level quits with status 0" tui_wait '[exit 0]'
tui_done
