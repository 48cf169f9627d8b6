#!/bin/sh
# A monochrome vt100 with NO_COLOR and a non-UTF-8 locale: ASCII glyphs,
# attributes instead of colours, nothing raw from the profile.
. "$(dirname "$0")/lib.sh"
tui_start "TERM=vt100 NO_COLOR=1 LANG=C LC_ALL=C $PROFTUI tests/tui/escape.json"
tui_keys 2
check "ASCII sort mark" tui_wait 'sort: Dev self v'
check "control characters shown escaped" tui_wait 'evil\x1b[2Jname'
check "non-ASCII as ?" tui_wait 'caf?_op'
check "the vt100 screen" tui_expect vt100
tui_keys 5
check "ASCII fold marks" tui_wait '- thread 1'
tui_done
