#!/bin/sh
# Landing where the data is: a profile opens on the first pane with rows
# (a load_and_run log on its Overview of the steps), and an empty pane
# says where the data is, with the keys that show it; the bar's
# hints are the pane's own; Info sums each device up with units, folds
# the raw properties, names the rank; a deep drill path keeps the pane it
# began in.  At 80x24 and 120x35.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x35; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/megengine/lar-v17.txt"
	check "$size: a load_and_run log opens on its steps' Overview" \
		tui_wait 'Step time (4 steps)'
	tui_keys 2
	check "$size: the empty Operators pane says where the data is" \
		tui_wait "this profile's data is in: Overview (1), Steps (4), Tree (5), Info (9)"
	check "$size: and promises no drill-down" sh -c "! $T capture-pane -p -t t | tail -n 1 | grep -q drill"
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 2
	tui_wait 'sort: Dev self'
	check "$size: Operators' hints" tui_wait ' ? help  / filter  s sort  <Enter> drill  i inspect'
	tui_keys 9
	check "$size: Info's hints have no sort or drill" tui_line "${size#*x}" ' ? help  / filter  i inspect  e export  q back'
	check "$size: a device in a line, with units" \
		tui_wait 'NVIDIA H100 80GB HBM3, 79.35 GiB, compute'
	check "$size: its raw properties folded" sh -c "! $T capture-pane -p -t t | grep -q totalGlobalMem"
	tui_keys / raw Enter Enter Escape
	check "$size: Enter shows them" tui_wait '85198045184'
	tui_keys 3 Enter Enter
	check "$size: a deep drill path keeps its start" tui_line 1 'proftui · Kernels › '
	check "$size: and its end" tui_line 1 ' › kernels '
	tui_keys Q
done
tui_done
