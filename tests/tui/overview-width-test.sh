#!/bin/sh
# The Overview at 80x24 and 120x40: a recommendation reads whole, wrapped
# at blanks beside whose rule it is, never cut mid-word; a value longer
# than its column takes the empty % cell beside it.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/overview/rocm.json"
	tui_wait 'proftui · Overview'
	check "$size: a long value whole" tui_wait 'AMD Instinct MI300X'
	tui_keys q
	tui_wait '[exit 0]'

	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/overview/small.json"
	tui_wait 'proftui · Overview'
	[ "$size" = 80x24 ] && tui_keys PageDown
	check "$size: the recommendations" tui_wait 'Recommendations'
	check "$size: a recommendation's words whole" tui_wait 'set num_workers when you construct the'
	check "$size: its first line beside its rule" on_screen 'torch-tb-profiler'
	check "$size: nothing cut mid-word" sh -c "! $T capture-pane -p -t t | grep -q 'DataLoader…\|is in th…\|batch…\|larger…'"
	check "$size: the first words of each" on_screen 'GPU 0 has low utilization'
	tui_keys q
	tui_wait '[exit 0]'
done
tui_done
