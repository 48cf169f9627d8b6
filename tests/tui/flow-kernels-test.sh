#!/bin/sh
# Flows on the Timeline (Perfetto's arrows): the selected block's partners
# drawn {so} -- a kernel's launching call and op, an op's kernels -- with
# ^ or v before the selected row; O goes up from a kernel to its op, o
# down to the kernel again, and past an op's last kernel says so.  At
# 80x24 and 120x40.
. "$(dirname "$0")/lib.sh"
# on_screen_re RE: a line of the screen matches RE.
on_screen_re() { tui_screen | grep -q -- "$1"; }
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 6
	tui_wait ' 1/20 ProfilerStep#1'
	check "$size: a step is no launch: no partners drawn" off_screen '{'
	tui_keys j j j
	check "$size: down to the third kernel" \
		tui_wait ' 10/20 void cudnn::detail::wgrad_alg0_engine'
	check "$size: the op that launched it is drawn as a partner" tui_wait '{au'
	check "$size: and ^ before the kernel's lane: its flows come from above" \
		tui_until "'^' after the GPU lane's name" on_screen_re '^GPU 0 stream 7 *^'
	[ "$size" = 80x24 ] && check "$size: the picture" tui_expect flow-kernel-80x24
	tui_keys O
	check "$size: O: up to the op that launched it" \
		tui_wait ' 8/20 autograd::engine::evaluate_function'
	check "$size: its kernel is the partner now" tui_wait '{void'
	check "$size: and v before the op's row: its flows go down" \
		tui_until "'v' before the op" on_screen_re '^ *v  *\[at'
	tui_keys o
	check "$size: o: back down to the kernel" \
		tui_wait ' 10/20 void cudnn::detail::wgrad_alg0_engine'
	tui_keys o
	check "$size: o again: it was the op's only kernel" \
		tui_wait 'the last kernel its op launched'
	check "$size: the selection stays" tui_wait ' 10/20 void cudnn::detail::wgrad_alg0_engine'
	tui_keys k
	check "$size: k: the call that launched it" tui_wait ' 9/20 cudaLaunchKernel'
	tui_keys o
	check "$size: o from a runtime call: its kernel" \
		tui_wait ' 10/20 void cudnn::detail::wgrad_alg0_engine'
	tui_keys g
	tui_wait ' 1/20 ProfilerStep#1'
	tui_keys o
	check "$size: a step launches nothing itself" \
		tui_wait 'only ops and runtime calls launch kernels'
	tui_keys Q
done
tui_done
