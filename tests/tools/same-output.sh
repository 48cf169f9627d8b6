#!/bin/sh
# SPDX-License-Identifier: MIT
# same-output.sh OLD NEW [FILE...]: whether two proftui binaries print the
# same bytes.  For a restructuring that must not change behaviour: every
# pane --list-panes names, as txt, csv and json, on each FILE (default:
# every profile in ../shared/corpus and tests/samples), plus every golden
# case's own arguments; stdout, stderr and the exit status all compared.
# Prints one line per difference and a count line; exit 1 on any.
# Not part of the suite (it needs two builds); see tests/README.
old=$1 new=$2
[ -x "$old" ] && [ -x "$new" ] || { echo "usage: $0 OLD NEW [FILE...]" >&2; exit 1; }
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
if [ $# -eq 0 ]; then
	set --
	for f in $(find ../shared/corpus tests/samples -type f ! -path '*expected*' \
			! -name '*.md' ! -name '*.py' 2>/dev/null | sort); do
		set -- "$@" "$f"
	done
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
runs=0 diffs=0
# compare ARGS...: run both with the same arguments.
compare() {
	"$old" "$@" >"$tmp/o.out" 2>"$tmp/o.err" </dev/null; orc=$?
	"$new" "$@" >"$tmp/n.out" 2>"$tmp/n.err" </dev/null; nrc=$?
	runs=$((runs + 1))
	if [ $orc -ne $nrc ] || ! cmp -s "$tmp/o.out" "$tmp/n.out" ||
	   ! cmp -s "$tmp/o.err" "$tmp/n.err"; then
		diffs=$((diffs + 1))
		echo "differs (exit $orc/$nrc): $*"
	fi
}
panes=$("$old" --list-panes | cut -d' ' -f1)
for f in "$@"; do
	for p in $panes; do
		for fmt in txt csv json; do
			compare --print "$p" --format "$fmt" "$f"
		done
	done
done
for t in tests/golden/*/*.t; do
	# The case's arguments, split on blanks as tests/golden/run.sh does.
	# shellcheck disable=SC2046
	compare $(cat "$t")
done
echo "$runs runs, $diffs differ"
[ $diffs -eq 0 ]
