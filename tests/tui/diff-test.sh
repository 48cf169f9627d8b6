#!/bin/sh
# Two whole profiles open as a diff: base / new / diff per number, a
# status, sorted by the change of device self time; the Tree is the diff
# tree, o on a node opens its ops diffed; Info says how the files relate.
. tests/tui/lib.sh
tui_start "$PROFTUI tests/golden/diff/base.json tests/golden/diff/new.json"
tui_wait 'sort: Dev self diff' || tui_done
check "opens as a diff" tui_line 1 'proftui · Operators diff · '
check "the diff of the Operators" tui_expect diff-ops
tui_keys s
check "s sorts by the change, reversed" tui_wait 'sort: Dev self diff ▲'
check "ascending: the smallest change first" tui_line 4 'aten::copy_ same'
tui_keys 3
check "the Kernels diff" tui_line 4 'mm_kernel    slower'
tui_keys 5
check "the Tree is the diff tree" tui_wait 'CompositeNodes slower'
tui_keys o
check "o opens the ops under the node, diffed" tui_wait 'Tree diff › these nodes › ops diff'
tui_keys Left 9
check "Info says how the files relate" tui_wait "opened as     diff: base 'tests/golden/diff/base.json'"
tui_done
