#!/bin/sh
# The signals that end proftui without ncurses' help -- SIGQUIT (Ctrl-\),
# SIGHUP (the SSH link drops), SIGSEGV, SIGABRT -- leave the terminal as
# the shell had it (modes, normal screen, cursor), and proftui dies by the
# signal itself, as the shell's $? shows.
. "$(dirname "$0")/lib.sh"
F=tests/golden/kineto/two-steps.json
sane='echo "MODES: $(stty -a | tr " " "\n" | grep -x -e echo -e icanon -e ixon | tr "\n" " ")."'
tui_start "env PS1='prompt\$ ' sh -i"
tui_wait 'prompt$'
# No core files in the work tree.
tui_text 'ulimit -c 0; clear'
tui_keys Enter

# screen_state: the pane's alternate-screen and cursor flags, from tmux.
screen_state() { $T display -p -t t 'alternate=#{alternate_on} cursor=#{cursor_flag}'; }
normal_screen() { [ "$(screen_state)" = 'alternate=0 cursor=1' ]; }

# after SIGNAL STATUS HOW...: start proftui (with $env before it), end
# it with HOW, check.
env=
after() {
	sig=$1 status=$2
	shift 2
	tui_keys C-u
	tui_text "clear; $env $PROFTUI $F; echo \"[status \$?]\""
	tui_keys Enter
	tui_wait 'Step time (2 steps)'
	check "SIG$sig: proftui took the alternate screen" tui_until 'the alternate screen' \
		eval '[ "$(screen_state)" = "alternate=1 cursor=0" ]'
	"$@"
	check "SIG$sig ends proftui by the signal (status $status)" tui_wait "[status $status]"
	check "SIG$sig: the normal screen, the cursor shown" tui_until 'the normal screen' normal_screen
	tui_text "$sane"
	tui_keys Enter
	check "SIG$sig: the terminal modes are the shell's" tui_wait 'MODES: ixon icanon echo .'
}

# proftui, the child of the interactive shell under the pane's own shell.
send() {
	shell=$($T display -p -t t '#{pane_pid}')
	kill -"$1" $(pgrep -P "$(pgrep -P "$shell")")
}

after QUIT 131 tui_keys 'C-\'
after HUP 129 send HUP
# Under ASan (make asan) a SIGSEGV is ASan's to report as a memory error,
# which kill -SEGV is not: the handler chains to ASan's when it is there.
env="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
after SEGV 139 send SEGV
env=
after ABRT 134 send ABRT
tui_done
