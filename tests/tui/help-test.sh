#!/bin/sh
# ? shows the keys from the live keymap and what the columns mean; the
# first PgDn scrolls it, at 80x24 and at 120x40.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/kineto/two-steps.json"
	tui_keys 2
	tui_wait 'sort: Dev self'
	tui_keys '?'
	check "$size: ? opens the help" tui_wait 'Operators › help'
	check "$size: keys from the keymap" tui_wait '<Down> j         move-down'
	tui_keys NPage
	check "$size: the first PgDn scrolls the help" tui_gone '<Down> j         move-down'
	tui_keys PPage
	check "$size: and PgUp back" tui_wait '<Down> j         move-down'
	tui_keys / '^Dev' Enter
	check "$size: the columns are explained" tui_wait "device time of the work this op launched"
	[ "$size" = 80x24 ] && check "the help, filtered" tui_expect help-columns
	tui_keys Escape Escape
	check "$size: Esc closes it" tui_gone '› help'
	tui_keys 5 '?' / fold Enter
	check "$size: the tree's own keys" tui_wait '<Enter>          toggle-fold'
	tui_keys q
	check "$size: q closes it too" tui_gone '› help'
done
tui_done
