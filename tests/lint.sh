#!/bin/sh
# SPDX-License-Identifier: MIT
# Lint what is not C: the man pages (groff warnings, every action and
# every input format named), and the layering (tui/ -> parsers/ -> model/;
# only tui/ sees curses, only tui/filter.c sees PCRE2).
. "$(dirname "$0")/test-lib.sh"
need_proftui

if command -v groff >/dev/null 2>&1; then
	for page in man/proftui.1 man/proftui-keys.5; do
		# groff exits 0 on warnings: any output is a failure.
		out=$(groff -man -ww -z "$page" 2>&1)
		if [ -z "$out" ]; then
			pass "lint: $page has no groff warnings"
		else
			fail "lint: $page has groff warnings"
			echo "$out" | head -n 10
		fi
	done
else
	skip "lint: man pages" "groff is not installed"
fi

# The pages as text a reader sees: \- is a hyphen.
pages=$(sed 's/\\-/-/g' man/proftui.1 man/proftui-keys.5)
missing=
for a in $(sed -n 's/^[[:space:]]*X([A-Z_]*, "\([a-z-]*\)".*/\1/p' tui/actions.h); do
	echo "$pages" | grep -q -- "$a" || missing="$missing $a"
done
[ -z "$missing" ] && pass "lint: every action is in the man pages" ||
	fail "lint: actions missing from the man pages:$missing"
missing=
for f in $("$PROFTUI" --list-formats | cut -d' ' -f1); do
	echo "$pages" | grep -q -- "$f" || missing="$missing $f"
done
[ -z "$missing" ] && pass "lint: every input format is in the man page" ||
	fail "lint: formats missing from the man page:$missing"

bad=$(grep -l -E '#include *[<"](n?curses|ncursesw/)' model/*.[ch] parsers/*.[ch] 2>/dev/null)
[ -z "$bad" ] && pass "lint: only tui/ includes curses" || fail "lint: curses included in: $bad"
bad=$(grep -l 'pcre2\.h' model/*.[ch] parsers/*.[ch] tui/*.[ch] 2>/dev/null | grep -v '^tui/filter\.c$')
[ -z "$bad" ] && pass "lint: only tui/filter.c includes PCRE2" || fail "lint: pcre2.h included in: $bad"
bad=$(grep -l -E '#include *"\.\./(parsers|tui)/' model/*.[ch] 2>/dev/null)
[ -z "$bad" ] && pass "lint: model/ depends on nothing above it" || fail "lint: model/ includes: $bad"
bad=$(grep -l -E '#include *"\.\./tui/' parsers/*.[ch] 2>/dev/null)
[ -z "$bad" ] && pass "lint: parsers/ does not include tui/" || fail "lint: parsers/ includes tui/: $bad"
test_done
