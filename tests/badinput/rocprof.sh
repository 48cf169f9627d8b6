# SPDX-License-Identifier: MIT
# Sourced by tests/badinput/run.sh after bounds.sh (its bounded()): the
# rocprof CSV parsers on hostile input.  A value a sum could wrap on, a
# quote left open, a field of a megabyte, a timestamp past its bound: an
# error at its place and exit 2; sums of bounded values that pass int64:
# capped and warned about, never wrapped.
rdir=$dir/rocprof
mkdir -p "$rdir"
stats_hdr='"Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev"'
api_hdr='"Domain","Function","Process_Id","Thread_Id","Correlation_Id","Start_Timestamp","End_Timestamp"'
kt_hdr='"Kind","Agent_Id","Queue_Id","Kernel_Id","Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp"'

printf '%s\n"k",1,9223372036854775807,1,1,1,1,0\n' "$stats_hdr" >"$rdir/int64-total.csv"
bounded "rocprof: a kernel total of INT64_MAX" 2 \
	"2:7: error: value '9223372036854775807' is not a duration within 10\\^15 ns" \
	"$rdir/int64-total.csv" --print kernels
printf '%s\n"k",18446744073709551615,1,1,1,1,1,0\n' "$stats_hdr" >"$rdir/huge-calls.csv"
bounded "rocprof: calls past int64" 2 "2:5: error: value '18446744073709551615' is not an integer" \
	"$rdir/huge-calls.csv" --print kernels
printf '%s\n"k",1,10,10,nan,10,10,0\n' "$stats_hdr" >"$rdir/nan-pct.csv"
bounded "rocprof: a NaN percentage" 2 "2:13: error: value 'nan' is not a number" \
	"$rdir/nan-pct.csv" --print kernels
printf '%s\n"k(int, float),1,10,10,100,10,10,0\n' "$stats_hdr" >"$rdir/open-quote.csv"
bounded "rocprof: a quote left open" 2 "2:1: error: quote left open at the end of the line" \
	"$rdir/open-quote.csv" --print kernels
{ printf '%s\n"' "$stats_hdr"; head -c 1048576 /dev/zero | tr '\0' k; printf '",1,10,10,100,10,10,0\n'; } \
	>"$rdir/mb-field.csv"
bounded "rocprof: a name of 1 MB" 2 "2:2: error: a field longer than 65536 bytes" \
	"$rdir/mb-field.csv" --print kernels
printf '%s\n"KERNEL_DISPATCH",1,1,7,"k",1,4611686018427387904,4611686018427387905\n' "$kt_hdr" \
	>"$rdir/ts-bound.csv"
bounded "rocprof: a timestamp past 2^62 ns" 2 "2:[0-9]+: error: value '4611686018427387904' is not a timestamp" \
	"$rdir/ts-bound.csv" --print timeline
printf '%s\n"KERNEL_DISPATCH",1,1,7,"k",1,2000,1000\n"KERNEL_DISPATCH",1,1,7,"k",2,3000,3500\n' \
	"$kt_hdr" >"$rdir/backwards.csv"
bounded "rocprof: a dispatch that ends before it starts" 0 \
	"2:[0-9]+: warning: 'k' ends before it starts; skipped" "$rdir/backwards.csv" --print kernels
# 20,000 rows of the longest total a row may have: the Overview's sum of
# kernel time passes int64 and is capped, as is the API pane's sum of
# 20,000 calls of the longest duration.
{
	echo "$stats_hdr"
	awk 'BEGIN { for (i = 0; i < 20000; i++)
		printf "\"k%d\",1000,1000000000000000,1000000000000,0.005,1000000000000,1000000000000,0\n", i }'
} >"$rdir/long-stats.csv"
capped "rocprof: 20,000 kernel rows of 10^15 ns" no --print overview "$rdir/long-stats.csv"
{
	echo "$api_hdr"
	awk 'BEGIN { for (i = 0; i < 20000; i++)
		printf "\"HIP_RUNTIME_API\",\"hipMemcpy\",1,1,%d,1,1000000000000001\n", i }'
} >"$rdir/long-api.csv"
# The API and Annotations panes mark a capped total (">=") and, in every
# format, warn of it: their sums are name_stats' (model/name_stats.c),
# which no pane type counted, so the export counts the capped cells.
sed 's/"HIP_RUNTIME_API","hipMemcpy"/"MARKER_CORE_API","step"/' "$rdir/long-api.csv" >"$rdir/long-marker.csv"
for c in "api long-api" "annotations long-marker"; do
	set -- $c
	for fmt in txt csv json; do
		timeout 20 "$PROFTUI" --print "$1" --format $fmt "$rdir/$2.csv" >"$rdir/stdout" 2>"$rdir/stderr"
		rc=$?
		if [ "$rc" -eq 0 ] && { [ $fmt != txt ] || grep -q '>=[0-9]' "$rdir/stdout"; } &&
		   grep -q "warning: 1 figure in the $1 pane is made of sums that passed 73 years" "$rdir/stderr" &&
		   ! grep -Eq '(^|[ ,=])-[0-9]' "$rdir/stdout"; then
			pass "badinput: rocprof: 20,000 of 10^15 ns, the $1 pane in $fmt warns of its capped total"
		else
			fail "badinput: rocprof: 20,000 of 10^15 ns, the $1 pane in $fmt warns of its capped total (exit $rc)"
			head -n 5 "$rdir/stdout" "$rdir/stderr"
		fi
	done
done
kta_hdr='"Kind","Agent_Id","Queue_Id","Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp","LDS_Block_Size","VGPR_Count"'
printf '%s\n"KERNEL_DISPATCH",1,1,"k",1,1000,2000,-8,12\n' "$kta_hdr" >"$rdir/neg-lds.csv"
bounded "rocprof: a kernel's negative LDS size" 2 "2:[0-9]+: error: value '-8' is not a size within 2\\^62" \
	"$rdir/neg-lds.csv" --print kernels
# A run's kernel and HIP API traces link by Correlation_Id: an id that two
# calls of other threads hold links nothing (warned), and 20,000 calls
# and dispatches of one id stay linear (a look-up per dispatch).
rrun=$rdir/run
mkdir -p "$rrun"
printf '%s\n"HIP_RUNTIME_API","hipLaunchKernel",1,7,5,1000,2000\n"HIP_RUNTIME_API","hipLaunchKernel",1,8,5,1500,2500\n' \
	"$api_hdr" >"$rrun/a_hip_api_trace.csv"
printf '%s\n"KERNEL_DISPATCH",1,1,7,"k",5,3000,4000\n"KERNEL_DISPATCH",1,1,7,"k",6,5000,6000\n' \
	"$kt_hdr" >"$rrun/a_kernel_trace.csv"
bounded "rocprof: a dispatch whose id two calls of other threads hold" 0 \
	" warning: 2 kernel dispatches or copies not linked to a HIP call: 1 of an id no call of the API trace has, 1 of an id several calls have" \
	"$rrun/a_kernel_trace.csv" --print tree "$rrun/a_hip_api_trace.csv"
awk -v h="$api_hdr" 'BEGIN { print h; for (i = 0; i < 20000; i++)
	printf "\"HIP_RUNTIME_API\",\"hipLaunchKernel\",1,%d,1,%d,%d\n", i % 2, i * 10, i * 10 + 5 }' \
	>"$rrun/b_hip_api_trace.csv"
awk -v h="$kt_hdr" 'BEGIN { print h; for (i = 0; i < 20000; i++)
	printf "\"KERNEL_DISPATCH\",1,1,%d,\"k\",1,%d,%d\n", i % 3, i * 10 + 6, i * 10 + 8 }' \
	>"$rrun/b_kernel_trace.csv"
bounded "rocprof: 20,000 calls and dispatches of one Correlation_Id" 0 \
	" warning: 20000 kernel dispatches or copies not linked to a HIP call: 0 of an id no call of the API trace has, 20000 of an id several calls have" \
	"$rrun/b_kernel_trace.csv" --print launches "$rrun/b_hip_api_trace.csv"
