#!/usr/bin/env bash
# perfj against perf 6.1 on one recording, command by command, alternating perf and perfj runs
# (perf, perfj, perf, perfj, ...) so both see the same machine; prints every run and the
# medians of wall time, CPU time (user + sys) and peak RSS, and the perfj/perf ratios.
# With PERF72_ROOT set to a chroot holding perf 7.2 (../shared/tools/perf-unstable.sh makes one,
# the host's / bound at ROOT/host), perf 7.2 runs in the same rotation (perf, perf 7.2, perfj),
# reading the host's files through --symfs /host and the running kernel's kallsyms.
# Usage: [PERF72_ROOT=DIR] bench/pipeline-vs-perf.sh [FILE] [RUNS] [WHAT...]
#   WHAT: report report-flat script dump (default: all four). Output goes to /dev/null.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-/tmp/perfj-big.data}"
RUNS="${2:-5}"
shift 2 2>/dev/null || shift $#
WHAT=("$@")
[ ${#WHAT[@]} -gt 0 ] || WHAT=(report report-flat script dump)
[ -f "$FILE" ] || { echo "no $FILE; make it with bench/make-big.sh" >&2; exit 1; }
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --train report script dump   # builds, and makes the start-up cache, outside the timings
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(date -u '+%F %H:%M'), load $(cut -d' ' -f1-3 /proc/loadavg)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
one() { # label file command...
    local label="$1" rec="$2"; shift 2
    /usr/bin/time -f "%e %U %S %M" -o "$TMP/t" "$@" >/dev/null 2>"$TMP/err" || { echo "$label failed:"; tail -3 "$TMP/err"; }
    read -r wall user sys rss < "$TMP/t"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
    echo "$wall $cpu $rss" >> "$rec"
    printf '  %-8s %6.2f s wall %6.2f s cpu %8d KB\n' "$label" "$wall" "$cpu" "$rss"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
for w in "${WHAT[@]}"; do
    case "$w" in
        report) P=(perf report --stdio -i "$FILE"); J=("$ROOT/perfj" report --stdio -i "$FILE") ;;
        report-flat) P=(perf report --stdio --no-children -g none -i "$FILE")
                     J=("$ROOT/perfj" report --stdio --no-children -g none -i "$FILE") ;;
        script) P=(perf script -i "$FILE"); J=("$ROOT/perfj" script -i "$FILE") ;;
        dump) P=(perf report -D -i "$FILE"); J=("$ROOT/perfj" dump -i "$FILE") ;;
        *) echo "unknown: $w" >&2; exit 2 ;;
    esac
    # perf 7.2: the same perf arguments, run in the chroot on the host's files
    Q=()
    if [ -n "${PERF72_ROOT:-}" ]; then
        Q=(chroot "$PERF72_ROOT" perf "${P[@]:1}" --symfs /host --kallsyms /proc/kallsyms)
        Q=("${Q[@]/#$FILE//host$FILE}")
    fi
    echo "$w: ${P[*]}  vs  perfj ${J[*]:1}"
    rm -f "$TMP/p" "$TMP/q" "$TMP/j"
    for i in $(seq "$RUNS"); do
        one perf "$TMP/p" "${P[@]}"
        [ ${#Q[@]} -eq 0 ] || one perf7.2 "$TMP/q" "${Q[@]}"
        one perfj "$TMP/j" "${J[@]}"
    done
    for col in 1 2 3; do
        p=$(cut -d' ' -f$col "$TMP/p" | median); j=$(cut -d' ' -f$col "$TMP/j" | median)
        name=$(echo "wall cpu rss" | cut -d' ' -f$col)
        printf '  median %-4s perf %10s  perfj %10s  ratio %s' "$name" "$p" "$j" "$(awk -v a="$j" -v b="$p" 'BEGIN { printf "%.2f", a / b }')"
        if [ ${#Q[@]} -gt 0 ]; then
            q=$(cut -d' ' -f$col "$TMP/q" | median)
            printf '  perf7.2 %10s  ratio %s' "$q" "$(awk -v a="$j" -v b="$q" 'BEGIN { printf "%.2f", a / b }')"
        fi
        printf '\n'
    done
done
