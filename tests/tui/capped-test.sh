#!/bin/sh
# Sums past the cap (model/bounds.h) in the interactive mode: a capped
# cell reads ">=" the cap, and the status line says how many of the
# pane's sums were capped, as --print warns on stderr.
. "$(dirname "$0")/lib.sh"
trace=$OUT/capped.json
awk 'BEGIN {
	print "{\"traceEvents\": ["
	for (i = 1; i <= 3000; i++) {
		printf "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::long\", \"tid\": %d, \"ts\": 1, \"dur\": 1000000000000, \"args\": {\"External id\": %d}},\n", i, i
		printf "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"tid\": %d, \"ts\": 2, \"dur\": 1, \"args\": {\"External id\": %d, \"correlation\": %d}},\n", i, i, i
		printf "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"long_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 3, \"dur\": 1000000000000, \"args\": {\"correlation\": %d}},\n", i
	}
	print "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::short\", \"tid\": 1, \"ts\": 5, \"dur\": 1}]}"
}' >"$trace"
tui_start -x 120 -y 30 "$PROFTUI $trace"
tui_wait 'Overview'
tui_keys 2
tui_line 1 'Operators'
check "a capped sum reads >= the cap" tui_wait '>=2.3e9 s'
check "the status line counts the capped sums" tui_wait '5 sums capped at 73 years (>=)'
check "no negative time" sh -c "! $T capture-pane -p -t t | grep -q -- ' -[0-9]'"
tui_keys 3
tui_line 1 'Kernels'
check "Kernels: its own count" tui_wait '3 sums capped at 73 years (>=)'
tui_done
