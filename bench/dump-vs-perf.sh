#!/usr/bin/env bash
# Times `perfj dump` against `perf report -D` (and `--stats`) on the same recording, one after the
# other, and prints wall time and peak RSS of each. Usage: bench/dump-vs-perf.sh [FILE] [RUNS]
# FILE defaults to /tmp/perfj-big.data (made by bench/make-big.sh; not committed).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-/tmp/perfj-big.data}"
RUNS="${2:-3}"          # perfj runs per command
PERF_RUNS="${PERF_RUNS:-1}"   # perf -D takes minutes on the big file
[ -f "$FILE" ] || { echo "no $FILE; make it with bench/make-big.sh" >&2; exit 1; }
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --train dump   # builds, and makes the start-up cache, outside the timings
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(date -u +%F)"
run() {
    local label="$1" n="$2"; shift 2
    for i in $(seq "$n"); do
        /usr/bin/time -f "$label run $i: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" >/dev/null 2>/tmp/perfj-bench.err || true
        tail -1 /tmp/perfj-bench.err
    done
}
run "perf report -D      " "$PERF_RUNS" perf report -D -i "$FILE"
run "perfj dump          " "$RUNS" "$ROOT/perfj" dump -i "$FILE"
run "perf report --stats " "$PERF_RUNS" perf report --stats -i "$FILE"
run "perfj dump --stats  " "$RUNS" "$ROOT/perfj" dump --stats -i "$FILE"
# The same, on files of a quarter, half and all of the data, to show memory does not grow
# with the file (a cut-short copy is read up to the cut, with a warning).
for part in 67000000 134000000; do
    head -c "$part" "$FILE" > /tmp/perfj-bench-part.data
    run "perfj dump ($part bytes)" 1 "$ROOT/perfj" dump -i /tmp/perfj-bench-part.data
done
rm -f /tmp/perfj-bench-part.data
