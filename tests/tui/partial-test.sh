#!/bin/sh
# A load that stopped at an error opens what it read, and says so for as
# long as it is shown: "partial" in the title, the error's place in Info;
# a gzip trace cut short too.
# A load with warnings counts them once in the bar.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/errors/truncated.json 2>/dev/null"
check "the bar says the load stopped" tui_wait 'the load stopped at an error'
check "the title says partial" tui_line 1 'partial'
tui_keys 9
check "Info says where it stopped" tui_wait 'stopped at  3:59: unexpected end of file'
tui_keys j
check "still partial after the message is gone" tui_line 1 'partial'
tui_keys Q
# A gzip trace cut mid-stream, in its first read: what it held before the
# cut, partial, and Info says why it stopped.
gzip -9 -c tests/golden/kineto/two-steps.json | head -c 400 >"$OUT/cut.json.gz"
tui_start "$PROFTUI $OUT/cut.json.gz 2>/dev/null"
check "a cut gzip opens what it held" tui_wait 'the load stopped at an error'
check "the title says partial" tui_line 1 'partial'
tui_keys 9
check "Info says the gzip stream was cut" tui_wait 'truncated gzip data'
tui_keys Q
tui_start "$PROFTUI tests/golden/kineto/negative.json 2>/dev/null"
check "warnings are counted once" tui_wait 'warnings while loading (see Info)'
check "a whole load is not partial" sh -c "! $T capture-pane -p -t t | head -n 1 | grep -q partial"
tui_keys j
check "the count goes with the next key" tui_gone 'warnings while loading'
tui_done
