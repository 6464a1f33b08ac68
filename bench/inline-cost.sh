#!/usr/bin/env bash
# What naming the functions inlined at callchain addresses costs perfj's default mode: times
# `report --stdio` and `script` of perfj (default), perfj --no-inline and, when given, a second
# perfj build (BASE) and perf 7.2, alternating run by run so that load from other work on the
# machine hits all alike, and prints the medians of wall time, CPU time (user + sys, addr2line
# children included) and peak RSS of each.
# Usage: bench/inline-cost.sh FILE [RUNS (default 5)]
# Environment:
#   PERFJ=CMD       the perfj to time (default: this checkout's ./perfj)
#   BASE=CMD        another perfj to time in default mode alongside (e.g. a wrapper running an
#                   older perfj.jar), labelled "base"
#   PERF72_ROOT=DIR a chroot holding perf 7.2 with this machine's / mounted at DIR/host; perf 7.2
#                   then runs as `chroot DIR perf ... -i /host/FILE --symfs /host`
#   COMMANDS="report script" (default both)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="$(readlink -f "${1:?usage: bench/inline-cost.sh FILE [RUNS]}")"
RUNS="${2:-5}"
PERFJ="${PERFJ:-$ROOT/perfj}"
export LC_ALL=C TZ=UTC
TMP=$(mktemp -d /tmp/perfj-inline-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M') UTC"

# one timed run: appends "wall cpu rss" to $TMP/NAME.times
timed() {
    local name="$1"; shift
    /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/$name.err" || true
    awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$TMP/time" >>"$TMP/$name.times"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
col() { awk -v c="$2" '{print $c}' "$TMP/$1.times" | median; }

for cmd in ${COMMANDS:-report script}; do
    case "$cmd" in
        report) args=(report --stdio) ;;
        script) args=(script) ;;
        *) echo "unknown command $cmd" >&2; exit 1 ;;
    esac
    # a run of each outside the timings (builds perfj, warms the page cache)
    $PERFJ "${args[@]}" -i "$FILE" >/dev/null 2>&1 || true
    names=(default no-inline)
    [ -z "${BASE:-}" ] || names+=(base)
    [ -z "${PERF72_ROOT:-}" ] || names+=(perf7.2)
    for i in $(seq "$RUNS"); do
        timed "$cmd-default" $PERFJ "${args[@]}" -i "$FILE"
        timed "$cmd-no-inline" $PERFJ "${args[@]}" -i "$FILE" --no-inline
        [ -z "${BASE:-}" ] || timed "$cmd-base" $BASE "${args[@]}" -i "$FILE"
        [ -z "${PERF72_ROOT:-}" ] || timed "$cmd-perf7.2" chroot "$PERF72_ROOT" perf "${args[@]}" -i "/host$FILE" --symfs /host
    done
    for n in "${names[@]}"; do
        printf '%-7s %-10s wall %6.2f s  cpu %6.2f s  rss %7d KB   (walls: %s)\n' "$cmd" "$n" "$(col "$cmd-$n" 1)" \
            "$(col "$cmd-$n" 2)" "$(col "$cmd-$n" 3)" "$(cut -d' ' -f1 "$TMP/$cmd-$n.times" | paste -sd' ')"
    done
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
