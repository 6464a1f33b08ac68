#!/usr/bin/env bash
# Times `perfj btf encode VMLINUX` against `pahole -J -j` (which rewrites its input, so it runs on a
# fresh copy each time), alternating the two, and prints each run's wall time, CPU time and peak
# RSS, then the medians. Before timing, it checks that perfj's encoding dumps like
# single-threaded `pahole -J`'s with bpftool (raw and C formats).
# Usage: bench/btf-encode-vs-pahole.sh [VMLINUX] [RUNS]
#   VMLINUX defaults to /tmp/perfj-vmlinux/vmlinux (Debian's linux-image-*-cloud-amd64-dbg,
#   extracted with `apt-get download` and `dpkg-deb -x`).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VMLINUX="${1:-/tmp/perfj-vmlinux/vmlinux}"
RUNS="${2:-3}"
export LC_ALL=C TZ=UTC
command -v pahole >/dev/null || { echo "pahole is needed" >&2; exit 1; }
command -v bpftool >/dev/null || { echo "bpftool is needed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/btf-encode-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "file: $VMLINUX ($(stat -c %s "$VMLINUX") bytes), $(pahole --version), $(nproc) cores," \
    "$(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"

# Same output? perfj against single-threaded pahole -J (pahole -j orders types by thread timing).
"$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/perfj.btf"
cp "$VMLINUX" "$tmp/pahole1"
pahole -J "$tmp/pahole1"
for fmt in raw c; do
    if cmp -s <(bpftool btf dump file "$tmp/perfj.btf" format $fmt) \
              <(bpftool btf dump file "$tmp/pahole1" format $fmt); then
        echo "bpftool format $fmt: identical to pahole -J"
    else
        echo "bpftool format $fmt: DIFFERS from pahole -J"
    fi
done
rm -f "$tmp/pahole1"

for i in $(seq "$RUNS"); do
    cp "$VMLINUX" "$tmp/copy"
    /usr/bin/time -f "pahole %e %U %S %M" pahole -J -j "$tmp/copy" 2>>"$tmp/times"
    rm -f "$tmp/copy"
    /usr/bin/time -f "perfj %e %U %S %M" "$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/perfj.btf" 2>>"$tmp/times"
done
awk '{ printf "%-7s %6.2f s wall  %5.2f s user  %5.2f s sys  %7d KB max RSS\n", $1, $2, $3, $4, $5 }' "$tmp/times"
for tool in pahole perfj; do
    wall=$(awk -v t=$tool '$1 == t { print $2 }' "$tmp/times" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    cpu=$(awk -v t=$tool '$1 == t { print $3 + $4 }' "$tmp/times" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    rss=$(awk -v t=$tool '$1 == t && $5 > m { m = $5 } END { print m }' "$tmp/times")
    echo "$tool: median $wall s wall, median $cpu s CPU (user+sys), max RSS $rss KB"
done
