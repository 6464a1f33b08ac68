#!/usr/bin/env bash
# Times `perfj btf encode VMLINUX -o OUT` against `pahole -J -j --btf_encode_detached=OUT` (the
# same work: DWARF in, a raw BTF file out), alternating the two, and prints each run's wall time,
# CPU time and peak RSS, then the medians and perfj/pahole ratios. With INPLACE=1 it also times
# `pahole -J -j` rewriting a copy of its input (pahole's default, which holds the whole ELF in
# memory; the copy is not timed). Before timing it checks that bpftool's raw and C dumps of
# perfj's output equal those of single-threaded `pahole -J`, and that perfj -j 1 writes the same
# bytes as the default.
# Usage: bench/btf-encode-vs-pahole.sh [VMLINUX] [RUNS]
#   VMLINUX defaults to /tmp/perfj-vmlinux/vmlinux (Debian's linux-image-*-cloud-amd64-dbg,
#   extracted with `apt-get download` and `dpkg-deb -x`); RUNS defaults to 5.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VMLINUX="${1:-/tmp/perfj-vmlinux/vmlinux}"
RUNS="${2:-5}"
export LC_ALL=C TZ=UTC
command -v pahole >/dev/null || { echo "pahole is needed (apt-get install dwarves)" >&2; exit 1; }
command -v bpftool >/dev/null || { echo "bpftool is needed (apt-get install bpftool)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/btf-encode-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$ROOT/perfj" --train btf-encode   # builds, and makes the start-up cache, outside the timings

echo "file: $VMLINUX ($(stat -c %s "$VMLINUX") bytes), $(pahole --version), $(nproc) cores," \
    "$(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"

# Same output? perfj against single-threaded pahole -J (pahole -j orders types by thread timing).
"$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/perfj.btf"
"$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/perfj-j1.btf" -j 1
if cmp -s "$tmp/perfj.btf" "$tmp/perfj-j1.btf"; then
    echo "perfj -j 1 and -j $(nproc): identical bytes"
else
    echo "perfj -j 1 and -j $(nproc): DIFFERENT bytes"
fi
rm -f "$tmp/perfj-j1.btf"
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
    /usr/bin/time -f "pahole %e %U %S %M" pahole -J -j --btf_encode_detached="$tmp/pahole.btf" "$VMLINUX" \
        2>>"$tmp/times"
    /usr/bin/time -f "perfj %e %U %S %M" "$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/perfj.btf" 2>>"$tmp/times"
    if [ "${INPLACE:-0}" = 1 ]; then
        cp "$VMLINUX" "$tmp/copy"
        /usr/bin/time -f "pahole-inplace %e %U %S %M" pahole -J -j "$tmp/copy" 2>>"$tmp/times"
        rm -f "$tmp/copy"
    fi
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{ printf "%-15s %6.2f s wall  %5.2f s user  %5.2f s sys  %7d KB max RSS\n", $1, $2, $3, $4, $5 }' "$tmp/times"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for tool in pahole perfj pahole-inplace; do
    grep -q "^$tool " "$tmp/times" || continue
    wall=$(awk -v t=$tool '$1 == t { print $2 }' "$tmp/times" | median)
    cpu=$(awk -v t=$tool '$1 == t { print $3 + $4 }' "$tmp/times" | median)
    rss=$(awk -v t=$tool '$1 == t { print $5 }' "$tmp/times" | median)
    max=$(awk -v t=$tool '$1 == t && $5 > m { m = $5 } END { print m }' "$tmp/times")
    echo "$tool: median $wall s wall, median $cpu s CPU (user+sys), median RSS $rss KB (max $max KB)"
    echo "$tool $wall $cpu $rss" >>"$tmp/medians"
done
awk '$1 == "pahole" { w = $2; c = $3; r = $4 } $1 == "perfj" { pw = $2; pc = $3; pr = $4 }
     END { printf "perfj / pahole -J -j --btf_encode_detached: wall %.2fx, CPU %.2fx, RSS %.2fx\n", pw / w, pc / c, pr / r }' \
    "$tmp/medians"
