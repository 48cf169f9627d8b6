# SPDX-License-Identifier: MIT
# Sourced by run.sh (its $dir, pass, fail, skip): the ranks of a job and
# the files of a diff, as a file can get them wrong.
rdir=$dir/ranks
rm -rf "$rdir"
mkdir -p "$rdir"
rgood=tests/golden/kineto/two-steps.json

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
