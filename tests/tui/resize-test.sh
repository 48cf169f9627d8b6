#!/bin/sh
# The screen follows the terminal's size, and says so when it is too small.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_resize 60 20
check "redraws at 60x20" tui_expect resize-60x20
tui_resize 30 8
check "too small says so" tui_wait 'terminal too small'
tui_resize 80 24
check "back at 80x24" tui_wait 'sort: Dev self'
check "the same screen as at the start" tui_expect startup-ops
tui_done
