#!/bin/sh
# SPDX-License-Identifier: MIT
# Sum the closing "N passed, N failed, N skipped" lines of several test
# logs into one line (make check-all: the plain and the ASan runs).  A log
# without such a line (the build broke) counts as one failure.
for log in "$@"; do
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	[ -n "$line" ] || line="0 passed, 1 failed, 0 skipped"
	echo "$line"
done | awk '{ p += $1; f += $3; s += $5 }
END {
	printf "%d passed, %d failed, %d skipped\n", p, f, s
	exit f > 0
}'
