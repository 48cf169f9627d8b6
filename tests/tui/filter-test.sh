#!/bin/sh
# The filter bar: applied as you type, smart case, ! inverts, a broken
# pattern keeps the last good filter, Enter keeps, Esc restores.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys /
check "/ opens the filter bar" tui_line 24 'filter:'
tui_text cudnn
check "applies as you type" tui_wait '1/3 matched'
tui_keys Enter
check "Enter keeps the filter" tui_wait 'filter: cudnn'
check "the filtered screen" tui_expect filter-cudnn
tui_text '\'
tui_keys C-u
tui_text 'ADD'
check "a capital makes it case sensitive" tui_wait '0/3 matched'
tui_keys C-u
tui_text '!add'
check "a leading ! inverts" tui_wait '2/3 matched'
tui_text '(('
check "a broken pattern shows PCRE2's message" tui_wait 'missing closing parenthesis at offset'
check "and keeps the last good filter" tui_wait '2/3 matched'
tui_keys Escape
check "Esc restores the filter from before" tui_wait 'filter: cudnn'
tui_keys F4 C-u Enter
check "an empty pattern clears it" tui_wait 'filter cleared'
check "all rows again" tui_gone 'matched'
tui_done
