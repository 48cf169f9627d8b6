#!/bin/sh
# The Tree pane folds and unfolds in place; the cursor stays on its node.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys 5
check "threads start open, calls folded" tui_wait '▸ ProfilerStep#1'
tui_keys j Right
check "→ unfolds" tui_wait '▾ ProfilerStep#1'
check "the children show" tui_wait '▸ aten::conv2d'
tui_keys '*'
check "* unfolds everything under the node" tui_wait 'conv_fwd_kernel<float>'
check "the unfolded step" tui_expect tree-unfolded
tui_keys Left
check "← folds" tui_wait '▸ ProfilerStep#1'
check "the cursor stays on the node" tui_wait ' 2/5 ProfilerStep#1'
tui_keys Left
check "← on a closed node goes to the parent" tui_wait ' 1/5 thread 7'
tui_keys '-'
check "- folds" tui_wait '▸ thread 7'
tui_keys +
check "+ unfolds" tui_wait '▾ thread 7'
tui_keys / orphan Enter
check "a filter shows the match with its ancestors" tui_wait 'orphan_kernel'
check "and nothing else" tui_gone 'ProfilerStep'
tui_done
