#!/bin/sh
# Critical path: the Overview's section gives the longest step's path and
# its biggest bounds; Enter opens the Critical path pane, the summary by
# bound_by and then the links, and Enter or w shows a link's own kernel on
# the Timeline, where c marks the path's blocks.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/cpath.json"
tui_wait 'Overview'
tui_keys / '^Path of step 2$' Enter
check "the Overview gives the step's critical path" tui_wait '460.000 us'
tui_keys Down Enter
check "Enter opens the Critical path" tui_line 1 'Critical path'
check "a bound's share" tui_wait '65.22%'
check "a link on a stream" tui_wait 'ncclKernel_'
tui_keys / '^gemm_big$' Enter w
check "w shows the link's kernel on the Timeline" tui_wait 'its block;'
tui_keys 1
check "the Critical path is still open on the Overview's tab" tui_line 1 'Critical path'
tui_keys / C-u '^ncclKernel_AllReduce$' Enter Enter
check "Enter shows the link's kernel on the Timeline" tui_line 1 'Timeline'
# c marks the path's blocks on the Timeline, for the longest step when
# none is chosen (step 2 here); c again takes them away.
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/hta/cpath.json"
	tui_wait 'Overview'
	tui_keys 6 z
	tui_wait '[gemm_big'
	tui_keys c
	check "$size: c marks the critical path" tui_wait '<gemm_big'
	check "$size: and says what the marks are" tui_wait '<name>: a block on the critical path'
	check "$size: not the blocks off it (step 1's data loader)" tui_wait '[data_lo'
	tui_keys c
	check "$size: c again: off" tui_gone '<gemm_big'
done
tui_done
