#!/usr/bin/env bash
# .BTF sizes of the Debian 6.1 cloud kernel, measured by perfj: vmlinux's BTF and the split BTF
# of every module of the package (each on that vmlinux BTF) with --vars none, percpu (pahole -J's
# default) and all; what is built in (vmlinux) against what is in modules, and the two combined.
# For comparison, the sizes of the .BTF sections the Debian build itself shipped (pahole 1.24,
# per-CPU variables): vmlinux's from the -dbg package, the modules' from the -unsigned package.
# Prints a markdown table.
# Usage: bench/btf-split-sizes.sh [KDBG] [MODULE...]
#   KDBG: where bench/get-debian-kernel.sh unpacked the packages (default /tmp/kdbg);
#   MODULE: modules also listed one by one, paths under kernel/ without .ko
#   (default drivers/net/veth fs/xfs/xfs net/netfilter/nf_tables).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KDBG="${1:-/tmp/kdbg}"
shift $(( $# > 1 ? 1 : $# ))
MODULES=("$@")
[ ${#MODULES[@]} -gt 0 ] || MODULES=(drivers/net/veth fs/xfs/xfs net/netfilter/nf_tables)
export LC_ALL=C TZ=UTC
. "$ROOT/bench/debian-kernel.sh"
kernel_dirs "$KDBG" img
n=$(find "$DBG/kernel" -name '*.ko' -type f | wc -l)
echo "$(basename "$DBG"), $n modules; perfj $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "(no git)"), $(date -u '+%F %H:%M UTC')"
echo
# the size of an ELF file's .BTF section (0 when it has none)
btf_section() {
    local hex
    hex=$(readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *\.BTF  *[A-Z]*  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
    printf '%d\n' "0x${hex:-0}"
}
sum() { awk '{ s += $1 } END { print s + 0 }'; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KiB", b / 1024 }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MiB", b / 1048576 }'; }
for v in none percpu all; do
    "$ROOT/perfj" btf encode "$VMLINUX" --vars "$v" -o "$tmp/vmlinux.$v"
    "$ROOT/perfj" btf encode --base "$tmp/vmlinux.$v" --vars "$v" -o "$tmp/modules.$v" "$DBG/kernel"
done
deb_vmlinux=$(btf_section "$VMLINUX")
find "$IMG/kernel" -name '*.ko' -type f | sort > "$tmp/img"
deb_mods=$(while read -r f; do btf_section "$f"; done < "$tmp/img" | sum)
printf '| .BTF | --vars none | --vars percpu | --vars all | Debian build (pahole 1.24) |\n|---|---|---|---|---|\n'
row() { # label, then a command printing the size in bytes for a vars mode, then the Debian figure
    local label="$1" f="$2" deb="$3" line
    line="| $label |"
    for v in none percpu all; do line="$line $($f "$v") |"; done
    echo "$line $deb |"
}
vm() { mb "$(stat -c %s "$tmp/vmlinux.$1")"; }
mods() { mb "$(find "$tmp/modules.$1" -type f -printf '%s\n' | sum)"; }
both() { mb "$(( $(stat -c %s "$tmp/vmlinux.$1") + $(find "$tmp/modules.$1" -type f -printf '%s\n' | sum) ))"; }
row "vmlinux (built in)" vm "$(mb "$deb_vmlinux")"
row "$n modules (split, on vmlinux of the same mode)" mods "$(mb "$deb_mods")"
row "combined" both "$(mb $(( deb_vmlinux + deb_mods )))"
for m in "${MODULES[@]}"; do
    name=$(basename "$m")
    one() { kb "$(stat -c %s "$tmp/modules.$1/${name//-/_}")"; }
    row "$name.ko" one "$(kb "$(btf_section "$IMG/kernel/$m.ko")")"
done
