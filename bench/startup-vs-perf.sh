#!/usr/bin/env bash
# Start-up included: times every perfj command against the perf (or bpftool) command it stands
# for, on a small recording, and prints the median wall time of each pair and their ratio.
# perf, perfj (with its ahead-of-time caches) and, unless NOCACHE=0, perfj with PERFJ_AOT=0 run
# one after the other, round after round, so that all three see the same load (the machine is
# shared; wall times drift by tens of percent over minutes).
# Commands without a perf counterpart compare with pahole (btf layout, btf encode of a small
# fixture) or stand alone (bpf), for the start-up gain of their caches.
# Usage: bench/startup-vs-perf.sh [FILE] [RUNS] [BTF]
#   FILE  defaults to fixtures/hot-20k.data (21.6k samples; recipe in fixtures/README.md)
#   RUNS  rounds per command, default 5 (medians of RUNS)
#   BTF   defaults to /sys/kernel/btf/vmlinux (btf dump rows; skipped without bpftool)
# ONLY=regex limits the rows (e.g. ONLY='^btf'), NOCACHE=0 leaves out the no-cache column,
# BASE=DIR adds a column for the ./perfj of another checkout (e.g. the commit before a change).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FILE="${1:-$ROOT/fixtures/hot-20k.data}"
RUNS="${2:-5}"
BTF="${3:-/sys/kernel/btf/vmlinux}"
NOCACHE="${NOCACHE:-1}"
BASE="${BASE:-}"
ONLY="${ONLY:-.}"
[ -f "$FILE" ] || { echo "no $FILE" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf is needed" >&2; exit 1; }
export LC_ALL=C TZ=UTC
PERFJ="$ROOT/perfj"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Both tools find the recorded program through a build-id cache holding the committed binary, so
# that the recording's absolute paths need not exist here.
BID="$tmp/bid"
perf --buildid-dir "$BID" buildid-cache -a "$ROOT/fixtures/bin/hot" 2>/dev/null || true

# label | perf's command | perfj's command (perfj's first word is the launcher)
rows=(
    "header|perf report --header-only -i $FILE|$PERFJ header -i $FILE"
    "dump|perf report -D -i $FILE|$PERFJ dump -i $FILE"
    "dump --stats|perf report --stats -i $FILE|$PERFJ dump --stats -i $FILE"
    "report|perf --buildid-dir $BID report --stdio -i $FILE|$PERFJ report --stdio --buildid-dir $BID -i $FILE"
    "report --no-children -g none|perf --buildid-dir $BID report --stdio --no-children -g none -i $FILE|$PERFJ report --stdio --no-children -g none --buildid-dir $BID -i $FILE"
    "script|perf --buildid-dir $BID script -i $FILE|$PERFJ script --buildid-dir $BID -i $FILE"
    "annotate|perf --buildid-dir $BID annotate --stdio2 -i $FILE|$PERFJ annotate --stdio2 --buildid-dir $BID -i $FILE"
)
if command -v bpftool >/dev/null && [ -r "$BTF" ]; then
    rows+=(
        "btf dump|bpftool btf dump file $BTF|$PERFJ btf dump $BTF"
        "btf dump format c|bpftool btf dump file $BTF format c|$PERFJ btf dump $BTF format c"
    )
else
    echo "(no bpftool or no $BTF: btf dump rows skipped)"
fi
ENC="$ROOT/fixtures/btf-encode/bin/gcc-dwarf5"
if command -v pahole >/dev/null && [ -r "$BTF" ]; then
    rows+=(
        "btf layout|pahole -F btf -C sk_buff $BTF|$PERFJ btf layout $BTF sk_buff"
        "btf encode (small ELF)|pahole -J -j --btf_encode_detached=$tmp/pahole.btf $ENC|$PERFJ btf encode -o $tmp/perfj.btf $ENC"
    )
fi
rows+=("bpf (listing)|-|$PERFJ bpf -i $ROOT/fixtures/bpf-sys.data --no-system-files")

# Build, and make each command's cache, outside the timings; say whether the two outputs agree
# (perfj's default answers may differ from perf 6.1's where perf is wrong; --compat perf-6.1
# gives perf's).
"$PERFJ" --train header dump report script annotate btf-dump btf-dump-c btf-layout btf-encode bpf
for row in "${rows[@]}"; do
    IFS='|' read -r label pcmd jcmd <<<"$row"
    [[ "$label" =~ $ONLY ]] || continue
    $jcmd >"$tmp/j.out" 2>/dev/null || true
    if [ -n "$BASE" ]; then "$BASE/perfj" ${jcmd#"$PERFJ"} >/dev/null 2>&1 || true; fi   # its caches
    if [ "$pcmd" = - ] || [[ "$label" = "btf encode"* ]]; then
        same="not compared"
    elif $pcmd >"$tmp/p.out" 2>/dev/null; cmp -s "$tmp/p.out" "$tmp/j.out"; then same=identical; else same="differ ($( (diff "$tmp/p.out" "$tmp/j.out" || true) | grep -c '^[<>]') lines)"; fi
    printf '%-30s outputs %s\n' "$label" "$same"
done
echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $(uname -r), $(perf --version)"
echo "date: $(date -u '+%F %H:%M UTC'), load at start: $(cut -d' ' -f1-3 /proc/loadavg)"

one() {   # one TOOL LABEL COMMAND...: appends "TOOL<TAB>LABEL<TAB>wall cpu rss" to $tmp/t
    local tool="$1" label="$2"; shift 2
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/one" "$@" >/dev/null 2>&1 || true
    printf '%s\t%s\t%s\n' "$tool" "$label" "$(tail -1 "$tmp/one")" >>"$tmp/t"
}
: >"$tmp/t"
for i in $(seq "$RUNS"); do
    for row in "${rows[@]}"; do
        IFS='|' read -r label pcmd jcmd <<<"$row"
        [[ "$label" =~ $ONLY ]] || continue
        if [ "$pcmd" != - ]; then one perf "$label" $pcmd; fi
        one perfj "$label" $jcmd
        if [ "$NOCACHE" = 1 ]; then PERFJ_AOT=0 one nocache "$label" $jcmd; fi
        if [ -n "$BASE" ]; then one base "$label" "$BASE/perfj" ${jcmd#"$PERFJ"}; fi
    done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"

median() {   # median TOOL LABEL FIELD (1 wall, 2 user+sys, 3 max RSS KB)
    awk -F'\t' -v t="$1" -v l="$2" -v f="$3" '$1 == t && $2 == l {
        split($3, v, " "); print (f == 1 ? v[1] : f == 2 ? v[2] + v[3] : v[4]) }' "$tmp/t" \
        | sort -g | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }'
}
printf '\nmedians of %s runs: wall s (CPU s, peak RSS MB)\n' "$RUNS"
printf '%-30s %-22s %-22s %-7s' command "perf/bpftool" "perfj" perfj/perf
[ "$NOCACHE" = 1 ] && printf ' %-22s %-11s' "perfj PERFJ_AOT=0" "cache saves"
[ -n "$BASE" ] && printf ' %s' "BASE perfj"
echo
for row in "${rows[@]}"; do
    IFS='|' read -r label _ _ <<<"$row"
    [[ "$label" =~ $ONLY ]] || continue
    cell() {
        if [ "$(median "$1" "$label" 1)" = - ]; then printf -- '-'; return; fi
        printf '%s (%s, %.0f)' "$(median "$1" "$label" 1)" "$(median "$1" "$label" 2)" \
            "$(awk -v k="$(median "$1" "$label" 3)" 'BEGIN { print k / 1024 }')"
    }
    pw=$(median perf "$label" 1); jw=$(median perfj "$label" 1)
    printf '%-30s %-22s %-22s %-7s' "$label" "$(cell perf)" "$(cell perfj)" \
        "$(awk -v a="$jw" -v b="$pw" 'BEGIN { if (b == "-") print "-"; else printf "%.2fx", a / b }')"
    if [ "$NOCACHE" = 1 ]; then
        nw=$(median nocache "$label" 1)
        printf ' %-22s %-11s' "$(cell nocache)" "$(awk -v a="$nw" -v b="$jw" 'BEGIN { printf "%.2f s", a - b }')"
    fi
    [ -n "$BASE" ] && printf ' %s' "$(cell base)"
    echo
done
