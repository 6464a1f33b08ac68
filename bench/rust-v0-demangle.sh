#!/usr/bin/env bash
# Rust v0 demangling throughput on the 4,924 names of fixtures/golden/rust-v0-demangle.tsv.gz:
# perfj in process (100 passes over the set, five rounds: the first includes JIT warm-up), and
# for scale binutils' c++filt on the same names (one process, 100 copies of the list).
# Usage: bench/rust-v0-demangle.sh   (after a build: mvn -q -DskipTests package)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/find-jdk.sh"
GOLD="$ROOT/fixtures/golden/rust-v0-demangle.tsv.gz"
echo "$(nproc) cores, $(date -u +%F)"
"$JAVA_HOME/bin/java" -cp "$ROOT/perfj-core/target/classes" "$ROOT/bench/RustV0DemangleBench.java" "$GOLD"
if command -v c++filt > /dev/null; then
    T=$(mktemp)
    trap 'rm -f "$T"' EXIT
    for _ in $(seq 100); do zcat "$GOLD" | cut -f1; done > "$T"
    N=$(wc -l < "$T")
    S=$( { /usr/bin/time -f "%e" c++filt < "$T" > /dev/null; } 2>&1 )
    echo "c++filt $(c++filt --version | head -1 | awk '{print $NF}'): $N names in $S s = $(awk -v n="$N" -v s="$S" 'BEGIN {printf "%.0f", n / s / 1e3}') k names/s"
fi
