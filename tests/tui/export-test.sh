#!/bin/sh
# e writes the pane as shown (sort, filter, drill) to a file whose
# extension picks the format, asking before it overwrites.
. "$(dirname "$0")/lib.sh"
# A short directory of its own: the messages that name a file must fit in
# 80 columns whatever the clone's path (under build-asan/ in a long one,
# "wrote ... to DIR/home.md" was cut and the wait never matched).
dir=$(mktemp -d /tmp/proftui-export-XXXXXX)
tui_start "cd $dir && HOME=$dir $PROFTUI $ROOT/tests/golden/kineto/two-steps.json"
tui_keys 2
tui_wait 'sort: Dev self'
tui_keys e
check "e proposes a name" tui_wait 'export to: ops-two-steps.txt'
tui_keys Enter
check "writes the txt" tui_wait 'wrote 3 rows to ops-two-steps.txt (txt)'
check "an aligned table with full names" grep -q '^aten::cudnn_convolution  *2  *700.000 us' "$dir/ops-two-steps.txt"
tui_keys / cudnn Enter
for fmt in csv tsv json md; do
	tui_keys e C-u
	tui_text "ops.$fmt"
	tui_keys Enter
	check "writes $fmt" tui_wait "wrote 1 rows to ops.$fmt ($fmt)"
done
check "csv holds the filtered row" grep -qx 'aten::cudnn_convolution,2,700,700,445,460,93.333333,350,Yes,0,0' "$dir/ops.csv"
check "tsv has tabs" grep -q '^aten::cudnn_convolution	2	700' "$dir/ops.tsv"
check "json has the --print shape" grep -q '"name": "aten::cudnn_convolution", "calls": 2, "device_self_us": 700' "$dir/ops.json"
check "md is a table" grep -q '^| aten::cudnn_convolution | 2 | 700.000 us' "$dir/ops.md"
tui_keys e C-u
tui_text ops.csv
tui_keys Enter
check "asks before overwriting" tui_wait 'ops.csv exists; overwrite it? (y/n)'
tui_keys n
check "n leaves the file" tui_wait 'not overwritten'
tui_keys 3 e C-u
tui_text ops.csv
tui_keys Enter
tui_wait 'overwrite it?'
tui_keys y
check "y overwrites" tui_wait 'wrote 4 rows to ops.csv'
check "with the Kernels pane" grep -q '^name,calls,total_us' "$dir/ops.csv"
tui_keys e C-u
tui_text no-such-dir/x.txt
tui_keys Enter
check "an OS error is reported" tui_wait 'cannot write no-such-dir/x.txt: No such file or directory'
check "no temporary files left behind" sh -c "! ls -A '$dir' | grep -q proftui"
tui_keys e C-u
tui_text '~/home.md'
tui_keys Enter
check "~ is the home directory" tui_wait "wrote 4 rows to $dir/home.md (md)"
check "written there" test -f "$dir/home.md"
tui_keys e C-u
tui_text ops.xlsx
tui_keys Enter
check "an unknown extension is refused, the known ones listed" \
	tui_wait "not exported: unknown extension '.xlsx' (known: .txt .csv .tsv .json .md)"
check "and nothing written" test ! -e "$dir/ops.xlsx"
mkdir "$dir/sub.txt"
tui_keys e C-u
tui_text sub.txt
tui_keys Enter
check "a directory is refused before any question" tui_wait 'not exported: sub.txt is a directory'
check "no overwrite question" sh -c "! $T capture-pane -p -t t | grep -q 'overwrite it'"
rm -rf "$dir"
tui_done
