#!/bin/sh
# GPU idle: the Overview's section lists each stream's idle time; Enter
# on a stream opens the GPU idle pane, one row per stream and category,
# and Enter there the streams' biggest gaps.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/idle-streams.json"
tui_wait 'Overview'
tui_keys / '^GPU 0 stream 7$' Enter
check "the Overview lists the stream's idle time" tui_wait '484.750 us'
tui_keys Down Enter
check "Enter opens GPU idle" tui_line 1 'GPU idle'
check "a category's idle time" tui_wait '430.250 us'
check "the stream's gaps, by category" tui_wait 'kernel_wait'
tui_keys Enter
check "Enter opens the biggest gaps" tui_line 1 'GPU idle gaps'
check "a gap with the op running when it began" tui_wait 'aten::copy_'
tui_keys q q
check "q goes back to the Overview" tui_wait 'GPU idle by stream'
tui_done
