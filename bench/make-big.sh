#!/bin/bash
# Makes a large system-wide perf.data for perfj benchmarks. Not committed.
# Usage: bench/make-big.sh [OUT] (default /tmp/perfj-big.data); run as root.
# Tunables (environment): RATE (Hz, default 40000), SECS (default 45), MMAP (default 16M),
# CALLGRAPH: fp (default: -a -g, system-wide frame-pointer chains) or dwarf (--call-graph dwarf
# of the workload's processes only, not -a: a system-wide dwarf recording on a shared machine
# pulls in other users' JVMs, whose libjvm.so then dominates every tool's time; each sample
# carries the user registers and an 8 KiB stack copy, ~8.5 KB per sample, so use a low RATE:
# CALLGRAPH=dwarf RATE=1000 SECS=4 gives ~7k samples, ~60 MB).
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "make-big.sh: must be run as root" >&2
    exit 1
fi

OUT=${1:-/tmp/perfj-big.data}
RATE=${RATE:-40000}
SECS=${SECS:-45}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOT=$ROOT/fixtures/bin/hot
export LC_ALL=C TZ=UTC

if [ ! -x "$HOT" ]; then
    gcc -g -O1 -fno-omit-frame-pointer -o "$HOT" "$ROOT/fixtures/src/hot.c"
fi

max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
if [ "$RATE" -gt "$max" ]; then
    echo "make-big.sh: RATE $RATE > perf_event_max_sample_rate $max" >&2
    exit 1
fi

# Workload: one CPU-bound copy of hot per CPU (user-space call chains), plus a
# syscall-heavy loop (kernel call chains and many short-lived processes).
WL=$(mktemp /tmp/perfj-big-workload.XXXXXX.sh)
trap 'rm -f "$WL"' EXIT
cat > "$WL" <<WORKLOAD
#!/bin/bash
end=\$(( \$(date +%s) + $SECS ))
for c in \$(seq 1 \$(nproc)); do "$HOT" $SECS > /dev/null & done
while [ "\$(date +%s)" -lt "\$end" ]; do
    dd if=/dev/zero of=/dev/null bs=4k count=2000 status=none
    ls -R /usr/include > /dev/null 2>&1
done
wait
WORKLOAD
chmod +x "$WL"

case "${CALLGRAPH:-fp}" in
    fp) CG=(-a -g) ;;
    dwarf) CG=(--call-graph dwarf) ;;
    *) echo "make-big.sh: CALLGRAPH must be fp or dwarf" >&2; exit 1 ;;
esac

perf record "${CG[@]}" -e cpu-clock -F "$RATE" -m "${MMAP:-16M}" -o "$OUT" -- "$WL"

chmod 644 "$OUT"
ls -l "$OUT"
perf report --stats -i "$OUT" 2>/dev/null | grep -E 'SAMPLE|TOTAL|LOST|THROTTLE' || true
