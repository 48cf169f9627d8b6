# SPDX-License-Identifier: MIT
# Sourced by tests/badinput/run.sh: values beyond model/bounds.h's bounds
# in the formats other than Kineto.  Each case is a readable file with one
# bad value: it must load (or fail) with the exit status given, say what
# it skipped at its place (FILE:LINE:COL: warning), and print no wrapped,
# negative or non-finite number.
bdir=$dir/bounds
mkdir -p "$bdir"

# bounded WHAT RC MESSAGE FILE ARGS...: proftui ARGS FILE exits RC, its
# stderr holds "FILE:LINE:COL: MESSAGE" (MESSAGE an extended regular
# expression, LINE:COL in it), its stdout no negative number, no inf and
# no nan.
bounded() {
	what=$1 want_rc=$2 want=$3 file=$4
	shift 4
	timeout 20 "$PROFTUI" "$@" "$file" >"$bdir/stdout" 2>"$bdir/stderr"
	rc=$?
	why=
	[ "$rc" -eq "$want_rc" ] || why="exit $rc, not $want_rc"
	[ -z "$why" ] && ! grep -F -- "$file:" "$bdir/stderr" | grep -Eq -- "^[^ ]*:$want" &&
		why="no '$want' in its messages"
	[ -z "$why" ] && grep -Eq '(^|[ (])-[0-9]|inf|nan' "$bdir/stdout" &&
		why="a negative or non-finite number: $(grep -Em 1 '(^|[ (])-[0-9]|inf|nan' "$bdir/stdout")"
	if [ -z "$why" ]; then
		pass "badinput: bounds: $what"
	else
		fail "badinput: bounds: $what ($why)"
		head -n 3 "$bdir/stderr"
	fi
}

# Paddle: ten iterations of 9e9 s each wrapped the Steps average; a cost
# too large for an int64 dropped its iteration without a word.
{
	echo '[2023-03-01 10:00:00] [INFO] iter 0, loss: 2.5, batch_cost: 0.25000 s, reader_cost: 0.01000 s'
	for i in 1 2 3 4 5 6 7 8 9; do
		echo "[2023-03-01 10:00:0$i] [INFO] iter $i, loss: 2.5, batch_cost: 9000000000 s, reader_cost: 0.01 s"
	done
} >"$bdir/paddle-costs.log"
bounded "a Paddle cost beyond 10^15 ns" 0 \
	"2:[0-9]+: warning: batch_cost '9000000000' is not a time from 0 to 10\\^15 ns" \
	"$bdir/paddle-costs.log" --print steps
sed '2s/9000000000/99999999999999999999/' "$bdir/paddle-costs.log" >"$bdir/paddle-huge.log"
bounded "a Paddle cost too large to parse" 0 \
	"2:[0-9]+: warning: batch_cost '99999999999999999999' is not a time" \
	"$bdir/paddle-huge.log" --print overview
# A summary row whose time (10^13 us: 10^19 ns) is past the bound: the row
# is skipped, the others kept.
{
	echo '------------------------------Operator Summary------------------------------'
	echo 'Time unit: us'
	echo '----------  ------  ------------------------------------------------'
	echo 'Name        Calls   CPU Total / Avg / Max / Min / Ratio(%)'
	echo '----------  ------  ------------------------------------------------'
	echo 'relu        2       10000000000000.00 / 5000000000000.00 / 5000000000000.00 / 5000000000000.00 / 99.00'
	echo 'conv2d      8       1200.00 / 150.00 / 180.00 / 130.00 / 1.00'
	echo '----------  ------  ------------------------------------------------'
} >"$bdir/paddle-row.txt"
bounded "a Paddle summary row beyond 10^15 ns" 0 \
	"6:[0-9]+: warning: row 'relu': '10000000000000.00 / .*' is beyond proftui's bounds" \
	"$bdir/paddle-row.txt" --print ops

# trtexec --exportProfile: a time of 10^12 ms was taken, a percentage of
# -50 or 1e999 shown as "-50.00%" and "inf%".
printf '[{"count": 10},\n{"name": "conv", "timeMs": 1e12, "averageMs": 1, "medianMs": 1, "percentage": 50},\n{"name": "relu", "timeMs": 2, "averageMs": 0.2, "medianMs": 0.2, "percentage": 50}]\n' \
	>"$bdir/trt-time.json"
bounded "a trtexec profile time of 10^12 ms" 0 \
	"2:28: warning: 'timeMs' of layer 'conv' is '1e12', beyond proftui's bound of 10\\^15 ns" \
	"$bdir/trt-time.json" --print ops
sed '2s/1e12/10/; 2s/"percentage": 50/"percentage": -50/; 3s/"percentage": 50/"percentage": 1e999/' \
	"$bdir/trt-time.json" >"$bdir/trt-pct.json"
bounded "a negative trtexec percentage" 0 \
	"2:77: warning: 'percentage' of layer 'conv' is '-50', not a percentage from 0 to 100" \
	"$bdir/trt-pct.json" --print ops
bounded "an infinite trtexec percentage" 0 \
	"3:80: warning: 'percentage' of layer 'relu' is '1e999', not a percentage from 0 to 100" \
	"$bdir/trt-pct.json" --print ops
# The same in the log's --dumpProfile table.
{
	echo '[11/18/2023-17:33:12] [I] === Profile (10 iterations ) ==='
	echo '[11/18/2023-17:33:12] [I]   Layer   Time (ms)   Avg. Time (ms)   Median Time (ms)   Time %'
	echo '[11/18/2023-17:33:12] [I]    conv     1e12              1.0                1.0     50.0'
	echo '[11/18/2023-17:33:12] [I]    relu       10              1.0                1.0    -50.0'
	echo '[11/18/2023-17:33:12] [I]    pool       10              1.0                1.0      inf'
	echo '[11/18/2023-17:33:12] [I]   Total       20              2.0                2.0    100.0'
} >"$bdir/trt-log.txt"
bounded "a trtexec log time of 10^12 ms" 0 \
	"3:39: warning: '1e12' in a profile table is beyond proftui's bound of 10\\^15 ns" \
	"$bdir/trt-log.txt" --print ops
bounded "a negative trtexec log percentage" 0 \
	"4:83: warning: '-50.0' in a profile table is not a percentage from 0 to 100" \
	"$bdir/trt-log.txt" --print ops
bounded "an infinite trtexec log percentage" 0 \
	"5:85: warning: 'inf' in a profile table is not a percentage from 0 to 100" \
	"$bdir/trt-log.txt" --print ops
# trtexec --exportTimes: a compute time of 10^12 ms was a step's part;
# the inference keeps its other parts, the bad ones left blank.
{
	echo '['
	echo '  { "startEnqMs" : 200.123, "endEnqMs" : 200.135, "startH2dMs" : 200.125, "h2dMs" : 0.0061, "computeMs" : 0.1024, "d2hMs" : 0.0043, "latencyMs" : 0.1128 }'
	echo ', { "startEnqMs" : 200.273, "endEnqMs" : 200.286, "startH2dMs" : 200.275, "h2dMs" : 0.0061, "computeMs" : 1e12, "d2hMs" : 0.0043, "latencyMs" : 0.1131 }'
	echo ']'
} >"$bdir/trt-times.json"
bounded "a trtexec inference time of 10^12 ms" 0 \
	"3:3: warning: inference 1 has missing, negative, non-numeric or out-of-bounds times" \
	"$bdir/trt-times.json" --print steps
# trex's device file: a TotalMemory of 2^62 bytes was the device's size.
printf '[{"Name": "GPU", "ComputeCapability": [8, 6],\n "TotalMemory": 4611686018427387904}]\n' \
	>"$bdir/trex.metadata.json"
bounded "a trex device memory of 2^62 bytes" 0 \
	"2:17: warning: size 4611686018427387904 is beyond proftui's bound of 2\\^50 bytes" \
	"$bdir/trex.metadata.json" --print info
# A --dumpProfile table of 2^62 iterations, the log's only content.
sed '1s/(10 iterations/(4611686018427387904 iterations/' "$bdir/trt-log.txt" >"$bdir/trt-log-count.txt"
bounded "a trtexec log iteration count of 2^62" 2 \
	"1:1: warning: cannot read an iteration count \\(0 to 2\\^40\\)" \
	"$bdir/trt-log-count.txt" --print ops
# MegEngine load_and_run: an iteration of 10^12 ms was a step.
sed 's|^iter 1/4: 11.000 ms|iter 1/4: 1000000000000.000 ms|' tests/golden/megengine/lar-v17.txt \
	>"$bdir/lar-iter.txt"
bounded "a MegEngine iteration of 10^12 ms" 0 \
	"8:1: warning: cannot read iteration 'iter 1/4: 1000000000000.000 ms .*': a time beyond proftui's bound of 10\\^15 ns" \
	"$bdir/lar-iter.txt" --print steps
# profile_analyze: an operator of 2*10^6 s of device time, and a summary
# total of as much.
sed 's|^│ 0.002              │|│ 2000000            │|; s|^total device time  0.01|total device time  2000000|' \
	tests/golden/megengine/analyze-type.txt >"$bdir/analyze.txt"
bounded "a MegEngine operator of 2*10^6 s" 0 \
	"[0-9]+:1: warning: profile_analyze row 'Elemwise' has a value beyond proftui's bounds" \
	"$bdir/analyze.txt" --print ops
bounded "a MegEngine summary time of 2*10^6 s" 0 \
	"2:1: warning: cannot read profile_analyze summary 'total device time  2000000': a time beyond" \
	"$bdir/analyze.txt" --print info
# MegEngine --profile JSON: an operator of 4.6e9 s (start -2.3e9 s) was
# taken, and a memory of 2^62 bytes.
sed '6s/"start": 0.0003/"start": -2300000000/; 11s/"memory": 602112/"memory": 4611686018427387904/' \
	tests/golden/megengine/profile.json >"$bdir/mge-profile.json"
bounded "a MegEngine JSON operator time of 4.6e9 s" 0 \
	"6:[0-9]+: warning: operator time without a valid start and end \\(0 to 10\\^15 ns apart" \
	"$bdir/mge-profile.json" --print ops
bounded "a MegEngine JSON memory of 2^62 bytes" 0 \
	"11:[0-9]+: warning: unexpected value for 'memory', skipped" \
	"$bdir/mge-profile.json" --print ops
# torch_table: a row of 2^62 calls was a row.
{
	echo '---------------------  ------------  ------------  ------------  ------------  ---------------------'
	echo '                 Name    Self CPU %      Self CPU   CPU total %     CPU total             # of Calls'
	echo '---------------------  ------------  ------------  ------------  ------------  ---------------------'
	echo '             aten::mm        50.00%       1.000ms        50.00%       1.000ms    4611686018427387904'
	echo '            aten::add        50.00%       1.000ms        50.00%       1.000ms                      2'
	echo '---------------------  ------------  ------------  ------------  ------------  ---------------------'
	echo 'Self CPU time total: 2.000ms'
} >"$bdir/table-calls.txt"
bounded "a key_averages row of 2^62 calls" 0 \
	"4:82: warning: '4611686018427387904' is not a valid '# of Calls' value; row skipped" \
	"$bdir/table-calls.txt" --print ops
# tb_json: an operator and a kernel of 2^62 calls, a step part of -40 ms.
sed '1s/"rows": \[\["3", 41000/"rows": [["3", -41000/; 3s/"calls": 106/"calls": 4611686018427387904/;
	4s/"Yes", 53, 30010/"Yes", 4611686018427387904, 30010/' \
	tests/golden/tb-json/two-runs.json >"$bdir/tb.json"
bounded "a tb_json operator of 2^62 calls" 0 \
	"3:[0-9]+: warning: operator 'aten::cudnn_convolution' has a call count or duration that is not a number within proftui's bounds" \
	"$bdir/tb.json" --print ops
bounded "a tb_json kernel of 2^62 calls" 0 \
	"4:[0-9]+: warning: kernel row lacks a name, or a call count or total duration within proftui's bounds" \
	"$bdir/tb.json" --print kernels
bounded "a tb_json step part of -40 ms" 0 \
	"1:[0-9]+: warning: step value is not a duration from 0 to 10\\^15 ns" \
	"$bdir/tb.json" --print steps

# A line over INPUT_MAX_SPAN (4 MB) is cut; the text after it must still
# be found by detection, for every text format, without -F.
head -c 5000000 /dev/zero | tr '\0' a >"$bdir/long-line"
echo >>"$bdir/long-line"
for f in torch-table/same-name.txt:torch-table paddle/summary-2.3.txt:paddle \
	megengine/lar-v17.txt:megengine megengine/analyze-type.txt:megengine \
	trtexec/log-trt85.txt:trtexec-log; do
	fixture=tests/golden/${f%:*} format=${f#*:}
	cat "$bdir/long-line" "$fixture" >"$bdir/after-long-line.txt"
	timeout 20 "$PROFTUI" --print info "$bdir/after-long-line.txt" >"$bdir/stdout" 2>"$bdir/stderr"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -Eq "^profile +format +$format\$" "$bdir/stdout"; then
		pass "badinput: detection past a line over 4 MB: ${f%:*}"
	else
		fail "badinput: detection past a line over 4 MB: ${f%:*} (exit $rc)"
		head -n 3 "$bdir/stderr"
	fi
done
# A Paddle Kernel Summary ratio of -50%: the kernel's share, shown as is.
{
	echo '----------------------------Kernel Summary----------------------------'
	echo 'Time unit: ms'
	echo '-----------------  ------  ----------------------------------------'
	echo 'Name               Calls   GPU Total / Avg / Max / Min / Ratio(%)'
	echo '-----------------  ------  ----------------------------------------'
	echo 'gemm_kernel        12      24.00 / 2.00 / 2.20 / 1.80 / -50.00'
	echo 'relu_kernel        12      12.00 / 1.00 / 1.10 / 0.90 / inf'
	echo '-----------------  ------  ----------------------------------------'
} >"$bdir/paddle-ratio.txt"
bounded "a Paddle kernel ratio of -50%" 0 \
	"6:[0-9]+: warning: row 'gemm_kernel': ratio in '24.00 / .* / -50.00' is not a percentage from 0 to 100" \
	"$bdir/paddle-ratio.txt" --print kernels
bounded "a Paddle kernel ratio of inf" 0 \
	"7:[0-9]+: warning: row 'relu_kernel': ratio in '12.00 / .* / inf' is not a percentage from 0 to 100" \
	"$bdir/paddle-ratio.txt" --print kernels
# profile_analyze: an operator's share of -60%.
sed 's|^│ 60.0%              │|│ -60.0%             │|' tests/golden/megengine/analyze-type.txt \
	>"$bdir/analyze-pct.txt"
bounded "a MegEngine share of -60%" 0 \
	"[0-9]+:1: warning: profile_analyze row 'ConvolutionForward': share -60% is not a percentage from 0 to 100" \
	"$bdir/analyze-pct.txt" --print ops --format csv
# tb_json: a Tensor Cores share of -21.3% and an occupancy of 1e999%.
sed '3s/"tc_self_ratio": 21.3/"tc_self_ratio": -21.3/; 4s/1201, 402, 12.33, 37.5\]/1201, 402, 12.33, 1e999]/' \
	tests/golden/tb-json/two-runs.json >"$bdir/tb-pct.json"
bounded "a tb_json Tensor Cores share of -21.3%" 0 \
	"3:[0-9]+: warning: '-21.3' is not a percentage from 0 to 100" \
	"$bdir/tb-pct.json" --print ops --format csv
bounded "a tb_json occupancy of 1e999%" 0 \
	"4:[0-9]+: warning: '1e999' is not a percentage from 0 to 100" \
	"$bdir/tb-pct.json" --print kernels --format csv
sed '4s/1201, 402, 12.33, 37.5\]/1201, 402, 1e999, 37.5]/' tests/golden/tb-json/two-runs.json \
	>"$bdir/tb-bpsm.json"
bounded "a tb_json kernel of 1e999 blocks per SM" 0 \
	"4:[0-9]+: warning: blocks per SM '1e999' is not a number from 0" \
	"$bdir/tb-bpsm.json" --print kernels --format csv
# A Paddle row's FLOPs of 1e999 showed as "inf".
sed -n '17,26p' tests/golden/paddle/summary-new.txt | sed '10s/1048576     $/1e999       /' >"$bdir/paddle-flops.txt"
echo '----------------------------------------------------  ------  ----------------------------------------  ----------------------------------------  ----------  ' \
	>>"$bdir/paddle-flops.txt"
bounded "Paddle FLOPs of 1e999" 0 \
	"10:[0-9]+: warning: row 'matmul dygraph': FLOPs '1e999' are not a finite count from 0" \
	"$bdir/paddle-flops.txt" --print ops --format csv
