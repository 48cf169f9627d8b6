#!/bin/sh
# Names with wide (CJK) and combining characters keep the columns in line:
# widths come from display cells, and a cut name ends with an ellipsis.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/tui/wide.json"
tui_wait 'Overview'
tui_keys 2
tui_wait 'sort: Host self'
# The screen holds the cells as a terminal shows them: the expected
# screen has every number column in line.
check "the wide names, columns in line" tui_expect wide
check "a long wide name is cut with an ellipsis" tui_wait '…'
tui_done
