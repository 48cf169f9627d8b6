#!/bin/sh
# Rank analyses: the Overview's comm/comp overlap section gives the rank's
# communication and the part computation overlapped; Enter on it opens
# the Rank analyses pane, one row per rank of the job, with HTA's
# straggler test across them (tests/golden/hta/gen-strag-job.py); l
# scrolls to the launch columns at 80x24.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/strag-job"
tui_wait 'sort: ' || tui_done
tui_keys Enter
check "Enter shows the first rank alone" tui_wait 'rank0 (rank 0 of 4)'
tui_keys 1
check "1 opens its Overview" tui_line 1 'Overview'
tui_keys / '^Under computation$' Enter
check "the Overview gives the overlapped communication" tui_wait '34.29%'
tui_keys Down Enter
check "Enter opens Rank analyses" tui_line 1 'Rank analyses'
check "every rank, rank 2's overlap" tui_line 6 '8.00%'
check "rank 2 a straggler, marked in 3 steps" tui_line 6 'straggler             3'
check "the straggler test's mean step" tui_wait 'straggler test: 3 steps, mean 1.000 ms'
tui_keys l l l l l l l l l l l l
check "l scrolls to the launch columns" tui_line 3 'Launches'
check "rank 2's launches, its median launch delay" tui_line 6 '12  708.000 us'
tui_keys q
check "q goes back to the Overview" tui_wait 'Comm/comp overlap'
tui_done
