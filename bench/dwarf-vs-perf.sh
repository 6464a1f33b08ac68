#!/usr/bin/env bash
# Times perf 6.1 and perfj on a --call-graph dwarf recording (make one with
# CALLGRAPH=dwarf bench/make-big.sh FILE), alternating the two tools run by run so that load from
# other work on the machine hits both alike, and prints the median wall, user+sys CPU and peak RSS
# of each command, perfj's wall as a multiple of perf's, and whether the outputs are identical
# (report: ignoring perf's random "# (Tip: ...)" line).
# Usage: bench/dwarf-vs-perf.sh FILE [RUNS (default 5)] [perfj OPTIONS...]
# perfj runs with --compat perf-6.1 (perf's frames, so that the outputs can be compared) unless
# options are given, e.g. bench/dwarf-vs-perf.sh /tmp/dwarf.data 5 --buildid-dir /tmp/cache
# (correct-mode unwinding: its stacks are longer than perf's where libunwind goes wrong).
# COMMANDS="report script" (default both) picks the commands.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:?usage: bench/dwarf-vs-perf.sh FILE [RUNS] [perfj options...]}"
RUNS="${2:-5}"
shift $(( $# >= 2 ? 2 : 1 ))
EXTRA=("$@")
[ ${#EXTRA[@]} -gt 0 ] || EXTRA=(--compat perf-6.1)
[ -f "$FILE" ] || { echo "no $FILE; make it with CALLGRAPH=dwarf bench/make-big.sh $FILE" >&2; exit 1; }
export LC_ALL=C TZ=UTC
"$ROOT/perfj" --train report script   # builds, and makes the start-up cache, outside the timings
TMP=$(mktemp -d /tmp/perfj-dwarf-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
samples=$(perf report --stats -i "$FILE" 2>/dev/null | awk '/SAMPLE events/ {print $3; exit}')
echo "file: $FILE ($(stat -c %s "$FILE") bytes, $samples samples), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M') UTC"
echo "perf: $(perf --version); runs: $RUNS each, alternating; perfj options: ${EXTRA[*]:-(none)}"

# one timed run: appends "wall cpu rss" to $TMP/NAME.times, output to $TMP/NAME.out
timed() {
    local name="$1"; shift
    /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" || true
    awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$TMP/time" >>"$TMP/$name.times"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
col() { awk -v c="$2" '{print $c}' "$TMP/$1.times" | median; }

for cmd in ${COMMANDS:-report script}; do
    case "$cmd" in
        report) popts=(report --stdio); jopts=(report --stdio) ;;
        script) popts=(script); jopts=(script) ;;
        *) echo "unknown command $cmd" >&2; exit 1 ;;
    esac
    for i in $(seq "$RUNS"); do
        timed "perf-$cmd" perf "${popts[@]}" -i "$FILE"
        timed "perfj-$cmd" "$ROOT/perfj" "${jopts[@]}" -i "$FILE" "${EXTRA[@]}"
    done
    pw=$(col "perf-$cmd" 1); jw=$(col "perfj-$cmd" 1)
    printf '%-7s perf : wall %6.2f s  cpu %6.2f s  rss %7d KB   (walls: %s)\n' "$cmd" "$pw" "$(col "perf-$cmd" 2)" \
        "$(col "perf-$cmd" 3)" "$(cut -d' ' -f1 "$TMP/perf-$cmd.times" | paste -sd' ')"
    printf '%-7s perfj: wall %6.2f s  cpu %6.2f s  rss %7d KB   (walls: %s)\n' "$cmd" "$jw" "$(col "perfj-$cmd" 2)" \
        "$(col "perfj-$cmd" 3)" "$(cut -d' ' -f1 "$TMP/perfj-$cmd.times" | paste -sd' ')"
    awk -v p="$pw" -v j="$jw" -v n="$samples" 'BEGIN {printf "        perfj/perf wall %.2fx; perfj %.1f us/sample, perf %.1f us/sample\n", j / p, j * 1e6 / n, p * 1e6 / n}'
    if cmp -s <(grep -v '^# (Tip:' "$TMP/perf-$cmd.out") <(grep -v '^# (Tip:' "$TMP/perfj-$cmd.out"); then
        echo "        output: identical"
    else
        echo "        output: differs in $(diff <(grep -v '^# (Tip:' "$TMP/perf-$cmd.out") <(grep -v '^# (Tip:' "$TMP/perfj-$cmd.out") | grep -c '^[<>]') lines"
    fi
done
