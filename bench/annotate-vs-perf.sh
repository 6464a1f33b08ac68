#!/usr/bin/env bash
# Times `perfj annotate --stdio2 SYMBOL` against `perf annotate --stdio2 SYMBOL` for the hottest
# symbol of a recording (default: the big recording of bench/make-big.sh), one after the other,
# printing wall time and peak RSS, then diffs the two annotations.
# Usage: bench/annotate-vs-perf.sh [FILE] [RUNS] [SYMBOL]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-/tmp/perfj-big.data}"
RUNS="${2:-3}"
[ -f "$FILE" ] || { echo "no $FILE; make it with bench/make-big.sh" >&2; exit 1; }
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --train annotate   # builds, and makes the start-up cache, outside the timings
# the hottest user-space symbol: kernel ones need a vmlinux, which neither tool has here
SYM="${3:-$( (perf report --stdio --no-children -g none -s sym -i "$FILE" 2>/dev/null || true) \
    | grep -E '^ +[0-9.]+% +\[\.\]' | sed -n 1p | sed -E 's/.*\] //; s/ +$//')}"
echo "file: $FILE ($(stat -c %s "$FILE") bytes), symbol: $SYM, $(nproc) cores, $(date -u +%F)"
# perf and perfj alternate, so that both see the same machine (wall times on a shared VM drift
# by tens of percent over minutes).
one() {
    local label="$1" i="$2" outf="$3"; shift 3
    /usr/bin/time -f "$label run $i: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" >"$outf" 2>/tmp/perfj-bench.err || true
    tail -1 /tmp/perfj-bench.err
}
for i in $(seq "$RUNS"); do
    one "perf annotate --stdio2 " "$i" /tmp/perfj-bench-ann-perf.txt perf annotate --stdio2 -i "$FILE" "$SYM"
    one "perfj annotate --stdio2" "$i" /tmp/perfj-bench-ann-perfj.txt "$ROOT/perfj" annotate --stdio2 -i "$FILE" "$SYM"
done
diff /tmp/perfj-bench-ann-perf.txt /tmp/perfj-bench-ann-perfj.txt >/dev/null && echo "annotations identical" \
    || { echo "annotations differ:"; diff /tmp/perfj-bench-ann-perf.txt /tmp/perfj-bench-ann-perfj.txt | head -20; }
