#!/bin/sh
# GPU time: the Overview's temporal-breakdown and kernel-type rows open
# their panes with Enter, and q comes back.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/temporal-mix.json"
tui_wait 'Overview'
tui_keys / '^Idle$' Enter
tui_wait 'GPU time (Enter: breakdown)'
tui_keys G Enter
check "Enter on Idle opens the temporal breakdown" tui_line 1 'Overview › Temporal breakdown'
check "its idle time" tui_wait '709.000 us'
check "its idle share" tui_wait '51.75%'
tui_keys q
check "q goes back to the Overview" tui_wait 'GPU time (Enter: breakdown)'
tui_keys Escape / '^COMPUTATION overlapping MEMORY$' Enter
tui_wait 'Kernel types (Enter: table)'
tui_keys G Enter
check "Enter on a class opens Kernel types" tui_line 1 'Overview › Kernel types'
check "its classes, the most time first" tui_wait 'COMPUTATION overlapping COMMUNICATION'
check "a class's time" tui_wait '70.000 us'
tui_done
