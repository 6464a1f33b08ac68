#!/usr/bin/env bash
# perfj fleet report over 1,000 recordings against one report of a single recording of the same
# workload: throughput in samples per second per core, local[1] against local[2], peak memory.
#
#     sudo bench/fleet-scale.sh [RUNS] [DIR]      # medians of RUNS (3) alternating runs
#
# The input (made once, kept in DIR, default /tmp/perfj-fleet-1000; needs perf and root):
#   - 10 recordings of fixtures/bin/hot (perf record -e cpu-clock -F 4000 -g, 0.25 s each),
#     each copied 100 times into DIR/fleet/hostH/ (10 hosts): 1,000 files, every one read and
#     resolved on its own;
#   - DIR/single.data: one recording of the same workload for 10 s (the single-file baseline).
# Symbols come from the recorded paths (fixtures/bin/hot, this machine's libraries and kallsyms).
set -euo pipefail
RUNS="${1:-3}"
DIR="${2:-/tmp/perfj-fleet-1000}"
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
HOT="$ROOT/fixtures/bin/hot"
if [ ! -f "$DIR/single.data" ]; then
    mkdir -p "$DIR/src" "$DIR/fleet"
    for i in $(seq 0 9); do
        perf record -q -e cpu-clock -F 4000 -g -o "$DIR/src/rec-$i.data" -- "$HOT" 0.25 >/dev/null
    done
    for h in $(seq 0 9); do
        mkdir -p "$DIR/fleet/host$h"
        for i in $(seq 0 9); do
            for c in $(seq 0 9); do
                cp "$DIR/src/rec-$i.data" "$DIR/fleet/host$h/rec-$i-$c.data"
            done
        done
    done
    perf record -q -e cpu-clock -F 4000 -g -o "$DIR/single.data" -- "$HOT" 10 >/dev/null
    chmod -R a+r "$DIR"
fi
cd "$ROOT"
./perfj report --stdio -q -i "$DIR/single.data" >/dev/null 2>&1 || true
samples_single=$(./perfj report --stdio --no-children -g none -n -i "$DIR/single.data" 2>/dev/null \
    | awk '/^ +[0-9.]+%/ {n += $2} END {print n}')
samples_fleet=$(./perfj fleet sql "$DIR/fleet" "SELECT count(*) FROM samples" 2>/dev/null | tail -1)
echo "files: $(find "$DIR/fleet" -name '*.data' | wc -l), fleet samples: $samples_fleet; single.data samples: $samples_single"
echo "uptime: $(uptime)"
run() { # label command...: one timed run, "label wall user sys maxrss_kb" appended to $LOG
    local label="$1"; shift
    /usr/bin/time -f "$label %e %U %S %M" -a -o "$LOG" "$@" >/dev/null 2>>"$LOG.err"
}
LOG="$(mktemp)"
for r in $(seq "$RUNS"); do
    run single ./perfj report --stdio --no-children -g none -i "$DIR/single.data"
    run fleet-local1 ./perfj fleet report "$DIR/fleet" --master 'local[1]'
    run fleet-local2 ./perfj fleet report "$DIR/fleet" --master 'local[2]'
done
echo "uptime: $(uptime)"
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
for label in single fleet-local1 fleet-local2; do
    wall=$(awk -v l="$label" '$1 == l {print $2}' "$LOG" | median)
    cpu=$(awk -v l="$label" '$1 == l {print $3 + $4}' "$LOG" | median)
    rss=$(awk -v l="$label" '$1 == l {print $5}' "$LOG" | median)
    n=$samples_fleet; cores=1
    [ "$label" = single ] && n=$samples_single
    [ "$label" = fleet-local2 ] && cores=2
    echo "$label: wall ${wall}s cpu ${cpu}s maxrss ${rss}KB samples $n -> $(awk -v n="$n" -v w="$wall" -v c="$cores" \
        'BEGIN {printf "%.0f samples/s, %.0f samples/s/core", n / w, n / w / c}')"
done
rm -f "$LOG" "$LOG.err"
