#!/bin/sh
# The Overview: Enter on a top operator or kernel shows it in its pane.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/overview/small.json"
check "opens on the Overview" tui_wait 'Step time (2 steps)'
check "the GPU's metrics" tui_wait 'GPU utilization'
check "the overview at 80x24" tui_expect overview
tui_keys / relu_kernel Enter
check "the filter keeps its section" tui_wait ' 1/2 Top kernels'
tui_keys j Enter
check "Enter shows it in Kernels" tui_line 1 'proftui · Kernels ·'
check "with the cursor on it" tui_wait ' 1/3 relu_kernel'
tui_keys 1 Escape / '^aten::mm$' Enter j Enter
check "an op in Operators" tui_line 1 'proftui · Operators ·'
check "on its row" tui_wait ' 1/2 aten::mm'
tui_done
