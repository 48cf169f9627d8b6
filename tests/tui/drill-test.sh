#!/bin/sh
# Enter on an op opens its kernels; Enter on a kernel opens its ops;
# back restores cursor, sort and filter as they were.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys / conv Enter c j
tui_wait 'sort: Calls'
tui_keys Enter
check "drills into the op's kernels" tui_wait 'Operators › aten::cudnn_convolution › kernels'
check "the kernels of aten::conv2d" tui_expect drill-kernels
tui_keys Enter
check "a kernel drills into its ops" tui_line 1 'conv_fwd_kernel<float> › ops'
check "the op that launched it" tui_wait ' 1/1 aten::cudnn_convolution'
tui_keys BSpace
check "back to the kernels" tui_wait 'Operators › aten::cudnn_convolution › kernels'
tui_keys Left
check "back to the Operators" tui_line 1 'proftui · Operators · '
check "filter kept" tui_wait 'filter: conv'
check "sort kept" tui_wait 'sort: Calls'
check "cursor kept" tui_wait ' 2/2 aten::cudnn_convolution'
tui_keys 3 Enter
check "the Kernels pane drills into ops" tui_wait 'Kernels › conv_fwd_kernel<float> › ops'
tui_keys q
check "q goes back" tui_gone '› ops'
tui_done
