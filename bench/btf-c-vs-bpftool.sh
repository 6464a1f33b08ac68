#!/usr/bin/env bash
# Times `perfj btf dump FILE format c` against `bpftool btf dump file FILE format c`, runs
# interleaved (bpftool, perfj, bpftool, ...) so that both see the same machine load; prints every
# run and the median wall, user and sys times of each, and checks the outputs are identical.
# "perfj" is ./perfj (launcher script included); "java" is the same JVM command the launcher ends
# with for format c, run directly (the launcher's own cost is its JDK search and the rebuild
# check over the sources).
# Usage: bench/btf-c-vs-bpftool.sh [FILE] [RUNS]
# FILE defaults to a copy of /sys/kernel/btf/vmlinux in /tmp (a regular file: both tools read it
# the same way); RUNS defaults to 11.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-}"
RUNS="${2:-11}"
export LC_ALL=C TZ=UTC
if [ -z "$FILE" ]; then
    FILE=/tmp/perfj-bench-vmlinux.btf
    cp /sys/kernel/btf/vmlinux "$FILE"
fi
"$ROOT/perfj" --train btf-dump-c   # builds, and makes the start-up cache, outside the timings
bpftool btf dump file "$FILE" format c > /tmp/perfj-bench-bpftool.h
"$ROOT/perfj" btf dump "$FILE" format c > /tmp/perfj-bench-perfj.h
. "$ROOT/scripts/find-jdk.sh"
AOT="$ROOT/perfj-cli/target/perfj-btf-dump-c.aot"
JAVA_CMD=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
    -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData -XX:ActiveProcessorCount=1
    -XX:+UseTransparentHugePages)
[ -f "$AOT" ] && JAVA_CMD+=(-XX:AOTCache="$AOT" -Xlog:aot=off -Xlog:cds=off)
JAVA_CMD+=(-jar "$ROOT/perfj-cli/target/perfj.jar")
cmp /tmp/perfj-bench-bpftool.h /tmp/perfj-bench-perfj.h && echo "outputs identical: $(stat -c %s /tmp/perfj-bench-perfj.h) bytes"
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M') UTC"
: > /tmp/perfj-bench-times.txt
for i in $(seq "$RUNS"); do
    for tool in bpftool perfj java; do
        case $tool in
            bpftool) cmd=(bpftool btf dump file "$FILE" format c) ;;
            perfj) cmd=("$ROOT/perfj" btf dump "$FILE" format c) ;;
            java) cmd=("${JAVA_CMD[@]}" btf dump "$FILE" format c) ;;
        esac
        /usr/bin/time -f "$tool %e %U %S %M" "${cmd[@]}" >/dev/null 2>/tmp/perfj-bench.err
        tail -1 /tmp/perfj-bench.err | tee -a /tmp/perfj-bench-times.txt
    done
done
echo "median over $RUNS runs (wall s, user s, sys s, max RSS KB):"
for tool in bpftool perfj java; do
    grep "^$tool " /tmp/perfj-bench-times.txt | awk -v t="$tool" '
        { w[NR]=$2; u[NR]=$3; s[NR]=$4; m[NR]=$5 }
        function med(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j+1] = a[j]; a[j+1] = x } return a[int((n+1)/2)] }
        END { printf "  %-8s wall %.2f  user %.2f  sys %.2f  rss %d\n", t, med(w, NR), med(u, NR), med(s, NR), med(m, NR) }'
done
