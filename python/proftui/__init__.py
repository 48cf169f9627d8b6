# SPDX-License-Identifier: MIT
"""proftui, a terminal explorer for deep-learning profiler output.

The wheel installs the statically linked proftui binary as a script
(``proftui`` on PATH, no Python in between); ``python -m proftui ARGS``
finds that binary and execs it.
"""
import os
import sys
import sysconfig

__all__ = ["find_proftui"]


def _scripts_dirs():
    """Where an installer puts a wheel's scripts, most likely first."""
    dirs = [sysconfig.get_path("scripts")]
    # pip install --user
    if sys.version_info >= (3, 10):
        user = sysconfig.get_preferred_scheme("user")
    else:
        user = "posix_user"
    try:
        dirs.append(sysconfig.get_path("scripts", user))
    except KeyError:
        pass
    # --prefix or --target: PREFIX/bin beside PREFIX/lib/pythonX.Y/site-packages
    site = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs.append(os.path.join(site, os.pardir, os.pardir, os.pardir, "bin"))
    dirs.append(os.path.join(site, "bin"))
    return dirs


def find_proftui():
    """The path of the proftui binary this package installed."""
    for d in _scripts_dirs():
        path = os.path.join(d, "proftui")
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.normpath(path)
    raise FileNotFoundError(
        "proftui: the binary this package installs is not in "
        + ", ".join(os.path.normpath(d) for d in _scripts_dirs()))
