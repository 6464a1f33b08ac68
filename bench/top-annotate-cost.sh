#!/usr/bin/env bash
# The cost of top's per-address sums (annotation) on the display thread: fixtures/hot-20k.data
# replayed through LiveProfile in-process (bench/TopReplayBench.java), A = LiveProfile as at
# BASE (default: where this branch left main; no per-address sums), compiled over this build's
# other classes, B = this
# build; alternating A/B JVMs, RUNS each, each the median of 20 replays after 5 warm-up ones.
# Usage: bench/top-annotate-cost.sh [RUNS]   (after a build, and a test run that unpacked the
# build-id cache into perfj-core/target/buildid-cache)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-5}"
. "$ROOT/scripts/find-jdk.sh"
M2="${M2_REPO:-$HOME/.m2/repository}"
CP="$ROOT/perfj-core/target/classes"
for j in "$M2"/com/github/luben/zstd-jni/*/zstd-jni-*.jar "$M2"/org/tukaani/xz/*/xz-*.jar; do CP="$CP:$j"; done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/a"
BASE="${BASE:-$(git -C "$ROOT" merge-base main HEAD)}"
git -C "$ROOT" show "$BASE":perfj-core/src/main/java/io/perfj/top/LiveProfile.java > "$tmp/src/LiveProfile.java"
"$JAVA_HOME/bin/javac" -nowarn -cp "$CP" -d "$tmp/a" "$tmp/src/LiveProfile.java"
BID="$ROOT/perfj-core/target/buildid-cache"
echo "$(nproc) cores, $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$RUNS"); do
    for v in A B; do
        cp="$CP"
        [ "$v" = A ] && cp="$tmp/a:$CP"
        printf '%s %s ' "$v" "$(cut -d' ' -f1 /proc/loadavg)"
        "$JAVA_HOME/bin/java" -cp "$cp" "$ROOT/bench/TopReplayBench.java" "$ROOT/fixtures/hot-20k.data" "$BID" 5 20
    done
done
