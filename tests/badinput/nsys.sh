# SPDX-License-Identifier: MIT
# Bad nsys stats reports (parsers/nsys/nsys_stats.c), sourced by run.sh:
# each ends with exit 2 and one "FILE:LINE:COL: error: ..." line; a 1 MB
# name loads, cut, in linear time; a hostile name reaches no terminal.
ndir=$dir/nsys
mkdir -p "$ndir"
nsys_head=' Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)  Name
 --------  ---------------  ---------  --------  --------  --------  --------  -----------  ----'
nsys_csv='Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name'
nsys_bad() {
	what=$1 line=$2 col=$3 f=$ndir/$4
	timeout 20 "$PROFTUI" --print kernels "$f" >"$ndir/stdout" 2>"$ndir/stderr"
	rc=$?
	why=
	[ "$rc" -eq 2 ] || why="exit $rc, not 2"
	[ -z "$why" ] && [ "$(grep -c . "$ndir/stderr")" -ne 1 ] && why="not one line on stderr"
	case $(cat "$ndir/stderr") in
	"$f:$line:$col: error: "*) ;;
	*) [ -z "$why" ] && why="message '$(cat "$ndir/stderr")'" ;;
	esac
	[ -z "$why" ] && [ -s "$ndir/stdout" ] && why="it printed to stdout"
	if [ -z "$why" ]; then
		pass "badinput: nsys: $what"
	else
		fail "badinput: nsys: $what ($why)"
	fi
}
printf '%s\n    100.0            1,000         10     10' "$nsys_head" >"$ndir/cut.txt"
nsys_bad "a table cut mid-row" 3 45 cut.txt
printf ' Time (%%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)  Name\n' \
	>"$ndir/header-only.txt"
nsys_bad "a table that ends at its header" 2 1 header-only.txt
printf '%s\n100.0,1000,10,100.0,100.0,90,110,5.0\n' "$nsys_csv" >"$ndir/missing.csv"
nsys_bad "a column missing" 2 1 missing.csv
printf '%s\n100.0,99999999999999999999,10,100.0,100.0,90,110,5.0,k\n' "$nsys_csv" >"$ndir/overflow.csv"
nsys_bad "a total past int64 ns" 2 7 overflow.csv
printf '%s\n100.0,1000,-10,100.0,100.0,90,110,5.0,k\n' "$nsys_csv" >"$ndir/negative.csv"
nsys_bad "a negative count" 2 12 negative.csv
printf '%s\n100.0,1000,10,100.0,100.0,90,110,5.0,"k(int\n' "$nsys_csv" >"$ndir/quote.csv"
nsys_bad "a CSV quote left open" 2 38 quote.csv
printf '%s\n100.0,1000,10,100.0,100.0,110,90,5.0,k\n' "$nsys_csv" >"$ndir/minmax.csv"
nsys_bad "a least above the greatest" 2 1 minmax.csv
printf '%s\n    100.0            1,000         10     100.0     100.0        90       110          5.0  k\n' \
	"$(printf '%s' "$nsys_head" | sed '$s/  ----$//')" >"$ndir/dashes.txt"
nsys_bad "a separator with a dash run short" 2 1 dashes.txt
printf '%s\n    250.0            1,000         10     100.0     100.0        90       110          5.0  k\n' \
	"$nsys_head" >"$ndir/pct.txt"
nsys_bad "a share above 100%" 3 5 pct.txt
# A 1 MB name: loaded, cut to 64 KB and said so, in a blink.
{
	printf '%s\n100.0,1000,10,100.0,100.0,90,110,5.0,' "$nsys_csv"
	head -c 1048576 /dev/zero | tr '\0' k
	printf '\n'
} >"$ndir/long-name.csv"
if timeout 20 "$PROFTUI" --print kernels --format csv "$ndir/long-name.csv" >"$ndir/stdout" 2>"$ndir/stderr" &&
	grep -q 'name cut' "$ndir/stdout" && [ "$(wc -c <"$ndir/stdout")" -lt 200000 ]; then
	pass "badinput: nsys: a 1 MB name loads, cut"
else
	fail "badinput: nsys: a 1 MB name loads, cut"
fi
printf '%s\n100.0,1000,10,100.0,100.0,90,110,5.0,"k%s"\n' "$nsys_csv" "$(printf '\033]0;PWNED\007')" \
	>"$ndir/hostile.csv"
hostile "an nsys kernel name" 0 'k\x1b]0;PWNED\x07' --print kernels "$ndir/hostile.csv"
# 200,000 operations by time and by size join in linear time (each size
# row looked up, not searched for).
awk 'BEGIN {
	print "CUDA Memory Operation Statistics (by time):"
	print "Time (%),Total Time (ns),Count,Avg (ns),Min (ns),Max (ns),Operation"
	for (i = 0; i < 200000; i++) printf "0.0,10,1,10.0,10,10,op%d\n", i
	print ""
	print "CUDA Memory Operation Statistics (by size in KiB):"
	print "Total,Operations,Average,Minimum,Maximum,Operation"
	for (i = 0; i < 200000; i++) printf "1.000,1,1.000,1.000,1.000,op%d\n", i
}' >"$ndir/many-ops.csv"
if timeout 20 "$PROFTUI" --print memory_bandwidth --format csv "$ndir/many-ops.csv" >"$ndir/stdout" 2>"$ndir/stderr" &&
	[ "$(grep -c '^op' "$ndir/stdout")" -eq 200000 ]; then
	pass "badinput: nsys: 200,000 operations join in linear time"
else
	fail "badinput: nsys: 200,000 operations join in linear time"
fi
