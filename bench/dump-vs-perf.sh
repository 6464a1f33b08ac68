#!/usr/bin/env bash
# Times `perfj dump` against `perf report -D` (and `--stats`) on the same recording, one after the
# other, and prints wall time and peak RSS of each. Usage: bench/dump-vs-perf.sh [FILE] [RUNS]
# FILE defaults to /tmp/perfj-big.data (made by bench/make-big.sh; not committed).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-/tmp/perfj-big.data}"
RUNS="${2:-3}"
[ -f "$FILE" ] || { echo "no $FILE; make it with bench/make-big.sh" >&2; exit 1; }
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --version >/dev/null   # build once, outside the timings
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(date -u +%F)"
run() {
    local label="$1"; shift
    for i in $(seq "$RUNS"); do
        /usr/bin/time -f "$label run $i: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" >/dev/null 2>/tmp/perfj-bench.err || true
        tail -1 /tmp/perfj-bench.err
    done
}
run "perf report -D      " perf report -D -i "$FILE"
run "perfj dump          " "$ROOT/perfj" dump -i "$FILE"
run "perf report --stats " perf report --stats -i "$FILE"
run "perfj dump --stats  " "$ROOT/perfj" dump --stats -i "$FILE"
