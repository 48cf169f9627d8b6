#!/bin/sh
# Ctrl-Z suspends to the shell and fg brings the screen back; Ctrl-C and
# SIGTERM leave the terminal as it was.
. "$(dirname "$0")/lib.sh"
F=tests/golden/kineto/two-steps.json
sane='stty -a | tr " " "\n" | grep -x -e echo -e icanon | tr "\n" " "; echo SANE'
tui_start "env PS1='prompt\$ ' sh -i"
tui_wait 'prompt$'
tui_text "$PROFTUI $F"
tui_keys Enter
tui_wait 'Overview'
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys C-z
check "Ctrl-Z gives the shell back" tui_wait 'prompt$'
tui_text fg
tui_keys Enter
check "fg redraws" tui_wait 'sort: Dev self'
tui_keys 3
check "and keys work" tui_wait 'sort: Total'
tui_keys C-c
check "Ctrl-C ends it" tui_wait 'prompt$'
tui_text "$sane"
tui_keys Enter
check "the terminal is sane again" tui_wait 'icanon echo SANE'
tui_keys C-u
tui_text clear
tui_keys Enter
tui_gone 'SANE'
tui_text "$PROFTUI $F"
tui_keys Enter
tui_wait 'Overview'
tui_keys 2
tui_wait 'sort: Dev self'
# SIGTERM from outside, as a job scheduler sends it: to proftui, the
# child of the interactive shell under the pane's own shell.
shell=$($T display -p -t t '#{pane_pid}')
kill -TERM $(pgrep -P "$(pgrep -P "$shell")")
check "SIGTERM ends it" tui_wait 'prompt$'
tui_text "$sane"
tui_keys Enter
check "the terminal is sane after SIGTERM too" tui_wait 'icanon echo SANE'
tui_done
