#!/bin/sh
# A file that holds several runs: } and { switch between them, the title
# says which, Info lists them all with where each starts.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/tb-json/two-runs.json"
check "opens on the first run" tui_line 1 'run 1/2'
tui_keys '}'
check "} shows the second run" tui_line 1 'run 2/2'
check "and says so" tui_wait 'run 2 of 2'
tui_keys '}'
check "} at the last run says so" tui_wait 'this is the last run'
tui_keys 9
check "Info lists the runs" tui_wait 'run 2 (shown)'
check "with where each starts" tui_wait 'two-runs.json:6'
tui_keys '{'
check "{ goes back" tui_line 1 'run 1/2'
# A log dir of two runs (TensorBoard's layout) opens on the first; } and
# { switch runs, the bar names the run, Info lists them by name.
tui_start "$PROFTUI tests/golden/ranks/logdir"
check "a log dir of runs opens on its first run" tui_line 1 'run 1/2'
tui_keys '}'
check "} shows the second run, by its name" tui_wait 'run 2 of 2: runB'
tui_keys 9
check "Info names the runs" tui_wait 'on  runB'
tui_keys '{'
check "{ goes back to the first" tui_line 1 'run 1/2'
# Info's list of runs is a chooser: Enter on a run shows it.
tui_keys 9 / '^run 2' Enter
check "the filter finds the second run in Info" tui_wait ' 1/1 run 2'
tui_keys Enter
check "Enter on a run in Info shows it" tui_wait 'run 2 of 2: runB'
check "the title says which" tui_line 1 'run 2/2'
# --run NAME opens that run alone.
tui_start "$PROFTUI --run runB tests/golden/ranks/logdir"
check "--run NAME opens that run" tui_line 1 'logdir/runB/worker0.pt.trace.json'
tui_done
