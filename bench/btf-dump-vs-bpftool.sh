#!/usr/bin/env bash
# Times `perfj btf dump FILE` against `bpftool btf dump file FILE` (raw format), alternating the
# two, and prints each run's wall time, CPU time and peak RSS, then the median wall time of each.
# Usage: bench/btf-dump-vs-bpftool.sh [FILE] [RUNS]   (FILE defaults to /sys/kernel/btf/vmlinux)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-/sys/kernel/btf/vmlinux}"
RUNS="${2:-10}"
export LC_ALL=C TZ=UTC
command -v bpftool >/dev/null || { echo "bpftool is needed" >&2; exit 1; }
# Build once and let the launcher write its class-data archive, outside the timings.
"$ROOT/perfj" --train btf-dump   # builds, and makes the start-up cache, outside the timings
"$ROOT/perfj" btf dump "$FILE" | cmp -s - <(bpftool btf dump file "$FILE") && echo "outputs: identical" \
    || echo "outputs: DIFFER"
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.err"' EXIT
for i in $(seq "$RUNS"); do
    /usr/bin/time -f "bpftool %e %U %S %M" bpftool btf dump file "$FILE" >/dev/null 2>>"$tmp"
    /usr/bin/time -f "perfj %e %U %S %M" "$ROOT/perfj" btf dump "$FILE" >/dev/null 2>>"$tmp"
done
if command -v hyperfine >/dev/null; then
    hyperfine -N -w 2 -r "$RUNS" "bpftool btf dump file $FILE" "$ROOT/perfj btf dump $FILE" --output=null
fi
awk '{ printf "%-8s %6.2f s wall  %5.2f s user  %5.2f s sys  %7d KB max RSS\n", $1, $2, $3, $4, $5 }' "$tmp"
for tool in bpftool perfj; do
    wall=$(awk -v t=$tool '$1 == t { print $2 }' "$tmp" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    cpu=$(awk -v t=$tool '$1 == t { print $3 + $4 }' "$tmp" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    rss=$(awk -v t=$tool '$1 == t && $5 > m { m = $5 } END { print m }' "$tmp")
    echo "$tool: median $wall s wall, median $cpu s CPU (user+sys), max RSS $rss KB"
done
