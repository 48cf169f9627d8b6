#!/bin/sh
# A log directory opens as the ranks of a job, on the Ranks pane: the
# stragglers marked, + shows a rank's steps, ] one step's rows; Enter on a
# rank shows it alone in every pane, q in the Ranks pane every rank again,
# the Ranks pane sorted and on the row it was;
# v regroups the Kernels of every rank.
. tests/tui/lib.sh
tui_start "$PROFTUI tests/golden/ranks/job"
tui_wait 'sort: Step' || tui_done
check "opens on the Ranks pane" tui_line 1 'proftui · Ranks · worker0, worker1, worker2'
check "the ranks, worker2 the straggler" tui_expect ranks-all
tui_keys +
check "+ shows the rank's steps" tui_wait '    worker2      2 1 '
tui_keys ]
check "] shows one step's rows" tui_wait 'step 1'
tui_keys 0 G Enter
check "Enter shows the rank alone" tui_wait 'worker1 (rank 1 of 3)'
tui_keys 2
check "its own Operators" tui_wait 'aten::mm       2  640.000 us'
tui_keys R q
check "q in Ranks: every rank" tui_line 1 'proftui · Ranks · worker0, worker1, worker2'
tui_keys 2
check "the Operators across ranks" tui_wait 'Operators across ranks'
tui_keys C
check "the Comm ops table" tui_wait 'nccl:all_reduce worker0'
# v regroups every rank's Kernels, by launching op (it freed the rows
# the pane across ranks pointed into).
tui_keys 3 v
check "v: the Kernels across ranks by launching op" \
	tui_wait 'kernels by name, launching op and launch'
# Enter on a rank and q back: the Ranks pane keeps its sort and cursor
# (Enter again picks the same rank).
tui_start "$PROFTUI tests/golden/ranks/job"
tui_wait 'sort: Step' || tui_done
tui_keys a
tui_wait 'sort: Worker' || tui_done
tui_keys g j Enter
check "Enter on the second rank by name" tui_wait 'worker1 (rank 1 of 3)'
check "the sort kept with the rank shown alone" tui_wait 'sort: Worker'
tui_keys q
check "q: every rank, still sorted by name" tui_line 1 'worker0, worker1, worker2 '
check "q: still sorted by name" tui_wait 'sort: Worker'
tui_keys Enter
check "Enter again: the same rank" tui_wait 'worker1 (rank 1 of 3)'
# Two ranks of a job of three: the Ranks pane says which one is missing.
tui_start "$PROFTUI --ranks tests/golden/ranks/job/worker0.pt.trace.json tests/golden/ranks/job/worker2.pt.trace.json"
check "the missing rank in the status line" tui_wait '1 of 3 ranks missing (1)'
tui_done
