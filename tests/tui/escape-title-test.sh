#!/bin/sh
# Hostile names reach the terminal escaped on every line of the TUI and in
# the warnings printed before it starts: an OSC 0 (set the title) from the
# file must not change the terminal's title.  tmux keeps what a program
# set as #{pane_title}, so a raw sequence anywhere shows there.
. "$(dirname "$0")/lib.sh"
pane_title() { $T display-message -p -t t '#{pane_title}'; }
not_pwned() { [ "$(pane_title)" != PWNED ]; }
# A name in a warning on stderr, before curses starts.
tui_start "$PROFTUI tests/golden/errors/hostile.json"
tui_wait 'Overview'
tui_keys 2
tui_wait 'sort: Host self'
check "a warning's name leaves the title alone" not_pwned
check "names shown escaped" tui_wait 'evil\x1b]0;PWNED\x07op'
tui_keys 9
check "Info's values escaped" tui_wait 'value\x1b]52'
check "Info leaves the title alone" not_pwned
# A column title and a step category from the file (the Steps pane).
tui_start "$PROFTUI tests/golden/errors/hostile-steps.json"
tui_wait 'Steps'
tui_keys 4
check "a column title from the file, escaped" tui_wait 'Ker\x1b]0;PWNED\x07nel'
check "a step name from the file, escaped" tui_wait '7\x1b]0;PWNED\x07'
check "the legend's category, escaped" tui_wait 'K Ker\x1b]0;PWNED\x07nel'
check "the Steps pane leaves the title alone" not_pwned
tui_done
