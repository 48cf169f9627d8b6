# SPDX-License-Identifier: MIT
# Helpers for the end-to-end TUI tests: the real binary in a private tmux
# server at 80x24; every step waits for text on the screen instead of
# sleeping.  A test file sources this, then calls tui_start, tui_keys,
# tui_wait, tui_expect... and ends with tui_done.
PROFTUI=${PROFTUI:-build/proftui}
O=${O:-build}
OUT=$O/tests/tui
mkdir -p "$OUT"
name=$(basename "$0" .sh)
sock=proftui-test-$$-$name
T="tmux -L $sock -f tests/tui/tmux.conf"
failed=0

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tui: $name (tmux is not installed)"
	exit 0
fi
trap '$T kill-server 2>/dev/null' EXIT

# A UTF-8 locale for the program: C.UTF-8 is on every glibc system.
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR

# tui_start [-x W] [-y H] COMMAND...: a new session running COMMAND.  The
# shell after it keeps the pane open, so the exit can be checked.
tui_start() {
	w=80 h=24
	while :; do
		case $1 in
		-x) w=$2; shift 2 ;;
		-y) h=$2; shift 2 ;;
		*) break ;;
		esac
	done
	# A second start in one test replaces the session, not the server
	# (a new server right after kill-server can lose the race).
	$T kill-session -t t 2>/dev/null
	$T new-session -d -x "$w" -y "$h" -s t "$*; echo \"[exit \$?]\"; sleep 60"
}
tui_line() { tui_until "'$2' on line $1" on_line "$1" "$2"; }
tui_keys() { $T send-keys -t t "$@"; }
tui_text() { $T send-keys -t t -l "$1"; }
tui_screen() { $T capture-pane -p -t t; }
# tui_until WHAT COMMAND...: until COMMAND succeeds (5 s at most); WHAT
# says what was awaited when it does not.
tui_until() {
	what=$1
	shift
	i=0
	until "$@"; do
		i=$((i + 1))
		if [ "$i" -gt 100 ]; then
			echo "timeout waiting for $what; the screen was:" >&2
			tui_screen >&2
			return 1
		fi
		sleep 0.05
	done
}
on_screen() { tui_screen | grep -qF -- "$1"; }
off_screen() { ! on_screen "$1"; }
on_line() { tui_screen | sed -n "${1}p" | grep -qF -- "$2"; }
# tui_wait TEXT: until TEXT is on screen; tui_gone TEXT: until it is not;
# tui_line N TEXT: until line N (from 1) holds TEXT.
tui_wait() { tui_until "'$1'" on_screen "$1"; }
tui_gone() { tui_until "'$1' to go" off_screen "$1"; }
# tui_expect NAME: the screen equals tests/tui/expected/NAME.screen.
tui_expect() {
	tui_screen >"$OUT/$1.screen"
	if [ -n "$UPDATE_GOLDEN" ]; then
		cp "$OUT/$1.screen" "tests/tui/expected/$1.screen"
	fi
	diff -u "tests/tui/expected/$1.screen" "$OUT/$1.screen" >&2
}
# check DESCRIPTION COMMAND...: one PASS or FAIL line.
check() {
	what=$1
	shift
	if "$@"; then
		echo "PASS: tui: $name: $what"
	else
		echo "FAIL: tui: $name: $what"
		failed=1
	fi
}
tui_resize() { $T resize-window -t t -x "$1" -y "$2"; }
tui_done() {
	$T kill-server 2>/dev/null
	exit $failed
}
