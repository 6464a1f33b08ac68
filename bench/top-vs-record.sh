#!/usr/bin/env bash
# CPU cost of a live snapshot: `perfj top --stdio -d SECONDS -a -F HZ -e cpu-clock` against the
# same profile made the other way, `perfj record -a -F HZ -e cpu-clock -o FILE -- sleep SECONDS`
# then `perfj report --stdio --no-children -g none --sort dso,sym -i FILE`, alternating, while one
# copy of fixtures/bin/hot per CPU keeps the CPUs busy. Prints each run's user+sys CPU seconds
# (from /usr/bin/time), the samples and the hottest row, then medians. Needs root (or
# kernel.perf_event_paranoid -1) for -a.
# Usage: bench/top-vs-record.sh [RUNS] [SECONDS] [HZ]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-3}"
SECS="${2:-5}"
. "$ROOT/bench/busy-cpus.sh" $(( (SECS + 10) * RUNS * 2 ))
HZ="${3:-999}"
"$ROOT/perfj" --train top record report   # builds, and makes the start-up caches, outside the timings
echo "perfj top --stdio vs perfj record + report: -a -F $HZ -e cpu-clock for $SECS s, $(nproc) CPUs busy with bin/hot, $(date -u '+%F %H:%M') UTC, load: $(uptime | sed 's/.*load average: //')"
. "$ROOT/bench/cpu-time.sh"
for i in $(seq "$RUNS"); do
    /usr/bin/time -f "%U %S %e" -o "$TMP/t1" "$ROOT/perfj" top --stdio -d "$SECS" -a -F "$HZ" -e cpu-clock >"$TMP/top.txt" 2>/dev/null
    c1="$(cpu "$TMP/t1")"
    echo "top: cpu $c1 s, $(awk '/PerfTop:/ {print $2; exit}' "$TMP/top.txt") samples, hottest: $(grep -m1 '%' "$TMP/top.txt" | sed 's/  */ /g')"
    echo "$c1" >>"$TMP/top.cpu"
    /usr/bin/time -f "%U %S %e" -o "$TMP/t2" "$ROOT/perfj" record -a -F "$HZ" -e cpu-clock -o "$TMP/r.data" -- sleep "$SECS" >/dev/null 2>"$TMP/rec.err"
    /usr/bin/time -f "%U %S %e" -o "$TMP/t3" "$ROOT/perfj" report --stdio --no-children -g none --sort dso,sym -i "$TMP/r.data" >"$TMP/rep.txt" 2>/dev/null
    c2="$(echo "$(cpu "$TMP/t2") + $(cpu "$TMP/t3")" | bc)"
    echo "record+report: cpu $c2 s (record $(cpu "$TMP/t2"), report $(cpu "$TMP/t3")), $(grep -o '([0-9]* samples)' "$TMP/rec.err"), hottest: $(grep -m1 '^ *[0-9.]*%' "$TMP/rep.txt" | sed 's/  */ /g')"
    echo "$c2" >>"$TMP/rec.cpu"
done
echo "median cpu: top $(median "$TMP/top.cpu") s, record+report $(median "$TMP/rec.cpu") s"
