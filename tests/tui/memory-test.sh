#!/bin/sh
# The Memory pane: the curve with its readout, the cursor, the zoom (which
# narrows the table), the devices, an op's events and all of the device's.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/memory/small.json"
tui_wait 'Overview'
tui_keys 7
check "6 shows the Memory pane" tui_line 1 'Memory of GPU0'
check "the readout starts at the peak" tui_line 3 'GPU0 0.200 ms: allocated 1.50 KiB, reserved 2.00 KiB; peak 1.50 KiB'
check "the curve at 80x24" tui_expect memory
tui_keys l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l
check "l moves the cursor" tui_line 3 'GPU0 1.114 ms: allocated 256 B, reserved 4.00 KiB'
tui_keys +
check "+ zooms in" tui_line 1 'Memory of GPU0, 0.627-1.602 ms'
check "the table follows the zoom" tui_gone 'aten::empty'
tui_keys z
check "z shows all again" tui_wait 'aten::empty'
tui_keys ]
check "] shows the next device" tui_line 1 'Memory of CPU'
tui_keys [
check "[ the one before" tui_line 1 'Memory of GPU0'
tui_keys Enter
check "Enter on an op lists its events" tui_wait 'aten::empty › memory events of GPU0'
check "with the caller's name" tui_wait 'aten::addmm (aten::empty)'
tui_keys q
check "q goes back" tui_gone '› memory events'
tui_keys v
check "v lists every event" tui_wait 'Memory of GPU0 › Memory events'
check "never released: no release time" tui_wait '<unknown>'
check "of the device shown only: not the CPU's 8 bytes" tui_gone '0.007812'
tui_done
