#!/usr/bin/env bash
# Every module of the Debian 6.1 cloud kernel package encoded as split BTF on vmlinux's BTF:
# `perfj btf encode --base BASE -o DIR KERNEL-DIR` (one command, modules in parallel) against
# `pahole -J --btf_base BASE --btf_encode_detached=...` run once per module, as many at once as
# there are cores (xargs -P). Alternating runs; prints each run's wall, user and sys seconds, the
# medians and the ratio, then checks every module's output: bpftool's raw dump (-B BASE) of
# perfj's file against pahole's, and whether the bytes are the same.
# Usage: bench/btf-split-all-modules.sh [KDBG] [RUNS]
#   KDBG: where bench/get-debian-kernel.sh unpacked the packages (default /tmp/kdbg);
#   RUNS: timed runs of each tool (default 3). Needs pahole and bpftool on PATH.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KDBG="${1:-/tmp/kdbg}"
RUNS="${2:-3}"
export LC_ALL=C TZ=UTC
. "$ROOT/bench/debian-kernel.sh"
kernel_dirs "$KDBG"
P=$(nproc)
find "$DBG/kernel" -name '*.ko' -type f | sort > "$tmp/list"
n=$(wc -l < "$tmp/list")
bytes=$(xargs -d '\n' stat -c %s < "$tmp/list" | awk '{ s += $1 } END { print s }')
echo "$(pahole --version), $(nproc) cores, $(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$n modules, $bytes bytes with DWARF"
"$ROOT/perfj" --train btf-encode   # builds, and makes the start-up cache, outside the timings
"$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/base"
# one module with pahole, output named as perfj names it (the kernel's module name)
cat > "$tmp/pahole-one" <<'ONE'
#!/usr/bin/env bash
n=$(basename "$3" .ko)
exec pahole -J --btf_base "$1" --btf_encode_detached="$2/${n//-/_}" "$3"
ONE
chmod +x "$tmp/pahole-one"
: > "$tmp/times"
for i in $(seq "$RUNS"); do
    rm -rf "$tmp/pahole" "$tmp/perfj"
    mkdir "$tmp/pahole"
    /usr/bin/time -f "pahole %e %U %S" xargs -d '\n' -P "$P" -n 1 "$tmp/pahole-one" "$tmp/base" "$tmp/pahole" \
        < "$tmp/list" 2>>"$tmp/times" >/dev/null
    /usr/bin/time -f "perfj %e %U %S" "$ROOT/perfj" btf encode --base "$tmp/base" -o "$tmp/perfj" "$DBG/kernel" \
        2>>"$tmp/times" >/dev/null
done
grep -E '^(pahole|perfj) ' "$tmp/times" > "$tmp/t" || true
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
timing_summary "$tmp/t"
# every module's output, compared as bpftool prints it and as bytes
cat > "$tmp/cmp-one" <<'CMP'
#!/usr/bin/env bash
m=$(basename "$3")
if ! cmp -s <(bpftool -B "$1" btf dump file "$2/perfj/$m" format raw 2>&1) \
            <(bpftool -B "$1" btf dump file "$2/pahole/$m" format raw 2>&1); then
    echo "raw-differs $m"
elif cmp -s "$2/perfj/$m" "$2/pahole/$m"; then
    echo "same-bytes $m"
else
    echo "same-raw $m"
fi
CMP
chmod +x "$tmp/cmp-one"
ls "$tmp/pahole" | xargs -P "$P" -n 1 "$tmp/cmp-one" "$tmp/base" "$tmp" > "$tmp/cmp"
echo "outputs: $(ls "$tmp/perfj" | wc -l) by perfj, $(ls "$tmp/pahole" | wc -l) by pahole;" \
    "$(grep -c '^same-bytes' "$tmp/cmp" || true) the same bytes," \
    "$(grep -c '^same-raw' "$tmp/cmp" || true) the same bpftool raw dump in other bytes," \
    "$(grep -c '^raw-differs' "$tmp/cmp" || true) with a different raw dump"
grep '^raw-differs' "$tmp/cmp" | head -20 || true
