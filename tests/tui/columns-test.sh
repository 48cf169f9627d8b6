#!/bin/sh
# Columns people can find: a marker on each side where columns are
# hidden, h and l a column at a time (and a word where there is none),
# the name keeping its width, the name taking the room of a wide screen;
# the column chooser hides and moves columns for the run; W saves them,
# with the sort, in the config file read at the next start, and nothing
# else writes it.
. "$(dirname "$0")/lib.sh"
cfg=$(mktemp -d /tmp/proftui-cfg-XXXXXX)
nm='autograd::engine::evaluate_functi… '
tui_start "XDG_CONFIG_HOME=$cfg $PROFTUI tests/tui/templates.json"
tui_wait 'proftui · Overview'
tui_keys 2
tui_wait 'sort: Dev self'
check "80x24: a marker where columns are hidden" tui_line 3 'Host self ›'
tui_keys l
check "80x24: the first l moves a column" tui_line 3 'Name                              ‹  Dev self▼'
check "80x24: the name keeps its width" tui_line 4 "$nm 400.000 us"
tui_keys l l l l l l
check "80x24: the last column, no marker on the right" tui_line 3 'TC total %'
check "80x24: the marker on the left stays" tui_line 3 '‹'
tui_keys l
check "80x24: l says when there is no more" tui_wait 'no more columns to the right'
tui_keys h h h h h h h
check "80x24: back at the first" tui_line 3 'Name                                 Calls'
tui_keys h
check "80x24: h says when there is no more" tui_wait 'no more columns to the left'
tui_resize 120 35
check "120x35: more columns, the marker where some are still hidden" \
	tui_line 3 'Dev self % ›'
tui_resize 200 50
check "200x50: the whole name and every column" \
	tui_line 4 'autograd::engine::evaluate_function: ConvolutionBackward0       2'
tui_resize 80 24
# The chooser: hide Calls, move it down, sort by device total; saved.
tui_keys t '|'
check "| opens the column chooser" tui_line 1 'Operators › columns'
check "it lists the columns, shown" tui_wait '[x]   Calls'
check "the chooser" tui_expect chooser-80x24
tui_keys j Space
check "Space hides one" tui_wait '[ ]   Calls'
tui_keys J
check "J moves it down" tui_line 6 '[ ]   Calls'
tui_keys Escape
check "the pane without it" tui_line 3 'Dev self  Dev total▼'
check "leaving does not write the config" test ! -e "$cfg/proftui/config"
tui_keys W
check "W saves, and says where" tui_wait "saved to $cfg/proftui/config"
check "the file has the columns" grep -qx 'columns ops name device_self -calls device_total host_self host_total device_self_pct device_mean tc_eligible tc_self_pct tc_total_pct -median -p90 -p99 -stddev' "$cfg/proftui/config"
check "and the sort" grep -qx 'sort ops device_total descending' "$cfg/proftui/config"
tui_start -x 120 -y 35 "XDG_CONFIG_HOME=$cfg $PROFTUI tests/tui/templates.json"
tui_wait 'proftui · Overview'
tui_keys 2
check "120x35: the next start reads them" tui_wait 'sort: Dev total'
check "120x35: Calls hidden" sh -c "! $T capture-pane -p -t t | sed -n 3p | grep -q Calls"
tui_keys '|' j j Space Escape
check "120x35: shown again, where it was moved" tui_line 3 'Dev self   Calls  Dev total▼'
# A toggle and a pass through the chooser are not saved behind the
# user's back (they were: the next run opened with short names); W saves
# and says where; short names the file sets are announced (issue 32's
# point 9, at both sizes).
for size in 80x24 120x40; do
	rm -f "$cfg/proftui/config"
	tui_start -x "${size%x*}" -y "${size#*x}" "XDG_CONFIG_HOME=$cfg $PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 3 '~'
	tui_wait 'short names'
	tui_keys '|'
	tui_wait 'Kernels › columns'
	tui_keys Escape
	tui_wait 'sort: '
	tui_keys Q
	check "$size: ~ and the chooser wrote nothing" test ! -e "$cfg/proftui/config"
	tui_start -x "${size%x*}" -y "${size#*x}" "XDG_CONFIG_HOME=$cfg $PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 3 '~'
	tui_wait 'short names'
	tui_keys W
	check "$size: W says where it saved" tui_wait "saved to $cfg/proftui/config"
	check "$size: the short names with it" grep -qx 'set short-names on' "$cfg/proftui/config"
	tui_start -x "${size%x*}" -y "${size#*x}" "XDG_CONFIG_HOME=$cfg $PROFTUI tests/tui/templates.json"
	check "$size: short names from the config say where they come from" \
		tui_wait "short names, as $cfg/proftui/config sets"
done
printf 'set mouse maybe\nsort ops nope\n' >"$cfg/proftui/config"
tui_start "XDG_CONFIG_HOME=$cfg $PROFTUI tests/tui/templates.json"
check "a bad config line is named, the rest read" tui_wait "config:1: 'mouse' is on or off, not 'maybe'"
tui_keys Q
check "the messages go to stderr at the end" tui_wait 'config:1:'
rm -rf "$cfg"
tui_done
