#!/usr/bin/env bash
# Split BTF for kernel modules: `perfj btf encode MODULE.ko --base BASE` against
# `pahole -J --btf_base BASE --btf_encode_detached=OUT MODULE.ko` on the Debian 6.1 cloud kernel.
# The base is vmlinux's BTF encoded from the same -dbg package twice, by perfj and by pahole; for
# each module and each base it says whether bpftool's raw and C dumps (with -B BASE) are identical,
# and whether perfj's --vars all output has pahole's C dump (pahole 1.24 cannot encode all variables).
# Then it times the encoding of TIMED (xfs.ko by default), alternating the two tools, and prints
# each run's wall, user and sys seconds and the medians, with the load before and after.
# Usage: bench/btf-split-vs-pahole.sh [KDBG] [RUNS] [MODULE...]
#   KDBG: where bench/get-debian-kernel.sh unpacked the packages (default /tmp/kdbg);
#   RUNS: timed runs of each tool (default 5); MODULE: paths under kernel/ without .ko
#   (default drivers/net/veth fs/xfs/xfs net/netfilter/nf_tables).
#   BPFTOOL=PATH: the bpftool to check with (default: the one on PATH; Debian's bpftool package
#   depends on the newest linux-perf, so one unpacked with `apt-get download bpftool` and
#   `dpkg-deb -x` keeps the installed perf as it is). TIMING_ONLY=1 skips the checks.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KDBG="${1:-/tmp/kdbg}"
RUNS="${2:-5}"
shift $(( $# > 2 ? 2 : $# ))
MODULES=("$@")
[ ${#MODULES[@]} -gt 0 ] || MODULES=(drivers/net/veth fs/xfs/xfs net/netfilter/nf_tables)
TIMED="${TIMED:-fs/xfs/xfs}"
export LC_ALL=C TZ=UTC
. "$ROOT/bench/debian-kernel.sh"
kernel_dirs "$KDBG"
echo "$(pahole --version), $(nproc) cores, $(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$ROOT/perfj" --train btf-encode   # builds, and makes the start-up cache, outside the timings
"$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/base.perfj"
pahole -J -j --btf_encode_detached="$tmp/base.pahole" "$VMLINUX"
BPFTOOL="${BPFTOOL:-bpftool}"
[ "${TIMING_ONLY:-0}" = 1 ] && MODULES=()
for m in "${MODULES[@]}"; do
    ko="$DBG/kernel/$m.ko"
    for b in perfj pahole; do
        base="$tmp/base.$b"
        "$ROOT/perfj" btf encode "$ko" --base "$base" -o "$tmp/perfj.btf"
        # pahole 1.24 does not truncate the file it writes: a longer old one would keep its tail
        rm -f "$tmp/pahole.btf"
        pahole -J --btf_base "$base" --btf_encode_detached="$tmp/pahole.btf" "$ko"
        line="$(basename "$m").ko on the $b base:"
        for fmt in raw c; do
            if cmp -s <("$BPFTOOL" -B "$base" btf dump file "$tmp/perfj.btf" format $fmt) \
                      <("$BPFTOOL" -B "$base" btf dump file "$tmp/pahole.btf" format $fmt); then
                line="$line $fmt identical,"
            else
                line="$line $fmt DIFFERS,"
            fi
        done
        cmp -s "$tmp/perfj.btf" "$tmp/pahole.btf" && line="$line same bytes" || line="$line other bytes"
        echo "$line ($(stat -c %s "$tmp/perfj.btf") vs $(stat -c %s "$tmp/pahole.btf") bytes)"
        # pahole 1.24 has no mode for all variables; what --vars all must keep of its output is
        # every other type, in the same order: the C dump, which prints no variables, is the same
        "$ROOT/perfj" btf encode "$ko" --base "$base" --vars all -o "$tmp/perfj-all.btf"
        if cmp -s <("$BPFTOOL" -B "$base" btf dump file "$tmp/perfj-all.btf" format c) \
                  <("$BPFTOOL" -B "$base" btf dump file "$tmp/pahole.btf" format c); then
            echo "  --vars all: C dump identical to pahole's; $("$BPFTOOL" -B "$base" btf dump file \
                "$tmp/perfj-all.btf" | grep -c "^\[[0-9]*\] VAR ") VARs in $("$BPFTOOL" -B "$base" btf dump file \
                "$tmp/perfj-all.btf" | grep -c "^\[[0-9]*\] DATASEC ") DATASECs (pahole: $("$BPFTOOL" -B "$base" \
                btf dump file "$tmp/pahole.btf" | grep -c "^\[[0-9]*\] VAR ") VARs)"
        else
            echo "  --vars all: C dump DIFFERS from pahole's"
        fi
    done
done
ko="$DBG/kernel/$TIMED.ko"
echo "timing $(basename "$TIMED").ko ($(stat -c %s "$ko") bytes) on the perfj base, load $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$tmp/times"
for i in $(seq "$RUNS"); do
    /usr/bin/time -f "pahole %e %U %S" pahole -J --btf_base "$tmp/base.perfj" \
        --btf_encode_detached="$tmp/pahole.btf" "$ko" 2>>"$tmp/times"
    /usr/bin/time -f "perfj %e %U %S" "$ROOT/perfj" btf encode "$ko" --base "$tmp/base.perfj" \
        -o "$tmp/perfj.btf" 2>>"$tmp/times"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
timing_summary "$tmp/times"
