#!/usr/bin/env bash
# Every speed target of docs/BENCHMARKS.md in one run, each against the tool it stands for:
# report (default view), report --no-children -g none, script and dump on a large -g recording;
# report and script on --call-graph dwarf recordings of three sizes (correct mode and perf's
# frames); annotate; btf dump raw and C against bpftool; btf encode against pahole; every command
# on a small recording (start-up included). Each part is its own script (run alone to repeat one
# figure); this one runs them one after the other and keeps each part's full output in OUT.
# Run it on an otherwise idle machine: the parts alternate the two tools run by run, but load
# from elsewhere still widens the spread.
# Usage: bench/targets.sh [RUNS (default 5)] [OUT (default a new directory under /tmp)]
# Inputs (not committed; make-big.sh makes them, as root):
#   BIG=/tmp/perfj-big.data     SECS=10 bench/make-big.sh /tmp/perfj-big.data      (>= 700k samples)
#   DWARF="/tmp/dw-10k.data /tmp/dw-50k.data /tmp/dw-104k.data"
#                               CALLGRAPH=dwarf RATE=... SECS=... bench/make-big.sh FILE
#   VMLINUX=/tmp/perfj-vmlinux/vmlinux   (Debian's linux-image-*-dbg; the btf encode part skips without it)
# SKIP=regex leaves parts out by name (big, dwarf, annotate, btf-dump, btf-c, btf-encode, startup).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-5}"
OUT="${2:-$(mktemp -d /tmp/perfj-targets.XXXXXX)}"
BIG="${BIG:-/tmp/perfj-big.data}"
DWARF="${DWARF:-/tmp/dw-10k.data /tmp/dw-50k.data /tmp/dw-104k.data}"
VMLINUX="${VMLINUX:-/tmp/perfj-vmlinux/vmlinux}"
SKIP="${SKIP:-^$}"
mkdir -p "$OUT"
echo "perfj targets: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, $(date -u '+%F %H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg); logs in $OUT"
part() { # name command...
    local name="$1"; shift
    if [[ "$name" =~ $SKIP ]]; then echo "== $name: skipped (SKIP)"; return; fi
    echo "== $name: $* (load $(cut -d' ' -f1 /proc/loadavg))"
    if "$@" > "$OUT/$name.log" 2>&1; then
        grep -iE 'median|ratio|x perf|/perf|identical|differ' "$OUT/$name.log" | tail -40 || tail -20 "$OUT/$name.log"
    else
        echo "   failed:"; tail -5 "$OUT/$name.log"
    fi
}
part big "$ROOT/bench/pipeline-vs-perf.sh" "$BIG" "$RUNS"
i=0
for f in $DWARF; do
    i=$((i + 1))
    [ -f "$f" ] || { echo "== dwarf-$i: no $f"; continue; }
    part "dwarf-$i-compat" "$ROOT/bench/dwarf-vs-perf.sh" "$f" "$RUNS"
    part "dwarf-$i-default" "$ROOT/bench/dwarf-vs-perf.sh" "$f" "$RUNS" --compat none
done
part annotate "$ROOT/bench/annotate-vs-perf.sh" "$BIG" "$RUNS"
part btf-dump "$ROOT/bench/btf-dump-vs-bpftool.sh" /sys/kernel/btf/vmlinux "$RUNS"
part btf-c "$ROOT/bench/btf-c-vs-bpftool.sh" "" "$RUNS"
if [ -f "$VMLINUX" ]; then
    part btf-encode "$ROOT/bench/btf-encode-vs-pahole.sh" "$VMLINUX" "$RUNS"
else
    echo "== btf-encode: no $VMLINUX"
fi
part startup "$ROOT/bench/startup-vs-perf.sh" "$ROOT/fixtures/hot-20k.data" "$RUNS"
echo "done $(date -u '+%H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
