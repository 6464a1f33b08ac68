#!/usr/bin/env bash
# Times perfj report --children on the --call-graph dwarf fixture with a sort key that makes perfj
# follow perf's hist tree sample by sample (symbol) and one that does not (dso), and perf's own.
# Usage: bench/children-inline.sh [RUNS]. The build-id cache is unpacked to a temporary directory.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-3}"
export LC_ALL=C TZ=UTC
BID=$(mktemp -d)
trap 'rm -rf "$BID"' EXIT
tar -xJf "$ROOT/fixtures/archive/buildid-cache.tar.xz" -C "$BID"
"$ROOT/perfj" --train report   # builds, and makes the start-up cache, outside the timings
cd "$ROOT/fixtures"
echo "$(nproc) cores, $(date -u '+%F %H:%M') UTC, load $(cut -d' ' -f1 /proc/loadavg)"
for sort in symbol dso; do
    for i in $(seq "$RUNS"); do
        /usr/bin/time -f "perfj --children --sort $sort run $i: %e s wall, %U s user, %M KB max RSS" \
            "$ROOT/perfj" report --stdio -i bpf-dwarf.data --buildid-dir "$BID" --children -g none --sort "$sort" \
            >/dev/null 2>/tmp/perfj-bench.err || true
        tail -1 /tmp/perfj-bench.err
    done
    if command -v perf >/dev/null; then
        /usr/bin/time -f "perf  --children --sort $sort: %e s wall, %U s user, %M KB max RSS" \
            perf report --stdio -i bpf-dwarf.data --children -g none --sort "$sort" >/dev/null 2>/tmp/perfj-bench.err || true
        tail -1 /tmp/perfj-bench.err
    fi
done
