#!/bin/sh
# Info at 80x24 and 120x40: section names whole ("events not used" was cut
# to 14 cells), bytes in units too ("101305344 (96.61 MiB)").
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/kineto/info-sections.json"
	tui_wait 'proftui · Overview'
	tui_keys 9
	tui_wait 'proftui · Info'
	check "$size: a section name whole" tui_wait 'events not used ac2g (ph s)'
	check "$size: peak bytes in units" tui_wait 'GPU0 peak_allocated_bytes 101305344 (96.61 MiB)'
	tui_keys q
	tui_wait '[exit 0]'
done
tui_done
