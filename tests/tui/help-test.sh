#!/bin/sh
# ? shows the keys from the live keymap and what the columns mean.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys '?'
check "? opens the help" tui_wait 'Operators › help'
check "keys from the keymap" tui_wait '<Down> j         move-down'
tui_keys NPage
check "the first PgDn scrolls the help" tui_gone '<Down> j         move-down'
tui_keys PPage
check "and PgUp back" tui_wait '<Down> j         move-down'
tui_keys / '^Dev' Enter
check "the columns are explained" tui_wait "device time of the work this op launched"
check "the help, filtered" tui_expect help-columns
tui_keys Escape Escape
check "Esc closes it" tui_gone '› help'
tui_keys 5 '?' / fold Enter
check "the tree's own keys" tui_wait '<Enter>          toggle-fold'
tui_keys q
check "q closes it too" tui_gone '› help'
tui_done
