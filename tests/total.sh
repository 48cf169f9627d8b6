#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/total.sh LOG...: sum the closing "N passed, N failed, N skipped"
# lines of several `make` runs into one such line (make check-all: the
# plain and the ASan runs).  Each LOG ends with "# exit N", make's status,
# which the Makefile appends.  A log without a count line (the build
# broke) or whose make failed with no failure counted (a suite that never
# started) counts one failure more.
for log in "$@"; do
	awk -v log_name="$log" '
	/^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ { p = $1; f = $3; s = $5 + 0; seen = 1 }
	/^# exit [0-9]+$/ { rc = $3 }
	END {
		if (!seen) {
			print "FAIL: " log_name ": no count line (exit " rc ")" >"/dev/stderr"
			f = 1
		} else if (rc != 0 && f == 0) {
			print "FAIL: " log_name ": make exited " rc " with 0 failed" >"/dev/stderr"
			f = 1
		}
		print p + 0, f, s + 0
	}' "$log"
done | awk '{ p += $1; f += $2; s += $3 }
END {
	printf "%d passed, %d failed, %d skipped\n", p, f, s
	exit (f > 0)
}'
