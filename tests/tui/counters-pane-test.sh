#!/bin/sh
# The Counters pane from the Timeline: Enter or i on a counter lane opens
# it with the cursor on that series, Esc goes back to the Timeline where
# it was; Enter or w on a row of it shows that series' lane on the
# Timeline (a derived one turned on), the cursor on it.  On
# tests/golden/kineto/counters.json, at 80x24 and 120x40.
. "$(dirname "$0")/lib.sh"
F=$ROOT/tests/golden/kineto/counters.json
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI $F"
	tui_wait 'proftui · Overview'
	tui_keys 6
	tui_wait ' 1/5 aten::mm'
	tui_keys k k
	check "$size: k k: on the power volts lane" tui_wait 'power volts = 1.1 at 0'
	tui_keys Enter
	check "$size: Enter opens Counters over the Timeline" tui_line 1 'Timeline › Counters'
	check "$size: at that series" tui_wait ' 3/7 power volts'
	tui_keys Escape
	check "$size: Esc: the Timeline again" tui_line 1 'proftui · Timeline · '
	check "$size: where it was" tui_wait 'power volts = 1.1 at 0'
	tui_keys k i
	check "$size: i opens it too, at the lane's series" tui_wait ' 2/7 power watts'
	tui_keys j j j j
	tui_wait ' 6/7 queue GPU 0 stream 7'
	tui_keys Enter
	check "$size: Enter on a row: the Timeline" tui_line 1 'proftui · Timeline · '
	check "$size: the cursor on its lane, turned on" tui_wait 'queue GPU 0 stream 7 = '
	check "$size: the lane is drawn" tui_line 8 'queue GPU'
	tui_keys i
	tui_wait ' 6/7 queue GPU 0 stream 7'
	tui_keys j w
	check "$size: w on a row: its lane" tui_wait 'memory GPU0 = '
	tui_keys Q
done
tui_done
