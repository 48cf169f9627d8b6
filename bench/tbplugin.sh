#!/bin/sh
# SPDX-License-Identifier: MIT
# proftui against torch-tb-profiler's loader on the same trace (issue 13):
# the plugin's own work before it can serve a page -- RunProfileData.parse
# of the file, then RunGenerator.generate_run_profile() -- timed in one
# python3 process, against `proftui --print ops` of the file.  Prints both
# medians of RUNS runs (wall seconds, peak RSS) and the ratios.  Figures,
# not a test; the machine is shared, so runs alternate.
#
# It needs the plugin's source, which this repository does not carry:
#   TB_PLUGIN_SRC  an unpacked tb_plugin directory of pytorch/kineto, with
#                  python3-numpy and python3-pandas installed
# and skips, saying so, without them.
#   PROFTUI   binary (default build/proftui)
#   TRACE     the trace (default bench/out/trace-100M.json, made by run.sh)
#   RUNS      runs of each (default 3)
#   PYTHON    the interpreter (default python3)
set -eu
PROFTUI=${PROFTUI:-build/proftui}
TRACE=${TRACE:-bench/out/trace-100M.json}
RUNS=${RUNS:-3}
PYTHON=${PYTHON:-python3}
DIR=${BENCH_DIR:-bench/out}

skip() {
	echo "tbplugin: skipped: $*"
	exit 0
}

[ -n "${TB_PLUGIN_SRC:-}" ] || skip "TB_PLUGIN_SRC is not set (an unpacked tb_plugin directory)"
[ -d "$TB_PLUGIN_SRC/torch_tb_profiler" ] || skip "no torch_tb_profiler package in $TB_PLUGIN_SRC"
"$PYTHON" -c 'import numpy, pandas' 2>/dev/null || skip "$PYTHON lacks numpy or pandas"
if [ ! -f "$TRACE" ]; then
	mkdir -p "$(dirname "$TRACE")"
	python3 bench/gentrace.py --size 100M -o "$TRACE"
fi
mkdir -p "$DIR"

# The plugin's load of one trace, as its run loader does it for one worker.
cat >"$DIR/tbplugin_load.py" <<'EOF'
import logging, os, sys, tempfile, warnings
warnings.filterwarnings('ignore')
logging.disable(logging.CRITICAL)
sys.path.insert(0, os.environ['TB_PLUGIN_SRC'])
from torch_tb_profiler.profiler.data import RunProfileData
from torch_tb_profiler.profiler.run_generator import RunGenerator
with tempfile.TemporaryDirectory() as cache:
    data = RunProfileData.parse('worker0', 1, sys.argv[1], cache)
RunGenerator('worker0', 1, data).generate_run_profile()
EOF

. "$(dirname "$0")/lib.sh"

cat "$TRACE" >/dev/null	# the page cache, warm for both
pw= pr= tw= tr=
for i in $(seq "$RUNS"); do
	set -- $(measure "$PROFTUI" --print ops -o /dev/null "$TRACE")
	pw="$pw $1" pr="$pr $2"
	set -- $(measure "$PYTHON" "$DIR/tbplugin_load.py" "$TRACE")
	tw="$tw $1" tr="$tr $2"
done
pw=$(echo $pw | tr ' ' '\n' | median)
pr=$(echo $pr | tr ' ' '\n' | median)
tw=$(echo $tw | tr ' ' '\n' | median)
tr=$(echo $tr | tr ' ' '\n' | median)
awk -v f="$(basename "$TRACE")" -v pw="$pw" -v pr="$pr" -v tw="$tw" -v tr="$tr" 'BEGIN {
	printf "%-24s %10s %10s\n", f, "wall_s", "rss_MB"
	printf "%-24s %10.2f %10.1f\n", "torch-tb-profiler", tw, tr / 1024
	printf "%-24s %10.2f %10.1f\n", "proftui --print ops", pw, pr / 1024
	printf "%-24s %9.1fx %9.1fx\n", "plugin / proftui", (pw > 0 ? tw / pw : 0), (pr > 0 ? tr / pr : 0)
}'
