# SPDX-License-Identifier: MIT
# Helpers for the end-to-end TUI tests: the real binary in a private tmux
# server at 80x24; every step waits for text on the screen instead of
# sleeping.  A test file sources this by its own path,
#	. "$(dirname "$0")/lib.sh"
# then calls tui_start, tui_keys, tui_wait, check, tui_expect... and ends
# with tui_done.  tests/test-lib.sh, sourced here, sets ROOT (the working
# directory of the test and of its tmux sessions), O and PROFTUI.
#
# A wait or a screen comparison inside `check` is one PASS or FAIL; outside
# it, it is a step the rest of the test needs, so a timeout is a FAIL that
# ends the test (git's test-lib: nothing fails unseen).
. "$(dirname "$0")/../test-lib.sh"
OUT=$O/tests/tui
mkdir -p "$OUT"
name=$(basename "$0" .sh)
sock=proftui-test-$$-$name
T="tmux -L $sock -f $ROOT/tests/tui/tmux.conf"

if ! command -v tmux >/dev/null 2>&1; then
	skip "tui: $name" "tmux is not installed"
	test_done
fi
need_proftui
# The server leaves its socket behind when it is killed.
test_cleanup() {
	$T kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
}

# A UTF-8 locale for the program: C.UTF-8 is on every glibc system.
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR

# tui_start [-x W] [-y H] COMMAND...: a new session running COMMAND in
# $ROOT.  The shell after it keeps the pane open, so the exit can be
# checked.
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
	$T new-session -d -x "$w" -y "$h" -c "$ROOT" -s t "$*; echo \"[exit \$?]\"; sleep 60"
}
tui_keys() { $T send-keys -t t "$@"; }
tui_text() { $T send-keys -t t -l "$1"; }
tui_screen() { $T capture-pane -p -t t; }
tui_resize() { $T resize-window -t t -x "$1" -y "$2"; }

# poll COMMAND...: until COMMAND succeeds, 10 s at most (a loaded machine
# running ASan is slow; a passing wait returns at once).
poll() {
	i=0
	until "$@"; do
		i=$((i + 1))
		[ "$i" -le 200 ] || return 1
		sleep 0.05
	done
}
# step_failed WHAT: a wait or comparison did not come true.  Inside check
# that is its FAIL; outside, the test cannot go on.
step_failed() {
	[ -n "$in_check" ] && return 1
	fail "tui: $name: $1"
	tui_done
}
# tui_until WHAT COMMAND...: poll, and on a timeout say what was awaited
# and show the screen.
tui_until() {
	until_what=$1
	shift
	poll "$@" && return
	echo "timeout waiting for $until_what; the screen was:" >&2
	tui_screen | awk 'NF { while (nr_blank) { print ""; nr_blank-- } print; next }
		{ nr_blank++ }' >&2
	step_failed "timeout waiting for $until_what"
}
on_screen() { tui_screen | grep -qF -- "$1"; }
off_screen() { ! on_screen "$1"; }
on_line() { tui_screen | sed -n "${1}p" | grep -qF -- "$2"; }
# tui_wait TEXT: until TEXT is on screen; tui_gone TEXT: until it is not;
# tui_line N TEXT: until line N (from 1) holds TEXT.
tui_wait() { tui_until "'$1'" on_screen "$1"; }
tui_gone() { tui_until "'$1' to go" off_screen "$1"; }
tui_line() { tui_until "'$2' on line $1" on_line "$1" "$2"; }

# tui_expect NAME: until the screen is tests/tui/expected/NAME.screen, so
# a redraw still under way (a resize on a loaded machine) is waited for,
# never slept for.  With UPDATE_GOLDEN (make golden) it records the screen
# instead, once it equals the old one or has held still for half a second.
tui_expect() {
	expected=$ROOT/tests/tui/expected/$1.screen
	actual=$OUT/$1.screen
	if [ -n "$UPDATE_GOLDEN" ]; then
		nr_still=0
		: >"$actual"
		poll screen_settled "$actual" "$expected" &&
			cp "$actual" "$expected" && return
		step_failed "the screen for $1 never held still"
		return
	fi
	poll screen_is "$actual" "$expected" && return
	diff -u "$expected" "$actual" >&2
	step_failed "the screen is not $expected"
}
screen_is() { tui_screen >"$1" && cmp -s "$1" "$2"; }
screen_settled() {
	tui_screen >"$1.new" || return 1
	if cmp -s "$1.new" "$1"; then
		nr_still=$((nr_still + 1))
	else
		nr_still=0
		mv "$1.new" "$1"
	fi
	[ "$nr_still" -ge 10 ] || cmp -s "$1" "$2"
}

# check DESCRIPTION COMMAND...: one PASS or FAIL line.
check() {
	check_what=$1
	shift
	in_check=t
	if "$@"; then
		pass "tui: $name: $check_what"
	else
		fail "tui: $name: $check_what"
	fi
	in_check=
}
tui_done() {
	test_cleanup
	test_done
}
