#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages that building and testing proftui need,
# only those missing.  Runs apt-get as root, or through sudo.
pkgs="make gcc pkg-config libncurses-dev libpcre2-dev zlib1g-dev tmux groff-base locales python3 procps libtsan2 libisal-dev python3-wheel python3-venv slurm-wlm munge parallel"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
