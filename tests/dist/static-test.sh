#!/bin/sh
# SPDX-License-Identifier: MIT
# `make static`'s binary ($O/static/proftui; `make check` builds it) on a
# machine that has none of the libraries: statically linked, run with an
# empty environment but TERM (and a terminfo path), it prints what the
# dynamic build prints on every golden case and the samples, opens the
# TUI in tmux with wide characters where the locale is UTF-8 and ASCII
# where it is not, and names a terminal it has no entry for instead of
# failing.  Skipped only where a static library is missing, or in a build
# directory that does not build it (make asan, make wide).
. "$(dirname "$0")/../test-lib.sh"
need_proftui
static=${STATIC_PROFTUI:-$O/static/proftui}
tmp=$O/tests/static
rm -rf "$tmp"
mkdir -p "$tmp"

if [ ! -x "$static" ]; then
	missing=
	for l in ncursesw tinfo pcre2-8 z c m pthread; do
		case $(${CC:-cc} -print-file-name=lib$l.a) in
		/*) ;;
		*) missing="$missing lib$l.a" ;;
		esac
	done
	if [ -n "$missing" ]; then
		skip "static: make static" "no$missing to link with: the -dev packages, make deps"
	else
		skip "static: make static" "$static not built here (make static O=${O#"$ROOT"/}; make check builds it, asan and wide do not)"
	fi
	test_done
fi

# Linked statically.
if command -v ldd >/dev/null 2>&1; then
	if ldd "$static" 2>&1 | grep -q 'not a dynamic executable'; then
		pass "static: ldd calls it not a dynamic executable"
	else
		fail "static: ldd calls it not a dynamic executable ($(ldd "$static" 2>&1 | head -n 3))"
	fi
fi
if LC_ALL=C readelf -l "$static" 2>/dev/null | grep -q INTERP; then
	fail "static: no program interpreter (ld.so) in its headers"
else
	pass "static: no program interpreter (ld.so) in its headers"
fi

# run ARGS...: the static binary with nothing but TERM and no library
# path; srun: the dynamic one the same way.
run() { env -i TERM=xterm LD_LIBRARY_PATH= "$static" "$@"; }
drun() { env -i TERM=xterm "$PROFTUI" "$@"; }

v=$(run --version)
case $v in
"proftui "*" (static; terminfo from "*"; gzip: "*")") pass "static: --version says static ($v)" ;;
*) fail "static: --version says static ($v)" ;;
esac
dv=$(drun --version)
if [ "${v%% (*}" = "${dv%% (*}" ]; then
	pass "static: the dynamic build's version"
else
	fail "static: the dynamic build's version ($v, $dv)"
fi
# The directories it names are those compiled into its tinfo: in the
# binary's own bytes, not only in the line --version prints.
dirs=${v#*"\$TERMINFO_DIRS, "}
dirs=${dirs%%"; gzip:"*}
case $dirs in
/*) if grep -aqF "$dirs" "$static"; then
	pass "static: its tinfo searches $dirs"
    else
	fail "static: its tinfo searches $dirs (not in the binary)"
    fi ;;
*) fail "static: --version names the terminfo directories ($dirs)" ;;
esac

# The same bytes as the dynamic build, stdout, stderr and status, on every
# golden case (its arguments split on blanks as tests/golden/run.sh does)
# and every pane of the samples.
compare() {
	what=$1
	shift
	run "$@" >"$tmp/s.out" 2>"$tmp/s.err" </dev/null
	src=$?
	drun "$@" >"$tmp/d.out" 2>"$tmp/d.err" </dev/null
	drc=$?
	if [ "$src" -eq "$drc" ] && cmp -s "$tmp/s.out" "$tmp/d.out" &&
	   cmp -s "$tmp/s.err" "$tmp/d.err"; then
		return 0
	fi
	echo "static: differs from the dynamic build (exit $src/$drc): $*"
	diff "$tmp/d.out" "$tmp/s.out" | head -n 10
	diff "$tmp/d.err" "$tmp/s.err" | head -n 10
	nr_diff=$((nr_diff + 1))
	return 1
}
nr=0 nr_diff=0
for t in tests/golden/*/*.t; do
	[ -f "$t" ] || continue
	nr=$((nr + 1))
	# shellcheck disable=SC2046
	compare "$t" $(cat "$t")
done
if [ "$nr" -gt 0 ] && [ "$nr_diff" -eq 0 ]; then
	pass "static: the dynamic build's output on all $nr golden cases"
else
	fail "static: the dynamic build's output on the golden cases ($nr_diff of $nr differ)"
fi
nr=0 nr_diff=0
for f in tests/samples/*; do
	[ -f "$f" ] || continue
	for p in ops kernels overview; do
		nr=$((nr + 1))
		compare "$f" --print "$p" "$f"
	done
done
if [ "$nr" -gt 0 ] && [ "$nr_diff" -eq 0 ]; then
	pass "static: --print ops, kernels, overview on the samples as the dynamic build"
else
	fail "static: --print on the samples ($nr_diff of $nr differ)"
fi

# The TUI, in tmux, with an empty environment: a terminal it knows, one
# whose entry is only under $TERMINFO_DIRS (as on a distribution that
# keeps them elsewhere), and one it has none for.
if ! command -v tmux >/dev/null 2>&1; then
	skip "static: the TUI" "tmux is not installed"
	test_done
fi
sock=proftui-static-$$
T="tmux -L $sock -f $ROOT/tests/tui/tmux.conf"
test_cleanup() {
	$T kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
}
# tui ENV...: the sample (or $file) under env -i ENV, in a fresh session.
tui() {
	$T kill-session -t t 2>/dev/null
	$T new-session -d -x 100 -y 24 -c "$ROOT" -s t \
		"env -i LD_LIBRARY_PATH= $* $static ${file:-tests/samples/sample.pt.trace.json.gz}; echo \"[exit \$?]\"; sleep 60"
}
screen() { $T capture-pane -p -t t; }
# wait_for TEXT: until TEXT is on the screen, 10 s at most.
wait_for() {
	i=0
	until screen | grep -qF -- "$1"; do
		i=$((i + 1))
		if [ "$i" -gt 200 ]; then
			screen >&2
			return 1
		fi
		sleep 0.05
	done
}
quit() {
	$T send-keys -t t q
	wait_for '[exit 0]'
}

tui TERM=xterm LANG=C.UTF-8
if wait_for 'proftui · Overview' && wait_for 'GPU 0' && quit; then
	pass "static: the TUI in UTF-8 (C.UTF-8) with only TERM and LANG set"
else
	fail "static: the TUI in UTF-8 (C.UTF-8) with only TERM and LANG set"
fi
tui TERM=xterm
if wait_for 'proftui - Overview' && wait_for 'GPU 0' && quit; then
	pass "static: the TUI in ASCII with no locale set"
else
	fail "static: the TUI in ASCII with no locale set"
fi
# An entry only under a directory of our own, named by $TERMINFO_DIRS.
ti=$tmp/terminfo
entry=$(find /usr/share/terminfo /lib/terminfo /etc/terminfo -name xterm-256color 2>/dev/null | head -n 1)
if [ -n "$entry" ]; then
	mkdir -p "$ti/p"
	cp "$entry" "$ti/p/proftui-test-term"
	tui TERM=proftui-test-term TERMINFO_DIRS=$ti LANG=C.UTF-8
	if wait_for 'proftui · Overview' && quit; then
		pass "static: a terminal whose entry is under \$TERMINFO_DIRS"
	else
		fail "static: a terminal whose entry is under \$TERMINFO_DIRS"
	fi
else
	skip "static: \$TERMINFO_DIRS" "no xterm-256color entry to copy"
fi
# A terminal it has no entry for: the pane printed as to a pipe (proftui(1),
# TERM), never a crash, after a line that says why.  (A pane short enough
# that the line stays on the screen: tmux keeps no history here.)
file=tests/golden/kineto/two-steps.json
tui TERM=proftui-no-such-term LANG=C.UTF-8
if wait_for 'TERM=proftui-no-such-term: no terminfo entry found' &&
   wait_for '[exit 0]'; then
	pass "static: a terminal without an entry is named, and the pane printed"
else
	fail "static: a terminal without an entry is named, and the pane printed"
fi
test_done
