#!/bin/sh
# SPDX-License-Identifier: MIT
# build-wheel.sh BINARY OUTDIR: a wheel of the static proftui BINARY in
# OUTDIR, packed offline by `python3 -m wheel pack` (Debian's
# python3-wheel), named by the version BINARY prints.  (`make wheel`.)
#   PYTHON  the interpreter that has the wheel module (default python3)
#
# The binary goes in as a script (NAME.data/scripts/proftui): installers
# copy it to the environment's bin/ as it is, executable, so `proftui` on
# PATH is the binary itself.  python/proftui/ holds `python -m proftui`.
#
# Platform tag: the binary needs no shared library, only a Linux kernel of
# 3.2 on (the ELF note static glibc writes).  manylinux2014
# (manylinux_2_17: CentOS 7, kernel 3.10) is the oldest reference
# platform whose kernel runs it; pip accepts it on every x86-64 glibc 2.17
# on, that is any x86-64 glibc Linux still supported.  manylinux1 and
# 2010 (kernel 2.6) would claim systems it cannot run on.
set -e
bin=$1 out=$2
PYTHON=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] && [ -n "$out" ] || { echo "usage: $0 BINARY OUTDIR" >&2; exit 1; }
# A program interpreter (ld.so) in its headers: dynamically linked.
if LC_ALL=C readelf -l "$bin" | grep -q INTERP; then
	echo "$0: $bin is not statically linked (make static builds it)" >&2
	exit 1
fi
# "proftui 0.1 (static; ...)"
version=$("$bin" --version | awk 'NR == 1 { print $2 }')
case $version in
[0-9]*) ;;
*) echo "$0: no version from $bin --version" >&2; exit 1 ;;
esac
tag=py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64
name=proftui-$version
tree=$out/wheel-tree/$name
rm -rf "$out/wheel-tree"
mkdir -p "$tree/proftui" "$tree/$name.data/scripts" "$tree/$name.dist-info"
cp "$here/proftui/__init__.py" "$here/proftui/__main__.py" "$tree/proftui/"
cp "$bin" "$tree/$name.data/scripts/proftui"
chmod 755 "$tree/$name.data/scripts/proftui"
cat >"$tree/$name.dist-info/METADATA" <<META
Metadata-Version: 2.1
Name: proftui
Version: $version
Summary: A terminal explorer for deep-learning profiler output
License: MIT
Requires-Python: >=3.6

The proftui binary, statically linked: after pip install, proftui is on
PATH, and python -m proftui runs it.  See proftui(1).
META
{
	echo "Wheel-Version: 1.0"
	echo "Generator: proftui python/build-wheel.sh"
	echo "Root-Is-Purelib: false"
	for platform in $(echo "${tag#py3-none-}" | tr . ' '); do
		echo "Tag: py3-none-$platform"
	done
} >"$tree/$name.dist-info/WHEEL"
# One wheel in OUTDIR: the one of this binary.
rm -f "$out"/proftui-*.whl
"$PYTHON" -m wheel pack --dest-dir "$out" "$tree" >/dev/null
rm -rf "$out/wheel-tree"
ls "$out/$name"-*.whl
