#!/bin/sh
# Summaries open like the traces they were made from; the Tree, and the
# Kernels by launching op, say they need the trace.
. tests/tui/lib.sh
dir=$OUT/summaries
mkdir -p "$dir"
for w in 0 1 2; do
	"$PROFTUI" --summary -o "$dir/worker$w.summary" tests/golden/ranks/job/worker$w.pt.trace.json ||
		echo "FAIL: tui: summary-test: --summary of worker$w"
done
tui_start "$PROFTUI $dir/worker0.summary $dir/worker1.summary $dir/worker2.summary --ranks"
tui_wait 'sort: Step' || tui_done
check "the ranks of the summaries, as of the traces" tui_expect ranks-all
tui_keys 5
check "the Tree says it needs the trace" tui_wait 'the Tree needs the trace'
tui_keys 3 v
check "Kernels by launching op say they need the trace" \
	tui_wait 'kernels by launching op need the trace'
tui_done
