#!/bin/sh
# Queue length and Memory bandwidth: the Overview's section lists each
# stream's longest queue and its mean over time, and each kind of copy's
# GB/s; Enter on a stream opens Queue length, its queue drawn above the
# table, and Enter on a kind Memory bandwidth.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/queue-membw.json"
tui_wait 'Overview'
tui_keys / '^GPU 0 stream 7 queue' Enter
check "the Overview lists the stream's queue" tui_wait '4, 1.32'
tui_keys Down Enter
check "Enter opens Queue length" tui_line 1 'Queue length'
check "the stream's queue over time, above the table" tui_wait 'stream 7 0.010 ms: queued 1; peak 4'
check "the stream's mean queue at its changes" tui_wait '1.70'
tui_keys q
check "q goes back to the Overview" tui_wait 'Queues, copies'
tui_keys Escape / '^Memcpy HtoD' Enter
check "the Overview lists the copies' bandwidth" tui_wait '100.00 GB/s'
tui_keys Down Enter
check "Enter opens Memory bandwidth" tui_line 1 'Memory bandwidth'
check "a kind's bytes" tui_wait '1.91 MiB'
tui_keys q q
tui_done
