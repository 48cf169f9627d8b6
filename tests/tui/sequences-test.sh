#!/bin/sh
# Kernel sequences: F on an op in Operators lists the patterns of kernels
# its calls launched, with their count; i shows a pattern whole.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/seq.json"
tui_wait 'Overview'
tui_keys 2 / '^aten::conv$' Enter
tui_wait ' 1/1 aten::conv'
tui_keys F
check "F opens the op's kernel sequences" tui_line 1 'aten::conv › kernel sequences'
check "the most frequent pattern, its count and GPU time" \
	tui_wait '2   112.000 us   180.000 us         3 aten::conv|k_pre|k_gemm|k_post<"q">'
check "the other pattern, with its copy" tui_wait 'aten::conv|k_pre|Memcpy DtoD'
tui_keys Down i
tui_wait '-- pattern --'
tui_keys G
check "i lists the pattern one name a line" tui_wait 'GPU event 4   k_post<"q">'
tui_keys q q
check "q goes back to Operators" tui_gone 'kernel sequences'
tui_keys Escape 3 F
check "F elsewhere says where it works" tui_wait 'works in'
tui_done
