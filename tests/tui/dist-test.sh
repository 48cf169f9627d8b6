#!/bin/sh
# Distributions at 80x24: i on a Kernels row shows the histogram of its
# calls' durations with the median, P90 and P99 marked; the column
# chooser lists P90 hidden, and Space shows it in the pane.
. "$(dirname "$0")/lib.sh"
cfg=$(mktemp -d /tmp/proftui-cfg-XXXXXX)
tui_start "XDG_CONFIG_HOME=$cfg $PROFTUI tests/golden/kineto/dist.json"
tui_wait 'proftui · Overview'
tui_keys 3
tui_wait 'sort: Total'
check "P90 is hidden by default" sh -c "! $T capture-pane -p -t t | sed -n 3p | grep -q P90"
tui_keys i
check "i opens the detail of the kernel" tui_line 1 'Kernels › detail'
tui_keys G
check "the percentiles" tui_wait '30.000 us / 616.000 us / 961.600'
check "a bin with its count and bar" tui_wait '20 us - 50 us            3 ####################'
check "a bin with fewer, a shorter bar" tui_wait '10 us - 20 us            1 #######'
check "the median's bin marked" tui_wait '<- median'
# Interpolated between 40 us and 1 ms, both fall in an empty bin.
check "the bin of P90 and P99" tui_wait '<- P90, P99'
check "the longest call's bin" tui_wait '1 ms - 2 ms'
tui_keys Escape
tui_gone '› detail'
tui_keys '|'
check "| opens the column chooser" tui_line 1 'Kernels › columns'
check "it lists P90, hidden" tui_wait '[ ]   P90'
tui_keys / P90 Enter Space
check "Space shows it" tui_wait '[x]   P90'
tui_keys Escape
tui_gone '› columns'
tui_keys W
tui_wait 'saved to'
check "saved shown" grep -q ' p90 ' "$cfg/proftui/config"
tui_keys l
tui_wait '‹'
tui_keys l l l l l
check "the pane shows P90" tui_line 3 'P90'
check "the row's P90" tui_wait '616.000 us'
rm -rf "$cfg"
tui_done
