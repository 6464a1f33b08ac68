#!/usr/bin/env bash
# Times `perfj report --stdio` against `perf report --stdio` (default: children and callchain
# graph) on the same recording, one after the other, printing wall time and peak RSS, then
# compares the top rows of both. Usage: bench/report-vs-perf.sh [FILE] [RUNS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-/tmp/perfj-big.data}"
RUNS="${2:-3}"
PERF_RUNS="${PERF_RUNS:-1}"
[ -f "$FILE" ] || { echo "no $FILE; make it with bench/make-big.sh" >&2; exit 1; }
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --train report   # builds, and makes the start-up cache, outside the timings
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(date -u +%F)"
run() {
    local label="$1" n="$2" outf="$3"; shift 3
    for i in $(seq "$n"); do
        /usr/bin/time -f "$label run $i: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" >"$outf" 2>/tmp/perfj-bench.err || true
        tail -1 /tmp/perfj-bench.err
    done
}
run "perf report --stdio                 " "$PERF_RUNS" /tmp/perfj-bench-perf.txt perf report --stdio -i "$FILE"
run "perfj report --stdio                " "$RUNS" /tmp/perfj-bench-perfj.txt "$ROOT/perfj" report --stdio -i "$FILE"
run "perf report --no-children -g none   " "$PERF_RUNS" /tmp/perfj-bench-perf-flat.txt perf report --stdio --no-children -g none -i "$FILE"
run "perfj report --no-children -g none  " "$RUNS" /tmp/perfj-bench-perfj-flat.txt "$ROOT/perfj" report --stdio --no-children -g none -i "$FILE"
rows() { grep -E '^ +[0-9]+\.[0-9]+%' "$1" | grep -v '^            ' | head -15 | sed 's/ \+/ /g'; }
# Rows with equal percentages come in perf's internal tree order, which perfj does not copy:
# when the order differs, compare the percentage column in order and the rows as a set.
compare() {
    if diff <(rows "$1") <(rows "$2") >/dev/null; then
        echo "  identical"
    elif diff <(rows "$1" | cut -d' ' -f2-3) <(rows "$2" | cut -d' ' -f2-3) >/dev/null \
            && diff <(rows "$1" | sort) <(rows "$2" | sort) >/dev/null; then
        echo "  same rows and percentages; rows with equal percentages in another order"
    else
        diff <(rows "$1") <(rows "$2")
    fi
}
echo "top rows, perf vs perfj (default report):"
compare /tmp/perfj-bench-perf.txt /tmp/perfj-bench-perfj.txt
echo "top rows, perf vs perfj (--no-children -g none):"
compare /tmp/perfj-bench-perf-flat.txt /tmp/perfj-bench-perfj-flat.txt
