#!/bin/sh
# --print to a terminal: txt lines cut to the terminal's width (names cut
# with "…", numbers whole), and whole names into a pipe.
. "$(dirname "$0")/lib.sh"
F=tests/golden/kineto/long-names.json
# The widest line of the pane's history, joined where tmux wrapped it, in
# display cells (wc -L counts a wide character as two).
widest() { $T capture-pane -p -J -S - -t t | wc -L; }
fits() { [ "$(widest)" -le "$1" ]; }
wider() { [ "$(widest)" -gt "$1" ]; }

# Tall enough for the whole Overview: the tests keep no history.
tui_start -x 80 -y 60 "$PROFTUI --print overview $F"
tui_wait '[exit 0]'
check "the Overview at 80 columns fits in 80" fits 80
check "a long kernel name is cut with an ellipsis" on_screen \
	'void at::native::vectorized_elementwise_kernel<5, a…  500.000 us'

tui_start -x 120 -y 40 "$PROFTUI --print kernels $F"
tui_wait '[exit 0]'
check "Kernels at 120 columns fit in 120" fits 120
check "its names are cut" on_screen 'void at::native::vec…      1  500.000 us'

# Kernels' numbers alone take more than 80 cells: the names keep 16.
tui_start -x 80 -y 24 "$PROFTUI --print kernels $F"
tui_wait '[exit 0]'
check "at 80 columns the names keep 16 cells" on_screen 'void at::native…      1'

tui_start -x 80 -y 24 "$PROFTUI --print kernels $F | cat"
tui_wait '[exit 0]'
check "into a pipe the names are whole" wider 200
tui_done
