#!/bin/sh
# SPDX-License-Identifier: MIT
# Lint what is not C: the man pages (groff warnings, every action and
# every input format named), and the layering (tui/ -> parsers/ -> model/;
# only tui/ sees curses, only tui/filter.c sees PCRE2).
. "$(dirname "$0")/test-lib.sh"
need_proftui

if command -v groff >/dev/null 2>&1; then
	for page in man/proftui.1 man/proftui-keys.5 man/proftui-summary.5 man/proftui-config.5; do
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
# Actions and panes as the binary knows them (some are made from the
# PANES list, so a grep of the headers would miss them).
missing=
actions=$("$PROFTUI" --list-actions | cut -d' ' -f1)
[ -n "$actions" ] || fail "lint: --list-actions lists nothing"
for a in $actions; do
	echo "$pages" | grep -q -- "$a" || missing="$missing $a"
done
[ -z "$missing" ] && pass "lint: every action is in the man pages" ||
	fail "lint: actions missing from the man pages:$missing"
missing=
for p in $("$PROFTUI" --list-panes | cut -d' ' -f1); do
	echo "$pages" | grep -q -- "$p" || missing="$missing $p"
done
[ -z "$missing" ] && pass "lint: every pane is in the man page" ||
	fail "lint: panes missing from the man page:$missing"
missing=
for f in $("$PROFTUI" --list-formats | cut -d' ' -f1); do
	echo "$pages" | grep -q -- "$f" || missing="$missing $f"
done
[ -z "$missing" ] && pass "lint: every input format is in the man page" ||
	fail "lint: formats missing from the man page:$missing"

# The layering, from what the compiler read rather than how an #include is
# spelled ("tui/x.h", "../tui/x.h" and a header that includes another all
# count): the dependency files that -MD wrote beside each object in $O.
# One "OBJECT HEADER" line per dependency, headers with ./ and ../ resolved.
deps=$O/tests/lint-deps
dfiles=
for src in model/*.c parsers/*.c parsers/*/*.c tui/*.c fuzz/fuzz-*.c; do
	[ -f "$src" ] || continue
	d=$O/${src%.c}.d
	if [ -f "$d" ]; then
		dfiles="$dfiles $d"
	else
		fail "lint: no $d; the layering is unchecked without it (make builds it)"
	fi
done
# The build directory is ours: its paths have no blanks.
# shellcheck disable=SC2086
awk -v O="$O/" -v ROOT="$ROOT/" '
function resolve(path,    n, i, part, out, k, stack) {
	if (index(path, ROOT) == 1)
		path = substr(path, length(ROOT) + 1)
	n = split(path, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || (part[i] == "" && i > 1))
			continue
		if (part[i] == ".." && k > 0 && stack[k] != "..")
			k--
		else
			stack[++k] = part[i]
	}
	out = stack[1]
	for (i = 2; i <= k; i++)
		out = out "/" stack[i]
	return out
}
FNR == 1 { obj = substr(FILENAME, length(O) + 1); sub(/\.d$/, ".o", obj); in_rule = 1 }
in_rule {
	line = $0
	more = sub(/\\$/, "", line)
	n = split(line, word, /[ \t]+/)
	for (i = 1; i <= n; i++)
		if (word[i] != "" && word[i] !~ /:$/)
			print obj, resolve(word[i])
	in_rule = more
}' /dev/null $dfiles >"$deps"

# layer_check WHAT PATTERN [EXCEPT]: no "OBJECT HEADER" line matches
# PATTERN (an extended regex) unless it matches EXCEPT; WHAT is the rule.
layer_check() {
	bad=$(grep -E "$2" "$deps" | grep -Ev "${3:-^$}" | sed 's/ / includes /')
	if [ -z "$bad" ]; then
		pass "lint: $1"
	else
		fail "lint: $1, but"
		echo "$bad" | head -n 10
	fi
}
curses='(^|/)(n?curses[^/]*|term|unctrl)\.h$|/ncursesw?/'
layer_check "model/ depends on nothing above it" '^model/[^ ]* (parsers|tui)/'
layer_check "parsers/ does not depend on tui/" '^parsers/[^ ]* tui/'
layer_check "no parser depends on the loader (parsers/load.h)" '^parsers/[^ /]+/[^ ]* parsers/load\.h$'
layer_check "fuzz targets depend on model/ and parsers/ only" '^fuzz/[^ ]* tui/'
layer_check "only tui/ includes curses" "^(model|parsers|fuzz)/[^ ]* .*($curses)"
layer_check "only tui/filter.c includes PCRE2" '^[^ ]* .*pcre2\.h$' '^tui/filter\.o '
# The rules above pass vacuously on dependency files without system
# headers (-MMD): make sure the ones read list what tui/ really includes.
if grep -q '^tui/filter\.o .*/pcre2\.h$' "$deps" && grep -Eq "^tui/[^ ]* .*($curses)" "$deps"; then
	pass "lint: the dependency files list system headers (curses, pcre2.h)"
else
	fail "lint: $O/tui/*.d do not list curses and pcre2.h; built with -MMD instead of -MD?"
fi

# What the code cites is in a clone: the original brief's documents
# (FORMATS.md, DESIGN.md, STYLE.md) are not, so their notes live beside the
# code (doc/formats/, ARCHITECTURE.md, HACKING.md) and are cited there.
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
	skip "lint: the code cites only documents in the repository" "not a git checkout"
else
	cited=$(git grep -n -E '(FORMATS|DESIGN|STYLE)\.md' -- ':!tests/lint.sh' | head -n 5)
	if [ -z "$cited" ]; then
		pass "lint: the code cites only documents in the repository"
	else
		fail "lint: the code cites documents a clone does not have:"
		echo "$cited"
	fi
fi
test_done
