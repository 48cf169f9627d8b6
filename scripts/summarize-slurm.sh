#!/bin/sh
# SPDX-License-Identifier: MIT
# A Slurm array job that writes one proftui summary per trace, where the
# traces are: task i summarises the i-th trace of TRACE_DIR (by name).
#
#   n=$(ls TRACE_DIR/*.pt.trace.json* | wc -l)
#   sbatch --array=0-$((n - 1)) scripts/summarize-slurm.sh TRACE_DIR OUT_DIR
#   proftui OUT_DIR/*.summary          # afterwards, on any machine
#
# Try it without Slurm by setting the variable each array task gets:
#   SLURM_ARRAY_TASK_ID=0 sh scripts/summarize-slurm.sh traces out
# PROFTUI names the binary (default: proftui on the PATH).  A summary
# takes one core and about a fifth of its trace's size in memory.
#SBATCH --job-name=proftui-summary
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=00:30:00
#SBATCH --output=proftui-summary-%A_%a.log
set -eu

if [ $# -ne 2 ]; then
	echo "usage: SLURM_ARRAY_TASK_ID=N $0 TRACE_DIR OUT_DIR" >&2
	exit 1
fi
dir=$1
out=$2
proftui=${PROFTUI:-proftui}
task=${SLURM_ARRAY_TASK_ID:?this is a Slurm array job: set SLURM_ARRAY_TASK_ID}

case $task in
'' | *[!0-9]*)
	echo "$0: SLURM_ARRAY_TASK_ID is '$task', not a number" >&2
	exit 1
	;;
esac
# The traces in name order, as every task sees them: task i takes line i+1.
trace=$(find "$dir" -maxdepth 1 -type f \( -name '*.pt.trace.json' -o \
	-name '*.pt.trace.json.gz' \) | LC_ALL=C sort | sed -n "$((task + 1))p")
if [ -z "$trace" ]; then
	echo "$0: no trace number $task in $dir" >&2
	exit 1
fi
mkdir -p "$out"
exec "$proftui" --summary -o "$out/$(basename "$trace").summary" "$trace"
