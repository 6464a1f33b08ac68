# Sourced by the scripts that time perf against perfj: `alternate LABEL RUNS` runs the commands
# in the arrays PERF_CMD and PERFJ_CMD RUNS times each, alternating (perf first), their output
# discarded, and prints the medians of /usr/bin/time's wall time, CPU time (user + sys) and peak
# RSS of each tool, one line per tool. Sourcing it checks that perf is there, sets the C locale
# and UTC, and makes $tmp, a directory removed at exit.
command -v perf >/dev/null || { echo "perf is needed" >&2; exit 1; }
export LC_ALL=C TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

alternate() {
    local label="$1" runs="$2" log="$tmp/alternate.log" i tool
    rm -f "$log"
    for i in $(seq "$runs"); do
        /usr/bin/time -o "$log.t" -f "%e %U %S %M" "${PERF_CMD[@]}" > /dev/null 2>&1; echo "perf $(cat "$log.t")" >> "$log"
        /usr/bin/time -o "$log.t" -f "%e %U %S %M" "${PERFJ_CMD[@]}" > /dev/null 2>&1; echo "perfj $(cat "$log.t")" >> "$log"
    done
    for tool in perf perfj; do
        med() { awk -v t="$tool" -v col="$1" '$1 == t {print (col == 3 ? $3 + $4 : $col)}' "$log" \
            | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
        printf "%-15s %-6s wall %s s  cpu %.2f s  rss %s KB (medians of %s)\n" "$label" "$tool" "$(med 2)" "$(med 3)" "$(med 5)" "$runs"
    done
    rm -f "$log" "$log.t"
}
