#!/bin/sh
# [ and ] pick a step, 0 all; the Steps pane's Enter picks one too.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys ]
check "] picks the first step" tui_wait 'step 1 of 2'
check "the title says which" tui_line 1 'step 1'
check "ops of step 1 only" tui_expect step-1
tui_keys ]
check "] the next" tui_wait 'step 2 of 2'
check "aten::add ran in step 1 only" tui_gone 'aten::add'
tui_keys ]
check "no step after the last" tui_wait 'no step after this one'
tui_keys 0
check "0 shows all steps" tui_wait 'all steps'
check "aten::add is back" tui_wait 'aten::add'
tui_keys 4
check "the Steps pane" tui_wait 'average'
tui_expect steps
tui_keys j Enter
check "Enter on a step picks it" tui_wait 'step 2 of 2'
tui_keys 3
check "the Kernels pane follows" tui_gone 'add_kernel'
tui_done
