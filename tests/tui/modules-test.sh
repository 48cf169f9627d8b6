#!/bin/sh
# The Modules pane: the hierarchy, folded and unfolded; Enter opens a
# module's ops.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/modules/small.json"
tui_wait 'Overview'
tui_keys 8
check "8 shows the Modules pane" tui_wait '▾ Net_0'
check "the modules" tui_expect modules
tui_keys Left
check "Left folds" tui_gone 'Linear_1'
tui_keys Right
check "Right unfolds" tui_wait 'Linear_1'
tui_keys Space
check "Space folds too" tui_wait '▸ Net_0'
tui_keys Space j Enter
check "Enter opens the module's ops" tui_wait 'Linear_0 › ops'
check "its linear" tui_wait 'aten::linear'
tui_keys q
check "q goes back" tui_gone '› ops'
tui_done
