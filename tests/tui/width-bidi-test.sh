#!/bin/sh
# Bidi controls and zero-width characters (U+202E, U+200B, U+200D, U+FEFF,
# U+2066...) are shown escaped ("\u202e"), and each row keeps its columns
# in line: a terminal draws them as nothing, or reorders the row, while a
# layout that counted them as one cell each pushed the numbers around.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/errors/bidi.json"
tui_wait 'Overview'
tui_keys 2
tui_wait 'sort: Host self'
check "a right-to-left override, escaped" tui_wait 'rlo\u202eabc'
check "zero-width characters, escaped" tui_wait 'zw\u200bsp\u200dzwj\ufeffbom'
# Every row's call count (1) starts in the same screen column.
calls_in_line() {
	[ "$(tui_screen | sed -n '4,8p' | awk '{ print index($0, " 1   ") }' | sort -u | wc -l)" -eq 1 ]
}
check "the calls column in line on every row" calls_in_line
check "the columns in line" tui_expect width-bidi
tui_done
