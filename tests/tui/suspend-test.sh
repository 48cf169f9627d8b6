#!/bin/sh
# Ctrl-Z suspends to the shell and fg brings the screen back; Ctrl-C
# leaves the terminal as it was.
. tests/tui/lib.sh
tui_start "env PS1='prompt\$ ' sh -i"
tui_wait 'prompt$' || tui_done
tui_text "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys Enter
tui_wait 'sort: Dev self' || tui_done
tui_keys C-z
check "Ctrl-Z gives the shell back" tui_wait 'prompt$'
tui_text fg
tui_keys Enter
check "fg redraws" tui_wait 'sort: Dev self'
tui_keys 2
check "and keys work" tui_wait 'sort: Total'
tui_keys C-c
check "Ctrl-C ends it" tui_wait 'prompt$'
tui_text 'stty -a | tr " " "\n" | grep -x -e echo -e icanon | tr "\n" " "; echo'
tui_keys Enter
check "the terminal is sane again" tui_wait 'icanon echo'
tui_done
