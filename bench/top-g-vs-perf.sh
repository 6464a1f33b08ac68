#!/usr/bin/env bash
# CPU cost of a live snapshot with callchains: `perfj top --stdio -g -a -d SECONDS -F HZ -e cpu-clock`
# (a Children/Self report of the live profile) against perf making the same profile the other way,
# `perf record -g -a -F HZ -e cpu-clock -o FILE -- sleep SECONDS` then
# `perf report --stdio --children --sort comm,dso,sym -i FILE` (perf top --stdio refreshes until
# stopped, so its CPU for one snapshot is not measurable alone), alternating. No load is added:
# the machine's own tasks are what is sampled. Prints each run's user+sys CPU seconds (from
# /usr/bin/time) and the samples, then medians. Needs root (or kernel.perf_event_paranoid -1).
# Usage: bench/top-g-vs-perf.sh [RUNS] [SECONDS] [HZ]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-3}"
SECS="${2:-5}"
HZ="${3:-999}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
"$ROOT/perfj" --train top   # builds, and makes the start-up cache, outside the timings
echo "perfj top --stdio -g vs perf record -g + perf report --children: -a -F $HZ -e cpu-clock for $SECS s, $(date -u '+%F %H:%M') UTC"
. "$ROOT/bench/cpu-time.sh"
for i in $(seq "$RUNS"); do
    l1="$(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f "%U %S %e" -o "$TMP/t1" "$ROOT/perfj" top --stdio -g -d "$SECS" -a -F "$HZ" -e cpu-clock \
        --sort comm,dso,sym >"$TMP/top.txt" 2>/dev/null
    c1="$(cpu "$TMP/t1")"
    echo "top -g: cpu $c1 s, $(awk '/PerfTop:/ {print $2; exit}' "$TMP/top.txt") samples, load $l1"
    echo "$c1" >>"$TMP/top.cpu"
    l2="$(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f "%U %S %e" -o "$TMP/t2" perf record -g -a -F "$HZ" -e cpu-clock -o "$TMP/r.data" -- sleep "$SECS" >/dev/null 2>"$TMP/rec.err"
    /usr/bin/time -f "%U %S %e" -o "$TMP/t3" perf report --stdio --children --sort comm,dso,sym -i "$TMP/r.data" >"$TMP/rep.txt" 2>/dev/null
    c2="$(echo "$(cpu "$TMP/t2") + $(cpu "$TMP/t3")" | bc)"
    echo "perf record+report: cpu $c2 s (record $(cpu "$TMP/t2"), report $(cpu "$TMP/t3")), $(grep -o '([0-9]* samples)' "$TMP/rec.err"), load $l2"
    echo "$c2" >>"$TMP/perf.cpu"
done
echo "median cpu: perfj top -g $(median "$TMP/top.cpu") s, perf record+report $(median "$TMP/perf.cpu") s"
