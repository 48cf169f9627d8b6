#!/bin/sh
# Calls and ranges: the Overview's API-call and annotation rows open the
# API calls and Annotations panes with Enter, and q comes back.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/gpu-ranges.json"
tui_wait 'Overview'
tui_keys / '^API calls' Enter
tui_wait 'Calls, ranges (Enter: table)'
tui_keys G Enter
check "Enter on the API calls opens their table" tui_line 1 'Overview › API calls'
check "a call by name" tui_wait 'hipLaunchKernel'
check "its calls and mean" tui_wait '10.000 us'
tui_keys q
check "q goes back to the Overview" tui_wait 'Calls, ranges (Enter: table)'
tui_keys Escape / '^GPU annotations' Enter
tui_wait 'GPU annotations (6)'
tui_keys G Enter
check "Enter on the annotations opens their table" tui_line 1 'Overview › Annotations'
check "a GPU-side range" tui_wait 'ProfilerStep#16'
check "its side" tui_wait 'GPU'
tui_done
