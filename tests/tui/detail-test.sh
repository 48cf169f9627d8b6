#!/bin/sh
# i shows all of the row under the cursor: its full name wrapped, each
# column with its unit and meaning, its attributes, the ops that launched
# a kernel (Enter shows that op's row); Esc returns.  80x24 and 120x35.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x35; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 2
	tui_wait 'sort: Dev self'
	tui_keys 3 j i
	check "$size: i opens the detail of the kernel" tui_line 1 'Kernels › detail'
	check "$size: the full name, to its end" tui_wait '3>)'
	check "$size: a column with its unit and meaning" \
		tui_wait 'Total             160.000 us'
	[ "$size" = 80x24 ] && check "$size: the detail view" tui_expect detail-80x24
	tui_keys G
	check "$size: the op that launched it" tui_wait 'aten::add (160.000 us'
	tui_keys Enter
	check "$size: Enter goes to the op's row" tui_wait ' 2/3 aten::add'
	check "$size: in the Operators pane" tui_line 1 'proftui · Operators · '
	tui_keys 3
	check "$size: the detail closed on the way" tui_line 1 'proftui · Kernels · '
	tui_keys i
	tui_wait 'Kernels › detail'
	tui_keys Escape
	check "$size: Esc returns" tui_gone '› detail'
	tui_keys 5 j i G
	check "$size: a Tree node's place in the tree" tui_wait 'in the call tree'
	tui_keys q q
done
tui_done
