#!/bin/sh
# A file that holds several runs: } and { switch between them, the title
# says which, Info lists them all with where each starts.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/tb-json/two-runs.json"
check "opens on the first run" tui_line 1 'run 1/2'
tui_keys '}'
check "} shows the second run" tui_line 1 'run 2/2'
check "and says so" tui_wait 'run 2 of 2'
tui_keys '}'
check "} at the last run says so" tui_wait 'this is the last run'
tui_keys 9
check "Info lists the runs" tui_wait 'run 2 (shown)'
check "with where each starts" tui_wait 'two-runs.json:6'
tui_keys '{'
check "{ goes back" tui_line 1 'run 1/2'
tui_done
