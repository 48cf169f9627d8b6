#!/bin/sh
# SPDX-License-Identifier: MIT
# `make wheel`'s wheel ($O/proftui-*.whl; `make check` builds it) in a
# fresh venv, installed offline: `proftui` on PATH is the static binary
# itself, `python -m proftui` becomes that binary (the same process: exit
# status and signals its own), both print what the dynamic build prints,
# and pip uninstall takes it away.  Skipped where the wheel cannot be
# built (no static libraries, no python3-wheel) or in a build directory
# that does not build it (make asan, make wide), or without python3-venv.
. "$(dirname "$0")/../test-lib.sh"
need_proftui
static=$O/static/proftui
tmp=$O/tests/wheel
rm -rf "$tmp"
mkdir -p "$tmp"

set -- "$O"/proftui-*.whl
whl=$1
if [ $# -ne 1 ] || [ ! -f "$whl" ]; then
	if [ $# -gt 1 ]; then
		fail "wheel: one wheel in $O ($*)"
	else
		skip "wheel: make wheel" "no wheel in ${O#"$ROOT"/} (make wheel: needs make static's libraries and python3-wheel; asan and wide do not build it)"
	fi
	test_done
fi
# A python with venv and its pip (Debian: python3-venv).
py=
for p in python3 /usr/bin/python3; do
	if "$p" -m venv "$tmp/venv" >"$tmp/venv.log" 2>&1 && [ -x "$tmp/venv/bin/pip" ]; then
		py=$p
		break
	fi
	rm -rf "$tmp/venv"
done
if [ -z "$py" ]; then
	skip "wheel: a fresh venv" "no python3 here makes one with pip (python3-venv: make deps)"
	test_done
fi
venv=$tmp/venv
version=$("$static" --version | awk '{ print $2 }')
case ${whl##*/} in
"proftui-$version-py3-none-"*manylinux*_x86_64*.whl)
	pass "wheel: named for proftui $version and manylinux x86-64 (${whl##*/})" ;;
*) fail "wheel: named for proftui $version and manylinux x86-64 (${whl##*/})" ;;
esac

if env PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 \
	"$venv/bin/pip" install --no-index --no-deps "$whl" >"$tmp/pip.log" 2>&1; then
	pass "wheel: pip install --no-index into a fresh venv ($py)"
else
	fail "wheel: pip install --no-index into a fresh venv ($py)"
	cat "$tmp/pip.log"
	test_done
fi

# proftui on PATH, as pip's bin/ puts it: the binary itself.
got=$(env -i PATH="$venv/bin:/usr/bin:/bin" sh -c 'command -v proftui')
if [ "$got" = "$venv/bin/proftui" ] && cmp -s "$got" "$static"; then
	pass "wheel: proftui on PATH is the static binary, no wrapper"
else
	fail "wheel: proftui on PATH is the static binary, no wrapper ($got)"
fi
# same WHAT CMD...: CMD prints what the dynamic build prints with the
# arguments after CMD's own words, stdout, stderr and exit status.
same() {
	what=$1 n=$2
	shift 2
	env -i PATH="$venv/bin:/usr/bin:/bin" TERM=xterm "$@" >"$tmp/w.out" 2>"$tmp/w.err" </dev/null
	wrc=$?
	shift "$n"
	env -i TERM=xterm "$PROFTUI" "$@" >"$tmp/d.out" 2>"$tmp/d.err" </dev/null
	drc=$?
	# --version names the build: the static one's is its own.
	if [ "$1" = --version ]; then
		"$static" --version >"$tmp/d.out"
	fi
	if [ "$wrc" -eq "$drc" ] && cmp -s "$tmp/w.out" "$tmp/d.out" &&
	   cmp -s "$tmp/w.err" "$tmp/d.err"; then
		pass "wheel: $what"
	else
		fail "wheel: $what (exit $wrc, $drc)"
		diff "$tmp/d.out" "$tmp/w.out" | head -n 10
		diff "$tmp/d.err" "$tmp/w.err" | head -n 10
	fi
}
sample=tests/samples/sample.pt.trace.json.gz
same "proftui --version" 1 proftui --version
same "proftui --print ops $sample" 1 proftui --print ops "$sample"
same "python -m proftui --version" 3 "$venv/bin/python" -m proftui --version
same "python -m proftui --print kernels $sample" 3 "$venv/bin/python" -m proftui --print kernels "$sample"
same "python -m proftui's exit status on a missing file" 3 "$venv/bin/python" -m proftui --print ops "$tmp/no-such-file"
same "python -m proftui's exit status on a bad option" 3 "$venv/bin/python" -m proftui --no-such-option

# python -m proftui becomes the binary: the process it started is
# proftui (its /proc/PID/exe), and a signal to it ends proftui.
if [ -d /proc/self ]; then
	mkfifo "$tmp/fifo"
	"$venv/bin/python" -m proftui --print ops - <"$tmp/fifo" >/dev/null 2>&1 &
	pid=$!
	exec 3>"$tmp/fifo"
	i=0
	until [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$venv/bin/proftui" ]; do
		i=$((i + 1))
		[ "$i" -le 200 ] || break
		sleep 0.05
	done
	exe=$(readlink "/proc/$pid/exe" 2>/dev/null)
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	exec 3>&-
	if [ "$exe" = "$venv/bin/proftui" ] && [ "$rc" -eq 143 ]; then
		pass "wheel: python -m proftui execs the binary (same process; SIGTERM ends it, 143)"
	else
		fail "wheel: python -m proftui execs the binary (exe $exe, exit $rc)"
	fi
fi

if "$venv/bin/pip" uninstall -y proftui >"$tmp/pip.log" 2>&1 &&
   [ ! -e "$venv/bin/proftui" ] && ! "$venv/bin/python" -c 'import proftui' 2>/dev/null; then
	pass "wheel: pip uninstall removes the binary and the package"
else
	fail "wheel: pip uninstall removes the binary and the package"
fi
test_done
