#!/usr/bin/env bash
# CPU cost of recording: `perf record -F 4000 -a -g -- sleep 5` against `perfj record` with the
# same options, alternating, while two copies of fixtures/bin/hot keep both CPUs busy. Prints
# each run's user+sys CPU seconds of the recorder (from /usr/bin/time; `sleep` costs nothing),
# the samples and LOST events of each file (perf report --stats reads both files), then medians.
# Needs root (or kernel.perf_event_paranoid -1) for -a.
# Then the hottest symbol's share: bin/hot recorded alone by each tool (-e cpu-clock -F 999 -g,
# alternating), compute_a's self share in each file as perf report prints it.
# Usage: bench/record-vs-perf.sh [RUNS] [SECONDS] [HZ]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-3}"
SECS="${2:-5}"
HZ="${3:-4000}"
# the load: one CPU-bound process per CPU for the whole benchmark
. "$ROOT/bench/busy-cpus.sh" $(( (SECS + 8) * RUNS * 3 ))
"$ROOT/perfj" --train record   # builds, and makes the start-up cache, outside the timings
echo "perf record vs perfj record: -F $HZ -a -g -- sleep $SECS, $(nproc) CPUs busy with bin/hot, $(date -u '+%F %H:%M') UTC, load: $(uptime | sed 's/.*load average: //')"
one() {
    local label="$1" out="$2"; shift 2
    /usr/bin/time -f "%U %S %e" -o "$TMP/time" "$@" -F "$HZ" -a -g -o "$out" -- sleep "$SECS" >/dev/null 2>"$TMP/err"
    read -r user sys wall <"$TMP/time"
    local stats samples lost
    stats="$(perf report --stats -i "$out" 2>/dev/null)"
    samples="$(echo "$stats" | awk '/^ *SAMPLE events:/ {print $3; exit}')"
    lost="$(echo "$stats" | awk '/^ *LOST events:/ {print $3; exit}')"
    cpu="$(echo "$user + $sys" | bc)"
    echo "$label: cpu ${cpu} s (user $user, sys $sys), wall $wall s, ${samples:-0} samples, ${lost:-0} LOST records"
    echo "$cpu" >>"$TMP/$label.cpu"
}
for i in $(seq "$RUNS"); do
    one perf "$TMP/perf.data" perf record
    one perfj "$TMP/perfj.data" "$ROOT/perfj" record
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
p="$(median "$TMP/perf.cpu")"
j="$(median "$TMP/perfj.cpu")"
echo "median cpu: perf $p s, perfj $j s, ratio $(echo "scale=2; $j / $p" | bc)"
kill $LOAD 2>/dev/null || true
wait 2>/dev/null || true
share() {
    perf report --stdio --no-children -g none -i "$1" 2>/dev/null | awk '/\[\.\] compute_a/ {print $1; exit}'
}
for i in $(seq "$RUNS"); do
    perf record -e cpu-clock -F 999 -g -o "$TMP/p-hot.data" -- "$ROOT/fixtures/bin/hot" 1 >/dev/null 2>&1
    "$ROOT/perfj" record -e cpu-clock -F 999 -g -o "$TMP/j-hot.data" -- "$ROOT/fixtures/bin/hot" 1 >/dev/null 2>&1
    echo "hot alone, run $i: compute_a perf $(share "$TMP/p-hot.data"), perfj $(share "$TMP/j-hot.data")"
done
