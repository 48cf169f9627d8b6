# SPDX-License-Identifier: MIT
# Sourced by run.sh (its $dir, pass, fail, skip): what -o does to what is
# already at the path, the same for each writer -- a pane (--print) and a
# summary (--summary).  A device or a FIFO is written in place, never
# replaced by a file; a symbolic link is written through (the link
# stays); a link someone else planted in a sticky directory is refused.
odir=$dir/output
rm -rf "$odir"
mkdir -p "$odir"
otrace=tests/golden/kineto/two-steps.json
# What each writer writes to stdout, to compare with what it wrote.
"$PROFTUI" --print ops "$otrace" >"$odir/want-print" 2>/dev/null
"$PROFTUI" --summary -o - "$otrace" >"$odir/want-summary" 2>/dev/null

# writer_args WRITER PATH: the arguments that make WRITER write to PATH.
writer_args() {
	case $1 in
	print) echo "--print ops -o $2 $otrace" ;;
	summary) echo "--summary -o $2 $otrace" ;;
	esac
}

for writer in print summary; do
	# A device that is always full.  As root a replaced node would be a
	# system's /dev/full gone, so root writes to a node of its own made
	# here (the same device numbers); others write to /dev/full itself,
	# which they cannot replace.
	if [ "$(id -u)" -eq 0 ]; then
		full=$odir/full
		rm -f "$full"
		mknod "$full" c 1 7 2>/dev/null || full=
	else
		full=/dev/full
	fi
	if [ -z "$full" ]; then
		skip "badinput: $writer -o onto a full device" "root, and mknod failed here"
	else
		# shellcheck disable=SC2046
		timeout 20 "$PROFTUI" $(writer_args $writer "$full") >/dev/null 2>"$odir/stderr"
		rc=$?
		why=
		[ "$rc" -eq 2 ] || why="exit $rc, not 2"
		[ -c "$full" ] || why="$full is no longer a character device"
		[ -z "$why" ] && ! grep -q "^proftui: $full: No space left on device$" "$odir/stderr" &&
			why="message '$(head -n 1 "$odir/stderr")'"
		if [ -z "$why" ]; then
			pass "badinput: $writer -o onto a full device fails, the device kept"
		else
			fail "badinput: $writer -o onto a full device fails, the device kept ($why)"
		fi
		[ "$full" = /dev/full ] || rm -f "$full"
	fi

	# A FIFO with a reader: the reader gets it all, the FIFO stays.
	fifo=$odir/fifo
	rm -f "$fifo" "$odir/got"
	mkfifo "$fifo"
	timeout 20 cat "$fifo" >"$odir/got" &
	reader=$!
	# shellcheck disable=SC2046
	timeout 20 "$PROFTUI" $(writer_args $writer "$fifo") >/dev/null 2>"$odir/stderr"
	rc=$?
	# A writer that replaced the FIFO leaves the reader waiting: free it.
	[ -p "$fifo" ] || kill "$reader" 2>/dev/null
	wait "$reader" 2>/dev/null
	why=
	[ "$rc" -eq 0 ] || why="exit $rc: $(head -n 1 "$odir/stderr")"
	[ -p "$fifo" ] || why="the FIFO was replaced"
	[ -z "$why" ] && ! cmp -s "$odir/want-$writer" "$odir/got" && why="the reader did not get it all"
	if [ -z "$why" ]; then
		pass "badinput: $writer -o onto a FIFO writes to its reader"
	else
		fail "badinput: $writer -o onto a FIFO writes to its reader ($why)"
	fi

	# Symbolic links: relative, to a file not yet there, in a chain.
	rm -rf "$odir/links"
	mkdir -p "$odir/links/sub"
	echo old >"$odir/links/real"
	ln -s real "$odir/links/rel"
	ln -s new "$odir/links/dangling"
	echo old >"$odir/links/end"
	ln -s ../end "$odir/links/sub/chain2"
	ln -s sub/chain2 "$odir/links/chain1"
	for case in rel:real dangling:new chain1:end; do
		link=$odir/links/${case%%:*} target=$odir/links/${case#*:}
		# shellcheck disable=SC2046
		timeout 20 "$PROFTUI" $(writer_args $writer "$link") >/dev/null 2>"$odir/stderr"
		rc=$?
		why=
		[ "$rc" -eq 0 ] || why="exit $rc: $(head -n 1 "$odir/stderr")"
		[ -z "$why" ] && [ ! -L "$link" ] && why="the link was replaced"
		[ -z "$why" ] && ! cmp -s "$odir/want-$writer" "$target" &&
			why="${case#*:} does not hold the output"
		[ -z "$why" ] && ls -A "$odir/links" "$odir/links/sub" | grep -q '^\.proftui-' &&
			why="a temporary file was left"
		if [ -z "$why" ]; then
			pass "badinput: $writer -o onto a symbolic link writes its target (${case%%:*})"
		else
			fail "badinput: $writer -o onto a symbolic link writes its target (${case%%:*}: $why)"
		fi
	done

	# A link another user planted in a sticky shared directory (/tmp).
	if [ "$(id -u)" -eq 0 ]; then
		rm -rf "$odir/shared"
		mkdir -p "$odir/shared"
		chmod 1777 "$odir/shared"
		echo precious >"$odir/precious"
		ln -s ../precious "$odir/shared/out"
		chown -h 65534:65534 "$odir/shared/out"
		# shellcheck disable=SC2046
		timeout 20 "$PROFTUI" $(writer_args $writer "$odir/shared/out") >/dev/null \
			2>"$odir/stderr"
		rc=$?
		why=
		[ "$rc" -eq 2 ] || why="exit $rc, not 2"
		[ "$(cat "$odir/precious")" = precious ] || why="the link's target was written"
		[ -L "$odir/shared/out" ] || why="the link was replaced"
		[ -z "$why" ] && ! grep -q 'shared/out: a symbolic link someone else owns, in a shared directory; not followed' \
			"$odir/stderr" && why="message '$(head -n 1 "$odir/stderr")'"
		if [ -z "$why" ]; then
			pass "badinput: $writer -o refuses a planted link in a sticky directory"
		else
			fail "badinput: $writer -o refuses a planted link in a sticky directory ($why)"
		fi
	else
		skip "badinput: $writer -o onto a planted link" "needs root to plant it as another user"
	fi
done
