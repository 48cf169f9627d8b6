# SPDX-License-Identifier: MIT
"""python -m proftui ARGS: replace this process with the proftui binary,
so that its exit status, signals and terminal are the binary's own."""
import os
import sys

from proftui import find_proftui


def main():
    try:
        path = find_proftui()
    except FileNotFoundError as e:
        sys.stderr.write("%s\n" % e)
        return 127
    os.execv(path, ["proftui"] + sys.argv[1:])
    return 127


if __name__ == "__main__":
    sys.exit(main())
