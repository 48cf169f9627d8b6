#!/bin/sh
# A key file is text from a file too: a bad line is quoted on stderr before
# the screen starts and in the bar, escaped in both.  tmux keeps what an
# OSC 0 set as #{pane_title}, so a raw sequence would show there.
. "$(dirname "$0")/lib.sh"
printf 'bind global x fold\033]0;PWNED\007\n' >"$OUT/hostile.keys"
# From $OUT, so that the message naming the file fits in 80 columns.
tui_start "cd $OUT && $PROFTUI --keys hostile.keys $ROOT/tests/golden/kineto/two-steps.json"
tui_wait 'Overview'
check "the bad line in the bar, escaped" tui_wait "unknown action 'fold\\x1b]0;PWNED\\x07'"
not_pwned() { [ "$($T display-message -p -t t '#{pane_title}')" != PWNED ]; }
check "stderr leaves the terminal's title alone" not_pwned
tui_done
