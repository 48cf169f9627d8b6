#!/bin/sh
# SPDX-License-Identifier: MIT
# callgraph.sh O: the file-level call graph of the objects under O, from
# what each object defines and what it leaves undefined (nm), with one
# edge "A B SYMBOL" per file A that uses a symbol file B defines.  Sourced
# by tests/lint.sh, which checks that no edge goes up a layer and that the
# graph has no cycle; run alone it prints the edges.  Calls and data
# references both count: a table of another file's functions is a call.
O=${1:-build}
for o in "$O"/model/*.o "$O"/model/*/*.o "$O"/parsers/*.o "$O"/parsers/*/*.o \
	 "$O"/view/*.o "$O"/tui/*.o "$O"/cli/*.o "$O"/keymaps/builtin.o; do
	[ -f "$o" ] || continue
	src=${o#"$O"/}
	src=${src%.o}
	# An object whose source is gone (a moved file) is not the program's.
	[ -f "$src.c" ] || [ "$src" = keymaps/builtin ] || continue
	nm -g --defined-only "$o" | awk -v f="$src" 'NF == 3 { print "D", f, $3 }'
	nm -u "$o" | awk -v f="$src" '{ print "U", f, $NF }'
done | awk '
$1 == "D" { def[$3] = $2; next }
{ use[++n] = $2 " " $3 }
END {
	for (i = 1; i <= n; i++) {
		split(use[i], w, " ")
		if ((w[2] in def) && def[w[2]] != w[1])
			print w[1], def[w[2]], w[2]
	}
}' | sort -u
