#!/bin/sh
# Each sort key, pressing it again reverses, r reverses, < and > move.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys T
check "T sorts by host total" tui_wait 'sort: Host total ▼'
check "largest host total first" sh -c "$T capture-pane -p -t t | sed -n 4p | grep -q '^aten::conv2d '"
tui_keys T
check "T again reverses" tui_wait 'sort: Host total ▲'
check "smallest host total first" sh -c "$T capture-pane -p -t t | sed -n 4p | grep -q '^aten::add '"
tui_keys S
check "S sorts by host self" tui_wait 'sort: Host self ▼'
tui_keys t
check "t sorts by device total" tui_wait 'sort: Dev total ▼'
tui_keys c
check "c sorts by calls" tui_wait 'sort: Calls ▼'
tui_keys a
check "a sorts by name, ascending" tui_wait 'sort: Name ▲'
check "names in order" sh -c "$T capture-pane -p -t t | sed -n 4,6p | cut -c1-24 | tr -s ' ' | tr '\n' '|' | grep -q '^aten::add |aten::conv2d |aten::cudnn_convolution |'"
tui_keys r
check "r reverses" tui_wait 'sort: Name ▼'
tui_keys s
check "s sorts by device self" tui_wait 'sort: Dev self ▼'
tui_keys '>'
check "> moves the sort one column right" tui_wait 'sort: Dev total ▼'
tui_keys '<' '<'
check "< moves it left" tui_wait 'sort: Calls ▼'
check "after the sort keys" tui_expect sort-calls
# htop's F6: a list of the columns; Enter sorts by one, again reverses.
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/kineto/two-steps.json"
	tui_keys 2
	tui_wait 'sort: Dev self'
	tui_keys F6
	check "$size: F6 lists the columns" tui_line 1 'Operators › sort by'
	check "$size: the current sort marked" tui_wait 'desc  Dev self'
	tui_keys g j Enter
	check "$size: Enter sorts by the column" tui_wait 'sort: Calls ▼'
	check "$size: and closes the list" tui_gone '› sort by'
	tui_keys F6 Enter
	check "$size: again on the current one: reversed" tui_wait 'sort: Calls ▲'
	tui_keys F6 Escape
	check "$size: Esc leaves it unchanged" tui_gone '› sort by'
	check "$size: still by calls" tui_wait 'sort: Calls ▲'
done
tui_done
