#!/usr/bin/env bash
# Fetches the Debian 6.1 cloud kernel that the split-BTF work is checked against: the -dbg package
# (vmlinux and every module with DWARF, under usr/lib/debug) and the matching unsigned image package
# (the modules as the kernel build shipped them, each with its own split .BTF section). The newest
# 6.1 cloud ABI in the archive is picked, so both packages always belong to the same build.
# Usage: bench/get-debian-kernel.sh [DIR]   (DIR defaults to /tmp/kdbg; needs apt and ~2 GB)
# Afterwards: DIR/dbg/usr/lib/debug/lib/modules/VERSION/{vmlinux,kernel/...ko}
#             DIR/img/lib/modules/VERSION/kernel/...ko
set -euo pipefail
DIR="${1:-/tmp/kdbg}"
mkdir -p "$DIR"
cd "$DIR"
apt-get update -q >/dev/null
# The kernel ABI number is the one part that changes between builds: take the highest.
pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-cloud-amd64-dbg$' \
    | cut -d' ' -f1 | sort -V | tail -1)
[ -n "$pkg" ] || { echo "no linux-image-6.1.0-*-cloud-amd64-dbg in the apt sources" >&2; exit 1; }
img="${pkg%-dbg}-unsigned"
echo "packages: $pkg $img ($(apt-cache policy "$pkg" | awk '/Candidate/ { print $2 }'))"
apt-get download "$pkg" "$img"
rm -rf dbg img
dpkg-deb -x "$pkg"_*.deb dbg
dpkg-deb -x "$img"_*.deb img
ls -d dbg/usr/lib/debug/lib/modules/*/vmlinux img/lib/modules/*/kernel
