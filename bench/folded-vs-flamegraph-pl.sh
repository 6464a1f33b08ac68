#!/usr/bin/env bash
# Times `perfj export --format folded` against `perf script | stackcollapse-perf.pl` and
# `perfj flamegraph -o OUT.svg` against `perf script | stackcollapse-perf.pl | flamegraph.pl`,
# alternating run by run, printing wall time, CPU and peak RSS (of the pipeline's largest
# process), then compares the two folded outputs as sets of lines.
# Usage: FLAMEGRAPH=DIR bench/folded-vs-flamegraph-pl.sh [FILE] [RUNS]
#   FLAMEGRAPH: a checkout of github.com/brendangregg/FlameGraph (its scripts are not shipped here)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-/tmp/perfj-big.data}"
RUNS="${2:-3}"
FG="${FLAMEGRAPH:?set FLAMEGRAPH to a FlameGraph checkout}"
[ -f "$FILE" ] || { echo "no $FILE; make it with bench/make-big.sh" >&2; exit 1; }
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --train export flamegraph   # builds, and makes the start-up cache, outside the timings
OUT="$(mktemp -d /tmp/perfj-folded.XXXXXX)"
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(date -u '+%F %H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
one() {
    local label="$1" i="$2"; shift 2
    /usr/bin/time -f "$label run $i: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" 2>"$OUT/err" >/dev/null || true
    tail -1 "$OUT/err"
}
for i in $(seq "$RUNS"); do
    one "perf script | stackcollapse-perf.pl       " "$i" sh -c "perf script -i '$FILE' 2>/dev/null | perl '$FG/stackcollapse-perf.pl' > '$OUT/perl.folded'"
    one "perfj export --format folded              " "$i" "$ROOT/perfj" export --format folded -i "$FILE" -o "$OUT/perfj.folded"
    one "... | flamegraph.pl > svg                 " "$i" sh -c "perf script -i '$FILE' 2>/dev/null | perl '$FG/stackcollapse-perf.pl' | perl '$FG/flamegraph.pl' > '$OUT/perl.svg'"
    one "perfj flamegraph -o svg                   " "$i" "$ROOT/perfj" flamegraph -i "$FILE" -o "$OUT/perfj.svg"
done
if cmp -s <(sort "$OUT/perl.folded") <(sort "$OUT/perfj.folded"); then
    echo "folded lines identical"
else
    echo "folded lines differ: $(comm -3 <(sort "$OUT/perl.folded") <(sort "$OUT/perfj.folded") | wc -l) lines (outputs in $OUT)"
fi
