#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install PREFIX=DIR` and `make uninstall` by a user without root
# (nobody, through setpriv, when the suite runs as root): the binary and
# the man pages land under DIR, the installed binary prints what the
# build's prints, man finds the page (by -M and from PATH, as for
# ~/.local), DESTDIR stages under its own root, and uninstall removes
# exactly the files install wrote.
. "$(dirname "$0")/../test-lib.sh"
need_proftui
tmp=$O/tests/install
rm -rf "$tmp"
mkdir -p "$tmp/home"

# as_user CMD...: CMD as a user who is not root, with a plain environment.
if [ "$(id -u)" -ne 0 ]; then
	as_user() { env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$@"; }
	who=$(id -un)
elif command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	as_user() {
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
			env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$@"
	}
	who=nobody
	chown -R nobody "$tmp"
	if ! as_user test -r "$ROOT/Makefile" -a -x "$PROFTUI" -a -w "$tmp"; then
		skip "install: as nobody" "nobody cannot read $ROOT or run $PROFTUI"
		test_done
	fi
else
	skip "install: as a user without root" "running as root without setpriv or a nobody user"
	test_done
fi

prefix=$tmp/prefix
want="bin/proftui
share/man/man1/proftui.1
share/man/man5/proftui-config.5
share/man/man5/proftui-keys.5
share/man/man5/proftui-summary.5"
files() { (cd "$1" 2>/dev/null && find . -type f | sed 's|^\./||' | sort); }

if as_user make -s -C "$ROOT" O="$O" PROFTUI= install PREFIX="$prefix" >"$tmp/make.log" 2>&1; then
	pass "install: make install PREFIX=... as $who"
else
	fail "install: make install PREFIX=... as $who"
	cat "$tmp/make.log"
	test_done
fi
if [ "$(files "$prefix")" = "$want" ]; then
	pass "install: the binary and the four man pages under PREFIX"
else
	fail "install: the binary and the four man pages under PREFIX: $(files "$prefix" | tr '\n' ' ')"
fi
if [ -x "$prefix/bin/proftui" ] && [ "$(stat -c %a "$prefix/share/man/man1/proftui.1")" = 644 ]; then
	pass "install: the binary executable, the pages 644"
else
	fail "install: the binary executable, the pages 644"
fi
sample=tests/samples/sample.pt.trace.json.gz
as_user "$prefix/bin/proftui" --print ops "$sample" >"$tmp/i.out" 2>&1
irc=$?
"$PROFTUI" --print ops "$sample" >"$tmp/d.out" 2>&1
drc=$?
if [ "$irc" -eq "$drc" ] && cmp -s "$tmp/i.out" "$tmp/d.out"; then
	pass "install: the installed binary prints what the build's prints"
else
	fail "install: the installed binary prints what the build's prints (exit $irc, $drc)"
fi
if command -v man >/dev/null 2>&1; then
	if as_user env MANPAGER=cat MANWIDTH=80 man -M "$prefix/share/man" proftui 2>"$tmp/man.err" |
	   grep -q 'proftui \- explore deep-learning profiler output'; then
		pass "install: man -M PREFIX/share/man proftui"
	else
		fail "install: man -M PREFIX/share/man proftui ($(head -n 2 "$tmp/man.err"))"
	fi
	# man-db maps each PATH directory's ../share/man: PREFIX/bin on PATH
	# is all ~/.local needs.
	got=$(as_user env PATH="$prefix/bin:/usr/bin:/bin" man -w proftui-keys 2>/dev/null)
	if [ "$got" = "$prefix/share/man/man5/proftui-keys.5" ]; then
		pass "install: man finds the pages from PREFIX/bin on PATH"
	else
		fail "install: man finds the pages from PREFIX/bin on PATH ($got)"
	fi
else
	skip "install: man" "man is not installed"
fi

# A package's staging root: PREFIX inside DESTDIR, nothing outside.
stage=$tmp/stage
if as_user make -s -C "$ROOT" O="$O" PROFTUI= install DESTDIR="$stage" PREFIX=/usr \
	>"$tmp/make.log" 2>&1 && [ "$(files "$stage/usr")" = "$want" ] &&
   [ "$(files "$stage" | grep -vc '^usr/')" -eq 0 ]; then
	pass "install: DESTDIR=... PREFIX=/usr stages under DESTDIR/usr"
else
	fail "install: DESTDIR=... PREFIX=/usr stages under DESTDIR/usr"
	cat "$tmp/make.log"
fi

# uninstall removes what install wrote, and nothing else there.
echo keep >"$prefix/bin/other"
if as_user make -s -C "$ROOT" O="$O" PROFTUI= uninstall PREFIX="$prefix" >"$tmp/make.log" 2>&1 &&
   [ "$(files "$prefix")" = bin/other ] &&
   as_user make -s -C "$ROOT" O="$O" PROFTUI= uninstall DESTDIR="$stage" PREFIX=/usr \
	>>"$tmp/make.log" 2>&1 && [ -z "$(files "$stage")" ]; then
	pass "install: make uninstall removes exactly what install wrote"
else
	fail "install: make uninstall removes exactly what install wrote: $(files "$prefix" | tr '\n' ' ')"
	cat "$tmp/make.log"
fi
test_done
