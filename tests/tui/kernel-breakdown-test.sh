#!/bin/sh
# Kernels by type: the Overview's Kernel types rows open Kernel types;
# Enter on a class there opens the kernels of the types it names, and w
# a kernel's block on the Timeline.
. "$(dirname "$0")/lib.sh"
tui_start "$PROFTUI tests/golden/hta/kbreak.json"
tui_wait 'Overview'
tui_keys / '^COMMUNICATION$' Enter
tui_wait 'Kernel types (Enter: table)'
tui_keys G Enter
check "Enter on a class opens Kernel types" tui_line 1 'Overview › Kernel types'
tui_keys / '^COMPUTATION overlapping COMMUNICATION$' Enter
tui_wait '85.500 us'
tui_keys G Enter
check "Enter on a class opens Kernels by type" tui_line 1 'Kernels by type'
check "a kernel's total" tui_wait '240.000 us'
check "the communication kernel" tui_wait 'ncclKernel_AllReduce'
check "only the types the class names" tui_gone 'Memcpy HtoD'
tui_keys q
check "q goes back to Kernel types, its filter kept" tui_wait '1/5 matched'
tui_keys Enter / '^gemm_kernel$' Enter w
check "w: the kernel on the Timeline" tui_line 1 'proftui · Timeline · '
check "its first block" tui_wait 'gemm_kernel'
tui_done
