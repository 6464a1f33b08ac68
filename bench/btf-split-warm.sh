#!/usr/bin/env bash
# Split BTF encoding of one module in a warm JVM against pahole: bench/BtfSplitWarm.java encodes
# MODULE (xfs.ko by default) on vmlinux's BTF ROUNDS times in one JVM, with btf encode's JVM
# options, alternating with `pahole -J --btf_base` runs of the same input, and prints the
# medians after WARMUP rounds. Beside bench/btf-split-vs-pahole.sh (whole processes, JVM start
# and JIT warm-up included) it separates the encoder's own cost from the JVM's.
# Usage: bench/btf-split-warm.sh [KDBG] [ROUNDS] [WARMUP] [MODULE]   (after ./perfj has built the jar)
#   KDBG: where bench/get-debian-kernel.sh unpacked the packages (default /tmp/kdbg)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KDBG="${1:-/tmp/kdbg}"
ROUNDS="${2:-15}"
WARMUP="${3:-5}"
MODULE="${4:-fs/xfs/xfs}"
export LC_ALL=C TZ=UTC
. "$ROOT/bench/debian-kernel.sh"
kernel_dirs "$KDBG"
. "$ROOT/scripts/find-jdk.sh"
JAR="$ROOT/perfj-cli/target/perfj.jar"
[ -f "$JAR" ] || { echo "no $JAR: run ./perfj once to build it" >&2; exit 1; }
echo "$(pahole --version), $(nproc) cores, $(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$ROOT/perfj" btf encode "$VMLINUX" -o "$tmp/base.btf"
# btf encode's own JVM options (the option files' comments are comments to the java launcher too)
"$JAVA_HOME/bin/java" @"$ROOT/perfj-cli/src/main/jvm/common.options" @"$ROOT/perfj-cli/src/main/jvm/btf-encode.options" \
    -cp "$JAR" "$ROOT/bench/BtfSplitWarm.java" "$DBG/kernel/$MODULE.ko" "$tmp/base.btf" "$ROUNDS" "$WARMUP" "$tmp"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
