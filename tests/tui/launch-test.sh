#!/bin/sh
# Kernel launches: the Overview's Launches section counts the launches and
# the outlier classes; Enter on Launches opens the table of launches,
# worst delay first, and Enter on a launch shows its kernel on the
# Timeline; Enter on the delay's median opens Launch distribution.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/launch.json"
tui_wait 'Overview'
tui_keys / '^Launches$' Enter
tui_wait 'Launches (Enter: table)'
tui_keys G Enter
check "Enter on Launches opens the table" tui_line 1 'Overview › Kernel launches'
check "the worst delay first" tui_wait '185.000 us'
tui_keys l l l
check "its class" tui_wait 'delay outlier'
check "a driver call's launch" tui_wait 'cuLaunchKernel'
tui_keys Enter
check "on the Timeline tab" tui_line 1 'Timeline'
check "Enter shows the kernel on the Timeline" tui_line 23 'triton_late'
tui_keys 1 Escape / '^Launch delay, median' Enter
tui_wait 'Launch delay, median'
tui_keys G Enter
check "Enter on the delay opens its distribution" tui_line 1 'Overview › Launch distribution'
check "the delay's p99" tui_wait '174.320 us'
tui_keys q
check "q goes back to the Overview" tui_wait 'Launches (Enter: table)'
tui_done
