# SPDX-License-Identifier: MIT
# Sourced by run.sh (its $dir, pass, fail, skip): the ranks of a job and
# the files of a diff, as a file can get them wrong.
rdir=$dir/ranks
rm -rf "$rdir"
mkdir -p "$rdir"
rtrace=tests/golden/ranks/job/worker0.pt.trace.json
rgood=tests/golden/kineto/two-steps.json

# with_dist RANK WORLD: the test trace with distributedInfo's rank and
# world_size as given (JSON text).
with_dist() {
	sed "s/\"rank\":0,\"world_size\":3/\"rank\":$1,\"world_size\":$2/" "$rtrace"
}

# A rank is a whole number below the world size, as the file writes it:
# anything else is a warning at its place, and the rank is unknown --
# never rounded (2.5 is not rank 3), clamped or guessed.  The summary
# written from the trace says what the model holds: dist PRESENT RANK
# WORLD (-1: unknown).
for case in '2.5:3:-1:3' '-1:3:-1:3' '3:3:-1:3' '1e12:3:-1:3' '"two":3:-1:3' \
	'2:2.5:2:-1' '0:0:0:-1' '2.0:3:2:3'; do
	rank=${case%%:*} rest=${case#*:}
	world=${rest%%:*} rest=${rest#*:}
	want="dist	1	${rest%%:*}	${rest#*:}"
	f=$rdir/rank-$(echo "$rank-$world" | tr -dc '0-9a-z.-').json
	with_dist "$rank" "$world" >"$f"
	timeout 20 "$PROFTUI" --summary -o - "$f" >"$rdir/stdout" 2>"$rdir/stderr"
	rc=$?
	why=
	[ "$rc" -eq 0 ] || why="exit $rc"
	got=$(grep '^dist	' "$rdir/stdout" | cut -f1-4)
	[ -z "$why" ] && [ "$got" != "$want" ] && why="the model holds '$got', not '$want'"
	nr=$(grep -c . "$rdir/stderr")
	case $rest in
	2:3) [ -z "$why" ] && [ "$nr" -ne 0 ] && why="a message: $(head -n 1 "$rdir/stderr")" ;;
	*)
		[ -z "$why" ] && [ "$nr" -ne 1 ] && why="$nr lines on stderr, not 1"
		[ -z "$why" ] && ! grep -Eq "^$f:[0-9]+:[0-9]+: warning: distributedInfo " "$rdir/stderr" &&
			why="message '$(head -n 1 "$rdir/stderr")'"
		;;
	esac
	if [ -z "$why" ]; then
		pass "badinput: distributedInfo rank $rank of world size $world"
	else
		fail "badinput: distributedInfo rank $rank of world size $world ($why)"
	fi
done
# The Ranks pane of a trace whose rank is unknown shows none, not a guess.
timeout 20 "$PROFTUI" --print ranks --format csv "$rdir/rank-2.5-3.json" >"$rdir/stdout" 2>/dev/null
if awk -F, 'NR > 1 && $3 != "" { bad = 1 } END { exit bad || NR < 2 }' "$rdir/stdout"; then
	pass "badinput: an unknown rank shows no number in the Ranks pane"
else
	fail "badinput: an unknown rank shows no number in the Ranks pane"
	head -n 3 "$rdir/stdout"
fi
# Among workers that give ranks, one whose rank is unknown shows none:
# not its place (3), which is what its 2.5 would have been rounded to.
for case in a:0 b:1 c:2 d:2.5; do
	with_dist "${case#*:}" 4 >"$rdir/m${case%:*}.pt.trace.json"
done
timeout 20 "$PROFTUI" --print ranks --ranks --format csv "$rdir"/m*.pt.trace.json >"$rdir/stdout" \
	2>/dev/null
if awk -F, '$2 == "mc" && $3 != 2 { bad = 1 } $2 == "md" { seen = 1; if ($3 != "") bad = 1 }
	END { exit bad || !seen }' "$rdir/stdout"; then
	pass "badinput: a worker of unknown rank among ranked ones shows no number"
else
	fail "badinput: a worker of unknown rank among ranked ones shows no number"
	cat "$rdir/stdout"
fi
# A summary's rank is checked as a trace's, but a summary is proftui's
# own: a rank not below its world size, or a world size of 0, is an
# error at its place.
for case in 7:3 0:0; do
	"$PROFTUI" --summary -o - "$rtrace" |
		sed "s/^dist	1	0	3	/dist	1	${case%:*}	${case#*:}	/" >"$rdir/dist.summary"
	timeout 20 "$PROFTUI" --print ranks "$rdir/dist.summary" >/dev/null 2>"$rdir/stderr"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -Eq "^$rdir/dist.summary:[0-9]+:[0-9]+: error: " "$rdir/stderr"; then
		pass "badinput: a summary's rank ${case%:*} of world size ${case#*:}"
	else
		fail "badinput: a summary's rank ${case%:*} of world size ${case#*:} (exit $rc)"
		head -n 2 "$rdir/stderr"
	fi
done

# Many workers claiming one rank: one warning that counts them and names
# some of their files, and each worker kept apart.
mkdir -p "$rdir/same"
i=0
while [ $i -lt 1000 ]; do
	with_dist 0 1 >"$rdir/same/w$i.pt.trace.json"
	i=$((i + 1))
done
timeout 60 "$PROFTUI" --print ranks "$rdir/same" >"$rdir/stdout" 2>"$rdir/stderr"
rc=$?
why=
[ "$rc" -eq 0 ] || why="exit $rc"
[ -z "$why" ] && [ "$(grep -c . "$rdir/stderr")" -ne 1 ] &&
	why="$(grep -c . "$rdir/stderr") lines on stderr, not 1"
[ -z "$why" ] && ! grep -q "^proftui: warning: 1000 workers claim rank 0 ($rdir/same/w0.pt.trace.json, " \
	"$rdir/stderr" && why="message '$(head -c 200 "$rdir/stderr")'"
[ -z "$why" ] && [ "$(grep -c '^- w[0-9]* ' "$rdir/stdout")" -ne 1000 ] &&
	why="$(grep -c '^- w[0-9]* ' "$rdir/stdout") workers shown, not 1000"
if [ -z "$why" ]; then
	pass "badinput: 1000 workers claiming rank 0: one warning, each worker apart"
else
	fail "badinput: 1000 workers claiming rank 0: one warning, each worker apart ($why)"
fi
# --rank 0 cannot say which of them; a worker's name can.
timeout 60 "$PROFTUI" --print ops --rank 0 "$rdir/same" >/dev/null 2>"$rdir/stderr"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "rank 0 is claimed by 1000 workers" "$rdir/stderr"; then
	pass "badinput: --rank of a rank several workers claim is refused"
else
	fail "badinput: --rank of a rank several workers claim is refused (exit $rc)"
	tail -n 2 "$rdir/stderr"
fi
timeout 60 "$PROFTUI" --print ops --rank w7 "$rdir/same" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 0 ] && pass "badinput: --rank picks such a worker by name" ||
	fail "badinput: --rank picks such a worker by name (exit $rc)"
# Two of three traces given as ranks claim rank 1; and their summaries.
with_dist 0 3 >"$rdir/a.pt.trace.json"
with_dist 1 3 >"$rdir/b.pt.trace.json"
with_dist 1 3 >"$rdir/c.pt.trace.json"
for ext in pt.trace.json summary; do
	for w in a b c; do
		[ $ext = summary ] && "$PROFTUI" --summary -o "$rdir/$w.summary" "$rdir/$w.pt.trace.json"
	done
	timeout 20 "$PROFTUI" --print ranks --ranks "$rdir/a.$ext" "$rdir/b.$ext" "$rdir/c.$ext" \
		>/dev/null 2>"$rdir/stderr"
	rc=$?
	if [ "$rc" -eq 0 ] &&
		grep -q "^proftui: warning: 2 workers claim rank 1 ($rdir/b.$ext, $rdir/c.$ext)" "$rdir/stderr"; then
		pass "badinput: two ${ext%%.*} files claiming one rank: a warning naming them"
	else
		fail "badinput: two ${ext%%.*} files claiming one rank: a warning naming them (exit $rc)"
		cat "$rdir/stderr"
	fi
done

# A file that fails to load is exit 2 with its own error, whatever the
# other files and options: a --diff left with one profile is not a usage
# error.
: >"$rdir/empty.json"
mkdir -p "$rdir/no-traces"
for case in "--diff @empty.json $rgood" "--diff $rgood @empty.json" "--diff @missing.json $rgood" \
	"--diff @no-traces $rgood" "-k --diff @empty.json $rgood" "--ranks @empty.json $rgood" \
	"--ranks @empty.json" "@empty.json $rgood" "--merge @empty.json $rgood"; do
	# shellcheck disable=SC2086
	args=$(echo $case | sed "s|@|$rdir/|")
	bad=$(echo "$case" | sed 's|.*@\([^ ]*\).*|\1|')
	# shellcheck disable=SC2086
	timeout 20 "$PROFTUI" --print ops $args >"$rdir/stdout" 2>"$rdir/stderr"
	rc=$?
	why=
	[ "$rc" -eq 2 ] || why="exit $rc, not 2"
	[ -z "$why" ] && [ "$(grep -c . "$rdir/stderr")" -ne 1 ] &&
		why="$(grep -c . "$rdir/stderr") lines on stderr, not 1"
	case $(head -n 1 "$rdir/stderr") in
	"$rdir/$bad: error: "* | "$rdir/$bad:"[0-9]*": error: "*) ;;
	*) [ -z "$why" ] && why="message '$(head -n 1 "$rdir/stderr")'" ;;
	esac
	if [ -z "$why" ]; then
		pass "badinput: $(echo "$case" | tr -d @) fails with the file's error"
	else
		fail "badinput: $(echo "$case" | tr -d @) fails with the file's error ($why)"
		head -n 3 "$rdir/stderr"
	fi
done
