#!/bin/sh
# ~ (and --short-names) shows names short: templates, parameters and long
# namespaces elided, two names that share a short form numbered apart;
# the status line keeps the full name, and the filter matches it.
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x35; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/tui/templates.json"
	tui_wait 'proftui · Overview'
	tui_keys 2
	tui_wait 'sort: Dev self'
	tui_keys 3
	check "$size: cut names look alike" tui_wait 'void at::native::vectorized_element'
	tui_keys '~'
	check "$size: ~ shows them short" tui_wait 'vectorized_elementwise_kernel<…> #1'
	check "$size: and apart" tui_wait 'vectorized_elementwise_kernel<…> #2'
	check "$size: without void and namespaces" tui_wait 'wgrad_alg0_engine<…> '
	tui_keys j
	check "$size: the status line keeps the full name" tui_wait ' 2/3 void at::native::vectorized'
	tui_keys / CUDAFunctor_add Enter
	check "$size: the filter matches the full name" tui_wait ' 1/1 void at::native::vect'
	tui_keys '~'
	check "$size: ~ again: full names" tui_wait 'full names'
done
tui_start "$PROFTUI --short-names tests/tui/templates.json"
tui_wait 'proftui · Overview'
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys 3
check "--short-names starts short" tui_wait 'vectorized_elementwise_kernel<…> #1'
tui_done
