#!/usr/bin/env bash
# Times `perfj bpf` (listing with per-sub-program samples, and the xlated dump) against the perf
# and bpftool commands that give the same facts, on a recording with BPF programs.
# Usage: bench/bpf.sh [FILE] [RUNS]   (FILE defaults to fixtures/bpf-sys.data)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-$ROOT/fixtures/bpf-sys.data}"
RUNS="${2:-3}"
BIN="$ROOT/fixtures/bpf-xlated/golden/bpf-sys.xlated.bin"
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --train bpf   # builds, and makes the start-up cache, outside the timings
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(date -u +%F)"
run() {
    local label="$1" n="$2"; shift 2
    for i in $(seq "$n"); do
        /usr/bin/time -f "$label run $i: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" >/dev/null 2>/tmp/perfj-bench.err || true
        tail -1 /tmp/perfj-bench.err
    done
}
run "perf report --sort sym        " "$RUNS" perf report --stdio --sort sym -i "$FILE"
run "perfj bpf                     " "$RUNS" "$ROOT/perfj" bpf -i "$FILE"
run "perfj bpf --no-samples        " "$RUNS" "$ROOT/perfj" bpf --no-samples -i "$FILE"
if [ "$FILE" = "$ROOT/fixtures/bpf-sys.data" ]; then
    run "perfj bpf --xlated --linum    " "$RUNS" "$ROOT/perfj" bpf -i "$FILE" --xlated perfj_xdp --linum \
        --xlated-file "$BIN" --no-system-files
    run "perfj bpf --xlated --samples  " "$RUNS" "$ROOT/perfj" bpf -i "$FILE" --xlated perfj_xdp --samples \
        --xlated-file "$BIN" --no-system-files
fi
