#!/bin/sh
# Call stacks: K on an op in Operators lists the Python stacks its calls
# ran under; grouped by input shape, those of the row's shape only.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/stacks/small.json"
tui_wait 'Overview'
tui_keys 2 / '^aten::linear$' Enter
tui_wait ' 1/1 aten::linear'
tui_keys K
check "K opens the op's call stacks" tui_line 1 'aten::linear › call stacks'
check "the stacks, innermost frame first" tui_expect stacks
tui_keys / step Enter
check "the filter keeps a stack's heading" tui_wait ' 1/4 Stack 1'
tui_keys q
check "q goes back to Operators" tui_gone 'call stacks'
tui_keys Escape v
tui_wait 'Input shapes'
tui_keys / '^aten::linear$' Enter G K
check "grouped by shape: the row's shape" tui_line 1 ' [[8, 32], [16, 32], [16]] › call stacks'
check "only its calls' stack" tui_wait 'model.py(15): forward'
check "not the other shape's" tui_gone 'model.py(12): forward'
tui_keys q 3 K
check "K elsewhere says where it works" tui_wait 'press it in Operators'
tui_done
