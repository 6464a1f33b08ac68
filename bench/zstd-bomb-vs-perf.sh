#!/usr/bin/env bash
# The zstd bomb, perf 6.1 against perfj: fixtures/zstd-bomb.data (fixtures/make-zstd-bomb.py) is
# 148 KB of COMPRESSED records that inflate to 2^28 FINISHED_ROUND records, 2 GiB, between seven
# samples. Times `report --stdio`, `script` and `report --stats` of both, RUNS alternating runs
# each (perf, perfj, perf, ...); prints the medians of /usr/bin/time's wall time, CPU time (user +
# sys) and peak RSS. Both must print the same: the outputs are compared first (report without
# perf's random tip).
# Usage: bench/zstd-bomb-vs-perf.sh [RUNS (default 5)] [FILE (default fixtures/zstd-bomb.data)]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-5}"
FILE="${2:-$ROOT/fixtures/zstd-bomb.data}"
. "$ROOT/bench/alternate.sh"
PERFJ="$ROOT/perfj"
"$PERFJ" --train report script   # builds, and makes the start-up caches, outside the timings
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(perf version), $(date -u +%F)"
# without perf's closing tip and the "#" and blank lines around it
trim() { grep -v '^# (Tip:' | awk '{a[NR] = $0} END {n = NR; while (n > 0 && (a[n] == "" || a[n] == "#")) n--; for (i = 1; i <= n; i++) print a[i]}'; }
for cmd in "report --stdio" script "report --stats"; do
    if ! diff <(perf $cmd -i "$FILE" 2>/dev/null | trim) <("$PERFJ" $cmd -i "$FILE" 2>/dev/null | trim) > "$tmp/diff"; then
        echo "$cmd: outputs differ:"; head -20 "$tmp/diff"
    fi
done
for cmd in "report --stdio" script "report --stats"; do
    PERF_CMD=(perf $cmd -i "$FILE")
    PERFJ_CMD=("$PERFJ" $cmd -i "$FILE")
    alternate "$cmd" "$RUNS"
done
