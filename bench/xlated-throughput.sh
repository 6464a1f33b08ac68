#!/usr/bin/env bash
# In-process throughput of the xlated printer: dumps fixtures/bpf-xlated's perfj_xlated program
# (222 slots, with --linum source lines and kallsyms-named calls) 20,000 times, three rounds.
# Usage: bench/xlated-throughput.sh   (after a build: mvn -q -DskipTests package)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/find-jdk.sh"
M2="${M2_REPO:-$HOME/.m2/repository}"
CP="$ROOT/perfj-core/target/classes"
for j in "$M2"/com/github/luben/zstd-jni/*/zstd-jni-*.jar "$M2"/org/tukaani/xz/*/xz-*.jar; do CP="$CP:$j"; done
echo "$(nproc) cores, $(date -u +%F)"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$CP" "$ROOT/bench/XlatedBench.java" "$ROOT/fixtures/bpf-xlated"
