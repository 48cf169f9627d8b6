#!/bin/sh
# Search (f, F3): rows stay and the cursor goes to the first match as the
# pattern is typed; n and N go to the next and previous match, round the
# rows, in every pane; Esc puts the cursor back; the filter (/) still
# narrows.  Without a search, n and N in the Timeline go on meaning the
# same name.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 2
	tui_wait 'sort: Dev self'
	tui_keys n
	check "$size: n without a search says how to start one" tui_wait 'no search yet: f or F3 starts one'
	tui_keys f
	check "$size: f opens the search" tui_wait 'search:'
	tui_text fill
	check "$size: the cursor goes to the match as typed" tui_wait ' 3/3 aten::fill_'
	check "$size: the rows stay" tui_wait 'autograd::engine::evaluate_functi'
	tui_keys Enter
	check "$size: Enter keeps it" tui_wait 'n and N: the next and previous match'
	tui_keys f C-u
	tui_text 'aten::'
	tui_keys Enter
	check "$size: from the cursor on, round the rows" tui_wait ' 3/3 aten::fill_'
	tui_keys n
	check "$size: n goes on from the top" tui_wait 'search went on from the top'
	check "$size: to the next match" tui_wait ' 2/3 aten::add'
	tui_keys N
	check "$size: N goes back" tui_wait 'search went on from the bottom'
	check "$size: to the previous match" tui_wait ' 3/3 aten::fill_'
	tui_keys F3 C-u
	tui_text nomatch
	check "$size: F3 too; no match is said" tui_wait 'no row matches'
	tui_keys Escape
	check "$size: Esc puts the cursor back" tui_wait 'search cancelled'
	check "$size: where it was" tui_wait ' 3/3 aten::fill_'
	tui_keys 3 n
	check "$size: n in another pane, with the same search" tui_wait 'no row matches'
	tui_keys f C-u
	tui_text vectorized
	tui_keys Enter n
	check "$size: the second kernel of the name" tui_wait ' 3/3 void at::native::vectorized'
	tui_keys f C-u
	tui_text '!x'
	check "$size: a search cannot be inverted" tui_wait "'!' is for the filter"
	tui_keys Escape
	tui_keys / add Enter
	check "$size: / still filters" tui_wait '1/1 void at::native::vectorized'
done
tui_done
