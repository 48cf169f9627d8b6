#!/bin/sh
# Pinned and hidden lanes on the Timeline: p pins the selected block's
# lane under the ruler, where it stays while the rest scrolls (p again
# unpins); d hides a lane, the status counts the hidden ones, D shows
# them all.  On a trace made here: 24 threads, each an op that launches
# a kernel on one stream, more rows than a screen.  At 80x24 and 120x40.
. "$(dirname "$0")/lib.sh"
F=$OUT/lanes.json
# lanes_fixture FILE: 24 threads, each an op that launches a kernel on
# stream 7, one after another: 25 lanes, more rows than a screen.
lanes_fixture() {
	{
		printf '{"schemaVersion": 1, "traceEvents": [\n'
		printf '{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}}'
		i=1
		while [ $i -le 24 ]; do
			ts=$((1000 + i * 100))
			printf ',\n{"ph": "X", "cat": "cpu_op", "name": "op%d", "pid": 1, "tid": %d, "ts": %d, "dur": 50, "args": {"External id": %d}}' $i $i $ts $i
			printf ',\n{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": %d, "ts": %d, "dur": 5, "args": {"External id": %d, "correlation": %d}}' $i $((ts + 10)) $i $((100 + i))
			printf ',\n{"ph": "X", "cat": "kernel", "name": "kernel%d", "pid": 0, "tid": 7, "ts": %d, "dur": 40, "args": {"correlation": %d, "External id": %d, "device": 0, "stream": 7}}' $i $((ts + 20)) $((100 + i)) $i
			i=$((i + 1))
		done
		printf '\n]}\n'
	} >"$1"
}
lanes_fixture "$F"
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI $F"
	tui_wait 'proftui · Overview'
	tui_keys 6
	tui_wait ' 1/72 op1'
	check "$size: the first lanes under the ruler" tui_line 4 'thread 1 '
	check "$size: the stream's lane is below the screen" off_screen 'GPU 0 stream 7'
	tui_keys G
	check "$size: G: the last kernel, on the stream" tui_wait ' 72/72 kernel24'
	check "$size: its lane scrolled into view" tui_wait 'GPU 0 stream 7'
	tui_keys p
	check "$size: p pins it" tui_wait 'lane pinned at the top'
	check "$size: drawn first, under the ruler, marked =" tui_line 4 '=GPU 0 stream 7'
	tui_keys g
	check "$size: g: back to the first block" tui_wait ' 1/72 op1'
	check "$size: the thread's lane below the pinned one" tui_line 5 'thread 1 '
	check "$size: the pinned lane stays" tui_line 4 '=GPU 0 stream 7'
	tui_keys PgDn PgDn PgDn
	check "$size: PgDn scrolls the rest" tui_gone 'thread 1 '
	check "$size: the pinned lane stays at the top" tui_line 4 '=GPU 0 stream 7'
	tui_keys G p
	check "$size: p again unpins" tui_wait 'lane unpinned'
	tui_gone '=GPU 0 stream 7'
	check "$size: the lane is back in its place, last" tui_wait 'GPU 0 stream 7'
	tui_keys g
	tui_wait ' 1/72 op1'
	tui_keys d
	check "$size: d hides the block's lane" tui_wait 'lane hidden (D shows every lane)'
	check "$size: it is gone" tui_gone 'thread 1 '
	check "$size: the status counts it" tui_wait '1 lane hidden'
	check "$size: the selection went to the next lane" tui_line 4 'thread 2 '
	tui_keys d
	check "$size: two hidden" tui_wait '2 lanes hidden'
	check "$size: the first lane now" tui_line 4 'thread 3 '
	tui_keys D
	check "$size: D shows every lane" tui_wait 'every lane shown'
	check "$size: the first lane is back" tui_line 4 'thread 1 '
	tui_gone 'lanes hidden'
	check "$size: nothing hidden" off_screen 'hidden'
	tui_keys Q
done
tui_done
