#!/bin/sh
# SPDX-License-Identifier: MIT
# Lint what is not C: the man pages (groff warnings, every action and
# every input format named), and the layering (cli/ -> tui/ -> view/ ->
# parsers/ -> model/; only tui/ sees curses, only view/filter.c sees PCRE2).
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

# Options, both ways: every option --help lists has an entry in the man
# page's OPTIONS, and every entry there is one --help lists, each as
# "-x --long ARG" (--help's "  -x, --long ARG  text" or "      --long ARG
# text"; a .TP tag such as .BR \-x ", " \-\-long " \fIARG\fR").
help_options=$("$PROFTUI" --help | awk '/^  (-[A-Za-z], |    )--[a-z]/ {
	tag = $0; sub(/^ +/, "", tag); sub(/  .*/, "", tag); sub(/,/, "", tag)
	print tag }')
man_options=$(awk '/^\.SH/ { in_options = ($0 == ".SH OPTIONS") }
	in_options && tag { tag = 0; if (/^\.B/) print }
	in_options && /^\.TP/ { tag = 1 }' man/proftui.1 |
	sed -e 's/^\.B[IR]* //' -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/[",]//g' \
		-e 's/  */ /g' -e 's/ $//' | grep '^-')
if [ -z "$help_options" ] || [ -z "$man_options" ]; then
	fail "lint: found no options in --help or in man/proftui.1's OPTIONS"
else
	missing=$(echo "$help_options" | grep -vxF -e "$man_options" | tr '\n' ';')
	[ -z "$missing" ] && pass "lint: every option of --help is in the man page's OPTIONS" ||
		fail "lint: options of --help missing from man/proftui.1's OPTIONS: $missing"
	missing=$(echo "$man_options" | grep -vxF -e "$help_options" | tr '\n' ';')
	[ -z "$missing" ] && pass "lint: every option in the man page's OPTIONS is in --help" ||
		fail "lint: options in man/proftui.1's OPTIONS that --help does not list: $missing"
fi

# The layering, from what the compiler read rather than how an #include is
# spelled ("tui/x.h", "../tui/x.h" and a header that includes another all
# count): the dependency files that -MD wrote beside each object in $O.
# One "OBJECT HEADER" line per dependency, headers with ./ and ../ resolved.
deps=$O/tests/lint-deps
dfiles=
for src in model/*.c parsers/*.c parsers/*/*.c view/*.c tui/*.c cli/*.c fuzz/fuzz-*.c; do
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
layer_check "model/ depends on nothing above it" '^model/[^ ]* (parsers|view|tui|cli)/'
layer_check "parsers/ depends on model/ only" '^parsers/[^ ]* (view|tui|cli)/'
layer_check "no parser depends on the loader (parsers/load.h)" '^parsers/[^ /]+/[^ ]* parsers/load\.h$'
layer_check "view/ depends on parsers/ and model/ only" '^view/[^ ]* (tui|cli)/'
layer_check "tui/ does not depend on cli/" '^tui/[^ ]* cli/'
layer_check "fuzz targets depend on model/ and parsers/ only" '^fuzz/[^ ]* (view|tui|cli)/'
layer_check "only tui/ includes curses" "^(model|parsers|view|cli|fuzz)/[^ ]* .*($curses)"
layer_check "only view/filter.c includes PCRE2" '^[^ ]* .*pcre2\.h$' '^view/filter\.o '
# The rules above pass vacuously on dependency files without system
# headers (-MMD): make sure the ones read list what tui/ really includes.
if grep -q '^view/filter\.o .*/pcre2\.h$' "$deps" && grep -Eq "^tui/[^ ]* .*($curses)" "$deps"; then
	pass "lint: the dependency files list system headers (curses, pcre2.h)"
else
	fail "lint: $O/tui/*.d and $O/view/filter.d do not list curses and pcre2.h; built with -MMD instead of -MD?"
fi

# The pool's layout is private (model/node_pool.h): outside the pool's
# two files (and its own tests, which read the layout), no source names
# the encoding -- a node's or attribute's fields, references, slabs,
# records -- so that a change of layout touches those two files.  What
# struct profile keeps of the pool (its pool and books members, and the
# calls that open and close them) is named by profile.c and profile.h too.
pool_words='time32|name_number|parent_ref|child_ref|next_ref|first_ref|key_number|attr_head'
pool_words="$pool_words|calls_state|has_ids|NODE_(TIME_WIDE|ROOM|CALLS_STATE|NO_CALL|ONE_CALL|COUNTED)"
pool_words="$pool_words|[A-Z_]*SLAB_[A-Z_]+|ATTR_HEAD_PLACES|(node|attr)_slab[a-z_]*|slab_(dir|group)[a-z_]*"
pool_words="$pool_words|node_(place|ref|near|cursor[a-z_]*|span|wide_times|counts_in_table|counts_record)"
pool_words="$pool_words|node_(set_)?time_wide|node_set_counted_calls|pool_(node|attr)_at"
books_words='node_pool|pool_books|books|pool_(open_run|close_run|follow_first_run|number_tree|node_by_handle)'
pool_sources=$(find model parsers tui view cli fuzz bench tests/unit -name '*.[ch]' 2>/dev/null | sort)
# pool_private WHAT WORDS EXCEPT [MORE]: no line of a source outside
# EXCEPT (an extended regex of paths) names a word of WORDS or matches
# MORE (an extended regex).
pool_private() {
	bad=$( (echo "$pool_sources" | grep -Ev "$3" | xargs grep -nwE "$2" /dev/null
		[ -z "$4" ] || echo "$pool_sources" | grep -Ev "$3" | xargs grep -nE "$4" /dev/null
		) 2>/dev/null | head -n 10)
	if [ -z "$bad" ]; then
		pass "lint: $1"
	else
		fail "lint: $1, but"
		echo "$bad"
	fi
}
pool_tests='^tests/unit/t-(profile|node-times)\.c$'
pool_private "only model/node_pool.[ch] name the node pool's encoding" "$pool_words" \
	"^model/node_pool\.[ch]$|$pool_tests"
pool_private "only model/node_pool.[ch] and profile.[ch] reach a profile's pool" "$books_words" \
	"^model/(node_pool|profile)\.[ch]$|$pool_tests" '(->|\.)pool\b'
bad=$(echo "$pool_sources" | grep -v '^model/profile\.h$' | xargs grep -ln '#include.*node_pool\.h' /dev/null)
[ -z "$bad" ] && pass "lint: only model/profile.h includes model/node_pool.h" ||
	fail "lint: model/node_pool.h included by:" $bad

# A pane names another by its id (enum pane_id), never by its hooks: only
# the registry (view/panes.c) refers to a pane file's struct pane_ops, so
# that no view/ file calls into a pane file through them (no cycle).
if command -v nm >/dev/null 2>&1; then
	named=
	for o in "$O"/view/*.o; do
		case $o in */panes.o) continue ;; esac
		for sym in $(nm -u "$o" | awk '$2 ~ /_pane_ops$/ { print $2 }'); do
			named="$named ${o##*/}:$sym"
		done
	done
	[ -z "$named" ] && pass "lint: only view/panes.c refers to a pane's hooks" ||
		fail "lint: view/ files refer to other panes' hooks (name the pane by id):$named"
else
	skip "lint: only view/panes.c refers to a pane's hooks" "nm is not installed"
fi

# The optional hooks of struct pane_ops are read in view/pane.c only,
# where each has its default (pane_empty_text(), pane_status()...); the
# forms of several profiles (view/pane_multi.c) copy them as they are made.
hooks='available|rebuild|row_attrs|row_depth|row_fold|drill|handle|step_changed|bar|legend'
hooks="$hooks|status|empty_text|needs_trace|export_name|detail|canvas|click|hints|chart"
hooks="$hooks|export_json|release|print_drill|group_by|actions|where"
read_at=$(grep -nE "(ops|tree|picture|print|text)(\[[^]]*\])?->($hooks)\b" view/*.c view/*.h tui/*.c \
	tui/*.h cli/*.c cli/*.h | grep -v '^view/pane\.[ch]:' | grep -vE '^view/pane_multi\.c:[0-9]+:\s*(f|print|text)->')
[ -z "$read_at" ] && pass "lint: only view/pane.c reads a pane's optional hooks" || {
	fail "lint: optional pane hooks read outside view/pane.c (use its pane_* functions):"
	echo "$read_at" | head -n 10
}

# The same layers and more from what the linker sees: every symbol a file
# uses and another defines is an edge (tests/callgraph.sh).  No file calls
# (or takes the address of) anything in a layer above its own, and no two
# files call each other, even through others: a cycle means neither can
# be understood, tested or moved alone.

# find_cycles FILE: cycles in the graph whose edges are FILE's lines "A B
# ...", one "a -> b -> a" line each (ten at most).  A depth-first search
# from every node, iterative (awk has no deep recursion): a node reached
# while still on the path closes a cycle.
find_cycles() {
	awk '

$1 != $2 && !seen[$1 " " $2]++ { adj[$1] = adj[$1] " " $2; node[$1]; node[$2] }
END {
	for (start in node) {
		if (color[start])
			continue
		sp = 1; path[1] = start; color[start] = 1; pos[1] = 0
		nn[1] = split(adj[start], nb1, " ")
		for (k = 1; k <= nn[1]; k++) kid[1, k] = nb1[k]
		while (sp > 0) {
			if (pos[sp] >= nn[sp]) {
				color[path[sp]] = 2; sp--
				continue
			}
			v = kid[sp, ++pos[sp]]
			if (color[v] == 1) {
				c = v
				for (k = sp; k >= 1 && path[k] != v; k--)
					c = path[k] " -> " c
				print v " -> " c
				if (++found >= 10)
					exit
			} else if (!color[v]) {
				color[v] = 1; sp++; path[sp] = v; pos[sp] = 0
				nn[sp] = split(adj[v], nb, " ")
				for (k = 1; k <= nn[sp]; k++) kid[sp, k] = nb[k]
			}
		}
	}
}' "$1"
}

calls=$O/tests/lint-calls
sh "$ROOT/tests/callgraph.sh" "$O" >"$calls"
if [ ! -s "$calls" ]; then
	fail "lint: no call graph from $O's objects (nm missing, or nothing built?)"
else
	bad=$(awk '
	function rank(f) {
		if (f ~ /^model\//) return 0
		if (f ~ /^parsers\//) return 1
		if (f ~ /^view\//) return 2
		if (f ~ /^(tui|keymaps)\//) return 3
		return 4
	}
	rank($1) < rank($2) { print $1 " calls " $2 " (" $3 ")" }' "$calls")
	if [ -z "$bad" ]; then
		pass "lint: no file calls into a layer above its own"
	else
		fail "lint: files call into a layer above their own:"
		echo "$bad" | head -n 10
	fi
	cycles=$(find_cycles "$calls")
	if [ -z "$cycles" ]; then
		pass "lint: no call cycle between files"
	else
		fail "lint: files call each other in a cycle:"
		echo "$cycles"
	fi
fi

# Headers include each other one way too: "A B" for each #include "B" in
# A, the path resolved from A's folder.
includes=$O/tests/lint-includes
for f in model/*.[ch] model/*/*.[ch] parsers/*.[ch] parsers/*/*.[ch] view/*.[ch] \
	 tui/*.[ch] cli/*.[ch]; do
	[ -f "$f" ] || continue
	sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" |
	awk -v f="$f" '
	{
		n = split(f, part, "/"); path = ""
		for (i = 1; i < n; i++) path = path part[i] "/"
		n = split(path $0, part, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (part[i] == "." || part[i] == "") continue
			if (part[i] == ".." && k > 0) k--
			else stack[++k] = part[i]
		}
		out = stack[1]
		for (i = 2; i <= k; i++) out = out "/" stack[i]
		print f, out
	}'
done >"$includes"
cycles=$(find_cycles "$includes")
if [ ! -s "$includes" ]; then
	fail "lint: no #include lines found; the include graph is unchecked"
elif [ -z "$cycles" ]; then
	pass "lint: no include cycle between files"
else
	fail "lint: files include each other in a cycle:"
	echo "$cycles"
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
