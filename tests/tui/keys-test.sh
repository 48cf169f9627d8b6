#!/bin/sh
# A user key file overrides single bindings, reports bad lines and keeps
# going; --keymap vi switches to the vi bindings; F10 quits, and a q
# right after Esc left a view does not.
. "$(dirname "$0")/lib.sh"
# A short path: the message that names the file must fit in 80 columns.
dir=$(mktemp -d /tmp/proftui-keys-XXXXXX)
mkdir -p "$dir/proftui"
cat >"$dir/proftui/keys" <<'KEYS'
# a user's key file
bind global  x        sort-calls
bind global  q        none
bind global  y        no-such-action
KEYS
tui_start "XDG_CONFIG_HOME=$dir $PROFTUI tests/golden/kineto/two-steps.json"
check "a bad line is reported with its place" tui_wait "keys:4: unknown action 'no-such-action'"
tui_keys 2 x
check "x now sorts by calls" tui_wait 'sort: Calls'
# Had q quit, the a after it would never sort.
tui_keys q a
check "q is unbound" tui_wait 'sort: Name'
tui_keys Q
check "Q still quits" tui_wait '[exit 0]'
tui_start "$PROFTUI --keymap vi tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys l
check "vi: l drills in" tui_wait 'aten::cudnn_convolution › kernels'
tui_keys h
check "vi: h goes back" tui_gone '› kernels'
tui_keys j
check "vi: j moves down" tui_wait ' 2/3 '
# htop's F10 quits; q right after Esc left a view keeps the place.
for size in 80x24 120x40; do
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/kineto/two-steps.json"
	tui_keys 2
	tui_wait 'sort: Dev self'
	tui_keys i
	tui_wait 'Operators › detail'
	tui_keys Escape
	tui_gone '› detail'
	tui_keys q
	check "$size: q right after Esc keeps the place" tui_wait 'at the top: q again quits'
	check "$size: still in Operators" tui_wait 'sort: Dev self'
	tui_keys q
	check "$size: a second q quits" tui_wait '[exit 0]'
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/kineto/two-steps.json"
	tui_keys 2 i
	tui_wait 'Operators › detail'
	tui_keys q
	tui_gone '› detail'
	tui_keys q
	check "$size: q q from a view quits as before" tui_wait '[exit 0]'
	tui_start -x "${size%x*}" -y "${size#*x}" "$PROFTUI tests/golden/kineto/two-steps.json"
	tui_wait 'proftui · '
	tui_keys F10
	check "$size: F10 quits" tui_wait '[exit 0]'
done
rm -rf "$dir"
tui_done
