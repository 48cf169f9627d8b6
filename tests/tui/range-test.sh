#!/bin/sh
# A range of time on the Timeline (Perfetto's area selection): m takes the
# selected block's span, v starts a range that the cursor extends (v again
# sets it), a mouse drag over the time area sets one; the ruler shows it
# in [ ], the status line and the title say it; s opens the Range pane
# (what it holds by name, the cursor's lane or, with v, every lane); the
# Operators pane counts only the ops that started in it, the Overview's
# title says that the range does not narrow it; Esc clears it.
# On tests/golden/kineto/range.json, whose numbers the goldens check by
# hand.  At 80x24 and 120x40.
. "$(dirname "$0")/lib.sh"
F=tests/golden/kineto/range.json
sgr() { printf '\033[<%d;%d;%d%s' "$1" "$2" "$3" "$4"; }
# drag X0 X1 Y: the button down at X0, up at X1 (cells from 1).
drag() { tui_text "$(sgr 0 "$1" "$3" M; sgr 0 "$2" "$3" m)"; }
for size in 80x24 120x40; do
	w=${size%x*}
	tui_start -x "$w" -y "${size#*x}" "TERM=xterm-256color $PROFTUI $F"
	tui_wait 'proftui · Overview'
	tui_keys 6
	tui_wait ' 1/10 ProfilerStep#1'
	# The second aten::mm: its span is 750 us - 950 us.
	tui_keys j
	check "$size: the first aten::mm" tui_wait ' 2/10 aten::mm'
	tui_keys l
	tui_wait ' 5/10 aten::add'
	tui_keys l
	tui_wait ' 8/10 aten::mm'
	tui_keys m
	check "$size: m: the block's span is the range" tui_wait 'range 750 us - 950 us (200 us)'
	check "$size: the title says it" tui_line 1 'range 750 us–950 us'
	check "$size: the ruler brackets it" sh -c "$T capture-pane -p -t t | sed -n 3p | grep -q '\\[.*\\]'"
	tui_keys s
	check "$size: s opens the Range pane of the cursor's lane" \
		tui_line 1 '950 us, thread 7'
	check "$size: the op inside it" tui_wait 'aten::mm'
	tui_keys v
	check "$size: v: every lane" tui_wait 'every lane (v: the cursor'"'"'s lane)'
	check "$size: the kernel straddling the end counts its part" tui_wait '150.000 us'
	tui_keys q
	tui_wait ' 8/10 aten::mm'
	tui_keys 2
	check "$size: Operators count what started in the range" tui_wait ' 1/1 aten::mm'
	check "$size: its title says the range" tui_line 1 'range 750 us–950 us'
	check "$size: as one it follows" \
		sh -c "! $T capture-pane -p -t t | sed -n 1p | grep -q 'ignored here'"
	tui_keys 1
	check "$size: a pane the range does not narrow says so" \
		tui_line 1 'range 750 us–950 us ignored here'
	tui_keys 2
	tui_wait ' 1/1 aten::mm'
	tui_keys 4
	check "$size: Steps keep those that start in it: none" \
		tui_wait 'no step starts in the range'
	tui_keys 2
	tui_wait ' 1/1 aten::mm'
	tui_keys Escape
	check "$size: Esc clears it from any pane" tui_wait 'range cleared'
	check "$size: every op again" tui_wait ' 1/2 aten::mm'
	tui_keys 6
	tui_wait ' 8/10 aten::mm'
	# v at the first aten::mm, then to the aten::add: 100 us - 700 us.
	tui_keys g j v
	check "$size: v starts a range" tui_wait 'range started'
	tui_keys l
	check "$size: moving extends it" tui_wait 'range from 100 us - 700 us (600 us)'
	tui_keys v
	check "$size: v again sets it" tui_wait 'range set'
	check "$size: its span" tui_wait 'range 100 us - 700 us (600 us)'
	tui_keys Escape
	check "$size: Esc on the Timeline clears it" tui_wait 'range cleared'
	tui_gone 'range 100 us'
	# A drag over the ruler: from the middle of the time area to its end.
	lw=$(( w / 5 > 18 ? 18 : w / 5 ))
	drag $((lw + 10)) $((w - 2)) 3
	check "$size: a drag sets a range" tui_wait 'range set (s: its summary'
	# The cells' first times: 80x24: cells 9 and 62 of 64 over 1.1 ms;
	# 120x40: 9 and 100 of 102.
	want='range 154.7 us - 1.066 ms'
	[ "$w" = 120 ] && want='range 97.06 us - 1.078 ms'
	check "$size: the status says it" tui_wait "$want"
	check "$size: and the title" tui_line 1 'range '
	tui_keys Escape
	check "$size: Esc clears the dragged range" tui_wait 'range cleared'
	tui_text "$(sgr 0 $((lw + 20)) 5 M; sgr 0 $((lw + 20)) 5 m)"
	check "$size: a click still selects a block" tui_wait ' 2/10 aten::mm'
	tui_keys Q
done
tui_done
