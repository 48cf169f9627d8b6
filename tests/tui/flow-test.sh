#!/bin/sh
# Flow control is off while proftui has the terminal: C-s reaches it (the
# emacs keymap's filter) instead of freezing the screen, also after
# Ctrl-Z and fg; the shell gets its IXON back when suspended and at exit.
. "$(dirname "$0")/lib.sh"
F=tests/golden/kineto/two-steps.json
ixon='echo "FLOW: $(stty -a | tr " " "\n" | grep -x -e ixon -e -ixon)."'
tui_start "env PS1='prompt\$ ' sh -i"
tui_wait 'prompt$'
tui_text "$ixon"
tui_keys Enter
tui_wait 'FLOW: ixon.'
tui_text "clear; $PROFTUI --keymap emacs $F"
tui_keys Enter
tui_wait 'Step time (2 steps)'
tui_keys C-s
check "C-s opens the filter" tui_line 24 'filter:'
tui_keys Escape
tui_gone 'filter:'
tui_keys C-z
check "Ctrl-Z gives the shell back" tui_wait 'prompt$'
tui_text "clear; $ixon"
tui_keys Enter
check "with flow control on, as the shell had it" tui_wait 'FLOW: ixon.'
tui_text fg
tui_keys Enter
tui_wait 'Step time (2 steps)'
tui_keys C-s
check "after fg, C-s still opens the filter" tui_line 24 'filter:'
tui_keys Escape
tui_gone 'filter:'
tui_keys Q
tui_wait 'prompt$'
tui_text "clear; $ixon"
tui_keys Enter
check "at exit, flow control is on again" tui_wait 'FLOW: ixon.'
tui_done
