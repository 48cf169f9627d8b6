#!/bin/sh
# The Timeline: a lane per thread and stream under a ruler, blocks named
# where they fit; j/k rows, h/l blocks, +/- zoom around the selection,
# H/L pan, n/N (no search) and * # the same name, w the very block of a
# Tree row (a kernel's first block from Kernels) zoomed to be read, Enter the detail, w from a row of another
# pane, [ a step; the hint line names m and s where it has room.  At
# 80x24 and 120x40.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 6
	check "$size: 6 shows the Timeline" tui_line 1 'proftui · Timeline · '
	check "$size: a ruler" tui_line 3 '|500 us'
	check "$size: a lane per thread" tui_line 4 'thread 1 '
	check "$size: its blocks, named" tui_line 4 '[ProfilerStep#1  '
	check "$size: and one for the device" tui_wait 'GPU '
	check "$size: the first block selected, the window in the status" \
		tui_wait ' 1/20 ProfilerStep#1'
	[ "$size" = 80x24 ] && check "$size: the timeline" tui_expect timeline-80x24
	[ "$size" = 120x40 ] && check "$size: the hint names the range's keys where they fit" \
		tui_line 40 ' i inspect  q back  m range  s summary'
	tui_keys j
	check "$size: j: the row below" tui_wait ' 8/20 autograd::engine::evaluate_function'
	tui_keys h
	check "$size: h: the block before in the row" tui_wait ' 5/20 aten::add'
	tui_keys + +
	check "$size: + zooms in around it" tui_wait '281.2 us - 781.2 us of 2 ms'
	check "$size: the names fit better" tui_wait '[aten::add'
	tui_keys j j
	check "$size: down to the kernel it launched" tui_wait ' 7/20 void at::native::vectorized'
	tui_keys n
	check "$size: n: the same kernel in the next step" tui_wait ' 17/20 void at::native::vectorized'
	tui_keys N
	check "$size: N: back" tui_wait ' 7/20 void at::native::vectorized'
	tui_keys '*'
	check "$size: *: the next of the name, search or not" tui_wait ' 17/20 void at::native::vectorized'
	tui_keys '#'
	check "$size: #: the previous" tui_wait ' 7/20 void at::native::vectorized'
	tui_keys z
	check "$size: z: all of it" tui_wait '0 - 2 ms of 2 ms'
	tui_keys L
	check "$size: L pans (not past the end)" tui_wait '0 - 2 ms of 2 ms'
	tui_keys Enter
	check "$size: Enter: the block in detail" tui_line 1 'Timeline › detail'
	tui_keys G
	check "$size: with the op that launched it" tui_wait 'Launched by'
	tui_keys Escape 3 j w
	check "$size: w: a kernel's first block" tui_wait ' 7/20 void at::native::vectorized'
	check "$size: on the Timeline" tui_line 1 'proftui · Timeline · '
	check "$size: zoomed to where it reads (4 x its 80 us)" tui_wait '220 us - 540 us of 2 ms'
	tui_keys 5 g '*' G k k k w
	check "$size: w from the Tree: that very block (step 2's)" tui_wait ' 17/20 void at::native::vectorized'
	check "$size: and says so" tui_wait 'its block; * and #'
	tui_keys 6
	tui_keys ]
	check "$size: ] shows a step" tui_wait '0 - 1 ms of 1 ms'
	tui_keys / fill_ Enter
	check "$size: the filter keeps its blocks" tui_wait ' 1/1 aten::fill_'
	tui_keys Q
done
tui_start "$PROFTUI tests/golden/torch-table/modern.txt"
tui_wait 'proftui · Overview'
check "an untimed profile has no Timeline tab" sh -c "! $T capture-pane -p -t t | sed -n 2p | grep -q Timeline"
tui_keys 6
check "and 6 says so" tui_wait 'no tab for that pane here (Timeline pane)'
check "staying where it is" tui_line 1 'proftui · Overview'

tui_done
