#!/bin/sh
# SPDX-License-Identifier: MIT
# The threads under ThreadSanitizer (make tsan): the reader thread of
# parsers/input.c, which inflates and reads ahead, Kineto's model thread,
# its two chunk readers (parsers/kineto/kineto_chunks.c; forced on with small
# chunks, as the corpus traces are below the size that starts them), the
# second thread of its link (parsers/kineto/kineto_link.c; forced on for every
# load here, and in t-kineto-link), and
# the second thread that makes --print's lines (view/export.c), the two
# that make the Timeline's index (model/timeline.c, in t-timeline) and
# those of the Tree's keys and lists (in t-pane).  Every
# profile of the shared corpus loads as it is and, when it
# is big enough to start the reader thread, plain, gzipped, and cut short
# at several points (a cut gzip ends the reader thread on an error, the
# path where a race once changed the output).  Any report from TSan fails
# the case.  make tsan runs it through tests/run.sh, with
#   PROFTUI  the TSan-built binary (build-tsan/proftui)
#   O        its build directory (build-tsan), for scratch files, t-input,
#            t-timeline, t-kineto-link and t-node-times
. "$(dirname "$0")/test-lib.sh"
need_proftui
CORPUS=${PROFTUI_CORPUS:-../shared/corpus}
dir=$O/tests/tsan
rm -rf "$dir"
mkdir -p "$dir"
# halt_on_error: the first report ends the run with exitcode, so a race
# cannot hide behind a load that otherwise succeeds.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 $TSAN_OPTIONS"
# The link's second thread starts only on big traces: on for all of these.
export PROFTUI_LINK_THREADS=2

# load NAME FILE [VAR=VALUE...]: one load with those variables set; a
# TSan report (exit 66) or a crash fails it.  Bad input (exit 2, the cut
# files) is fine: that path is under test too.
load() {
	name=$1
	file=$2
	shift 2
	env "$@" timeout 300 "$PROFTUI" --print ops -o /dev/null "$file" >"$dir/out" 2>&1
	rc=$?
	if [ "$rc" -le 2 ] && ! grep -q 'ThreadSanitizer' "$dir/out"; then
		pass "tsan: $name"
	else
		fail "tsan: $name (exit $rc)"
		grep -A 30 'ThreadSanitizer' "$dir/out" | head -n 40
	fi
}

# run NAME FILE: FILE as one reader reads it and in chunks.
run() {
	load "$1" "$2"
	load "$1 (chunks of 65536)" "$2" PROFTUI_PARSE_CHUNK=65536
}

# run_traded NAME FILE: a gzip FILE in chunks the size of the reader
# thread's own (PROFTUI_READ_CHUNK), so its buffers are traded whole
# between the threads rather than copied (parsers/kineto/kineto_chunks.c).
run_traded() {
	load "$1 (buffers traded)" "$2" PROFTUI_PARSE_CHUNK=65536 PROFTUI_READ_CHUNK=65536
}

# run_clean NAME COMMAND...: COMMAND succeeds with no TSan report.
run_clean() {
	name=$1
	shift
	if timeout 300 "$@" >"$dir/out" 2>&1 && ! grep -q 'ThreadSanitizer' "$dir/out"; then
		pass "tsan: $name"
	else
		fail "tsan: $name"
		grep -A 30 'ThreadSanitizer' "$dir/out" | head -n 40
	fi
}

# cut_to FILE NAME BYTES: the first BYTES of FILE, as $dir/NAME.
cut_to() { head -c "$3" "$1" >"$dir/$2"; }

# run_unit NAME [ARG]: the unit test NAME (its tests matching ARG), which
# must pass with no TSan report.  A failure's output is indented: its own
# PASS/FAIL and count lines are not ours.
run_unit() {
	if "$O/tests/unit/$1" ${2:+"$2"} >"$dir/$1.out" 2>&1 &&
	   ! grep -q ThreadSanitizer "$dir/$1.out"; then
		pass "tsan: $1"
	else
		fail "tsan: $1 ($O/tests/unit/$1; make tsan builds it)"
		head -n 40 "$dir/$1.out" | sed 's/^/  /'
	fi
}

# The reader's hand-off itself, 200 times (see t-input.c).
run_unit t-input
# The Timeline's index made on two threads (model/timeline.c), forced on
# in t-timeline's test of it, whatever the size.  (Its other tests hold
# CPU time to bounds that TSan's slowness would break.)
run_unit t-timeline "two threads"
# The link of a Kineto trace on two threads (parsers/kineto/kineto_link.c),
# every part of it, and the golden fixtures.
run_unit t-kineto-link "two threads"
# The names' numbers read on one thread while another interns more.
run_unit t-strtab "numbers"
# A gzip file's buffers traded whole as chunks, at small sizes.
run_unit t-kineto-par "traded"
# The table of a profile's wide node times, written from two threads.
run_unit t-node-times "two threads"
# The Tree's keys and child lists made on two threads (view/pane.c,
# view/pane_tree.c).
run_unit t-pane "two threads"
# Tables made on two threads (view/export.c), forced on with batches of a
# few rows, in the panes whose getters differ most.
for pane in tree ops kernels timeline steps; do
	run_clean "--print $pane, rows on two threads" env PROFTUI_EXPORT_BATCH=3 "$PROFTUI" \
		--print "$pane" -o /dev/null tests/golden/kineto/two-steps.json
done
# Several files at once, one per thread (--diff, --ranks): each load has
# its own state -- die()'s file, the sorts' arrays -- however they
# interleave.  Both traces have memory events, which the link sorts.
for how in --diff --ranks; do
	run_clean "two traces loading at once ($how)" "$PROFTUI" $how --print ops -o /dev/null \
		tests/golden/kineto/two-steps.json tests/golden/kineto/unused.json
done
if [ ! -d "$CORPUS" ]; then
	skip "tsan: corpus traces" "$CORPUS is absent"
else
	# Inputs only (tb-plugin-expected holds outputs), each once: some
	# traces sit in two folders.
	find "$CORPUS" -path "$CORPUS/tb-plugin-expected" -prune -o -type f \
		! -name '*.md' -print | sort >"$dir/list"
	while read -r f; do
		sum=$(cksum <"$f")
		grep -qxF "$sum" "$dir/seen" 2>/dev/null && continue
		echo "$sum" >>"$dir/seen"
		name=$(basename "$f")
		run "$name" "$f"
		plain=$f
		case $f in
		*.gz)
			plain=$dir/plain
			gzip -dc "$f" >"$plain" 2>/dev/null || continue
			;;
		esac
		# The reader thread starts only past the first buffer (256 KB
		# of plain text): smaller files have no race to look for.
		plain_size=$(wc -c <"$plain")
		[ "$plain_size" -gt 262144 ] || continue
		case $f in
		*.gz)
			run "$name (plain)" "$plain"
			gz=$f
			;;
		*)
			gzip -c "$f" >"$dir/packed.gz"
			run "$name (gzipped)" "$dir/packed.gz"
			gz=$dir/packed.gz
			;;
		esac
		run_traded "$name (gzipped)" "$gz"
		# Cut at a few places: early (often inside the first buffer,
		# read before the thread starts), past it, and halfway.
		gz_size=$(wc -c <"$gz")
		for pct in 2 10 50; do
			cut_to "$gz" cut.gz $((gz_size * pct / 100 + 1))
			run "$name (gzip cut at $pct%)" "$dir/cut.gz"
			run_traded "$name (gzip cut at $pct%)" "$dir/cut.gz"
		done
		cut_to "$plain" cut $((plain_size / 2 + 1))
		run "$name (cut at 50%)" "$dir/cut"
	done <"$dir/list"
fi
test_done
