#!/bin/sh
# The mouse: a click on a tab shows it, on a column title sorts by it
# (again: reverses), on a row selects it; a double click drills in (on
# the Timeline: inspects); the wheel scrolls.  In both encodings a
# terminal may use: SGR 1006 (xterm's terminfo) and the old X10 one
# (tmux's).  --no-mouse and the config leave the mouse to the terminal.
. "$(dirname "$0")/lib.sh"
# click X Y [twice], wheel up|down X Y: cells from 1, as the terminal
# counts; each sends its whole sequence at once (a double click is two
# clicks within curses' mouse interval).
sgr() { printf '\033[<%d;%d;%d%s' "$1" "$2" "$3" "$4"; }
x10() { printf '\033[M%b%b%b' "\\0$(printf %o $((32 + $1)))" \
	"\\0$(printf %o $((32 + $2)))" "\\0$(printf %o $((32 + $3)))"; }
press() {
	if [ "$enc" = sgr ]; then sgr 0 "$1" "$2" M; sgr 0 "$1" "$2" m
	else x10 0 "$1" "$2"; x10 3 "$1" "$2"; fi
}
click() {
	if [ -n "$3" ]; then
		tui_text "$(press "$1" "$2"; press "$1" "$2")"
	else
		tui_text "$(press "$1" "$2")"
	fi
}
wheel() {
	b=64
	[ "$1" = down ] && b=65
	if [ "$enc" = sgr ]; then tui_text "$(sgr "$b" "$2" "$3" M)"
	else tui_text "$(x10 "$b" "$2" "$3")"; fi
}
for enc in sgr x10; do
	term=xterm-256color
	[ "$enc" = x10 ] && term=tmux-256color
	tui_start "TERM=$term $PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 2
	tui_wait 'sort: Dev self'
	check "$enc: it asks for the mouse" sh -c "[ \"\$($T display -p -t t '#{mouse_any_flag}#{mouse_standard_flag}')\" != 00 ]"
	click 22 2
	check "$enc: a click on a tab shows it" tui_line 1 'proftui · Kernels · '
	click 42 3
	check "$enc: on a column title sorts by it" tui_wait 'sort: Calls ▼'
	click 42 3
	check "$enc: again reverses" tui_wait 'sort: Calls ▲'
	click 5 6
	check "$enc: on a row selects it" tui_wait ' 3/3 void'
	click 5 5 twice
	check "$enc: a double click drills in" tui_line 1 '› ops'
	tui_keys q 5 '*'
	tui_wait ' 1/'
	wheel down 5 10
	check "$enc: the wheel scrolls" tui_wait ' 4/'
	wheel up 5 10
	check "$enc: and back" tui_wait ' 1/'
	tui_keys 6
	tui_wait '[ProfilerStep#1'
	click 60 4
	check "$enc: on the Timeline a click selects a block" tui_wait ' 11/20 ProfilerStep#2'
	click 60 4 twice
	check "$enc: a double click inspects it" tui_line 1 'Timeline › detail'
done
tui_start "$PROFTUI --no-mouse tests/tui/templates.json"
tui_wait 'proftui · Overview'
tui_keys 2
tui_wait 'sort: Dev self'
check "--no-mouse leaves it to the terminal" sh -c "[ \"\$($T display -p -t t '#{mouse_any_flag}#{mouse_standard_flag}')\" = 00 ]"
cfg=$(mktemp -d /tmp/proftui-cfg-XXXXXX)
mkdir -p "$cfg/proftui"
echo 'set mouse off' >"$cfg/proftui/config"
tui_start "XDG_CONFIG_HOME=$cfg $PROFTUI tests/tui/templates.json"
tui_wait 'proftui · Overview'
tui_keys 2
tui_wait 'sort: Dev self'
check "so does 'set mouse off'" sh -c "[ \"\$($T display -p -t t '#{mouse_any_flag}#{mouse_standard_flag}')\" = 00 ]"
rm -rf "$cfg"
tui_done
