#!/bin/sh
# Counter lanes on the Timeline: the trace's own counters drawn as charts
# under the ruler at once, each label ending with its scale; u shows the
# derived ones too (GPU utilization, queue, memory), u again hides them
# all; k from the first row of blocks moves onto the lanes, where the
# status line gives the series' value at the cursor's time, p pins a
# counter lane and d hides it, D shows it again.  On
# tests/golden/kineto/counters.json, at 80x24 and 120x40.
. "$(dirname "$0")/lib.sh"
F=$ROOT/tests/golden/kineto/counters.json
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI $F"
	tui_wait 'proftui · Overview'
	tui_keys 6
	tui_wait ' 1/5 aten::mm'
	check "$size: the first counter lane under the ruler" tui_line 4 'GPU 0 U'
	check "$size: its label ends with the scale" tui_line 4 '0–0.75'
	check "$size: drawn in eighth blocks" tui_line 5 '▇▇▇▇▇▇▇▇'
	check "$size: a name from the file is escaped" tui_line 7 '\x1b[31mred'
	check "$size: the lanes of blocks below them" tui_line 8 'thread 1'
	check "$size: derived lanes wait for u" off_screen '0–100%'
	tui_keys u
	check "$size: u shows every counter lane" tui_wait 'every counter lane shown'
	check "$size: GPU utilization, scaled to 100%" tui_line 8 '0–100%'
	check "$size: the queue's lane" tui_line 9 '0–2'
	tui_keys k k k
	check "$size: k moves onto the lanes: the value at the cursor" \
		tui_wait 'GPU 0 utilization = 0% at 0'
	tui_keys G
	check "$size: the cursor's time follows the block" tui_wait 'GPU 0 utilization = 100% at 140 us'
	tui_keys p
	check "$size: p pins the counter lane" tui_wait 'counter lane pinned at the top'
	check "$size: drawn first, marked =" tui_line 4 '=GPU 0'
	check "$size: the pinned lane is the utilization's" tui_line 4 '0–100%'
	tui_keys d
	check "$size: d hides it" tui_wait 'counter lane hidden (D shows every lane)'
	check "$size: it is gone" tui_gone '=GPU 0'
	tui_keys D
	check "$size: D shows it again" tui_wait 'every lane shown'
	check "$size: pinned still" tui_line 4 '=GPU 0'
	tui_keys u
	check "$size: u again hides every counter lane" tui_wait 'counter lanes hidden'
	check "$size: the blocks' lanes under the ruler again" tui_line 4 'thread 1'
	check "$size: no counter lane" off_screen '0–300'
	tui_keys Q
done
tui_done
